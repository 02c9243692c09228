/* SPDX-License-Identifier: MIT */
/* build/replay's command line: what it asks for, parsed without exiting. */
#ifndef SIM_OPTIONS_H
#define SIM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "policy_opts.h"
#include "progress.h"
#include "report.h"
#include "workload.h"

/*
 * Errors follow the core's convention (enum sched_err, negative) with a
 * message buffer: SCHED_E_INVAL is bad usage (exit status 2), any other
 * error bad input or a failed replay (status 1). Only main() exits.
 */
struct opts {
	struct run_spec specs[RUN_SPECS_MAX];   /* the report's columns */
	size_t n_specs;
	struct policy_opts pol;
	unsigned long procs, capacity;
	enum report_format fmt;
	struct report_sets stats;       /* --stats-as: the statistics printed after the counts; default ours */
	bool by_month, check, hash, plans, help;
	enum progress_mode progress;    /* --progress / --quiet, the last given; default on a terminal only */
	const char *jobs_out, *jobs_csv, *events_out, *months, *from, *to, *site;
	const char *gantt, *timeline, *timeline_svg; /* the pictures' files (pictures.h), or NULL */
	sched_time_t gantt_from, gantt_to;           /* the Gantt chart's window; 0: the schedule's span */
	long month_a, month_b;          /* --months A-B, 1-based */
	struct workload_opts w;
	struct sched_config base;       /* the policy parameters, and the site's partitions and queues */
	const char *resize[SCHED_MAX_PARTITIONS];
	size_t n_resize;
	const char *trace;              /* the one TRACE argument */
};

/**
 * Parse the command line into @p o. O(argc). Returns SCHED_OK (with o->help
 * set when --help was given: nothing else is checked then), or
 * SCHED_E_INVAL with the message in @p msg.
 */
int options_parse(int argc, char **argv, struct opts *o, char *msg, size_t len);

/** Write "WHAT: ARG" (or WHAT alone) into @p msg and return SCHED_E_INVAL. O(1). */
int options_usage(char *msg, size_t len, const char *what, const char *arg);

/** A number in [1, max] into *out. O(1). @retval SCHED_E_INVAL with a message naming @p opt. */
int options_count(const char *opt, const char *s, unsigned long max, unsigned long *out, char *msg, size_t len);

/** A number in [0, max] with up to three decimals, as thousandths. @retval SCHED_E_INVAL as options_count. */
int options_milli(const char *opt, const char *s, double max, uint32_t *out, char *msg, size_t len);

/** Seconds, or a duration with a unit: 90, 90s, 30m, 2h, 1d. @retval SCHED_E_INVAL with @p what as message. */
int options_seconds(const char *what, const char *s, sched_time_t *out, char *msg, size_t len);

/** The usage text of --help. */
extern const char options_help[];

#endif /* SIM_OPTIONS_H */
