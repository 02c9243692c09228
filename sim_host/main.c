/* SPDX-License-Identifier: MIT */
/* build/replay: replay an SWF trace through the core under one or more policies and report metrics. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_io.h"
#include "replay.h"
#include "report.h"
#include "swf.h"
#include "tz.h"
#include "workload.h"

static const char usage[] =
"Usage: replay [OPTIONS] TRACE\n"
"Replay a workload (a binary fixture, or an SWF trace, plain or .gz) through\n"
"the scheduling core with a simulated clock and print the literature's metrics.\n"
"\n"
"Options:\n"
"  --policy LIST      comma-separated policies: fcfs, easy, cons (alias\n"
"                     conservative); default fcfs,easy,cons, printed side by side\n"
"  --procs N          machine size; default the header's MaxProcs, else MaxNodes\n"
"  --format FMT       table (default), csv or json\n"
"  --by-month         replay each calendar month of submission as its own\n"
"                     workload, one row per month (months in the trace's local\n"
"                     time: header UnixStartTime and TimeZoneString)\n"
"  --jobs-out FILE    write the simulated schedule as SWF (one policy only):\n"
"                     field 3 wait, 4 run, 5 processors, 9 estimate used,\n"
"                     11 status (1 ended by itself, 0 killed at its estimate)\n"
"  --events-out FILE  write every decision, one per line: `T submit JOB PROCS\n"
"                     EST PRED` (PRED the guaranteed start or -), `T start JOB\n"
"                     PROCS [backfill]`, `T end JOB`, `T kill JOB`\n"
"  --capacity N       jobs the core may hold at once (default: all of them);\n"
"                     arrivals beyond it are refused and counted\n"
"  --check            run the core's invariant checker after every call (slow)\n"
"  --hash             after the report, print `hash POLICY PERIOD HEX`: the\n"
"                     64-bit hash of each schedule, as the firmware's replay\n"
"                     command computes it (docs/console.md)\n"
"\n"
"What-if knobs (applied in this order: slice, shrink, estimates):\n"
"  --months A-B       replay only calendar months A to B (1 = the month of the\n"
"                     first job, in the trace's local time; \"3\" = one month)\n"
"  --from T, --to T   replay only jobs submitted in [T, T'): seconds of trace\n"
"                     time, or a local date YYYY-MM-DD[THH:MM[:SS]]\n"
"  --shrink F         multiply every interarrival time by F > 0 (F < 1 raises\n"
"                     the load; seed 004 section 5)\n"
"  --estimates E      trace (default): the requested times; exact: the run\n"
"                     times; f=F: uniform in [r, F*r] (seed 000 section 3.3)\n"
"  --seed S           seed of the f=F draw (default 1)\n"
"  --procs N          also a knob: \"remove 128 CPUs\" style questions (seed 001)\n"
"  -h, --help         this text\n"
"\n"
"Conventions (docs/replay.md):\n"
"  processors = field 5 if > 0, else field 8\n"
"  estimate   = field 9 if > 0, else the run time (field 4); 0 s becomes 1 s\n"
"  a job holds its processors for min(run time, estimate): it is killed at\n"
"  its estimate; submit = field 2; jobs are replayed in submit order\n"
"  skipped and counted: processors < 1, run time < 0, more processors than\n"
"  the machine, submit < 0\n"
"  at one instant: jobs that end are reported first, then arrivals in trace\n"
"  order, then one scheduling pass (a job of run time 0 ends at the instant it\n"
"  starts, and its processors are offered again in a further pass)\n"
"  the core sees only processors and estimates, never the run time\n"
"\n"
"Metrics: average and max wait; average bounded slowdown (seed 000 s. 3.1,\n"
"10 s threshold); average response; expansion factor (sum of wait+run over\n"
"sum of run) overall and for 1-32, 33-64, 65-120, 121+ processors (seed 001\n"
"Exhibit 11); utilization (seed 004 s. 5.1); makespan (last end - first\n"
"submit); ARTwW and SLDwW with 60 s and 300 s bounds (seed 004).\n"
"\n"
"Exit status: 0 on success, 1 on bad input or a failed replay, 2 on bad usage.\n";

static void die_usage(const char *msg, const char *arg)
{
	fprintf(stderr, "replay: %s%s%s\nTry 'replay --help'.\n", msg, arg ? ": " : "", arg ? arg : "");
	exit(2);
}

static unsigned long parse_count(const char *opt, const char *s, unsigned long max)
{
	char *end;
	errno = 0;
	if (*s == '-' || *s == '\0')
		die_usage("expected a positive number for", opt);
	unsigned long v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0 || v > max)
		die_usage("expected a positive number for", opt);
	return v;
}

static size_t parse_policies(const char *list, enum sched_policy_id *out, size_t max)
{
	char *copy = strdup(list);
	size_t n = 0;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		enum sched_policy_id p;
		if (sched_policy_parse(tok, &p) != SCHED_OK) {
			fprintf(stderr, "replay: unknown policy '%s' (fcfs, easy, cons)\nTry 'replay --help'.\n", tok);
			free(copy);
			exit(2);
		}
		if (n == max)
			die_usage("too many policies", list);
		out[n++] = p;
	}
	free(copy);
	if (n == 0)
		die_usage("empty policy list", NULL);
	return n;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static bool header_key(const char *line, const char *key)
{
	const char *p = line + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	size_t k = strlen(key);
	return strncmp(p, key, k) == 0 && p[k] == ':';
}

static void write_jobs_out(FILE *f, const struct swf_trace *t, const struct workload *w,
			   const struct replay_job_out *out, const char *policy)
{
	for (size_t i = 0; i < t->hdr.n_lines; i++)
		if (!header_key(t->hdr.lines[i], "MaxProcs") && !header_key(t->hdr.lines[i], "MaxNodes"))
			fprintf(f, "%s\n", t->hdr.lines[i]);
	uint32_t refused = 0;
	for (size_t i = 0; i < w->n; i++)
		refused += out[i].refused;
	fprintf(f, "; MaxNodes: %u\n; MaxProcs: %u\n", w->procs, w->procs);
	fprintf(f, "; Note: simulated schedule written by replay, policy %s; fields 3 and 4 are the\n"
		   ";       simulated wait and run, 5 the processors used, 9 the estimate used, 11 is 1\n"
		   ";       (ended by itself) or 0 (killed at its estimate); %u jobs skipped by the\n"
		   ";       cleaning conventions and %u refused for capacity are not listed\n",
		policy, workload_skipped(w), refused);
	/* Trace order: map each trace line to its workload slot. */
	long *slot = malloc(t->n * sizeof *slot);
	for (size_t i = 0; i < t->n; i++)
		slot[i] = -1;
	for (size_t i = 0; i < w->n; i++)
		slot[w->jobs[i].idx] = (long)i;
	for (size_t i = 0; i < t->n; i++) {
		if (slot[i] < 0 || out[slot[i]].refused)
			continue;
		const struct wjob *j = &w->jobs[slot[i]];
		const struct replay_job_out *o = &out[slot[i]];
		double v[SWF_FIELDS];
		memcpy(v, t->jobs[i].v, sizeof v);
		v[SWF_SUBMIT] = j->submit;
		v[SWF_WAIT] = (double)(o->start - j->submit);
		v[SWF_RUN] = (double)(o->end - o->start);
		v[SWF_ALLOC_PROCS] = j->procs;
		v[SWF_REQ_TIME] = j->estimate;
		v[SWF_STATUS] = o->killed ? 0 : 1;
		for (int k = 0; k < SWF_FIELDS; k++) {
			if (k)
				fputc(' ', f);
			swf_print_value(f, v[k]);
		}
		fputc('\n', f);
	}
	free(slot);
}

