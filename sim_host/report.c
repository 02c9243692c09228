/* SPDX-License-Identifier: MIT */
/* Report writers: metrics side by side per policy (table), or one record per replay (CSV, JSON). */
#include "report.h"

#include "fields.h"
#include "sched/err.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

void report_row_fill(struct report_row *row, const char *policy, const char *period,
		     const struct sched_metrics *m, const struct sched_counters *c,
		     sched_procs_t procs, uint32_t refused_room, uint32_t refused_limit, uint32_t peak_jobs)
{
	memset(row, 0, sizeof *row);
	row->policy = policy;
	snprintf(row->period, sizeof row->period, "%s", period);
	row->jobs = m->jobs;
	row->refused = refused_room + refused_limit;
	row->refused_room = refused_room;
	row->refused_limit = refused_limit;
	row->backfilled = c->backfilled;
	row->peak_jobs = peak_jobs;
	sched_metrics_summarize(m, procs, &row->sum);
	row->loc = NAN;
}

void report_row_skips(struct report_row *row, const uint32_t by[TRACE_SKIP_COUNT])
{
	row->skipped = 0;
	for (int k = 0; k < TRACE_SKIP_COUNT; k++) {
		row->skipped_by[k] = by[k];
		row->skipped += by[k];
	}
}

void report_row_dist(struct report_row *row, const struct dist_stats *d)
{
	row->dist = *d;
	row->has_dist = true;
}

void report_row_extra(struct report_row *row, const char *label, const char *key, int decimals, double v)
{
	if (row->n_extra == REPORT_EXTRA_MAX)
		return;
	struct report_extra *e = &row->extra[row->n_extra++];
	/* Longer names are cut to the field, as before: say so to the compiler. */
	snprintf(e->label, sizeof e->label, "%.*s", (int)sizeof e->label - 1, label);
	snprintf(e->key, sizeof e->key, "%.*s", (int)sizeof e->key - 1, key);
	e->decimals = decimals;
	e->v = v;
}

void report_subset_add(struct report_subset *x, const struct replay_job_out *o)
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

void report_row_subset(struct report_row *row, const char *label, const char *key, const struct report_subset *x)
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

/* Zhou, Walsh and Brent 2000, section 4.3: the statistics (NaN for a column that is not gang scheduling). */
void report_row_gang(struct report_row *row, const struct gang_stats *g)
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
	report_row_extra(row, "bound on slots", "gang_slot_cap", 0, g ? g->slot_cap : nan);
	report_row_extra(row, "legal shifts (re-packing)", "gang_repacks", 0, g ? g->repacks : nan);
	report_row_extra(row, "extra slots given", "gang_extra_slots", 0, g ? g->extra_slots : nan);
}

/* The counters of seed 004 Tables 4 to 6 for one replay under the dynP family. */
void report_row_dynp(struct report_row *row, const struct sched_dynp_stats *d, bool deciding)
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

void report_row_nodes(struct report_row *row, uint64_t asked, uint64_t given, sched_procs_t procs)
{
	/* The core's utilization counts what it allocated; the requested one is what a user would bill. */
	double capacity = (double)procs * (double)row->sum.makespan;
	report_row_extra(row, "requested proc-seconds", "requested_proc_seconds", 0, (double)asked);
	report_row_extra(row, "allocated proc-seconds", "allocated_proc_seconds", 0, (double)given);
	report_row_extra(row, "utilization requested (%)", "utilization_requested_pct", 2,
			 capacity > 0 ? 100.0 * (double)asked / capacity : NAN);
	report_row_extra(row, "utilization allocated (%)", "utilization_allocated_pct", 2,
			 capacity > 0 ? 100.0 * (double)given / capacity : NAN);
}

struct metric {
	const char *label;   /* table */
	const char *key;     /* csv/json */
	int decimals;
	double (*get)(const struct report_row *r, int k);  /* NaN: none */
	int k;
	uint64_t (*micro)(const struct report_row *r, int k); /* the core's millionths, printed exactly; or NULL */
};

#define GETTER(name, expr) \
	static double name(const struct report_row *r, int k) { (void)k; return (expr); }
