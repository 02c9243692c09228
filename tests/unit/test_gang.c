/* SPDX-License-Identifier: MIT */
/*
 * Gang scheduling (seed 002): buddy blocks, legal shifts, the workload tree
 * checked against a recomputation after every operation, the Fig. 1 example,
 * the four schemes' handling of extra slots, time slicing and the context
 * switch lists.
 */
#include <stdio.h>
#include <string.h>

#include "gang_priv.h"
#include "harness.h"
#include "sched/replay.h"
#include "test_params.h"

#define GCAP 64
static _Alignas(8) unsigned char arena[1u << 20];

/* Events seen: per job its quanta (from the context switch lists), first run and end. */
struct seen {
	uint32_t quanta[GCAP * 8];
	sched_time_t start[GCAP * 8], end[GCAP * 8];
	uint32_t switches;
	bool overlap, twice;
};
static struct seen ev;

static void on_event(void *ctx, const struct sched_gang_event *e)
{
	(void)ctx;
	if (e->kind == SCHED_GANG_START) {
		ev.start[e->job] = e->time;
		return;
	}
	if (e->kind == SCHED_GANG_END) {
		ev.end[e->job] = e->time;
		return;
	}
	ev.switches++;
	/* Never two jobs on one processor in one slot, and a job listed once per quantum. */
	for (uint32_t i = 0; i < e->n_runs; i++)
		for (uint32_t k = i + 1; k < e->n_runs; k++) {
			const struct sched_slice_run *a = &e->runs[i], *b = &e->runs[k];
			if (a->first < b->first + b->count && b->first < a->first + a->count)
				ev.overlap = true;
			if (a->job == b->job)
				ev.twice = true;
		}
	for (uint32_t i = 0; i < e->n_runs; i++)
		ev.quanta[e->runs[i].job]++;
}

static int init(struct sched_gang **g, uint32_t procs, uint32_t slots, enum sched_gang_scheme s)
{
	struct sched_gang_config c = {.procs = procs, .max_slots = slots, .max_jobs = GCAP, .scheme = s, .quantum = 5};
	memset(&ev, 0, sizeof ev);
	return sched_gang_init(g, &c, arena, sizeof arena, on_event, NULL, 0);
}

static void config_and_buddy_sizes(void)
{
	static struct sched_gang *g;
	struct sched_gang_config c = {.procs = 12, .max_slots = 4, .max_jobs = 8, .scheme = SCHED_GANG_BR, .quantum = 5};
	CHECK_EQ(sched_gang_arena_size(&c), 0);
	CHECK_EQ(sched_gang_init(&g, &c, arena, sizeof arena, NULL, NULL, 0), SCHED_E_INVAL); /* not a power of two */
	c.procs = 16;
	c.quantum = 0;
	CHECK_EQ(sched_gang_init(&g, &c, arena, sizeof arena, NULL, NULL, 0), SCHED_E_INVAL);
	c.quantum = 5;
	CHECK_EQ(sched_gang_init(&g, &c, arena, 64, NULL, NULL, 0), SCHED_E_NOSPACE);
	for (int s = 0; s < SCHED_GANG_SCHEME_COUNT; s++) {
		CHECK_EQ(init(&g, 16, 16, (enum sched_gang_scheme)s), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 1, 0, 3, 0), SCHED_E_INVAL);
		CHECK_EQ(sched_gang_submit(g, 1, 17, 3, 0), SCHED_E_RANGE);
		CHECK_EQ(sched_gang_submit(g, 1, 3, 3, 5), SCHED_E_TIME); /* the next boundary is not yet */
		for (uint32_t p = 1; p <= 16; p++) {
			CHECK_EQ(sched_gang_submit(g, p, p, 10, 0), SCHED_OK);
			const struct sched_gang_job *j = sched_gang_find(g, p);
			uint32_t n = 1;
			while (n < p)
				n <<= 1;
			/* n / 2 < p <= n, aligned (seed 002 section 1). */
			CHECK_EQ(j->size, n);
			CHECK(n / 2 < p && p <= n);
			CHECK_EQ(j->block % n, 0);
			CHECK_EQ(sched_gang_check(g), SCHED_OK);
		}
		CHECK_EQ(sched_gang_submit(g, 3, 1, 1, 0), SCHED_E_EXIST);
	}
	enum sched_gang_scheme s;
	CHECK_EQ(sched_gang_scheme_parse("brmms", &s), SCHED_OK);
	CHECK_EQ(s, SCHED_GANG_BRMMS);
	CHECK_EQ(sched_gang_scheme_parse("bx", &s), SCHED_E_INVAL);
}

/* The tree by hand on 4 processors, 2 slots: S1 = [A A B -], S2 = [C C C C]... then C leaves. */
static void workload_tree_by_hand(void)
{
	static struct sched_gang *g;
	CHECK_EQ(init(&g, 4, 4, SCHED_GANG_BC), SCHED_OK);
	CHECK(sched_gang_place_at(g, 'A', 2, 9, 0, 0) != NULL);
	CHECK(sched_gang_place_at(g, 'B', 1, 9, 0, 2) != NULL);
	CHECK(sched_gang_place_at(g, 'C', 4, 9, 1, 0) != NULL);
	/* Leaves: idle slots per processor 0, 0, 0, 1. Level 2: (0,0)->0, (0,1)->0. Root 0. */
	uint32_t want[8] = {0, 0, 0, 0, 0, 0, 0, 1};
	for (uint32_t node = 1; node < 8; node++)
		CHECK_EQ(sched_gang_tree(g, node), want[node]);
	CHECK_EQ(sched_gang_check(g), SCHED_OK);
	sched_gang_end(g, sched_gang_find(g, 'C')); /* its slot empties and is deleted (BC too) */
	CHECK_EQ(g->n_slots, 1);
	/* One slot: leaves 0, 0, 0, 1; nothing else changes. */
	for (uint32_t node = 1; node < 8; node++)
		CHECK_EQ(sched_gang_tree(g, node), want[node]);
	CHECK(sched_gang_place_at(g, 'D', 2, 9, 1, 2) != NULL); /* a second slot: [- - D D] */
	/* Idle slots per processor: 1, 1, 0, 1. Node 2 = 1 + 1; node 3 = 0 (processor 2 is full); root 0. */
	const uint32_t want2[8] = {0, 0, 2, 0, 1, 1, 0, 1};
	for (uint32_t node = 1; node < 8; node++)
		CHECK_EQ(sched_gang_tree(g, node), want2[node]);
	CHECK_EQ(sched_gang_check(g), SCHED_OK);
}

/*
 * Seed 002 Fig. 1 on buddy blocks, 8 processors, 3 slots:
 *   S3: J5 J5 J5 -  | J6 J6 | J7 J7      (J5: 3 of block 0-3)
 *   S2: J' J' J' J' | J4 J4 | J" J"
 *   S1: J1 J1 J2 J2 | -  -  | J3 J3
 * When J' and J" end, every processor has an idle slot: re-packing (legal
 * shifts only) empties one slot, which is deleted (Fig. 1c). BC keeps three.
 */
