/* SPDX-License-Identifier: MIT */
/* Fixed-capacity object pools: a free list threaded through the elements themselves. */
#include "pool.h"

static unsigned char *base_of(const struct sched_pool *pool)
{
	return sched_rel_get(&pool->base);
}

static struct sched_list *link_of(const struct sched_pool *pool, void *elem)
{
	return (struct sched_list *)(void *)((unsigned char *)elem + pool->link_offset);
}

static void *elem_of(const struct sched_pool *pool, struct sched_list *link)
{
	return (unsigned char *)link - pool->link_offset;
}

void sched_pool_init(struct sched_pool *pool, void *storage, size_t elem_size,
		     size_t link_offset, uint32_t capacity)
{
	SCHED_ASSERT(link_offset + sizeof(struct sched_list) <= elem_size);
	sched_rel_set(&pool->base, storage);
	pool->elem_size = elem_size;
	pool->link_offset = link_offset;
	pool->capacity = capacity;
	pool->limit = capacity;
	pool->used = 0;
	pool->max_used = 0;
	pool->fails = 0;
	pool->fresh = capacity;
	sched_list_init(&pool->free_list);
	sched_pool_set_site(pool, SCHED_FAIL_POOL);
}

/*
 * The next never-used element. Handing them out in array order, after every
 * freed one, is the order a free list holding the whole array (freed ones
 * pushed at its front) would give: allocation order does not depend on it.
 */
static void *take_fresh(struct sched_pool *pool)
{
	uint32_t i = pool->capacity - pool->fresh--;
	return base_of(pool) + (size_t)i * pool->elem_size;
}

bool sched_pool_owns(const struct sched_pool *pool, const void *elem)
{
	const unsigned char *p = elem, *base = base_of(pool);
	if (p < base)
		return false;
	size_t off = (size_t)(p - base);
	return off < (size_t)pool->capacity * pool->elem_size && off % pool->elem_size == 0;
}

#ifdef SCHED_FAILPOINTS
#define POOL_FAIL(pool) SCHED_FAIL((enum sched_fail_site)(pool)->site)
#else
#define POOL_FAIL(pool) false
#endif

void *sched_pool_alloc(struct sched_pool *pool)
{
	if (pool->used >= pool->limit || (sched_list_empty(&pool->free_list) && pool->fresh == 0) ||
	    POOL_FAIL(pool)) {
		pool->fails++;
		return NULL;
	}
	return sched_pool_take(pool);
}

bool sched_pool_room(struct sched_pool *pool, uint32_t count)
{
	if (count == 0)
		return true;
	if (count > sched_pool_available(pool) || POOL_FAIL(pool)) {
		pool->fails++;
		return false;
	}
	return true;
}

void *sched_pool_take(struct sched_pool *pool)
{
	SCHED_ASSERT(pool->used < pool->limit && (!sched_list_empty(&pool->free_list) || pool->fresh > 0));
	void *elem;
	if (sched_list_empty(&pool->free_list)) {
		elem = take_fresh(pool);
	} else {
		struct sched_list *link = sched_list_first(&pool->free_list);
		sched_list_remove(link);
		elem = elem_of(pool, link);
	}
	pool->used++;
	if (pool->used > pool->max_used)
		pool->max_used = pool->used;
	return elem;
}

void sched_pool_free(struct sched_pool *pool, void *elem)
{
	SCHED_ASSERT(sched_pool_owns(pool, elem));
	SCHED_ASSERT(pool->used > 0);
#ifdef SCHED_DEBUG
	/* Freed elements go to the front, so a recent double free is found near it. */
	struct sched_list *it = sched_list_first(&pool->free_list);
	for (int k = 0; k < 64 && it != &pool->free_list; k++, it = sched_list_next(it))
		SCHED_ASSERT(it != link_of(pool, elem));
#endif
	pool->used--;
	sched_list_insert_after(&pool->free_list, link_of(pool, elem));
}

void sched_pool_free_all(struct sched_pool *pool, struct sched_list *elems, uint32_t count)
{
	SCHED_ASSERT(pool->used >= count);
#ifdef SCHED_DEBUG
	uint32_t n = 0;
	struct sched_list *it;
	sched_list_for_each(it, elems) {
		SCHED_ASSERT(sched_pool_owns(pool, elem_of(pool, it)));
		n++;
	}
	SCHED_ASSERT(n == count);
#endif
	pool->used -= count;
	sched_list_splice_front(&pool->free_list, elems);
}

void sched_pool_alloc_chain(struct sched_pool *pool, uint32_t count, struct sched_list *to)
{
	SCHED_ASSERT(count <= sched_pool_available(pool));
	if (count == 0)
		return;
	struct sched_list *head = &pool->free_list;
	/* Freed elements come first; fresh ones join the free list's tail in array order. */
	for (uint32_t listed = pool->capacity - pool->fresh - pool->used; listed < count; listed++)
		sched_list_insert_before(head, link_of(pool, take_fresh(pool)));
	struct sched_list *first = sched_list_next(head), *last = first;
	for (uint32_t i = 1; i < count; i++)
		last = sched_list_next(last);
	/* Cut [first, last] out of the free list and hang it at the end of `to`. */
	struct sched_list *rest = sched_list_next(last), *tail = sched_list_prev(to);
	sched_list_set_next(head, rest);
	sched_list_set_prev(rest, head);
	sched_list_set_next(tail, first);
	sched_list_set_prev(first, tail);
	sched_list_set_next(last, to);
	sched_list_set_prev(to, last);
	pool->used += count;
	if (pool->used > pool->max_used)
		pool->max_used = pool->used;
}
