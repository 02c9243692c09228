/* SPDX-License-Identifier: MIT */
/* The host side of a replay: feeds the core's replay engine from a workload and records each job's fate. */
#include "replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Loss of capacity as events come in time order: the span since the previous
 * instant counts with the state after every event of that instant. The replay
 * feeds it as it goes; replay_loss_of_capacity() feeds it sorted events.
 */
struct loc {
	sched_time_t t;               /* the instant of the last event */
	int64_t busy;                 /* processors held after the events so far */
	int64_t waiting;              /* jobs waiting after the events so far */
	double lost;                  /* processor-seconds idle while someone waited, up to t */
	sched_time_t first, last;     /* first submit, last end */
	bool any;                     /* an event was counted */
	bool unordered;               /* an event went back in time */
};

struct ctx {
	const struct wjob *jobs;
	size_t n, next;
	const struct replay_opts *o;
	struct replay_result *r;
	sched_time_t *shown;   /* ev_plans: the reservation last written per job, SCHED_TIME_MAX before its submit */
	const struct sched_replay *rp; /* the engine (its slots name the jobs of a switch list) */
	/* replay_opts.slots: the changes so far, their room, the last quantum that ran and the
	 * policy's slot_quanta then (each quantum adds the slots in the system: the difference is
	 * the count). */
	size_t cap_slots;
	sched_time_t quantum;
	bool slots_oom, ran_one;
	sched_time_t last_switch;
	uint64_t last_slot_quanta;
	struct loc loc; /* loss of capacity, in one pass over the events as they come (in time order) */
};

/* Time sharing: from @p t on, @p k slots; only changes are kept. false out of memory. */
static bool slots_push(struct ctx *c, sched_time_t t, uint32_t k)
{
	struct replay_result *r = c->r;
	if (r->n_slots > 0 && r->slots[r->n_slots - 1].slots == k)
		return true;
	if (r->n_slots == c->cap_slots) {
		size_t cap = c->cap_slots ? 2 * c->cap_slots : 256;
		struct replay_slots *p = realloc(r->slots, cap * sizeof *p);
		if (p == NULL)
			return false;
		r->slots = p;
		c->cap_slots = cap;
	}
	r->slots[r->n_slots++] = (struct replay_slots){t, k};
	return true;
}

/* @p k quanta (a SWITCH: 1; a SKIP: more) start at @p t: the slots in the system during them, all the
 * same, and 0 over the idle quanta before them (an empty machine switches to no slot). */
static void slots_quanta(struct ctx *c, sched_time_t t, uint32_t k)
{
	sched_time_t q = c->quantum;
	struct sched_stats st;
	sched_stats(sched_replay_sched(c->rp), &st);
	uint64_t sq = st.gang.slot_quanta;
	bool ok = true;
	if (c->ran_one && t > c->last_switch + q)
		ok = slots_push(c, c->last_switch + q, 0);
	ok = ok && slots_push(c, t, (uint32_t)((sq - c->last_slot_quanta) / k));
	c->slots_oom |= !ok;
	c->ran_one = true;
	c->last_switch = (sched_time_t)(t + (uint64_t)(k - 1u) * q);
	c->last_slot_quanta = sq;
}

/* One event: @p busy processors taken (+) or given back (-), @p waiting jobs that start (+) or stop (-) waiting. */
static inline void loc_add(struct loc *l, sched_procs_t procs, sched_time_t t, int64_t busy, int64_t waiting)
{
	if (!l->any) {
		l->any = true;
		l->t = t;
	} else if (t > l->t) {
		if (l->waiting > 0)
			l->lost += (double)((int64_t)procs - l->busy) * (double)(t - l->t);
		l->t = t;
	} else if (t < l->t) {
		l->unordered = true;
	}
	l->busy += busy;
	l->waiting += waiting;
}

/* The lost share of the capacity from the first submit to the last end. */
static double loc_value(const struct loc *l, sched_procs_t procs)
{
	return l->last > l->first ? l->lost / ((double)procs * (double)(l->last - l->first)) : 0.0;
}

