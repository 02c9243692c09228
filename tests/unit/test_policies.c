/* SPDX-License-Identifier: MIT */
/* Hand-made scenarios for FCFS, EASY and conservative, including seed 000 Figs. 3, 4, 5 and 7. */
#include "sched_fixture.h"
#include "test_params.h"

/* FCFS: the head blocks everything behind it; no backfilling even when a job would fit. */
static void fcfs_head_blocks(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_FCFS, 10), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 1, 6, 100, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 2, 6, 50, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 3, 2, 10, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(fx_started(&f, 1), 0);
	CHECK_EQ(fx_started(&f, 2), SCHED_TIME_MAX);
	CHECK_EQ(fx_started(&f, 3), SCHED_TIME_MAX); /* would fit in the 4 free, but FCFS never backfills */
	CHECK_EQ(sched_next_event(f.s), 100);       /* job 1's estimate */
	CHECK_EQ(sched_finish(f.s, 1, 40), SCHED_OK);
	CHECK_EQ(sched_next_event(f.s), 40);
	CHECK_EQ(sched_advance(f.s, 40), SCHED_OK);
	CHECK_EQ(fx_started(&f, 2), 40);
	CHECK_EQ(fx_started(&f, 3), 40);
	CHECK(!fx_backfilled(&f, 3)); /* it started as the head, after job 2 */
	CHECK_EQ(fx_stats(&f).counters.backfilled, 0);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/*
 * EASY, the two conditions of Fig. 5/6. Machine of 10; job A holds 6 until
 * 100. Head H needs 8: shadow time 100, extra nodes 10 - 8 = 2.
 */
static void easy_fig5_conditions(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_EASY, 10), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 'A', 6, 100, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 'H', 8, 50, 5), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 'J', 2, 1000, 5), SCHED_OK); /* outlives the shadow, fits in extra */
	CHECK_EQ(fx_submit(&f, 'K', 2, 1000, 5), SCHED_OK); /* outlives the shadow, extra used up */
	CHECK_EQ(fx_submit(&f, 'L', 2, 95, 5), SCHED_OK);   /* 5 + 95 = 100: ends by the shadow */
	CHECK_EQ(fx_submit(&f, 'M', 1, 1, 5), SCHED_OK);    /* no processors left */
	CHECK_EQ(fx_predict(&f, 'H'), 100);
	CHECK_EQ(sched_predict(f.s, 'K', &(sched_time_t){0}), SCHED_E_NOTSUP);
	CHECK_EQ(sched_advance(f.s, 5), SCHED_OK);
	CHECK_EQ(fx_started(&f, 'H'), SCHED_TIME_MAX);
	CHECK_EQ(fx_started(&f, 'J'), 5);
	CHECK(fx_backfilled(&f, 'J'));
	CHECK_EQ(fx_started(&f, 'K'), SCHED_TIME_MAX);
	CHECK_EQ(fx_started(&f, 'L'), 5);
	CHECK_EQ(fx_started(&f, 'M'), SCHED_TIME_MAX);
	CHECK_EQ(sched_free_now(f.s), 0);
	/* A and L reach their estimates at 100; H then starts with J's 2 processors still busy. */
	CHECK_EQ(sched_next_event(f.s), 100);
	CHECK_EQ(sched_advance(f.s, 100), SCHED_OK);
	CHECK_EQ(fx_when(&f, SCHED_DEC_KILL, 'A'), 100);
	CHECK_EQ(fx_when(&f, SCHED_DEC_KILL, 'L'), 100);
	CHECK_EQ(fx_started(&f, 'H'), 100);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/*
 * EASY decides with estimates only. A job whose estimate outlives the
 * shadow time must not backfill even if (as only the test knows) it would
 * end in 10 s: a core that peeked at run times would start it at once.
 */