/* Millionths as a number, for the NaN test; what is printed is the integer itself (metric_text). */
static double micro(uint64_t v)
{
	return (double)v / SCHED_MICRO;
}
#define MICRO(name, expr) \
	static uint64_t name(const struct report_row *r, int k) { (void)k; return (expr); }
MICRO(m_avg_wait, r->sum.avg_wait_micro)
MICRO(m_avg_run, r->sum.avg_run_micro)
MICRO(m_avg_bsld, r->sum.avg_bsld_micro)
MICRO(m_avg_resp, r->sum.avg_response_micro)
MICRO(m_ef, r->sum.ef_micro)
MICRO(m_ef_class, r->sum.ef_class_micro[k])
MICRO(m_util, r->sum.util_pct_micro)
MICRO(m_artww, r->sum.artww_micro)
MICRO(m_sldww60, r->sum.sldww60_micro)
MICRO(m_sldww300, r->sum.sldww300_micro)

MICRO(m_bsld_p50, r->dist.bsld_p50_micro)
MICRO(m_bsld_p95, r->dist.bsld_p95_micro)
MICRO(m_bsld_p99, r->dist.bsld_p99_micro)
MICRO(m_bsld_max, r->dist.bsld_max_micro)
MICRO(m_worst_user, r->dist.worst_user_bsld_micro)

GETTER(g_jobs, r->jobs)
GETTER(g_skipped, r->skipped)
GETTER(g_refused, r->refused)
GETTER(g_killed, r->sum.killed)
GETTER(g_backfilled, r->backfilled)
GETTER(g_peak, r->peak_jobs)
GETTER(g_avg_wait, micro(r->sum.avg_wait_micro))
GETTER(g_max_wait, r->sum.max_wait)
/* A minimum over no job is none ("-", or null in JSON), as is a class's EF. */
GETTER(g_min_wait, r->sum.jobs ? r->sum.min_wait : NAN)
GETTER(g_total_run, (double)r->sum.total_run)
GETTER(g_avg_run, micro(r->sum.avg_run_micro))
GETTER(g_max_run, r->sum.max_run)
GETTER(g_min_run, r->sum.jobs ? r->sum.min_run : NAN)
GETTER(g_refused_room, r->refused_room)
GETTER(g_refused_limit, r->refused_limit)
GETTER(g_avg_bsld, micro(r->sum.avg_bsld_micro))
GETTER(g_avg_resp, micro(r->sum.avg_response_micro))
GETTER(g_ef, micro(r->sum.ef_micro))
GETTER(g_ef_class, r->sum.class_jobs[k] ? micro(r->sum.ef_class_micro[k]) : NAN)
GETTER(g_class_jobs, r->sum.class_jobs[k])
GETTER(g_util, micro(r->sum.util_pct_micro))
GETTER(g_loc, r->loc)
GETTER(g_makespan, r->sum.makespan)
/* Percentiles and fairness: none when the caller computed none (report_row_dist) or no job ran. */
#define HAS_DIST(r) ((r)->has_dist && (r)->dist.jobs > 0)
GETTER(g_wait_p50, HAS_DIST(r) ? r->dist.wait_p50 : NAN)
GETTER(g_wait_p95, HAS_DIST(r) ? r->dist.wait_p95 : NAN)
GETTER(g_wait_p99, HAS_DIST(r) ? r->dist.wait_p99 : NAN)
GETTER(g_bsld_p50, HAS_DIST(r) ? micro(r->dist.bsld_p50_micro) : NAN)
GETTER(g_bsld_p95, HAS_DIST(r) ? micro(r->dist.bsld_p95_micro) : NAN)
GETTER(g_bsld_p99, HAS_DIST(r) ? micro(r->dist.bsld_p99_micro) : NAN)
GETTER(g_bsld_max, HAS_DIST(r) ? micro(r->dist.bsld_max_micro) : NAN)
GETTER(g_users, HAS_DIST(r) ? r->dist.users : NAN)
GETTER(g_worst_user, HAS_DIST(r) ? micro(r->dist.worst_user_bsld_micro) : NAN)
GETTER(g_jain, HAS_DIST(r) ? r->dist.jain : NAN)
GETTER(g_artww, micro(r->sum.artww_micro))
GETTER(g_sldww60, micro(r->sum.sldww60_micro))
GETTER(g_sldww300, micro(r->sum.sldww300_micro))

