/* SPDX-License-Identifier: MIT */
/* The policy options of build/replay, made from the core's policy registry: names, parsing, ranges, help. */
#define _POSIX_C_SOURCE 200809L
#include "policy_opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "sched/err.h"

/* The registry's parameter names, then the replayer's own; NULL-terminated. */
#define OWN_OPTIONS 4
const char *policy_opt_names[SCHED_POLICY_COUNT * POLICY_PARAMS_MAX + OWN_OPTIONS + 1];

void policy_opts_default(struct policy_opts *p, struct sched_config *base)
{
	(void)base; /* a block not given takes the registry's defaults in the core */
	memset(p, 0, sizeof *p);
	size_t n = 0;
	for (int pol = 0; pol < SCHED_POLICY_COUNT; pol++) {
		const struct sched_param *ps;
		unsigned np = sched_policy_params((enum sched_policy_id)pol, &ps);
		for (unsigned k = 0; k < np && k < POLICY_PARAMS_MAX; k++)
			policy_opt_names[n++] = ps[k].name;
	}
	policy_opt_names[n++] = "bounds";
	policy_opt_names[n++] = "hi-pri-every";
	policy_opt_names[n++] = "hi-pri-gap";
	policy_opt_names[n++] = "scratch";
	policy_opt_names[n] = NULL;
}