/* The trace's time zone; NULL (with a message) when the header has no UnixStartTime. */
static const struct tz *trace_zone(const struct swf_trace *t, const char *path, const char *why)
{
	static struct tz zone;
	if (!t->hdr.has_unix_start) {
		fprintf(stderr, "replay: %s: %s needs UnixStartTime in the header\n", path, why);
		return NULL;
	}
	const char *name = t->hdr.tz_name[0] ? t->hdr.tz_name : "UTC";
	long fallback = t->hdr.has_tz_offset ? t->hdr.tz_offset : 0;
	if (!tz_lookup(name, fallback, &zone))
		fprintf(stderr, "replay: %s: time zone '%s' unknown; using the fixed offset %ld s\n",
			path, name, fallback);
	return &zone;
}

/* The calendar month of every workload job (by its trace submit time), as year * 12 + month - 1. */
static int *month_keys(const struct swf_trace *t, const struct workload *w, const struct tz *zone)
{
	int *keys = malloc(w->n * sizeof *keys);
	for (size_t i = 0; keys && i < w->n; i++) {
		int y, m;
		tz_year_month(zone, t->hdr.unix_start + w->jobs[i].trace_submit, &y, &m);
		keys[i] = y * 12 + m - 1;
	}
	return keys;
}

/* Parse "A-B" or "A" (months, 1-based) into [first, last]. */
static bool parse_months(const char *s, long *a, long *b)
{
	char *end;
	errno = 0;
	*a = strtol(s, &end, 10);
	if (end == s || *a < 1 || errno)
		return false;
	if (*end == '\0') {
		*b = *a;
		return true;
	}
	if (*end != '-')
		return false;
	const char *t = end + 1;
	*b = strtol(t, &end, 10);
	return end != t && *end == '\0' && *b >= *a && errno == 0;
}

