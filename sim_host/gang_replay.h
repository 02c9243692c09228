/* SPDX-License-Identifier: MIT */
/* The replayer's gang scheduling path (Zhou, Walsh and Brent 2000): a workload through the core's gang module. */
#ifndef SIM_GANG_REPLAY_H
#define SIM_GANG_REPLAY_H

#include <stdio.h>

#include "replay.h"
#include "sched/gang.h"

struct gang_opts {
	uint32_t procs;             /* a power of two */
	uint32_t max_slots;         /* 0: one per job of the replay (never reached) */
	enum sched_gang_scheme scheme;
	enum sched_gang_bc_slots bc_slots;
	sched_time_t quantum;
	bool check;                 /* sched_gang_check() after every quantum (slow) */
	bool hash;                  /* compute the schedule hash */
	FILE *events;               /* submit, start (first quantum), end lines, or NULL */
	bool switches;              /* and each quantum's context switch list: `T switch SLOT JOB:FIRST:COUNT ...` */
	const long *names;
	struct progress *progress;  /* counts each job as it ends, or NULL */
	bool slots;                 /* record the slots in use over time (replay_result.slots: the timeline's) */
};

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
 * Replay @p n jobs (sorted by submit) through the gang scheduler: at each
 * quantum boundary the arrivals before it are placed, then one quantum
 * runs; an empty machine idles a quantum at a time. r->out gets each job's
 * submit, first quantum (start) and end; r->metrics the usual metrics with
 * the dedicated run time (its quanta) as the run and the rest of the
 * response as the wait. O(quanta x jobs running).
 * @retval SCHED_E_RANGE a machine that is not a power of two, or too many jobs.
 * @retval SCHED_E_NOSPACE out of memory; another negative code: the gang scheduler failed.
 * Each failure leaves a message in @p err.
 */
int gang_replay_run(const struct wjob *jobs, size_t n, const struct gang_opts *o, struct replay_result *r,
		    struct gang_stats *gs, char *err, size_t errlen);

#endif /* SIM_GANG_REPLAY_H */
