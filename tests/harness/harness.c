/* SPDX-License-Identifier: MIT */
/* The harness: runs a table of tests, prints one line per test and a summary line. */
#include "harness.h"

#include <stdio.h>
#include <string.h>

static bool failed;
static char failure[512];

void test_fail(const char *file, int line, const char *expr)
{
	failed = true;
	snprintf(failure, sizeof failure, "%s:%d %s", file, line, expr);
}

void test_fail_eq(const char *file, int line, const char *expr, long long a, long long b)
{
	failed = true;
	snprintf(failure, sizeof failure, "%s:%d %s (%lld != %lld)", file, line, expr, a, b);
}

int test_main(const char *suite, const struct test *tests, int argc, char **argv)
{
	int passed = 0, nfailed = 0;
	for (const struct test *t = tests; t->name != NULL; t++) {
		/* An optional argument selects tests by substring. */
		if (argc > 1 && strstr(t->name, argv[1]) == NULL)
			continue;
		failed = false;
		failure[0] = '\0';
		t->fn();
		if (failed) {
			nfailed++;
			printf("TEST %s.%s FAIL %s\n", suite, t->name, failure);
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
