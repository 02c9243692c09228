/* SPDX-License-Identifier: MIT */
/* Gang scheduling (Zhou, Walsh and Brent 2000): the scheduling matrix, buddy blocks, legal shifts, the workload tree, four schemes. */
#include "gang_priv.h"
#include "failpoint.h"
#include "util.h"

/*
 * Rows are time slots, columns processors; cells hold a job index + 1 (0 is
 * idle). `order` lists the rows in use in round-robin order. A job of p
 * processors holds the aligned buddy block of n = 2^ceil(log2 p) processors
 * (section 1: n / 2 < p <= n) in every slot it occupies, and the
 * whole block counts as busy (buddy internal fragmentation), though only p
 * processors count as active.
 *
 * The workload tree (section 3) has log N + 1 levels in heap layout: node 1
 * is the root, node N + x the leaf of processor x, whose value is its idle
 * slot count; an inner node is the sum of its children when both are
 * non-zero, else 0. A non-zero node tells that every processor of its block
 * has an idle slot, and then (Property 1, by legal shifts) one slot can be
 * made free over the whole block: sched_gang_free_slot. Shifts move jobs
 * between rows on the same columns, so they change no leaf: the tree only
 * changes when jobs come and go and when slots are made or deleted.
 *
 * The schemes (section 4.1):
 *  - BC: the first slot, in round-robin order, with a free aligned block of
 *    the job's size (leftmost first); else a new slot. No re-packing. The
 *    other readings of "the conventional buddy system" (next fit, slot order,
 *    the newest slot only) are SCHED_GANG_FIT_*, not the default.
 *  - BR: the block at the job's tree level with the largest non-zero value
 *    (the least loaded; ties to the left), freed in one slot by re-packing;
 *    if none, a new slot and then the same choice. Whenever the root is
 *    non-zero a slot is freed by re-packing and deleted (Property 2).
 *  - BRMS: BR, and after every change each placed job, oldest first, takes
 *    extra slots while its block's node is non-zero; it keeps them.
 *  - BRMMS: BRMS, but all extra slots are given up when an arrival finds no
 *    block at its level, or when giving them up would let a slot be deleted
 *    (the root, counting extra copies as idle, is non-zero); they are then
 *    handed out again.
 * A slot that becomes empty is deleted at once, except BC's last slot: the
 * paper's BC keeps one slot on an idle machine (its n_a is 1.16 at r_a 0.19,
 * Table 1, where BR's is 0.45). BC deletes a slot only when every job in it
 * has ended, since it has no re-packing (Property 2 is BR's). The old
 * reading, BC dropping to no slot at all, is SCHED_GANG_BC_DROP_EMPTY.
 */

#define NO_ROW UINT32_MAX

static bool power_of_two(uint32_t v)
{
	return v != 0 && (v & (v - 1u)) == 0;
}

static uint32_t block_size(uint32_t p)
{
	uint32_t n = 1;
	while (n < p)
		n <<= 1;
	return n;
}

static uint16_t *row_cells(const struct sched_gang *g, uint32_t row)
{
	return gang_cells(g) + (size_t)row * g->cfg.procs;
}

static uint32_t index_of(const struct sched_gang *g, const struct sched_gang_job *j)
{
	return (uint32_t)(j - gang_jobs(g));
}

/* --- the workload tree -------------------------------------------------------------------- */

static uint32_t combine(uint32_t a, uint32_t b)
{
	return a != 0 && b != 0 ? a + b : 0;
}

/* The leaves of block [b, b + m) changed by delta each: fix its subtree and its ancestors. O(m + log N). */
static void tree_adjust(struct sched_gang *g, uint32_t b, uint32_t m, int32_t delta)
{
	uint32_t n = g->cfg.procs;
	for (uint32_t x = b; x < b + m; x++)
		gang_tree(g)[n + x] = (uint32_t)((int32_t)gang_tree(g)[n + x] + delta);
	for (uint32_t lo = (n + b) / 2, hi = (n + b + m - 1) / 2; lo >= 1; lo /= 2, hi /= 2) {
		for (uint32_t i = lo; i <= hi; i++)
			gang_tree(g)[i] = combine(gang_tree(g)[2 * i], gang_tree(g)[2 * i + 1]);
		if (lo == 1)
			break;
	}
}

/* --- slots ------------------------------------------------------------------------------------ */

static uint32_t new_slot(struct sched_gang *g)
{
	if (g->n_free_rows == 0 || SCHED_FAIL(SCHED_FAIL_GANG_SLOT))
		return NO_ROW;
	uint32_t row = gang_free_rows(g)[--g->n_free_rows];
	sched_zero(row_cells(g, row), (size_t)g->cfg.procs * sizeof *gang_cells(g));
	gang_row_busy(g)[row] = 0;
	/* The new slot joins the round just before the slot that runs next, so it runs last in the
	 * current round. Appended at the end it would run before every slot still waiting for its
	 * turn, and a stream of arrivals that each need a new slot could starve the older slots. */
	uint32_t pos = g->cur == 0 ? g->n_slots : g->cur;
	for (uint32_t i = g->n_slots; i > pos; i--)
		gang_order(g)[i] = gang_order(g)[i - 1u];
	gang_order(g)[pos] = (uint16_t)row;
	g->n_slots++;
	if (g->cur != 0)
		g->cur++;
	if (g->n_slots > g->counters.max_slots_seen)
		g->counters.max_slots_seen = g->n_slots;
	g->counters.slots_created++;
	g->bc_newest = row;
	if (g->cfg.bc_fit == SCHED_GANG_FIT_SLOT_ORDER)
		gang_born(g)[row] = g->born_seq++;
	tree_adjust(g, 0, g->cfg.procs, 1);
	return row;
}

