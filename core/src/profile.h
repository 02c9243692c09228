/* SPDX-License-Identifier: MIT */
/* The availability profile: a time-sorted linked list of "from t on, f processors are free" segments. */
#ifndef SCHED_PROFILE_H
#define SCHED_PROFILE_H

#include "sched/types.h"
#include "list.h"
#include "pool.h"
#include "sched/sched.h" /* SCHED_FLAT_BYTES */

/*
 * Seed 000 section 2.1 keeps the schedule as a linked list of free-processor
 * counts over future times, so that an allocation can split a period in two
 * and a job that extends past the end adds one item. Here each segment
 * says "from time `time` until the next segment's time, `free` processors
 * are free". The list ends in a sentinel segment at SCHED_TIME_MAX, so scans
 * need no NULL test, and the last real segment always has every processor
 * free (all reservations are finite).
 *
 * Invariants (sched_profile_check): times strictly increase; 0 <= free <=
 * procs; no two neighbours have equal free counts (they are merged); the
 * last segment is fully free. Each job in the profile adds at most two
 * breakpoints (its start and end), so n jobs need at most 2n + 1 segments.
 *
 * Complexity: with n segments, find, reserve and release are O(n) (one scan
 * from the head); trim is O(segments removed). Segments come from a pool
 * the caller owns; nothing else is allocated.
 */
struct sched_seg {
	struct sched_list link;
	sched_time_t time;   /* start of the period */
	sched_procs_t free;  /* processors free during the period */
};

struct sched_profile {
	struct sched_seg end;     /* sentinel at SCHED_TIME_MAX; end.link is the list head */
	sched_rel_t pool;         /* the struct sched_pool segments come from (self-relative) */
	sched_procs_t procs;      /* machine size */
	uint32_t count;           /* real segments in the list */
#ifdef SCHED_PROFILE_FLAT
	/* The host's arrays (profile.c, "The flat profile"): uint32_t time[flat_cap],
	 * free[flat_cap] and the saved scans in one block, or 0 when the profile has none.
	 * With them, the list is a view: list_stale says its elements must be rewritten
	 * from the arrays before anyone walks it. */
	sched_rel_t flat;
	uint32_t flat_cap;
	uint32_t list_stale;
#endif
};

#ifdef SCHED_PROFILE_FLAT
/**
 * Give @p p a flat copy in @p storage (SCHED_FLAT_BYTES(@p segs) bytes, 8-aligned, for a
 * pool of @p segs segments) and fill it from the list if @p p holds segments: searches
 * then read the arrays, and every change keeps both in step. O(n).
 */
void sched_profile_attach_flat(struct sched_profile *p, void *storage, uint32_t segs);

/** Rewrite the list's elements in order from the arrays if a change left it stale. O(n). */
void sched_profile_sync(struct sched_profile *p);

/**
 * Let find_earlier and move_earlier resume where the last scan of the same width stopped
 * (@p on), until this is called with false or anything but move_earlier changes @p p: for
 * one compression. Answers are unchanged. O(1).
 */
void sched_profile_resume(struct sched_profile *p, bool on);
#else
/* The list has nothing to resume (the board's instruction counts stay as they are). */
static inline void sched_profile_resume(struct sched_profile *p, bool on)
{
	(void)p;
	(void)on;
}
#endif

/**
 * Start an empty profile of @p procs processors, all free from @p origin on.
 * O(1). @retval SCHED_E_NOSPACE the pool has no segment. @retval SCHED_E_INVAL procs is 0.
 */
int sched_profile_init(struct sched_profile *p, struct sched_pool *pool, sched_procs_t procs,
		       sched_time_t origin);

/** Give every segment back to the pool; the profile must be re-initialised before use. O(n). */
void sched_profile_clear(struct sched_profile *p);

/* Before the list is read: on the host, rebuilt from the arrays if stale (the list is a cache
 * of them, so this writes through a const profile). O(1), or O(n) when stale. */
static inline void sched_profile_fresh(const struct sched_profile *p)
{
#ifdef SCHED_PROFILE_FLAT
	if (p->list_stale)
		sched_profile_sync((struct sched_profile *)(uintptr_t)p);
#else
	(void)p;
#endif
}

/** First real segment (never NULL after init). O(1); O(n) on the host when the list is stale. */
static inline struct sched_seg *sched_profile_first(const struct sched_profile *p)
{
	sched_profile_fresh(p);
	return SCHED_LIST_ENTRY(sched_list_next(&p->end.link), struct sched_seg, link);
}

