/* SPDX-License-Identifier: MIT */
/* build/replay: replay an SWF trace through the core under one or more policies and report metrics. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_io.h"
#include "gang_replay.h"
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
"  --policy LIST      comma-separated policies, printed side by side: fcfs,\n"
"                     easy, cons (alias conservative), relaxed, slack,\n"
"                     fcfs-replan, sjf, ljf, dynp-basic, dynp, gang;\n"
"                     default fcfs,easy,cons\n"
"  --procs N          machine size; default the header's MaxProcs, else MaxNodes\n"
"                     (with a one-partition --site: that partition's size)\n"
"  --format FMT       table (default), csv or json\n"
"  --by-month         replay each calendar month of submission as its own\n"
"                     workload, one row per month (months in the trace's local\n"
"                     time: header UnixStartTime and TimeZoneString)\n"
"  --jobs-out FILE    write the simulated schedule as SWF (one policy only):\n"
"                     field 3 wait, 4 run, 5 processors, 9 estimate used,\n"
"                     11 status (1 ended by itself, 0 killed at its estimate);\n"
"                     under gang, 3 is the time until the first quantum and 4\n"
"                     the time from then until the end\n"
"  --events-out FILE  write every decision, one per line: `T submit JOB PROCS\n"
"                     EST PRED` (PRED the guaranteed start or -), `T start JOB\n"
"                     PROCS [backfill]`, `T end JOB`, `T kill JOB`\n"
"  --capacity N       jobs the core may hold at once (default: all of them);\n"
"                     arrivals beyond it are refused and counted\n"
"  --check            run the core's invariant checker after every call (slow)\n"
"  --events-plans     with --events-out: also `T plan JOB START` each time a\n"
"                     waiting job's reservation moves (planning policies);\n"
"                     under gang, each quantum's context switch list:\n"
"                     `T switch SLOT JOB:FIRST:COUNT ...` (processors\n"
"                     FIRST..FIRST+COUNT-1 run JOB in that quantum)\n"
"  --hash             after the report, print `hash POLICY PERIOD HEX`: the\n"
"                     64-bit hash of each schedule, as the firmware's replay\n"
"                     command computes it (docs/console.md)\n"
"\n"
"Relaxed backfilling (seed 001 section 2.1, docs/priorities.md):\n"
"  --tolerance T      delay a backfill may cause to any job of its queue's\n"
"                     priority or higher, seconds (or 30m, 2h); default 0,\n"
"                     which is conservative exactly\n"
"  --tolerance-factor F  plus F times the delayed job's estimate (0 <= F <= 1000)\n"
"\n"
"Slack-based backfilling (seed 003 section 2, docs/priorities.md):\n"
"  --sf F             slack factor SF (default 3)\n"
"  --awt S            average wait time AWT, seconds (default 2401)\n"
"  --alpha-u A, --alpha-t A, --alpha-p A, --alpha-f A\n"
"                     weights in [0, 1], to 0.001 (default 1 each)\n"
"  --heuristic LIST   ast (default), aat, du, dc, dp; several give one slack\n"
"                     column each (slack-ast, slack-aat, ...)\n"
"  --early-end M      when a job ends before its estimate: search (default,\n"
"                     the removal search of section 2.1) or compress (plain\n"
"                     compression; the seed's Tick leaves this case open)\n"
"  --hi-pri-every K   every K-th job of each replayed period gets user and\n"
"                     political priority 1, the others 0 (seed 003 s. 3.3);\n"
"                     adds hi-pri and lo-pri average waits to the report\n"
"  --scratch N        jobs the planning scratch can take (relaxed, slack);\n"
"                     default the capacity; beyond it a job is planned as\n"
"                     conservative would and counted as a scratch fallback\n"
"\n"
"The dynP family (seed 004, docs/dynp.md): fcfs-replan, sjf, ljf plan in one\n"
"order and place every waiting job again at each job end; dynp-basic and\n"
"dynp switch the order at run time:\n"
"  --bounds L,U       dynp-basic: average estimate of the waiting jobs at most\n"
"                     L gives SJF, at most U FCFS, above LJF (default 7200,9000)\n"
"  --decider LIST     dynp: advanced (default) and/or simple (seed 004 Table 1)\n"
"  --quality LIST     dynp: artww (default), art and/or ms: how the virtual\n"
"                     schedules are scored; several deciders or qualities give\n"
"                     one column each (dynp-adv-artww, dynp-simple-ms, ...)\n"
"\n"
"Gang scheduling (seed 002, docs/gang.md): --policy gang time-shares the\n"
"machine (a power of two) in slots of a quantum each; estimates are not used\n"
"(a job runs min(run, estimate) rounded up to whole quanta):\n"
"  --scheme LIST      bc, br, brms, brmms (default brmms); several give one\n"
"                     column each (gang-bc, ...)\n"
"  --quantum Q        seconds per time slot (default 5)\n"
"  --max-slots N      time slots at most (default 1024); arrivals beyond wait\n"
"\n"
"Site (docs/site-format.md):\n"
"  --site FILE        partitions, queues with limits, and how jobs map to\n"
"                     them (SWF fields 15 and 16, or routes by size and time);\n"
"                     adds per-queue rows to the report\n"
"  --partition NAME=N resize one partition of the site (repeatable)\n"
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
"  the machine (or than its queue's partitions), submit < 0, no site queue\n"
"  at one instant: jobs that end are reported first, then arrivals in trace\n"
"  order, then one scheduling pass (a job of run time 0 ends at the instant it\n"
"  starts, and its processors are offered again in a further pass)\n"
"  the core sees only processors and estimates, never the run time\n"
"\n"
"Metrics: average and max wait; average bounded slowdown (seed 000 s. 3.1,\n"
"10 s threshold); average response; expansion factor (sum of wait+run over\n"
"sum of run) overall and for 1-32, 33-64, 65-120, 121+ processors (seed 001\n"
"Exhibit 11); utilization (seed 004 s. 5.1); makespan (last end - first\n"
"submit); ARTwW and SLDwW with 60 s and 300 s bounds (seed 004); loss of\n"
"capacity (seed 004 s. 5.1: idle processors while jobs wait, over\n"
"processors x makespan).\n"
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

/* --policy gang: time sharing (seed 002), a module beside the space-sharing policies. */
#define POLICY_GANG SCHED_POLICY_COUNT

