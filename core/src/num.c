/* SPDX-License-Identifier: MIT */
/* Integer-only soft floating point for the slack policy's prices (see num.h). */
#include "num.h"

#define TOP (1ull << 62)

/* 64 x 64 -> 128 bits from 32-bit halves: portable, and the same on every target. */
static void mul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
	uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
	*lo = (ll & 0xFFFFFFFFu) | (mid << 32);
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* (hi:lo) >> 62, assuming the result fits 64 bits. */
static uint64_t shr62(uint64_t hi, uint64_t lo)
{
	return (hi << 2) | (lo >> 62);
}

static struct sched_num make(uint64_t m, int32_t e, bool neg)
{
	struct sched_num r;
	if (m == 0) {
		r.m = 0;
		r.e = 0;
		r.neg = false;
		return r;
	}
	while (m >= (TOP << 1)) {
		m >>= 1; /* once at most: sums and products stay below 2^64 */
		e++;
	}
	/* A small integer needs up to 62 steps one bit at a time: halve the distance
	 * instead, never past TOP, then the last bit. */
	for (unsigned step = 32; step > 0; step >>= 1) {
		if (m < (TOP >> step)) {
			m <<= step;
			e -= (int32_t)step;
		}
	}
	while (m < TOP) {
		m <<= 1;
		e--;
	}
	r.m = m;
	r.e = e;
	r.neg = neg;
	return r;
}

struct sched_num num_zero(void)
{
	return make(0, 0, false);
}

struct sched_num num_u64(uint64_t v)
{
	if (v >= (TOP << 1))
		return make(v >> 1, 1, false);
	return make(v, 0, false);
}

struct sched_num num_neg(struct sched_num a)
{
	if (a.m != 0)
		a.neg = !a.neg;
	return a;
}

struct sched_num num_mul(struct sched_num a, struct sched_num b)
{
	if (a.m == 0 || b.m == 0)
		return num_zero();
	uint64_t hi, lo;
	mul128(a.m, b.m, &hi, &lo);
	/* Both in [2^62, 2^63): the product is in [2^124, 2^126), >> 62 in [2^62, 2^64). */
	return make(shr62(hi, lo), a.e + b.e + 62, a.neg != b.neg);
}

struct sched_num num_div(struct sched_num a, struct sched_num b)
{
	if (a.m == 0 || b.m == 0)
		return num_zero();
	/* floor((a.m << 63) / b.m): below 2^64, as a.m < 2^63 <= 2 b.m. Both ways give
	 * the same bits; a target without 128-bit division (the board) divides by hand. */
#if defined(__SIZEOF_INT128__)
	uint64_t q = (uint64_t)(((unsigned __int128)a.m << 63) / b.m);
#else
	uint64_t q = 0, r = 0;
	for (int i = 125; i >= 0; i--) {
		uint64_t bit = i >= 63 ? (a.m >> (i - 63)) & 1u : 0u;
		r = (r << 1) | bit;
		q <<= 1;
		if (r >= b.m) {
			r -= b.m;
			q |= 1u;
		}
	}
#endif
	return make(q, a.e - b.e - 63, a.neg != b.neg);
}

int num_cmp(struct sched_num a, struct sched_num b)
{
	if (a.m == 0 && b.m == 0)
		return 0;
	if (a.m == 0)
		return b.neg ? 1 : -1;
	if (b.m == 0)
		return a.neg ? -1 : 1;
	if (a.neg != b.neg)
		return a.neg ? -1 : 1;
	int mag = a.e != b.e ? (a.e < b.e ? -1 : 1) : (a.m < b.m ? -1 : a.m > b.m);
	return a.neg ? -mag : mag;
}

struct sched_num num_add(struct sched_num a, struct sched_num b)
{
	if (a.m == 0)
		return b;
	if (b.m == 0)
		return a;
	if (a.e < b.e || (a.e == b.e && a.m < b.m)) {
		struct sched_num t = a;
		a = b;
		b = t;
	}
	/* |a| >= |b|: align b to a's exponent (what falls off is below a's precision). */
	uint32_t shift = (uint32_t)(a.e - b.e);
	uint64_t bm = shift >= 64 ? 0 : b.m >> shift;
	if (a.neg == b.neg)
		return make(a.m + bm, a.e, a.neg); /* both below 2^63: no overflow */
	return make(a.m - bm, a.e, a.neg);
}

