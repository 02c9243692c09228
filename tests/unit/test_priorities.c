/* SPDX-License-Identifier: MIT */
/*
 * Relaxed backfilling (seed 001 Exhibit 8), slack-based backfilling (seed
 * 003 section 2) and site queues (seed 001 Exhibit 3): hand-computed
 * scenarios, the cost formula against libm, and random workloads checked
 * against bounds computed here from the decisions alone.
 */
#include <math.h>
#include <stddef.h>

#include "sched_fixture.h"
#include "test_params.h"
#include "slack.h"

/* --- a small independent driver ---------------------------------------------------------- */

struct dj {
	uint32_t id, user;
	sched_procs_t procs;
	sched_time_t submit, estimate, run;
	uint8_t queue;
	uint16_t up, pp;
	/* filled in while driving */
	int err;                 /* of sched_submit */
	sched_time_t promised;   /* sched_predict right after submit */
	int32_t slack0;          /* slack policy: the job's slack right after submit */
	sched_time_t started;
	bool running, done;
};

struct drive_limits {
	const struct sched_config *cfg; /* queue table to check, or NULL */
	uint32_t running[SCHED_MAX_QUEUES][8]; /* per queue, per user (users < 8) */
	sched_procs_t held[SCHED_MAX_QUEUES];
	bool ok;
};

/* What the public API reports of job id (its slack and priority come from the policy owning its state). */
static struct sched_job_info info_of(const struct sched *s, uint32_t id)
{
	struct sched_job_info info;
	memset(&info, 0, sizeof info);
	(void)sched_job_get(s, id, &info);
	return info;
}

static struct dj *dj_find(struct dj *js, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (js[i].id == id)
			return &js[i];
	return NULL;
}

static void dj_stop(struct drive_limits *lim, struct dj *j)
{
	j->running = false;
	j->done = true;
	if (lim != NULL) {
		lim->running[j->queue][j->user]--;
		lim->held[j->queue] -= j->procs;
	}
}

/* Read the decisions made since *seen: mark starts and kills, and check the queue limits. */
static void dj_absorb(struct fx *f, int *seen, struct dj *js, size_t n, struct drive_limits *lim)
{
	for (; *seen < f->n; (*seen)++) {
		const struct sched_decision *d = &f->log[*seen];
		struct dj *j = dj_find(js, n, d->job);
		if (j == NULL)
			continue;
		if (d->kind == SCHED_DEC_KILL) {
			dj_stop(lim, j);
			continue;
		}
		j->started = d->time;
		j->running = true;
		if (lim == NULL)
			continue;
		const struct sched_queue_cfg *q = &lim->cfg->queues[j->queue];
		lim->running[j->queue][j->user]++;
		lim->held[j->queue] += j->procs;
		if (q->max_running_per_user && lim->running[j->queue][j->user] > q->max_running_per_user)
			lim->ok = false;
		if (q->proc_cap && lim->held[j->queue] > q->proc_cap)
			lim->ok = false;
	}
}

/*
 * Replay js (ascending submit) through f: jobs end by themselves after
 * `run` when that is below the estimate, else the core kills them.
 * Returns false if the core reports an error other than a refusal.
 */
static bool drive(struct fx *f, struct dj *js, size_t n, struct drive_limits *lim)
{
	int seen = 0;
	size_t next = 0;
	for (;;) {
		sched_time_t t = sched_next_event(f->s);
		if (next < n && js[next].submit < t)
			t = js[next].submit;
		for (size_t i = 0; i < n; i++)
			if (js[i].running && js[i].run < js[i].estimate && js[i].started + js[i].run < t)
				t = js[i].started + js[i].run;
		if (t == SCHED_TIME_MAX)
			return true;
		for (size_t i = 0; i < n; i++) {
			if (js[i].running && js[i].run < js[i].estimate && js[i].started + js[i].run == t) {
				if (sched_finish(f->s, js[i].id, t) != SCHED_OK)
					return false;
				dj_stop(lim, &js[i]);
			}
		}
		for (; next < n && js[next].submit == t; next++) {
			struct dj *j = &js[next];
			struct sched_job_desc d = sched_desc(j->id, j->procs, j->estimate);
			d.user = j->user;
			d.queue = j->queue;
			d.up_milli = j->up;
			d.pp_milli = j->pp;
			j->err = sched_submit(f->s, &d, t);
			if (j->err != SCHED_OK && j->err != SCHED_E_NOSPACE && j->err != SCHED_E_LIMIT)
				return false;
			if (j->err == SCHED_OK) {
				const struct sched_job *k = sched_find(f->s, j->id);
				j->slack0 = sched_slack_job_c(k)->slack;
				if (sched_predict(f->s, j->id, &j->promised) != SCHED_OK)
					j->promised = SCHED_TIME_MAX;
			}
		}
		if (sched_advance(f->s, t) != SCHED_OK)
			return false;
		dj_absorb(f, &seen, js, n, lim);
		if (f->n >= FX_LOG)
			return false;
	}
}

/* A random workload: busy enough to build a backlog, small enough for FX_CAP. */
static size_t random_jobs(struct test_rng *r, struct dj *js, size_t n, sched_procs_t procs, uint8_t queues)
{
	sched_time_t t = 0;
	for (size_t i = 0; i < n; i++) {
		struct dj *j = &js[i];
		memset(j, 0, sizeof *j);
		t += test_rng_range(r, 0, 60);
		j->id = (uint32_t)i + 1;
		j->submit = t;
		uint32_t shape = test_rng_range(r, 0, 9);
		j->procs = (sched_procs_t)(shape < 6 ? test_rng_range(r, 1, 4) : test_rng_range(r, 1, procs));
		j->estimate = test_rng_range(r, 1, 900);
		j->run = test_rng_range(r, 1, j->estimate);
		j->user = test_rng_range(r, 0, 3);
		j->queue = (uint8_t)test_rng_range(r, 0, queues - 1u);
		j->up = (uint16_t)test_rng_range(r, 0, 1000);
		j->pp = test_rng_range(r, 0, 9) == 0 ? (uint16_t)SCHED_PP_OVER_QUOTA : (uint16_t)test_rng_range(r, 0, 1000);
	}
	return n;
}

/* --- relaxed --------------------------------------------------------------------------- */

/*
 * Exhibit 8 of Spear and McGalliard 2007 on a machine of 10, every job
 * arriving at 0: J1 holds 6 until 100; J2 needs all 10 for 100, reserved at
 * 100. J3 (2 x 50) ends before J1: a strict backfill. J4 (2 x 120) outlives
 * J1 by 20 and would push J2 to 120: relaxed only when the tolerance is at
 * least 20 seconds. Both scopes agree here (J4 is tried as it arrives, or
 * in the pass of the same instant).
 */
