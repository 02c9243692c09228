/* SPDX-License-Identifier: MIT */
/*
 * EASY with shortest-job-first backfilling: the queue's head keeps EASY's reservation (Feitelson and
 * Mu'alem Weil 1998, Fig. 5), and the jobs behind it are tried shortest estimate first instead of in
 * arrival order. This is pyss's EasySJBFScheduler (the Hebrew University simulator of the same
 * group), after Tsafrir, Etsion and Feitelson 2007, who call the order "SJBF".
 *
 * One pass at s->now, per partition:
 *  1. in plan order, start each job that fits in a partition with no head yet (EASY's heads start
 *     while they fit); the first one that does not fit becomes the head of the partitions it may use,
 *     with its shadow time (when the running jobs, ending at their estimates, leave enough processors)
 *     and the extra processors then;
 *  2. the jobs behind the heads, in ascending estimate (ties: plan order), start where they fit now
 *     and either end by the shadow time or use only extra processors (which they then consume).
 * A head is never a backfill candidate in another partition: with one partition, as in pyss, the
 * question does not arise. Unlike EASY's pass this one is not resumed from the last (the sorted
 * order of the old jobs changes with every arrival): O(n log n) a pass with the scratch's job array,
 * O(n^2) when the backlog outgrows it (counted in scratch_short).
 */
#include "sched_priv.h"

static sched_procs_t free_in(const struct sched *s, unsigned p)
{
	return s->part[p].procs - s->part[p].busy;
}

/* May j be considered now: not held back as background, within its queue's running limits. */
static bool may_start(const struct sched *s, const struct sched_job *j)
{
	sched_time_t retry;
	if (sched_is_background(s, j) && sched_background_held(s, j))
		return false;
	const struct sched_queue_cfg *q = sched_queue_of(s, j);
	return !sched_queue_limited(q) || sched_limits_allow(s, j, &retry);
}

/* The backfill order: shorter estimate first, then earlier in the plan (arrival is unique). */
static bool before(const struct sched_job *a, const struct sched_job *b)
{
	return a->estimate != b->estimate ? a->estimate < b->estimate : a->arrival < b->arrival;
}

/* Heap sort of v[0..n) by before(): O(n log n), no memory beyond v. */
static void sift(struct sched_job **v, uint32_t root, uint32_t n)
{
	for (;;) {
		uint32_t big = root, l = 2 * root + 1, r = l + 1;
		if (l < n && before(v[big], v[l]))
			big = l;
		if (r < n && before(v[big], v[r]))
			big = r;
		if (big == root)
			return;
		struct sched_job *t = v[root];
		v[root] = v[big];
		v[big] = t;
		root = big;
	}
}

static void sort_by_estimate(struct sched_job **v, uint32_t n)
{
	for (uint32_t i = n / 2; i-- > 0;)
		sift(v, i, n);
	for (uint32_t end = n; end-- > 1;) {
		struct sched_job *t = v[0];
		v[0] = v[end];
		v[end] = t;
		sift(v, 0, end);
	}
}

struct heads {
	uint8_t mask; /* partitions with a head */
	const struct sched_job *head[SCHED_MAX_PARTITIONS];
	sched_time_t shadow[SCHED_MAX_PARTITIONS];
	sched_procs_t extra[SCHED_MAX_PARTITIONS];
};

static bool is_head(const struct heads *h, unsigned parts, const struct sched_job *j)
{
	for (unsigned p = 0; p < parts; p++)
		if ((h->mask & (1u << p)) && h->head[p] == j)
			return true;
	return false;
}

/* Step 2 for one candidate: start it in the first partition where EASY's two conditions let it. */
static void try_backfill(struct sched *s, struct heads *h, struct sched_job *j)
{
	if (!may_start(s, j))
		return;
	for (unsigned p = 0; p < s->n_parts; p++) {
		if (!(h->mask & j->allowed & (1u << p)) || j->procs > free_in(s, p))
			continue;
		bool ends_by_shadow = j->estimate <= h->shadow[p] - s->now;
		if (!ends_by_shadow && j->procs > h->extra[p])
			continue;
		if (!ends_by_shadow)
			h->extra[p] -= j->procs;
		sched_start_job(s, j, (uint8_t)p);
		return;
	}
}

