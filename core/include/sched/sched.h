/* SPDX-License-Identifier: MIT */
/* The scheduler object and its event API: submit, finish, cancel, advance, next_event, predict. */
#ifndef SCHED_SCHED_H
#define SCHED_SCHED_H

#include "sched/types.h"
#include "sched/dynp.h"
#include "sched/gang.h"
#include "sched/err.h"
#include "sched/policies.h"

/*
 * One struct sched holds everything: configuration, the job and segment
 * pools (over an arena the caller owns), the waiting queue, the running
 * list, one availability profile per partition, and an optional scratch
 * area where planning policies try schedules without touching the live one.
 * There is no global state, so any number of schedulers can coexist.
 *
 * The caller owns the clock. Every call that takes `now` requires now to
 * be at least the previous call's now (else SCHED_E_TIME) and below
 * SCHED_NOW_LIMIT (else SCHED_E_RANGE). The core only ever knows a job's
 * processors and estimate; the end of a job reaches it as sched_finish()
 * (ended by itself) or is decided by the core (killed at its estimate).
 *
 * Conventions at one instant t: the caller first reports the jobs that
 * ended at t (sched_finish), then submits the jobs that arrived at t in
 * arrival order (sched_submit), then calls sched_advance(t), which kills
 * jobs that reach their estimate at t and runs one scheduling pass.
 * Decisions (start, kill) are delivered through the callback given to
 * sched_init(), synchronously, from inside the call that makes them; the
 * callback must not call back into the same scheduler.
 */

/* Times at or above this are refused, so that now + estimate never wraps. */
#define SCHED_NOW_LIMIT ((sched_time_t)0x80000000u)
/* Estimates must be below this (about 68 years). */
#define SCHED_ESTIMATE_LIMIT ((sched_time_t)0x80000000u)

#define SCHED_MAX_PARTITIONS 8u
#define SCHED_MAX_QUEUES 16u

/* The policies (sched/policies.h): SCHED_POLICY_FCFS, _EASY, _CONS, ... in registry order. */
enum sched_policy_id {
#define SCHED_POLICY_ID(id, sym, bytes) SCHED_POLICY_##id,
	SCHED_POLICIES(SCHED_POLICY_ID)
#undef SCHED_POLICY_ID
	SCHED_POLICY_COUNT
};

/*
 * Where each policy's parameter block starts in struct sched_config's
 * parameter area: the sum of the blocks before it in the registry
 * (SCHED_PARAMS_AT_<ID>), and the area's size (SCHED_PARAM_BYTES). Fixed
 * at compile time from sched/policies.h, so the layout is the same in
 * every build; only the policy's own file knows what its block holds.
 */
enum sched_params_at {
#define SCHED_PARAMS_AT(id, sym, bytes) SCHED_PARAMS_AT_##id, SCHED_PARAMS_END_##id = SCHED_PARAMS_AT_##id + (bytes)-1,
	SCHED_POLICIES(SCHED_PARAMS_AT)
#undef SCHED_PARAMS_AT
	SCHED_PARAM_BYTES
};

/*
 * A site queue (seed 001 section 1.6, Exhibit 3). Zero means "no limit"
 * for every limit. Queues are planned in descending priority, then in the
 * policy's order. The processor and time ranges are checked at submit (a
 * job outside them is refused); the running limits are checked when a job
 * is about to start (it then waits, and a planning policy moves its
 * reservation to the next time the limit can allow it).
 */
struct sched_queue_cfg {
	uint16_t priority;                   /* higher is planned first */
	sched_procs_t min_procs, max_procs;  /* processors per job */
	sched_time_t min_time, max_time;     /* the job's estimate (its wall-clock limit) */
	uint16_t max_running_per_user;       /* running jobs one user may have in this queue */
	sched_procs_t proc_cap;              /* processors the queue's running jobs may hold in all */
	uint8_t partitions;                  /* bit p: the queue may use partition p; 0 = every one */
	bool background;                     /* starts only while no job of a higher queue waits */
};

