/* SPDX-License-Identifier: MIT */
/* Fixed-capacity object pools over caller-owned storage, with O(1) alloc and free. */
#ifndef SCHED_POOL_H
#define SCHED_POOL_H

#include "sched/types.h"
#include "failpoint.h"
#include "list.h"

/*
 * A pool hands out equal-sized elements from one array the caller owns. The
 * free list is threaded through a struct sched_list that each element
 * embeds at link_offset, so a free element costs no memory beyond itself.
 * Running out is an ordinary condition: alloc returns NULL and counts a
 * failure. Freeing a pointer the pool did not hand out is a programmer
 * error and asserts.
 */
struct sched_pool {
	sched_rel_t base;      /* first element (self-relative: the pool may move with its arena) */
	size_t elem_size;      /* bytes per element, including padding */
	size_t link_offset;    /* where the element's struct sched_list lives */
	uint32_t capacity;     /* elements in the array */
	uint32_t limit;        /* elements that may be in use at once (<= capacity; tests lower it) */
	uint32_t used;         /* elements in use now */
	uint32_t max_used;     /* high-water mark of used */
	uint32_t fails;        /* allocations refused because the pool was at its limit */
	uint32_t fresh;        /* elements at the array's end never handed out: on no list, never
				* written, so a large pool costs memory only as it is used */
	/*
	 * enum sched_fail_site its allocations count at. Only the san build reads it, but every
	 * build has it: the state is saved byte for byte (the console's store), and a field that
	 * only some builds have moves the fields after it, so a store the san build wrote was
	 * refused by the release build of the same commit and formatted (issue 25, item 0.3).
	 */
	uint8_t site;
	struct sched_list free_list;
};

/**
 * Prepare @p pool over @p storage holding @p capacity elements of @p elem_size
 * bytes, each embedding its list node at @p link_offset. O(1): no element is
 * written until it is first handed out.
 */
void sched_pool_init(struct sched_pool *pool, void *storage, size_t elem_size,
		     size_t link_offset, uint32_t capacity);

/** Take one element; NULL (and fails++) when used == limit, or when fault injection says so. O(1). */
void *sched_pool_alloc(struct sched_pool *pool);

/**
 * May @p count elements be taken now? The one question callers ask before
 * taking several at once (sched_pool_alloc_chain, sched_pool_take), so that a
 * refusal comes before anything changes. false (and fails++) when fewer are
 * available, or when fault injection says so; count 0 is always true. O(1).
 */
bool sched_pool_room(struct sched_pool *pool, uint32_t count);

/**
 * Take one element the caller has already made room for (sched_pool_room, or
 * a bound it has proved): never fails, asserts if the pool is empty. O(1).
 */
void *sched_pool_take(struct sched_pool *pool);

/**
 * Return @p elem to the pool. O(1); asserts if @p elem is foreign, and (with
 * SCHED_DEBUG) if it is among the 64 most recently freed, which catches the
 * usual double free without making the planning policies' copies O(capacity).
 */
void sched_pool_free(struct sched_pool *pool, void *elem);

/**
 * Return every element of list @p elems (@p count of them, each linked
 * through its pool link) at once; @p elems is then empty. O(1) (O(count)
 * with SCHED_DEBUG, which checks each one).
 */
void sched_pool_free_all(struct sched_pool *pool, struct sched_list *elems, uint32_t count);

/**
 * Take @p count elements at once (at most sched_pool_available(); ask
 * sched_pool_room() first) and append them, linked through their pool links,
 * to list @p to. Never fails. O(count), one pass: the free list is already a chain of them.
 */
void sched_pool_alloc_chain(struct sched_pool *pool, uint32_t count, struct sched_list *to);

/** Elements that can still be allocated. O(1). */
static inline uint32_t sched_pool_available(const struct sched_pool *pool)
{
	return pool->limit - pool->used;
}

/** Name the fault-injection site this pool's allocations count at (read only with SCHED_FAILPOINTS). O(1). */
static inline void sched_pool_set_site(struct sched_pool *pool, enum sched_fail_site site)
{
	pool->site = (uint8_t)site;
}

/** True when @p elem is an element of this pool's array (free or not). O(1). */
bool sched_pool_owns(const struct sched_pool *pool, const void *elem);

#endif /* SCHED_POOL_H */