int64_t num_to_i64(struct sched_num a)
{
	if (a.m == 0 || a.e < -63)
		return 0;
	if (a.e > 0)
		return a.neg ? INT64_MIN : INT64_MAX; /* at least 2^63 */
	uint64_t v = a.m >> (uint32_t)(-a.e);
	return a.neg ? -(int64_t)v : (int64_t)v;
}

/* 2^(2^-i) for i = 1..40, in Q62, rounded to nearest. */
static const uint64_t exp2_table[40] = {
	0x5a827999fcef3242ull, 0x4c1bf828c6dc54b8ull, 0x45cae0f1f545eb73ull, 0x42d561b3e6243d8aull,
	0x4166c34c5615d0ecull, 0x40b268f9de0183baull, 0x4058f6a7ecccd5b6ull, 0x402c6be96af2fb58ull,
	0x4016321b687027a8ull, 0x400b18178ba33b14ull, 0x40058bce410147e8ull, 0x4002c5d7bff71dafull,
	0x400162e807ee7e5bull, 0x4000b1730df6a524ull, 0x400058b9497b8152ull, 0x40002c5c955dd701ull,
	0x4000162e46d6f26cull, 0x40000b1722757b1bull, 0x4000058b90fd3e0cull, 0x400002c5c86f3f26ull,
	0x40000162e433c79bull, 0x400000b17218edd0ull, 0x40000058b90c3968ull, 0x4000002c5c860d54ull,
	0x400000162e4302d2ull, 0x4000000b17218073ull, 0x400000058b90bffcull, 0x40000002c5c85fefull,
	0x4000000162e42ff3ull, 0x40000000b17217f9ull, 0x4000000058b90bfcull, 0x400000002c5c85feull,
	0x40000000162e42ffull, 0x400000000b17217full, 0x40000000058b90c0ull, 0x4000000002c5c860ull,
	0x400000000162e430ull, 0x4000000000b17218ull, 0x400000000058b90cull, 0x40000000002c5c86ull,
};

#define FRAC_BITS 40

struct sched_num num_pow_milli(struct sched_num a, uint32_t alpha_milli)
{
	if (alpha_milli == 0)
		return num_u64(1);
	if (a.m == 0)
		return num_zero();
	if (alpha_milli == 1000)
		return a;
	/* log2(a) = e + 62 + log2(m / 2^62); the fraction one bit per squaring. */
	uint64_t y = a.m, frac = 0;
	for (int i = 1; i <= FRAC_BITS; i++) {
		uint64_t hi, lo;
		mul128(y, y, &hi, &lo);
		y = shr62(hi, lo);
		frac <<= 1;
		if (y >= (TOP << 1)) {
			y >>= 1;
			frac |= 1u;
		}
	}
	int64_t log2a = ((int64_t)a.e + 62) * ((int64_t)1 << FRAC_BITS) + (int64_t)frac;
	/* |log2a| < 2^51 for any schedule value and alpha <= 10: the product fits. */
	int64_t p = log2a * (int64_t)alpha_milli / 1000;
	int64_t k = p >= 0 ? p >> FRAC_BITS : -((-p + ((int64_t)1 << FRAC_BITS) - 1) >> FRAC_BITS);
	uint64_t f = (uint64_t)(p - k * ((int64_t)1 << FRAC_BITS));
	/* 2^f as the product of 2^(2^-i) over the set bits of f. */
	uint64_t r = TOP;
	for (int i = 1; i <= FRAC_BITS; i++) {
		if (f & (1ull << (FRAC_BITS - i))) {
			uint64_t hi, lo;
			mul128(r, exp2_table[i - 1], &hi, &lo);
			r = shr62(hi, lo);
		}
	}
	return make(r, (int32_t)(k - 62), false);
}
