/* SPDX-License-Identifier: MIT */
/* Percentiles and fairness (sim_host/dist.c) on outcomes built by hand, and against a brute-force model. */
#include <math.h>
#include <string.h>

#include "dist.h"
#include "harness.h"
#include "sched/err.h"

#define MAXJ 512

static struct wjob jobs[MAXJ];
static struct replay_job_out out[MAXJ];
static size_t nj;

/* A job of @p user that waited @p wait and ran @p run seconds (submitted at 0). */
static void job(uint32_t user, sched_time_t wait, sched_time_t run)
{
	memset(&jobs[nj], 0, sizeof jobs[nj]);
	jobs[nj].j.user = user;
	jobs[nj].j.procs = 1;
	out[nj] = (struct replay_job_out){.submit = 0, .start = wait, .end = wait + run, .run = run,
					  .predicted = SCHED_TIME_MAX};
	nj++;
}

/*
 * Worked by hand. Ten jobs: user 1 waits 0..4 s with runs of 100 s (bsld
 * 1.00, 1.01, 1.02, 1.03, 1.04); user 2 waits 10, 20, 30, 40, 1000 s with runs
 * of 5 s (bsld (w + 5) / 10: 1.5, 2.5, 3.5, 4.5, 100.5). Sorted waits 0 1 2 3
 * 4 10 20 30 40 1000: p50 is rank ceil(5) = 5, 4 s; p95 rank ceil(9.5) = 10,
 * 1000 s; p99 rank 10 too. Sorted bsld: 1.00 1.01 1.02 1.03 1.04 1.5 2.5 3.5
 * 4.5 100.5: p50 1.04, p95 = p99 = max = 100.5. Users' means: 1.02 and 22.5;
 * Jain = (23.52)^2 / (2 (1.02^2 + 22.5^2)) = 553.1904 / 1014.5808 = 0.54524...
 */
static void hand_case(void)
{
	nj = 0;
	for (sched_time_t w = 0; w < 5; w++)
		job(1, w, 100);
	static const sched_time_t waits[5] = {10, 20, 30, 40, 1000};
	for (int i = 0; i < 5; i++)
		job(2, waits[i], 5);
	struct dist_stats d;
	CHECK_EQ(dist_compute(jobs, out, nj, &d), SCHED_OK);
	CHECK_EQ(d.jobs, 10);
	CHECK_EQ(d.wait_p50, 4);
	CHECK_EQ(d.wait_p95, 1000);
	CHECK_EQ(d.wait_p99, 1000);
	CHECK_EQ(d.bsld_p50_micro, 1040000);
	CHECK_EQ(d.bsld_p95_micro, 100500000);
	CHECK_EQ(d.bsld_p99_micro, 100500000);
	CHECK_EQ(d.bsld_max_micro, 100500000);
	CHECK_EQ(d.users, 2);
	CHECK_EQ(d.worst_user_bsld_micro, 22500000);
	CHECK(fabs(d.jain - 553.1904 / 1014.5808) < 1e-9);
}

/* Refused jobs are not counted; nothing that ran: all zero. Equal means: Jain's index is 1. */
static void refused_and_equal(void)
{
	nj = 0;
	job(1, 0, 50);
	job(2, 0, 50);
	job(3, 7, 50);
	out[2].refused = 1;
	struct dist_stats d;
	CHECK_EQ(dist_compute(jobs, out, nj, &d), SCHED_OK);
	CHECK_EQ(d.jobs, 2);
	CHECK_EQ(d.users, 2);
	CHECK_EQ(d.wait_p99, 0);
	CHECK(fabs(d.jain - 1.0) < 1e-12);
	out[0].refused = out[1].refused = 1;
	CHECK_EQ(dist_compute(jobs, out, nj, &d), SCHED_OK);
	CHECK_EQ(d.jobs, 0);
	CHECK_EQ(d.users, 0);
}

/* Under time sharing the run is the dedicated time: the wait is the rest of the response. */
static void time_sharing(void)
{
	nj = 0;
	job(1, 5, 55);    /* first quantum at 5, ended at 60 */
	out[0].run = 20;  /* 20 s dedicated: 40 s waited, bsld 60 / 20 = 3 */
	struct dist_stats d;
	CHECK_EQ(dist_compute(jobs, out, nj, &d), SCHED_OK);
	CHECK_EQ(d.wait_p50, 40);
	CHECK_EQ(d.bsld_max_micro, 3000000);
}

/*
 * Against the definition itself, by counting: the p-th percentile v is a value
 * of the set with at least p% of the values <= v and fewer than p% below it,
 * for random sets of every size up to MAXJ (ties included).
 */
static bool is_percentile(const sched_time_t *v, size_t n, unsigned p, sched_time_t x)
{
	size_t at_most = 0, below = 0;
	bool member = false;
	for (size_t i = 0; i < n; i++) {
		at_most += v[i] <= x;
		below += v[i] < x;
		member |= v[i] == x;
	}
	return member && 100 * at_most >= (size_t)p * n && 100 * below < (size_t)p * n;
}

static void brute_force(void)
{
	struct test_rng r;
	test_rng_seed(&r, 29);
	static sched_time_t waits[MAXJ];
	for (size_t n = 1; n <= MAXJ; n += 1 + n / 8) {
		nj = 0;
		for (size_t i = 0; i < n; i++) {
			waits[i] = (sched_time_t)test_rng_range(&r, 0, i % 3 ? 999 : 19);
			job((uint32_t)test_rng_range(&r, 0, 6), waits[i], 100);
		}
		struct dist_stats d;
		CHECK_EQ(dist_compute(jobs, out, nj, &d), SCHED_OK);
		CHECK(is_percentile(waits, n, 50, d.wait_p50));
		CHECK(is_percentile(waits, n, 95, d.wait_p95));
		CHECK(is_percentile(waits, n, 99, d.wait_p99));
		sched_time_t max = 0;
		for (size_t i = 0; i < n; i++)
			max = waits[i] > max ? waits[i] : max;
		/* run 100 s: bsld = (wait + 100) / 100 exactly in millionths */
		CHECK_EQ(d.bsld_max_micro, (uint64_t)(max + 100) * 10000);
	}
}

static const struct test tests[] = {
	{"hand_case", hand_case},
	{"refused_and_equal", refused_and_equal},
	{"time_sharing", time_sharing},
	{"brute_force", brute_force},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("dist", tests, argc, argv);
}
