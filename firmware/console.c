/* SPDX-License-Identifier: MIT */
/* The console: line commands in, one reply line out, over the core and the port. No malloc, no stdio. */
#include "console.h"

#include "bench.h"
#include "fmt.h"
#include "port.h"
#include "sched/fixture.h"
#include "sched/replay.h"

#define VERSION "0.4.0"

/* Console error codes (docs/console.md): each kind of bad input has its own. */
enum console_err {
	E_UNKNOWN_COMMAND = 1,
	E_MISSING_ARG = 2,
	E_EXTRA_ARG = 3,
	E_NOT_A_NUMBER = 4,
	E_OVERFLOW = 5,
	E_NEGATIVE = 6,
	E_LINE_TOO_LONG = 7,
	E_CONTROL_CHAR = 8,
	E_DUPLICATE_JOB = 9,
	E_UNKNOWN_JOB = 10,
	E_TIME_BACKWARDS = 11,
	E_NO_SPACE = 12,
	E_INVALID = 13,
	E_OUT_OF_RANGE = 14,
	E_WRONG_STATE = 15,
	E_NOT_SUPPORTED = 16,
	E_UNKNOWN_POLICY = 17,
	E_UNKNOWN_FIXTURE = 18,
	E_BUSY = 19,
	E_FIXTURE_CORRUPT = 20,
	E_INVARIANT = 21,
};

/*
 * One arena serves the live scheduler, a replay and the benchmarks in turn
 * (a board has no room for three): a replay or a benchmark ends with an
 * empty live schedule, as after "reset".
 */
#define LIVE_BYTES SCHED_ARENA_SIZE_SCRATCH(CONSOLE_MAX_JOBS, CONSOLE_SCRATCH_JOBS)
#define REPLAY_BYTES SCHED_REPLAY_ARENA_SIZE_SCRATCH(CONSOLE_MAX_JOBS, CONSOLE_SCRATCH_JOBS)
#define ARENA_BYTES (REPLAY_BYTES > BENCH_ARENA_BYTES ? REPLAY_BYTES : BENCH_ARENA_BYTES)
static _Alignas(8) unsigned char arena[ARENA_BYTES];

static struct {
	const char *port;
	struct sched *s;          /* in `arena` */
	struct sched_config cfg;
	sched_time_t now;
	bool selfcheck;
	char line[CONSOLE_LINE_MAX + 1];
	size_t len;
	size_t dropped;      /* bytes of an over-long line thrown away */
	bool control;        /* the line held a control character */
	int exit_status;     /* -1 until quit */
} con;

static struct sched_replay replay; /* large: kept out of the stack */

/* --- output ------------------------------------------------------------------- */

static void reply_err(int code, const char *msg)
{
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "err ");
	fmt_u32(&f, (uint32_t)code);
	fmt_ch(&f, ' ');
	fmt_str(&f, msg);
	fmt_line(&f);
}

static int core_err(int err)
{
	switch (err) {
	case SCHED_E_NOSPACE: reply_err(E_NO_SPACE, "no space: the job table is full"); break;
	case SCHED_E_INVAL: reply_err(E_INVALID, "invalid: processors and estimate must be at least 1"); break;
	case SCHED_E_RANGE: reply_err(E_OUT_OF_RANGE, "out of range: more processors than the machine, or time too large"); break;
	case SCHED_E_STATE: reply_err(E_WRONG_STATE, "wrong state: the job is waiting (use cancel)"); break;
	case SCHED_E_NOENT: reply_err(E_UNKNOWN_JOB, "unknown job"); break;
	case SCHED_E_EXIST: reply_err(E_DUPLICATE_JOB, "duplicate job id"); break;
	case SCHED_E_TIME: reply_err(E_TIME_BACKWARDS, "time went backwards"); break;
	case SCHED_E_NOTSUP: reply_err(E_NOT_SUPPORTED, "not supported by this policy"); break;
	default: reply_err(E_INVALID, sched_strerror(err)); break;
	}
	return err;
}

static void on_decision(void *ctx, const struct sched_decision *d)
{
	(void)ctx;
	struct fmt f;
	fmt_init(&f);
	if (d->kind == SCHED_DEC_START) {
		fmt_str(&f, "evt start ");
		fmt_u32(&f, d->job);
		fmt_ch(&f, ' ');
		fmt_u32(&f, d->time);
		fmt_ch(&f, ' ');
		fmt_u32(&f, d->procs);
	} else {
		fmt_str(&f, "evt kill ");
		fmt_u32(&f, d->job);
		fmt_ch(&f, ' ');
		fmt_u32(&f, d->time);
	}
	fmt_line(&f);
}

