/* SPDX-License-Identifier: MIT */
/* The SWF cleaning rule, one job: from a trace's raw fields to a job the replay engine takes. */
#ifndef TRACE_CLEAN_H
#define TRACE_CLEAN_H

#include <stdint.h>

#include "sched/replay.h"

/*
 * The replay engine takes jobs already cleaned (struct sched_replay_job);
 * this is the one rule that cleans them, shared by the host's workloads
 * (trace/workload.c) and the board's `replay` command. Freestanding and
 * malloc-free, like the core, so that the firmware links it as it is.
 */

/* Why a job cannot be replayed (the counts the replayer reports, by reason). */
enum trace_skip {
	TRACE_SKIP_NONE,
	TRACE_SKIP_PROCS,    /* processors < 1 in both fields */
	TRACE_SKIP_RUN,      /* run time < 0 (unknown) */
	TRACE_SKIP_WIDE,     /* more processors than the machine */
	TRACE_SKIP_SUBMIT,   /* submit time < 0, or too large for the clock */
	TRACE_SKIP_NO_QUEUE, /* no site queue takes it (a host site file's routing; never from trace_clean_job) */
	TRACE_SKIP_COUNT
};

/**
 * The replay conventions, one job: processors = alloc if > 0 else req;
 * estimate = req_time if > 0 else the run time, and at least 1 s; submit =
 * submit. Fills @p out (all but seq; user, queue, partition and priorities
 * get their defaults) and returns TRACE_SKIP_NONE, or why the job cannot be
 * replayed (@p out then partly written). O(1).
 */
enum trace_skip trace_clean_job(int32_t submit, int32_t run, int32_t alloc_procs, int32_t req_procs,
				int32_t req_time, sched_procs_t machine, struct sched_replay_job *out);

/**
 * Whole nodes (--node-size, the console's node_size): @p procs rounded up to
 * a multiple of @p node, the processors of the nodes a job is given; @p node
 * 0 or 1 leaves it as it is. O(1); no error: beyond the largest multiple it
 * saturates (UINT32_MAX); a job that fits a machine of whole nodes still fits.
 */
sched_procs_t trace_whole_nodes(sched_procs_t procs, sched_procs_t node);

#endif /* TRACE_CLEAN_H */