/* Complexity-reduction heuristics of Talby and Feitelson 1999 (seed 003) section 2.4: the order of re-insertion. */
enum sched_heuristic {
	SCHED_HEUR_AST, /* ascending scheduled time (before the delay) */
	SCHED_HEUR_AAT, /* ascending arrival time */
	SCHED_HEUR_DU,  /* descending utilization: processors x estimate */
	SCHED_HEUR_DC,  /* descending cost of a one-second delay */
	SCHED_HEUR_DP,  /* descending priority, then ascending arrival */
	SCHED_HEUR_COUNT
};

/*
 * Which jobs relaxed backfilling (Spear and McGalliard 2007, s. 2.1) tries
 * to start early, and when. ALL is the paper's Exhibit 8: in every
 * scheduling pass, every waiting job (J3 and J4 were waiting already).
 * ARRIVAL is this project's first reading, kept for comparison: only a job
 * arriving, at its arrival.
 */
enum sched_relaxed_scope {
	SCHED_RELAXED_ALL,
	SCHED_RELAXED_ARRIVAL,
	SCHED_RELAXED_SCOPE_COUNT
};

/*
 * What slack-based backfilling does when a running job ends before its
 * estimate (Talby and Feitelson 1999 leave it to Tick, "the same as in EASY
 * and conservative backfilling"; see docs/priorities.md).
 */
enum sched_early_end {
	SCHED_END_COMPRESS, /* conservative's compression, in arrival order, slacks untouched (the default) */
	SCHED_END_SEARCH,   /* the removal search of section 2.1, as if a waiting job had been removed */
	SCHED_END_KEEP,     /* nothing re-planned: jobs start at their planned times */
	SCHED_END_COUNT
};

/* Equally priced schedules in a removal search (Talby and Feitelson 1999, s. 2.3). */
enum sched_removal_ties {
	SCHED_TIES_FEWER, /* fewer moved jobs, as for an insert (the paper's text; the default) */
	SCHED_TIES_MORE,  /* more moved jobs: every move is earlier, so a worthless one still fills a hole */
	SCHED_TIES_COUNT
};

struct sched_config {
	sched_procs_t procs;          /* machine size (with partitions: set to their sum by init) */
	uint32_t max_jobs;            /* jobs in the system at once (waiting + running) */
	enum sched_policy_id policy;
	uint8_t n_partitions;         /* 0: one partition of `procs` processors */
	sched_procs_t partition_procs[SCHED_MAX_PARTITIONS];
	uint8_t n_queues;             /* 0: one queue without limits */
	struct sched_queue_cfg queues[SCHED_MAX_QUEUES];
	bool every_slice;             /* time-shared policies: a SCHED_DEC_SWITCH for every time slice, none folded
				       * into a SCHED_DEC_SKIP (slower: for a caller that writes every run list) */
	uint32_t scratch_jobs;        /* planning scratch (relaxed, slack, the dynP family): jobs it can take; 0 = none */
	/* The policies' parameters, one block per policy (sched_params_at): opaque, read and written
	 * only through sched_param_get/set/parse by name (sched_param_find). All zero: every
	 * parameter at its default. A plain array, so the configuration stays a copyable value. */
	uint32_t params[(SCHED_PARAM_BYTES + 3) / 4];
};

/*
 * A policy parameter, as the registry describes it: where it lives in
 * its policy's block of struct sched_config's parameter area, its range, default, unit and help. The replayer's
 * options, the console's `config` command and their help texts are made
 * from these, and sched_init() checks every value against them.
 */
enum sched_param_kind {
	SCHED_PARAM_COUNT_KIND, /* a whole number */
	SCHED_PARAM_SECONDS,    /* a duration: 90, 90s, 30m, 2h, 1d */
	SCHED_PARAM_MILLI,      /* a decimal kept in thousandths: "1.5" is 1500 */
	SCHED_PARAM_CHOICE,     /* one of `choices`, kept as its index */
};

