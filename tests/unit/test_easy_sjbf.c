/* SPDX-License-Identifier: MIT */
/*
 * EASY with shortest-job-first backfilling against an independent brute-force reference.
 *
 * The reference below is written from the algorithm's description (pyss's EasySJBFScheduler, after
 * Tsafrir, Etsion and Feitelson 2007), not from core/src: at each instant, the jobs that end leave,
 * the jobs that arrive join the queue, then one pass starts the queue's head while it fits, gives the
 * head that does not fit its reservation (the shadow time, when enough processors are free by the
 * running jobs' estimates, and the extra processors then), and tries the rest of the queue in
 * ascending estimate (ties: arrival), starting each that fits now and either ends by the shadow time
 * or fits in the extra processors. A job runs min(run time, estimate): the core kills it at its
 * estimate. Both see the same instants: the core's convention (ends, arrivals, one pass), where pyss
 * passes once per event (docs/policies.md says where that differs).
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sched/sched.h"

#define MAXJ 400

struct wl {
	uint32_t n, procs;
	sched_time_t submit[MAXJ], run[MAXJ], est[MAXJ];
	sched_procs_t width[MAXJ];
};

/* ---- the reference: arrays, O(n^2) a pass, nothing shared with the core ---- */

struct ref {
	sched_time_t start[MAXJ];
	int state[MAXJ]; /* 0 not arrived, 1 waiting, 2 running, 3 done */
};

static sched_time_t ref_end(const struct wl *w, const struct ref *r, uint32_t i)
{
	return r->start[i] + (w->run[i] < w->est[i] ? w->run[i] : w->est[i]);
}

static uint32_t ref_free(const struct wl *w, const struct ref *r)
{
	uint32_t busy = 0;
	for (uint32_t i = 0; i < w->n; i++)
		if (r->state[i] == 2)
			busy += w->width[i];
	return w->procs - busy;
}

/* The head's shadow time and the extra processors at it, by the running jobs' estimates. */
static void ref_shadow(const struct wl *w, const struct ref *r, uint32_t head, sched_time_t *shadow,
		       uint32_t *extra)
{
	uint32_t avail = ref_free(w, r);
	sched_time_t t = 0;
	while (avail < w->width[head]) {
		sched_time_t next = SCHED_TIME_MAX;
		for (uint32_t i = 0; i < w->n; i++)
			if (r->state[i] == 2 && r->start[i] + w->est[i] > t && r->start[i] + w->est[i] < next)
				next = r->start[i] + w->est[i];
		t = next;
		for (uint32_t i = 0; i < w->n; i++)
			if (r->state[i] == 2 && r->start[i] + w->est[i] == t)
				avail += w->width[i];
	}
	*shadow = t;
	*extra = avail - w->width[head];
}

/* The tail's order: shortest estimate first (SJBF), or arrival (plain EASY, which checks the reference
 * itself against the core's EASY). */
static bool ref_by_estimate = true;

static void ref_pass(const struct wl *w, struct ref *r, sched_time_t now)
{
	uint32_t head = MAXJ;
	for (uint32_t i = 0; i < w->n; i++) { /* the queue is in arrival order: the index */
		if (r->state[i] != 1)
			continue;
		if (w->width[i] <= ref_free(w, r)) {
			r->state[i] = 2;
			r->start[i] = now;
			continue;
		}
		head = i;
		break;
	}
	if (head == MAXJ)
		return;
	sched_time_t shadow;
	uint32_t extra, free_now = ref_free(w, r);
	ref_shadow(w, r, head, &shadow, &extra);
	bool tried[MAXJ] = {false};
	for (;;) { /* the tail, shortest estimate first, ties in arrival order */
		uint32_t best = MAXJ;
		for (uint32_t i = head + 1; i < w->n; i++)
			if (r->state[i] == 1 && !tried[i] &&
			    (best == MAXJ || (ref_by_estimate && w->est[i] < w->est[best])))
				best = i;
		if (best == MAXJ)
			break;
		tried[best] = true;
		bool by_shadow = now + w->est[best] <= shadow;
		if (w->width[best] <= free_now && (by_shadow || w->width[best] <= extra)) {
			r->state[best] = 2;
			r->start[best] = now;
			free_now -= w->width[best];
			if (!by_shadow)
				extra -= w->width[best];
		}
	}
}

