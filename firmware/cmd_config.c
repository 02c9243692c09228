/* SPDX-License-Identifier: MIT */
/*
 * config and policy: the machine, the job table, the policy and its
 * parameters. The parameters' names, parsing, ranges and help come from the
 * core's policy registry: a new policy's parameters need no change here.
 */
#include "commands.h"
#include "con_config.h"
#include "con_reply.h"
#include "con_session.h"
#include "con_view.h"
#include "console_err.h"

/* Every policy parameter of the registry as NAME=VALUE, in registry order. */
static void fmt_params(struct fmt *f, const struct sched_config *c)
{
	for (int pol = 0; pol < SCHED_POLICY_COUNT; pol++) {
		const struct sched_param *ps;
		unsigned n = sched_policy_params((enum sched_policy_id)pol, &ps);
		for (unsigned k = 0; k < n; k++) {
			char v[24];
			sched_param_format(&ps[k], sched_param_get(c, &ps[k]), v, sizeof v);
			fmt_ch(f, ' ');
			fmt_str(f, ps[k].name);
			fmt_ch(f, '=');
			fmt_str(f, v);
		}
	}
}

void con_fmt_config(struct fmt *f)
{
	fmt_kv(f, " procs=", con_config()->procs);
	fmt_kv(f, " max_jobs=", con_config()->max_jobs);
	fmt_str(f, " policy=");
	fmt_str(f, sched_policy_name(con_config()->policy));
	fmt_kv(f, " line_max=", CONSOLE_LINE_MAX);
	fmt_kv(f, " arena=", (uint32_t)CON_ARENA_BYTES);
	fmt_params(f, con_view_params(con_sched()));
	fmt_kv(f, " scratch_jobs=", con_config()->scratch_jobs);
	fmt_kv(f, " node_size=", con_node_size());
}

static void reply_config(void)
{
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok");
	con_fmt_config(&f);
	fmt_line(&f);
}

/* Append text to buf (size n), always terminated. */
static void append(char *buf, size_t n, const char *text)
{
	size_t at = 0;
	while (at + 1 < n && buf[at] != '\0')
		at++;
	while (at + 1 < n && *text != '\0')
		buf[at++] = *text++;
	buf[at] = '\0';
}

/* Append @p v in decimal. */
static void append_u32(char *buf, size_t n, uint32_t v)
{
	char d[11];
	unsigned k = sizeof d - 1;
	d[k] = '\0';
	do
		d[--k] = (char)('0' + v % 10u);
	while ((v /= 10u) != 0 && k > 0);
	append(buf, n, d + k);
}

/* What a parameter takes, for an error: "heuristic is one of ast, aat, ..." or "sf takes 0..1000". */
static void describe(const struct sched_param *p, char *buf, size_t n)
{
	buf[0] = '\0';
	append(buf, n, p->name);
	if (p->kind == SCHED_PARAM_CHOICE) {
		append(buf, n, " is one of ");
		for (unsigned c = 0; p->choices[c] != NULL; c++) {
			append(buf, n, c ? ", " : "");
			append(buf, n, p->choices[c]);
		}
		return;
	}
	char v[24];
	append(buf, n, " takes ");
	sched_param_format(p, p->min, v, sizeof v);
	append(buf, n, v);
	append(buf, n, "..");
	sched_param_format(p, p->max, v, sizeof v);
	append(buf, n, v);
	append(buf, n, p->unit);
}

/*
 * config NAME VALUE for a policy parameter of the registry: any time, for
 * decisions from now on. Its name, parsing, range and help are the
 * registry's (core/src/registry.c). False if NAME is no parameter.
 */