struct sched_param {
	const char *name;             /* option and console name: "tolerance", "sf", "early-end" */
	const char *help;             /* one line, with the paper's section where it has one */
	const char *unit;             /* "s", "" */
	const char *const *choices;   /* CHOICE: the names, NULL-terminated */
	const char *const *labels;    /* CHOICE: short names for report columns (NULL: the names) */
	uint16_t offset;              /* of the value in struct sched_config's parameter area */
	uint16_t set_offset;          /* of the bool there that says its block was given, or SCHED_PARAM_NO_BLOCK */
	uint8_t size;                 /* bytes of the value: 1, 2 or 4 */
	uint8_t kind;                 /* enum sched_param_kind */
	bool listable;                /* the replayer takes a list and replays one column per value */
	uint32_t min, max, def;       /* in the stored unit (thousandths for MILLI) */
};

#define SCHED_PARAM_NO_BLOCK 0xFFFFu

/* User and political priorities, thousandths in [0, 1000]; this political value marks "over quota". */
#define SCHED_PP_OVER_QUOTA 0xFFFFu
#define SCHED_PART_ANY 0xFFu

/** What the caller says about a new job. */
struct sched_job_desc {
	uint32_t id;            /* the caller's name for the job; unique among jobs in the system */
	sched_procs_t procs;    /* processors, 1..machine */
	sched_time_t estimate;  /* seconds, 1..SCHED_ESTIMATE_LIMIT-1; the job is killed when it reaches it */
	uint32_t user;          /* for per-user limits; 0 if unknown */
	uint8_t queue;          /* index into the configured queues (0 without queues) */
	uint8_t partition;      /* a partition the job must use, or SCHED_PART_ANY (set by sched_desc_init) */
	uint16_t up_milli;      /* user priority, 0..1000 (slack) */
	uint16_t pp_milli;      /* political priority, 0..1000, or SCHED_PP_OVER_QUOTA (slack) */
	sched_time_t service;   /* seconds of machine the job needs if the caller knows them, else 0: a
				 * time-shared policy ends it (SCHED_DEC_END) after min(service, estimate) of
				 * service; the space-shared ones ignore it (their caller reports ends) */
};

/** A descriptor with the defaults: queue 0, any partition, user 0, priorities 0. O(1). */
static inline struct sched_job_desc sched_desc(uint32_t id, sched_procs_t procs, sched_time_t estimate)
{
	struct sched_job_desc d;
	d.id = id;
	d.procs = procs;
	d.estimate = estimate;
	d.user = 0;
	d.queue = 0;
	d.partition = SCHED_PART_ANY;
	d.up_milli = 0;
	d.pp_milli = 0;
	d.service = 0;
	return d;
}

enum sched_decision_kind {
	SCHED_DEC_START,  /* job starts now on `procs` processors of partition `partition` (time sharing: its first slice) */
	SCHED_DEC_KILL,   /* job reached its estimate at `time` and is killed */
	SCHED_DEC_END,    /* time sharing: job had the service given at submit (at most its estimate) and left
			   * at `time`; `run` is the service it had */
	SCHED_DEC_SWITCH, /* time sharing: a time slice starts at `time`: runs[0..n_runs) is the context switch
			   * list of slot `slot` (runs[i].job is the caller's id); quanta 1 */
	SCHED_DEC_SKIP,   /* time sharing: `quanta` slices from `time` in which nothing changed, run in one step
			   * with `slot` slots in the round robin, instead of their SWITCHes (no list) */
};

struct sched_decision {
	enum sched_decision_kind kind;
	uint32_t job;           /* the caller's id (START, KILL, END) */
	sched_time_t time;      /* when it happens */
	sched_procs_t procs;    /* processors the job holds */
	uint8_t partition;
	bool backfilled;        /* START only: a job ahead of it in the plan was still waiting */
	sched_time_t run;       /* KILL: its estimate; END: the service it had (its quanta x the quantum) */
	uint32_t slot;          /* SWITCH: the slot that runs; SKIP: the slots in the round robin */
	const struct sched_slice_run *runs; /* SWITCH: the context switch list, valid during the callback */
	uint32_t n_runs;
	uint32_t quanta;        /* SWITCH: 1; SKIP: the slices it stands for */
};

