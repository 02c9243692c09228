/* SPDX-License-Identifier: MIT */
/* The replay engine shared by the host replayer and the firmware: one event loop, one hash. */
#include "sched/replay.h"
#include "failpoint.h"
#include "replay_priv.h"
#include "sched_priv.h"
#include "util.h"

_Static_assert(sizeof(struct sched_replay) <= SCHED_REPLAY_BYTES, "the registers fit SCHED_REPLAY_BYTES");
_Static_assert(_Alignof(struct sched_replay) <= SCHED_ARENA_ALIGN, "SCHED_ARENA_ALIGN suits the registers");
_Static_assert(sizeof(struct sched_replay_slot) == SCHED_REPLAY_SLOT_BYTES, "SCHED_REPLAY_SLOT_BYTES is a slot's size");
_Static_assert(sizeof(struct sched_replay_pending) == SCHED_REPLAY_PENDING_BYTES,
	       "SCHED_REPLAY_PENDING_BYTES is a pending end's size");

#define NO_SLOT UINT32_MAX

/* The slot a job entering the system gets, or NO_SLOT when every one is taken (it is then refused). */
static uint32_t free_slot(const struct sched_replay *r)
{
	return r->free_slot != NO_SLOT && !SCHED_FAIL(SCHED_FAIL_REPLAY_SLOT) ? r->free_slot : NO_SLOT;
}

size_t sched_replay_arena_size(uint32_t max_jobs)
{
	return SCHED_REPLAY_ARENA_SIZE(max_jobs);
}

/* The gang module's configuration from a (normalised) replay configuration. */
static struct sched_gang_config gang_config(const struct sched_config *c)
{
	struct sched_gang_params gp = sched_gang_params_get(c);
	struct sched_gang_config g;
	g.procs = c->procs;
	/* 0: a bound the run cannot reach (the engine holds every job of the replay). */
	g.max_slots = sched_gang_slots_for(gp.max_slots, c->max_jobs);
	g.max_jobs = c->max_jobs;
	g.scheme = (enum sched_gang_scheme)gp.scheme;
	g.quantum = gp.quantum;
	g.bc_slots = (enum sched_gang_bc_slots)gp.bc_slots;
	return g;
}

/* Bytes of the scheduler's part of the arena: struct sched's, or the gang module's (0: invalid). */
static size_t core_size(const struct sched_config *cfg)
{
	if (!sched_policy_timeshared(cfg->policy))
		return sched_arena_size_cfg(cfg);
	struct sched_config c;
	sched_copy(&c, cfg, sizeof c);
	if (sched_params_normalise(&c) != SCHED_OK)
		return 0;
	struct sched_gang_config g = gang_config(&c);
	return (sched_gang_arena_size(&g) + 7u) & ~(size_t)7u;
}

size_t sched_replay_arena_size_cfg(const struct sched_config *cfg)
{
	if (sched_policy_timeshared(cfg->policy))
		return core_size(cfg) + (size_t)cfg->max_jobs * sizeof(struct sched_replay_tslot);
	return sched_arena_size_cfg(cfg) +
	       (size_t)cfg->max_jobs * (sizeof(struct sched_replay_slot) + sizeof(struct sched_replay_pending));
}

/*
 * The hash covers every event as 13 bytes: kind, then seq, time and a value
 * (processors for a start, the guarantee for a submit, else 0), each 32-bit
 * little-endian. Same events in the same order, same hash, on any target.
 */
static void hash_event(struct sched_replay *r, enum sched_replay_kind kind, uint32_t seq,
		       sched_time_t t, uint32_t value)
{
	if (r->no_hash)
		return; /* nobody reads it: about 5% of a FCFS or EASY replay saved */
	uint8_t b[13];
	b[0] = (uint8_t)kind;
	for (int i = 0; i < 4; i++) {
		b[1 + i] = (uint8_t)(seq >> (8 * i));
		b[5 + i] = (uint8_t)(t >> (8 * i));
		b[9 + i] = (uint8_t)(value >> (8 * i));
	}
	r->hash = sched_fnv1a(r->hash, b, sizeof b);
}

