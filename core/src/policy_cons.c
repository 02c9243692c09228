/* SPDX-License-Identifier: MIT */
/* Conservative backfilling (seed 000 section 2.1): a reservation per job at submit, compression on early ends. */
#include "sched_priv.h"

/*
 * "Upon arrival, the first possible starting time for the new job is found
 * based on the current profile, and the profile is updated": that start is
 * the job's guarantee (sched_admit_strict, which also lets a job of a
 * higher queue go ahead of lower ones). On an early end or a cancel the
 * schedule is compressed (sched_compress).
 */
const struct sched_policy sched_policy_cons = {
	.name = "cons",
	.help = "conservative backfilling: every job a reservation at submit, compression at early ends "
		"(Feitelson & Mu'alem Weil 1998, s. 2.1)",
	.plans = true,
	.needs_scratch = false,
	.enter = sched_enter_planning,
	.admit = sched_admit_strict,
	.reflow = sched_reflow_compress,
	.pass = sched_start_due,
	.predict = sched_predict_reserved,
};
