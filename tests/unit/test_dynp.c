/* SPDX-License-Identifier: MIT */
/*
 * The dynP family (seed 004): the deciders against Table 1 row by row,
 * re-planning in SJF/LJF/FCFS order against a brute-force reference, the
 * virtual schedules leaving the live one untouched, and basic dynP's bounds.
 */
#include <stdio.h>

#include "sched_fixture.h"
#include "test_params.h"
#include "sched_priv.h"

/* --- Table 1, typed in from the seed ------------------------------------------------------------ */

enum { F = SCHED_ORDER_FCFS, S = SCHED_ORDER_SJF, L = SCHED_ORDER_LJF, CUR = 9 };

struct row {
	const char *name;          /* the case as Table 1 numbers it */
	uint64_t q[3];             /* qualities of FCFS, SJF, LJF that fall in the case */
	int current;               /* the order in force (for the sub-cases), or -1: try all three */
	int simple, advanced;      /* the table's decisions; CUR = "current policy" */
};

static const struct row table1[] = {
	{"1", {5, 5, 5}, -1, F, CUR},
	{"2", {6, 4, 7}, -1, S, S},
	{"3", {4, 6, 7}, -1, F, F},
	{"4a", {5, 6, 4}, -1, L, L},
	{"4b", {5, 5, 4}, -1, L, L},
	{"4c", {6, 5, 4}, -1, L, L},
	{"4b", {7, 7, 3}, -1, L, L}, /* case 5: FCFS = SJF, LJF < FCFS: the same condition as 4b */
	{"6a", {5, 5, 8}, F, CUR, CUR},
	{"6b", {5, 5, 8}, S, F, CUR},
	{"6c", {5, 5, 8}, L, F, F},
	{"7", {6, 2, 6}, -1, S, S},
	{"8a", {5, 8, 5}, F, CUR, CUR},
	{"8b", {5, 8, 5}, S, F, F},
	{"8c", {5, 8, 5}, L, F, CUR},
	{"9", {2, 6, 6}, -1, F, F},
	{"10a", {8, 5, 5}, F, S, S},
	{"10b", {8, 5, 5}, S, CUR, CUR},
	{"10c", {8, 5, 5}, L, S, CUR},
};

static void deciders_follow_table1(void)
{
	for (size_t r = 0; r < sizeof table1 / sizeof table1[0]; r++) {
		const struct row *t = &table1[r];
		for (int cur = 0; cur < 3; cur++) {
			if (t->current >= 0 && cur != t->current)
				continue;
			enum sched_dynp_case c1, c2;
			enum sched_order simple = sched_dynp_decide(SCHED_DECIDER_SIMPLE, t->q, (enum sched_order)cur, &c1);
			enum sched_order adv = sched_dynp_decide(SCHED_DECIDER_ADVANCED, t->q, (enum sched_order)cur, &c2);
			int want_s = t->simple == CUR ? cur : t->simple;
			int want_a = t->advanced == CUR ? cur : t->advanced;
			if ((int)simple != want_s || (int)adv != want_a || c1 != c2 ||
			    strcmp(sched_dynp_case_name(c1), t->name) != 0) {
				char msg[128];
				snprintf(msg, sizeof msg, "case %s, current %d: simple %d (want %d), advanced %d (want %d), "
					 "classified %s", t->name, cur, (int)simple, want_s, (int)adv, want_a,
					 sched_dynp_case_name(c1));
				test_fail(__FILE__, __LINE__, msg);
				return;
			}
		}
	}
	/* The simple decider is the seed's pseudo-code: check it on every triple of small values. */
	for (uint64_t f = 0; f < 4; f++)
		for (uint64_t sj = 0; sj < 4; sj++)
			for (uint64_t lj = 0; lj < 4; lj++)
				for (int cur = 0; cur < 3; cur++) {
					uint64_t q[3] = {f, sj, lj};
					int want = sj <= lj ? (f <= sj ? F : S) : (f <= lj ? F : L);
					CHECK_EQ(sched_dynp_decide(SCHED_DECIDER_SIMPLE, q, (enum sched_order)cur, NULL), want);
					enum sched_dynp_case c;
					enum sched_order a = sched_dynp_decide(SCHED_DECIDER_ADVANCED, q, (enum sched_order)cur, &c);
					/* The advanced decider never picks an order strictly worse than another. */
					CHECK(q[a] <= f && q[a] <= sj && q[a] <= lj);
					CHECK((unsigned)c < SCHED_CASE_COUNT);
				}
	CHECK(strcmp(sched_order_name(SCHED_ORDER_LJF), "ljf") == 0);
	/* Deciders and qualities are the registry's CHOICE parameters. */
	uint32_t v;
	CHECK_EQ(sched_param_parse(sched_param_find("decider", NULL), "simple", &v), SCHED_OK);
	CHECK_EQ(v, SCHED_DECIDER_SIMPLE);
	CHECK_EQ(sched_param_parse(sched_param_find("quality", NULL), "ms", &v), SCHED_OK);
	CHECK_EQ(v, SCHED_QUALITY_MS);
	CHECK_EQ(sched_param_parse(sched_param_find("quality", NULL), "wait", &v), SCHED_E_INVAL);
}

