/* SPDX-License-Identifier: MIT */
/* The replayer's statistics of gang scheduling (Zhou, Walsh and Brent 2000, section 4.3), from a replay through the core. */
#ifndef SIM_GANG_REPLAY_H
#define SIM_GANG_REPLAY_H

#include <stdio.h>

#include "replay.h"
#include "sched/gang.h"

/* Zhou, Walsh and Brent 2000, section 4.3: r_a, n_a, n_l, turnaround by class (in quanta), and rho. */
struct gang_stats {
	double active_ratio;        /* r_a */
	double avg_slots;           /* n_a */
	uint32_t max_slots;         /* n_l */
	double turn_sum[3];         /* turnaround in quanta: small (1-12), medium (13-60), large (> 60) */
	uint32_t turn_n[3];
	double rho;                 /* lambda p t / P of the workload */
	double avg_first;           /* seconds from arrival to the first quantum */
	uint64_t quanta;
	uint32_t queued, repacks, extra_slots, extras_released;
	uint32_t slot_cap;          /* the bound on slots in force (queued > 0: it was reached) */
};

/* A job's length in quanta: min(run, estimate) rounded up, at least 1. */
uint32_t gang_quanta(const struct wjob *j, sched_time_t quantum);

/**
 * Whether a time-shared replay of @p n jobs can run on @p procs processors
 * (buddy blocks need a power of two; the matrix holds at most 65,534 jobs):
 * SCHED_OK, or SCHED_E_RANGE with a message in @p err. O(1).
 */
int gang_replay_check(sched_procs_t procs, size_t n, char *err, size_t errlen);

/**
 * Section 4.3's statistics of a time-shared replay of @p n jobs under
 * @p cfg on @p procs processors, from its result (the schedule and the
 * policy's counters, replay_result.gang). O(n).
 */
void gang_replay_stats(const struct wjob *jobs, size_t n, const struct sched_config *cfg, sched_procs_t procs,
		       const struct replay_result *r, struct gang_stats *gs);

#endif /* SIM_GANG_REPLAY_H */