/* A choice parameter's names: "ast, aat, du, dc, dp". */
static void choices(const struct sched_param *p, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (unsigned c = 0; p->choices[c] != NULL && at < len; c++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", c ? ", " : "", p->choices[c]);
}

/* "--NAME takes 0..1", "--NAME takes 0..2147483647s (or 30m, 2h, 1d)", or the choices. */
static void describe(const struct sched_param *p, char *buf, size_t len)
{
	char lo[24], hi[24];
	if (p->kind == SCHED_PARAM_CHOICE) {
		char names[120];
		choices(p, names, sizeof names);
		snprintf(buf, len, "--%s takes %s %s", p->name, p->listable ? "one or more of" : "one of", names);
		return;
	}
	sched_param_format(p, p->min, lo, sizeof lo);
	sched_param_format(p, p->max, hi, sizeof hi);
	snprintf(buf, len, "--%s takes %s..%s%s%s", p->name, lo, hi, p->unit,
		 p->kind == SCHED_PARAM_SECONDS ? " (or 30m, 2h, 1d)" : "");
}

/* One value of p from text; on error a usage message naming the value. */
static int one_value(const struct sched_param *p, const char *text, uint32_t *v, char *msg, size_t len)
{
	int rc = sched_param_parse(p, text, v);
	if (rc == SCHED_OK)
		return SCHED_OK;
	char what[160];
	if (p->kind == SCHED_PARAM_CHOICE) {
		choices(p, what, sizeof what);
		snprintf(msg, len, "unknown %s '%s' (%s)", p->name, text, what);
		return SCHED_E_INVAL;
	}
	describe(p, what, sizeof what);
	return options_usage(msg, len, what, text);
}

/* A registry parameter: its value (or, if listable, its comma-separated values) into p and base. */
static int registry_option(enum sched_policy_id pol, unsigned k, const struct sched_param *param, const char *arg,
			   struct policy_opts *p, struct sched_config *base, char *msg, size_t len)
{
	char *copy = strdup(arg);
	if (copy == NULL)
		return SCHED_E_NOSPACE;
	int rc = SCHED_OK;
	size_t n = 0;
	for (char *save = NULL, *tok = strtok_r(copy, param->listable ? "," : "", &save); rc == SCHED_OK && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		uint32_t v;
		rc = one_value(param, tok, &v, msg, len);
		if (rc == SCHED_OK && n == POLICY_LIST_MAX)
			rc = options_usage(msg, len, "too many values", arg);
		if (rc == SCHED_OK)
			p->list[pol][k][n++] = v;
	}
	free(copy);
	if (rc == SCHED_OK && n == 0)
		rc = options_usage(msg, len, "empty list", arg);
	if (rc != SCHED_OK)
		return rc;
	p->n_list[pol][k] = (uint8_t)n;
	p->given[pol] = true;
	return sched_param_set(base, param, p->list[pol][k][0]) == SCHED_OK ? 1 : SCHED_E_INVAL;
}

/* --bounds L,U: basic dynP's lower and upper bound at once. */
static int bounds(const char *arg, struct policy_opts *p, struct sched_config *base, char *msg, size_t len)
{
	enum sched_policy_id pol;
	const struct sched_param *lo = sched_param_find("lower", &pol), *hi = sched_param_find("upper", NULL);
	const char *comma = strchr(arg, ',');
	char first[32];
	uint32_t l, u;
	if (comma == NULL || (size_t)(comma - arg) >= sizeof first)
		return options_usage(msg, len, "--bounds takes LOWER,UPPER in seconds, LOWER <= UPPER", arg);
	memcpy(first, arg, (size_t)(comma - arg));
	first[comma - arg] = '\0';
	if (sched_param_parse(lo, first, &l) != SCHED_OK || sched_param_parse(hi, comma + 1, &u) != SCHED_OK || l > u)
		return options_usage(msg, len, "--bounds takes LOWER,UPPER in seconds, LOWER <= UPPER", arg);
	(void)sched_param_set(base, lo, l);
	(void)sched_param_set(base, hi, u);
	p->given[pol] = true;
	return 1;
}

int policy_opt(const char *name, const char *arg, struct policy_opts *p, struct sched_config *base,
	       char *msg, size_t len)
{
	for (int pol = 0; pol < SCHED_POLICY_COUNT; pol++) {
		const struct sched_param *ps;
		unsigned np = sched_policy_params((enum sched_policy_id)pol, &ps);
		for (unsigned k = 0; k < np && k < POLICY_PARAMS_MAX; k++)
			if (strcmp(name, ps[k].name) == 0)
				return registry_option((enum sched_policy_id)pol, k, &ps[k], arg, p, base, msg, len);
	}
	int rc;
	if (strcmp(name, "bounds") == 0)
		return bounds(arg, p, base, msg, len);
	if (strcmp(name, "hi-pri-every") == 0)
		rc = options_count("--hi-pri-every", arg, 1u << 30, &p->hi_every, msg, len);
	else if (strcmp(name, "hi-pri-gap") == 0) {
		rc = options_milli("--hi-pri-gap", arg, 2.0, &p->hi_gap_milli, msg, len);
		p->hi_gap_given = true;
	} else if (strcmp(name, "scratch") == 0)
		rc = options_count("--scratch", arg, 1u << 30, &p->scratch, msg, len);
	else
		return 0;
	return rc < 0 ? rc : 1;
}

/* The value label of a listable parameter for a column name. */
static const char *label(const struct sched_param *p, uint32_t v)
{
	if (p->kind != SCHED_PARAM_CHOICE)
		return NULL;
	return p->labels != NULL ? p->labels[v] : p->choices[v];
}

/* The columns of one policy of the list: every combination of its listable parameters' values. */
static int columns_of(const struct policy_opts *p, enum sched_policy_id id, struct run_spec *specs, size_t *n,
		      char *msg, size_t len)
{
	const struct sched_param *ps;
	unsigned np = sched_policy_params(id, &ps);
	size_t copies = 1;
	for (unsigned k = 0; k < np; k++)
		if (ps[k].listable && p->n_list[id][k] > 0)
			copies *= p->n_list[id][k];
	for (size_t c = 0; c < copies; c++) {
		if (*n == RUN_SPECS_MAX)
			return options_usage(msg, len, "too many policy columns", NULL);
		struct run_spec *r = &specs[(*n)++];
		memset(r, 0, sizeof *r);
		r->policy = id;
		size_t at = (size_t)snprintf(r->name, sizeof r->name, "%s", sched_policy_name(id));
		size_t rest = c;
		/* The last listable parameter varies fastest, as the old columns did (dynp-adv-artww, dynp-adv-art). */
		for (unsigned k = np; k-- > 0;) {
			unsigned nv = ps[k].listable ? p->n_list[id][k] : 0;
			r->values[k] = nv ? p->list[id][k][rest % nv] : sched_param_get(&(struct sched_config){0}, &ps[k]);
			if (nv)
				rest /= nv;
		}
		for (unsigned k = 0; copies > 1 && k < np; k++)
			if (ps[k].listable && at < sizeof r->name)
				at += (size_t)snprintf(r->name + at, sizeof r->name - at, "-%s", label(&ps[k], r->values[k]));
	}
	return SCHED_OK;
}

void policy_spec_apply(const struct run_spec *spec, struct sched_config *cfg)
{
	const struct sched_param *ps;
	unsigned np = sched_policy_params(spec->policy, &ps);
	for (unsigned k = 0; k < np; k++)
		if (ps[k].listable)
			(void)sched_param_set(cfg, &ps[k], spec->values[k]);
}

int policy_opts_columns(const struct policy_opts *p, const enum sched_policy_id *policies, size_t n,
			struct run_spec *specs, size_t *n_specs, char *msg, size_t len)
{
	bool has[SCHED_POLICY_COUNT] = {false};
	*n_specs = 0;
	for (size_t i = 0; i < n; i++) {
		has[policies[i]] = true;
		int rc = columns_of(p, policies[i], specs, n_specs, msg, len);
		if (rc != SCHED_OK)
			return rc;
	}
	for (int pol = 0; pol < SCHED_POLICY_COUNT; pol++) {
		if (!p->given[pol] || has[pol])
			continue;
		const struct sched_param *ps;
		unsigned np = sched_policy_params((enum sched_policy_id)pol, &ps);
		char names[160] = "";
		size_t at = 0;
		for (unsigned k = 0; k < np && at < sizeof names; k++)
			at += (size_t)snprintf(names + at, sizeof names - at, "%s--%s", k ? ", " : "", ps[k].name);
		snprintf(msg, len, "%s need --policy %s", names, sched_policy_name((enum sched_policy_id)pol));
		return SCHED_E_INVAL;
	}
	return SCHED_OK;
}

void policy_opts_help(FILE *f)
{
	fputs("\nPolicies (the core's registry, core/include/sched/policies.h):\n", f);
	for (int pol = 0; pol < SCHED_POLICY_COUNT; pol++)
		fprintf(f, "  %-12s %s\n", sched_policy_name((enum sched_policy_id)pol),
			sched_policy_help((enum sched_policy_id)pol));
	for (int pol = 0; pol < SCHED_POLICY_COUNT; pol++) {
		const struct sched_param *ps;
		unsigned np = sched_policy_params((enum sched_policy_id)pol, &ps);
		if (np == 0)
			continue;
		fprintf(f, "\n%s: %s\n", sched_policy_name((enum sched_policy_id)pol),
			sched_policy_help((enum sched_policy_id)pol));
		for (unsigned k = 0; k < np; k++) {
			char what[160], def[24];
			describe(&ps[k], what, sizeof what);
			sched_param_format(&ps[k], ps[k].def, def, sizeof def);
			fprintf(f, "  %s%s; default %s\n      %s\n", what, ps[k].listable ? " (a list: one column each)" : "",
				def, ps[k].help);
		}
	}
}
