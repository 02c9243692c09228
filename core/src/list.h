/* SPDX-License-Identifier: MIT */
/* Intrusive circular doubly-linked list with a sentinel head, linked by self-relative offsets. */
#ifndef SCHED_LIST_H
#define SCHED_LIST_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * A node lives inside the object it links. The head of a list is a node of
 * its own (the sentinel): an empty list points at itself, so insertion and
 * removal never test for NULL. Every operation here is O(1) except
 * sched_list_count(), which is O(n). No operation allocates.
 *
 * Links are not pointers but the byte distance from the node to its
 * neighbour (a self-relative offset). A byte copy of a memory block that
 * holds every node of a list (the scheduler's arena) is then the same list
 * at the copy's address: this is what makes the scheduler's state
 * position-independent (a checkpoint is a copy). A zeroed node is an empty
 * list.
 */
struct sched_list {
	intptr_t next; /* distance from this node to the next one, bytes */
	intptr_t prev; /* distance from this node to the previous one */
};

/*
 * A self-relative reference to an object elsewhere in the same block: the
 * distance from the reference itself to the object; 0 means "none" (an
 * object never refers to its own first byte).
 */
typedef intptr_t sched_rel_t;

static inline void *sched_rel_get(const sched_rel_t *r)
{
	return *r == 0 ? NULL : (void *)((uintptr_t)r + (uintptr_t)*r);
}

static inline void sched_rel_set(sched_rel_t *r, const void *target)
{
	*r = target == NULL ? 0 : (intptr_t)((uintptr_t)target - (uintptr_t)r);
}

/* Back from a member pointer to the object that holds it. */
#define SCHED_CONTAINER_OF(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

#define SCHED_LIST_ENTRY(node, type, member) SCHED_CONTAINER_OF(node, type, member)

/** The node after @p n (the head after the last element). O(1). */
static inline struct sched_list *sched_list_next(const struct sched_list *n)
{
	return (struct sched_list *)((uintptr_t)n + (uintptr_t)n->next);
}

/** The node before @p n (the head before the first element). O(1). */
static inline struct sched_list *sched_list_prev(const struct sched_list *n)
{
	return (struct sched_list *)((uintptr_t)n + (uintptr_t)n->prev);
}

static inline void sched_list_set_next(struct sched_list *n, const struct sched_list *to)
{
	n->next = (intptr_t)((uintptr_t)to - (uintptr_t)n);
}

static inline void sched_list_set_prev(struct sched_list *n, const struct sched_list *to)
{
	n->prev = (intptr_t)((uintptr_t)to - (uintptr_t)n);
}

/** Make @p head an empty list (or a node that belongs to no list). O(1). */
static inline void sched_list_init(struct sched_list *head)
{
	head->next = 0;
	head->prev = 0;
}

/** True when the list has no element. O(1). */
static inline bool sched_list_empty(const struct sched_list *head)
{
	return head->next == 0;
}

/* Link @p node between two adjacent nodes. */
static inline void sched_list_link(struct sched_list *node, struct sched_list *prev,
				   struct sched_list *next)
{
	sched_list_set_prev(node, prev);
	sched_list_set_next(node, next);
	sched_list_set_next(prev, node);
	sched_list_set_prev(next, node);
}

/** Insert @p node after @p pos (pos may be the head: insert first). O(1). */
static inline void sched_list_insert_after(struct sched_list *pos, struct sched_list *node)
{
	sched_list_link(node, pos, sched_list_next(pos));
}

/** Insert @p node before @p pos (pos may be the head: insert last). O(1). */
static inline void sched_list_insert_before(struct sched_list *pos, struct sched_list *node)
{
	sched_list_link(node, sched_list_prev(pos), pos);
}

/** Append @p node to the list. O(1). */
static inline void sched_list_push_back(struct sched_list *head, struct sched_list *node)
{
	sched_list_insert_before(head, node);
}

/** Unlink @p node; it then points at itself so a second removal is harmless. O(1). */
static inline void sched_list_remove(struct sched_list *node)
{
	struct sched_list *prev = sched_list_prev(node), *next = sched_list_next(node);
	sched_list_set_next(prev, next);
	sched_list_set_prev(next, prev);
	sched_list_init(node);
}

/** First element's node, or the head itself when empty. O(1). */
static inline struct sched_list *sched_list_first(const struct sched_list *head)
{
	return sched_list_next(head);
}

/** Number of elements. O(n). */
static inline size_t sched_list_count(const struct sched_list *head)
{
	size_t n = 0;
	for (const struct sched_list *it = sched_list_next(head); it != head; it = sched_list_next(it))
		n++;
	return n;
}

/* Iterate over nodes; the _safe form allows removing the current node. */
#define sched_list_for_each(it, head) \
	for ((it) = sched_list_next(head); (it) != (head); (it) = sched_list_next(it))

#define sched_list_for_each_safe(it, tmp, head) \
	for ((it) = sched_list_next(head), (tmp) = sched_list_next(it); (it) != (head); \
	     (it) = (tmp), (tmp) = sched_list_next(it))

#endif /* SCHED_LIST_H */
