/* SPDX-License-Identifier: MIT */
/* Trace statistics in the layout of seed 004 Table 2, and a Weibull fit of interarrival times. */
#ifndef TOOLS_TRACE_STATS_H
#define TOOLS_TRACE_STATS_H

#include "sched/err.h"
#include "swf.h"

struct minmax {
	double sum, min, max;
	size_t n; /* values counted */
};

struct trace_stats {
	size_t jobs;
	long max_width;           /* widest job: field 5, else field 8 */
	long machine;             /* header MaxProcs, else MaxNodes; -1 when absent */
	struct minmax width;      /* over jobs with a width >= 1 */
	struct minmax estimate;   /* field 9, over jobs that give one (>= 0) */
	struct minmax run;        /* field 4, over jobs that give one (>= 0) */
	size_t over_estimate;     /* jobs with run > estimate (both known) */
	struct minmax interarrival; /* between consecutive submits, in submit order */
	double zero_gaps;         /* share of interarrival times of 0 s (seed 004's "likelihood of interarrival time") */
	double weibull_alpha, weibull_beta; /* fitted to the positive interarrival times; 0 when not fitted */
};

/** Compute the statistics of @p t. */
void trace_stats(const struct swf_trace *t, struct trace_stats *st);

/**
 * Maximum-likelihood Weibull shape and scale for @p n positive samples
 * (F(x) = 1 - exp(-(x / beta)^alpha)). Returns 0, or SCHED_E_INVAL when n < 2 or the data
 * have no spread.
 */
int weibull_fit(const double *x, size_t n, double *alpha, double *beta);

/** Width of a job by the replayer's convention: field 5 if > 0, else field 8. */
double job_width(const struct fix_job *j);

#endif /* TOOLS_TRACE_STATS_H */
