/* SPDX-License-Identifier: MIT */
/* Fixed-capacity object pools over caller-owned storage, with O(1) alloc and free. */
#ifndef SCHED_POOL_H
#define SCHED_POOL_H

#include "sched/types.h"
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
	struct sched_list free_list;
};

/**
 * Prepare @p pool over @p storage holding @p capacity elements of @p elem_size
 * bytes, each embedding its list node at @p link_offset. O(capacity).
 */
void sched_pool_init(struct sched_pool *pool, void *storage, size_t elem_size,
		     size_t link_offset, uint32_t capacity);

/** Take one element; NULL (and fails++) when used == limit. O(1). */
void *sched_pool_alloc(struct sched_pool *pool);

/**
 * Return @p elem to the pool. O(1); asserts if @p elem is foreign, and (with
 * SCHED_DEBUG) if it is among the 64 most recently freed, which catches the
 * usual double free without making the planning policies' copies O(capacity).
 */
void sched_pool_free(struct sched_pool *pool, void *elem);

/** Elements that can still be allocated. O(1). */
static inline uint32_t sched_pool_available(const struct sched_pool *pool)
{
	return pool->limit - pool->used;
}

/** True when @p elem is an element of this pool's array (free or not). O(1). */
bool sched_pool_owns(const struct sched_pool *pool, const void *elem);

#endif /* SCHED_POOL_H */