static size_t parse_policies(const char *list, enum sched_policy_id *out, size_t max)
{
	char *copy = strdup(list);
	size_t n = 0;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		enum sched_policy_id p;
		if (strcmp(tok, "gang") == 0) {
			p = POLICY_GANG; /* the gang module is not a policy of struct sched */
		} else if (sched_policy_parse(tok, &p) != SCHED_OK) {
			fprintf(stderr, "replay: unknown policy '%s' (fcfs, easy, cons, relaxed, slack, fcfs-replan, sjf,\n"
					"ljf, dynp-basic, dynp, gang)\n"
					"Try 'replay --help'.\n", tok);
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

static size_t parse_heuristics(const char *list, enum sched_heuristic *out, size_t max)
{
	char *copy = strdup(list);
	size_t n = 0;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		enum sched_heuristic h;
		if (sched_heuristic_parse(tok, &h) != SCHED_OK) {
			fprintf(stderr, "replay: unknown heuristic '%s' (ast, aat, du, dc, dp)\n"
					"Try 'replay --help'.\n", tok);
			free(copy);
			exit(2);
		}
		if (n == max)
			die_usage("too many heuristics", list);
		out[n++] = h;
	}
	free(copy);
	if (n == 0)
		die_usage("empty heuristic list", NULL);
	return n;
}

/* A number in [0, max] with up to three decimals, as thousandths. */
static uint32_t parse_milli(const char *opt, const char *s, double max)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !(v >= 0 && v <= max)) {
		char msg[96];
		snprintf(msg, sizeof msg, "%s takes a number from 0 to %g", opt, max);
		die_usage(msg, s);
	}
	return (uint32_t)(v * 1000 + 0.5);
}

/* Seconds, or a duration with a unit: 90, 90s, 30m, 2h, 1d. */
static sched_time_t parse_seconds(const char *opt, const char *s)
{
	char *end;
	errno = 0;
	unsigned long long v = (*s >= '0' && *s <= '9') ? strtoull(s, &end, 10) : 0;
	bool ok = *s >= '0' && *s <= '9' && errno == 0;
	if (ok && *end != '\0') {
		unsigned long long unit = end[1] != '\0' ? 0 : *end == 's' ? 1 : *end == 'm' ? 60 : *end == 'h' ? 3600
								: *end == 'd' ? 86400 : 0;
		ok = unit != 0 && v <= ULLONG_MAX / unit;
		v *= unit;
	}
	if (!ok || v >= SCHED_NOW_LIMIT)
		die_usage(opt, s);
	return (sched_time_t)v;
}

/* One column of the report: a policy, and for slack its heuristic. */
struct run_spec {
	enum sched_policy_id policy;  /* or POLICY_GANG */
	enum sched_gang_scheme scheme;
	enum sched_heuristic heuristic;
	enum sched_decider decider;
	enum sched_quality quality;
	char name[24];
};

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
		const struct sched_replay_job *j = &w->jobs[slot[i]].j;
		const struct replay_job_out *o = &out[slot[i]];
		double v[SWF_FIELDS];
		swf_job_values(t, i, v);
		v[SWF_SUBMIT] = j->submit;
		v[SWF_WAIT] = (double)(o->start - j->submit);
		v[SWF_RUN] = (double)(o->end - o->start);
		v[SWF_ALLOC_PROCS] = j->procs;
		v[SWF_REQ_TIME] = j->estimate;
		v[SWF_STATUS] = o->killed ? 0 : 1;
		swf_print_job(f, v);
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
	double m = t->jobs[0].submit;
	for (size_t i = 1; i < t->n; i++)
		if (t->jobs[i].submit < m)
			m = t->jobs[i].submit;
	return m;
}

/* Waits and expansion factor of a subset of a period's jobs, from the replay's per-job output. */
struct subset {
	uint32_t jobs, refused;
	uint64_t wait, run;
	sched_time_t max_wait;
};

static void subset_add(struct subset *x, const struct replay_job_out *o)
{
	if (o->refused) {
		x->refused++;
		return;
	}
	x->jobs++;
	x->wait += o->start - o->submit;
	x->run += o->end - o->start;
	if (o->start - o->submit > x->max_wait)
		x->max_wait = o->start - o->submit;
}

