/* SPDX-License-Identifier: MIT */
/* build/replay's command line: the general options here, the policies' own in policy_opts.c. */
#define _POSIX_C_SOURCE 200809L
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/err.h"
#include "sched/replay.h"
#include "tz.h"

const char options_help[] =
"Usage: replay [OPTIONS] TRACE\n"
"Replay a workload (a binary fixture, or an SWF trace, plain or .gz) through\n"
"the scheduling core with a simulated clock and print the literature's metrics.\n"
"\n"
"Options:\n"
"  --policy LIST      comma-separated policies of the registry (listed at the\n"
"                     end), printed side by side; cons has the alias\n"
"                     conservative; default fcfs,easy,cons\n"
"  --procs N          machine size; default the header's MaxProcs, else MaxNodes\n"
"                     (with a one-partition --site: that partition's size)\n"
"  --format FMT       table (default), csv or json\n"
"  --stats-as LIST    the statistics printed after the counts: a comma-separated\n"
"                     list of the sets under \"Statistics\" below (ours, pyss);\n"
"                     default ours. The schedule is the same whatever the list.\n"
"  --by-month         replay each calendar month of submission as its own\n"
"                     workload, one row per month (months in the trace's local\n"
"                     time: header UnixStartTime and TimeZoneString)\n"
"  --jobs-out FILE    write the simulated schedule as SWF (one policy only):\n"
"                     field 3 wait, 4 run, 5 processors, 9 estimate used,\n"
"                     11 status (1 ended by itself, 0 killed at its estimate);\n"
"                     under gang, 3 is the time until the first quantum and 4\n"
"                     the time from then until the end\n"
"  --jobs-csv FILE    write the simulated schedule as CSV (one policy only), a\n"
"                     row per job under a header: id,user,queue,submit,start,\n"
"                     end,wait,run,procs,estimate,killed,backfilled,bsld,\n"
"                     slowdown,refused (gang: and share); times in seconds of\n"
"                     simulated time (docs/replay.md, The table of jobs)\n"
"  --events-out FILE  write every decision, one per line: `T submit JOB PROCS\n"
"                     EST PRED` (PRED the guaranteed start or -), `T start JOB\n"
"                     PROCS [backfill]`, `T end JOB`, `T kill JOB`; the file\n"
"                     grows with the jobs (three lines each at most), under\n"
"                     gang too, however long they run\n"
"  --capacity N       jobs the core may hold at once (default: all of them);\n"
"                     arrivals beyond it are refused and counted; more than\n"
"                     the core can hold is an error that names the limit\n"
"  --check            run the core's invariant checker after every call (slow)\n"
"  --events-plans     with --events-out: also `T plan JOB START` each time a\n"
"                     waiting job's reservation moves (planning policies);\n"
"                     under gang, each quantum's context switch list:\n"
"                     `T switch SLOT JOB:FIRST:COUNT ...` (processors\n"
"                     FIRST..FIRST+COUNT-1 run JOB in that quantum), a line\n"
"                     per quantum: the file grows with the simulated time\n"
"                     over --quantum, and the replay runs every quantum\n"
"                     instead of skipping those in which nothing changes\n"
"                     (three jobs of 2^31 s at --quantum 1: 2^31 lines, some\n"
"                     80 GB, and over ten minutes)\n"
"  --gantt FILE      draw the simulated schedule as an SVG Gantt chart (one\n"
"                     policy, not gang): time x processors, one rectangle per\n"
"                     job, its wait a line from submit to start; processor\n"
"                     rows are a first-fit drawing (the core counts processors,\n"
"                     it does not number them); past 20000 jobs in the window,\n"
"                     jobs under a pixel wide are left out (the SVG says so)\n"
"  --gantt-from T, --gantt-to T\n"
"                     the pictures' time window (--gantt, --timeline,\n"
"                     --timeline-svg), a time T as below; default the whole\n"
"                     schedule. They only zoom the pictures: the replay is\n"
"                     the same (--from/--to slice the workload instead). A\n"
"                     window ending by the first submit is an error; one\n"
"                     starting after the last end, a warning and pictures\n"
"                     that say so. With UnixStartTime in the header (and no\n"
"                     --shrink) the axes read local date and time\n"
"  --timeline FILE    write busy processors, queued and running jobs over time\n"
"                     as CSV: `time,busy_procs,queued_jobs,running_jobs`, one\n"
"                     row per instant where one changes (one policy); under\n"
"                     gang a fifth column, `slots`: time slots in use, and\n"
"                     busy_procs counts the started jobs over every slot (it\n"
"                     can exceed the machine), queued those before their first\n"
"                     quantum\n"
"  --timeline-svg FILE  the same timeline drawn as SVG (gang: with a panel of\n"
"                     the slots in use): per pixel column the time-weighted\n"
"                     mean, and a lighter band from the least to the largest\n"
"                     value\n"
"                     (every output file is checked before the trace is read,\n"
"                     without being touched: a bad path fails at once)\n"
"  --hash             after the report, print `hash POLICY PERIOD HEX`: the\n"
"                     64-bit hash of each schedule, as the firmware's replay\n"
"                     command computes it (docs/console.md)\n"
"  --progress         show progress on stderr even when it is not a terminal:\n"
"                     `replay: DONE/TOTAL jobs (P%), R jobs/s, ETA M:SS,\n"
"                     queue Q, running N`, a line a second after the first\n"
"                     second however slow the policy (R and the ETA over the\n"
"                     last 5 s), and a last line with the total and the\n"
"                     time; TOTAL is the jobs times the columns. Without it,\n"
"                     progress shows only on a terminal, for runs longer\n"
"                     than a second, on one line rewritten and blanked at\n"
"                     the end\n"
"  --quiet            no progress, even on a terminal (warnings and errors\n"
"                     still print); of --quiet and --progress the last wins\n"
"\n"
"Policy parameters: made from the core's policy registry, listed after the\n"
"general options below (docs/priorities.md, docs/dynp.md, docs/gang.md).\n"
"A parameter marked (a list) takes several values, one report column each\n"
"(slack-ast, slack-aat, dynp-adv-artww, dynp-simple-ms, gang-bc, ...).\n"
"  --bounds L,U       dynp-basic: --lower L --upper U at once\n"
"  --hi-pri-every K   every K-th job of each replayed period gets user and\n"
"                     political priority 1, the others 0 (Talby and\n"
"                     Feitelson 1999 s. 3.3); adds hi-pri and lo-pri\n"
"                     average waits to the report\n"
"  --hi-pri-gap G     with --hi-pri-every: those jobs' user plus political\n"
"                     priority, 0..2 (user first); default 2 (Table 4)\n"
"  --scratch N        jobs the planning scratch can take (relaxed, slack, the\n"
"                     dynP family); default the capacity; beyond it a job is\n"
"                     planned as conservative would and counted as a scratch\n"
"                     fallback\n"
"Gang scheduling time-shares a power-of-two machine in slots of a quantum;\n"
"estimates are not used (a job runs min(run, estimate) rounded up to quanta).\n"
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
"  --from T, --to T   replay only jobs submitted in [T, T') (a time T as\n"
"                     below); the report names the slice as its period\n"
"                     (months=A-B, from=T;to=T') and counts only its skipped\n"
"                     jobs\n"
"  --shrink F         multiply every interarrival time by F > 0 (F < 1 raises\n"
"                     the load; Streit 2002, s. 5)\n"
"  --estimates E      trace (default): the requested times; exact: the run\n"
"                     times; f=F: uniform in [r, F*r] (Feitelson & Mu'alem\n"
"                     Weil 1998, s. 3.3)\n"
"  --seed S           seed of the f=F draw (default 1)\n"
"  --node-size K      nodes of K processors, allocated whole: each job gets its\n"
"                     processors rounded up to a multiple of K, and the\n"
"                     machine its own rounded down to one (100 processors\n"
"                     in nodes of 8: 96, 12 nodes); adds requested and\n"
"                     allocated processor-seconds and utilization to the\n"
"                     report (docs/replay.md#nodes; not with gang or --site).\n"
"                     Suggested on stderr when the header's MaxProcs is K\n"
"                     times its MaxNodes\n"
"  --procs N          also a knob: \"remove 128 CPUs\" (Spear & McGalliard 2007)\n"
"  -h, --help         this text\n"
"\n"
"Times (--from, --to, --gantt-from, --gantt-to): seconds of trace time (90),\n"
"a duration from time 0 (90s, 30m, 2h, 1d), or a local date\n"
"YYYY-MM-DD[THH:MM[:SS]] (T or a space) in the trace's time zone (header\n"
"UnixStartTime and TimeZoneString; a date under --shrink is refused for the\n"
"pictures: simulated time is then not the trace's calendar).\n"
"\n"
"Conventions (docs/replay.md):\n"
"  processors = field 5 if > 0, else field 8\n"
"  estimate   = field 9 if > 0, else the run time (field 4); 0 s becomes 1 s\n"
"  a job holds its processors for min(run time, estimate): it is killed at\n"
"  its estimate; submit = field 2; jobs are replayed in submit order\n"
"  skipped and counted, by reason: processors < 1, run time < 0, more\n"
"  processors than the machine (or than its queue's partitions), submit < 0,\n"
"  no site queue (a header whose MaxProcs is narrower than jobs of the trace,\n"
"  or a --procs differing from it, gets a warning)\n"
"  at one instant: jobs that end are reported first, then arrivals in trace\n"
"  order, then one scheduling pass (a job of run time 0 ends at the instant it\n"
"  starts, and its processors are offered again in a further pass)\n"
"  the core sees only processors and estimates, never the run time\n"
"\n"
"Metrics (--stats-as ours, the default): average and max wait; average bounded\n"
"slowdown (Feitelson & Mu'alem Weil 1998, s. 3.1, 10 s threshold); average\n"
"response; expansion factor (sum of wait+run over sum of run) overall and for\n"
"1-32, 33-64, 65-120, 121+ processors (Spear & McGalliard 2007, Exhibit 11);\n"
"utilization (Streit 2002, s. 5.1); makespan (last end - first submit); ARTwW\n"
"and SLDwW with 60 s and 300 s bounds (Streit 2002); loss of capacity (Streit\n"
"2002, s. 5.1: idle processors while jobs wait, over processors x makespan).\n"
"--stats-as pyss prints pyss's job filter and formulas instead (below).\n"
"References: docs/references.md.\n"
"\n"
"Exit status: 0 on success, 1 on bad input or a failed replay, 2 on bad usage.\n";

