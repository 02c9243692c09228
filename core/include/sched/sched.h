/* SPDX-License-Identifier: MIT */
/* The scheduler object and its event API: submit, finish, cancel, advance, next_event, predict. */
#ifndef SCHED_SCHED_H
#define SCHED_SCHED_H

#include "sched/types.h"
#include "sched/err.h"
#include "sched/list.h"
#include "sched/pool.h"
#include "sched/profile.h"

/*
 * One struct sched holds everything: configuration, the job and segment
 * pools (over an arena the caller owns), the waiting queue, the running
 * list and the availability profile. There is no global state, so any
 * number of schedulers can coexist.
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

enum sched_policy_id {
	SCHED_POLICY_FCFS, /* arrival order, the head must fit, no backfilling */
	SCHED_POLICY_EASY, /* seed 000 Fig. 5: only the head holds a reservation */
	SCHED_POLICY_CONS, /* seed 000 section 2.1: every job holds a reservation; compression */
	SCHED_POLICY_COUNT
};

/** What the caller says about a new job. */
struct sched_job_desc {
	uint32_t id;            /* the caller's name for the job; unique among jobs in the system */
	sched_procs_t procs;    /* processors, 1..machine */
	sched_time_t estimate;  /* seconds, 1..SCHED_ESTIMATE_LIMIT-1; the job is killed when it reaches it */
};

enum sched_decision_kind {
	SCHED_DEC_START, /* job starts now on `procs` processors */
	SCHED_DEC_KILL,  /* job reached its estimate at `time` and is killed */
};

struct sched_decision {
	enum sched_decision_kind kind;
	uint32_t job;           /* the caller's id */
	sched_time_t time;      /* when it happens */
	sched_procs_t procs;    /* processors the job holds */
	bool backfilled;        /* START only: an earlier-arrived job was still waiting */
};

typedef void (*sched_decision_fn)(void *ctx, const struct sched_decision *d);

struct sched_config {
	sched_procs_t procs;          /* machine size */
	uint32_t max_jobs;            /* jobs in the system at once (waiting + running) */
	enum sched_policy_id policy;
};

enum sched_job_state {
	SCHED_JOB_FREE,
	SCHED_JOB_WAITING,
	SCHED_JOB_RUNNING,
};

/* A job in the system. Fields are read-only for callers. */
struct sched_job {
	struct sched_list link;  /* in the waiting queue or the running list */
	struct sched_job *hnext; /* next job in the same id-index bucket */
	uint32_t id;
	sched_procs_t procs;
	sched_time_t submit;
	sched_time_t estimate;
	sched_time_t start;      /* running: when it started; waiting: its reservation (if reserved) */
	uint8_t state;           /* enum sched_job_state */
	uint8_t reserved;        /* waiting job holds [start, start + estimate) in the profile */
};

/* Event counts since init, for reports and consoles. */
struct sched_counters {
	uint32_t submitted;  /* accepted by sched_submit */
	uint32_t refused;    /* rejected by sched_submit for lack of capacity */
	uint32_t started;
	uint32_t backfilled; /* started while an earlier-arrived job was waiting */
	uint32_t finished;   /* ended by themselves (sched_finish) */
	uint32_t killed;     /* reached their estimate */
	uint32_t cancelled;
	uint32_t reflows;    /* compressions after capacity was freed early */
	uint32_t moved;      /* reservations moved earlier by those compressions */
};

struct sched_policy;

struct sched {
	struct sched_config cfg;
	const struct sched_policy *policy;
	struct sched_pool jobs;
	struct sched_pool segs;
	struct sched_profile profile;
	struct sched_list waiting;  /* arrival order */
	struct sched_list running;  /* ascending expected end (start + estimate), ties in start order */
	uint32_t n_waiting;
	uint32_t n_running;
	sched_procs_t busy;         /* processors held by running jobs */
	sched_time_t now;           /* latest time seen */
	sched_time_t first_start;   /* earliest reservation among waiting jobs (planning policies) */
	struct sched_job **buckets; /* id index: max_jobs chains, so lookups are O(1) on average */
	bool pass_due;              /* something changed since the last scheduling pass */
	sched_decision_fn emit;
	void *emit_ctx;
	struct sched_counters counters;
};