static void subset_rows(struct report_row *row, const char *label, const char *key, const struct subset *x)
{
	char l[64], k[64];
	snprintf(l, sizeof l, "%s jobs", label);
	snprintf(k, sizeof k, "%s_jobs", key);
	report_row_extra(row, l, k, 0, x->jobs);
	snprintf(l, sizeof l, "%s avg wait (s)", label);
	snprintf(k, sizeof k, "%s_avg_wait", key);
	report_row_extra(row, l, k, 1, x->jobs ? (double)x->wait / x->jobs : NAN);
	snprintf(l, sizeof l, "%s EF", label);
	snprintf(k, sizeof k, "%s_ef", key);
	report_row_extra(row, l, k, 3, x->run ? (double)(x->wait + x->run) / (double)x->run : NAN);
}

/* Seed 002 section 4.3's statistics (NaN for a column that is not gang scheduling). */
static void gang_rows(struct report_row *row, const struct gang_stats *g)
{
	double nan = NAN;
	report_row_extra(row, "processor active ratio r_a", "gang_active_ratio", 3, g ? g->active_ratio : nan);
	report_row_extra(row, "largest slots n_l", "gang_max_slots", 0, g ? g->max_slots : nan);
	report_row_extra(row, "average slots n_a", "gang_avg_slots", 2, g ? g->avg_slots : nan);
	double all = 0;
	uint32_t n = 0;
	for (int k = 0; g && k < 3; k++) {
		all += g->turn_sum[k];
		n += g->turn_n[k];
	}
	report_row_extra(row, "turnaround t_ta (slots)", "gang_t_ta", 2, g && n ? all / n : nan);
	static const char *const lab[3] = {"  small 1-12 t_sa", "  medium 13-60 t_ma", "  large 61+ t_la"};
	static const char *const key[3] = {"gang_t_sa", "gang_t_ma", "gang_t_la"};
	for (int k = 0; k < 3; k++)
		report_row_extra(row, lab[k], key[k], 2, g && g->turn_n[k] ? g->turn_sum[k] / g->turn_n[k] : nan);
	report_row_extra(row, "estimated load rho", "gang_rho", 3, g ? g->rho : nan);
	report_row_extra(row, "avg until first quantum (s)", "gang_first_wait", 1, g ? g->avg_first : nan);
	report_row_extra(row, "quanta", "gang_quanta", 0, g ? (double)g->quanta : nan);
	report_row_extra(row, "waited for a slot", "gang_queued", 0, g ? g->queued : nan);
	report_row_extra(row, "legal shifts (re-packing)", "gang_repacks", 0, g ? g->repacks : nan);
	report_row_extra(row, "extra slots given", "gang_extra_slots", 0, g ? g->extra_slots : nan);
}

/* The counters of seed 004 Tables 4 to 6 for one replay under the dynP family. */
static void dynp_rows(struct report_row *row, const struct sched_dynp_stats *d, bool deciding)
{
	static const char *const orders[SCHED_ORDER_COUNT] = {"FCFS", "SJF", "LJF"};
	char label[64], key[64];
	for (int o = 0; o < SCHED_ORDER_COUNT; o++) {
		snprintf(label, sizeof label, "jobs started with %s", orders[o]);
		snprintf(key, sizeof key, "started_%s", sched_order_name((enum sched_order)o));
		report_row_extra(row, label, key, 0, d->started[o]);
	}
	if (!deciding)
		return;
	double calls = d->calls;
	report_row_extra(row, "decider calls", "decider_calls", 0, calls);
	for (int o = 0; o < SCHED_ORDER_COUNT; o++) {
		snprintf(label, sizeof label, "switches to %s (%%)", orders[o]);
		snprintf(key, sizeof key, "switches_%s_pct", sched_order_name((enum sched_order)o));
		report_row_extra(row, label, key, 2, calls ? 100.0 * d->switches[o] / calls : NAN);
	}
	report_row_extra(row, "same policy (%)", "same_pct", 2, calls ? 100.0 * d->same / calls : NAN);
	report_row_extra(row, "avg backlog at decider", "avg_backlog", 2, calls ? (double)d->backlog / calls : NAN);
	/* Table 6's rows: conditions Table 1 gives twice are counted together, as there. */
	static const struct {
		const char *label, *key;
		enum sched_dynp_case a, b;
	} rows[] = {
		{"case 1", "case_1", SCHED_CASE_1, SCHED_CASE_COUNT},
		{"cases 2 & 7", "case_2_7", SCHED_CASE_2, SCHED_CASE_7},
		{"cases 3 & 9", "case_3_9", SCHED_CASE_3, SCHED_CASE_9},
		{"cases 4b & 5", "case_4b_5", SCHED_CASE_4B, SCHED_CASE_COUNT},
		{"case 4a", "case_4a", SCHED_CASE_4A, SCHED_CASE_COUNT},
		{"case 4c", "case_4c", SCHED_CASE_4C, SCHED_CASE_COUNT},
		{"case 6a", "case_6a", SCHED_CASE_6A, SCHED_CASE_COUNT},
		{"case 6b", "case_6b", SCHED_CASE_6B, SCHED_CASE_COUNT},
		{"case 6c", "case_6c", SCHED_CASE_6C, SCHED_CASE_COUNT},
		{"case 8a", "case_8a", SCHED_CASE_8A, SCHED_CASE_COUNT},
		{"case 8b", "case_8b", SCHED_CASE_8B, SCHED_CASE_COUNT},
		{"case 8c", "case_8c", SCHED_CASE_8C, SCHED_CASE_COUNT},
		{"case 10a", "case_10a", SCHED_CASE_10A, SCHED_CASE_COUNT},
		{"case 10b", "case_10b", SCHED_CASE_10B, SCHED_CASE_COUNT},
		{"case 10c", "case_10c", SCHED_CASE_10C, SCHED_CASE_COUNT},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		uint32_t v = d->cases[rows[i].a] + (rows[i].b < SCHED_CASE_COUNT ? d->cases[rows[i].b] : 0);
		report_row_extra(row, rows[i].label, rows[i].key, 0, v);
	}
	report_row_extra(row, "other decider differs", "decider_differs", 0, d->differs);
}

