/* SPDX-License-Identifier: MIT */
/* The invariant walker: every structural property of a scheduler, checked against its own jobs. */
#include "sched_priv.h"
#include "util.h"

#define CHECK(cond)                          \
	do {                                 \
		if (!(cond))                 \
			return SCHED_E_STATE; \
	} while (0)

/* Processors the jobs say are free at t in partition p: the independent rebuild of its profile. */
static sched_procs_t free_from_jobs(const struct sched *s, unsigned p, sched_time_t t)
{
	sched_procs_t used = 0;
	const struct sched_list *it;
	sched_list_for_each(it, &s->running) {
		const struct sched_job *j = sched_job_of((struct sched_list *)it);
		if (j->part == p && sched_job_end(j) > t)
			used += j->procs;
	}
	sched_list_for_each(it, &s->waiting) {
		const struct sched_job *j = sched_job_of((struct sched_list *)it);
		if (j->reserved && j->part == p && j->start <= t && t < sched_job_end(j))
			used += j->procs;
	}
	return used > s->part[p].procs ? UINT32_MAX : s->part[p].procs - used;
}

/* Each profile and its rebuild agree at every breakpoint of either, hence everywhere from the origin. */
static int check_profile_matches_jobs(const struct sched *s, unsigned p)
{
	const struct sched_profile *prof = sched_prof_c(s, p);
	sched_time_t origin = sched_profile_origin(prof);
	for (const struct sched_seg *g = sched_profile_first(prof); g != NULL; g = sched_profile_next(prof, g))
		CHECK(g->free == free_from_jobs(s, p, g->time));
	const struct sched_list *heads[2] = {&s->running, &s->waiting};
	for (int h = 0; h < 2; h++) {
		const struct sched_list *it;
		sched_list_for_each(it, heads[h]) {
			const struct sched_job *j = sched_job_of((struct sched_list *)it);
			if (j->part != p)
				continue;
			sched_time_t pts[2] = {j->start, sched_job_end(j)};
			for (int k = 0; k < 2; k++) {
				if (pts[k] < origin || pts[k] == SCHED_TIME_MAX)
					continue;
				CHECK(sched_profile_free_at(prof, pts[k]) == free_from_jobs(s, p, pts[k]));
			}
		}
	}
	return SCHED_OK;
}

static bool plan_ordered(const struct sched *s, const struct sched_job *a, const struct sched_job *b)
{
	uint16_t pa = s->cfg.queues[a->queue].priority, pb = s->cfg.queues[b->queue].priority;
	return pa > pb || (pa == pb && a->arrival < b->arrival);
}

int sched_check(const struct sched *s)
{
	if (sched_pol(s)->audit != NULL)
		return sched_pol(s)->audit(s); /* time sharing: no profile to check, the policy's matrix instead */
	uint32_t jobs = s->n_waiting + s->n_running;
	uint32_t segs = 0;
	for (unsigned p = 0; p < s->n_parts; p++) {
		CHECK(sched_profile_check(sched_prof_c(s, p)) == SCHED_OK);
		CHECK(sched_profile_origin(sched_prof_c(s, p)) == s->now);
		segs += sched_prof_c(s, p)->count;
	}
	CHECK(s->segs.used == segs);
	CHECK(segs <= 2 * jobs + s->n_parts);
	CHECK(s->jobs.used == jobs);
	/* The scratch area is empty between calls. */
	CHECK(s->scratch.cap == 0 || s->scratch.segs.used == 0);

	uint32_t n = 0;
	sched_procs_t busy = 0, part_busy[SCHED_MAX_PARTITIONS], queue_busy[SCHED_MAX_QUEUES];
	sched_zero(part_busy, sizeof part_busy);
	sched_zero(queue_busy, sizeof queue_busy);
	sched_time_t prev_end = 0;
	const struct sched_list *it;
	sched_list_for_each(it, &s->running) {
		const struct sched_job *j = sched_job_of((struct sched_list *)it);
		CHECK(++n <= s->jobs.capacity);
		CHECK(j->state == SCHED_JOB_RUNNING && !j->reserved);
		CHECK(j->part < s->n_parts && (j->allowed & (1u << j->part)) && j->queue < s->n_queues);
		CHECK(j->procs >= 1 && j->procs <= s->part[j->part].procs);
		CHECK(j->start <= s->now && j->start >= j->submit);
		CHECK(sched_job_end(j) >= s->now); /* overdue jobs are killed */
		CHECK(sched_job_end(j) >= prev_end);
		prev_end = sched_job_end(j);
		busy += j->procs;
		part_busy[j->part] += j->procs;
		queue_busy[j->queue] += j->procs;
	}
	CHECK(n == s->n_running);
	CHECK(busy == s->busy && busy <= s->cfg.procs);
	for (unsigned p = 0; p < s->n_parts; p++)
		CHECK(part_busy[p] == s->part[p].busy && part_busy[p] <= s->part[p].procs);
	for (unsigned q = 0; q < s->n_queues; q++) {
		CHECK(queue_busy[q] == s->queue_busy[q]);
		CHECK(s->cfg.queues[q].proc_cap == 0 || queue_busy[q] <= s->cfg.queues[q].proc_cap);
	}

	n = 0;
	const struct sched_job *prev = NULL;
	sched_time_t first = SCHED_TIME_MAX;
	uint32_t depth = sched_reservation_depth(s), ranked = 0;
	sched_list_for_each(it, &s->waiting) {
		const struct sched_job *j = sched_job_of((struct sched_list *)it);
		CHECK(++n <= s->jobs.capacity);
		CHECK(j->state == SCHED_JOB_WAITING);
		CHECK(j->submit <= s->now && j->queue < s->n_queues && j->part < s->n_parts);
		CHECK(prev == NULL || plan_ordered(s, prev, j));
		prev = j;
		/* Planning policies reserve every job but background ones, or the first `depth` of them. */
		bool in_depth = depth == 0 || (!sched_is_background(s, j) && ranked++ < depth);
		CHECK(j->reserved == ((sched_pol_plans(sched_pol(s)) && !sched_is_background(s, j) && in_depth) ? 1 : 0));
		if (j->reserved) {
			CHECK(j->start >= sched_earliest(s, j) && j->start >= j->submit && (j->allowed & (1u << j->part)));
			if (j->start < first)
				first = j->start;
		}
		struct sched_job_info info;
		sched_job_read(j, &info);
		CHECK(info.slack >= 0); /* a policy's per-job slack (slack's) never goes below zero */
	}
	CHECK(n == s->n_waiting);
	/* The cached earliest reservation is the true minimum (next_event relies on it). */
	CHECK(first == s->first_start);

	/* The id index holds exactly the jobs in the system, each in its own bucket. */
	uint32_t indexed = 0;
	for (uint32_t b = 0; b < s->cfg.max_jobs; b++) {
		for (const struct sched_job *a = sched_rel_get(&sched_buckets(s)[b]); a != NULL;
		     a = sched_rel_get(&a->hnext)) {
			CHECK(++indexed <= jobs);
			CHECK(a->state == SCHED_JOB_WAITING || a->state == SCHED_JOB_RUNNING);
			CHECK((uint32_t)(a->id * 2654435761u) % s->cfg.max_jobs == b);
			CHECK(sched_find(s, a->id) == a); /* ids are unique */
		}
	}
	CHECK(indexed == jobs);

	for (unsigned p = 0; p < s->n_parts; p++)
		if (check_profile_matches_jobs(s, p) != SCHED_OK)
			return SCHED_E_STATE;
	return SCHED_OK;
}
