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
	sched_list_init(&pool->free_list);
	/* Push in reverse so the first allocations come from the start of the array. */
	for (uint32_t i = capacity; i > 0; i--) {
		void *elem = (unsigned char *)storage + (size_t)(i - 1) * elem_size;
		sched_list_insert_after(&pool->free_list, link_of(pool, elem));
	}
}

bool sched_pool_owns(const struct sched_pool *pool, const void *elem)
{
	const unsigned char *p = elem, *base = base_of(pool);
	if (p < base)
		return false;
	size_t off = (size_t)(p - base);
	return off < (size_t)pool->capacity * pool->elem_size && off % pool->elem_size == 0;
}

void *sched_pool_alloc(struct sched_pool *pool)
{
	if (pool->used >= pool->limit || sched_list_empty(&pool->free_list)) {
		pool->fails++;
		return NULL;
	}
	struct sched_list *link = sched_list_first(&pool->free_list);
	sched_list_remove(link);
	pool->used++;
	if (pool->used > pool->max_used)
		pool->max_used = pool->used;
	return elem_of(pool, link);
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
