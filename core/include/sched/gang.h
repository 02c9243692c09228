/* SPDX-License-Identifier: MIT */
/* Gang scheduling with buddy allocation, job re-packing and the workload tree (Zhou, Walsh and Brent 2000). */
#ifndef SCHED_GANG_H
#define SCHED_GANG_H

#include <stddef.h>

#include "sched/types.h"
#include "sched/err.h"

/*
 * A time-shared scheduler: the machine is a matrix of time slots (rows) x
 * processors (columns). Every processor switches to the next slot together
 * at each quantum; a job advances only in the quanta of the slots it
 * occupies. A job of p processors gets an aligned buddy block of n
 * processors, n / 2 < p <= n, in one or more slots. Everything lives in a
 * caller-owned arena sized at init: at most `max_slots` slots, `max_jobs`
 * jobs; no malloc, no global state.
 *
 * The caller owns the clock, which moves a quantum at a time
 * (sched_gang_tick). Jobs arrive at any time (sched_gang_submit) and are
 * placed at once; a job that finds no room (every slot in use), or arrives
 * while another job waits, waits in arrival order (no overtaking) for the
 * next change. A new slot runs last in the current round. Decisions come back through a
 * callback: the context switch list at each quantum, a job's first quantum,
 * and its end.
 */

/* The allocation schemes of Zhou, Walsh and Brent 2000, section 4.1. */
enum sched_gang_scheme {
	SCHED_GANG_BC,    /* conventional buddy: first fit, slot by slot, one slot per job */
	SCHED_GANG_BR,    /* re-packing and workload-tree balancing, one slot per job */
	SCHED_GANG_BRMS,  /* BR, and jobs take extra slots whenever possible and keep them */
	SCHED_GANG_BRMMS, /* BRMS, but extra slots are given up for an arrival or to delete a slot */
	SCHED_GANG_SCHEME_COUNT
};

/*
 * When BC deletes a slot. BC has no re-packing (Zhou, Walsh and Brent 2000,
 * section 4.1), so a slot goes only when its jobs have all ended; the paper's
 * BC keeps a slot even on an idle machine (its n_a is at least 1.16 where r_a
 * is 0.19, Tables 1 and 2), while BR, which deletes by Property 2, drops to 0.
 * The re-packing schemes ignore this setting.
 */
enum sched_gang_bc_slots {
	SCHED_GANG_BC_KEEP_ONE,   /* default: an empty slot is deleted at once unless it is the only one */
	SCHED_GANG_BC_DROP_EMPTY, /* every empty slot at once, down to none (our reading before issue 12) */
	SCHED_GANG_BC_SLOTS_COUNT
};

/*
 * Where BC looks for a free aligned block. Section 4.1 says only "the
 * conventional buddy (BC) system in which the workload balancing is not
 * seriously considered and each job only runs in a single time slot"; these
 * are the readings the text allows (issue 28 measures each against Tables 1
 * and 2). Within a slot the leftmost free block is taken; without one in the
 * slots the reading looks at, a new slot is made. The re-packing schemes
 * ignore this setting.
 */
enum sched_gang_bc_fit {
	SCHED_GANG_FIT_ROUND_ROBIN, /* default: first fit over the slots in round-robin order */
	SCHED_GANG_FIT_NEXT,        /* next fit: round-robin order from the slot of the last placement, wrapping */
	SCHED_GANG_FIT_SLOT_ORDER,  /* first fit over the slots in the order they were made, oldest first */
	SCHED_GANG_FIT_NEWEST,      /* only the newest slot: no hole in an older slot is reused */
	SCHED_GANG_BC_FIT_COUNT
};

struct sched_gang_config {
	uint32_t procs;      /* a power of two, 1..32768 */
	uint32_t max_slots;  /* rows of the matrix, 1..65535 */
	uint32_t max_jobs;   /* jobs in the system at once, 1..65534 */
	enum sched_gang_scheme scheme;
	sched_time_t quantum; /* seconds per time slot; Zhou, Walsh and Brent 2000: 5 */
	enum sched_gang_bc_slots bc_slots; /* BC only; 0 (keep-one) is the paper's */
	enum sched_gang_bc_fit bc_fit;     /* BC only; 0 (round-robin) is our reading since issue 12 */
};

/*
 * Gang scheduling's parameters (Zhou, Walsh and Brent 2000), as the gang
 * policy's block in a struct sched_config holds them (core/src/policy_gang.c).
 */
struct sched_gang_params {
	sched_time_t quantum;     /* seconds per time slot (default 5) */
	uint32_t max_slots;       /* rows of the slots x processors matrix (default 0: one per job, never reached) */
	uint8_t scheme;           /* enum sched_gang_scheme (default BRMMS) */
	uint8_t bc_slots;         /* enum sched_gang_bc_slots (default keep-one) */
	bool set;                 /* false: the defaults for the whole block */
	uint8_t bc_fit;           /* enum sched_gang_bc_fit (default round-robin); after `set`, which keeps its place */
};

