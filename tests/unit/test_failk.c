/* SPDX-License-Identifier: MIT */
/*
 * Every pool exhausted at every site (issue 11, part 4). A few small
 * workloads are replayed under every policy of the registry; first without
 * a failure, counting the N allocations the core makes (core/src/failpoint.h),
 * then N times more, the k-th allocation failing in run k. For each:
 *  (a) the call in which it failed returned SCHED_E_NOSPACE, or, where the
 *      core has a documented fallback (a plan the scratch cannot hold, a time
 *      slot the gang module cannot make), took it and counted it;
 *  (b) the invariant checker passes right after;
 *  (c) nothing already admitted was harmed: after a refusal every job and
 *      every profile segment is exactly as before; after a fallback every job
 *      is still there (or ended as the log says), and no waiting job's
 *      reservation got later (the fallbacks only ever compress);
 *  (d) the replay goes on (a refused call is made again at once, as a caller
 *      would) to the end: the checker passes, every job ran and ended, and
 *      after a refusal the schedule is the unfailed run's, event for event.
 * The replay engine's own site (its per-job slot) and its handling of a
 * refused submit are swept the same way through sched_replay_run().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "fixture_io.h"
#include "workload.h"
#include "sched/gang.h"
#include "sched/replay.h"
#include "sched/sched.h"
#include "test_params.h"
/* Fault injection is the one private header this test reaches (tests/lint.sh lists it). */
#include "failpoint.h"

#ifndef SCHED_FAILPOINTS
#error "test_failk needs the fault-injection points: build it in the san variant (-DSCHED_FAILPOINTS)"
#endif

#define MAXJ 64u
#define GANG_QUANTUM 60u

/* --- workloads ------------------------------------------------------------------------- */

struct wl {
	const char *name;
	struct sched_config cfg; /* machine, partitions, queues; the policy is set per run */
	struct sched_replay_job job[MAXJ];
	uint32_t n;
};

static struct wl workloads[3];
static unsigned n_workloads;

/* The committed fixture, through the replayer's own cleaning conventions. */
static bool load_peek(struct wl *w)
{
	struct swf_trace t;
	struct workload wk;
	struct workload_opts o;
	char err[256];
	memset(&t, 0, sizeof t);
	if (trace_load("fixtures/peek.fix", false, &t, err, sizeof err) != 0)
		return false;
	long procs = swf_machine_size(&t.hdr);
	workload_opts_default(&o);
	bool ok = procs > 0 && workload_build(&t, (sched_procs_t)procs, &o, &wk, err, sizeof err) == SCHED_OK;
	if (ok) {
		ok = wk.n <= MAXJ;
		for (size_t i = 0; ok && i < wk.n; i++) {
			w->job[i] = wk.jobs[i].j;
			w->job[i].seq = (uint32_t)i;
		}
		w->n = (uint32_t)wk.n;
		workload_free(&wk);
	}
	swf_free(&t);
	memset(&w->cfg, 0, sizeof w->cfg);
	w->cfg.procs = (sched_procs_t)procs;
	w->name = "peek";
	return ok;
}

/* A loaded machine: jobs queue, end early (most) or are killed at their estimate (a quarter). */
static void make_random(struct wl *w, const char *name, uint64_t seed, uint32_t n, bool sites)
{
	struct test_rng r;
	test_rng_seed(&r, seed);
	memset(w, 0, sizeof *w);
	w->name = name;
	w->n = n;
	w->cfg.procs = 16;
	if (sites) {
		/* Two partitions and three queues: a high-priority one kept to partition 0, one
		 * with a running limit per user, and a background one. */
		w->cfg.n_partitions = 2;
		w->cfg.partition_procs[0] = 8;
		w->cfg.partition_procs[1] = 8;
		w->cfg.n_queues = 3;
		w->cfg.queues[0].priority = 5;
		w->cfg.queues[0].partitions = 1;
		w->cfg.queues[1].priority = 1;
		w->cfg.queues[1].max_running_per_user = 1;
		w->cfg.queues[2].priority = 0;
		w->cfg.queues[2].background = true;
	}
	sched_time_t t = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct sched_replay_job *j = &w->job[i];
		t += test_rng_range(&r, 0, 30);
		j->seq = i;
		j->submit = t;
		sched_procs_t widest = sites ? 8 : 16;
		j->procs = test_rng_range(&r, 0, 3) == 0 ? test_rng_range(&r, 1, widest) : test_rng_range(&r, 1, 4);
		j->estimate = test_rng_range(&r, 30, 600);
		j->run = test_rng_range(&r, 0, 3) == 0 ? j->estimate + 10 : test_rng_range(&r, 1, j->estimate);
		j->user = test_rng_range(&r, 0, 3);
		j->queue = sites ? (uint8_t)test_rng_range(&r, 0, 2) : 0;
		j->partition = sites && test_rng_range(&r, 0, 4) == 0 && j->queue != 0 ? 1 : SCHED_PART_ANY;
		j->up_milli = (uint16_t)test_rng_range(&r, 0, 1000);
		j->pp_milli = test_rng_range(&r, 0, 9) == 0 ? SCHED_PP_OVER_QUOTA : (uint16_t)test_rng_range(&r, 0, 1000);
	}
}