/* --- re-planning in order, against a brute-force reference ----------------------------------------- */

struct rjob {
	uint32_t id;
	sched_procs_t procs;
	sched_time_t est, arrival_order, start;
	int state; /* 0 not yet, 1 waiting, 2 running, 3 done */
};

/* Free processors of the reference over [t, t + d): machine minus every busy interval that overlaps. */
static bool ref_fits(const sched_time_t (*iv)[3], int n, sched_procs_t machine, sched_time_t t, sched_time_t d,
		     sched_procs_t procs)
{
	/* Check at t and at every interval start inside [t, t + d): the busy count only rises there. */
	for (int k = -1; k < n; k++) {
		sched_time_t at = k < 0 ? t : iv[k][0];
		if (at < t || at >= t + d)
			continue;
		sched_procs_t busy = 0;
		for (int m = 0; m < n; m++)
			if (iv[m][0] <= at && at < iv[m][1])
				busy += iv[m][2];
		if (busy + procs > machine)
			return false;
	}
	return true;
}

/*
 * The seed's re-planning by brute force: intervals of the running jobs, then
 * each waiting job in order at the earliest candidate time (now, or an end of
 * an interval) where it fits over its whole estimate.
 */
static void reference(struct rjob *js, int n, sched_procs_t machine, sched_time_t now, enum sched_order o,
		      sched_time_t *want)
{
	static sched_time_t iv[64][3];
	int ni = 0;
	for (int i = 0; i < n; i++)
		if (js[i].state == 2) {
			iv[ni][0] = js[i].start;
			iv[ni][1] = js[i].start + js[i].est;
			iv[ni][2] = js[i].procs;
			ni++;
		}
	int order[64], nw = 0;
	for (int i = 0; i < n; i++)
		if (js[i].state == 1)
			order[nw++] = i;
	for (int a = 1; a < nw; a++) /* insertion sort by the order's key, then arrival */
		for (int b = a; b > 0; b--) {
			const struct rjob *x = &js[order[b - 1]], *y = &js[order[b]];
			bool swap = o == SCHED_ORDER_SJF   ? (y->est < x->est || (y->est == x->est && y->arrival_order < x->arrival_order))
				    : o == SCHED_ORDER_LJF ? (y->est > x->est || (y->est == x->est && y->arrival_order < x->arrival_order))
							   : y->arrival_order < x->arrival_order;
			if (!swap)
				break;
			int t = order[b - 1];
			order[b - 1] = order[b];
			order[b] = t;
		}
	for (int k = 0; k < nw; k++) {
		struct rjob *j = &js[order[k]];
		sched_time_t best = SCHED_TIME_MAX;
		for (int c = -1; c < ni; c++) {
			sched_time_t t = c < 0 ? now : iv[c][1];
			if (t < now || t >= best)
				continue;
			if (ref_fits((const sched_time_t(*)[3])iv, ni, machine, t, j->est, j->procs))
				best = t;
		}
		want[order[k]] = best;
		iv[ni][0] = best;
		iv[ni][1] = best + j->est;
		iv[ni][2] = j->procs;
		ni++;
	}
}