/* pyss's figure @p k (the order of the pyss[] rows below); NaN for a row without them. */
static double g_pyss(const struct report_row *r, int k)
{
	const struct pyss_stats *p = &r->pyss;
	const double v[] = {p->total, p->used, p->tiny, p->first, p->after, p->wait_min, p->response_min,
			    p->sld, p->bsld, p->est_sld, p->tail_bsld, p->tail_jobs, p->top10_sld};
	return r->has_pyss && k >= 0 && (size_t)k < sizeof v / sizeof v[0] ? v[k] : NAN;
}

/* The counts: the same whatever the statistics (--stats-as), printed once, first. */
static const struct metric counts[] = {
	{"jobs", "jobs", 0, g_jobs, 0, NULL},
	{"skipped", "skipped", 0, g_skipped, 0, NULL},
	{"refused", "refused", 0, g_refused, 0, NULL},
	{"  for room", "refused_room", 0, g_refused_room, 0, NULL},
	{"  by queue limits", "refused_limit", 0, g_refused_limit, 0, NULL},
	{"killed at estimate", "killed", 0, g_killed, 0, NULL},
	{"backfilled", "backfilled", 0, g_backfilled, 0, NULL},
	{"peak jobs in system", "peak_jobs", 0, g_peak, 0, NULL},
};

/* Ours: every job that ran, the papers' formulas (docs/replay.md, Metrics). */
static const struct metric ours[] = {
	{"avg wait (s)", "avg_wait", 1, g_avg_wait, 0, m_avg_wait},
	{"max wait (s)", "max_wait", 0, g_max_wait, 0, NULL},
	{"min wait (s)", "min_wait", 0, g_min_wait, 0, NULL},
	{"total run (s)", "total_run", 0, g_total_run, 0, NULL},
	{"avg run (s)", "avg_run", 1, g_avg_run, 0, m_avg_run},
	{"max run (s)", "max_run", 0, g_max_run, 0, NULL},
	{"min run (s)", "min_run", 0, g_min_run, 0, NULL},
	{"avg bounded slowdown", "avg_bsld", 2, g_avg_bsld, 0, m_avg_bsld},
	{"avg response (s)", "avg_response", 1, g_avg_resp, 0, m_avg_resp},
	{"expansion factor", "ef", 3, g_ef, 0, m_ef},
	{"  EF 1-32 procs", "ef_1_32", 3, g_ef_class, 0, m_ef_class},
	{"  EF 33-64 procs", "ef_33_64", 3, g_ef_class, 1, m_ef_class},
	{"  EF 65-120 procs", "ef_65_120", 3, g_ef_class, 2, m_ef_class},
	{"  EF 121+ procs", "ef_121_up", 3, g_ef_class, 3, m_ef_class},
	{"  jobs 1-32 procs", "jobs_1_32", 0, g_class_jobs, 0, NULL},
	{"  jobs 33-64 procs", "jobs_33_64", 0, g_class_jobs, 1, NULL},
	{"  jobs 65-120 procs", "jobs_65_120", 0, g_class_jobs, 2, NULL},
	{"  jobs 121+ procs", "jobs_121_up", 0, g_class_jobs, 3, NULL},
	{"utilization (%)", "utilization_pct", 2, g_util, 0, m_util},
	{"makespan (s)", "makespan", 0, g_makespan, 0, NULL},
	{"loss of capacity", "loc", 5, g_loc, 0, NULL},
	{"ARTwW (s)", "artww", 1, g_artww, 0, m_artww},
	{"SLDwW 60 s", "sldww60", 3, g_sldww60, 0, m_sldww60},
	{"SLDwW 300 s", "sldww300", 3, g_sldww300, 0, m_sldww300},
	/* The tail and the users (dist.h: exact, nearest-rank; bsld as above). Last, so the columns before keep their places. */
	{"wait p50 (s)", "wait_p50", 0, g_wait_p50, 0, NULL},
	{"wait p95 (s)", "wait_p95", 0, g_wait_p95, 0, NULL},
	{"wait p99 (s)", "wait_p99", 0, g_wait_p99, 0, NULL},
	{"bsld p50", "bsld_p50", 2, g_bsld_p50, 0, m_bsld_p50},
	{"bsld p95", "bsld_p95", 2, g_bsld_p95, 0, m_bsld_p95},
	{"bsld p99", "bsld_p99", 2, g_bsld_p99, 0, m_bsld_p99},
	{"bsld max", "bsld_max", 2, g_bsld_max, 0, m_bsld_max},
	{"users", "users", 0, g_users, 0, NULL},
	{"worst user's avg bsld", "worst_user_bsld", 2, g_worst_user, 0, m_worst_user},
	{"Jain index, users' bsld", "jain_users_bsld", 4, g_jain, 0, NULL},
};