static int source(void *vctx, struct sched_replay_job *job)
{
	struct ctx *c = vctx;
	if (c->next == c->n)
		return 0;
	/* The cleaned record goes in as it is; seq is the workload index the events come back with. */
	*job = c->jobs[c->next].j;
	job->seq = (uint32_t)c->next;
	c->next++;
	return 1;
}

static long name_of(const struct ctx *c, uint32_t seq)
{
	return c->o->names ? c->o->names[seq] : (long)seq;
}

static void on_event(void *vctx, const struct sched_replay_event *e)
{
	struct ctx *c = vctx;
	FILE *f = c->o->events;
	if (e->kind == SCHED_RE_SKIP) {
		/* Quanta in which nothing changed, in one step: they only count in the slots timeline
		 * (the engine does not skip when their context switch lists are written). */
		if (c->o->slots)
			slots_quanta(c, e->time, e->quanta);
		return;
	}
	if (e->kind == SCHED_RE_SWITCH) {
		if (c->o->slots)
			slots_quanta(c, e->time, 1);
		/* Time sharing: each quantum's context switch list, with --events-plans. */
		if (f && c->o->ev_plans) {
			fprintf(f, "%u switch %u", e->time, e->slot);
			for (uint32_t i = 0; i < e->n_runs; i++)
				fprintf(f, " %ld:%u:%u", name_of(c, sched_replay_seq(c->rp, e->runs[i].job)), e->runs[i].first,
					e->runs[i].count);
			fputc('\n', f);
		}
		return;
	}
	struct replay_job_out *out = &c->r->out[e->seq];
	switch (e->kind) {
	case SCHED_RE_SUBMIT:
	case SCHED_RE_REFUSED:
		out->refused = e->kind == SCHED_RE_REFUSED;
		out->submit = e->time;
		out->refuse_err = e->err;
		out->predicted = e->predicted;
		if (f) {
			const struct sched_replay_job *j = &c->jobs[e->seq].j;
			fprintf(f, "%u submit %ld %u %u ", e->time, name_of(c, e->seq), j->procs, j->estimate);
			if (out->refused)
				fprintf(f, "refused %s", e->err == SCHED_E_LIMIT ? "limits" : "room");
			else if (e->predicted == SCHED_TIME_MAX)
				fputs("-", f);
			else
				fprintf(f, "%u", e->predicted);
			if (c->o->ev_queue)
				fprintf(f, " q=%u u=%u", j->queue, j->user);
			if (c->o->ev_prio && j->pp_milli == SCHED_PP_OVER_QUOTA)
				fprintf(f, " up=%u pp=over", j->up_milli);
			else if (c->o->ev_prio)
				fprintf(f, " up=%u pp=%u", j->up_milli, j->pp_milli);
			fputc('\n', f);
		}
		if (c->shown != NULL && !out->refused)
			c->shown[e->seq] = e->predicted;
		if (!out->refused) {
			loc_add(&c->loc, c->o->procs, e->time, 0, 1);
			if (e->time < c->loc.first)
				c->loc.first = e->time;
		}
		/* A refused job's fate is sealed (it never ends); any arrival also lets a due progress line out,
		 * so the line keeps coming while arrivals pile up and nothing ends. */
		progress_add(c->o->progress, out->refused);
		break;
	case SCHED_RE_START:
		out->start = e->time;
		out->backfilled = e->backfilled;
		loc_add(&c->loc, c->o->procs, e->time, (int64_t)c->jobs[e->seq].j.procs, -1);
		if (f) {
			fprintf(f, "%u start %ld %u%s", e->time, name_of(c, e->seq), e->procs,
				e->backfilled ? " backfill" : "");
			if (c->o->ev_part)
				fprintf(f, " p=%u", e->partition);
			fputc('\n', f);
		}
		break;
	case SCHED_RE_END:
	case SCHED_RE_KILL:
		out->end = e->time;
		/* The engine's start of an end is end - the run its metrics count (the dedicated time under gang). */
		out->run = e->time - e->start;
		out->killed = e->kind == SCHED_RE_KILL || e->killed;
		loc_add(&c->loc, c->o->procs, e->time, -(int64_t)c->jobs[e->seq].j.procs, 0);
		if (e->time > c->loc.last)
			c->loc.last = e->time;
		if (f)
			fprintf(f, "%u %s %ld\n", e->time, e->kind == SCHED_RE_KILL ? "kill" : "end", name_of(c, e->seq));
		progress_add(c->o->progress, 1);
		break;
	case SCHED_RE_SWITCH:
	case SCHED_RE_SKIP:
		break;
	}
}

