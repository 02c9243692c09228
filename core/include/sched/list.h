/* SPDX-License-Identifier: MIT */
/* Intrusive circular doubly-linked list with a sentinel head; every core container uses it. */
#ifndef SCHED_LIST_H
#define SCHED_LIST_H

#include <stddef.h>
#include <stdbool.h>

/*
 * A node lives inside the object it links. The head of a list is a node of
 * its own (the sentinel): an empty list points at itself, so insertion and
 * removal never test for NULL. Every operation here is O(1) except
 * sched_list_count(), which is O(n). No operation allocates.
 */
struct sched_list {
	struct sched_list *next;
	struct sched_list *prev;
};

/* Back from a member pointer to the object that holds it. */
#define SCHED_CONTAINER_OF(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

#define SCHED_LIST_ENTRY(node, type, member) SCHED_CONTAINER_OF(node, type, member)

/** Make @p head an empty list (or a node that belongs to no list). O(1). */
static inline void sched_list_init(struct sched_list *head)
{
	head->next = head;
	head->prev = head;
}

/** True when the list has no element. O(1). */
static inline bool sched_list_empty(const struct sched_list *head)
{
	return head->next == head;
}

/* Link @p node between two adjacent nodes. */
static inline void sched_list_link(struct sched_list *node, struct sched_list *prev,
				   struct sched_list *next)
{
	node->prev = prev;
	node->next = next;
	prev->next = node;
	next->prev = node;
}

/** Insert @p node after @p pos (pos may be the head: insert first). O(1). */
static inline void sched_list_insert_after(struct sched_list *pos, struct sched_list *node)
{
	sched_list_link(node, pos, pos->next);
}

/** Insert @p node before @p pos (pos may be the head: insert last). O(1). */
static inline void sched_list_insert_before(struct sched_list *pos, struct sched_list *node)
{
	sched_list_link(node, pos->prev, pos);
}

/** Append @p node to the list. O(1). */
static inline void sched_list_push_back(struct sched_list *head, struct sched_list *node)
{
	sched_list_insert_before(head, node);
}

/** Unlink @p node; it then points at itself so a second removal is harmless. O(1). */
static inline void sched_list_remove(struct sched_list *node)
{
	node->prev->next = node->next;
	node->next->prev = node->prev;
	sched_list_init(node);
}

/** Number of elements. O(n). */
static inline size_t sched_list_count(const struct sched_list *head)
{
	size_t n = 0;
	for (const struct sched_list *it = head->next; it != head; it = it->next)
		n++;
	return n;
}

/* Iterate over nodes; the _safe form allows removing the current node. */
#define sched_list_for_each(it, head) \
	for ((it) = (head)->next; (it) != (head); (it) = (it)->next)

#define sched_list_for_each_safe(it, tmp, head) \
	for ((it) = (head)->next, (tmp) = (it)->next; (it) != (head); \
	     (it) = (tmp), (tmp) = (it)->next)

#endif /* SCHED_LIST_H */
