/* SPDX-License-Identifier: MIT */
/* The replay engine's registers and tables: private to core/src/replay.c (and tools/probe/sizes.c, which measures them). */
#ifndef SCHED_REPLAY_PRIV_H
#define SCHED_REPLAY_PRIV_H

#include "sched/replay.h"

/* What the engine keeps per job in the system beyond the core's own record (SCHED_REPLAY_SLOT_BYTES). */
struct sched_replay_slot {
	uint32_t seq;
	sched_time_t run;
	uint32_t next_free;
};

/* A job that ends by itself at `end` (SCHED_REPLAY_PENDING_BYTES). */
struct sched_replay_pending {
	sched_time_t end;
	uint32_t seq;
	uint32_t slot;
};

/*
 * The engine's registers, in the caller's room of SCHED_REPLAY_BYTES. Its
 * memory (the scheduler, the slots, the heap) is one arena,
 * position-independent like the scheduler's: sched_replay_move() carries a
 * replay on in a byte copy of it. The registers themselves do not move.
 */
struct sched_replay {
	struct sched *sched;              /* the scheduler, at the arena's start (every policy, gang too) */
	struct sched_config cfg;
	void *sched_arena;
	size_t sched_arena_size;
	struct sched_replay_slot *slots;
	uint32_t free_slot;               /* head of the free slots, or UINT32_MAX */
	struct sched_replay_pending *heap;
	uint32_t heap_n;
	struct sched_metrics metrics;     /* of the jobs that ran */
	uint64_t hash;                    /* FNV-1a 64 of the event stream (docs/console.md) */
	uint32_t jobs;                    /* jobs read from the source */
	uint32_t refused;                 /* for room, or because their queue's limits exclude them */
	uint64_t calls;                   /* core API calls made */
	bool check;                       /* SCHED_REPLAY_CHECK: sched_check() after every call */
	bool no_hash;                     /* SCHED_REPLAY_NO_HASH: `hash` stays as it starts */
	bool every_quantum;               /* SCHED_REPLAY_EVERY_QUANTUM: a SWITCH for every quantum, never a SKIP
					   * (sched_config.every_slice) */
	sched_replay_event_fn on_event;
	void *event_ctx;
	sched_replay_step_fn on_step;     /* NULL, or set by sched_replay_on_step() */
};

#endif /* SCHED_REPLAY_PRIV_H */