static void replan_matches_reference(void)
{
	static struct fx f;
	static struct rjob js[40];
	static sched_time_t want[40];
	struct test_rng r;
	test_rng_seed(&r, 404);
	const enum sched_policy_id pols[3] = {SCHED_POLICY_FCFS_REPLAN, SCHED_POLICY_SJF, SCHED_POLICY_LJF};
	const enum sched_order ords[3] = {SCHED_ORDER_FCFS, SCHED_ORDER_SJF, SCHED_ORDER_LJF};
	int compared = 0;
	for (int round = 0; round < 60; round++) {
		int pi = round % 3;
		CHECK_EQ(fx_init(&f, pols[pi], 16), SCHED_OK);
		int n = (int)test_rng_range(&r, 6, 40);
		for (int i = 0; i < n; i++) {
			js[i] = (struct rjob){.id = (uint32_t)i + 1, .procs = (sched_procs_t)test_rng_range(&r, 1, 16),
					      .est = test_rng_range(&r, 1, 20) * 10, .arrival_order = (sched_time_t)i};
		}
		/* Everything arrives at 0 (the insertion order is arrival); the pass starts some. */
		for (int i = 0; i < n; i++) {
			CHECK_EQ(fx_submit(&f, js[i].id, js[i].procs, js[i].est, 0), SCHED_OK);
			js[i].state = 1;
		}
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		int seen = 0;
		/* Each step: one running job ends early, at a time before any estimate runs out. */
		for (sched_time_t t = 1; t < 10; t++) {
			for (; seen < f.n; seen++) {
				const struct sched_decision *d = &f.log[seen];
				struct rjob *j = &js[d->job - 1];
				j->state = d->kind == SCHED_DEC_START ? 2 : 3;
				j->start = d->time;
			}
			int victim = -1;
			for (int i = 0; i < n && victim < 0; i++)
				if (js[i].state == 2)
					victim = i;
			if (victim < 0)
				break;
			CHECK_EQ(sched_finish(f.s, js[victim].id, t), SCHED_OK);
			js[victim].state = 3;
			reference(js, n, 16, t, ords[pi], want);
			for (int i = 0; i < n; i++)
				if (js[i].state == 1) {
					CHECK_EQ(fx_predict(&f, js[i].id), want[i]);
					compared++;
				}
			CHECK_EQ(sched_check(f.s), SCHED_OK);
			CHECK_EQ(sched_advance(f.s, t), SCHED_OK);
		}
	}
	CHECK(compared > 500);
}

/* The hand example: a long and a short job behind a running one; an early end re-plans in order. */
static void orders_by_hand(void)
{
	static struct fx f;
	const enum sched_policy_id pols[3] = {SCHED_POLICY_FCFS_REPLAN, SCHED_POLICY_SJF, SCHED_POLICY_LJF};
	for (int p = 0; p < 3; p++) {
		CHECK_EQ(fx_init(&f, pols[p], 10), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 'R', 10, 100, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 'X', 10, 300, 1), SCHED_OK); /* placed at once: 100 */
		CHECK_EQ(fx_submit(&f, 'Y', 10, 50, 2), SCHED_OK);  /* behind it: 400 */
		CHECK_EQ(fx_predict(&f, 'X'), 100);
		CHECK_EQ(fx_predict(&f, 'Y'), 400);
		CHECK_EQ(sched_finish(f.s, 'R', 50), SCHED_OK); /* every waiting job placed again */
		bool sjf = pols[p] == SCHED_POLICY_SJF;
		CHECK_EQ(fx_predict(&f, 'X'), sjf ? 100 : 50);
		CHECK_EQ(fx_predict(&f, 'Y'), sjf ? 50 : 350);
		CHECK_EQ(sched_advance(f.s, 50), SCHED_OK);
		CHECK_EQ(fx_started(&f, sjf ? 'Y' : 'X'), 50);
		CHECK_EQ(fx_stats(&f).dynp.started[fx_stats(&f).order], 2); /* R and the one that started now */
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
}