static int exhibit8(struct fx *f, sched_time_t tol, uint32_t permille, uint8_t scope)
{
	struct sched_config cfg = {.procs = 10, .policy = SCHED_POLICY_RELAXED};
	cfg = tp_set(tp_set(tp_set(cfg, "tolerance", tol), "tolerance-factor", permille), "relaxed-scope", scope);
	if (fx_init_cfg(f, cfg) != SCHED_OK || fx_submit(f, 1, 6, 100, 0) != SCHED_OK ||
	    sched_advance(f->s, 0) != SCHED_OK || fx_submit(f, 2, 10, 100, 0) != SCHED_OK ||
	    fx_submit(f, 3, 2, 50, 0) != SCHED_OK || fx_submit(f, 4, 2, 120, 0) != SCHED_OK ||
	    sched_advance(f->s, 0) != SCHED_OK)
		return -1;
	return 0;
}

static void relaxed_exhibit8(void)
{
	static struct fx f;
	for (uint8_t scope = 0; scope < SCHED_RELAXED_SCOPE_COUNT; scope++) {
		/* Tolerance 20: J3 and J4 both jump ahead; J2 is delayed by exactly 20. */
		CHECK_EQ(exhibit8(&f, 20, 0, scope), 0);
		CHECK_EQ(fx_started(&f, 3), 0);
		CHECK_EQ(fx_started(&f, 4), 0);
		CHECK_EQ(fx_predict(&f, 2), 120);
		CHECK_EQ(fx_stats(&f).counters.relaxed, 1); /* J3 was a strict backfill */
		CHECK_EQ(sched_check(f.s), SCHED_OK);
		/* The same through the share of the delayed job's estimate: 200 permille of 100 s. */
		CHECK_EQ(exhibit8(&f, 0, 200, scope), 0);
		CHECK_EQ(fx_started(&f, 4), 0);
		CHECK_EQ(fx_predict(&f, 2), 120);
		/* 19 s is not enough: J4 waits for J2, as under strict backfilling. */
		CHECK_EQ(exhibit8(&f, 19, 0, scope), 0);
		CHECK_EQ(fx_started(&f, 3), 0);
		CHECK_EQ(fx_started(&f, 4), SCHED_TIME_MAX);
		CHECK_EQ(fx_predict(&f, 2), 100);
		CHECK_EQ(fx_predict(&f, 4), 200);
		CHECK_EQ(fx_stats(&f).counters.relaxed, 0);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
}

/*
 * Exhibit 8 as the paper draws it: J3 and J4 are waiting already when the
 * processors they use become idle. Machine of 10; at 0 J1 (6 x 100) and J0
 * (4 x 10) start, and J2 (10 x 100), J3 (2 x 50), J4 (2 x 120) arrive with
 * nothing idle. Strict plan, by hand: J2 at 100 (J1's end); J3 at 10 (J0's
 * end; 2 x 50 ends at 60, before J2); J4 would end at 130 past J2's 100, so
 * after J2: 200. At 10 J0 ends and 4 processors are idle: J3 starts (its
 * reservation), and J4, started at 10 too, ends at 130 and moves J2 from 100
 * to 130, a delay of 30 (and 30 past its guarantee, 100). So with T >= 30:
 * J3 10, J4 10, J2 130; with T = 29: J3 10, J2 100, J4 200. Only a job
 * arriving is ever tried under the arrival scope, so J4 stays at 200 there.
 */
static int exhibit8_waiting(struct fx *f, sched_time_t tol, uint32_t permille, uint8_t scope)
{
	struct sched_config cfg = {.procs = 10, .policy = SCHED_POLICY_RELAXED};
	cfg = tp_set(tp_set(tp_set(cfg, "tolerance", tol), "tolerance-factor", permille), "relaxed-scope", scope);
	if (fx_init_cfg(f, cfg) != SCHED_OK || fx_submit(f, 1, 6, 100, 0) != SCHED_OK ||
	    fx_submit(f, 10, 4, 10, 0) != SCHED_OK || sched_advance(f->s, 0) != SCHED_OK ||
	    fx_submit(f, 2, 10, 100, 0) != SCHED_OK || fx_submit(f, 3, 2, 50, 0) != SCHED_OK ||
	    fx_submit(f, 4, 2, 120, 0) != SCHED_OK || sched_advance(f->s, 0) != SCHED_OK)
		return -1;
	/* Nothing idle at 0: the strict plan, whatever the tolerance. */
	if (fx_predict(f, 2) != 100 || fx_predict(f, 3) != 10 || fx_predict(f, 4) != 200 ||
	    fx_started(f, 4) != SCHED_TIME_MAX)
		return -2;
	if (sched_finish(f->s, 10, 10) != SCHED_OK || sched_advance(f->s, 10) != SCHED_OK)
		return -3;
	return 0;
}

static void relaxed_exhibit8_waiting_jobs_jump(void)
{
	static struct fx f;
	CHECK_EQ(exhibit8_waiting(&f, 30, 0, SCHED_RELAXED_ALL), 0);
	CHECK_EQ(fx_started(&f, 3), 10);
	CHECK_EQ(fx_started(&f, 4), 10);
	CHECK_EQ(fx_predict(&f, 2), 130);
	CHECK_EQ(fx_stats(&f).counters.relaxed, 1);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
	/* J2 then starts when J4 ends, at 130 (J1 ends at 100, J3 at 60). */
	CHECK_EQ(sched_finish(f.s, 3, 60), SCHED_OK);
	CHECK_EQ(sched_finish(f.s, 1, 100), SCHED_OK);
	CHECK_EQ(sched_finish(f.s, 4, 130), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 130), SCHED_OK);
	CHECK_EQ(fx_started(&f, 2), 130);
	/* T = 30 as 300 permille of J2's 100 s estimate. */
	CHECK_EQ(exhibit8_waiting(&f, 0, 300, SCHED_RELAXED_ALL), 0);
	CHECK_EQ(fx_started(&f, 4), 10);
	CHECK_EQ(fx_predict(&f, 2), 130);
	/* 29 s is not enough: strict. */
	CHECK_EQ(exhibit8_waiting(&f, 29, 0, SCHED_RELAXED_ALL), 0);
	CHECK_EQ(fx_started(&f, 3), 10);
	CHECK_EQ(fx_started(&f, 4), SCHED_TIME_MAX);
	CHECK_EQ(fx_predict(&f, 2), 100);
	CHECK_EQ(fx_predict(&f, 4), 200);
	CHECK_EQ(fx_stats(&f).counters.relaxed, 0);
	/* The arrival scope never tries a job that is waiting already. */
	CHECK_EQ(exhibit8_waiting(&f, 30, 0, SCHED_RELAXED_ARRIVAL), 0);
	CHECK_EQ(fx_started(&f, 3), 10);
	CHECK_EQ(fx_started(&f, 4), SCHED_TIME_MAX);
	CHECK_EQ(fx_predict(&f, 2), 100);
	CHECK_EQ(fx_predict(&f, 4), 200);
	CHECK_EQ(fx_stats(&f).counters.relaxed, 0);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/*
 * A job's delay is measured both ways: against its current start (the
 * paper's "delayed slightly") and against its guarantee. When compression
 * has brought a job forward, a backfill may delay it by at most T from
 * there, even though its guarantee would allow more. Machine of 10: J1
 * (6 x 100) and J0 (4 x 200, ends early at 10) run; J2 (10 x 100) is
 * guaranteed 200; J4 (2 x 150) is planned after J2, at 300. At 10 J0 ends:
 * compression brings J2 to 100; J4 at 10 would end at 160 and move J2 to
 * 160: 60 past its current start, though 40 before its guarantee. T = 59:
 * no; T = 60: yes.
 */
static void relaxed_delay_from_current_start(void)
{
	static struct fx f;
	for (sched_time_t tol = 59; tol <= 60; tol++) {
		struct sched_config cfg = tp_set((struct sched_config){.procs = 10, .policy = SCHED_POLICY_RELAXED}, "tolerance", tol);
		CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 1, 6, 100, 0), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 10, 4, 200, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 2, 10, 100, 0), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 4, 2, 150, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_predict(&f, 2), 200);
		CHECK_EQ(fx_predict(&f, 4), 300);
		CHECK_EQ(sched_finish(f.s, 10, 10), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 10), SCHED_OK);
		CHECK_EQ(fx_started(&f, 4), tol == 60 ? 10 : SCHED_TIME_MAX);
		CHECK_EQ(fx_predict(&f, 2), tol == 60 ? 160 : 100);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
}