struct opts {
	sched_time_t quantum;
	uint32_t max_slots;
	struct run_spec specs[16];
	size_t n_specs;
	unsigned long procs, capacity, scratch, hi_every;
	enum report_format fmt;
	bool by_month, check, hash, plans;
	const char *jobs_out, *events_out, *months, *from, *to, *site;
	struct workload_opts w;
	struct sched_config base;
	bool relaxed_knob, slack_knob;
	const char *resize[SCHED_MAX_PARTITIONS];
	size_t n_resize;
};

static void parse_args(int argc, char **argv, struct opts *o)
{
	enum sched_policy_id policies[8];
	size_t n_policies = parse_policies("fcfs,easy,cons", policies, 8);
	enum sched_heuristic heur[SCHED_HEUR_COUNT] = {SCHED_HEUR_AST};
	size_t n_heur = 1;
	enum sched_decider dec[SCHED_DECIDER_COUNT] = {SCHED_DECIDER_ADVANCED};
	enum sched_quality qual[SCHED_QUALITY_COUNT] = {SCHED_QUALITY_ARTWW};
	size_t n_dec = 1, n_qual = 1;
	bool dynp_knob = false, bounds_knob = false, gang_knob = false;
	enum sched_gang_scheme schemes[SCHED_GANG_SCHEME_COUNT] = {SCHED_GANG_BRMMS};
	size_t n_schemes = 1;
	memset(o, 0, sizeof *o);
	o->fmt = REPORT_TABLE;
	o->quantum = 5;
	o->max_slots = 1024;
	workload_opts_default(&o->w);
	struct sched_slack_cfg *sl = &o->base.slack;
	sl->sf_milli = 3000;
	sl->awt = 2401;
	for (int k = 0; k < 4; k++)
		sl->alpha_milli[k] = 1000;
	sl->heuristic = SCHED_HEUR_AST;
	sl->set = true;
	o->base.dynp.lower = 7200;
	o->base.dynp.upper = 9000;
	o->base.dynp.set = true;

	enum { O_TOL = 256, O_TOLF, O_SF, O_AWT, O_AU, O_AT, O_AP, O_AF, O_HEUR, O_HI, O_SCRATCH, O_SITE,
	       O_PART, O_PLANS, O_EARLY, O_DECIDER, O_QUALITY, O_BOUNDS, O_SCHEME, O_QUANTUM, O_MAXSLOTS };
	static const struct option longopts[] = {
		{"policy", required_argument, 0, 'p'}, {"procs", required_argument, 0, 'n'},
		{"format", required_argument, 0, 'f'}, {"by-month", no_argument, 0, 'm'},
		{"jobs-out", required_argument, 0, 'o'}, {"events-out", required_argument, 0, 'e'},
		{"capacity", required_argument, 0, 'c'}, {"check", no_argument, 0, 'k'},
		{"estimates", required_argument, 0, 'E'}, {"seed", required_argument, 0, 'S'},
		{"shrink", required_argument, 0, 'F'}, {"months", required_argument, 0, 'M'},
		{"from", required_argument, 0, 'A'}, {"to", required_argument, 0, 'B'},
		{"hash", no_argument, 0, 'H'}, {"events-plans", no_argument, 0, O_PLANS},
		{"tolerance", required_argument, 0, O_TOL}, {"tolerance-factor", required_argument, 0, O_TOLF},
		{"sf", required_argument, 0, O_SF}, {"awt", required_argument, 0, O_AWT},
		{"alpha-u", required_argument, 0, O_AU}, {"alpha-t", required_argument, 0, O_AT},
		{"alpha-p", required_argument, 0, O_AP}, {"alpha-f", required_argument, 0, O_AF},
		{"heuristic", required_argument, 0, O_HEUR}, {"hi-pri-every", required_argument, 0, O_HI},
		{"scratch", required_argument, 0, O_SCRATCH}, {"site", required_argument, 0, O_SITE},
		{"partition", required_argument, 0, O_PART}, {"early-end", required_argument, 0, O_EARLY},
		{"decider", required_argument, 0, O_DECIDER}, {"quality", required_argument, 0, O_QUALITY},
		{"bounds", required_argument, 0, O_BOUNDS}, {"scheme", required_argument, 0, O_SCHEME},
		{"quantum", required_argument, 0, O_QUANTUM}, {"max-slots", required_argument, 0, O_MAXSLOTS},
		{"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
	};
	opterr = 0;
	int ch;
	while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'p': n_policies = parse_policies(optarg, policies, 8); break;
		case 'n': o->procs = parse_count("--procs", optarg, SCHED_NOW_LIMIT - 1); break;
		case 'c': o->capacity = parse_count("--capacity", optarg, 1u << 30); break;
		case 'f':
			if (strcmp(optarg, "table") == 0) o->fmt = REPORT_TABLE;
			else if (strcmp(optarg, "csv") == 0) o->fmt = REPORT_CSV;
			else if (strcmp(optarg, "json") == 0) o->fmt = REPORT_JSON;
			else die_usage("unknown format (table, csv, json)", optarg);
			break;
		case 'm': o->by_month = true; break;
		case 'o': o->jobs_out = optarg; break;
		case 'e': o->events_out = optarg; break;
		case 'k': o->check = true; break;
		case 'H': o->hash = true; break;
		case O_PLANS: o->plans = true; break;
		case 'E':
			if (strcmp(optarg, "trace") == 0) {
				o->w.estimates = EST_TRACE;
			} else if (strcmp(optarg, "exact") == 0) {
				o->w.estimates = EST_EXACT;
			} else {
				char *end;
				o->w.estimates = EST_FACTOR;
				o->w.factor = strncmp(optarg, "f=", 2) == 0 ? strtod(optarg + 2, &end) : 0;
				if (strncmp(optarg, "f=", 2) != 0 || *end != '\0' || !(o->w.factor >= 1) ||
				    o->w.factor > 1e6)
					die_usage("--estimates takes trace, exact or f=F with F >= 1", optarg);
			}
			break;
		case 'S': o->w.seed = parse_count("--seed", optarg, ULONG_MAX); break;
		case 'F': {
			char *end;
			o->w.shrink = strtod(optarg, &end);
			if (*end != '\0' || !(o->w.shrink > 0) || o->w.shrink > 1000)
				die_usage("--shrink takes a factor F > 0", optarg);
			break;
		}
		case 'M': o->months = optarg; break;
		case 'A': o->from = optarg; break;
		case 'B': o->to = optarg; break;
		case O_TOL:
			o->base.tolerance = parse_seconds("--tolerance takes seconds (or 30m, 2h)", optarg);
			o->relaxed_knob = true;
			break;
		case O_TOLF:
			o->base.tolerance_permille = parse_milli("--tolerance-factor", optarg, 1000);
			o->relaxed_knob = true;
			break;
		case O_SF: sl->sf_milli = parse_milli("--sf", optarg, 1000); o->slack_knob = true; break;
		case O_AWT:
			sl->awt = (sched_time_t)parse_count("--awt", optarg, 100u * 365 * 86400);
			o->slack_knob = true;
			break;
		case O_AU: case O_AT: case O_AP: case O_AF: {
			static const char *const names[] = {"--alpha-u", "--alpha-t", "--alpha-p", "--alpha-f"};
			sl->alpha_milli[ch - O_AU] = (uint16_t)parse_milli(names[ch - O_AU], optarg, 1);
			o->slack_knob = true;
			break;
		}
		case O_HEUR:
			n_heur = parse_heuristics(optarg, heur, SCHED_HEUR_COUNT);
			o->slack_knob = true;
			break;
		case O_EARLY:
			if (strcmp(optarg, "search") != 0 && strcmp(optarg, "compress") != 0)
				die_usage("--early-end takes search or compress", optarg);
			sl->end_compress = strcmp(optarg, "compress") == 0;
			o->slack_knob = true;
			break;
		case O_DECIDER:
		case O_QUALITY: {
			char *copy = strdup(optarg);
			size_t *n = ch == O_DECIDER ? &n_dec : &n_qual;
			*n = 0;
			for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				int bad = *n == (ch == O_DECIDER ? SCHED_DECIDER_COUNT : SCHED_QUALITY_COUNT);
				if (!bad && ch == O_DECIDER)
					bad = sched_decider_parse(tok, &dec[*n]) != SCHED_OK;
				else if (!bad)
					bad = sched_quality_parse(tok, &qual[*n]) != SCHED_OK;
				if (bad) {
					free(copy);
					die_usage(ch == O_DECIDER ? "--decider takes simple and/or advanced"
								  : "--quality takes artww, art and/or ms", optarg);
				}
				(*n)++;
			}
			free(copy);
			if (*n == 0)
				die_usage(ch == O_DECIDER ? "--decider takes simple and/or advanced"
							  : "--quality takes artww, art and/or ms", optarg);
			dynp_knob = true;
			break;
		}
		case O_BOUNDS: {
			char *end;
			errno = 0;
			unsigned long lo = strtoul(optarg, &end, 10), hi = 0;
			bool ok = end != optarg && *end == ',' && errno == 0 && optarg[0] != '-';
			if (ok) {
				const char *h = end + 1;
				hi = strtoul(h, &end, 10);
				ok = end != h && *end == '\0' && errno == 0 && h[0] != '-' && lo <= hi && hi < SCHED_NOW_LIMIT;
			}
			if (!ok)
				die_usage("--bounds takes LOWER,UPPER in seconds, LOWER <= UPPER", optarg);
			o->base.dynp.lower = (sched_time_t)lo;
			o->base.dynp.upper = (sched_time_t)hi;
			bounds_knob = true;
			break;
		}
		case O_SCHEME: {
			char *copy = strdup(optarg);
			n_schemes = 0;
			for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				if (n_schemes == SCHED_GANG_SCHEME_COUNT ||
				    sched_gang_scheme_parse(tok, &schemes[n_schemes]) != SCHED_OK) {
					free(copy);
					die_usage("--scheme takes bc, br, brms and/or brmms", optarg);
				}
				n_schemes++;
			}
			free(copy);
			if (n_schemes == 0)
				die_usage("--scheme takes bc, br, brms and/or brmms", optarg);
			gang_knob = true;
			break;
		}
		case O_QUANTUM:
			o->quantum = parse_seconds("--quantum takes seconds (at least 1)", optarg);
			if (o->quantum == 0)
				die_usage("--quantum takes seconds (at least 1)", optarg);
			gang_knob = true;
			break;
		case O_MAXSLOTS:
			o->max_slots = (uint32_t)parse_count("--max-slots", optarg, 65535);
			gang_knob = true;
			break;
		case O_HI: o->hi_every = parse_count("--hi-pri-every", optarg, 1u << 30); break;
		case O_SCRATCH: o->scratch = parse_count("--scratch", optarg, 1u << 30); break;
		case O_SITE: o->site = optarg; break;
		case O_PART:
			if (strchr(optarg, '=') == NULL)
				die_usage("--partition takes NAME=PROCESSORS", optarg);
			if (o->n_resize == SCHED_MAX_PARTITIONS)
				die_usage("too many --partition options", optarg);
			o->resize[o->n_resize++] = optarg;
			break;
		case 'h': fputs(usage, stdout); exit(0);
		default:
			die_usage(optopt ? "option needs an argument" : "unknown option", argv[optind - 1]);
		}
	}
	bool has_relaxed = false, has_slack = false, has_dynp = false, has_basic = false, has_gang = false;
	for (size_t p = 0; p < n_policies; p++) {
		bool slack = policies[p] == SCHED_POLICY_SLACK, dynp = policies[p] == SCHED_POLICY_DYNP;
		if (policies[p] == POLICY_GANG) {
			has_gang = true;
			for (size_t k = 0; k < n_schemes; k++) {
				if (o->n_specs == sizeof o->specs / sizeof o->specs[0])
					die_usage("too many policy columns", NULL);
				struct run_spec *r = &o->specs[o->n_specs++];
				memset(r, 0, sizeof *r);
				r->policy = POLICY_GANG;
				r->scheme = schemes[k];
				if (n_schemes > 1)
					snprintf(r->name, sizeof r->name, "gang-%s", sched_gang_scheme_name(r->scheme));
				else
					snprintf(r->name, sizeof r->name, "gang");
			}
			continue;
		}
		has_relaxed |= policies[p] == SCHED_POLICY_RELAXED;
		has_slack |= slack;
		has_dynp |= dynp;
		has_basic |= policies[p] == SCHED_POLICY_DYNP_BASIC;
		size_t copies = slack ? n_heur : dynp ? n_dec * n_qual : 1;
		for (size_t h = 0; h < copies; h++) {
			if (o->n_specs == sizeof o->specs / sizeof o->specs[0])
				die_usage("too many policy columns", NULL);
			struct run_spec *r = &o->specs[o->n_specs++];
			r->policy = policies[p];
			r->heuristic = heur[slack ? h : 0];
			r->decider = dec[dynp ? h / n_qual : 0];
			r->quality = qual[dynp ? h % n_qual : 0];
			if (slack && n_heur > 1)
				snprintf(r->name, sizeof r->name, "slack-%s", sched_heuristic_name(r->heuristic));
			else if (dynp && copies > 1)
				snprintf(r->name, sizeof r->name, "dynp-%s-%s",
					 r->decider == SCHED_DECIDER_SIMPLE ? "simple" : "adv", sched_quality_name(r->quality));
			else
				snprintf(r->name, sizeof r->name, "%s", sched_policy_name(policies[p]));
		}
	}
	if (gang_knob && !has_gang)
		die_usage("--scheme, --quantum and --max-slots need --policy gang", NULL);
	if (has_gang && (o->site || o->capacity))
		die_usage("--site and --capacity do not apply to --policy gang (one partition, every job held)", NULL);
	if (dynp_knob && !has_dynp)
		die_usage("--decider and --quality need --policy dynp", NULL);
	if (bounds_knob && !has_basic)
		die_usage("--bounds needs --policy dynp-basic", NULL);
	if (o->relaxed_knob && !has_relaxed)
		die_usage("--tolerance and --tolerance-factor need --policy relaxed", NULL);
	if (o->slack_knob && !has_slack)
		die_usage("--sf, --awt, --alpha-*, --heuristic, --early-end need --policy slack", NULL);
	if (o->plans && o->events_out == NULL)
		die_usage("--events-plans needs --events-out", NULL);
}

