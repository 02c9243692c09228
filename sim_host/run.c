/* SPDX-License-Identifier: MIT */
/* The run of build/replay: trace, slice, workload, then each period under each column. */
#define _POSIX_C_SOURCE 200809L
#include "run.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "fields.h"
#include "fixture_io.h"
#include "outpaths.h"
#include "jobs_csv.h"
#include "gang_replay.h"
#include "pictures.h"
#include "pyss_stats.h"
#include "replay.h"
#include "sched/err.h"
#include "sched/hash.h"

static bool header_key(const char *line, const char *key)
{
	const char *p = line + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	size_t k = strlen(key);
	return strncmp(p, key, k) == 0 && p[k] == ':';
}

static void write_jobs_out(FILE *f, const struct swf_trace *t, const struct workload *w,
			   const struct replay_job_out *out, const char *policy, sched_procs_t node_size)
{
	for (size_t i = 0; i < t->hdr.n_lines; i++)
		if (!header_key(t->hdr.lines[i], "MaxProcs") && !header_key(t->hdr.lines[i], "MaxNodes"))
			fprintf(f, "%s\n", t->hdr.lines[i]);
	uint32_t refused = 0;
	for (size_t i = 0; i < w->n; i++)
		refused += out[i].refused;
	/* Whole nodes (--node-size): the machine as its nodes, as a header that describes them says it. */
	fprintf(f, "; MaxNodes: %u\n; MaxProcs: %u\n", node_size > 1 ? w->procs / node_size : w->procs, w->procs);
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

/* The trace's time zone, looked up once (r->zone); SCHED_E_FORMAT when the header has no UnixStartTime. */
static int run_zone(struct run *r, const char *why, char *msg, size_t len)
{
	static struct tz z;
	const struct swf_trace *t = &r->trace;
	if (r->zone != NULL)
		return SCHED_OK;
	if (!t->hdr.has_unix_start) {
		snprintf(msg, len, "%s: %s needs UnixStartTime in the header", r->op->trace, why);
		return SCHED_E_FORMAT;
	}
	const char *name = t->hdr.tz_name[0] ? t->hdr.tz_name : "UTC";
	long fallback = t->hdr.has_tz_offset ? t->hdr.tz_offset : 0;
	if (!tz_lookup(name, fallback, &z))
		fprintf(stderr, "replay: %s: time zone '%s' unknown; using the fixed offset %ld s\n",
			r->op->trace, name, fallback);
	r->zone = &z;
	return SCHED_OK;
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

/*
 * A time option (options_time) in seconds of trace time: a local date is placed
 * by the trace's epoch and zone. SCHED_E_FORMAT without UnixStartTime. O(1).
 */
static int when_resolve(struct run *r, const char *opt, const struct options_time *t, int64_t *out, char *msg,
			size_t len)
{
	if (!t->local) {
		*out = t->v;
		return SCHED_OK;
	}
	char why[48];
	snprintf(why, sizeof why, "a date in %s", opt);
	int rc = run_zone(r, why, msg, len);
	if (rc != SCHED_OK)
		return rc;
	/* The offset in force is found from a guess at standard time: no zone here switches near midnight. */
	int64_t utc = t->v - tz_offset_at(r->zone, t->v - r->zone->std_offset);
	*out = utc - r->trace.hdr.unix_start;
	return SCHED_OK;
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

/*
 * The pictures' calendar (the trace's, unless --shrink made simulated time
 * another clock) and their window in simulated seconds, checked against what
 * is known before the replay: a window ending by the first submit holds
 * nothing. SCHED_E_INVAL for bad usage, SCHED_E_FORMAT a date without an epoch.
 */
static int picture_window(struct run *r, char *msg, size_t len)
{
	const struct opts *op = r->op;
	bool calendar = r->trace.hdr.has_unix_start && op->w.shrink == 1;
	const struct options_time *t[2] = {&op->gantt_from, &op->gantt_to};
	int64_t *out[2] = {&r->pic_from, &r->pic_to};
	const char *name[2] = {"--gantt-from", "--gantt-to"};
	int rc = calendar ? run_zone(r, "a calendar axis", msg, len) : SCHED_OK;
	r->pic_zone = calendar ? r->zone : NULL;
	for (int k = 0; k < 2 && rc == SCHED_OK; k++) {
		if (t[k]->arg == NULL)
			continue;
		if (t[k]->local && op->w.shrink != 1) {
			char what[96];
			snprintf(what, sizeof what, "%s: a date does not apply under --shrink (simulated time is not the trace's calendar)", name[k]);
			return options_usage(msg, len, what, t[k]->arg);
		}
		rc = when_resolve(r, name[k], t[k], out[k], msg, len);
	}
	if (rc != SCHED_OK)
		return rc;
	if (t[0]->arg && t[1]->arg && r->pic_from >= r->pic_to) {
		snprintf(msg, len, "--gantt-from must be before --gantt-to: %s is simulated second %lld, %s second %lld",
			 t[0]->arg, (long long)r->pic_from, t[1]->arg, (long long)r->pic_to);
		return SCHED_E_INVAL;
	}
	int64_t first = (int64_t)r->w.jobs[0].j.submit; /* jobs are sorted by submit */
	if (t[1]->arg && r->pic_to <= first) {
		snprintf(msg, len, "--gantt-to %s (simulated second %lld) is at or before the first submit (second %lld): the window holds nothing of the schedule",
			 t[1]->arg, (long long)r->pic_to, (long long)first);
		return SCHED_E_INVAL;
	}
	return SCHED_OK;
}

/* Load the site, apply --partition and --procs to it; the machine size into *procs. */
static int setup_site(const struct opts *o, struct site *site, sched_procs_t *procs, char *msg, size_t len)
{
	if (site_load(o->site, site, msg, len) != 0)
		return SCHED_E_FORMAT;
	for (size_t i = 0; i < o->n_resize; i++) {
		char name[SITE_NAME_MAX + 1];
		const char *eq = strchr(o->resize[i], '=');
		size_t n = (size_t)(eq - o->resize[i]);
		if (n == 0 || n > SITE_NAME_MAX - 1)
			return options_usage(msg, len, "--partition takes NAME=PROCESSORS", o->resize[i]);
		memcpy(name, o->resize[i], n);
		name[n] = '\0';
		unsigned long v;
		int rc = options_count("--partition", eq + 1, SCHED_NOW_LIMIT - 1, &v, msg, len);
		if (rc != SCHED_OK)
			return rc;
		if (site_resize(site, name, (sched_procs_t)v) != 0)
			return options_usage(msg, len, "--partition names no partition of the site", o->resize[i]);
	}
	if (o->procs && site->cfg.n_partitions > 1)
		return options_usage(msg, len, "--procs with a site of several partitions: use --partition NAME=N", NULL);
	if (o->procs && site->cfg.n_partitions == 1)
		(void)site_resize(site, NULL, (sched_procs_t)o->procs);
	*procs = site_procs(site);
	return SCHED_OK;
}

/* The site's partitions and queues into the base configuration. */
static int load_site(struct run *r, struct opts *op, sched_procs_t *size, char *msg, size_t len)
{
	r->site = calloc(1, sizeof *r->site);
	if (r->site == NULL)
		return SCHED_E_NOSPACE;
	int rc = setup_site(op, r->site, size, msg, len);
	if (rc != SCHED_OK)
		return rc;
	op->w.site = r->site;
	op->base.n_partitions = r->site->cfg.n_partitions;
	memcpy(op->base.partition_procs, r->site->cfg.partition_procs, sizeof op->base.partition_procs);
	op->base.n_queues = r->site->cfg.n_queues;
	memcpy(op->base.queues, r->site->cfg.queues, sizeof op->base.queues);
	return SCHED_OK;
}

/* @p s with every blank made '_': a period name is one word, as the hash lines and the tables split on blanks. */
static void one_word(char *s)
{
	for (; *s; s++)
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			*s = '_';
}

/*
 * The slice's name, the report's period ("months=3-4", "from=A;to=B" with
 * --from and --to as given), and its description for the table's header;
 * both empty for the whole trace. @p first and @p last are the calendar
 * months of --months (year * 12 + month - 1).
 */
static void slice_names(struct run *r, const struct opts *op, int first, int last)
{
	r->slice[0] = r->slice_desc[0] = '\0';
	char secs[80];
	if (op->months) {
		snprintf(r->slice, sizeof r->slice, "months=%ld-%ld", op->month_a, op->month_b);
		snprintf(secs, sizeof secs, "%04d-%02d to %04d-%02d, trace seconds %lld to %lld", first / 12,
			 first % 12 + 1, last / 12, last % 12 + 1, (long long)op->w.from, (long long)op->w.to);
	} else if (op->from || op->to) {
		snprintf(r->slice, sizeof r->slice, "%s%.40s%s%s%.40s", op->from ? "from=" : "", op->from ? op->from : "",
			 op->from && op->to ? ";" : "", op->to ? "to=" : "", op->to ? op->to : "");
		one_word(r->slice);
		if (op->from && op->to)
			snprintf(secs, sizeof secs, "trace seconds %lld to %lld", (long long)op->w.from, (long long)op->w.to);
		else if (op->from)
			snprintf(secs, sizeof secs, "trace seconds %lld on", (long long)op->w.from);
		else
			snprintf(secs, sizeof secs, "trace seconds before %lld", (long long)op->w.to);
	} else {
		return;
	}
	snprintf(r->slice_desc, sizeof r->slice_desc, "slice %s (%s)", r->slice, secs);
}

/* --from, --to and --months, on the trace's own submit times. */
static int slice(struct run *r, struct opts *op, char *msg, size_t len)
{
	int rc = SCHED_OK;
	if (op->from)
		rc = when_resolve(r, "--from", &op->from_t, &op->w.from, msg, len);
	if (rc == SCHED_OK && op->to)
		rc = when_resolve(r, "--to", &op->to_t, &op->w.to, msg, len);
	if (rc == SCHED_OK && (op->months || op->by_month))
		rc = run_zone(r, op->months ? "--months" : "--by-month", msg, len);
	if (rc == SCHED_OK && !op->months)
		slice_names(r, op, 0, 0);
	if (rc != SCHED_OK || !op->months)
		return rc;
	int y, m;
	tz_year_month(r->zone, r->trace.hdr.unix_start + (int64_t)first_submit(&r->trace), &y, &m);
	int first = y * 12 + m - 1 + (int)op->month_a - 1, last = y * 12 + m - 1 + (int)op->month_b;
	op->w.from = tz_month_start(r->zone, first / 12, first % 12 + 1) - r->trace.hdr.unix_start;
	op->w.to = tz_month_start(r->zone, last / 12, last % 12 + 1) - r->trace.hdr.unix_start;
	slice_names(r, op, first, last - 1);
	return SCHED_OK;
}

/*
 * --by-month: the skipped jobs of each month, by their trace submit time as
 * the replayed jobs' months are. A skipped job in a month where no job is
 * replayed has no row: it counts only in the total (report header, JSON
 * "skipped"). O(skipped x log months).
 */
static void month_skips(struct run *r)
{
	const struct workload *w = &r->w;
	for (size_t k = 0; k < w->n_skipped_idx; k++) {
		int y, m;
		tz_year_month(r->zone, r->trace.hdr.unix_start + r->trace.jobs[w->skipped_idx[k]].submit, &y, &m);
		int key = y * 12 + m - 1;
		size_t lo = 0, hi = r->n_periods; /* the months of the periods ascend */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (r->keys[r->starts[mid]] < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < r->n_periods && r->keys[r->starts[lo]] == key)
			r->period_skipped[lo][w->skipped_why[k]]++;
	}
}

/* The periods (the whole trace, or each month in order: jobs are sorted by submit) and the job names. */
static int periods(struct run *r)
{
	const struct workload *w = &r->w;
	r->keys = r->op->by_month ? month_keys(&r->trace, w, r->zone) : NULL;
	r->starts = malloc((w->n + 1) * sizeof *r->starts);
	r->names = malloc(w->n * sizeof *r->names);
	if ((r->op->by_month && r->keys == NULL) || r->starts == NULL || r->names == NULL)
		return SCHED_E_NOSPACE;
	for (size_t i = 0; i < w->n; i++)
		if (i == 0 || (r->keys && r->keys[i] != r->keys[i - 1]))
			r->starts[r->n_periods++] = i;
	r->starts[r->n_periods] = w->n;
	if (r->keys) {
		r->period_skipped = calloc(r->n_periods, sizeof *r->period_skipped);
		if (r->period_skipped == NULL)
			return SCHED_E_NOSPACE;
		month_skips(r);
	}
	for (size_t i = 0; i < w->n; i++)
		r->names[i] = (long)r->trace.jobs[w->jobs[i].idx].job;
	size_t cells = r->n_periods * r->op->n_specs;
	r->rows = calloc(cells, sizeof *r->rows);
	r->hashes = calloc(cells, sizeof *r->hashes);
	r->all_out = calloc(w->n, sizeof *r->all_out);
	return r->rows && r->hashes && r->all_out ? SCHED_OK : SCHED_E_NOSPACE;
}

/*
 * Warnings about a header that lies or is overruled, on stderr (the run goes
 * on): a MaxProcs narrower than jobs the log ran (the conventions then skip
 * them as wider than the machine, unless the machine is made wider), and a
 * --procs that differs from the header's size. O(n).
 */
static void header_warnings(const struct run *r)
{
	const struct opts *op = r->op;
	const struct swf_header *h = &r->trace.hdr;
	long size = swf_machine_size(h);
	const char *key = h->max_procs > 0 ? "MaxProcs" : "MaxNodes";
	if (op->procs && size > 0 && (long)op->procs != size)
		fprintf(stderr, "replay: %s: warning: --procs %lu differs from the header's %s %ld\n", op->trace,
			op->procs, key, size);
	if (h->max_procs <= 0)
		return;
	uint32_t wider = 0;
	int32_t widest = 0;
	for (size_t i = 0; i < r->trace.n; i++) {
		/* The conventions' processors (clean.h): field 5 if > 0, else field 8. */
		const struct fix_job *j = &r->trace.jobs[i];
		int32_t procs = j->alloc_procs > 0 ? j->alloc_procs : j->req_procs;
		wider += procs > h->max_procs;
		widest = procs > widest ? procs : widest;
	}
	if (wider == 0)
		return;
	fprintf(stderr, "replay: %s: warning: the header's MaxProcs %ld is narrower than %u job%s of the trace "
		"(the widest has %d processors)", op->trace, h->max_procs, wider, wider == 1 ? "" : "s", widest);
	if ((long)r->procs < widest)
		fprintf(stderr, "; on %u processors the wider ones are skipped (give --procs %d to replay them)\n",
			r->procs, widest);
	else
		fprintf(stderr, "; they are replayed on %u processors\n", r->procs);
}

/*
 * --node-size K: the machine rounded down to whole nodes in *procs; without it, a note on stderr when
 * the header describes nodes of several processors (MaxProcs a multiple of MaxNodes).
 */
static int node_machine(const struct opts *op, const struct swf_header *h, long *procs, char *msg, size_t len)
{
	long k = op->w.node_size;
	if (k > *procs) {
		snprintf(msg, len, "%s: --node-size %ld is more than the machine's %ld processors (it takes 1 to %ld)",
			 op->trace, k, *procs, *procs);
		return SCHED_E_INVAL;
	}
	if (k > 1)
		*procs -= *procs % k;
	bool gang = false; /* not for gang (options.c): no hint it would refuse */
	for (size_t c = 0; c < op->n_specs; c++)
		gang |= sched_policy_timeshared(op->specs[c].policy);
	if (k == 0 && !op->site && !gang && h->max_nodes > 0 && h->max_procs > h->max_nodes && h->max_procs % h->max_nodes == 0)
		fprintf(stderr, "replay: %s: the header gives %ld nodes of %ld processors (MaxNodes %ld, MaxProcs %ld); "
				"--node-size %ld allocates them whole\n",
			op->trace, h->max_nodes, h->max_procs / h->max_nodes, h->max_nodes, h->max_procs,
			h->max_procs / h->max_nodes);
	return SCHED_OK;
}

int run_prepare(struct run *r, struct opts *op, char *msg, size_t len)
{
	memset(r, 0, sizeof *r);
	r->op = op;
	/* Every output, before any work: a path that cannot be written fails now, not after the replay. */
	const struct outpath outs[] = {
		{"--jobs-out", op->jobs_out}, {"--jobs-csv", op->jobs_csv}, {"--events-out", op->events_out}, {"--gantt", op->gantt},
		{"--timeline", op->timeline}, {"--timeline-svg", op->timeline_svg},
	};
	if (!outpaths_check(outs, sizeof outs / sizeof outs[0], msg, len))
		return SCHED_E_NOENT;
	sched_procs_t site_size = 0;
	int rc = op->site ? load_site(r, op, &site_size, msg, len) : SCHED_OK;
	if (rc == SCHED_OK && trace_load(op->trace, op->jobs_out != NULL, &r->trace, msg, len) != 0)
		rc = SCHED_E_FORMAT;
	if (rc == SCHED_OK)
		rc = slice(r, op, msg, len);
	if (rc != SCHED_OK)
		return rc;
	long procs = site_size ? (long)site_size : op->procs ? (long)op->procs : swf_machine_size(&r->trace.hdr);
	if (procs <= 0) {
		snprintf(msg, len, "%s: no MaxProcs or MaxNodes in the header; give --procs", op->trace);
		return SCHED_E_FORMAT;
	}
	rc = node_machine(op, &r->trace.hdr, &procs, msg, len);
	if (rc != SCHED_OK)
		return rc;
	r->procs = (sched_procs_t)procs;
	char err[512];
	rc = workload_build(&r->trace, r->procs, &op->w, &r->w, err, sizeof err);
	if (rc != SCHED_OK) {
		snprintf(msg, len, "%s: %s", op->trace, err);
		return rc;
	}
	if (r->trace.trailing)
		fprintf(stderr, "replay: warning: %s: %llu bytes after the end of the gzip data, ignored\n", op->trace,
			(unsigned long long)r->trace.trailing);
	header_warnings(r);
	if (r->trace.non_integral)
		fprintf(stderr, "replay: %s: %u values with a fraction in integer fields were truncated\n",
			op->trace, r->trace.non_integral);
	if (op->events_out && (r->events = fopen(op->events_out, "w")) == NULL) {
		snprintf(msg, len, "%s: %s", op->events_out, strerror(errno));
		return SCHED_E_NOENT;
	}
	if ((op->gantt || op->timeline || op->timeline_svg) && (rc = picture_window(r, msg, len)) != SCHED_OK)
		return rc;
	rc = periods(r);
	if (rc != SCHED_OK)
		snprintf(msg, len, "out of memory");
	return rc;
}

/* Which kinds of columns there are: every row of a report carries the same extra figures. */
struct columns {
	bool planning, family, dynp, gang;
};

static struct columns columns_of(const struct opts *op)
{
	struct columns c = {false, false, false, false};
	for (size_t p = 0; p < op->n_specs; p++) {
		enum sched_policy_id id = op->specs[p].policy;
		c.gang |= sched_policy_timeshared(id); /* section 4.3's statistics */
		c.planning |= sched_policy_needs_scratch(id);
		struct sched_policy_info info;
		c.family |= sched_policy_info(id, &info) == SCHED_OK && strcmp(info.family, "dynp") == 0;
		c.dynp |= id == SCHED_POLICY_DYNP_BASIC || id == SCHED_POLICY_DYNP;
	}
	return c;
}

/* Replay jobs [a, b) under one column. */
static int replay_column(struct run *r, const struct run_spec *spec, size_t a, size_t b,
			 struct replay_result *res, struct gang_stats *gs, char *err, size_t errlen)
{
	const struct opts *op = r->op;
	/* A time-shared policy (the registry says which) runs through the same engine; its
	 * slots in use over time feed the timeline, and section 4.3's statistics its row. */
	bool ts = sched_policy_timeshared(spec->policy);
	if (ts && gang_replay_check(r->procs, b - a, err, errlen) != SCHED_OK)
		return SCHED_E_RANGE;
	struct replay_opts o = {
		.base = op->base, .policy = spec->policy, .procs = r->procs,
		.capacity = (uint32_t)op->capacity, .check = op->check, .hash = op->hash, .events = r->events,
		.names = r->names + a, .ev_queue = op->site != NULL,
		.ev_prio = spec->policy == SCHED_POLICY_SLACK,
		.ev_part = op->site != NULL && r->site->cfg.n_partitions > 1, .ev_plans = op->plans,
		.progress = &r->progress, .slots = ts && (op->timeline != NULL || op->timeline_svg != NULL),
	};
	policy_spec_apply(spec, &o.base);
	o.base.scratch_jobs = (uint32_t)op->pol.scratch;
	int rc = replay_run(r->w.jobs + a, b - a, &o, res, err, errlen);
	if (rc == SCHED_OK && ts)
		gang_replay_stats(r->w.jobs + a, b - a, &o.base, r->procs, res, gs);
	return rc;
}

/* --node-size: what the row's jobs asked for and were given, in processor-seconds (their time held). */
static void row_nodes(const struct run *r, struct report_row *row, const struct replay_result *res, size_t a, size_t b)
{
	uint64_t asked = 0, given = 0;
	for (size_t i = 0; i < b - a; i++) {
		if (res->out[i].refused)
			continue;
		uint64_t held = res->out[i].end - res->out[i].start;
		asked += held * r->w.jobs[a + i].trace_procs;
		given += held * r->w.jobs[a + i].j.procs;
	}
	report_row_nodes(row, asked, given, r->procs);
}

/* The extra figures of one row: per kind of column, per priority class, per site queue. */
static void row_extras(const struct run *r, struct report_row *row, const struct replay_result *res,
		       const struct gang_stats *gs, size_t a, size_t b)
{
	const struct opts *op = r->op;
	struct columns c = columns_of(op);
	if (c.gang)
		report_row_gang(row, gs);
	if (c.family)
		report_row_dynp(row, &res->dynp, c.dynp);
	if (c.planning || op->site) {
		report_row_extra(row, "relaxed starts", "relaxed_starts", 0, res->counters.relaxed);
		report_row_extra(row, "scratch fallbacks", "scratch_fallbacks", 0, res->counters.scratch_short);
		report_row_extra(row, "starts held by limits", "limit_holds", 0, res->counters.limited);
	}
	if (op->pol.hi_every) {
		struct report_subset hi = {0}, lo = {0};
		for (size_t i = 0; i < b - a; i++)
			report_subset_add((i + 1) % op->pol.hi_every == 0 ? &hi : &lo, &res->out[i]);
		report_row_subset(row, "hi-pri", "hi_pri", &hi);
		report_row_subset(row, "lo-pri", "lo_pri", &lo);
	}
	if (op->w.node_size)
		row_nodes(r, row, res, a, b);
	for (unsigned q = 0; op->site && r->site->cfg.n_queues > 1 && q < r->site->cfg.n_queues; q++) {
		struct report_subset x = {0};
		for (size_t i = 0; i < b - a; i++)
			if (r->w.jobs[a + i].j.queue == q)
				report_subset_add(&x, &res->out[i]);
		char label[64], key[64];
		snprintf(label, sizeof label, "q %s", r->site->queue_name[q]);
		snprintf(key, sizeof key, "queue_%s", r->site->queue_name[q]);
		report_row_subset(row, label, key, &x);
	}
}

/*
 * pyss's statistics of one row (--stats-as pyss): under time sharing the run
 * is the dedicated time, as in the row's own metrics, so the quantum is needed.
 */
static int row_pyss(const struct run *r, const struct run_spec *spec, struct report_row *row,
		    const struct replay_result *res, size_t a, size_t b, char *msg, size_t len)
{
	sched_time_t quantum = 0;
	if (sched_policy_timeshared(spec->policy)) {
		struct sched_config cfg = r->op->base;
		policy_spec_apply(spec, &cfg);
		quantum = sched_param_get(&cfg, sched_param_find("quantum", NULL));
	}
	int rc = pyss_stats_compute(r->w.jobs + a, res->out, b - a, quantum, &row->pyss);
	row->has_pyss = rc == SCHED_OK;
	if (rc != SCHED_OK)
		snprintf(msg, len, "out of memory");
	return rc;
}

/* One period under one column: replay, then its report row. */
static int run_cell(struct run *r, size_t per, size_t p, const char *period, char *msg, size_t len)
{
	size_t a = r->starts[per], b = r->starts[per + 1];
	const struct run_spec *spec = &r->op->specs[p];
	struct replay_result res;
	struct gang_stats gs;
	char err[512];
	int rc = replay_column(r, spec, a, b, &res, &gs, err, sizeof err);
	if (rc != SCHED_OK) {
		snprintf(msg, len, "%s: %s", r->op->trace, err);
		return rc == SCHED_E_INVAL ? SCHED_E_STATE : rc; /* a failed replay, never bad usage */
	}
	uint32_t refused_room = 0, refused_limit = 0;
	for (size_t i = 0; i < b - a; i++) {
		refused_room += res.out[i].refused && res.out[i].refuse_err != SCHED_E_LIMIT;
		refused_limit += res.out[i].refused && res.out[i].refuse_err == SCHED_E_LIMIT;
	}
	bool gang = sched_policy_timeshared(spec->policy);
	struct report_row *row = &r->rows[per * r->op->n_specs + p];
	const uint32_t *skips = r->keys ? r->period_skipped[per] : r->w.skipped;
	report_row_fill(row, spec->name, period, &res.metrics, &res.counters, r->procs, refused_room, refused_limit,
			res.max_jobs_in_system);
	report_row_skips(row, skips);
	struct dist_stats dist;
	rc = dist_compute(r->w.jobs + a, res.out, b - a, &dist);
	if (rc != SCHED_OK) {
		snprintf(msg, len, "out of memory");
		replay_result_free(&res);
		return rc;
	}
	report_row_dist(row, &dist);
	/* Loss of capacity assumes a job holds its processors from start to end: not under time sharing. */
	row->loc = gang ? NAN : res.loc;
	row_extras(r, row, &res, gang ? &gs : NULL, a, b);
	if (report_stats_has(&r->op->stats, REPORT_STATS_PYSS))
		rc = row_pyss(r, spec, row, &res, a, b, msg, len);
	if (rc != SCHED_OK) {
		replay_result_free(&res);
		return rc;
	}
	r->hashes[per * r->op->n_specs + p] = res.hash;
	if (r->op->jobs_out || r->op->jobs_csv || r->op->gantt || r->op->timeline || r->op->timeline_svg)
		memcpy(r->all_out + a, res.out, (b - a) * sizeof *res.out);
	if (res.slots != NULL) {
		/* The timeline's slots in use: one column and one period (options.c), kept for write_pictures. */
		free(r->slots);
		r->slots = res.slots, r->n_slots = res.n_slots;
		res.slots = NULL, res.n_slots = 0;
	}
	replay_result_free(&res);
	return SCHED_OK;
}

int run_replays(struct run *r, char *msg, size_t len)
{
	const struct opts *op = r->op;
	/* The periods split the jobs, so every column replays each job once. */
	progress_start(&r->progress, stderr, op->progress, "replay", "jobs", (uint64_t)r->w.n * op->n_specs);
	int rc = SCHED_OK;
	for (size_t per = 0; rc == SCHED_OK && per < r->n_periods; per++) {
		size_t a = r->starts[per], b = r->starts[per + 1];
		/* The slice names the period: a row says which jobs it replayed (docs/replay.md). */
		char period[REPORT_PERIOD_MAX];
		snprintf(period, sizeof period, "%s", r->slice[0] ? r->slice : "all");
		if (r->keys)
			snprintf(period, sizeof period, "%04d-%02d", r->keys[a] / 12, r->keys[a] % 12 + 1);
		/* Talby and Feitelson 1999 section 3.3: within each replayed log, every K-th job is of
		 * high priority, UP + PP = the gap (Table 4: 0 to 2; user priority filled first). */
		uint32_t gap = op->pol.hi_gap_given ? op->pol.hi_gap_milli : 2000u;
		for (size_t i = a; op->pol.hi_every && i < b; i++) {
			bool hi = (i - a + 1) % op->pol.hi_every == 0;
			r->w.jobs[i].j.up_milli = (uint16_t)(hi ? (gap > 1000u ? 1000u : gap) : 0u);
			r->w.jobs[i].j.pp_milli = (uint16_t)(hi ? (gap > 1000u ? gap - 1000u : 0u) : 0u);
		}
		for (size_t p = 0; rc == SCHED_OK && p < op->n_specs; p++)
			rc = run_cell(r, per, p, period, msg, len);
	}
	/* Also on failure: the terminal line is blanked before main() prints the error. */
	progress_end(&r->progress);
	return rc;
}

/* --gantt, --timeline, --timeline-svg: the one column's schedule over the whole workload. */
static int write_pictures(struct run *r, char *msg, size_t len)
{
	const struct opts *op = r->op;
	const char *path[3] = {op->gantt, op->timeline, op->timeline_svg};
	struct picture_src s = {
		.jobs = r->w.jobs, .out = r->all_out, .names = r->names, .n = r->w.n, .procs = r->procs,
		.trace = path_base_name(op->trace), .policy = op->specs[0].name, .slots = r->slots, .n_slots = r->n_slots,
		.zone = r->pic_zone, .epoch = r->trace.hdr.unix_start, .has_from = op->gantt_from.arg != NULL,
		.has_to = op->gantt_to.arg != NULL, .from = r->pic_from, .to = r->pic_to,
	};
	/* Only the replay tells where the schedule ends: a window after it is a warning and a picture that says so. */
	if (s.has_from && (op->gantt || op->timeline || op->timeline_svg) && pictures_window_empty(&s)) {
		sched_time_t lo, hi;
		pictures_span(&s, &lo, &hi);
		fprintf(stderr, "replay: warning: --gantt-from %s (simulated second %lld) is at or after the schedule's last end (second %lld): the pictures say so and draw nothing\n",
			op->gantt_from.arg, (long long)r->pic_from, (long long)hi);
	}
	for (int k = 0; k < 3; k++) {
		if (path[k] == NULL)
			continue;
		/* Opened only now, so a failed replay leaves an older picture of that name as it was. */
		if ((r->pic[k] = fopen(path[k], "w")) == NULL) {
			snprintf(msg, len, "%s: %s", path[k], strerror(errno));
			return SCHED_E_STATE;
		}
		int rc = k == 0 ? pictures_gantt(r->pic[k], &s)
		       : k == 1 ? pictures_timeline_csv(r->pic[k], &s) : pictures_timeline_svg(r->pic[k], &s);
		bool bad = ferror(r->pic[k]) != 0;
		bad |= fclose(r->pic[k]) != 0;
		r->pic[k] = NULL;
		if (rc != 0 || bad) {
			snprintf(msg, len, "%s: %s", path[k], rc != 0 ? "out of memory" : "write failed");
			return rc != 0 ? SCHED_E_NOSPACE : SCHED_E_STATE;
		}
	}
	return SCHED_OK;
}

/*
 * 64-bit FNV-1a over the file's bytes as stored (a .gz trace: its compressed
 * bytes), and its size: enough to tell two traces of the same name apart.
 * false when the file cannot be read again.
 */
static bool file_fnv1a64(const char *path, uint64_t *hash, uint64_t *size)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return false;
	uint64_t h = SCHED_FNV_OFFSET, n = 0;
	unsigned char buf[65536];
	size_t got;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
		h = sched_fnv1a(h, buf, got);
		n += got;
	}
	bool ok = !ferror(f);
	fclose(f);
	*hash = h;
	*size = n;
	return ok;
}

#ifndef REPLAY_VERSION
#define REPLAY_VERSION "unknown"
#endif

/* The policies' registry parameters in force: each column's policy once, its listed values joined by ';'. */
static void run_params(const struct opts *op, struct report_run *run)
{
	bool seen[SCHED_POLICY_COUNT] = {false};
	for (size_t c = 0; c < op->n_specs; c++) {
		enum sched_policy_id id = op->specs[c].policy;
		if ((unsigned)id >= SCHED_POLICY_COUNT || seen[id])
			continue;
		seen[id] = true;
		const struct sched_param *ps;
		unsigned np = sched_policy_params(id, &ps);
		for (unsigned i = 0; i < np && i < POLICY_PARAMS_MAX; i++) {
			char key[48], val[160] = "", one[48];
			snprintf(key, sizeof key, "%s.%s", sched_policy_name(id), ps[i].name);
			size_t nl = op->pol.n_list[id][i], at = 0;
			for (size_t v = 0; v < (nl ? nl : 1) && at < sizeof val; v++) {
				sched_param_format(&ps[i], nl ? op->pol.list[id][i][v] : sched_param_get(&op->base, &ps[i]),
						   one, sizeof one);
				at += (size_t)snprintf(val + at, sizeof val - at, "%s%s", v ? ";" : "", one);
			}
			/* A choice is a name, the others numbers; several values (one column each) a list. */
			bool text = ps[i].kind == SCHED_PARAM_CHOICE;
			enum report_run_kind kind = nl > 1 ? (text ? REPORT_RUN_TEXT_LIST : REPORT_RUN_NUMBER_LIST)
						    : (text ? REPORT_RUN_TEXT : REPORT_RUN_NUMBER);
			report_run_add(run, kind, key, "%s", val);
		}
	}
}

/* @p v in the fewest digits that read back as the same double: 0.8, not 0.80000000000000004. */
static const char *shortest(double v, char *buf, size_t len)
{
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

/* Text @p s, or null when it is absent (NULL or empty). */
static void add_text_or_null(struct report_run *run, const char *key, const char *s)
{
	report_run_add(run, s && *s ? REPORT_RUN_TEXT : REPORT_RUN_NULL, key, "%s", s ? s : "");
}

/* Every option that shaped the run, defaults included, and what was replayed (report.h). */
static void run_record(const struct run *r, struct report_run *run)
{
	const struct opts *op = r->op;
	memset(run, 0, sizeof *run);
	report_run_add(run, REPORT_RUN_TEXT, "version", "%s", REPLAY_VERSION);
	report_run_add(run, REPORT_RUN_TEXT, "trace", "%s", path_base_name(op->trace));
	uint64_t h = 0, size = 0;
	/* A trace that cannot be read again (replaced meanwhile) has no size or checksum: null. */
	bool ok = file_fnv1a64(op->trace, &h, &size);
	report_run_add(run, ok ? REPORT_RUN_NUMBER : REPORT_RUN_NULL, "trace_bytes", "%llu", (unsigned long long)size);
	report_run_add(run, ok ? REPORT_RUN_TEXT : REPORT_RUN_NULL, "trace_fnv1a64", "%016llx", (unsigned long long)h);
	report_run_add(run, REPORT_RUN_NUMBER, "procs", "%u", r->procs);
	char list[160] = "";
	for (size_t c = 0, at = 0; c < op->n_specs && at < sizeof list; c++)
		at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", c ? ";" : "", op->specs[c].name);
	report_run_add(run, REPORT_RUN_TEXT_LIST, "policy", "%s", list);
	run_params(op, run);
	/* Unbounded (every job) and the default (the capacity) are null: no number says them. */
	report_run_add(run, op->capacity ? REPORT_RUN_NUMBER : REPORT_RUN_NULL, "capacity", "%lu", op->capacity);
	report_run_add(run, op->pol.scratch ? REPORT_RUN_NUMBER : REPORT_RUN_NULL, "scratch", "%lu", op->pol.scratch);
	report_run_add(run, REPORT_RUN_NUMBER, "hi_pri_every", "%lu", op->pol.hi_every);
	uint32_t gap = op->pol.hi_gap_given ? op->pol.hi_gap_milli : 2000u;
	report_run_add(run, REPORT_RUN_NUMBER, "hi_pri_gap", "%u.%03u", gap / 1000, gap % 1000);
	add_text_or_null(run, "site", op->site ? path_base_name(op->site) : NULL);
	list[0] = '\0';
	for (size_t i = 0, at = 0; i < op->n_resize && at < sizeof list; i++)
		at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i ? ";" : "", op->resize[i]);
	report_run_add(run, op->n_resize ? REPORT_RUN_TEXT_LIST : REPORT_RUN_NULL, "partition", "%s", list);
	/* The slice as given, and as the trace seconds [from, to) it came to (null: unbounded). */
	add_text_or_null(run, "months", op->months);
	add_text_or_null(run, "from_arg", op->from);
	add_text_or_null(run, "to_arg", op->to);
	const struct workload_opts *w = &op->w;
	bool has_from = op->from || op->months, has_to = op->to || op->months;
	report_run_add(run, has_from ? REPORT_RUN_NUMBER : REPORT_RUN_NULL, "from", "%lld", (long long)w->from);
	report_run_add(run, has_to ? REPORT_RUN_NUMBER : REPORT_RUN_NULL, "to", "%lld", (long long)w->to);
	report_run_add(run, REPORT_RUN_BOOL, "by_month", "%s", op->by_month ? "true" : "false");
	report_run_add(run, REPORT_RUN_NUMBER, "shrink", "%s", shortest(w->shrink, list, sizeof list));
	report_run_add(run, REPORT_RUN_NUMBER, "node_size", "%u", w->node_size ? w->node_size : 1u);
	if (w->estimates == EST_FACTOR)
		report_run_add(run, REPORT_RUN_TEXT, "estimates", "f=%s", shortest(w->factor, list, sizeof list));
	else
		report_run_add(run, REPORT_RUN_TEXT, "estimates", "%s", w->estimates == EST_TRACE ? "trace" : "exact");
	report_run_add(run, REPORT_RUN_NUMBER, "seed", "%llu", (unsigned long long)w->seed);
	report_run_add(run, REPORT_RUN_BOOL, "check", "%s", op->check ? "true" : "false");
	list[0] = '\0';
	for (size_t i = 0, at = 0; i < op->stats.n && at < sizeof list; i++)
		at += (size_t)snprintf(list + at, sizeof list - at, "%s%s", i ? ";" : "", report_stats_name(op->stats.set[i]));
	report_run_add(run, REPORT_RUN_TEXT_LIST, "stats_as", "%s", list);
}

/* --jobs-out: the schedule as SWF. */
static void write_jobs_swf(FILE *f, const struct run *r)
{
	write_jobs_out(f, &r->trace, &r->w, r->all_out, r->op->specs[0].name, r->op->w.node_size);
}

/* --jobs-csv: the table of jobs. */
static void write_jobs_csv(FILE *f, const struct run *r)
{
	jobs_csv_write(f, &r->trace, &r->w, r->all_out, r->site, sched_policy_timeshared(r->op->specs[0].policy));
}

/* One of the per-job files, written by @p write into @p path once the report is out. */
static int write_jobs_file(const struct run *r, const char *path, void (*write)(FILE *, const struct run *),
			   char *msg, size_t len)
{
	FILE *f = fopen(path, "w");
	if (f == NULL) {
		snprintf(msg, len, "%s: %s", path, strerror(errno));
		return SCHED_E_STATE;
	}
	write(f, r);
	bool bad = ferror(f) != 0;
	if ((fclose(f) != 0) | bad) {
		snprintf(msg, len, "%s: write failed", path);
		return SCHED_E_STATE;
	}
	return SCHED_OK;
}

int run_output(struct run *r, char *msg, size_t len)
{
	const struct opts *op = r->op;
	size_t n = r->n_periods * op->n_specs;
	static struct report_run run; /* 26 KB: off the stack */
	run_record(r, &run);
	report_print(stdout, op->fmt, path_base_name(op->trace), r->procs, r->w.skipped, r->rows, n,
		     op->n_specs, op->by_month, r->slice_desc, &run, &op->stats);
	for (size_t i = 0; op->hash && i < n; i++)
		printf("hash %s %s %016llx\n", r->rows[i].policy, r->rows[i].period, (unsigned long long)r->hashes[i]);
	int rc = write_pictures(r, msg, len);
	if (rc == SCHED_OK && op->jobs_out != NULL)
		rc = write_jobs_file(r, op->jobs_out, write_jobs_swf, msg, len);
	if (rc == SCHED_OK && op->jobs_csv != NULL)
		rc = write_jobs_file(r, op->jobs_csv, write_jobs_csv, msg, len);
	return rc;
}

int run_free(struct run *r, char *msg, size_t len)
{
	int rc = SCHED_OK;
	if (r->events && fclose(r->events) != 0) {
		snprintf(msg, len, "%s: write failed", r->op->events_out);
		rc = SCHED_E_STATE;
	}
	for (int k = 0; k < 3; k++)
		if (r->pic[k])
			fclose(r->pic[k]); /* a failed run: the picture is not written */
	free(r->all_out);
	free(r->slots);
	free(r->hashes);
	free(r->rows);
	free(r->names);
	free(r->starts);
	free(r->period_skipped);
	free(r->keys);
	workload_free(&r->w);
	swf_free(&r->trace);
	if (r->site)
		site_free(r->site);
	free(r->site);
	memset(r, 0, sizeof *r);
	return rc;
}