static void fig1_repacking_eliminates_a_slot(void)
{
	static struct sched_gang *g;
	for (int s = 0; s < 2; s++) {
		CHECK_EQ(init(&g, 8, 8, s == 0 ? SCHED_GANG_BR : SCHED_GANG_BC), SCHED_OK);
		CHECK(sched_gang_place_at(g, 1, 2, 99, 0, 0) != NULL);
		CHECK(sched_gang_place_at(g, 2, 2, 99, 0, 2) != NULL);
		CHECK(sched_gang_place_at(g, 3, 2, 99, 0, 6) != NULL);
		CHECK(sched_gang_place_at(g, 100, 4, 99, 1, 0) != NULL); /* J' */
		CHECK(sched_gang_place_at(g, 4, 2, 99, 1, 4) != NULL);
		CHECK(sched_gang_place_at(g, 101, 2, 99, 1, 6) != NULL); /* J" */
		CHECK(sched_gang_place_at(g, 5, 3, 99, 2, 0) != NULL);
		CHECK(sched_gang_place_at(g, 6, 2, 99, 2, 4) != NULL);
		CHECK(sched_gang_place_at(g, 7, 2, 99, 2, 6) != NULL);
		CHECK_EQ(g->n_slots, 3);
		CHECK_EQ(sched_gang_tree(g, 1), 0);
		CHECK_EQ(sched_gang_check(g), SCHED_OK);
		sched_gang_end(g, sched_gang_find(g, 100));
		CHECK_EQ(sched_gang_check(g), SCHED_OK);
		sched_gang_end(g, sched_gang_find(g, 101));
		CHECK_EQ(sched_gang_check(g), SCHED_OK);
		if (s == 0) {
			CHECK_EQ(g->n_slots, 2);
			CHECK(g->counters.repacks > 0);
			/* Every job kept its processors: no migration, only rows changed. */
			const uint32_t block[8] = {0, 0, 2, 6, 4, 0, 4, 6};
			for (uint32_t id = 1; id <= 7; id++)
				CHECK_EQ(sched_gang_find(g, id)->block, block[id]);
			/* Two full rows of 8: nothing idle but J5's fourth processor. */
			CHECK_EQ(gang_row_busy(g)[gang_order(g)[0]] + gang_row_busy(g)[gang_order(g)[1]], 16);
		} else {
			CHECK_EQ(g->n_slots, 3);
			CHECK_EQ(g->counters.repacks, 0);
		}
	}
}

/* Legal shifts: free_slot gathers a block's idle fragments into one slot, moving whole jobs only. */
static void legal_shifts_keep_jobs_whole(void)
{
	static struct sched_gang *g;
	struct test_rng r;
	test_rng_seed(&r, 2);
	for (int round = 0; round < 200; round++) {
		CHECK_EQ(init(&g, 16, 16, SCHED_GANG_BC), SCHED_OK);
		/* Random buddy layouts over several slots, then ask for every block with an idle slot on each processor. */
		uint32_t id = 1;
		for (uint32_t pos = 0; pos < 6; pos++) {
			uint32_t at = pos < g->n_slots ? pos : g->n_slots; /* a row exists once a job is in it */
			for (uint32_t b = 0; b < 16;) {
				uint32_t size = 1u << test_rng_range(&r, 0, 3);
				if (b % size != 0 || test_rng_range(&r, 0, 3) == 0) {
					b++;
					continue;
				}
				CHECK(sched_gang_place_at(g, id++, size, 9, at, b) != NULL);
				at = at < g->n_slots ? at : g->n_slots - 1u;
				b += size;
			}
		}
		CHECK_EQ(sched_gang_check(g), SCHED_OK);
		for (uint32_t m = 1; m <= 16; m *= 2)
			for (uint32_t b = 0; b < 16; b += m) {
				if (sched_gang_tree(g, (16 + b) / m) == 0)
					continue;
				uint32_t row = sched_gang_free_slot(g, b, m);
				for (uint32_t x = b; x < b + m; x++)
					CHECK_EQ(gang_cells(g)[(size_t)row * 16 + x], 0);
				if (gang_row_busy(g)[row] == 0) {
					/* Shifts may empty a row, which the scheduler would delete: fill the block instead. */
					uint32_t pos = 0;
					while (gang_order(g)[pos] != row)
						pos++;
					CHECK(sched_gang_place_at(g, id++, m, 9, pos, b) != NULL);
				}
				CHECK_EQ(sched_gang_check(g), SCHED_OK); /* jobs whole, tree right */
			}
	}
}

/*
 * Extra slots on 4 processors: A (0-1) and B (2-3) fill slot 1; C (0-1) opens
 * slot 2, whose processors 2-3 are idle, so under BRMS and BRMMS B takes
 * them as an extra slot. D (2 processors) then fits nowhere: BRMS opens a
 * third slot, BRMMS makes B give its extra slot up and puts D there.
 */
static void extra_slots_brms_brmms(void)
{
	static struct sched_gang *g;
	for (int k = 0; k < 3; k++) {
		enum sched_gang_scheme s = k == 0 ? SCHED_GANG_BR : k == 1 ? SCHED_GANG_BRMS : SCHED_GANG_BRMMS;
		CHECK_EQ(init(&g, 4, 8, s), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'A', 2, 50, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'B', 2, 50, 0), SCHED_OK);
		CHECK_EQ(g->n_slots, 1);
		CHECK_EQ(sched_gang_submit(g, 'C', 2, 50, 0), SCHED_OK);
		CHECK_EQ(g->n_slots, 2);
		CHECK_EQ(sched_gang_find(g, 'B')->copies, s == SCHED_GANG_BR ? 1 : 2);
		CHECK_EQ(sched_gang_check(g), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'D', 2, 50, 0), SCHED_OK);
		/* BR puts D on slot 2's idle 2-3; BRMS must open a third slot for it (B holds 2-3 there)
		 * and B then takes the third slot's 2-3 too; BRMMS takes B's extra back for D. */
		CHECK_EQ(g->n_slots, s == SCHED_GANG_BRMS ? 3 : 2);
		CHECK_EQ(sched_gang_find(g, 'B')->copies, s == SCHED_GANG_BRMS ? 3 : 1);
		CHECK_EQ(sched_gang_check(g), SCHED_OK);
		if (s == SCHED_GANG_BRMMS)
			CHECK_EQ(g->counters.extras_released, 1);
	}
	/* BRMMS gives extra slots up when that lets a slot be deleted; BRMS keeps them. */
	for (int k = 0; k < 2; k++) {
		enum sched_gang_scheme s = k == 0 ? SCHED_GANG_BRMS : SCHED_GANG_BRMMS;
		CHECK_EQ(init(&g, 4, 8, s), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'A', 2, 50, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'B', 2, 50, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'C', 2, 50, 0), SCHED_OK); /* slot 2: C, and B's extra copy */
		sched_gang_end(g, sched_gang_find(g, 'C'));
		CHECK_EQ(sched_gang_check(g), SCHED_OK);
		if (s == SCHED_GANG_BRMS) {
			CHECK_EQ(g->n_slots, 2); /* A takes C's place as an extra slot */
			CHECK_EQ(sched_gang_find(g, 'A')->copies, 2);
			CHECK_EQ(sched_gang_find(g, 'B')->copies, 2);
		} else {
			CHECK_EQ(g->n_slots, 1);
			CHECK_EQ(sched_gang_find(g, 'B')->copies, 1);
		}
	}
}

