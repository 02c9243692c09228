/* SPDX-License-Identifier: MIT */
/* The core's integer soft float against the C library's doubles, an independent reference. */
#include <math.h>

#include "harness.h"
#include "num.h"

#include <stddef.h>

static double to_double(struct sched_num a)
{
	double v = ldexp((double)a.m, a.e);
	return a.neg ? -v : v;
}

static bool close_rel(double got, double want, double tol)
{
	if (want == 0)
		return got == 0;
	return fabs(got - want) <= tol * fabs(want);
}

static void basic_arithmetic(void)
{
	struct test_rng r;
	test_rng_seed(&r, 31);
	for (int i = 0; i < 20000; i++) {
		uint64_t a = test_rng_next(&r) >> test_rng_range(&r, 0, 63);
		uint64_t b = (test_rng_next(&r) >> test_rng_range(&r, 0, 63)) | 1u;
		struct sched_num x = num_u64(a), y = num_u64(b);
		CHECK(close_rel(to_double(x), (double)a, 1e-18));
		CHECK(close_rel(to_double(num_mul(x, y)), (double)a * (double)b, 1e-15));
		CHECK(close_rel(to_double(num_div(x, y)), (double)a / (double)b, 1e-15));
		CHECK(close_rel(to_double(num_add(x, y)), (double)a + (double)b, 1e-15));
		double diff = (double)a - (double)b;
		CHECK(fabs(to_double(num_add(x, num_neg(y))) - diff) <= 1e-15 * fmax((double)a, (double)b) + 1);
		int c = num_cmp(x, y);
		CHECK(c == (a < b ? -1 : a > b));
	}
	CHECK(num_cmp(num_neg(num_u64(5)), num_u64(3)) < 0);
	CHECK(num_cmp(num_neg(num_u64(5)), num_neg(num_u64(3))) < 0);
	CHECK(num_cmp(num_zero(), num_neg(num_u64(1))) > 0);
	CHECK_EQ(num_to_i64(num_u64(123456789)), 123456789);
	CHECK_EQ(num_to_i64(num_neg(num_u64(42))), -42);
	CHECK_EQ(num_to_i64(num_div(num_u64(7), num_u64(2))), 3);
}

static void power_function(void)
{
	struct test_rng r;
	test_rng_seed(&r, 77);
	for (int i = 0; i < 5000; i++) {
		uint64_t a = 1 + (test_rng_next(&r) >> test_rng_range(&r, 20, 63));
		uint32_t alpha = test_rng_range(&r, 0, 3000);
		double want = pow((double)a, alpha / 1000.0);
		CHECK(close_rel(to_double(num_pow_milli(num_u64(a), alpha)), want, 1e-9));
	}
	/* Fractions below 1 too: (1/7)^0.2. */
	struct sched_num seventh = num_div(num_u64(1), num_u64(7));
	CHECK(close_rel(to_double(num_pow_milli(seventh, 200)), pow(1.0 / 7.0, 0.2), 1e-9));
	/* The exact cases. */
	CHECK_EQ(num_to_i64(num_pow_milli(num_u64(12345), 1000)), 12345);
	CHECK_EQ(num_to_i64(num_pow_milli(num_u64(12345), 0)), 1);
	CHECK_EQ(num_to_i64(num_pow_milli(num_zero(), 0)), 1);
	CHECK_EQ(num_to_i64(num_pow_milli(num_zero(), 500)), 0);
}

/* floor((am << 63) / bm), one quotient bit at a time: the definition, to check the bits. */
static uint64_t long_division(uint64_t am, uint64_t bm)
{
	uint64_t q = 0, r = 0;
	for (int i = 125; i >= 0; i--) {
		r = (r << 1) | (i >= 63 ? (am >> (i - 63)) & 1u : 0u);
		q <<= 1;
		if (r >= bm) {
			r -= bm;
			q |= 1u;
		}
	}
	return q;
}

/*
 * Prices are compared bit for bit, so the schedule depends on every bit: the
 * normalisation of integers and the quotient must be exact, not just close.
 */
static void exact_bits(void)
{
	for (unsigned b = 0; b < 64; b++) {
		uint64_t v = (uint64_t)1 << b;
		struct sched_num x = num_u64(v);
		/* 2^b is 2^62 x 2^(b - 62) */
		CHECK_EQ(x.m, (uint64_t)1 << 62);
		CHECK_EQ(x.e, (int32_t)b - 62);
		struct sched_num y = num_u64(v | (v >> 1) | 1u);
		CHECK_EQ(to_double(y), (double)(v | (v >> 1) | 1u));
	}
	struct test_rng r;
	test_rng_seed(&r, 5);
	const uint64_t lo = (uint64_t)1 << 62, hi = ((uint64_t)1 << 63) - 1;
	const uint64_t edge[] = {lo, lo + 1, hi - 1, hi, lo + (lo >> 1)};
	for (int i = 0; i < 20000; i++) {
		struct sched_num x, y;
		x.m = i < 25 ? edge[i / 5] : lo | (test_rng_next(&r) & (lo - 1));
		y.m = i < 25 ? edge[i % 5] : lo | (test_rng_next(&r) & (lo - 1));
		x.e = (int32_t)test_rng_range(&r, 0, 200) - 100;
		y.e = (int32_t)test_rng_range(&r, 0, 200) - 100;
		x.neg = (i & 1) != 0;
		y.neg = (i & 2) != 0;
		uint64_t q = long_division(x.m, y.m);
		int32_t e = x.e - y.e - 63;
		if (q > hi) {
			q >>= 1; /* a.m >= b.m: one bit too many, truncated */
			e++;
		}
		while (q < lo) {
			q <<= 1;
			e--;
		}
		struct sched_num d = num_div(x, y);
		CHECK_EQ(d.m, q);
		CHECK_EQ(d.e, e);
		CHECK_EQ(d.neg, x.neg != y.neg);
	}
}

static const struct test tests[] = {
	{"exact_bits", exact_bits},
	{"basic_arithmetic", basic_arithmetic},
	{"power_function", power_function},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("num", tests, argc, argv);
}