int options_usage(char *msg, size_t len, const char *what, const char *arg)
{
	snprintf(msg, len, "%s%s%s", what, arg ? ": " : "", arg ? arg : "");
	return SCHED_E_INVAL;
}

int options_count(const char *opt, const char *s, unsigned long max, unsigned long *out, char *msg, size_t len)
{
	char *end;
	errno = 0;
	unsigned long v = *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : 0;
	if (v == 0 || errno != 0 || *end != '\0' || v > max) {
		char what[96];
		snprintf(what, sizeof what, "%s takes a whole number in 1..%lu", opt, max);
		return options_usage(msg, len, what, s);
	}
	*out = v;
	return SCHED_OK;
}

int options_milli(const char *opt, const char *s, double max, uint32_t *out, char *msg, size_t len)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !(v >= 0 && v <= max)) {
		char what[96];
		snprintf(what, sizeof what, "%s takes a number from 0 to %g", opt, max);
		return options_usage(msg, len, what, s);
	}
	*out = (uint32_t)(v * 1000 + 0.5);
	return SCHED_OK;
}

/* "YYYY-MM-DD[THH:MM[:SS]]" (T or a space) into seconds from 1970-01-01T00:00 of the same calendar; false when malformed. */
static bool local_date(const char *s, int64_t *out)
{
	int y, mo, d, h = 0, mi = 0, sec = 0, n = 0;
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &mo, &d, &n) != 3 || n != 10 || mo < 1 || mo > 12 || d < 1)
		return false;
	if (s[n] == 'T' || s[n] == ' ') {
		int m2 = 0;
		if (sscanf(s + n + 1, "%2d:%2d%n", &h, &mi, &m2) != 2 || m2 != 5)
			return false;
		n += 1 + m2;
		if (s[n] == ':') {
			if (sscanf(s + n + 1, "%2d%n", &sec, &m2) != 1 || m2 != 2)
				return false;
			n += 1 + m2;
		}
	}
	/* A day the month does not have (02-30) comes back as another date. */
	int64_t days = tz_days_from_civil(y, mo, d);
	int yy, mm, dd;
	tz_civil_from_days(days, &yy, &mm, &dd);
	if (s[n] != '\0' || yy != y || mm != mo || dd != d || h > 23 || mi > 59 || sec > 59 || h < 0 || mi < 0 || sec < 0)
		return false;
	*out = days * 86400 + h * 3600 + mi * 60 + sec;
	return true;
}

