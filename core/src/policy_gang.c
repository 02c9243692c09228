/* SPDX-License-Identifier: MIT */
/* Gang scheduling (Zhou, Walsh and Brent 2000) in the registry: its name, help and parameters; it runs on sched/gang.h. */
#include "sched_priv.h"
#include "sched/gang.h"

/*
 * Gang scheduling time-shares the machine: there is no availability profile
 * and no reservation, so it has none of struct sched's hooks. The replay
 * engine (core/src/replay.c) sees `timeshared` and runs the gang module
 * with these parameters instead; sched_init() refuses it (SCHED_E_NOTSUP).
 */
#define GANG_SET offsetof(struct sched_config, gang.set)

static const struct sched_param params[] = {
	{.name = "scheme", .kind = SCHED_PARAM_CHOICE, .unit = "", .choices = sched_gang_scheme_names,
	 .offset = offsetof(struct sched_config, gang.scheme), .size = 1, .set_offset = GANG_SET,
	 .min = 0, .max = SCHED_GANG_SCHEME_COUNT - 1u, .def = SCHED_GANG_BRMMS, .listable = true,
	 .help = "allocation (s. 4.1): bc buddy, br re-packing, brms multiple slots, brmms minimised slots"},
	{.name = "quantum", .kind = SCHED_PARAM_SECONDS, .unit = "s", .offset = offsetof(struct sched_config, gang.quantum),
	 .size = 4, .set_offset = GANG_SET, .min = 1, .max = 86400, .def = 5,
	 .help = "seconds per time slot (s. 4.3: 5)"},
	{.name = "max-slots", .kind = SCHED_PARAM_COUNT_KIND, .unit = "", .offset = offsetof(struct sched_config, gang.max_slots),
	 .size = 4, .set_offset = GANG_SET, .min = 0, .max = 65535, .def = 0,
	 .help = "time slots at most (rows of the matrix; a board sets it to fit its memory); arrivals "
		 "beyond wait. 0: one per job of the replay, a bound never reached, as the paper has none"},
	{.name = "bc-slots", .kind = SCHED_PARAM_CHOICE, .unit = "", .choices = sched_gang_bc_slots_names,
	 .offset = offsetof(struct sched_config, gang.bc_slots), .size = 1, .set_offset = GANG_SET,
	 .min = 0, .max = SCHED_GANG_BC_SLOTS_COUNT - 1u, .def = SCHED_GANG_BC_KEEP_ONE,
	 .help = "when BC deletes an empty slot: keep-one, at once unless it is the last (the paper's BC "
		 "keeps a slot on an idle machine, Tables 1-2), or drop-empty, always (our earlier reading)"},
};

const struct sched_policy sched_policy_gang = {
	.name = "gang",
	.help = "gang scheduling: slots x processors, buddy blocks, re-packing and the workload tree "
		"(Zhou, Walsh and Brent 2000)",
	.params = params,
	.n_params = sizeof params / sizeof params[0],
	.timeshared = true,
};
