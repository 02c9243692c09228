/* SPDX-License-Identifier: MIT */
/* The policy-specific options of build/replay: relaxed, slack, the dynP family, gang. */
#define _POSIX_C_SOURCE 200809L
#include "policy_opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "sched/err.h"

const char *const policy_opt_names[] = {
	"tolerance", "tolerance-factor", "sf", "awt", "alpha-u", "alpha-t", "alpha-p", "alpha-f",
	"heuristic", "early-end", "hi-pri-every", "scratch", "bounds", "decider", "quality",
	"scheme", "quantum", "max-slots", NULL,
};

void policy_opts_default(struct policy_opts *p, struct sched_config *base)
{
	memset(p, 0, sizeof *p);
	p->heur[0] = SCHED_HEUR_AST;
	p->n_heur = 1;
	p->dec[0] = SCHED_DECIDER_ADVANCED;
	p->n_dec = 1;
	p->qual[0] = SCHED_QUALITY_ARTWW;
	p->n_qual = 1;
	p->schemes[0] = SCHED_GANG_BRMMS;
	p->n_schemes = 1;
	p->quantum = 5;
	p->max_slots = 1024;
	struct sched_slack_cfg *sl = &base->slack;
	sl->sf_milli = 3000;
	sl->awt = 2401;
	for (int k = 0; k < 4; k++)
		sl->alpha_milli[k] = 1000;
	sl->heuristic = SCHED_HEUR_AST;
	sl->set = true;
	base->dynp.lower = 7200;
	base->dynp.upper = 9000;
	base->dynp.set = true;
}

/* A comma-separated list through @p parse, at most @p max items; false when empty or bad. */
static bool parse_list(const char *arg, size_t max, size_t *n, void *out, size_t size,
		       int (*parse)(const char *tok, void *item))
{
	char *copy = strdup(arg);
	if (copy == NULL)
		return false;
	*n = 0;
	bool ok = true;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); ok && tok; tok = strtok_r(NULL, ",", &save)) {
		ok = *n < max && parse(tok, (char *)out + *n * size) == SCHED_OK;
		*n += ok;
	}
	free(copy);
	return ok && *n > 0;
}

static int dec_parse(const char *t, void *v) { return sched_decider_parse(t, v); }
static int qual_parse(const char *t, void *v) { return sched_quality_parse(t, v); }
static int scheme_parse(const char *t, void *v) { return sched_gang_scheme_parse(t, v); }

/* --heuristic: its own message names the first bad item, as the policy list's does. */
static int heuristics(const char *arg, struct policy_opts *p, char *msg, size_t len)
{
	char *copy = strdup(arg);
	size_t n = 0;
	int rc = SCHED_OK;
	for (char *save = NULL, *tok = strtok_r(copy, ",", &save); rc == SCHED_OK && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (sched_heuristic_parse(tok, &p->heur[n < SCHED_HEUR_COUNT ? n : 0]) != SCHED_OK) {
			snprintf(msg, len, "unknown heuristic '%s' (ast, aat, du, dc, dp)", tok);
			rc = SCHED_E_INVAL;
		} else if (n == SCHED_HEUR_COUNT) {
			rc = options_usage(msg, len, "too many heuristics", arg);
		} else {
			n++;
		}
	}
	free(copy);
	if (rc == SCHED_OK && n == 0)
		rc = options_usage(msg, len, "empty heuristic list", NULL);
	p->n_heur = n;
	return rc;
}

static int bounds(const char *arg, struct sched_config *base, char *msg, size_t len)
{
	char *end;
	errno = 0;
	unsigned long lo = strtoul(arg, &end, 10), hi = 0;
	bool ok = end != arg && *end == ',' && errno == 0 && arg[0] != '-';
	if (ok) {
		const char *h = end + 1;
		hi = strtoul(h, &end, 10);
		ok = end != h && *end == '\0' && errno == 0 && h[0] != '-' && lo <= hi && hi < SCHED_NOW_LIMIT;
	}
	if (!ok)
		return options_usage(msg, len, "--bounds takes LOWER,UPPER in seconds, LOWER <= UPPER", arg);
	base->dynp.lower = (sched_time_t)lo;
	base->dynp.upper = (sched_time_t)hi;
	return SCHED_OK;
}