static void delete_slot_at(struct sched_gang *g, uint32_t pos)
{
	SCHED_ASSERT(gang_row_busy(g)[gang_order(g)[pos]] == 0);
	if (gang_order(g)[pos] == g->bc_last)
		g->bc_last = NO_ROW;
	if (gang_order(g)[pos] == g->bc_newest)
		g->bc_newest = NO_ROW;
	gang_free_rows(g)[g->n_free_rows++] = gang_order(g)[pos];
	for (uint32_t i = pos; i + 1 < g->n_slots; i++)
		gang_order(g)[i] = gang_order(g)[i + 1];
	g->n_slots--;
	/* The round robin goes on with the slot that followed. */
	if (pos < g->cur)
		g->cur--;
	if (g->cur >= g->n_slots)
		g->cur = 0;
	g->counters.slots_deleted++;
	tree_adjust(g, 0, g->cfg.procs, -1);
}

/* Does this configuration keep the last slot when it empties (BC as the paper has it)? */
static bool keeps_last_slot(const struct sched_gang *g)
{
	return g->cfg.scheme == SCHED_GANG_BC && g->cfg.bc_slots == SCHED_GANG_BC_KEEP_ONE;
}

static void delete_empty_slots(struct sched_gang *g)
{
	for (uint32_t pos = g->n_slots; pos-- > 0;)
		if (gang_row_busy(g)[gang_order(g)[pos]] == 0 && !(g->n_slots == 1 && keeps_last_slot(g)))
			delete_slot_at(g, pos);
}

static uint32_t position_of(const struct sched_gang *g, uint32_t row)
{
	for (uint32_t pos = 0; pos < g->n_slots; pos++)
		if (gang_order(g)[pos] == row)
			return pos;
	return NO_ROW;
}

/* --- cells ------------------------------------------------------------------------------------ */

static bool block_free(const struct sched_gang *g, uint32_t row, uint32_t b, uint32_t m)
{
	const uint16_t *c = row_cells(g, row);
	for (uint32_t x = b; x < b + m; x++)
		if (c[x] != 0)
			return false;
	return true;
}

static void fill(struct sched_gang *g, uint32_t row, struct sched_gang_job *j)
{
	uint16_t *c = row_cells(g, row);
	uint16_t v = (uint16_t)(index_of(g, j) + 1u);
	for (uint32_t x = j->block; x < j->block + j->size; x++)
		c[x] = v;
	gang_row_busy(g)[row] += j->size;
	j->copies++;
	tree_adjust(g, j->block, j->size, -1);
}

static void clear(struct sched_gang *g, uint32_t row, struct sched_gang_job *j)
{
	uint16_t *c = row_cells(g, row);
	for (uint32_t x = j->block; x < j->block + j->size; x++)
		c[x] = 0;
	gang_row_busy(g)[row] -= j->size;
	j->copies--;
	tree_adjust(g, j->block, j->size, 1);
}

/* A legal shift, section 2: the contents of two rows over an aligned block change places. */
static void swap_rows(struct sched_gang *g, uint32_t r1, uint32_t r2, uint32_t b, uint32_t m)
{
	uint16_t *c1 = row_cells(g, r1), *c2 = row_cells(g, r2);
	uint32_t busy1 = 0, busy2 = 0; /* over the block, before the exchange */
	for (uint32_t x = b; x < b + m; x++) {
		busy1 += c1[x] != 0;
		busy2 += c2[x] != 0;
	}
	if (busy1 == 0 && busy2 == 0)
		return; /* both idle there: nothing moves, and it is no shift */
	for (uint32_t x = b; x < b + m; x++) {
		uint16_t t = c1[x];
		c1[x] = c2[x];
		c2[x] = t;
	}
	gang_row_busy(g)[r1] = gang_row_busy(g)[r1] - busy1 + busy2;
	gang_row_busy(g)[r2] = gang_row_busy(g)[r2] - busy2 + busy1;
	g->counters.repacks++;
}

/* Property 1 by recursion over [b, b + m), the first idle row of each processor x in first[x - b0]. */
static uint32_t free_rec(struct sched_gang *g, const uint32_t *first, uint32_t b0, uint32_t b, uint32_t m)
{
	if (m == 1)
		return first[b - b0];
	/*
	 * Free each half in some slot; if the slots differ, exchange the two rows
	 * over the right half. That is legal: in the left half's slot the left
	 * half is free, so no job there can reach into the right half from outside
	 * it (buddy blocks nest), and in the right half's slot the right half is
	 * empty.
	 */
	uint32_t h = m / 2;
	uint32_t left = free_rec(g, first, b0, b, h), right = free_rec(g, first, b0, b + h, h);
	if (left != right)
		swap_rows(g, left, right, b + h, h);
	return left;
}

