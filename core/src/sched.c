/* SPDX-License-Identifier: MIT */
/* The scheduler object: pools, queues, partitions, the clock, and the event API shared by every policy. */
#include "sched_priv.h"
#include "util.h"

_Static_assert(sizeof(struct sched_job) == SCHED_JOB_BYTES, "SCHED_JOB_BYTES is the job slot's size");
_Static_assert(sizeof(struct sched_seg) == SCHED_SEG_BYTES, "SCHED_SEG_BYTES is the segment's size");
_Static_assert(sizeof(struct sched) <= SCHED_STATE_BYTES, "the state header fits SCHED_STATE_BYTES");
_Static_assert(sizeof(struct sched) <= 0xFFFFu && sizeof(struct sched_job) <= 0xFFu,
	       "SCHED_STATE_VERSION holds the state's and the job's sizes");
_Static_assert(sizeof(sched_rel_t) == SCHED_REL_BYTES, "SCHED_REL_BYTES is a link's size");
_Static_assert(SCHED_POLICY_COUNT < SCHED_POWNER_NONE, "a job's powner holds a policy's number and a none");
_Static_assert(_Alignof(struct sched) <= SCHED_ARENA_ALIGN && _Alignof(struct sched_job) <= SCHED_ARENA_ALIGN,
	       "SCHED_ARENA_ALIGN suits every object in the arena");

static uint8_t first_job_owner(enum sched_policy_id in_force);

size_t sched_arena_size(uint32_t max_jobs)
{
	return SCHED_ARENA_SIZE(max_jobs);
}

/* The bytes a time-shared policy's own state takes after the core's (0 for the others). */
static size_t ts_size(const struct sched_config *cfg)
{
	if ((unsigned)cfg->policy >= SCHED_POLICY_COUNT || sched_policies[cfg->policy]->arena_size == NULL)
		return 0;
	return (sched_policies[cfg->policy]->arena_size(cfg) + 7u) & ~(size_t)7u;
}

size_t sched_arena_size_cfg(const struct sched_config *cfg)
{
	return SCHED_ARENA_SIZE_SCRATCH(cfg->max_jobs, cfg->scratch_jobs) + ts_size(cfg);
}

/* Check the partition and queue tables and the policy parameters, and fill in what zero means. */
static int normalise(struct sched_config *c)
{
	if (c->n_partitions > SCHED_MAX_PARTITIONS || c->n_queues > SCHED_MAX_QUEUES)
		return SCHED_E_INVAL;
	if (c->n_partitions == 0) {
		if (c->procs == 0)
			return SCHED_E_INVAL;
		c->n_partitions = 1;
		c->partition_procs[0] = c->procs;
	}
	uint64_t total = 0;
	for (unsigned p = 0; p < c->n_partitions; p++) {
		if (c->partition_procs[p] == 0)
			return SCHED_E_INVAL;
		total += c->partition_procs[p];
	}
	if (total >= SCHED_NOW_LIMIT)
		return SCHED_E_RANGE;
	c->procs = (sched_procs_t)total;
	if (c->n_queues == 0) {
		sched_zero(&c->queues[0], sizeof c->queues[0]);
		c->n_queues = 1;
	}
	uint8_t all = (uint8_t)((1u << c->n_partitions) - 1u);
	for (unsigned q = 0; q < c->n_queues; q++) {
		struct sched_queue_cfg *qc = &c->queues[q];
		if (qc->partitions == 0)
			qc->partitions = all;
		if ((qc->partitions & ~all) != 0)
			return SCHED_E_INVAL;
		if ((qc->max_procs && qc->min_procs > qc->max_procs) ||
		    (qc->max_time && qc->min_time > qc->max_time))
			return SCHED_E_INVAL;
	}
	return sched_params_normalise(c);
}

/* Where each part of the arena starts: the state, jobs, segments, the id index, then the scratch. */
#define STATE_BYTES (((sizeof(struct sched) + 7u) / 8u) * 8u)

/* What sched_init() refuses in a configuration before it looks at the arena's size. */
static int config_bounds(const struct sched_config *cfg, sched_time_t origin)
{
	if (cfg == NULL || cfg->max_jobs == 0 || (unsigned)cfg->policy >= SCHED_POLICY_COUNT)
		return SCHED_E_INVAL;
	/* Segment pools hold 2n + 8 elements in a uint32_t count; the whole arena spans < 4 GiB. */
	if (cfg->max_jobs > (UINT32_MAX - 16) / 2 || cfg->scratch_jobs > (UINT32_MAX - 16) / 2 ||
	    origin >= SCHED_NOW_LIMIT || sched_arena_size_cfg(cfg) > UINT32_MAX)
		return SCHED_E_RANGE;
	return SCHED_OK;
}

/* The rest of its checks, on a copy @p c that they normalise (defaults filled in). */
static int config_normalise(struct sched_config *c)
{
	int err = normalise(c);
	if (err != SCHED_OK)
		return err;
	if (sched_policies[c->policy]->needs_scratch && c->scratch_jobs == 0)
		return SCHED_E_INVAL;
	if (sched_policies[c->policy]->arena_size != NULL && ts_size(c) == 0)
		return SCHED_E_INVAL; /* a time-shared policy that cannot run on this machine */
	return SCHED_OK;
}

int sched_init_check(const struct sched_config *cfg)
{
	int err = config_bounds(cfg, 0);
	if (err != SCHED_OK)
		return err;
	struct sched_config c;
	sched_copy(&c, cfg, sizeof c);
	return config_normalise(&c);
}