static void live_init(void)
{
	int err = sched_init(&con.s, &con.cfg, arena, LIVE_BYTES, on_decision, NULL, 0);
	SCHED_ASSERT(err == SCHED_OK);
	(void)err;
	con.now = 0;
}

/* --- parsing -------------------------------------------------------------------- */

#define MAX_ARGS 8

struct args {
	char *v[MAX_ARGS];
	unsigned n;
};

static bool str_eq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* A decimal number that fits 32 bits; on error the reply is sent and false returned. */
static bool number(const char *s, uint32_t *out)
{
	if (*s == '-') {
		reply_err(E_NEGATIVE, "negative value");
		return false;
	}
	if (*s == '\0') {
		reply_err(E_NOT_A_NUMBER, "not a number");
		return false;
	}
	uint64_t v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9') {
			reply_err(E_NOT_A_NUMBER, "not a number");
			return false;
		}
		v = v * 10u + (uint64_t)(*p - '0');
		if (v > UINT32_MAX) {
			reply_err(E_OVERFLOW, "number too large (at most 4294967295)");
			return false;
		}
	}
	*out = (uint32_t)v;
	return true;
}

static bool arity(const struct args *a, unsigned min, unsigned max)
{
	if (a->n - 1 < min) {
		reply_err(E_MISSING_ARG, "missing argument");
		return false;
	}
	if (a->n - 1 > max) {
		reply_err(E_EXTRA_ARG, "too many arguments");
		return false;
	}
	return true;
}

/* --- commands ------------------------------------------------------------------- */

static void reply_next(struct fmt *f)
{
	sched_time_t next = sched_next_event(con.s);
	fmt_str(f, " next=");
	if (next == SCHED_TIME_MAX)
		fmt_ch(f, '-');
	else
		fmt_u32(f, next);
}

/* Run the pass a state change calls for, at the current time. */
static void settle(void)
{
	int err = sched_advance(con.s, con.now);
	SCHED_ASSERT(err == SCHED_OK); /* con.now never goes back */
	(void)err;
}

static void cmd_help(void)
{
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok commands: help version config time advance submit finish cancel predict status "
		    "queue running profile stats policy reset replay fixtures bench selfcheck selftest quit");
	fmt_line(&f);
}

static void cmd_version(void)
{
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok sched-core " VERSION " port=");
	fmt_str(&f, con.port);
	fmt_line(&f);
}

static void print_config(struct fmt *f)
{
	fmt_str(f, " procs=");
	fmt_u32(f, con.cfg.procs);
	fmt_str(f, " max_jobs=");
	fmt_u32(f, con.cfg.max_jobs);
	fmt_str(f, " policy=");
	fmt_str(f, sched_policy_name(con.cfg.policy));
	fmt_str(f, " line_max=");
	fmt_u32(f, CONSOLE_LINE_MAX);
	fmt_str(f, " arena=");
	fmt_u32(f, (uint32_t)ARENA_BYTES);
	const struct sched_config *c = sched_config_get(con.s);
	fmt_str(f, " tolerance=");
	fmt_u32(f, c->tolerance);
	fmt_str(f, " tolerance_permille=");
	fmt_u32(f, c->tolerance_permille);
	fmt_str(f, " sf_milli=");
	fmt_u32(f, c->slack.sf_milli);
	fmt_str(f, " awt=");
	fmt_u32(f, c->slack.awt);
	fmt_str(f, " alpha_milli=");
	for (int k = 0; k < 4; k++) {
		if (k)
			fmt_ch(f, ',');
		fmt_u32(f, c->slack.alpha_milli[k]);
	}
	fmt_str(f, " heuristic=");
	fmt_str(f, sched_heuristic_name((enum sched_heuristic)c->slack.heuristic));
	fmt_str(f, " early_end=");
	fmt_str(f, c->slack.end_compress ? "compress" : "search");
	fmt_str(f, " decider=");
	fmt_str(f, sched_decider_name((enum sched_decider)c->dynp.decider));
	fmt_str(f, " quality=");
	fmt_str(f, sched_quality_name((enum sched_quality)c->dynp.quality));
	fmt_str(f, " bounds=");
	fmt_u32(f, c->dynp.lower);
	fmt_ch(f, ',');
	fmt_u32(f, c->dynp.upper);
	fmt_str(f, " scratch_jobs=");
	fmt_u32(f, con.cfg.scratch_jobs);
}

