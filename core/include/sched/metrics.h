/* SPDX-License-Identifier: MIT */
/* Integer accumulators for the literature's schedule metrics, identical on host and target. */
#ifndef SCHED_METRICS_H
#define SCHED_METRICS_H

#include "sched/types.h"

/*
 * Each completed job adds its submit, start and end times and processors.
 * Everything is summed in 64-bit integers; ratios of single jobs (slowdowns)
 * are summed in millionths, truncated. So the same schedule gives the same
 * bits on x86-64 and Cortex-M, and a report divides only at the end.
 *
 * Definitions (run = end - start, the time the job held its processors;
 * wait = start - submit; response = end - submit):
 *  - bounded slowdown, seed 000 section 3.1: response / run if run > 10 s,
 *    else response / 10 (so a short job that did not wait scores below 1);
 *  - expansion factor, seed 001 section 1.7 and Exhibit 11: (sum of run +
 *    sum of wait) / sum of run, overall and per processor class 1-32, 33-64,
 *    65-120, 121+ (the ratio of sums reproduces Exhibit 11's columns);
 *  - utilization, seed 004 section 5.1: sum(procs x run) / (machine x
 *    (last end - first submit));
 *  - ART, ARTwW, SLDwW with 60 s and 300 s bounds, seed 004 sections 3.2 and
 *    5.1: slowdown = max(response, B) / max(run, B), weighted by processors.
 */

#define SCHED_METRIC_CLASSES 4
#define SCHED_MICRO 1000000u

struct sched_metrics {
	uint32_t jobs;
	uint32_t killed;            /* jobs that reached their estimate */
	sched_time_t first_submit;
	sched_time_t last_end;
	sched_time_t max_wait;
	sched_time_t min_wait;      /* SCHED_TIME_MAX while no job */
	sched_time_t min_run, max_run; /* time held, min(run, estimate); min SCHED_TIME_MAX while no job */
	uint64_t sum_wait;
	uint64_t sum_run;
	uint64_t sum_response;
	uint64_t sum_bsld_micro;    /* bounded slowdown (10 s), millionths */
	uint64_t area;              /* sum of procs x run, processor-seconds */
	uint64_t sum_procs;
	uint64_t sum_procs_response;
	uint64_t sum_procs_sld60_micro;
	uint64_t sum_procs_sld300_micro;
	uint32_t class_jobs[SCHED_METRIC_CLASSES];
	uint64_t class_wait[SCHED_METRIC_CLASSES];
	uint64_t class_run[SCHED_METRIC_CLASSES];
};

/*
 * The figures a report prints, from the accumulators, in integers only, so
 * the replayer and the firmware console print the same digits. Averages and
 * ratios are in millionths (x 1e-6), truncated as sched_ratio_micro does;
 * a figure with no job behind it is 0 (see jobs and class_jobs).
 */
struct sched_metrics_summary {
	uint32_t jobs, killed;
	uint64_t avg_wait_micro;      /* seconds */
	sched_time_t max_wait, min_wait; /* min 0 when no job */
	uint64_t total_run;           /* seconds held: sum of min(run, estimate) */
	uint64_t avg_run_micro;
	sched_time_t max_run, min_run;   /* min 0 when no job */
	uint64_t avg_bsld_micro;      /* bounded slowdown (10 s) */
	uint64_t avg_response_micro;  /* seconds; also ART */
	uint64_t ef_micro;            /* expansion factor (sum wait + sum run) / sum run */
	uint64_t ef_class_micro[SCHED_METRIC_CLASSES]; /* 0 for a class with no job */
	uint32_t class_jobs[SCHED_METRIC_CLASSES];
	uint64_t util_pct_micro;      /* utilization in percent: 100 area / (procs x makespan) */
	sched_time_t makespan;        /* last end - first submit; 0 when no job */
	uint64_t artww_micro;         /* seconds */
	uint64_t sldww60_micro, sldww300_micro;
};

/**
 * Summarize @p m for a machine of @p procs processors into @p out. O(1);
 * cannot fail (ratios saturate, a zero denominator gives 0).
 */
void sched_metrics_summarize(const struct sched_metrics *m, sched_procs_t procs,
			     struct sched_metrics_summary *out);

/** Empty accumulators. O(1). */
void sched_metrics_init(struct sched_metrics *m);

/**
 * Account one completed job. Requires submit <= start <= end (asserts).
 * Sums saturate rather than wrap. O(1).
 */
void sched_metrics_add(struct sched_metrics *m, sched_time_t submit, sched_time_t start,
		       sched_time_t end, sched_procs_t procs, bool killed);

/** Processor class of seed 001 Exhibit 11: 0 for 1-32, 1 for 33-64, 2 for 65-120, 3 for 121+. O(1). */
unsigned sched_metrics_class(sched_procs_t procs);

/** num / den in millionths, truncated; 0 when den is 0; saturates at UINT64_MAX. O(1). */
uint64_t sched_ratio_micro(uint64_t num, uint64_t den);

#endif /* SCHED_METRICS_H */