/** Segment after @p seg, or NULL after the last real one. O(1). */
static inline struct sched_seg *sched_profile_next(const struct sched_profile *p,
						   const struct sched_seg *seg)
{
	struct sched_list *n = sched_list_next(&seg->link);
	return n == &p->end.link ? NULL : SCHED_LIST_ENTRY(n, struct sched_seg, link);
}

/** End of @p seg's period (the next segment's start; SCHED_TIME_MAX for the last). O(1). */
static inline sched_time_t sched_seg_end(const struct sched_seg *seg)
{
	return SCHED_LIST_ENTRY(sched_list_next(&seg->link), struct sched_seg, link)->time;
}

/** Last real segment (the one that is fully free). O(1); O(n) on the host when the list is stale. */
static inline struct sched_seg *sched_profile_last(const struct sched_profile *p)
{
	sched_profile_fresh(p);
	return SCHED_LIST_ENTRY(sched_list_prev(&p->end.link), struct sched_seg, link);
}

/** The profile's origin: the first segment's time. O(1). */
static inline sched_time_t sched_profile_origin(const struct sched_profile *p)
{
#ifdef SCHED_PROFILE_FLAT
	if (p->flat != 0)
		return *(const uint32_t *)sched_rel_get(&p->flat); /* time[0], without rebuilding the list */
#endif
	return sched_profile_first(p)->time;
}

/** Processors free at time @p t (t before the origin reads as the origin). O(n). */
sched_procs_t sched_profile_free_at(const struct sched_profile *p, sched_time_t t);

/**
 * The anchor point: the earliest time >= @p earliest at which @p procs
 * processors stay free for @p dur seconds. O(n), one forward scan.
 * @return the anchor, or SCHED_TIME_MAX when procs exceeds the machine, procs
 * or dur is 0, or the interval would pass SCHED_TIME_MAX.
 */
sched_time_t sched_profile_find(const struct sched_profile *p, sched_time_t earliest,
				sched_procs_t procs, sched_time_t dur);

/**
 * Could a job that holds [own_start, own_start + dur) start earlier? The
 * anchor search of sched_profile_find() for the same job, as if its own
 * reservation were released, stopping at @p own_start. Read-only, so a
 * compression can skip the jobs that cannot move. O(n) at most, and
 * usually far less: the scan stops at own_start.
 * @return an anchor < own_start, or SCHED_TIME_MAX when there is none.
 */
sched_time_t sched_profile_find_earlier(const struct sched_profile *p, sched_time_t earliest,
					sched_procs_t procs, sched_time_t dur, sched_time_t own_start);

/**
 * Move a job that holds [own_start, own_start + dur) to the anchor
 * sched_profile_find_earlier() gives, if there is one: from the anchor's
 * segment on, only the parts of the two placements that differ change, so a
 * move costs one scan, not three (with too few spare segments for that, a
 * release then a reserve). O(n). @param[out] start the new start.
 * @retval SCHED_E_RANGE it cannot start earlier (nothing changes).
 * @retval SCHED_E_NOSPACE the pool could not split: nothing changes if the release
 * failed; if the reserve did, the job is released (callers size the pool so neither can).
 */
int sched_profile_move_earlier(struct sched_profile *p, sched_time_t earliest, sched_procs_t procs,
			       sched_time_t dur, sched_time_t own_start, sched_time_t *start);

/**
 * The anchor search of sched_profile_find(), giving up at @p limit: an
 * anchor < limit, or SCHED_TIME_MAX. O(n) at most; the scan stops at limit.
 */
sched_time_t sched_profile_find_before(const struct sched_profile *p, sched_time_t earliest,
				       sched_procs_t procs, sched_time_t dur, sched_time_t limit);

/**
 * Make @p dst a copy of @p src, its segments from @p pool (dst must be
 * cleared or never initialised). O(n).
 * @retval SCHED_E_NOSPACE the pool cannot hold the copy (dst is then empty and cleared).
 */
int sched_profile_copy(struct sched_profile *dst, struct sched_pool *pool, const struct sched_profile *src);

/**
 * sched_profile_copy(), on a machine of @p procs processors with every count lowered by
 * @p less: for a profile kept on a larger machine (every count of @p src at least
 * @p less, the last procs + less; asserted). O(n). Errors as sched_profile_copy()'s.
 */
int sched_profile_copy_lowered(struct sched_profile *dst, struct sched_pool *pool, const struct sched_profile *src,
			       sched_procs_t procs, sched_procs_t less);