static void easy_uses_estimates_not_run_times(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_EASY, 10), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 'A', 6, 100, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 'H', 8, 50, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 'C', 4, 200, 0), SCHED_OK); /* would run 10 s */
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(fx_started(&f, 'C'), SCHED_TIME_MAX);
	CHECK_EQ(sched_finish(f.s, 'A', 100), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 100), SCHED_OK);
	CHECK_EQ(fx_started(&f, 'H'), 100);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/*
 * Fig. 7 (Property 1): a backfilled job that uses the extra nodes delays
 * the *second* queued job under EASY; conservative refuses that backfill.
 * Machine 10: A holds 6 until 100; H1 needs 8 for 100 s; H2 needs 10 for
 * 100 s; X (2 procs, 300 s) arrives last.
 */
static void fig7_easy_delays_second_job(void)
{
	static struct fx e, c;
	CHECK_EQ(fx_init(&e, SCHED_POLICY_EASY, 10), SCHED_OK);
	CHECK_EQ(fx_init(&c, SCHED_POLICY_CONS, 10), SCHED_OK);
	struct fx *fs[2] = {&e, &c};
	for (int k = 0; k < 2; k++) {
		struct fx *f = fs[k];
		CHECK_EQ(fx_submit(f, 'A', 6, 100, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f->s, 0), SCHED_OK);
		CHECK_EQ(fx_submit(f, 1, 8, 100, 1), SCHED_OK);
		CHECK_EQ(fx_submit(f, 2, 10, 100, 1), SCHED_OK);
		CHECK_EQ(fx_submit(f, 'X', 2, 300, 1), SCHED_OK);
		/* Every job runs to its estimate: drive the clock by next_event alone. */
		for (sched_time_t t = 1; t != SCHED_TIME_MAX; t = sched_next_event(f->s)) {
			CHECK_EQ(sched_advance(f->s, t), SCHED_OK);
			CHECK_EQ(sched_check(f->s), SCHED_OK);
		}
	}
	CHECK_EQ(fx_started(&e, 'X'), 1);   /* uses the 2 extra nodes */
	CHECK_EQ(fx_started(&e, 1), 100);   /* the head is not delayed */
	CHECK_EQ(fx_started(&e, 2), 301);   /* the second job is: it waits for X */
	CHECK_EQ(fx_started(&c, 'X'), 300); /* conservative keeps X behind H2's reservation */
	CHECK_EQ(fx_started(&c, 1), 100);
	CHECK_EQ(fx_started(&c, 2), 200);
}

/*
 * Fig. 3. Machine 10; running jobs hold 3 processors each until 10, 20 and
 * 40, so 1 is free. Q1 (7 procs) is reserved after the first two running
 * jobs end; Q2 (4 procs) could start after the first, but would then delay
 * Q1, so it takes its second anchor; Q3 (1 proc) starts at once.
 */
static void fig3_conservative_reservations(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_CONS, 10), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 'a', 3, 10, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 'b', 3, 20, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 'c', 3, 40, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(sched_free_now(f.s), 1);
	CHECK_EQ(fx_submit(&f, 1, 7, 30, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 2, 4, 20, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 3, 1, 5, 0), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 1), 20);
	CHECK_EQ(fx_predict(&f, 2), 50); /* not 10: [20,30) would leave Q1 short */
	CHECK_EQ(fx_predict(&f, 3), 0);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(fx_started(&f, 3), 0);
	CHECK(fx_backfilled(&f, 3));
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/*
 * Figure 4's set-up on 10 processors under cons (compress_at: its parameter, or -1 for the
 * default): r1 (6 procs, 100 s) and R2 (4, 200 s) run from 0; Q1 (8, 100 s) waits for 200, Q2
 * (4, 100 s) for 100. The caller ends R2 early.
 */
static void fig4_setup(struct fx *f, int compress_at)
{
	struct sched_config cfg = {.procs = 10, .policy = SCHED_POLICY_CONS};
	if (compress_at >= 0)
		CHECK_EQ(sched_param_set(&cfg, sched_param_find("compress-at", NULL), (uint32_t)compress_at), SCHED_OK);
	CHECK_EQ(fx_init_cfg(f, cfg), SCHED_OK);
	CHECK_EQ(fx_submit(f, 'r', 6, 100, 0), SCHED_OK);
	CHECK_EQ(fx_submit(f, 'R', 4, 200, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f->s, 0), SCHED_OK);
	CHECK_EQ(fx_submit(f, 1, 8, 100, 0), SCHED_OK);
	CHECK_EQ(fx_submit(f, 2, 4, 100, 0), SCHED_OK);
}