/* The relaxed and slack options; 0 when @p name is neither. */
static int relaxed_slack(const char *name, const char *arg, struct policy_opts *p, struct sched_config *base,
			 char *msg, size_t len)
{
	struct sched_slack_cfg *sl = &base->slack;
	static const char *const alphas[] = {"alpha-u", "alpha-t", "alpha-p", "alpha-f"};
	int rc = SCHED_OK;
	uint32_t v = 0;
	p->slack_knob = true;
	if (strcmp(name, "tolerance") == 0 || strcmp(name, "tolerance-factor") == 0) {
		p->slack_knob = false;
		p->relaxed_knob = true;
		if (name[9] == '\0')
			rc = options_seconds("--tolerance takes seconds (or 30m, 2h)", arg, &base->tolerance, msg, len);
		else
			rc = options_milli("--tolerance-factor", arg, 1000, &base->tolerance_permille, msg, len);
	} else if (strcmp(name, "sf") == 0) {
		rc = options_milli("--sf", arg, 1000, &sl->sf_milli, msg, len);
	} else if (strcmp(name, "awt") == 0) {
		unsigned long awt;
		rc = options_count("--awt", arg, 100u * 365 * 86400, &awt, msg, len);
		sl->awt = (sched_time_t)awt;
	} else if (strcmp(name, "heuristic") == 0) {
		rc = heuristics(arg, p, msg, len);
	} else if (strcmp(name, "early-end") == 0) {
		if (strcmp(arg, "search") != 0 && strcmp(arg, "compress") != 0)
			return options_usage(msg, len, "--early-end takes search or compress", arg);
		sl->end_compress = strcmp(arg, "compress") == 0;
	} else {
		for (int k = 0; k < 4; k++)
			if (strcmp(name, alphas[k]) == 0) {
				char opt[16];
				snprintf(opt, sizeof opt, "--%s", alphas[k]);
				rc = options_milli(opt, arg, 1, &v, msg, len);
				sl->alpha_milli[k] = (uint16_t)v;
				return rc < 0 ? rc : 1;
			}
		p->slack_knob = false;
		return 0;
	}
	return rc < 0 ? rc : 1;
}

/* The dynP family's and gang's options, --hi-pri-every and --scratch; 0 when @p name is none of them. */
static int dynp_gang(const char *name, const char *arg, struct policy_opts *p, struct sched_config *base,
		     char *msg, size_t len)
{
	int rc = SCHED_OK;
	unsigned long v = 0;
	if (strcmp(name, "bounds") == 0) {
		rc = bounds(arg, base, msg, len);
		p->bounds_knob = true;
	} else if (strcmp(name, "decider") == 0 || strcmp(name, "quality") == 0) {
		bool dec = name[0] == 'd';
		bool ok = dec ? parse_list(arg, SCHED_DECIDER_COUNT, &p->n_dec, p->dec, sizeof p->dec[0], dec_parse)
			      : parse_list(arg, SCHED_QUALITY_COUNT, &p->n_qual, p->qual, sizeof p->qual[0], qual_parse);
		if (!ok)
			return options_usage(msg, len, dec ? "--decider takes simple and/or advanced"
							   : "--quality takes artww, art and/or ms", arg);
		p->dynp_knob = true;
	} else if (strcmp(name, "scheme") == 0) {
		if (!parse_list(arg, SCHED_GANG_SCHEME_COUNT, &p->n_schemes, p->schemes, sizeof p->schemes[0],
				scheme_parse))
			return options_usage(msg, len, "--scheme takes bc, br, brms and/or brmms", arg);
		p->gang_knob = true;
	} else if (strcmp(name, "quantum") == 0) {
		rc = options_seconds("--quantum takes seconds (at least 1)", arg, &p->quantum, msg, len);
		if (rc == SCHED_OK && p->quantum == 0)
			rc = options_usage(msg, len, "--quantum takes seconds (at least 1)", arg);
		p->gang_knob = true;
	} else if (strcmp(name, "max-slots") == 0) {
		rc = options_count("--max-slots", arg, 65535, &v, msg, len);
		p->max_slots = (uint32_t)v;
		p->gang_knob = true;
	} else if (strcmp(name, "hi-pri-every") == 0) {
		rc = options_count("--hi-pri-every", arg, 1u << 30, &p->hi_every, msg, len);
	} else if (strcmp(name, "scratch") == 0) {
		rc = options_count("--scratch", arg, 1u << 30, &p->scratch, msg, len);
	} else {
		return 0;
	}
	return rc < 0 ? rc : 1;
}

