/* SPDX-License-Identifier: MIT */
/* Replaying a workload through the gang scheduler (Zhou, Walsh and Brent 2000), and the statistics of its section 4.3. */
#include "gang_replay.h"

#include <stdlib.h>
#include <string.h>

/* A job's length in quanta, as the engine counts it. */
uint32_t gang_quanta(const struct wjob *j, sched_time_t quantum)
{
	return sched_replay_quanta(&j->j, quantum);
}

void gang_replay_stats(const struct wjob *jobs, size_t n, const struct sched_config *cfg, sched_procs_t procs,
		       const struct replay_result *r, struct gang_stats *gs)
{
	memset(gs, 0, sizeof *gs);
	sched_time_t q = sched_param_get(cfg, sched_param_find("quantum", NULL));
	uint64_t sum_t = 0, sum_p = 0, sum_first = 0;
	for (size_t i = 0; i < n; i++) {
		const struct replay_job_out *x = &r->out[i];
		uint32_t len = gang_quanta(&jobs[i], q);
		sum_first += x->start - x->submit;
		double turn = (double)(x->end - x->submit) / q;
		int cls = len <= 12 ? 0 : len <= 60 ? 1 : 2;
		gs->turn_sum[cls] += turn;
		gs->turn_n[cls]++;
		sum_t += (uint64_t)len * q;
		sum_p += jobs[i].j.procs;
	}
	const struct sched_gang_counters *k = &r->gang;
	gs->quanta = k->quanta;
	gs->avg_first = (double)sum_first / (double)n;
	gs->active_ratio = k->quanta ? (double)k->busy_quanta / ((double)procs * (double)k->quanta) : 0;
	gs->avg_slots = k->quanta ? (double)k->slot_quanta / (double)k->quanta : 0;
	gs->max_slots = k->max_slots_seen;
	gs->queued = k->queued;
	gs->repacks = k->repacks;
	gs->extra_slots = k->extra_slots;
	gs->extras_released = k->extras_released;
	gs->slot_cap = sched_gang_slots_for(sched_param_get(cfg, sched_param_find("max-slots", NULL)), (uint32_t)n);
	/* rho = lambda p t / P (section 4.3), lambda from the first to the last arrival. */
	double span = (double)(jobs[n - 1].j.submit - jobs[0].j.submit);
	gs->rho = span > 0 ? ((double)(n - 1) / span) * ((double)sum_p / (double)n) * ((double)sum_t / (double)n) /
				     (double)procs
			   : 0;
}

int gang_replay_check(sched_procs_t procs, size_t n, char *err, size_t errlen)
{
	if (n > 65534u) {
		snprintf(err, errlen, "gang scheduling replays at most 65,534 jobs at once (this slice has %zu)", n);
		return SCHED_E_RANGE;
	}
	struct sched_gang_config cfg = {.procs = procs, .max_slots = 1, .max_jobs = 1, .scheme = SCHED_GANG_BC,
					.quantum = 1, .bc_slots = SCHED_GANG_BC_KEEP_ONE};
	if (sched_gang_arena_size(&cfg) == 0) {
		snprintf(err, errlen, "gang scheduling needs a power-of-two machine of at most 32768 processors "
				      "(buddy blocks), at most 65535 slots and a quantum of at least 1 s; "
				      "this machine has %u (give --procs)", procs);
		return SCHED_E_RANGE;
	}
	return SCHED_OK;
}
