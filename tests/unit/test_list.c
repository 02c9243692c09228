/* SPDX-License-Identifier: MIT */
/* Unit tests of the intrusive list. */
#include "harness.h"
#include "sched/list.h"

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
	CHECK(head.next == &head && head.prev == &head);
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
	/* Backwards through prev links as well. */
	expect = 3;
	for (n = head.prev; n != &head; n = n->prev)
		CHECK_EQ(SCHED_LIST_ENTRY(n, struct item, link)->value, expect--);
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
	CHECK(it[0].link.next == &it[0].link);
	sched_list_remove(&it[0].link);
	CHECK_EQ(sched_list_count(&head), 3);
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
	{"container_of_round_trip", container_of_round_trip},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("list", tests, argc, argv);
}