/* Report an event; every field is set one by one (an initializer would call memset). */
static void emit(struct sched_replay *r, enum sched_replay_kind kind, uint32_t seq, sched_time_t t,
		 sched_procs_t procs, sched_time_t predicted, sched_time_t submit, sched_time_t start,
		 bool backfilled, int err, uint8_t part)
{
	if (r->on_event == NULL)
		return;
	struct sched_replay_event e;
	e.kind = kind;
	e.seq = seq;
	e.time = t;
	e.procs = procs;
	e.predicted = predicted;
	e.submit = submit;
	e.start = start;
	e.backfilled = backfilled;
	e.err = err;
	e.partition = part;
	e.killed = kind == SCHED_RE_KILL;
	e.slot = 0;
	e.runs = NULL;
	e.n_runs = 0;
	e.quanta = 0;
	r->on_event(r->event_ctx, &e);
}

/* --- the heap of pending ends, ordered by (end, seq) -------------------------------- */

static bool before(const struct sched_replay_pending *a, const struct sched_replay_pending *b)
{
	return a->end != b->end ? a->end < b->end : a->seq < b->seq;
}

static void heap_push(struct sched_replay *r, struct sched_replay_pending it)
{
	uint32_t i = r->heap_n++;
	while (i > 0) {
		uint32_t parent = (i - 1) / 2;
		if (!before(&it, &r->heap[parent]))
			break;
		r->heap[i] = r->heap[parent];
		i = parent;
	}
	r->heap[i] = it;
}

static struct sched_replay_pending heap_pop(struct sched_replay *r)
{
	struct sched_replay_pending top = r->heap[0];
	struct sched_replay_pending last = r->heap[--r->heap_n];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= r->heap_n)
			break;
		if (c + 1 < r->heap_n && before(&r->heap[c + 1], &r->heap[c]))
			c++;
		if (!before(&r->heap[c], &last))
			break;
		r->heap[i] = r->heap[c];
		i = c;
	}
	if (r->heap_n > 0)
		r->heap[i] = last;
	return top;
}

/* --- the core's decisions ----------------------------------------------------------- */

static void release_slot(struct sched_replay *r, uint32_t slot)
{
	r->slots[slot].next_free = r->free_slot;
	r->free_slot = slot;
}

/* A job left the machine at t: account it and free its slot (read while the core still holds it). */
static void job_done(struct sched_replay *r, uint32_t slot, const struct sched_job_info *j, sched_time_t t,
		     bool killed)
{
	sched_metrics_add(&r->metrics, j->submit, j->start, t, j->procs, killed);
	enum sched_replay_kind kind = killed ? SCHED_RE_KILL : SCHED_RE_END;
	uint32_t seq = r->slots[slot].seq;
	hash_event(r, kind, seq, t, 0);
	emit(r, kind, seq, t, j->procs, SCHED_TIME_MAX, j->submit, j->start, false, 0, j->partition);
	release_slot(r, slot);
}

static void on_decision(void *ctx, const struct sched_decision *d)
{
	struct sched_replay *r = ctx;
	uint32_t slot = d->job;
	struct sched_replay_slot *s = &r->slots[slot];
	struct sched_job_info j;
	int err = sched_job_get(r->sched, slot, &j);
	SCHED_ASSERT(err == SCHED_OK); /* decisions come while the job is in the core */
	(void)err;
	if (d->kind == SCHED_DEC_START) {
		hash_event(r, SCHED_RE_START, s->seq, d->time, d->procs);
		emit(r, SCHED_RE_START, s->seq, d->time, d->procs, SCHED_TIME_MAX, j.submit, d->time,
		     d->backfilled, 0, d->partition);
		/* Only the engine knows the run time: a job that ends by itself is queued here. */
		if (s->run <= j.estimate)
			heap_push(r, (struct sched_replay_pending){d->time + s->run, s->seq, slot});
	} else {
		job_done(r, slot, &j, d->time, true);
	}
}

static void on_gang(void *ctx, const struct sched_gang_event *g);

/* The slots and the heap (or the time-shared slots) follow the scheduler in the arena. */
static void place_tables(struct sched_replay *r, unsigned char *mem)
{
	r->tslots = (struct sched_replay_tslot *)(void *)(mem + r->sched_arena_size);
	r->slots = (struct sched_replay_slot *)(void *)(mem + r->sched_arena_size);
	r->heap = (struct sched_replay_pending *)(void *)(mem + r->sched_arena_size +
							   (size_t)r->cfg.max_jobs * sizeof *r->slots);
}