/*
 * Fig. 4. Machine 10: R1 holds 6 until 100, R2 holds 4 until 200. Q1 (8
 * procs, 100 s) is guaranteed 200; Q2 (4 procs, 100 s) backfills into
 * [100, 200). R2 ends at 10. Compression moves Q2 up to 10 and never delays
 * anyone; rescheduling from scratch in arrival order would push Q2 to 200,
 * past its guarantee of 100.
 */
static void fig4_compression_keeps_guarantees(void)
{
	static struct fx f, g, e;
	struct fx *fs[3] = {&f, &g, &e};
	for (int k = 0; k < 3; k++) {
		/* e: the reading before issue 28, compress at once and only at early ends */
		fig4_setup(fs[k], fs[k] == &e ? 1 : -1);
		CHECK_EQ(fx_predict(fs[k], 1), 200);
		CHECK_EQ(fx_predict(fs[k], 2), 100);
		CHECK_EQ(sched_finish(fs[k]->s, 'R', 10), SCHED_OK);
	}
	/* compress-at early compresses within the finish itself. */
	CHECK_EQ(fx_predict(&e, 2), 10);
	CHECK_EQ(fx_stats(&e).counters.reflows, 1);
	/* Under every termination (the default) the instant's ends may not all be in yet: the
	 * compression waits for the instant's first arrival or pass. Until then the guarantee stands. */
	CHECK_EQ(fx_predict(&f, 2), 100);
	CHECK_EQ(fx_stats(&f).counters.reflows, 0);
	CHECK_EQ(fx_submit(&f, 3, 10, 5, 10), SCHED_OK); /* an arrival: compression first, then its place */
	CHECK_EQ(fx_predict(&f, 3), 110); /* after 2 moved up to 10; before it, 300 */
	/* f compressed on the early end. */
	CHECK_EQ(fx_predict(&f, 2), 10);
	CHECK_EQ(fx_predict(&f, 1), 200);
	CHECK_EQ(fx_stats(&f).counters.reflows, 1);
	CHECK_EQ(fx_stats(&f).counters.moved, 1);
	CHECK_EQ(sched_advance(f.s, 10), SCHED_OK);
	CHECK_EQ(fx_started(&f, 2), 10);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
	/* g re-plans from scratch (what set_policy does): Q1 first takes 100, Q2 is pushed to 200. */
	CHECK_EQ(sched_set_policy(g.s, SCHED_POLICY_CONS, 10), SCHED_OK);
	CHECK_EQ(fx_predict(&g, 1), 100);
	CHECK_EQ(fx_predict(&g, 2), 200);
	CHECK_EQ(sched_check(g.s), SCHED_OK);
}

/* next_event covers reservations made at submit and moved by compression, and kills. */
static void next_event_follows_the_plan(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_CONS, 4), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 1, 4, 100, 0), SCHED_OK);
	CHECK_EQ(sched_next_event(f.s), 0); /* its reservation is now */
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 2, 2, 50, 20), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 3, 2, 80, 20), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 20), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 2), 100);
	CHECK_EQ(fx_predict(&f, 3), 100);
	/* Job 1 ends early at 60; compression moves 2 and 3 to 60. */
	CHECK_EQ(sched_finish(f.s, 1, 60), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 60), SCHED_OK);
	CHECK_EQ(fx_started(&f, 2), 60);
	CHECK_EQ(fx_started(&f, 3), 60);
	/* A wide job now waits for both; its reservation (140) is the next event. */
	CHECK_EQ(fx_submit(&f, 4, 4, 10, 61), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 61), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 4), 140);
	CHECK_EQ(sched_finish(f.s, 2, 70), SCHED_OK); /* ends early, but job 3 still blocks job 4 */
	CHECK_EQ(sched_advance(f.s, 70), SCHED_OK);
	CHECK_EQ(sched_next_event(f.s), 140);
	CHECK_EQ(sched_advance(f.s, 140), SCHED_OK);
	CHECK_EQ(fx_when(&f, SCHED_DEC_KILL, 3), 140);
	CHECK_EQ(fx_started(&f, 4), 140);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/*
 * compress-depth 1: at an early end only the first waiting job in plan order
 * may move up; the second, which could also start at once, keeps its
 * reservation (its guarantee). Depth 0 is the paper's whole compression.
 */