/* config KEY VALUE for a policy parameter: any time, for decisions from now on. */
static bool config_param(struct args *a)
{
	static const char *const keys[] = {"tolerance", "tolerance_permille", "sf_milli", "awt",
					   "alpha_u", "alpha_t", "alpha_p", "alpha_f", "heuristic", "early_end",
					   "decider", "quality", "lower", "upper"};
	int k = -1;
	for (int i = 0; i < (int)(sizeof keys / sizeof keys[0]); i++)
		if (str_eq(a->v[1], keys[i]))
			k = i;
	if (k < 0)
		return false;
	struct sched_config c = (*sched_config_get(con.s));
	uint32_t v = 0;
	if (k == 8) {
		enum sched_heuristic h;
		if (sched_heuristic_parse(a->v[2], &h) != SCHED_OK) {
			reply_err(E_INVALID, "heuristic is one of ast, aat, du, dc, dp");
			return true;
		}
		c.slack.heuristic = (uint8_t)h;
	} else if (k == 9) {
		if (!str_eq(a->v[2], "search") && !str_eq(a->v[2], "compress")) {
			reply_err(E_INVALID, "early_end is search or compress");
			return true;
		}
		c.slack.end_compress = str_eq(a->v[2], "compress");
	} else if (k == 10 || k == 11) {
		enum sched_decider d;
		enum sched_quality q;
		if (k == 10 ? sched_decider_parse(a->v[2], &d) != SCHED_OK : sched_quality_parse(a->v[2], &q) != SCHED_OK) {
			reply_err(E_INVALID, k == 10 ? "decider is simple or advanced" : "quality is artww, art or ms");
			return true;
		}
		if (k == 10)
			c.dynp.decider = (uint8_t)d;
		else
			c.dynp.quality = (uint8_t)q;
	} else if (!number(a->v[2], &v)) {
		return true;
	}
	if ((k == 0 && v >= SCHED_NOW_LIMIT) || (k == 1 && v > 1000000u) || (k == 2 && v > 1000000u) ||
	    (k == 3 && (v == 0 || v >= SCHED_NOW_LIMIT)) || (k >= 4 && k <= 7 && v > 1000u) ||
	    (k == 12 && v > c.dynp.upper) || (k == 13 && (v < c.dynp.lower || v >= SCHED_NOW_LIMIT))) {
		reply_err(E_OUT_OF_RANGE, "out of range (alphas and factors are thousandths; awt >= 1; lower <= upper)");
		return true;
	}
	switch (k) {
	case 0: c.tolerance = v; break;
	case 1: c.tolerance_permille = v; break;
	case 2: c.slack.sf_milli = v; break;
	case 3: c.slack.awt = v; break;
	case 8: case 9: case 10: case 11: break;
	case 12: c.dynp.lower = v; break;
	case 13: c.dynp.upper = v; break;
	default: c.slack.alpha_milli[k - 4] = (uint16_t)v; break;
	}
	int err = sched_tune(con.s, &c);
	if (err != SCHED_OK) {
		core_err(err);
		return true;
	}
	con.cfg.tolerance = c.tolerance;
	con.cfg.tolerance_permille = c.tolerance_permille;
	con.cfg.slack = (*sched_config_get(con.s)).slack;
	con.cfg.dynp = (*sched_config_get(con.s)).dynp;
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok");
	print_config(&f);
	fmt_line(&f);
	return true;
}