/* Time slicing: a job advances only in its slots' quanta; ends come at the boundary after its last. */
static void time_slicing_by_hand(void)
{
	static struct sched_gang *g;
	CHECK_EQ(init(&g, 4, 8, SCHED_GANG_BC), SCHED_OK);
	CHECK_EQ(sched_gang_submit(g, 1, 4, 2, 0), SCHED_OK); /* slot 1 */
	CHECK_EQ(sched_gang_submit(g, 2, 4, 2, 3), SCHED_OK); /* slot 2 */
	for (int q = 0; q < 4; q++)
		CHECK_EQ(sched_gang_tick(g), SCHED_OK);
	CHECK_EQ(ev.start[1], 0);
	CHECK_EQ(ev.start[2], 5);
	CHECK_EQ(ev.end[1], 15);  /* quanta 0 and 2 */
	CHECK_EQ(ev.end[2], 20);  /* quanta 1 and 3 */
	CHECK_EQ(g->counters.quanta, 4);
	CHECK_EQ(g->counters.slot_quanta, 2 + 2 + 2 + 1);
	CHECK_EQ(g->counters.busy_quanta, 16);
	CHECK_EQ(g->counters.max_slots_seen, 2);
	CHECK_EQ(sched_gang_jobs(g), 0);
	CHECK_EQ(sched_gang_tick(g), SCHED_OK); /* idle */
	CHECK_EQ(g->now, 25);
}

/* A bounded matrix: with every slot in use an arrival waits, in order, for room. */
static void waiting_when_slots_run_out(void)
{
	static struct sched_gang *g;
	CHECK_EQ(init(&g, 4, 1, SCHED_GANG_BR), SCHED_OK);
	CHECK_EQ(sched_gang_submit(g, 1, 4, 1, 0), SCHED_OK);
	CHECK_EQ(sched_gang_submit(g, 2, 2, 1, 0), SCHED_OK);
	CHECK_EQ(sched_gang_submit(g, 3, 1, 1, 0), SCHED_OK);
	CHECK_EQ(g->n_waiting, 2);
	CHECK_EQ(g->counters.queued, 2);
	CHECK_EQ(sched_gang_tick(g), SCHED_OK); /* job 1 ends: 2 and 3 share the slot */
	CHECK_EQ(g->n_waiting, 0);
	CHECK_EQ(g->n_slots, 1);
	CHECK_EQ(sched_gang_check(g), SCHED_OK);
	CHECK_EQ(sched_gang_tick(g), SCHED_OK);
	CHECK_EQ(ev.end[2], 10);
	CHECK_EQ(ev.end[3], 10);
}

/* Random arrivals and ends under every scheme: every invariant (the tree recomputed) after every call. */
static void random_runs_keep_invariants(void)
{
	static struct sched_gang *g;
	static uint32_t need[GCAP * 8];
	struct test_rng r;
	test_rng_seed(&r, 77);
	for (int round = 0; round < 40; round++) {
		enum sched_gang_scheme s = (enum sched_gang_scheme)(round % SCHED_GANG_SCHEME_COUNT);
		uint32_t procs = 1u << test_rng_range(&r, 1, 5);
		CHECK_EQ(init(&g, procs, 24, s), SCHED_OK);
		uint32_t next = 1;
		for (int step = 0; step < 300; step++) {
			if (next < GCAP * 8 && sched_gang_jobs(g) < GCAP && test_rng_range(&r, 0, 2) == 0) {
				uint32_t p = test_rng_range(&r, 1, procs), q = test_rng_range(&r, 1, 12);
				need[next] = q;
				CHECK_EQ(sched_gang_submit(g, next, p, q, g->now + test_rng_range(&r, 0, 4)), SCHED_OK);
				next++;
			} else {
				CHECK_EQ(sched_gang_tick(g), SCHED_OK);
			}
			CHECK_EQ(sched_gang_check(g), SCHED_OK);
			CHECK(!ev.overlap && !ev.twice);
		}
		while (sched_gang_jobs(g) > 0) {
			CHECK_EQ(sched_gang_tick(g), SCHED_OK);
			CHECK_EQ(sched_gang_check(g), SCHED_OK);
		}
		/* Every job got exactly its quanta, no more: an end comes with its last one. */
		for (uint32_t id = 1; id < next; id++) {
			CHECK_EQ(ev.quanta[id], need[id]);
			CHECK(ev.end[id] > ev.start[id]);
		}
		CHECK_EQ(g->counters.ended, next - 1);
	}
}


/* Busy cells of the whole matrix. */
static uint32_t busy_cells(const struct sched_gang *g)
{
	uint32_t n = 0;
	for (uint32_t pos = 0; pos < g->n_slots; pos++)
		for (uint32_t x = 0; x < g->cfg.procs; x++)
			n += sched_gang_cell(g, pos, x) != UINT32_MAX;
	return n;
}

/* A new slot runs last in the current round: a stream of arrivals that each need a slot of their
 * own cannot starve the jobs already there. Two full-machine jobs of 3 quanta and one full-machine
 * job of 1 quantum arriving every quantum: each slot runs once per round and a round is at most
 * max_slots quanta, so the two end within 3 rounds. (With new slots appended at the end of the
 * round, each ran once in 200 quanta.) */
static void new_slots_do_not_starve_old_ones(void)
{
	static struct sched_gang *g;
	const uint32_t slots = 16;
	for (int s = 0; s < SCHED_GANG_SCHEME_COUNT; s++) {
		CHECK_EQ(init(&g, 4, slots, (enum sched_gang_scheme)s), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 1, 4, 3, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 2, 4, 3, 0), SCHED_OK);
		for (uint32_t q = 0, id = 10; q < 3 * slots + 1; q++) {
			if (g->counters.submitted - g->counters.ended < GCAP)
				CHECK_EQ(sched_gang_submit(g, id++, 4, 1, g->now), SCHED_OK);
			CHECK_EQ(sched_gang_tick(g), SCHED_OK);
			CHECK_EQ(sched_gang_check(g), SCHED_OK);
		}
		CHECK_EQ(ev.quanta[1], 3);
		CHECK_EQ(ev.quanta[2], 3);
		CHECK(ev.end[1] > 0 && ev.end[1] <= 5 * 3 * slots);
	}
}

/* BRMMS gives up its extra slots for an arrival that cannot fit; when even a new slot is not to be
 * had (max_slots reached), they are handed back at once, not left idle until the next end. */
static void brmms_takes_extras_back_when_an_arrival_must_wait(void)
{
	static struct sched_gang *g;
	CHECK_EQ(init(&g, 4, 2, SCHED_GANG_BRMMS), SCHED_OK);
	CHECK_EQ(sched_gang_submit(g, 1, 2, 20, 0), SCHED_OK);
	CHECK_EQ(sched_gang_submit(g, 2, 2, 20, 0), SCHED_OK);
	CHECK_EQ(sched_gang_submit(g, 3, 2, 20, 0), SCHED_OK);
	uint32_t before = busy_cells(g);
	CHECK_EQ(before, 8); /* two slots of 4, every cell used by a copy */
	CHECK_EQ(sched_gang_submit(g, 4, 4, 5, 0), SCHED_OK); /* the whole machine: must wait */
	CHECK_EQ(g->n_waiting, 1);
	CHECK_EQ(busy_cells(g), before);
	CHECK_EQ(sched_gang_check(g), SCHED_OK);
}