struct sched_config;

/**
 * The gang parameters in @p cfg, defaults filled in for a block not given:
 * how the replay engine and the replayer read them (the configuration's
 * parameter area is opaque). O(1), no errors.
 */
struct sched_gang_params sched_gang_params_get(const struct sched_config *cfg);

/**
 * The slot bound to use for @p max_slots (0: as many slots as @p max_jobs, at
 * most 65535). A slot is only ever made to place an arriving job, so there
 * are never more slots than jobs submitted so far; when max_jobs is every job
 * of the run (the replay engine's case), this bound is never reached, as in
 * the paper's model, which has none. (With fewer, BRMS can still reach it:
 * its extra copies can outlive the jobs whose slots they sit in.) O(1), no errors.
 */
uint32_t sched_gang_slots_for(uint32_t max_slots, uint32_t max_jobs);

/* One job's part of a quantum: its buddy block [first, first + count); the job runs on the
 * first p processors of it (its size), the rest of the block stays idle. */
struct sched_slice_run {
	uint32_t job;   /* the caller's id */
	uint32_t first;
	uint32_t count; /* its buddy block */
};

enum sched_gang_event_kind {
	SCHED_GANG_SWITCH, /* a quantum starts: runs[0..n) is the context switch list of slot `slot` */
	SCHED_GANG_START,  /* job runs for the first time */
	SCHED_GANG_END,    /* job has had all its quanta */
	SCHED_GANG_SKIP,   /* sched_gang_skip(): `quanta` quanta from `time` ran in one step, the
			    * `slot` slots in their round-robin order as they were; no list */
};

struct sched_gang_event {
	enum sched_gang_event_kind kind;
	sched_time_t time;
	uint32_t job;                      /* START, END */
	uint32_t slot;                     /* SWITCH: the row that runs */
	const struct sched_slice_run *runs; /* SWITCH */
	uint32_t n_runs;
	uint32_t quanta;                   /* SWITCH: 1; SKIP: the quanta it stands for; END: the job's quanta */
	uint8_t how;                       /* END: how it left (the policy's; 0 from sched_gang_submit) */
};

typedef void (*sched_gang_event_fn)(void *ctx, const struct sched_gang_event *e);

/* What the module did: the statistics of Zhou, Walsh and Brent 2000, section 4.3 are computed from these. */
struct sched_gang_counters {
	uint64_t quanta;          /* quanta elapsed, idle ones included */
	uint64_t busy_quanta;     /* sum over quanta of the processors running a job (its p, not its block) */
	uint64_t slot_quanta;     /* sum over quanta of the slots in the system */
	uint32_t max_slots_seen;  /* n_l */
	uint32_t submitted, ended, queued; /* queued: arrivals that had to wait for room */
	uint32_t repacks;         /* legal shifts of job blocks between slots */
	uint32_t slots_created, slots_deleted;
	uint32_t extra_slots;     /* extra slots given to running jobs (BRMS, BRMMS) */
	uint32_t extras_released; /* extra slots given up (BRMMS) */
};

/* The gang scheduler's state: opaque, at the start of its arena, position-independent. */
struct sched_gang;

/** Arena bytes for @p cfg (0 if cfg is invalid or the size exceeds size_t). O(1). */
size_t sched_gang_arena_size(const struct sched_gang_config *cfg);

/**
 * Make a gang scheduler in @p arena (aligned to 8; its state at the start,
 * *@p out its handle) at time @p origin, a quantum boundary. O(procs x max_slots).
 * @retval SCHED_E_INVAL procs not a power of two, a zero or too large size, quantum 0, unknown scheme, misaligned arena.
 * @retval SCHED_E_RANGE the arena would exceed the address space (32-bit targets).
 * @retval SCHED_E_NOSPACE the arena is too small.
 */
int sched_gang_init(struct sched_gang **out, const struct sched_gang_config *cfg, void *arena, size_t size,
		    sched_gang_event_fn emit, void *ctx, sched_time_t origin);

/**
 * Take up the gang scheduler whose state is in @p arena: a byte copy of
 * another one's arena at any address, or the same arena after a reset;
 * events go to @p emit with @p ctx from now on. O(1).
 * @retval SCHED_E_FORMAT no gang scheduler of this build's layout there.
 * @retval SCHED_E_NOSPACE @p size is smaller than its state. @retval SCHED_E_INVAL NULL or misaligned.
 */
int sched_gang_attach(struct sched_gang **out, void *arena, size_t size, sched_gang_event_fn emit, void *ctx);