/* The tolerance bounds the total delay since the guarantee, not each delay on its own. */
static void relaxed_delay_is_cumulative(void)
{
	static struct fx f;
	for (uint8_t scope = 0; scope < SCHED_RELAXED_SCOPE_COUNT; scope++) {
		struct sched_config cfg = {.procs = 10, .policy = SCHED_POLICY_RELAXED};
		cfg = tp_set(tp_set(cfg, "tolerance", 20), "relaxed-scope", scope);
		CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 1, 6, 100, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 2, 10, 100, 0), SCHED_OK); /* guarantee 100 */
		CHECK_EQ(fx_submit(&f, 4, 2, 120, 0), SCHED_OK);  /* J2 -> 120 */
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_started(&f, 4), 0);
		CHECK_EQ(fx_predict(&f, 2), 120);
		/* 125 would be within 20 of J2's current start, but 25 past its guarantee. */
		CHECK_EQ(fx_submit(&f, 5, 2, 125, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_predict(&f, 2), 120);
		CHECK_EQ(fx_predict(&f, 5), 220);
		/* Ending by 120 delays nobody: strict backfill. */
		CHECK_EQ(fx_submit(&f, 6, 2, 120, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_started(&f, 6), 0);
		CHECK_EQ(fx_started(&f, 5), SCHED_TIME_MAX);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
}

/*
 * A job due now starts in this instant's pass: it counts as started, and
 * no later arrival of the same second may push it back, whatever the
 * tolerance (relaxed) or its slack (slack: with priority 0 it would even be free).
 */
static void due_now_is_started(void)
{
	static struct fx f;
	struct sched_config cfg = tp_set((struct sched_config){.procs = 10, .policy = SCHED_POLICY_RELAXED}, "tolerance", 1000);
	for (int k = 0; k < 2; k++) {
		cfg.policy = k == 0 ? SCHED_POLICY_RELAXED : SCHED_POLICY_SLACK;
		CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 1, 10, 100, 0), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 2, 10, 10, 0), SCHED_OK);
		CHECK_EQ(fx_predict(&f, 1), 0);
		CHECK_EQ(fx_predict(&f, 2), 100);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_started(&f, 1), 0);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
}

/*
 * Tuning at run time, and switching to slack: jobs planned under another
 * policy get their scheduler priority and slack from their new placement.
 */
static void tune_and_switch(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_CONS, 10), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 1, 10, 100, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 2, 10, 100, 0), SCHED_OK); /* reserved at 100 */
	CHECK_EQ(info_of(f.s, 2).slack, SCHED_SLACK_INF);
	CHECK_EQ(sched_set_policy(f.s, SCHED_POLICY_SLACK, 0), SCHED_OK);
	CHECK_EQ(info_of(f.s, 2).prio3, 20);   /* SP = 100 / 4802 */
	CHECK_EQ(info_of(f.s, 2).slack, 7154); /* as if it had been placed under slack */
	/* Once only: back and forth changes nothing. */
	CHECK_EQ(sched_set_policy(f.s, SCHED_POLICY_CONS, 0), SCHED_OK);
	CHECK_EQ(sched_set_policy(f.s, SCHED_POLICY_SLACK, 0), SCHED_OK);
	CHECK_EQ(info_of(f.s, 2).prio3, 20);
	CHECK_EQ(sched_check(f.s), SCHED_OK);

	struct sched_config c = (*sched_config_get(f.s));
	c = tp_set(tp_set(c, "tolerance", 77), "sf", 500);
	CHECK_EQ(sched_tune(f.s, &c), SCHED_OK);
	CHECK_EQ(tp_get(sched_config_get(f.s), "tolerance"), 77);
	CHECK_EQ(tp_get(sched_config_get(f.s), "sf"), 500);
	CHECK_EQ(sched_slack_initial(f.s, 0), 3 * 2401 / 6); /* (1 - 0) x 0.5 x 2401 */
	/* Values out of range never reach the area: the registry refuses them. */
	CHECK_EQ(tp_put(&c, "heuristic", SCHED_HEUR_COUNT), SCHED_E_RANGE);
	CHECK_EQ(tp_put(&c, "alpha-p", 1001), SCHED_E_RANGE);
	CHECK_EQ(tp_get(&c, "heuristic"), SCHED_HEUR_AST);
	c = tp_set(c, "awt", 5);
	CHECK_EQ(sched_tune(f.s, &c), SCHED_OK);
	CHECK_EQ(tp_get(sched_config_get(f.s), "sf"), 500);
	/* A configuration with no block given: the paper's values. */
	struct sched_config fresh = {.procs = 10};
	CHECK_EQ(sched_tune(f.s, &fresh), SCHED_OK);
	CHECK_EQ(tp_get(sched_config_get(f.s), "sf"), 3000);
	CHECK_EQ(tp_get(sched_config_get(f.s), "heuristic"), SCHED_HEUR_AST);
}

/* Without scratch the relaxed policy cannot try anything: init refuses it. */
static void relaxed_needs_scratch(void)
{
	static struct fx f;
	struct sched_config cfg = {.procs = 10, .max_jobs = FX_CAP, .policy = SCHED_POLICY_RELAXED};
	CHECK_EQ(sched_init(&f.s, &cfg, f.arena, sizeof f.arena, NULL, NULL, 0), SCHED_E_INVAL);
	cfg.policy = SCHED_POLICY_CONS;
	CHECK_EQ(sched_init(&f.s, &cfg, f.arena, sizeof f.arena, NULL, NULL, 0), SCHED_OK);
	harness_watch(f.s);
	CHECK_EQ(sched_set_policy(f.s, SCHED_POLICY_SLACK, 0), SCHED_E_INVAL);
}

