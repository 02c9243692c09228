/* SPDX-License-Identifier: MIT */
/* Small helpers private to core/src. */
#ifndef SCHED_UTIL_H
#define SCHED_UTIL_H

#include <stddef.h>

/*
 * Zero an object byte by byte. A struct assignment from a zero literal
 * makes GCC call memset, which a freestanding core must not reference;
 * under -ffreestanding this loop stays a loop.
 */
static inline void sched_zero(void *p, size_t n)
{
	unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		b[i] = 0;
}

/* Copy an object byte by byte: a large struct assignment would make GCC call memcpy. */
static inline void sched_copy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
}

#endif /* SCHED_UTIL_H */
