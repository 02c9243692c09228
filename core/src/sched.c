/* SPDX-License-Identifier: MIT */
/* The scheduler object: pools, queues, the clock, and the event API shared by every policy. */
#include "sched_priv.h"
#include "util.h"

static const struct sched_policy *const policies[SCHED_POLICY_COUNT] = {
	[SCHED_POLICY_FCFS] = &sched_policy_fcfs,
	[SCHED_POLICY_EASY] = &sched_policy_easy,
	[SCHED_POLICY_CONS] = &sched_policy_cons,
};

size_t sched_arena_size(uint32_t max_jobs)
{
	return SCHED_ARENA_SIZE(max_jobs);
}

int sched_init(struct sched *s, const struct sched_config *cfg, void *arena, size_t arena_size,
	       sched_decision_fn emit, void *ctx, sched_time_t origin)
{
	if (cfg == NULL || cfg->procs == 0 || cfg->max_jobs == 0 ||
	    (unsigned)cfg->policy >= SCHED_POLICY_COUNT || arena == NULL)
		return SCHED_E_INVAL;
	if ((uintptr_t)arena % SCHED_ARENA_ALIGN != 0)
		return SCHED_E_INVAL;
	/* The segment pool holds 2n + 1 elements in a uint32_t count. */
	if (cfg->max_jobs > (UINT32_MAX - 1) / 2 || origin >= SCHED_NOW_LIMIT)
		return SCHED_E_RANGE;
	if (arena_size < SCHED_ARENA_SIZE(cfg->max_jobs))
		return SCHED_E_NOSPACE;

	s->cfg = *cfg;
	s->policy = policies[cfg->policy];
	unsigned char *mem = arena;
	size_t jobs_bytes = (size_t)cfg->max_jobs * sizeof(struct sched_job);
	size_t segs_bytes = (2 * (size_t)cfg->max_jobs + 1) * sizeof(struct sched_seg);
	sched_pool_init(&s->jobs, mem, sizeof(struct sched_job), offsetof(struct sched_job, link),
			cfg->max_jobs);
	sched_pool_init(&s->segs, mem + jobs_bytes, sizeof(struct sched_seg),
			offsetof(struct sched_seg, link), 2 * cfg->max_jobs + 1);
	s->buckets = (struct sched_job **)(void *)(mem + jobs_bytes + segs_bytes);
	for (uint32_t i = 0; i < cfg->max_jobs; i++)
		s->buckets[i] = NULL;
	int err = sched_profile_init(&s->profile, &s->segs, cfg->procs, origin);
	SCHED_ASSERT(err == SCHED_OK); /* the pool was just made with room */
	(void)err;
	sched_list_init(&s->waiting);
	sched_list_init(&s->running);
	s->n_waiting = 0;
	s->n_running = 0;
	s->busy = 0;
	s->now = origin;
	s->first_start = SCHED_TIME_MAX;
	s->pass_due = false;
	s->emit = emit;
	s->emit_ctx = ctx;
	sched_zero(&s->counters, sizeof s->counters);
	return SCHED_OK;
}

static void emit(struct sched *s, enum sched_decision_kind kind, const struct sched_job *j,
		 sched_time_t t, bool backfilled)
{
	if (s->emit == NULL)
		return;
	struct sched_decision d = {
		.kind = kind, .job = j->id, .time = t, .procs = j->procs, .backfilled = backfilled,
	};
	s->emit(s->emit_ctx, &d);
}

