/* SPDX-License-Identifier: MIT */
/* The replay engine: a workload streamed through a scheduler with a simulated clock, malloc-free. */
#ifndef SCHED_REPLAY_H
#define SCHED_REPLAY_H

#include "sched/sched.h"
#include "sched/metrics.h"

/*
 * The host replayer and the firmware's `replay` command run this same loop,
 * so the same workload gives the same schedule, bit for bit, on both. Jobs
 * come one at a time from a callback, in submit order; at each instant t:
 * the jobs that end by themselves at t are reported first (ordered by their
 * sequence numbers), then the jobs submitted at t in order, then
 * sched_advance(t). The engine knows each job's run time; the core never
 * does. Storage (the scheduler's arena, a slot per job in the system, a heap
 * of pending ends) comes from one caller-owned arena.
 */

/** One job, cleaned (see sched_replay_clean): the record the host's workloads hold and the engine replays. */
struct sched_replay_job {
	uint32_t seq;           /* the caller's number: unique, increasing in submit order */
	sched_time_t submit;
	sched_time_t run;       /* actual run time; the job holds its processors min(run, estimate) */
	sched_time_t estimate;
	sched_procs_t procs;
	uint32_t user;
	uint8_t queue;          /* index of its site queue (0 without a site) */
	uint8_t partition;      /* SCHED_PART_ANY, or the partition it must use */
	uint16_t up_milli, pp_milli; /* user and political priority (slack policy) */
};

enum sched_replay_kind {
	SCHED_RE_SUBMIT,  /* accepted; predicted = the guarantee, or SCHED_TIME_MAX */
	SCHED_RE_REFUSED, /* the core had no room, or the job's queue limits exclude it (see err) */
	SCHED_RE_START,   /* procs, backfilled */
	SCHED_RE_END,     /* ended by itself; submit and start given */
	SCHED_RE_KILL,    /* reached its estimate; submit and start given */
	SCHED_RE_SWITCH,  /* time sharing: a quantum starts; runs[0..n_runs) is slot `slot`'s list (job = the engine's slot) */
	SCHED_RE_SKIP,    /* time sharing: `quanta` quanta from `time` in which nothing changed, run in one step
			   * with `slot` slots in the round robin; instead of their SWITCHes (SCHED_DEC_SKIP) */
};

struct sched_replay_event {
	enum sched_replay_kind kind;
	uint32_t seq;
	sched_time_t time;
	sched_procs_t procs;
	sched_time_t predicted;
	sched_time_t submit, start;
	bool backfilled;
	int err;                 /* REFUSED: why (SCHED_E_NOSPACE or SCHED_E_LIMIT) */
	uint8_t partition;       /* START, END, KILL: where it runs; SUBMIT: where it is reserved */
	bool killed;             /* KILL; or END under time sharing of a job that ran its whole estimate */
	uint32_t slot;           /* SWITCH: the time slot that runs */
	const struct sched_slice_run *runs; /* SWITCH: the context switch list; runs[i].job is an engine slot */
	uint32_t n_runs;
	uint32_t quanta;         /* SWITCH: 1; SKIP: the quanta it stands for */
};

/** Next job into @p job: 1, or 0 at the end, or a negative error of the source. */
typedef int (*sched_replay_source_fn)(void *ctx, struct sched_replay_job *job);
typedef void (*sched_replay_event_fn)(void *ctx, const struct sched_replay_event *e);
struct sched_replay;
/* After every core call that succeeded, at time t (to watch reservations move, for example). */
typedef void (*sched_replay_step_fn)(void *ctx, const struct sched_replay *r, sched_time_t t);

/* What the engine keeps per job in the system beyond the core's own record: 12 bytes. */
struct sched_replay_slot {
	uint32_t seq;
	sched_time_t run;
	uint32_t next_free;
};

struct sched_replay_pending {
	sched_time_t end;
	uint32_t seq;
	uint32_t slot;
};

/*
 * The engine's registers. Its memory (the scheduler, the slots, the heap) is
 * one arena, position-independent like the scheduler's: sched_replay_move()
 * carries a replay on in a byte copy of it.
 */
struct sched_replay {
	struct sched *sched;              /* the scheduler, at the arena's start */
	struct sched_config cfg;
	void *sched_arena;
	size_t sched_arena_size;
	struct sched_replay_slot *slots;
	uint32_t free_slot;               /* head of the free slots, or UINT32_MAX */
	struct sched_replay_pending *heap;
	uint32_t heap_n;
	struct sched_metrics metrics;     /* of the jobs that ran */
	uint64_t hash;                    /* FNV-1a 64 of the event stream (docs/console.md) */
	uint32_t jobs;                    /* jobs read from the source */
	uint32_t refused;                 /* for room, or because their queue's limits exclude them */
	uint64_t calls;                   /* core API calls made */
	bool check;                       /* sched_check() after every call */
	bool no_hash;                     /* leave `hash` as it starts: set by a caller that never reads it, after init */
	bool every_quantum;               /* time sharing: a SWITCH for every quantum, never a SKIP: set by a caller
					   * that writes the context switch lists, after init (slow; sched_config.every_slice) */
	int error;
	sched_replay_event_fn on_event;
	void *event_ctx;
	sched_replay_step_fn on_step;     /* NULL, or set by the caller after init */
};