int options_time(const char *opt, const char *s, struct options_time *out, char *msg, size_t len)
{
	*out = (struct options_time){s, false, 0};
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	/* A date starts like a number: "2003-05-24" reads 2003 and stops at the '-'. */
	bool number = end != s && errno == 0 && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'));
	if (number && *end == '\0') {
		out->v = v;
		return SCHED_OK;
	}
	long long unit = !number || end[1] != '\0' ? 0 : *end == 's' ? 1 : *end == 'm' ? 60 : *end == 'h' ? 3600
							     : *end == 'd' ? 86400 : 0;
	if (unit != 0 && v >= 0 && v <= LLONG_MAX / unit) {
		out->v = v * unit;
		return SCHED_OK;
	}
	if (local_date(s, &out->v)) {
		out->local = true;
		return SCHED_OK;
	}
	char what[160];
	snprintf(what, sizeof what, "%s takes seconds (90), a duration (90s, 30m, 2h, 1d) or a local date YYYY-MM-DD[THH:MM[:SS]]", opt);
	return options_usage(msg, len, what, s);
}

static int parse_policies(const char *list, enum sched_policy_id *out, size_t max, size_t *n, char *msg, size_t len)
{
	char *copy = strdup(list);
	int rc = SCHED_OK;
	*n = 0;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); rc == SCHED_OK && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		enum sched_policy_id p;
		if (sched_policy_parse(tok, &p) != SCHED_OK) {
			size_t at = (size_t)snprintf(msg, len, "unknown policy '%s' (", tok);
			for (int k = 0; k < SCHED_POLICY_COUNT && at < len; k++)
				at += (size_t)snprintf(msg + at, len - at, "%s%s", k ? ", " : "",
						       sched_policy_name((enum sched_policy_id)k));
			if (at < len)
				snprintf(msg + at, len - at, ")");
			rc = SCHED_E_INVAL;
		} else if (*n == max) {
			rc = options_usage(msg, len, "too many policies", list);
		} else {
			out[(*n)++] = p;
		}
	}
	free(copy);
	if (rc == SCHED_OK && *n == 0)
		rc = options_usage(msg, len, "empty policy list", NULL);
	return rc;
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

