/* SPDX-License-Identifier: MIT */
/* Pictures of one replayed schedule: a Gantt chart (SVG) and a timeline of use and queue (CSV, SVG). */
#ifndef SIM_PICTURES_H
#define SIM_PICTURES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "replay.h"
#include "tz.h"
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
	const struct tz *zone;               /* calendar axes in this zone, simulated time 0 being Unix time @p epoch; NULL: seconds */
	int64_t epoch;
	bool has_from, has_to;               /* the window (--gantt-from, --gantt-to); else the schedule's span */
	int64_t from, to;                    /* simulated seconds */
};

/** First submit and last end of the jobs that ran (0 and 0 when none did). O(n). */
void pictures_span(const struct picture_src *s, sched_time_t *lo, sched_time_t *hi);

/** Whether the window holds nothing of the schedule (the pictures then say so and draw nothing). O(n). */
bool pictures_window_empty(const struct picture_src *s);

/**
 * Write a Gantt chart of @p s to @p f: x time, y processors, one group
 * (class="job") per job that ran in the window [s->from, s->to) (by default
 * first submit to last end), its wait as a thin line from submit to start. The core counts
 * processors, it does not number them: rows are assigned by a first-fit
 * drawing, not taken from the schedule. O(n log n + n x procs).
 * @retval 0, or -1 out of memory.
 */
int pictures_gantt(FILE *f, const struct picture_src *s);

/**
 * Write the timeline of @p s as CSV: a header line, then one row
 * `time,busy_procs,queued_jobs,running_jobs` per instant where a figure
 * changes (the state after that instant's events, valid until the next row).
 * With a window, the first row is the state in force at its start and the
 * last the last change before its end. O(n log n). @retval 0, or -1 out of memory.
 */
int pictures_timeline_csv(FILE *f, const struct picture_src *s);

/**
 * The same timeline drawn as SVG, over the window: for each pixel column the
 * time-weighted mean of busy processors (area) and queued jobs (line), with
 * the column's least-to-largest value as a lighter band. O(n log n). @retval 0 or -1.
 */
int pictures_timeline_svg(FILE *f, const struct picture_src *s);

#endif /* SIM_PICTURES_H */
