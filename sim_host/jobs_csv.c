/* SPDX-License-Identifier: MIT */
/* The table of jobs (--jobs-csv): one row per replayed job, the units in docs/replay.md. */
#include "jobs_csv.h"

#include "fields.h"
#include "sched/metrics.h"

/* A ratio in millionths as the report prints it (truncated, as the core computes it): "12.345678". */
static void micro_field(FILE *f, uint64_t v)
{
	fprintf(f, ",%llu.%06llu", (unsigned long long)(v / SCHED_MICRO), (unsigned long long)(v % SCHED_MICRO));
}

/* The schedule's columns of a job that ran: what the report's metrics count (replay.h, replay_job_out.run). */
static void ran(FILE *f, const struct sched_replay_job *j, const struct replay_job_out *o, bool timeshared)
{
	sched_time_t response = o->end - o->submit;
	fprintf(f, ",%u,%u,%u,%u,%u,%u,%u,%u,%u", o->submit, o->start, o->end, response - o->run, o->run, j->procs,
		j->estimate, o->killed ? 1u : 0u, o->backfilled ? 1u : 0u);
	micro_field(f, sched_ratio_micro(response, o->run > 10 ? o->run : 10));
	if (o->run > 0)
		micro_field(f, sched_ratio_micro(response, o->run));
	else
		fputc(',', f); /* no slowdown without a run: empty, which readers take as missing */
	fputs(",0", f);
	/* Time sharing: the share of its time on the machine the job ran (1 / the slots it shared, on average). */
	if (timeshared && o->end > o->start)
		micro_field(f, sched_ratio_micro(o->run, o->end - o->start));
	else if (timeshared)
		fputc(',', f);
	fputc('\n', f);
}

void jobs_csv_write(FILE *f, const struct swf_trace *t, const struct workload *w, const struct replay_job_out *out,
		    const struct site *site, bool timeshared)
{
	fputs("id,user,queue,submit,start,end,wait,run,procs,estimate,killed,backfilled,bsld,slowdown,refused", f);
	fputs(timeshared ? ",share\n" : "\n", f);
	for (size_t i = 0; i < w->n; i++) {
		const struct sched_replay_job *j = &w->jobs[i].j;
		const struct fix_job *fj = &t->jobs[w->jobs[i].idx];
		fprintf(f, "%d,%d,", fj->job, fj->user);
		if (site != NULL)
			csv_field(f, site->queue_name[j->queue]);
		else
			fprintf(f, "%d", fj->queue);
		if (out[i].refused)
			fprintf(f, ",%u,,,,,%u,%u,,,,,1%s\n", out[i].submit, j->procs, j->estimate, timeshared ? "," : "");
		else
			ran(f, j, &out[i], timeshared);
	}
}
