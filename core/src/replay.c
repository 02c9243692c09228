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

size_t sched_replay_arena_size_cfg(const struct sched_config *cfg)
{
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
		 bool backfilled, int err, uint8_t part, bool killed)
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
	e.killed = killed;
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

/*
 * A job left the machine at t after `start` (read while the core still holds it): account it
 * and free its slot. Under time sharing the elapsed time is not the run time: the core's END
 * gives the dedicated run time (its quanta), which the metrics take as the run and the rest of
 * the response as the wait, so slowdowns and utilization mean what they mean under space
 * sharing; a job cut at its estimate ends (END) but counts killed.
 */
static void job_done(struct sched_replay *r, uint32_t slot, const struct sched_job_info *j, sched_time_t t,
		     sched_time_t start, enum sched_replay_kind kind, bool killed)
{
	sched_metrics_add(&r->metrics, j->submit, start, t, j->procs, killed);
	uint32_t seq = r->slots[slot].seq;
	hash_event(r, kind, seq, t, 0);
	emit(r, kind, seq, t, j->procs, SCHED_TIME_MAX, j->submit, start, false, 0, j->partition, killed);
	release_slot(r, slot);
}

static void on_decision(void *ctx, const struct sched_decision *d)
{
	struct sched_replay *r = ctx;
	if (d->kind == SCHED_DEC_SWITCH || d->kind == SCHED_DEC_SKIP) {
		/* Time sharing: a slice's context switch list, or slices run in one step; not hashed. */
		if (r->on_event == NULL)
			return;
		struct sched_replay_event e;
		sched_zero(&e, sizeof e);
		e.kind = d->kind == SCHED_DEC_SKIP ? SCHED_RE_SKIP : SCHED_RE_SWITCH;
		e.time = d->time;
		e.slot = d->slot;
		e.runs = d->runs;
		e.n_runs = d->n_runs;
		e.quanta = d->quanta;
		r->on_event(r->event_ctx, &e);
		return;
	}
	uint32_t slot = d->job;
	struct sched_replay_slot *s = &r->slots[slot];
	struct sched_job_info j;
	int err = sched_job_get(r->sched, slot, &j);
	SCHED_ASSERT(err == SCHED_OK); /* decisions come while the job is in the core */
	(void)err;
	if (d->kind == SCHED_DEC_START) {
		hash_event(r, SCHED_RE_START, s->seq, d->time, d->procs);
		emit(r, SCHED_RE_START, s->seq, d->time, d->procs, SCHED_TIME_MAX, j.submit, d->time,
		     d->backfilled, 0, d->partition, false);
		/* Only the engine knows the run time: a job that ends by itself is queued here (a
		 * time-shared policy was given it as the job's service and ends the job itself). */
		if (s->run <= j.estimate && !sched_policy_timeshared(r->cfg.policy))
			heap_push(r, (struct sched_replay_pending){d->time + s->run, s->seq, slot});
	} else if (d->kind == SCHED_DEC_END) {
		job_done(r, slot, &j, d->time, d->time - d->run, SCHED_RE_END, s->run > j.estimate);
	} else {
		job_done(r, slot, &j, d->time, d->time - d->run, SCHED_RE_KILL, true);
	}
}

/* The slots and the heap follow the scheduler in the arena. */
static void place_tables(struct sched_replay *r, unsigned char *mem)
{
	r->slots = (struct sched_replay_slot *)(void *)(mem + r->sched_arena_size);
	r->heap = (struct sched_replay_pending *)(void *)(mem + r->sched_arena_size +
							   (size_t)r->cfg.max_jobs * sizeof *r->slots);
}

int sched_replay_move(struct sched_replay *r, void *arena, size_t arena_size)
{
	if (arena_size < sched_replay_arena_size_cfg(&r->cfg))
		return SCHED_E_NOSPACE;
	int err = sched_attach(&r->sched, arena, r->sched_arena_size, on_decision, r);
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
	/* What the init below hands to sched_init(), and what it refuses. */
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
	r->sched_arena_size = sched_arena_size_cfg(cfg);
	place_tables(r, mem);
	r->on_event = on_event;
	r->event_ctx = ctx;
	r->on_step = NULL;
	r->hash = SCHED_FNV_OFFSET;
	sched_metrics_init(&r->metrics);
	/* Validate the configuration now, so that a bad one fails here, not mid-run. */
	err = sched_init(&r->sched, cfg, r->sched_arena, r->sched_arena_size, on_decision, r, 0);
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
}

const struct sched *sched_replay_sched(const struct sched_replay *r)
{
	return r->sched;
}

uint32_t sched_replay_seq(const struct sched_replay *r, uint32_t slot)
{
	if (slot >= r->cfg.max_jobs)
		return UINT32_MAX;
	return r->slots[slot].seq;
}

const struct sched_config *sched_replay_config(const struct sched_replay *r)
{
	return &r->cfg;
}

/* After every call into the scheduler: count it, check it if asked, let the caller look. */
static int checked(struct sched_replay *r, int err, sched_time_t t)
{
	r->calls++;
	if (err == SCHED_OK && r->check && sched_check(r->sched) != SCHED_OK)
		err = SCHED_E_STATE;
	if (err == SCHED_OK && r->on_step != NULL)
		r->on_step(r->event_ctx, r, t);
	return err;
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

int sched_replay_run(struct sched_replay *r, sched_replay_source_fn next, void *ctx)
{
	struct sched_replay_job job;
	int have = next(ctx, &job);
	if (have < 0)
		return have;
	/* The clock starts at the first submit. A time-shared policy folds the slices in which
	 * nothing changes into one SKIP unless the caller writes every slice's list. */
	r->cfg.every_slice = r->every_quantum;
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
			job_done(r, p.slot, &j, t, j.start, SCHED_RE_END, false);
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
				d.service = job.run > 0 ? job.run : 1; /* for a time-shared policy: it ends the job */
				err = checked(r, sched_submit(r->sched, &d, t), t);
			}
			if (err == SCHED_E_NOSPACE || err == SCHED_E_LIMIT) {
				/* Refused, not lost: counted, hashed and reported with the reason. */
				r->refused++;
				hash_event(r, SCHED_RE_REFUSED, job.seq, t, (uint32_t)-err);
				emit(r, SCHED_RE_REFUSED, job.seq, t, job.procs, SCHED_TIME_MAX, t, 0, false, err, 0, false);
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
				emit(r, SCHED_RE_SUBMIT, job.seq, t, job.procs, pred, t, 0, false, 0, ji.partition, false);
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