/* Random workloads: tolerance 0 gives conservative's decisions exactly (with its compression at early
 * ends only, which is relaxed's: --compress-at early); 300 s bounds every delay. */
static void relaxed_random_bounds(void)
{
	static struct fx a, b;
	static struct dj ja[150], jb[150];
	struct test_rng r;
	test_rng_seed(&r, 5);
	for (int round = 0; round < 20; round++) {
		size_t n = random_jobs(&r, ja, 150, 24, 1);
		memcpy(jb, ja, sizeof ja);
		struct sched_config cfg = {.procs = 24, .policy = SCHED_POLICY_CONS};
		cfg = tp_set(cfg, "compress-at", 1); /* early */
		CHECK_EQ(fx_init_cfg(&a, cfg), SCHED_OK);
		cfg.policy = SCHED_POLICY_RELAXED;
		CHECK_EQ(fx_init_cfg(&b, cfg), SCHED_OK);
		CHECK(drive(&a, ja, n, NULL));
		CHECK(drive(&b, jb, n, NULL));
		CHECK_EQ(a.n, b.n);
		for (int i = 0; i < a.n; i++) {
			CHECK_EQ(a.log[i].job, b.log[i].job);
			CHECK_EQ(a.log[i].kind, b.log[i].kind);
			CHECK_EQ(a.log[i].time, b.log[i].time);
		}
		CHECK_EQ(fx_stats(&b).counters.relaxed, 0);

		memcpy(jb, ja, sizeof ja);
		cfg = tp_set(cfg, "tolerance", 300);
		CHECK_EQ(fx_init_cfg(&b, cfg), SCHED_OK);
		CHECK(drive(&b, jb, n, NULL));
		for (size_t i = 0; i < n; i++) {
			if (jb[i].err != SCHED_OK)
				continue;
			CHECK(jb[i].done);
			CHECK(jb[i].started <= jb[i].promised + 300);
		}
		CHECK_EQ(sched_check(b.s), SCHED_OK);
	}
}

/* --- slack: the formulas ------------------------------------------------------------------ */

static double num_value(struct sched_num a)
{
	double v = ldexp((double)a.m, a.e);
	return a.neg ? -v : v;
}

static bool near(double got, double want)
{
	return fabs(got - want) <= 1e-9 * fabs(want) + 1e-12;
}

static struct sched_config slack_cfg(uint32_t sf, sched_time_t awt, uint16_t au, uint16_t at, uint16_t ap,
				     uint16_t af, enum sched_heuristic h)
{
	struct sched_config cfg = {.procs = 10, .policy = SCHED_POLICY_SLACK};
	cfg = tp_set(tp_set(cfg, "sf", sf), "awt", awt);
	cfg = tp_set(tp_set(cfg, "alpha-u", au), "alpha-t", at);
	cfg = tp_set(tp_set(cfg, "alpha-p", ap), "alpha-f", af);
	return tp_set(cfg, "heuristic", (uint32_t)h);
}

/* Section 2.2: s0 = (1 - p) SF AWT with p = prio3 / 3000; section 2.3: the cost, against libm. */
static void slack_formulas(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_SLACK, 10), SCHED_OK);
	CHECK_EQ(tp_get(sched_config_get(f.s), "sf"), 3000); /* the defaults of seed 003 section 3 */
	CHECK_EQ(tp_get(sched_config_get(f.s), "awt"), 2401);
	/* (1 - 1500/3000) x 3 x 2401 = 3601.5, truncated. */
	CHECK_EQ(sched_slack_initial(f.s, 1500), 3601);
	CHECK_EQ(sched_slack_initial(f.s, 0), 3 * 2401);
	CHECK_EQ(sched_slack_initial(f.s, 3000), 0);
	CHECK_EQ(sched_slack_initial(f.s, SCHED_PRIO_OVER_QUOTA), SCHED_SLACK_INF);

	/* 4 processors, p = 1/2, 100 s of slack left, against a newcomer of p = 1/6:
	 * 4 x (1500/500) x (3601/100) = 432.12; a 7 s delay costs 7 x that. */
	struct sched_job k;
	memset(&k, 0, sizeof k);
	k.procs = 4;
	sched_slack_job(&k)->prio3 = 1500;
	sched_slack_job(&k)->slack = 100;
	struct sched_num fac = sched_slack_factor(f.s, &k, 500);
	CHECK(near(num_value(fac), 432.12));
	CHECK(near(num_value(sched_slack_cost(f.s, fac, 7)), 7 * 432.12));
	CHECK(near(num_value(sched_slack_cost(f.s, fac, -7)), -7 * 432.12));
	CHECK(num_value(sched_slack_cost(f.s, fac, 0)) == 0);
	/* Over quota costs nothing to move. */
	sched_slack_job(&k)->prio3 = SCHED_PRIO_OVER_QUOTA;
	CHECK(num_value(sched_slack_factor(f.s, &k, 500)) == 0);

	/* Random weights, priorities and slacks against the formula in doubles. */
	struct test_rng r;
	test_rng_seed(&r, 12);
	for (int i = 0; i < 2000; i++) {
		uint16_t w[4];
		for (int q = 0; q < 4; q++)
			w[q] = (uint16_t)test_rng_range(&r, 0, 1000);
		uint32_t sf = test_rng_range(&r, 1, 10000);
		sched_time_t awt = test_rng_range(&r, 1, 20000);
		CHECK_EQ(fx_init_cfg(&f, slack_cfg(sf, awt, w[0], w[1], w[2], w[3], SCHED_HEUR_AST)), SCHED_OK);
		memset(&k, 0, sizeof k);
		k.procs = (sched_procs_t)test_rng_range(&r, 1, 4096);
		sched_slack_job(&k)->prio3 = (uint16_t)test_rng_range(&r, 0, 3000);
		double s0 = floor((3000.0 - sched_slack_job(&k)->prio3) / 3000.0 * sf / 1000.0 * awt);
		CHECK_EQ(sched_slack_initial(f.s, sched_slack_job(&k)->prio3), (long long)s0);
		sched_slack_job(&k)->slack = (int32_t)test_rng_range(&r, 0, (uint32_t)s0);
		uint16_t pj = (uint16_t)test_rng_range(&r, 1, 3000);
		sched_time_t t = test_rng_range(&r, 1, 100000);
		double au = w[0] / 1000.0, at = w[1] / 1000.0, ap = w[2] / 1000.0, af = w[3] / 1000.0;
		double apf = floor(w[2] * (double)w[3] / 1000.0) / 1000.0; /* the core keeps ap x af in thousandths */
		(void)af;
		double want = pow(k.procs, au) * pow(t, at) * pow((double)sched_slack_job(&k)->prio3 / pj, ap) *
			      pow(s0 / (sched_slack_job(&k)->slack < 1 ? 1 : sched_slack_job(&k)->slack), apf);
		double got = num_value(sched_slack_cost(f.s, sched_slack_factor(f.s, &k, pj), (int64_t)t));
		CHECK(fabs(got - want) <= 1e-8 * want + 1e-12);
	}
}

