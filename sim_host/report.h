/* SPDX-License-Identifier: MIT */
/* Metric reports of replays: a side-by-side table, CSV or JSON. */
#ifndef SIM_REPORT_H
#define SIM_REPORT_H

#include <stdio.h>

#include "sched/metrics.h"
#include "sched/sched.h"
#include "dist.h"
#include "gang_replay.h"
#include "pyss_stats.h"
#include "replay.h"

enum report_format { REPORT_TABLE, REPORT_CSV, REPORT_JSON };

/*
 * The sets of statistics a report can print (--stats-as), a registry in
 * report.c with each set's name, help and rows: ours (every job that ran, the
 * papers' formulas) and pyss's (its job filter and formulas, pyss_stats.h).
 * The counts (jobs, skipped, refused, killed, backfilled, peak jobs) and the
 * extra rows come once, whatever the sets.
 */
enum report_stats { REPORT_STATS_OURS, REPORT_STATS_PYSS, REPORT_STATS_COUNT };

/* The sets chosen, in the order given; each at most once. */
struct report_sets {
	enum report_stats set[REPORT_STATS_COUNT];
	size_t n;
};

/** Parse a comma-separated list of set names into @p out. @retval SCHED_E_INVAL with a message in @p msg. */
int report_stats_parse(const char *list, struct report_sets *out, char *msg, size_t len);

/** A set's name, as --stats-as takes it. */
const char *report_stats_name(enum report_stats s);

/** Whether @p sets holds @p s. O(sets). */
bool report_stats_has(const struct report_sets *sets, enum report_stats s);

/** Write --help's list of the sets, from the registry, to @p f. O(sets). */
void report_stats_help(FILE *f);

#define REPORT_EXTRA_MAX 96
#define REPORT_PERIOD_MAX 96

/* A figure beyond the standard set (per queue, per priority class); every row of a report has the same ones. */
struct report_extra {
	char label[40];   /* table */
	char key[48];     /* csv/json */
	int decimals;
	double v;         /* NaN: none */
};

/* The figures of one replay (one policy over one period), ready to print. */
struct report_row {
	const char *policy;
	char period[REPORT_PERIOD_MAX]; /* "all", the slice's name ("months=3-4"), or "YYYY-MM" with --by-month */
	uint32_t jobs;            /* jobs that ran */
	uint32_t skipped;         /* dropped by the cleaning conventions */
	uint32_t skipped_by[TRACE_SKIP_COUNT]; /* the same by reason (enum trace_skip; report_row_skips) */
	uint32_t refused;         /* refused by the core: refused_room + refused_limit */
	uint32_t refused_room;    /* no room in the core (capacity) */
	uint32_t refused_limit;   /* outside its queue's processor or time range */
	uint32_t backfilled;
	uint32_t peak_jobs;       /* most jobs in the core at once (waiting + running) */
	struct sched_metrics_summary sum; /* the core's integer figures: what is printed */
	double loc;               /* loss of capacity, 0..1 (set by the caller; NaN if unknown) */
	bool has_dist;            /* dist holds the row's percentiles and fairness (report_row_dist); else they are none */
	struct dist_stats dist;
	bool has_pyss;            /* pyss holds the row's figures (set by the caller when the pyss set is printed) */
	struct pyss_stats pyss;
	struct report_extra extra[REPORT_EXTRA_MAX];
	size_t n_extra;
};

/** Fill @p row from a replay's metrics and counters on a machine of @p procs processors (skips: report_row_skips). */
void report_row_fill(struct report_row *row, const char *policy, const char *period,
		     const struct sched_metrics *m, const struct sched_counters *c,
		     sched_procs_t procs, uint32_t refused_room, uint32_t refused_limit, uint32_t peak_jobs);

/** The row's skipped jobs by reason, enum trace_skip (their sum becomes row->skipped). O(reasons). */
void report_row_skips(struct report_row *row, const uint32_t by[TRACE_SKIP_COUNT]);

/** The row's percentiles and fairness (dist.h), printed with ours. O(1). */
void report_row_dist(struct report_row *row, const struct dist_stats *d);

/** Append an extra figure to @p row (ignored past REPORT_EXTRA_MAX). */
void report_row_extra(struct report_row *row, const char *label, const char *key, int decimals, double v);

/* Waits and expansion factor of a subset of a period's jobs (a priority class, a queue). */
struct report_subset {
	uint32_t jobs, refused;
	uint64_t wait, run;
	sched_time_t max_wait;
};

/** Count one job's fate from the replay's per-job output into @p x. O(1). */
void report_subset_add(struct report_subset *x, const struct replay_job_out *o);

/** The subset's jobs, average wait and EF as extras of @p row, labelled @p label and keyed @p key. O(1). */
void report_row_subset(struct report_row *row, const char *label, const char *key, const struct report_subset *x);

/** Seed 002 section 4.3's statistics as extras; @p g NULL for a column that is not gang scheduling. O(1). */
void report_row_gang(struct report_row *row, const struct gang_stats *g);

/** The counters of seed 004 Tables 4 to 6 (the decider's only when @p deciding). O(1). */
void report_row_dynp(struct report_row *row, const struct sched_dynp_stats *d, bool deciding);

/**
 * Whole nodes (--node-size): the processor-seconds the jobs asked for (@p asked)
 * and were given (@p given), and the utilization each makes of @p procs over the
 * row's makespan, as extras. O(1).
 */
void report_row_nodes(struct report_row *row, uint64_t asked, uint64_t given, sched_procs_t procs);

#define REPORT_RUN_MAX 128

/* What a value of the run record is, for JSON (CSV prints the text alone). */
enum report_run_kind {
	REPORT_RUN_TEXT,        /* a JSON string */
	REPORT_RUN_NUMBER,      /* a JSON number (text that is not one is printed as a string) */
	REPORT_RUN_BOOL,        /* "true" or "false", as JSON's literals */
	REPORT_RUN_NULL,        /* not given and no default (unbounded, none): null; empty in CSV */
	REPORT_RUN_TEXT_LIST,   /* items joined by ';' in CSV, an array of strings in JSON */
	REPORT_RUN_NUMBER_LIST, /* items joined by ';' in CSV, an array of numbers in JSON */
};

/*
 * What shaped a run: every option in force (defaults included), the trace's
 * name, size and checksum, the program's version, each with its kind.
 * JSON prints it as the object "run"; CSV as trailing columns "run_KEY"
 * (after the metrics, so readers that find columns by name or by their
 * leading position keep working).
 */
struct report_run {
	struct {
		char key[48];
		char val[160];
		enum report_run_kind kind;
	} kv[REPORT_RUN_MAX];
	size_t n;
};

/**
 * Append KEY=printf(FMT, ...) of kind @p kind to @p run (ignored past
 * REPORT_RUN_MAX; a value longer than 159 bytes is cut). O(length of the value).
 */
void report_run_add(struct report_run *run, enum report_run_kind kind, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * Print @p n rows. Rows come grouped by period, policies in the same order
 * within each. @p skipped_by counts the jobs of the replayed slice the
 * conventions dropped, by reason (enum trace_skip); @p slice describes the slice in the table's header
 * (NULL or "": the whole trace); @p sets the statistics printed after the
 * counts (NULL: ours). O(n x metrics); errors are those of @p f.
 */
void report_print(FILE *f, enum report_format fmt, const char *trace, sched_procs_t procs,
		  const uint32_t skipped_by[TRACE_SKIP_COUNT], const struct report_row *rows, size_t n, size_t n_policies,
		  bool by_month, const char *slice, const struct report_run *run, const struct report_sets *sets);

#endif /* SIM_REPORT_H */
