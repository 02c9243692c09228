/* SPDX-License-Identifier: MIT */
/* FNV-1a 64: one definition that the replay engine, the console and the replayer share, so their hashes cannot drift. */
#include "sched/hash.h"

uint64_t sched_fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull; /* the FNV 64-bit prime */
	}
	return h;
}
