/* SPDX-License-Identifier: MIT */
/* The harness: runs a table of tests, checks what each left behind, prints one line per test and a summary line. */
#include "harness.h"

#include <stdio.h>
#include <string.h>

#include "sched/sched.h"

/* The test running now: whether it failed, its first failure, and the schedulers it asked to be checked. */
struct harness_case {
	bool failed;
	char failure[512];
	struct sched *watched[HARNESS_WATCH_MAX];
	unsigned n_watched;
};

static struct harness_case current;

/* Keep the first failure: later ones are usually its consequences. */
static void record(const char *fmt_text)
{
	if (current.failed)
		return;
	current.failed = true;
	snprintf(current.failure, sizeof current.failure, "%s", fmt_text);
}

void test_fail(const char *file, int line, const char *expr)
{
	char text[512];
	snprintf(text, sizeof text, "%s:%d %s", file, line, expr);
	record(text);
}

void test_fail_eq(const char *file, int line, const char *expr, long long a, long long b)
{
	char text[512];
	snprintf(text, sizeof text, "%s:%d %s (%lld != %lld)", file, line, expr, a, b);
	record(text);
}

void harness_watch(struct sched *s)
{
	for (unsigned k = 0; k < current.n_watched; k++)
		if (current.watched[k] == s)
			return;
	if (current.n_watched == HARNESS_WATCH_MAX) {
		record("harness_watch: more schedulers than HARNESS_WATCH_MAX");
		return;
	}
	current.watched[current.n_watched++] = s;
}

/* Cancel every job @p s holds, running ones last (a waiting one's cancel may start another). O(jobs x cancel). */
static int cancel_all(struct sched *s)
{
	struct sched_stats st;
	sched_stats(s, &st);
	for (uint32_t guard = 0; guard <= st.jobs_capacity + 1; guard++) {
		const struct sched_job *j = sched_first(s, SCHED_JOB_WAITING);
		if (j == NULL)
			j = sched_first(s, SCHED_JOB_RUNNING);
		if (j == NULL)
			return SCHED_OK;
		struct sched_job_info info;
		sched_job_read(j, &info);
		int err = sched_cancel(s, info.id, st.now);
		if (err != SCHED_OK)
			return err;
	}
	return SCHED_E_STATE; /* a cancel that did not take the job out */
}

/* The after-each check of one watched scheduler (the k-th): invariants, then every pool back at zero used. */
static void check_watched(unsigned k, struct sched *s)
{
	char text[256];
	if (sched_check(s) != SCHED_OK) {
		snprintf(text, sizeof text, "after-each: sched_check failed on watched scheduler %u", k);
		record(text);
		return;
	}
	int err = cancel_all(s);
	struct sched_stats st;
	sched_stats(s, &st);
	unsigned parts = sched_config_get(s)->n_partitions > 0 ? sched_config_get(s)->n_partitions : 1;
	if (err != SCHED_OK || st.jobs_used != 0 || st.segs_used != parts || sched_check(s) != SCHED_OK) {
		snprintf(text, sizeof text,
			 "after-each: watched scheduler %u not back at zero once its jobs were cancelled "
			 "(cancel %d, jobs_used=%u, segs_used=%u for %u partitions, sched_check %s)",
			 k, err, st.jobs_used, st.segs_used, parts, sched_check(s) == SCHED_OK ? "ok" : "failed");
		record(text);
	}
}

/* Run one test and its after-each check; the result is in current. */
static void run_case(void (*fn)(void))
{
	current = (struct harness_case){.failed = false};
	fn();
	for (unsigned k = 0; k < current.n_watched; k++)
		check_watched(k, current.watched[k]);
	current.n_watched = 0;
}

bool harness_run_nested(void (*fn)(void), char *why, size_t n)
{
	struct harness_case outer = current;
	run_case(fn);
	bool passed = !current.failed;
	snprintf(why, n, "%s", current.failure);
	current = outer;
	return passed;
}

int test_main(const char *suite, const struct test *tests, int argc, char **argv)
{
	int passed = 0, nfailed = 0;
	for (const struct test *t = tests; t->name != NULL; t++) {
		/* An optional argument selects tests by substring. */
		if (argc > 1 && strstr(t->name, argv[1]) == NULL)
			continue;
		run_case(t->fn);
		if (current.failed) {
			nfailed++;
			printf("TEST %s.%s FAIL %s\n", suite, t->name, current.failure);
		} else {
			passed++;
			printf("TEST %s.%s PASS\n", suite, t->name);
		}
		fflush(stdout);
	}
	printf("%d passed, %d failed\n", passed, nfailed);
	return nfailed ? 1 : 0;
}

void test_rng_seed(struct test_rng *r, uint64_t seed)
{
	r->s = seed ? seed : 0x9e3779b97f4a7c15ull;
}

uint64_t test_rng_next(struct test_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 2685821657736338717ull;
}

uint32_t test_rng_range(struct test_rng *r, uint32_t lo, uint32_t hi)
{
	uint64_t span = (uint64_t)hi - lo + 1;
	return lo + (uint32_t)(test_rng_next(r) % span);
}