static void load_workloads(void)
{
	if (n_workloads != 0)
		return;
	if (load_peek(&workloads[0]))
		n_workloads = 1;
	make_random(&workloads[n_workloads++], "random", 11, 36, false);
	make_random(&workloads[n_workloads++], "sites", 12, 30, true);
}

/* --- what went wrong, and the tallies ---------------------------------------------------------- */

static char why[512];
static char where[160];

/* Record the first broken expectation (the harness then fails the test with it). */
#define EXPECT(cond)                                                                             \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			if (why[0] == '\0')                                                      \
				snprintf(why, sizeof why, "%s: line %d: %s", where, __LINE__, #cond); \
			return false;                                                            \
		}                                                                                \
	} while (0)

static uint64_t points, points_by_site[SCHED_FAIL_SITE_COUNT];
static unsigned policies_seen[SCHED_POLICY_COUNT];
static bool core_failed; /* a sweep of the core failed: the engine's would only hang or fail again */

static uint64_t fnv(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (uint8_t)(v >> (8 * i));
		h *= 0x100000001b3ull;
	}
	return h;
}

/* --- space sharing: a replay driven call by call -------------------------------------------- */

enum call { C_INIT, C_SUBMIT, C_FINISH, C_ADVANCE };
static const char *const call_names[] = {"init", "submit", "finish", "advance"};

/* The public state, before and after a call. */
struct snap {
	struct sched_job_info job[MAXJ];
	bool in[MAXJ];
	uint64_t segs;      /* every partition's profile from the call's time on, hashed */
	struct sched_stats st;
	sched_time_t next;
};

struct ss {
	const struct wl *w;
	struct sched_config cfg;
	struct sched *s;
	uint64_t hash;                 /* of every decision */
	bool started[MAXJ], ended[MAXJ];
	sched_time_t own_end[MAXJ];    /* when it ends by itself, or SCHED_TIME_MAX (killed at its estimate) */
	uint32_t next;                 /* next job to submit */
	/* The failure, once it has happened. */
	enum sched_fail_site site;
	bool refused;                  /* the call returned an error (else a fallback absorbed it) */
	struct snap before, after;
};

static _Alignas(SCHED_ARENA_ALIGN) unsigned char arena[SCHED_ARENA_SIZE_SCRATCH(MAXJ, MAXJ)];

static void on_decision(void *ctx, const struct sched_decision *d)
{
	struct ss *r = ctx;
	r->hash = fnv(fnv(fnv(r->hash, d->kind), d->job), (uint64_t)d->time << 32 | d->procs);
	const struct sched_replay_job *j = &r->w->job[d->job];
	if (d->kind == SCHED_DEC_START) {
		r->started[d->job] = true;
		/* The engine's rule: a job that ends by itself before its estimate is finished by the caller. */
		r->own_end[d->job] = j->run <= j->estimate ? d->time + j->run : SCHED_TIME_MAX;
	} else {
		r->ended[d->job] = true;
	}
}

/*
 * The state as the caller sees it. A timed call first brings the clock up
 * to its time, as sched_advance() would have (the driver leaves no event
 * before it, so that is the profiles forgetting their past): profiles are
 * compared from `from`, the call's time, on.
 */
static void take_snap(const struct ss *r, struct snap *n, sched_time_t from)
{
	memset(n->in, 0, sizeof n->in);
	const enum sched_job_state lists[2] = {SCHED_JOB_WAITING, SCHED_JOB_RUNNING};
	for (int l = 0; l < 2; l++)
		for (const struct sched_job *j = sched_first(r->s, lists[l]); j != NULL; j = sched_next(r->s, j)) {
			struct sched_job_info i;
			sched_job_read(j, &i);
			if (i.id < MAXJ) {
				n->job[i.id] = i;
				n->in[i.id] = true;
			}
		}
	uint64_t h = 0xcbf29ce484222325ull;
	for (unsigned p = 0; sched_seg_first(r->s, p) != NULL; p++)
		for (const struct sched_seg *g = sched_seg_first(r->s, p); g != NULL; g = sched_seg_next(r->s, p, g)) {
			const struct sched_seg *nx = sched_seg_next(r->s, p, g);
			if (nx != NULL && sched_seg_time(nx) <= from)
				continue; /* over before `from` */
			sched_time_t at = sched_seg_time(g) < from ? from : sched_seg_time(g);
			h = fnv(fnv(h, p), (uint64_t)at << 32 | sched_seg_free(g));
		}
	n->segs = h;
	sched_stats(r->s, &n->st);
	n->next = sched_next_event(r->s);
}