typedef void (*sched_decision_fn)(void *ctx, const struct sched_decision *d);

enum sched_job_state {
	SCHED_JOB_FREE,
	SCHED_JOB_WAITING,
	SCHED_JOB_RUNNING,
};

#define SCHED_SLACK_INF INT32_MAX
#define SCHED_PRIO_OVER_QUOTA 0xFFFFu

/*
 * The scheduler's state is opaque: it lives at the start of the arena the
 * caller gives sched_init(), and callers read it only through the functions
 * below (sched_stats(), sched_job_read(), the iterators). Every link inside
 * the arena is a self-relative offset, never a pointer, so a byte copy of
 * the arena is the same scheduler at another address or after a reset
 * (sched_attach() re-binds the decision callback).
 */
struct sched;
struct sched_job; /* a job in the system: a handle for sched_job_read() and the iterators */
struct sched_seg; /* a segment of an availability profile: a handle for sched_seg_time/free */

/** What a caller may know of one job in the system. */
struct sched_job_info {
	uint32_t id;
	uint32_t user;
	sched_procs_t procs;
	sched_time_t submit;
	sched_time_t estimate;
	sched_time_t start;      /* running: when it started; waiting: its reservation, or SCHED_TIME_MAX */
	sched_time_t guarantee;  /* the reservation given at submit, or SCHED_TIME_MAX */
	int32_t slack;           /* slack policy: delay it may still take, seconds; SCHED_SLACK_INF */
	uint16_t prio3;          /* slack policy: UP + PP + SP in thousandths; SCHED_PRIO_OVER_QUOTA */
	uint8_t queue;
	uint8_t partition;       /* where it runs, or is reserved */
	uint8_t state;           /* enum sched_job_state */
	bool reserved;           /* waiting and holding a reservation */
};

/* Event counts since init, for reports and consoles. */
struct sched_counters {
	uint32_t submitted;   /* accepted by sched_submit */
	uint32_t refused;     /* rejected by sched_submit for lack of capacity */
	uint32_t started;
	uint32_t backfilled;  /* started while a job ahead in the plan was waiting */
	uint32_t finished;    /* ended by themselves (sched_finish) */
	uint32_t killed;      /* reached their estimate */
	uint32_t cancelled;
	uint32_t reflows;     /* compressions after capacity was freed early */
	uint32_t moved;       /* reservations moved earlier by those compressions */
	uint32_t limited;     /* starts put off by a queue's running limits */
	uint32_t relaxed;     /* jobs started early by relaxed backfilling */
	uint32_t scratch_short; /* plans the scratch area was too small to try (fell back to strict) */
};

/** A snapshot of the scheduler's state and work, for reports, consoles and tests. */
struct sched_stats {
	sched_time_t now;            /* latest time seen */
	enum sched_policy_id policy; /* in force */
	uint8_t order;               /* the dynP family: the order in force (enum sched_order); 0 otherwise */
	uint32_t waiting, running;   /* jobs in the queue and on the machine */
	sched_procs_t busy;          /* processors held by running jobs, all partitions */
	sched_procs_t procs;         /* machine size */
	uint32_t jobs_used, jobs_peak, jobs_capacity, jobs_fails;     /* the job pool */
	uint32_t segs_used, segs_peak, segs_capacity, segs_fails;     /* the profile segment pool */
	uint32_t segments;           /* segments in all profiles now */
	uint32_t scratch_jobs;       /* the planning scratch's capacity (0: none) */
	struct sched_counters counters;
	struct sched_dynp_stats dynp; /* the dynP family, since it took over; zero otherwise */
	struct sched_gang_counters gang; /* gang scheduling: Zhou, Walsh and Brent 2000, section 4.3's counts (else 0) */
};

/* Bytes of the opaque parts, checked against the private definitions by static assertions. */
#define SCHED_REL_BYTES sizeof(intptr_t)                /* one self-relative link */
/*
 * The policies' state (core/src/sched_priv.h): each policy declares what it
 * needs per scheduler and per job, and the areas are the largest of these
 * (slack's per-job priority and slack; dynP's order and counters), so that
 * sched_set_policy() never has to lay the arena out again.
 */