/* --- self-tuning: the virtual schedules leave the live one as it was --------------------------- */

struct snapshot {
	sched_time_t start[FX_CAP];
	uint8_t part[FX_CAP], reserved[FX_CAP];
	sched_time_t seg_time[2 * FX_CAP + 8];
	sched_procs_t seg_free[2 * FX_CAP + 8];
	uint32_t segs, used_segs;
	struct sched_counters counters;
	struct sched_dynp_stats stats;
};

static void take(const struct sched *s, struct snapshot *x)
{
	memset(x, 0, sizeof *x);
	for (uint32_t id = 1; id <= FX_CAP; id++) {
		const struct sched_job *j = sched_find(s, id);
		if (j != NULL) {
			x->start[id - 1] = j->start;
			x->part[id - 1] = j->part;
			x->reserved[id - 1] = j->reserved;
		}
	}
	const struct sched_profile *p = sched_prof_c(s, 0);
	for (const struct sched_seg *g = sched_profile_first(p); g != NULL; g = sched_profile_next(p, g)) {
		x->seg_time[x->segs] = g->time;
		x->seg_free[x->segs] = g->free;
		x->segs++;
	}
	x->used_segs = s->segs.used;
	x->counters = s->counters;
	struct sched_stats st;
	sched_stats(s, &st);
	x->stats = st.dynp;
}

static void virtual_leaves_live_untouched(void)
{
	static struct fx f;
	static struct snapshot a, b;
	struct test_rng r;
	test_rng_seed(&r, 9);
	CHECK_EQ(fx_init(&f, SCHED_POLICY_DYNP, 32), SCHED_OK);
	for (uint32_t i = 1; i <= 40; i++)
		CHECK_EQ(fx_submit(&f, i, (sched_procs_t)test_rng_range(&r, 1, 32), test_rng_range(&r, 10, 5000), i),
			 SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 40), SCHED_OK);
	CHECK(fx_stats(&f).waiting > 20);
	/* The three virtual schedules, by hand, as a step computes them. */
	uint32_t n = 0;
	for (const struct sched_job *j = sched_first(f.s, SCHED_JOB_WAITING); j; j = sched_next(f.s, j))
		sched_scratch_jobs(f.s)[n++] = (struct sched_job *)j;
	take(f.s, &a);
	uint64_t q[3];
	for (int o = 0; o < 3; o++)
		CHECK(sched_dynp_virtual(f.s, (enum sched_order)(o == 0 ? 0 : o - 1), (enum sched_order)o, n, 0, &q[o]));
	take(f.s, &b);
	CHECK(memcmp(&a, &b, sizeof a) == 0);
	CHECK_EQ(sched_check(f.s), SCHED_OK);
	/* And each virtual schedule is what the live one becomes in that order: switch to the
	 * fixed-order policy and sum ARTwW's numerator over the waiting jobs' new reservations. */
	const enum sched_policy_id pols[3] = {SCHED_POLICY_FCFS_REPLAN, SCHED_POLICY_SJF, SCHED_POLICY_LJF};
	for (int o = 0; o < 3; o++) {
		CHECK_EQ(sched_set_policy(f.s, pols[o], 40), SCHED_OK);
		uint64_t live = 0;
		for (const struct sched_job *j = sched_first(f.s, SCHED_JOB_WAITING); j; j = sched_next(f.s, j))
			live += (uint64_t)j->procs * (j->start + j->estimate - j->submit);
		CHECK_EQ(live, q[o]);
	}
	CHECK(q[0] != q[1] || q[1] != q[2]); /* the orders do differ here */
}

