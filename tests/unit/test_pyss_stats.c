/* SPDX-License-Identifier: MIT */
/* pyss's statistics (sim_host/pyss_stats.c) on schedules built by hand: the filter's quirks, one at a time. */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "pyss_stats.h"
#include "sched/err.h"

#define MAXJ 256

static struct wjob jobs[MAXJ];
static struct replay_job_out out[MAXJ];
static size_t nj;

/* A job that ran: submitted at @p submit, held its processors [start, end). */
static void job(sched_time_t submit, sched_time_t start, sched_time_t end, sched_procs_t procs, sched_time_t estimate)
{
	memset(&jobs[nj], 0, sizeof jobs[nj]);
	memset(&out[nj], 0, sizeof out[nj]);
	jobs[nj].j = (struct sched_replay_job){.seq = (uint32_t)nj, .submit = submit, .run = end - start,
					       .estimate = estimate, .procs = procs};
	out[nj] = (struct replay_job_out){.submit = submit, .start = start, .end = end, .predicted = SCHED_TIME_MAX};
	nj++;
}

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1);
}

/*
 * 200 jobs that ran: 198 of 2 processors, each 1 s, submitted at 1..198 and
 * ending at 2..199; a tiny one (1 processor, estimate 1 s); and the last
 * submission at 1000, which ends after it. pyss's 1% cut is size / 100 places,
 * size the jobs less the tiny ones met so far, and the places count tiny jobs.
 */
static void cut_counts(bool tiny_first, uint32_t want_first, uint32_t want_total)
{
	nj = 0;
	if (tiny_first)
		job(0, 0, 1, 1, 1);
	for (sched_time_t t = 1; t <= 198; t++)
		job(t, t, t + 1, 2, 1);
	if (!tiny_first)
		job(500, 500, 501, 1, 1);
	job(1000, 1000, 1001, 2, 1);
	struct pyss_stats s;
	CHECK_EQ(pyss_stats_compute(jobs, out, nj, 0, &s), SCHED_OK);
	CHECK_EQ(s.ran, 200);
	CHECK_EQ(s.tiny, 1);
	CHECK_EQ(s.first, want_first);
	CHECK_EQ(s.after, 1);
	CHECK_EQ(s.total, want_total);
	CHECK_EQ(s.used, 200 - 1 - want_first - 1);
}

/* Tiny first: the count is 199 from the second place on, so the cut is 1 place, the tiny job's: none cut. */
static void tiny_first_holds_the_cut_place(void)
{
	cut_counts(true, 0, 199);
}

/* Tiny later: the count is still 200 at the first places: 2 places, both ordinary jobs, cut. */
static void tiny_later_cut_two(void)
{
	cut_counts(false, 2, 199);
}

/* Under 100 jobs there is no cut at all; a tiny job after the first late one is not counted tiny. */
static void no_cut_under_100_and_the_stop(void)
{
	nj = 0;
	job(0, 0, 20, 4, 30);   /* used: wait 0, run 20 */
	job(5, 20, 30, 4, 10);  /* used: wait 15, run 10: bsld 25/10 = 2.5, sld 2.5, est 2.5 */
	job(30, 30, 40, 1, 1);  /* submitted last; tiny, but ends (40) after the late job below: never met */
	job(10, 30, 35, 2, 5);  /* ends at 35 > 30: the loop stops here */
	struct pyss_stats s;
	CHECK_EQ(pyss_stats_compute(jobs, out, nj, 0, &s), SCHED_OK);
	CHECK_EQ(s.first, 0);
	CHECK_EQ(s.tiny, 0);
	CHECK_EQ(s.after, 2);
	CHECK_EQ(s.total, 4);
	CHECK_EQ(s.used, 2);
	CHECK(near(s.wait_min, 15.0 / 120));
	CHECK(near(s.response_min, 45.0 / 120));
	CHECK(near(s.bsld, (1.0 + 2.5) / 2)); /* the first is (0 + 20) / 20 = 1 */
	CHECK(near(s.sld, (1.0 + 2.5) / 2));
	CHECK(near(s.est_sld, (20.0 / 30 + 2.5) / 2));
	CHECK_EQ(s.tail_jobs, 0);
	/* Top 10%: the countdown from 2 goes below 1.8 after one job, the first of the two of bsld 2.5 in
	 * finish order (its sld 2.5), divided by 2 - 1 + 1. */
	CHECK(near(s.top10_sld, 2.5 / 2));
}