/* Arena bytes for a replay whose core holds at most max_jobs jobs at once. */
#define SCHED_REPLAY_ARENA_SIZE(max_jobs)                                  \
	(SCHED_ARENA_SIZE(max_jobs) +                                      \
	 (size_t)(max_jobs) * sizeof(struct sched_replay_slot) +           \
	 (size_t)(max_jobs) * sizeof(struct sched_replay_pending))

/** SCHED_REPLAY_ARENA_SIZE as a function (no scratch). O(1). */
size_t sched_replay_arena_size(uint32_t max_jobs);

/* Arena bytes for a replay under configuration cfg, with its scratch. */
#define SCHED_REPLAY_ARENA_SIZE_SCRATCH(max_jobs, scratch_jobs)                    \
	(SCHED_ARENA_SIZE_SCRATCH(max_jobs, scratch_jobs) +                         \
	 (size_t)(max_jobs) * (sizeof(struct sched_replay_slot) + sizeof(struct sched_replay_pending)))

/** Arena bytes for a replay under @p cfg (with its scratch). O(1). */
size_t sched_replay_arena_size_cfg(const struct sched_config *cfg);

/**
 * Prepare a replay under @p cfg over @p arena (sched_replay_arena_size_cfg
 * bytes, aligned to SCHED_ARENA_ALIGN); @p on_event (may be NULL) sees every event.
 * O(1). @retval SCHED_E_INVAL, SCHED_E_NOSPACE as for sched_init().
 */
int sched_replay_init(struct sched_replay *r, const struct sched_config *cfg, void *arena,
		      size_t arena_size, sched_replay_event_fn on_event, void *ctx);

/**
 * What sched_replay_init() would refuse for @p cfg and an arena of
 * @p arena_size bytes, without an arena: SCHED_OK or its error, nothing
 * written. For a caller whose arena holds something else until it commits
 * to the replay (the console's live schedule). O(parameters).
 * @retval SCHED_E_INVAL, SCHED_E_NOSPACE, SCHED_E_RANGE, SCHED_E_NOTSUP as for sched_replay_init().
 */
int sched_replay_check(const struct sched_config *cfg, size_t arena_size);

/**
 * Carry the replay on in @p arena, which must hold a byte copy of the
 * current arena (taken at any point the engine hands control out: an event
 * or step callback, or between runs). The old arena is not used again. O(1).
 * @retval SCHED_E_FORMAT, SCHED_E_NOSPACE, SCHED_E_INVAL as for sched_attach().
 */
int sched_replay_move(struct sched_replay *r, void *arena, size_t arena_size);

/**
 * Run the whole workload from @p next. Jobs the core refuses for lack of
 * room are counted and reported, not lost. O(events x cost of the policy).
 * @retval SCHED_OK done; the metrics and the hash are final.
 * @retval SCHED_E_TIME the source went backwards in submit time.
 * @retval SCHED_E_STATE an invariant check failed (with check set).
 * A negative error of the source is returned as it is; any other core error
 * means a bug and is returned too.
 */
int sched_replay_run(struct sched_replay *r, sched_replay_source_fn next, void *ctx);

enum sched_skip {
	SCHED_SKIP_NONE,
	SCHED_SKIP_PROCS,  /* processors < 1 in both fields */
	SCHED_SKIP_RUN,    /* run time < 0 (unknown) */
	SCHED_SKIP_WIDE,   /* more processors than the machine */
	SCHED_SKIP_SUBMIT, /* submit time < 0, or too large for the clock */
	SCHED_SKIP_NO_QUEUE, /* no site queue takes it (a host site file's routing; never from sched_replay_clean) */
	SCHED_SKIP_COUNT
};

/**
 * The replay conventions, one job: processors = alloc if > 0 else req;
 * estimate = req_time if > 0 else the run time, and at least 1 s; submit =
 * submit. Fills @p out (all but seq) and returns SCHED_SKIP_NONE, or why the
 * job cannot be replayed. O(1).
 */
enum sched_skip sched_replay_clean(int32_t submit, int32_t run, int32_t alloc_procs,
				   int32_t req_procs, int32_t req_time, sched_procs_t machine,
				   struct sched_replay_job *out);
/* The rest of a cleaned job (user, queue, partition, priorities) is set to the defaults. */

/** Time sharing: a job's length in quanta, min(run, estimate) rounded up, at least 1. O(1). */
uint32_t sched_replay_quanta(const struct sched_replay_job *j, sched_time_t quantum);

/** Feed one byte string into an FNV-1a 64 hash. O(n). */
uint64_t sched_fnv1a(uint64_t h, const uint8_t *p, size_t n);

#define SCHED_FNV_OFFSET 0xcbf29ce484222325ull

#endif /* SCHED_REPLAY_H */
