/* SPDX-License-Identifier: MIT */
/* Queueing policies: FCFS without backfilling, and EASY backfilling (seed 000 section 2.2, Fig. 5). */
#include "sched_priv.h"

/*
 * Both keep only running jobs in the profile, so the profile never
 * decreases over time: free processors only come back as jobs end.
 */

static int admit_queue(struct sched *s, struct sched_job *j)
{
	(void)s;
	(void)j;
	return SCHED_OK;
}

static void reflow_none(struct sched *s)
{
	(void)s;
}

static struct sched_job *head(const struct sched *s)
{
	return sched_list_empty(&s->waiting) ? NULL : sched_job_of(s->waiting.next);
}

/* Start queue heads in arrival order while they fit; returns the first that does not. */
static struct sched_job *start_heads(struct sched *s)
{
	struct sched_job *h;
	while ((h = head(s)) != NULL && h->procs <= sched_free_now(s))
		sched_start_job(s, h);
	return h;
}

static void pass_fcfs(struct sched *s)
{
	(void)start_heads(s);
}

static int predict_none(const struct sched *s, const struct sched_job *j, sched_time_t *start)
{
	(void)s;
	(void)j;
	(void)start;
	return SCHED_E_NOTSUP;
}

/*
 * The shadow time: when the running jobs, ending at their estimates, leave
 * enough processors for the head (Fig. 5 step 1b-c). As the profile only
 * rises, that is the first period with enough free processors.
 */
static sched_time_t shadow_time(const struct sched *s, const struct sched_job *h)
{
	return sched_profile_find(&s->profile, s->now, h->procs, 1);
}

static void pass_easy(struct sched *s)
{
	struct sched_job *h = start_heads(s);
	if (h == NULL)
		return;
	/* Fig. 5 step 1: shadow time and extra nodes, computed once per pass. */
	sched_time_t shadow = shadow_time(s, h);
	sched_procs_t extra = sched_profile_free_at(&s->profile, shadow) - h->procs;
	/* Step 2: the rest of the queue in arrival order. */
	struct sched_list *it, *tmp;
	for (it = h->link.next, tmp = it->next; it != &s->waiting; it = tmp, tmp = it->next) {
		struct sched_job *j = sched_job_of(it);
		if (j->procs > sched_free_now(s))
			continue;
		/* Condition i uses the estimate only: the core never knows the actual run time. */
		bool ends_by_shadow = j->estimate <= shadow - s->now;
		if (!ends_by_shadow && j->procs > extra)
			continue;
		/* A job that outlives the shadow time holds extra nodes the head will not need. */
		if (!ends_by_shadow)
			extra -= j->procs;
		sched_start_job(s, j);
	}
}

static int predict_easy(const struct sched *s, const struct sched_job *j, sched_time_t *start)
{
	/* Only the head is protected; Property 1 of section 2.2: the others may wait unboundedly. */
	if (j != head(s))
		return SCHED_E_NOTSUP;
	*start = shadow_time(s, j);
	return SCHED_OK;
}

const struct sched_policy sched_policy_fcfs = {
	.name = "fcfs",
	.plans = false,
	.admit = admit_queue,
	.reflow = reflow_none,
	.pass = pass_fcfs,
	.predict = predict_none,
};

const struct sched_policy sched_policy_easy = {
	.name = "easy",
	.plans = false,
	.admit = admit_queue,
	.reflow = reflow_none,
	.pass = pass_easy,
	.predict = predict_easy,
};
