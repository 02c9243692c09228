/* SPDX-License-Identifier: MIT */
/* The policy registry: one line per policy. Everything else about a policy is in its own file. */
#ifndef SCHED_POLICIES_H
#define SCHED_POLICIES_H

/*
 * X(ID, symbol, param_bytes): the policy is SCHED_POLICY_<ID> and its
 * definition is `const struct sched_policy sched_policy_<symbol>` in
 * core/src/ (name, help, hooks, parameters, state: core/src/sched_priv.h).
 * param_bytes is the size of its parameter block in struct sched_config's
 * opaque parameter area (a multiple of 4; 0 for none): the blocks are laid
 * out in this order at compile time (SCHED_PARAMS_AT_<ID>), so every build
 * has the same layout and a policy file checks its block against it. The
 * order is the order of enum sched_policy_id, of help texts and of the
 * tests. Adding a policy is its file plus one line here
 * (docs/adding-a-policy.md). A time-sharing policy (gang) is an entry too:
 * it runs behind struct sched like the others, its own state the last part
 * of the arena (its arena_size and init hooks, core/src/sched_priv.h).
 */
#define SCHED_POLICIES(X)                 \
	X(FCFS, fcfs, 0)                  \
	X(EASY, easy, 0)                  \
	X(CONS, cons, 12)                 \
	X(RELAXED, relaxed, 12)           \
	X(SLACK, slack, 20)               \
	X(FCFS_REPLAN, fcfs_replan, 0)    \
	X(SJF, sjf, 0)                    \
	X(LJF, ljf, 0)                    \
	X(DYNP_BASIC, dynp_basic, 12)     \
	X(DYNP, dynp, 4)                  \
	X(GANG, gang, 12)                 \
	X(EASY_SJBF, easy_sjbf, 0)

#endif /* SCHED_POLICIES_H */