static void compress_depth_bounds_the_moves(void)
{
	static struct fx f;
	for (uint32_t depth = 0; depth <= 2; depth++) {
		struct sched_config cfg = {.procs = 4, .policy = SCHED_POLICY_CONS};
		cfg = tp_set(cfg, "compress-depth", depth);
		CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 1, 4, 100, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 2, 2, 50, 10), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 3, 2, 80, 10), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 10), SCHED_OK);
		CHECK_EQ(fx_predict(&f, 2), 100);
		CHECK_EQ(fx_predict(&f, 3), 100);
		/* Job 1 ends at 60: both fit at once, but depth 1 lets only job 2 move. */
		CHECK_EQ(sched_finish(f.s, 1, 60), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 60), SCHED_OK);
		CHECK_EQ(fx_started(&f, 2), 60);
		if (depth == 1) {
			CHECK_EQ(fx_started(&f, 3), SCHED_TIME_MAX);
			CHECK_EQ(fx_predict(&f, 3), 100);
		} else {
			CHECK_EQ(fx_started(&f, 3), 60);
		}
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
}

/*
 * reservation-depth 2 on a machine of 4 that job 1 fills until 100: of
 * three jobs submitted at 10, jobs 2 and 3 get reservations (100 and 150),
 * job 4 none. Job 1 ends at 60: the compression moves 2 and 3 up, job 2
 * starts, and job 4 reaches the depth and is reserved after job 3 (160).
 */
static void reservation_depth_bounds_the_reservations(void)
{
	static struct fx f;
	struct sched_config cfg = tp_set((struct sched_config){.procs = 4, .policy = SCHED_POLICY_CONS}, "reservation-depth", 2);
	CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 1, 4, 100, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 2, 4, 50, 10), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 3, 4, 50, 10), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 4, 1, 1000, 10), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 10), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 2), 100);
	CHECK_EQ(fx_predict(&f, 3), 150);
	CHECK_EQ(sched_predict(f.s, 4, &(sched_time_t){0}), SCHED_E_NOTSUP);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
	CHECK_EQ(sched_finish(f.s, 1, 60), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 60), SCHED_OK);
	CHECK_EQ(fx_started(&f, 2), 60);
	CHECK_EQ(fx_predict(&f, 3), 110);
	CHECK_EQ(fx_predict(&f, 4), 160);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/*
 * The depth changed at run time: from 2 to 0 (every job), job 4 is reserved
 * after job 3 (200); back to 1, only job 2 keeps its reservation.
 */
static void reservation_depth_tuned_live(void)
{
	static struct fx f;
	struct sched_config cfg = tp_set((struct sched_config){.procs = 4, .policy = SCHED_POLICY_CONS}, "reservation-depth", 2);
	CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 1, 4, 100, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 2, 4, 50, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 3, 4, 50, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 4, 1, 1000, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(sched_predict(f.s, 4, &(sched_time_t){0}), SCHED_E_NOTSUP);
	CHECK_EQ(sched_tune(f.s, &(struct sched_config){.procs = 4}), SCHED_OK); /* depth 0: the default */
	CHECK_EQ(fx_predict(&f, 4), 200);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
	struct sched_config one = tp_set((struct sched_config){.procs = 4}, "reservation-depth", 1);
	CHECK_EQ(sched_tune(f.s, &one), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 2), 100);
	CHECK_EQ(sched_predict(f.s, 3, &(sched_time_t){0}), SCHED_E_NOTSUP);
	CHECK_EQ(sched_predict(f.s, 4, &(sched_time_t){0}), SCHED_E_NOTSUP);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/*
 * Beyond the depth a job starts only where it fits now without touching a
 * reservation: with depth 1, job 2 (4 procs) is reserved at 100; job 3
 * (2 procs for 200) would cross it and waits unreserved; job 4 (2 procs
 * for 90) ends by 100 and starts at once. Under cons job 3 would hold 150.
 */