int sched_init(struct sched **out, const struct sched_config *cfg, void *arena, size_t arena_size,
	       sched_decision_fn emit, void *ctx, sched_time_t origin)
{
	if (out == NULL || arena == NULL || (uintptr_t)arena % SCHED_ARENA_ALIGN != 0)
		return SCHED_E_INVAL;
	int err = config_bounds(cfg, origin);
	if (err != SCHED_OK)
		return err;
	if (arena_size < sched_arena_size_cfg(cfg))
		return SCHED_E_NOSPACE;
	struct sched_config c;
	sched_copy(&c, cfg, sizeof c);
	err = config_normalise(&c);
	if (err != SCHED_OK)
		return err;

	unsigned char *mem = arena;
	struct sched *s = arena;
	sched_zero(s, sizeof *s); /* no magic until the end: a failed init leaves nothing to attach to */
	s->version = SCHED_STATE_VERSION;
	s->arena_used = (uint32_t)sched_arena_size_cfg(&c);
	sched_copy(&s->cfg, &c, sizeof c);
	mem += STATE_BYTES;
	size_t jobs_bytes = (size_t)c.max_jobs * sizeof(struct sched_job);
	size_t segs_bytes = SCHED_SEGMENTS(c.max_jobs) * sizeof(struct sched_seg);
	sched_pool_init(&s->jobs, mem, sizeof(struct sched_job), offsetof(struct sched_job, link), c.max_jobs);
	sched_pool_init(&s->segs, mem + jobs_bytes, sizeof(struct sched_seg), offsetof(struct sched_seg, link),
			(uint32_t)SCHED_SEGMENTS(c.max_jobs));
	sched_pool_set_site(&s->jobs, SCHED_FAIL_JOB);
	sched_pool_set_site(&s->segs, SCHED_FAIL_SEGMENT);
	sched_rel_set(&s->buckets, mem + jobs_bytes + segs_bytes);
	sched_rel_t *buckets = sched_buckets(s);
	for (uint32_t i = 0; i < c.max_jobs; i++)
		buckets[i] = 0;
#ifdef SCHED_PROFILE_FLAT
	/* The flat copy (host builds only: the board's code stays as it was) after the id index. */
	unsigned char *flat = mem + jobs_bytes + segs_bytes + (size_t)c.max_jobs * sizeof(sched_rel_t);
	size_t flat_bytes = SCHED_FLAT_BYTES(SCHED_SEGMENTS(c.max_jobs));
#endif

	/* Scratch: work segments, then the per-job arrays (pointers first, for alignment). */
	struct sched_scratch *x = &s->scratch;
	if (c.scratch_jobs > 0) {
#ifdef SCHED_PROFILE_FLAT
		unsigned char *sm = flat + flat_bytes;
#else
		unsigned char *sm = mem + jobs_bytes + segs_bytes + (size_t)c.max_jobs * sizeof(sched_rel_t);
#endif
		size_t wsegs = SCHED_SEGMENTS(c.scratch_jobs) * sizeof(struct sched_seg);
		x->cap = c.scratch_jobs;
		sched_pool_init(&x->segs, sm, sizeof(struct sched_seg), offsetof(struct sched_seg, link),
				(uint32_t)SCHED_SEGMENTS(c.scratch_jobs));
		sched_pool_set_site(&x->segs, SCHED_FAIL_SCRATCH_SEGS);
		sm += wsegs;
		/* The work profiles keep the list alone: a flat copy there made slack 1.35x and dynP
		 * 1.3x slower (the trials update more than they search) and helped no policy. */
		sched_rel_set(&x->factors_at, sm);
		sm += (size_t)c.scratch_jobs * SCHED_NUM_BYTES;
		sched_rel_set(&x->jobs_at, sm);
		sm += (size_t)c.scratch_jobs * sizeof(struct sched_job *);
		sched_rel_set(&x->start_a_at, sm);
		sm += (size_t)c.scratch_jobs * sizeof(sched_time_t);
		sched_rel_set(&x->start_b_at, sm);
		sm += (size_t)c.scratch_jobs * sizeof(sched_time_t);
		sched_rel_set(&x->part_a_at, sm);
		sched_rel_set(&x->part_b_at, sm + c.scratch_jobs);
		SCHED_ASSERT(sm + 2u * c.scratch_jobs <= (unsigned char *)arena + s->arena_used);
	}

	s->n_parts = c.n_partitions;
	s->n_queues = c.n_queues;
	s->has_background = false;
	for (unsigned q = 0; q < c.n_queues; q++)
		s->has_background |= c.queues[q].background;
	for (unsigned p = 0; p < SCHED_MAX_PARTITIONS; p++) {
		s->part[p].procs = p < s->n_parts ? c.partition_procs[p] : 0;
		s->part[p].busy = 0;
		if (p < s->n_parts) {
			err = sched_profile_init(&s->part[p].profile, &s->segs, s->part[p].procs, origin);
			if (err != SCHED_OK)
				return err; /* the pool was just made with room: only fault injection gets here */
#ifdef SCHED_PROFILE_FLAT
			/* One copy, sized for the whole pool: partition 0's (the only one, mostly). */
			if (p == 0)
				sched_profile_attach_flat(&s->part[0].profile, flat, (uint32_t)SCHED_SEGMENTS(c.max_jobs));
#endif
		}
	}
	for (unsigned q = 0; q < SCHED_MAX_QUEUES; q++)
		s->queue_busy[q] = 0;
	sched_list_init(&s->waiting);
	sched_list_init(&s->running);
	s->n_waiting = 0;
	s->n_running = 0;
	s->arrivals = 0;
	s->busy = 0;
	s->now = origin;
	s->first_start = SCHED_TIME_MAX;
	s->pass_due = false;
	s->emit = emit;
	s->emit_ctx = ctx;
	sched_zero(&s->counters, sizeof s->counters);
	/* The policy's state is zero (sched_zero above); no job yet, so enter only sets it up. */
	s->job_owner = first_job_owner(c.policy);
	sched_pol_enter(s);
	if (sched_pol(s)->init != NULL) {
		/* A time-shared policy's state: the last ts_size() bytes of the arena. */
		size_t ts = ts_size(&c);
		sched_rel_set(&s->ts_area, (unsigned char *)arena + s->arena_used - ts);
		err = sched_pol(s)->init(s, sched_rel_get(&s->ts_area), ts);
		if (err != SCHED_OK)
			return err;
	}
	s->magic = SCHED_STATE_MAGIC;
	*out = s;
	return SCHED_OK;
}

