/* SPDX-License-Identifier: MIT */
/* Replaying a workload through the gang scheduler (seed 002), and the statistics of its section 4.3. */
#include "gang_replay.h"

#include <stdlib.h>
#include <string.h>

struct gctx {
	const struct wjob *jobs;
	struct replay_result *r;
	FILE *events;
	bool switches;
	const long *names;
};

static long name_of(const struct gctx *c, uint32_t i)
{
	return c->names ? c->names[i] : (long)i;
}

static void on_event(void *vctx, const struct sched_gang_event *e)
{
	struct gctx *c = vctx;
	if (e->kind == SCHED_GANG_SWITCH) {
		if (c->events && c->switches) {
			fprintf(c->events, "%u switch %u", e->time, e->slot);
			for (uint32_t i = 0; i < e->n_runs; i++)
				fprintf(c->events, " %ld:%u:%u", name_of(c, e->runs[i].job), e->runs[i].first, e->runs[i].count);
			fputc('\n', c->events);
		}
		return;
	}
	struct replay_job_out *o = &c->r->out[e->job];
	if (e->kind == SCHED_GANG_START) {
		o->start = e->time;
		if (c->events)
			fprintf(c->events, "%u start %ld %u\n", e->time, name_of(c, e->job), c->jobs[e->job].j.procs);
		return;
	}
	o->end = e->time;
	if (c->events)
		fprintf(c->events, "%u end %ld\n", e->time, name_of(c, e->job));
}

uint32_t gang_quanta(const struct wjob *j, sched_time_t quantum)
{
	sched_time_t run = j->j.run < j->j.estimate ? j->j.run : j->j.estimate;
	uint64_t q = ((uint64_t)run + quantum - 1u) / quantum;
	return q == 0 ? 1u : q > UINT32_MAX ? UINT32_MAX : (uint32_t)q;
}

