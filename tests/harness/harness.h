/* SPDX-License-Identifier: MIT */
/* A tiny test harness: one greppable line per test and a final "N passed, N failed". */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Each test file defines `const struct test tests[]` ending in {NULL, NULL}
 * and calls test_main(). A test fails at its first failed CHECK; the line
 * "TEST <suite>.<name> PASS" or "TEST <suite>.<name> FAIL <file>:<line> <expr>"
 * is printed for each, then the summary. The exit status is non-zero when
 * any test failed. No timing is measured here: speed belongs in benchmarks.
 */
struct test {
	const char *name;
	void (*fn)(void);
};

int test_main(const char *suite, const struct test *tests, int argc, char **argv);

/* Record a failure and leave the current test. */
void test_fail(const char *file, int line, const char *expr);

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