static bool same_job(const struct sched_job_info *a, const struct sched_job_info *b)
{
	return a->id == b->id && a->user == b->user && a->procs == b->procs && a->submit == b->submit &&
	       a->estimate == b->estimate && a->start == b->start && a->guarantee == b->guarantee &&
	       a->slack == b->slack && a->prio3 == b->prio3 && a->queue == b->queue &&
	       a->partition == b->partition && a->state == b->state && a->reserved == b->reserved;
}

static int do_call(struct ss *r, enum call c, uint32_t id, sched_time_t t)
{
	switch (c) {
	case C_INIT:
		return sched_init(&r->s, &r->cfg, arena, sizeof arena, on_decision, r, t);
	case C_SUBMIT: {
		const struct sched_replay_job *j = &r->w->job[id];
		struct sched_job_desc d = sched_desc(id, j->procs, j->estimate);
		d.user = j->user;
		d.queue = j->queue;
		d.partition = j->partition;
		d.up_milli = j->up_milli;
		d.pp_milli = j->pp_milli;
		return sched_submit(r->s, &d, t);
	}
	case C_FINISH: {
		int err = sched_finish(r->s, id, t);
		if (err == SCHED_OK)
			r->ended[id] = true;
		return err;
	}
	default:
		return sched_advance(r->s, t);
	}
}

/* The queue priority of job id in the workload. */
static uint16_t prio_of(const struct ss *r, uint32_t id)
{
	return r->cfg.n_queues ? r->cfg.queues[r->w->job[id].queue].priority : 0;
}

/* After a fallback: nothing admitted is lost or put off (the fallbacks only compress). */
static bool fallback_harmless(const struct ss *r, enum call c, uint32_t id, sched_time_t t)
{
	const struct snap *b = &r->before, *a = &r->after;
	EXPECT(a->st.counters.scratch_short > b->st.counters.scratch_short);
	for (uint32_t k = 0; k < MAXJ; k++) {
		if (!b->in[k])
			continue;
		const struct sched_job_info *x = &b->job[k], *y = &a->job[k];
		if (!a->in[k]) {
			/* Only a running job leaves, and only by ending (it is in the log). */
			EXPECT(x->state == SCHED_JOB_RUNNING && r->ended[k]);
			continue;
		}
		EXPECT(y->procs == x->procs && y->estimate == x->estimate && y->submit == x->submit &&
		       y->queue == x->queue);
		if (x->state == SCHED_JOB_RUNNING) {
			EXPECT(y->state == SCHED_JOB_RUNNING && y->start == x->start && y->partition == x->partition);
			continue;
		}
		if (y->state == SCHED_JOB_RUNNING) {
			EXPECT(y->start == t);
			continue;
		}
		/* Still waiting. A job due by t may be held back by its queue's running limits, and a
		 * job of a higher queue submitted now goes ahead of lower ones (docs/priorities.md). */
		bool pushed_by_higher_queue = c == C_SUBMIT && prio_of(r, id) > prio_of(r, k);
		/* Relaxed tries every waiting job in a pass: when one trial fell back, another may
		 * still have started a job early and delayed others within their tolerance (the
		 * property checker bounds those delays, tests/prop). */
		bool relaxed_start = a->st.counters.relaxed > b->st.counters.relaxed;
		if (x->reserved && x->start > t && !pushed_by_higher_queue && !relaxed_start)
			EXPECT(y->reserved && y->start <= x->start);
	}
	return true;
}

