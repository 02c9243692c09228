/* SPDX-License-Identifier: MIT */
/* Unit tests of the fixed-capacity pools. */
#include <string.h>

#include "harness.h"
#include "pool.h"

struct elem {
	uint64_t payload;
	struct sched_list link;
};

#define N 8

static void fill_and_refuse(void)
{
	struct elem storage[N];
	struct sched_pool pool;
	sched_pool_init(&pool, storage, sizeof storage[0], offsetof(struct elem, link), N);
	struct elem *got[N];
	for (int i = 0; i < N; i++) {
		got[i] = sched_pool_alloc(&pool);
		CHECK(got[i] != NULL);
		CHECK(sched_pool_owns(&pool, got[i]));
		got[i]->payload = (uint64_t)i;
	}
	CHECK_EQ(pool.used, N);
	CHECK(sched_pool_alloc(&pool) == NULL);
	CHECK_EQ(pool.fails, 1);
	/* Distinct elements: no two allocations alias. */
	for (int i = 0; i < N; i++)
		CHECK_EQ(got[i]->payload, i);
	sched_pool_free(&pool, got[3]);
	CHECK_EQ(pool.used, N - 1);
	struct elem *again = sched_pool_alloc(&pool);
	CHECK(again == got[3]); /* LIFO reuse keeps recently touched memory hot */
	CHECK_EQ(pool.max_used, N);
	for (int i = 0; i < N; i++)
		sched_pool_free(&pool, got[i]);
	CHECK_EQ(pool.used, 0);
	CHECK_EQ(sched_pool_available(&pool), N);
}

static void limit_lowers_capacity(void)
{
	struct elem storage[N];
	struct sched_pool pool;
	sched_pool_init(&pool, storage, sizeof storage[0], offsetof(struct elem, link), N);
	pool.limit = 2;
	CHECK(sched_pool_alloc(&pool) != NULL);
	CHECK(sched_pool_alloc(&pool) != NULL);
	CHECK(sched_pool_alloc(&pool) == NULL);
	CHECK_EQ(pool.fails, 1);
	CHECK_EQ(sched_pool_available(&pool), 0);
}

static void ownership(void)
{
	struct elem storage[N];
	struct elem outsider;
	struct sched_pool pool;
	sched_pool_init(&pool, storage, sizeof storage[0], offsetof(struct elem, link), N);
	CHECK(sched_pool_owns(&pool, &storage[0]));
	CHECK(sched_pool_owns(&pool, &storage[N - 1]));
	CHECK(!sched_pool_owns(&pool, &outsider));
	CHECK(!sched_pool_owns(&pool, (char *)&storage[1] + 1)); /* misaligned inside the array */
	CHECK(!sched_pool_owns(&pool, &storage[N]));             /* one past the end */
}

/*
 * Against a model of the pool as it was before elements were handed out
 * lazily: one free list holding the whole array in order, allocations from
 * its front, frees and returned chains pushed at its front. Random
 * operations must get the same elements in the same order; and no element
 * is written before it is first handed out.
 */
#define M 64
static void lazy_matches_whole_free_list(void)
{
	static struct elem storage[M];
	struct sched_pool pool;
	memset(storage, 0xA5, sizeof storage);
	sched_pool_init(&pool, storage, sizeof storage[0], offsetof(struct elem, link), M);
	const unsigned char *raw = (const unsigned char *)storage;
	for (size_t i = 0; i < sizeof storage; i++)
		CHECK_EQ(raw[i], 0xA5);
	int model[M], nfree = M; /* model[0] is the front of the free list */
	for (int i = 0; i < M; i++)
		model[i] = i;
	int used[M], nused = 0;
	uint32_t x = 12345u;
	for (int step = 0; step < 20000; step++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		unsigned op = x % 4;
		if (op <= 1 && nfree > 0) { /* one element */
			struct elem *e = sched_pool_alloc(&pool);
			CHECK(e == &storage[model[0]]);
			used[nused++] = model[0];
			memmove(model, model + 1, (size_t)--nfree * sizeof model[0]);
		} else if (op == 2 && nused > 0) { /* free a random one */
			int k = (int)((x >> 8) % (uint32_t)nused);
			sched_pool_free(&pool, &storage[used[k]]);
			memmove(model + 1, model, (size_t)nfree++ * sizeof model[0]);
			model[0] = used[k];
			used[k] = used[--nused];
		} else if (op == 3 && nfree > 0) { /* a chain, then give it back whole */
			uint32_t c = 1 + (x >> 8) % (uint32_t)nfree;
			struct sched_list chain;
			sched_list_init(&chain);
			sched_pool_alloc_chain(&pool, c, &chain);
			uint32_t i = 0;
			struct sched_list *it;
			sched_list_for_each(it, &chain) {
				CHECK(it == &storage[model[i]].link);
				i++;
			}
			CHECK_EQ(i, c);
			sched_pool_free_all(&pool, &chain, c); /* the same elements, the same order, at the front */
		}
		CHECK_EQ(pool.used, (uint32_t)nused);
	}
}

static const struct test tests[] = {
	{"fill_and_refuse", fill_and_refuse},
	{"limit_lowers_capacity", limit_lowers_capacity},
	{"ownership", ownership},
	{"lazy_matches_whole_free_list", lazy_matches_whole_free_list},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("pool", tests, argc, argv);
}
