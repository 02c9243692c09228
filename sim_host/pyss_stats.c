/* SPDX-License-Identifier: MIT */
/* pyss's statistics of a replay: its job filter and formulas over our schedule (docs/replay.md). */
#include "pyss_stats.h"

#include <stdlib.h>
#include <string.h>

#include "gang_replay.h"
#include "sched/err.h"

/* One job that ran, for the two sorts; `i` indexes the period's jobs. */
struct pkey {
	double bsld;
	sched_time_t end;
	uint32_t i;
};

/* What pyss's formulas see of a job: its wait Tw, run Tr and estimate Te, in seconds. */
struct ptimes {
	double tw, tr, te;
};

static struct ptimes times_of(const struct wjob *j, const struct replay_job_out *o, sched_time_t quantum)
{
	double response = (double)o->end - (double)o->submit;
	/* Time sharing: the dedicated time is the run, the rest of the response the wait, as our metrics. */
	double run = quantum ? (double)gang_quanta(j, quantum) * quantum : (double)o->end - (double)o->start;
	/* pyss's reader makes every run at least 1 s (max(min(requested, run), 1)): no ratio divides by 0. */
	if (run < 1)
		run = 1;
	double wait = quantum ? response - run : (double)o->start - (double)o->submit;
	return (struct ptimes){wait < 0 ? 0 : wait, run, (double)j->j.estimate};
}

/* max(1, (Tw + Tr) / max(10, Tr)): pyss's bounded slowdown, clamped at 1 (ours is not). */
static double bounded(struct ptimes t)
{
	double b = (t.tw + t.tr) / (t.tr > 10 ? t.tr : 10);
	return b > 1 ? b : 1;
}

/*
 * pyss drops a job its statistics call tiny: 1 processor and an estimate of
 * 1 s, which is what its reader makes of a line with no run time (cancelled)
 * or no processors. Our conventions keep a run time of 0 (with its requested
 * time as estimate): pyss would have made it tiny, so it is tiny here too.
 */
static int tiny(const struct wjob *j)
{
	return j->j.procs == 1 && (j->j.estimate == 1 || j->j.run == 0);
}

/* Finish order; ties in submit order (pyss: the order its event queue ended them). */
static int by_finish(const void *a, const void *b)
{
	const struct pkey *x = a, *y = b;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Bounded slowdown, largest first; ties in finish order (pyss's sort is stable over that order). */
static int by_bsld_desc(const void *a, const void *b)
{
	const struct pkey *x = a, *y = b;
	if (x->bsld != y->bsld)
		return x->bsld > y->bsld ? -1 : 1;
	return by_finish(a, b);
}

/*
 * The filter and the averages, in finish order, as pyss's loop runs: a tiny
 * job lowers the job count `size` (and with it the 1% cut, size / 100 in
 * integers); a job at a place up to the cut (places count tiny jobs too) is
 * skipped once size >= 100; the first other job that finishes after the last
 * submission ends the loop, so the jobs after it are neither used nor
 * counted as tiny.
 */
static void filter_pass(const struct wjob *jobs, const struct replay_job_out *out, const struct pkey *k,
			sched_time_t quantum, struct pyss_stats *s)
{
	uint32_t size = s->ran;
	double sum_wait = 0, sum_run = 0, sum_sld = 0, sum_bsld = 0, sum_est = 0, sum_tail = 0;
	for (uint32_t m = 0; m < s->ran; m++) {
		const struct wjob *j = &jobs[k[m].i];
		const struct replay_job_out *o = &out[k[m].i];
		if (tiny(j)) {
			size--;
			s->tiny++;
			continue;
		}
		if (size >= 100 && m + 1 <= size / 100) {
			s->first++;
			continue;
		}
		if (o->end > s->last_submit) {
			s->after = s->ran - m;
			break;
		}
		struct ptimes t = times_of(j, o, quantum);
		double b = bounded(t);
		s->used++;
		sum_wait += t.tw;
		sum_run += t.tr;
		sum_sld += (t.tw + t.tr) / t.tr;
		sum_bsld += b;
		sum_est += (t.tw + t.tr) / t.te;
		if (b >= 3) {
			s->tail_jobs++;
			sum_tail += b;
		}
	}
	s->total = size;
	double used = s->used ? s->used : 1;
	s->wait_min = sum_wait / (60 * used);
	s->response_min = (sum_wait + sum_run) / (60 * used);
	s->sld = sum_sld / used;
	s->bsld = sum_bsld / used;
	s->est_sld = sum_est / used;
	s->tail_bsld = sum_tail / (s->tail_jobs ? s->tail_jobs : 1);
}

/*
 * pyss's "Tail Percentile (the top 10% sld)": over every job that ran (the
 * filter not applied), largest bounded slowdown first, it adds the plain
 * slowdown (Tw + Tr) / Tr of one job after another until fewer than 90% of
 * the used count are left of a countdown from it, and divides by one more
 * than the jobs it added.
 */
static void top10_pass(const struct wjob *jobs, const struct replay_job_out *out, const struct pkey *k,
		       sched_time_t quantum, struct pyss_stats *s)
{
	int64_t left = s->used;
	double sum = 0;
	for (uint32_t m = 0; m < s->ran; m++) {
		struct ptimes t = times_of(&jobs[k[m].i], &out[k[m].i], quantum);
		sum += (t.tw + t.tr) / t.tr;
		left--;
		if ((double)left < 0.9 * s->used)
			break;
	}
	int64_t div = (int64_t)s->used - left + 1;
	s->top10_sld = sum / (double)(div > 1 ? div : 1);
}

int pyss_stats_compute(const struct wjob *jobs, const struct replay_job_out *out, size_t n, sched_time_t quantum,
		       struct pyss_stats *s)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < n; i++) {
		s->ran += !out[i].refused;
		if (out[i].submit > s->last_submit)
			s->last_submit = out[i].submit; /* a refused job arrived too */
	}
	struct pkey *k = malloc((s->ran ? s->ran : 1) * sizeof *k);
	if (k == NULL) {
		memset(s, 0, sizeof *s);
		return SCHED_E_NOSPACE;
	}
	uint32_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!out[i].refused)
			k[m++] = (struct pkey){bounded(times_of(&jobs[i], &out[i], quantum)), out[i].end, (uint32_t)i};
	qsort(k, s->ran, sizeof *k, by_finish);
	filter_pass(jobs, out, k, quantum, s);
	qsort(k, s->ran, sizeof *k, by_bsld_desc);
	top10_pass(jobs, out, k, quantum, s);
	free(k);
	return SCHED_OK;
}