/* --estimates trace|exact|f=F */
static int estimates(const char *arg, struct workload_opts *w, char *msg, size_t len)
{
	if (strcmp(arg, "trace") == 0) {
		w->estimates = EST_TRACE;
	} else if (strcmp(arg, "exact") == 0) {
		w->estimates = EST_EXACT;
	} else {
		char *end;
		w->estimates = EST_FACTOR;
		w->factor = strncmp(arg, "f=", 2) == 0 ? strtod(arg + 2, &end) : 0;
		if (strncmp(arg, "f=", 2) != 0 || *end != '\0' || !(w->factor >= 1) || w->factor > 1e6)
			return options_usage(msg, len, "--estimates takes trace, exact or f=F with F >= 1", arg);
	}
	return SCHED_OK;
}

enum { O_PLANS = 256, O_SITE, O_PART, O_QUIET, O_PROGRESS, O_GANTT, O_GANTT_FROM, O_GANTT_TO, O_TIMELINE, O_TIMELINE_SVG, O_STATS_AS, O_JOBS_CSV, O_NODE_SIZE, O_POLICY = 1000 };

static const struct option general[] = {
	{"policy", required_argument, 0, 'p'}, {"procs", required_argument, 0, 'n'},
	{"format", required_argument, 0, 'f'}, {"by-month", no_argument, 0, 'm'},
	{"jobs-out", required_argument, 0, 'o'}, {"events-out", required_argument, 0, 'e'},
	{"capacity", required_argument, 0, 'c'}, {"check", no_argument, 0, 'k'},
	{"estimates", required_argument, 0, 'E'}, {"seed", required_argument, 0, 'S'},
	{"shrink", required_argument, 0, 'F'}, {"months", required_argument, 0, 'M'},
	{"from", required_argument, 0, 'A'}, {"to", required_argument, 0, 'B'},
	{"hash", no_argument, 0, 'H'}, {"events-plans", no_argument, 0, O_PLANS},
	{"site", required_argument, 0, O_SITE}, {"partition", required_argument, 0, O_PART},
	{"quiet", no_argument, 0, O_QUIET}, {"progress", no_argument, 0, O_PROGRESS},
	{"gantt", required_argument, 0, O_GANTT}, {"gantt-from", required_argument, 0, O_GANTT_FROM},
	{"gantt-to", required_argument, 0, O_GANTT_TO}, {"timeline", required_argument, 0, O_TIMELINE},
	{"timeline-svg", required_argument, 0, O_TIMELINE_SVG}, {"stats-as", required_argument, 0, O_STATS_AS},
	{"jobs-csv", required_argument, 0, O_JOBS_CSV},
	{"node-size", required_argument, 0, O_NODE_SIZE},
	{"help", no_argument, 0, 'h'},
};
#define N_GENERAL (sizeof general / sizeof general[0])
#define N_LONGOPTS (N_GENERAL + 32)