/* One call of the replay; if the armed failure happens in it, check (a), (b), (c) and carry on. */
static bool step(struct ss *r, enum call c, uint32_t id, sched_time_t t)
{
	bool watching = r->site == SCHED_FAIL_NONE;
	if (watching && c != C_INIT)
		take_snap(r, &r->before, t);
	int err = do_call(r, c, id, t);
	if (!watching || sched_fail_fired() == SCHED_FAIL_NONE) {
		EXPECT(err == SCHED_OK);
		return true;
	}
	r->site = sched_fail_fired();
	snprintf(where + strlen(where), sizeof where - strlen(where), " site %s in %s(%u) at %u",
		 sched_fail_site_name(r->site), call_names[c], id, t);
	if (err != SCHED_OK) {
		/* (a) refused: NOSPACE, from a site whose shortage the call reports. */
		r->refused = true;
		EXPECT(err == SCHED_E_NOSPACE);
		EXPECT(r->site == SCHED_FAIL_SEGMENT || (r->site == SCHED_FAIL_JOB && c == C_SUBMIT));
		if (c != C_INIT) {
			/* (b) and (c): everything exactly as it was, the clock included. */
			EXPECT(sched_check(r->s) == SCHED_OK);
			take_snap(r, &r->after, t);
			for (uint32_t k = 0; k < MAXJ; k++) {
				EXPECT(r->before.in[k] == r->after.in[k]);
				EXPECT(!r->before.in[k] || same_job(&r->before.job[k], &r->after.job[k]));
			}
			EXPECT(r->before.segs == r->after.segs);
			/* The cover is asked before the clock moves; a job slot after. */
			EXPECT(r->after.st.now == (r->site == SCHED_FAIL_SEGMENT ? r->before.st.now : t));
			EXPECT(r->before.next == r->after.next);
		}
		/* (d) the caller makes the call again; nothing is armed any more. */
		err = do_call(r, c, id, t);
		EXPECT(err == SCHED_OK);
		return true;
	}
	/* (a) absorbed: only the planning scratch has a fallback (the policy's plain plan). */
	EXPECT(r->site == SCHED_FAIL_SCRATCH_JOBS || r->site == SCHED_FAIL_SCRATCH_SEGS);
	EXPECT(sched_check(r->s) == SCHED_OK); /* (b) */
	take_snap(r, &r->after, t);
	return fallback_harmless(r, c, id, t); /* (c) */
}

/* The whole workload under cfg; the caller arms (or not) a failure first. */
static bool replay_ss(struct ss *r, const struct wl *w, const struct sched_config *cfg)
{
	memset(r, 0, sizeof *r);
	r->w = w;
	r->cfg = *cfg;
	r->hash = 0xcbf29ce484222325ull;
	for (uint32_t i = 0; i < MAXJ; i++)
		r->own_end[i] = SCHED_TIME_MAX;
	if (!step(r, C_INIT, 0, w->n ? w->job[0].submit : 0))
		return false;
	for (;;) {
		/* The engine's instant: own ends (in job order), submits, then one pass. */
		sched_time_t t = sched_next_event(r->s);
		if (r->next < w->n && w->job[r->next].submit < t)
			t = w->job[r->next].submit;
		for (uint32_t k = 0; k < w->n; k++)
			if (r->started[k] && !r->ended[k] && r->own_end[k] < t)
				t = r->own_end[k];
		if (t == SCHED_TIME_MAX)
			break;
		for (uint32_t k = 0; k < w->n; k++)
			if (r->started[k] && !r->ended[k] && r->own_end[k] == t && !step(r, C_FINISH, k, t))
				return false;
		while (r->next < w->n && w->job[r->next].submit == t)
			if (!step(r, C_SUBMIT, r->next++, t))
				return false;
		if (!step(r, C_ADVANCE, 0, t))
			return false;
	}
	/* (d) the end: the checker passes, every job ran and ended, nothing is left. */
	EXPECT(sched_check(r->s) == SCHED_OK);
	struct sched_stats st;
	sched_stats(r->s, &st);
	EXPECT(st.waiting == 0 && st.running == 0 && st.jobs_used == 0);
	for (uint32_t k = 0; k < w->n; k++)
		EXPECT(r->started[k] && r->ended[k]);
	return true;
}

/* --- time sharing: the gang module, a quantum at a time -------------------------------------- */

struct gs {
	const struct wl *w;
	struct sched_gang_config cfg;
	struct sched_gang *g;
	uint64_t hash;
	uint32_t quanta[MAXJ];
	bool started[MAXJ], ended[MAXJ];
	uint32_t next;
	uint64_t ticks;
	enum sched_fail_site site;
	bool refused;
};

static _Alignas(8) unsigned char gang_arena[1u << 16];

static void on_gang(void *ctx, const struct sched_gang_event *e)
{
	struct gs *r = ctx;
	r->hash = fnv(fnv(fnv(r->hash, e->kind), (uint64_t)e->time << 32 | e->job), (uint64_t)e->slot << 32 | e->n_runs);
	if (e->kind == SCHED_GANG_START)
		r->started[e->job] = true;
	else if (e->kind == SCHED_GANG_END)
		r->ended[e->job] = true;
}

/* What the matrix holds: the jobs in it and a hash of every cell. */
struct gsnap {
	bool in[MAXJ];
	uint64_t cells;
	uint32_t jobs;
	struct sched_gang_counters c;
	sched_time_t now;
};