int sched_attach(struct sched **out, void *arena, size_t arena_size, sched_decision_fn emit, void *ctx)
{
	if (out == NULL || arena == NULL || (uintptr_t)arena % SCHED_ARENA_ALIGN != 0)
		return SCHED_E_INVAL;
	if (arena_size < sizeof(struct sched))
		return SCHED_E_NOSPACE;
	struct sched *s = arena;
	if (s->magic != SCHED_STATE_MAGIC || s->version != SCHED_STATE_VERSION ||
	    (unsigned)s->cfg.policy >= SCHED_POLICY_COUNT ||
	    (s->job_owner >= SCHED_POLICY_COUNT && s->job_owner != SCHED_POWNER_NONE))
		return SCHED_E_FORMAT; /* the numbers the state keeps instead of pointers index the registry */
	if (arena_size < s->arena_used)
		return SCHED_E_NOSPACE;
	s->emit = emit;
	s->emit_ctx = ctx;
	if (sched_pol(s)->attach != NULL)
		sched_pol(s)->attach(s);
	*out = s;
	return SCHED_OK;
}

size_t sched_arena_used(const struct sched *s)
{
	return s->arena_used;
}

static void emit_run(struct sched *s, enum sched_decision_kind kind, const struct sched_job *j, sched_time_t t,
		     bool backfilled, sched_time_t run)
{
	if (s->emit == NULL)
		return;
	/* Field by field: an initializer would make GCC call memset. */
	struct sched_decision d;
	d.kind = kind;
	d.job = j->id;
	d.time = t;
	d.procs = j->procs;
	d.partition = j->part;
	d.backfilled = backfilled;
	d.run = run;
	d.slot = 0;
	d.runs = NULL;
	d.n_runs = 0;
	d.quanta = 0;
	s->emit(s->emit_ctx, &d);
}

/* A start or the core's kill (whose `run` is the estimate it held). */
static void emit(struct sched *s, enum sched_decision_kind kind, const struct sched_job *j, sched_time_t t,
		 bool backfilled)
{
	emit_run(s, kind, j, t, backfilled, kind == SCHED_DEC_KILL ? j->estimate : 0);
}

static struct sched_job *first_running(const struct sched *s)
{
	return sched_list_empty(&s->running) ? NULL : sched_job_of(sched_list_first(&s->running));
}

void sched_plan_refresh(struct sched *s)
{
	sched_time_t t = SCHED_TIME_MAX;
	const struct sched_list *it;
	sched_list_for_each(it, &s->waiting) {
		const struct sched_job *j = sched_job_of((struct sched_list *)it);
		if (j->reserved && j->start < t)
			t = j->start;
	}
	s->first_start = t;
}

/* A space-sharing policy's next event; inlined into catch_up's loop (a call there costs the board ~10% of a pass). */
static inline sched_time_t space_next_event(const struct sched *s)
{
	sched_time_t t = s->pass_due ? s->now : SCHED_TIME_MAX;
	const struct sched_job *r = first_running(s);
	if (r != NULL && sched_job_end(r) < t)
		t = sched_job_end(r);
	if (s->first_start < t)
		t = s->first_start;
	return t < s->now ? s->now : t;
}

sched_time_t sched_next_event(const struct sched *s)
{
	return sched_pol(s)->timeshared ? sched_pol(s)->next_event(s) : space_next_event(s);
}

/* Fibonacci hashing spreads consecutive ids (the common case) over the buckets. */
static uint32_t bucket_of(const struct sched *s, uint32_t id)
{
	return (uint32_t)(id * 2654435761u) % s->cfg.max_jobs;
}

static struct sched_job *find_job(const struct sched *s, uint32_t id)
{
	struct sched_job *j = sched_rel_get(&sched_buckets(s)[bucket_of(s, id)]);
	while (j != NULL && j->id != id)
		j = sched_rel_get(&j->hnext);
	return j;
}

static void index_add(struct sched *s, struct sched_job *j)
{
	sched_rel_t *b = &sched_buckets(s)[bucket_of(s, j->id)];
	sched_rel_set(&j->hnext, sched_rel_get(b));
	sched_rel_set(b, j);
}