/* pyss's (pyss_stats.h): its filter, then its formulas over the jobs it keeps; keys all pyss_. */
static const struct metric pyss[] = {
	{"pyss total jobs", "pyss_jobs_total", 0, g_pyss, 0, NULL},
	{"pyss jobs used", "pyss_jobs_used", 0, g_pyss, 1, NULL},
	{"  tiny (1 proc, 1 s)", "pyss_dropped_tiny", 0, g_pyss, 2, NULL},
	{"  first 1% by finish", "pyss_dropped_first", 0, g_pyss, 3, NULL},
	{"  ends after last submit", "pyss_dropped_after", 0, g_pyss, 4, NULL},
	{"pyss wait (min)", "pyss_wait_min", 2, g_pyss, 5, NULL},
	{"pyss response (min)", "pyss_response_min", 2, g_pyss, 6, NULL},
	{"pyss slowdown", "pyss_sld", 2, g_pyss, 7, NULL},
	{"pyss bounded slowdown", "pyss_bsld", 2, g_pyss, 8, NULL},
	{"pyss estimated slowdown", "pyss_est_sld", 3, g_pyss, 9, NULL},
	{"pyss tail bsld (>= 3)", "pyss_tail_bsld", 2, g_pyss, 10, NULL},
	{"pyss tail jobs", "pyss_tail_jobs", 0, g_pyss, 11, NULL},
	{"pyss top-10% slowdown", "pyss_top10_sld", 2, g_pyss, 12, NULL},
};

/* A column of the --by-month table: its heading and width, and the figure. */
struct month_col {
	const char *head;
	int width;
	const struct metric *m;
};

/* ours[0] avg_wait, [7] avg_bsld, [18] utilization_pct, [28] bsld_p95. */
static const struct month_col ours_months[] = {
	{"wait(s)", 9, &ours[0]}, {"bsld", 8, &ours[7]}, {"util%", 6, &ours[18]}, {"bsld95", 8, &ours[28]},
};
static const struct month_col pyss_months[] = {
	{"pwait(m)", 9, &pyss[5]}, {"pbsld", 8, &pyss[8]}, {"pused", 6, &pyss[1]},
};

/* The registry of --stats-as, in enum report_stats order. */
static const struct stats_set {
	const char *name, *help;
	const struct metric *m;
	size_t n;
	const struct month_col *month;
	size_t n_month;
} sets_reg[REPORT_STATS_COUNT] = {
	{"ours", "every job that ran; the papers' formulas: wait and response in\n"
		 "               seconds, bounded slowdown response / max(run, 10) (not clamped),\n"
		 "               EF, utilization, ARTwW, SLDwW, loss of capacity; the median,\n"
		 "               95th and 99th percentiles of wait and bsld (nearest rank, exact)\n"
		 "               and the largest bsld; users, the worst user's average bsld and\n"
		 "               Jain's index over the users' average bsld (default)",
	 ours, sizeof ours / sizeof ours[0], ours_months, sizeof ours_months / sizeof ours_months[0]},
	{"pyss", "as pyss (the Hebrew University's Python simulator) prints them:\n"
		 "               tiny jobs (1 processor, estimate 1 s or run 0) out, then the\n"
		 "               first 1% by finish time (from 100 jobs), then every job\n"
		 "               finishing after the last submission; over the rest: wait\n"
		 "               and response in minutes, slowdown, bounded slowdown\n"
		 "               max(1, (Tw+Tr) / max(10, Tr)), estimated slowdown, tail\n"
		 "               (bsld >= 3) bsld and jobs, top-10% slowdown; keys pyss_*",
	 pyss, sizeof pyss / sizeof pyss[0], pyss_months, sizeof pyss_months / sizeof pyss_months[0]},
};

