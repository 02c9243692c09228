/* SPDX-License-Identifier: MIT */
/* Unit tests of the availability profile, against a brute-force array of time steps. */
#include <string.h>

#include "harness.h"
#include "sched/err.h"
#include "profile.h"

#define PROCS 16
#define MAX_RES 64
#define SEGS (2 * MAX_RES + 1)
#define HORIZON 4096 /* every reservation ends well before this */

struct fixture {
	struct sched_seg storage[SEGS];
	struct sched_pool pool;
	struct sched_profile p;
#ifdef SCHED_PROFILE_FLAT
	_Alignas(8) uint32_t flat[SCHED_FLAT_BYTES(SEGS) / sizeof(uint32_t)];
#endif
};

#ifdef SCHED_PROFILE_FLAT
/* The tests run twice in a flat build: on the list alone, then with the flat copy attached
 * (whose checking build compares it with the list after every call). */
static bool use_flat;
#endif

static void setup(struct fixture *f, sched_time_t origin)
{
	sched_pool_init(&f->pool, f->storage, sizeof f->storage[0], offsetof(struct sched_seg, link),
			SEGS);
	int err = sched_profile_init(&f->p, &f->pool, PROCS, origin);
	(void)err;
#ifdef SCHED_PROFILE_FLAT
	if (use_flat)
		sched_profile_attach_flat(&f->p, f->flat, SEGS);
#endif
}

/* The reference: free processors at each whole second. */
struct ref {
	int free[HORIZON];
	sched_time_t origin;
};

static void ref_init(struct ref *r, sched_time_t origin)
{
	for (int t = 0; t < HORIZON; t++)
		r->free[t] = PROCS;
	r->origin = origin;
}

static bool ref_fits(const struct ref *r, sched_time_t start, sched_time_t dur, int procs)
{
	for (sched_time_t t = start; t < start + dur; t++)
		if (r->free[t] < procs)
			return false;
	return true;
}

static sched_time_t ref_find(const struct ref *r, sched_time_t earliest, sched_time_t dur, int procs)
{
	if (earliest < r->origin)
		earliest = r->origin;
	for (sched_time_t t = earliest; t + dur < HORIZON; t++)
		if (ref_fits(r, t, dur, procs))
			return t;
	return SCHED_TIME_MAX;
}

static void ref_add(struct ref *r, sched_time_t start, sched_time_t dur, int delta)
{
	for (sched_time_t t = start; t < start + dur; t++)
		r->free[t] += delta;
}

/* Profile and reference agree at every second from the origin to the horizon. */
static bool agrees(const struct sched_profile *p, const struct ref *r)
{
	if (sched_profile_check(p) != SCHED_OK)
		return false;
	if (sched_profile_origin(p) != r->origin)
		return false;
	/* Walk segments and seconds together: O(horizon). */
	const struct sched_seg *s = sched_profile_first(p);
	for (sched_time_t t = r->origin; t < HORIZON; t++) {
		while (sched_seg_end(s) <= t)
			s = sched_profile_next(p, s);
		if ((int)s->free != r->free[t])
			return false;
	}
	return true;
}

/* A copy of the segment list, to prove that refused calls change nothing. */
struct snapshot {
	uint32_t n;
	sched_time_t time[SEGS];
	sched_procs_t free[SEGS];
};

static void snap(const struct sched_profile *p, struct snapshot *s)
{
	s->n = 0;
	for (const struct sched_seg *g = sched_profile_first(p); g; g = sched_profile_next(p, g)) {
		s->time[s->n] = g->time;
		s->free[s->n] = g->free;
		s->n++;
	}
}

static bool same(const struct snapshot *a, const struct snapshot *b)
{
	return a->n == b->n && memcmp(a->time, b->time, a->n * sizeof a->time[0]) == 0 &&
	       memcmp(a->free, b->free, a->n * sizeof a->free[0]) == 0;
}

