/* SPDX-License-Identifier: MIT */
/* The policy registry: one line per policy. Everything else about a policy is in its own file. */
#ifndef SCHED_POLICIES_H
#define SCHED_POLICIES_H

/*
 * X(ID, symbol): the policy is SCHED_POLICY_<ID> and its definition is
 * `const struct sched_policy sched_policy_<symbol>` in core/src/ (name,
 * help, hooks, parameters: core/src/sched_priv.h). The order is the
 * order of enum sched_policy_id, of help texts and of the tests. Adding a
 * policy is its file plus one line here (docs/adding-a-policy.md). A
 * time-sharing policy (gang) is an entry too: the replay engine runs it on
 * its own module (sched/gang.h) instead of struct sched.
 */
#define SCHED_POLICIES(X)             \
	X(FCFS, fcfs)                 \
	X(EASY, easy)                 \
	X(CONS, cons)                 \
	X(RELAXED, relaxed)           \
	X(SLACK, slack)               \
	X(FCFS_REPLAN, fcfs_replan)   \
	X(SJF, sjf)                   \
	X(LJF, ljf)                   \
	X(DYNP_BASIC, dynp_basic)     \
	X(DYNP, dynp)                 \
	X(GANG, gang)

#endif /* SCHED_POLICIES_H */