static bool config_param(struct args *a)
{
	const struct sched_param *p = sched_param_find(a->v[1], NULL);
	if (p == NULL)
		return false;
	uint32_t v;
	int err = sched_param_parse(p, a->v[2], &v);
	if (err != SCHED_OK) {
		char why[96];
		describe(p, why, sizeof why);
		con_err(err, why);
		return true;
	}
	struct sched_config c = *con_view_params(con_sched());
	err = sched_param_set(&c, p, v);
	if (err == SCHED_OK)
		err = sched_tune_check(con_sched(), &c); /* before the line is journaled */
	if (err == SCHED_OK && !con_commit())
		return true;
	if (err == SCHED_OK)
		err = sched_tune(con_sched(), &c);
	if (err != SCHED_OK) {
		con_err(err, "the policy's own checks refuse it (basic dynP: lower <= upper)");
		return true;
	}
	/* Keep the live parameters for a reset (which re-initialises from con_config()). */
	con_set_config(con_view_params(con_sched()));
	reply_config();
	return true;
}

/* config help: the parameters' names; config help NAME: one of them, from the registry. One line. */
static void config_help(const char *name)
{
	struct fmt f;
	fmt_init(&f);
	enum sched_policy_id owner;
	const struct sched_param *p = name != NULL ? sched_param_find(name, &owner) : NULL;
	if (name != NULL && p == NULL) {
		con_err(SCHED_E_INVAL, "no such parameter (config help lists them)");
		return;
	}
	if (p == NULL) {
		fmt_str(&f, "ok params=");
		const char *sep = "";
		for (int pol = 0; pol < SCHED_POLICY_COUNT; pol++) {
			const struct sched_param *ps;
			unsigned n = sched_policy_params((enum sched_policy_id)pol, &ps);
			for (unsigned k = 0; k < n; k++, sep = ",") {
				fmt_str(&f, sep);
				fmt_str(&f, ps[k].name);
			}
		}
		fmt_line(&f);
		return;
	}
	char v[24];
	fmt_str(&f, "ok ");
	fmt_str(&f, p->name);
	fmt_str(&f, " policy=");
	fmt_str(&f, sched_policy_name(owner));
	if (p->kind == SCHED_PARAM_CHOICE) {
		fmt_str(&f, " choices=");
		for (unsigned c = 0; p->choices[c] != NULL; c++) {
			fmt_str(&f, c ? "," : "");
			fmt_str(&f, p->choices[c]);
		}
	} else {
		sched_param_format(p, p->min, v, sizeof v);
		fmt_str(&f, " min=");
		fmt_str(&f, v);
		sched_param_format(p, p->max, v, sizeof v);
		fmt_str(&f, " max=");
		fmt_str(&f, v);
		fmt_str(&f, p->unit);
	}
	sched_param_format(p, p->def, v, sizeof v);
	fmt_str(&f, " default=");
	fmt_str(&f, v);
	fmt_str(&f, ": ");
	fmt_str(&f, p->help);
	fmt_line(&f);
}

/*
 * Whether @p v is a machine size (@p procs) or a node size that keeps the machine whole nodes
 * (the replayer rounds its machine down instead; here the user chose both). False with the reply.
 */
static bool whole_nodes(bool procs, uint32_t v)
{
	uint32_t machine = procs ? v : con_config()->procs, node = procs ? con_node_size() : v;
	if (machine % node == 0)
		return true;
	con_err(SCHED_E_RANGE, procs ? "procs must be a multiple of node_size" : "node_size must divide procs");
	return false;
}

/*
 * config procs N / config jobs N / config node_size K: machine size, job table, processors of a
 * node (allocated whole: submit and replay round jobs up to it), only while the system is empty.
 */