#define N_COUNTS (sizeof counts / sizeof counts[0])
#define N_COLUMNS_MAX (N_COUNTS + sizeof ours / sizeof ours[0] + sizeof pyss / sizeof pyss[0])

static const struct report_sets ours_only = {{REPORT_STATS_OURS}, 1};

/* The report's figures in order: the counts, then each set's. Returns how many. */
static size_t columns(const struct report_sets *sel, const struct metric **out)
{
	size_t n = 0;
	for (size_t i = 0; i < N_COUNTS; i++)
		out[n++] = &counts[i];
	for (size_t s = 0; s < sel->n; s++)
		for (size_t i = 0; i < sets_reg[sel->set[s]].n; i++)
			out[n++] = &sets_reg[sel->set[s]].m[i];
	return n;
}

const char *report_stats_name(enum report_stats s)
{
	return (unsigned)s < REPORT_STATS_COUNT ? sets_reg[s].name : "?";
}

bool report_stats_has(const struct report_sets *sets, enum report_stats s)
{
	for (size_t i = 0; i < sets->n; i++)
		if (sets->set[i] == s)
			return true;
	return false;
}

int report_stats_parse(const char *list, struct report_sets *out, char *msg, size_t len)
{
	out->n = 0;
	for (const char *p = list;; p++) {
		size_t k = strcspn(p, ",");
		int found = -1;
		for (int s = 0; s < REPORT_STATS_COUNT; s++)
			if (strlen(sets_reg[s].name) == k && strncmp(p, sets_reg[s].name, k) == 0)
				found = s;
		if (found < 0 || report_stats_has(out, (enum report_stats)found)) {
			size_t at = (size_t)snprintf(msg, len, "--stats-as takes a list of %s", found < 0 ? "" : "distinct ");
			for (int s = 0; s < REPORT_STATS_COUNT && at < len; s++)
				at += (size_t)snprintf(msg + at, len - at, "%s%s", s ? ", " : "", sets_reg[s].name);
			if (at < len)
				snprintf(msg + at, len - at, ": %s", list);
			return SCHED_E_INVAL;
		}
		out->set[out->n++] = (enum report_stats)found;
		p += k;
		if (*p == '\0')
			return SCHED_OK;
	}
}

void report_stats_help(FILE *f)
{
	fputs("\nStatistics (--stats-as LIST: one block of rows each, in the order given; the\n"
	      "counts and the extra rows come once; docs/replay.md):\n", f);
	for (int s = 0; s < REPORT_STATS_COUNT; s++)
		fprintf(f, "  %-12s %s\n", sets_reg[s].name, sets_reg[s].help);
}

/* Millionths @p v to @p decimals (at most 6), rounded half up in integers: the same digits everywhere. */
static void micro_text(char *buf, size_t len, uint64_t v, int decimals)
{
	uint64_t q = 1, p = 1;
	for (int i = decimals; i < 6; i++)
		q *= 10;
	for (int i = 0; i < decimals; i++)
		p *= 10;
	uint64_t x = v / q + (q > 1 && v % q >= q / 2);
	if (decimals == 0)
		snprintf(buf, len, "%llu", (unsigned long long)x);
	else
		snprintf(buf, len, "%llu.%0*llu", (unsigned long long)(x / p), decimals, (unsigned long long)(x % p));
}

/*
 * The decimals of a figure in CSV and JSON: a count or a whole number of
 * seconds (0 decimals in the table) as an integer, so readers need not strip
 * ".000"; any other figure three decimals more than the table, so its last
 * digit is the truncated one (docs/replay.md, Metrics).
 */
static int exact_decimals(int table_decimals)
{
	return table_decimals == 0 ? 0 : table_decimals + 3;
}