/* The edges: the clock stops before it wraps; the arena size does not wrap; a failed test placement
 * gives its job record back. */
static void clock_arena_and_table_edges(void)
{
	static struct sched_gang *g;
	struct sched_gang_config c = {.procs = 4, .max_slots = 2, .max_jobs = 1, .scheme = SCHED_GANG_BR, .quantum = 5};
	CHECK_EQ(sched_gang_init(&g, &c, arena, sizeof arena, NULL, NULL, SCHED_TIME_MAX - 7u), SCHED_OK);
	CHECK_EQ(sched_gang_tick(g), SCHED_OK);
	CHECK_EQ(sched_gang_tick(g), SCHED_E_TIME);
	CHECK_EQ(g->now, SCHED_TIME_MAX - 2u);
	struct sched_gang_config big = {.procs = 32768, .max_slots = 65535, .max_jobs = 65534,
					.scheme = SCHED_GANG_BR, .quantum = 5};
	size_t need = sched_gang_arena_size(&big);
	CHECK(sizeof(size_t) < 8 ? need == 0 : need > (size_t)65535 * 32768 * 2);
	CHECK_EQ(sched_gang_init(&g, &c, arena, sizeof arena, NULL, NULL, 0), SCHED_OK);
	CHECK(sched_gang_place_at(g, 1, 2, 3, 0, 1) == NULL); /* misaligned */
	CHECK_EQ(g->n_slots, 0);
	CHECK_EQ(sched_gang_submit(g, 1, 2, 3, 0), SCHED_OK); /* the one record is still free */
	CHECK_EQ(sched_gang_submit(g, 2, 2, 3, 0), SCHED_E_NOSPACE);
	CHECK_EQ(sched_gang_check(g), SCHED_OK);
}

/*
 * BC's slots (Zhou, Walsh and Brent 2000, s. 4.1, Tables 1-2): no re-packing, so a slot goes only
 * when all its jobs have ended; the last one stays (keep-one, the default), so an idle machine
 * still has a slot and n_a counts it; drop-empty (the old reading) goes down to none. Under both,
 * BC moves no job between slots even when every processor has an idle slot (BR would delete one).
 */
static void bc_keeps_its_last_slot(void)
{
	for (int mode = 0; mode < 2; mode++) {
		static struct sched_gang *g;
		struct sched_gang_config c = {.procs = 4, .max_slots = 4, .max_jobs = GCAP, .scheme = SCHED_GANG_BC,
					      .quantum = 5, .bc_slots = mode == 0 ? SCHED_GANG_BC_KEEP_ONE
										  : SCHED_GANG_BC_DROP_EMPTY};
		memset(&ev, 0, sizeof ev);
		CHECK_EQ(sched_gang_init(&g, &c, arena, sizeof arena, on_event, NULL, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'A', 4, 2, 0), SCHED_OK); /* S1: A A A A */
		CHECK_EQ(sched_gang_submit(g, 'B', 2, 1, 0), SCHED_OK); /* S2: B B - - */
		CHECK_EQ(sched_gang_submit(g, 'C', 2, 9, 0), SCHED_OK); /* S2: B B C C */
		CHECK_EQ(g->n_slots, 2);
		CHECK_EQ(sched_gang_cell(g, 1, 2), 'C');
		/* B ends after its quantum: every processor but C's now has an idle slot; the root is 0, and
		 * BC shifts nothing anyway. */
		CHECK_EQ(sched_gang_tick(g), SCHED_OK); /* S1: A */
		CHECK_EQ(sched_gang_tick(g), SCHED_OK); /* S2: B ends */
		CHECK_EQ(g->n_slots, 2);
		CHECK_EQ(sched_gang_tick(g), SCHED_OK); /* S1: A ends, S1 empties: deleted in both modes */
		CHECK_EQ(g->n_slots, 1);
		CHECK_EQ(sched_gang_cell(g, 0, 2), 'C'); /* C never moved */
		CHECK_EQ(g->counters.repacks, 0);
		for (int k = 0; k < 9; k++)
			CHECK_EQ(sched_gang_tick(g), SCHED_OK);
		CHECK_EQ(sched_gang_jobs(g), 0);
		CHECK_EQ(g->n_slots, mode == 0 ? 1u : 0u); /* the idle machine: one slot kept, or none */
		CHECK_EQ(sched_gang_check(g), SCHED_OK);
		uint64_t before = g->counters.slot_quanta;
		CHECK_EQ(sched_gang_tick(g), SCHED_OK); /* an idle quantum counts the kept slot in n_a */
		CHECK_EQ(g->counters.slot_quanta - before, mode == 0 ? 1u : 0u);
		uint32_t made = g->counters.slots_created;
		CHECK_EQ(sched_gang_submit(g, 'D', 1, 1, g->now), SCHED_OK);
		CHECK_EQ(g->counters.slots_created - made, mode == 0 ? 0u : 1u); /* D goes into the kept slot */
		CHECK_EQ(g->n_slots, 1);
		CHECK_EQ(sched_gang_check(g), SCHED_OK);
	}
}


/* The position of the slot in which job `id` sits on processor `proc`, or UINT32_MAX. */
static uint32_t slot_of(const struct sched_gang *g, uint32_t id, uint32_t proc)
{
	for (uint32_t pos = 0; pos < g->n_slots; pos++)
		if (sched_gang_cell(g, pos, proc) == id)
			return pos;
	return UINT32_MAX;
}

/*
 * BC's readings of "the conventional buddy system" (issue 28, --bc-fit): where an arrival looks for
 * a free block. Two layouts on 4 processors in which they differ; the default, round-robin, is
 * first fit in round-robin order, as before the option.
 */
