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
	/* A policy's per-job state (sched_pjob): SCHED_POLICY_JOB_BYTES, the most any policy
	 * declares; it holds the state of the scheduler's job owner (struct sched's job_owner). */
	uint32_t pjob[SCHED_POLICY_JOB_BYTES / 4];
	uint8_t queue;
	uint8_t part;            /* partition it runs in, or is reserved in */
	uint8_t allowed;         /* bit mask of partitions it may use */
	/* One byte for three fields, so that the slot stays SCHED_JOB_BYTES with the policy's area. */
	unsigned state : 2;      /* enum sched_job_state */
	unsigned reserved : 1;   /* waiting job holds [start, start + estimate) in its partition's profile */
	unsigned powner : 5;     /* the policy whose state pjob holds (job_info reads it), or SCHED_POWNER_NONE */
};

#define SCHED_POWNER_NONE 0x1Fu

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
	/*
	 * The policy whose per-job state every job's pjob holds (the area is the largest any
	 * policy declares, not their sum): the last policy in force that declares per-job state,
	 * or before any has been, the registry's first that does; SCHED_POWNER_NONE if none.
	 * Its job_init runs at every submit, whatever policy is in force, so a job submitted under
	 * another policy carries what it needs when it takes over (slack: the priorities of the
	 * job's descriptor, which the core does not keep).
	 */
	uint8_t job_owner;
	/* Not state: bound by sched_init() and again by sched_attach() after a copy. */
	sched_decision_fn emit;
	void *emit_ctx;
	struct sched_counters counters;
	struct sched_scratch scratch;
	/* The policy in force's own state (sched_pstate): SCHED_POLICY_STATE_BYTES, the most any
	 * policy declares, so a switch of policy never lays the arena out again; zeroed at init and
	 * at every switch, before the new policy's enter hook. Inside the state header, so a byte
	 * copy of the arena (sched_attach, the durable store's snapshot) carries it. */
	_Alignas(8) unsigned char pstate[SCHED_POLICY_STATE_BYTES];
	/* A time-shared policy (gang): its own state after the core's in the arena, and the service
	 * of the job sched_submit() is admitting (sched_job_desc.service; read by its admit hook). */
	sched_rel_t ts_area;
	sched_time_t ts_service;
};


/*
 * A policy is one entry of the registry (sched/policies.h): its name, help,
 * family and parameters, the state it needs, and hooks over the common
 * machinery. Queueing policies (FCFS, EASY) keep only running jobs in the
 * profiles and decide at each pass; planning policies (those with `admit`)
 * hold a reservation for every waiting job (background-queue jobs excepted)
 * and start jobs when their reservation comes due.
 *
 * The NULL-hook rule: `pass` is required of every policy (one that never
 * starts a job is none), and so are a time-shared policy's own hooks
 * (arena_size ... audit, next_event among them): sched.c calls those
 * unguarded, on the hot path. Every other hook is optional: sched.c calls
 * it through the sched_pol_* wrappers below, which do nothing (or what the
 * comment says) for a NULL hook. test_registry checks both halves and that
 * each policy's hooks agree with what sched_policy_info() states of it (a
 * planning policy has admit, pass, predict and enter). Hooks run with
 * s->now already set.
 */
struct sched_policy {
	const char *name;
	const char *help;   /* one line: what it does, the paper and section */
	const char *family; /* "queue", "plan", "dynp", "gang": sched_policy_info's family */
	bool needs_scratch; /* refuses to run without a scratch area */
	bool timeshared;    /* time-shares the machine: the hooks below the line run it, no profile, no kill at the estimate */
	const struct sched_param *params;
	uint8_t n_params;
	uint8_t state_bytes; /* of sched_pstate() it uses (at most SCHED_POLICY_STATE_BYTES) */
	uint8_t job_bytes;   /* of each job's sched_pjob() it uses (at most SCHED_POLICY_JOB_BYTES) */
	/* A job was put in the waiting queue at its place in the plan; give it a reservation.
	 * Having it is what makes a space-sharing policy a planning one (sched_pol_plans); a
	 * time-shared one places the job in its own state. */
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
	/* Waiting job j is about to start at s->now (sched_start_job, before it moves). */
	void (*on_start)(struct sched *s, struct sched_job *j);
	/* Running job j has left the machine (ended, killed or cancelled), before its slot is freed. */
	void (*on_end)(struct sched *s, struct sched_job *j);
	/* Waiting job j was withdrawn (sched_cancel), before its slot is freed. */
	void (*on_cancel)(struct sched *s, struct sched_job *j);
	/* The parameters were changed by sched_tune. */
	void (*on_tune)(struct sched *s);
	/* The counters it reports into *out (sched_stats; the order, dynp and gang fields start at zero). */
	void (*stats)(const struct sched *s, struct sched_stats *out);
	/* Waiting jobs that hold a reservation, in plan order (0: every one); NULL: every one. */
	uint32_t (*reservation_depth)(const struct sched *s);
	/* Its per-job state for job j (zeroed before) as the job owner: at submit, with the job's
	 * descriptor, or with d NULL for the jobs in the system when it becomes the owner. */
	void (*job_init)(struct sched *s, struct sched_job *j, const struct sched_job_desc *d);
	/* Its per-job state into what sched_job_read reports (slack, prio3). */
	void (*job_info)(const struct sched_job *j, struct sched_job_info *out);
	/* --- what a time-shared policy (policy_gang.c) adds --------------------------------------- */
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
};