static void take_gsnap(const struct gs *r, struct gsnap *n)
{
	memset(n, 0, sizeof *n);
	n->c = *sched_gang_counters(r->g);
	uint32_t slots = n->c.slots_created - n->c.slots_deleted;
	uint64_t h = 0xcbf29ce484222325ull;
	for (uint32_t pos = 0; pos < slots; pos++)
		for (uint32_t x = 0; x < r->cfg.procs; x++) {
			uint32_t id = sched_gang_cell(r->g, pos, x);
			h = fnv(h, id);
			if (id < MAXJ)
				n->in[id] = true;
		}
	n->cells = h;
	n->jobs = sched_gang_jobs(r->g);
	n->now = sched_gang_now(r->g);
}

static bool gstep(struct gs *r, bool submit, uint32_t id, sched_time_t now)
{
	bool watching = r->site == SCHED_FAIL_NONE;
	struct gsnap b, a;
	bool ended_before[MAXJ];
	if (watching) {
		take_gsnap(r, &b);
		memcpy(ended_before, r->ended, sizeof ended_before);
	}
	int err = submit ? sched_gang_submit(r->g, id, r->w->job[id].procs, r->quanta[id], now) : sched_gang_tick(r->g);
	if (!submit)
		r->ticks++;
	if (!watching || sched_fail_fired() == SCHED_FAIL_NONE) {
		EXPECT(err == SCHED_OK);
		return true;
	}
	r->site = sched_fail_fired();
	snprintf(where + strlen(where), sizeof where - strlen(where), " site %s in %s(%u) at %u",
		 sched_fail_site_name(r->site), submit ? "submit" : "tick", id, now);
	EXPECT(sched_gang_check(r->g) == SCHED_OK); /* (b) */
	take_gsnap(r, &a);
	if (err != SCHED_OK) {
		/* (a) a job record it cannot have: refused, and (c) nothing changed at all. */
		r->refused = true;
		EXPECT(err == SCHED_E_NOSPACE && submit && r->site == SCHED_FAIL_GANG_JOB);
		EXPECT(a.cells == b.cells && a.jobs == b.jobs && a.now == b.now);
		EXPECT(memcmp(&a.c, &b.c, sizeof a.c) == 0);
		err = sched_gang_submit(r->g, id, r->w->job[id].procs, r->quanta[id], now); /* (d) again */
		EXPECT(err == SCHED_OK);
		return true;
	}
	/* (a) a time slot it cannot make: the job waits for the next change (seed 002). */
	EXPECT(r->site == SCHED_FAIL_GANG_SLOT);
	uint32_t gone = 0;
	for (uint32_t k = 0; k < MAXJ; k++) {
		bool just_ended = r->ended[k] && !ended_before[k];
		gone += just_ended;
		EXPECT(!b.in[k] || a.in[k] || just_ended); /* (c) placed jobs stay placed */
	}
	EXPECT(a.jobs == b.jobs - gone + (submit ? 1u : 0u));
	if (submit)
		EXPECT(a.c.queued == b.c.queued + 1 && !a.in[id]);
	return true;
}

static bool replay_gang(struct gs *r, const struct wl *w, const struct sched_gang_config *cfg, uint64_t max_ticks)
{
	memset(r, 0, sizeof *r);
	r->w = w;
	r->cfg = *cfg;
	r->hash = 0xcbf29ce484222325ull;
	for (uint32_t k = 0; k < w->n; k++)
		r->quanta[k] = sched_replay_quanta(&w->job[k], cfg->quantum);
	sched_time_t origin = w->n ? w->job[0].submit / cfg->quantum * cfg->quantum : 0;
	EXPECT(sched_gang_arena_size(cfg) <= sizeof gang_arena);
	EXPECT(sched_gang_init(&r->g, cfg, gang_arena, sizeof gang_arena, on_gang, r, origin) == SCHED_OK);
	while (r->next < w->n || sched_gang_jobs(r->g) > 0) {
		sched_time_t now = sched_gang_now(r->g);
		while (r->next < w->n && w->job[r->next].submit <= now)
			if (!gstep(r, true, r->next++, now))
				return false;
		if (!gstep(r, false, 0, now))
			return false;
		EXPECT(r->ticks <= max_ticks); /* (d) a job left waiting with nothing to wake it would stall here */
	}
	EXPECT(sched_gang_check(r->g) == SCHED_OK);
	for (uint32_t k = 0; k < w->n; k++)
		EXPECT(r->started[k] && r->ended[k]);
	return true;
}

/* --- the sweeps ---------------------------------------------------------------------------- */