#define SCHED_POLICY_STATE_BYTES 120u                   /* per scheduler, in the state header */
#define SCHED_POLICY_JOB_BYTES 8u                       /* per job slot */
#define SCHED_JOB_BYTES (3 * SCHED_REL_BYTES + 40u + SCHED_POLICY_JOB_BYTES) /* one job slot */
#define SCHED_SEG_BYTES (2 * SCHED_REL_BYTES + 8u)      /* one profile segment */
#define SCHED_STATE_BYTES (2048u + 64u * SCHED_REL_BYTES) /* the state header at the arena's start (at most) */
#define SCHED_NUM_BYTES 16u

/* Segments: two per job, and one base segment per partition. */
#define SCHED_SEGMENTS(max_jobs) (2 * (size_t)(max_jobs) + SCHED_MAX_PARTITIONS)

/*
 * The host's flat arrays of the first partition's profile (built with
 * SCHED_PROFILE_FLAT, make PROFILE=flat; docs/design.md):
 * for a pool of `segs` segments, a time and a free count per segment, plus
 * a sentinel and 16 entries the vector scans may read past it, and 64 saved
 * scans of 5 words (1.25 KiB) for compression to resume. 0 bytes in the
 * board's build, which keeps the list alone.
 */
#ifdef SCHED_PROFILE_FLAT
#define SCHED_FLAT_ENTRIES(segs) ((((size_t)(segs) + 1u + 16u) + 15u) & ~(size_t)15u)
#define SCHED_FLAT_BYTES(segs) ((SCHED_FLAT_ENTRIES(segs) * 2u + 5u * 64u + 4u) * sizeof(uint32_t))
#else
#define SCHED_FLAT_BYTES(segs) ((size_t)0)
#endif

/* Bytes of arena without scratch: the state, the job pool, the profile segments, the id index,
 * the flat copy. */
#define SCHED_ARENA_SIZE(max_jobs) \
	(SCHED_STATE_BYTES + (size_t)(max_jobs) * SCHED_JOB_BYTES + \
	 SCHED_SEGMENTS(max_jobs) * SCHED_SEG_BYTES + (size_t)(max_jobs) * SCHED_REL_BYTES + \
	 SCHED_FLAT_BYTES(SCHED_SEGMENTS(max_jobs)))

/* Bytes of scratch for a backlog of `jobs`: work segments and per-job arrays. */
#define SCHED_SCRATCH_SIZE(jobs) \
	(SCHED_SEGMENTS(jobs) * SCHED_SEG_BYTES + \
	 (size_t)(jobs) * (SCHED_NUM_BYTES + sizeof(void *) + 2 * sizeof(sched_time_t) + 2))

/* Bytes of arena for a configuration with scratch_jobs of scratch (a multiple of 8). */
#define SCHED_ARENA_SIZE_SCRATCH(max_jobs, scratch_jobs) \
	((SCHED_ARENA_SIZE(max_jobs) + ((scratch_jobs) ? SCHED_SCRATCH_SIZE(scratch_jobs) : 0) + 7u) & ~(size_t)7u)

/* Alignment the arena needs. */
#define SCHED_ARENA_ALIGN 8u

/** Arena bytes needed for @p max_jobs jobs without scratch (SCHED_ARENA_SIZE). O(1). */
size_t sched_arena_size(uint32_t max_jobs);

/** Arena bytes needed for configuration @p cfg (with its scratch, and a time-shared policy's own state). O(1). */
size_t sched_arena_size_cfg(const struct sched_config *cfg);