/* The general options and then policy_opts.c's, for getopt_long. */
static void long_options(struct option *out)
{
	size_t n = 0;
	for (; n < N_GENERAL; n++)
		out[n] = general[n];
	for (size_t i = 0; policy_opt_names[i] != NULL && n + 1 < N_LONGOPTS; i++)
		out[n++] = (struct option){policy_opt_names[i], required_argument, 0, O_POLICY + (int)i};
	out[n] = (struct option){0, 0, 0, 0};
}

/* The options that need no more than a flag or a string. */
static int simple_option(int ch, const char *arg, struct opts *o, char *msg, size_t len)
{
	switch (ch) {
	case 'n': return options_count("--procs", arg, SCHED_NOW_LIMIT - 1, &o->procs, msg, len);
	case 'c': return options_count("--capacity", arg, 1u << 30, &o->capacity, msg, len);
	case 'S': {
		unsigned long seed = 0;
		int rc = options_count("--seed", arg, ULONG_MAX, &seed, msg, len);
		o->w.seed = seed;
		return rc;
	}
	case O_NODE_SIZE: {
		unsigned long k = 0;
		int rc = options_count("--node-size", arg, SCHED_NOW_LIMIT - 1, &k, msg, len);
		o->w.node_size = (sched_procs_t)k;
		return rc;
	}
	case 'm': o->by_month = true; break;
	case 'o': o->jobs_out = arg; break;
	case O_JOBS_CSV: o->jobs_csv = arg; break;
	case 'e': o->events_out = arg; break;
	case 'k': o->check = true; break;
	case 'H': o->hash = true; break;
	case O_PLANS: o->plans = true; break;
	case 'M': o->months = arg; break;
	case 'A': o->from = arg; return options_time("--from", arg, &o->from_t, msg, len);
	case 'B': o->to = arg; return options_time("--to", arg, &o->to_t, msg, len);
	case O_SITE: o->site = arg; break;
	/* The last of --quiet and --progress wins, so a script's default can be overridden after it. */
	case O_QUIET: o->progress = PROGRESS_OFF; break;
	case O_PROGRESS: o->progress = PROGRESS_ON; break;
	case O_GANTT: o->gantt = arg; break;
	case O_TIMELINE: o->timeline = arg; break;
	case O_TIMELINE_SVG: o->timeline_svg = arg; break;
	case O_GANTT_FROM: return options_time("--gantt-from", arg, &o->gantt_from, msg, len);
	case O_GANTT_TO: return options_time("--gantt-to", arg, &o->gantt_to, msg, len);
	default: return 0;
	}
	return SCHED_OK;
}