static void bc_fit_readings(void)
{
	for (int fit = 0; fit < SCHED_GANG_BC_FIT_COUNT; fit++) {
		static struct sched_gang *g;
		struct sched_gang_config c = {.procs = 4, .max_slots = 8, .max_jobs = GCAP, .scheme = SCHED_GANG_BC,
					      .quantum = 5, .bc_fit = (enum sched_gang_bc_fit)fit};
		/* S1: A A X X, S2: B B B B, S3: C C Y Y; X and Y end after one quantum: holes in S1 and S3. */
		CHECK_EQ(sched_gang_init(&g, &c, arena, sizeof arena, on_event, NULL, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'A', 2, 100, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'X', 2, 1, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'B', 4, 100, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'C', 2, 100, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'Y', 2, 1, 0), SCHED_OK);
		CHECK_EQ(g->n_slots, 3);
		for (int k = 0; k < 3; k++)
			CHECK_EQ(sched_gang_tick(g), SCHED_OK);
		CHECK_EQ(sched_gang_jobs(g), 3);
		/* W: the first hole in round-robin (and slot) order is S1's; the last placement and the
		 * newest slot are S3. V then: S3 is full; next fit wraps to S1, newest makes a slot. */
		CHECK_EQ(sched_gang_submit(g, 'W', 2, 100, g->now), SCHED_OK);
		CHECK_EQ(slot_of(g, 'W', 2), slot_of(g, fit == SCHED_GANG_FIT_NEXT || fit == SCHED_GANG_FIT_NEWEST ? 'C' : 'A', 0));
		CHECK_EQ(sched_gang_submit(g, 'V', 2, 100, g->now), SCHED_OK);
		CHECK_EQ(g->n_slots, fit == SCHED_GANG_FIT_NEWEST ? 4u : 3u);
		if (fit == SCHED_GANG_FIT_NEXT)
			CHECK_EQ(slot_of(g, 'V', 2), slot_of(g, 'A', 0));
		CHECK_EQ(sched_gang_check(g), SCHED_OK);

		/* S1: A A A A, S2: B B X X; after S1's quantum a new slot S3 for C joins the round before
		 * S2 (C C - -), then X ends: holes in S3 (second in the round) and S2 (older). */
		CHECK_EQ(sched_gang_init(&g, &c, arena, sizeof arena, on_event, NULL, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'A', 4, 100, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'B', 2, 100, 0), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'X', 2, 1, 0), SCHED_OK);
		CHECK_EQ(sched_gang_tick(g), SCHED_OK);
		CHECK_EQ(sched_gang_submit(g, 'C', 2, 100, g->now), SCHED_OK);
		CHECK_EQ(slot_of(g, 'C', 0), 1u);
		CHECK_EQ(sched_gang_tick(g), SCHED_OK); /* S3 */
		CHECK_EQ(sched_gang_tick(g), SCHED_OK); /* S2: X ends */
		CHECK_EQ(sched_gang_jobs(g), 3);
		CHECK_EQ(sched_gang_submit(g, 'D', 2, 100, g->now), SCHED_OK);
		CHECK_EQ(slot_of(g, 'D', 2), slot_of(g, fit == SCHED_GANG_FIT_SLOT_ORDER ? 'B' : 'C', 0));
		CHECK_EQ(sched_gang_check(g), SCHED_OK);
	}
}

/* --- quanta in which nothing changes, in one step (issue 25) ---------------------------------- */

#define LOGCAP 1024

/* What a run shows: its STARTs and ENDs in order, its SWITCH events and the quanta its SKIPs stand for. */
struct run_log {
	uint32_t n, kind[LOGCAP], job[LOGCAP];
	sched_time_t time[LOGCAP];
	uint64_t switches, skips, skipped;
};

static void on_log(void *ctx, const struct sched_gang_event *e)
{
	struct run_log *l = ctx;
	if (e->kind == SCHED_GANG_SWITCH) {
		l->switches++;
		return;
	}
	if (e->kind == SCHED_GANG_SKIP) {
		l->skips++;
		l->skipped += e->quanta;
		return;
	}
	if (l->n < LOGCAP) {
		l->kind[l->n] = e->kind;
		l->job[l->n] = e->job;
		l->time[l->n] = e->time;
	}
	l->n++;
}

struct arrival {
	sched_time_t submit;
	uint32_t procs, quanta;
};

/* Replay arrivals as the engine does (placed at the first boundary at or after their submit); with
 * skip, sched_gang_skip is tried before every quantum, whatever happened, up to the next arrival. */
static void drive(struct sched_gang *g, const struct arrival *a, uint32_t n, bool skip)
{
	sched_time_t q = g->cfg.quantum;
	uint32_t next = 0;
	while (next < n || sched_gang_jobs(g) > 0) {
		sched_time_t now = sched_gang_now(g);
		while (next < n && a[next].submit <= now) {
			CHECK_EQ(sched_gang_submit(g, next + 1, a[next].procs, a[next].quanta, now), SCHED_OK);
			next++;
		}
		if (skip) {
			sched_time_t until = next < n ? (a[next].submit + q - 1u) / q * q : SCHED_TIME_MAX;
			if (sched_gang_skip(g, until) > 0) {
				CHECK(g->now <= until);
				CHECK_EQ(sched_gang_check(g), SCHED_OK);
				continue;
			}
		}
		CHECK_EQ(sched_gang_tick(g), SCHED_OK);
	}
}

static _Alignas(8) unsigned char arena2[1u << 20];

/*
 * Skipping is ticking: random arrivals of short and long jobs under every scheme, bounded and
 * unbounded matrices, replayed once a quantum at a time and once with sched_gang_skip tried before
 * every quantum. The same STARTs and ENDs at the same times, the same counters (r_a, n_a, n_l come
 * from them), the same clock; every SWITCH of the first run is a SWITCH or a skipped quantum of the
 * second. Shown to skip: without a skip the comparison would prove nothing.
 */
/* One round of the skip and the API tests: a random configuration (scheme by @p round) and *@p n
 * arrivals into @p a, quiet gaps and bursts, long and short jobs. */
static struct sched_gang_config random_round(struct test_rng *r, int round, struct arrival *a, uint32_t *n)
{
	uint32_t procs = 1u << test_rng_range(r, 0, 4);
	*n = test_rng_range(r, 1, 40);
	struct sched_gang_config c = {.procs = procs, .max_slots = round % 3 == 0 ? 3u : GCAP, .max_jobs = GCAP,
				      .scheme = (enum sched_gang_scheme)(round % SCHED_GANG_SCHEME_COUNT),
				      .quantum = test_rng_range(r, 1, 7),
				      .bc_slots = (enum sched_gang_bc_slots)(round / 4 % 2)};
	sched_time_t t = test_rng_range(r, 0, 50);
	for (uint32_t i = 0; i < *n; i++) {
		t += test_rng_range(r, 0, 3) == 0 ? test_rng_range(r, 0, 3000) : test_rng_range(r, 0, 20);
		a[i].submit = t;
		a[i].procs = test_rng_range(r, 1, procs);
		a[i].quanta = test_rng_range(r, 0, 2) == 0 ? test_rng_range(r, 50, 2000) : test_rng_range(r, 1, 12);
	}
	return c;
}

static void skipping_quiet_quanta_is_ticking(void)
{
	static struct run_log ticked, skipped;
	static struct arrival a[GCAP];
	struct test_rng r;
	test_rng_seed(&r, 25);
	uint64_t skipped_quanta = 0, all_quanta = 0;
	for (int round = 0; round < 200; round++) {
		uint32_t n;
		struct sched_gang_config c = random_round(&r, round, a, &n);
		sched_time_t origin = a[0].submit / c.quantum * c.quantum;
		struct sched_gang *g1, *g2;
		memset(&ticked, 0, sizeof ticked);
		memset(&skipped, 0, sizeof skipped);
		CHECK_EQ(sched_gang_init(&g1, &c, arena, sizeof arena, on_log, &ticked, origin), SCHED_OK);
		CHECK_EQ(sched_gang_init(&g2, &c, arena2, sizeof arena2, on_log, &skipped, origin), SCHED_OK);
		drive(g1, a, n, false);
		drive(g2, a, n, true);
		CHECK(ticked.n <= LOGCAP);
		CHECK_EQ(ticked.n, skipped.n);
		CHECK_EQ(ticked.n, 2 * n);
		CHECK(memcmp(ticked.kind, skipped.kind, ticked.n * sizeof ticked.kind[0]) == 0);
		CHECK(memcmp(ticked.job, skipped.job, ticked.n * sizeof ticked.job[0]) == 0);
		CHECK(memcmp(ticked.time, skipped.time, ticked.n * sizeof ticked.time[0]) == 0);
		CHECK(memcmp(&g1->counters, &g2->counters, sizeof g1->counters) == 0);
		CHECK_EQ(g1->now, g2->now);
		CHECK_EQ(ticked.skips, 0);
		CHECK_EQ(ticked.switches, skipped.switches + skipped.skipped);
		CHECK_EQ(sched_gang_check(g2), SCHED_OK);
		skipped_quanta += g2->counters.quanta - skipped.switches;
		all_quanta += g2->counters.quanta;
	}
	CHECK(skipped_quanta > all_quanta / 2);
}

