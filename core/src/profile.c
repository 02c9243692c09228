/* SPDX-License-Identifier: MIT */
/* The availability profile (seed 000 section 2.1): anchor search, reserve, release, merge. */
#include "profile.h"
#include "sched/err.h"
#ifdef SCHED_PROFILE_FLAT
#include "profile_scan.h"
#endif

static struct sched_seg *seg_of(struct sched_list *link)
{
	return SCHED_LIST_ENTRY(link, struct sched_seg, link);
}

static struct sched_seg *seg_next(const struct sched_seg *s)
{
	return seg_of(sched_list_next(&s->link));
}

static struct sched_seg *seg_prev(const struct sched_seg *s)
{
	return seg_of(sched_list_prev(&s->link));
}

static struct sched_pool *pool_of(const struct sched_profile *p)
{
	return sched_rel_get(&p->pool);
}

static bool is_end(const struct sched_profile *p, const struct sched_seg *s)
{
	return s == &p->end;
}

#ifdef SCHED_PROFILE_FLAT
/*
 * The flat profile (host builds, issue 30): the segments in two arrays in
 * time order (start time, free count), then a sentinel at index count (time
 * SCHED_TIME_MAX, free 0: a too-full scan stops there) and SCHED_FLAT_PAD
 * entries the vector scans may read. With one attached, the arrays are the
 * profile: searches and changes read and write them alone (binary search for
 * a time, vector scans for runs, memmove for a split or a merge), and the
 * list is a view rebuilt on demand. Its elements stay taken from the pool
 * (one per segment, so capacity and its errors are the list's to the
 * element), but a split links its new element anywhere and a merge unlinks
 * any, and the list is marked stale; sched_profile_first() rewrites the
 * elements in order from the arrays before anyone walks it. Keeping both in
 * step at every change cost more than all the searches (a walk of the list
 * over each interval, a third array of element indices to move).
 * SCHED_DEBUG builds run the list search beside the flat one (the list
 * rebuilt first) and compare answers.
 */
static bool has_flat(const struct sched_profile *p)
{
	return p->flat != 0;
}

static uint32_t *flat_time(const struct sched_profile *p)
{
	return sched_rel_get(&p->flat);
}

static uint32_t *flat_free(const struct sched_profile *p)
{
	return flat_time(p) + p->flat_cap;
}


/*
 * Resumable scans (issue 30 item 2). Within one compression a move changes
 * the profile only from its new start on, so what a scan of width w from
 * `earliest` learnt stays true before the point where it stopped: every run
 * (stretch with room for w) that starts before the too-full segment at
 * `at` ends by `at` and lasts at most `longest`. A later scan of the same
 * width and earliest, for a duration over `longest` and a limit after `at`,
 * would reject all of them, so it starts at `at`. A move to t <= at cuts
 * `at` back to the last too-full segment before t. 64 slots, by width.
 */
#define FLAT_RESUME_SLOTS 64u

struct flat_resume {
	uint32_t width;    /* 0: empty */
	sched_time_t earliest, at, longest;
	uint32_t at_index; /* at's entry: a move changes entries after it alone (flat_cut_back) */
};

/* SCHED_FLAT_BYTES counts 5 words a slot, then 4 for the used bits and the on flag. */
_Static_assert(sizeof(struct flat_resume) == 5u * sizeof(uint32_t), "a saved scan is five words");

static struct flat_resume *flat_resumes(const struct sched_profile *p)
{
	return (struct flat_resume *)(void *)(flat_time(p) + 2u * (size_t)p->flat_cap);
}

/* The slots saved since sched_profile_resume(p, true), one bit each (so that starting and
 * cutting back cost what is in use, not 64 slots). */
static uint64_t *flat_resume_used(const struct sched_profile *p)
{
	return (uint64_t *)(void *)(flat_resumes(p) + FLAT_RESUME_SLOTS);
}

/* Nonzero between sched_profile_resume(p, true) and the next change that is not a move. */
static uint32_t *flat_resume_on(const struct sched_profile *p)
{
	return (uint32_t *)(void *)(flat_resume_used(p) + 1);
}

void sched_profile_resume(struct sched_profile *p, bool on)
{
	if (!has_flat(p))
		return;
	*flat_resume_used(p) = 0;
	*flat_resume_on(p) = on;
}

/* Write entry i from list segment s. */
static void flat_put(struct sched_profile *p, uint32_t i, const struct sched_seg *s)
{
	flat_time(p)[i] = s->time;
	flat_free(p)[i] = s->free;
}

static void flat_sentinel(struct sched_profile *p)
{
	flat_time(p)[p->count] = SCHED_TIME_MAX;
	flat_free(p)[p->count] = 0;
}

/* Refill the arrays from the list. O(n): for the bulk calls (copy, attach). */
static void flat_fill(struct sched_profile *p)
{
	if (!has_flat(p))
		return;
	uint32_t i = 0;
	for (const struct sched_seg *s = sched_profile_first(p); !is_end(p, s); s = seg_next(s))
		flat_put(p, i++, s);
	flat_sentinel(p);
	p->list_stale = 0;
}

