/* SPDX-License-Identifier: MIT */
/* The replay engine: drives the core through a workload with a simulated clock. */
#ifndef SIM_REPLAY_H
#define SIM_REPLAY_H

#include <stdio.h>

#include "sched/sched.h"
#include "sched/metrics.h"
#include "sched/replay.h"
#include "sched/gang.h"
#include "progress.h"
#include "workload.h"

struct replay_opts {
	struct sched_config base;  /* partitions, queues, policy parameters (procs, max_jobs, policy set below) */
	enum sched_policy_id policy;
	sched_procs_t procs;
	uint32_t capacity;       /* jobs the core may hold at once; 0 = as many as the workload has */
	bool check;              /* run sched_check() after every call (slow; for tests) */
	bool hash;               /* compute the schedule hash (replay_result.hash); else it is 0 */
	FILE *events;            /* decision log (docs/replay.md), or NULL */
	bool ev_queue;           /* submit lines carry q=QUEUE u=USER */
	bool ev_prio;            /* submit lines carry up=UP pp=PP (thousandths, or "over") */
	bool ev_part;            /* start lines carry p=PARTITION */
	bool ev_plans;           /* `T plan JOB START` whenever a reservation moves */
	const long *names;       /* job numbers for the log, indexed like the workload; NULL = indices */
	struct progress *progress; /* counts each job once its fate is sealed (ended, killed, refused), or NULL */
	bool slots;              /* time sharing: record the slots in use over time (replay_result.slots) */
};

struct replay_job_out {
	sched_time_t submit;
	sched_time_t start;
	sched_time_t end;
	sched_time_t predicted;  /* guarantee given at submit; SCHED_TIME_MAX when none */
	sched_time_t run;        /* the run the metrics count: end - start, or under time sharing the dedicated time */
	uint8_t killed;          /* reached its estimate */
	uint8_t backfilled;      /* started ahead of a job that arrived before it */
	uint8_t refused;         /* the core had no room when it arrived, or its queue excludes it */
	int refuse_err;          /* SCHED_E_NOSPACE or SCHED_E_LIMIT */
};

/* Time sharing: from time t on, `slots` time slots are in the system (until the next change). */
struct replay_slots {
	sched_time_t t;
	uint32_t slots;
};

struct replay_result {
	struct replay_job_out *out;       /* one per workload job, same order */
	struct sched_metrics metrics;     /* over the jobs that ran */
	struct sched_counters counters;
	uint32_t max_jobs_in_system;      /* job pool high-water mark */
	uint32_t max_segments;            /* profile segment high-water mark */
	uint64_t calls;                   /* core API calls made */
	uint64_t hash;                    /* of the schedule (docs/console.md), as the firmware computes it; 0 unless asked */
	struct sched_dynp_stats dynp;     /* what the dynP family did (zero under other policies) */
	struct sched_gang_counters gang;  /* what the gang module did (zero under space sharing) */
	struct replay_slots *slots;       /* with replay_opts.slots under time sharing: each change, in time order */
	size_t n_slots;
	double loc;                       /* loss of capacity (replay_loss_of_capacity), in one pass over the events */
};

/**
 * Replay @p n jobs (sorted by submit) under @p o through the core's replay
 * engine (the firmware's too): at each instant finishes first, then submits
 * in order, then sched_advance(). O(events x cost of the policy).
 * @retval SCHED_E_NOSPACE out of memory; another negative code: the core's
 * error when it rejects a call it should not (message in @p err).
 */
int replay_run(const struct wjob *jobs, size_t n, const struct replay_opts *o,
	       struct replay_result *r, char *err, size_t errlen);

void replay_result_free(struct replay_result *r);

/**
 * Loss of capacity of a replayed schedule (seed 004 section 5.1, after
 * Zhang et al.): the processor-seconds left idle while at least one job was
 * waiting, over processors x (last end - first submit). 0 when nothing ran.
 * Sorts the 3n events: O(n log n). replay_run() computes the same value in
 * one pass over the events as they come (replay_result.loc); this is its
 * reference and fallback.
 */
double replay_loss_of_capacity(const struct wjob *jobs, const struct replay_job_out *out, size_t n,
			       sched_procs_t procs);

#endif /* SIM_REPLAY_H */
