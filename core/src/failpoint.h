/* SPDX-License-Identifier: MIT */
/* Fault injection: one point every allocation of the core passes through (test builds only). */
#ifndef SCHED_FAILPOINT_H
#define SCHED_FAILPOINT_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Every place where the core takes memory from a preallocated pool or arena
 * region asks SCHED_FAIL(site) first, and treats a true answer exactly as if
 * that pool were exhausted there: sched_pool_alloc() and sched_pool_room()
 * (core/src/pool.c) for the pools, and the scratch's, the gang module's and
 * the replay engine's own checks. Work that takes several elements asks once
 * for the most it can need (sched_pool_room: each call's profile segments,
 * each plan tried in the scratch) and then takes them without asking again,
 * so a refusal always comes before anything has changed.
 *
 * In the san build (-DSCHED_FAILPOINTS) a test can make the k-th allocation
 * fail and check that the call returned its error, or took its documented
 * fallback, and harmed nothing (tests/unit/test_failk.c; SQLite and lwIP
 * test exhaustion this way). Without the macro SCHED_FAIL is the constant
 * false: release and board builds carry no code for it, and of its state only
 * each pool's one-byte site (core/src/pool.h), which every build keeps so
 * that the saved state has one layout. The rest of the state is one
 * process-wide record, the core's only global, and it exists only in
 * (single-threaded) test programs.
 */

/* Where an allocation happens; a test may aim at a set of them (a mask of 1u << site). */
enum sched_fail_site {
	SCHED_FAIL_NONE,        /* nothing failed (yet) */
	SCHED_FAIL_POOL,        /* a pool no site was named for (the pool's own unit tests) */
	SCHED_FAIL_JOB,         /* a job slot: sched_submit */
	SCHED_FAIL_SEGMENT,     /* live profile segments: sched_init's base ones, and each call's cover */
	SCHED_FAIL_SCRATCH_JOBS, /* the planning scratch's per-job arrays: room for the backlog */
	SCHED_FAIL_SCRATCH_SEGS, /* the planning scratch's segments: a copy of the profiles to try a plan in */
	SCHED_FAIL_GANG_JOB,    /* a job record of the gang module: sched_gang_submit */
	SCHED_FAIL_GANG_SLOT,   /* a time slot (a row of the matrix) of the gang module */
	SCHED_FAIL_REPLAY_SLOT, /* the replay engine's record of a job in the system */
	SCHED_FAIL_SITE_COUNT
};

#define SCHED_FAIL_ALL_SITES ((1u << SCHED_FAIL_SITE_COUNT) - 2u) /* every site but NONE */

#ifdef SCHED_FAILPOINTS

/** Count an allocation at @p site; true when it is the one armed to fail (it then disarms). O(1). */
bool sched_fail(enum sched_fail_site site);

/** Disarm and zero every count. O(sites). */
void sched_fail_reset(void);

/**
 * Make the @p k-th allocation from now at one of @p sites (a mask of
 * 1u << site) fail, once; k = 0 disarms. Clears what sched_fail_fired() reports. O(1).
 */
void sched_fail_arm(uint64_t k, unsigned sites);

/** Allocations seen at @p site since the last reset (SCHED_FAIL_NONE: at every site). O(sites). */
uint64_t sched_fail_seen(enum sched_fail_site site);

/** Where the armed failure happened, or SCHED_FAIL_NONE if it has not (yet). O(1). */
enum sched_fail_site sched_fail_fired(void);

/** A site's name for messages ("job", "segment", ...), or "?". O(1). */
const char *sched_fail_site_name(enum sched_fail_site site);

#define SCHED_FAIL(site) sched_fail(site)

#else

#define SCHED_FAIL(site) false

#endif /* SCHED_FAILPOINTS */

#endif /* SCHED_FAILPOINT_H */