/* The progress line's tail: what makes a policy slow is mostly the queue it plans over. */
static void describe_queue(void *vctx, char *buf, size_t len)
{
	const struct ctx *c = vctx;
	if (c->rp == NULL)
		return;
	struct sched_stats st;
	sched_stats(sched_replay_sched(c->rp), &st);
	snprintf(buf, len, "queue %u, running %u", st.waiting, st.running);
}

/* After each core call: write the reservations that moved (only jobs whose submit is written). */
static void on_step(void *vctx, const struct sched_replay *rp, sched_time_t t)
{
	struct ctx *c = vctx;
	const struct sched *s = sched_replay_sched(rp);
	for (const struct sched_job *h = sched_first(s, SCHED_JOB_WAITING); h != NULL; h = sched_next(s, h)) {
		struct sched_job_info j;
		sched_job_read(h, &j);
		uint32_t seq = sched_replay_seq(rp, j.id);
		if (!j.reserved || c->shown[seq] == SCHED_TIME_MAX || c->shown[seq] == j.start)
			continue;
		c->shown[seq] = j.start;
		fprintf(c->o->events, "%u plan %ld %u\n", t, name_of(c, seq), j.start);
	}
}

int replay_run(const struct wjob *jobs, size_t n, const struct replay_opts *o,
	       struct replay_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	if (n == 0) {
		snprintf(err, errlen, "no jobs to replay");
		return SCHED_E_INVAL;
	}
	uint32_t capacity = o->capacity ? o->capacity : (uint32_t)n;
	struct sched_config cfg = o->base;
	cfg.procs = o->procs;
	cfg.max_jobs = capacity;
	cfg.policy = o->policy;
	if (cfg.scratch_jobs == 0 && sched_policy_needs_scratch(o->policy))
		cfg.scratch_jobs = capacity;
	size_t size = sched_replay_arena_size_cfg(&cfg);
	void *arena = aligned_alloc(SCHED_ARENA_ALIGN, (size + SCHED_ARENA_ALIGN - 1) / SCHED_ARENA_ALIGN * SCHED_ARENA_ALIGN);
	void *room = malloc(SCHED_REPLAY_BYTES); /* malloc's alignment suits any object */
	struct sched_replay *rp = NULL;
	r->out = calloc(n, sizeof *r->out);
	struct ctx c = {.jobs = jobs, .n = n, .o = o, .r = r, .shown = NULL, .loc = {.first = SCHED_TIME_MAX}};
	int rc = SCHED_E_NOSPACE;
	if (arena == NULL || room == NULL || r->out == NULL) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		r->out[i].predicted = SCHED_TIME_MAX;
	int e = sched_replay_init(&rp, room, SCHED_REPLAY_BYTES, &cfg, arena, size, on_event, &c);
	c.rp = rp;
	if (e != SCHED_OK) {
		snprintf(err, errlen, "cannot start the core: %s", sched_strerror(e));
		rc = e;
		goto out;
	}
	progress_describe(o->progress, describe_queue, &c);
	if (o->slots) {
		const struct sched_param *qp = sched_param_find("quantum", NULL);
		c.quantum = qp != NULL ? sched_param_get(&cfg, qp) : 1;
	}
	if (o->ev_plans && o->events != NULL) {
		c.shown = malloc(n * sizeof *c.shown);
		if (c.shown == NULL) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		for (size_t i = 0; i < n; i++)
			c.shown[i] = SCHED_TIME_MAX;
		sched_replay_on_step(rp, on_step);
	}
	/* Under gang, --events-plans writes every quantum's context switch list: no quantum is skipped. */
	sched_replay_set_flags(rp, (o->check ? SCHED_REPLAY_CHECK : 0u) | (o->hash ? 0u : SCHED_REPLAY_NO_HASH) |
				       (o->ev_plans && o->events != NULL ? SCHED_REPLAY_EVERY_QUANTUM : 0u));
	e = sched_replay_run(rp, source, &c);
	struct sched_replay_stats rs;
	sched_replay_stats(rp, &rs);
	struct sched_stats st;
	memset(&st, 0, sizeof st);
	sched_stats(sched_replay_sched(rp), &st);
	r->gang = st.gang;
	/* Time sharing: the slots left when the last quantum ends: none, or the one BC keeps (docs/gang.md). */
	if (o->slots && c.ran_one)
		c.slots_oom |= !slots_push(&c, c.last_switch + c.quantum, r->gang.slots_created - r->gang.slots_deleted);
	if (e == SCHED_E_STATE && o->check) {
		snprintf(err, errlen, "invariant check failed at %u", st.now);
		rc = e;
		goto out;
	}
	if (e != SCHED_OK) {
		snprintf(err, errlen, "replay stopped at %u: %s", st.now, sched_strerror(e));
		rc = e;
		goto out;
	}
	if (c.slots_oom) {
		snprintf(err, errlen, "out of memory");
		rc = SCHED_E_NOSPACE;
		goto out;
	}
	r->metrics = rs.metrics;
	r->counters = st.counters;
	r->max_jobs_in_system = st.jobs_peak;
	r->max_segments = st.segs_peak;
	r->calls = rs.calls;
	r->hash = o->hash ? rs.hash : 0;
	r->dynp = st.dynp;
	/* Events come in time order, so the metric needs no sort; the sorting version stays as the
	 * reference (and the fallback, should an event ever come out of order). */
	r->loc = c.loc.unordered ? replay_loss_of_capacity(jobs, r->out, n, o->procs) : loc_value(&c.loc, o->procs);
	rc = 0;
out:
	progress_describe(o->progress, NULL, NULL); /* c is about to go */
	free(c.shown);
	free(arena);
	free(room);
	if (rc != 0)
		replay_result_free(r);
	return rc;
}