/* One option getopt_long returned; @p policies collects --policy. */
static int one_option(int ch, const char *arg, struct opts *o, enum sched_policy_id *policies, size_t *n_policies,
		      char *msg, size_t len)
{
	switch (ch) {
	case 'p': return parse_policies(arg, policies, 8, n_policies, msg, len);
	case 'f':
		if (strcmp(arg, "table") == 0) o->fmt = REPORT_TABLE;
		else if (strcmp(arg, "csv") == 0) o->fmt = REPORT_CSV;
		else if (strcmp(arg, "json") == 0) o->fmt = REPORT_JSON;
		else return options_usage(msg, len, "unknown format (table, csv, json)", arg);
		return SCHED_OK;
	case 'E': return estimates(arg, &o->w, msg, len);
	case 'F': {
		char *end;
		o->w.shrink = strtod(arg, &end);
		if (*end != '\0' || !(o->w.shrink > 0) || o->w.shrink > 1000)
			return options_usage(msg, len, "--shrink takes a factor F > 0", arg);
		return SCHED_OK;
	}
	case O_STATS_AS: return report_stats_parse(arg, &o->stats, msg, len);
	case O_PART:
		if (strchr(arg, '=') == NULL)
			return options_usage(msg, len, "--partition takes NAME=PROCESSORS", arg);
		if (o->n_resize == SCHED_MAX_PARTITIONS)
			return options_usage(msg, len, "too many --partition options", arg);
		o->resize[o->n_resize++] = arg;
		return SCHED_OK;
	}
	if (ch >= O_POLICY) {
		int rc = policy_opt(policy_opt_names[ch - O_POLICY], arg, &o->pol, &o->base, msg, len);
		return rc < 0 ? rc : SCHED_OK;
	}
	return simple_option(ch, arg, o, msg, len);
}

/* Whether the core takes @p cap jobs under @p pol: the core's own check (its arena must stay under 4 GiB). */
static bool capacity_fits(const struct opts *o, enum sched_policy_id pol, uint32_t cap)
{
	struct sched_config cfg = o->base;
	cfg.policy = pol;
	cfg.procs = 1;
	cfg.max_jobs = cap;
	cfg.scratch_jobs = o->pol.scratch ? (uint32_t)o->pol.scratch : sched_policy_needs_scratch(pol) ? cap : 0;
	return sched_replay_check(&cfg, SIZE_MAX) == SCHED_OK;
}

/* --capacity against what every column's policy can hold; the limit, found by bisection, goes in the message. */
static int capacity_check(const struct opts *o, char *msg, size_t len)
{
	for (size_t c = 0; o->capacity && c < o->n_specs; c++) {
		enum sched_policy_id pol = o->specs[c].policy;
		if (capacity_fits(o, pol, (uint32_t)o->capacity) || !capacity_fits(o, pol, 1))
			continue; /* fits, or refused for another reason, which the replay names */
		uint32_t lo = 1, hi = (uint32_t)o->capacity; /* lo fits, hi does not */
		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;
			*(capacity_fits(o, pol, mid) ? &lo : &hi) = mid;
		}
		snprintf(msg, len, "--capacity %lu is more than the core can hold under %s (its memory stays under 4 GiB): allowed 1..%u",
			 o->capacity, sched_policy_name(pol), lo);
		return SCHED_E_INVAL;
	}
	return SCHED_OK;
}