/* config, or config procs N / config jobs N: machine size and job table, only while empty. */
static void cmd_config(struct args *a)
{
	if (a->n == 1) {
		struct fmt f;
		fmt_init(&f);
		fmt_str(&f, "ok");
		print_config(&f);
		fmt_line(&f);
		return;
	}
	if (!arity(a, 2, 2))
		return;
	if (config_param(a))
		return;
	uint32_t v;
	bool procs = str_eq(a->v[1], "procs"), jobs = str_eq(a->v[1], "jobs");
	if (!procs && !jobs) {
		reply_err(E_UNKNOWN_COMMAND, "config takes procs, jobs, tolerance, tolerance_permille, sf_milli, awt, "
					     "alpha_u, alpha_t, alpha_p, alpha_f, heuristic, early_end, decider, quality, lower or upper");
		return;
	}
	if (!number(a->v[2], &v))
		return;
	if (v == 0 || (jobs && v > CONSOLE_MAX_JOBS) || (procs && v >= SCHED_NOW_LIMIT)) {
		reply_err(E_OUT_OF_RANGE, jobs ? "jobs must be 1..max_jobs of the build" : "procs must be at least 1");
		return;
	}
	struct sched_stats st;
	sched_stats(con.s, &st);
	if (st.waiting + st.running != 0) {
		reply_err(E_BUSY, "busy: jobs in the system (finish, cancel or reset first)");
		return;
	}
	if (procs)
		con.cfg.procs = v;
	else
		con.cfg.max_jobs = v;
	sched_time_t keep = con.now;
	live_init();
	con.now = keep;
	(void)sched_advance(con.s, keep);
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok");
	print_config(&f);
	fmt_line(&f);
}

static void cmd_advance(struct args *a)
{
	if (a->n == 1 && str_eq(a->v[0], "time")) {
		struct fmt f;
		fmt_init(&f);
		fmt_kv(&f, "ok now=", con.now);
		reply_next(&f);
		fmt_line(&f);
		return;
	}
	if (!arity(a, 1, 1))
		return;
	uint32_t t;
	if (!number(a->v[1], &t))
		return;
	int err = sched_advance(con.s, t);
	if (err != SCHED_OK) {
		core_err(err);
		return;
	}
	con.now = t;
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok now=", t);
	reply_next(&f);
	fmt_line(&f);
}

static void cmd_submit(struct args *a)
{
	if (!arity(a, 3, 7))
		return;
	uint32_t id, procs, est, user = 0, queue = 0, up = 0, pp = 0;
	if (!number(a->v[1], &id) || !number(a->v[2], &procs) || !number(a->v[3], &est))
		return;
	/* User and queue matter with site queues (limits); the console's machine has one queue, 0. */
	if ((a->n > 4 && !number(a->v[4], &user)) || (a->n > 5 && !number(a->v[5], &queue)))
		return;
	/* User and political priority for slack, thousandths; "over" marks a user over quota. */
	if (a->n > 6 && !number(a->v[6], &up))
		return;
	bool over = a->n > 7 && str_eq(a->v[7], "over");
	if (a->n > 7 && !over && !number(a->v[7], &pp))
		return;
	if (up > 1000 || pp > 1000) {
		reply_err(E_OUT_OF_RANGE, "priorities are 0..1000 (thousandths)");
		return;
	}
	struct sched_job_desc d = sched_desc(id, procs, est);
	d.user = user;
	d.up_milli = (uint16_t)up;
	d.pp_milli = over ? (uint16_t)SCHED_PP_OVER_QUOTA : (uint16_t)pp;
	if (queue > 255) {
		reply_err(E_INVALID, "no such queue");
		return;
	}
	d.queue = (uint8_t)queue;
	const char *why = NULL;
	int shape = sched_admissible(con.s, &d, &why);
	if (shape != SCHED_OK) {
		/* The core says exactly what is wrong with the job's shape. */
		reply_err(shape == SCHED_E_RANGE ? E_OUT_OF_RANGE : E_INVALID, why);
		return;
	}
	int err = sched_submit(con.s, &d, con.now);
	if (err != SCHED_OK) {
		core_err(err);
		return;
	}
	settle();
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok submitted ");
	fmt_u32(&f, id);
	sched_time_t start;
	fmt_str(&f, " start=");
	if (sched_predict(con.s, id, &start) == SCHED_OK)
		fmt_u32(&f, start);
	else
		fmt_ch(&f, '-');
	fmt_line(&f);
}

static void cmd_job(struct args *a, int (*op)(struct sched *, uint32_t, sched_time_t), const char *done)
{
	if (!arity(a, 1, 1))
		return;
	uint32_t id;
	if (!number(a->v[1], &id))
		return;
	int err = op(con.s, id, con.now);
	if (err != SCHED_OK) {
		core_err(err);
		return;
	}
	settle();
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok ");
	fmt_str(&f, done);
	fmt_ch(&f, ' ');
	fmt_u32(&f, id);
	fmt_line(&f);
}