static void empty_profile(void)
{
	struct fixture f;
	setup(&f, 100);
	CHECK_EQ(f.p.count, 1);
	CHECK_EQ(sched_profile_origin(&f.p), 100);
	CHECK_EQ(sched_profile_free_at(&f.p, 100), PROCS);
	CHECK_EQ(sched_profile_free_at(&f.p, 5), PROCS); /* before the origin reads as the origin */
	CHECK_EQ(sched_profile_find(&f.p, 0, PROCS, 1000), 100);
	CHECK_EQ(sched_profile_find(&f.p, 150, 1, 1), 150);
	CHECK_EQ(sched_profile_find(&f.p, 0, PROCS + 1, 1), SCHED_TIME_MAX);
	CHECK_EQ(sched_profile_find(&f.p, 0, 0, 1), SCHED_TIME_MAX);
	CHECK_EQ(sched_profile_find(&f.p, 0, 1, 0), SCHED_TIME_MAX);
	CHECK_EQ(sched_profile_check(&f.p), SCHED_OK);
}

/* Split in the middle of a period, then merge back to one segment on release. */
static void split_and_merge(void)
{
	struct fixture f;
	setup(&f, 0);
	CHECK_EQ(sched_profile_reserve(&f.p, 10, 20, 4), SCHED_OK);
	CHECK_EQ(f.p.count, 3); /* [0,10) 16, [10,30) 12, [30,inf) 16 */
	CHECK_EQ(sched_profile_free_at(&f.p, 9), 16);
	CHECK_EQ(sched_profile_free_at(&f.p, 10), 12);
	CHECK_EQ(sched_profile_free_at(&f.p, 29), 12);
	CHECK_EQ(sched_profile_free_at(&f.p, 30), 16);
	/* An adjacent reservation of the same width merges with the first. */
	CHECK_EQ(sched_profile_reserve(&f.p, 30, 10, 4), SCHED_OK);
	CHECK_EQ(f.p.count, 3);
	CHECK_EQ(sched_profile_free_at(&f.p, 39), 12);
	CHECK_EQ(sched_profile_release(&f.p, 10, 30, 4), SCHED_OK);
	CHECK_EQ(f.p.count, 1);
	CHECK_EQ(f.pool.used, 1);
	CHECK_EQ(sched_profile_check(&f.p), SCHED_OK);
}

/* The anchor must hold for the whole duration, skipping a hole that is too short (seed 000 Fig. 2, 2b-iii). */
static void anchor_skips_short_holes(void)
{
	struct fixture f;
	setup(&f, 0);
	CHECK_EQ(sched_profile_reserve(&f.p, 0, 10, 10), SCHED_OK);  /* 6 free in [0,10) */
	CHECK_EQ(sched_profile_reserve(&f.p, 15, 10, 12), SCHED_OK); /* 4 free in [15,25) */
	/* 8 processors: free in [10,15) only, 5 s long: a job of 5 s fits, one of 6 s must wait. */
	CHECK_EQ(sched_profile_find(&f.p, 0, 8, 5), 10);
	CHECK_EQ(sched_profile_find(&f.p, 0, 8, 6), 25);
	CHECK_EQ(sched_profile_find(&f.p, 0, 4, 100), 0);
	CHECK_EQ(sched_profile_find(&f.p, 0, 5, 100), 25);
}