static void config_machine(struct args *a)
{
	bool procs = con_str_eq(a->v[1], "procs"), jobs = con_str_eq(a->v[1], "jobs");
	bool node = con_str_eq(a->v[1], "node_size");
	if (!procs && !jobs && !node) {
		con_err(SCHED_E_INVAL, "config takes procs, jobs, node_size or a policy parameter (config help lists them)");
		return;
	}
	uint32_t v;
	if (!con_number(a->v[2], &v))
		return;
	/* The build's job table; the core's clock; a node no wider than the machine. */
	uint32_t max = jobs ? CONSOLE_MAX_JOBS : procs ? SCHED_NOW_LIMIT - 1 : con_config()->procs;
	if (v == 0 || v > max) {
		char why[64] = "";
		append(why, sizeof why, jobs ? "jobs takes 1.." : procs ? "procs takes 1.." : "node_size takes 1..");
		append_u32(why, sizeof why, max);
		append(why, sizeof why, jobs ? " (max_jobs of the build)" : node ? " (procs), dividing it" : "");
		con_err(SCHED_E_RANGE, why);
		return;
	}
	if ((procs || node) && !whole_nodes(procs, v))
		return;
	struct con_load l = con_view_load(con_sched());
	if (l.waiting + l.running != 0) {
		con_err(SCHED_E_STATE, "busy: jobs in the system (finish, cancel or reset first)");
		return;
	}
	if (!con_commit())
		return;
	if (node) {
		con_set_node_size(v); /* the core has no nodes: its schedule stays as it is */
		reply_config();
		return;
	}
	struct sched_config c = *con_config();
	if (procs)
		c.procs = v;
	else
		c.max_jobs = v;
	con_set_config(&c);
	sched_time_t keep = con_now();
	con_live_init();
	con_set_now(keep);
	(void)sched_advance(con_sched(), keep);
	reply_config();
}

/* config; config help; config KEY VALUE. */
void cmd_config(struct args *a)
{
	if (a->n == 1) {
		reply_config();
	} else if (con_str_eq(a->v[1], "help")) {
		config_help(a->n == 3 ? a->v[2] : NULL);
	} else if (a->n == 2) {
		con_err(CON_E_MISSING, "config [KEY VALUE]");
	} else if (!config_param(a)) {
		config_machine(a);
	}
}

bool con_policy_arg(const char *name, enum sched_policy_id *p)
{
	if (sched_policy_parse(name, p) != SCHED_OK) {
		con_err(SCHED_E_INVAL, "unknown policy (policy lists them)");
		return false;
	}
	return true;
}

/* policy: the one in force and the registry's list; policy NAME: switch now. */
void cmd_policy(struct args *a)
{
	enum sched_policy_id p;
	if (a->n == 1) {
		struct fmt f;
		fmt_init(&f);
		fmt_str(&f, "ok policy=");
		fmt_str(&f, sched_policy_name(con_config()->policy));
		fmt_str(&f, " policies=");
		for (int k = 0; k < SCHED_POLICY_COUNT; k++) {
			fmt_str(&f, k ? "," : "");
			fmt_str(&f, sched_policy_name((enum sched_policy_id)k));
		}
		fmt_line(&f);
		return;
	}
	if (!con_policy_arg(a->v[1], &p))
		return;
	/* sched_set_policy() refuses a move between time and space sharing: a time-shared policy's
	 * state is laid out when the schedule starts. Asked before the line is journaled. */
	if (sched_policy_timeshared(p) != sched_policy_timeshared(con_view_params(con_sched())->policy)) {
		con_err(SCHED_E_NOTSUP, "it time-shares the machine; the live schedule space-shares (chosen at its start)");
		return;
	}
	/* sched_set_policy()'s other refusal, before the line is journaled (fault injection aside). */
	if (sched_policy_needs_scratch(p) && con_view_params(con_sched())->scratch_jobs == 0) {
		con_err(SCHED_E_INVAL, "it plans in scratch this build has none of (CONSOLE_SCRATCH_JOBS)");
		return;
	}
	if (!con_commit())
		return;
	int err = sched_set_policy(con_sched(), p, con_now());
	if (err != SCHED_OK) {
		con_err(err, NULL);
		return;
	}
	struct sched_config c = *con_config();
	c.policy = p;
	con_set_config(&c);
	con_settle();
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok policy=");
	fmt_str(&f, sched_policy_name(p));
	fmt_line(&f);
}
