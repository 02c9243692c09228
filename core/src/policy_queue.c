/* SPDX-License-Identifier: MIT */
/* Queueing policies: FCFS without backfilling, and EASY backfilling (seed 000 section 2.2, Fig. 5). */
#include "sched_priv.h"

/*
 * Both keep only running jobs in the profiles, so a profile never
 * decreases over time: free processors only come back as jobs end. With
 * several partitions each has its own head; a job that may use several
 * partitions takes the first one where it can start.
 */

static sched_procs_t free_in(const struct sched *s, unsigned p)
{
	return s->part[p].procs - s->part[p].busy;
}

/* May j be considered at all now: not held back as background, within its queue's running limits. */
static inline bool eligible(const struct sched *s, const struct sched_job *j)
{
	sched_time_t retry;
	if (sched_is_background(s, j) && sched_background_held(s, j))
		return false;
	/* Most queues have no running limits: no call per waiting job and pass for them. */
	const struct sched_queue_cfg *q = sched_queue_of(s, j);
	return !sched_queue_limited(q) || sched_limits_allow(s, j, &retry);
}

static void pass_fcfs(struct sched *s)
{
	uint8_t all = (uint8_t)((1u << s->n_parts) - 1u);
	uint8_t blocked = 0; /* partitions where an earlier job is waiting */
	struct sched_list *it, *tmp;
	sched_list_for_each_safe(it, tmp, &s->waiting) {
		struct sched_job *j = sched_job_of(it);
		if (!eligible(s, j))
			continue; /* a job its limits hold back does not hold back the others */
		bool started = false;
		for (unsigned p = 0; p < s->n_parts && !started; p++) {
			if ((j->allowed & ~blocked & (1u << p)) && j->procs <= free_in(s, p)) {
				sched_start_job(s, j, (uint8_t)p);
				started = true;
			}
		}
		if (!started)
			blocked |= j->allowed;
		if (blocked == all)
			break;
	}
}

/*
 * The shadow time: when the running jobs, ending at their estimates, leave
 * enough processors for the head (Fig. 5 step 1b-c). As the profile only
 * rises, that is the first period with enough free processors.
 */
static sched_time_t shadow_time(const struct sched *s, const struct sched_job *h, unsigned p)
{
	return sched_profile_find(sched_prof_c(s, p), s->now, h->procs, 1);
}

/* EASY's last pass, valid while only submits came since (its state, sched_pstate). */
struct easy_state {
	bool valid;             /* cleared by any start, end, cancel, tune, and at init and a policy change */
	uint8_t heads;          /* the partitions that had a head */
	uint32_t seen;          /* the arrival count the pass saw */
	sched_time_t shadow[SCHED_MAX_PARTITIONS]; /* each head's shadow time */
	sched_procs_t extra[SCHED_MAX_PARTITIONS]; /* and the extra processors left at it */
};
SCHED_POLICY_STATE(struct easy_state);

static struct easy_state *easy_of(struct sched *s)
{
	return sched_pstate(s);
}

/* Something other than a submit happened: the next pass is a full one. */
static void easy_forget(struct sched *s)
{
	easy_of(s)->valid = false;
}

static void easy_on_job(struct sched *s, struct sched_job *j)
{
	(void)j;
	easy_forget(s);
}

/*
 * May this pass start from the last one's head, shadow times and extra
 * processors, looking only at the jobs submitted since? Only while nothing
 * but submits came (any start, end, kill, cancel, tune or policy change
 * clears valid), every new job is at the tail of the queue, and no queue
 * has running limits or background jobs (which a start elsewhere can change).
 * Then the jobs the last pass left waiting still cannot start: free
 * processors and extra ones have only gone down, and the clock only makes
 * "ends by the shadow time" harder; the head and its shadow time are the same
 * (a backfill ends by the shadow or uses only extra processors). So a full
 * pass would start exactly what this one starts. Returns the first new job's
 * link (the list's head if none), or NULL for a full pass.
 */
static struct sched_list *easy_resume(struct sched *s)
{
	const struct easy_state *e = easy_of(s);
	if (!e->valid || s->has_background)
		return NULL;
	for (unsigned q = 0; q < s->n_queues; q++)
		if (sched_queue_limited(&s->cfg.queues[q]))
			return NULL;
	struct sched_list *it = (struct sched_list *)&s->waiting;
	for (uint32_t fresh = s->arrivals - e->seen; fresh > 0; fresh--) {
		it = sched_list_prev(it);
		if (it == &s->waiting || sched_job_of(it)->arrival < e->seen)
			return NULL; /* a new job went before an old one */
	}
	return it; /* the first new job, or the list's head when there is none */
}

