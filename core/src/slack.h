/* SPDX-License-Identifier: MIT */
/* The slack policy's pieces, open to the unit tests (core/src only; not part of the API). */
#ifndef SCHED_SLACK_H
#define SCHED_SLACK_H

#include "num.h"
#include "sched_priv.h"

/* Slack's per-job state (sched_pjob): set by its job_init hook when it takes a job over. */
struct sched_slack_job {
	int32_t slack;    /* seconds of delay it may still take; SCHED_SLACK_INF */
	uint16_t prio3;   /* UP + PP + SP in thousandths; SCHED_PRIO_OVER_QUOTA */
	uint8_t settled;  /* its SP was set from its placement (seed 003 section 2.2: once) */
};
SCHED_POLICY_JOB(struct sched_slack_job);

/* Job j's slack state (for the policy and its unit tests). */
static inline struct sched_slack_job *sched_slack_job(struct sched_job *j)
{
	return sched_pjob(j);
}

static inline const struct sched_slack_job *sched_slack_job_c(const struct sched_job *j)
{
	return sched_pjob_c(j);
}

/* s0 from a priority (prio3 in thousandths), seconds. */
int32_t sched_slack_initial(const struct sched *s, uint16_t prio3);

/* ni^au (pi / pj)^ap (s0i / max(si, 1))^(ap af): the part of a cost that does not depend on the delay. */
struct sched_num sched_slack_factor(const struct sched *s, const struct sched_job *k, uint16_t pj3);

/* cost(ji, ti, j) = sign(ti) x factor x |ti|^at. */
struct sched_num sched_slack_cost(const struct sched *s, struct sched_num factor, int64_t t);

/* j's scheduler priority and initial slack from its reservation (section 2.2); only the first time. */
void sched_slack_settle(struct sched *s, struct sched_job *j);

/* The reserved waiting jobs but j, in the heuristic's order, into scratch.jobs (their cost factors
 * into scratch.factors under DC, computed when first needed otherwise); returns how many. */
uint32_t sched_slack_order(struct sched *s, const struct sched_job *j, uint16_t pj3);

#endif /* SCHED_SLACK_H */
