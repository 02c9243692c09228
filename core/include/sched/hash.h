/* SPDX-License-Identifier: MIT */
/* The project's one hash: FNV-1a 64, for the schedule hash, the console's digest and trace fingerprints. */
#ifndef SCHED_HASH_H
#define SCHED_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a 64's offset basis: the hash of no bytes, where every hash starts. */
#define SCHED_FNV_OFFSET 0xcbf29ce484222325ull

/** Feed @p n bytes from @p p into the FNV-1a 64 hash @p h; the new hash. O(n); no error. */
uint64_t sched_fnv1a(uint64_t h, const uint8_t *p, size_t n);

#endif /* SCHED_HASH_H */