static void index_remove(struct sched *s, struct sched_job *j)
{
	sched_rel_t *p = &sched_buckets(s)[bucket_of(s, j->id)];
	struct sched_job *at;
	while ((at = sched_rel_get(p)) != j)
		p = &at->hnext;
	sched_rel_set(p, sched_rel_get(&j->hnext));
}

/* Job j's per-job state afresh, the job owner's (d: its descriptor, or NULL for a job in the system). O(1). */
static inline void job_state_init(struct sched *s, struct sched_job *j, const struct sched_job_desc *d)
{
	uint8_t owner = s->job_owner;
	j->powner = owner & SCHED_POWNER_NONE;
	for (unsigned i = 0; i < SCHED_POLICY_JOB_BYTES / 4u; i++)
		j->pjob[i] = 0; /* words, not sched_zero's bytes: this runs at every submit */
	if (owner != SCHED_POWNER_NONE) /* an owner declares job_bytes, so has job_init (test_registry) */
		sched_policies[owner]->job_init(s, j, d);
}

/* The first owner of the jobs' per-job state (see struct sched's job_owner). O(policies). */
static uint8_t first_job_owner(enum sched_policy_id in_force)
{
	if (sched_policies[in_force]->job_bytes > 0)
		return (uint8_t)in_force;
	for (unsigned i = 0; i < SCHED_POLICY_COUNT; i++)
		if (sched_policies[i]->job_bytes > 0)
			return (uint8_t)i;
	return SCHED_POWNER_NONE;
}

/*
 * Policy s->cfg.policy, just in force, becomes the job owner if it declares
 * per-job state and is not the owner yet: every job's state is made afresh
 * its way. The owner's state otherwise stays through switches to policies
 * without per-job state and back (slack's placement is made once). O(n).
 */
static void take_job_state(struct sched *s)
{
	if (sched_pol(s)->job_bytes == 0 || s->job_owner == (uint8_t)s->cfg.policy)
		return;
	s->job_owner = (uint8_t)s->cfg.policy;
	struct sched_list *it;
	sched_list_for_each(it, &s->waiting)
		job_state_init(s, sched_job_of(it), NULL);
	sched_list_for_each(it, &s->running)
		job_state_init(s, sched_job_of(it), NULL);
}

/* Give a job that has left the system back to the pool. */
static void release_job(struct sched *s, struct sched_job *j)
{
	index_remove(s, j);
	j->state = SCHED_JOB_FREE;
	sched_pool_free(&s->jobs, j);
}

/* Insert a running job keeping ascending end order; equal ends keep start order. */
static void insert_running(struct sched *s, struct sched_job *j)
{
	sched_time_t end = sched_job_end(j);
	struct sched_list *pos = sched_list_prev(&s->running);
	/* New jobs usually end last, so walk from the tail. */
	while (pos != &s->running && sched_job_end(sched_job_of(pos)) > end)
		pos = sched_list_prev(pos);
	sched_list_insert_after(pos, &j->link);
}

/* Plan order: higher queue priority first, then arrival. */
static bool plan_before(const struct sched *s, const struct sched_job *a, const struct sched_job *b)
{
	uint16_t pa = s->cfg.queues[a->queue].priority, pb = s->cfg.queues[b->queue].priority;
	if (pa != pb)
		return pa > pb;
	return a->arrival < b->arrival;
}

/* Put a new waiting job at its place in the plan (usually last: walk from the tail). */
static void enqueue(struct sched *s, struct sched_job *j)
{
	struct sched_list *pos = sched_list_prev(&s->waiting);
	while (pos != &s->waiting && plan_before(s, j, sched_job_of(pos)))
		pos = sched_list_prev(pos);
	sched_list_insert_after(pos, &j->link);
	s->n_waiting++;
}

void sched_start_job(struct sched *s, struct sched_job *j, uint8_t part)
{
	SCHED_ASSERT(j->state == SCHED_JOB_WAITING);
	SCHED_ASSERT(j->procs <= s->part[part].procs - s->part[part].busy);
	bool backfilled = sched_list_first(&s->waiting) != &j->link;
	if (!j->reserved) {
		/* Queueing policies and background jobs enter the profile when they start. */
		int err = sched_profile_reserve(sched_prof(s, part), s->now, j->estimate, j->procs);
		SCHED_ASSERT(err == SCHED_OK); /* free processors were checked; segments are bounded */
		(void)err;
	}
	SCHED_ASSERT(!j->reserved || (j->start == s->now && j->part == part));
	sched_pol_on_start(s, j);
	sched_list_remove(&j->link);
	s->n_waiting--;
	j->state = SCHED_JOB_RUNNING;
	j->reserved = 0;
	j->start = s->now;
	j->part = part;
	insert_running(s, j);
	s->n_running++;
	s->busy += j->procs;
	s->part[part].busy += j->procs;
	s->queue_busy[j->queue] += j->procs;
	s->counters.started++;
	if (backfilled)
		s->counters.backfilled++;
	emit(s, SCHED_DEC_START, j, s->now, backfilled);
}

/* Remove a running job from the lists and the pool; the caller fixes the profile. */
static void retire_running(struct sched *s, struct sched_job *j, const struct sched_policy *pol)
{
	sched_list_remove(&j->link);
	s->n_running--;
	s->busy -= j->procs;
	s->part[j->part].busy -= j->procs;
	s->queue_busy[j->queue] -= j->procs;
	if (pol->on_end != NULL)
		pol->on_end(s, j);
	const struct sched_queue_cfg *q = sched_queue_of(s, j);
	if (sched_queue_limited(q)) {
		/* A job its queue's limits held back may be able to go now (this one ended early). */
		struct sched_list *it;
		sched_list_for_each(it, &s->waiting) {
			struct sched_job *k = sched_job_of(it);
			if (k->queue == j->queue && k->hold > s->now)
				k->hold = s->now;
		}
	}
	release_job(s, j);
	s->pass_due = true;
}