/*
 * The cases by hand. Three jobs of 2^31 - 1 quanta sharing one slot at a 1 s quantum: a quantum
 * to start them, one step to the quantum before their last, that quantum: 2^31 - 1 quanta in
 * three calls, where 2^31 - 1 ticks took about a minute. Three whole-machine jobs in three slots:
 * their first round starts them one by one (not a no-op), then whole rounds go in one step, up to
 * the round in which the first of them ends. Nothing is skipped before a job has run, past the
 * next arrival's boundary, or past the last boundary a tick could reach before the clock wraps.
 */
static void quiet_quanta_by_hand(void)
{
	static struct run_log l;
	struct sched_gang *g;
	const sched_time_t big = 2147483647u;
	struct sched_gang_config c = {.procs = 4, .max_slots = 4, .max_jobs = 4, .scheme = SCHED_GANG_BRMMS, .quantum = 1};
	memset(&l, 0, sizeof l);
	CHECK_EQ(sched_gang_init(&g, &c, arena, sizeof arena, on_log, &l, 0), SCHED_OK);
	CHECK_EQ(sched_gang_submit(g, 1, 1, big, 0), SCHED_OK);
	CHECK_EQ(sched_gang_submit(g, 2, 1, big, 0), SCHED_OK);
	CHECK_EQ(sched_gang_submit(g, 3, 2, big, 0), SCHED_OK);
	CHECK_EQ(g->n_slots, 1);
	CHECK_EQ(sched_gang_skip(g, SCHED_TIME_MAX), 0); /* none has run: their STARTs come first */
	CHECK_EQ(sched_gang_tick(g), SCHED_OK);
	CHECK_EQ(sched_gang_skip(g, 1), 0);   /* until is now: nothing to skip */
	CHECK_EQ(sched_gang_skip(g, 100), 99); /* up to an arrival's boundary */
	CHECK_EQ(g->now, 100);
	CHECK_EQ(sched_gang_skip(g, SCHED_TIME_MAX), big - 101u);
	CHECK_EQ(sched_gang_skip(g, SCHED_TIME_MAX), 0); /* their last quantum: their ENDs */
	CHECK_EQ(sched_gang_tick(g), SCHED_OK);
	CHECK_EQ(sched_gang_jobs(g), 0);
	CHECK_EQ(l.n, 6);
	for (uint32_t i = 3; i < 6; i++) {
		CHECK_EQ(l.kind[i], SCHED_GANG_END);
		CHECK_EQ(l.time[i], big);
	}
	CHECK_EQ(l.switches, 2);
	CHECK_EQ(l.skips, 2);
	CHECK_EQ(g->counters.quanta, big);
	CHECK_EQ(g->counters.slot_quanta, big);
	CHECK_EQ(g->counters.busy_quanta, 4ull * big);
	CHECK_EQ(sched_gang_check(g), SCHED_OK);
	CHECK_EQ(g->n_slots, 0); /* BRMMS: an idle machine has no slot */

	/* Three whole-machine jobs of 1000 quanta, three slots. */
	memset(&l, 0, sizeof l);
	CHECK_EQ(sched_gang_init(&g, &c, arena, sizeof arena, on_log, &l, 0), SCHED_OK);
	for (uint32_t id = 1; id <= 3; id++)
		CHECK_EQ(sched_gang_submit(g, id, 4, 1000, 0), SCHED_OK);
	CHECK_EQ(g->n_slots, 3);
	for (int k = 0; k < 3; k++) {
		CHECK_EQ(sched_gang_skip(g, SCHED_TIME_MAX), 0);
		CHECK_EQ(sched_gang_tick(g), SCHED_OK);
	}
	CHECK_EQ(sched_gang_skip(g, 3 + 3 * 10 + 2), 3 * 10); /* whole rounds only */
	CHECK_EQ(sched_gang_skip(g, SCHED_TIME_MAX), 3 * 988); /* each has 1 quantum left */
	CHECK_EQ(sched_gang_skip(g, SCHED_TIME_MAX), 0);
	while (sched_gang_jobs(g) > 0)
		CHECK_EQ(sched_gang_tick(g), SCHED_OK);
	CHECK_EQ(l.time[3], 2998); /* slot 1 ran quanta 0, 3, ..., 2997 */
	CHECK_EQ(l.time[4], 2999);
	CHECK_EQ(l.time[5], 3000);
	CHECK_EQ(g->counters.slot_quanta, 3u * 2998 + 2 + 1);

	/* ... and an idle one idles to the next arrival in one step, silently, as idle ticks do. */
	uint64_t before = l.switches + l.skips;
	CHECK_EQ(sched_gang_skip(g, 5000), 2000);
	CHECK_EQ(g->now, 5000);
	CHECK_EQ(l.switches + l.skips, before);
	CHECK_EQ(g->counters.quanta, 5000);

	/* The clock: ticks succeed up to the boundary SCHED_TIME_MAX (with quantum 5 from MAX - 20),
	 * and so does the skip; the tick after fails as it did. */
	c.quantum = 5;
	CHECK_EQ(sched_gang_init(&g, &c, arena, sizeof arena, NULL, NULL, SCHED_TIME_MAX - 20u), SCHED_OK);
	CHECK_EQ(sched_gang_submit(g, 1, 4, 100, SCHED_TIME_MAX - 20u), SCHED_OK);
	CHECK_EQ(sched_gang_tick(g), SCHED_OK);
	CHECK_EQ(sched_gang_skip(g, SCHED_TIME_MAX), 3);
	CHECK_EQ(g->now, SCHED_TIME_MAX);
	CHECK_EQ(sched_gang_tick(g), SCHED_E_TIME);
}

/* The replay engine's side: tried only after an arrival, a start or an end, the skip still takes
 * every quiet stretch (a few SWITCHes for 2^31 quanta), and the hash, the metrics and the events
 * are those of every_quantum (a SWITCH per quantum, as --events-plans writes them). */
struct engine_seen {
	uint64_t switches, skips, others, hash;
	sched_time_t last_end;
};