static void cmd_predict(struct args *a)
{
	if (!arity(a, 1, 1))
		return;
	uint32_t id;
	if (!number(a->v[1], &id))
		return;
	sched_time_t t;
	int err = sched_predict(con.s, id, &t);
	if (err != SCHED_OK) {
		core_err(err);
		return;
	}
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok ");
	fmt_u32(&f, id);
	fmt_kv(&f, " start=", t);
	fmt_line(&f);
}

static void cmd_status(void)
{
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok now=", con.now);
	fmt_str(&f, " policy=");
	fmt_str(&f, sched_policy_name(con.cfg.policy));
	struct sched_stats st;
	sched_stats(con.s, &st);
	fmt_kv(&f, " waiting=", st.waiting);
	fmt_kv(&f, " running=", st.running);
	fmt_kv(&f, " busy=", st.busy);
	fmt_kv(&f, " free=", sched_free_now(con.s));
	fmt_kv(&f, " segments=", st.segments);
	reply_next(&f);
	fmt_line(&f);
}

#define LIST_PAGE 16u

/* queue [FROM] / running [FROM]: up to 16 jobs as id:procs:estimate:start. */
static void cmd_list(struct args *a, enum sched_job_state which)
{
	if (!arity(a, 0, 1))
		return;
	uint32_t from = 0;
	if (a->n == 2 && !number(a->v[1], &from))
		return;
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, which == SCHED_JOB_WAITING ? "ok waiting=" : "ok running=");
	struct sched_stats st;
	sched_stats(con.s, &st);
	fmt_u32(&f, which == SCHED_JOB_WAITING ? st.waiting : st.running);
	fmt_kv(&f, " from=", from);
	uint32_t i = 0, shown = 0;
	for (const struct sched_job *h = sched_first(con.s, which); h && shown < LIST_PAGE;
	     h = sched_next(con.s, h), i++) {
		struct sched_job_info ji, *j = &ji;
		sched_job_read(h, j);
		if (i < from)
			continue;
		fmt_ch(&f, ' ');
		fmt_u32(&f, j->id);
		fmt_ch(&f, ':');
		fmt_u32(&f, j->procs);
		fmt_ch(&f, ':');
		fmt_u32(&f, j->estimate);
		fmt_ch(&f, ':');
		if (which == SCHED_JOB_RUNNING || j->reserved)
			fmt_u32(&f, j->start);
		else
			fmt_ch(&f, '-');
		shown++;
	}
	fmt_line(&f);
}

/* profile [FROM]: up to 16 segments as time:free. */
static void cmd_profile(struct args *a)
{
	if (!arity(a, 0, 1))
		return;
	uint32_t from = 0;
	if (a->n == 2 && !number(a->v[1], &from))
		return;
	struct fmt f;
	fmt_init(&f);
	struct sched_stats st;
	sched_stats(con.s, &st);
	fmt_kv(&f, "ok segments=", st.segments);
	fmt_kv(&f, " from=", from);
	uint32_t i = 0, shown = 0;
	for (const struct sched_seg *g = sched_seg_first(con.s, 0); g && shown < LIST_PAGE;
	     g = sched_seg_next(con.s, 0, g), i++) {
		if (i < from)
			continue;
		fmt_ch(&f, ' ');
		fmt_u32(&f, sched_seg_time(g));
		fmt_ch(&f, ':');
		fmt_u32(&f, sched_seg_free(g));
		shown++;
	}
	fmt_line(&f);
}

static void cmd_stats(void)
{
	struct sched_stats st;
	sched_stats(con.s, &st);
	const struct sched_counters *c = &st.counters;
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok submitted=", c->submitted);
	fmt_kv(&f, " refused=", c->refused);
	fmt_kv(&f, " started=", c->started);
	fmt_kv(&f, " backfilled=", c->backfilled);
	fmt_kv(&f, " finished=", c->finished);
	fmt_kv(&f, " killed=", c->killed);
	fmt_kv(&f, " cancelled=", c->cancelled);
	fmt_kv(&f, " compressions=", c->reflows);
	fmt_kv(&f, " moved=", c->moved);
	fmt_kv(&f, " peak_jobs=", st.jobs_peak);
	fmt_kv(&f, " peak_segments=", st.segs_peak);
	fmt_line(&f);
}

