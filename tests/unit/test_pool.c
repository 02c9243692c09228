/* SPDX-License-Identifier: MIT */
/* Unit tests of the fixed-capacity pools. */
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

static const struct test tests[] = {
	{"fill_and_refuse", fill_and_refuse},
	{"limit_lowers_capacity", limit_lowers_capacity},
	{"ownership", ownership},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("pool", tests, argc, argv);
}
