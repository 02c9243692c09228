/* SPDX-License-Identifier: MIT */
/* The SWF reader and the replayer's cleaning conventions, on small traces written here. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "harness.h"
#include "clean.h"
#include "swf.h"
#include "workload.h"

static char path[64];

static const char *write_file(const char *text, bool gz)
{
	strcpy(path, "/tmp/test_swf_XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	close(fd);
	if (gz) {
		gzFile g = gzopen(path, "wb");
		gzputs(g, text);
		gzclose(g);
	} else {
		FILE *f = fopen(path, "w");
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static const char good[] =
	"; Version: 2.2\r\n"
	";  MaxNodes: 338 (batch partition; 512 total)\r\n"
	"; MaxProcs: 64\r\n"
	"; UnixStartTime: 843480031\r\n"
	"; TimeZone: 3600\r\n"
	"; TimeZoneString: Europe/Stockholm\r\n"
	"\r\n"
	"1 0 5 100 4 12.5 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\r\n"
	"2 10 0 50 -1 -1 -1 8 -1 -1 1 2 1 -1 1 -1 -1 -1\r\n"
	"   3   5  0  -1  2 -1 -1 2 60 -1 5 3 1 -1 1 -1 -1 -1\r\n"
	"4 20 0 0 -1 -1 -1 -1 -1 -1 0 3 1 -1 1 -1 -1 -1\r\n"
	"5 30 0 10 100 -1 -1 100 60 -1 1 3 1 -1 1 -1 -1 -1\r\n"
	"6 31 0 0 1 -1 -1 1 0 -1 1 3 1 -1 1 -1 -1 -1\r\n";

static void parses_header_and_jobs(void)
{
	for (int gz = 0; gz < 2; gz++) {
		const char *p = write_file(good, gz);
		CHECK(p != NULL);
		struct swf_trace t;
		char err[256];
		CHECK_EQ(swf_read(p, &t, err, sizeof err), 0);
		unlink(p);
		CHECK_EQ(t.n, 6);
		CHECK_EQ(t.hdr.max_procs, 64);
		CHECK_EQ(t.hdr.max_nodes, 338);
		CHECK(t.hdr.has_unix_start && t.hdr.unix_start == 843480031);
		CHECK(t.hdr.has_tz_offset && t.hdr.tz_offset == 3600);
		CHECK(strcmp(t.hdr.tz_name, "Europe/Stockholm") == 0);
		CHECK_EQ(t.hdr.n_lines, 6);
		CHECK(t.text[0].v[SWF_AVG_CPU] == 12.5);
		CHECK_EQ(t.text[2].line, 10);
		CHECK_EQ(t.submit_backwards, 1);
		CHECK_EQ(t.non_integral, 0);
		CHECK_EQ(swf_machine_size(&t.hdr), 64);
		swf_free(&t);
	}
}

/*
 * swf_read_jobs (the replayer without --jobs-out) keeps no text but the same
 * records, header and counts as swf_read, on the hand-made trace and on a
 * committed one; and fails the same way on a bad line.
 */
static void jobs_only_reading_matches(void)
{
	const char *paths[] = {write_file(good, true), "fixtures/KTH-SP2-1996-2.1-cln.swf.gz"};
	for (int i = 0; i < 2; i++) {
		CHECK(paths[i] != NULL);
		struct swf_trace a, b;
		char err[256];
		CHECK_EQ(swf_read(paths[i], &a, err, sizeof err), 0);
		CHECK_EQ(swf_read_jobs(paths[i], &b, err, sizeof err), 0);
		CHECK(b.text == NULL);
		CHECK_EQ(b.n, a.n);
		CHECK(b.n > 0 && memcmp(a.jobs, b.jobs, a.n * sizeof *a.jobs) == 0);
		CHECK_EQ(b.hdr.n_lines, a.hdr.n_lines);
		CHECK_EQ(b.non_integral, a.non_integral);
		CHECK_EQ(b.submit_backwards, a.submit_backwards);
		swf_free(&a);
		swf_free(&b);
	}
	unlink(paths[0]);
	const char *bad = write_file("1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n2 x\n", false);
	struct swf_trace t;
	char e1[256], e2[256];
	CHECK_EQ(swf_read(bad, &t, e1, sizeof e1), SCHED_E_FORMAT);
	CHECK_EQ(swf_read_jobs(bad, &t, e2, sizeof e2), SCHED_E_FORMAT);
	CHECK(strcmp(e1, e2) == 0);
	unlink(bad);
}

