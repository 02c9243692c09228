/* SPDX-License-Identifier: MIT */
/* build/fixinfo: the trace statistics of seed 004 Table 2 for fixtures or SWF traces, side by side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_io.h"
#include "trace_stats.h"

static const char usage[] =
"Usage: fixinfo [--csv] FILE...\n"
"Print the statistics of Streit 2002, Table 2 for each fixture or SWF trace\n"
"(plain or .gz), one column per file: number of jobs, maximum job width,\n"
"machine width, average requested resources, estimated and actual run time\n"
"(avg/min/max), jobs with actual > estimated run time (count and %% of all\n"
"jobs), interarrival time (avg/min/max) and a Weibull fit of it.\n"
"Every job line counts (no cleaning); a width is field 5, else field 8; run\n"
"and estimate statistics skip unknown (-1) values, and a statistic with no\n"
"value to count (a trace without estimates, field 9 = -1 throughout) prints\n"
"\"-\", not a number; interarrival times are\n"
"between consecutive submit times in submit order; the share of 0 s gaps is\n"
"printed apart (Streit 2002: the likelihood of interarrival time) and the\n"
"Weibull fit is by maximum likelihood over the positive gaps.\n";

struct col {
	const char *name;
	struct trace_stats st;
};

static double avg(const struct minmax *m)
{
	return m->n ? m->sum / (double)m->n : 0;
}

/*
 * One cell that may have nothing behind it: "-" when no job gave the value
 * (a trace without estimates), so no one reads a 0 s average or a -1 s
 * minimum as a measurement. "-" is also what a CSV reader sees.
 */
static const char *cell(char *buf, size_t size, bool has, int decimals, double v)
{
	if (!has)
		return "-";
	snprintf(buf, size, "%.*f", decimals, v);
	return buf;
}

int main(int argc, char **argv)
{
	int first = 1;
	bool csv = false;
	if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		printf(usage);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "--csv") == 0) {
		csv = true;
		first = 2;
	}
	if (first >= argc) {
		fprintf(stderr, "fixinfo: expected at least one FILE\n");
		fprintf(stderr, usage);
		return 2;
	}
	int n = argc - first;
	struct col *c = calloc((size_t)n, sizeof *c);
	for (int i = 0; i < n; i++) {
		const char *path = argv[first + i];
		char err[512];
		struct swf_trace t;
		if (trace_load(path, false, &t, err, sizeof err) != 0) {
			fprintf(stderr, "fixinfo: %s\n", err);
			free(c);
			return 1;
		}
		const char *slash = strrchr(path, '/');
		c[i].name = slash ? slash + 1 : path;
		trace_stats(&t, &c[i].st);
		swf_free(&t);
	}
#define ROW(label, fmt, ...)                                   \
	do {                                                   \
		printf(csv ? "%s" : "%-32s", label);           \
		for (int i = 0; i < n; i++) {                  \
			const struct trace_stats *s = &c[i].st; \
			(void)s;                               \
			printf(csv ? ",%" fmt : "  %22" fmt, __VA_ARGS__); \
		}                                              \
		putchar('\n');                                 \
	} while (0)
	ROW("trace", "s", c[i].name);
	ROW("number of jobs", "zu", s->jobs);
	ROW("maximum job width", "ld", s->max_width);
	ROW("width of machine", "ld", s->machine);
	ROW("average requested resources", ".2f", avg(&s->width));
	char b[64];
	ROW("estimated runtime avg (s)", "s", cell(b, sizeof b, s->estimate.n, 0, avg(&s->estimate)));
	ROW("estimated runtime min (s)", "s", cell(b, sizeof b, s->estimate.n, 0, s->estimate.min));
	ROW("estimated runtime max (s)", "s", cell(b, sizeof b, s->estimate.n, 0, s->estimate.max));
	ROW("actual runtime avg (s)", "s", cell(b, sizeof b, s->run.n, 0, avg(&s->run)));
	ROW("actual runtime min (s)", "s", cell(b, sizeof b, s->run.n, 0, s->run.min));
	ROW("actual runtime max (s)", "s", cell(b, sizeof b, s->run.n, 0, s->run.max));
	/* Without estimates no job can overrun one: a count of 0 would claim they were all kept. */
	ROW("jobs with actual > estimated", "s", cell(b, sizeof b, s->estimate.n, 0, (double)s->over_estimate));
	ROW("  (% of all jobs)", "s", cell(b, sizeof b, s->estimate.n && s->jobs, 2,
	                                   s->jobs ? 100.0 * (double)s->over_estimate / (double)s->jobs : 0));
	ROW("interarrival time avg (s)", "s", cell(b, sizeof b, s->interarrival.n, 0, avg(&s->interarrival)));
	ROW("interarrival time min (s)", "s", cell(b, sizeof b, s->interarrival.n, 0, s->interarrival.min));
	ROW("interarrival time max (s)", "s", cell(b, sizeof b, s->interarrival.n, 0, s->interarrival.max));
	ROW("share of 0 s interarrivals", ".7f", s->zero_gaps);
	ROW("Weibull alpha", ".3f", s->weibull_alpha);
	ROW("Weibull beta (s)", ".1f", s->weibull_beta);
	free(c);
	return 0;
}