/**
 * Make a scheduler with @p cfg in @p arena (sched_arena_size_cfg(cfg) bytes,
 * aligned to SCHED_ARENA_ALIGN): the state lives at the arena's start and
 * *@p out is its handle. The clock starts at @p origin. @p emit (may be
 * NULL) receives decisions with @p ctx. O(max_jobs).
 * @retval SCHED_E_INVAL procs or max_jobs is 0, an unknown policy or
 *         heuristic, a bad partition or queue table, arena NULL or misaligned;
 *         a time-shared policy on a machine it cannot split (gang: not a power of two).
 * @retval SCHED_E_NOTSUP gang with partitions, or queues with running limits or background.
 * @retval SCHED_E_NOSPACE the arena is too small (or fault injection refused a
 *         partition's base segment; the arena then holds no scheduler for sched_attach()).
 * @retval SCHED_E_RANGE origin >= SCHED_NOW_LIMIT, or max_jobs too large to size an arena.
 */
int sched_init(struct sched **out, const struct sched_config *cfg, void *arena, size_t arena_size,
	       sched_decision_fn emit, void *ctx, sched_time_t origin);

/**
 * Take up the scheduler whose state is in @p arena: a byte copy of another
 * scheduler's arena, at any address, or the same arena after a reset.
 * Decisions go to @p emit with @p ctx from now on. O(1).
 * @retval SCHED_E_FORMAT the arena holds no scheduler of this build's layout.
 * @retval SCHED_E_NOSPACE @p arena_size is smaller than the state needs.
 * @retval SCHED_E_INVAL arena NULL or misaligned.
 */
int sched_attach(struct sched **out, void *arena, size_t arena_size, sched_decision_fn emit, void *ctx);

/** Bytes of arena the scheduler @p s uses from its start (what a copy must take). O(1). */
size_t sched_arena_used(const struct sched *s);

/**
 * A job arrives at @p now. Planning policies reserve its start here (its
 * guarantee); queueing policies (FCFS, EASY) only queue it. Jobs start in
 * sched_advance(). O(n) (conservative, relaxed: O(n^2) with lower-priority
 * jobs to re-plan; slack: O(n^3) at worst, seed 003 section 2.4).
 * @retval SCHED_E_INVAL procs or estimate is 0, estimate >= SCHED_ESTIMATE_LIMIT, bad queue or partition.
 * @retval SCHED_E_RANGE more processors than any partition it may use; or no start fits the clock.
 * @retval SCHED_E_LIMIT outside its queue's processor or time range, or wider than its processor cap.
 * @retval SCHED_E_EXIST a job with that id is in the system.
 * @retval SCHED_E_NOSPACE the job pool is full (the job is refused; counted).
 * @retval SCHED_E_TIME, SCHED_E_RANGE as for every timed call.
 */
int sched_submit(struct sched *s, const struct sched_job_desc *d, sched_time_t now);

/**
 * Why @p d could never run under this configuration, without submitting
 * it: SCHED_OK, or the error sched_submit() would give for its shape
 * (SCHED_E_INVAL, SCHED_E_RANGE, SCHED_E_LIMIT). @p why (may be NULL)
 * receives a short reason. O(1).
 */
int sched_admissible(const struct sched *s, const struct sched_job_desc *d, const char **why);

/**
 * Running job @p id ended by itself at @p now. If that is before its
 * estimate, the freed capacity is offered to the waiting jobs (conservative
 * compresses its schedule: O(n^2)); otherwise O(n).
 * @retval SCHED_E_NOENT no such job. @retval SCHED_E_STATE the job is waiting (use cancel).
 */
int sched_finish(struct sched *s, uint32_t id, sched_time_t now);

/**
 * Withdraw job @p id, waiting or running, at @p now; its capacity is
 * offered to the others as for an early finish. O(n^2) under conservative.
 * @retval SCHED_E_NOENT no such job.
 */
int sched_cancel(struct sched *s, uint32_t id, sched_time_t now);

/**
 * Move the clock to @p now: kill running jobs whose estimate ends at or
 * before now, then run one scheduling pass (start what is due). O(n) for
 * the queueing policies and conservative; relaxed (scope all) also tries
 * each waiting job that fits on the idle processors, O(n x segments) per
 * trial, so O(n^2 x segments) per pass at worst.
 */
