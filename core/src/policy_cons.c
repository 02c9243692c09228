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
/*
 * A bound on the work of one event, off by default (the paper compresses
 * the whole schedule): like Slurm's bf_max_job_test, only the first N
 * waiting jobs in plan order may move up at an early end; the others keep
 * their reservations, so every guarantee still holds. For a board that
 * must answer within a fixed time at any backlog (docs/bench-target.md).
 */
static const struct sched_param params[] = {
	{.name = "compress-depth", .kind = SCHED_PARAM_COUNT_KIND, .unit = "",
	 .offset = offsetof(struct sched_config, compress_depth), .size = 4, .set_offset = SCHED_PARAM_NO_BLOCK,
	 .min = 0, .max = 1000000u, .def = 0,
	 .help = "waiting jobs a compression examines, in plan order (0: all, as the paper; a bound on "
		 "the work of one early end, guarantees kept)"},
};

const struct sched_policy sched_policy_cons = {
	.name = "cons",
	.help = "conservative backfilling: every job a reservation at submit, compression at early ends "
		"(Feitelson & Mu'alem Weil 1998, s. 2.1)",
	.params = params,
	.n_params = sizeof params / sizeof params[0],
	.plans = true,
	.needs_scratch = false,
	.enter = sched_enter_planning,
	.admit = sched_admit_strict,
	.reflow = sched_reflow_compress,
	.pass = sched_start_due,
	.predict = sched_predict_reserved,
};