/* Bytes of arena for max_jobs: the job pool, the 2n + 1 profile segments, the id index. */
#define SCHED_ARENA_SIZE(max_jobs) \
	((size_t)(max_jobs) * sizeof(struct sched_job) + \
	 (2 * (size_t)(max_jobs) + 1) * sizeof(struct sched_seg) + \
	 (size_t)(max_jobs) * sizeof(struct sched_job *))

/* Alignment the arena needs. */
#define SCHED_ARENA_ALIGN (_Alignof(struct sched_job) > _Alignof(struct sched_seg) ? \
			   _Alignof(struct sched_job) : _Alignof(struct sched_seg))

/** Arena bytes needed for @p max_jobs jobs (SCHED_ARENA_SIZE as a function). O(1). */
size_t sched_arena_size(uint32_t max_jobs);

/**
 * Prepare @p s with @p cfg over @p arena (SCHED_ARENA_SIZE(cfg->max_jobs)
 * bytes, aligned to SCHED_ARENA_ALIGN). The clock starts at @p origin.
 * @p emit (may be NULL) receives decisions with @p ctx. O(max_jobs).
 * @retval SCHED_E_INVAL procs or max_jobs is 0, unknown policy, arena NULL or misaligned.
 * @retval SCHED_E_NOSPACE the arena is smaller than SCHED_ARENA_SIZE(max_jobs).
 * @retval SCHED_E_RANGE origin >= SCHED_NOW_LIMIT, or max_jobs too large to size an arena.
 */
int sched_init(struct sched *s, const struct sched_config *cfg, void *arena, size_t arena_size,
	       sched_decision_fn emit, void *ctx, sched_time_t origin);

/**
 * A job arrives at @p now. Planning policies (conservative) reserve its
 * guaranteed start here; queueing policies (FCFS, EASY) only queue it. Jobs
 * start in sched_advance(). O(n) in jobs and profile segments.
 * @retval SCHED_E_INVAL procs or estimate is 0, or estimate >= SCHED_ESTIMATE_LIMIT.
 * @retval SCHED_E_RANGE more processors than the machine; or no start time fits in the clock.
 * @retval SCHED_E_EXIST a job with that id is in the system.
 * @retval SCHED_E_NOSPACE the job pool is full (the job is refused; counted).
 * @retval SCHED_E_TIME, SCHED_E_RANGE as for every timed call.
 */
int sched_submit(struct sched *s, const struct sched_job_desc *d, sched_time_t now);

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
 * conservative; under EASY only the queue head has one (the shadow time);
 * a running job reports its actual start. O(n).
 * @retval SCHED_E_NOENT no such job. @retval SCHED_E_NOTSUP the policy guarantees nothing for it.
 */
int sched_predict(const struct sched *s, uint32_t id, sched_time_t *start);

/**
 * Switch policy at @p now. Waiting jobs keep their arrival order; a
 * planning policy reserves each of them afresh in that order (earlier
 * guarantees are void). O(n^2).
 * @retval SCHED_E_INVAL unknown policy.
 */
int sched_set_policy(struct sched *s, enum sched_policy_id policy, sched_time_t now);

/** The job with caller id @p id, or NULL. O(1) on average (hashed), O(n) at worst. */
const struct sched_job *sched_find(const struct sched *s, uint32_t id);

/** First waiting (arrival order) or running (end order) job, or NULL. O(1). */
const struct sched_job *sched_first(const struct sched *s, enum sched_job_state which);

/** The job after @p j in its list, or NULL. O(1). */
const struct sched_job *sched_next(const struct sched *s, const struct sched_job *j);

/** Processors free at the current time. O(1). */
static inline sched_procs_t sched_free_now(const struct sched *s)
{
	return s->cfg.procs - s->busy;
}

/**
 * Check every invariant: the profile's own, pool accounting, list lengths,
 * busy processors, running order, and that the profile equals one rebuilt
 * from the jobs. O(n^2); meant for tests and debug builds.
 * @retval SCHED_OK all hold. @retval SCHED_E_STATE one is broken.
 */
int sched_check(const struct sched *s);

/** Name of a policy ("fcfs", "easy", "cons"), or NULL when unknown. O(1). */
const char *sched_policy_name(enum sched_policy_id policy);

/** Parse a policy name; also accepts "conservative". O(1). @retval SCHED_E_INVAL unknown. */
int sched_policy_parse(const char *name, enum sched_policy_id *policy);

#endif /* SCHED_SCHED_H */
