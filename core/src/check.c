/* SPDX-License-Identifier: MIT */
/* The invariant walker: every structural property of a scheduler, checked against its own jobs. */
#include "sched_priv.h"

#define CHECK(cond)                          \
	do {                                 \
		if (!(cond))                 \
			return SCHED_E_STATE; \
	} while (0)

/* Processors the jobs say are free at t: the independent rebuild of the profile. */
static sched_procs_t free_from_jobs(const struct sched *s, sched_time_t t)
{
	sched_procs_t used = 0;
	const struct sched_list *it;
	sched_list_for_each(it, &s->running) {
		const struct sched_job *j = sched_job_of((struct sched_list *)it);
		if (sched_job_end(j) > t)
			used += j->procs;
	}
	sched_list_for_each(it, &s->waiting) {
		const struct sched_job *j = sched_job_of((struct sched_list *)it);
		if (j->reserved && j->start <= t && t < sched_job_end(j))
			used += j->procs;
	}
	return used > s->cfg.procs ? UINT32_MAX : s->cfg.procs - used;
}

/* The profile and the rebuild agree at every breakpoint of either, hence everywhere from the origin. */
static int check_profile_matches_jobs(const struct sched *s)
{
	const struct sched_profile *p = &s->profile;
	sched_time_t origin = sched_profile_origin(p);
	for (const struct sched_seg *g = sched_profile_first(p); g != NULL; g = sched_profile_next(p, g))
		CHECK(g->free == free_from_jobs(s, g->time));
	const struct sched_list *heads[2] = {&s->running, &s->waiting};
	for (int h = 0; h < 2; h++) {
		const struct sched_list *it;
		sched_list_for_each(it, heads[h]) {
			const struct sched_job *j = sched_job_of((struct sched_list *)it);
			sched_time_t pts[2] = {j->start, sched_job_end(j)};
			for (int k = 0; k < 2; k++) {
				if (pts[k] < origin || pts[k] == SCHED_TIME_MAX)
					continue;
				CHECK(sched_profile_free_at(p, pts[k]) == free_from_jobs(s, pts[k]));
			}
		}
	}
	return SCHED_OK;
}

int sched_check(const struct sched *s)
{
	CHECK(sched_profile_check(&s->profile) == SCHED_OK);
	CHECK(s->segs.used == s->profile.count);
	uint32_t jobs = s->n_waiting + s->n_running;
	CHECK(s->profile.count <= 2 * jobs + 1);
	CHECK(s->jobs.used == jobs);
	CHECK(sched_profile_origin(&s->profile) == s->now);

	uint32_t n = 0;
	sched_procs_t busy = 0;
	sched_time_t prev_end = 0;
	const struct sched_list *it;
	sched_list_for_each(it, &s->running) {
		const struct sched_job *j = sched_job_of((struct sched_list *)it);
		CHECK(++n <= s->jobs.capacity);
		CHECK(j->state == SCHED_JOB_RUNNING && !j->reserved);
		CHECK(j->procs >= 1 && j->procs <= s->cfg.procs);
		CHECK(j->start <= s->now && j->start >= j->submit);
		CHECK(sched_job_end(j) >= s->now); /* overdue jobs are killed */
		CHECK(sched_job_end(j) >= prev_end);
		prev_end = sched_job_end(j);
		busy += j->procs;
	}
	CHECK(n == s->n_running);
	CHECK(busy == s->busy && busy <= s->cfg.procs);

	n = 0;
	sched_time_t prev_submit = 0;
	sched_list_for_each(it, &s->waiting) {
		const struct sched_job *j = sched_job_of((struct sched_list *)it);
		CHECK(++n <= s->jobs.capacity);
		CHECK(j->state == SCHED_JOB_WAITING);
		CHECK(j->submit <= s->now && j->submit >= prev_submit);
		prev_submit = j->submit;
		CHECK(j->reserved == (s->policy->plans ? 1 : 0));
		if (j->reserved)
			CHECK(j->start >= s->now && j->start >= j->submit);
	}
	CHECK(n == s->n_waiting);

	/* The cached earliest reservation is the true minimum (next_event relies on it). */
	sched_time_t first = SCHED_TIME_MAX;
	for (const struct sched_job *a = sched_first(s, SCHED_JOB_WAITING); a; a = sched_next(s, a))
		if (a->reserved && a->start < first)
			first = a->start;
	CHECK(first == s->first_start);

	/* The id index holds exactly the jobs in the system, each in its own bucket. */
	uint32_t indexed = 0;
	for (uint32_t b = 0; b < s->cfg.max_jobs; b++) {
		for (const struct sched_job *a = s->buckets[b]; a != NULL; a = a->hnext) {
			CHECK(++indexed <= jobs);
			CHECK(a->state == SCHED_JOB_WAITING || a->state == SCHED_JOB_RUNNING);
			CHECK((uint32_t)(a->id * 2654435761u) % s->cfg.max_jobs == b);
		}
	}
	CHECK(indexed == jobs);

	/* Ids are unique among jobs in the system. */
	for (const struct sched_job *a = sched_first(s, SCHED_JOB_RUNNING); a; a = sched_next(s, a))
		CHECK(sched_find(s, a->id) == a);
	for (const struct sched_job *a = sched_first(s, SCHED_JOB_WAITING); a; a = sched_next(s, a))
		CHECK(sched_find(s, a->id) == a);

	return check_profile_matches_jobs(s);
}
