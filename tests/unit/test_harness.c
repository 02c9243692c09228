/* SPDX-License-Identifier: MIT */
/*
 * The harness's self-test: its after-each check must notice a deliberate
 * leak and a broken invariant, and a failure line must name the first
 * failure. The deliberate failures run nested (harness_run_nested), so they
 * are not failures of this suite: each test here passes when the harness
 * reported what it should.
 */
#include <string.h>

#include "harness.h"
#include "sched_fixture.h"
#include "sched_priv.h" /* to break the scheduler on purpose: no public call can */

static struct fx leaky, broken, clean;
static char why[512];

/* A job slot taken from the pool and never put on a list: the leak lwIP's checks look for. */
static void leak_a_job_slot(void)
{
	CHECK_EQ(fx_init(&leaky, SCHED_POLICY_EASY, 8), SCHED_OK);
	CHECK_EQ(fx_submit(&leaky, 1, 4, 100, 0), SCHED_OK);
	CHECK(sched_pool_alloc(&leaky.s->jobs) != NULL);
}

/* Processors counted busy that no running job holds. */
static void break_busy(void)
{
	CHECK_EQ(fx_init(&broken, SCHED_POLICY_CONS, 8), SCHED_OK);
	CHECK_EQ(fx_submit(&broken, 1, 4, 100, 0), SCHED_OK);
	broken.s->busy++;
}

/* A sound scheduler left with running and waiting jobs: the check cancels them, and the pools come back. */
static void leave_jobs_behind(void)
{
	CHECK_EQ(fx_init(&clean, SCHED_POLICY_CONS, 8), SCHED_OK);
	CHECK_EQ(fx_submit(&clean, 1, 6, 100, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&clean, 2, 6, 50, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&clean, 3, 2, 500, 0), SCHED_OK);
	CHECK_EQ(fx_stats(&clean).jobs_used, 3);
}

static void nothing(void)
{
}

/* A helper whose CHECK returns to a caller that then fails too. */
static void helper_fails(void)
{
	CHECK_EQ(1, 2); /* the first failure */
}

static void fails_twice(void)
{
	helper_fails();
	CHECK_EQ(3, 4); /* the second failure */
}

/* A failed CHECK in a test that also leaks: the line names the CHECK, the cause. */
static void fails_then_leaks(void)
{
	CHECK_EQ(fx_init(&leaky, SCHED_POLICY_FCFS, 8), SCHED_OK);
	CHECK(sched_pool_alloc(&leaky.s->jobs) != NULL);
	CHECK_EQ(5, 6); /* the test's own failure */
}

static void notices_a_leak(void)
{
	CHECK(!harness_run_nested(leak_a_job_slot, why, sizeof why));
	CHECK(strstr(why, "after-each: sched_check failed on watched scheduler 0") != NULL);
}

static void notices_a_broken_invariant(void)
{
	CHECK(!harness_run_nested(break_busy, why, sizeof why));
	CHECK(strstr(why, "after-each: sched_check failed") != NULL);
}

static void drains_what_a_test_left(void)
{
	CHECK(harness_run_nested(leave_jobs_behind, why, sizeof why));
	struct sched_stats st = fx_stats(&clean);
	CHECK_EQ(st.jobs_used, 0); /* the check cancelled every job */
	CHECK_EQ(st.segs_used, 1); /* the one partition's base segment */
}

static void clears_the_watch_list(void)
{
	CHECK(!harness_run_nested(leak_a_job_slot, why, sizeof why));
	CHECK(harness_run_nested(nothing, why, sizeof why)); /* the leaky scheduler is not checked again */
}

static void keeps_the_first_failure(void)
{
	CHECK(!harness_run_nested(fails_twice, why, sizeof why));
	CHECK(strstr(why, "1 == 2 (1 != 2)") != NULL);
	CHECK(!harness_run_nested(fails_then_leaks, why, sizeof why));
	CHECK(strstr(why, "5 == 6 (5 != 6)") != NULL);
}

static const struct test tests[] = {
	{"notices_a_leak", notices_a_leak},
	{"notices_a_broken_invariant", notices_a_broken_invariant},
	{"drains_what_a_test_left", drains_what_a_test_left},
	{"clears_the_watch_list", clears_the_watch_list},
	{"keeps_the_first_failure", keeps_the_first_failure},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("harness", tests, argc, argv);
}
