/* SPDX-License-Identifier: MIT */
/* The replay engine: a workload streamed through a scheduler with a simulated clock, malloc-free. */
#ifndef SCHED_REPLAY_H
#define SCHED_REPLAY_H

#include "sched/sched.h"
#include "sched/metrics.h"
#include "sched/hash.h"

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

/** One job, cleaned (trace/clean.h has the rule): the record the host's workloads hold and the engine replays. */
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
struct sched_replay; /* the engine: opaque (see SCHED_REPLAY_BYTES) */
/* After every core call that succeeded, at time t (to watch reservations move, for example). @p r is a
 * read-only view: a callback that moves the replay (sched_replay_move) does it through its owner's handle. */
typedef void (*sched_replay_step_fn)(void *ctx, const struct sched_replay *r, sched_time_t t);

/*
 * The engine's registers are opaque (core/src/replay_priv.h): a caller gives
 * sched_replay_init() a room of SCHED_REPLAY_BYTES, aligned to
 * SCHED_ARENA_ALIGN, and reads the engine through the functions below. The
 * sizes here are checked against the private definitions by static
 * assertions in replay.c.
 */
#define SCHED_REPLAY_BYTES (sizeof(struct sched_config) + sizeof(struct sched_metrics) + 12u * sizeof(void *) + 48u)
#define SCHED_REPLAY_SLOT_BYTES 12u    /* per job in the system: seq, run time, free-list link */
#define SCHED_REPLAY_PENDING_BYTES 12u /* per pending end in the heap: end, seq, slot */

/* Arena bytes for a replay whose core holds at most max_jobs jobs at once. */
#define SCHED_REPLAY_ARENA_SIZE(max_jobs)                                  \
	(SCHED_ARENA_SIZE(max_jobs) +                                      \
	 (size_t)(max_jobs) * SCHED_REPLAY_SLOT_BYTES +                    \
	 (size_t)(max_jobs) * SCHED_REPLAY_PENDING_BYTES)

/** SCHED_REPLAY_ARENA_SIZE as a function (no scratch). O(1). */
size_t sched_replay_arena_size(uint32_t max_jobs);

/* Arena bytes for a replay under configuration cfg, with its scratch. */
#define SCHED_REPLAY_ARENA_SIZE_SCRATCH(max_jobs, scratch_jobs)                    \
	(SCHED_ARENA_SIZE_SCRATCH(max_jobs, scratch_jobs) +                         \
	 (size_t)(max_jobs) * (SCHED_REPLAY_SLOT_BYTES + SCHED_REPLAY_PENDING_BYTES))

/** Arena bytes for a replay under @p cfg (with its scratch). O(1). */
size_t sched_replay_arena_size_cfg(const struct sched_config *cfg);

/**
 * Prepare a replay under @p cfg: its registers in @p room (@p room_size >=
 * SCHED_REPLAY_BYTES, aligned to SCHED_ARENA_ALIGN; *@p out, set on success only, is its handle),
 * its memory in @p arena (sched_replay_arena_size_cfg bytes, aligned to
 * SCHED_ARENA_ALIGN); @p on_event (may be NULL) sees every event. O(1).
 * @retval SCHED_E_INVAL room or arena NULL or misaligned; otherwise as for sched_init().
 * @retval SCHED_E_NOSPACE the room or the arena is too small; otherwise as for sched_init().
 */
int sched_replay_init(struct sched_replay **out, void *room, size_t room_size, const struct sched_config *cfg,
		      void *arena, size_t arena_size, sched_replay_event_fn on_event, void *ctx);

/* Options of sched_replay_set_flags(), all off after init. */
#define SCHED_REPLAY_CHECK 1u          /* sched_check() after every call */
#define SCHED_REPLAY_NO_HASH 2u        /* no hash: about 5% of a FCFS or EASY replay, for a caller that never reads it */
#define SCHED_REPLAY_EVERY_QUANTUM 4u  /* time sharing: a SWITCH for every quantum, never a SKIP (slow: sched_config.every_slice) */

/** Set the options (SCHED_REPLAY_* ORed) of @p r, before sched_replay_run(). O(1); no error. */
void sched_replay_set_flags(struct sched_replay *r, unsigned flags);

/** Call @p on_step (NULL: none) with the event callback's ctx after every core call that succeeded. O(1); no error. */
void sched_replay_on_step(struct sched_replay *r, sched_replay_step_fn on_step);

/** What a replay has counted so far (final once sched_replay_run() returned SCHED_OK). */
struct sched_replay_stats {
	struct sched_metrics metrics; /* of the jobs that ran */
	uint64_t hash;                /* FNV-1a 64 of the event stream (docs/console.md); SCHED_FNV_OFFSET with NO_HASH */
	uint32_t jobs;                /* jobs read from the source */
	uint32_t refused;             /* for room, or because their queue's limits exclude them */
	uint64_t calls;               /* core API calls made */
};

/** Copy @p r's counters, metrics and hash into @p out. O(1); no error. */
void sched_replay_stats(const struct sched_replay *r, struct sched_replay_stats *out);

/** The scheduler the replay runs (every policy, gang too), for its read-only accessors. O(1). */
const struct sched *sched_replay_sched(const struct sched_replay *r);

/**
 * The seq of the job in engine slot @p slot (a core job id, or runs[i].job of
 * a SWITCH): valid while that job is in the system. O(1).
 * UINT32_MAX when @p slot is not below the configuration's max_jobs.
 */
uint32_t sched_replay_seq(const struct sched_replay *r, uint32_t slot);

/** The configuration @p r runs, as the engine normalised it (a time-sharing policy's defaults filled in). O(1). */
const struct sched_config *sched_replay_config(const struct sched_replay *r);

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
 * @retval SCHED_E_STATE an invariant check failed (with SCHED_REPLAY_CHECK set).
 * A negative error of the source is returned as it is; any other core error
 * means a bug and is returned too.
 */
int sched_replay_run(struct sched_replay *r, sched_replay_source_fn next, void *ctx);

/** Time sharing: a job's length in quanta, min(run, estimate) rounded up, at least 1. O(1). */
uint32_t sched_replay_quanta(const struct sched_replay_job *j, sched_time_t quantum);

#endif /* SCHED_REPLAY_H */