static void refusals_change_nothing(void)
{
	struct fixture f;
	setup(&f, 50);
	CHECK_EQ(sched_profile_reserve(&f.p, 60, 10, 10), SCHED_OK);
	struct snapshot before, after;
	snap(&f.p, &before);
	CHECK_EQ(sched_profile_reserve(&f.p, 55, 10, 7), SCHED_E_RANGE); /* only 6 free at 60 */
	CHECK_EQ(sched_profile_reserve(&f.p, 40, 5, 1), SCHED_E_RANGE);  /* before the origin */
	CHECK_EQ(sched_profile_reserve(&f.p, 60, 0, 1), SCHED_E_INVAL);
	CHECK_EQ(sched_profile_reserve(&f.p, 60, 1, 0), SCHED_E_INVAL);
	CHECK_EQ(sched_profile_reserve(&f.p, 60, SCHED_TIME_MAX - 10, 1), SCHED_E_RANGE);
	CHECK_EQ(sched_profile_release(&f.p, 50, 20, 1), SCHED_E_RANGE); /* 16 already free in [50,60) */
	CHECK_EQ(sched_profile_release(&f.p, 60, 10, 11), SCHED_E_RANGE);
	snap(&f.p, &after);
	CHECK(same(&before, &after));
	/* Pool exhaustion: no split possible, and nothing changes. */
	f.pool.limit = f.pool.used;
	CHECK_EQ(sched_profile_reserve(&f.p, 52, 3, 1), SCHED_E_NOSPACE);
	CHECK_EQ(sched_profile_release(&f.p, 62, 3, 1), SCHED_E_NOSPACE);
	/* ...but an operation that needs no split still works. */
	CHECK_EQ(sched_profile_reserve(&f.p, 60, 10, 1), SCHED_OK);
	CHECK_EQ(sched_profile_release(&f.p, 60, 10, 1), SCHED_OK);
	snap(&f.p, &after);
	CHECK(same(&before, &after));
	CHECK_EQ(sched_profile_check(&f.p), SCHED_OK);
}

/*
 * A profile written as a step function (restart, then appends) is the same
 * list as the one reservations make: three jobs ending at 30, 30 and 70 on
 * a machine of 16, from 10 on, against reserve() of each.
 */
static void restart_writes_the_same_list(void)
{
	static struct fixture f, g;
	setup(&f, 10);
	CHECK_EQ(sched_profile_reserve(&f.p, 10, 20, 3), SCHED_OK);
	CHECK_EQ(sched_profile_reserve(&f.p, 10, 20, 2), SCHED_OK);
	CHECK_EQ(sched_profile_reserve(&f.p, 10, 60, 4), SCHED_OK);
	setup(&g, 0);
	CHECK_EQ(sched_profile_reserve(&g.p, 5, 100, 1), SCHED_OK); /* what was there goes */
	CHECK_EQ(sched_profile_restart(&g.p, &g.pool, PROCS, 10, 7, 2), SCHED_OK);
	sched_profile_append(&g.p, 30, 12);
	sched_profile_append(&g.p, 70, PROCS);
	struct snapshot a, b;
	snap(&f.p, &a);
	snap(&g.p, &b);
	CHECK(same(&a, &b));
	CHECK_EQ(g.pool.used, 3);
	CHECK_EQ(sched_profile_check(&g.p), SCHED_OK);
	/* No room for the steps asked: refused, and nothing changes. */
	g.pool.limit = g.pool.used;
	CHECK_EQ(sched_profile_restart(&g.p, &g.pool, PROCS, 10, 7, 3), SCHED_E_NOSPACE);
	snap(&g.p, &b);
	CHECK(same(&a, &b));
	CHECK_EQ(sched_profile_restart(&g.p, &g.pool, PROCS, 10, PROCS + 1, 0), SCHED_E_INVAL);
	/* Within the segments it holds, it needs no more from the pool. */
	CHECK_EQ(sched_profile_restart(&g.p, &g.pool, PROCS, 10, 7, 2), SCHED_OK);
	CHECK_EQ(g.pool.used, 1);
}

static void trim_forgets_the_past(void)
{
	struct fixture f;
	setup(&f, 0);
	CHECK_EQ(sched_profile_reserve(&f.p, 0, 10, 4), SCHED_OK);
	CHECK_EQ(sched_profile_reserve(&f.p, 20, 10, 8), SCHED_OK);
	sched_profile_trim(&f.p, 5);
	CHECK_EQ(sched_profile_origin(&f.p), 5);
	CHECK_EQ(sched_profile_free_at(&f.p, 5), 12);
	sched_profile_trim(&f.p, 10); /* exactly at a breakpoint */
	CHECK_EQ(sched_profile_origin(&f.p), 10);
	CHECK_EQ(sched_profile_free_at(&f.p, 10), 16);
	CHECK_EQ(f.p.count, 3);
	sched_profile_trim(&f.p, 1000);
	CHECK_EQ(f.p.count, 1);
	CHECK_EQ(sched_profile_origin(&f.p), 1000);
	CHECK_EQ(sched_profile_check(&f.p), SCHED_OK);
}

