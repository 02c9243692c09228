/* SPDX-License-Identifier: MIT */
/*
 * replay --jobs-csv: the simulated schedule as a table of jobs, one row per
 * replayed job under a header, for pandas or R without an SWF parser
 * (batsim's _jobs.csv is read the same way). Columns and units: docs/replay.md.
 */
#ifndef SIM_JOBS_CSV_H
#define SIM_JOBS_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "replay.h"
#include "site.h"
#include "swf.h"
#include "workload.h"

/**
 * Write @p w's jobs (in replay order: by submit time, ties in trace order)
 * with their fates @p out to @p f: id, user, queue (@p site's queue names, or
 * SWF field 15 without a site), then the schedule in seconds, the flags and
 * the slowdowns; refused jobs with their times left empty. @p timeshared adds
 * the gang column `share`. O(n); errors are those of @p f.
 */
void jobs_csv_write(FILE *f, const struct swf_trace *t, const struct workload *w, const struct replay_job_out *out,
		    const struct site *site, bool timeshared);

#endif /* SIM_JOBS_CSV_H */
