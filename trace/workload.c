/* SPDX-License-Identifier: MIT */
/* Cleaning conventions applied when a trace is replayed (documented in workload.h). */
#include "workload.h"
#include "sched/sched.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_io.h"
#include "rng.h"
#include "sched/replay.h"

const char *const skip_reason_names[SKIP_REASONS] = {
	[SKIP_PROCS] = "processors < 1",
	[SKIP_RUN] = "run time < 0",
	[SKIP_WIDE] = "wider than the machine (or its queue's partitions)",
	[SKIP_SUBMIT] = "submit time < 0 or too large",
	[SKIP_NO_QUEUE] = "no site queue takes it",
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

void workload_opts_default(struct workload_opts *o)
{
	o->estimates = EST_TRACE;
	o->factor = 1;
	o->seed = 1;
	o->shrink = 1;
	o->from = INT64_MIN;
	o->to = INT64_MAX;
	o->site = NULL;
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
		/* The core's conventions, on the values a fixture would hold: SWF and fixture replays agree. */
		struct fix_job fj;
		fixture_job_from_swf(&t->jobs[i], &fj);
		struct sched_replay_job rj;
		enum sched_skip why = sched_replay_clean(fj.submit, fj.run, fj.alloc_procs, fj.req_procs,
							 fj.req_time, procs, &rj);
		if (why != SCHED_SKIP_NONE) {
			w->skipped[why == SCHED_SKIP_PROCS ? SKIP_PROCS : why == SCHED_SKIP_RUN ? SKIP_RUN
								: why == SCHED_SKIP_WIDE ? SKIP_WIDE : SKIP_SUBMIT]++;
			continue;
		}
		if ((int64_t)rj.submit < o->from || (int64_t)rj.submit >= o->to) {
			w->outside++;
			continue;
		}
		uint32_t user = fj.user < 0 ? 0u : (uint32_t)fj.user;
		struct site_job sj = {.queue = 0, .partition = SCHED_PART_ANY, .up = 0, .pp = 0};
		if (o->site != NULL) {
			enum site_miss miss = site_assign(o->site, fj.queue, fj.partition, user, rj.procs,
							  rj.estimate, &sj);
			if (miss != SITE_OK) {
				w->skipped[miss == SITE_NO_QUEUE ? SKIP_NO_QUEUE : SKIP_WIDE]++;
				continue;
			}
		}
		struct wjob *j = &w->jobs[w->n++];
		j->idx = (uint32_t)i;
		j->trace_submit = rj.submit;
		j->submit = rj.submit;
		j->procs = rj.procs;
		j->run = rj.run;
		j->estimate = rj.estimate;
		j->user = user;
		j->queue = sj.queue;
		j->partition = sj.partition;
		j->up_milli = sj.up;
		j->pp_milli = sj.pp;
		if (fj.req_time <= 0)
			w->estimate_from_run++;
		if (fj.req_time <= 0 && fj.run == 0)
			w->estimate_raised++;
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