static struct sched_config config_for(const struct wl *w, enum sched_policy_id p)
{
	struct sched_config c = w->cfg;
	c.policy = p;
	c.max_jobs = MAXJ;
	c.scratch_jobs = MAXJ;
	c = tp_set(c, "tolerance", 120); /* relaxed: backfills may delay others a little */
	return c;
}

static bool sweep_ss(const struct wl *w, enum sched_policy_id p)
{
	static struct ss r;
	struct sched_config cfg = config_for(w, p);
	snprintf(where, sizeof where, "%s/%s unfailed", w->name, sched_policy_name(p));
	sched_fail_reset();
	if (!replay_ss(&r, w, &cfg))
		return false;
	uint64_t base = r.hash, n = sched_fail_seen(SCHED_FAIL_NONE);
	EXPECT(n > 0);
	for (uint64_t k = 1; k <= n; k++) {
		snprintf(where, sizeof where, "%s/%s k=%llu of %llu", w->name, sched_policy_name(p),
			 (unsigned long long)k, (unsigned long long)n);
		sched_fail_reset();
		sched_fail_arm(k, SCHED_FAIL_ALL_SITES);
		if (!replay_ss(&r, w, &cfg))
			return false;
		EXPECT(r.site != SCHED_FAIL_NONE); /* the same run up to it: the k-th allocation happened */
		EXPECT(!r.refused || r.hash == base); /* a refusal changed nothing: the same schedule */
		points++;
		points_by_site[r.site]++;
	}
	if (r.s != NULL) /* NULL: the last run was refused at init */
		harness_watch(r.s); /* the last failed run's state, checked after the test with nothing armed */
	return true;
}

static bool sweep_gang(const struct wl *w, enum sched_policy_id p)
{
	static struct gs r;
	struct sched_gang_config cfg = {.procs = 1, .max_slots = 64, .max_jobs = MAXJ, .quantum = GANG_QUANTUM};
	while (cfg.procs < w->cfg.procs)
		cfg.procs <<= 1; /* gang scheduling needs a power of two */
	for (unsigned sc = 0; sc < SCHED_GANG_SCHEME_COUNT; sc++) {
		cfg.scheme = (enum sched_gang_scheme)sc;
		snprintf(where, sizeof where, "%s/%s-%s unfailed", w->name, sched_policy_name(p),
			 sched_gang_scheme_name(cfg.scheme));
		sched_fail_reset();
		if (!replay_gang(&r, w, &cfg, UINT64_MAX))
			return false;
		uint64_t base = r.hash, n = sched_fail_seen(SCHED_FAIL_NONE), limit = 4 * r.ticks + 1000;
		EXPECT(n > 0);
		for (uint64_t k = 1; k <= n; k++) {
			snprintf(where, sizeof where, "%s/%s-%s k=%llu of %llu", w->name, sched_policy_name(p),
				 sched_gang_scheme_name(cfg.scheme), (unsigned long long)k, (unsigned long long)n);
			sched_fail_reset();
			sched_fail_arm(k, SCHED_FAIL_ALL_SITES);
			if (!replay_gang(&r, w, &cfg, limit))
				return false;
			EXPECT(r.site != SCHED_FAIL_NONE);
			EXPECT(!r.refused || r.hash == base);
			points++;
			points_by_site[r.site]++;
		}
	}
	return true;
}

/* Every policy of the registry that shares (or time-shares) the machine, on every workload. */
static void sweep_registry(bool timeshared)
{
	load_workloads();
	CHECK(n_workloads == 3);
	why[0] = '\0';
	for (unsigned i = 0; i < n_workloads; i++)
		for (int p = 0; p < SCHED_POLICY_COUNT; p++) {
			enum sched_policy_id id = (enum sched_policy_id)p;
			if (sched_policy_timeshared(id) != timeshared)
				continue;
			bool ok = timeshared ? sweep_gang(&workloads[i], id) : sweep_ss(&workloads[i], id);
			sched_fail_reset();
			if (!ok) {
				core_failed = true;
				printf("note: failk: %s\n", why);
			}
			CHECK(ok);
			policies_seen[p] = 1;
		}
}

static void every_allocation_fails_once_under_every_space_sharing_policy(void)
{
	sweep_registry(false);
}

static void every_allocation_fails_once_under_every_time_sharing_policy(void)
{
	sweep_registry(true);
}