int policy_opt(const char *name, const char *arg, struct policy_opts *p, struct sched_config *base,
	       char *msg, size_t len)
{
	int rc = relaxed_slack(name, arg, p, base, msg, len);
	return rc != 0 ? rc : dynp_gang(name, arg, p, base, msg, len);
}

/* One column; SCHED_E_INVAL when there are too many. */
static int add_spec(struct run_spec *specs, size_t *n, const struct run_spec *s, char *msg, size_t len)
{
	if (*n == RUN_SPECS_MAX)
		return options_usage(msg, len, "too many policy columns", NULL);
	specs[(*n)++] = *s;
	return SCHED_OK;
}

/* The columns of one policy of the list. */
static int columns_of(const struct policy_opts *p, enum sched_policy_id id, struct run_spec *specs, size_t *n,
		      char *msg, size_t len)
{
	bool slack = id == SCHED_POLICY_SLACK, dynp = id == SCHED_POLICY_DYNP, gang = id == POLICY_GANG;
	size_t copies = gang ? p->n_schemes : slack ? p->n_heur : dynp ? p->n_dec * p->n_qual : 1;
	for (size_t h = 0; h < copies; h++) {
		struct run_spec r = {.policy = id};
		if (gang) {
			r.scheme = p->schemes[h];
			if (copies > 1)
				snprintf(r.name, sizeof r.name, "gang-%s", sched_gang_scheme_name(r.scheme));
			else
				snprintf(r.name, sizeof r.name, "gang");
		} else {
			r.heuristic = p->heur[slack ? h : 0];
			r.decider = p->dec[dynp ? h / p->n_qual : 0];
			r.quality = p->qual[dynp ? h % p->n_qual : 0];
			if (slack && copies > 1)
				snprintf(r.name, sizeof r.name, "slack-%s", sched_heuristic_name(r.heuristic));
			else if (dynp && copies > 1)
				snprintf(r.name, sizeof r.name, "dynp-%s-%s",
					 r.decider == SCHED_DECIDER_SIMPLE ? "simple" : "adv", sched_quality_name(r.quality));
			else
				snprintf(r.name, sizeof r.name, "%s", sched_policy_name(id));
		}
		int rc = add_spec(specs, n, &r, msg, len);
		if (rc != SCHED_OK)
			return rc;
	}
	return SCHED_OK;
}

int policy_opts_columns(const struct policy_opts *p, const enum sched_policy_id *policies, size_t n,
			struct run_spec *specs, size_t *n_specs, char *msg, size_t len)
{
	bool has[SCHED_POLICY_COUNT + 1] = {false};
	*n_specs = 0;
	for (size_t i = 0; i < n; i++) {
		has[policies[i]] = true;
		int rc = columns_of(p, policies[i], specs, n_specs, msg, len);
		if (rc != SCHED_OK)
			return rc;
	}
	if (p->gang_knob && !has[POLICY_GANG])
		return options_usage(msg, len, "--scheme, --quantum and --max-slots need --policy gang", NULL);
	if (p->dynp_knob && !has[SCHED_POLICY_DYNP])
		return options_usage(msg, len, "--decider and --quality need --policy dynp", NULL);
	if (p->bounds_knob && !has[SCHED_POLICY_DYNP_BASIC])
		return options_usage(msg, len, "--bounds needs --policy dynp-basic", NULL);
	if (p->relaxed_knob && !has[SCHED_POLICY_RELAXED])
		return options_usage(msg, len, "--tolerance and --tolerance-factor need --policy relaxed", NULL);
	if (p->slack_knob && !has[SCHED_POLICY_SLACK])
		return options_usage(msg, len, "--sf, --awt, --alpha-*, --heuristic, --early-end need --policy slack",
				     NULL);
	return SCHED_OK;
}
