/* SPDX-License-Identifier: MIT */
/* The replay engine shared by the host replayer and the firmware: one event loop, one hash. */
#include "sched/replay.h"
#include "util.h"

#define NO_SLOT UINT32_MAX

size_t sched_replay_arena_size(uint32_t max_jobs)
{
	return SCHED_REPLAY_ARENA_SIZE(max_jobs);
}

size_t sched_replay_arena_size_cfg(const struct sched_config *cfg)
{
	return sched_arena_size_cfg(cfg) +
	       (size_t)cfg->max_jobs * (sizeof(struct sched_replay_slot) + sizeof(struct sched_replay_pending));
}

uint64_t sched_fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/*
 * The hash covers every event as 13 bytes: kind, then seq, time and a value
 * (processors for a start, the guarantee for a submit, else 0), each 32-bit
 * little-endian. Same events in the same order, same hash, on any target.
 */
static void hash_event(struct sched_replay *r, enum sched_replay_kind kind, uint32_t seq,
		       sched_time_t t, uint32_t value)
{
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
	r->on_event(r->event_ctx, &e);
}

enum sched_skip sched_replay_clean(int32_t submit, int32_t run, int32_t alloc_procs,
				   int32_t req_procs, int32_t req_time, sched_procs_t machine,
				   struct sched_replay_job *out)
{
	int32_t procs = alloc_procs > 0 ? alloc_procs : req_procs;
	if (procs < 1)
		return SCHED_SKIP_PROCS;
	if (run < 0)
		return SCHED_SKIP_RUN;
	if ((uint32_t)procs > machine)
		return SCHED_SKIP_WIDE;
	if (submit < 0 || (uint32_t)submit >= SCHED_NOW_LIMIT / 2)
		return SCHED_SKIP_SUBMIT;
	out->submit = (sched_time_t)submit;
	out->procs = (sched_procs_t)procs;
	out->user = 0;
	out->queue = 0;
	out->partition = SCHED_PART_ANY;
	out->up_milli = 0;
	out->pp_milli = 0;
	out->run = (sched_time_t)run;
	out->estimate = req_time > 0 ? (sched_time_t)req_time : (sched_time_t)run;
	if (out->estimate == 0)
		out->estimate = 1; /* the core's smallest unit */
	return SCHED_SKIP_NONE;
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

/* A job left the machine at t: account it and free its slot (the core's record is still there). */
static void job_done(struct sched_replay *r, uint32_t slot, const struct sched_job *j, sched_time_t t,
		     bool killed)
{
	sched_metrics_add(&r->metrics, j->submit, j->start, t, j->procs, killed);
	enum sched_replay_kind kind = killed ? SCHED_RE_KILL : SCHED_RE_END;
	uint32_t seq = r->slots[slot].seq;
	hash_event(r, kind, seq, t, 0);
	emit(r, kind, seq, t, j->procs, SCHED_TIME_MAX, j->submit, j->start, false, 0, j->part);
	release_slot(r, slot);
}

static void on_decision(void *ctx, const struct sched_decision *d)
{
	struct sched_replay *r = ctx;
	uint32_t slot = d->job;
	struct sched_replay_slot *s = &r->slots[slot];
	const struct sched_job *j = sched_find(&r->sched, slot);
	SCHED_ASSERT(j != NULL); /* decisions come while the job is in the core */
	if (d->kind == SCHED_DEC_START) {
		hash_event(r, SCHED_RE_START, s->seq, d->time, d->procs);
		emit(r, SCHED_RE_START, s->seq, d->time, d->procs, SCHED_TIME_MAX, j->submit, d->time,
		     d->backfilled, 0, d->partition);
		/* Only the engine knows the run time: a job that ends by itself is queued here. */
		if (s->run <= j->estimate)
			heap_push(r, (struct sched_replay_pending){d->time + s->run, s->seq, slot});
	} else {
		job_done(r, slot, j, d->time, true);
	}
}

int sched_replay_init(struct sched_replay *r, const struct sched_config *cfg, void *arena,
		      size_t arena_size, sched_replay_event_fn on_event, void *ctx)
{
	if (cfg == NULL || arena == NULL || cfg->max_jobs == 0 || cfg->max_jobs > (UINT32_MAX - 16) / 2)
		return SCHED_E_INVAL;
	if ((uintptr_t)arena % SCHED_ARENA_ALIGN != 0)
		return SCHED_E_INVAL;
	if (arena_size < sched_replay_arena_size_cfg(cfg))
		return SCHED_E_NOSPACE;
	sched_zero(r, sizeof *r);
	sched_copy(&r->cfg, cfg, sizeof r->cfg);
	unsigned char *mem = arena;
	r->sched_arena = mem;
	r->sched_arena_size = sched_arena_size_cfg(cfg);
	r->slots = (struct sched_replay_slot *)(void *)(mem + r->sched_arena_size);
	r->heap = (struct sched_replay_pending *)(void *)(mem + r->sched_arena_size +
							   (size_t)cfg->max_jobs * sizeof *r->slots);
	r->on_event = on_event;
	r->event_ctx = ctx;
	r->on_step = NULL;
	r->hash = SCHED_FNV_OFFSET;
	sched_metrics_init(&r->metrics);
	/* Validate the configuration now, so that a bad one fails here, not mid-run. */
	return sched_init(&r->sched, cfg, r->sched_arena, r->sched_arena_size, on_decision, r, 0);
}

static int checked(struct sched_replay *r, int err)
{
	r->calls++;
	if (err == SCHED_OK && r->check && sched_check(&r->sched) != SCHED_OK)
		err = SCHED_E_STATE;
	if (err == SCHED_OK && r->on_step != NULL)
		r->on_step(r->event_ctx, r, r->sched.now);
	return err;
}

int sched_replay_run(struct sched_replay *r, sched_replay_source_fn next, void *ctx)
{
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
		sched_time_t t = sched_next_event(&r->sched);
		if (have && job.submit < t)
			t = job.submit;
		if (r->heap_n > 0 && r->heap[0].end < t)
			t = r->heap[0].end;
		if (t == SCHED_TIME_MAX)
			break;
		/* One instant: ends, then submits in order, then one pass. */
		while (r->heap_n > 0 && r->heap[0].end == t) {
			struct sched_replay_pending p = heap_pop(r);
			const struct sched_job *j = sched_find(&r->sched, p.slot);
			if (j == NULL)
				return SCHED_E_STATE;
			/* Account it while the core still holds its record. */
			sched_time_t submit = j->submit, start = j->start;
			sched_procs_t procs = j->procs;
			uint8_t part = j->part;
			err = checked(r, sched_finish(&r->sched, p.slot, t));
			if (err != SCHED_OK)
				return err;
			sched_metrics_add(&r->metrics, submit, start, t, procs, false);
			hash_event(r, SCHED_RE_END, p.seq, t, 0);
			emit(r, SCHED_RE_END, p.seq, t, procs, SCHED_TIME_MAX, submit, start, false, 0, part);
			release_slot(r, p.slot);
		}
		while (have && job.submit == t) {
			r->jobs++;
			uint32_t slot = r->free_slot;
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
				err = checked(r, sched_submit(&r->sched, &d, t));
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
				if (sched_predict(&r->sched, slot, &pred) != SCHED_OK)
					pred = SCHED_TIME_MAX;
				hash_event(r, SCHED_RE_SUBMIT, job.seq, t, pred);
				emit(r, SCHED_RE_SUBMIT, job.seq, t, job.procs, pred, t, 0, false, 0,
				     sched_find(&r->sched, slot)->part);
			}
			have = next(ctx, &job);
			if (have < 0)
				return have;
			if (have && job.submit < last_submit)
				return SCHED_E_TIME;
			if (have)
				last_submit = job.submit;
		}
		err = checked(r, sched_advance(&r->sched, t));
		if (err != SCHED_OK)
			return err;
	}
	/* Nothing may be left: every job ran to its end or was refused. */
	return r->sched.n_waiting + r->sched.n_running == 0 ? SCHED_OK : SCHED_E_STATE;
}