int sched_advance(struct sched *s, sched_time_t now);

/**
 * When the core next needs sched_advance(): now if a pass is due, else the
 * earliest kill or reserved start; under time sharing the next quantum boundary
 * at which a slice may change anything (the quiet rounds before it run in one
 * step); SCHED_TIME_MAX when nothing is pending. O(1).
 */
sched_time_t sched_next_event(const struct sched *s);

/**
 * The start time the core guarantees for job @p id: its reservation under
 * the planning policies; under EASY only the queue head has one (the shadow
 * time); a running job reports its actual start. O(1).
 * @retval SCHED_E_NOENT no such job. @retval SCHED_E_NOTSUP the policy guarantees nothing for it.
 */
int sched_predict(const struct sched *s, uint32_t id, sched_time_t *start);

/**
 * Switch policy at @p now. Waiting jobs keep their order; a planning policy
 * reserves each of them afresh in that order (earlier guarantees are void);
 * under slack, a job without a scheduler priority yet gets it from that
 * placement, with its initial slack. The new policy's own state starts
 * afresh (EASY's cache, the dynP family's order and the counters
 * sched_stats() reports in `order` and `dynp`). O(n^2).
 * @retval SCHED_E_INVAL unknown policy, or one that needs scratch the arena has not.
 * @retval SCHED_E_NOTSUP a move between a time-shared policy (gang) and a space-shared one:
 *         a time-shared policy's state is laid out by sched_init() (start a new scheduler).
 */
int sched_set_policy(struct sched *s, enum sched_policy_id policy, sched_time_t now);

/**
 * Change the policies' parameters at run time: every parameter of the
 * registry (sched/policies.h), e.g. tolerance (relaxed), the slack and dynp
 * blocks (a block not set: the paper's defaults); the other fields of @p cfg
 * are ignored. They apply to decisions from now on; plans already made stay,
 * except that a new reservation depth (cons) drops or makes reservations at
 * once. O(1); O(n x segments) when the reservation depth changes.
 * @retval SCHED_E_INVAL unknown heuristic, decider or quality; AWT 0; lower bound above upper.
 */
int sched_tune(struct sched *s, const struct sched_config *cfg);

/**
 * Whether sched_tune(@p s, @p cfg) would take these parameters, changing
 * nothing: SCHED_OK, or the error it would give for them (only fault
 * injection refuses a tune this passes). For a caller that must know before
 * it commits to the change (the console journals it first). O(parameters).
 * @retval SCHED_E_INVAL as for sched_tune().
 */
int sched_tune_check(const struct sched *s, const struct sched_config *cfg);

/** The job with caller id @p id, or NULL. O(1) on average (hashed), O(n) at worst. */
const struct sched_job *sched_find(const struct sched *s, uint32_t id);

/** First waiting (plan order) or running (end order) job, or NULL. O(1). */
const struct sched_job *sched_first(const struct sched *s, enum sched_job_state which);

/** The job after @p j in its list, or NULL. O(1). */
const struct sched_job *sched_next(const struct sched *s, const struct sched_job *j);

/** What is known of job @p j (a handle from sched_find or the iterators). O(1). */
void sched_job_read(const struct sched_job *j, struct sched_job_info *out);

/** Job @p id into @p out. O(1) on average. @retval SCHED_E_NOENT no such job. */
int sched_job_get(const struct sched *s, uint32_t id, struct sched_job_info *out);

/** The state's sizes, pools and counters into @p out. O(partitions). */
void sched_stats(const struct sched *s, struct sched_stats *out);

/** The configuration in force (normalised: zeros replaced by what they mean). O(1). */
const struct sched_config *sched_config_get(const struct sched *s);

/** Processors free at the current time, all partitions. O(1). */
sched_procs_t sched_free_now(const struct sched *s);

/** First segment of partition @p part's availability profile (NULL if no such partition). O(1). */
const struct sched_seg *sched_seg_first(const struct sched *s, unsigned part);

/** The segment after @p g in partition @p part's profile, or NULL after the last. O(1). */
const struct sched_seg *sched_seg_next(const struct sched *s, unsigned part, const struct sched_seg *g);