struct res {
	sched_time_t start, dur;
	int procs;
};

/* Thousands of random reserve/release/trim/find operations, each checked against the array. */
static void random_against_reference(void)
{
	struct fixture f;
	static struct ref r;
	struct res live[MAX_RES];
	int n = 0;
	struct test_rng rng;
	test_rng_seed(&rng, 2024);
	setup(&f, 0);
	ref_init(&r, 0);
	for (int step = 0; step < 20000; step++) {
		uint32_t op = test_rng_range(&rng, 0, 9);
		if (op <= 3 && n < MAX_RES) {
			/* Reserve at the anchor found by find(), which must equal the brute-force anchor. */
			sched_time_t earliest = r.origin + test_rng_range(&rng, 0, 60);
			sched_time_t dur = test_rng_range(&rng, 1, 40);
			int procs = (int)test_rng_range(&rng, 1, PROCS);
			sched_time_t want = ref_find(&r, earliest, dur, procs);
			sched_time_t got = sched_profile_find(&f.p, earliest, (sched_procs_t)procs, dur);
			CHECK_EQ(got, want);
			if (got + dur >= HORIZON - 64)
				continue;
			CHECK_EQ(sched_profile_reserve(&f.p, got, dur, (sched_procs_t)procs), SCHED_OK);
			ref_add(&r, got, dur, -procs);
			live[n++] = (struct res){got, dur, procs};
		} else if (op <= 5 && n < MAX_RES) {
			/* Reserve at a random place: succeeds exactly when the reference says it fits. */
			sched_time_t start = r.origin + test_rng_range(&rng, 0, 200);
			sched_time_t dur = test_rng_range(&rng, 1, 40);
			int procs = (int)test_rng_range(&rng, 1, PROCS);
			bool fits = ref_fits(&r, start, dur, procs);
			int err = sched_profile_reserve(&f.p, start, dur, (sched_procs_t)procs);
			CHECK_EQ(err, fits ? SCHED_OK : SCHED_E_RANGE);
			if (fits) {
				ref_add(&r, start, dur, -procs);
				live[n++] = (struct res){start, dur, procs};
			}
		} else if (op <= 8 && n > 0) {
			/* Release a whole reservation, or (sometimes) only its tail. */
			int k = (int)test_rng_range(&rng, 0, (uint32_t)n - 1);
			struct res *v = &live[k];
			if (v->start >= r.origin && test_rng_range(&rng, 0, 1) == 0) {
				/* Could it start earlier? The reference's anchor with its own slot free. */
				sched_time_t earliest = r.origin + test_rng_range(&rng, 0, 60);
				ref_add(&r, v->start, v->dur, v->procs);
				sched_time_t want = ref_find(&r, earliest, v->dur, v->procs);
				ref_add(&r, v->start, v->dur, -v->procs);
				CHECK_EQ(sched_profile_find_earlier(&f.p, earliest, (sched_procs_t)v->procs, v->dur,
								    v->start),
					 want < v->start ? want : SCHED_TIME_MAX);
			}
			sched_time_t from = v->start;
			if (test_rng_range(&rng, 0, 3) == 0 && v->dur > 1)
				from = v->start + test_rng_range(&rng, 1, v->dur - 1);
			if (from < r.origin)
				from = r.origin;
			sched_time_t end = v->start + v->dur;
			if (end > from) {
				CHECK_EQ(sched_profile_release(&f.p, from, end - from, (sched_procs_t)v->procs),
					 SCHED_OK);
				ref_add(&r, from, end - from, v->procs);
			}
			if (from > v->start && from > r.origin) {
				v->dur = from - v->start; /* the head stays reserved */
			} else {
				live[k] = live[--n];
			}
		} else {
			sched_time_t to = r.origin + test_rng_range(&rng, 0, 15);
			if (to > HORIZON / 2)
				continue;
			sched_profile_trim(&f.p, to);
			r.origin = to;
			/* Reservations wholly in the past are gone. */
			for (int k = 0; k < n;) {
				if (live[k].start + live[k].dur <= to)
					live[k] = live[--n];
				else
					k++;
			}
		}
		CHECK(agrees(&f.p, &r));
		CHECK(f.p.count <= 2u * (uint32_t)n + 1u);
		CHECK_EQ(f.pool.used, f.p.count);
	}
}