/* Step 1: heads start while they fit; the rest of the queue goes into v (up to cap, *n counts all). */
static void start_heads(struct sched *s, struct heads *h, struct sched_job **v, uint32_t cap, uint32_t *n)
{
	struct sched_list *it, *tmp;
	*n = 0;
	sched_list_for_each_safe(it, tmp, &s->waiting) {
		struct sched_job *j = sched_job_of(it);
		if (!may_start(s, j))
			continue;
		bool done = false;
		for (unsigned p = 0; p < s->n_parts && !done; p++) {
			if ((j->allowed & (1u << p)) && !(h->mask & (1u << p)) && j->procs <= free_in(s, p)) {
				sched_start_job(s, j, (uint8_t)p);
				done = true;
			}
		}
		for (unsigned p = 0; p < s->n_parts && !done; p++) {
			/* A partition narrower than the job never runs it, so it cannot be its head. */
			if ((j->allowed & (1u << p)) && !(h->mask & (1u << p)) && j->procs <= s->part[p].procs) {
				h->mask = (uint8_t)(h->mask | (1u << p));
				h->head[p] = j;
				h->shadow[p] = sched_profile_find(sched_prof_c(s, p), s->now, j->procs, 1);
				h->extra[p] = sched_profile_free_at(sched_prof_c(s, p), h->shadow[p]) - j->procs;
				done = true; /* a head, not a candidate */
			}
		}
		if (done)
			continue;
		if (*n < cap)
			v[*n] = j;
		(*n)++;
	}
}

static void pass_easy_sjbf(struct sched *s)
{
	struct heads h;
	h.mask = 0; /* the rest is written before it is read (a partition's entries once its bit is set);
		     * a whole-struct initialiser would be a memset call, which the core must not make */
	struct sched_work w = sched_work_of(s);
	uint32_t n;
	start_heads(s, &h, w.jobs, w.cap, &n);
	if (h.mask == 0 || n == 0)
		return;
	if (n <= w.cap) {
		sort_by_estimate(w.jobs, n);
		for (uint32_t i = 0; i < n; i++)
			try_backfill(s, &h, w.jobs[i]);
		return;
	}
	/* More candidates than the scratch holds: the next one is the least (estimate, arrival) above the
	 * last tried, found by a scan of the queue each time (jobs started since have left it); the heads
	 * are not candidates. */
	s->counters.scratch_short++;
	const struct sched_job *last = NULL;
	for (;;) {
		struct sched_job *next = NULL;
		struct sched_list *it;
		sched_list_for_each(it, &s->waiting) {
			struct sched_job *j = sched_job_of(it);
			if (!is_head(&h, s->n_parts, j) && (last == NULL || before(last, j)) &&
			    (next == NULL || before(j, next)))
				next = j;
		}
		if (next == NULL)
			return;
		last = next;
		try_backfill(s, &h, next);
	}
}

/* Only the head is protected (Property 1 of section 2.2): its shadow time, as under EASY. */
static int predict_easy_sjbf(const struct sched *s, const struct sched_job *j, sched_time_t *start)
{
	if (j != sched_first(s, SCHED_JOB_WAITING))
		return SCHED_E_NOTSUP;
	sched_time_t best = SCHED_TIME_MAX;
	for (unsigned p = 0; p < s->n_parts; p++)
		if (j->allowed & (1u << p)) {
			sched_time_t t = sched_profile_find(sched_prof_c(s, p), s->now, j->procs, 1);
			best = t < best ? t : best;
		}
	*start = best;
	return SCHED_OK;
}

const struct sched_policy sched_policy_easy_sjbf = {
	.name = "easy-sjbf",
	.help = "EASY with shortest-job-first backfilling: the head keeps EASY's reservation, the jobs behind "
		"it are tried shortest estimate first (pyss's EasySJBFScheduler; Tsafrir, Etsion and Feitelson 2007)",
	.family = "queue",
	.needs_scratch = true,
	.pass = pass_easy_sjbf,
	.predict = predict_easy_sjbf,
};