uint32_t sched_gang_free_slot(struct sched_gang *g, uint32_t b, uint32_t m)
{
	/*
	 * Each processor's part is the first slot, in round-robin order, idle on
	 * it. The exchanges of the recursion only touch the columns of a right
	 * half whose processors have all been looked up, so every processor's
	 * first idle slot can be found up front, in one pass over the rows (a
	 * row's cells of the block are contiguous; a full row is passed over by
	 * its busy count). With thousands of slots (BRMS on a loaded machine, no
	 * bound on slots) this is the replay's hot spot. The context switch list
	 * is the scratch: it is not in use outside sched_gang_tick's listing.
	 */
	uint32_t *first = (uint32_t *)(void *)gang_runs(g), missing = m, full = g->cfg.procs;
	for (uint32_t x = 0; x < m; x++)
		first[x] = NO_ROW;
	for (uint32_t pos = 0; pos < g->n_slots && missing > 0; pos++) {
		uint32_t row = gang_order(g)[pos];
		if (gang_row_busy(g)[row] == full)
			continue;
		const uint16_t *c = row_cells(g, row) + b;
		for (uint32_t x = 0; x < m; x++)
			if (c[x] == 0 && first[x] == NO_ROW) {
				first[x] = row;
				missing--;
			}
	}
	SCHED_ASSERT(missing == 0); /* the caller checked the tree: every processor has an idle slot */
	return free_rec(g, first, b, b, m);
}

/* --- placement ----------------------------------------------------------------------------- */

/* BR's choice: the non-zero node of the job's level with the largest value, leftmost on ties; or NO_ROW. */
static uint32_t best_block(const struct sched_gang *g, uint32_t m)
{
	uint32_t first = g->cfg.procs / m, best = NO_ROW, best_v = 0;
	for (uint32_t node = first; node < 2 * first; node++)
		if (gang_tree(g)[node] > best_v) {
			best_v = gang_tree(g)[node];
			best = (node - first) * m;
		}
	return best;
}

/* The leftmost free aligned block of m processors in a row, or NO_ROW. */
static uint32_t free_block(const struct sched_gang *g, uint32_t row, uint32_t m)
{
	if (gang_row_busy(g)[row] + m > g->cfg.procs)
		return NO_ROW;
	for (uint32_t b = 0; b < g->cfg.procs; b += m)
		if (block_free(g, row, b, m))
			return b;
	return NO_ROW;
}

/* BC's slot for a block of m under the reading in force (enum sched_gang_bc_fit), its block in
 * *block; NO_ROW when the slots it looks at have none. O(slots x procs / m). */
static uint32_t bc_slot(const struct sched_gang *g, uint32_t m, uint32_t *block)
{
	uint32_t n = g->n_slots, row = NO_ROW;
	switch (g->cfg.bc_fit) {
	case SCHED_GANG_FIT_NEWEST:
		row = g->bc_newest;
		if (row == NO_ROW && n == 1 && gang_row_busy(g)[gang_order(g)[0]] == 0)
			row = gang_order(g)[0]; /* the slot an idle machine keeps holds no older job */
		if (row != NO_ROW && (*block = free_block(g, row, m)) != NO_ROW)
			return row;
		return NO_ROW;
	case SCHED_GANG_FIT_SLOT_ORDER:
		for (uint32_t pos = 0; pos < n; pos++) {
			uint32_t r = gang_order(g)[pos], b;
			if ((row == NO_ROW || gang_born(g)[r] < gang_born(g)[row]) && (b = free_block(g, r, m)) != NO_ROW) {
				row = r;
				*block = b;
			}
		}
		return row;
	case SCHED_GANG_FIT_NEXT: {
		uint32_t start = g->bc_last == NO_ROW ? 0 : position_of(g, g->bc_last);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t r = gang_order(g)[(start + i) % n];
			if ((*block = free_block(g, r, m)) != NO_ROW)
				return r;
		}
		return NO_ROW;
	}
	default:
		for (uint32_t pos = 0; pos < n; pos++)
			if ((*block = free_block(g, gang_order(g)[pos], m)) != NO_ROW)
				return gang_order(g)[pos];
		return NO_ROW;
	}
}

static bool place_bc(struct sched_gang *g, struct sched_gang_job *j)
{
	uint32_t b = 0, row = bc_slot(g, j->size, &b);
	if (row == NO_ROW) {
		row = new_slot(g);
		if (row == NO_ROW)
			return false;
		b = 0;
	}
	j->block = b;
	fill(g, row, j);
	g->bc_last = row;
	return true;
}

static void release_extras(struct sched_gang *g);
static void grant_extras(struct sched_gang *g);

static bool place_br(struct sched_gang *g, struct sched_gang_job *j)
{
	uint32_t b = best_block(g, j->size);
	if (b == NO_ROW && g->cfg.scheme == SCHED_GANG_BRMMS) {
		release_extras(g); /* "a new arrival cannot fit into the existing time slots" */
		b = best_block(g, j->size);
	}
	if (b == NO_ROW) {
		if (new_slot(g) == NO_ROW) {
			/* No room even so: the extras given up for nothing go back at once. */
			if (g->cfg.scheme == SCHED_GANG_BRMMS)
				grant_extras(g);
			return false;
		}
		b = best_block(g, j->size);
		SCHED_ASSERT(b != NO_ROW); /* the new slot is idle on every processor */
	}
	j->block = b;
	fill(g, sched_gang_free_slot(g, b, j->size), j);
	return true;
}

static bool place(struct sched_gang *g, struct sched_gang_job *j)
{
	return g->cfg.scheme == SCHED_GANG_BC ? place_bc(g, j) : place_br(g, j);
}