/* The bytes of file @p p, into a new buffer of *n bytes. */
static unsigned char *slurp(const char *p, size_t *n)
{
	FILE *f = fopen(p, "rb");
	unsigned char *b = malloc(1 << 20);
	*n = f && b ? fread(b, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	return b;
}

static void spill(const char *p, const unsigned char *b, size_t n)
{
	FILE *f = fopen(p, "wb");
	fwrite(b, 1, n, f);
	fclose(f);
}

/*
 * The gzip reading against zlib's own gzread as the reference: the committed
 * KTH trace (many 128 KiB blocks, lines across their edges) inflated by
 * gzread into a plain file reads to the same records; two members read as
 * one text; bytes after the data are counted, not read; a flipped CRC and a
 * cut file are errors that name the path once.
 */
static void gzip_members_garbage_and_damage(void)
{
	const char *kth = "fixtures/KTH-SP2-1996-2.1-cln.swf.gz";
	char plain[] = "/tmp/test_swf_plain_XXXXXX";
	int fd = mkstemp(plain);
	CHECK(fd >= 0);
	gzFile g = gzopen(kth, "rb");
	char chunk[8192];
	int got;
	while ((got = gzread(g, chunk, sizeof chunk)) > 0)
		CHECK_EQ(write(fd, chunk, (size_t)got), got);
	gzclose(g);
	close(fd);
	struct swf_trace a, b;
	char err[256];
	CHECK_EQ(swf_read(kth, &a, err, sizeof err), 0);
	CHECK_EQ(swf_read(plain, &b, err, sizeof err), 0);
	unlink(plain);
	CHECK_EQ(a.n, 28476); /* the header's MaxRecords */
	CHECK(b.n == a.n && memcmp(a.jobs, b.jobs, a.n * sizeof *a.jobs) == 0);
	CHECK(a.trailing == 0 && b.trailing == 0);
	swf_free(&a);
	swf_free(&b);

	size_t n;
	unsigned char *one = slurp(write_file(good, true), &n);
	unsigned char *two = malloc(2 * n + 16);
	memcpy(two, one, n);
	memcpy(two + n, one, n);
	spill(path, two, 2 * n);
	CHECK_EQ(swf_read(path, &a, err, sizeof err), 0);
	CHECK(a.n == 12 && a.trailing == 0 && a.jobs[6].job == 1);
	swf_free(&a);
	memcpy(two + n, "garbage!", 8);
	spill(path, two, n + 8);
	CHECK_EQ(swf_read(path, &a, err, sizeof err), 0);
	CHECK(a.n == 6 && a.trailing == 8);
	swf_free(&a);
	two[n - 8] ^= 0x01; /* the trailer's CRC-32 */
	spill(path, two, n);
	CHECK_EQ(swf_read(path, &a, err, sizeof err), SCHED_E_FORMAT);
	CHECK(strstr(err, "incorrect data check") != NULL);
	CHECK(strncmp(err, path, strlen(path)) == 0 && strstr(err + 1, path) == NULL);
	spill(path, one, n - 10);
	CHECK_EQ(swf_read(path, &a, err, sizeof err), SCHED_E_FORMAT);
	CHECK(strstr(err, "the .gz is truncated") != NULL && strstr(err + 1, path) == NULL);
	unlink(path);
	free(one);
	free(two);
}

/* A line of 4095 bytes with its newline is read, one of 4096 is an error, in a plain file and a gzip'd one alike. */
static void line_length_limit(void)
{
	static char text[8192];
	for (int gz = 0; gz < 2; gz++)
		for (int extra = 0; extra < 2; extra++) {
			const char *job = "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 1 -1 -1";
			size_t pad = 4094 - strlen(job) + (size_t)extra;
			memcpy(text, job, strlen(job));
			memset(text + strlen(job), ' ', pad);
			strcpy(text + strlen(job) + pad, "\n2 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 1 -1 -1\n");
			struct swf_trace t;
			char err[256];
			int rc = swf_read(write_file(text, gz), &t, err, sizeof err);
			unlink(path);
			if (extra == 0) {
				CHECK_EQ(rc, 0);
				CHECK_EQ(t.n, 2);
				swf_free(&t);
			} else {
				CHECK_EQ(rc, SCHED_E_FORMAT);
				CHECK(strstr(err, ":1: line longer than 4095 bytes") != NULL);
			}
		}
}

/* The `good` trace read and built into w on 64 processors with the options o; *t holds the trace. */
static void build_good(struct swf_trace *t, const struct workload_opts *o, struct workload *w)
{
	const char *p = write_file(good, false);
	char err[256];
	CHECK_EQ(swf_read(p, t, err, sizeof err), 0);
	unlink(p);
	CHECK_EQ(workload_build(t, 64, o, w, err, sizeof err), 0);
}

/* The conventions of workload.h, job by job. */
static void cleaning_conventions(void)
{
	struct swf_trace t;
	struct workload w;
	struct workload_opts o;
	workload_opts_default(&o);
	build_good(&t, &o, &w);
	CHECK_EQ(w.skipped[TRACE_SKIP_RUN], 1);   /* job 3 */
	CHECK_EQ(w.skipped[TRACE_SKIP_PROCS], 1); /* job 4: -1 in both processor fields */
	CHECK_EQ(w.skipped[TRACE_SKIP_WIDE], 1);  /* job 5: 100 > 64 */
	CHECK_EQ(w.n, 3);
	/* Job 1: field 5 wins; estimate from field 9. */
	CHECK_EQ(w.jobs[0].j.procs, 4);
	CHECK_EQ(w.jobs[0].j.estimate, 200);
	CHECK_EQ(w.jobs[0].j.run, 100);
	/* Job 2: field 8 when field 5 is -1; no field 9: estimate = run time. */
	CHECK_EQ(w.jobs[1].j.procs, 8);
	CHECK_EQ(w.jobs[1].j.estimate, 50);
	/* Job 6: run 0 and field 9 = 0: estimate raised to 1 s. */
	CHECK_EQ(w.jobs[2].j.estimate, 1);
	CHECK_EQ(w.estimate_from_run, 2);
	CHECK_EQ(w.estimate_raised, 1);
	workload_free(&w);
	swf_free(&t);
}

/* --node-size (workload.h): whole nodes after the skip rules, the asked processors kept; by hand. */
static void whole_nodes(void)
{
	CHECK_EQ(trace_whole_nodes(1, 8), 8);
	CHECK_EQ(trace_whole_nodes(8, 8), 8);
	CHECK_EQ(trace_whole_nodes(9, 8), 16);
	CHECK_EQ(trace_whole_nodes(7, 3), 9);
	CHECK_EQ(trace_whole_nodes(5, 1), 5);
	CHECK_EQ(trace_whole_nodes(5, 0), 5);
	CHECK_EQ(trace_whole_nodes(4294967288u, 8), 4294967288u); /* 2^32 - 8: the largest multiple */
	CHECK_EQ(trace_whole_nodes(4294967289u, 8), 4294967295u); /* past it: saturated, wider than any machine */
	struct swf_trace t;
	struct workload w;
	struct workload_opts o;
	workload_opts_default(&o);
	o.node_size = 16;
	build_good(&t, &o, &w);
	CHECK_EQ(w.skipped[TRACE_SKIP_WIDE], 1); /* job 5: 100 > 64, as without nodes */
	CHECK_EQ(w.n, 3);
	CHECK_EQ(w.jobs[0].j.procs, 16); /* job 1: 4 asked */
	CHECK_EQ(w.jobs[0].trace_procs, 4);
	CHECK_EQ(w.jobs[1].j.procs, 16); /* job 2: 8 asked, in field 8 */
	CHECK_EQ(w.jobs[1].trace_procs, 8);
	workload_free(&w);
	swf_free(&t);
}

static void sorted_by_submit(void)
{
	const char *p = write_file("1 50 0 1 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1\n"
				   "2 10 0 1 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1\n"
				   "3 10 0 1 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1\n", false);
	struct swf_trace t;
	char err[256];
	CHECK_EQ(swf_read(p, &t, err, sizeof err), 0);
	unlink(p);
	struct workload w;
	struct workload_opts o;
	workload_opts_default(&o);
	CHECK_EQ(workload_build(&t, 4, &o, &w, err, sizeof err), 0);
	CHECK_EQ(w.reordered, 1);
	CHECK_EQ(w.jobs[0].idx, 1); /* ties keep trace order */
	CHECK_EQ(w.jobs[1].idx, 2);
	CHECK_EQ(w.jobs[2].idx, 0);
	workload_free(&w);
	swf_free(&t);
}

struct bad {
	const char *text;
	const char *message; /* expected in the error, after "file:line: " */
};

static void errors_name_file_and_line(void)
{
	const struct bad cases[] = {
		{"; hdr\n1 0 0 1 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1\n", ":2: expected 18 numeric fields, found 17"},
		{"1 0 0 1 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1 7\n", ":1: more than 18 fields"},
		{"\n\n1 0 0 x 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1\n", ":3: field 4 is not a number"},
		{"1 0 0 1e999 1 -1 -1 1 5 -1 1 1 1 -1 1 -1 -1 -1\n", ":1: field 4 (run time): '1e999' is not a plain decimal"},
		{"; only a header\n", ": no job lines in trace"},
		{"", ": no job lines in trace"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *p = write_file(cases[i].text, false);
		struct swf_trace t;
		char err[256];
		CHECK_EQ(swf_read(p, &t, err, sizeof err), SCHED_E_FORMAT);
		unlink(p);
		CHECK(strncmp(err, p, strlen(p)) == 0);
		CHECK(strstr(err, cases[i].message) != NULL);
	}
	struct swf_trace t;
	char err[256];
	CHECK_EQ(swf_read("/nonexistent/trace.swf", &t, err, sizeof err), SCHED_E_NOENT);
	CHECK(strstr(err, "/nonexistent/trace.swf") != NULL);
}

/* The number rule by hand: each token, what it is, and its value where it is a plain decimal. */
static void numbers_plain_decimals_only(void)
{
	const struct {
		const char *text;
		enum swf_num want;
		double value;
		size_t len; /* where *end stops */
	} cases[] = {
		{"0", SWF_NUM_OK, 0, 1},           {"-1", SWF_NUM_OK, -1, 2},
		{"-0", SWF_NUM_OK, 0, 2},          {"3.60", SWF_NUM_OK, 3.6, 4},
		{"5.", SWF_NUM_OK, 5, 2},          {".5", SWF_NUM_OK, 0.5, 2},
		{"007 8", SWF_NUM_OK, 7, 3},       {"2147483648\t1", SWF_NUM_OK, 2147483648.0, 10},
		{"1234567890123456789012", SWF_NUM_OK, 1.234567890123456789012e21, 22},
		{"1e9", SWF_NUM_NOT_PLAIN, 0, 3},  {"+5", SWF_NUM_NOT_PLAIN, 0, 2},
		{"0x10", SWF_NUM_NOT_PLAIN, 0, 4}, {"inf", SWF_NUM_NOT_PLAIN, 0, 3},
		{"nan 1", SWF_NUM_NOT_PLAIN, 0, 3}, {"1e30", SWF_NUM_NOT_PLAIN, 0, 4},
		{"x", SWF_NUM_SYNTAX, 0, 1},       {"-", SWF_NUM_SYNTAX, 0, 1},
		{".", SWF_NUM_SYNTAX, 0, 1},       {"12abc", SWF_NUM_SYNTAX, 0, 5},
		{"1.5.5", SWF_NUM_SYNTAX, 0, 5},   {"--1", SWF_NUM_SYNTAX, 0, 3},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *end = NULL;
		double v = -99;
		CHECK_EQ(swf_number(cases[i].text, &end, &v), cases[i].want);
		CHECK_EQ((size_t)(end - cases[i].text), cases[i].len);
		if (cases[i].want == SWF_NUM_OK)
			CHECK(v == cases[i].value);
	}
}

/* Reads a one-job trace with @p header and the job line's field @p field set to @p text: 0, or the error in @p err. */
static int read_one(const char *header, int field, const char *text, struct swf_trace *t, char *err, size_t errlen)
{
	char buf[512];
	int n = snprintf(buf, sizeof buf, "%s", header);
	for (int k = 0; k < SWF_FIELDS; k++)
		n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%s", k ? " " : "",
			      k == field ? text : k == SWF_REQ_PROCS || k == SWF_ALLOC_PROCS ? "1" : k == SWF_RUN ? "10" : "-1");
	snprintf(buf + n, sizeof buf - (size_t)n, "\n");
	return swf_parse_buffer("t.swf", buf, strlen(buf), t, err, errlen);
}

/* The bounds, each side of each edge: a value that does not fit is an error naming line and field, never clamped. */
static void values_that_do_not_fit_are_errors(void)
{
	struct swf_trace t;
	char err[300];
	CHECK_EQ(read_one("", SWF_REQ_TIME, "2147483647", &t, err, sizeof err), 0);
	CHECK_EQ(t.jobs[0].req_time, 2147483647);
	swf_free(&t);
	CHECK_EQ(read_one("", SWF_USER, "-2147483648", &t, err, sizeof err), 0);
	CHECK_EQ(t.jobs[0].user, INT32_MIN);
	swf_free(&t);
	CHECK_EQ(read_one("", SWF_REQ_TIME, "4294967296", &t, err, sizeof err), SCHED_E_FORMAT);
	CHECK(strcmp(err, "t.swf:1: field 9 (requested time): 4294967296 does not fit: allowed -2147483648..2147483647") == 0);
	CHECK_EQ(read_one("", SWF_REQ_TIME, "2147483648", &t, err, sizeof err), SCHED_E_FORMAT);
	CHECK_EQ(read_one("", SWF_REQ_TIME, "2147483647.5", &t, err, sizeof err), SCHED_E_FORMAT);
	CHECK_EQ(read_one("", SWF_USER, "-2147483649", &t, err, sizeof err), SCHED_E_FORMAT);
	CHECK(strstr(err, "t.swf:1: field 12 (user): -2147483649 does not fit") != NULL);
	/* Fields the records leave out follow the same rule. */
	CHECK_EQ(read_one("", SWF_THINK, "99999999999", &t, err, sizeof err), SCHED_E_FORMAT);
	CHECK(strstr(err, "t.swf:1: field 18 (think time): 99999999999 does not fit") != NULL);
	CHECK_EQ(read_one("", SWF_REQ_TIME, "1e30", &t, err, sizeof err), SCHED_E_FORMAT);
	CHECK(strcmp(err, "t.swf:1: field 9 (requested time): '1e30' is not a plain decimal (digits, a '-', a fraction)") == 0);
	CHECK_EQ(read_one("; MaxProcs: 99999999999\n", SWF_JOB, "1", &t, err, sizeof err), SCHED_E_FORMAT);
	CHECK(strcmp(err, "t.swf:1: header MaxProcs: 99999999999 does not fit: allowed -1..2147483647") == 0);
	CHECK_EQ(read_one("; MaxProcs: 1e9\n", SWF_JOB, "1", &t, err, sizeof err), SCHED_E_FORMAT);
	CHECK(strcmp(err, "t.swf:1: header MaxProcs: '1e9' is not an integer (plain decimal digits)") == 0);
	CHECK_EQ(read_one("; x\n; MaxNodes: 8.5\n", SWF_JOB, "1", &t, err, sizeof err), SCHED_E_FORMAT);
	CHECK(strstr(err, "t.swf:2: header MaxNodes: '8.5' is not an integer") != NULL);
	CHECK_EQ(read_one("; TimeZone: 86401\n", SWF_JOB, "1", &t, err, sizeof err), SCHED_E_FORMAT);
	CHECK_EQ(read_one("; UnixStartTime: -5\n", SWF_JOB, "1", &t, err, sizeof err), SCHED_E_FORMAT);
	CHECK_EQ(read_one("; MaxProcs: 338abc\n", SWF_JOB, "1", &t, err, sizeof err), SCHED_E_FORMAT);
	/* The largest of each, and a value followed by a remark, as the archive writes them. */
	CHECK_EQ(read_one("; MaxProcs: 2147483647\n; MaxNodes: 338 (batch partition; 512 total)\n"
			  "; TimeZone: -86400\n; UnixStartTime: 253402300799\n",
			  SWF_JOB, "1", &t, err, sizeof err), 0);
	CHECK_EQ(t.hdr.max_procs, 2147483647L);
	CHECK_EQ(t.hdr.max_nodes, 338L);
	CHECK_EQ(t.hdr.tz_offset, -86400L);
	CHECK(t.hdr.unix_start == 253402300799LL);
	swf_free(&t);
	/* A header fault and a field fault: both lines are named. */
	CHECK_EQ(read_one("; MaxProcs: -2\n", SWF_RUN, "1e3", &t, err, sizeof err), SCHED_E_FORMAT);
	CHECK(strstr(err, "t.swf:1: header MaxProcs: -2 does not fit: allowed -1..2147483647; 1 more bad lines: 2") != NULL);
}

static void shortest_round_trip_printing(void)
{
	char buf[64];
	double vals[] = {12.5, 0.1, -1, 100, 1234.5678, 1e-7};
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		FILE *f = fmemopen(buf, sizeof buf, "w");
		swf_print_value(f, vals[i]);
		fclose(f);
		CHECK(strtod(buf, NULL) == vals[i]);
		CHECK(strlen(buf) <= 9);
		/* What --jobs-out writes, the reader takes back: a plain decimal (1e-7 as 0.0000001). */
		const char *end;
		double back;
		CHECK_EQ(swf_number(buf, &end, &back), SWF_NUM_OK);
		CHECK(back == vals[i] && *end == '\0');
	}
}

static const struct test tests[] = {
	{"parses_header_and_jobs", parses_header_and_jobs},
	{"cleaning_conventions", cleaning_conventions},
	{"jobs_only_reading_matches", jobs_only_reading_matches},
	{"whole_nodes", whole_nodes},
	{"sorted_by_submit", sorted_by_submit},
	{"errors_name_file_and_line", errors_name_file_and_line},
	{"gzip_members_garbage_and_damage", gzip_members_garbage_and_damage},
	{"line_length_limit", line_length_limit},
	{"numbers_plain_decimals_only", numbers_plain_decimals_only},
	{"values_that_do_not_fit_are_errors", values_that_do_not_fit_are_errors},
	{"shortest_round_trip_printing", shortest_round_trip_printing},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("swf", tests, argc, argv);
}
