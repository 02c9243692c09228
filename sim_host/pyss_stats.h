/* SPDX-License-Identifier: MIT */
/*
 * A replay's statistics as pyss prints them (the Python scheduling simulator
 * of Feitelson's group at the Hebrew University): its job filter and its
 * formulas over the same schedule, so our figures can be set beside a pyss
 * run's. Written from a reading of pyss's statistics, not from its code; the
 * rules, their quirks and how they map onto our jobs are in docs/replay.md
 * ("Statistics as pyss prints them").
 */
#ifndef SIM_PYSS_STATS_H
#define SIM_PYSS_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "replay.h"
#include "workload.h"

struct pyss_stats {
	uint32_t ran;          /* jobs that ran (pyss's terminated jobs): the filter's input */
	uint32_t total;        /* pyss's "Total Number of jobs": ran minus the tiny jobs met before the filter stopped */
	uint32_t used;         /* "Number of jobs used to calculate statistics" */
	uint32_t tiny;         /* dropped: 1 processor and an estimate of 1 s (or a run time of 0) */
	uint32_t first;        /* dropped: the first 1% by finish time (only from 100 jobs on) */
	uint32_t after;        /* dropped: from the first job that finishes after the last submission on */
	uint32_t tail_jobs;    /* used jobs of bounded slowdown >= 3 */
	sched_time_t last_submit; /* the last arrival of the period (refused arrivals included) */
	double wait_min;       /* average wait, minutes */
	double response_min;   /* average wait + run, minutes */
	double sld;            /* average (Tw + Tr) / Tr */
	double bsld;           /* average max(1, (Tw + Tr) / max(10, Tr)) */
	double est_sld;        /* average (Tw + Tr) / Te, Te the estimate used */
	double tail_bsld;      /* average bounded slowdown of the tail jobs */
	double top10_sld;      /* pyss's "Tail Percentile (the top 10% sld)"; its quirks in docs/replay.md */
};

/**
 * pyss's statistics of one replay of @p n jobs (@p out from replay_run, in
 * the same order as @p jobs). @p quantum is 0 under space sharing (run = end
 * - start); under time sharing the quantum, and the run is the dedicated time
 * (the job's quanta x the quantum) as in the report's own metrics. Two sorts
 * of the jobs that ran, by finish time and by bounded slowdown: O(n log n),
 * 16 bytes a job for the sorts' keys, freed on return.
 * @retval SCHED_E_NOSPACE out of memory (@p s zeroed).
 */
int pyss_stats_compute(const struct wjob *jobs, const struct replay_job_out *out, size_t n, sched_time_t quantum,
		       struct pyss_stats *s);

#endif /* SIM_PYSS_STATS_H */