void replay_result_free(struct replay_result *r)
{
	free(r->out);
	r->out = NULL;
	free(r->slots);
	r->slots = NULL;
	r->n_slots = 0;
}

struct loc_event {
	sched_time_t t;
	int64_t busy;    /* processors taken (+) or given back (-) */
	int64_t waiting; /* jobs that start waiting (+) or stop (-) */
};

static int by_time(const void *a, const void *b)
{
	const struct loc_event *x = a, *y = b;
	return (x->t > y->t) - (x->t < y->t);
}

double replay_loss_of_capacity(const struct wjob *jobs, const struct replay_job_out *out, size_t n,
			       sched_procs_t procs)
{
	struct loc_event *ev = malloc(3 * n * sizeof *ev);
	if (ev == NULL)
		return NAN;
	size_t k = 0;
	struct loc l = {.first = SCHED_TIME_MAX};
	for (size_t i = 0; i < n; i++) {
		if (out[i].refused)
			continue;
		ev[k++] = (struct loc_event){out[i].submit, 0, 1};
		ev[k++] = (struct loc_event){out[i].start, (int64_t)jobs[i].j.procs, -1};
		ev[k++] = (struct loc_event){out[i].end, -(int64_t)jobs[i].j.procs, 0};
		if (out[i].submit < l.first)
			l.first = out[i].submit;
		if (out[i].end > l.last)
			l.last = out[i].end;
	}
	qsort(ev, k, sizeof *ev, by_time);
	for (size_t i = 0; i < k; i++)
		loc_add(&l, procs, ev[i].t, ev[i].busy, ev[i].waiting);
	free(ev);
	return loc_value(&l, procs);
}