static bool policy_arg(const char *name, enum sched_policy_id *p)
{
	if (sched_policy_parse(name, p) != SCHED_OK) {
		reply_err(E_UNKNOWN_POLICY, "unknown policy (fcfs, easy, cons, relaxed, slack, fcfs-replan, sjf, ljf, "
					    "dynp-basic, dynp)");
		return false;
	}
	return true;
}

static void cmd_policy(struct args *a)
{
	if (!arity(a, 1, 1))
		return;
	enum sched_policy_id p;
	if (!policy_arg(a->v[1], &p))
		return;
	int err = sched_set_policy(con.s, p, con.now);
	if (err != SCHED_OK) {
		core_err(err);
		return;
	}
	con.cfg.policy = p;
	settle();
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok policy=");
	fmt_str(&f, sched_policy_name(p));
	fmt_line(&f);
}

static void cmd_reset(struct args *a)
{
	if (!arity(a, 0, 0))
		return;
	live_init();
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok reset");
	print_config(&f);
	fmt_line(&f);
}

static void cmd_fixtures(void)
{
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok fixtures=", console_fixture_count);
	for (unsigned i = 0; i < console_fixture_count; i++) {
		fmt_ch(&f, ' ');
		fmt_str(&f, console_fixtures[i].name);
		fmt_ch(&f, ':');
		fmt_u32(&f, (uint32_t)(console_fixtures[i].end - console_fixtures[i].data));
	}
	fmt_line(&f);
}

/* The replay's job source: a fixture decoded as it streams from flash. */
struct source {
	struct fix_dec dec;
	struct fix_mem mem;
	sched_procs_t machine;
	uint32_t seq, skipped;
	int fix_err;
};

static struct source src; /* about 700 bytes: kept off the stack */

static int next_job(void *ctx, struct sched_replay_job *job)
{
	struct source *s = ctx;
	for (;;) {
		struct fix_job fj;
		int err = fix_dec_next(&s->dec, &fj);
		if (err == FIX_END)
			return 0;
		if (err != FIX_OK) {
			s->fix_err = err;
			return SCHED_E_FORMAT;
		}
		if (sched_replay_clean(fj.submit, fj.run, fj.alloc_procs, fj.req_procs, fj.req_time,
				       s->machine, job) != SCHED_SKIP_NONE) {
			s->skipped++;
			continue;
		}
		job->seq = s->seq++;
		return 1;
	}
}

static void fmt_milli(struct fmt *f, uint64_t num, uint64_t den)
{
	/* num / den with three decimals, from integers only (bit-identical everywhere). */
	uint64_t milli = den ? sched_ratio_micro(num, den) / 1000u : 0;
	fmt_u64(f, milli / 1000u);
	fmt_ch(f, '.');
	fmt_u32_pad(f, (uint32_t)(milli % 1000u), 3);
}