static void reservation_depth_backfills_beyond(void)
{
	static struct fx f;
	for (uint32_t depth = 0; depth <= 1; depth++) {
		struct sched_config cfg = {.procs = 4, .policy = SCHED_POLICY_CONS};
		cfg = tp_set(cfg, "reservation-depth", depth);
		CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 1, 2, 100, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 2, 4, 50, 10), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 3, 2, 200, 10), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 4, 2, 90, 10), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 10), SCHED_OK);
		CHECK_EQ(fx_predict(&f, 2), 100);
		CHECK_EQ(fx_started(&f, 3), SCHED_TIME_MAX);
		CHECK_EQ(fx_started(&f, 4), 10);
		if (depth == 1)
			CHECK_EQ(sched_predict(f.s, 3, &(sched_time_t){0}), SCHED_E_NOTSUP);
		else
			CHECK_EQ(fx_predict(&f, 3), 150);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
}

/* Jobs that reach their estimate are killed then, and their processors reused at once. */
static void kill_at_estimate(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_EASY, 8), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 1, 8, 30, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 2, 8, 30, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(sched_next_event(f.s), 30);
	/* Finishing at exactly the estimate is a normal end, not a kill. */
	CHECK_EQ(sched_finish(f.s, 1, 30), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 30), SCHED_OK);
	CHECK_EQ(fx_when(&f, SCHED_DEC_KILL, 1), SCHED_TIME_MAX);
	CHECK_EQ(fx_started(&f, 2), 30);
	CHECK_EQ(sched_advance(f.s, 59), SCHED_OK);
	CHECK_EQ(fx_when(&f, SCHED_DEC_KILL, 2), SCHED_TIME_MAX);
	CHECK_EQ(sched_advance(f.s, 60), SCHED_OK);
	CHECK_EQ(fx_when(&f, SCHED_DEC_KILL, 2), 60);
	CHECK_EQ(fx_stats(&f).counters.killed, 1);
	CHECK_EQ(sched_finish(f.s, 2, 61), SCHED_E_NOENT);
	CHECK_EQ(sched_next_event(f.s), SCHED_TIME_MAX);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/* A caller that skips calls still gets every decision at its own time. */
static void late_caller_catches_up(void)
{
	static struct fx f, g;
	struct fx *fs[2] = {&f, &g};
	for (int k = 0; k < 2; k++) {
		CHECK_EQ(fx_init(fs[k], SCHED_POLICY_CONS, 4), SCHED_OK);
		CHECK_EQ(fx_submit(fs[k], 1, 4, 10, 0), SCHED_OK);
		CHECK_EQ(fx_submit(fs[k], 2, 4, 10, 0), SCHED_OK);
		CHECK_EQ(fx_submit(fs[k], 3, 4, 10, 0), SCHED_OK);
	}
	/* f is driven event by event, g jumps straight to 100. */
	for (sched_time_t t = 0; t <= 100; t = sched_next_event(f.s))
		CHECK_EQ(sched_advance(f.s, t), SCHED_OK);
	CHECK_EQ(sched_advance(g.s, 100), SCHED_OK);
	CHECK_EQ(f.n, g.n);
	for (int i = 0; i < f.n; i++) {
		CHECK_EQ(f.log[i].kind, g.log[i].kind);
		CHECK_EQ(f.log[i].job, g.log[i].job);
		CHECK_EQ(f.log[i].time, g.log[i].time);
	}
	CHECK_EQ(fx_started(&g, 3), 20);
	CHECK_EQ(sched_check(g.s), SCHED_OK);
}

