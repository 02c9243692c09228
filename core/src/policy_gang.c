/* SPDX-License-Identifier: MIT */
/* Gang scheduling (Zhou, Walsh and Brent 2000) as a policy of struct sched: the gang module (gang.c) behind the hooks. */
#include "sched_priv.h"
#include "gang_priv.h"
#include "util.h"

/*
 * Gang scheduling time-shares the machine: the slots x processors matrix,
 * the buddy blocks, re-packing and the workload tree (gang.c) live in the
 * sched arena after the core's own state (s->ts_area, self-relative like
 * the rest, so a byte copy of the arena is the same scheduler). A job in the
 * system is a struct sched_job too: waiting until its first slice, running
 * after it. The core's profiles stay empty and its clock kills nothing: a
 * job leaves when it has had its service (sched_job_desc.service, at most
 * its estimate; its estimate if none is given), which the policy reports as
 * SCHED_DEC_END (SCHED_DEC_KILL without a service).
 *
 * The clock: quantum boundaries are the multiples of the quantum. An
 * arrival at t is placed at the first boundary at or after t (seed 002
 * allocates on arrival; a job runs from the next boundary on); the pass at
 * now runs every slice that starts at or before now (SCHED_DEC_SWITCH each).
 * sched_next_event() is the next boundary at which a slice may change
 * anything: after a job arrives, starts or ends the policy asks once how
 * many whole rounds from then on can only move the clock (none starts, none
 * ends: sched_gang_skippable), and those run in one step (SCHED_DEC_SKIP,
 * sched_gang_skip) when the clock gets past them, at the next pass or at an
 * arrival before. Where a round can change something, each slice is due.
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
	{.name = "bc-fit", .kind = SCHED_PARAM_CHOICE, .unit = "", .choices = sched_gang_bc_fit_names,
	 .offset = SCHED_PARAM_AT(GANG, struct sched_gang_params, bc_fit), .size = 1, .set_offset = GANG_SET,
	 .min = 0, .max = SCHED_GANG_BC_FIT_COUNT - 1u, .def = SCHED_GANG_FIT_ROUND_ROBIN,
	 .help = "where BC looks for a free block (s. 4.1 says only \"the conventional buddy system\"): "
		 "round-robin, first fit over the slots in round-robin order; next-fit, from the slot of the "
		 "last placement on; slot-order, first fit oldest slot first; newest, the newest slot only"},
};

static struct sched_gang *gang_of(const struct sched *s)
{
	return sched_rel_get(&s->ts_area);
}

/* The gang module's configuration from a sched configuration (normalised or not: a block not
 * given takes the defaults, which is what normalising would do). */
static struct sched_gang_config gang_config(const struct sched_config *c)
{
	struct sched_gang_config g;
	uint64_t procs = c->procs;
	if (c->n_partitions > 0) {
		procs = 0;
		for (unsigned p = 0; p < c->n_partitions && p < SCHED_MAX_PARTITIONS; p++)
			procs += c->partition_procs[p];
	}
	g.procs = procs > UINT32_MAX ? 0 : (uint32_t)procs;
	/* 0: a bound the run cannot reach when max_jobs holds every job (the replay engine's case). */
	struct sched_gang_params gp = sched_gang_params_get(c); /* the defaults for a block not given */
	g.max_slots = sched_gang_slots_for(gp.max_slots, c->max_jobs);
	g.max_jobs = c->max_jobs;
	g.scheme = (enum sched_gang_scheme)gp.scheme;
	g.quantum = gp.quantum;
	g.bc_slots = (enum sched_gang_bc_slots)gp.bc_slots;
	g.bc_fit = (enum sched_gang_bc_fit)gp.bc_fit;
	return g;
}

static size_t gang_arena_size(const struct sched_config *c)
{
	struct sched_gang_config g = gang_config(c);
	return sched_gang_arena_size(&g); /* 0: not a power of two, or too large */
}

/* One partition, queues without running limits or background: the matrix has no notion of them. */
static int gang_check(const struct sched_config *c)
{
	if (c->policy != SCHED_POLICY_GANG)
		return SCHED_OK;
	if (c->n_partitions > 1)
		return SCHED_E_NOTSUP;
	for (unsigned q = 0; q < c->n_queues; q++)
		if (c->queues[q].background || c->queues[q].proc_cap != 0 || c->queues[q].max_running_per_user != 0)
			return SCHED_E_NOTSUP;
	return SCHED_OK;
}

