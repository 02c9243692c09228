/* SPDX-License-Identifier: MIT */
/* The scheduler object and its event API: submit, finish, cancel, advance, next_event, predict. */
#ifndef SCHED_SCHED_H
#define SCHED_SCHED_H

#include "sched/types.h"
#include "sched/dynp.h"
#include "sched/err.h"
#include "sched/list.h"
#include "sched/pool.h"
#include "sched/profile.h"

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

enum sched_policy_id {
	SCHED_POLICY_FCFS,    /* arrival order, the head must fit, no backfilling */
	SCHED_POLICY_EASY,    /* seed 000 Fig. 5: only the head holds a reservation */
	SCHED_POLICY_CONS,    /* seed 000 section 2.1: every job holds a reservation; compression */
	SCHED_POLICY_RELAXED, /* seed 001 section 2.1: a backfill may delay others by a tolerance */
	SCHED_POLICY_SLACK,   /* seed 003 section 2: the cheapest schedule within every job's slack */
	SCHED_POLICY_FCFS_REPLAN, /* seed 004: planning in arrival order, every waiting job placed again at each end */
	SCHED_POLICY_SJF,     /* seed 004: the same in ascending estimate order */
	SCHED_POLICY_LJF,     /* seed 004: the same in descending estimate order */
	SCHED_POLICY_DYNP_BASIC, /* seed 004 section 3.1: the waiting jobs' average estimate picks the order */
	SCHED_POLICY_DYNP,    /* seed 004 section 3.2: self-tuning, the best of three virtual schedules */
	SCHED_POLICY_COUNT
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

/* Complexity-reduction heuristics of seed 003 section 2.4: the order of re-insertion. */
enum sched_heuristic {
	SCHED_HEUR_AST, /* ascending scheduled time (before the delay) */
	SCHED_HEUR_AAT, /* ascending arrival time */
	SCHED_HEUR_DU,  /* descending utilization: processors x estimate */
	SCHED_HEUR_DC,  /* descending cost of a one-second delay */
	SCHED_HEUR_DP,  /* descending priority, then ascending arrival */
	SCHED_HEUR_COUNT
};

/* Slack-based backfilling parameters (seed 003); all zero means the paper's defaults. */
struct sched_slack_cfg {
	uint32_t sf_milli;        /* slack factor SF, thousandths (default 3000) */
	sched_time_t awt;         /* average wait time AWT, seconds (default 2401) */
	uint16_t alpha_milli[4];  /* alpha_u, alpha_t, alpha_p, alpha_f, thousandths (default 1000) */
	uint8_t heuristic;        /* enum sched_heuristic (default AST) */
	bool end_compress;        /* a job ended early: plain compression, not the removal search */
	bool set;                 /* false: use the defaults above for the whole block */
};

struct sched_config {
	sched_procs_t procs;          /* machine size (with partitions: set to their sum by init) */
	uint32_t max_jobs;            /* jobs in the system at once (waiting + running) */
	enum sched_policy_id policy;
	uint8_t n_partitions;         /* 0: one partition of `procs` processors */
	sched_procs_t partition_procs[SCHED_MAX_PARTITIONS];
	uint8_t n_queues;             /* 0: one queue without limits */
	struct sched_queue_cfg queues[SCHED_MAX_QUEUES];
	sched_time_t tolerance;       /* relaxed: delay allowed to others, seconds ... */
	uint32_t tolerance_permille;  /* ... plus this share of the delayed job's estimate */
	struct sched_slack_cfg slack;
	struct sched_dynp_cfg dynp;
	uint32_t scratch_jobs;        /* planning scratch (relaxed, slack, the dynP family): jobs it can take; 0 = none */
};

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
	return d;
}

enum sched_decision_kind {
	SCHED_DEC_START, /* job starts now on `procs` processors of partition `partition` */
	SCHED_DEC_KILL,  /* job reached its estimate at `time` and is killed */
};

struct sched_decision {
	enum sched_decision_kind kind;
	uint32_t job;           /* the caller's id */
	sched_time_t time;      /* when it happens */
	sched_procs_t procs;    /* processors the job holds */
	uint8_t partition;
	bool backfilled;        /* START only: a job ahead of it in the plan was still waiting */
};

typedef void (*sched_decision_fn)(void *ctx, const struct sched_decision *d);

enum sched_job_state {
	SCHED_JOB_FREE,
	SCHED_JOB_WAITING,
	SCHED_JOB_RUNNING,
};

#define SCHED_SLACK_INF INT32_MAX
#define SCHED_PRIO_OVER_QUOTA 0xFFFFu

