/* SPDX-License-Identifier: MIT */
/* A deterministic number type for prices and costs: integer-only soft floating point. */
#ifndef SCHED_NUM_H
#define SCHED_NUM_H

#include <stdbool.h>
#include <stdint.h>

/*
 * value = sign x m x 2^e, with m normalised to [2^62, 2^63) or m == 0.
 * Every operation is integer arithmetic with truncation, so the same inputs
 * give the same bits on x86-64 and on a Cortex-M3 without an FPU: the slack
 * policy's choices, and so its schedules, are identical on host and target.
 * Exponents stay far inside int32 for any value a schedule produces.
 */
struct sched_num {
	uint64_t m;
	int32_t e;
	bool neg;
};
_Static_assert(sizeof(struct sched_num) <= 16, "SCHED_NUM_BYTES in sched.h must hold a struct sched_num");

struct sched_num num_u64(uint64_t v);
struct sched_num num_zero(void);
struct sched_num num_mul(struct sched_num a, struct sched_num b);
/* b must not be zero. */
struct sched_num num_div(struct sched_num a, struct sched_num b);
struct sched_num num_add(struct sched_num a, struct sched_num b);
struct sched_num num_neg(struct sched_num a);
/* -1, 0, 1 as a is below, equal to, above b. */
int num_cmp(struct sched_num a, struct sched_num b);
/*
 * a^(alpha / 1000) for a >= 0 and alpha in [0, 10000]: exp2(alpha x log2(a))
 * with log2 by repeated squaring and exp2 by a table of 2^(2^-i), 40 bits of
 * each (relative error below 1e-9). 0^0 is 1; alpha 0 and 1000 are exact.
 */
struct sched_num num_pow_milli(struct sched_num a, uint32_t alpha_milli);
/* The nearest integer toward zero, saturated to int64 (for tests and reports). */
int64_t num_to_i64(struct sched_num a);

#endif /* SCHED_NUM_H */
