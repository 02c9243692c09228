/* SPDX-License-Identifier: MIT */
/* The scheduler API: argument checks, capacity, errors that leave the state unchanged. */
#include "sched_fixture.h"
/* Fault injection and corruption reach inside: the pool limit, busy counts, a job, a segment. */
#include "sched_priv.h"

static void init_rejects_bad_configs(void)
{
	static struct fx f;
	struct sched_config cfg = {.procs = 10, .max_jobs = FX_CAP, .policy = SCHED_POLICY_CONS, .scratch_jobs = FX_CAP};
	CHECK_EQ(sched_init(&f.s, &cfg, f.arena, sizeof f.arena, NULL, NULL, 0), SCHED_OK);
	CHECK_EQ(sched_init(&f.s, &cfg, f.arena, sizeof f.arena - 1, NULL, NULL, 0), SCHED_E_NOSPACE);
	CHECK_EQ(sched_init(&f.s, &cfg, f.arena + 1, sizeof f.arena - 1, NULL, NULL, 0), SCHED_E_INVAL);
	CHECK_EQ(sched_init(&f.s, &cfg, NULL, sizeof f.arena, NULL, NULL, 0), SCHED_E_INVAL);
	CHECK_EQ(sched_init(&f.s, &cfg, f.arena, sizeof f.arena, NULL, NULL, SCHED_NOW_LIMIT), SCHED_E_RANGE);
	cfg.procs = 0;
	CHECK_EQ(sched_init(&f.s, &cfg, f.arena, sizeof f.arena, NULL, NULL, 0), SCHED_E_INVAL);
	cfg.procs = 10;
	cfg.max_jobs = 0;
	CHECK_EQ(sched_init(&f.s, &cfg, f.arena, sizeof f.arena, NULL, NULL, 0), SCHED_E_INVAL);
	cfg.max_jobs = FX_CAP;
	cfg.policy = SCHED_POLICY_COUNT;
	CHECK_EQ(sched_init(&f.s, &cfg, f.arena, sizeof f.arena, NULL, NULL, 0), SCHED_E_INVAL);
	CHECK_EQ(sched_arena_size_cfg(&cfg), sizeof f.arena);
}

static void submit_rejects_bad_jobs(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_CONS, 10), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 1, 0, 10, 0), SCHED_E_INVAL);
	CHECK_EQ(fx_submit(&f, 1, 1, 0, 0), SCHED_E_INVAL);
	CHECK_EQ(fx_submit(&f, 1, 1, SCHED_ESTIMATE_LIMIT, 0), SCHED_E_INVAL);
	CHECK_EQ(fx_submit(&f, 1, 11, 10, 0), SCHED_E_RANGE);
	CHECK_EQ(fx_submit(&f, 1, 1, 10, SCHED_NOW_LIMIT), SCHED_E_RANGE);
	CHECK_EQ(sched_submit(f.s, NULL, 0), SCHED_E_INVAL);
	CHECK_EQ(fx_submit(&f, 1, 10, 10, 5), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 1, 1, 10, 5), SCHED_E_EXIST);
	CHECK_EQ(fx_submit(&f, 2, 1, 10, 4), SCHED_E_TIME);
	CHECK_EQ(sched_advance(f.s, 4), SCHED_E_TIME);
	CHECK_EQ(sched_finish(f.s, 1, 4), SCHED_E_TIME);
	CHECK_EQ(sched_cancel(f.s, 1, 4), SCHED_E_TIME);
	CHECK_EQ(fx_stats(&f).counters.submitted, 1);
	CHECK_EQ(fx_stats(&f).waiting, 1);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