/**
 * Job @p id of @p procs processors needing @p quanta quanta arrives at
 * @p now (not before the current boundary, before the next one) and is
 * placed by the scheme, or queued if no slot can be made or a job already
 * waits. Placement: BC O(slots x procs); BR O(block x slots) for the legal
 * shifts that free the block; BRMS and BRMMS then hand out extra slots,
 * O(jobs x slots x block) at worst, and BRMMS asks whether giving them up
 * would free a slot, O(procs x slots).
 * @retval SCHED_E_INVAL procs or quanta 0. @retval SCHED_E_RANGE procs above the machine.
 * @retval SCHED_E_TIME now outside [boundary, boundary + quantum). @retval SCHED_E_EXIST id in use.
 * @retval SCHED_E_NOSPACE the job table is full.
 */
int sched_gang_submit(struct sched_gang *g, uint32_t id, uint32_t procs, uint32_t quanta, sched_time_t now);

/**
 * Run one quantum: the next slot in round-robin order runs (SWITCH event),
 * each of its jobs advances one quantum; jobs that are done end at the next
 * boundary (END events), and the scheme re-packs, deletes slots, hands out
 * or takes back extra slots, and places waiting jobs. With no job in the
 * system the quantum is idle. O(procs) plus the work of the ends (each as
 * costly as an arrival). @retval SCHED_E_TIME the clock would wrap.
 */
int sched_gang_tick(struct sched_gang *g);

/**
 * Run in one step the whole rounds of the round robin, from the current
 * boundary up to boundary @p until at most, in which no boundary does
 * anything but move the clock: every quantum of them would run the same
 * slots in the same order with the same jobs, none for the first time and
 * none to its end, so nothing is placed, re-packed or deleted either.
 * Exactly: with S slots, every placed job has run already (no START) and
 * has more than m x copies quanta left (no END), and m rounds of S quanta
 * end at or before @p until; an idle machine (no slot, nothing waiting)
 * skips its idle quanta up to @p until. The state, the counters and the
 * events that follow are those of m x S calls of sched_gang_tick(); the
 * SWITCH events of those quanta become one SKIP event (none when idle, as
 * an idle tick emits none). A caller that places arrivals at boundaries
 * passes the boundary of the next one. Not a no-op (0 returned): a job that
 * has not run yet, one that ends within a round, a waiting job on a machine
 * with no slot (sched_gang_tick tries to place it at each quantum), or less
 * than a round before @p until. O(jobs placed), no errors.
 * @return the quanta run, 0 if none.
 */
uint32_t sched_gang_skip(struct sched_gang *g, sched_time_t until);

/** Jobs in the system (placed and waiting). O(1). */
uint32_t sched_gang_jobs(const struct sched_gang *g);

/** The current quantum boundary. O(1). */
sched_time_t sched_gang_now(const struct sched_gang *g);

/** What the module did so far. O(1). */
const struct sched_gang_counters *sched_gang_counters(const struct sched_gang *g);

/**
 * Check every invariant: buddy alignment and size of every job, its block
 * filled in exactly its slots, no cell of another job, busy counts, the
 * round-robin order, and the workload tree against one recomputed from the
 * matrix. O(slots x procs). @retval SCHED_E_STATE one is broken.
 */
int sched_gang_check(const struct sched_gang *g);

/** The value of workload tree node @p node (1 = root; node procs + x = processor x). O(1). */
uint32_t sched_gang_tree(const struct sched_gang *g, uint32_t node);

/** Which job (the caller's id, or UINT32_MAX if idle) occupies processor @p proc in the slot at position @p pos of the round-robin order. O(1). */
uint32_t sched_gang_cell(const struct sched_gang *g, uint32_t pos, uint32_t proc);

/* The schemes' names, by enum sched_gang_scheme, NULL-terminated. */
extern const char *const sched_gang_scheme_names[SCHED_GANG_SCHEME_COUNT + 1];

/** Name of a scheme ("bc", "br", "brms", "brmms"); parse one. O(1). */
const char *sched_gang_scheme_name(enum sched_gang_scheme s);
/* The names of enum sched_gang_bc_slots ("keep-one", "drop-empty"), NULL-terminated. */
extern const char *const sched_gang_bc_slots_names[SCHED_GANG_BC_SLOTS_COUNT + 1];
/* The names of enum sched_gang_bc_fit ("round-robin", "next-fit", "slot-order", "newest"), NULL-terminated. */
extern const char *const sched_gang_bc_fit_names[SCHED_GANG_BC_FIT_COUNT + 1];
int sched_gang_scheme_parse(const char *name, enum sched_gang_scheme *s);

#endif /* SCHED_GANG_H */