/*
 * Fill p (and the reference) with `count` random reservations that fit, of widths 1-4 (times 3 on
 * even seeds) so that widths repeat, starts 0-1500, lengths 1-80; their placements in live.
 */
static void reserve_random(struct fixture *f, struct ref *r, struct test_rng *rng, struct res *live, int count,
			  uint32_t seed)
{
	int n = 0;
	while (n < count) {
		sched_time_t start = test_rng_range(rng, 0, 1500), dur = test_rng_range(rng, 1, 80);
		int procs = (int)test_rng_range(rng, 1, 4) * (seed % 2 ? 1 : 3);
		if (!ref_fits(r, start, dur, procs))
			continue;
		CHECK_EQ(sched_profile_reserve(&f->p, start, dur, (sched_procs_t)procs), SCHED_OK);
		ref_add(r, start, dur, -procs);
		live[n++] = (struct res){start, dur, procs};
	}
}

/*
 * A compression with resumable scans (a no-op on the list): fill the
 * profile with random reservations, then move each, in order, to its
 * earliest start with its own slot free, as sched_compress() does; every
 * anchor must be the brute-force one, moves landing before and after the
 * saved scans alike. Widths repeat (1-4) so that scans do resume.
 */
static void compression_resumes_scans(void)
{
	for (uint32_t seed = 1; seed <= 40; seed++) {
		struct fixture f;
		static struct ref r;
		struct res live[MAX_RES];
		struct test_rng rng;
		test_rng_seed(&rng, seed);
		setup(&f, 0);
		ref_init(&r, 0);
		int n = MAX_RES;
		reserve_random(&f, &r, &rng, live, n, seed);
		for (int pass = 0; pass < 3; pass++) {
			sched_profile_resume(&f.p, true);
			sched_time_t earliest = test_rng_range(&rng, 0, 20);
			for (int k = 0; k < n; k++) {
				struct res *v = &live[k];
				ref_add(&r, v->start, v->dur, v->procs);
				sched_time_t want = ref_find(&r, earliest, v->dur, v->procs);
				sched_time_t got = v->start;
				int err = sched_profile_move_earlier(&f.p, earliest, (sched_procs_t)v->procs, v->dur,
								     v->start, &got);
				CHECK_EQ(err, want < v->start ? SCHED_OK : SCHED_E_RANGE);
				CHECK_EQ(got, want < v->start ? want : v->start);
				v->start = got;
				ref_add(&r, v->start, v->dur, -v->procs);
			}
			sched_profile_resume(&f.p, false);
			CHECK(agrees(&f.p, &r));
		}
	}
}

/*
 * sched_profile_move_from() against release then reserve on the reference:
 * random reservations, then random moves of them, short (the two placements
 * overlap, or just touch) and anywhere, earlier and later, one cursor carried
 * from move to move; a move that does not fit is refused and changes nothing.
 */