static void finish_and_cancel_errors(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_EASY, 10), SCHED_OK);
	CHECK_EQ(sched_finish(f.s, 9, 0), SCHED_E_NOENT);
	CHECK_EQ(sched_cancel(f.s, 9, 0), SCHED_E_NOENT);
	CHECK_EQ(fx_submit(&f, 1, 10, 10, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 2, 10, 10, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(sched_finish(f.s, 2, 1), SCHED_E_STATE); /* waiting: cancel it instead */
	CHECK_EQ(sched_predict(f.s, 9, &(sched_time_t){0}), SCHED_E_NOENT);
	sched_time_t t = 0;
	CHECK_EQ(sched_predict(f.s, 1, &t), SCHED_OK);
	CHECK_EQ(t, 0); /* running: its actual start */
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/*
 * Fill the job pool to its capacity: the next submit is refused with
 * NOSPACE, counted, and everything already admitted keeps its plan.
 */
static void capacity_exhaustion(void)
{
	static struct fx f;
	enum sched_policy_id pols[3] = {SCHED_POLICY_FCFS, SCHED_POLICY_EASY, SCHED_POLICY_CONS};
	for (int k = 0; k < 3; k++) {
		CHECK_EQ(fx_init(&f, pols[k], 4), SCHED_OK);
		for (uint32_t i = 0; i < FX_CAP; i++)
			CHECK_EQ(fx_submit(&f, i, 1 + i % 4, 10 + i, 0), SCHED_OK);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
		sched_time_t before[FX_CAP];
		for (uint32_t i = 0; i < FX_CAP; i++)
			before[i] = fx_predict(&f, i);
		CHECK_EQ(fx_submit(&f, 999, 1, 1, 0), SCHED_E_NOSPACE);
		CHECK_EQ(fx_stats(&f).counters.refused, 1);
		CHECK_EQ(fx_stats(&f).jobs_used, FX_CAP);
		CHECK(sched_find(f.s, 999) == NULL);
		for (uint32_t i = 0; i < FX_CAP; i++)
			CHECK_EQ(fx_predict(&f, i), before[i]);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
		/* Drain: every job eventually runs. */
		for (sched_time_t t = sched_next_event(f.s); t != SCHED_TIME_MAX; t = sched_next_event(f.s)) {
			CHECK_EQ(sched_advance(f.s, t), SCHED_OK);
			CHECK_EQ(sched_check(f.s), SCHED_OK);
		}
		CHECK_EQ(fx_stats(&f).counters.started, FX_CAP);
		CHECK_EQ(fx_stats(&f).jobs_used, 0);
		CHECK_EQ(fx_stats(&f).segs_used, 1);
	}
}

/*
 * Fail at the k-th segment (SQLite-style): with the segment pool limited to
 * what is in use, any submit that would split is refused and the state is
 * unchanged; with the limit restored it goes through.
 */
static void segment_exhaustion_is_refused_cleanly(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_CONS, 8), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 1, 8, 100, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	f.s->segs.limit = f.s->segs.used;
	CHECK_EQ(fx_submit(&f, 2, 4, 10, 1), SCHED_E_NOSPACE);
	CHECK(sched_find(f.s, 2) == NULL);
	CHECK_EQ(fx_stats(&f).jobs_used, 1);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
	f.s->segs.limit = f.s->segs.capacity;
	CHECK_EQ(fx_submit(&f, 2, 4, 10, 1), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 2), 100);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/* Two schedulers side by side share nothing. */
static void two_schedulers_are_independent(void)
{
	static struct fx a, b;
	CHECK_EQ(fx_init(&a, SCHED_POLICY_CONS, 4), SCHED_OK);
	CHECK_EQ(fx_init(&b, SCHED_POLICY_FCFS, 8), SCHED_OK);
	CHECK_EQ(fx_submit(&a, 1, 4, 10, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&b, 1, 8, 20, 0), SCHED_OK);
	CHECK_EQ(sched_advance(a.s, 0), SCHED_OK);
	CHECK_EQ(a.n, 1);
	CHECK_EQ(b.n, 0);
	/* b was not advanced at 0: catching up at 5 starts its job at 0, when it was due. */
	CHECK_EQ(sched_advance(b.s, 5), SCHED_OK);
	CHECK_EQ(fx_started(&b, 1), 0);
	CHECK_EQ(sched_next_event(a.s), 10);
	CHECK_EQ(sched_next_event(b.s), 20);
	CHECK_EQ(sched_check(a.s), SCHED_OK);
	CHECK_EQ(sched_check(b.s), SCHED_OK);
}

static void names_and_errors(void)
{
	enum sched_policy_id p;
	CHECK_EQ(sched_policy_parse("fcfs", &p), SCHED_OK);
	CHECK_EQ(p, SCHED_POLICY_FCFS);
	CHECK_EQ(sched_policy_parse("conservative", &p), SCHED_OK);
	CHECK_EQ(p, SCHED_POLICY_CONS);
	CHECK_EQ(sched_policy_parse("cons", &p), SCHED_OK);
	CHECK_EQ(sched_policy_parse("easyy", &p), SCHED_E_INVAL);
	CHECK_EQ(sched_policy_parse("", &p), SCHED_E_INVAL);
	CHECK(sched_policy_name(SCHED_POLICY_COUNT) == NULL);
	CHECK(strcmp(sched_policy_name(SCHED_POLICY_EASY), "easy") == 0);
	CHECK(strcmp(sched_strerror(SCHED_E_NOSPACE), "no space") == 0);
	CHECK(strcmp(sched_strerror(12345), "unknown error") == 0);
}

/* The checker itself must notice corruption, or its passes mean nothing. */
static void checker_catches_corruption(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_CONS, 8), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 1, 4, 100, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 2, 8, 100, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
	f.s->busy++;
	CHECK_EQ(sched_check(f.s), SCHED_E_STATE);
	f.s->busy--;
	struct sched_job *j = (struct sched_job *)sched_find(f.s, 2);
	j->start++; /* the reservation no longer matches the profile */
	CHECK_EQ(sched_check(f.s), SCHED_E_STATE);
	j->start--;
	struct sched_seg *g = sched_profile_first(sched_prof(f.s, 0));
	g->free++;
	CHECK_EQ(sched_check(f.s), SCHED_E_STATE);
	g->free--;
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

static const struct test tests[] = {
	{"init_rejects_bad_configs", init_rejects_bad_configs},
	{"submit_rejects_bad_jobs", submit_rejects_bad_jobs},
	{"finish_and_cancel_errors", finish_and_cancel_errors},
	{"capacity_exhaustion", capacity_exhaustion},
	{"segment_exhaustion_is_refused_cleanly", segment_exhaustion_is_refused_cleanly},
	{"two_schedulers_are_independent", two_schedulers_are_independent},
	{"names_and_errors", names_and_errors},
	{"checker_catches_corruption", checker_catches_corruption},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("sched", tests, argc, argv);
}
