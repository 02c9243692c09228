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
SCHED_PARAMS_BLOCK(GANG, struct sched_gang_params);
#define GANG_SET SCHED_PARAM_AT(GANG, struct sched_gang_params, set)

static const struct sched_param params[] = {
	{.name = "scheme", .kind = SCHED_PARAM_CHOICE, .unit = "", .choices = sched_gang_scheme_names,
	 .offset = SCHED_PARAM_AT(GANG, struct sched_gang_params, scheme), .size = 1, .set_offset = GANG_SET,
	 .min = 0, .max = SCHED_GANG_SCHEME_COUNT - 1u, .def = SCHED_GANG_BRMMS, .listable = true,
	 .help = "allocation (s. 4.1): bc buddy, br re-packing, brms multiple slots, brmms minimised slots"},
	{.name = "quantum", .kind = SCHED_PARAM_SECONDS, .unit = "s", .offset = SCHED_PARAM_AT(GANG, struct sched_gang_params, quantum),
	 .size = 4, .set_offset = GANG_SET, .min = 1, .max = 86400, .def = 5,
	 .help = "seconds per time slot (s. 4.3: 5)"},
	{.name = "max-slots", .kind = SCHED_PARAM_COUNT_KIND, .unit = "", .offset = SCHED_PARAM_AT(GANG, struct sched_gang_params, max_slots),
	 .size = 4, .set_offset = GANG_SET, .min = 0, .max = 65535, .def = 0,
	 .help = "time slots at most (rows of the matrix; a board sets it to fit its memory); arrivals "
		 "beyond wait. 0: one per job of the replay, a bound never reached, as the paper has none"},
	{.name = "bc-slots", .kind = SCHED_PARAM_CHOICE, .unit = "", .choices = sched_gang_bc_slots_names,
	 .offset = SCHED_PARAM_AT(GANG, struct sched_gang_params, bc_slots), .size = 1, .set_offset = GANG_SET,
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
	.family = "gang",
	.timeshared = true,
};

struct sched_gang_params sched_gang_params_get(const struct sched_config *cfg)
{
	struct sched_gang_params g;
	g.quantum = sched_param_get(cfg, &params[1]);
	g.max_slots = sched_param_get(cfg, &params[2]);
	g.scheme = (uint8_t)sched_param_get(cfg, &params[0]);
	g.bc_slots = (uint8_t)sched_param_get(cfg, &params[3]);
	g.set = true;
	return g;
}