static void ref_run(const struct wl *w, struct ref *r)
{
	memset(r, 0, sizeof *r);
	for (;;) {
		sched_time_t t = SCHED_TIME_MAX;
		for (uint32_t i = 0; i < w->n; i++) {
			if (r->state[i] == 0 && w->submit[i] < t)
				t = w->submit[i];
			if (r->state[i] == 2 && ref_end(w, r, i) < t)
				t = ref_end(w, r, i);
		}
		if (t == SCHED_TIME_MAX)
			return;
		for (uint32_t i = 0; i < w->n; i++)
			if (r->state[i] == 2 && ref_end(w, r, i) == t)
				r->state[i] = 3;
		for (uint32_t i = 0; i < w->n; i++)
			if (r->state[i] == 0 && w->submit[i] == t)
				r->state[i] = 1;
		ref_pass(w, r, t);
	}
}

/* ---- the core, through its public API ---- */

static sched_time_t core_start[MAXJ];

static void on_decision(void *ctx, const struct sched_decision *d)
{
	(void)ctx;
	if (d->kind == SCHED_DEC_START && d->job < MAXJ)
		core_start[d->job] = d->time;
}

static _Alignas(16) unsigned char arena[SCHED_ARENA_SIZE_SCRATCH(MAXJ, MAXJ)];
/* The scratch the core gets: all of the backlog, or (every other workload) too little, so that the
 * policy's fallback order (a scan per candidate) is checked against the same reference. */
static uint32_t scratch_jobs = MAXJ;

/* Drive the core as the replay engine does; SCHED_OK or the first error. */
static int core_run(const struct wl *w, enum sched_policy_id policy)
{
	struct sched *s;
	struct sched_config cfg = {.procs = w->procs, .max_jobs = MAXJ, .policy = policy, .scratch_jobs = scratch_jobs};
	for (uint32_t i = 0; i < MAXJ; i++)
		core_start[i] = SCHED_TIME_MAX;
	int rc = sched_init(&s, &cfg, arena, sizeof arena, on_decision, NULL, 0);
	if (rc != SCHED_OK)
		return rc;
	bool done[MAXJ] = {false};
	uint32_t next = 0;
	for (;;) {
		sched_time_t t = sched_next_event(s);
		if (next < w->n && w->submit[next] < t)
			t = w->submit[next];
		for (uint32_t i = 0; i < next; i++)
			if (!done[i] && core_start[i] != SCHED_TIME_MAX && w->run[i] < w->est[i] &&
			    core_start[i] + w->run[i] < t)
				t = core_start[i] + w->run[i];
		if (t == SCHED_TIME_MAX)
			return SCHED_OK;
		for (uint32_t i = 0; i < next; i++) {
			if (done[i] || core_start[i] == SCHED_TIME_MAX)
				continue;
			if (w->run[i] < w->est[i] && core_start[i] + w->run[i] == t) {
				if ((rc = sched_finish(s, i, t)) != SCHED_OK)
					return rc;
				done[i] = true;
			} else if (core_start[i] + w->est[i] <= t) {
				done[i] = true; /* the core kills it at its estimate in this advance */
			}
		}
		for (; next < w->n && w->submit[next] == t; next++) {
			struct sched_job_desc d = sched_desc(next, w->width[next], w->est[next]);
			if ((rc = sched_submit(s, &d, t)) != SCHED_OK)
				return rc;
		}
		if ((rc = sched_advance(s, t)) != SCHED_OK)
			return rc;
		if ((rc = sched_check(s)) != SCHED_OK)
			return rc;
	}
}

static void make_workload(struct wl *w, uint64_t seed, uint32_t n)
{
	struct test_rng g;
	test_rng_seed(&g, seed);
	w->n = n;
	w->procs = test_rng_range(&g, 8, 64);
	sched_time_t t = 0;
	for (uint32_t i = 0; i < n; i++) {
		t += test_rng_range(&g, 0, 3) == 0 ? 0 : test_rng_range(&g, 1, 40); /* same-second arrivals too */
		w->submit[i] = t;
		w->width[i] = (sched_procs_t)test_rng_range(&g, 1, w->procs);
		w->run[i] = test_rng_range(&g, 1, 300);
		/* Estimates above, equal to and (killed) below the run time; many equal estimates, for the ties. */
		uint32_t k = test_rng_range(&g, 0, 9);
		w->est[i] = k == 0 ? w->run[i] : k == 1 ? test_rng_range(&g, 1, w->run[i]) :
			    k < 5 ? 100u * test_rng_range(&g, 1, 4) : w->run[i] + test_rng_range(&g, 0, 500);
	}
}

static uint32_t first_difference(const struct wl *w, const struct ref *r)
{
	for (uint32_t i = 0; i < w->n; i++)
		if (core_start[i] != r->start[i])
			return i;
	return MAXJ;
}

/* 300 random workloads at saturation under @p policy against the reference. @return 0 if every job's
 * start equals, else 1000 x the workload's seed + the first job that differs (core_start and the
 * reference's start then show it); -1 if the core refused a call. *@p reordered counts the jobs that
 * started before an earlier, longer one (SJBF's mark). */
