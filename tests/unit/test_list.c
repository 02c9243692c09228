/* SPDX-License-Identifier: MIT */
/* Unit tests of the intrusive list. */
#include <string.h>

#include "harness.h"
#include "list.h"

struct item {
	int value;
	struct sched_list link;
};

static void empty_list(void)
{
	struct sched_list head;
	sched_list_init(&head);
	CHECK(sched_list_empty(&head));
	CHECK_EQ(sched_list_count(&head), 0);
	CHECK(sched_list_next(&head) == &head && sched_list_prev(&head) == &head);
}

static void order_of_inserts(void)
{
	struct sched_list head;
	struct item it[4] = {{.value = 0}, {.value = 1}, {.value = 2}, {.value = 3}};
	sched_list_init(&head);
	sched_list_push_back(&head, &it[1].link);
	sched_list_push_back(&head, &it[3].link);
	sched_list_insert_after(&head, &it[0].link);        /* first */
	sched_list_insert_before(&it[3].link, &it[2].link); /* between 1 and 3 */
	CHECK_EQ(sched_list_count(&head), 4);
	int expect = 0;
	struct sched_list *n;
	sched_list_for_each(n, &head) {
		CHECK_EQ(SCHED_LIST_ENTRY(n, struct item, link)->value, expect);
		expect++;
	}
	CHECK_EQ(expect, 4);
	/* Backwards through prev links as well. */
	int back = 3;
	for (n = sched_list_prev(&head); n != &head; n = sched_list_prev(n))
		CHECK_EQ(SCHED_LIST_ENTRY(n, struct item, link)->value, back--);
}

static void remove_while_iterating(void)
{
	struct sched_list head;
	struct item it[6];
	sched_list_init(&head);
	for (int i = 0; i < 6; i++) {
		it[i].value = i;
		sched_list_push_back(&head, &it[i].link);
	}
	struct sched_list *n, *tmp;
	sched_list_for_each_safe(n, tmp, &head) {
		if (SCHED_LIST_ENTRY(n, struct item, link)->value % 2 == 0)
			sched_list_remove(n);
	}
	CHECK_EQ(sched_list_count(&head), 3);
	int expect = 1;
	sched_list_for_each(n, &head) {
		CHECK_EQ(SCHED_LIST_ENTRY(n, struct item, link)->value, expect);
		expect += 2;
	}
	/* A removed node points at itself, so removing it again changes nothing. */
	CHECK(sched_list_next(&it[0].link) == &it[0].link);
	sched_list_remove(&it[0].link);
	CHECK_EQ(sched_list_count(&head), 3);
}

/* Links are offsets: a byte copy of a block holding a list and its nodes is the same list there. */
static void a_byte_copy_is_the_same_list(void)
{
	struct block {
		struct sched_list head;
		struct item it[5];
		sched_rel_t ref; /* a self-relative reference to it[3] */
	};
	static struct block a, b;
	sched_list_init(&a.head);
	for (int i = 0; i < 5; i++) {
		a.it[i].value = 10 * i;
		sched_list_push_back(&a.head, &a.it[i].link);
	}
	sched_list_remove(&a.it[2].link);
	sched_rel_set(&a.ref, &a.it[3]);
	memcpy(&b, &a, sizeof b);
	memset(&a, 0xA5, sizeof a); /* nothing in b may lead back into a */
	int want[] = {0, 10, 30, 40}, k = 0;
	struct sched_list *n;
	sched_list_for_each(n, &b.head) {
		CHECK((char *)n >= (char *)&b && (char *)n < (char *)(&b + 1));
		CHECK_EQ(SCHED_LIST_ENTRY(n, struct item, link)->value, want[k]);
		k++;
	}
	CHECK_EQ(k, 4);
	CHECK(sched_rel_get(&b.ref) == &b.it[3]);
	sched_rel_set(&b.ref, NULL);
	CHECK(sched_rel_get(&b.ref) == NULL);
	/* A zeroed node is an empty list. */
	struct sched_list z;
	memset(&z, 0, sizeof z);
	CHECK(sched_list_empty(&z));
}

static void container_of_round_trip(void)
{
	struct item x = {.value = 42};
	CHECK(SCHED_CONTAINER_OF(&x.link, struct item, link) == &x);
}

static const struct test tests[] = {
	{"empty_list", empty_list},
	{"order_of_inserts", order_of_inserts},
	{"remove_while_iterating", remove_while_iterating},
	{"a_byte_copy_is_the_same_list", a_byte_copy_is_the_same_list},
	{"container_of_round_trip", container_of_round_trip},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("list", tests, argc, argv);
}