static void pass_easy(struct sched *s)
{
	uint8_t heads = 0; /* partitions with a head */
	sched_time_t shadow[SCHED_MAX_PARTITIONS];
	sched_procs_t extra[SCHED_MAX_PARTITIONS];
	struct easy_state *e = easy_of(s);
	struct sched_list *from = easy_resume(s);
	if (from != NULL) {
		heads = e->heads;
		for (unsigned p = 0; p < s->n_parts; p++) {
			shadow[p] = e->shadow[p];
			extra[p] = e->extra[p];
		}
	} else {
		from = sched_list_next(&s->waiting);
	}
	struct sched_list *it, *tmp;
	for (it = from, tmp = sched_list_next(it); it != &s->waiting; it = tmp, tmp = sched_list_next(it)) {
		struct sched_job *j = sched_job_of(it);
		if (!eligible(s, j))
			continue;
		bool started = false;
		for (unsigned p = 0; p < s->n_parts && !started; p++) {
			if (!(j->allowed & (1u << p)) || j->procs > free_in(s, p))
				continue;
			if (!(heads & (1u << p))) {
				/* Fig. 5: start heads while they fit. */
				sched_start_job(s, j, (uint8_t)p);
				started = true;
				continue;
			}
			/* Step 2: condition i uses the estimate only; the core never knows the run time. */
			bool ends_by_shadow = j->estimate <= shadow[p] - s->now;
			if (!ends_by_shadow && j->procs > extra[p])
				continue;
			/* A job that outlives the shadow time holds extra nodes the head will not need. */
			if (!ends_by_shadow)
				extra[p] -= j->procs;
			sched_start_job(s, j, (uint8_t)p);
			started = true;
		}
		if (started)
			continue;
		/* Fig. 5 step 1: the first job that cannot start is the head; its shadow time and
		 * extra nodes are computed once per pass. */
		for (unsigned p = 0; p < s->n_parts; p++) {
			/* A partition narrower than the job never runs it, so the job cannot be its head
			 * (its shadow time would be "never", and no processor count is free then). */
			if ((j->allowed & (1u << p)) && !(heads & (1u << p)) && j->procs <= s->part[p].procs) {
				heads = (uint8_t)(heads | (1u << p));
				shadow[p] = shadow_time(s, j, p);
				extra[p] = sched_profile_free_at(sched_prof_c(s, p), shadow[p]) - j->procs;
			}
		}
	}
	/* What the next pass may start from (the starts above cleared it). */
	e->valid = true;
	e->heads = heads;
	e->seen = s->arrivals;
	for (unsigned p = 0; p < s->n_parts; p++) {
		e->shadow[p] = (heads & (1u << p)) ? shadow[p] : 0;
		e->extra[p] = (heads & (1u << p)) ? extra[p] : 0;
	}
}

static int predict_easy(const struct sched *s, const struct sched_job *j, sched_time_t *start)
{
	/* Only the head is protected; Property 1 of section 2.2: the others may wait unboundedly. */
	if (j != sched_first(s, SCHED_JOB_WAITING))
		return SCHED_E_NOTSUP;
	sched_time_t best = SCHED_TIME_MAX;
	for (unsigned p = 0; p < s->n_parts; p++) {
		if (!(j->allowed & (1u << p)))
			continue;
		sched_time_t t = shadow_time(s, j, p);
		if (t < best)
			best = t;
	}
	*start = best;
	return SCHED_OK;
}

const struct sched_policy sched_policy_fcfs = {
	.name = "fcfs",
	.help = "first come first served: the queue's head must fit, no backfilling",
	.family = "queue",
	.pass = pass_fcfs,
};

const struct sched_policy sched_policy_easy = {
	.name = "easy",
	.help = "EASY backfilling: only the head holds a reservation; a job backfills if it ends by the "
		"shadow time or uses only extra processors (Feitelson & Mu'alem Weil 1998, Fig. 5)",
	.family = "queue",
	.state_bytes = sizeof(struct easy_state),
	.pass = pass_easy,
	.predict = predict_easy,
	.enter = easy_forget,
	.on_start = easy_on_job,
	.on_end = easy_on_job,
	.on_cancel = easy_on_job,
	.on_tune = easy_forget,
};