bool sched_limits_allow(const struct sched *s, const struct sched_job *j, sched_time_t *retry)
{
	const struct sched_queue_cfg *q = sched_queue_of(s, j);
	if (!sched_queue_limited(q))
		return true; /* no running limits: no scan of the running jobs */
	bool cap = q->proc_cap != 0 && s->queue_busy[j->queue] + j->procs > q->proc_cap;
	uint32_t mine = 0;
	sched_time_t first_mine = SCHED_TIME_MAX, first_queue = SCHED_TIME_MAX;
	const struct sched_list *it;
	sched_list_for_each(it, &s->running) {
		const struct sched_job *r = sched_job_of((struct sched_list *)it);
		if (r->queue != j->queue)
			continue;
		if (sched_job_end(r) < first_queue)
			first_queue = sched_job_end(r);
		if (r->user == j->user) {
			mine++;
			if (sched_job_end(r) < first_mine)
				first_mine = sched_job_end(r);
		}
	}
	bool user = q->max_running_per_user != 0 && mine >= q->max_running_per_user;
	if (!cap && !user)
		return true;
	/* The running list is in end order, so its first blocking job frees something first. */
	*retry = cap && user ? (first_queue < first_mine ? first_queue : first_mine)
			     : cap ? first_queue : first_mine;
	return false;
}

bool sched_background_held(const struct sched *s, const struct sched_job *j)
{
	/* The plan is in descending queue priority: only its first job can be of a higher queue. */
	const struct sched_job *first = sched_first(s, SCHED_JOB_WAITING);
	return first != NULL && s->cfg.queues[first->queue].priority > s->cfg.queues[j->queue].priority;
}

/* Kill running jobs whose estimate ends before (or, if inclusive, at) t. */
static void kill_due(struct sched *s, sched_time_t t, bool inclusive, const struct sched_policy *pol)
{
	struct sched_job *j;
	while ((j = first_running(s)) != NULL &&
	       (sched_job_end(j) < t || (inclusive && sched_job_end(j) == t))) {
		s->counters.killed++;
		emit(s, SCHED_DEC_KILL, j, sched_job_end(j), false);
		retire_running(s, j, pol);
	}
}

/*
 * A call that may split a live profile first asks the segment pool, once,
 * for the most it can need, so that a refusal comes before anything changes
 * and no split inside the call can fail. Neighbours with equal counts are
 * always merged, so every segment but a partition's first starts where a
 * job in that profile starts or ends: at no point, in the middle of a call
 * too, do the profiles hold more than 2 segments per job in the system and
 * one per partition (sched_check checks it between calls). `adding` is 1
 * when the call may admit a job. The pool is sized for every job the job
 * pool can hold (SCHED_SEGMENTS), so only a lowered limit or fault
 * injection is ever refused here.
 */
static int cover_segments(struct sched *s, uint32_t adding)
{
	uint32_t jobs = s->n_waiting + s->n_running;
	if (adding && jobs < s->jobs.limit)
		jobs++; /* at the limit a new job gets in only after a kill has made room for it */
	uint32_t most = 2u * jobs + s->n_parts;
	return sched_pool_room(&s->segs, most > s->segs.used ? most - s->segs.used : 0) ? SCHED_OK
											: SCHED_E_NOSPACE;
}

static int check_time(const struct sched *s, sched_time_t now)
{
	if (now >= SCHED_NOW_LIMIT)
		return SCHED_E_RANGE;
	if (now < s->now)
		return SCHED_E_TIME;
	return SCHED_OK;
}

static void trim(struct sched *s, sched_time_t t)
{
	for (unsigned p = 0; p < s->n_parts; p++)
		sched_profile_trim(sched_prof(s, p), t);
}

/*
 * Bring the state up to `now` as if sched_advance() had been called at
 * every event before it: kills at their estimates and passes when due, each
 * at its own time. With `inclusive`, events at `now` itself are processed
 * too (sched_advance); without, they wait so that finishes and submits at
 * `now` come first (the convention of one instant).
 */
static void catch_up(struct sched *s, sched_time_t now, bool inclusive)
{
	/* The common case of one instant's second submit or finish: nothing can be due before
	 * s->now (sched_next_event never answers earlier), and every call leaves the profiles
	 * trimmed to s->now, so there is nothing to do. */
	if (!inclusive && now == s->now)
		return;
	/* Read once (only sched_set_policy changes the policy, never a pass): on the board a
	 * reload of the policy and its flags after every call costs a few percent of a pass. */
	const struct sched_policy *pol = sched_pol(s);
	bool timeshared = pol->timeshared;
	for (;;) {
		sched_time_t t = timeshared ? pol->next_event(s) : space_next_event(s);
		if (t > now || (t == now && !inclusive))
			break;
		bool moved = t > s->now; /* else the profiles are trimmed to t already */
		s->now = t;
		if (!timeshared) { /* a time-shared policy ends its jobs itself, and its profiles stay empty */
			kill_due(s, t, true, pol);
			if (moved)
				trim(s, t);
		}
		s->pass_due = false;
		pol->pass(s); /* required of every policy (test_registry) */
	}
	if (now > s->now) {
		s->now = now;
		if (!timeshared)
			trim(s, now);
	}
}