/* replay NAME [POLICY]: run a linked fixture through the replay engine; metrics, hash, cycles. */
static void cmd_replay(struct args *a)
{
	if (!arity(a, 1, 2))
		return;
	const struct console_fixture *fx = NULL;
	for (unsigned i = 0; i < console_fixture_count; i++)
		if (str_eq(a->v[1], console_fixtures[i].name))
			fx = &console_fixtures[i];
	if (fx == NULL) {
		reply_err(E_UNKNOWN_FIXTURE, "unknown fixture (see fixtures)");
		return;
	}
	enum sched_policy_id policy = con.cfg.policy;
	if (a->n == 3 && !policy_arg(a->v[2], &policy))
		return;
	src.mem = (struct fix_mem){fx->data, (size_t)(fx->end - fx->data), 0};
	src.seq = src.skipped = 0;
	src.fix_err = FIX_OK;
	if ((src.fix_err = fix_dec_init(&src.dec, fix_mem_read, &src.mem)) != FIX_OK) {
		reply_err(E_FIXTURE_CORRUPT, fix_strerror(src.fix_err));
		return;
	}
	src.machine = src.dec.hdr.max_procs ? src.dec.hdr.max_procs : src.dec.hdr.max_nodes;
	if (src.machine == 0) {
		reply_err(E_FIXTURE_CORRUPT, "fixture gives no machine size");
		return;
	}
	struct sched_config cfg = {.procs = src.machine, .max_jobs = CONSOLE_MAX_JOBS, .policy = policy,
				   .scratch_jobs = CONSOLE_SCRATCH_JOBS};
	/* The live schedule's policy parameters (config tolerance, sf_milli, ...) apply to the replay too. */
	cfg.tolerance = (*sched_config_get(con.s)).tolerance;
	cfg.tolerance_permille = (*sched_config_get(con.s)).tolerance_permille;
	cfg.slack = (*sched_config_get(con.s)).slack;
	cfg.dynp = (*sched_config_get(con.s)).dynp;
	int err = sched_replay_init(&replay, &cfg, arena, REPLAY_BYTES, NULL, NULL);
	uint64_t c0 = port_cycles();
	if (err == SCHED_OK)
		err = sched_replay_run(&replay, next_job, &src);
	uint64_t cycles = port_cycles() - c0;
	/* The live schedule shared the arena: start it afresh. */
	live_init();
	if (err == SCHED_E_FORMAT) {
		reply_err(E_FIXTURE_CORRUPT, fix_strerror(src.fix_err));
		return;
	}
	if (err == SCHED_E_TIME) {
		reply_err(E_FIXTURE_CORRUPT, "fixture jobs are not in submit order");
		return;
	}
	if (err != SCHED_OK) {
		core_err(err);
		return;
	}
	const struct sched_metrics *m = &replay.metrics;
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok replay ");
	fmt_str(&f, fx->name);
	fmt_str(&f, " policy=");
	fmt_str(&f, sched_policy_name(policy));
	fmt_kv(&f, " procs=", src.machine);
	fmt_kv(&f, " jobs=", m->jobs);
	fmt_kv(&f, " skipped=", src.skipped);
	fmt_kv(&f, " refused=", replay.refused);
	fmt_kv(&f, " killed=", m->killed);
	fmt_str(&f, " avg_wait=");
	fmt_milli(&f, m->sum_wait, m->jobs);
	fmt_kv(&f, " max_wait=", m->max_wait);
	fmt_str(&f, " avg_bsld=");
	fmt_milli(&f, m->sum_bsld_micro, (uint64_t)m->jobs * SCHED_MICRO);
	fmt_str(&f, " util=");
	fmt_milli(&f, m->area * 100u, (uint64_t)src.machine * (m->last_end - m->first_submit));
	struct sched_stats st;
	sched_stats(replay.sched, &st);
	fmt_kv(&f, " fallbacks=", st.counters.scratch_short);
	fmt_str(&f, " hash=");
	fmt_hex64(&f, replay.hash);
	fmt_kv(&f, " cycles=", cycles);
	fmt_line(&f);
}

static void cmd_bench(struct args *a)
{
	if (!arity(a, 0, 1))
		return;
	uint32_t max_backlog = BENCH_MAX_BACKLOG;
	if (a->n == 2 && !number(a->v[1], &max_backlog))
		return;
	if (max_backlog == 0 || max_backlog > BENCH_MAX_BACKLOG) {
		reply_err(E_OUT_OF_RANGE, "bench backlog must be 1..1024");
		return;
	}
	bench_run(arena, sizeof arena, max_backlog);
	bench_gang(arena, sizeof arena);
	live_init();
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok bench");
	fmt_line(&f);
}

static void cmd_selfcheck(struct args *a)
{
	if (!arity(a, 1, 1))
		return;
	if (!str_eq(a->v[1], "on") && !str_eq(a->v[1], "off")) {
		reply_err(E_INVALID, "selfcheck takes on or off");
		return;
	}
	con.selfcheck = str_eq(a->v[1], "on");
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, con.selfcheck ? "ok selfcheck=on" : "ok selfcheck=off");
	fmt_line(&f);
}

/* selftest fault: fail on purpose, to prove that a fault is reported and ends the run non-zero. */
static void cmd_selftest(struct args *a)
{
	if (!arity(a, 1, 1))
		return;
	if (!str_eq(a->v[1], "fault")) {
		reply_err(E_INVALID, "selftest takes fault");
		return;
	}
	port_selftest_fault();
}

static void cmd_quit(struct args *a)
{
	if (!arity(a, 0, 1))
		return;
	uint32_t code = 0;
	if (a->n == 2 && !number(a->v[1], &code))
		return;
	if (code > 255) {
		reply_err(E_OUT_OF_RANGE, "exit code must be 0..255");
		return;
	}
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok bye");
	fmt_line(&f);
	con.exit_status = (int)code;
}