/*
 * Seed 000 section 2.1 compresses "upon termination": an on-time end frees
 * nothing itself, but a compression in plan order is no fixpoint. In the
 * figure 4 set-up, once Q2 has moved up to 10 (on R2's early end), Q1 could
 * start at 110, not 200; the next termination's compression finds it: r1
 * ending on time at 100 moves Q1 to 110 under compress-at every, and leaves
 * it at 200 under early.
 */
static void on_time_end_compresses(void)
{
	static struct fx f, e;
	struct fx *fs[2] = {&f, &e};
	for (int k = 0; k < 2; k++) {
		fig4_setup(fs[k], k); /* f: every (0), e: early (1) */
		CHECK_EQ(sched_finish(fs[k]->s, 'R', 10), SCHED_OK);
		CHECK_EQ(sched_advance(fs[k]->s, 10), SCHED_OK);
		CHECK_EQ(fx_started(fs[k], 2), 10);
		CHECK_EQ(fx_predict(fs[k], 1), 200); /* one pass in plan order: Q1 was looked at first */
		CHECK_EQ(sched_finish(fs[k]->s, 'r', 100), SCHED_OK); /* on time */
		CHECK_EQ(sched_advance(fs[k]->s, 100), SCHED_OK);
	}
	CHECK_EQ(fx_predict(&f, 1), 110);
	CHECK_EQ(fx_predict(&e, 1), 200);
	CHECK_EQ(sched_advance(f.s, 110), SCHED_OK);
	CHECK_EQ(fx_started(&f, 1), 110);
	/* A kill at the estimate is a termination too: the same under the core's own clock. */
	static struct fx k;
	fig4_setup(&k, -1);
	CHECK_EQ(sched_finish(k.s, 'R', 10), SCHED_OK);
	CHECK_EQ(sched_advance(k.s, 100), SCHED_OK); /* r is killed at its estimate, 100 */
	CHECK_EQ(fx_when(&k, SCHED_DEC_KILL, 'r'), 100);
	CHECK_EQ(fx_predict(&k, 1), 110);
}

/* One instant's ends, released in any order, give one compression and the same schedule. */
static void same_instant_ends_in_any_order(void)
{
	static struct fx f, g;
	uint32_t rng = 12345u;
	for (int round = 0; round < 40; round++) {
		struct fx *fs[2] = {&f, &g};
		uint32_t procs[24], est[24], ends = 0;
		for (int i = 0; i < 24; i++) {
			rng = rng * 1103515245u + 12345u;
			procs[i] = 1u + (rng >> 16) % 16u;
			rng = rng * 1103515245u + 12345u;
			est[i] = 20u + (rng >> 16) % 200u;
		}
		rng = rng * 1103515245u + 12345u;
		ends = rng >> 8; /* bit i: running job i ends early at 10 */
		for (int k = 0; k < 2; k++) {
			CHECK_EQ(fx_init(fs[k], SCHED_POLICY_CONS, 16), SCHED_OK);
			for (uint32_t i = 0; i < 24; i++)
				CHECK_EQ(fx_submit(fs[k], i + 1, procs[i], est[i], 0), SCHED_OK);
			CHECK_EQ(sched_advance(fs[k]->s, 0), SCHED_OK);
			for (int n = 0; n < 24; n++) {
				uint32_t i = k == 0 ? (uint32_t)n : 23u - (uint32_t)n; /* g: the other order */
				struct sched_job_info info;
				if ((ends >> i & 1u) && sched_job_get(fs[k]->s, i + 1, &info) == SCHED_OK &&
				    info.state == SCHED_JOB_RUNNING)
					CHECK_EQ(sched_finish(fs[k]->s, i + 1, 10), SCHED_OK);
			}
			CHECK_EQ(sched_advance(fs[k]->s, 10), SCHED_OK);
			CHECK_EQ(sched_advance(fs[k]->s, 100000), SCHED_OK);
		}
		CHECK_EQ(fx_stats(&f).counters.reflows, fx_stats(&g).counters.reflows);
		CHECK_EQ(f.n, g.n);
		for (int i = 0; i < f.n && i < g.n; i++) {
			/* The ends themselves are logged in the order given; every start and kill matches. */
			if (f.log[i].kind == SCHED_DEC_START || f.log[i].kind == SCHED_DEC_KILL) {
				CHECK_EQ(f.log[i].kind, g.log[i].kind);
				CHECK_EQ(f.log[i].job, g.log[i].job);
				CHECK_EQ(f.log[i].time, g.log[i].time);
			}
		}
	}
}