/* Index of the last segment starting at or before t (t not before the origin). O(log n). */
static uint32_t flat_index(const struct sched_profile *p, sched_time_t t)
{
	const uint32_t *time = flat_time(p);
	uint32_t lo = 0, hi = p->count; /* time[lo] <= t < time[hi] (the sentinel's is MAX) */
	while (hi - lo > 1u) {
		uint32_t mid = lo + (hi - lo) / 2u;
		if (time[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Move entries [from, count] (the sentinel included) by one: up to open a gap at `from`
 * (count already counts the new one), or down over entry from - 1. O(n - from) words. */
static void flat_shift(struct sched_profile *p, uint32_t from, bool up)
{
	/* memmove: the host's libc has it, and it moves at memory speed (the board never builds this). */
	uint32_t *cols[2] = { flat_time(p), flat_free(p) };
	size_t n = (size_t)(p->count - from + (up ? 0u : 1u)) * sizeof(uint32_t);
	for (unsigned c = 0; c < 2u; c++)
		__builtin_memmove(up ? cols[c] + from + 1u : cols[c] + from - 1u, cols[c] + from, n);
}

/* Do the list (rebuilt if stale) and the arrays hold the same segments? O(n). */
static bool flat_agrees(const struct sched_profile *p)
{
	uint32_t i = 0;
	for (const struct sched_seg *s = sched_profile_first(p); !is_end(p, s); s = seg_next(s), i++)
		if (i >= p->count || flat_time(p)[i] != s->time || flat_free(p)[i] != s->free)
			return false;
	return i == p->count && flat_time(p)[i] == SCHED_TIME_MAX && flat_free(p)[i] == 0;
}

#ifdef SCHED_DEBUG
/* Do the arrays alone keep the profile's invariants (sorted, merged, last fully free, the
 * sentinel), with one list element per segment? O(n): the checking build's, after each change. */
static bool flat_sound(const struct sched_profile *p)
{
	const uint32_t *time = flat_time(p), *free = flat_free(p);
	uint32_t n = p->count, elems = 0;
	for (const struct sched_list *l = sched_list_next(&p->end.link); l != &p->end.link; l = sched_list_next(l))
		elems++;
	if (n == 0 || elems != n || free[n - 1u] != p->procs || time[n] != SCHED_TIME_MAX || free[n] != 0)
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (free[i] > p->procs || time[i] >= time[i + 1u] || (i > 0 && free[i] == free[i - 1u]))
			return false;
	return true;
}
#endif

void sched_profile_sync(struct sched_profile *p)
{
	if (!p->list_stale)
		return;
	uint32_t i = 0;
	for (struct sched_list *l = sched_list_next(&p->end.link); l != &p->end.link; l = sched_list_next(l), i++) {
		struct sched_seg *g = seg_of(l);
		g->time = flat_time(p)[i];
		g->free = flat_free(p)[i];
	}
	SCHED_ASSERT(i == p->count);
	p->list_stale = 0;
}

/* A segment more: its list element is taken and linked at the end, out of order. O(1). */
static void flat_take_elem(struct sched_profile *p)
{
	sched_list_push_back(&p->end.link, &((struct sched_seg *)sched_pool_take(pool_of(p)))->link);
	p->list_stale = 1;
}

/* A segment fewer: the list's last element goes back to the pool, whichever it was. O(1). */
static void flat_drop_elem(struct sched_profile *p)
{
	struct sched_list *last = sched_list_prev(&p->end.link);
	sched_list_remove(last);
	sched_pool_free(pool_of(p), seg_of(last));
	p->list_stale = 1;
}

/*
 * A move is about to change the profile from t on (its reserve at t, its
 * release later): each saved scan that stopped at or after t resumes instead
 * from the last segment before t too full for its width, or from scratch.
 * O(slots x 16).
 */
static void flat_cut_back(struct sched_profile *p, sched_time_t t)
{
	const uint32_t *time = flat_time(p), *free = flat_free(p);
	uint32_t below = flat_index(p, t); /* entries below it start before t */
	if (time[below] < t)
		below++;
	for (uint64_t used = *flat_resume_used(p); used != 0; used &= used - 1u) {
		struct flat_resume *r = &flat_resumes(p)[__builtin_ctzll(used)];
		if (r->width == 0 || r->at < t)
			continue;
		/* A walk back past 16 entries is not worth its cost: start that width afresh. */
		uint32_t k = below, stop = below > 16u ? below - 16u : 0;
		while (k > stop && free[k - 1u] >= r->width)
			k--;
		if (k == stop && (k == 0 || free[k - 1u] >= r->width)) {
			r->width = 0;
		} else {
			r->at = time[k - 1u];
			r->at_index = k - 1u;
		}
	}
}

void sched_profile_attach_flat(struct sched_profile *p, void *storage, uint32_t segs)
{
	sched_rel_set(&p->flat, storage);
	p->flat_cap = (uint32_t)SCHED_FLAT_ENTRIES(segs);
	p->list_stale = 0;
	*flat_resume_on(p) = 0;
	if (p->pool != 0 && p->count > 0)
		flat_fill(p);
}

#endif

#if defined(SCHED_PROFILE_FLAT) && defined(SCHED_DEBUG)
/* After every change (the checking build): the arrays are a sound profile. O(n). */
#define FLAT_CHECK(p) SCHED_ASSERT(!has_flat(p) || flat_sound(p))
#else
#define FLAT_CHECK(p) ((void)0)
#endif

/* The header of a profile with no segment yet. */
static void setup(struct sched_profile *p, struct sched_pool *pool, sched_procs_t procs)
{
	sched_rel_set(&p->pool, pool);
	p->procs = procs;
	sched_list_init(&p->end.link);
	/* The sentinel's free count equals the machine so that scans stop on it. */
	p->end.time = SCHED_TIME_MAX;
	p->end.free = procs;
	p->count = 0;
#ifdef SCHED_PROFILE_FLAT
	p->list_stale = 0;
#endif
}

/* The header, and `first` as its only segment: "free processors free from origin on". */
static void begin(struct sched_profile *p, struct sched_pool *pool, sched_procs_t procs, struct sched_seg *first,
		  sched_time_t origin, sched_procs_t free)
{
	setup(p, pool, procs);
	first->time = origin;
	first->free = free;
	sched_list_push_back(&p->end.link, &first->link);
	p->count = 1;
#ifdef SCHED_PROFILE_FLAT
	if (has_flat(p)) {
		flat_put(p, 0, first);
		flat_sentinel(p);
		p->list_stale = 0;
	}
#endif
}

int sched_profile_init(struct sched_profile *p, struct sched_pool *pool, sched_procs_t procs,
		       sched_time_t origin)
{
	if (procs == 0 || origin == SCHED_TIME_MAX)
		return SCHED_E_INVAL;
	struct sched_seg *first = sched_pool_alloc(pool);
	if (first == NULL)
		return SCHED_E_NOSPACE;
#ifdef SCHED_PROFILE_FLAT
	p->flat = 0; /* a flat copy is attached after init (sched_profile_attach_flat) */
	p->list_stale = 0;
#endif
	begin(p, pool, procs, first, origin, procs);
	return SCHED_OK;
}

void sched_profile_clear(struct sched_profile *p)
{
	/* The segments go back in one splice (the sentinel is not one of them: it is the head). */
	sched_pool_free_all(pool_of(p), &p->end.link, p->count);
	p->count = 0;
}

/* Last segment whose period contains t; t must not be before the origin. */
static struct sched_seg *seg_at(const struct sched_profile *p, sched_time_t t)
{
	struct sched_seg *s = sched_profile_first(p);
	while (seg_next(s)->time <= t)
		s = seg_next(s);
	return s;
}

sched_procs_t sched_profile_free_at(const struct sched_profile *p, sched_time_t t)
{
	if (t < sched_profile_origin(p))
		t = sched_profile_origin(p);
#ifdef SCHED_PROFILE_FLAT
	if (has_flat(p))
		return flat_free(p)[flat_index(p, t)];
#endif
	return seg_at(p, t)->free;
}

/*
 * The anchor search of seed 000 Fig. 2 step 2b, as one forward sweep over
 * runs: a run is a stretch of consecutive segments with at least procs
 * free, and a candidate anchor is where a run starts (or earliest itself).
 * The first candidate whose run lasts dur seconds is the anchor; one too
 * full segment ends the run and the next candidate is the next run's start,
 * so no segment is read twice. No candidate may start at or after limit.
 * With own, the job's own reservation [limit, limit + dur) counts as free
 * (may it move earlier?): a run that reaches limit is long enough, since
 * the credit carries it to the candidate's end. It stops because the last
 * real segment (and the sentinel) have every processor free. O(segments).
 */
#ifdef SCHED_PROFILE_FLAT
#define LIST_SEARCH list_search /* search() chooses between it and flat_search() */
#else
#define LIST_SEARCH search /* the board's: the list alone, its code as it always was */
#endif
static sched_time_t LIST_SEARCH(const struct sched_profile *p, sched_time_t earliest, sched_procs_t procs,
				sched_time_t dur, sched_time_t limit, bool own, const struct sched_seg **at)
{
	if (procs == 0 || dur == 0 || procs > p->procs)
		return SCHED_TIME_MAX;
	if (earliest < sched_profile_origin(p))
		earliest = sched_profile_origin(p);
	const struct sched_seg *g = seg_at(p, earliest);
	sched_time_t cand = earliest;
	for (;;) {
		while (g->free < procs) {
			g = seg_next(g);
			if (g->time >= limit)
				return SCHED_TIME_MAX; /* no candidate can start before the limit */
			cand = g->time;
		}
		if (cand >= limit || dur > SCHED_TIME_MAX - 1 - cand)
			return SCHED_TIME_MAX;
		sched_time_t need = cand + dur;
		if (own && need > limit)
			need = limit;
		const struct sched_seg *first = g;
		while (sched_seg_end(g) < need && seg_next(g)->free >= procs)
			g = seg_next(g);
		if (sched_seg_end(g) >= need) {
			if (at != NULL)
				*at = first;
			return cand;
		}
		g = seg_next(g); /* too full: the next candidate is after it */
	}
}

#ifdef SCHED_PROFILE_FLAT
/* One search's question. */
struct flat_ask {
	sched_time_t earliest, dur, limit;
	sched_procs_t procs;
	bool own;
};

/*
 * list_search() on the arrays, a block of 16 free counts at a time: the
 * block's mask of too-full entries gives each run's start (the next clear
 * bit) and end (the next set bit) in a few bit operations, and a run is
 * long enough exactly when its end's time reaches `need`. The sentinel is
 * too full with time SCHED_TIME_MAX, so the walk ends at it at the latest.
 * Inlined into one function per path, with `path` a constant.
 * O(segments / 16 + runs).
 */
static inline __attribute__((always_inline)) sched_time_t
flat_search_on(const struct sched_profile *p, const struct flat_ask *q, enum sched_flat_path path, uint32_t *at,
	       const struct flat_resume *from, struct flat_resume *out)
{
	const uint32_t *time = flat_time(p), *free = flat_free(p);
	const sched_time_t dur = q->dur, limit = q->limit;
	const sched_procs_t procs = q->procs;
	sched_time_t cand = q->earliest, need = 0;
	sched_time_t longest = 0, last_full = 0; /* what r saves: see struct flat_resume */
	bool rejected = false, in_run;
	uint32_t i, last_full_i = 0;
	if (from != NULL) {
		i = from->at_index; /* a too-full segment: every run before it is too short */
		SCHED_ASSERT(time[i] == from->at && free[i] < procs);
		in_run = false;
		longest = from->longest;
		last_full = from->at;
		last_full_i = i;
		rejected = true;
	} else {
		i = flat_index(p, q->earliest);
		in_run = free[i] >= procs;
		if (in_run) {
			if (cand >= limit || dur > SCHED_TIME_MAX - 1 - cand)
				return SCHED_TIME_MAX;
			need = q->own && cand + dur > limit ? limit : cand + dur;
		}
	}
	sched_time_t t = SCHED_TIME_MAX;
	uint32_t start = i;
	for (uint32_t b = i + 1u;; b += 16u) {
		uint32_t full = sched_flat_mask(path, free + b, procs);
		uint32_t room = ~full & 0xffffu;
		unsigned j = 0; /* bits below j are done */
		for (;;) {
			if (!in_run) {
				uint32_t rest = room >> j;
				if (rest == 0)
					break;
				j += (unsigned)__builtin_ctz(rest);
				cand = time[b + j];
				if (cand >= limit || dur > SCHED_TIME_MAX - 1 - cand)
					goto done; /* no later run starts before the limit either */
				need = q->own && cand + dur > limit ? limit : cand + dur;
				start = b + j;
				in_run = true;
				if (++j == 16u)
					break;
			}
			uint32_t rest = full >> j;
			if (rest == 0)
				break;
			j += (unsigned)__builtin_ctz(rest);
			if (time[b + j] >= need) {
				*at = start;
				t = cand;
				goto done;
			}
			in_run = false; /* too full: the next candidate is after it */
			last_full = time[b + j];
			last_full_i = b + j;
			if (last_full - cand > longest)
				longest = last_full - cand;
			rejected = true;
			if (++j == 16u)
				break;
		}
	}
done:
	if (out != NULL && rejected)
		*out = (struct flat_resume){ .width = procs, .earliest = q->earliest, .at = last_full, .longest = longest,
					   .at_index = last_full_i };
	return t;
}

static sched_time_t flat_search_scalar(const struct sched_profile *p, const struct flat_ask *q, uint32_t *at,
					const struct flat_resume *from, struct flat_resume *out)
{
	return flat_search_on(p, q, SCHED_FLAT_SCALAR, at, from, out);
}

#if SCHED_FLAT_X86
__attribute__((target("sse2"))) static sched_time_t flat_search_sse2(const struct sched_profile *p,
								   const struct flat_ask *q, uint32_t *at,
					const struct flat_resume *from, struct flat_resume *out)
{
	return flat_search_on(p, q, SCHED_FLAT_SSE2, at, from, out);
}

__attribute__((target("avx2"))) static sched_time_t flat_search_avx2(const struct sched_profile *p,
								   const struct flat_ask *q, uint32_t *at,
					const struct flat_resume *from, struct flat_resume *out)
{
	return flat_search_on(p, q, SCHED_FLAT_AVX2, at, from, out);
}

__attribute__((target("avx512f"))) static sched_time_t flat_search_avx512(const struct sched_profile *p,
									 const struct flat_ask *q, uint32_t *at,
									 const struct flat_resume *from,
									 struct flat_resume *out)
{
	return flat_search_on(p, q, SCHED_FLAT_AVX512, at, from, out);
}
#endif

/*
 * The saved scan a question may start from: its own width's, from the same
 * earliest, for a duration over the longest run it rejected; one that
 * stopped at or past the limit answers alone (flat_saved_answer). A
 * narrower width's scan would serve too (a run with room for the question's
 * width lies inside one with room for the narrower), and on KTH at
 * --shrink 0.5 would spare half the segments the resumed scans read, but
 * finding the furthest among 64 slots (16 at a time with AVX-512) cost more
 * than it spared: 5.45 against 5.21 s. O(1).
 */
enum flat_saved { FLAT_NONE, FLAT_RESUME, FLAT_ANSWER };

static enum flat_saved flat_own_saved(const struct sched_profile *p, const struct flat_ask *q,
				      struct flat_resume *start)
{
	uint32_t slot = q->procs % FLAT_RESUME_SLOTS;
	if ((*flat_resume_used(p) >> slot & 1u) == 0)
		return FLAT_NONE;
	*start = flat_resumes(p)[slot];
	if (start->width != q->procs || start->earliest != q->earliest || q->dur <= start->longest)
		return FLAT_NONE;
	return start->at >= q->limit ? FLAT_ANSWER : FLAT_RESUME;
}

/*
 * The answer of a saved scan (flat_own_saved) that stopped at or past the
 * limit, on every path alike: every run that starts before the limit ends
 * by r->at and is too short, so only one that reaches the limit can take
 * the job (its own reservation carries the rest): the run holding the
 * limit's last second. On KTH at --shrink 0.5 about one check in six.
 * O(log n + that run).
 */
static sched_time_t flat_saved_answer(const struct sched_profile *p, const struct flat_ask *q, uint32_t *at)
{
	if (q->limit <= q->earliest)
		return SCHED_TIME_MAX;
	const uint32_t *time = flat_time(p), *free = flat_free(p);
	uint32_t k = flat_index(p, q->limit - 1u), e = flat_index(p, q->earliest);
	if (free[k] < q->procs)
		return SCHED_TIME_MAX; /* no run reaches the limit */
	while (k > e && free[k - 1u] >= q->procs)
		k--;
	sched_time_t cand = k == e ? q->earliest : time[k];
	if (q->dur > SCHED_TIME_MAX - 1 - cand)
		return SCHED_TIME_MAX;
	*at = k;
	return cand;
}

/* list_search() on the arrays, on the path sched_flat_path() picks; *anchor is
 * the index of the anchor's segment. */
static sched_time_t flat_search(const struct sched_profile *p, sched_time_t earliest, sched_procs_t procs,
				sched_time_t dur, sched_time_t limit, bool own, uint32_t *anchor)
{
	struct flat_ask q = { .earliest = earliest, .dur = dur, .limit = limit, .procs = procs, .own = own };
	/* Only the compression's questions resume (own: may this job move earlier?); the scan
	 * is saved in its width's slot. */
	struct flat_resume start, saved = { .width = 0 }, *out = NULL;
	const struct flat_resume *from = NULL;
	enum sched_flat_path path = sched_flat_path();
	*anchor = 0;
	if (own && *flat_resume_on(p)) {
		enum flat_saved f = flat_own_saved(p, &q, &start);
		if (f == FLAT_ANSWER)
			return flat_saved_answer(p, &q, anchor);
		from = f == FLAT_RESUME ? &start : NULL;
		out = &saved;
	}
	sched_time_t t;
	switch (path) {
#if SCHED_FLAT_X86
	case SCHED_FLAT_AVX512:
		t = flat_search_avx512(p, &q, anchor, from, out);
		break;
	case SCHED_FLAT_AVX2:
		t = flat_search_avx2(p, &q, anchor, from, out);
		break;
	case SCHED_FLAT_SSE2:
		t = flat_search_sse2(p, &q, anchor, from, out);
		break;
#endif
	default:
		t = flat_search_scalar(p, &q, anchor, from, out);
		break;
	}
	if (saved.width != 0) {
		uint32_t slot = procs % FLAT_RESUME_SLOTS;
		flat_resumes(p)[slot] = saved; /* the saved scans are scratch: written through a const profile */
		*flat_resume_used(p) |= (uint64_t)1 << slot;
	}
	return t;
}
#endif

#if defined(SCHED_PROFILE_FLAT) && defined(SCHED_DEBUG)
/*
 * The checking build: the answer t (anchor segment index `anchor`) the flat
 * search gave must be the list's (rebuilt first), and one other path this
 * CPU has must give it too, the path picked from the question (so every
 * path meets every kind of question over a run, and make test's CPU stays
 * in budget: all paths at every search made the san builds' profile work
 * about five times dearer). O(n).
 */
static void flat_cross_check(const struct sched_profile *p, sched_time_t earliest, sched_procs_t procs,
			     sched_time_t dur, sched_time_t limit, bool own, sched_time_t t, uint32_t anchor)
{
	const struct sched_seg *lat = NULL;
	sched_profile_sync((struct sched_profile *)p); /* the list is a cache of the arrays */
	SCHED_ASSERT(list_search(p, earliest, procs, dur, limit, own, &lat) == t);
	SCHED_ASSERT(t == SCHED_TIME_MAX || lat->time == flat_time(p)[anchor]);
	struct flat_ask q = { .earliest = earliest, .dur = dur, .limit = limit, .procs = procs, .own = own };
	uint32_t first = 0;
	unsigned path = (earliest ^ procs ^ dur ^ limit) % 4u;
	(void)path; /* read only on x86 */
#if SCHED_FLAT_X86
	if (path == 3u && __builtin_cpu_supports("avx512f"))
		SCHED_ASSERT(flat_search_avx512(p, &q, &first, NULL, NULL) == t);
	else if (path == 2u && __builtin_cpu_supports("avx2"))
		SCHED_ASSERT(flat_search_avx2(p, &q, &first, NULL, NULL) == t);
	else if (path == 1u)
		SCHED_ASSERT(flat_search_sse2(p, &q, &first, NULL, NULL) == t);
	else
#endif
		SCHED_ASSERT(flat_search_scalar(p, &q, &first, NULL, NULL) == t);
	SCHED_ASSERT(t == SCHED_TIME_MAX || lat->time == flat_time(p)[first]);
}
#endif

#ifdef SCHED_PROFILE_FLAT
static sched_time_t search(const struct sched_profile *p, sched_time_t earliest, sched_procs_t procs,
			   sched_time_t dur, sched_time_t limit, bool own, const struct sched_seg **at)
{
	if (!has_flat(p))
		return list_search(p, earliest, procs, dur, limit, own, at);
	if (procs == 0 || dur == 0 || procs > p->procs)
		return SCHED_TIME_MAX;
	if (earliest < sched_profile_origin(p))
		earliest = sched_profile_origin(p);
	uint32_t anchor;
	sched_time_t t = flat_search(p, earliest, procs, dur, limit, own, &anchor);
#ifdef SCHED_DEBUG
	flat_cross_check(p, earliest, procs, dur, limit, own, t, anchor);
#endif
	if (at != NULL)
		*at = NULL; /* the list's hint: the arrays need none */
	return t;
}
#endif

sched_time_t sched_profile_find(const struct sched_profile *p, sched_time_t earliest,
				sched_procs_t procs, sched_time_t dur)
{
	return search(p, earliest, procs, dur, SCHED_TIME_MAX, false, NULL);
}

sched_time_t sched_profile_find_before(const struct sched_profile *p, sched_time_t earliest,
				       sched_procs_t procs, sched_time_t dur, sched_time_t limit)
{
	return search(p, earliest, procs, dur, limit, false, NULL);
}

/*
 * The body of both copies: src's segments into dst (a machine of procs), every count lowered by
 * `less` (0: a plain copy, where the compiler drops the subtraction). Inlined, so that the plain
 * copy's code (and the board's instruction counts) stays as it was. O(n).
 */
static inline __attribute__((always_inline)) int copy_less(struct sched_profile *dst, struct sched_pool *pool,
							   const struct sched_profile *src, sched_procs_t procs,
							   sched_procs_t less)
{
	if (sched_pool_available(pool) < src->count)
		return SCHED_E_NOSPACE;
	setup(dst, pool, procs);
	/* Every segment in one chain off the pool, then one pass to fill them in. */
	sched_pool_alloc_chain(pool, src->count, &dst->end.link);
	dst->count = src->count;
	const struct sched_seg *g = sched_profile_first(src);
	for (struct sched_seg *n = sched_profile_first(dst); n != NULL; n = sched_profile_next(dst, n)) {
		SCHED_ASSERT(g->free >= less);
		n->time = g->time;
		n->free = g->free - less;
		g = sched_profile_next(src, g);
	}
#ifdef SCHED_PROFILE_FLAT
	flat_fill(dst);
	FLAT_CHECK(dst);
#endif
	return SCHED_OK;
}

int sched_profile_copy(struct sched_profile *dst, struct sched_pool *pool, const struct sched_profile *src)
{
	return copy_less(dst, pool, src, src->procs, 0);
}

int sched_profile_copy_lowered(struct sched_profile *dst, struct sched_pool *pool, const struct sched_profile *src,
			       sched_procs_t procs, sched_procs_t less)
{
	/* Lowering every count alike keeps neighbours different; the last must be free on procs. */
	SCHED_ASSERT(procs > 0 && sched_profile_last(src)->free == procs + less);
	return copy_less(dst, pool, src, procs, less);
}

int sched_profile_restart(struct sched_profile *p, struct sched_pool *pool, sched_procs_t procs,
			  sched_time_t origin, sched_procs_t free, uint32_t steps)
{
	if (procs == 0 || free > procs || origin == SCHED_TIME_MAX)
		return SCHED_E_INVAL;
	/* The segments p holds come back first, so only the rest must be free now. */
	uint32_t held = pool == pool_of(p) ? p->count : 0;
	uint32_t need = steps + 1u;
	/* Capacity only, not a fault-injection site: the callers' own room checks are those (a live
	 * re-plan's cover_segments, a trial's scratch check), and a refusal here must not fire
	 * inside a call that has already begun to change things. */
	if (need > held && sched_pool_available(pool) < need - held)
		return SCHED_E_NOSPACE;
	if (p->count > 0)
		sched_profile_clear(p);
	begin(p, pool, procs, sched_pool_take(pool), origin, free);
	return SCHED_OK;
}

void sched_profile_append(struct sched_profile *p, sched_time_t t, sched_procs_t free)
{
#ifdef SCHED_PROFILE_FLAT
	if (has_flat(p))
		sched_profile_sync(p); /* then the element pushed last is the last segment */
#endif
	const struct sched_seg *last = seg_prev(&p->end);
	SCHED_ASSERT(t > last->time && t != SCHED_TIME_MAX && free != last->free && free <= p->procs);
	struct sched_seg *n = sched_pool_take(pool_of(p));
	n->time = t;
	n->free = free;
	sched_list_push_back(&p->end.link, &n->link);
	p->count++;
#ifdef SCHED_PROFILE_FLAT
	if (has_flat(p)) {
		flat_put(p, p->count - 1u, n);
		flat_sentinel(p);
	}
#endif
}

/* The search for a job holding [own_start, own_start + dur): its own slot counts as free. */
static sched_time_t search_earlier(const struct sched_profile *p, sched_time_t earliest, sched_procs_t procs,
				   sched_time_t dur, sched_time_t own_start, const struct sched_seg **at)
{
	if (dur > SCHED_TIME_MAX - 1 - own_start)
		return SCHED_TIME_MAX;
	return search(p, earliest, procs, dur, own_start, true, at);
}

sched_time_t sched_profile_find_earlier(const struct sched_profile *p, sched_time_t earliest,
					sched_procs_t procs, sched_time_t dur, sched_time_t own_start)
{
	return search_earlier(p, earliest, procs, dur, own_start, NULL);
}

/* The segment holding t (not before the origin), walked to from `hint` (a segment at or
 * before t) or the head (the list's: a flat profile's changes go to the arrays). */
static struct sched_seg *seg_from(const struct sched_profile *p, const struct sched_seg *hint, sched_time_t t)
{
	struct sched_seg *s = hint != NULL ? (struct sched_seg *)hint : sched_profile_first(p);
	while (seg_next(s)->time <= t)
		s = seg_next(s);
	return s;
}

/* Can [start, start + dur) hold procs in p at all (the list's and the arrays' first check)? */
static int interval_valid(const struct sched_profile *p, sched_time_t start, sched_time_t dur, sched_procs_t procs)
{
	if (procs == 0 || dur == 0)
		return SCHED_E_INVAL;
	if (start < sched_profile_origin(p) || dur > SCHED_TIME_MAX - 1 - start)
		return SCHED_E_RANGE;
	return SCHED_OK;
}

/*
 * Validate an interval; on success *endp is start + dur and *firstp the
 * segment holding start, found from `hint` (a segment at or before start) or the head.
 */
static int interval(const struct sched_profile *p, sched_time_t start, sched_time_t dur,
		    sched_procs_t procs, const struct sched_seg *hint, sched_time_t *endp,
		    struct sched_seg **firstp)
{
	int err = interval_valid(p, start, dur, procs);
	if (err != SCHED_OK)
		return err;
	*endp = start + dur;
	*firstp = seg_from(p, hint, start);
	return SCHED_OK;
}

/* Make a segment start exactly at t (t inside s's period); needs one pool element if it splits. */
static struct sched_seg *split_at(struct sched_profile *p, struct sched_seg *s, sched_time_t t)
{
	if (s->time == t)
		return s;
	struct sched_seg *n = sched_pool_take(pool_of(p)); /* adjust() counted the splits against the pool */
	n->time = t;
	n->free = s->free;
	sched_list_insert_after(&s->link, &n->link);
	p->count++;
	return n;
}

/* Fold s into its predecessor when both have the same free count. */
static void merge_with_prev(struct sched_profile *p, struct sched_seg *s)
{
	if (is_end(p, s) || s == sched_profile_first(p))
		return;
	if (seg_prev(s)->free != s->free)
		return;
	sched_list_remove(&s->link);
	sched_pool_free(pool_of(p), s);
	p->count--;
}

#ifdef SCHED_PROFILE_FLAT
/* Entry i and its list element go (its free count equals entry i - 1's). O(n - i) words. */
static void flat_merge(struct sched_profile *p, uint32_t i)
{
	flat_shift(p, i + 1u, false);
	p->count--;
	flat_drop_elem(p);
}

/* A new entry i (after i - 1, which it splits at t) and its list element. O(n - i) words. */
static void flat_split(struct sched_profile *p, uint32_t i, sched_time_t t)
{
	flat_take_elem(p);
	p->count++;
	flat_shift(p, i, true);
	flat_time(p)[i] = t;
	flat_free(p)[i] = flat_free(p)[i - 1u];
}

/* The entries holding an interval's first and last second (flat_check finds them). */
struct flat_span {
	uint32_t a, last;
};

/*
 * Add `add` (mod 2^32) to the counts over [s, e), checked already, whose
 * entries are `at` (no change before a since): at most two splits, one pass
 * over the interval and at most two merges. O(interval + entries moved).
 */
static inline void flat_add(struct sched_profile *p, struct flat_span at, sched_time_t s, sched_time_t e, sched_procs_t add)
{
	uint32_t *time = flat_time(p), *free = flat_free(p);
	uint32_t a = at.a, last = at.last;
	if (time[a] != s) {
		flat_split(p, ++a, s);
		last++;
	}
	if (time[last + 1u] != e)
		flat_split(p, last + 1u, e);
	for (uint32_t i = a; i <= last; i++)
		free[i] += add;
	p->list_stale = 1;
	if (last + 1u < p->count && free[last + 1u] == free[last])
		flat_merge(p, last + 1u);
	if (a > 0 && free[a] == free[a - 1u])
		flat_merge(p, a);
}

/*
 * Check [s, e)'s counts against [lo, hi]; its entries in *at; count in
 * *splits the ends that are not breakpoints yet. O(log n + interval).
 */
static inline int flat_check(const struct sched_profile *p, sched_time_t s, sched_time_t e, sched_procs_t lo,
		      sched_procs_t hi, struct flat_span *at, uint32_t *splits)
{
	const uint32_t *time = flat_time(p), *free = flat_free(p);
	uint32_t a = flat_index(p, s), last = flat_index(p, e - 1u);
	for (uint32_t i = a; i <= last; i++)
		if (free[i] < lo || free[i] > hi)
			return SCHED_E_RANGE;
	*splits += (time[a] != s ? 1u : 0u) + (time[last + 1u] != e ? 1u : 0u);
	*at = (struct flat_span){ .a = a, .last = last };
	return SCHED_OK;
}

/*
 * adjust() on the arrays alone: the same checks in the same order (so the
 * same refusals, changing nothing), then flat_add(). O(log n + interval + moved).
 */
static int flat_adjust(struct sched_profile *p, sched_time_t start, sched_time_t dur, sched_procs_t procs, int sign)
{
	*flat_resume_on(p) = 0; /* a change that is not a move: saved scans may be wrong (move_earlier
				 * puts it back after its own two calls) */
	int err = interval_valid(p, start, dur, procs);
	if (err != SCHED_OK)
		return err;
	sched_time_t end = start + dur;
	uint32_t splits = 0;
	struct flat_span at;
	err = flat_check(p, start, end, sign < 0 ? procs : 0, sign < 0 ? p->procs : p->procs - procs, &at,
			     &splits);
	if (err != SCHED_OK)
		return err;
	if (sched_pool_available(pool_of(p)) < splits)
		return SCHED_E_NOSPACE; /* callers ask for the most their work can need first (sched_pool_room) */
	flat_add(p, at, start, end, sign < 0 ? 0u - procs : procs);
	FLAT_CHECK(p);
	return SCHED_OK;
}

/* move_span() on the arrays: both parts checked first (so that a refusal changes nothing),
 * then each shifted by its constant. O(log n + parts + entries moved). */
static int flat_move_span(struct sched_profile *p, const sched_time_t x[4], const sched_procs_t lo[2],
			  const sched_procs_t hi[2], const sched_procs_t add[2])
{
	*flat_resume_on(p) = 0; /* as in flat_adjust(): move_earlier puts it back */
	uint32_t splits = 0;
	struct flat_span at[2];
	for (unsigned r = 0; r < 2u; r++) {
		int err = flat_check(p, x[2u * r], x[2u * r + 1u], lo[r], hi[r], &at[r], &splits);
		if (err != SCHED_OK)
			return err;
	}
	if (x[1] == x[2] && flat_time(p)[at[1].a] != x[2])
		splits--; /* the parts meet at a point that is no breakpoint, counted twice */
	if (sched_pool_available(pool_of(p)) < splits)
		return SCHED_E_NOSPACE;
	/* The later part first: its splits and merges move only entries after the first part's. */
	flat_add(p, at[1], x[2], x[3], add[1]);
	flat_add(p, at[0], x[0], x[1], add[0]);
	FLAT_CHECK(p);
	return SCHED_OK;
}
#endif

/*
 * Shared body of reserve (sign < 0) and release (sign > 0): check the whole
 * interval first so that a refusal changes nothing, then split, adjust, merge.
 */
static int adjust(struct sched_profile *p, sched_time_t start, sched_time_t dur,
		  sched_procs_t procs, int sign, const struct sched_seg *hint, const struct sched_seg **cursor)
{
	sched_time_t end;
	struct sched_seg *a;
#ifdef SCHED_PROFILE_FLAT
	if (has_flat(p)) {
		if (cursor != NULL)
			*cursor = NULL; /* the list's hint: the arrays need none */
		return flat_adjust(p, start, dur, procs, sign);
	}
#endif
	int err = interval(p, start, dur, procs, hint, &end, &a);
	if (err != SCHED_OK)
		return err;
	if (cursor != NULL) {
		/* Only segments from `start` on are split, changed or merged away: one before it lives. */
		struct sched_seg *before = seg_prev(a);
		*cursor = a->time < start ? a : is_end(p, before) ? NULL : before;
	}

	struct sched_seg *last = a; /* the segment that contains end - 1 */
	for (struct sched_seg *s = a; s->time < end; s = seg_next(s)) {
		if (sign < 0 ? s->free < procs : procs > p->procs - s->free)
			return SCHED_E_RANGE;
		last = s;
	}
	uint32_t splits = (a->time != start ? 1u : 0u) + (seg_next(last)->time != end ? 1u : 0u);
	if (sched_pool_available(pool_of(p)) < splits)
		return SCHED_E_NOSPACE; /* callers ask for the most their work can need first (sched_pool_room) */

	struct sched_seg *first = split_at(p, a, start);
	if (last == a)
		last = first;
	/* `after` is the segment that starts at end: an existing one, or a new split. */
	struct sched_seg *after =
		seg_next(last)->time == end ? seg_next(last) : split_at(p, last, end);
	for (struct sched_seg *s = first; s != after; s = seg_next(s))
		s->free = sign < 0 ? s->free - procs : s->free + procs;
	merge_with_prev(p, after);
	merge_with_prev(p, first);
	return SCHED_OK;
}

/*
 * A job of `procs` processors for `dur` seconds moves from `from` to `to`.
 * With a and b the earlier and the later start, both placements hold
 * [b, a + dur) when they overlap, and there nothing changes: only
 * [x0, x1) = [a, min(b, a + dur)) gains or loses the job, and
 * [x2, x3) = [max(b, a + dur), b + dur) the other way round. So the shared
 * stretch is walked once (not at all on the arrays) and is never
 * checked, split, updated or merged, where a release and a reserve walk it
 * four times; in a compression, most moves are shorter than the job. The
 * profile after it is the one release then reserve give (the list's form is
 * unique). One read-only walk finds the segments holding x0..x3 and checks
 * both parts before anything changes, so a refusal changes nothing.
 * `hint`: a segment at or before a, or NULL (the head). *cursor as for adjust().
 */
static int move_span(struct sched_profile *p, sched_time_t from, sched_time_t to, sched_time_t dur,
		     sched_procs_t procs, const struct sched_seg *hint, const struct sched_seg **cursor)
{
	if (procs == 0 || dur == 0)
		return SCHED_E_INVAL;
	sched_time_t a = from < to ? from : to, b = from < to ? to : from;
	if (a < sched_profile_origin(p) || dur > SCHED_TIME_MAX - 1 - b)
		return SCHED_E_RANGE;
	if (from == to)
		return SCHED_OK;
	const sched_time_t x[4] = { a, b < a + dur ? b : a + dur, b < a + dur ? a + dur : b, b + dur };
	/* The first part takes the job's processors when it moves earlier, the second gives them
	 * back: each part's counts must lie in [lo, hi] before, and change by `add` (mod 2^32). */
	const bool earlier = to < from;
	const sched_procs_t lo[2] = { earlier ? procs : 0, earlier ? 0 : procs };
	const sched_procs_t hi[2] = { earlier ? p->procs : p->procs - procs, earlier ? p->procs - procs : p->procs };
	const sched_procs_t add[2] = { earlier ? 0u - procs : procs, earlier ? procs : 0u - procs };
	if (procs > p->procs)
		return SCHED_E_RANGE;
#ifdef SCHED_PROFILE_FLAT
	if (has_flat(p)) {
		if (cursor != NULL)
			*cursor = NULL; /* the list's hint: the arrays need none */
		return flat_move_span(p, x, lo, hi, add);
	}
#endif
	struct sched_seg *at[4]; /* at[i]: the segment holding x[i] */
	for (unsigned r = 0; r < 2u; r++) {
		struct sched_seg *s = seg_from(p, r == 0 ? hint : at[1], x[2u * r]);
		const sched_time_t end = x[2u * r + 1u];
		at[2u * r] = s;
		for (;;) {
			if (s->free < lo[r] || s->free > hi[r])
				return SCHED_E_RANGE;
			struct sched_seg *n = seg_next(s);
			if (n->time >= end) {
				if (n->time == end)
					s = n; /* it starts at the part's end */
				break;
			}
			s = n;
		}
		at[2u * r + 1u] = s;
	}
	uint32_t splits = 0;
	for (unsigned i = 0; i < 4u; i++)
		if (at[i]->time != x[i] && !(i == 2u && x[2] == x[1]))
			splits++;
	if (sched_pool_available(pool_of(p)) < splits)
		return SCHED_E_NOSPACE;
	for (unsigned i = 0; i < 4u; i++) {
		if (at[i]->time == x[i])
			continue; /* most points are breakpoints already: no call */
		struct sched_seg *n = split_at(p, at[i], x[i]);
		for (unsigned k = i + 1u; k < 4u; k++)
			if (at[k] == at[i])
				at[k] = n; /* x[k] >= x[i]: now in the later half */
		at[i] = n;
	}
	for (unsigned r = 0; r < 2u; r++) {
		for (struct sched_seg *s = at[2u * r]; s != at[2u * r + 1u]; s = seg_next(s))
			s->free += add[r];
	}
	if (cursor != NULL) {
		/* The segment before x0 is never merged away (a merge frees the later segment). */
		struct sched_seg *before = seg_prev(at[0]);
		*cursor = is_end(p, before) ? NULL : before;
	}
	/* From the last point down: each merge frees only the segment at its point. */
	for (unsigned i = 4u; i-- > 0;)
		if (!(i == 2u && x[2] == x[1]) && seg_prev(at[i])->free == at[i]->free)
			merge_with_prev(p, at[i]); /* (which also checks that at[i] is not the first) */
	return SCHED_OK;
}

int sched_profile_reserve(struct sched_profile *p, sched_time_t start, sched_time_t dur,
			  sched_procs_t procs)
{
	return adjust(p, start, dur, procs, -1, NULL, NULL);
}

int sched_profile_release(struct sched_profile *p, sched_time_t start, sched_time_t dur,
			  sched_procs_t procs)
{
	return adjust(p, start, dur, procs, +1, NULL, NULL);
}

/* The cursor if it may serve as a hint for `start`, else the head (NULL). */
static const struct sched_seg *hint_of(const struct sched_seg *const *cursor, sched_time_t start)
{
	return *cursor != NULL && (*cursor)->time <= start ? *cursor : NULL;
}

int sched_profile_reserve_from(struct sched_profile *p, const struct sched_seg **cursor, sched_time_t start,
			       sched_time_t dur, sched_procs_t procs)
{
	return adjust(p, start, dur, procs, -1, hint_of(cursor, start), cursor);
}

int sched_profile_release_from(struct sched_profile *p, const struct sched_seg **cursor, sched_time_t start,
			       sched_time_t dur, sched_procs_t procs)
{
	return adjust(p, start, dur, procs, +1, hint_of(cursor, start), cursor);
}

int sched_profile_move_from(struct sched_profile *p, const struct sched_seg **cursor, sched_time_t from,
			    sched_time_t to, sched_time_t dur, sched_procs_t procs)
{
	return move_span(p, from, to, dur, procs, hint_of(cursor, from < to ? from : to), cursor);
}

int sched_profile_place(struct sched_profile *p, sched_time_t earliest, sched_procs_t procs,
			sched_time_t dur, sched_time_t *start)
{
	const struct sched_seg *at;
	sched_time_t t = search(p, earliest, procs, dur, SCHED_TIME_MAX, false, &at);
	if (t == SCHED_TIME_MAX)
		return procs == 0 || dur == 0 ? SCHED_E_INVAL : SCHED_E_RANGE;
	int err = adjust(p, t, dur, procs, -1, at, NULL);
	if (err == SCHED_OK)
		*start = t;
	return err;
}

int sched_profile_move_earlier(struct sched_profile *p, sched_time_t earliest, sched_procs_t procs,
			       sched_time_t dur, sched_time_t own_start, sched_time_t *start)
{
	const struct sched_seg *at;
	sched_time_t t = search_earlier(p, earliest, procs, dur, own_start, &at);
	if (t == SCHED_TIME_MAX)
		return SCHED_E_RANGE;
#ifdef SCHED_PROFILE_FLAT
	uint32_t resuming = has_flat(p) ? *flat_resume_on(p) : 0;
	if (resuming)
		flat_cut_back(p, t);
#endif
	/* The anchor's segment is at or before t: the move's walk starts there. */
	int err = move_span(p, own_start, t, dur, procs, at, NULL);
	if (err == SCHED_E_NOSPACE) {
		/* Too few spare segments for all of the move's splits at once (up to four): release,
		 * then reserve, as before, whose merges in between may make the room. Whenever
		 * move_span() has room, these two would have had it too. */
		err = adjust(p, own_start, dur, procs, +1, at, NULL);
		if (err == SCHED_OK)
			err = adjust(p, t, dur, procs, -1, at, NULL);
	}
	if (err == SCHED_OK)
		*start = t;
#ifdef SCHED_PROFILE_FLAT
	if (has_flat(p))
		*flat_resume_on(p) = err == SCHED_OK ? resuming : 0;
#endif
	return err;
}

void sched_profile_trim(struct sched_profile *p, sched_time_t now)
{
#ifdef SCHED_PROFILE_FLAT
	if (has_flat(p)) {
		*flat_resume_on(p) = 0;
		uint32_t gone = flat_index(p, now); /* the segments that end by now */
		uint32_t *cols[2] = { flat_time(p), flat_free(p) };
		for (unsigned c = 0; gone > 0 && c < 2u; c++)
			__builtin_memmove(cols[c], cols[c] + gone, (size_t)(p->count - gone + 1u) * sizeof(uint32_t));
		p->count -= gone;
		for (; gone > 0; gone--)
			flat_drop_elem(p);
		if (flat_time(p)[0] < now) {
			flat_time(p)[0] = now;
			p->list_stale = 1;
		}
		FLAT_CHECK(p);
		return;
	}
#endif
	struct sched_seg *first = sched_profile_first(p);
	while (seg_next(first)->time <= now) {
		struct sched_seg *next = seg_next(first);
		sched_list_remove(&first->link);
		sched_pool_free(pool_of(p), first);
		p->count--;
		first = next;
	}
	if (first->time < now)
		first->time = now;
}

int sched_profile_check(const struct sched_profile *p)
{
	if (p->end.time != SCHED_TIME_MAX || p->end.free != p->procs)
		return SCHED_E_STATE;
	if (sched_list_empty(&p->end.link))
		return SCHED_E_STATE;
	uint32_t n = 0;
	const struct sched_seg *prev = NULL;
	for (const struct sched_seg *s = sched_profile_first(p); !is_end(p, s); s = seg_next(s)) {
		if (++n > p->count || n > pool_of(p)->capacity)
			return SCHED_E_STATE; /* also stops a cycle that skips the sentinel */
		if (sched_list_prev(&seg_next(s)->link) != &s->link)
			return SCHED_E_STATE;
		if (s->free > p->procs)
			return SCHED_E_STATE;
		if (prev != NULL && (prev->time >= s->time || prev->free == s->free))
			return SCHED_E_STATE;
		prev = s;
	}
	if (n != p->count || prev == NULL || prev->free != p->procs)
		return SCHED_E_STATE;
#ifdef SCHED_PROFILE_FLAT
	if (has_flat(p) && !flat_agrees(p))
		return SCHED_E_STATE;
#endif
	return SCHED_OK;
}