static void run_line(char *line)
{
	struct args a = {.n = 0};
	char *p = line;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (*p == '\0')
			break;
		if (a.n == MAX_ARGS) {
			reply_err(E_EXTRA_ARG, "too many arguments");
			return;
		}
		a.v[a.n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	if (a.n == 0)
		return; /* an empty line gets no reply */
	const char *c = a.v[0];
	if (str_eq(c, "help")) {
		if (arity(&a, 0, 0))
			cmd_help();
	} else if (str_eq(c, "version")) {
		if (arity(&a, 0, 0))
			cmd_version();
	} else if (str_eq(c, "config")) {
		cmd_config(&a);
	} else if (str_eq(c, "time") || str_eq(c, "advance")) {
		cmd_advance(&a);
	} else if (str_eq(c, "submit")) {
		cmd_submit(&a);
	} else if (str_eq(c, "finish")) {
		cmd_job(&a, sched_finish, "finished");
	} else if (str_eq(c, "cancel")) {
		cmd_job(&a, sched_cancel, "cancelled");
	} else if (str_eq(c, "predict")) {
		cmd_predict(&a);
	} else if (str_eq(c, "status")) {
		if (arity(&a, 0, 0))
			cmd_status();
	} else if (str_eq(c, "queue")) {
		cmd_list(&a, SCHED_JOB_WAITING);
	} else if (str_eq(c, "running")) {
		cmd_list(&a, SCHED_JOB_RUNNING);
	} else if (str_eq(c, "profile")) {
		cmd_profile(&a);
	} else if (str_eq(c, "stats")) {
		if (arity(&a, 0, 0))
			cmd_stats();
	} else if (str_eq(c, "policy")) {
		cmd_policy(&a);
	} else if (str_eq(c, "reset")) {
		cmd_reset(&a);
	} else if (str_eq(c, "replay")) {
		cmd_replay(&a);
	} else if (str_eq(c, "fixtures")) {
		if (arity(&a, 0, 0))
			cmd_fixtures();
	} else if (str_eq(c, "bench")) {
		cmd_bench(&a);
	} else if (str_eq(c, "selfcheck")) {
		cmd_selfcheck(&a);
	} else if (str_eq(c, "selftest")) {
		cmd_selftest(&a);
	} else if (str_eq(c, "quit")) {
		cmd_quit(&a);
	} else {
		reply_err(E_UNKNOWN_COMMAND, "unknown command (try help)");
	}
}

void console_init(const char *port_name)
{
	con.port = port_name;
	con.cfg = (struct sched_config){.procs = CONSOLE_DEFAULT_PROCS, .max_jobs = CONSOLE_MAX_JOBS,
					.policy = SCHED_POLICY_CONS, .scratch_jobs = CONSOLE_SCRATCH_JOBS};
	con.len = 0;
	con.dropped = 0;
	con.control = false;
	con.selfcheck = false;
	con.exit_status = -1;
	live_init();
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "sched-core " VERSION " port=");
	fmt_str(&f, port_name);
	print_config(&f);
	fmt_kv(&f, " fixtures=", console_fixture_count);
	fmt_str(&f, " ready");
	fmt_line(&f);
}

int console_feed(char c)
{
	if (c == '\r')
		return -1;
	if (c != '\n') {
		if ((unsigned char)c < 0x20 && c != '\t')
			con.control = true;
		if (con.len < CONSOLE_LINE_MAX)
			con.line[con.len++] = c;
		else
			con.dropped++;
		return -1;
	}
	con.line[con.len] = '\0';
	if (con.dropped > 0) {
		reply_err(E_LINE_TOO_LONG, "line too long: the excess was discarded (at most 127 bytes)");
	} else if (con.control) {
		reply_err(E_CONTROL_CHAR, "control character in line");
	} else {
		run_line(con.line);
		if (con.selfcheck && sched_check(con.s) != SCHED_OK) {
			reply_err(E_INVARIANT, "invariant check failed");
			con.exit_status = 3;
		}
	}
	con.len = 0;
	con.dropped = 0;
	con.control = false;
	return con.exit_status;
}

int console_run(const char *port_name)
{
	console_init(port_name);
	for (;;) {
		int c = port_getc();
		if (c < 0)
			return 0;
		int status = console_feed((char)c);
		if (status >= 0)
			return status;
	}
}
