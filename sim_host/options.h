/* SPDX-License-Identifier: MIT */
/* build/replay's command line: what it asks for, parsed without exiting. */
#ifndef SIM_OPTIONS_H
#define SIM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy_opts.h"
#include "progress.h"
#include "report.h"
#include "workload.h"

/*
 * A time as given to --from, --to, --gantt-from or --gantt-to: seconds of
 * trace time (a number, or a duration from time 0), or a local date and time
 * that only the trace's UnixStartTime and time zone place (run.c).
 */
struct options_time {
	const char *arg;  /* as given; NULL: not given */
	bool local;       /* v is a local date and time: seconds from 1970-01-01T00:00 local */
	int64_t v;        /* else seconds of trace time */
};

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
	struct options_time from_t, to_t;            /* --from, --to parsed */
	const char *gantt, *timeline, *timeline_svg; /* the pictures' files (pictures.h), or NULL */
	struct options_time gantt_from, gantt_to;    /* the pictures' window; not given: the schedule's span */
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

/**
 * A time (struct options_time): seconds (-90, 90), a duration from time 0
 * (90s, 30m, 2h, 1d) or a local date YYYY-MM-DD[THH:MM[:SS]] (T or a space).
 * O(1). @retval SCHED_E_INVAL with a message naming @p opt and the forms.
 */
int options_time(const char *opt, const char *s, struct options_time *out, char *msg, size_t len);

/** The usage text of --help. */
extern const char options_help[];

#endif /* SIM_OPTIONS_H */
