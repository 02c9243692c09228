/* SPDX-License-Identifier: MIT */
/* Replay engine: a simulated clock, a heap of pending finishes, and the core's decisions. */
#include "replay.h"

#include <stdlib.h>
#include <string.h>

/* Pending ends of started jobs that finish by themselves (run <= estimate). */
struct heap_item {
	sched_time_t end;
	uint32_t job;
};

struct heap {
	struct heap_item *a;
	size_t n;
};

static bool heap_less(const struct heap_item *x, const struct heap_item *y)
{
	return x->end != y->end ? x->end < y->end : x->job < y->job;
}

static void heap_push(struct heap *h, struct heap_item it)
{
	size_t i = h->n++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (!heap_less(&it, &h->a[parent]))
			break;
		h->a[i] = h->a[parent];
		i = parent;
	}
	h->a[i] = it;
}

static struct heap_item heap_pop(struct heap *h)
{
	struct heap_item top = h->a[0];
	struct heap_item last = h->a[--h->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && heap_less(&h->a[c + 1], &h->a[c]))
			c++;
		if (!heap_less(&h->a[c], &last))
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (h->n > 0)
		h->a[i] = last;
	return top;
}

struct ctx {
	const struct wjob *jobs;
	const struct replay_opts *o;
	struct replay_result *r;
	struct heap finishes;
};

static long name_of(const struct ctx *c, uint32_t job)
{
	return c->o->names ? c->o->names[job] : (long)job;
}

static void on_decision(void *vctx, const struct sched_decision *d)
{
	struct ctx *c = vctx;
	struct replay_job_out *out = &c->r->out[d->job];
	const struct wjob *j = &c->jobs[d->job];
	if (d->kind == SCHED_DEC_START) {
		out->start = d->time;
		/* The replayer, not the core, knows the run time: a job that ends by itself is queued here. */
		if (j->run <= j->estimate)
			heap_push(&c->finishes, (struct heap_item){d->time + j->run, d->job});
		if (c->o->events)
			fprintf(c->o->events, "%u start %ld %u%s\n", d->time, name_of(c, d->job), d->procs,
				d->backfilled ? " backfill" : "");
	} else {
		out->end = d->time;
		out->killed = 1;
		if (c->o->events)
			fprintf(c->o->events, "%u kill %ld\n", d->time, name_of(c, d->job));
	}
}

static int core_error(char *err, size_t errlen, const char *what, long job, sched_time_t t, int code)
{
	snprintf(err, errlen, "core refused %s of job %ld at %u: %s", what, job, t,
		 sched_strerror(code));
	return -1;
}

static int checked(struct sched *s, const struct replay_opts *o, char *err, size_t errlen)
{
	if (o->check && sched_check(s) != SCHED_OK) {
		snprintf(err, errlen, "invariant check failed at %u", s->now);
		return -1;
	}
	return 0;
}

int replay_run(const struct wjob *jobs, size_t n, const struct replay_opts *o,
	       struct replay_result *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	if (n == 0) {
		snprintf(err, errlen, "no jobs to replay");
		return -1;
	}
	uint32_t capacity = o->capacity ? o->capacity : (uint32_t)n;
	struct sched_config cfg = {.procs = o->procs, .max_jobs = capacity, .policy = o->policy};
	size_t arena_size = sched_arena_size(capacity);
	void *arena = aligned_alloc(SCHED_ARENA_ALIGN,
				    (arena_size + SCHED_ARENA_ALIGN - 1) / SCHED_ARENA_ALIGN * SCHED_ARENA_ALIGN);
	struct ctx c = {.jobs = jobs, .o = o, .r = r};
	r->out = calloc(n, sizeof *r->out);
	c.finishes.a = malloc(n * sizeof *c.finishes.a);
	struct sched *s = malloc(sizeof *s);
	int rc = -1;
	if (arena == NULL || r->out == NULL || c.finishes.a == NULL || s == NULL) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	int e = sched_init(s, &cfg, arena, arena_size, on_decision, &c, jobs[0].submit);
	if (e != SCHED_OK) {
		snprintf(err, errlen, "sched_init: %s", sched_strerror(e));
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		r->out[i].predicted = SCHED_TIME_MAX;

	size_t next = 0;
	for (;;) {
		sched_time_t t = sched_next_event(s);
		if (next < n && jobs[next].submit < t)
			t = jobs[next].submit;
		if (c.finishes.n > 0 && c.finishes.a[0].end < t)
			t = c.finishes.a[0].end;
		if (t == SCHED_TIME_MAX)
			break;
		/* One instant: finishes, then submits in order, then one pass. */
		while (c.finishes.n > 0 && c.finishes.a[0].end == t) {
			struct heap_item it = heap_pop(&c.finishes);
			r->calls++;
			e = sched_finish(s, it.job, t);
			if (e != SCHED_OK) {
				rc = core_error(err, errlen, "finish", name_of(&c, it.job), t, e);
				goto out;
			}
			r->out[it.job].end = t;
			if (o->events)
				fprintf(o->events, "%u end %ld\n", t, name_of(&c, it.job));
			if (checked(s, o, err, errlen))
				goto out;
		}
		while (next < n && jobs[next].submit == t) {
			const struct wjob *j = &jobs[next];
			struct sched_job_desc d = {.id = (uint32_t)next, .procs = j->procs, .estimate = j->estimate};
			r->calls++;
			e = sched_submit(s, &d, t);
			if (e == SCHED_E_NOSPACE) {
				r->out[next].refused = 1;
			} else if (e != SCHED_OK) {
				rc = core_error(err, errlen, "submit", name_of(&c, (uint32_t)next), t, e);
				goto out;
			} else {
				sched_time_t p;
				if (sched_predict(s, d.id, &p) == SCHED_OK)
					r->out[next].predicted = p;
			}
			if (o->events) {
				fprintf(o->events, "%u submit %ld %u %u ", t, name_of(&c, (uint32_t)next), j->procs,
					j->estimate);
				if (r->out[next].refused)
					fputs("refused\n", o->events);
				else if (r->out[next].predicted == SCHED_TIME_MAX)
					fputs("-\n", o->events);
				else
					fprintf(o->events, "%u\n", r->out[next].predicted);
			}
			next++;
			if (checked(s, o, err, errlen))
				goto out;
		}
		r->calls++;
		e = sched_advance(s, t);
		if (e != SCHED_OK) {
			rc = core_error(err, errlen, "advance", -1, t, e);
			goto out;
		}
		if (checked(s, o, err, errlen))
			goto out;
	}
	if (s->n_waiting + s->n_running != 0) {
		snprintf(err, errlen, "replay ended with %u jobs still in the core", s->n_waiting + s->n_running);
		goto out;
	}
	sched_metrics_init(&r->metrics);
	for (size_t i = 0; i < n; i++) {
		const struct replay_job_out *jo = &r->out[i];
		if (!jo->refused)
			sched_metrics_add(&r->metrics, jobs[i].submit, jo->start, jo->end, jobs[i].procs,
					  jo->killed);
	}
	r->counters = s->counters;
	r->max_jobs_in_system = s->jobs.max_used;
	r->max_segments = s->segs.max_used;
	rc = 0;
out:
	free(arena);
	free(c.finishes.a);
	free(s);
	if (rc != 0) {
		free(r->out);
		r->out = NULL;
	}
	return rc;
}

void replay_result_free(struct replay_result *r)
{
	free(r->out);
	r->out = NULL;
}
