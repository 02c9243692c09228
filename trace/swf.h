/* SPDX-License-Identifier: MIT */
/* Reading Standard Workload Format traces, plain or gzip'd, with file:line errors. */
#ifndef SIM_SWF_H
#define SIM_SWF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fixture/fixture.h"

/* SWF field numbers (1-based in the format's documentation, 0-based here). */
enum swf_field {
	SWF_JOB, SWF_SUBMIT, SWF_WAIT, SWF_RUN, SWF_ALLOC_PROCS, SWF_AVG_CPU, SWF_USED_MEM,
	SWF_REQ_PROCS, SWF_REQ_TIME, SWF_REQ_MEM, SWF_STATUS, SWF_USER, SWF_GROUP, SWF_EXE,
	SWF_QUEUE, SWF_PARTITION, SWF_PRECEDING, SWF_THINK, SWF_FIELDS
};

/*
 * The one rule for the numbers of an SWF trace, whichever tool reads it
 * (build/replay, swf2fix, build/sweep): a plain decimal, -?digits[.digits],
 * within these bounds, where every kept field becomes a 32-bit record
 * field; a header key's value is an integer in the key's own range. Any
 * other value is an error naming the file, the line and the field or key,
 * never wrapped or clamped.
 */
#define SWF_VALUE_MIN (-2147483648.0)
#define SWF_VALUE_MAX 2147483647.0

/** What swf_number found. */
enum swf_num {
	SWF_NUM_OK,        /* a plain decimal (the caller checks the range) */
	SWF_NUM_NOT_PLAIN, /* a number written otherwise: 1e9, 0x10, +5, inf, nan */
	SWF_NUM_SYNTAX,    /* no number at all */
};

/**
 * Read the number that starts at @p p and ends at a blank or the end of the
 * string; *end is set past it (past the whole token when it is not plain).
 * O(length). The value of a plain decimal goes to *out (inf when it has more
 * than 308 digits); nothing else is checked, the range is the caller's.
 */
enum swf_num swf_number(const char *p, const char **end, double *out);

/* An SWF job line as written, kept only to write it back (replay --jobs-out) and for swf2fix's checks. */
struct swf_job {
	double v[SWF_FIELDS]; /* every field as written; -1 means unknown */
	uint32_t line;        /* line number in the source, for messages */
};

struct swf_header {
	long max_procs;        /* -1 when absent */
	long max_nodes;        /* -1 when absent */
	long max_jobs;         /* MaxJobs, -1 when absent (describes the original log) */
	long max_records;      /* MaxRecords, -1 when absent */
	int64_t unix_start;    /* UnixStartTime; valid when has_unix_start */
	bool has_unix_start;
	long tz_offset;        /* TimeZone (seconds to add to UTC); valid when has_tz_offset */
	bool has_tz_offset;
	char tz_name[128];     /* TimeZoneString, "" when absent */
	char **lines;          /* every header comment line as read (without newline) */
	size_t n_lines;
};

/*
 * A trace, read from SWF text or a fixture. Each job is decoded once into
 * the one job record, struct fix_job (the core's codec record: the eleven
 * fields the conventions, the tools and fixtures use, as integers), which
 * is what everything downstream reads; a fixture's records are taken as
 * they are decoded.
 */
struct swf_trace {
	struct swf_header hdr;
	char source[128];       /* the original trace's name, when read from a fixture */
	struct fix_job *jobs;   /* the job records, in trace order */
	struct swf_job *text;   /* the SWF lines as written, same order; NULL when read from a fixture */
	size_t n;
	uint32_t non_integral;  /* values with a fraction in fields other than 6, 7 and 10 */
	uint32_t submit_backwards; /* job lines whose submit time is below the previous line's */
	uint64_t trailing;      /* bytes after the gzip data, ignored (the caller warns) */
};

/**
 * Read the SWF trace at @p path (gzip'd, in one member or several, or plain).
 * Bytes after the last gzip member are ignored and counted in t->trailing. Blank
 * lines are ignored, CRLF is accepted, header keys are parsed where
 * present. O(size). On failure writes a one-line message naming the file
 * and, where it applies, the first bad line (and the numbers of up to ten
 * more bad lines) into @p err, and returns SCHED_E_NOENT (cannot open) or
 * SCHED_E_FORMAT (anything else, out of memory included).
 */
int swf_read(const char *path, struct swf_trace *t, char *err, size_t errlen);

/**
 * As swf_read, without the lines as written (t->text stays NULL): only the
 * job records, 44 bytes a job instead of 196. For readers that never need
 * the fields the records leave out (the replayer without --jobs-out).
 */
int swf_read_jobs(const char *path, struct swf_trace *t, char *err, size_t errlen);

/** As swf_read, over @p len bytes of text in memory (named @p name in messages). */
int swf_parse_buffer(const char *name, const char *data, size_t len, struct swf_trace *t, char *err,
		     size_t errlen);

/** Release what swf_read allocated. */
void swf_free(struct swf_trace *t);

/** The header's machine size: MaxProcs if positive, else MaxNodes, else -1. */
long swf_machine_size(const struct swf_header *h);

/** The record of one SWF line: the kept fields truncated to integers (the reader has checked they fit). O(1). */
void swf_job_record(const struct swf_job *in, struct fix_job *out);

/** Job @p i's SWF_FIELDS values: its line as written, or from its record (fields a fixture lacks are -1). O(1). */
void swf_job_values(const struct swf_trace *t, size_t i, double v[SWF_FIELDS]);

/** Print one value as SWF text, a plain decimal (swf_number reads it back): the fewest decimals that read back exactly. */
void swf_print_value(FILE *f, double v);

/** Print one job line: its SWF_FIELDS values, space-separated, and a newline. */
void swf_print_job(FILE *f, const double *v);

#endif /* SIM_SWF_H */