/* One figure as text with @p decimals; false when the row has none. */
static bool metric_text(const struct metric *m, const struct report_row *r, int decimals, char *buf, size_t len)
{
	if (isnan(m->get(r, m->k)))
		return false;
	if (m->micro != NULL)
		micro_text(buf, len, m->micro(r, m->k), decimals);
	else
		snprintf(buf, len, "%.*f", decimals, m->get(r, m->k));
	return true;
}

static void table_cell(FILE *f, double v, int decimals)
{
	if (isnan(v))
		fprintf(f, " %14s", "-");
	else
		fprintf(f, " %14.*f", decimals, v);
}

static void table_metric(FILE *f, const struct metric *m, const struct report_row *r)
{
	char buf[48];
	fprintf(f, " %14s", metric_text(m, r, m->decimals, buf, sizeof buf) ? buf : "-");
}

static uint32_t skips_total(const uint32_t by[TRACE_SKIP_COUNT])
{
	uint32_t n = 0;
	for (int k = 0; k < TRACE_SKIP_COUNT; k++)
		n += by[k];
	return n;
}

/* The table's lines of skipped jobs by reason, for the reasons some row has (a reason no row has is noise there). */
static void table_skips(FILE *f, const struct report_row *rows, size_t n)
{
	for (int k = TRACE_SKIP_NONE + 1; k < TRACE_SKIP_COUNT; k++) {
		bool any = false;
		for (size_t i = 0; i < n; i++)
			any |= rows[i].skipped_by[k] > 0;
		if (!any)
			continue;
		char label[40];
		snprintf(label, sizeof label, "  skip: %s", skip_reasons[k].label);
		fprintf(f, "%-26s", label);
		for (size_t i = 0; i < n; i++)
			fprintf(f, " %14u", rows[i].skipped_by[k]);
		fputc('\n', f);
	}
}

/* CSV: a column skipped_KEY per reason, every reason (the columns are the same whatever the trace). */
static void csv_skips(FILE *f, const struct report_row *r)
{
	for (int k = TRACE_SKIP_NONE + 1; k < TRACE_SKIP_COUNT; k++)
		if (r == NULL)
			fprintf(f, ",skipped_%s", skip_reasons[k].key);
		else
			fprintf(f, ",%u", r->skipped_by[k]);
}

/* JSON: "skipped_by": {KEY: count, ...}, every reason; the counts sum to "skipped". */
static void json_skips(FILE *f, const uint32_t by[TRACE_SKIP_COUNT])
{
	fputs("\"skipped_by\": {", f);
	for (int k = TRACE_SKIP_NONE + 1; k < TRACE_SKIP_COUNT; k++)
		fprintf(f, "%s\"%s\": %u", k > TRACE_SKIP_NONE + 1 ? ", " : "", skip_reasons[k].key, by[k]);
	fputc('}', f);
}

static void print_table_all(FILE *f, const struct report_row *rows, size_t n, const struct metric *const *cols,
			    size_t n_cols)
{
	fprintf(f, "%-26s", "metric");
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %14s", rows[i].policy);
	fputc('\n', f);
	for (size_t m = 0; m < n_cols; m++) {
		fprintf(f, "%-26s", cols[m]->label);
		for (size_t i = 0; i < n; i++)
			table_metric(f, cols[m], &rows[i]);
		fputc('\n', f);
		if (cols[m]->get == g_skipped)
			table_skips(f, rows, n);
	}
	for (size_t x = 0; n > 0 && x < rows[0].n_extra; x++) {
		fprintf(f, "%-26s", rows[0].extra[x].label);
		for (size_t i = 0; i < n; i++)
			table_cell(f, x < rows[i].n_extra ? rows[i].extra[x].v : NAN, rows[0].extra[x].decimals);
		fputc('\n', f);
	}
}

