/* SPDX-License-Identifier: MIT */
/*
 * config and policy: the machine, the job table, the policy and its
 * parameters. The parameters' names, parsing and ranges all live here
 * (config_param), to be generated from the core's policy registry.
 */
#include "commands.h"
#include "con.h"

void con_fmt_config(struct fmt *f)
{
	fmt_kv(f, " procs=", con.cfg.procs);
	fmt_kv(f, " max_jobs=", con.cfg.max_jobs);
	fmt_str(f, " policy=");
	fmt_str(f, sched_policy_name(con.cfg.policy));
	fmt_kv(f, " line_max=", CONSOLE_LINE_MAX);
	fmt_kv(f, " arena=", (uint32_t)CON_ARENA_BYTES);
	const struct sched_config *c = con_view_params(&con.s);
	fmt_kv(f, " tolerance=", c->tolerance);
	fmt_kv(f, " tolerance_permille=", c->tolerance_permille);
	fmt_kv(f, " sf_milli=", c->slack.sf_milli);
	fmt_kv(f, " awt=", c->slack.awt);
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
	fmt_kv(f, " bounds=", c->dynp.lower);
	fmt_kv(f, ",", c->dynp.upper);
	fmt_kv(f, " scratch_jobs=", con.cfg.scratch_jobs);
}

static void reply_config(void)
{
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok");
	con_fmt_config(&f);
	fmt_line(&f);
}

/* config KEY VALUE for a policy parameter: any time, for decisions from now on. False if KEY is none. */
static bool config_param(struct args *a)
{
	static const char *const keys[] = {"tolerance", "tolerance_permille", "sf_milli", "awt",
					   "alpha_u", "alpha_t", "alpha_p", "alpha_f", "heuristic", "early_end",
					   "decider", "quality", "lower", "upper"};
	int k = -1;
	for (int i = 0; i < (int)(sizeof keys / sizeof keys[0]); i++)
		if (con_str_eq(a->v[1], keys[i]))
			k = i;
	if (k < 0)
		return false;
	struct sched_config c = *con_view_params(&con.s);
	uint32_t v = 0;
	if (k == 8) {
		enum sched_heuristic h;
		if (sched_heuristic_parse(a->v[2], &h) != SCHED_OK) {
			con_err(SCHED_E_INVAL, "heuristic is one of ast, aat, du, dc, dp");
			return true;
		}
		c.slack.heuristic = (uint8_t)h;
	} else if (k == 9) {
		if (!con_str_eq(a->v[2], "search") && !con_str_eq(a->v[2], "compress")) {
			con_err(SCHED_E_INVAL, "early_end is search or compress");
			return true;
		}
		c.slack.end_compress = con_str_eq(a->v[2], "compress");
	} else if (k == 10 || k == 11) {
		enum sched_decider d;
		enum sched_quality q;
		if (k == 10 ? sched_decider_parse(a->v[2], &d) != SCHED_OK : sched_quality_parse(a->v[2], &q) != SCHED_OK) {
			con_err(SCHED_E_INVAL, k == 10 ? "decider is simple or advanced" : "quality is artww, art or ms");
			return true;
		}
		if (k == 10)
			c.dynp.decider = (uint8_t)d;
		else
			c.dynp.quality = (uint8_t)q;
	} else if (!con_number(a->v[2], &v)) {
		return true;
	}
	if ((k == 0 && v >= SCHED_NOW_LIMIT) || (k == 1 && v > 1000000u) || (k == 2 && v > 1000000u) ||
	    (k == 3 && (v == 0 || v >= SCHED_NOW_LIMIT)) || (k >= 4 && k <= 7 && v > 1000u) ||
	    (k == 12 && v > c.dynp.upper) || (k == 13 && (v < c.dynp.lower || v >= SCHED_NOW_LIMIT))) {
		con_err(SCHED_E_RANGE, "alphas and factors are thousandths; awt >= 1; lower <= upper");
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
	int err = sched_tune(&con.s, &c);
	if (err != SCHED_OK) {
		con_err(err, NULL);
		return true;
	}
	const struct sched_config *now = con_view_params(&con.s);
	con.cfg.tolerance = now->tolerance;
	con.cfg.tolerance_permille = now->tolerance_permille;
	con.cfg.slack = now->slack;
	con.cfg.dynp = now->dynp;
	reply_config();
	return true;
}

/* config procs N / config jobs N: machine size and job table, only while the system is empty. */
static void config_machine(struct args *a)
{
	bool procs = con_str_eq(a->v[1], "procs"), jobs = con_str_eq(a->v[1], "jobs");
	if (!procs && !jobs) {
		con_err(SCHED_E_INVAL, "config takes procs, jobs, tolerance, tolerance_permille, sf_milli, awt, "
				       "alpha_u, alpha_t, alpha_p, alpha_f, heuristic, early_end, decider, quality, lower or upper");
		return;
	}
	uint32_t v;
	if (!con_number(a->v[2], &v))
		return;
	if (v == 0 || (jobs && v > CONSOLE_MAX_JOBS) || (procs && v >= SCHED_NOW_LIMIT)) {
		con_err(SCHED_E_RANGE, jobs ? "jobs must be 1..max_jobs of the build" : "procs must be at least 1");
		return;
	}
	struct con_load l = con_view_load(&con.s);
	if (l.waiting + l.running != 0) {
		con_err(SCHED_E_STATE, "busy: jobs in the system (finish, cancel or reset first)");
		return;
	}
	if (procs)
		con.cfg.procs = v;
	else
		con.cfg.max_jobs = v;
	sched_time_t keep = con.now;
	con_live_init();
	con.now = keep;
	(void)sched_advance(&con.s, keep);
	reply_config();
}

/* config; config KEY VALUE. */
void cmd_config(struct args *a)
{
	if (a->n == 1)
		reply_config();
	else if (a->n == 2)
		con_err(SCHED_E_MISSING, "config [KEY VALUE]");
	else if (!config_param(a))
		config_machine(a);
}

bool con_policy_arg(const char *name, enum sched_policy_id *p)
{
	if (sched_policy_parse(name, p) != SCHED_OK) {
		con_err(SCHED_E_INVAL, "unknown policy (fcfs, easy, cons, relaxed, slack, fcfs-replan, sjf, ljf, "
				       "dynp-basic, dynp)");
		return false;
	}
	return true;
}

void cmd_policy(struct args *a)
{
	enum sched_policy_id p;
	if (!con_policy_arg(a->v[1], &p))
		return;
	int err = sched_set_policy(&con.s, p, con.now);
	if (err != SCHED_OK) {
		con_err(err, NULL);
		return;
	}
	con.cfg.policy = p;
	con_settle();
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok policy=");
	fmt_str(&f, sched_policy_name(p));
	fmt_line(&f);
}
