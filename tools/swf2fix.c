/* SPDX-License-Identifier: MIT */
/* build/swf2fix: convert an SWF trace (plain or .gz) to a compact binary fixture, losslessly for the kept fields. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_io.h"
#include "trace_stats.h"

static const char usage[] =
"Usage: swf2fix IN.swf[.gz] OUT.fix\n"
"Convert an SWF trace to a compact binary fixture (docs/fixture-format.md).\n"
"Every job line is kept as it is in the trace, -1 fields and submit times\n"
"that go backwards included: the replayer applies its cleaning conventions\n"
"when it replays. Kept fields: 1 job, 2 submit, 4 run time, 5 and 8\n"
"processors, 9 requested time, 11 status, 12 user, 13 group, 15 queue,\n"
"16 partition; a field that is -1 for every job takes no space.\n"
"Reports what it finds odd on stderr; a line it cannot parse, a number that\n"
"is not a plain decimal or does not fit in 32 bits, a header key out of its\n"
"range is an error (with its line and field; the replayer's rule).\n"
"Exit status: 0 done, 1 bad input, 2 bad usage.\n";

static const int kept[] = {SWF_JOB, SWF_SUBMIT, SWF_RUN, SWF_ALLOC_PROCS, SWF_REQ_PROCS,
			   SWF_REQ_TIME, SWF_STATUS, SWF_USER, SWF_GROUP, SWF_QUEUE, SWF_PARTITION};

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

int main(int argc, char **argv)
{
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc != 3 || argv[1][0] == '-' || argv[2][0] == '-') {
		fprintf(stderr, "swf2fix: expected IN and OUT\n%s", usage);
		return 2;
	}
	const char *in = argv[1], *out = argv[2];
	char err[512];
	struct swf_trace t;
	if (swf_read(in, &t, err, sizeof err) != 0) {
		fprintf(stderr, "swf2fix: %s\n", err);
		return 1;
	}
	/* A value that does not fit was an error of the reader (swf.h's one rule); odd but representable things are reported. */
	size_t fractions = 0, first_fraction = 0, no_procs = 0, no_run = 0, dup = 0;
	for (size_t i = 0; i < t.n; i++) {
		const struct swf_job *j = &t.text[i];
		for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++) {
			double v = j->v[kept[k]];
			if (v != floor(v) && fractions++ == 0)
				first_fraction = j->line;
		}
		if (job_width(&t.jobs[i]) < 1)
			no_procs++;
		if (j->v[SWF_RUN] < 0)
			no_run++;
		if (i > 0 && j->v[SWF_JOB] == t.text[i - 1].v[SWF_JOB])
			dup++;
	}
	struct trace_stats st;
	trace_stats(&t, &st);
	fprintf(stderr, "swf2fix: %s: %zu job lines\n", in, t.n);
	if (t.trailing)
		fprintf(stderr, "  warning: %llu bytes after the end of the gzip data, ignored\n",
			(unsigned long long)t.trailing);
	if (t.hdr.max_records >= 0 && (size_t)t.hdr.max_records != t.n)
		fprintf(stderr, "  header MaxRecords %ld differs from the %zu job lines (it describes the original log)\n",
			t.hdr.max_records, t.n);
	if (swf_machine_size(&t.hdr) < 0)
		fprintf(stderr, "  no MaxProcs or MaxNodes in the header: replays will need --procs\n");
	if (fractions)
		fprintf(stderr, "  %zu values with a fraction in kept fields, truncated (first on line %zu)\n",
			fractions, first_fraction);
	if (t.submit_backwards)
		fprintf(stderr, "  %u submit times go backwards (kept as they are)\n", t.submit_backwards);
	if (no_procs)
		fprintf(stderr, "  %zu jobs with no processor count in field 5 or 8\n", no_procs);
	if (no_run)
		fprintf(stderr, "  %zu jobs with an unknown (-1) run time\n", no_run);
	if (st.over_estimate)
		fprintf(stderr, "  %zu jobs ran longer than they requested\n", st.over_estimate);
	if (dup)
		fprintf(stderr, "  %zu job numbers repeat the previous line's\n", dup);
	size_t bytes;
	if (fixture_save(out, &t, base(in), &bytes, err, sizeof err) != 0) {
		fprintf(stderr, "swf2fix: %s\n", err);
		swf_free(&t);
		return 1;
	}
	fprintf(stderr, "swf2fix: wrote %s: %zu jobs in %zu bytes, %.2f bytes per job\n", out, t.n, bytes,
		t.n ? (double)bytes / (double)t.n : 0.0);
	swf_free(&t);
	return 0;
}