/* --- extra slots (BRMS, BRMMS) ------------------------------------------------------------------ */

static void grant_extras(struct sched_gang *g)
{
	struct sched_list *it;
	sched_list_for_each(it, &g->placed) {
		struct sched_gang_job *j = SCHED_LIST_ENTRY(it, struct sched_gang_job, link);
		uint32_t node = (g->cfg.procs + j->block) / j->size;
		while (gang_tree(g)[node] != 0) {
			fill(g, sched_gang_free_slot(g, j->block, j->size), j);
			g->counters.extra_slots++;
		}
	}
}

/* Every job keeps one copy, the one in the earliest slot of the round robin. */
static void release_extras(struct sched_gang *g)
{
	struct sched_list *it;
	sched_list_for_each(it, &g->placed) {
		struct sched_gang_job *j = SCHED_LIST_ENTRY(it, struct sched_gang_job, link);
		uint16_t v = (uint16_t)(index_of(g, j) + 1u);
		bool kept = false;
		for (uint32_t pos = 0; pos < g->n_slots && j->copies > 1; pos++) {
			uint32_t row = gang_order(g)[pos];
			if (row_cells(g, row)[j->block] != v)
				continue;
			if (!kept) {
				kept = true;
				continue;
			}
			clear(g, row, j);
			g->counters.extras_released++;
		}
	}
	delete_empty_slots(g);
}

/* BRMMS: would giving up every extra copy leave an idle slot on every processor? */
static bool extras_would_free_a_slot(const struct sched_gang *g)
{
	uint32_t n = g->cfg.procs;
	for (uint32_t x = 0; x < n; x++) {
		if (gang_tree(g)[n + x] != 0)
			continue;
		/* No idle slot: one of its cells must be a copy that would be given up. */
		bool extra = false;
		for (uint32_t pos = 0; pos < g->n_slots && !extra; pos++) {
			uint16_t v = row_cells(g, gang_order(g)[pos])[x];
			extra = v != 0 && gang_jobs(g)[v - 1u].copies > 1;
		}
		if (!extra)
			return false;
	}
	return true;
}

/* --- reacting to a change ----------------------------------------------------------------------- */

static void place_waiting(struct sched_gang *g)
{
	while (g->n_waiting > 0) {
		struct sched_gang_job *j = SCHED_LIST_ENTRY(sched_list_first(&g->waiting), struct sched_gang_job, link);
		if (!place(g, j))
			return; /* still no slot to be had: the queue keeps its order */
		sched_list_remove(&j->link);
		g->n_waiting--;
		j->state = 2;
		sched_list_push_back(&g->placed, &j->link);
		g->n_placed++;
	}
}

/* After any change: delete what can be deleted, place waiting jobs, hand out extra slots. */
static void settle(struct sched_gang *g)
{
	delete_empty_slots(g);
	if (g->cfg.scheme != SCHED_GANG_BC) {
		if (g->cfg.scheme == SCHED_GANG_BRMMS && g->n_slots > 0 && gang_tree(g)[1] == 0 &&
		    extras_would_free_a_slot(g))
			release_extras(g); /* "or if a time slot in the system can be deleted" */
		/* Property 2: an idle slot on every processor makes one slot free; delete it. */
		while (g->n_slots > 0 && gang_tree(g)[1] != 0) {
			uint32_t row = sched_gang_free_slot(g, 0, g->cfg.procs);
			delete_slot_at(g, position_of(g, row));
		}
	}
	place_waiting(g);
	if (g->cfg.scheme == SCHED_GANG_BRMS || g->cfg.scheme == SCHED_GANG_BRMMS)
		grant_extras(g);
}

void sched_gang_end(struct sched_gang *g, struct sched_gang_job *j)
{
	uint16_t v = (uint16_t)(index_of(g, j) + 1u);
	for (uint32_t pos = 0; pos < g->n_slots && j->copies > 0; pos++)
		if (row_cells(g, gang_order(g)[pos])[j->block] == v)
			clear(g, gang_order(g)[pos], j);
	sched_list_remove(&j->link);
	g->n_placed--;
	j->state = 0;
	sched_list_push_back(&g->free_jobs, &j->link);
	g->counters.ended++;
	settle(g);
}

/* --- the API ---------------------------------------------------------------------------------- */

static bool cfg_ok(const struct sched_gang_config *c)
{
	return c != NULL && power_of_two(c->procs) && c->procs <= 32768u && c->max_slots >= 1 &&
	       c->max_slots <= 65535u && c->max_jobs >= 1 && c->max_jobs <= 65534u && c->quantum > 0 &&
	       (unsigned)c->scheme < SCHED_GANG_SCHEME_COUNT && (unsigned)c->bc_slots < SCHED_GANG_BC_SLOTS_COUNT &&
	       (unsigned)c->bc_fit < SCHED_GANG_BC_FIT_COUNT;
}

uint32_t sched_gang_slots_for(uint32_t max_slots, uint32_t max_jobs)
{
	if (max_slots != 0)
		return max_slots;
	return max_jobs == 0 ? 1u : max_jobs > 65535u ? 65535u : max_jobs;
}

#define ALIGN8(n) (((n) + 7u) & ~(size_t)7u)

#define ALIGN8_64(n) (((uint64_t)(n) + 7u) & ~(uint64_t)7u)