/* --by-month: a line per month, each policy's block the month columns of each set in turn. */
static void print_table_months(FILE *f, const struct report_row *rows, size_t n, size_t np,
			       const struct report_sets *sel)
{
	fprintf(f, "%-8s %6s", "month", "jobs");
	for (size_t p = 0; p < np; p++) {
		fprintf(f, " | %-10s", rows[p].policy);
		for (size_t s = 0; s < sel->n; s++)
			for (size_t c = 0; c < sets_reg[sel->set[s]].n_month; c++)
				fprintf(f, " %*s", sets_reg[sel->set[s]].month[c].width, sets_reg[sel->set[s]].month[c].head);
	}
	fputc('\n', f);
	for (size_t i = 0; i + np <= n; i += np) {
		fprintf(f, "%-8s %6u", rows[i].period, rows[i].jobs);
		for (size_t p = 0; p < np; p++) {
			fprintf(f, " | %-10s", "");
			for (size_t s = 0; s < sel->n; s++) {
				const struct stats_set *set = &sets_reg[sel->set[s]];
				for (size_t c = 0; c < set->n_month; c++) {
					char buf[48];
					const struct metric *m = set->month[c].m;
					fprintf(f, " %*s", set->month[c].width,
						metric_text(m, &rows[i + p], m->decimals, buf, sizeof buf) ? buf : "-");
				}
			}
		}
		fputc('\n', f);
	}
}

void report_run_add(struct report_run *run, enum report_run_kind kind, const char *key, const char *fmt, ...)
{
	if (run->n == REPORT_RUN_MAX)
		return;
	snprintf(run->kv[run->n].key, sizeof run->kv[run->n].key, "%s", key);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(run->kv[run->n].val, sizeof run->kv[run->n].val, fmt, ap);
	va_end(ap);
	run->kv[run->n].kind = kind;
	run->n++;
}

/* The @p n bytes at @p s as a JSON number when @p number and they are one, else as a string. */
static void json_scalar(FILE *f, const char *s, size_t n, bool number)
{
	if (number && json_number(s, n)) {
		fwrite(s, 1, n, f);
		return;
	}
	char buf[sizeof ((struct report_run *)0)->kv[0].val];
	snprintf(buf, sizeof buf, "%.*s", (int)n, s);
	json_string(f, buf);
}

/* One value of the run record in JSON: its kind's type (report.h). */
static void json_run_value(FILE *f, const char *val, enum report_run_kind kind)
{
	switch (kind) {
	case REPORT_RUN_TEXT:
		json_string(f, val);
		break;
	case REPORT_RUN_NUMBER:
		json_scalar(f, val, strlen(val), true);
		break;
	case REPORT_RUN_BOOL:
		fputs(strcmp(val, "true") == 0 ? "true" : "false", f);
		break;
	case REPORT_RUN_NULL:
		fputs("null", f);
		break;
	case REPORT_RUN_TEXT_LIST:
	case REPORT_RUN_NUMBER_LIST:
		fputc('[', f);
		for (const char *p = val;; ) {
			size_t len = strcspn(p, ";");
			json_scalar(f, p, len, kind == REPORT_RUN_NUMBER_LIST);
			if (p[len] == '\0')
				break;
			fputs(", ", f);
			p += len + 1;
		}
		fputc(']', f);
		break;
	}
}

static void print_csv(FILE *f, const char *trace, sched_procs_t procs, const struct report_row *rows, size_t n,
		      const struct report_run *run, const struct metric *const *cols, size_t n_cols)
{
	fputs("trace,procs,policy,period", f);
	for (size_t m = 0; m < n_cols; m++)
		fprintf(f, ",%s", cols[m]->key);
	csv_skips(f, NULL);
	for (size_t x = 0; n > 0 && x < rows[0].n_extra; x++)
		fprintf(f, ",%s", rows[0].extra[x].key);
	for (size_t k = 0; k < run->n; k++) {
		fputs(",run_", f);
		csv_field(f, run->kv[k].key);
	}
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s,%u,%s,%s", trace, procs, rows[i].policy, rows[i].period);
		for (size_t m = 0; m < n_cols; m++) {
			char buf[48];
			if (metric_text(cols[m], &rows[i], exact_decimals(cols[m]->decimals), buf, sizeof buf))
				fprintf(f, ",%s", buf);
			else
				fputc(',', f);
		}
		csv_skips(f, &rows[i]);
		for (size_t x = 0; x < rows[i].n_extra; x++) {
			const struct report_extra *e = &rows[i].extra[x];
			if (isnan(e->v))
				fputc(',', f);
			else
				fprintf(f, ",%.*f", exact_decimals(e->decimals), e->v);
		}
		for (size_t k = 0; k < run->n; k++) {
			fputc(',', f);
			csv_field(f, run->kv[k].kind == REPORT_RUN_NULL ? "" : run->kv[k].val);
		}
		fputc('\n', f);
	}
}

