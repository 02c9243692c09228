/* SPDX-License-Identifier: MIT */
/*
 * What means hide: the distribution of waits and bounded slowdowns of one
 * replay, and how evenly the users fared. Computed on the host from the
 * per-job outcomes, exactly, by sorting (the core's accumulators stay
 * one-pass and malloc-free). docs/replay.md, "Distributions and fairness".
 */
#ifndef SIM_DIST_H
#define SIM_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay.h"
#include "workload.h"

/*
 * Percentiles are nearest-rank: the p-th is the smallest value with at least
 * p% of the jobs at or below it, the value of rank ceil(p n / 100) in
 * ascending order (so p50 of an even count is the lower middle value). A
 * job's bounded slowdown is the core's: (end - submit) / max(run, 10) in
 * millionths, truncated, not clamped at 1, the run being the one the metrics
 * count (under gang the dedicated time). Each value is one that some job had.
 */
struct dist_stats {
	uint32_t jobs;                       /* jobs that ran; 0: every other field is 0 */
	sched_time_t wait_p50, wait_p95, wait_p99;
	uint64_t bsld_p50_micro, bsld_p95_micro, bsld_p99_micro, bsld_max_micro;
	uint32_t users;                      /* distinct users (SWF field 12) among the jobs that ran */
	uint64_t worst_user_bsld_micro;      /* the largest of the users' mean bounded slowdowns */
	double jain;                         /* Jain's index over the users' mean bsld: (sum x)^2 / (users sum x^2), in (0, 1] */
};

/** The nearest-rank @p pct-th percentile's rank (1-based) among @p n values, 1 <= pct <= 100. O(1). */
size_t dist_rank(size_t n, unsigned pct);

/**
 * The figures of one replay of @p n jobs (@p out from replay_run, in the order
 * of @p jobs; refused jobs left out). Sorts two arrays of the jobs that ran:
 * O(n log n) time, 16 bytes a job, freed on return.
 * @retval SCHED_E_NOSPACE out of memory (@p d zeroed).
 */
int dist_compute(const struct wjob *jobs, const struct replay_job_out *out, size_t n, struct dist_stats *d);

#endif /* SIM_DIST_H */