static sched_time_t boundary_up(sched_time_t t, sched_time_t q)
{
	uint64_t b = ((uint64_t)t + q - 1u) / q * q;
	return b > SCHED_TIME_MAX ? SCHED_TIME_MAX : (sched_time_t)b;
}

/* The next boundary that needs a pass (see the top of the file). O(1), or O(jobs placed) after a change. */
static void update_due(struct sched *s, struct sched_gang *g)
{
	if (sched_gang_jobs(g) == 0) {
		g->due = SCHED_TIME_MAX; /* nothing to run: the clock catches up at the next arrival */
		return;
	}
	g->due = g->now;
	if (!g->moved || s->cfg.every_slice)
		return;
	g->moved = false;
	uint64_t k = sched_gang_skippable(g);
	uint64_t room = (uint64_t)(SCHED_NOW_LIMIT - 1u - (g->now < SCHED_NOW_LIMIT ? g->now : SCHED_NOW_LIMIT - 1u)) /
			g->cfg.quantum;
	if (k > room)
		k = room; /* the caller's clock stops below SCHED_NOW_LIMIT */
	g->due = (sched_time_t)(g->now + k * g->cfg.quantum);
}

/*
 * Run every slice that starts before boundary `target`: whole rounds in
 * which nothing changes in one step (sched_gang_skip; not with every_slice),
 * the rest a slice at a time (sched_gang_tick). The state is that of ticks
 * alone. O(slices run x jobs in a slot) plus O(jobs) per skip.
 */
static void run_to(struct sched *s, struct sched_gang *g, sched_time_t target)
{
	while (g->now < target) {
		if (!s->cfg.every_slice && target - g->now > g->cfg.quantum && sched_gang_skip(g, target) > 0)
			continue;
		if (sched_gang_tick(g) != SCHED_OK)
			break; /* the gang clock would wrap: beyond every time the caller can give */
	}
}

/* The gang module's events become the core's decisions. */
static void on_gang(void *ctx, const struct sched_gang_event *e)
{
	struct sched *s = ctx;
	struct sched_gang *g = gang_of(s);
	if (e->kind == SCHED_GANG_SWITCH || e->kind == SCHED_GANG_SKIP) {
		if (s->emit == NULL)
			return;
		struct sched_decision d;
		sched_zero(&d, sizeof d);
		d.kind = e->kind == SCHED_GANG_SWITCH ? SCHED_DEC_SWITCH : SCHED_DEC_SKIP;
		d.time = e->time;
		d.slot = e->slot;
		d.runs = e->kind == SCHED_GANG_SWITCH ? e->runs : NULL;
		d.n_runs = e->n_runs;
		d.quanta = e->quanta;
		sched_emit_decision(s, &d);
		return;
	}
	g->moved = true;
	struct sched_job *j = sched_job_by_id(s, e->job);
	SCHED_ASSERT(j != NULL);
	if (e->kind == SCHED_GANG_START) {
		sched_ts_start(s, j, e->time);
		return;
	}
	/* Its service, in whole quanta: the dedicated run time the metrics take (docs/gang.md). */
	sched_time_t run = (sched_time_t)((uint64_t)e->quanta * g->cfg.quantum);
	sched_ts_end(s, j, e->time, run, e->how == SCHED_GANG_KILLED ? SCHED_DEC_KILL : SCHED_DEC_END,
		     e->how != SCHED_GANG_DONE);
}

static int gang_init(struct sched *s, void *area, size_t size)
{
	struct sched_gang_config c = gang_config(&s->cfg);
	struct sched_gang *g;
	int err = sched_gang_init(&g, &c, area, size, on_gang, s, s->now / c.quantum * c.quantum);
	if (err != SCHED_OK)
		return err;
	g->due = SCHED_TIME_MAX;
	g->moved = true;
	return SCHED_OK;
}

static void gang_attach(struct sched *s)
{
	struct sched_gang *g = gang_of(s);
	(void)sched_gang_attach(&g, g, g->arena_used, on_gang, s); /* its own magic: checked at init */
}

