/* SPDX-License-Identifier: MIT */
/* One invocation of build/replay: the trace cleaned once, each period replayed under each column. */
#ifndef SIM_RUN_H
#define SIM_RUN_H

#include <stdio.h>

#include "options.h"
#include "report.h"
#include "site.h"
#include "swf.h"
#include "tz.h"

struct run {
	const struct opts *op;
	struct site *site;              /* the --site file, or NULL */
	struct swf_trace trace;
	struct workload w;
	const struct tz *zone;          /* the trace's zone, once a date, a month or a calendar needs it */
	sched_procs_t procs;
	FILE *events;                   /* --events-out, or NULL */
	int *keys;                      /* --by-month: each job's month, year * 12 + month - 1 */
	size_t *starts, n_periods;      /* period p is jobs [starts[p], starts[p + 1]) */
	uint32_t (*period_skipped)[TRACE_SKIP_COUNT]; /* --by-month: the jobs each month's conventions dropped, by reason */
	long *names;                    /* each job's number in the trace, for the logs */
	struct report_row *rows;        /* n_periods x n_specs, period-major */
	uint64_t *hashes;               /* the schedule hash of each row */
	struct replay_job_out *all_out; /* --jobs-out and the pictures: each job's fate */
	struct progress progress;       /* over every period and column: jobs x columns */
	char slice[REPORT_PERIOD_MAX];  /* the slice's name ("months=3-4", "from=A;to=B"), "" for the whole trace */
	char slice_desc[192];           /* the slice for the table's header: the name and its trace seconds */
	FILE *pic[3];                   /* --gantt, --timeline, --timeline-svg while they are written (their paths are checked before the replay) */
	struct replay_slots *slots;     /* --policy gang with --timeline or --timeline-svg: the slots in use over time */
	size_t n_slots;
	const struct tz *pic_zone;      /* the pictures' calendar, or NULL: seconds */
	int64_t pic_from, pic_to;       /* --gantt-from, --gantt-to in simulated seconds (when given) */
};

/**
 * Load the site and the trace of @p op, apply the slice and the conventions.
 * O(n log n). @retval SCHED_E_INVAL bad usage found only now (a --from date,
 * a --partition name); another negative code: bad input. Message in @p msg.
 */
int run_prepare(struct run *r, struct opts *op, char *msg, size_t len);

/** Replay every period under every column, filling the rows. @retval negative: a failed replay (message in @p msg). */
int run_replays(struct run *r, char *msg, size_t len);

/** Print the report and the hashes to stdout, write --jobs-out. @retval SCHED_E_STATE a file could not be written. */
int run_output(struct run *r, char *msg, size_t len);

/** Close --events-out and release everything. @retval SCHED_E_STATE the events file could not be written. */
int run_free(struct run *r, char *msg, size_t len);

#endif /* SIM_RUN_H */