/*
 * All three orders give the same schedule (equal estimates): Table 1 case 1.
 * The advanced decider keeps the order in force (SJF, chosen by an earlier
 * step), the simple one goes back to FCFS.
 */
static void equal_qualities_keep_current(void)
{
	static struct fx f;
	for (int d = 0; d < 2; d++) {
		struct sched_config cfg = {.procs = 10, .policy = SCHED_POLICY_DYNP};
		cfg = tp_set(cfg, "decider", d == 0 ? SCHED_DECIDER_ADVANCED : SCHED_DECIDER_SIMPLE);
		cfg = tp_set(tp_set(tp_set(cfg, "quality", SCHED_QUALITY_ARTWW), "lower", 7200), "upper", 9000);
		CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_OK);
		CHECK_EQ(fx_stats(&f).order, SCHED_ORDER_FCFS); /* "The initial policy is FCFS" */
		CHECK_EQ(fx_submit(&f, 'R', 10, 100, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 'A', 10, 300, 0), SCHED_OK);
		/* A and B: SJF puts B first, FCFS and LJF put A first: case 7, SJF. */
		CHECK_EQ(fx_submit(&f, 'B', 10, 50, 0), SCHED_OK);
		CHECK_EQ(fx_stats(&f).dynp.cases[SCHED_CASE_7], 1);
		CHECK_EQ(fx_stats(&f).order, SCHED_ORDER_SJF);
		CHECK_EQ(fx_predict(&f, 'B'), 100);
		CHECK_EQ(sched_cancel(f.s, 'A', 1), SCHED_OK); /* one job waiting: no step */
		CHECK_EQ(fx_stats(&f).dynp.calls, 1);
		CHECK_EQ(fx_submit(&f, 'C', 10, 50, 2), SCHED_OK); /* B and C alike: every order the same */
		CHECK_EQ(fx_stats(&f).dynp.calls, 2);
		CHECK_EQ(fx_stats(&f).dynp.cases[SCHED_CASE_1], 1);
		CHECK_EQ(fx_stats(&f).order, d == 0 ? SCHED_ORDER_SJF : SCHED_ORDER_FCFS);
		CHECK_EQ(fx_stats(&f).dynp.same, d == 0 ? 1 : 0);
		CHECK_EQ(fx_stats(&f).dynp.switches[SCHED_ORDER_SJF], 1);
		CHECK_EQ(fx_stats(&f).dynp.backlog, 2 + 2);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
}

/* Basic dynP: the waiting jobs' average estimate against the bounds, once 5 wait. */
static void basic_bounds(void)
{
	static struct fx f;
	const sched_time_t avg[3] = {7200, 7201, 9001}; /* SJF at the lower bound, FCFS just above, LJF above 9000 */
	const enum sched_order want[3] = {SCHED_ORDER_SJF, SCHED_ORDER_FCFS, SCHED_ORDER_LJF};
	for (int k = 0; k < 3; k++) {
		CHECK_EQ(fx_init(&f, SCHED_POLICY_DYNP_BASIC, 10), SCHED_OK);
		CHECK_EQ(fx_submit(&f, 100, 10, 100000, 0), SCHED_OK);
		CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
		for (uint32_t i = 0; i < 4; i++) /* four waiting: no decision yet */
			CHECK_EQ(fx_submit(&f, i + 1, 5, avg[k] + (i % 2 ? 100 : -100), 1), SCHED_OK);
		CHECK_EQ(fx_stats(&f).dynp.calls, 0);
		CHECK_EQ(fx_stats(&f).order, SCHED_ORDER_FCFS);
		CHECK_EQ(fx_submit(&f, 5, 5, avg[k], 1), SCHED_OK); /* five: the average is exactly avg[k] */
		CHECK_EQ(fx_stats(&f).dynp.calls, 1);
		CHECK_EQ(fx_stats(&f).order, want[k]);
		CHECK_EQ(fx_stats(&f).dynp.backlog, 5);
		CHECK_EQ(sched_check(f.s), SCHED_OK);
	}
	/* Bounds in the wrong order are refused. */
	struct sched_config cfg = {.procs = 10, .policy = SCHED_POLICY_DYNP_BASIC};
	cfg = tp_set(tp_set(cfg, "lower", 9000), "upper", 7200);
	CHECK_EQ(fx_init_cfg(&f, cfg), SCHED_E_INVAL);
}

