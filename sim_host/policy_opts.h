/* SPDX-License-Identifier: MIT */
/* The replayer's policy options, made from the core's policy registry (sched/policies.h). */
#ifndef SIM_POLICY_OPTS_H
#define SIM_POLICY_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sched/sched.h"

#define POLICY_PARAMS_MAX 12 /* parameters of one policy (slack has 9) */
#define POLICY_LIST_MAX 8    /* values of one listable parameter */
#define RUN_SPECS_MAX 16

/* One column of the report: a policy, and a value of each of its listable parameters. */
struct run_spec {
	enum sched_policy_id policy;
	uint32_t values[POLICY_PARAMS_MAX]; /* by the policy's parameter index; listable ones only */
	char name[32];
};

/* What the policy options said beyond struct sched_config. */
struct policy_opts {
	uint32_t list[SCHED_POLICY_COUNT][POLICY_PARAMS_MAX][POLICY_LIST_MAX];
	uint8_t n_list[SCHED_POLICY_COUNT][POLICY_PARAMS_MAX]; /* 0: not given, the configuration's value */
	bool given[SCHED_POLICY_COUNT];  /* an option of this policy was given (it needs --policy P) */
	unsigned long hi_every;          /* every K-th job of a period gets priority 1; 0 = none */
	uint32_t hi_gap_milli;           /* UP + PP of those jobs, thousandths; 0 = the default 2 */
	bool hi_gap_given;               /* --hi-pri-gap was given (0 is a value then) */
	unsigned long scratch;           /* planning scratch jobs; 0 = the capacity */
};

/* The long options policy_opt() takes (each with an argument), NULL-terminated; set by policy_opts_default(). */
extern const char *policy_opt_names[];

/** The defaults, and the option names from the registry. O(parameters). */
void policy_opts_default(struct policy_opts *p, struct sched_config *base);

/**
 * Parse option --@p name with argument @p arg: a parameter of the registry
 * (a list for a listable one), --bounds L,U (basic dynP's lower and upper),
 * --hi-pri-every or --scratch. O(length of arg).
 * @return 1 consumed, 0 not a policy option, SCHED_E_INVAL bad usage (message in @p msg).
 */
int policy_opt(const char *name, const char *arg, struct policy_opts *p, struct sched_config *base,
	       char *msg, size_t len);

/**
 * Expand @p n policies into report columns (one per combination of the
 * values given to a policy's listable parameters) and refuse a policy
 * option whose policy is not in the list. O(columns).
 * @retval SCHED_E_INVAL with a message in @p msg.
 */
int policy_opts_columns(const struct policy_opts *p, const enum sched_policy_id *policies, size_t n,
			struct run_spec *specs, size_t *n_specs, char *msg, size_t len);

/** Set column @p spec's listable values into @p cfg. O(parameters). */
void policy_spec_apply(const struct run_spec *spec, struct sched_config *cfg);

/** Write the replayer's help for every policy parameter of the registry to @p f. O(parameters). */
void policy_opts_help(FILE *f);

#endif /* SIM_POLICY_OPTS_H */