/** When segment @p g starts, and how many processors are free from then to the next one. O(1). */
sched_time_t sched_seg_time(const struct sched_seg *g);
sched_procs_t sched_seg_free(const struct sched_seg *g);

/**
 * Check every invariant: each profile's own, pool accounting, list lengths,
 * busy processors, running and plan order, and that every profile equals
 * one rebuilt from the jobs. O(n^2); meant for tests and debug builds.
 * @retval SCHED_OK all hold. @retval SCHED_E_STATE one is broken.
 */
int sched_check(const struct sched *s);

/** A policy's parameters: *@p out points at @p count entries (0 for none or an unknown policy). O(1). */
unsigned sched_policy_params(enum sched_policy_id policy, const struct sched_param **out);

/** One line on what @p policy does, with its paper and section; NULL if unknown. O(1). */
const char *sched_policy_help(enum sched_policy_id policy);

/** The parameter called @p name (and in *@p policy the policy it belongs to), or NULL. O(parameters). */
const struct sched_param *sched_param_find(const char *name, enum sched_policy_id *policy);

/**
 * Read @p text as a value of @p p: a whole number, a duration (90, 30m, 2h,
 * 1d), a decimal with up to three significant places (rounded half up), or
 * a choice's name. O(length).
 * @retval SCHED_E_INVAL not of that form. @retval SCHED_E_RANGE outside [min, max].
 */
int sched_param_parse(const struct sched_param *p, const char *text, uint32_t *value);

/** Write @p value of @p p into @p buf (@p size bytes, NUL-terminated) as parse reads it. O(1). */
void sched_param_format(const struct sched_param *p, uint32_t value, char *buf, size_t size);

/** The value of @p p in @p cfg (a block not yet given reads as the default). O(1). */
uint32_t sched_param_get(const struct sched_config *cfg, const struct sched_param *p);

/**
 * Set @p p in @p cfg to @p value; the rest of its block, if not given
 * before, takes the defaults. O(parameters).
 * @retval SCHED_E_RANGE outside [min, max] (cfg unchanged).
 */
int sched_param_set(struct sched_config *cfg, const struct sched_param *p, uint32_t value);

/** Name of a policy ("fcfs", "easy", "cons", "relaxed", "slack", "fcfs-replan", "sjf", "ljf", "dynp-basic", "dynp"), or NULL. O(1). */
const char *sched_policy_name(enum sched_policy_id policy);

/*
 * What the registry states about a policy, for callers that treat kinds of
 * policies differently (report columns, benchmarks): never compare ids by
 * their position in the registry.
 */
struct sched_policy_info {
	const char *name;
	const char *family;   /* "queue": decides at each pass (fcfs, easy); "plan": a reservation per job
				 (cons, relaxed, slack); "dynp": plans in an order it may switch (the dynP
				 family); "gang": time-shares the machine */
	bool timeshared;      /* time-shares the machine: ends jobs itself after their service (SCHED_DEC_END) */
	bool plans;           /* every waiting job holds a reservation from its submit on */
	bool needs_scratch;   /* config scratch_jobs must be > 0 */
	uint8_t n_params;     /* its parameters (sched_policy_params) */
};

/** What the registry states about policy @p id, into *@p out. O(1). @retval SCHED_E_INVAL unknown policy. */
int sched_policy_info(enum sched_policy_id id, struct sched_policy_info *out);

/** Does @p policy time-share the machine (it ends jobs itself after their service, SCHED_DEC_END)? O(1). */
bool sched_policy_timeshared(enum sched_policy_id policy);

/** Does @p policy plan in a scratch area (config scratch_jobs must then be > 0)? O(1). */
bool sched_policy_needs_scratch(enum sched_policy_id policy);

/** Parse a policy name; also accepts "conservative". O(1). @retval SCHED_E_INVAL unknown. */
int sched_policy_parse(const char *name, enum sched_policy_id *policy);

#endif /* SCHED_SCHED_H */