/* Cancelling a waiting job frees its reservation and compresses the rest. */
static void cancel_compresses(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_CONS, 4), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 1, 4, 100, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 2, 4, 100, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 3, 4, 100, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 3), 200);
	CHECK_EQ(sched_cancel(f.s, 2, 5), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 3), 100);
	CHECK_EQ(sched_cancel(f.s, 1, 6), SCHED_OK); /* running: a termination like an early end */
	CHECK_EQ(fx_predict(&f, 3), 100);            /* compressed at the instant's pass (compress-at every) */
	CHECK_EQ(sched_advance(f.s, 6), SCHED_OK);
	CHECK_EQ(fx_started(&f, 3), 6);
	CHECK_EQ(fx_stats(&f).counters.cancelled, 2);
	CHECK_EQ(sched_cancel(f.s, 2, 7), SCHED_E_NOENT);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/* Switching policy with jobs waiting: reservations appear or disappear, nothing is lost. */
static void policy_switch(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_EASY, 4), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 1, 4, 100, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 2, 2, 100, 0), SCHED_OK);
	CHECK_EQ(fx_submit(&f, 3, 2, 50, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	CHECK_EQ(sched_set_policy(f.s, SCHED_POLICY_CONS, 10), SCHED_OK);
	CHECK_EQ(fx_predict(&f, 2), 100);
	CHECK_EQ(fx_predict(&f, 3), 100);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
	CHECK_EQ(sched_set_policy(f.s, SCHED_POLICY_FCFS, 20), SCHED_OK);
	CHECK_EQ(sched_predict(f.s, 2, &(sched_time_t){0}), SCHED_E_NOTSUP);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
	CHECK_EQ(sched_set_policy(f.s, SCHED_POLICY_COUNT, 20), SCHED_E_INVAL);
	CHECK_EQ(sched_advance(f.s, 100), SCHED_OK);
	CHECK_EQ(fx_started(&f, 2), 100);
	CHECK_EQ(fx_started(&f, 3), 100);
}

static const struct test tests[] = {
	{"fcfs_head_blocks", fcfs_head_blocks},
	{"easy_fig5_conditions", easy_fig5_conditions},
	{"easy_uses_estimates_not_run_times", easy_uses_estimates_not_run_times},
	{"fig7_easy_delays_second_job", fig7_easy_delays_second_job},
	{"fig3_conservative_reservations", fig3_conservative_reservations},
	{"fig4_compression_keeps_guarantees", fig4_compression_keeps_guarantees},
	{"next_event_follows_the_plan", next_event_follows_the_plan},
	{"kill_at_estimate", kill_at_estimate},
	{"late_caller_catches_up", late_caller_catches_up},
	{"on_time_end_compresses", on_time_end_compresses},
	{"same_instant_ends_in_any_order", same_instant_ends_in_any_order},
	{"cancel_compresses", cancel_compresses},
	{"compress_depth_bounds_the_moves", compress_depth_bounds_the_moves},
	{"reservation_depth_bounds_the_reservations", reservation_depth_bounds_the_reservations},
	{"reservation_depth_tuned_live", reservation_depth_tuned_live},
	{"reservation_depth_backfills_beyond", reservation_depth_backfills_beyond},
	{"policy_switch", policy_switch},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("policies", tests, argc, argv);
}