/*
 * Section 2.4: each heuristic's permutation, checked pairwise against keys
 * computed here (the scheduled times, arrivals, n x t, the one-second cost
 * in doubles, the priorities).
 */
static void slack_heuristic_orders(void)
{
	static struct fx f;
	struct test_rng r;
	test_rng_seed(&r, 99);
	for (int h = 0; h < SCHED_HEUR_COUNT; h++) {
		CHECK_EQ(fx_init_cfg(&f, slack_cfg(3000, 2401, 1000, 1000, 1000, 1000, (enum sched_heuristic)h)),
			 SCHED_OK);
		CHECK_EQ(fx_submit(&f, 1000, 10, 5000, 0), SCHED_OK); /* the machine is busy until 5000 */
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		for (uint32_t i = 0; i < 30; i++) {
			struct sched_job_desc d = sched_desc(i + 1, (sched_procs_t)test_rng_range(&r, 1, 10),
							     test_rng_range(&r, 1, 3000));
			d.up_milli = (uint16_t)(test_rng_range(&r, 0, 4) * 250);
			d.pp_milli = test_rng_range(&r, 0, 7) == 0 ? (uint16_t)SCHED_PP_OVER_QUOTA
								   : (uint16_t)(test_rng_range(&r, 0, 4) * 250);
			CHECK_EQ(sched_submit(f.s, &d, test_rng_range(&r, 0, 3) + i * 3), SCHED_OK);
		}
		uint32_t n = sched_slack_order(f.s, NULL, 3000);
		CHECK_EQ(n, 30);
		for (uint32_t i = 0; i + 1 < n; i++) {
			const struct sched_job *a = sched_scratch_jobs(f.s)[i], *b = sched_scratch_jobs(f.s)[i + 1];
			bool tie_ok = a->arrival < b->arrival;
			switch (h) {
			case SCHED_HEUR_AST:
				CHECK(a->start < b->start || (a->start == b->start && tie_ok));
				break;
			case SCHED_HEUR_AAT:
				CHECK(a->submit < b->submit || (a->submit == b->submit && tie_ok));
				break;
			case SCHED_HEUR_DU: {
				uint64_t ua = (uint64_t)a->procs * a->estimate, ub = (uint64_t)b->procs * b->estimate;
				CHECK(ua > ub || (ua == ub && tie_ok));
				break;
			}
			case SCHED_HEUR_DC: {
				double ca = 0, cb = 0;
				const struct sched_job *ab[2] = {a, b};
				double *cab[2] = {&ca, &cb};
				for (int q = 0; q < 2; q++) {
					const struct sched_job *k = ab[q];
					if (sched_slack_job_c(k)->prio3 == SCHED_PRIO_OVER_QUOTA || sched_slack_job_c(k)->prio3 == 0)
						continue;
					double s0 = floor((3000.0 - sched_slack_job_c(k)->prio3) * 3 * 2401 / 3000.0);
					double left = sched_slack_job_c(k)->slack < 1 ? 1 : sched_slack_job_c(k)->slack;
					*cab[q] = s0 == 0 ? 0 : k->procs * (sched_slack_job_c(k)->prio3 / 3000.0) * (s0 / left);
				}
				/* Near-equal costs may round either way; exact ties (zero) go by arrival. */
				CHECK(ca >= cb * (1 - 1e-9));
				CHECK(ca != 0 || cb != 0 || tie_ok);
				break;
			}
			case SCHED_HEUR_DP: {
				long pa = sched_slack_job_c(a)->prio3 == SCHED_PRIO_OVER_QUOTA ? -1 : sched_slack_job_c(a)->prio3;
				long pb = sched_slack_job_c(b)->prio3 == SCHED_PRIO_OVER_QUOTA ? -1 : sched_slack_job_c(b)->prio3;
				CHECK(pa > pb || (pa == pb && tie_ok));
				break;
			}
			default:
				CHECK(false);
			}
		}
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
}

/* --- slack: hand-computed schedules ------------------------------------------------------- */

/*
 * A machine of 10. R (10 x 100) runs from 0. W1 (10 x 100, UP = PP = 0)
 * arrives at 0 and is reserved at 100: SP = 100 / 4802 -> 20 thousandths,
 * prio3 = 20, s0 = 2980 x 3 x 2401 / 3000 = 7154.98 -> 7154.
 * J (5 x 50) arrives at 10. Conservative puts it at 200: price
 * (200 - 10) x 5 = 950. At ts = 100 with W1 pushed to 150: price
 * (100 - 10) x 5 + cost(W1, 50) = 450 + 10 x (20 / 500) x 1 x 50 = 470.
 */
static int scenario(struct fx *f, struct sched_config cfg, uint16_t w1_pp, uint16_t j_pp)
{
	struct sched_job_desc d;
	if (fx_init_cfg(f, cfg) != SCHED_OK || fx_submit(f, 'R', 10, 100, 0) != SCHED_OK ||
	    sched_advance(f->s, 0) != SCHED_OK)
		return -1;
	d = sched_desc('W', 10, 100);
	d.pp_milli = w1_pp;
	if (sched_submit(f->s, &d, 0) != SCHED_OK)
		return -1;
	d = sched_desc('J', 5, 50);
	d.pp_milli = j_pp;
	if (sched_submit(f->s, &d, 10) != SCHED_OK)
		return -1;
	return 0;
}

static void slack_insert_hand(void)
{
	static struct fx f;
	struct sched_config cfg = slack_cfg(3000, 2401, 1000, 1000, 1000, 1000, SCHED_HEUR_AST);
	CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 'R', 10, 100, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 'W', 10, 100, 0), SCHED_OK);
	CHECK_EQ(info_of(f.s, 'W').prio3, 20);
	CHECK_EQ(info_of(f.s, 'W').slack, 7154);

	CHECK_EQ(scenario(&f, cfg, 0, 0), 0);
	CHECK_EQ(fx_predict(&f, 'J'), 100);
	CHECK_EQ(fx_predict(&f, 'W'), 150);
	CHECK_EQ(info_of(f.s, 'W').slack, 7154 - 50);
	/* J waits 90: SP = 90 / 4802 -> 18; s0 = 2982 x 2.401 = 7159.78 -> 7159. */
	CHECK_EQ(info_of(f.s, 'J').prio3, 18);
	CHECK_EQ(info_of(f.s, 'J').slack, 7159);
	CHECK_EQ(sched_check(f.s), SCHED_OK);

	/* SF = 0.001: W1 gets 2 s of slack, so the 50 s delay is infinite; conservative wins. */
	CHECK_EQ(scenario(&f, slack_cfg(1, 2401, 1000, 1000, 1000, 1000, SCHED_HEUR_AST), 0, 0), 0);
	CHECK_EQ(info_of(f.s, 'W').slack, 2);
	CHECK_EQ(fx_predict(&f, 'J'), 200);
	CHECK_EQ(fx_predict(&f, 'W'), 100);

	/* An over-quota newcomer may delay nobody. */
	CHECK_EQ(scenario(&f, cfg, 0, SCHED_PP_OVER_QUOTA), 0);
	CHECK_EQ(fx_predict(&f, 'J'), 200);
	CHECK_EQ(info_of(f.s, 'J').slack, SCHED_SLACK_INF);
	CHECK_EQ(info_of(f.s, 'J').prio3, SCHED_PRIO_OVER_QUOTA);

	/* An over-quota waiting job is delayed for free: 450 against 950. */
	CHECK_EQ(scenario(&f, cfg, SCHED_PP_OVER_QUOTA, 0), 0);
	CHECK_EQ(fx_predict(&f, 'J'), 100);
	CHECK_EQ(fx_predict(&f, 'W'), 150);
	CHECK_EQ(info_of(f.s, 'W').slack, SCHED_SLACK_INF);

	/* W1 at political priority 1: prio3 = 1020, cost 10 x (1020 / 500) x 50 = 1020; 1470 > 950. */
	CHECK_EQ(scenario(&f, cfg, 1000, 0), 0);
	CHECK_EQ(fx_predict(&f, 'J'), 200);
	CHECK_EQ(fx_predict(&f, 'W'), 100);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/* The scenario's configuration with early ends treated by `e`. */