/* The checks between options, once all are read. */
static int cross_checks(int argc, char **argv, struct opts *o, const enum sched_policy_id *policies,
			size_t n_policies, char *msg, size_t len)
{
	int rc = policy_opts_columns(&o->pol, policies, n_policies, o->specs, &o->n_specs, msg, len);
	if (rc != SCHED_OK)
		return rc;
	bool has_gang = false; /* a time-shared policy (the registry's fact): gang */
	for (size_t p = 0; p < n_policies; p++)
		has_gang |= sched_policy_timeshared(policies[p]);
	if (has_gang && (o->site || o->capacity))
		return options_usage(msg, len, "--site and --capacity do not apply to --policy gang (one partition, every job held)", NULL);
	/* Gang's buddy blocks already allocate power-of-two blocks; a site's partitions and queue limits
	 * are in processors, which whole nodes would reinterpret: neither is modelled with nodes (yet). */
	if (o->w.node_size && (has_gang || o->site))
		return options_usage(msg, len, "--node-size does not apply to --policy gang or with --site", NULL);
	rc = capacity_check(o, msg, len);
	if (rc != SCHED_OK)
		return rc;
	if (o->plans && o->events_out == NULL)
		return options_usage(msg, len, "--events-plans needs --events-out", NULL);
	if (optind != argc - 1)
		return options_usage(msg, len, optind == argc ? "missing TRACE" : "more than one TRACE", NULL);
	o->trace = argv[optind];
	if ((o->jobs_out || o->jobs_csv || o->events_out) && o->n_specs != 1)
		return options_usage(msg, len, "--jobs-out, --jobs-csv and --events-out need exactly one policy column", NULL);
	bool pictures = o->gantt || o->timeline || o->timeline_svg;
	if (pictures && o->n_specs != 1)
		return options_usage(msg, len, "--gantt, --timeline and --timeline-svg draw one policy: give --policy with exactly one policy column", NULL);
	if (pictures && o->by_month)
		return options_usage(msg, len, "--gantt, --timeline and --timeline-svg do not apply to --by-month (yet)", NULL);
	/* Under time sharing a job holds its block only in its slots' quanta: a processor x time
	 * rectangle would draw it as running all the time. The timeline shows the slots instead. */
	if (o->gantt && has_gang)
		return options_usage(msg, len, "--gantt does not apply to --policy gang (time sharing: use --timeline or --timeline-svg)", NULL);
	if ((o->gantt_from.arg || o->gantt_to.arg) && !pictures)
		return options_usage(msg, len, "--gantt-from and --gantt-to need --gantt, --timeline or --timeline-svg", NULL);
	/* Of the same kind they compare now; a date against seconds waits for the trace's epoch (run.c). */
	const struct options_time *gf = &o->gantt_from, *gt = &o->gantt_to;
	if (gf->arg && gt->arg && gf->local == gt->local && gf->v >= gt->v)
		return options_usage(msg, len, "--gantt-from must be before --gantt-to", NULL);
	if (o->months && (o->from || o->to))
		return options_usage(msg, len, "--months and --from/--to exclude each other", NULL);
	if (o->months && !parse_months(o->months, &o->month_a, &o->month_b))
		return options_usage(msg, len, "--months takes A-B (1-based months, A <= B) or A", o->months);
	if (o->n_resize && !o->site)
		return options_usage(msg, len, "--partition needs --site", NULL);
	return SCHED_OK;
}

int options_parse(int argc, char **argv, struct opts *o, char *msg, size_t len)
{
	enum sched_policy_id policies[8];
	size_t n_policies = 0;
	memset(o, 0, sizeof *o);
	o->fmt = REPORT_TABLE;
	o->stats = (struct report_sets){{REPORT_STATS_OURS}, 1};
	workload_opts_default(&o->w);
	policy_opts_default(&o->pol, &o->base);
	int rc = parse_policies("fcfs,easy,cons", policies, 8, &n_policies, msg, len);
	struct option longopts[N_LONGOPTS];
	long_options(longopts);
	opterr = 0;
	int ch;
	/* The leading ':' makes getopt tell a missing argument (':') from an unknown option ('?'). */
	while (rc == SCHED_OK && (ch = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (ch == 'h') {
			o->help = true;
			return SCHED_OK;
		}
		if (ch == '?' && optopt != 0) {
			char name[3] = {'-', (char)optopt, '\0'};
			return options_usage(msg, len, "unknown option", name);
		}
		if (ch == '?' || ch == ':')
			return options_usage(msg, len, ch == ':' ? "option needs an argument" : "unknown option",
					     argv[optind - 1]);
		rc = one_option(ch, optarg, o, policies, &n_policies, msg, len);
	}
	return rc != SCHED_OK ? rc : cross_checks(argc, argv, o, policies, n_policies, msg, len);
}
