/* SPDX-License-Identifier: MIT */
/* Pieces of the gang scheduler open to the unit tests (core/src only; not part of the API). */
#ifndef SCHED_GANG_PRIV_H
#define SCHED_GANG_PRIV_H

#include "sched/gang.h"

/* A job record by the caller's id, or NULL. O(jobs). */
struct sched_gang_job *sched_gang_find(struct sched_gang *g, uint32_t id);

/*
 * Put a new job into slot position `pos` (an existing slot, or n_slots for a
 * new one) on buddy block `block`, bypassing the scheme: the tests build
 * exact layouts with it. The block must be free there. Returns the job or NULL.
 */
struct sched_gang_job *sched_gang_place_at(struct sched_gang *g, uint32_t id, uint32_t procs, uint32_t quanta,
					   uint32_t pos, uint32_t block);

/* The job leaves now, as at its last quantum, and the scheme reacts (re-packing, slots, waiting jobs). */
void sched_gang_end(struct sched_gang *g, struct sched_gang_job *j);

/* Re-pack so that the aligned block [b, b + m) is free in one slot; returns that row. Needs an idle slot on every processor of the block. */
uint32_t sched_gang_free_slot(struct sched_gang *g, uint32_t b, uint32_t m);

#endif /* SCHED_GANG_PRIV_H */
