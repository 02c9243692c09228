/* SPDX-License-Identifier: MIT */
/* Pieces of the gang scheduler open to the unit tests (core/src only; not part of the API). */
#ifndef SCHED_GANG_PRIV_H
#define SCHED_GANG_PRIV_H

#include "sched/gang.h"
#include "list.h"

#define SCHED_GANG_MAGIC ((uint32_t)(0x47414e00u | sizeof(intptr_t))) /* "GAN" and the link size */

struct sched_gang_job {
	struct sched_list link;  /* placed jobs in arrival order, or the waiting queue */
	uint32_t id;
	uint32_t procs;          /* p */
	uint32_t block, size;    /* its buddy block [block, block + size) */
	uint32_t remaining;      /* quanta still to run */
	uint32_t quanta;         /* quanta it was given at submit */
	uint8_t how;             /* how it leaves after them (enum sched_gang_end_kind) */
	sched_time_t arrival, first_run;
	uint32_t copies;         /* slots it occupies (0 while waiting) */
	uint8_t state;           /* 0 free, 1 waiting, 2 placed */
};

struct sched_gang {
	uint32_t magic;             /* SCHED_GANG_MAGIC: sched_gang_attach() knows its own */
	uint32_t arena_used;        /* bytes of the arena the state spans */
	struct sched_gang_config cfg;
	uint32_t levels;            /* log2(procs) */
	/* The arrays after the header, by self-relative reference (read through gang_<name>(g)). */
	sched_rel_t jobs_at;        /* struct sched_gang_job[max_jobs] */
	sched_rel_t cells_at;       /* uint16_t[max_slots x procs]: job index + 1, 0 idle */
	sched_rel_t tree_at;        /* uint32_t[2 x procs]: the workload tree, node 1 the root, leaves procs.. */
	sched_rel_t order_at;       /* uint16_t[max_slots]: the slots in round-robin order, row numbers */
	sched_rel_t free_rows_at;   /* uint16_t[max_slots]: rows not in use */
	sched_rel_t row_busy_at;    /* uint32_t[max_slots]: busy cells per row */
	sched_rel_t runs_at;        /* struct sched_slice_run[procs]: the context switch list being built */
	sched_rel_t born_at;        /* uint32_t[max_slots] when BC fits in slot order (else none): when each row's slot was made */
	uint32_t n_slots, n_free_rows;
	uint32_t cur;               /* position in order of the slot that runs next */
	uint32_t bc_last, bc_newest; /* BC's readings (enum sched_gang_bc_fit): the row of the last placement, the newest slot's row; NO_ROW if gone */
	uint32_t born_seq;          /* the next slot's number in the order slots are made (slot-order fit) */
	struct sched_list free_jobs, placed, waiting;
	uint32_t n_placed, n_waiting;
	sched_time_t now;           /* a quantum boundary */
	sched_gang_event_fn emit;
	void *emit_ctx;
	struct sched_gang_counters counters;
	/* The policy's registers (policy_gang.c): */
	sched_time_t due;           /* the boundary of the next slice that may change anything, or SCHED_TIME_MAX */
	bool moved;                 /* a job arrived, started or ended since the last look for skippable rounds */
};


#define GANG_ARRAY(name, type) \
	static inline type *gang_##name(const struct sched_gang *g) { return sched_rel_get(&g->name##_at); }
GANG_ARRAY(jobs, struct sched_gang_job)
GANG_ARRAY(cells, uint16_t)
GANG_ARRAY(tree, uint32_t)
GANG_ARRAY(order, uint16_t)
GANG_ARRAY(free_rows, uint16_t)
GANG_ARRAY(row_busy, uint32_t)
GANG_ARRAY(runs, struct sched_slice_run)
GANG_ARRAY(born, uint32_t)
#undef GANG_ARRAY

/* How a job leaves after its quanta (policy_gang.c: the decision and the counter). */
enum sched_gang_end_kind {
	SCHED_GANG_DONE,     /* it had the service it was given */
	SCHED_GANG_CUT,      /* it was given more than its estimate and was cut there (counted killed) */
	SCHED_GANG_KILLED,   /* no service given: it ran its estimate and is killed */
};

/* sched_gang_submit(), with how the job leaves after its quanta (reported in its END event). */
int sched_gang_submit_how(struct sched_gang *g, uint32_t id, uint32_t procs, uint32_t quanta,
			  enum sched_gang_end_kind how, sched_time_t now);

/*
 * Quanta from the current boundary that sched_gang_skip() could run in one
 * step with no bound: whole rounds in which no job starts or ends;
 * UINT64_MAX when no job is placed and none waits for a slot it could get
 * (an idle machine idles for ever). O(jobs placed).
 */
uint64_t sched_gang_skippable(const struct sched_gang *g);

/* Job `id` leaves now, placed or waiting, and the scheme reacts; SCHED_E_NOENT if unknown. O(jobs) + an end's work. */
int sched_gang_remove(struct sched_gang *g, uint32_t id);

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
