/* SPDX-License-Identifier: MIT */
/* Pictures of one replayed schedule: a Gantt chart (SVG) and a timeline of use and queue (CSV, SVG). */
#ifndef SIM_PICTURES_H
#define SIM_PICTURES_H

#include <stdio.h>

#include "replay.h"
#include "workload.h"

/* Jobs drawn in one Gantt chart at most: beyond it the SVG says what it left out (it stays a few MB). */
#define PICTURES_GANTT_MAX 20000

/* What the pictures show: the schedule of one policy over the whole workload. */
struct picture_src {
	const struct wjob *jobs;             /* sorted by submit */
	const struct replay_job_out *out;    /* each job's fate, same order; refused jobs are left out */
	const long *names;                   /* job numbers in the trace */
	size_t n;
	sched_procs_t procs;
	const char *trace, *policy;          /* for the title */
	const struct replay_slots *slots;    /* time sharing (gang): the slots in use over time; NULL under space sharing */
	size_t n_slots;
};

/**
 * Write a Gantt chart of @p s to @p f: x time, y processors, one group
 * (class="job") per job that ran in the window [from, to) (to 0: up to the
 * last end), its wait as a thin line from submit to start. The core counts
 * processors, it does not number them: rows are assigned by a first-fit
 * drawing, not taken from the schedule. O(n log n + n x procs).
 * @retval 0, or -1 out of memory.
 */
int pictures_gantt(FILE *f, const struct picture_src *s, sched_time_t from, sched_time_t to);

/**
 * Write the timeline of @p s as CSV: a header line, then one row
 * `time,busy_procs,queued_jobs,running_jobs` per instant where a figure
 * changes (the state after that instant's events, valid until the next row).
 * O(n log n). @retval 0, or -1 out of memory.
 */
int pictures_timeline_csv(FILE *f, const struct picture_src *s);

/** The same timeline drawn as SVG: busy processors (area) and queued jobs (line). O(n log n). @retval 0 or -1. */
int pictures_timeline_svg(FILE *f, const struct picture_src *s);

#endif /* SIM_PICTURES_H */