static void on_replay(void *ctx, const struct sched_replay_event *e)
{
	struct engine_seen *s = ctx;
	if (e->kind == SCHED_RE_SWITCH) {
		s->switches++;
		return;
	}
	if (e->kind == SCHED_RE_SKIP) {
		s->skips++;
		return;
	}
	s->others++;
	s->hash = (s->hash ^ ((uint64_t)e->kind << 56 ^ (uint64_t)e->seq << 32 ^ e->time)) * 0x100000001b3ull;
	if (e->kind == SCHED_RE_END && e->time > s->last_end)
		s->last_end = e->time;
}

struct engine_src {
	const struct sched_replay_job *jobs;
	uint32_t n, next;
};

static int engine_next(void *ctx, struct sched_replay_job *job)
{
	struct engine_src *src = ctx;
	if (src->next == src->n)
		return 0;
	*job = src->jobs[src->next];
	job->seq = src->next++;
	return 1;
}

static void engine_run(const struct sched_replay_job *jobs, uint32_t n, sched_time_t quantum, bool every,
		       struct engine_seen *seen, void *room, struct sched_replay **r)
{
	struct sched_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.procs = 4;
	cfg.max_jobs = n;
	cfg.policy = SCHED_POLICY_GANG;
	cfg = tp_set(tp_set(cfg, "quantum", quantum), "scheme", SCHED_GANG_BRMMS);
	memset(seen, 0, sizeof *seen);
	*r = NULL; /* NULL to the caller unless the replay could start */
	CHECK(sched_replay_arena_size_cfg(&cfg) <= sizeof arena2);
	CHECK_EQ(sched_replay_init(r, room, SCHED_REPLAY_BYTES, &cfg, arena2, sizeof arena2, on_replay, seen), SCHED_OK);
	sched_replay_set_flags(*r, every ? SCHED_REPLAY_EVERY_QUANTUM : 0u);
	struct engine_src src = {jobs, n, 0};
	CHECK_EQ(sched_replay_run(*r, engine_next, &src), SCHED_OK);
}

static void the_engine_skips_quiet_quanta(void)
{
	static _Alignas(SCHED_ARENA_ALIGN) unsigned char room1[SCHED_REPLAY_BYTES], room2[SCHED_REPLAY_BYTES];
	struct sched_replay *r1 = NULL, *r2 = NULL;
	struct sched_replay_stats st1, st2;
	static struct engine_seen s1, s2;
	struct sched_replay_job jobs[6];
	memset(jobs, 0, sizeof jobs);
	const sched_time_t big = 2147483647u;
	for (int i = 0; i < 3; i++) {
		jobs[i].procs = i == 2 ? 2 : 1;
		jobs[i].run = jobs[i].estimate = big;
		jobs[i].partition = SCHED_PART_ANY;
	}
	engine_run(jobs, 3, 1, false, &s1, room1, &r1);
	CHECK(r1 != NULL);
	CHECK_EQ(s1.last_end, big);
	CHECK(s1.switches + s1.skips <= 4); /* before issue 25: 2^31 - 1 SWITCHes */
	struct sched_stats ss1, ss2;
	sched_stats(sched_replay_sched(r1), &ss1);
	CHECK_EQ(ss1.gang.quanta, big); /* the policy's counters, through sched_stats */
	sched_replay_stats(r1, &st1);
	CHECK(st1.calls < 10);

	/* Shorter jobs, whole-machine ones among them (several slots), arrivals during quiet stretches:
	 * the same as a quantum at a time. */
	const sched_time_t submit[6] = {0, 3, 7, 50000, 50001, 400000};
	const sched_procs_t procs[6] = {1, 4, 2, 4, 3, 1};
	const sched_time_t run[6] = {90000, 70000, 5, 120000, 4000, 1};
	for (int i = 0; i < 6; i++) {
		jobs[i].submit = submit[i];
		jobs[i].procs = procs[i];
		jobs[i].run = run[i];
		jobs[i].estimate = i == 1 ? run[i] / 2 : run[i] + 7; /* job 1 is cut at its estimate */
	}
	for (sched_time_t q = 1; q <= 7; q += 3) {
		engine_run(jobs, 6, q, true, &s1, room1, &r1);
		engine_run(jobs, 6, q, false, &s2, room2, &r2);
		CHECK(r1 != NULL && r2 != NULL);
		sched_replay_stats(r1, &st1);
		sched_replay_stats(r2, &st2);
		CHECK_EQ(st1.hash, st2.hash);
		CHECK_EQ(s1.hash, s2.hash);
		CHECK_EQ(s1.others, s2.others);
		CHECK(memcmp(&st1.metrics, &st2.metrics, sizeof st1.metrics) == 0);
		sched_stats(sched_replay_sched(r1), &ss1);
		sched_stats(sched_replay_sched(r2), &ss2);
		CHECK(memcmp(&ss1.gang, &ss2.gang, sizeof ss1.gang) == 0);
		CHECK_EQ(s1.skips, 0);
		CHECK(s2.skips > 0 && s2.switches * 100 < s1.switches);
	}
}


/*
 * Gang behind struct sched (issue 27): the same random workloads as above, driven once through the
 * module a quantum at a time (drive, the independent reference) and once through the sched API as
 * any caller drives any policy (sched_submit with the job's service, sched_advance at
 * sched_next_event), with and without every_slice, the arena moved to another buffer by a byte
 * copy at every few calls (sched_attach) and sched_check after every call. The same STARTs and ENDs
 * at the same times, and the same section 4.3 counters through sched_stats.
 */
static struct run_log api_log;
static uint64_t api_switches;

static void on_api(void *ctx, const struct sched_decision *d)
{
	struct run_log *l = ctx;
	if (d->kind == SCHED_DEC_SWITCH || d->kind == SCHED_DEC_SKIP) {
		api_switches += d->quanta;
		return;
	}
	CHECK(d->kind == SCHED_DEC_START || d->kind == SCHED_DEC_END || d->kind == SCHED_DEC_KILL);
	if (l->n < LOGCAP) {
		l->kind[l->n] = d->kind == SCHED_DEC_START ? SCHED_GANG_START : SCHED_GANG_END;
		l->job[l->n] = d->job;
		l->time[l->n] = d->time;
	}
	l->n++;
}

static _Alignas(8) unsigned char arena3[2][1u << 20];