/* A job in the system. Fields are read-only for callers. */
struct sched_job {
	struct sched_list link;  /* in the waiting queue (plan order) or the running list (end order) */
	struct sched_job *hnext; /* next job in the same id-index bucket */
	uint32_t id;
	uint32_t user;
	uint32_t arrival;        /* order of submission, for ties */
	sched_procs_t procs;
	sched_time_t submit;
	sched_time_t estimate;
	sched_time_t start;      /* running: when it started; waiting: its reservation (if reserved) */
	sched_time_t guarantee;  /* the reservation it was given at submit (relaxed bounds delays by it) */
	sched_time_t hold;       /* its queue's running limits keep it from starting before this */
	int32_t slack;           /* slack policy: seconds of delay it may still take; SCHED_SLACK_INF */
	uint16_t prio3;          /* slack policy: UP + PP + SP in thousandths; SCHED_PRIO_OVER_QUOTA */
	uint8_t queue;
	uint8_t part;            /* partition it runs in, or is reserved in */
	uint8_t allowed;         /* bit mask of partitions it may use */
	uint8_t state;           /* enum sched_job_state */
	uint8_t reserved;        /* waiting job holds [start, start + estimate) in its partition's profile */
	uint8_t settled;         /* slack: its SP was set from its placement (seed 003 section 2.2: once) */
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

struct sched_partition {
	struct sched_profile profile;
	sched_procs_t procs;
	sched_procs_t busy;      /* processors held by running jobs */
};

struct sched_num; /* the core's integer soft float (core/src/num.h) */
#define SCHED_NUM_BYTES 16u

/* Work area of the planning policies: copies of the profiles and per-job arrays. */
struct sched_scratch {
	uint32_t cap;                   /* jobs it can take; 0: no scratch */
	struct sched_pool segs;
	struct sched_profile work[SCHED_MAX_PARTITIONS];
	struct sched_job **jobs;        /* cap entries */
	struct sched_num *factors;      /* cap entries (slack: the delay-independent part of a cost) */
	sched_time_t *start_a, *start_b;
	uint8_t *part_a, *part_b;
};

struct sched_policy;

struct sched {
	struct sched_config cfg;
	const struct sched_policy *policy;
	struct sched_pool jobs;
	struct sched_pool segs;
	uint8_t n_parts;
	uint8_t n_queues;
	bool has_background;        /* some queue is a background queue (the pass looks for its jobs) */
	struct sched_partition part[SCHED_MAX_PARTITIONS];
	sched_procs_t queue_busy[SCHED_MAX_QUEUES]; /* processors held by each queue's running jobs */
	struct sched_list waiting;  /* plan order: queue priority, then the policy's order, then arrival */
	struct sched_list running;  /* ascending expected end (start + estimate), ties in start order */
	uint32_t n_waiting;
	uint32_t n_running;
	uint32_t arrivals;          /* submissions so far (the next job's arrival number) */
	sched_procs_t busy;         /* processors held by running jobs, all partitions */
	sched_time_t now;           /* latest time seen */
	sched_time_t first_start;   /* earliest reservation among waiting jobs (planning policies) */
	struct sched_job **buckets; /* id index: max_jobs chains, so lookups are O(1) on average */
	bool pass_due;              /* something changed since the last scheduling pass */
	bool replan_due;            /* a job ended: the dynP family re-plans at the next pass */
	sched_decision_fn emit;
	void *emit_ctx;
	struct sched_counters counters;
	struct sched_scratch scratch;
	uint8_t order;              /* the dynP family: the order in force (enum sched_order) */
	struct sched_dynp_stats dynp;
};

/* Segments: two per job, and one base segment per partition. */
#define SCHED_SEGMENTS(max_jobs) (2 * (size_t)(max_jobs) + SCHED_MAX_PARTITIONS)

/* Bytes of arena without scratch: the job pool, the profile segments, the id index. */
#define SCHED_ARENA_SIZE(max_jobs) \
	((size_t)(max_jobs) * sizeof(struct sched_job) + \
	 SCHED_SEGMENTS(max_jobs) * sizeof(struct sched_seg) + \
	 (size_t)(max_jobs) * sizeof(struct sched_job *))

/* Bytes of scratch for a backlog of `jobs`: work segments and per-job arrays. */
#define SCHED_SCRATCH_SIZE(jobs) \
	(SCHED_SEGMENTS(jobs) * sizeof(struct sched_seg) + \
	 (size_t)(jobs) * (SCHED_NUM_BYTES + sizeof(struct sched_job *) + 2 * sizeof(sched_time_t) + 2))

/* Bytes of arena for a configuration with scratch_jobs of scratch (a multiple of 8). */
#define SCHED_ARENA_SIZE_SCRATCH(max_jobs, scratch_jobs) \
	((SCHED_ARENA_SIZE(max_jobs) + ((scratch_jobs) ? SCHED_SCRATCH_SIZE(scratch_jobs) : 0) + 7u) & ~(size_t)7u)

/* Alignment the arena needs. */
#define SCHED_ARENA_ALIGN (_Alignof(struct sched_job) > _Alignof(struct sched_seg) ? \
			   _Alignof(struct sched_job) : _Alignof(struct sched_seg))