/* The registry, indexed by enum sched_policy_id (core/src/registry.c). */
#define SCHED_POLICY_DECL(id, sym, bytes) extern const struct sched_policy sched_policy_##sym;
SCHED_POLICIES(SCHED_POLICY_DECL)
#undef SCHED_POLICY_DECL
extern const struct sched_policy *const sched_policies[SCHED_POLICY_COUNT];

/*
 * A policy's parameter block: `ID`'s part of the configuration's parameter
 * area (SCHED_PARAMS_AT_<ID>, from the sizes in sched/policies.h). Each
 * policy file defines its block's struct, checks it with
 * SCHED_PARAMS_BLOCK, and names its fields' places with SCHED_PARAM_AT.
 */
static inline const void *sched_params_of(const struct sched_config *c, unsigned at)
{
	return (const unsigned char *)c->params + at;
}
#define SCHED_PARAMS_BLOCK(ID, type)                                                                  \
	_Static_assert(sizeof(type) <= (size_t)(SCHED_PARAMS_END_##ID + 1 - SCHED_PARAMS_AT_##ID) &&     \
			       _Alignof(type) <= 4 && SCHED_PARAMS_AT_##ID % 4 == 0,                     \
		       #type " fits the block sched/policies.h gives " #ID)
#define SCHED_PARAM_AT(ID, type, field) ((uint16_t)(SCHED_PARAMS_AT_##ID + offsetof(type, field)))

/* The policy in force: the state keeps its number, never a pointer (a copy may run another build). */
static inline const struct sched_policy *sched_pol(const struct sched *s)
{
	return sched_policies[s->cfg.policy];
}

/* The policy in force's own state (state_bytes of it are its). */
static inline void *sched_pstate(struct sched *s)
{
	return s->pstate;
}

static inline const void *sched_pstate_c(const struct sched *s)
{
	return s->pstate;
}

/* Job j's per-job policy state (job_bytes of it are its owner's). */
static inline void *sched_pjob(struct sched_job *j)
{
	return j->pjob;
}

static inline const void *sched_pjob_c(const struct sched_job *j)
{
	return j->pjob;
}

/* A policy file checks that its state fits the areas every policy shares. */
#define SCHED_POLICY_STATE(type)                                                                 \
	_Static_assert(sizeof(type) <= SCHED_POLICY_STATE_BYTES && _Alignof(type) <= 8,               \
		       #type " fits SCHED_POLICY_STATE_BYTES")
#define SCHED_POLICY_JOB(type)                                                                   \
	_Static_assert(sizeof(type) <= SCHED_POLICY_JOB_BYTES && _Alignof(type) <= 4,                 \
		       #type " fits SCHED_POLICY_JOB_BYTES")

/* --- the optional hooks, as sched.c calls them (each may be NULL) ------------------------- */

/* Is p a planning policy (it reserves at submit)? */
static inline bool sched_pol_plans(const struct sched_policy *p)
{
	return p->admit != NULL && !p->timeshared; /* gang admits to its matrix, not to a plan */
}

static inline void sched_pol_reflow(struct sched *s, bool ended)
{
	if (sched_pol(s)->reflow != NULL)
		sched_pol(s)->reflow(s, ended);
}

/* NULL: the policy guarantees no start (SCHED_E_NOTSUP). */
static inline int sched_pol_predict(const struct sched *s, const struct sched_job *j, sched_time_t *start)
{
	return sched_pol(s)->predict != NULL ? sched_pol(s)->predict(s, j, start) : SCHED_E_NOTSUP;
}

static inline void sched_pol_enter(struct sched *s)
{
	if (sched_pol(s)->enter != NULL)
		sched_pol(s)->enter(s);
}

static inline void sched_pol_on_start(struct sched *s, struct sched_job *j)
{
	if (sched_pol(s)->on_start != NULL)
		sched_pol(s)->on_start(s, j);
}

static inline void sched_pol_on_cancel(struct sched *s, struct sched_job *j)
{
	if (sched_pol(s)->on_cancel != NULL)
		sched_pol(s)->on_cancel(s, j);
}

static inline void sched_pol_on_tune(struct sched *s)
{
	if (sched_pol(s)->on_tune != NULL)
		sched_pol(s)->on_tune(s);
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

/* Give every waiting job a reservation afresh, in plan order. */
void sched_replan_all(struct sched *s);

/* cons's `compress-depth` in a configuration (policy_cons.c): every compression honours it. O(1). */
uint32_t sched_cons_compress_depth(const struct sched_config *c);

/*
 * Reservation depth (cons's `reservation-depth`): how many waiting jobs, in
 * plan order and background jobs aside, hold a reservation; 0 = every one.
 * Always 0 for a policy without the reservation_depth hook. O(1).
 */
static inline uint32_t sched_reservation_depth(const struct sched *s)
{
	return sched_pol(s)->reservation_depth != NULL ? sched_pol(s)->reservation_depth(s) : 0;
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

/* Empty the work profiles, with room for what a plan tried in them can hold (a fault-injection
 * site); false: no room. O(segments held). */
bool sched_scratch_ready(struct sched *s);

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