/*
 * A --from/--to value: plain seconds of trace time, or a local date
 * YYYY-MM-DD[THH:MM[:SS]] (which needs the trace's epoch and zone).
 */
static bool parse_when(const char *s, const struct swf_trace *t, const char *path, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (end != s && *end == '\0' && errno == 0) {
		*out = v;
		return true;
	}
	int y, mo, d, h = 0, mi = 0, sec = 0, n = 0;
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || mo < 1 || mo > 12 || d < 1 || d > 31)
		return false;
	if (s[n] == 'T') {
		int m2 = 0;
		if (sscanf(s + n, "T%2d:%2d%n", &h, &mi, &m2) != 2)
			return false;
		n += m2;
		if (s[n] == ':') {
			if (sscanf(s + n, ":%2d%n", &sec, &m2) != 1)
				return false;
			n += m2;
		}
	}
	if (s[n] != '\0' || h > 23 || mi > 59 || sec > 60)
		return false;
	const struct tz *zone = trace_zone(t, path, "a date in --from/--to");
	if (zone == NULL)
		exit(1);
	int64_t local = tz_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	int64_t utc = local - tz_offset_at(zone, local - zone->std_offset);
	*out = utc - t->hdr.unix_start;
	return true;
}

/* Earliest job-line submit time of the trace (month 1 of --months). */
static double first_submit(const struct swf_trace *t)
{
	double m = t->jobs[0].v[SWF_SUBMIT];
	for (size_t i = 1; i < t->n; i++)
		if (t->jobs[i].v[SWF_SUBMIT] < m)
			m = t->jobs[i].v[SWF_SUBMIT];
	return m;
}