/* An init refused half way leaves no scheduler in the arena, not even the one that was there. */
static void a_refused_init_leaves_nothing_to_attach_to(void)
{
	struct sched_config cfg = {.procs = 8, .max_jobs = 4, .policy = SCHED_POLICY_CONS, .n_partitions = 2,
				   .partition_procs = {4, 4}};
	struct sched *s;
	CHECK_EQ(sched_init(&s, &cfg, arena, sizeof arena, NULL, NULL, 0), SCHED_OK);
	CHECK_EQ(sched_attach(&s, arena, sizeof arena, NULL, NULL), SCHED_OK);
	for (uint64_t k = 1; k <= 2; k++) { /* one base segment per partition */
		sched_fail_reset();
		sched_fail_arm(k, 1u << SCHED_FAIL_SEGMENT);
		CHECK_EQ(sched_init(&s, &cfg, arena, sizeof arena, NULL, NULL, 0), SCHED_E_NOSPACE);
		CHECK_EQ(sched_fail_fired(), SCHED_FAIL_SEGMENT);
		CHECK_EQ(sched_attach(&s, arena, sizeof arena, NULL, NULL), SCHED_E_FORMAT);
		points++;
		points_by_site[SCHED_FAIL_SEGMENT]++;
	}
	sched_fail_reset();
	CHECK_EQ(sched_init(&s, &cfg, arena, sizeof arena, NULL, NULL, 0), SCHED_OK);
	CHECK_EQ(sched_check(s), SCHED_OK);
	harness_watch(s);
}

/* --- the replay engine's own site ---------------------------------------------------------------- */

struct engine_log {
	uint32_t submitted[MAXJ], refused[MAXJ], started[MAXJ], ended[MAXJ];
};

static void on_event(void *ctx, const struct sched_replay_event *e)
{
	struct engine_log *l = ctx;
	if (e->seq >= MAXJ || e->kind == SCHED_RE_SWITCH || e->kind == SCHED_RE_SKIP)
		return;
	if (e->kind == SCHED_RE_SUBMIT)
		l->submitted[e->seq]++;
	else if (e->kind == SCHED_RE_REFUSED)
		l->refused[e->seq]++;
	else if (e->kind == SCHED_RE_START)
		l->started[e->seq]++;
	else
		l->ended[e->seq]++;
}

struct source {
	const struct wl *w;
	uint32_t next;
	bool plain; /* time sharing: one queue, one partition (the replayer refuses a site with gang) */
};

static int next_job(void *ctx, struct sched_replay_job *job)
{
	struct source *src = ctx;
	if (src->next == src->w->n)
		return 0;
	*job = src->w->job[src->next++];
	if (src->plain) {
		job->queue = 0;
		job->partition = SCHED_PART_ANY;
	}
	return 1;
}

static unsigned char *engine_arena;
static size_t engine_arena_size;

/* A replay of @p w under @p cfg with every call checked; its counters into @p st. */
static bool engine_run(const struct wl *w, const struct sched_config *cfg, struct sched_replay_stats *st,
		       struct engine_log *log)
{
	static _Alignas(SCHED_ARENA_ALIGN) unsigned char room[SCHED_REPLAY_BYTES];
	struct sched_replay *r;
	memset(log, 0, sizeof *log);
	struct source src = {w, 0, sched_policy_timeshared(cfg->policy)};
	EXPECT(sched_replay_arena_size_cfg(cfg) <= engine_arena_size);
	EXPECT(sched_replay_init(&r, room, sizeof room, cfg, engine_arena, engine_arena_size, on_event, log) == SCHED_OK);
	sched_replay_set_flags(r, SCHED_REPLAY_CHECK);
	EXPECT(sched_replay_run(r, next_job, &src) == SCHED_OK);
	sched_replay_stats(r, st);
	return true;
}

/*
 * A job the engine has no slot for, or the core (or gang module) no job
 * record for, is refused: counted and reported, and every other job still
 * runs to its end; a time slot the gang module cannot make only makes a job
 * wait, and the run still ends. (A segment shortage in a call other than a
 * submit is an error the engine returns: that is the sweeps above.)
 */
static struct sched_config engine_config(const struct wl *w, enum sched_policy_id p)
{
	struct sched_config cfg = config_for(w, p);
	if (sched_policy_timeshared(p)) {
		cfg.procs = 1;
		while (cfg.procs < w->cfg.procs)
			cfg.procs <<= 1;
		cfg.n_partitions = 0;
		cfg.n_queues = 0;
		cfg = tp_set(tp_set(cfg, "quantum", GANG_QUANTUM), "max-slots", 64);
		cfg = tp_set(cfg, "scheme", SCHED_GANG_BRMMS);
	}
	return cfg;
}