size_t sched_gang_arena_size(const struct sched_gang_config *c)
{
	if (!cfg_ok(c))
		return 0;
	/* In 64 bits: the largest configuration needs about 4 GiB, which a 32-bit size_t cannot hold. */
	uint64_t n = ALIGN8_64(sizeof(struct sched_gang)) +
		     ALIGN8_64((uint64_t)c->max_jobs * sizeof(struct sched_gang_job)) +
		     ALIGN8_64((uint64_t)c->max_slots * c->procs * sizeof(uint16_t)) +
		     ALIGN8_64(2u * (uint64_t)c->procs * sizeof(uint32_t)) +
		     ALIGN8_64((uint64_t)c->max_slots * sizeof(uint16_t)) * 2u +
		     ALIGN8_64((uint64_t)c->max_slots * sizeof(uint32_t)) +
		     ALIGN8_64((uint64_t)c->procs * sizeof(struct sched_slice_run)) +
		     ALIGN8_64(c->bc_fit == SCHED_GANG_FIT_SLOT_ORDER ? (uint64_t)c->max_slots * sizeof(uint32_t) : 0u);
	return n > (uint64_t)SIZE_MAX ? 0 : (size_t)n;
}

int sched_gang_init(struct sched_gang **out, const struct sched_gang_config *cfg, void *arena, size_t size,
		    sched_gang_event_fn emit, void *ctx, sched_time_t origin)
{
	if (out == NULL || !cfg_ok(cfg) || arena == NULL || (uintptr_t)arena % 8u != 0)
		return SCHED_E_INVAL;
	size_t need = sched_gang_arena_size(cfg);
	if (need == 0)
		return SCHED_E_RANGE; /* more than the address space */
	if (size < need)
		return SCHED_E_NOSPACE;
	struct sched_gang *g = arena;
	sched_zero(g, sizeof *g);
	g->magic = SCHED_GANG_MAGIC;
	g->arena_used = need > UINT32_MAX ? UINT32_MAX : (uint32_t)need;
	sched_copy(&g->cfg, cfg, sizeof g->cfg);
	unsigned char *m = (unsigned char *)arena + ALIGN8(sizeof *g);
	sched_rel_set(&g->jobs_at, m);
	m += ALIGN8((size_t)cfg->max_jobs * sizeof(struct sched_gang_job));
	sched_rel_set(&g->cells_at, m);
	m += ALIGN8((size_t)cfg->max_slots * cfg->procs * sizeof(uint16_t));
	sched_rel_set(&g->tree_at, m);
	m += ALIGN8(2u * (size_t)cfg->procs * sizeof(uint32_t));
	sched_rel_set(&g->order_at, m);
	m += ALIGN8((size_t)cfg->max_slots * sizeof(uint16_t));
	sched_rel_set(&g->free_rows_at, m);
	m += ALIGN8((size_t)cfg->max_slots * sizeof(uint16_t));
	sched_rel_set(&g->row_busy_at, m);
	m += ALIGN8((size_t)cfg->max_slots * sizeof(uint32_t));
	sched_rel_set(&g->runs_at, m);
	m += ALIGN8((size_t)cfg->procs * sizeof(struct sched_slice_run));
	sched_rel_set(&g->born_at, m); /* max_slots words for the slot-order fit, else nothing */
	g->levels = 0;
	while ((1u << g->levels) < cfg->procs)
		g->levels++;
	sched_list_init(&g->free_jobs);
	sched_list_init(&g->placed);
	sched_list_init(&g->waiting);
	for (uint32_t i = 0; i < cfg->max_jobs; i++) {
		gang_jobs(g)[i].state = 0;
		sched_list_push_back(&g->free_jobs, &gang_jobs(g)[i].link);
	}
	g->n_free_rows = cfg->max_slots;
	for (uint32_t r = 0; r < cfg->max_slots; r++)
		gang_free_rows(g)[r] = (uint16_t)(cfg->max_slots - 1u - r); /* row 0 is handed out first */
	g->n_slots = 0;
	g->cur = 0;
	g->bc_last = g->bc_newest = NO_ROW;
	g->born_seq = 0;
	g->n_placed = 0;
	g->n_waiting = 0;
	g->now = origin;
	g->emit = emit;
	g->emit_ctx = ctx;
	sched_zero(&g->counters, sizeof g->counters);
	sched_zero(gang_tree(g), 2u * (size_t)cfg->procs * sizeof *gang_tree(g));
	*out = g;
	return SCHED_OK;
}

int sched_gang_attach(struct sched_gang **out, void *arena, size_t size, sched_gang_event_fn emit, void *ctx)
{
	if (out == NULL || arena == NULL || (uintptr_t)arena % 8u != 0)
		return SCHED_E_INVAL;
	if (size < sizeof(struct sched_gang))
		return SCHED_E_NOSPACE;
	struct sched_gang *g = arena;
	if (g->magic != SCHED_GANG_MAGIC)
		return SCHED_E_FORMAT;
	if (size < g->arena_used)
		return SCHED_E_NOSPACE;
	g->emit = emit;
	g->emit_ctx = ctx;
	*out = g;
	return SCHED_OK;
}

uint32_t sched_gang_jobs(const struct sched_gang *g)
{
	return g->n_placed + g->n_waiting;
}

sched_time_t sched_gang_now(const struct sched_gang *g)
{
	return g->now;
}

