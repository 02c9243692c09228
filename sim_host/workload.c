/* SPDX-License-Identifier: MIT */
/* Cleaning conventions applied when a trace is replayed (documented in workload.h). */
#include "workload.h"
#include "sched/sched.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

const char *const skip_reason_names[SKIP_REASONS] = {
	[SKIP_PROCS] = "processors < 1",
	[SKIP_RUN] = "run time < 0",
	[SKIP_WIDE] = "wider than the machine",
	[SKIP_SUBMIT] = "submit time < 0 or too large",
};

uint32_t workload_skipped(const struct workload *w)
{
	uint32_t n = 0;
	for (int i = 0; i < SKIP_REASONS; i++)
		n += w->skipped[i];
	return n;
}

static int by_submit(const void *a, const void *b)
{
	const struct wjob *x = a, *y = b;
	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Clamp a trace duration into the core's range. */
static sched_time_t duration(double v)
{
	if (v >= (double)(SCHED_ESTIMATE_LIMIT - 1))
		return SCHED_ESTIMATE_LIMIT - 1;
	return (sched_time_t)v;
}

void workload_opts_default(struct workload_opts *o)
{
	o->estimates = EST_TRACE;
	o->factor = 1;
	o->seed = 1;
	o->shrink = 1;
	o->from = INT64_MIN;
	o->to = INT64_MAX;
}

int workload_build(const struct swf_trace *t, sched_procs_t procs, const struct workload_opts *o,
		   struct workload *w, char *err, size_t errlen)
{
	memset(w, 0, sizeof *w);
	w->procs = procs;
	w->jobs = malloc((t->n ? t->n : 1) * sizeof *w->jobs);
	if (w->jobs == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < t->n; i++) {
		const double *v = t->jobs[i].v;
		double p = v[SWF_ALLOC_PROCS] > 0 ? v[SWF_ALLOC_PROCS] : v[SWF_REQ_PROCS];
		if (p < 1) {
			w->skipped[SKIP_PROCS]++;
			continue;
		}
		if (v[SWF_RUN] < 0) {
			w->skipped[SKIP_RUN]++;
			continue;
		}
		if (p > procs) {
			w->skipped[SKIP_WIDE]++;
			continue;
		}
		if (v[SWF_SUBMIT] < 0 || v[SWF_SUBMIT] >= (double)SCHED_NOW_LIMIT / 2) {
			w->skipped[SKIP_SUBMIT]++;
			continue;
		}
		if (v[SWF_SUBMIT] < (double)o->from || v[SWF_SUBMIT] >= (double)o->to) {
			w->outside++;
			continue;
		}
		struct wjob *j = &w->jobs[w->n++];
		j->idx = (uint32_t)i;
		j->trace_submit = (sched_time_t)v[SWF_SUBMIT];
		j->submit = j->trace_submit;
		j->procs = (sched_procs_t)p;
		j->run = duration(v[SWF_RUN]);
		if (v[SWF_REQ_TIME] > 0) {
			j->estimate = duration(v[SWF_REQ_TIME]);
		} else {
			j->estimate = j->run;
			w->estimate_from_run++;
		}
		if (j->estimate == 0) {
			j->estimate = 1;
			w->estimate_raised++;
		}
	}
	for (size_t i = 1; i < w->n; i++)
		if (w->jobs[i].submit < w->jobs[i - 1].submit)
			w->reordered++;
	if (w->reordered)
		qsort(w->jobs, w->n, sizeof *w->jobs, by_submit);
	if (w->n == 0) {
		if (w->outside)
			snprintf(err, errlen, "no job in the slice (%u outside, %u skipped)", w->outside,
				 workload_skipped(w));
		else
			snprintf(err, errlen, "no job left after cleaning (%u skipped)", workload_skipped(w));
		workload_free(w);
		return -1;
	}
	if (o->shrink != 1) {
		sched_time_t s0 = w->jobs[0].trace_submit;
		for (size_t i = 0; i < w->n; i++)
			w->jobs[i].submit = s0 + (sched_time_t)llround(o->shrink * (double)(w->jobs[i].trace_submit - s0));
	}
	if (o->estimates != EST_TRACE) {
		struct rng r;
		rng_seed(&r, o->seed);
		for (size_t i = 0; i < w->n; i++) {
			struct wjob *j = &w->jobs[i];
			double est = j->run;
			if (o->estimates == EST_FACTOR)
				est = (double)j->run + rng_unit(&r) * (o->factor - 1) * (double)j->run;
			est = floor(est + 0.5);
			j->estimate = est < 1 ? 1 : est >= (double)(SCHED_ESTIMATE_LIMIT - 1) ? SCHED_ESTIMATE_LIMIT - 1
											  : (sched_time_t)est;
		}
	}
	return 0;
}

void workload_free(struct workload *w)
{
	free(w->jobs);
	memset(w, 0, sizeof *w);
}