static bool sweep_engine(const struct wl *w, enum sched_policy_id p)
{
	static struct sched_replay_stats st;
	static struct engine_log log;
	struct sched_config cfg = engine_config(w, p);
	const unsigned refusing = 1u << SCHED_FAIL_REPLAY_SLOT | 1u << SCHED_FAIL_JOB | 1u << SCHED_FAIL_GANG_JOB;
	const unsigned sites = refusing | 1u << SCHED_FAIL_GANG_SLOT;
	snprintf(where, sizeof where, "engine %s/%s unfailed", w->name, sched_policy_name(p));
	sched_fail_reset();
	if (!engine_run(w, &cfg, &st, &log))
		return false;
	EXPECT(st.refused == 0);
	uint64_t n = sched_fail_seen(SCHED_FAIL_REPLAY_SLOT) + sched_fail_seen(SCHED_FAIL_JOB) +
		     sched_fail_seen(SCHED_FAIL_GANG_JOB) + sched_fail_seen(SCHED_FAIL_GANG_SLOT);
	EXPECT(n >= w->n);
	for (uint64_t k = 1; k <= n; k++) {
		snprintf(where, sizeof where, "engine %s/%s k=%llu of %llu", w->name, sched_policy_name(p),
			 (unsigned long long)k, (unsigned long long)n);
		sched_fail_reset();
		sched_fail_arm(k, sites);
		if (!engine_run(w, &cfg, &st, &log))
			return false;
		enum sched_fail_site site = sched_fail_fired();
		EXPECT(site != SCHED_FAIL_NONE);
		bool refuses = (refusing >> site) & 1u;
		EXPECT(st.refused == (refuses ? 1u : 0u));
		uint32_t refused = 0;
		for (uint32_t k2 = 0; k2 < w->n; k2++) {
			if (log.refused[k2]) {
				refused++;
				EXPECT(log.refused[k2] == 1 && log.submitted[k2] == 0 && log.started[k2] == 0);
				continue;
			}
			EXPECT(log.submitted[k2] == 1 && log.started[k2] == 1 && log.ended[k2] == 1);
		}
		EXPECT(refused == st.refused);
		points++;
		points_by_site[site]++;
	}
	return true;
}

static void the_engine_refuses_what_it_has_no_room_for(void)
{
	CHECK(!core_failed); /* e.g. a job left waiting forever would hang the engine's run */
	load_workloads();
	CHECK(n_workloads == 3);
	why[0] = '\0';
	engine_arena_size = 0;
	for (unsigned i = 0; i < n_workloads; i++) {
		for (int p = 0; p < SCHED_POLICY_COUNT; p++) {
			struct sched_config c = engine_config(&workloads[i], (enum sched_policy_id)p);
			if (sched_replay_arena_size_cfg(&c) > engine_arena_size)
				engine_arena_size = sched_replay_arena_size_cfg(&c);
		}
	}
	engine_arena_size = (engine_arena_size + 7u) & ~(size_t)7u;
	engine_arena = aligned_alloc(SCHED_ARENA_ALIGN, engine_arena_size);
	CHECK(engine_arena != NULL);
	bool ok = true;
	for (unsigned i = 0; ok && i < n_workloads; i++)
		for (int p = 0; ok && p < SCHED_POLICY_COUNT; p++)
			ok = sweep_engine(&workloads[i], (enum sched_policy_id)p);
	sched_fail_reset();
	free(engine_arena);
	if (!ok)
		printf("note: failk: %s\n", why);
	CHECK(ok);
}

static const struct test tests[] = {
	{"every_allocation_fails_once_under_every_space_sharing_policy",
	 every_allocation_fails_once_under_every_space_sharing_policy},
	{"every_allocation_fails_once_under_every_time_sharing_policy",
	 every_allocation_fails_once_under_every_time_sharing_policy},
	{"a_refused_init_leaves_nothing_to_attach_to", a_refused_init_leaves_nothing_to_attach_to},
	{"the_engine_refuses_what_it_has_no_room_for", the_engine_refuses_what_it_has_no_room_for},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	clock_t t0 = clock();
	int rc = test_main("failk", tests, argc, argv);
	unsigned pols = 0;
	for (int p = 0; p < SCHED_POLICY_COUNT; p++)
		pols += policies_seen[p];
	printf("note: failk: %llu failure points over %u workloads x %u policies (",
	       (unsigned long long)points, n_workloads, pols);
	const char *sep = "";
	for (unsigned s = 1; s < SCHED_FAIL_SITE_COUNT; s++)
		if (points_by_site[s]) {
			printf("%s%s %llu", sep, sched_fail_site_name((enum sched_fail_site)s),
			       (unsigned long long)points_by_site[s]);
			sep = ", ";
		}
	printf("; %.1f s of CPU)\n", (double)(clock() - t0) / CLOCKS_PER_SEC);
	return rc;
}