/**
 * Start @p p over as "@p free processors free from @p origin on", with room
 * for @p steps sched_profile_append() calls after it: the profile's segments
 * go back to @p pool first (p initialised, or cleared, or never used and
 * zeroed). For a caller that knows the whole step function, e.g. from the
 * running jobs in end order, instead of releasing reservations one by one.
 * O(1) (O(count) with SCHED_DEBUG).
 * @retval SCHED_E_NOSPACE the pool cannot hold 1 + steps segments (nothing changes; a
 * question of capacity only, never a fault-injection refusal).
 * @retval SCHED_E_INVAL procs is 0, free exceeds procs or origin is SCHED_TIME_MAX.
 */
int sched_profile_restart(struct sched_profile *p, struct sched_pool *pool, sched_procs_t procs,
			  sched_time_t origin, sched_procs_t free, uint32_t steps);

/**
 * Append "from @p t on, @p free processors free" after the last segment: t
 * later than its time, free different from its count (callers keep the
 * invariants; asserted). Uses the room sched_profile_restart() made. O(1).
 */
void sched_profile_append(struct sched_profile *p, sched_time_t t, sched_procs_t free);

/**
 * Reserve @p procs processors for @p dur seconds at the earliest anchor
 * from @p earliest (find and reserve in one scan). O(n).
 * @param[out] start the anchor chosen.
 * @retval SCHED_E_RANGE no anchor fits before SCHED_TIME_MAX, or procs exceeds the machine.
 * Other errors as for sched_profile_reserve(); on error nothing changes.
 */
int sched_profile_place(struct sched_profile *p, sched_time_t earliest, sched_procs_t procs,
			sched_time_t dur, sched_time_t *start);

/**
 * Take @p procs processors during [start, start + dur): split at most two
 * segments, subtract, merge equal neighbours. O(n).
 * @retval SCHED_E_INVAL procs or dur is 0.
 * @retval SCHED_E_RANGE start is before the origin, the end passes SCHED_TIME_MAX,
 *         or fewer than procs processors are free somewhere in the interval.
 * @retval SCHED_E_NOSPACE the segment pool cannot supply the splits.
 * On error the profile is unchanged.
 */
int sched_profile_reserve(struct sched_profile *p, sched_time_t start, sched_time_t dur,
			  sched_procs_t procs);

/**
 * Give back @p procs processors during [start, start + dur): the inverse of
 * reserve. O(n). Errors as for reserve, with SCHED_E_RANGE when the release
 * would free more processors than the machine has. On error the profile is unchanged.
 */
int sched_profile_release(struct sched_profile *p, sched_time_t start, sched_time_t dur,
			  sched_procs_t procs);

/**
 * Reserve or release as sched_profile_reserve() and sched_profile_release()
 * do, the scan starting at @p *cursor instead of the head when that segment
 * is not after @p start; then *cursor is a segment before @p start that the
 * call left in place. A run of calls in ascending start order with one
 * cursor (NULL at first) walks the list about once in all instead of once
 * each. The cursor is valid until another kind of call changes @p p.
 * O(segments from the cursor to the interval's end). Errors as theirs.
 */
int sched_profile_reserve_from(struct sched_profile *p, const struct sched_seg **cursor, sched_time_t start,
			       sched_time_t dur, sched_procs_t procs);
int sched_profile_release_from(struct sched_profile *p, const struct sched_seg **cursor, sched_time_t start,
			       sched_time_t dur, sched_procs_t procs);

/**
 * Move a reservation of @p procs processors for @p dur seconds from @p from to @p to:
 * the profile release then reserve give, but only the parts of the two placements that
 * differ are walked over twice, so a move by less than @p dur costs about the move, not
 * the job. @p cursor as for sched_profile_reserve_from(), for the earlier of the two
 * starts. O(segments from the cursor to to + dur). Errors as theirs, checked before
 * anything changes (on error nothing changes).
 */
int sched_profile_move_from(struct sched_profile *p, const struct sched_seg **cursor, sched_time_t from,
			    sched_time_t to, sched_time_t dur, sched_procs_t procs);

/**
 * Forget the past: drop segments that end at or before @p now and move the
 * origin up to @p now. Nothing at or after @p now changes. O(segments dropped).
 */
void sched_profile_trim(struct sched_profile *p, sched_time_t now);

/**
 * Verify the invariants listed above. O(n).
 * @retval SCHED_OK all hold. @retval SCHED_E_STATE one is broken.
 */
int sched_profile_check(const struct sched_profile *p);

#endif /* SCHED_PROFILE_H */