const struct sched_gang_counters *sched_gang_counters(const struct sched_gang *g)
{
	return &g->counters;
}

uint32_t sched_gang_tree(const struct sched_gang *g, uint32_t node)
{
	return gang_tree(g)[node];
}

struct sched_gang_job *sched_gang_find(struct sched_gang *g, uint32_t id)
{
	struct sched_list *lists[2] = {&g->placed, &g->waiting};
	for (int k = 0; k < 2; k++) {
		struct sched_list *it;
		sched_list_for_each(it, lists[k]) {
			struct sched_gang_job *j = SCHED_LIST_ENTRY(it, struct sched_gang_job, link);
			if (j->id == id)
				return j;
		}
	}
	return NULL;
}

static struct sched_gang_job *new_job(struct sched_gang *g, uint32_t id, uint32_t procs, uint32_t quanta,
				      sched_time_t now)
{
	if (sched_list_empty(&g->free_jobs) || SCHED_FAIL(SCHED_FAIL_GANG_JOB))
		return NULL;
	struct sched_gang_job *j = SCHED_LIST_ENTRY(sched_list_first(&g->free_jobs), struct sched_gang_job, link);
	sched_list_remove(&j->link);
	j->id = id;
	j->procs = procs;
	j->size = block_size(procs);
	j->block = 0;
	j->remaining = quanta;
	j->quanta = quanta;
	j->how = 0;
	j->arrival = now;
	j->first_run = SCHED_TIME_MAX;
	j->copies = 0;
	return j;
}

int sched_gang_submit(struct sched_gang *g, uint32_t id, uint32_t procs, uint32_t quanta, sched_time_t now)
{
	return sched_gang_submit_how(g, id, procs, quanta, SCHED_GANG_DONE, now);
}

int sched_gang_submit_how(struct sched_gang *g, uint32_t id, uint32_t procs, uint32_t quanta,
			  enum sched_gang_end_kind how, sched_time_t now)
{
	if (procs == 0 || quanta == 0)
		return SCHED_E_INVAL;
	if (procs > g->cfg.procs)
		return SCHED_E_RANGE;
	if (now < g->now || now - g->now >= g->cfg.quantum)
		return SCHED_E_TIME;
	if (sched_gang_find(g, id) != NULL)
		return SCHED_E_EXIST;
	struct sched_gang_job *j = new_job(g, id, procs, quanta, now);
	if (j == NULL)
		return SCHED_E_NOSPACE;
	j->how = (uint8_t)how;
	g->counters.submitted++;
	/* Arrival order is kept: a newcomer never overtakes a job already waiting. */
	if (g->n_waiting == 0 && place(g, j)) {
		j->state = 2;
		sched_list_push_back(&g->placed, &j->link);
		g->n_placed++;
		settle(g);
	} else {
		j->state = 1;
		sched_list_push_back(&g->waiting, &j->link);
		g->n_waiting++;
		g->counters.queued++;
	}
	return SCHED_OK;
}

static void emit_how(struct sched_gang *g, enum sched_gang_event_kind kind, sched_time_t t, uint32_t job,
		     uint32_t slot, uint32_t n_runs, uint32_t quanta, uint8_t how)
{
	if (g->emit == NULL)
		return;
	struct sched_gang_event e;
	e.kind = kind;
	e.time = t;
	e.job = job;
	e.slot = slot;
	e.runs = gang_runs(g);
	e.n_runs = n_runs;
	e.quanta = quanta;
	e.how = how;
	g->emit(g->emit_ctx, &e);
}

static void emit(struct sched_gang *g, enum sched_gang_event_kind kind, sched_time_t t, uint32_t job, uint32_t slot,
		 uint32_t n_runs, uint32_t quanta)
{
	emit_how(g, kind, t, job, slot, n_runs, quanta, 0);
}

int sched_gang_tick(struct sched_gang *g)
{
	if (g->now > SCHED_TIME_MAX - g->cfg.quantum)
		return SCHED_E_TIME; /* the clock would wrap */
	/* A waiting job waits for an end to make room; with nothing placed none will come (a
	 * slot was refused on an empty machine, which only fault injection does), so it is tried
	 * again at each quantum instead. */
	if (g->n_slots == 0 && g->n_waiting > 0)
		settle(g);
	sched_time_t start = g->now;
	g->counters.quanta++;
	g->counters.slot_quanta += g->n_slots;
	g->now += g->cfg.quantum;
	if (g->n_slots == 0)
		return SCHED_OK;
	uint32_t row = gang_order(g)[g->cur];
	g->cur = (g->cur + 1u) % g->n_slots;
	/* The context switch list: every job of the slot, once, left to right. */
	const uint16_t *c = row_cells(g, row);
	uint32_t n_runs = 0;
	for (uint32_t x = 0; x < g->cfg.procs;) {
		if (c[x] == 0) {
			x++;
			continue;
		}
		struct sched_gang_job *j = &gang_jobs(g)[c[x] - 1u];
		gang_runs(g)[n_runs].job = j->id;
		gang_runs(g)[n_runs].first = j->block;
		gang_runs(g)[n_runs].count = j->size;
		n_runs++;
		x = j->block + j->size;
	}
	emit(g, SCHED_GANG_SWITCH, start, 0, row, n_runs, 1);
	/* A job holds one block in a row, so it is listed, and advances, once. */
	uint32_t done = 0;
	for (uint32_t i = 0; i < n_runs; i++) {
		struct sched_gang_job *j = &gang_jobs(g)[c[gang_runs(g)[i].first] - 1u];
		g->counters.busy_quanta += j->procs;
		if (j->first_run == SCHED_TIME_MAX) {
			j->first_run = start;
			emit(g, SCHED_GANG_START, start, j->id, row, 0, 0);
		}
		if (--j->remaining == 0)
			done++;
	}
	/* Ends at the boundary, in arrival order; each changes the matrix, so one at a time. */
	while (done > 0) {
		struct sched_gang_job *end = NULL;
		struct sched_list *it;
		sched_list_for_each(it, &g->placed) {
			struct sched_gang_job *j = SCHED_LIST_ENTRY(it, struct sched_gang_job, link);
			if (j->remaining == 0) {
				end = j;
				break;
			}
		}
		SCHED_ASSERT(end != NULL);
		uint32_t id = end->id, quanta = end->quanta;
		uint8_t how = end->how;
		sched_gang_end(g, end);
		emit_how(g, SCHED_GANG_END, g->now, id, 0, 0, quanta, how);
		done--;
	}
	return SCHED_OK;
}