int main(int argc, char **argv)
{
	enum sched_policy_id policies[8];
	size_t n_policies = parse_policies("fcfs,easy,cons", policies, 8);
	unsigned long procs_opt = 0, capacity = 0;
	enum report_format fmt = REPORT_TABLE;
	bool by_month = false, check = false, hash = false;
	const char *jobs_out = NULL, *events_out = NULL;
	const char *months = NULL, *from = NULL, *to = NULL;
	struct workload_opts wopts;
	workload_opts_default(&wopts);

	static const struct option longopts[] = {
		{"policy", required_argument, 0, 'p'}, {"procs", required_argument, 0, 'n'},
		{"format", required_argument, 0, 'f'}, {"by-month", no_argument, 0, 'm'},
		{"jobs-out", required_argument, 0, 'o'}, {"events-out", required_argument, 0, 'e'},
		{"capacity", required_argument, 0, 'c'}, {"check", no_argument, 0, 'k'},
		{"estimates", required_argument, 0, 'E'}, {"seed", required_argument, 0, 'S'},
		{"shrink", required_argument, 0, 'F'}, {"months", required_argument, 0, 'M'},
		{"from", required_argument, 0, 'A'}, {"to", required_argument, 0, 'B'},
		{"hash", no_argument, 0, 'H'},
		{"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
	};
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'p': n_policies = parse_policies(optarg, policies, 8); break;
		case 'n': procs_opt = parse_count("--procs", optarg, SCHED_NOW_LIMIT - 1); break;
		case 'c': capacity = parse_count("--capacity", optarg, 1u << 30); break;
		case 'f':
			if (strcmp(optarg, "table") == 0) fmt = REPORT_TABLE;
			else if (strcmp(optarg, "csv") == 0) fmt = REPORT_CSV;
			else if (strcmp(optarg, "json") == 0) fmt = REPORT_JSON;
			else die_usage("unknown format (table, csv, json)", optarg);
			break;
		case 'm': by_month = true; break;
		case 'o': jobs_out = optarg; break;
		case 'e': events_out = optarg; break;
		case 'k': check = true; break;
		case 'H': hash = true; break;
		case 'E':
			if (strcmp(optarg, "trace") == 0) {
				wopts.estimates = EST_TRACE;
			} else if (strcmp(optarg, "exact") == 0) {
				wopts.estimates = EST_EXACT;
			} else {
				char *end;
				wopts.estimates = EST_FACTOR;
				wopts.factor = strncmp(optarg, "f=", 2) == 0 ? strtod(optarg + 2, &end) : 0;
				if (strncmp(optarg, "f=", 2) != 0 || *end != '\0' || !(wopts.factor >= 1) ||
				    wopts.factor > 1e6)
					die_usage("--estimates takes trace, exact or f=F with F >= 1", optarg);
			}
			break;
		case 'S': wopts.seed = parse_count("--seed", optarg, ULONG_MAX); break;
		case 'F': {
			char *end;
			wopts.shrink = strtod(optarg, &end);
			if (*end != '\0' || !(wopts.shrink > 0) || wopts.shrink > 1000)
				die_usage("--shrink takes a factor F > 0", optarg);
			break;
		}
		case 'M': months = optarg; break;
		case 'A': from = optarg; break;
		case 'B': to = optarg; break;
		case 'h': fputs(usage, stdout); return 0;
		default:
			die_usage(optopt ? "option needs an argument" : "unknown option", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		die_usage(optind == argc ? "missing TRACE" : "more than one TRACE", NULL);
	const char *path = argv[optind];
	if ((jobs_out || events_out) && n_policies != 1)
		die_usage("--jobs-out and --events-out need exactly one --policy", NULL);
	long month_a = 0, month_b = 0;
	if (months && (from || to))
		die_usage("--months and --from/--to exclude each other", NULL);
	if (months && !parse_months(months, &month_a, &month_b))
		die_usage("--months takes A-B (1-based months, A <= B) or A", months);

	char err[512];
	struct swf_trace trace;
	if (trace_load(path, &trace, err, sizeof err) != 0) {
		fprintf(stderr, "replay: %s\n", err);
		return 1;
	}
	if (from && !parse_when(from, &trace, path, &wopts.from))
		die_usage("--from takes seconds or YYYY-MM-DD[THH:MM[:SS]]", from);
	if (to && !parse_when(to, &trace, path, &wopts.to))
		die_usage("--to takes seconds or YYYY-MM-DD[THH:MM[:SS]]", to);
	const struct tz *zone = NULL;
	if (months || by_month) {
		zone = trace_zone(&trace, path, months ? "--months" : "--by-month");
		if (zone == NULL) {
			swf_free(&trace);
			return 1;
		}
	}
	if (months) {
		int y, m;
		tz_year_month(zone, trace.hdr.unix_start + (int64_t)first_submit(&trace), &y, &m);
		int first = y * 12 + m - 1 + (int)month_a - 1, last = y * 12 + m - 1 + (int)month_b;
		wopts.from = tz_month_start(zone, first / 12, first % 12 + 1) - trace.hdr.unix_start;
		wopts.to = tz_month_start(zone, last / 12, last % 12 + 1) - trace.hdr.unix_start;
	}
	long procs = procs_opt ? (long)procs_opt : swf_machine_size(&trace.hdr);
	if (procs <= 0) {
		fprintf(stderr, "replay: %s: no MaxProcs or MaxNodes in the header; give --procs\n", path);
		swf_free(&trace);
		return 1;
	}
	struct workload w;
	if (workload_build(&trace, (sched_procs_t)procs, &wopts, &w, err, sizeof err) != 0) {
		fprintf(stderr, "replay: %s: %s\n", path, err);
		swf_free(&trace);
		return 1;
	}
	if (trace.non_integral)
		fprintf(stderr, "replay: %s: %u values with a fraction in integer fields were truncated\n",
			path, trace.non_integral);

	FILE *events = NULL;
	if (events_out && (events = fopen(events_out, "w")) == NULL) {
		fprintf(stderr, "replay: %s: %s\n", events_out, strerror(errno));
		workload_free(&w);
		swf_free(&trace);
		return 1;
	}

	int *keys = by_month ? month_keys(&trace, &w, zone) : NULL;
	/* Periods: the whole trace, or each month in order (jobs are sorted by submit). */
	size_t n_periods = 0;
	size_t *starts = malloc((w.n + 1) * sizeof *starts);
	for (size_t i = 0; i < w.n; i++)
		if (i == 0 || (keys && keys[i] != keys[i - 1]))
			starts[n_periods++] = i;
	starts[n_periods] = w.n;

	long *names = malloc(w.n * sizeof *names);
	for (size_t i = 0; i < w.n; i++)
		names[i] = (long)trace.jobs[w.jobs[i].idx].v[SWF_JOB];

	struct report_row *rows = calloc(n_periods * n_policies, sizeof *rows);
	uint64_t *hashes = calloc(n_periods * n_policies, sizeof *hashes);
	struct replay_job_out *all_out = calloc(w.n, sizeof *all_out);
	int status = 0;
	for (size_t per = 0; per < n_periods && status == 0; per++) {
		size_t a = starts[per], b = starts[per + 1];
		char period[16] = "all";
		if (keys)
			snprintf(period, sizeof period, "%04d-%02d", keys[a] / 12, keys[a] % 12 + 1);
		/* Months may repeat only if the trace is not sorted, which the workload prevents. */
		for (size_t p = 0; p < n_policies; p++) {
			struct replay_opts o = {
				.policy = policies[p], .procs = (sched_procs_t)procs,
				.capacity = (uint32_t)capacity, .check = check, .events = events,
				.names = names + a,
			};
			struct replay_result r;
			if (replay_run(w.jobs + a, b - a, &o, &r, err, sizeof err) != 0) {
				fprintf(stderr, "replay: %s: %s\n", path, err);
				status = 1;
				break;
			}
			uint32_t refused = 0;
			for (size_t i = 0; i < b - a; i++)
				refused += r.out[i].refused;
			report_row_fill(&rows[per * n_policies + p], sched_policy_name(policies[p]), period,
					&r.metrics, &r.counters, (sched_procs_t)procs,
					keys ? 0 : workload_skipped(&w), refused, r.max_jobs_in_system);
			hashes[per * n_policies + p] = r.hash;
			if (jobs_out)
				memcpy(all_out + a, r.out, (b - a) * sizeof *r.out);
			replay_result_free(&r);
		}
	}
	if (status == 0)
		report_print(stdout, fmt, base_name(path), (sched_procs_t)procs, workload_skipped(&w),
			     rows, n_periods * n_policies, n_policies, by_month);
	if (status == 0 && hash)
		for (size_t i = 0; i < n_periods * n_policies; i++)
			printf("hash %s %s %016llx\n", rows[i].policy, rows[i].period,
			       (unsigned long long)hashes[i]);
	if (status == 0 && jobs_out) {
		FILE *f = fopen(jobs_out, "w");
		if (f == NULL) {
			fprintf(stderr, "replay: %s: %s\n", jobs_out, strerror(errno));
			status = 1;
		} else {
			write_jobs_out(f, &trace, &w, all_out, sched_policy_name(policies[0]));
			if (fclose(f) != 0) {
				fprintf(stderr, "replay: %s: write failed\n", jobs_out);
				status = 1;
			}
		}
	}
	if (events && fclose(events) != 0) {
		fprintf(stderr, "replay: %s: write failed\n", events_out);
		status = 1;
	}
	free(all_out);
	free(hashes);
	free(rows);
	free(names);
	free(starts);
	free(keys);
	workload_free(&w);
	swf_free(&trace);
	return status;
}