/** Arena bytes needed for @p max_jobs jobs without scratch (SCHED_ARENA_SIZE). O(1). */
size_t sched_arena_size(uint32_t max_jobs);

/** Arena bytes needed for configuration @p cfg (with its scratch). O(1). */
size_t sched_arena_size_cfg(const struct sched_config *cfg);

/**
 * Prepare @p s with @p cfg over @p arena (sched_arena_size_cfg(cfg) bytes,
 * aligned to SCHED_ARENA_ALIGN). The clock starts at @p origin. @p emit (may
 * be NULL) receives decisions with @p ctx. O(max_jobs).
 * @retval SCHED_E_INVAL procs or max_jobs is 0, an unknown policy or
 *         heuristic, a bad partition or queue table, arena NULL or misaligned.
 * @retval SCHED_E_NOSPACE the arena is too small.
 * @retval SCHED_E_RANGE origin >= SCHED_NOW_LIMIT, or max_jobs too large to size an arena.
 */
int sched_init(struct sched *s, const struct sched_config *cfg, void *arena, size_t arena_size,
	       sched_decision_fn emit, void *ctx, sched_time_t origin);

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
 * the queueing policies and conservative.
 */
int sched_advance(struct sched *s, sched_time_t now);

/**
 * When the core next needs sched_advance(): now if a pass is due, else the
 * earliest kill or reserved start; SCHED_TIME_MAX when nothing is pending. O(1).
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
 * placement, with its initial slack. O(n^2).
 * @retval SCHED_E_INVAL unknown policy, or one that needs scratch the arena has not.
 */
int sched_set_policy(struct sched *s, enum sched_policy_id policy, sched_time_t now);

/**
 * Change the policies' parameters at run time: tolerance and
 * tolerance_permille (relaxed), the slack block and the dynp block of @p cfg
 * (a block not set: the paper's defaults); every other field of @p cfg is
 * ignored. They apply to decisions from now on; plans already made stay. O(1).
 * @retval SCHED_E_INVAL unknown heuristic, decider or quality; AWT 0; lower bound above upper.
 */
int sched_tune(struct sched *s, const struct sched_config *cfg);

/** The job with caller id @p id, or NULL. O(1) on average (hashed), O(n) at worst. */
const struct sched_job *sched_find(const struct sched *s, uint32_t id);

/** First waiting (plan order) or running (end order) job, or NULL. O(1). */
const struct sched_job *sched_first(const struct sched *s, enum sched_job_state which);

/** The job after @p j in its list, or NULL. O(1). */
const struct sched_job *sched_next(const struct sched *s, const struct sched_job *j);

/** Processors free at the current time, all partitions. O(1). */
static inline sched_procs_t sched_free_now(const struct sched *s)
{
	return s->cfg.procs - s->busy;
}

/** Profile of partition @p p (0 without partitions). O(1). */
static inline const struct sched_profile *sched_profile_of(const struct sched *s, unsigned p)
{
	return &s->part[p].profile;
}

/**
 * Check every invariant: each profile's own, pool accounting, list lengths,
 * busy processors, running and plan order, and that every profile equals
 * one rebuilt from the jobs. O(n^2); meant for tests and debug builds.
 * @retval SCHED_OK all hold. @retval SCHED_E_STATE one is broken.
 */
int sched_check(const struct sched *s);

/** Name of a policy ("fcfs", "easy", "cons", "relaxed", "slack", "fcfs-replan", "sjf", "ljf", "dynp-basic", "dynp"), or NULL. O(1). */
const char *sched_policy_name(enum sched_policy_id policy);

/** Does @p policy plan in a scratch area (config scratch_jobs must then be > 0)? O(1). */
bool sched_policy_needs_scratch(enum sched_policy_id policy);

/** Parse a policy name; also accepts "conservative". O(1). @retval SCHED_E_INVAL unknown. */
int sched_policy_parse(const char *name, enum sched_policy_id *policy);

/** Name of a heuristic ("ast", "aat", "du", "dc", "dp"), or NULL. O(1). */
const char *sched_heuristic_name(enum sched_heuristic h);

/** Parse a heuristic name. O(1). @retval SCHED_E_INVAL unknown. */
int sched_heuristic_parse(const char *name, enum sched_heuristic *h);

#endif /* SCHED_SCHED_H */