int sched_replay_move(struct sched_replay *r, void *arena, size_t arena_size)
{
	if (arena_size < sched_replay_arena_size_cfg(&r->cfg))
		return SCHED_E_NOSPACE;
	int err = r->gang != NULL ? sched_gang_attach(&r->gang, arena, r->sched_arena_size, on_gang, r)
				  : sched_attach(&r->sched, arena, r->sched_arena_size, on_decision, r);
	if (err != SCHED_OK)
		return err;
	r->sched_arena = arena;
	place_tables(r, arena);
	return SCHED_OK;
}

int sched_replay_check(const struct sched_config *cfg, size_t arena_size)
{
	if (cfg == NULL || cfg->max_jobs == 0 || cfg->max_jobs > (UINT32_MAX - 16) / 2)
		return SCHED_E_INVAL;
	if (arena_size < sched_replay_arena_size_cfg(cfg))
		return SCHED_E_NOSPACE;
	/* What the init below hands to sched_gang_init() or sched_init(), and what they refuse. */
	if (sched_policy_timeshared(cfg->policy))
		return core_size(cfg) == 0 ? SCHED_E_INVAL : SCHED_OK;
	return sched_init_check(cfg);
}

int sched_replay_init(struct sched_replay **out, void *room, size_t room_size, const struct sched_config *cfg,
		      void *arena, size_t arena_size, sched_replay_event_fn on_event, void *ctx)
{
	if (out == NULL || room == NULL || (uintptr_t)room % SCHED_ARENA_ALIGN != 0 || arena == NULL ||
	    (uintptr_t)arena % SCHED_ARENA_ALIGN != 0)
		return SCHED_E_INVAL;
	if (room_size < SCHED_REPLAY_BYTES)
		return SCHED_E_NOSPACE;
	/* The same check a caller may make before it gives up the arena: they cannot disagree. */
	int err = sched_replay_check(cfg, arena_size);
	if (err != SCHED_OK)
		return err;
	struct sched_replay *r = room;
	sched_zero(r, sizeof *r);
	sched_copy(&r->cfg, cfg, sizeof r->cfg);
	unsigned char *mem = arena;
	r->sched_arena = mem;
	r->sched_arena_size = core_size(cfg);
	place_tables(r, mem);
	r->on_event = on_event;
	r->event_ctx = ctx;
	r->on_step = NULL;
	r->hash = SCHED_FNV_OFFSET;
	sched_metrics_init(&r->metrics);
	/* Validate the configuration now, so that a bad one fails here, not mid-run. */
	if (sched_policy_timeshared(cfg->policy)) {
		if (r->sched_arena_size == 0 || sched_params_normalise(&r->cfg) != SCHED_OK)
			return SCHED_E_INVAL;
		struct sched_gang_config g = gang_config(&r->cfg);
		err = sched_gang_init(&r->gang, &g, r->sched_arena, r->sched_arena_size, NULL, NULL, 0);
	} else {
		err = sched_init(&r->sched, cfg, r->sched_arena, r->sched_arena_size, on_decision, r, 0);
	}
	if (err == SCHED_OK)
		*out = r; /* a handle only to a replay that can run */
	return err;
}

void sched_replay_set_flags(struct sched_replay *r, unsigned flags)
{
	r->check = (flags & SCHED_REPLAY_CHECK) != 0;
	r->no_hash = (flags & SCHED_REPLAY_NO_HASH) != 0;
	r->every_quantum = (flags & SCHED_REPLAY_EVERY_QUANTUM) != 0;
}

void sched_replay_on_step(struct sched_replay *r, sched_replay_step_fn on_step)
{
	r->on_step = on_step;
}

void sched_replay_stats(const struct sched_replay *r, struct sched_replay_stats *out)
{
	sched_copy(&out->metrics, &r->metrics, sizeof out->metrics);
	out->hash = r->hash;
	out->jobs = r->jobs;
	out->refused = r->refused;
	out->calls = r->calls;
	out->peak = r->peak;
}