static struct sched_config slack_cfg_end(enum sched_heuristic h, enum sched_early_end e)
{
	struct sched_config cfg = slack_cfg(3000, 2401, 1000, 1000, 1000, 1000, h);
	cfg = tp_set(cfg, "early-end", (uint32_t)e);
	return cfg;
}

/*
 * Early end under --early-end search: R ends at 20 instead of 100. With AST the search at ts = 100
 * compresses J (to 20, ends 70) and then W1 (150 -> 70): the profit is
 * 80 x 0.03 + 80 x 10 x (20/3000) x (7154/7104) > 0, and both regain 80 s
 * of slack. With DU W1 (1000 processor-seconds) is compressed first, while
 * J still holds 100..150, so W1 stays at 150 and only J moves.
 */
static void slack_remove_hand(void)
{
	static struct fx f;
	CHECK_EQ(scenario(&f, slack_cfg_end(SCHED_HEUR_AST, SCHED_END_SEARCH), 0, 0), 0);
	CHECK_EQ(sched_finish(f.s, 'R', 20), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 'J'), 20);
	CHECK_EQ(fx_predict(&f, 'W'), 70);
	CHECK_EQ(info_of(f.s, 'J').slack, 7159 + 80);
	CHECK_EQ(info_of(f.s, 'W').slack, 7104 + 80);
	CHECK_EQ(sched_advance(f.s, 20), SCHED_OK);
	CHECK_EQ(fx_started(&f, 'J'), 20);
	CHECK_EQ(sched_check(f.s), SCHED_OK);

	CHECK_EQ(scenario(&f, slack_cfg_end(SCHED_HEUR_DU, SCHED_END_SEARCH), 0, 0), 0);
	CHECK_EQ(fx_predict(&f, 'J'), 100);
	CHECK_EQ(fx_predict(&f, 'W'), 150);
	CHECK_EQ(sched_finish(f.s, 'R', 20), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 'J'), 20);
	CHECK_EQ(fx_predict(&f, 'W'), 150);
	CHECK_EQ(sched_check(f.s), SCHED_OK);

	/* The default, conservative's compression in arrival order (Tick "the same as in EASY and
	 * conservative"): W1 first, which cannot start before J's 100..150 ends, then J to 20.
	 * Nobody is re-priced, so the slacks stay as they were. */
	CHECK_EQ(scenario(&f, slack_cfg_end(SCHED_HEUR_AST, SCHED_END_COMPRESS), 0, 0), 0);
	CHECK_EQ(sched_finish(f.s, 'R', 20), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 'J'), 20);
	CHECK_EQ(fx_predict(&f, 'W'), 150);
	CHECK_EQ(info_of(f.s, 'J').slack, 7159);
	CHECK_EQ(info_of(f.s, 'W').slack, 7104);
	CHECK_EQ(sched_check(f.s), SCHED_OK);

	/* Tick word for word: nothing moves, the hole 20..100 stays idle. */
	CHECK_EQ(scenario(&f, slack_cfg_end(SCHED_HEUR_AST, SCHED_END_KEEP), 0, 0), 0);
	CHECK_EQ(sched_finish(f.s, 'R', 20), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 'J'), 100);
	CHECK_EQ(fx_predict(&f, 'W'), 150);
	CHECK_EQ(sched_advance(f.s, 20), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 'J'), 100);
	CHECK_EQ(sched_check(f.s), SCHED_OK);

	/* Cancelling a waiting job is a remove too: W1 gone, J moves up to 100 with R still running. */
	CHECK_EQ(scenario(&f, slack_cfg(3000, 2401, 1000, 1000, 1000, 1000, SCHED_HEUR_AST), 0, 0), 0);
	CHECK_EQ(sched_cancel(f.s, 'W', 30), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 'J'), 100);
	CHECK_EQ(info_of(f.s, 'J').slack, 7159);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/*
 * Removal ties (section 2.3: equal prices go to the schedule with fewer moved
 * jobs). AWT 10 s: H (UP = PP = 1) waits 100 >= 2 AWT behind R, so SP = 1,
 * p = 1, s0 = 0 and its cost factor (s0 / s)^(ap af) is 0: moving it is
 * worth nothing. When R ends at 20, the removal search prices "H to 20" at 0,
 * as "no change": the paper's tie keeps H at 100, `more` moves it; the
 * default compression moves it whatever it is worth.
 */