int gang_replay_run(const struct wjob *jobs, size_t n, const struct gang_opts *o, struct replay_result *r,
		    struct gang_stats *gs, char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	memset(gs, 0, sizeof *gs);
	if (n == 0) {
		snprintf(err, errlen, "no jobs to replay");
		return SCHED_E_INVAL;
	}
	if (n > 65534u) {
		snprintf(err, errlen, "gang scheduling replays at most 65,534 jobs at once (this slice has %zu)", n);
		return SCHED_E_RANGE;
	}
	struct sched_gang_config cfg = {.procs = o->procs, .max_slots = o->max_slots, .max_jobs = (uint32_t)n,
					.scheme = o->scheme, .quantum = o->quantum};
	size_t size = sched_gang_arena_size(&cfg);
	if (size == 0) {
		snprintf(err, errlen, "gang scheduling needs a power-of-two machine of at most 32768 processors "
				      "(buddy blocks), at most 65535 slots and a quantum of at least 1 s; "
				      "this machine has %u (give --procs)", o->procs);
		return SCHED_E_RANGE;
	}
	void *arena = aligned_alloc(8, (size + 7u) / 8u * 8u);
	struct sched_gang *g = NULL;
	r->out = calloc(n, sizeof *r->out);
	int rc = SCHED_E_NOSPACE;
	if (arena == NULL || r->out == NULL) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	struct gctx c = {.jobs = jobs, .r = r, .events = o->events,
			  .switches = o->switches, .names = o->names};
	sched_time_t q = o->quantum;
	sched_time_t origin = jobs[0].j.submit / q * q;
	if (sched_gang_init(&g, &cfg, arena, size, on_event, &c, origin) != SCHED_OK) {
		snprintf(err, errlen, "cannot start the gang scheduler");
		rc = SCHED_E_INVAL;
		goto out;
	}
	size_t next = 0;
	while (next < n || sched_gang_jobs(g) > 0) {
		/* The jobs that arrived by this boundary are placed (the seed allocates on arrival; a job
		 * runs from the next quantum boundary on), then one quantum runs. */
		while (next < n && jobs[next].j.submit <= sched_gang_now(g)) {
			const struct wjob *j = &jobs[next];
			r->out[next].submit = j->j.submit;
			r->out[next].predicted = SCHED_TIME_MAX;
			int e = sched_gang_submit(g, (uint32_t)next, j->j.procs, gang_quanta(j, q), sched_gang_now(g));
			if (e != SCHED_OK) {
				snprintf(err, errlen, "the gang scheduler refused job %ld: %s", name_of(&c, (uint32_t)next),
					 sched_strerror(e));
				rc = e;
				goto out;
			}
			if (o->events)
				fprintf(o->events, "%u submit %ld %u %u -\n", j->j.submit, name_of(&c, (uint32_t)next),
					j->j.procs, j->j.estimate);
			next++;
		}
		if (sched_gang_jobs(g) > r->max_jobs_in_system)
			r->max_jobs_in_system = sched_gang_jobs(g);
		if (sched_gang_tick(g) != SCHED_OK) {
			snprintf(err, errlen, "the gang scheduler failed at %u", sched_gang_now(g));
			rc = SCHED_E_STATE;
			goto out;
		}
		if (o->check && sched_gang_check(g) != SCHED_OK) {
			snprintf(err, errlen, "gang invariant check failed at %u", sched_gang_now(g));
			rc = SCHED_E_STATE;
			goto out;
		}
		/* An empty machine waits for the next arrival in whole idle quanta (they count in the averages). */
	}
	sched_metrics_init(&r->metrics);
	uint64_t sum_t = 0, sum_p = 0, sum_first = 0;
	for (size_t i = 0; i < n; i++) {
		const struct replay_job_out *x = &r->out[i];
		uint32_t len = gang_quanta(&jobs[i], q);
		/* Under time sharing a job's elapsed time is not its run time: the metrics take the
		 * dedicated run time (its quanta) as the run, and the rest of the response as the wait,
		 * so slowdowns and utilization mean what they mean under space sharing. The time until
		 * the first quantum is kept apart (and in --jobs-out). */
		sched_time_t dedicated = (sched_time_t)((uint64_t)len * q);
		bool killed = jobs[i].j.run > jobs[i].j.estimate;
		sched_metrics_add(&r->metrics, x->submit, x->end - dedicated, x->end, jobs[i].j.procs, killed);
		sum_first += x->start - x->submit;
		r->counters.killed += killed;
		r->out[i].killed = killed;
		double turn = (double)(x->end - x->submit) / q;
		int cls = len <= 12 ? 0 : len <= 60 ? 1 : 2;
		gs->turn_sum[cls] += turn;
		gs->turn_n[cls]++;
		sum_t += (uint64_t)len * q;
		sum_p += jobs[i].j.procs;
	}
	const struct sched_gang_counters *k = sched_gang_counters(g);
	gs->quanta = k->quanta;
	gs->avg_first = (double)sum_first / (double)n;
	r->counters.submitted = k->submitted;
	r->counters.started = k->submitted;
	r->counters.finished = k->ended - r->counters.killed;
	gs->active_ratio = k->quanta ? (double)k->busy_quanta / ((double)o->procs * (double)k->quanta) : 0;
	gs->avg_slots = k->quanta ? (double)k->slot_quanta / (double)k->quanta : 0;
	gs->max_slots = k->max_slots_seen;
	gs->queued = k->queued;
	gs->repacks = k->repacks;
	gs->extra_slots = k->extra_slots;
	gs->extras_released = k->extras_released;
	/* rho = lambda p t / P (section 4.3), lambda from the first to the last arrival. */
	double span = (double)(jobs[n - 1].j.submit - jobs[0].j.submit);
	gs->rho = span > 0 ? ((double)(n - 1) / span) * ((double)sum_p / (double)n) * ((double)sum_t / (double)n) /
				     (double)o->procs
			   : 0;
	rc = 0;
out:
	free(arena);
	if (rc != 0) {
		free(r->out);
		r->out = NULL;
	}
	return rc;
}
