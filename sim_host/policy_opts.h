/* SPDX-License-Identifier: MIT */
/* The replayer's policy-specific options, parsed in one place (to be generated from a policy registry). */
#ifndef SIM_POLICY_OPTS_H
#define SIM_POLICY_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "sched/dynp.h"
#include "sched/gang.h"
#include "sched/sched.h"

/* --policy gang: time sharing (seed 002), a module beside the space-sharing policies. */
#define POLICY_GANG SCHED_POLICY_GANG

/* One column of the report: a policy, and its variant (slack heuristic, dynP decider and quality, gang scheme). */
struct run_spec {
	enum sched_policy_id policy;  /* or POLICY_GANG */
	enum sched_gang_scheme scheme;
	enum sched_heuristic heuristic;
	enum sched_decider decider;
	enum sched_quality quality;
	char name[24];
};

#define RUN_SPECS_MAX 16

/* What the policy options set beyond struct sched_config, and which were given. */
struct policy_opts {
	enum sched_heuristic heur[SCHED_HEUR_COUNT];
	size_t n_heur;
	enum sched_decider dec[SCHED_DECIDER_COUNT];
	size_t n_dec;
	enum sched_quality qual[SCHED_QUALITY_COUNT];
	size_t n_qual;
	enum sched_gang_scheme schemes[SCHED_GANG_SCHEME_COUNT];
	size_t n_schemes;
	sched_time_t quantum;         /* gang: seconds per slot */
	uint32_t max_slots;           /* gang: slots at most */
	unsigned long hi_every;       /* every K-th job of a period gets priority 1; 0 = none */
	unsigned long scratch;        /* planning scratch jobs; 0 = the capacity */
	bool relaxed_knob, slack_knob, dynp_knob, bounds_knob, gang_knob;
};

/* The long options policy_opt() takes (each with an argument), NULL-terminated. */
extern const char *const policy_opt_names[];

/** The defaults: into @p p and the policy parameters of @p base (slack, dynP). O(1). */
void policy_opts_default(struct policy_opts *p, struct sched_config *base);

/**
 * Parse option --@p name with argument @p arg. O(length of arg).
 * @return 1 consumed, 0 not a policy option, SCHED_E_INVAL bad usage (message in @p msg).
 */
int policy_opt(const char *name, const char *arg, struct policy_opts *p, struct sched_config *base,
	       char *msg, size_t len);

/**
 * Expand @p n policies into report columns (slack per heuristic, dynP per decider and quality,
 * gang per scheme) and refuse a policy option whose policy is not in the list. O(columns).
 * @retval SCHED_E_INVAL with a message in @p msg.
 */
int policy_opts_columns(const struct policy_opts *p, const enum sched_policy_id *policies, size_t n,
			struct run_spec *specs, size_t *n_specs, char *msg, size_t len);

#endif /* SIM_POLICY_OPTS_H */