static long long against_reference(enum sched_policy_id policy, bool by_estimate, unsigned *reordered)
{
	static struct wl w;
	static struct ref r;
	ref_by_estimate = by_estimate;
	*reordered = 0;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		make_workload(&w, seed, seed % 3 == 0 ? MAXJ : 60);
		scratch_jobs = seed % 2 ? MAXJ : 4;
		ref_run(&w, &r);
		if (core_run(&w, policy) != SCHED_OK)
			return -1;
		uint32_t i = first_difference(&w, &r);
		if (i != MAXJ)
			return (long long)(seed * 1000 + i);
		for (uint32_t a = 0; a < w.n; a++)
			for (uint32_t b = a + 1; b < w.n; b++)
				if (r.start[b] < r.start[a] && w.est[b] < w.est[a] && r.start[a] > w.submit[b])
					(*reordered)++;
	}
	scratch_jobs = MAXJ;
	return 0;
}

static unsigned reordered_sjbf, reordered_easy;

/* The reference with the tail in arrival order is EASY: it agrees with the core's EASY, so what the
 * SJBF test compares against is right where the two policies share their rules. */
static void reference_is_easy(void)
{
	long long diff = against_reference(SCHED_POLICY_EASY, false, &reordered_easy);
	ref_by_estimate = true;
	CHECK_EQ(diff, 0);
}

static void matches_reference(void)
{
	CHECK_EQ(against_reference(SCHED_POLICY_EASY_SJBF, true, &reordered_sjbf), 0);
	/* The order shows: shorter jobs overtake longer earlier ones more often than under EASY. */
	CHECK(reordered_sjbf > reordered_easy);
}

/* The shadow and the extra processors, by hand: machine 12; A holds 6 until 100; head H needs 10
 * (shadow 100, extra 2). B (4 procs, 150 s), C (4 procs, 50 s) and D (2 procs, 200 s) arrive together:
 * C ends by the shadow and starts; B, past the shadow and wider than the extra, waits for H's end; D,
 * past the shadow too, fits in the extra 2 and starts. */
static void by_hand(void)
{
	static struct wl w;
	static struct ref r;
	memset(&w, 0, sizeof w);
	w.n = 5;
	w.procs = 12;
	const sched_time_t sub[] = {0, 1, 2, 2, 2}, run[] = {100, 100, 150, 50, 200}, est[] = {100, 100, 150, 50, 200};
	const sched_procs_t wid[] = {6, 10, 4, 4, 2};
	for (uint32_t i = 0; i < w.n; i++) {
		w.submit[i] = sub[i];
		w.run[i] = run[i];
		w.est[i] = est[i];
		w.width[i] = wid[i];
	}
	ref_run(&w, &r);
	CHECK_EQ(r.start[3], 2);   /* C, shortest, ends by the shadow */
	CHECK_EQ(r.start[4], 2);   /* D, in the extra 2 */
	CHECK_EQ(r.start[1], 100); /* H keeps its reservation */
	CHECK_EQ(r.start[2], 200); /* B after H */
	CHECK_EQ(core_run(&w, SCHED_POLICY_EASY_SJBF), SCHED_OK);
	for (uint32_t i = 0; i < w.n; i++)
		CHECK_EQ(core_start[i], r.start[i]);
}

/* Where SJBF and EASY differ: two candidates that cannot both start. Machine 10; A holds 8 until 100;
 * H needs 10 (shadow 100, extra 0). B (2 procs, 90 s) then C (2 procs, 60 s) arrive: only 2 are free,
 * EASY would start B (first in arrival order), SJBF starts C (the shorter); B then waits for H's end. */
static void differs_from_easy(void)
{
	static struct wl w;
	static struct ref r;
	memset(&w, 0, sizeof w);
	w.n = 4;
	w.procs = 10;
	const sched_time_t sub[] = {0, 1, 2, 2}, est[] = {100, 100, 90, 60};
	const sched_procs_t wid[] = {8, 10, 2, 2};
	for (uint32_t i = 0; i < w.n; i++) {
		w.submit[i] = sub[i];
		w.run[i] = est[i];
		w.est[i] = est[i];
		w.width[i] = wid[i];
	}
	ref_run(&w, &r);
	CHECK_EQ(r.start[3], 2);
	CHECK_EQ(r.start[2], 200);
	CHECK_EQ(core_run(&w, SCHED_POLICY_EASY_SJBF), SCHED_OK);
	CHECK_EQ(core_start[3], 2);
	CHECK_EQ(core_start[2], 200);
}

static const struct test tests[] = {
	{"by_hand", by_hand},
	{"differs_from_easy", differs_from_easy},
	{"reference_is_easy", reference_is_easy},
	{"matches_reference", matches_reference},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("easy_sjbf", tests, argc, argv);
}
