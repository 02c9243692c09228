/* SPDX-License-Identifier: MIT */
/* The SWF cleaning rule (docs/replay.md), freestanding: the host's workloads and the board's replay share it. */
#include "clean.h"

enum trace_skip trace_clean_job(int32_t submit, int32_t run, int32_t alloc_procs, int32_t req_procs,
				int32_t req_time, sched_procs_t machine, struct sched_replay_job *out)
{
	int32_t procs = alloc_procs > 0 ? alloc_procs : req_procs;
	if (procs < 1)
		return TRACE_SKIP_PROCS;
	if (run < 0)
		return TRACE_SKIP_RUN;
	if ((uint32_t)procs > machine)
		return TRACE_SKIP_WIDE;
	if (submit < 0 || (uint32_t)submit >= SCHED_NOW_LIMIT / 2)
		return TRACE_SKIP_SUBMIT;
	out->submit = (sched_time_t)submit;
	out->procs = (sched_procs_t)procs;
	out->user = 0;
	out->queue = 0;
	out->partition = SCHED_PART_ANY;
	out->up_milli = 0;
	out->pp_milli = 0;
	out->run = (sched_time_t)run;
	out->estimate = req_time > 0 ? (sched_time_t)req_time : (sched_time_t)run;
	if (out->estimate == 0)
		out->estimate = 1; /* the core's smallest unit */
	return TRACE_SKIP_NONE;
}

sched_procs_t trace_whole_nodes(sched_procs_t procs, sched_procs_t node)
{
	if (node <= 1)
		return procs;
	/* 32-bit only (no division helper on the board); a count past the largest multiple saturates,
	 * which every machine refuses as too wide, as it would have refused @p procs. */
	uint32_t nodes = procs / node + (procs % node != 0);
	return nodes > UINT32_MAX / node ? UINT32_MAX : nodes * node;
}