int sched_advance(struct sched *s, sched_time_t now)
{
	int err = check_time(s, now);
	if (err == SCHED_OK)
		err = cover_segments(s, 0);
	if (err != SCHED_OK)
		return err;
	catch_up(s, now, true);
	return SCHED_OK;
}

const struct sched_job *sched_find(const struct sched *s, uint32_t id)
{
	return find_job(s, id);
}

/* The partitions a job may use: its queue's, narrowed to the one it asked for. */
static uint8_t allowed_parts(const struct sched *s, const struct sched_job_desc *d)
{
	uint8_t mask = s->cfg.queues[d->queue].partitions;
	if (d->partition != SCHED_PART_ANY)
		mask &= (uint8_t)(1u << d->partition);
	return mask;
}

int sched_admissible(const struct sched *s, const struct sched_job_desc *d, const char **why)
{
	const char *w = NULL;
	int err = SCHED_OK;
	if (d == NULL || d->procs == 0 || d->estimate == 0 || d->estimate >= SCHED_ESTIMATE_LIMIT) {
		w = "zero processors or estimate, or estimate too large";
		err = SCHED_E_INVAL;
	} else if (d->queue >= s->n_queues) {
		w = "no such queue";
		err = SCHED_E_INVAL;
	} else if (d->partition != SCHED_PART_ANY &&
		   (d->partition >= s->n_parts || !(s->cfg.queues[d->queue].partitions & (1u << d->partition)))) {
		w = "partition not open to its queue";
		err = SCHED_E_INVAL;
	} else {
		const struct sched_queue_cfg *q = &s->cfg.queues[d->queue];
		sched_procs_t widest = 0;
		uint8_t mask = allowed_parts(s, d);
		for (unsigned p = 0; p < s->n_parts; p++)
			if ((mask & (1u << p)) && s->part[p].procs > widest)
				widest = s->part[p].procs;
		if (d->procs > widest) {
			w = "more processors than the machine (or its queue's partitions) has";
			err = SCHED_E_RANGE;
		} else if (q->min_procs && d->procs < q->min_procs) {
			w = "fewer processors than its queue's minimum";
			err = SCHED_E_LIMIT;
		} else if (q->max_procs && d->procs > q->max_procs) {
			w = "more processors than its queue's maximum";
			err = SCHED_E_LIMIT;
		} else if (q->min_time && d->estimate < q->min_time) {
			w = "estimate below its queue's minimum time";
			err = SCHED_E_LIMIT;
		} else if (q->max_time && d->estimate > q->max_time) {
			w = "estimate above its queue's maximum time";
			err = SCHED_E_LIMIT;
		} else if (q->proc_cap && d->procs > q->proc_cap) {
			w = "wider than its queue's processor cap";
			err = SCHED_E_LIMIT;
		}
	}
	if (why != NULL)
		*why = w;
	return err;
}

int sched_submit(struct sched *s, const struct sched_job_desc *d, sched_time_t now)
{
	int err = check_time(s, now);
	if (err != SCHED_OK)
		return err;
	err = sched_admissible(s, d, NULL);
	if (err == SCHED_OK)
		err = cover_segments(s, 1);
	if (err != SCHED_OK)
		return err;
	catch_up(s, now, false);
	if (find_job(s, d->id) != NULL)
		return SCHED_E_EXIST;
	struct sched_job *j = sched_pool_alloc(&s->jobs);
	if (j == NULL) {
		s->counters.refused++;
		return SCHED_E_NOSPACE;
	}
	j->id = d->id;
	j->user = d->user;
	j->arrival = s->arrivals;
	j->procs = d->procs;
	j->estimate = d->estimate;
	j->submit = now;
	j->start = SCHED_TIME_MAX;
	j->guarantee = SCHED_TIME_MAX;
	j->hold = 0;
	j->queue = d->queue;
	j->allowed = allowed_parts(s, d);
	j->part = 0;
	while (!(j->allowed & (1u << j->part)))
		j->part++;
	j->state = SCHED_JOB_WAITING;
	j->reserved = 0;
	job_state_init(s, j, d);
	enqueue(s, j);
	index_add(s, j);
	const struct sched_policy *pol = sched_pol(s);
	bool admit = pol->admit != NULL && !sched_is_background(s, j); /* a planning policy places it now */
	if (pol->timeshared) {
		s->ts_service = d->service; /* what the time-shared policy's admit reads */
		admit = true;               /* into its own state (test_registry: it has admit) */
	}
	if (admit) {
		err = pol->admit(s, j);
		if (err != SCHED_OK) {
			sched_list_remove(&j->link);
			s->n_waiting--;
			release_job(s, j);
			return err;
		}
		j->guarantee = j->start;
	}
	s->arrivals++;
	s->counters.submitted++;
	s->pass_due = true;
	return SCHED_OK;
}

/* --- time sharing: a time-shared policy's jobs hold no profile and no share of `busy` ---------- */

/* Forget job j (running or waiting) of a time-shared policy. */
static void ts_release(struct sched *s, struct sched_job *j)
{
	sched_list_remove(&j->link);
	if (j->state == SCHED_JOB_RUNNING)
		s->n_running--;
	else
		s->n_waiting--;
	release_job(s, j);
	s->pass_due = true;
}

