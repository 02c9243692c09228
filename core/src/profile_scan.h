/* SPDX-License-Identifier: MIT */
/* The flat profile's two scans (host only): the first free count below, or at least, a width. */
#ifndef SCHED_PROFILE_SCAN_H
#define SCHED_PROFILE_SCAN_H

#include "sched/types.h"

/*
 * The anchor search of a flat profile (profile.c) reads the array of free
 * counts sixteen at a time: one 16-bit mask of the too-full segments per
 * block (one AVX-512 compare, two AVX2 or four SSE2 ones, or sixteen scalar
 * ones), then the runs between its set bits, so every path sees the same
 * masks and gives the same answer. Blocks read up to 15 entries past the
 * answer, so the array has SCHED_FLAT_PAD readable entries after its
 * sentinel (whose count is 0: the last block always has a set bit).
 *
 * The path: SCHED_PROFILE_SIMD forces one at build time (0 scalar, 1 SSE2,
 * 2 AVX2, 3 AVX-512), so that a test build can run each; without it one is
 * chosen at run time (__builtin_cpu_supports), so one build/replay runs
 * everywhere: AVX2 where the CPU has it, not AVX-512. The search is bound by
 * its walk over runs, not by the compares, and on the AMD EPYC measured
 * (docs/bench-load.md) the AVX-512 compare's mask cost more than it saved:
 * KTH --shrink 0.5 in 5.28 s against 5.05 s with AVX2, 0.6 in 2.55 against
 * 2.44 s. Non-x86 hosts have the scalar path alone.
 */
#define SCHED_FLAT_PAD 16u

#if defined(__x86_64__) || defined(__i386__)
#define SCHED_FLAT_X86 1
#include <immintrin.h>
#else
#define SCHED_FLAT_X86 0
#endif

/* The paths, widest last. */
enum sched_flat_path { SCHED_FLAT_SCALAR, SCHED_FLAT_SSE2, SCHED_FLAT_AVX2, SCHED_FLAT_AVX512 };

/* The 16 entries from f on, one bit each (bit j: f[j] < procs, a too-full segment). The SSE2
 * and AVX2 compares are signed: both sides are biased by 2^31 first. */
#define SCHED_FLAT_BIAS ((int)0x80000000u)

static inline uint32_t flat_mask_scalar(const uint32_t *f, uint32_t procs)
{
	uint32_t m = 0;
	for (unsigned j = 0; j < 16u; j++)
		m |= (uint32_t)(f[j] < procs) << j;
	return m;
}

#if SCHED_FLAT_X86
__attribute__((target("sse2"))) static inline uint32_t flat_mask_sse2(const uint32_t *f, uint32_t procs)
{
	const __m128i bias = _mm_set1_epi32(SCHED_FLAT_BIAS);
	const __m128i w = _mm_xor_si128(_mm_set1_epi32((int)procs), bias);
	uint32_t m = 0;
	for (unsigned q = 0; q < 4u; q++) {
		__m128i v = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(const void *)(f + 4u * q)), bias);
		m |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmplt_epi32(v, w))) << (4u * q);
	}
	return m;
}

__attribute__((target("avx2"))) static inline uint32_t flat_mask_avx2(const uint32_t *f, uint32_t procs)
{
	const __m256i bias = _mm256_set1_epi32(SCHED_FLAT_BIAS);
	const __m256i w = _mm256_xor_si256(_mm256_set1_epi32((int)procs), bias);
	uint32_t m = 0;
	for (unsigned h = 0; h < 2u; h++) {
		__m256i v = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(const void *)(f + 8u * h)), bias);
		/* w > v is v < w */
		m |= (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(w, v))) << (8u * h);
	}
	return m;
}

__attribute__((target("avx512f"))) static inline uint32_t flat_mask_avx512(const uint32_t *f, uint32_t procs)
{
	return (uint32_t)_mm512_cmplt_epu32_mask(_mm512_loadu_si512((const void *)f), _mm512_set1_epi32((int)procs));
}
#endif

/* The path this build and CPU use. O(1). */
static inline enum sched_flat_path sched_flat_path(void)
{
#if defined(SCHED_PROFILE_SIMD)
	return (enum sched_flat_path)SCHED_PROFILE_SIMD;
#elif SCHED_FLAT_X86
	if (__builtin_cpu_supports("avx2"))
		return SCHED_FLAT_AVX2;
	return SCHED_FLAT_SSE2;
#else
	return SCHED_FLAT_SCALAR;
#endif
}

/*
 * Bit j set when f[j] < procs, for the 16 entries from @p f, on @p path
 * (a constant where it is inlined into that path's search). O(1).
 */
static inline uint32_t sched_flat_mask(enum sched_flat_path path, const uint32_t *f, uint32_t procs)
{
#if SCHED_FLAT_X86
	switch (path) {
	case SCHED_FLAT_AVX512:
		return flat_mask_avx512(f, procs);
	case SCHED_FLAT_AVX2:
		return flat_mask_avx2(f, procs);
	case SCHED_FLAT_SSE2:
		return flat_mask_sse2(f, procs);
	case SCHED_FLAT_SCALAR:
		break;
	}
#else
	(void)path;
#endif
	return flat_mask_scalar(f, procs);
}

#endif /* SCHED_PROFILE_SCAN_H */