/* Without room in the scratch the family compresses instead of re-planning, and says so. */
static void scratch_fallback(void)
{
	static struct fx f;
	struct sched_config cfg = {.procs = 10, .policy = SCHED_POLICY_SJF, .max_jobs = FX_CAP, .scratch_jobs = 3};
	f.n = 0;
	CHECK_EQ(sched_init(&f.s, &cfg, f.arena, sizeof f.arena, fx_record, &f, 0), SCHED_OK);
	harness_watch(f.s);
	CHECK_EQ(fx_submit(&f, 1, 10, 100, 0), SCHED_OK);
	CHECK_EQ(sched_advance(f.s, 0), SCHED_OK);
	for (uint32_t i = 2; i <= 6; i++)
		CHECK_EQ(fx_submit(&f, i, 10, 100 - 10 * i, 0), SCHED_OK);
	CHECK_EQ(sched_finish(f.s, 1, 10), SCHED_OK);
	CHECK(fx_stats(&f).counters.scratch_short > 0);
	CHECK_EQ(fx_predict(&f, 2), 10); /* compression: arrival order kept, nobody later */
	CHECK_EQ(sched_check(f.s), SCHED_OK);
}

/* The parameters can be tuned at run time; a refused tuning changes nothing. */
static void tune_parameters(void)
{
	static struct fx f;
	CHECK_EQ(fx_init(&f, SCHED_POLICY_DYNP, 10), SCHED_OK);
	const struct sched_config *live = sched_config_get(f.s);
	CHECK_EQ(tp_get(live, "decider"), SCHED_DECIDER_ADVANCED);
	CHECK_EQ(tp_get(live, "quality"), SCHED_QUALITY_ARTWW);
	CHECK_EQ(tp_get(live, "lower"), 7200);
	struct sched_config c = *live;
	c = tp_set(tp_set(c, "quality", SCHED_QUALITY_MS), "decider", SCHED_DECIDER_SIMPLE);
	CHECK_EQ(sched_tune(f.s, &c), SCHED_OK);
	CHECK_EQ(tp_get(live, "quality"), SCHED_QUALITY_MS);
	c = tp_set(c, "lower", 10000); /* above the upper bound */
	CHECK_EQ(sched_tune(f.s, &c), SCHED_E_INVAL);
	c = tp_set(c, "lower", 100);
	CHECK_EQ(tp_put(&c, "decider", SCHED_DECIDER_COUNT), SCHED_E_RANGE); /* never reaches the area */
	CHECK_EQ(tp_get(live, "lower"), 7200);
	CHECK_EQ(tp_get(live, "decider"), SCHED_DECIDER_SIMPLE);
}

static const struct test tests[] = {
	{"deciders_follow_table1", deciders_follow_table1},
	{"orders_by_hand", orders_by_hand},
	{"replan_matches_reference", replan_matches_reference},
	{"virtual_leaves_live_untouched", virtual_leaves_live_untouched},
	{"equal_qualities_keep_current", equal_qualities_keep_current},
	{"basic_bounds", basic_bounds},
	{"scratch_fallback", scratch_fallback},
	{"tune_parameters", tune_parameters},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("dynp", tests, argc, argv);
}
