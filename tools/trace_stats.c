/* SPDX-License-Identifier: MIT */
/* Trace statistics (seed 004 Table 2) and the Weibull maximum-likelihood fit (seed 004 section 4). */
#include "trace_stats.h"

#include <math.h>
#include <stdlib.h>

static void mm_init(struct minmax *m)
{
	m->sum = 0;
	m->n = 0;
	m->min = INFINITY;
	m->max = -INFINITY;
}

static void mm_add(struct minmax *m, double v)
{
	m->sum += v;
	m->n++;
	if (v < m->min)
		m->min = v;
	if (v > m->max)
		m->max = v;
}

double job_width(const struct fix_job *j)
{
	return j->alloc_procs > 0 ? j->alloc_procs : j->req_procs;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* d/d(alpha) of the Weibull log-likelihood, divided by n, profiled over beta. */
static double score(const double *x, const double *lx, size_t n, double a, double mean_lx)
{
	double s = 0, sl = 0;
	for (size_t i = 0; i < n; i++) {
		double p = pow(x[i], a);
		s += p;
		sl += p * lx[i];
	}
	return 1.0 / a + mean_lx - sl / s;
}

int weibull_fit(const double *x, size_t n, double *alpha, double *beta)
{
	if (n < 2)
		return SCHED_E_INVAL;
	double *lx = malloc(n * sizeof *lx);
	if (lx == NULL)
		return SCHED_E_INVAL;
	double mean_lx = 0, lo_x = INFINITY, hi_x = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		lx[i] = log(x[i]);
		mean_lx += lx[i];
		lo_x = fmin(lo_x, x[i]);
		hi_x = fmax(hi_x, x[i]);
	}
	mean_lx /= (double)n;
	if (!(hi_x > lo_x)) {
		free(lx);
		return SCHED_E_INVAL;
	}
	/* The profiled score falls from +inf to below zero: bisect on a log scale. */
	double lo = 1e-3, hi = 50;
	for (int it = 0; it < 100; it++) {
		double mid = sqrt(lo * hi);
		if (score(x, lx, n, mid, mean_lx) > 0)
			lo = mid;
		else
			hi = mid;
	}
	double a = sqrt(lo * hi), s = 0;
	for (size_t i = 0; i < n; i++)
		s += pow(x[i], a);
	*alpha = a;
	*beta = pow(s / (double)n, 1.0 / a);
	free(lx);
	return 0;
}

void trace_stats(const struct swf_trace *t, struct trace_stats *st)
{
	st->jobs = t->n;
	st->machine = swf_machine_size(&t->hdr);
	st->max_width = 0;
	st->over_estimate = 0;
	st->weibull_alpha = st->weibull_beta = 0;
	st->zero_gaps = 0;
	mm_init(&st->width);
	mm_init(&st->estimate);
	mm_init(&st->run);
	mm_init(&st->interarrival);
	double *sub = malloc((t->n ? t->n : 1) * sizeof *sub);
	for (size_t i = 0; i < t->n; i++) {
		const struct fix_job *j = &t->jobs[i];
		double w = job_width(j);
		if (w >= 1) {
			mm_add(&st->width, w);
			if (w > st->max_width)
				st->max_width = (long)w;
		}
		double est = j->req_time, run = j->run;
		if (est >= 0)
			mm_add(&st->estimate, est);
		if (run >= 0)
			mm_add(&st->run, run);
		if (est >= 0 && run >= 0 && run > est)
			st->over_estimate++;
		if (sub)
			sub[i] = j->submit;
	}
	if (sub == NULL)
		return;
	qsort(sub, t->n, sizeof *sub, cmp_double);
	double *gap = malloc((t->n ? t->n : 1) * sizeof *gap);
	size_t ng = 0;
	size_t zeros = 0;
	for (size_t i = 1; i < t->n; i++) {
		double g = sub[i] - sub[i - 1];
		mm_add(&st->interarrival, g);
		if (g <= 0)
			zeros++;
		else if (gap)
			gap[ng++] = g;
	}
	if (t->n > 1)
		st->zero_gaps = (double)zeros / (double)(t->n - 1);
	if (gap && ng >= 2)
		(void)weibull_fit(gap, ng, &st->weibull_alpha, &st->weibull_beta);
	free(gap);
	free(sub);
}