/* A short job that waited: pyss's bounded slowdown is 1 (clamped), its plain slowdown is not. */
static void clamp_and_zero_run(void)
{
	nj = 0;
	job(0, 3, 5, 2, 2);     /* wait 3, run 2: bsld max(1, 5/10) = 1, sld 2.5 */
	job(0, 0, 0, 2, 7);     /* run 0 on 2 processors: pyss makes it 1 s; not tiny */
	job(10, 10, 10, 1, 1);  /* the last submission; ends at it, not after */
	struct pyss_stats s;
	CHECK_EQ(pyss_stats_compute(jobs, out, nj, 0, &s), SCHED_OK);
	CHECK_EQ(s.tiny, 1);
	CHECK_EQ(s.used, 2);
	CHECK(near(s.bsld, 1));
	CHECK(near(s.sld, (2.5 + 1) / 2));             /* the zero run: (0 + 1) / 1 */
	CHECK(near(s.response_min, (3 + 2 + 1) / 120.0));
	CHECK(near(s.est_sld, (2.5 + 1.0 / 7) / 2));
}

/* Refused jobs did not run but did arrive; nothing ran: every figure is 0. */
static void refused_and_empty(void)
{
	nj = 0;
	job(0, 0, 10, 2, 10);
	job(50, 0, 0, 2, 10);
	out[1].refused = 1;
	struct pyss_stats s;
	CHECK_EQ(pyss_stats_compute(jobs, out, nj, 0, &s), SCHED_OK);
	CHECK_EQ(s.ran, 1);
	CHECK_EQ(s.last_submit, 50);
	CHECK_EQ(s.used, 1);
	out[0].refused = 1;
	CHECK_EQ(pyss_stats_compute(jobs, out, nj, 0, &s), SCHED_OK);
	CHECK_EQ(s.ran, 0);
	CHECK_EQ(s.used, 0);
	CHECK(s.wait_min == 0 && s.bsld == 0 && s.top10_sld == 0);
	CHECK_EQ(pyss_stats_compute(jobs, out, 0, 0, &s), SCHED_OK);
	CHECK_EQ(s.ran, 0);
}

/* Time sharing: the run is the dedicated time (quanta x quantum), the wait the rest of the response. */
static void time_sharing_run(void)
{
	nj = 0;
	job(0, 5, 60, 4, 100); /* first quantum at 5, ended at 60 */
	jobs[0].j.run = 17;    /* its run: 17 s, 2 quanta of 10 s = 20 s dedicated, 40 s waited */
	job(100, 100, 110, 1, 1);
	struct pyss_stats s;
	CHECK_EQ(pyss_stats_compute(jobs, out, nj, 10, &s), SCHED_OK);
	CHECK_EQ(s.used, 1);
	CHECK(near(s.wait_min, 40.0 / 60)); /* response 60 - 20 */
	CHECK(near(s.bsld, 3));
	CHECK_EQ(s.tail_jobs, 1);
}

static const struct test tests[] = {
	{"tiny_first_holds_the_cut_place", tiny_first_holds_the_cut_place},
	{"tiny_later_cut_two", tiny_later_cut_two},
	{"no_cut_under_100_and_the_stop", no_cut_under_100_and_the_stop},
	{"clamp_and_zero_run", clamp_and_zero_run},
	{"refused_and_empty", refused_and_empty},
	{"time_sharing_run", time_sharing_run},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("pyss_stats", tests, argc, argv);
}
