/* SPDX-License-Identifier: MIT */
/* Percentiles of wait and bounded slowdown, and fairness over users, by sorting the jobs of one replay. */
#include "dist.h"

#include <stdlib.h>
#include <string.h>

#include "sched/err.h"
#include "sched/metrics.h"

size_t dist_rank(size_t n, unsigned pct)
{
	/* ceil(pct n / 100) in integers: the float product can land a hair above an exact rank. */
	size_t r = (n * pct + 99) / 100;
	return r ? r : 1;
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* One job of a user, for the per-user means: sorted by user, the jobs of each come together. */
struct ujob {
	uint32_t user;
	uint64_t bsld_micro;
};

static int by_user(const void *a, const void *b)
{
	const struct ujob *x = a, *y = b;
	return (x->user > y->user) - (x->user < y->user);
}

/* Each user's mean bsld (millionths, truncated, as the core's average): the count, the worst and Jain's index. */
static void fairness(const struct ujob *u, size_t m, struct dist_stats *d)
{
	double sum = 0, sum_sq = 0;
	for (size_t i = 0; i < m;) {
		size_t j = i;
		uint64_t s = 0;
		for (; j < m && u[j].user == u[i].user; j++)
			s = u[j].bsld_micro > UINT64_MAX - s ? UINT64_MAX : s + u[j].bsld_micro; /* saturates as the core's sums */
		uint64_t mean = s / (j - i);
		if (mean > d->worst_user_bsld_micro)
			d->worst_user_bsld_micro = mean;
		double x = (double)mean / SCHED_MICRO;
		sum += x;
		sum_sq += x * x;
		d->users++;
		i = j;
	}
	/* A mean is 0 only when each of the user's jobs had a response of 0; all of them 0: all fared alike, 1. */
	d->jain = sum_sq > 0 ? sum * sum / ((double)d->users * sum_sq) : 1.0;
}

int dist_compute(const struct wjob *jobs, const struct replay_job_out *out, size_t n, struct dist_stats *d)
{
	memset(d, 0, sizeof *d);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		m += !out[i].refused;
	if (m == 0)
		return SCHED_OK;
	uint64_t *wait = malloc(m * sizeof *wait);
	struct ujob *u = malloc(m * sizeof *u);
	if (wait == NULL || u == NULL) {
		free(wait);
		free(u);
		return SCHED_E_NOSPACE;
	}
	m = 0;
	for (size_t i = 0; i < n; i++) {
		const struct replay_job_out *o = &out[i];
		if (o->refused)
			continue;
		sched_time_t response = o->end - o->submit;
		wait[m] = response - o->run;
		u[m] = (struct ujob){jobs[i].j.user, sched_ratio_micro(response, o->run > 10 ? o->run : 10)};
		m++;
	}
	d->jobs = (uint32_t)m;
	qsort(wait, m, sizeof *wait, by_u64);
	d->wait_p50 = (sched_time_t)wait[dist_rank(m, 50) - 1];
	d->wait_p95 = (sched_time_t)wait[dist_rank(m, 95) - 1];
	d->wait_p99 = (sched_time_t)wait[dist_rank(m, 99) - 1];
	/* The wait array, sorted, is done with: reuse it for the slowdowns. */
	for (size_t i = 0; i < m; i++)
		wait[i] = u[i].bsld_micro;
	qsort(wait, m, sizeof *wait, by_u64);
	d->bsld_p50_micro = wait[dist_rank(m, 50) - 1];
	d->bsld_p95_micro = wait[dist_rank(m, 95) - 1];
	d->bsld_p99_micro = wait[dist_rank(m, 99) - 1];
	d->bsld_max_micro = wait[m - 1];
	qsort(u, m, sizeof *u, by_user);
	fairness(u, m, d);
	free(wait);
	free(u);
	return SCHED_OK;
}
