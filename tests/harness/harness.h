/* SPDX-License-Identifier: MIT */
/* A tiny test harness: one greppable line per test and a final "N passed, N failed". */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sched;

/*
 * Each test file defines `const struct test tests[]` ending in {NULL, NULL}
 * and calls test_main(). A test fails at its first failed CHECK; the line
 * "TEST <suite>.<name> PASS" or "TEST <suite>.<name> FAIL <file>:<line> <expr>"
 * is printed for each, then the summary. When a test fails more than once
 * (a helper's CHECK returns to a caller that fails again, or the after-each
 * check fails too), the line keeps the first failure: the cause, not a
 * consequence. The exit status is non-zero when any test failed. No timing
 * is measured here: speed belongs in benchmarks.
 *
 * After each test, as lwIP's unit tests check their pools for leaks, the
 * harness checks the schedulers the test registered with harness_watch():
 * sched_check() holds, and, once every job the test left is cancelled,
 * every pool is back at zero used (no job slot, and no profile segment
 * beyond each partition's one, still taken). The list is cleared after
 * each test.
 */
struct test {
	const char *name;
	void (*fn)(void);
};

int test_main(const char *suite, const struct test *tests, int argc, char **argv);

/* Record a failure (the first one is kept) and leave the current test. */
void test_fail(const char *file, int line, const char *expr);

#define HARNESS_WATCH_MAX 8 /* schedulers one test may register */

/**
 * Check @p s after the current test: its invariants, then that cancelling
 * every job it holds returns its pools to zero used. Its memory, and its
 * decision callback's context, must outlive the test (static), since the
 * check runs after the test returns and cancels jobs through it. Registering
 * the same scheduler twice checks it once; more than HARNESS_WATCH_MAX fails
 * the test. O(1).
 */
void harness_watch(struct sched *s);

/**
 * Run @p fn as a test of its own, with its after-each check, inside the
 * current test (whose state it leaves as it was): for the harness's
 * self-test, which must see a deliberate leak or broken invariant reported.
 * Returns whether it passed; otherwise its failure line goes to @p why
 * (@p n bytes). O(the test and its check).
 */
bool harness_run_nested(void (*fn)(void), char *why, size_t n);

#define CHECK(cond)                                               \
	do {                                                      \
		if (!(cond)) {                                    \
			test_fail(__FILE__, __LINE__, #cond);     \
			return;                                   \
		}                                                 \
	} while (0)

/* Compare two integers and show both values on failure. */
#define CHECK_EQ(a, b)                                                                 \
	do {                                                                           \
		long long check_a_ = (long long)(a), check_b_ = (long long)(b);        \
		if (check_a_ != check_b_) {                                            \
			test_fail_eq(__FILE__, __LINE__, #a " == " #b, check_a_, check_b_); \
			return;                                                        \
		}                                                                      \
	} while (0)

void test_fail_eq(const char *file, int line, const char *expr, long long a, long long b);

/* A small deterministic generator (xorshift64*), so every run draws the same cases. */
struct test_rng {
	uint64_t s;
};
void test_rng_seed(struct test_rng *r, uint64_t seed);
uint64_t test_rng_next(struct test_rng *r);
/* Uniform in [lo, hi]. */
uint32_t test_rng_range(struct test_rng *r, uint32_t lo, uint32_t hi);

#endif /* TEST_HARNESS_H */