static void the_policy_is_the_module_behind_struct_sched(void)
{
	static struct run_log ticked;
	static struct arrival a[GCAP];
	struct test_rng r;
	test_rng_seed(&r, 27);
	for (int round = 0; round < 120; round++) {
		uint32_t n;
		struct sched_gang_config c = random_round(&r, round, a, &n);
		enum sched_gang_scheme s = c.scheme;
		uint32_t procs = c.procs;
		struct sched_gang *g1;
		memset(&ticked, 0, sizeof ticked);
		CHECK_EQ(sched_gang_init(&g1, &c, arena, sizeof arena, on_log, &ticked, a[0].submit / c.quantum * c.quantum),
			 SCHED_OK);
		drive(g1, a, n, false);

		struct sched_config cfg;
		memset(&cfg, 0, sizeof cfg);
		cfg.procs = procs;
		cfg.max_jobs = GCAP;
		cfg.policy = SCHED_POLICY_GANG;
		cfg.every_slice = round % 2 == 1;
		cfg = tp_set(tp_set(cfg, "quantum", c.quantum), "max-slots", c.max_slots);
		cfg = tp_set(tp_set(cfg, "scheme", (uint32_t)s), "bc-slots", (uint32_t)c.bc_slots);
		size_t size = sched_arena_size_cfg(&cfg);
		CHECK(size <= sizeof arena3[0]);
		memset(&api_log, 0, sizeof api_log);
		api_switches = 0;
		struct sched *sc;
		int at = 0;
		CHECK_EQ(sched_init(&sc, &cfg, arena3[at], size, on_api, &api_log, a[0].submit), SCHED_OK);
		uint32_t next = 0, calls = 0;
		for (;;) {
			sched_time_t now = sched_next_event(sc);
			if (next < n && a[next].submit < now)
				now = a[next].submit;
			if (now == SCHED_TIME_MAX)
				break;
			while (next < n && a[next].submit == now) {
				struct sched_job_desc d = sched_desc(next + 1, a[next].procs, a[next].quanta * c.quantum + next % 3);
				d.service = a[next].quanta * c.quantum - (c.quantum > 1 ? next % 2 : 0); /* rounded up */
				CHECK_EQ(sched_submit(sc, &d, now), SCHED_OK);
				next++;
			}
			CHECK_EQ(sched_advance(sc, now), SCHED_OK);
			CHECK_EQ(sched_check(sc), SCHED_OK);
			if (++calls % 7 == 0) {
				memcpy(arena3[1 - at], arena3[at], size);
				memset(arena3[at], 0xA5, size);
				at = 1 - at;
				CHECK_EQ(sched_attach(&sc, arena3[at], size, on_api, &api_log), SCHED_OK);
			}
		}
		struct sched_stats st;
		sched_stats(sc, &st);
		CHECK_EQ(st.waiting + st.running, 0);
		CHECK_EQ(st.counters.started, n);
		CHECK_EQ(st.counters.finished, n);
		CHECK_EQ(api_log.n, ticked.n);
		CHECK(memcmp(api_log.kind, ticked.kind, ticked.n * sizeof ticked.kind[0]) == 0);
		CHECK(memcmp(api_log.job, ticked.job, ticked.n * sizeof ticked.job[0]) == 0);
		CHECK(memcmp(api_log.time, ticked.time, ticked.n * sizeof ticked.time[0]) == 0);
		CHECK(memcmp(&st.gang, &g1->counters, sizeof st.gang) == 0);
		CHECK_EQ(api_switches, ticked.switches);
	}
}

/* Through struct sched: a job without a service is killed at its estimate; finish and cancel take jobs
 * off the matrix; a move between time and space sharing is refused; gang refuses what it cannot do. */
static void the_policy_by_hand(void)
{
	struct sched_config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.procs = 4;
	cfg.max_jobs = 8;
	cfg.policy = SCHED_POLICY_GANG;
	cfg = tp_set(tp_set(cfg, "quantum", 10), "scheme", SCHED_GANG_BR);
	struct sched *sc;
	memset(&api_log, 0, sizeof api_log);
	CHECK_EQ(sched_init(&sc, &cfg, arena3[0], sizeof arena3[0], on_api, &api_log, 3), SCHED_OK);
	struct sched_job_desc d = sched_desc(1, 4, 25); /* no service: 3 quanta, then killed */
	CHECK_EQ(sched_submit(sc, &d, 3), SCHED_OK);
	sched_time_t p;
	CHECK_EQ(sched_predict(sc, 1, &p), SCHED_E_NOTSUP);
	CHECK_EQ(sched_next_event(sc), 10); /* placed at the first boundary after its arrival */
	d = sched_desc(2, 4, 100);
	d.service = 100;
	CHECK_EQ(sched_submit(sc, &d, 4), SCHED_OK);
	d = sched_desc(3, 2, 100);
	d.service = 100;
	CHECK_EQ(sched_submit(sc, &d, 5), SCHED_OK);
	CHECK_EQ(sched_set_policy(sc, SCHED_POLICY_EASY, 5), SCHED_E_NOTSUP);
	CHECK_EQ(sched_advance(sc, 40), SCHED_OK);
	CHECK_EQ(sched_check(sc), SCHED_OK);
	struct sched_job_info ji;
	CHECK_EQ(sched_job_get(sc, 1, &ji), SCHED_OK);
	CHECK_EQ(ji.state, SCHED_JOB_RUNNING);
	CHECK_EQ(sched_cancel(sc, 3, 41), SCHED_OK); /* waiting or running: off the matrix */
	CHECK_EQ(sched_finish(sc, 2, 42), SCHED_OK);
	CHECK_EQ(sched_check(sc), SCHED_OK);
	for (sched_time_t t; (t = sched_next_event(sc)) != SCHED_TIME_MAX;)
		CHECK_EQ(sched_advance(sc, t), SCHED_OK);
	struct sched_stats st;
	sched_stats(sc, &st);
	CHECK_EQ(st.counters.killed, 1);
	CHECK_EQ(st.counters.finished, 1);
	CHECK_EQ(st.counters.cancelled, 1);
	CHECK_EQ(st.waiting + st.running, 0);
	CHECK_EQ(st.gang.submitted, 3);
	CHECK_EQ(sched_check(sc), SCHED_OK);
	/* Not a power of two; partitions. */
	cfg.procs = 6;
	CHECK_EQ(sched_init(&sc, &cfg, arena3[0], sizeof arena3[0], on_api, &api_log, 0), SCHED_E_INVAL);
	cfg.procs = 8;
	cfg.n_partitions = 2;
	cfg.partition_procs[0] = cfg.partition_procs[1] = 4;
	CHECK_EQ(sched_init(&sc, &cfg, arena3[0], sizeof arena3[0], on_api, &api_log, 0), SCHED_E_NOTSUP);
}

static const struct test tests[] = {
	{"config_and_buddy_sizes", config_and_buddy_sizes},
	{"workload_tree_by_hand", workload_tree_by_hand},
	{"fig1_repacking_eliminates_a_slot", fig1_repacking_eliminates_a_slot},
	{"legal_shifts_keep_jobs_whole", legal_shifts_keep_jobs_whole},
	{"extra_slots_brms_brmms", extra_slots_brms_brmms},
	{"time_slicing_by_hand", time_slicing_by_hand},
	{"waiting_when_slots_run_out", waiting_when_slots_run_out},
	{"random_runs_keep_invariants", random_runs_keep_invariants},
	{"new_slots_do_not_starve_old_ones", new_slots_do_not_starve_old_ones},
	{"brmms_takes_extras_back_when_an_arrival_must_wait", brmms_takes_extras_back_when_an_arrival_must_wait},
	{"clock_arena_and_table_edges", clock_arena_and_table_edges},
	{"bc_keeps_its_last_slot", bc_keeps_its_last_slot},
	{"bc_fit_readings", bc_fit_readings},
	{"skipping_quiet_quanta_is_ticking", skipping_quiet_quanta_is_ticking},
	{"quiet_quanta_by_hand", quiet_quanta_by_hand},
	{"the_engine_skips_quiet_quanta", the_engine_skips_quiet_quanta},
	{"the_policy_is_the_module_behind_struct_sched", the_policy_is_the_module_behind_struct_sched},
	{"the_policy_by_hand", the_policy_by_hand},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("gang", tests, argc, argv);
}