/* Load the site, apply --partition and --procs to it; returns the machine size or exits. */
static sched_procs_t setup_site(struct opts *o, struct site *site)
{
	char err[512];
	if (site_load(o->site, site, err, sizeof err) != 0) {
		fprintf(stderr, "replay: %s\n", err);
		exit(1);
	}
	for (size_t i = 0; i < o->n_resize; i++) {
		char name[SITE_NAME_MAX + 1];
		const char *eq = strchr(o->resize[i], '=');
		size_t len = (size_t)(eq - o->resize[i]);
		if (len == 0 || len > SITE_NAME_MAX - 1)
			die_usage("--partition takes NAME=PROCESSORS", o->resize[i]);
		memcpy(name, o->resize[i], len);
		name[len] = '\0';
		unsigned long v = parse_count("--partition", eq + 1, SCHED_NOW_LIMIT - 1);
		if (site_resize(site, name, (sched_procs_t)v) != 0)
			die_usage("--partition names no partition of the site", o->resize[i]);
	}
	if (o->procs && site->cfg.n_partitions > 1)
		die_usage("--procs with a site of several partitions: use --partition NAME=N", NULL);
	if (o->procs && site->cfg.n_partitions == 1)
		(void)site_resize(site, NULL, (sched_procs_t)o->procs);
	return site_procs(site);
}