static void moves_against_reference(void)
{
	for (uint32_t seed = 1; seed <= 40; seed++) {
		struct fixture f;
		static struct ref r;
		struct res live[MAX_RES];
		struct test_rng rng;
		test_rng_seed(&rng, seed);
		setup(&f, 0);
		ref_init(&r, 0);
		int n = MAX_RES / 2;
		reserve_random(&f, &r, &rng, live, n, seed);
		const struct sched_seg *cur = NULL;
		for (int m = 0; m < 400; m++) {
			struct res *v = &live[test_rng_range(&rng, 0, (uint32_t)n - 1u)];
			sched_time_t to;
			if (m % 2) {
				to = test_rng_range(&rng, 0, 1500);
			} else {
				sched_time_t by = test_rng_range(&rng, 1, v->dur); /* by == dur: they touch */
				to = test_rng_range(&rng, 0, 1) && v->start >= by ? v->start - by : v->start + by;
			}
			if (to == v->start)
				continue;
			ref_add(&r, v->start, v->dur, v->procs);
			bool fits = ref_fits(&r, to, v->dur, v->procs);
			struct snapshot before, after;
			snap(&f.p, &before);
			CHECK_EQ(sched_profile_move_from(&f.p, &cur, v->start, to, v->dur, (sched_procs_t)v->procs),
				 fits ? SCHED_OK : SCHED_E_RANGE);
			if (fits) {
				v->start = to;
			} else {
				snap(&f.p, &after);
				CHECK(same(&before, &after));
			}
			ref_add(&r, v->start, v->dur, -v->procs);
			if (m % 16 == 0)
				CHECK(agrees(&f.p, &r));
		}
		CHECK(agrees(&f.p, &r));
	}
}

/*
 * With no spare segment: a move that needs splits is refused unchanged, and
 * move_earlier falls back to release then reserve, whose merges make the room.
 */
static void moves_in_a_full_pool(void)
{
	struct fixture f;
	setup(&f, 0);
	CHECK_EQ(sched_profile_reserve(&f.p, 10, 10, 4), SCHED_OK); /* 16 | 12 from 10 | 16 from 20 */
	f.pool.limit = f.pool.used;
	struct snapshot before, after;
	snap(&f.p, &before);
	const struct sched_seg *cur = NULL;
	CHECK_EQ(sched_profile_move_from(&f.p, &cur, 10, 5, 10, 4), SCHED_E_NOSPACE); /* splits at 5 and 15 */
	snap(&f.p, &after);
	CHECK(same(&before, &after));
	sched_time_t start = 0;
	CHECK_EQ(sched_profile_move_earlier(&f.p, 5, 4, 10, 10, &start), SCHED_OK);
	CHECK_EQ(start, 5);
	CHECK_EQ(sched_profile_free_at(&f.p, 4), 16);
	CHECK_EQ(sched_profile_free_at(&f.p, 5), 12);
	CHECK_EQ(sched_profile_free_at(&f.p, 14), 12);
	CHECK_EQ(sched_profile_free_at(&f.p, 15), 16);
	CHECK_EQ(f.p.count, 3);
	CHECK_EQ(sched_profile_check(&f.p), SCHED_OK);
}

#ifdef SCHED_PROFILE_FLAT
/* Every test above, with the flat copy attached. */
static void flat_copy_passes_them_all(void);
#endif

static const struct test tests[] = {
	{"empty_profile", empty_profile},
	{"split_and_merge", split_and_merge},
	{"anchor_skips_short_holes", anchor_skips_short_holes},
	{"refusals_change_nothing", refusals_change_nothing},
	{"restart_writes_the_same_list", restart_writes_the_same_list},
	{"trim_forgets_the_past", trim_forgets_the_past},
	{"random_against_reference", random_against_reference},
	{"compression_resumes_scans", compression_resumes_scans},
	{"moves_against_reference", moves_against_reference},
	{"moves_in_a_full_pool", moves_in_a_full_pool},
#ifdef SCHED_PROFILE_FLAT
	{"flat_copy_passes_them_all", flat_copy_passes_them_all},
#endif
	{NULL, NULL},
};

#ifdef SCHED_PROFILE_FLAT
static void flat_copy_passes_them_all(void)
{
	use_flat = true;
	for (const struct test *t = tests; t->fn != flat_copy_passes_them_all; t++)
		t->fn();
	use_flat = false;
}
#endif

int main(int argc, char **argv)
{
	return test_main("profile", tests, argc, argv);
}