uint32_t sched_gang_skip(struct sched_gang *g, sched_time_t until)
{
	/*
	 * A boundary is a no-op when the quantum after it only moves the clock:
	 * no arrival is placed (the caller's until), no job starts (a START and
	 * its time), none ends (an END, then settle(): re-packing, deleted slots,
	 * waiting jobs placed, extras handed out or taken back). What remains of a
	 * tick is the scheduling round (every slot in turn, all processors
	 * switching together), which changes what runs from one quantum to the
	 * next whenever there are two slots or more; so only whole rounds are
	 * skipped: after them the round robin is where it was, every slot has run
	 * once per round and a job has advanced once per copy. A partial round is
	 * left to sched_gang_tick. The caller sees one SKIP event, where ticks
	 * would have given a SWITCH per quantum: one that writes the context
	 * switch lists keeps ticking.
	 */
	if (until <= g->now || (g->n_slots == 0 && g->n_waiting > 0))
		return 0;
	uint64_t q = g->cfg.quantum, round = g->n_slots == 0 ? 1u : g->n_slots; /* an idle quantum: a round of none */
	uint64_t rounds = (uint64_t)(until - g->now) / (round * q), busy = 0;
	struct sched_list *it;
	sched_list_for_each(it, &g->placed) {
		if (rounds == 0)
			return 0;
		const struct sched_gang_job *j = SCHED_LIST_ENTRY(it, struct sched_gang_job, link);
		if (j->first_run == SCHED_TIME_MAX)
			return 0; /* its first quantum is in the next round */
		uint64_t left = (j->remaining - 1u) / j->copies; /* rounds before the one it ends in */
		if (left < rounds)
			rounds = left;
		busy += (uint64_t)j->copies * j->procs;
	}
	if (rounds == 0)
		return 0;
	sched_list_for_each(it, &g->placed) {
		struct sched_gang_job *j = SCHED_LIST_ENTRY(it, struct sched_gang_job, link);
		j->remaining -= (uint32_t)(rounds * j->copies);
	}
	/* At most (until - now) / quantum: fits the clock, and each quantum's start is before until. */
	uint64_t quanta = rounds * round;
	sched_time_t start = g->now;
	g->counters.quanta += quanta;
	g->counters.slot_quanta += quanta * g->n_slots;
	g->counters.busy_quanta += rounds * busy;
	g->now = (sched_time_t)(start + quanta * q);
	if (g->n_slots > 0)
		emit(g, SCHED_GANG_SKIP, start, 0, g->n_slots, 0, (uint32_t)quanta);
	return (uint32_t)quanta;
}

uint64_t sched_gang_skippable(const struct sched_gang *g)
{
	/* sched_gang_skip()'s test without its bound (until): see there. */
	if (g->n_slots == 0 && g->n_waiting > 0)
		return 0;
	uint64_t round = g->n_slots == 0 ? 1u : g->n_slots, rounds = UINT64_MAX;
	const struct sched_list *it;
	sched_list_for_each(it, &g->placed) {
		const struct sched_gang_job *j = SCHED_LIST_ENTRY((struct sched_list *)it, struct sched_gang_job, link);
		if (j->first_run == SCHED_TIME_MAX)
			return 0;
		uint64_t left = (j->remaining - 1u) / j->copies;
		if (left < rounds)
			rounds = left;
	}
	return rounds == UINT64_MAX ? UINT64_MAX : rounds * round;
}

int sched_gang_remove(struct sched_gang *g, uint32_t id)
{
	struct sched_gang_job *j = sched_gang_find(g, id);
	if (j == NULL)
		return SCHED_E_NOENT;
	if (j->state == 2) {
		sched_gang_end(g, j);
		return SCHED_OK;
	}
	sched_list_remove(&j->link);
	g->n_waiting--;
	j->state = 0;
	sched_list_push_back(&g->free_jobs, &j->link);
	settle(g); /* the jobs behind it may go now */
	return SCHED_OK;
}