/* An arrival: placed at the first boundary at or after now, with its service in quanta. */
static int gang_admit(struct sched *s, struct sched_job *j)
{
	struct sched_gang *g = gang_of(s);
	sched_time_t q = g->cfg.quantum;
	run_to(s, g, boundary_up(s->now, q));
	sched_time_t service = s->ts_service;
	sched_time_t len = service == 0 || service > j->estimate ? j->estimate : service;
	uint64_t quanta = ((uint64_t)len + q - 1u) / q;
	enum sched_gang_end_kind how = service == 0 ? SCHED_GANG_KILLED
				       : service > j->estimate ? SCHED_GANG_CUT : SCHED_GANG_DONE;
	int err = sched_gang_submit_how(g, j->id, j->procs, quanta == 0 ? 1u : quanta > UINT32_MAX ? UINT32_MAX : (uint32_t)quanta,
					how, g->now);
	if (err == SCHED_OK) {
		g->moved = true;
		g->due = g->now; /* its first slice may be the next one */
	}
	return err;
}

/* The pass at now: every slice that starts at or before it. */
static void gang_pass(struct sched *s)
{
	struct sched_gang *g = gang_of(s);
	sched_time_t q = g->cfg.quantum;
	run_to(s, g, (sched_time_t)(s->now / q * q + q));
	update_due(s, g);
}

/* A job leaves early (sched_finish, sched_cancel): at the current boundary, and the scheme reacts. */
static void gang_leave(struct sched *s, struct sched_job *j)
{
	struct sched_gang *g = gang_of(s);
	run_to(s, g, boundary_up(s->now, g->cfg.quantum));
	int err = sched_gang_remove(g, j->id);
	SCHED_ASSERT(err == SCHED_OK);
	(void)err;
	g->moved = true;
	g->due = g->now;
}

static sched_time_t gang_next_event(const struct sched *s)
{
	const struct sched_gang *g = gang_of(s);
	return g->due < s->now ? s->now : g->due;
}

static int gang_predict(const struct sched *s, const struct sched_job *j, sched_time_t *start)
{
	(void)s;
	(void)j;
	(void)start;
	return SCHED_E_NOTSUP; /* time sharing guarantees no start */
}

static void gang_reflow(struct sched *s, bool ended)
{
	(void)s;
	(void)ended; /* never called: a time-shared job leaves through gang_leave */
}

/* The module's own checker, and the core's jobs against its records. */
static int gang_audit(const struct sched *s)
{
	struct sched_gang *g = gang_of(s);
	if (sched_gang_check(g) != SCHED_OK)
		return SCHED_E_STATE;
	uint32_t jobs = s->n_waiting + s->n_running;
	if (s->jobs.used != jobs || sched_gang_jobs(g) != jobs || s->busy != 0)
		return SCHED_E_STATE;
	for (const struct sched_job *j = sched_first(s, SCHED_JOB_RUNNING); j != NULL; j = sched_next(s, j)) {
		const struct sched_gang_job *k = sched_gang_find(g, j->id);
		if (k == NULL || k->state != 2 || k->first_run != j->start || k->procs != j->procs)
			return SCHED_E_STATE;
	}
	for (const struct sched_job *j = sched_first(s, SCHED_JOB_WAITING); j != NULL; j = sched_next(s, j)) {
		const struct sched_gang_job *k = sched_gang_find(g, j->id);
		if (k == NULL || k->first_run != SCHED_TIME_MAX || k->procs != j->procs)
			return SCHED_E_STATE;
	}
	return SCHED_OK;
}

static void gang_stats(const struct sched *s, struct sched_stats *out)
{
	sched_copy(&out->gang, sched_gang_counters(gang_of(s)), sizeof out->gang);
}

const struct sched_policy sched_policy_gang = {
	.name = "gang",
	.help = "gang scheduling: slots x processors, buddy blocks, re-packing and the workload tree "
		"(Zhou, Walsh and Brent 2000)",
	.params = params,
	.n_params = sizeof params / sizeof params[0],
	.family = "gang",
	.timeshared = true,
	.admit = gang_admit,
	.reflow = gang_reflow,
	.pass = gang_pass,
	.predict = gang_predict,
	.check = gang_check,
	.arena_size = gang_arena_size,
	.init = gang_init,
	.attach = gang_attach,
	.leave = gang_leave,
	.next_event = gang_next_event,
	.audit = gang_audit,
	.stats = gang_stats,
};

struct sched_gang_params sched_gang_params_get(const struct sched_config *cfg)
{
	struct sched_gang_params g;
	g.quantum = sched_param_get(cfg, &params[1]);
	g.max_slots = sched_param_get(cfg, &params[2]);
	g.scheme = (uint8_t)sched_param_get(cfg, &params[0]);
	g.bc_slots = (uint8_t)sched_param_get(cfg, &params[3]);
	g.bc_fit = (uint8_t)sched_param_get(cfg, &params[4]);
	g.set = true;
	return g;
}