struct sched_job *sched_job_by_id(struct sched *s, uint32_t id)
{
	return find_job(s, id);
}

void sched_ts_start(struct sched *s, struct sched_job *j, sched_time_t t)
{
	SCHED_ASSERT(j->state == SCHED_JOB_WAITING);
	sched_list_remove(&j->link);
	s->n_waiting--;
	j->state = SCHED_JOB_RUNNING;
	j->start = t;
	sched_list_push_back(&s->running, &j->link); /* in start order: nothing is killed by the clock */
	s->n_running++;
	s->counters.started++;
	emit(s, SCHED_DEC_START, j, t, false);
}

void sched_ts_end(struct sched *s, struct sched_job *j, sched_time_t t, sched_time_t run,
		  enum sched_decision_kind kind, bool killed)
{
	SCHED_ASSERT(j->state == SCHED_JOB_RUNNING);
	if (killed)
		s->counters.killed++;
	else
		s->counters.finished++;
	emit_run(s, kind, j, t, false, run);
	ts_release(s, j);
}

/* A running job leaves at s->now; if before its estimate, give the rest of its interval back. */
static void end_running(struct sched *s, struct sched_job *j)
{
	const struct sched_policy *pol = sched_pol(s); /* once: each reload costs the board */
	if (pol->timeshared) {
		pol->leave(s, j); /* time sharing: off the policy's slots first (leave is required of it) */
		ts_release(s, j);
		return;
	}
	sched_time_t end = sched_job_end(j);
	if (s->now >= end) {
		retire_running(s, j, pol); /* the profile already ends its interval here */
		return;
	}
	int err = sched_profile_release(sched_prof(s, j->part), s->now, end - s->now, j->procs);
	SCHED_ASSERT(err == SCHED_OK);
	(void)err;
	retire_running(s, j, pol);
	if (pol->reflow != NULL)
		pol->reflow(s, true);
}

/* Common entry of calls about one job at `now`: check the clock, catch up, find the job. */
static int enter_for_job(struct sched *s, uint32_t id, sched_time_t now, struct sched_job **jp)
{
	int err = check_time(s, now);
	if (err == SCHED_OK)
		err = cover_segments(s, 0);
	if (err != SCHED_OK)
		return err;
	catch_up(s, now, false);
	*jp = find_job(s, id);
	return *jp != NULL ? SCHED_OK : SCHED_E_NOENT;
}

int sched_finish(struct sched *s, uint32_t id, sched_time_t now)
{
	struct sched_job *j;
	int err = enter_for_job(s, id, now, &j);
	if (err != SCHED_OK)
		return err;
	if (j->state != SCHED_JOB_RUNNING)
		return SCHED_E_STATE;
	s->counters.finished++;
	end_running(s, j);
	return SCHED_OK;
}

int sched_cancel(struct sched *s, uint32_t id, sched_time_t now)
{
	struct sched_job *j;
	int err = enter_for_job(s, id, now, &j);
	if (err != SCHED_OK)
		return err;
	s->counters.cancelled++;
	if (j->state == SCHED_JOB_RUNNING || sched_pol(s)->leave != NULL) {
		end_running(s, j);
		return SCHED_OK;
	}
	bool had_reservation = j->reserved;
	if (had_reservation)
		sched_unreserve(s, j);
	sched_pol_on_cancel(s, j);
	sched_list_remove(&j->link);
	s->n_waiting--;
	release_job(s, j);
	s->pass_due = true;
	if (had_reservation) {
		sched_pol_reflow(s, false);
		sched_plan_refresh(s);
	}
	return SCHED_OK;
}

int sched_predict(const struct sched *s, uint32_t id, sched_time_t *start)
{
	const struct sched_job *j = find_job(s, id);
	if (j == NULL)
		return SCHED_E_NOENT;
	if (j->state == SCHED_JOB_RUNNING) {
		*start = j->start;
		return SCHED_OK;
	}
	return sched_pol_predict(s, j, start);
}

int sched_tune_check(const struct sched *s, const struct sched_config *cfg)
{
	struct sched_config live;
	sched_copy(&live, &s->cfg, sizeof live);
	return sched_params_tune(&live, cfg); /* sched_tune's own check, on a copy */
}

int sched_tune(struct sched *s, const struct sched_config *cfg)
{
	uint32_t depth = sched_reservation_depth(s);
	/* A new reservation depth places jobs at once: ask for their segments first, as every
	 * other call that changes the plan does, so a refusal changes nothing. */
	int err = cover_segments(s, 0);
	if (err == SCHED_OK)
		err = sched_params_tune(&s->cfg, cfg);
	if (err != SCHED_OK)
		return err;
	sched_pol_on_tune(s); /* only now: a refused tune leaves the policy's state as it was */
	if (sched_reservation_depth(s) != depth) {
		sched_depth_settle(s, true); /* reservations for the new depth, from now */
		s->pass_due = true;
	}
	return SCHED_OK;
}