struct sched_gang_job *sched_gang_place_at(struct sched_gang *g, uint32_t id, uint32_t procs, uint32_t quanta,
					   uint32_t pos, uint32_t block)
{
	uint32_t size = block_size(procs);
	if (pos > g->n_slots || block % size != 0 || block + size > g->cfg.procs ||
	    (pos < g->n_slots && !block_free(g, gang_order(g)[pos], block, size)))
		return NULL;
	uint32_t row = pos < g->n_slots ? gang_order(g)[pos] : new_slot(g);
	if (row == NO_ROW)
		return NULL;
	struct sched_gang_job *j = new_job(g, id, procs, quanta, g->now);
	if (j == NULL) {
		if (gang_row_busy(g)[row] == 0)
			delete_slot_at(g, position_of(g, row));
		return NULL;
	}
	j->block = block;
	fill(g, row, j);
	j->state = 2;
	sched_list_push_back(&g->placed, &j->link);
	g->n_placed++;
	g->counters.submitted++;
	return j;
}

uint32_t sched_gang_cell(const struct sched_gang *g, uint32_t pos, uint32_t proc)
{
	if (pos >= g->n_slots || proc >= g->cfg.procs)
		return UINT32_MAX;
	uint16_t v = row_cells(g, gang_order(g)[pos])[proc];
	return v == 0 ? UINT32_MAX : gang_jobs(g)[v - 1u].id;
}

int sched_gang_check(const struct sched_gang *g)
{
	uint32_t n = g->cfg.procs;
	if (g->n_slots + g->n_free_rows != g->cfg.max_slots || (g->n_slots > 0 && g->cur >= g->n_slots))
		return SCHED_E_STATE;
	/* Each row in use exactly once, busy counts right, every cell's job has its block there. */
	for (uint32_t pos = 0; pos < g->n_slots; pos++) {
		uint32_t row = gang_order(g)[pos], busy = 0;
		for (uint32_t k = pos + 1; k < g->n_slots; k++)
			if (gang_order(g)[k] == row)
				return SCHED_E_STATE;
		const uint16_t *c = row_cells(g, row);
		for (uint32_t x = 0; x < n; x++) {
			if (c[x] == 0)
				continue;
			busy++;
			const struct sched_gang_job *j = &gang_jobs(g)[c[x] - 1u];
			if (j->state != 2 || x < j->block || x >= j->block + j->size)
				return SCHED_E_STATE;
		}
		if (busy != gang_row_busy(g)[row] || (busy == 0 && !(g->n_slots == 1 && keeps_last_slot(g))))
			return SCHED_E_STATE; /* no empty slot lingers, but BC's last */
	}
	/* Every placed job: a buddy block of its size, filled in exactly `copies` rows. */
	uint32_t placed = 0;
	const struct sched_list *it;
	sched_list_for_each(it, &g->placed) {
		const struct sched_gang_job *j = SCHED_LIST_ENTRY((struct sched_list *)it, struct sched_gang_job, link);
		placed++;
		if (j->size != block_size(j->procs) || j->block % j->size != 0 || j->block + j->size > n)
			return SCHED_E_STATE;
		uint16_t v = (uint16_t)(index_of(g, j) + 1u);
		uint32_t copies = 0;
		for (uint32_t pos = 0; pos < g->n_slots; pos++) {
			const uint16_t *c = row_cells(g, gang_order(g)[pos]);
			uint32_t have = 0;
			for (uint32_t x = j->block; x < j->block + j->size; x++)
				have += c[x] == v;
			if (have != 0 && have != j->size)
				return SCHED_E_STATE; /* a job split across slots: an illegal shift */
			copies += have != 0;
		}
		if (copies != j->copies || copies == 0)
			return SCHED_E_STATE;
	}
	if (placed != g->n_placed)
		return SCHED_E_STATE;
	/* The workload tree against one computed from the matrix, leaves up. */
	for (uint32_t x = 0; x < n; x++) {
		uint32_t idle = 0;
		for (uint32_t pos = 0; pos < g->n_slots; pos++)
			idle += row_cells(g, gang_order(g)[pos])[x] == 0;
		if (gang_tree(g)[n + x] != idle)
			return SCHED_E_STATE;
	}
	for (uint32_t i = n - 1; i >= 1; i--)
		if (gang_tree(g)[i] != combine(gang_tree(g)[2 * i], gang_tree(g)[2 * i + 1]))
			return SCHED_E_STATE;
	return SCHED_OK;
}

const char *const sched_gang_scheme_names[SCHED_GANG_SCHEME_COUNT + 1] = {"bc", "br", "brms", "brmms", NULL};

const char *const sched_gang_bc_slots_names[SCHED_GANG_BC_SLOTS_COUNT + 1] = {"keep-one", "drop-empty", NULL};

const char *const sched_gang_bc_fit_names[SCHED_GANG_BC_FIT_COUNT + 1] = {"round-robin", "next-fit", "slot-order",
									    "newest", NULL};

const char *sched_gang_scheme_name(enum sched_gang_scheme s)
{
	return (unsigned)s < SCHED_GANG_SCHEME_COUNT ? sched_gang_scheme_names[s] : NULL;
}

int sched_gang_scheme_parse(const char *name, enum sched_gang_scheme *s)
{
	for (unsigned i = 0; name != NULL && i < SCHED_GANG_SCHEME_COUNT; i++) {
		const char *a = name, *b = sched_gang_scheme_names[i];
		while (*a && *a == *b) {
			a++;
			b++;
		}
		if (*a == *b) {
			*s = (enum sched_gang_scheme)i;
			return SCHED_OK;
		}
	}
	return SCHED_E_INVAL;
}