static void print_json(FILE *f, const char *trace, sched_procs_t procs, const uint32_t skipped_by[TRACE_SKIP_COUNT],
		       const struct report_row *rows, size_t n, const struct report_run *run,
		       const struct metric *const *cols, size_t n_cols)
{
	fputs("{\"trace\": ", f);
	json_string(f, trace);
	fprintf(f, ", \"procs\": %u, \"skipped\": %u, ", procs, skips_total(skipped_by));
	json_skips(f, skipped_by);
	fputs(", \"run\": {", f);
	/* The CSV's spelling, typed: numbers, booleans, null for what is absent, lists as arrays. */
	for (size_t k = 0; k < run->n; k++) {
		fputs(k ? ", " : "", f);
		json_string(f, run->kv[k].key);
		fputs(": ", f);
		json_run_value(f, run->kv[k].val, run->kv[k].kind);
	}
	fputs("}, \"runs\": [\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs("  {\"policy\": ", f);
		json_string(f, rows[i].policy);
		fputs(", \"period\": ", f);
		json_string(f, rows[i].period);
		for (size_t m = 0; m < n_cols; m++) {
			char buf[48];
			if (metric_text(cols[m], &rows[i], exact_decimals(cols[m]->decimals), buf, sizeof buf))
				fprintf(f, ", \"%s\": %s", cols[m]->key, buf);
			else
				fprintf(f, ", \"%s\": null", cols[m]->key);
		}
		fputs(", ", f);
		json_skips(f, rows[i].skipped_by);
		for (size_t x = 0; x < rows[i].n_extra; x++) {
			const struct report_extra *e = &rows[i].extra[x];
			if (isnan(e->v))
				fprintf(f, ", \"%s\": null", e->key);
			else
				fprintf(f, ", \"%s\": %.*f", e->key, exact_decimals(e->decimals), e->v);
		}
		fprintf(f, "}%s\n", i + 1 < n ? "," : "");
	}
	fputs("]}\n", f);
}

/* The table's header: the skipped jobs' total, and by reason when there are any. */
static void table_header(FILE *f, const char *trace, sched_procs_t procs, const uint32_t by[TRACE_SKIP_COUNT],
			 bool by_month, const char *slice)
{
	uint32_t skipped = skips_total(by);
	fprintf(f, "%s on %u processors%s%s%s; %u job%s skipped by the cleaning conventions",
		trace, procs, slice && *slice ? ", " : "", slice ? slice : "",
		by_month ? ", each month replayed on its own" : "", skipped, skipped == 1 ? "" : "s");
	const char *sep = " (";
	for (int k = TRACE_SKIP_NONE + 1; k < TRACE_SKIP_COUNT; k++)
		if (by[k]) {
			fprintf(f, "%s%s: %u", sep, skip_reasons[k].label, by[k]);
			sep = ", ";
		}
	fputs(skipped ? ")\n\n" : "\n\n", f);
}

void report_print(FILE *f, enum report_format fmt, const char *trace, sched_procs_t procs,
		  const uint32_t skipped_by[TRACE_SKIP_COUNT], const struct report_row *rows, size_t n, size_t n_policies,
		  bool by_month, const char *slice, const struct report_run *run, const struct report_sets *sets)
{
	static const struct report_run none;
	if (run == NULL)
		run = &none;
	if (sets == NULL || sets->n == 0)
		sets = &ours_only;
	const struct metric *cols[N_COLUMNS_MAX];
	size_t n_cols = columns(sets, cols);
	switch (fmt) {
	case REPORT_TABLE:
		table_header(f, trace, procs, skipped_by, by_month, slice);
		if (by_month)
			print_table_months(f, rows, n, n_policies, sets);
		else
			print_table_all(f, rows, n, cols, n_cols);
		break;
	case REPORT_CSV:
		print_csv(f, trace, procs, rows, n, run, cols, n_cols);
		break;
	case REPORT_JSON:
		print_json(f, trace, procs, skipped_by, rows, n, run, cols, n_cols);
		break;
	}
}
