/* SPDX-License-Identifier: MIT */
/* The metric accumulators, on hand-computed jobs. */
#include "harness.h"
#include "sched/metrics.h"

static void ratio_micro(void)
{
	CHECK_EQ(sched_ratio_micro(1, 3), 333333);
	CHECK_EQ(sched_ratio_micro(10, 4), 2500000);
	CHECK_EQ(sched_ratio_micro(0, 7), 0);
	CHECK_EQ(sched_ratio_micro(5, 0), 0);
	CHECK(sched_ratio_micro(UINT64_MAX, 1) == UINT64_MAX);
}

static void classes(void)
{
	CHECK_EQ(sched_metrics_class(1), 0);
	CHECK_EQ(sched_metrics_class(32), 0);
	CHECK_EQ(sched_metrics_class(33), 1);
	CHECK_EQ(sched_metrics_class(64), 1);
	CHECK_EQ(sched_metrics_class(65), 2);
	CHECK_EQ(sched_metrics_class(120), 2);
	CHECK_EQ(sched_metrics_class(121), 3);
}

/*
 * Three jobs worked out by hand:
 *   A: submit 0, start 5, end 25, 4 procs:   wait 5, run 20, bsld 25/20 = 1.25
 *   B: submit 10, start 10, end 13, 40 procs: wait 0, run 3, bsld 3/10 = 0.3
 *   C: submit 0, start 100, end 100, 121 procs: wait 100, run 0, bsld 100/10 = 10
 */
static void three_jobs(void)
{
	struct sched_metrics m;
	sched_metrics_init(&m);
	CHECK_EQ(m.min_wait, SCHED_TIME_MAX);
	sched_metrics_add(&m, 0, 5, 25, 4, false);
	CHECK_EQ(m.min_wait, 5);
	CHECK_EQ(m.min_run, 20);
	sched_metrics_add(&m, 10, 10, 13, 40, false);
	sched_metrics_add(&m, 0, 100, 100, 121, true);
	CHECK_EQ(m.jobs, 3);
	CHECK_EQ(m.killed, 1);
	CHECK_EQ(m.sum_wait, 105);
	CHECK_EQ(m.max_wait, 100);
	CHECK_EQ(m.min_wait, 0);
	CHECK_EQ(m.min_run, 0);
	CHECK_EQ(m.max_run, 20);
	CHECK_EQ(m.sum_run, 23);
	CHECK_EQ(m.sum_response, 128);
	CHECK_EQ(m.sum_bsld_micro, 1250000 + 300000 + 10000000);
	CHECK_EQ(m.area, 4 * 20 + 40 * 3);
	CHECK_EQ(m.first_submit, 0);
	CHECK_EQ(m.last_end, 100);
	CHECK_EQ(m.class_jobs[0], 1);
	CHECK_EQ(m.class_jobs[1], 1);
	CHECK_EQ(m.class_jobs[2], 0);
	CHECK_EQ(m.class_jobs[3], 1);
	CHECK_EQ(m.class_wait[3], 100);
	CHECK_EQ(m.class_run[0], 20);
	CHECK_EQ(m.sum_procs, 165);
	CHECK_EQ(m.sum_procs_response, 4 * 25 + 40 * 3 + 121 * 100);
	/* SLD60: A max(25,60)/max(20,60) = 1; B 1; C 100/60. */
	CHECK_EQ(m.sum_procs_sld60_micro, 4 * 1000000ull + 40 * 1000000ull + 121 * 1666666ull);
	/* SLD300: all three have response <= 300 and run <= 300: 1 each. */
	CHECK_EQ(m.sum_procs_sld300_micro, 165 * 1000000ull);
}

/* The summary of the three jobs above: every figure from integers, truncated millionths. */
static void summary_of_three_jobs(void)
{
	struct sched_metrics m;
	sched_metrics_init(&m);
	struct sched_metrics_summary s;
	sched_metrics_summarize(&m, 200, &s);
	CHECK_EQ(s.jobs, 0);
	CHECK_EQ(s.min_wait, 0); /* not SCHED_TIME_MAX: no job, no minimum */
	CHECK_EQ(s.util_pct_micro, 0);
	sched_metrics_add(&m, 0, 5, 25, 4, false);
	sched_metrics_add(&m, 10, 10, 13, 40, false);
	sched_metrics_add(&m, 0, 100, 100, 121, true);
	sched_metrics_summarize(&m, 200, &s);
	CHECK_EQ(s.jobs, 3);
	CHECK_EQ(s.killed, 1);
	CHECK_EQ(s.avg_wait_micro, 35000000);  /* 105 / 3 */
	CHECK_EQ(s.avg_run_micro, 7666666);    /* 23 / 3, truncated */
	CHECK_EQ(s.avg_response_micro, 42666666);
	CHECK_EQ(s.avg_bsld_micro, 3850000);   /* (1.25 + 0.3 + 10) / 3 */
	CHECK_EQ(s.ef_micro, 5565217);         /* (105 + 23) / 23 */
	CHECK_EQ(s.ef_class_micro[0], 1250000); /* (5 + 20) / 20 */
	CHECK_EQ(s.ef_class_micro[2], 0);       /* no job in the class */
	CHECK_EQ(s.ef_class_micro[3], 0);       /* run 0: no ratio */
	CHECK_EQ(s.makespan, 100);
	CHECK_EQ(s.util_pct_micro, 1000000);    /* 100 x 200 / (200 x 100) = 1 % */
	CHECK_EQ(s.artww_micro, sched_ratio_micro(4 * 25 + 40 * 3 + 121 * 100, 165));
	CHECK_EQ(s.sldww300_micro, 1000000);
	CHECK_EQ(s.min_wait, 0);
	CHECK_EQ(s.max_run, 20);
}

/* Exhibit 11 of seed 001: EF is total (run + wait) over total run; check its "No Backfill" column. */
static void expansion_factor_matches_exhibit11(void)
{
	/* Average run 2,785 s and average wait 4,076 s give the printed 2.46. */
	uint64_t ef = sched_ratio_micro(2785 + 4076, 2785);
	CHECK(ef >= 2460000 && ef < 2470000);
	/* "Remove 128 CPUs": 2,785 and 54,934 give 20.72. */
	ef = sched_ratio_micro(2785 + 54934, 2785);
	CHECK(ef >= 20720000 && ef < 20730000);
}

static const struct test tests[] = {
	{"ratio_micro", ratio_micro},
	{"classes", classes},
	{"three_jobs", three_jobs},
	{"summary_of_three_jobs", summary_of_three_jobs},
	{"expansion_factor_matches_exhibit11", expansion_factor_matches_exhibit11},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("metrics", tests, argc, argv);
}
