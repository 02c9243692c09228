/* SPDX-License-Identifier: MIT */
/* Cleaning conventions applied when a trace is replayed (documented in workload.h). */
#include "workload.h"
#include "sched/sched.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "sched/replay.h"

const struct skip_reason skip_reasons[TRACE_SKIP_COUNT] = {
	[TRACE_SKIP_PROCS] = {"procs", "processors < 1"},
	[TRACE_SKIP_RUN] = {"run", "run time < 0"},
	[TRACE_SKIP_WIDE] = {"wide", "wider than machine"},
	[TRACE_SKIP_SUBMIT] = {"submit", "bad submit time"},
	[TRACE_SKIP_NO_QUEUE] = {"no_queue", "no site queue"},
};

uint32_t workload_skipped(const struct workload *w)
{
	uint32_t n = 0;
	for (int i = 0; i < TRACE_SKIP_COUNT; i++)
		n += w->skipped[i];
	return n;
}

static int by_submit(const void *a, const void *b)
{
	const struct wjob *x = a, *y = b;
	if (x->j.submit != y->j.submit)
		return x->j.submit < y->j.submit ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void workload_opts_default(struct workload_opts *o)
{
	o->estimates = EST_TRACE;
	o->factor = 1;
	o->seed = 1;
	o->shrink = 1;
	o->node_size = 0;
	o->from = INT64_MIN;
	o->to = INT64_MAX;
	o->site = NULL;
}

/*
 * The conventions and the slice, one job: TRACE_SKIP_NONE with @p out filled
 * (and the processors the trace asks in *asked), or why it is left out.
 */
static enum trace_skip clean_one(const struct fix_job *fj, sched_procs_t procs, const struct workload_opts *o,
				 struct sched_replay_job *out, sched_procs_t *asked, bool *outside)
{
	/* The slice first, on field 2 as in the trace: a job outside it is not counted as skipped even when
	 * the conventions would skip it, so the skip counts are those of the jobs the report replays. */
	*outside = (int64_t)fj->submit < o->from || (int64_t)fj->submit >= o->to;
	if (*outside)
		return TRACE_SKIP_NONE;
	/* The cleaning rule (clean.h), on the record both decoders produce: SWF and fixture replays agree. */
	enum trace_skip why = trace_clean_job(fj->submit, fj->run, fj->alloc_procs, fj->req_procs, fj->req_time, procs,
					      out);
	if (why != TRACE_SKIP_NONE)
		return why;
	out->user = fj->user < 0 ? 0u : (uint32_t)fj->user;
	*asked = out->procs;
	out->procs = trace_whole_nodes(out->procs, o->node_size);
	if (o->site == NULL)
		return TRACE_SKIP_NONE;
	struct site_job sj = {.queue = 0, .partition = SCHED_PART_ANY, .up = 0, .pp = 0};
	why = site_assign(o->site, fj->queue, fj->partition, out->user, out->procs, out->estimate, &sj);
	out->queue = sj.queue;
	out->partition = sj.partition;
	out->up_milli = sj.up;
	out->pp_milli = sj.pp;
	return why;
}

/* --shrink and --estimates, on the sorted jobs. */
static void apply_knobs(struct workload *w, const struct workload_opts *o)
{
	if (o->shrink != 1) {
		sched_time_t s0 = w->jobs[0].trace_submit;
		for (size_t i = 0; i < w->n; i++)
			w->jobs[i].j.submit = s0 + (sched_time_t)llround(o->shrink * (double)(w->jobs[i].trace_submit - s0));
	}
	if (o->estimates == EST_TRACE)
		return;
	struct rng r;
	rng_seed(&r, o->seed);
	for (size_t i = 0; i < w->n; i++) {
		struct sched_replay_job *j = &w->jobs[i].j;
		double est = j->run;
		if (o->estimates == EST_FACTOR)
			est = (double)j->run + rng_unit(&r) * (o->factor - 1) * (double)j->run;
		est = floor(est + 0.5);
		j->estimate = est < 1 ? 1 : est >= (double)(SCHED_ESTIMATE_LIMIT - 1) ? SCHED_ESTIMATE_LIMIT - 1
										  : (sched_time_t)est;
	}
}

int workload_build(const struct swf_trace *t, sched_procs_t procs, const struct workload_opts *o,
		   struct workload *w, char *err, size_t errlen)
{
	memset(w, 0, sizeof *w);
	w->procs = procs;
	w->jobs = malloc((t->n ? t->n : 1) * sizeof *w->jobs);
	w->skipped_idx = malloc((t->n ? t->n : 1) * sizeof *w->skipped_idx);
	w->skipped_why = malloc(t->n ? t->n : 1);
	if (w->jobs == NULL || w->skipped_idx == NULL || w->skipped_why == NULL) {
		workload_free(w);
		snprintf(err, errlen, "out of memory");
		return SCHED_E_NOSPACE;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct fix_job *fj = &t->jobs[i];
		struct wjob *wj = &w->jobs[w->n];
		bool outside = false;
		enum trace_skip why = clean_one(fj, procs, o, &wj->j, &wj->trace_procs, &outside);
		if (why != TRACE_SKIP_NONE) {
			w->skipped[why]++;
			w->skipped_why[w->n_skipped_idx] = (uint8_t)why;
			w->skipped_idx[w->n_skipped_idx++] = (uint32_t)i;
			continue;
		}
		if (outside) {
			w->outside++;
			continue;
		}
		wj->idx = (uint32_t)i;
		wj->trace_submit = wj->j.submit;

		w->n++;
		if (fj->req_time <= 0)
			w->estimate_from_run++;
		if (fj->req_time <= 0 && fj->run == 0)
			w->estimate_raised++;
	}
	for (size_t i = 1; i < w->n; i++)
		if (w->jobs[i].j.submit < w->jobs[i - 1].j.submit)
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
		return SCHED_E_NOENT;
	}
	apply_knobs(w, o);
	for (size_t i = 0; i < w->n; i++)
		w->jobs[i].j.seq = (uint32_t)i;
	return SCHED_OK;
}

void workload_free(struct workload *w)
{
	free(w->jobs);
	free(w->skipped_idx);
	free(w->skipped_why);
	memset(w, 0, sizeof *w);
}
