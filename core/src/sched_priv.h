/* SPDX-License-Identifier: MIT */
/* The policy interface and the planning helpers that policies share; private to core/src. */
#ifndef SCHED_PRIV_H
#define SCHED_PRIV_H

#include "sched/sched.h"
#include "list.h"
#include "pool.h"
#include "profile.h"

/* A job in the system (SCHED_JOB_BYTES). */
struct sched_job {
	struct sched_list link;  /* in the waiting queue (plan order) or the running list (end order) */
	sched_rel_t hnext;       /* next job in the same id-index bucket (struct sched_job) */
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

struct sched_partition {
	struct sched_profile profile;
	sched_procs_t procs;
	sched_procs_t busy;      /* processors held by running jobs */
};

struct sched_num; /* the core's integer soft float (core/src/num.h) */

/* Work area of the planning policies: copies of the profiles and per-job arrays. */
struct sched_scratch {
	uint32_t cap;                   /* jobs it can take; 0: no scratch */
	struct sched_pool segs;
	struct sched_profile work[SCHED_MAX_PARTITIONS];
	/* Arrays of cap entries each, self-relative; their contents live only within one call. */
	sched_rel_t jobs_at;            /* struct sched_job *[cap] */
	sched_rel_t factors_at;         /* struct sched_num[cap] (slack: the delay-independent part of a cost) */
	sched_rel_t start_a_at, start_b_at; /* sched_time_t[cap] */
	sched_rel_t part_a_at, part_b_at;   /* uint8_t[cap] */
};

/* The scratch with its arrays as pointers, made afresh within each call (never stored). */
struct sched_work {
	uint32_t cap;
	struct sched_pool *segs;
	struct sched_profile *work;     /* [SCHED_MAX_PARTITIONS] */
	struct sched_job **jobs;
	struct sched_num *factors;
	sched_time_t *start_a, *start_b;
	uint8_t *part_a, *part_b;
};

/*
 * Identifies an arena that holds a scheduler of this layout (sched_attach):
 * the state object's size, the link size and the job size, so that a field
 * added to struct sched or to a pool (the lazy pool's `fresh`, issue 14)
 * makes another build's snapshot refused rather than misread. Evaluated where
 * struct sched is complete.
 */
#define SCHED_STATE_MAGIC 0x53434844u /* "SCHD" */
#define SCHED_STATE_VERSION                                                                        \
	((uint32_t)((uint32_t)sizeof(struct sched) << 16 | (uint32_t)sizeof(intptr_t) << 8 |          \
		    (uint32_t)sizeof(struct sched_job)))

/* The state header at the start of the arena (at most SCHED_STATE_BYTES). */
struct sched {
	uint32_t magic;             /* SCHED_STATE_MAGIC */
	uint32_t version;           /* SCHED_STATE_VERSION: layout, pointer size, job size */
	uint32_t arena_used;        /* bytes from the arena's start that the state spans */
	uint32_t reserved0;
	struct sched_config cfg;
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
	sched_rel_t buckets;        /* id index: sched_rel_t[max_jobs] chains, so lookups are O(1) on average */
	bool pass_due;              /* something changed since the last scheduling pass */
	bool replan_due;            /* a job ended: the dynP family re-plans at the next pass */
	/* EASY's last pass (policy_queue.c), valid while only submits came since: */
	bool easy_valid;            /* cleared by any start, end, kill, cancel, tune or policy change */
	uint8_t easy_heads;         /* the partitions that had a head */
	uint32_t easy_seen;         /* the arrival count the pass saw */
	sched_time_t easy_shadow[SCHED_MAX_PARTITIONS]; /* each head's shadow time */
	sched_procs_t easy_extra[SCHED_MAX_PARTITIONS]; /* and the extra processors left at it */
	/* Not state: bound by sched_init() and again by sched_attach() after a copy. */
	sched_decision_fn emit;
	void *emit_ctx;
	struct sched_counters counters;
	struct sched_scratch scratch;
	uint8_t order;              /* the dynP family: the order in force (enum sched_order) */
	struct sched_dynp_stats dynp;
	/* A time-shared policy (gang): its own state after the core's in the arena, and the service
	 * of the job sched_submit() is admitting (sched_job_desc.service; read by its admit hook). */
	sched_rel_t ts_area;
	sched_time_t ts_service;
};


/*
 * A policy is one entry of the registry (sched/policies.h): its name, help
 * and parameters, and hooks over the common machinery. Queueing policies
 * (FCFS, EASY) keep only running jobs in the profiles and decide at each
 * pass; planning policies hold a reservation for every waiting job
 * (background-queue jobs excepted) and start jobs when their reservation
 * comes due. Hooks run with s->now already set; a NULL hook does nothing.
 */
struct sched_policy {
	const char *name;
	const char *help;   /* one line: what it does, the paper and section */
	bool plans;         /* every waiting job holds a reservation */
	bool needs_scratch; /* refuses to run without a scratch area */
	bool ordered;       /* plans in s->order (the dynP family): jobs started are counted per order */
	bool timeshared;    /* time-shares the machine: the hooks below the line run it, no profile, no kill at the estimate */
	bool depth_bounded; /* honours cfg.reservation_depth: only the first N waiting jobs hold reservations */
	const struct sched_param *params;
	uint8_t n_params;
	/* A job was put in the waiting queue at its place in the plan; give it a reservation. */
	int (*admit)(struct sched *s, struct sched_job *j);
	/* Capacity was freed before its planned end: a running job ended early (`ended`), or a
	 * waiting job with a reservation was cancelled. */
	void (*reflow)(struct sched *s, bool ended);
	/* One scheduling pass at s->now: start what may start. */
	void (*pass)(struct sched *s);
	/* The guaranteed start of waiting job j, if the policy gives one. */
	int (*predict)(const struct sched *s, const struct sched_job *j, sched_time_t *start);
	/* The policy takes over (at init, or by sched_set_policy with every reservation dropped):
	 * plan the waiting jobs its way. */
	void (*enter)(struct sched *s);
	/* Cross-parameter checks of a normalised configuration (ranges are the registry's). */
	int (*check)(const struct sched_config *c);
	/* --- what a time-shared policy (policy_gang.c) adds; NULL for the others ---------------- */
	/* Arena bytes its own state needs after the core's for normalised @p c (0: it cannot run there). */
	size_t (*arena_size)(const struct sched_config *c);
	/* Lay its state out in the `size` bytes at s->ts_area (sched_init, clock at s->now). */
	int (*init)(struct sched *s, void *area, size_t size);
	/* The arena was copied (sched_attach): re-bind what is not state. */
	void (*attach)(struct sched *s);
	/* Job j leaves before the policy ended it (sched_finish, sched_cancel), at s->now. */
	void (*leave)(struct sched *s, struct sched_job *j);
	/* When the core next needs sched_advance() (replaces the core's own answer). */
	sched_time_t (*next_event)(const struct sched *s);
	/* Its invariants and the core's lists against them (sched_check). */
	int (*audit)(const struct sched *s);
	/* Its counters into out (sched_stats). */
	void (*stats)(const struct sched *s, struct sched_stats *out);
};

/* The registry, indexed by enum sched_policy_id (core/src/registry.c). */
#define SCHED_POLICY_DECL(id, sym) extern const struct sched_policy sched_policy_##sym;
SCHED_POLICIES(SCHED_POLICY_DECL)
#undef SCHED_POLICY_DECL
extern const struct sched_policy *const sched_policies[SCHED_POLICY_COUNT];

/* The policy in force: the state keeps its number, never a pointer (a copy may run another build). */
static inline const struct sched_policy *sched_pol(const struct sched *s)
{
	return sched_policies[s->cfg.policy];
}

static inline struct sched_work sched_work_of(struct sched *s)
{
	struct sched_scratch *x = &s->scratch;
	struct sched_work w;
	w.cap = x->cap;
	w.segs = &x->segs;
	w.work = x->work;
	w.jobs = sched_rel_get(&x->jobs_at);
	w.factors = sched_rel_get(&x->factors_at);
	w.start_a = sched_rel_get(&x->start_a_at);
	w.start_b = sched_rel_get(&x->start_b_at);
	w.part_a = sched_rel_get(&x->part_a_at);
	w.part_b = sched_rel_get(&x->part_b_at);
	return w;
}

/* The scratch's job array alone (the hot loops want only it). */
static inline struct sched_job **sched_scratch_jobs(struct sched *s)
{
	return sched_rel_get(&s->scratch.jobs_at);
}

/* The id index: max_jobs self-relative chain heads. */
static inline sched_rel_t *sched_buckets(const struct sched *s)
{
	return sched_rel_get(&s->buckets);
}

/* What sched_init() would refuse in @p cfg itself (the arena aside), changing nothing: SCHED_OK or
 * its error. For the replay engine's check before it has an arena. O(parameters). */
int sched_init_check(const struct sched_config *cfg);

/* Fill in the defaults of every block not given and check every parameter (registry.c). */
int sched_params_normalise(struct sched_config *c);

/* Take every policy parameter of `from` (a block not given: its defaults) into `live`, checked;
 * on error `live` is unchanged. */
int sched_params_tune(struct sched_config *live, const struct sched_config *from);

/* Planning policies' common entry: every waiting job reserved afresh, in plan order. */
void sched_enter_planning(struct sched *s);

static inline struct sched_job *sched_job_of(struct sched_list *link)
{
	return SCHED_LIST_ENTRY(link, struct sched_job, link);
}

/* Expected end of a job that starts or started at j->start. */
static inline sched_time_t sched_job_end(const struct sched_job *j)
{
	return j->start + j->estimate;
}

static inline const struct sched_queue_cfg *sched_queue_of(const struct sched *s, const struct sched_job *j)
{
	return &s->cfg.queues[j->queue];
}

/* Does the queue limit its running jobs (processors, or jobs per user)? Most have no limit. */
static inline bool sched_queue_limited(const struct sched_queue_cfg *q)
{
	return q->proc_cap != 0 || q->max_running_per_user != 0;
}

static inline bool sched_is_background(const struct sched *s, const struct sched_job *j)
{
	return s->cfg.queues[j->queue].background;
}

static inline struct sched_profile *sched_prof(struct sched *s, unsigned p)
{
	return &s->part[p].profile;
}

static inline const struct sched_profile *sched_prof_c(const struct sched *s, unsigned p)
{
	return &s->part[p].profile;
}

/* The next waiting job after j in plan order, or NULL. */
static inline struct sched_job *sched_next_waiting(struct sched *s, struct sched_job *j)
{
	struct sched_list *n = sched_list_next(&j->link);
	return n == &s->waiting ? NULL : sched_job_of(n);
}

/* The earliest a waiting job may be planned: now, or later while its queue's limits hold it back. */
static inline sched_time_t sched_earliest(const struct sched *s, const struct sched_job *j)
{
	return j->hold > s->now ? j->hold : s->now;
}

/* --- plan.c: reservations across partitions ------------------------------------------ */

/* Reserve j at its earliest anchor, at or after `earliest` (and now), in any partition it may use. */
int sched_place(struct sched *s, struct sched_job *j, sched_time_t earliest);

/* Record in j that the profile of `part` now holds its reservation at `start` (the profile is the caller's). */
void sched_note_reserved(struct sched *s, struct sched_job *j, sched_time_t start, uint8_t part);

/* Reserve j exactly at `start` in partition `part`. */
int sched_reserve_at(struct sched *s, struct sched_job *j, sched_time_t start, uint8_t part);

/* Drop waiting job j's reservation. */
void sched_unreserve(struct sched *s, struct sched_job *j);

/* Compression step: move j to an earlier anchor if one exists; true if it moved. */
bool sched_move_earlier(struct sched *s, struct sched_job *j);

/* Compression (seed 000 section 2.1) of every reserved waiting job, in plan order. */
void sched_compress(struct sched *s);

/* The reflow hook of the policies that compress on every early end. */
void sched_reflow_compress(struct sched *s, bool ended);

/* Re-plan, in order, every reserved waiting job after j (they have a lower queue priority). */
void sched_replan_after(struct sched *s, struct sched_job *j);

/* Give every waiting job a reservation afresh, in plan order. */
void sched_replan_all(struct sched *s);

/*
 * Reservation depth (cons's `reservation-depth`): how many waiting jobs, in
 * plan order and background jobs aside, hold a reservation; 0 = every one.
 * Always 0 for a policy that does not honour it. O(1).
 */
static inline uint32_t sched_reservation_depth(const struct sched *s)
{
	return sched_pol(s)->depth_bounded ? s->cfg.reservation_depth : 0;
}

/*
 * Make the reservations match the depth: drop those beyond it, then
 * reserve, in plan order, the jobs within it that hold none. O(depth x
 * segments) plus O(n) when `drop`; with depth 0, every job is reserved.
 */
void sched_depth_settle(struct sched *s, bool drop);

/* Planning pass: start due jobs (queue limits permitting), then background jobs that fit now. */
void sched_start_due(struct sched *s);

/* Planning predict: the job's reservation. */
int sched_predict_reserved(const struct sched *s, const struct sched_job *j, sched_time_t *start);

/* Conservative admission with queue priorities: place j, re-plan the lower-priority jobs after it. */
int sched_admit_strict(struct sched *s, struct sched_job *j);

/* --- sched.c --------------------------------------------------------------------------- */

/* Start waiting job j at s->now in partition `part`: move it to the running list and emit START. */
void sched_start_job(struct sched *s, struct sched_job *j, uint8_t part);

/*
 * May j start now under its queue's running limits? If not, *retry is the
 * earliest time a running job that blocks it ends.
 */
bool sched_limits_allow(const struct sched *s, const struct sched_job *j, sched_time_t *retry);

/* A higher queue has a job waiting: background jobs of j's queue must not start. */
bool sched_background_held(const struct sched *s, const struct sched_job *j);

/* A reservation was made at t: keep the earliest one known (next_event). */
static inline void sched_plan_note(struct sched *s, sched_time_t t)
{
	if (t < s->first_start)
		s->first_start = t;
}

/* Recompute the earliest reservation after reservations moved or vanished. O(n). */
void sched_plan_refresh(struct sched *s);

/* --- time sharing (sched.c, for policy_gang.c) ------------------------------------------- */

/* The job with caller id `id`, or NULL. O(1) on average. */
struct sched_job *sched_job_by_id(struct sched *s, uint32_t id);

/* Waiting job j runs its first slice at t: it joins the running list (no profile) and START goes out. */
void sched_ts_start(struct sched *s, struct sched_job *j, sched_time_t t);

/* Running job j had its service (`run` seconds) and leaves at t: decision `kind` (END, or KILL when it
 * had no service given) goes out, then the core forgets it; `killed` counts it killed. */
void sched_ts_end(struct sched *s, struct sched_job *j, sched_time_t t, sched_time_t run,
		  enum sched_decision_kind kind, bool killed);

/* Hand a decision the policy made itself (SWITCH, SKIP) to the caller. */
static inline void sched_emit_decision(struct sched *s, const struct sched_decision *d)
{
	if (s->emit != NULL)
		s->emit(s->emit_ctx, d);
}

/* --- the dynP family (policy_dynp.c) ----------------------------------------------------- */

/* Re-plan in the order in force (self-tuning dynP decides it first). */
void sched_family_replan(struct sched *s);

/*
 * Quality (into *quality) of the virtual schedule of the n jobs in
 * scratch.jobs placed in order o, starting from `base` (the running jobs'
 * part); the live schedule is not touched. scratch.jobs comes in order
 * `have` and is left in order o. false when the scratch cannot hold the
 * schedule. O(n log n + n x segments); O(n + n x segments) from another order than FCFS.
 */
bool sched_dynp_virtual(struct sched *s, enum sched_order have, enum sched_order o, uint32_t n, uint64_t base,
			uint64_t *quality);

/*
 * Make `prof` (segments from `pool`) the profile of partition `part` with only
 * its running jobs in it, in one pass over the running list: what releasing
 * every waiting job's reservation would leave, without a search each. O(R + S).
 * false, with nothing changed, when the pool cannot hold it.
 */
bool sched_running_profile(struct sched *s, unsigned part, struct sched_profile *prof, struct sched_pool *pool);

/* --- scratch (plan.c) ------------------------------------------------------------------ */

/* May the scratch's per-job arrays take `jobs` jobs? false when they cannot (the caller falls back). O(1). */
bool sched_scratch_room(struct sched *s, uint32_t jobs);

/* Copy every partition's profile into the scratch work profiles; false if it does not fit. */
bool sched_scratch_copy(struct sched *s);

/* Make each work profile its partition's running jobs alone (sched_running_profile): what the
 * copy would be less every reservation, in O(R + S); false if it does not fit. */
bool sched_scratch_running(struct sched *s);

/* Give the work profiles' segments back. */
void sched_scratch_clear(struct sched *s);

/*
 * Reserve j in the work profiles at its earliest anchor at or after `earliest`, by
 * sched_place()'s rule (the earliest over its partitions, the lowest on a tie); the
 * start in *at and the partition in *part. O(segments); one scan with one partition.
 * SCHED_E_RANGE: it fits nowhere (nothing changes); else as sched_profile_reserve().
 */
int sched_scratch_place(struct sched *s, const struct sched_job *j, sched_time_t earliest, uint8_t *part,
			sched_time_t *at);

#endif /* SCHED_PRIV_H */