const struct sched *sched_replay_sched(const struct sched_replay *r)
{
	return r->gang != NULL ? NULL : r->sched;
}

const struct sched_gang *sched_replay_gang(const struct sched_replay *r)
{
	return r->gang;
}

uint32_t sched_replay_seq(const struct sched_replay *r, uint32_t slot)
{
	if (slot >= r->cfg.max_jobs)
		return UINT32_MAX;
	return r->gang != NULL ? r->tslots[slot].seq : r->slots[slot].seq;
}

const struct sched_config *sched_replay_config(const struct sched_replay *r)
{
	return &r->cfg;
}

/* After every call into the scheduler (or the gang module): count it, check it if asked, let the caller look. */
static int checked(struct sched_replay *r, int err, sched_time_t t)
{
	r->calls++;
	if (err == SCHED_OK && r->check &&
	    (r->gang != NULL ? sched_gang_check(r->gang) : sched_check(r->sched)) != SCHED_OK)
		err = SCHED_E_STATE;
	if (err == SCHED_OK && r->on_step != NULL)
		r->on_step(r->event_ctx, r, t);
	return err;
}

/* --- time sharing: the gang module, a quantum at a time ---------------------------------- */

static void on_gang(void *ctx, const struct sched_gang_event *g)
{
	struct sched_replay *r = ctx;
	if (g->kind == SCHED_GANG_SWITCH || g->kind == SCHED_GANG_SKIP) {
		if (r->on_event == NULL)
			return;
		struct sched_replay_event e;
		sched_zero(&e, sizeof e);
		e.kind = g->kind == SCHED_GANG_SKIP ? SCHED_RE_SKIP : SCHED_RE_SWITCH;
		e.time = g->time;
		e.slot = g->slot;
		e.runs = g->runs;
		e.n_runs = g->n_runs;
		e.quanta = g->quanta;
		r->on_event(r->event_ctx, &e);
		return;
	}
	r->gang_moved = true;
	struct sched_replay_tslot *t = &r->tslots[g->job];
	if (g->kind == SCHED_GANG_START) {
		hash_event(r, SCHED_RE_START, t->seq, g->time, t->procs);
		emit(r, SCHED_RE_START, t->seq, g->time, t->procs, SCHED_TIME_MAX, t->submit, g->time, false, 0, 0);
		return;
	}
	/* Under time sharing the elapsed time is not the run time: the metrics take the dedicated
	 * run time (its quanta) as the run and the rest of the response as the wait, so slowdowns
	 * and utilization mean what they mean under space sharing. */
	sched_time_t dedicated = (sched_time_t)((uint64_t)t->quanta * sched_gang_params_get(&r->cfg).quantum);
	sched_metrics_add(&r->metrics, t->submit, g->time - dedicated, g->time, t->procs, t->killed != 0);
	hash_event(r, SCHED_RE_END, t->seq, g->time, 0);
	if (r->on_event != NULL) {
		struct sched_replay_event e;
		sched_zero(&e, sizeof e);
		e.kind = SCHED_RE_END;
		e.seq = t->seq;
		e.time = g->time;
		e.procs = t->procs;
		e.predicted = SCHED_TIME_MAX;
		e.submit = t->submit;
		e.start = g->time - dedicated;
		e.killed = t->killed != 0;
		r->on_event(r->event_ctx, &e);
	}
	t->next_free = r->free_slot;
	r->free_slot = g->job;
}

/* The next job from the source: 1, 0 at the end, or an error (SCHED_E_TIME when it goes back in time). */
static int next_job(sched_replay_source_fn next, void *ctx, struct sched_replay_job *job, sched_time_t *last)
{
	int have = next(ctx, job);
	if (have > 0) {
		if (job->submit < *last)
			return SCHED_E_TIME;
		*last = job->submit;
	}
	return have;
}

uint32_t sched_replay_quanta(const struct sched_replay_job *j, sched_time_t quantum)
{
	sched_time_t run = j->run < j->estimate ? j->run : j->estimate;
	uint64_t q = ((uint64_t)run + quantum - 1u) / quantum;
	return q == 0 ? 1u : q > UINT32_MAX ? UINT32_MAX : (uint32_t)q;
}