static struct sched_job *first_running(const struct sched *s)
{
	return sched_list_empty(&s->running) ? NULL : sched_job_of(s->running.next);
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

sched_time_t sched_next_event(const struct sched *s)
{
	sched_time_t t = s->pass_due ? s->now : SCHED_TIME_MAX;
	const struct sched_job *r = first_running(s);
	if (r != NULL && sched_job_end(r) < t)
		t = sched_job_end(r);
	if (s->first_start < t)
		t = s->first_start;
	return t < s->now ? s->now : t;
}

/* Fibonacci hashing spreads consecutive ids (the common case) over the buckets. */
static uint32_t bucket_of(const struct sched *s, uint32_t id)
{
	return (uint32_t)(id * 2654435761u) % s->cfg.max_jobs;
}

static struct sched_job *find_job(const struct sched *s, uint32_t id)
{
	struct sched_job *j = s->buckets[bucket_of(s, id)];
	while (j != NULL && j->id != id)
		j = j->hnext;
	return j;
}

static void index_add(struct sched *s, struct sched_job *j)
{
	struct sched_job **b = &s->buckets[bucket_of(s, j->id)];
	j->hnext = *b;
	*b = j;
}

static void index_remove(struct sched *s, struct sched_job *j)
{
	struct sched_job **p = &s->buckets[bucket_of(s, j->id)];
	while (*p != j)
		p = &(*p)->hnext;
	*p = j->hnext;
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
	struct sched_list *pos = s->running.prev;
	/* New jobs usually end last, so walk from the tail. */
	while (pos != &s->running && sched_job_end(sched_job_of(pos)) > end)
		pos = pos->prev;
	sched_list_insert_after(pos, &j->link);
}

void sched_start_job(struct sched *s, struct sched_job *j)
{
	SCHED_ASSERT(j->state == SCHED_JOB_WAITING);
	SCHED_ASSERT(j->procs <= sched_free_now(s));
	bool backfilled = s->waiting.next != &j->link;
	if (!j->reserved) {
		/* Queueing policies add the job to the profile when it starts. */
		int err = sched_profile_reserve(&s->profile, s->now, j->estimate, j->procs);
		SCHED_ASSERT(err == SCHED_OK); /* free processors were checked; segments are bounded */
		(void)err;
	}
	SCHED_ASSERT(!j->reserved || j->start == s->now);
	sched_list_remove(&j->link);
	s->n_waiting--;
	j->state = SCHED_JOB_RUNNING;
	j->reserved = 0;
	j->start = s->now;
	insert_running(s, j);
	s->n_running++;
	s->busy += j->procs;
	s->counters.started++;
	if (backfilled)
		s->counters.backfilled++;
	emit(s, SCHED_DEC_START, j, s->now, backfilled);
}

/* Remove a running job from the lists and the pool; the caller fixes the profile. */
static void retire_running(struct sched *s, struct sched_job *j)
{
	sched_list_remove(&j->link);
	s->n_running--;
	s->busy -= j->procs;
	release_job(s, j);
	s->pass_due = true;
}

/* Kill running jobs whose estimate ends before (or, if inclusive, at) t. */
static void kill_due(struct sched *s, sched_time_t t, bool inclusive)
{
	struct sched_job *j;
	while ((j = first_running(s)) != NULL &&
	       (sched_job_end(j) < t || (inclusive && sched_job_end(j) == t))) {
		s->counters.killed++;
		emit(s, SCHED_DEC_KILL, j, sched_job_end(j), false);
		retire_running(s, j);
	}
}

static int check_time(const struct sched *s, sched_time_t now)
{
	if (now >= SCHED_NOW_LIMIT)
		return SCHED_E_RANGE;
	if (now < s->now)
		return SCHED_E_TIME;
	return SCHED_OK;
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
	for (;;) {
		sched_time_t t = sched_next_event(s);
		if (t > now || (t == now && !inclusive))
			break;
		s->now = t;
		kill_due(s, t, true);
		sched_profile_trim(&s->profile, t);
		s->pass_due = false;
		s->policy->pass(s);
	}
	s->now = now;
	sched_profile_trim(&s->profile, now);
}

int sched_advance(struct sched *s, sched_time_t now)
{
	int err = check_time(s, now);
	if (err != SCHED_OK)
		return err;
	catch_up(s, now, true);
	return SCHED_OK;
}

const struct sched_job *sched_find(const struct sched *s, uint32_t id)
{
	return find_job(s, id);
}

int sched_submit(struct sched *s, const struct sched_job_desc *d, sched_time_t now)
{
	int err = check_time(s, now);
	if (err != SCHED_OK)
		return err;
	if (d == NULL || d->procs == 0 || d->estimate == 0 || d->estimate >= SCHED_ESTIMATE_LIMIT)
		return SCHED_E_INVAL;
	if (d->procs > s->cfg.procs)
		return SCHED_E_RANGE;
	catch_up(s, now, false);
	if (find_job(s, d->id) != NULL)
		return SCHED_E_EXIST;
	struct sched_job *j = sched_pool_alloc(&s->jobs);
	if (j == NULL) {
		s->counters.refused++;
		return SCHED_E_NOSPACE;
	}
	j->id = d->id;
	j->procs = d->procs;
	j->estimate = d->estimate;
	j->submit = now;
	j->start = SCHED_TIME_MAX;
	j->state = SCHED_JOB_WAITING;
	j->reserved = 0;
	sched_list_push_back(&s->waiting, &j->link);
	s->n_waiting++;
	index_add(s, j);
	err = s->policy->admit(s, j);
	if (err != SCHED_OK) {
		sched_list_remove(&j->link);
		s->n_waiting--;
		release_job(s, j);
		return err;
	}
	s->counters.submitted++;
	s->pass_due = true;
	return SCHED_OK;
}

/* A running job leaves at s->now; if before its estimate, give the rest of its interval back. */
static void end_running(struct sched *s, struct sched_job *j)
{
	sched_time_t end = sched_job_end(j);
	if (s->now >= end) {
		retire_running(s, j); /* the profile already ends its interval here */
		return;
	}
	int err = sched_profile_release(&s->profile, s->now, end - s->now, j->procs);
	SCHED_ASSERT(err == SCHED_OK);
	(void)err;
	retire_running(s, j);
	s->policy->reflow(s);
}

/* Common entry of calls about one job at `now`: check the clock, catch up, find the job. */
static int enter_for_job(struct sched *s, uint32_t id, sched_time_t now, struct sched_job **jp)
{
	int err = check_time(s, now);
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
	if (j->state == SCHED_JOB_RUNNING) {
		end_running(s, j);
		return SCHED_OK;
	}
	bool had_reservation = j->reserved;
	if (had_reservation)
		sched_unreserve(s, j);
	sched_list_remove(&j->link);
	s->n_waiting--;
	release_job(s, j);
	s->pass_due = true;
	if (had_reservation) {
		s->policy->reflow(s);
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
	return s->policy->predict(s, j, start);
}

int sched_set_policy(struct sched *s, enum sched_policy_id policy, sched_time_t now)
{
	if ((unsigned)policy >= SCHED_POLICY_COUNT)
		return SCHED_E_INVAL;
	int err = check_time(s, now);
	if (err != SCHED_OK)
		return err;
	catch_up(s, now, false);
	struct sched_list *it;
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *j = sched_job_of(it);
		if (j->reserved)
			sched_unreserve(s, j);
	}
	s->policy = policies[policy];
	s->cfg.policy = policy;
	s->first_start = SCHED_TIME_MAX;
	if (s->policy->plans) {
		sched_list_for_each(it, &s->waiting) {
			err = sched_reserve_earliest(s, sched_job_of(it));
			/* Each job fitted under the old policy, so a slot exists under the new one. */
			SCHED_ASSERT(err == SCHED_OK);
		}
	}
	s->pass_due = true;
	return SCHED_OK;
}

int sched_reserve_earliest(struct sched *s, struct sched_job *j)
{
	sched_time_t at;
	int err = sched_profile_place(&s->profile, s->now, j->procs, j->estimate, &at);
	if (err != SCHED_OK)
		return err;
	j->start = at;
	j->reserved = 1;
	sched_plan_note(s, at);
	return SCHED_OK;
}

void sched_unreserve(struct sched *s, struct sched_job *j)
{
	SCHED_ASSERT(j->reserved);
	int err = sched_profile_release(&s->profile, j->start, j->estimate, j->procs);
	SCHED_ASSERT(err == SCHED_OK);
	(void)err;
	j->reserved = 0;
}

void sched_start_due(struct sched *s)
{
	if (s->first_start > s->now)
		return; /* nothing is due: the common case costs O(1) */
	sched_time_t next = SCHED_TIME_MAX;
	struct sched_list *it, *tmp;
	sched_list_for_each_safe(it, tmp, &s->waiting) {
		struct sched_job *j = sched_job_of(it);
		if (j->reserved && j->start <= s->now)
			sched_start_job(s, j);
		else if (j->reserved && j->start < next)
			next = j->start;
	}
	s->first_start = next;
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
	return sched_list_empty(head) ? NULL : sched_job_of(head->next);
}

const struct sched_job *sched_next(const struct sched *s, const struct sched_job *j)
{
	const struct sched_list *head = j->state == SCHED_JOB_RUNNING ? &s->running : &s->waiting;
	return j->link.next == head ? NULL : sched_job_of(j->link.next);
}

const char *sched_policy_name(enum sched_policy_id policy)
{
	return (unsigned)policy < SCHED_POLICY_COUNT ? policies[policy]->name : NULL;
}

static bool str_eq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

int sched_policy_parse(const char *name, enum sched_policy_id *policy)
{
	if (name == NULL)
		return SCHED_E_INVAL;
	for (unsigned i = 0; i < SCHED_POLICY_COUNT; i++) {
		if (str_eq(name, policies[i]->name)) {
			*policy = (enum sched_policy_id)i;
			return SCHED_OK;
		}
	}
	if (str_eq(name, "conservative")) {
		*policy = SCHED_POLICY_CONS;
		return SCHED_OK;
	}
	return SCHED_E_INVAL;
}

const char *sched_strerror(int err)
{
	switch (err) {
	case SCHED_OK: return "ok";
	case SCHED_E_NOSPACE: return "no space";
	case SCHED_E_INVAL: return "invalid argument";
	case SCHED_E_RANGE: return "out of range";
	case SCHED_E_STATE: return "wrong state";
	case SCHED_E_NOENT: return "no such job";
	case SCHED_E_EXIST: return "job exists";
	case SCHED_E_TIME: return "time went backwards";
	case SCHED_E_NOTSUP: return "not supported by policy";
	case SCHED_E_FORMAT: return "bad format";
	default: return "unknown error";
	}
}