int main(int argc, char **argv)
{
	struct opts op;
	parse_args(argc, argv, &op);
	if (optind != argc - 1)
		die_usage(optind == argc ? "missing TRACE" : "more than one TRACE", NULL);
	const char *path = argv[optind];
	if ((op.jobs_out || op.events_out) && op.n_specs != 1)
		die_usage("--jobs-out and --events-out need exactly one policy column", NULL);
	long month_a = 0, month_b = 0;
	if (op.months && (op.from || op.to))
		die_usage("--months and --from/--to exclude each other", NULL);
	if (op.months && !parse_months(op.months, &month_a, &month_b))
		die_usage("--months takes A-B (1-based months, A <= B) or A", op.months);
	if (op.n_resize && !op.site)
		die_usage("--partition needs --site", NULL);

	static struct site site;
	sched_procs_t site_size = 0;
	if (op.site) {
		site_size = setup_site(&op, &site);
		op.w.site = &site;
		op.base.n_partitions = site.cfg.n_partitions;
		memcpy(op.base.partition_procs, site.cfg.partition_procs, sizeof op.base.partition_procs);
		op.base.n_queues = site.cfg.n_queues;
		memcpy(op.base.queues, site.cfg.queues, sizeof op.base.queues);
	}

	char err[512];
	struct swf_trace trace;
	if (trace_load(path, &trace, err, sizeof err) != 0) {
		fprintf(stderr, "replay: %s\n", err);
		site_free(&site);
		return 1;
	}
	if (op.from && !parse_when(op.from, &trace, path, &op.w.from))
		die_usage("--from takes seconds or YYYY-MM-DD[THH:MM[:SS]]", op.from);
	if (op.to && !parse_when(op.to, &trace, path, &op.w.to))
		die_usage("--to takes seconds or YYYY-MM-DD[THH:MM[:SS]]", op.to);
	const struct tz *zone = NULL;
	if (op.months || op.by_month) {
		zone = trace_zone(&trace, path, op.months ? "--months" : "--by-month");
		if (zone == NULL) {
			swf_free(&trace);
			site_free(&site);
			return 1;
		}
	}
	if (op.months) {
		int y, m;
		tz_year_month(zone, trace.hdr.unix_start + (int64_t)first_submit(&trace), &y, &m);
		int first = y * 12 + m - 1 + (int)month_a - 1, last = y * 12 + m - 1 + (int)month_b;
		op.w.from = tz_month_start(zone, first / 12, first % 12 + 1) - trace.hdr.unix_start;
		op.w.to = tz_month_start(zone, last / 12, last % 12 + 1) - trace.hdr.unix_start;
	}
	long procs = site_size ? (long)site_size : op.procs ? (long)op.procs : swf_machine_size(&trace.hdr);
	if (procs <= 0) {
		fprintf(stderr, "replay: %s: no MaxProcs or MaxNodes in the header; give --procs\n", path);
		swf_free(&trace);
		site_free(&site);
		return 1;
	}
	struct workload w;
	if (workload_build(&trace, (sched_procs_t)procs, &op.w, &w, err, sizeof err) != 0) {
		fprintf(stderr, "replay: %s: %s\n", path, err);
		swf_free(&trace);
		site_free(&site);
		return 1;
	}
	if (trace.non_integral)
		fprintf(stderr, "replay: %s: %u values with a fraction in integer fields were truncated\n",
			path, trace.non_integral);

	FILE *events = NULL;
	if (op.events_out && (events = fopen(op.events_out, "w")) == NULL) {
		fprintf(stderr, "replay: %s: %s\n", op.events_out, strerror(errno));
		workload_free(&w);
		swf_free(&trace);
		site_free(&site);
		return 1;
	}

	int *keys = op.by_month ? month_keys(&trace, &w, zone) : NULL;
	/* Periods: the whole trace, or each month in order (jobs are sorted by submit). */
	size_t n_periods = 0;
	size_t *starts = malloc((w.n + 1) * sizeof *starts);
	for (size_t i = 0; i < w.n; i++)
		if (i == 0 || (keys && keys[i] != keys[i - 1]))
			starts[n_periods++] = i;
	starts[n_periods] = w.n;

	long *names = malloc(w.n * sizeof *names);
	for (size_t i = 0; i < w.n; i++)
		names[i] = (long)trace.jobs[w.jobs[i].idx].job;

	size_t ns = op.n_specs;
	bool planning_cols = false, family_cols = false, dynp_cols = false;
	bool gang_cols = false;
	for (size_t p = 0; p < ns; p++) {
		enum sched_policy_id id = op.specs[p].policy;
		gang_cols |= id == POLICY_GANG;
		planning_cols |= sched_policy_needs_scratch(id);
		family_cols |= id >= SCHED_POLICY_FCFS_REPLAN && id <= SCHED_POLICY_DYNP;
		dynp_cols |= id == SCHED_POLICY_DYNP_BASIC || id == SCHED_POLICY_DYNP;
	}
	struct report_row *rows = calloc(n_periods * ns, sizeof *rows);
	uint64_t *hashes = calloc(n_periods * ns, sizeof *hashes);
	struct replay_job_out *all_out = calloc(w.n, sizeof *all_out);
	int status = 0;
	for (size_t per = 0; per < n_periods && status == 0; per++) {
		size_t a = starts[per], b = starts[per + 1];
		char period[16] = "all";
		if (keys)
			snprintf(period, sizeof period, "%04d-%02d", keys[a] / 12, keys[a] % 12 + 1);
		/* Seed 003 section 3.3: within each replayed log, every K-th job is of high priority. */
		if (op.hi_every)
			for (size_t i = a; i < b; i++) {
				bool hi = (i - a + 1) % op.hi_every == 0;
				w.jobs[i].j.up_milli = hi ? 1000 : 0;
				w.jobs[i].j.pp_milli = hi ? 1000 : 0;
			}
		for (size_t p = 0; p < ns; p++) {
			const struct run_spec *spec = &op.specs[p];
			struct replay_opts o = {
				.base = op.base, .policy = spec->policy, .procs = (sched_procs_t)procs,
				.capacity = (uint32_t)op.capacity, .check = op.check, .events = events,
				.names = names + a, .ev_queue = op.site != NULL,
				.ev_prio = spec->policy == SCHED_POLICY_SLACK,
				.ev_part = op.site != NULL && site.cfg.n_partitions > 1, .ev_plans = op.plans,
			};
			o.base.slack.heuristic = (uint8_t)spec->heuristic;
			o.base.dynp.decider = (uint8_t)spec->decider;
			o.base.dynp.quality = (uint8_t)spec->quality;
			o.base.scratch_jobs = (uint32_t)op.scratch;
			struct replay_result r;
			struct gang_stats gs;
			bool gang = spec->policy == POLICY_GANG;
			int rc;
			if (gang) {
				struct gang_opts go = {.procs = (uint32_t)procs, .max_slots = op.max_slots,
						       .scheme = spec->scheme, .quantum = op.quantum, .check = op.check,
						       .events = events, .switches = op.plans, .names = names + a};
				rc = gang_replay_run(w.jobs + a, b - a, &go, &r, &gs, err, sizeof err);
			} else {
				rc = replay_run(w.jobs + a, b - a, &o, &r, err, sizeof err);
			}
			if (rc != 0) {
				fprintf(stderr, "replay: %s: %s\n", path, err);
				status = 1;
				break;
			}
			uint32_t refused_room = 0, refused_limit = 0;
			for (size_t i = 0; i < b - a; i++) {
				refused_room += r.out[i].refused && r.out[i].refuse_err != SCHED_E_LIMIT;
				refused_limit += r.out[i].refused && r.out[i].refuse_err == SCHED_E_LIMIT;
			}
			struct report_row *row = &rows[per * ns + p];
			report_row_fill(row, spec->name, period, &r.metrics, &r.counters, (sched_procs_t)procs,
					keys ? 0 : workload_skipped(&w), refused_room, refused_limit,
					r.max_jobs_in_system);
			/* Loss of capacity assumes a job holds its processors from start to end: not under time sharing. */
			row->loc = gang ? NAN : replay_loss_of_capacity(w.jobs + a, r.out, b - a, (sched_procs_t)procs);
			if (gang_cols)
				gang_rows(row, gang ? &gs : NULL);
			if (family_cols)
				dynp_rows(row, &r.dynp, dynp_cols);
			if (planning_cols || op.site) {
				report_row_extra(row, "relaxed starts", "relaxed_starts", 0, r.counters.relaxed);
				report_row_extra(row, "scratch fallbacks", "scratch_fallbacks", 0, r.counters.scratch_short);
				report_row_extra(row, "starts held by limits", "limit_holds", 0, r.counters.limited);
			}
			if (op.hi_every) {
				struct subset hi = {0}, lo = {0};
				for (size_t i = 0; i < b - a; i++)
					subset_add(w.jobs[a + i].j.up_milli ? &hi : &lo, &r.out[i]);
				subset_rows(row, "hi-pri", "hi_pri", &hi);
				subset_rows(row, "lo-pri", "lo_pri", &lo);
			}
			if (op.site && site.cfg.n_queues > 1) {
				for (unsigned q = 0; q < site.cfg.n_queues; q++) {
					struct subset x = {0};
					for (size_t i = 0; i < b - a; i++)
						if (w.jobs[a + i].j.queue == q)
							subset_add(&x, &r.out[i]);
					char label[64], key[64];
					snprintf(label, sizeof label, "q %s", site.queue_name[q]);
					snprintf(key, sizeof key, "queue_%s", site.queue_name[q]);
					subset_rows(row, label, key, &x);
				}
			}
			hashes[per * ns + p] = r.hash;
			if (op.jobs_out)
				memcpy(all_out + a, r.out, (b - a) * sizeof *r.out);
			replay_result_free(&r);
		}
	}
	if (status == 0)
		report_print(stdout, op.fmt, base_name(path), (sched_procs_t)procs, workload_skipped(&w),
			     rows, n_periods * ns, ns, op.by_month);
	if (status == 0 && op.hash)
		for (size_t i = 0; i < n_periods * ns; i++)
			printf("hash %s %s %016llx\n", rows[i].policy, rows[i].period,
			       (unsigned long long)hashes[i]);
	if (status == 0 && op.jobs_out) {
		FILE *f = fopen(op.jobs_out, "w");
		if (f == NULL) {
			fprintf(stderr, "replay: %s: %s\n", op.jobs_out, strerror(errno));
			status = 1;
		} else {
			write_jobs_out(f, &trace, &w, all_out, op.specs[0].name);
			if (fclose(f) != 0) {
				fprintf(stderr, "replay: %s: write failed\n", op.jobs_out);
				status = 1;
			}
		}
	}
	if (events && fclose(events) != 0) {
		fprintf(stderr, "replay: %s: write failed\n", op.events_out);
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
	site_free(&site);
	return status;
}