/* Place job at the boundary `now` (it arrived by then), or refuse it for lack of room. */
static int gang_submit(struct sched_replay *r, const struct sched_replay_job *job, sched_time_t now)
{
	r->jobs++;
	r->gang_moved = true; /* an arrival at the boundary a skip stopped short of: try again */
	uint32_t slot = free_slot(r);
	int err = SCHED_E_NOSPACE;
	if (slot != NO_SLOT) {
		struct sched_replay_tslot *t = &r->tslots[slot];
		t->seq = job->seq;
		t->submit = job->submit;
		t->quanta = sched_replay_quanta(job, sched_gang_params_get(&r->cfg).quantum);
		t->procs = job->procs;
		t->killed = job->run > job->estimate;
		err = checked(r, sched_gang_submit(r->gang, slot, job->procs, t->quanta, now), now);
	}
	if (err == SCHED_E_NOSPACE) {
		r->refused++;
		hash_event(r, SCHED_RE_REFUSED, job->seq, job->submit, (uint32_t)-err);
		emit(r, SCHED_RE_REFUSED, job->seq, job->submit, job->procs, SCHED_TIME_MAX, job->submit, 0, false,
		     err, 0);
		return SCHED_OK;
	}
	if (err != SCHED_OK)
		return err;
	r->free_slot = r->tslots[slot].next_free;
	if (sched_gang_jobs(r->gang) > r->peak)
		r->peak = sched_gang_jobs(r->gang);
	hash_event(r, SCHED_RE_SUBMIT, job->seq, job->submit, SCHED_TIME_MAX);
	emit(r, SCHED_RE_SUBMIT, job->seq, job->submit, job->procs, SCHED_TIME_MAX, job->submit, 0, false, 0, 0);
	return SCHED_OK;
}

/*
 * The clock moves a quantum at a time from the first submit's boundary: the
 * jobs that arrived by a boundary are placed (seed 002 allocates on
 * arrival; a job runs from the next boundary on), then one quantum runs. An
 * empty machine idles in whole quanta until the next arrival.
 *
 * A quantum at a time costs the replay its simulated time over the quantum,
 * whatever happens: three jobs of 2^31 s at a 1 s quantum are 2^31 ticks
 * (55 s of CPU; issue 25). So where the boundaries to come do nothing but
 * move the clock, sched_gang_skip runs them in one step, up to the boundary
 * of the next arrival at most; the schedule, the counters, the hash and every
 * event but the SWITCHes it folds into one SKIP are those of the ticks. It
 * finds nothing to skip until a job arrives, starts or ends (each such skip
 * stopped short of one of them), so it is only tried after one: on a busy
 * machine it is not tried at every quantum. A caller that writes every
 * quantum's context switch list sets every_quantum and keeps the ticks.
 */
static int run_gang(struct sched_replay *r, sched_replay_source_fn next, void *ctx)
{
	struct sched_replay_job job;
	int have = next(ctx, &job);
	if (have < 0)
		return have;
	sched_time_t q = sched_gang_params_get(&r->cfg).quantum;
	struct sched_gang_config g = gang_config(&r->cfg);
	int err = sched_gang_init(&r->gang, &g, r->sched_arena, r->sched_arena_size, on_gang, r,
				  have ? job.submit / q * q : 0);
	if (err != SCHED_OK)
		return err;
	for (uint32_t i = 0; i < r->cfg.max_jobs; i++)
		r->tslots[i].next_free = i + 1 < r->cfg.max_jobs ? i + 1 : NO_SLOT;
	r->free_slot = 0;
	sched_time_t last_submit = have ? job.submit : 0;
	r->gang_moved = true;
	while (have || sched_gang_jobs(r->gang) > 0) {
		sched_time_t now = sched_gang_now(r->gang);
		while (have && job.submit <= now) {
			err = gang_submit(r, &job, now);
			if (err != SCHED_OK)
				return err;
			have = next_job(next, ctx, &job, &last_submit);
			if (have < 0)
				return have;
		}
		if (r->gang_moved && !r->every_quantum) {
			r->gang_moved = false;
			/* The next arrival is placed at the first boundary at or after its submit. */
			uint64_t until = have ? ((uint64_t)job.submit + q - 1u) / q * q : SCHED_TIME_MAX;
			sched_time_t to = until > SCHED_TIME_MAX ? SCHED_TIME_MAX : (sched_time_t)until;
			if (sched_gang_skip(r->gang, to) > 0) {
				err = checked(r, SCHED_OK, now);
				if (err != SCHED_OK)
					return err;
				continue;
			}
		}
		err = checked(r, sched_gang_tick(r->gang), now);
		if (err != SCHED_OK)
			return err;
	}
	return SCHED_OK;
}