static void slack_removal_ties(void)
{
	static struct fx f;
	for (int mode = 0; mode < 3; mode++) {
		struct sched_config cfg = slack_cfg(3000, 10, 1000, 1000, 1000, 1000, SCHED_HEUR_AST);
		cfg = tp_set(cfg, "early-end", mode == 0 ? SCHED_END_COMPRESS : SCHED_END_SEARCH);
		cfg = tp_set(cfg, "removal-ties", mode == 2 ? SCHED_TIES_MORE : SCHED_TIES_FEWER);
		CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 'R', 10, 100, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		struct sched_job_desc d = sched_desc('H', 10, 100);
		d.up_milli = 1000;
		d.pp_milli = 1000;
		CHECK_EQ(sched_submit(f.s, &d, 0), SCHED_OK);
		CHECK_EQ(info_of(f.s, 'H').prio3, 3000);
		CHECK_EQ(info_of(f.s, 'H').slack, 0);
		CHECK_EQ(sched_finish(f.s, 'R', 20), SCHED_OK);
		CHECK_EQ(fx_predict(&f, 'H'), mode == 1 ? 100 : 20);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
}

/*
 * Random workloads: no job starts later than its first placement plus its
 * initial slack (section 2.1: a schedule that overdraws a slack is
 * infinitely expensive, and refunds only ever move a job earlier).
 */
static void slack_random_bounds(void)
{
	static struct fx f;
	static struct dj js[150];
	struct test_rng r;
	test_rng_seed(&r, 8);
	for (int round = 0; round < 10; round++) {
		size_t n = random_jobs(&r, js, 150, 24, 1);
		enum sched_heuristic h = (enum sched_heuristic)(round % SCHED_HEUR_COUNT);
		/* A small slack factor, so that the bound binds often. */
		struct sched_config cfg = slack_cfg(round < 5 ? 100 : 3000, 600, 1000, 1000, 1000, 1000, h);
		cfg.procs = 24;
		CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
		CHECK(drive(&f, js, n, NULL));
		uint32_t delayed = 0;
		for (size_t i = 0; i < n; i++) {
			if (js[i].err != SCHED_OK)
				continue;
			CHECK(js[i].done);
			if (js[i].slack0 != SCHED_SLACK_INF)
				CHECK(js[i].started <= js[i].promised + (sched_time_t)js[i].slack0);
			delayed += js[i].started > js[i].promised;
		}
		CHECK(fx_stats(&f).counters.started > 100);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
		(void)delayed;
	}
}

/* --- site queues ---------------------------------------------------------------------------- */

/* Three queues in the spirit of Exhibit 3: background (1), a limited middle queue (5), a wide top one (7). */
static struct sched_config site_cfg(enum sched_policy_id policy)
{
	struct sched_config cfg = {.procs = 16, .policy = policy, .n_queues = 3};
	cfg.queues[0] = (struct sched_queue_cfg){.priority = 1, .background = true, .max_time = 4 * 3600};
	cfg.queues[1] = (struct sched_queue_cfg){.priority = 5, .max_procs = 4, .max_time = 3600,
						 .max_running_per_user = 2, .proc_cap = 6};
	cfg.queues[2] = (struct sched_queue_cfg){.priority = 7, .min_procs = 8};
	return cfg;
}

static void queue_admission(void)
{
	static struct fx f;
	CHECK_EQ(fx_init_cfg(&f, site_cfg(SCHED_POLICY_CONS)), SCHED_OK);
	struct sched_job_desc d = sched_desc(1, 5, 60);
	const char *why = NULL;
	d.queue = 1;
	CHECK_EQ(sched_admissible(f.s, &d, &why), SCHED_E_LIMIT);
	CHECK(why != NULL && strstr(why, "maximum") != NULL);
	CHECK_EQ(sched_submit(f.s, &d, 0), SCHED_E_LIMIT);
	d.procs = 2;
	d.estimate = 3601;
	CHECK_EQ(sched_admissible(f.s, &d, &why), SCHED_E_LIMIT);
	CHECK(strstr(why, "time") != NULL);
	d.estimate = 3600;
	CHECK_EQ(sched_admissible(f.s, &d, &why), SCHED_OK);
	CHECK(why == NULL);
	d.queue = 2; /* at least 8 processors */
	CHECK_EQ(sched_admissible(f.s, &d, &why), SCHED_E_LIMIT);
	CHECK(strstr(why, "minimum") != NULL);
	d.queue = 3;
	CHECK_EQ(sched_admissible(f.s, &d, &why), SCHED_E_INVAL);
	d.queue = 2;
	d.procs = 17;
	CHECK_EQ(sched_admissible(f.s, &d, &why), SCHED_E_RANGE);
	d.procs = 8;
	d.partition = 1; /* there is one partition */
	CHECK_EQ(sched_admissible(f.s, &d, &why), SCHED_E_INVAL);
	CHECK_EQ(fx_stats(&f).counters.submitted, 0);
	CHECK_EQ(fx_stats(&f).counters.refused, 0); /* refusal by shape is not a capacity refusal */
	/* A queue table that contradicts itself is refused at init. */
	struct sched_config bad = site_cfg(SCHED_POLICY_CONS);
	bad.queues[1].min_procs = 5;
	CHECK_EQ(fx_init_cfg(&f, bad), SCHED_E_INVAL);
}

/* Per-user running limit and processor cap, and the order of queues, under every policy. */
static void queue_limits_every_policy(void)
{
	static struct fx f;
	for (int p = 0; p < SCHED_POLICY_COUNT; p++) {
		if (sched_policy_timeshared((enum sched_policy_id)p))
			continue; /* gang time-shares: it refuses queues with limits (SCHED_E_NOTSUP) */
		CHECK_EQ(fx_init_cfg(&f, site_cfg((enum sched_policy_id)p)), SCHED_OK);
		/* User 1 puts three 1-processor jobs in the middle queue: only two may run. */
		for (uint32_t i = 1; i <= 3; i++) {
			struct sched_job_desc d = sched_desc(i, 1, 100);
			d.queue = 1;
			d.user = 1;
			CHECK_EQ(sched_submit(f.s, &d, 0), SCHED_OK);
		}
		/* Users 2 and 3 ask for 4 and 3 against the queue's cap of 6 processors. */
		struct sched_job_desc d = sched_desc(4, 4, 100);
		d.queue = 1;
		d.user = 2;
		CHECK_EQ(sched_submit(f.s, &d, 0), SCHED_OK);
		d = sched_desc(5, 3, 100);
		d.queue = 1;
		d.user = 3;
		CHECK_EQ(sched_submit(f.s, &d, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_started(&f, 1), 0);
		CHECK_EQ(fx_started(&f, 2), 0);
		CHECK_EQ(fx_started(&f, 3), SCHED_TIME_MAX); /* user limit */
		/* Jobs 1 and 2 hold 2 of the cap of 6: job 4 (4) fits the cap exactly, then 5 (3) does not. */
		CHECK_EQ(fx_started(&f, 4), 0);
		CHECK_EQ(fx_started(&f, 5), SCHED_TIME_MAX);
		CHECK_EQ(f.s->queue_busy[1], 6);
		CHECK_EQ(sched_finish(f.s, 1, 30), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 30), SCHED_OK);
		CHECK_EQ(fx_started(&f, 3), 30); /* user 1 is back under 2 and the cap under 6 */
		CHECK_EQ(fx_started(&f, 5), SCHED_TIME_MAX);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
		CHECK(fx_stats(&f).counters.limited > 0 || !sched_pol_plans(sched_pol(f.s)));
	}
}

/* A higher queue is planned first, whatever the arrival order; background waits for it. */
static void queue_priority_and_background(void)
{
	static struct fx f;
	for (int p = 0; p < SCHED_POLICY_COUNT; p++) {
		if (sched_policy_timeshared((enum sched_policy_id)p))
			continue; /* gang time-shares: it refuses queues with limits (SCHED_E_NOTSUP) */
		CHECK_EQ(fx_init_cfg(&f, site_cfg((enum sched_policy_id)p)), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 1, 16, 100, 0), SCHED_OK); /* queue 0 is background: it may take the idle machine */
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_started(&f, 1), 0);
		struct sched_job_desc mid = sched_desc(2, 4, 100), top = sched_desc(3, 16, 100);
		mid.queue = 1;
		top.queue = 2;
		CHECK_EQ(sched_submit(f.s, &mid, 10), SCHED_OK);
		CHECK_EQ(sched_submit(f.s, &top, 20), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 4, 1, 10, 20), SCHED_OK); /* background, fits nowhere now anyway */
		CHECK_EQ(sched_first(f.s, SCHED_JOB_WAITING)->id, 3); /* plan order: top first */
		CHECK_EQ(sched_finish(f.s, 1, 50), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 50), SCHED_OK);
		CHECK_EQ(fx_started(&f, 3), 50);
		CHECK_EQ(fx_started(&f, 2), SCHED_TIME_MAX);
		CHECK_EQ(sched_finish(f.s, 3, 60), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 60), SCHED_OK);
		CHECK_EQ(fx_started(&f, 2), 60);
		/* Nothing of a higher queue waits now: the background job may use the idle 12. */
		CHECK_EQ(fx_started(&f, 4), 60);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
	/* Background is held while a higher job waits, even where it would fit. */
	CHECK_EQ(fx_init_cfg(&f, site_cfg(SCHED_POLICY_CONS)), SCHED_OK);
	struct sched_job_desc d = sched_desc(1, 4, 100);
	d.queue = 1;
	CHECK_EQ(sched_submit(f.s, &d, 0), SCHED_OK);
	d = sched_desc(2, 16, 100);
	d.queue = 2;
	CHECK_EQ(sched_submit(f.s, &d, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 3, 2, 10, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(fx_started(&f, 2), 0); /* the top queue goes first */
	CHECK_EQ(fx_started(&f, 3), SCHED_TIME_MAX);
	CHECK_EQ(sched_advance(f.s, 100), SCHED_OK);
	CHECK_EQ(fx_started(&f, 1), 100);
	/* At 0 nothing is free; at 100 job 1 starts and waits no more, so the background job may go. */
	CHECK_EQ(fx_started(&f, 3), 100);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/* Partitions: a queue open to one partition runs there; a job too wide for it is refused. */
static void queue_partitions(void)
{
	static struct fx f;
	for (int p = 0; p < SCHED_POLICY_COUNT; p++) {
		if (sched_policy_timeshared((enum sched_policy_id)p))
			continue; /* gang time-shares: it refuses queues with limits (SCHED_E_NOTSUP) */
		struct sched_config cfg = {.policy = (enum sched_policy_id)p, .n_partitions = 2, .n_queues = 2};
		cfg.partition_procs[0] = 8;
		cfg.partition_procs[1] = 4;
		cfg.queues[0] = (struct sched_queue_cfg){.priority = 1};
		cfg.queues[1] = (struct sched_queue_cfg){.priority = 1, .partitions = 2};
		CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
		CHECK_EQ(sched_config_get(f.s)->procs, 12);
		struct sched_job_desc d = sched_desc(1, 6, 100);
		d.queue = 1;
		CHECK_EQ(sched_submit(f.s, &d, 0), SCHED_E_RANGE); /* partition 1 has 4 */
		d.procs = 3;
		CHECK_EQ(sched_submit(f.s, &d, 0), SCHED_OK);
		d = sched_desc(2, 3, 100);
		d.queue = 1;
		CHECK_EQ(sched_submit(f.s, &d, 0), SCHED_OK); /* must wait for job 1: 8 are free elsewhere */
		CHECK_EQ(fx_submit(&f, 3, 8, 100, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_started(&f, 1), 0);
		CHECK_EQ(fx_started(&f, 2), SCHED_TIME_MAX);
		CHECK_EQ(fx_started(&f, 3), 0);
		for (int i = 0; i < f.n; i++) {
			if (f.log[i].job == 1)
				CHECK_EQ(f.log[i].partition, 1);
			if (f.log[i].job == 3)
				CHECK_EQ(f.log[i].partition, 0);
		}
		CHECK_EQ(sched_advance(f.s, 100), SCHED_OK);
		CHECK_EQ(fx_started(&f, 2), 100);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
}

/* Random workloads over the three queues: the running limits are never exceeded, under any policy. */
static void queue_random_limits(void)
{
	static struct fx f;
	static struct dj js[150];
	struct test_rng r;
	test_rng_seed(&r, 21);
	for (int round = 0; round < 10; round++) {
		for (int p = 0; p < SCHED_POLICY_COUNT; p++) {
			if (sched_policy_timeshared((enum sched_policy_id)p))
				continue; /* gang time-shares: it refuses queues with limits (SCHED_E_NOTSUP) */
			size_t n = random_jobs(&r, js, 150, 16, 3);
			struct sched_config cfg = site_cfg((enum sched_policy_id)p);
			CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
			struct drive_limits lim;
			memset(&lim, 0, sizeof lim);
			lim.cfg = &(*sched_config_get(f.s));
			lim.ok = true;
			CHECK(drive(&f, js, n, &lim));
			CHECK(lim.ok);
			uint32_t accepted = 0;
			for (size_t i = 0; i < n; i++) {
				if (js[i].err == SCHED_OK) {
					accepted++;
					CHECK(js[i].done);
				}
			}
			CHECK(accepted > 50);
			CHECK_EQ(sched_check(f.s), SCHED_OK);
		}
	}
}

static const struct test tests[] = {
	{"relaxed_exhibit8", relaxed_exhibit8},
	{"relaxed_exhibit8_waiting_jobs_jump", relaxed_exhibit8_waiting_jobs_jump},
	{"relaxed_delay_from_current_start", relaxed_delay_from_current_start},
	{"relaxed_delay_is_cumulative", relaxed_delay_is_cumulative},
	{"relaxed_needs_scratch", relaxed_needs_scratch},
	{"due_now_is_started", due_now_is_started},
	{"tune_and_switch", tune_and_switch},
	{"relaxed_random_bounds", relaxed_random_bounds},
	{"slack_formulas", slack_formulas},
	{"slack_heuristic_orders", slack_heuristic_orders},
	{"slack_insert_hand", slack_insert_hand},
	{"slack_remove_hand", slack_remove_hand},
	{"slack_removal_ties", slack_removal_ties},
	{"slack_random_bounds", slack_random_bounds},
	{"queue_admission", queue_admission},
	{"queue_limits_every_policy", queue_limits_every_policy},
	{"queue_priority_and_background", queue_priority_and_background},
	{"queue_partitions", queue_partitions},
	{"queue_random_limits", queue_random_limits},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("priorities", tests, argc, argv);
}