int sched_set_policy(struct sched *s, enum sched_policy_id policy, sched_time_t now)
{
	if ((unsigned)policy >= SCHED_POLICY_COUNT)
		return SCHED_E_INVAL;
	if (sched_policies[policy]->needs_scratch && s->scratch.cap == 0)
		return SCHED_E_INVAL;
	if (sched_policies[policy]->timeshared != sched_pol(s)->timeshared)
		return SCHED_E_NOTSUP; /* a time-shared policy's state is laid out by sched_init() */
	int err = check_time(s, now);
	if (err == SCHED_OK)
		err = cover_segments(s, 0);
	if (err != SCHED_OK)
		return err;
	catch_up(s, now, false);
	struct sched_list *it;
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *j = sched_job_of(it);
		if (j->reserved)
			sched_unreserve(s, j);
	}
	s->cfg.policy = policy;
	s->first_start = SCHED_TIME_MAX;
	/* The new policy's state starts afresh (the area is shared: see SCHED_POLICY_STATE_BYTES). */
	sched_zero(s->pstate, sizeof s->pstate);
	take_job_state(s);
	sched_pol_enter(s);
	if (sched_pol_plans(sched_pol(s))) {
		sched_list_for_each(it, &s->waiting) {
			struct sched_job *j = sched_job_of(it);
			j->guarantee = j->reserved ? j->start : SCHED_TIME_MAX;
		}
	}
	s->pass_due = true;
	return SCHED_OK;
}

int sched_predict_reserved(const struct sched *s, const struct sched_job *j, sched_time_t *start)
{
	(void)s;
	if (!j->reserved)
		return SCHED_E_NOTSUP;
	*start = j->start;
	return SCHED_OK;
}

const struct sched_job *sched_first(const struct sched *s, enum sched_job_state which)
{
	const struct sched_list *head = which == SCHED_JOB_RUNNING ? &s->running : &s->waiting;
	if (which != SCHED_JOB_RUNNING && which != SCHED_JOB_WAITING)
		return NULL;
	return sched_list_empty(head) ? NULL : sched_job_of(sched_list_first(head));
}

const struct sched_job *sched_next(const struct sched *s, const struct sched_job *j)
{
	const struct sched_list *head = j->state == SCHED_JOB_RUNNING ? &s->running : &s->waiting;
	struct sched_list *n = sched_list_next(&j->link);
	return n == head ? NULL : sched_job_of(n);
}

const char *sched_strerror(int err)
{
	switch (err) {
	case SCHED_OK: return "ok";
#define SCHED_ERR_CASE_(name, num, msg) \
	case SCHED_E_##name: return msg;
	SCHED_ERRORS(SCHED_ERR_CASE_)
#undef SCHED_ERR_CASE_
	default: return "unknown error";
	}
}

/* --- reading the state ------------------------------------------------------------------ */

void sched_job_read(const struct sched_job *j, struct sched_job_info *out)
{
	out->id = j->id;
	out->user = j->user;
	out->procs = j->procs;
	out->submit = j->submit;
	out->estimate = j->estimate;
	out->start = j->state == SCHED_JOB_RUNNING || j->reserved ? j->start : SCHED_TIME_MAX;
	out->guarantee = j->guarantee;
	out->slack = SCHED_SLACK_INF;
	out->prio3 = 0;
	if (j->powner < SCHED_POLICY_COUNT && sched_policies[j->powner]->job_info != NULL)
		sched_policies[j->powner]->job_info(j, out); /* e.g. slack's priority and slack once placed */
	out->queue = j->queue;
	out->partition = j->part;
	out->state = j->state;
	out->reserved = j->reserved != 0;
}

int sched_job_get(const struct sched *s, uint32_t id, struct sched_job_info *out)
{
	const struct sched_job *j = find_job(s, id);
	if (j == NULL)
		return SCHED_E_NOENT;
	sched_job_read(j, out);
	return SCHED_OK;
}

void sched_stats(const struct sched *s, struct sched_stats *out)
{
	out->now = s->now;
	out->policy = s->cfg.policy;
	out->order = 0;
	out->waiting = s->n_waiting;
	out->running = s->n_running;
	out->busy = s->busy;
	out->procs = s->cfg.procs;
	out->jobs_used = s->jobs.used;
	out->jobs_peak = s->jobs.max_used;
	out->jobs_capacity = s->jobs.capacity;
	out->jobs_fails = s->jobs.fails;
	out->segs_used = s->segs.used;
	out->segs_peak = s->segs.max_used;
	out->segs_capacity = s->segs.capacity;
	out->segs_fails = s->segs.fails;
	out->segments = 0;
	for (unsigned p = 0; p < s->n_parts; p++)
		out->segments += s->part[p].profile.count;
	out->scratch_jobs = s->scratch.cap;
	sched_copy(&out->counters, &s->counters, sizeof out->counters);
	sched_zero(&out->dynp, sizeof out->dynp);
	sched_zero(&out->gang, sizeof out->gang);
	if (sched_pol(s)->stats != NULL)
		sched_pol(s)->stats(s, out); /* what the policy in force counts (dynP's orders, gang's section 4.3) */
}

const struct sched_config *sched_config_get(const struct sched *s)
{
	return &s->cfg;
}

sched_procs_t sched_free_now(const struct sched *s)
{
	return s->cfg.procs - s->busy;
}

const struct sched_seg *sched_seg_first(const struct sched *s, unsigned part)
{
	return part < s->n_parts ? sched_profile_first(&s->part[part].profile) : NULL;
}

const struct sched_seg *sched_seg_next(const struct sched *s, unsigned part, const struct sched_seg *g)
{
	return part < s->n_parts ? sched_profile_next(&s->part[part].profile, g) : NULL;
}

sched_time_t sched_seg_time(const struct sched_seg *g)
{
	return g->time;
}

sched_procs_t sched_seg_free(const struct sched_seg *g)
{
	return g->free;
}