int sched_replay_run(struct sched_replay *r, sched_replay_source_fn next, void *ctx)
{
	if (r->gang != NULL)
		return run_gang(r, next, ctx);
	struct sched_replay_job job;
	int have = next(ctx, &job);
	if (have < 0)
		return have;
	/* The clock starts at the first submit. */
	int err = sched_init(&r->sched, &r->cfg, r->sched_arena, r->sched_arena_size, on_decision, r,
			     have ? job.submit : 0);
	if (err != SCHED_OK)
		return err;
	for (uint32_t i = 0; i < r->cfg.max_jobs; i++)
		r->slots[i].next_free = i + 1 < r->cfg.max_jobs ? i + 1 : NO_SLOT;
	r->free_slot = 0;
	r->heap_n = 0;
	sched_time_t last_submit = have ? job.submit : 0;

	for (;;) {
		sched_time_t t = sched_next_event(r->sched);
		if (have && job.submit < t)
			t = job.submit;
		if (r->heap_n > 0 && r->heap[0].end < t)
			t = r->heap[0].end;
		if (t == SCHED_TIME_MAX)
			break;
		/* One instant: ends, then submits in order, then one pass. */
		while (r->heap_n > 0 && r->heap[0].end == t) {
			struct sched_replay_pending p = heap_pop(r);
			/* Account it while the core still holds its record. */
			struct sched_job_info j;
			if (sched_job_get(r->sched, p.slot, &j) != SCHED_OK)
				return SCHED_E_STATE;
			err = checked(r, sched_finish(r->sched, p.slot, t), t);
			if (err != SCHED_OK)
				return err;
			job_done(r, p.slot, &j, t, false);
		}
		while (have && job.submit == t) {
			r->jobs++;
			uint32_t slot = free_slot(r);
			err = SCHED_E_NOSPACE;
			if (slot != NO_SLOT) {
				struct sched_replay_slot *s = &r->slots[slot];
				s->seq = job.seq;
				s->run = job.run;
				struct sched_job_desc d = sched_desc(slot, job.procs, job.estimate);
				d.user = job.user;
				d.queue = job.queue;
				d.partition = job.partition;
				d.up_milli = job.up_milli;
				d.pp_milli = job.pp_milli;
				err = checked(r, sched_submit(r->sched, &d, t), t);
			}
			if (err == SCHED_E_NOSPACE || err == SCHED_E_LIMIT) {
				/* Refused, not lost: counted, hashed and reported with the reason. */
				r->refused++;
				hash_event(r, SCHED_RE_REFUSED, job.seq, t, (uint32_t)-err);
				emit(r, SCHED_RE_REFUSED, job.seq, t, job.procs, SCHED_TIME_MAX, t, 0, false, err, 0);
			} else if (err != SCHED_OK) {
				return err;
			} else {
				r->free_slot = r->slots[slot].next_free;
				sched_time_t pred = SCHED_TIME_MAX;
				if (sched_predict(r->sched, slot, &pred) != SCHED_OK)
					pred = SCHED_TIME_MAX;
				hash_event(r, SCHED_RE_SUBMIT, job.seq, t, pred);
				struct sched_job_info ji;
				(void)sched_job_get(r->sched, slot, &ji);
				emit(r, SCHED_RE_SUBMIT, job.seq, t, job.procs, pred, t, 0, false, 0, ji.partition);
			}
			have = next_job(next, ctx, &job, &last_submit);
			if (have < 0)
				return have;
		}
		err = checked(r, sched_advance(r->sched, t), t);
		if (err != SCHED_OK)
			return err;
	}
	/* Nothing may be left: every job ran to its end or was refused. */
	struct sched_stats st;
	sched_stats(r->sched, &st);
	return st.waiting + st.running == 0 ? SCHED_OK : SCHED_E_STATE;
}
