/* SPDX-License-Identifier: MIT */
/* Slack-based backfilling with priorities (Talby and Feitelson 1999, seed 003, section 2): the cheapest
 * schedule within every slack. */
#include "slack.h"

/*
 * Every waiting job has a priority p = (UP + PP + SP) / 3 and a slack: how
 * much later than planned it may still start. A new job is placed by trying
 * schedules and keeping the cheapest (section 2.1):
 *
 *   price = (te - now)^at n^au + sum over moved jobs of cost(ji, ti, j)
 *   cost(ji, ti, j) = ni^au ti^at (pi / pj)^ap (s0i / si)^(ap af),  ti <= si
 *
 * with infinity when any ti exceeds that job's slack. The schedules tried
 * (section 2.4): conservative's (the job at its anchor, nobody moved), and,
 * for each time slot ts of a partition (where its profile changes or a
 * waiting job is planned to start), the job put at ts
 * with every job planned at or after ts pushed back by the new job's
 * estimate and then compressed one by one in the heuristic's order
 * (AST, AAT, DU, DC or DP). Ties go to the schedule that moves fewer jobs.
 * O(n) times per partition x O(n) jobs x O(n) segments: O(n^3).
 *
 * Removal (a waiting job cancelled) is the same search with a "dummy
 * timeless job": nothing is pushed back, jobs from ts on are compressed,
 * and the price (a profit) is the sum of the negative costs of the moves.
 * The dummy's priority is 1; it scales every cost alike, so it does not
 * change the choice.
 *
 * A running job that ends before its estimate is no remove (section 2.1
 * removes a waiting job) but Tick's business, and Tick "is the same as in
 * EASY and conservative backfilling": conservative backfilling (Feitelson
 * and Mu'alem Weil 1998, section 2) compresses the schedule upon
 * termination, in arrival order, which never delays a job. That is the
 * default; early_end names the other readings: the removal search (our
 * earlier default), and nothing re-planned at all (Tick read word for word).
 *
 * Conventions where the paper is silent, fixed here:
 *  - priorities are thousandths: UP and PP in [0, 1000], SP in [0, 1000];
 *    prio3 = UP + PP + SP, so p = prio3 / 3000;
 *  - s0 = (3000 - prio3) x SF x AWT / 3000, whole seconds (truncated);
 *  - an over-quota job (PP = -infinity) has infinite slack, costs nothing
 *    to delay, and may not delay anyone itself;
 *  - a slack ratio s0 / s uses max(s, 1) (a job with no slack left cannot
 *    be delayed anyway, and moving it earlier stays finite);
 *  - the new job's SP is set once it is placed: min((te - now) / (2 AWT), 1);
 *  - equal prices go to the schedule that moves fewer jobs, in a removal
 *    as in an insert (section 2.3 states it for "two schedules", with no
 *    exception); removal_ties = more keeps our earlier reading (a move worth
 *    nothing, of a job whose cost factor is 0, still fills a hole);
 *  - a job its queue's running limits hold back is re-placed at the time
 *    the limit can first allow it, without a price: the paper has no limits.
 * All arithmetic is integer or the integer soft float of num.c.
 */

#define AU 0
#define AT 1
#define AP 2
#define AF 3

/* Slack's parameter block (its part of the configuration's parameter area); all zero: the paper's defaults. */
struct slack_params {
	uint32_t sf_milli;        /* slack factor SF, thousandths (default 3000) */
	sched_time_t awt;         /* average wait time AWT, seconds (default 2401) */
	uint16_t alpha_milli[4];  /* alpha_u, alpha_t, alpha_p, alpha_f, thousandths (default 1000) */
	uint8_t heuristic;        /* enum sched_heuristic (default AST) */
	uint8_t early_end;        /* enum sched_early_end (default compress) */
	uint8_t removal_ties;     /* enum sched_removal_ties (default fewer) */
	bool set;                 /* false: the defaults above for the whole block */
};
SCHED_PARAMS_BLOCK(SLACK, struct slack_params);

static const struct slack_params *params_of(const struct sched *s)
{
	return sched_params_of(&s->cfg, SCHED_PARAMS_AT_SLACK);
}

/* A job's slack state (slack.h), in its per-job policy area. */
static struct sched_slack_job *sj(struct sched_job *j)
{
	return sched_pjob(j);
}

static const struct sched_slack_job *sj_c(const struct sched_job *j)
{
	return sched_pjob_c(j);
}

static uint32_t alpha(const struct sched *s, int k)
{
	return params_of(s)->alpha_milli[k];
}

static bool over_quota(const struct sched_job *j)
{
	return sj_c(j)->prio3 == SCHED_PRIO_OVER_QUOTA;
}

/* s0 from the job's priority (section 2.2). */
int32_t sched_slack_initial(const struct sched *s, uint16_t prio3)
{
	if (prio3 == SCHED_PRIO_OVER_QUOTA)
		return SCHED_SLACK_INF;
	uint64_t v = (uint64_t)(3000u - prio3) * params_of(s)->sf_milli * params_of(s)->awt / 3000000u;
	return v >= (uint64_t)SCHED_SLACK_INF ? SCHED_SLACK_INF - 1 : (int32_t)v;
}

/*
 * The part of a job's cost that does not depend on its delay:
 * ni^au (pi / pj)^ap (s0i / max(si, 1))^(ap af). Zero for an over-quota job.
 */
struct sched_num sched_slack_factor(const struct sched *s, const struct sched_job *k, uint16_t pj3)
{
	if (over_quota(k))
		return num_zero();
	/* A priority or initial slack of 0 gives 0 under a positive weight and 1 under a zero one. */
	struct sched_num f = num_pow_milli(num_u64(k->procs), alpha(s, AU));
	struct sched_num ratio = num_div(num_u64(sj_c(k)->prio3), num_u64(pj3));
	f = num_mul(f, num_pow_milli(ratio, alpha(s, AP)));
	int32_t s0 = sched_slack_initial(s, sj_c(k)->prio3);
	int32_t left = sj_c(k)->slack < 1 ? 1 : sj_c(k)->slack;
	struct sched_num slack_ratio = num_div(num_u64((uint64_t)s0), num_u64((uint64_t)left));
	uint32_t apf = alpha(s, AP) * alpha(s, AF) / 1000u;
	return num_mul(f, num_pow_milli(slack_ratio, apf));
}

/* cost(ji, ti, j): sign(ti) x factor x |ti|^at. */
struct sched_num sched_slack_cost(const struct sched *s, struct sched_num f, int64_t t)
{
	if (t == 0)
		return num_zero();
	struct sched_num c = num_mul(f, num_pow_milli(num_u64((uint64_t)(t < 0 ? -t : t)), alpha(s, AT)));
	return t < 0 ? num_neg(c) : c;
}

/* Heuristic order: is a before b? Ties by arrival. */
static bool before(const struct sched *s, const struct sched_job *a, struct sched_num fa,
		   const struct sched_job *b, struct sched_num fb)
{
	switch (params_of(s)->heuristic) {
	case SCHED_HEUR_AST:
		if (a->start != b->start)
			return a->start < b->start;
		break;
	case SCHED_HEUR_AAT:
		if (a->submit != b->submit)
			return a->submit < b->submit;
		break;
	case SCHED_HEUR_DU: {
		uint64_t ua = (uint64_t)a->procs * a->estimate, ub = (uint64_t)b->procs * b->estimate;
		if (ua != ub)
			return ua > ub;
		break;
	}
	case SCHED_HEUR_DC: {
		int c = num_cmp(fa, fb); /* the cost of a one-second delay is the factor itself */
		if (c != 0)
			return c > 0;
		break;
	}
	case SCHED_HEUR_DP: {
		/* Over quota is the lowest priority of all. */
		uint32_t pa = over_quota(a) ? 0 : sj_c(a)->prio3 + 1u, pb = over_quota(b) ? 0 : sj_c(b)->prio3 + 1u;
		if (pa != pb)
			return pa > pb;
		break;
	}
	default:
		break;
	}
	return a->arrival < b->arrival;
}

/* A factor not computed yet: a negative zero, which num.c never makes (its zero is positive). */
static struct sched_num factor_unset(void)
{
	struct sched_num f = num_zero();
	f.neg = true;
	return f;
}

/*
 * Job i's cost factor (newcomer's priority pj3), computed on first use: only
 * DC orders by it; the other heuristics need it only to price a move, and
 * most waiting jobs never move in any candidate. Neither input changes
 * during a search (slacks and priorities change after it), so it is the
 * value an eager computation gives.
 */
static struct sched_num factor_of(struct sched *s, const struct sched_work *x, uint32_t i, uint16_t pj3)
{
	struct sched_num *f = &x->factors[i];
	if (f->m == 0 && f->neg)
		*f = sched_slack_factor(s, x->jobs[i], pj3);
	return *f;
}

/* Gather the reserved waiting jobs (not j) in heuristic order, with their cost factors under DC
 * (unset otherwise: factor_of()). */
uint32_t sched_slack_order(struct sched *s, const struct sched_job *j, uint16_t pj3)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	struct sched_num *f = x->factors;
	uint32_t n = 0;
	struct sched_list *it;
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *k = sched_job_of(it);
		if (k == j || !k->reserved)
			continue;
		struct sched_num fk = params_of(s)->heuristic == SCHED_HEUR_DC ? sched_slack_factor(s, k, pj3)
									     : factor_unset();
		/* Insertion sort: n is the backlog, and the order is needed once per search. */
		uint32_t i = n++;
		while (i > 0 && before(s, k, fk, x->jobs[i - 1], f[i - 1])) {
			x->jobs[i] = x->jobs[i - 1];
			f[i] = f[i - 1];
			i--;
		}
		x->jobs[i] = k;
		f[i] = fk;
	}
	return n;
}

/* Earliest anchor of k in the work profiles before `limit`, k's own reservation there counted as free. */
static sched_time_t earlier_in_work(struct sched *s, const struct sched_job *k, sched_time_t at, uint8_t part,
				    uint8_t *best_part)
{
	sched_time_t best = SCHED_TIME_MAX;
	for (unsigned p = 0; p < s->n_parts; p++) {
		if (!(k->allowed & (1u << p)))
			continue;
		struct sched_profile *w = &s->scratch.work[p];
		sched_time_t from = sched_earliest(s, k);
		sched_time_t a = p == part ? sched_profile_find_earlier(w, from, k->procs, k->estimate, at)
					   : sched_profile_find_before(w, from, k->procs, k->estimate, at);
		if (a < best) {
			best = a;
			*best_part = (uint8_t)p;
		}
	}
	return best;
}

/*
 * Jobs planned from ts on take part in a candidate; not those due now: in
 * the paper an insert starts them before it returns (section 2.1), the
 * core only on the next pass, and a job that starts cannot be moved.
 */
static bool movable(const struct sched *s, const struct sched_job *k, sched_time_t ts)
{
	return k->start >= ts && k->start > s->now;
}

/*
 * A delay that makes a candidate's price infinite (section 2.2): beyond the
 * job's slack, or any delay when the newcomer j is over quota.
 */
static bool beyond_slack(const struct sched_job *j, const struct sched_job *k, int64_t t)
{
	return t > 0 && ((j != NULL && over_quota(j)) || (sj_c(k)->slack != SCHED_SLACK_INF && t > sj_c(k)->slack));
}

/* The newcomer's own term of a price: (te - now)^at n^au (section 2.1). */
static struct sched_num own_price(const struct sched *s, const struct sched_job *j, sched_time_t ts)
{
	return num_mul(num_pow_milli(num_u64(ts - s->now), alpha(s, AT)), num_pow_milli(num_u64(j->procs), alpha(s, AU)));
}

/*
 * The shifted plan, kept from one slot to the next (one partition only).
 * Every candidate starts from the live profile with the jobs movable at its
 * slot pushed back by the newcomer's estimate: built afresh, that is two
 * walks over each such job's whole interval per slot, the most of the
 * search's time on long queues. From one slot to the next only the jobs
 * planned between the two change sides, so the pushed-back profile is kept
 * in work[SHIFTED] and moved along (about two updates a job per insertion),
 * and each candidate copies it. Pushed-back jobs may overlap: kept alone,
 * the profile can ask more processors than the machine has, so it is held
 * on a machine twice the size with every free count raised by the machine
 * size M, where it always fits; a copy with a count below M is a slot where
 * the pushed-back jobs do not fit (the same verdict as their reserves).
 */
#define SHIFTED 1u
#ifdef SCHED_DEBUG
#define CHECKED 3u       /* the same candidate profile built the slow way, to compare */
_Static_assert(SCHED_MAX_PARTITIONS > CHECKED, "a spare work profile for the check");
#define SHIFTED_ROOM 10u /* segments a job: shifted 2, candidate 2 (and its room check 2), checked 4 */
#else
#define SHIFTED_ROOM 6u  /* segments a job: shifted 2, candidate 2, and the candidate's room check 2 */
#endif

struct shifted {
	bool on;              /* work[SHIFTED] holds it: the fast path is in use */
	sched_time_t ts;      /* the slot it is shifted for; SCHED_TIME_MAX: no job shifted */
	sched_time_t shift;   /* the newcomer's estimate */
};

/*
 * Start the shifted plan for an insertion with `shift` > 0, nobody shifted
 * yet, when the scratch pool holds it beside a candidate (at most 4
 * breakpoints a job, a candidate 2 a job) and no push passes the time
 * limit; otherwise sh->on stays false and candidates are built one by one.
 * O(segments + n).
 */
static void shifted_begin(struct sched *s, uint32_t n, sched_time_t shift, struct shifted *sh)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	const struct sched_profile *live = sched_prof(s, 0);
	sh->on = false;
	if (SCHED_MAX_PARTITIONS <= SHIFTED || s->n_parts != 1 || shift == 0 || live->procs > UINT32_MAX / 2u)
		return;
	sched_scratch_clear(s);
	uint64_t jobs = (uint64_t)s->n_waiting + s->n_running + 1u;
	if ((uint64_t)sched_pool_available(x->segs) < SHIFTED_ROOM * jobs + 2u * SCHED_MAX_PARTITIONS)
		return;
	for (uint32_t i = 0; i < n; i++)
		if ((uint64_t)x->jobs[i]->start + shift + x->jobs[i]->estimate >= SCHED_TIME_MAX - 1u)
			return;
	struct sched_profile *w = &x->work[SHIFTED];
	sched_procs_t m = live->procs;
	const struct sched_seg *g = sched_profile_first(live);
	if (sched_profile_restart(w, x->segs, 2u * m, g->time, g->free + m, live->count - 1u) != SCHED_OK)
		return;
	for (g = sched_profile_next(live, g); g != NULL; g = sched_profile_next(live, g))
		sched_profile_append(w, g->time, g->free + m);
	sh->on = true;
	sh->ts = SCHED_TIME_MAX;
	sh->shift = shift;
}

/* Give the shifted plan's segments back to the pool. O(segments). */
static void shifted_end(struct sched *s, struct shifted *sh)
{
	if (!sh->on)
		return;
	struct sched_work xw = sched_work_of(s);
	sched_profile_clear(&xw.work[SHIFTED]);
	sh->on = false;
}

/*
 * Move the shifted plan to slot ts: a job movable at one of the two slots
 * and not at the other is put back in its place or pushed back. On the
 * doubled machine neither step can fail (every intermediate count lies in
 * [0, 2M]). O(n + segments x jobs that change sides).
 */
static void shifted_move(struct sched *s, uint32_t n, struct shifted *sh, sched_time_t ts)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	struct sched_profile *w = &x->work[SHIFTED];
	/* In AST order (the default) the starts ascend, so one cursor walks the profile once. */
	const struct sched_seg *cur = NULL;
	for (uint32_t i = 0; i < n; i++) {
		const struct sched_job *k = x->jobs[i];
		bool was = movable(s, k, sh->ts), will = movable(s, k, ts);
		if (was == will)
			continue;
		sched_time_t from = was ? k->start + sh->shift : k->start;
		sched_time_t to = was ? k->start : k->start + sh->shift;
		int e = sched_profile_move_from(w, &cur, from, to, k->estimate, k->procs);
		SCHED_ASSERT(e == SCHED_OK);
		(void)e;
	}
	sh->ts = ts;
}

enum built { BUILT, UNFIT, BUILD_FAILED };

/*
 * Write the candidate's profile before its compression into the empty
 * work[0]: the shifted plan brought back to the machine (a copy with every
 * count lowered by M), with the newcomer j at ts. UNFIT where the
 * newcomer or the pushed-back jobs do not fit (a count below 0 on the
 * machine; the verdict of their reserves), BUILD_FAILED (work[0]
 * unchanged) if the pool cannot hold it. O(segments).
 */
static enum built shifted_build(struct sched *s, const struct sched_job *j, sched_time_t ts)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	const struct sched_profile *w = &x->work[SHIFTED];
	struct sched_profile *c = &x->work[0];
	sched_procs_t m = w->procs / 2u;
	sched_time_t dur = j->estimate;
	/* The refusals of sched_profile_reserve() for the newcomer. */
	if (j->procs == 0 || dur == 0 || ts < sched_profile_origin(w) || dur > SCHED_TIME_MAX - 1u - ts)
		return UNFIT;
	sched_time_t te = ts + dur;
	/* Read first: a count below M (the pushed-back jobs do not fit) or below M + the newcomer's
	 * processors in [ts, te). The first stretch's verdict comes before the pool's, as when the
	 * profile was written stretch by stretch (room for w's segments and the newcomer's two). */
	const struct sched_seg *g = sched_profile_first(w);
	if (g->free < m + (ts == g->time ? j->procs : 0u))
		return UNFIT;
	if (sched_pool_available(x->segs) < w->count + 2u)
		return BUILD_FAILED;
	for (; g != NULL; g = sched_profile_next(w, g))
		if (g->free < m || (g->time < te && sched_seg_end(g) > ts && g->free - m < j->procs))
			return UNFIT;
	/* Then one chain off the pool, and the newcomer in one reserve (it fits: read above). */
	int e = sched_profile_copy_lowered(c, x->segs, w, m, m);
	if (e == SCHED_OK)
		e = sched_profile_reserve(c, ts, dur, j->procs);
	SCHED_ASSERT(e == SCHED_OK);
	return e == SCHED_OK ? BUILT : BUILD_FAILED;
}

#ifdef SCHED_DEBUG
/*
 * The checker build's second opinion on shifted_build(): the same candidate
 * built as without the shifted plan (a copy of the live profile, every movable
 * job released and reserved `shift` later, the newcomer reserved) must give
 * the same verdict and, when it fits, the same segments. O(n x segments).
 */
static void shifted_verify(struct sched *s, const struct sched_job *j, sched_time_t ts, uint32_t n,
			   sched_time_t shift, enum built built)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	struct sched_profile *r = &x->work[CHECKED];
	int e = sched_profile_copy(r, x->segs, sched_prof(s, 0));
	SCHED_ASSERT(e == SCHED_OK);
	for (uint32_t i = 0; i < n; i++) {
		const struct sched_job *k = x->jobs[i];
		if (movable(s, k, ts)) {
			e = sched_profile_release(r, k->start, k->estimate, k->procs);
			SCHED_ASSERT(e == SCHED_OK);
		}
	}
	bool ok = sched_profile_reserve(r, ts, j->estimate, j->procs) == SCHED_OK;
	for (uint32_t i = 0; ok && i < n; i++) {
		const struct sched_job *k = x->jobs[i];
		if (movable(s, k, ts) && (k->start > SCHED_TIME_MAX - 1 - shift - k->estimate ||
					  sched_profile_reserve(r, k->start + shift, k->estimate, k->procs) != SCHED_OK))
			ok = false;
	}
	SCHED_ASSERT(ok == (built == BUILT));
	if (ok) {
		const struct sched_profile *c = &x->work[0];
		SCHED_ASSERT(sched_profile_check(c) == SCHED_OK && c->count == r->count && c->procs == r->procs);
		const struct sched_seg *a = sched_profile_first(c), *b = sched_profile_first(r);
		for (; a != NULL && b != NULL; a = sched_profile_next(c, a), b = sched_profile_next(r, b))
			SCHED_ASSERT(a->time == b->time && a->free == b->free);
		SCHED_ASSERT(a == NULL && b == NULL);
	}
	sched_profile_clear(r);
}
#endif

/*
 * The fast way to a candidate's profile before its compression (one
 * partition): the shifted plan moved to ts and copied into work[0] with j
 * at ts, start_b/part_b set to the pushed-back plan. BUILD_FAILED: work[0]
 * is still empty (candidate() then copies the live profile for build_by_moves()).
 */
static enum built build_shifted(struct sched *s, const struct sched_job *j, sched_time_t ts, uint32_t n,
				struct shifted *sh)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	shifted_move(s, n, sh, ts);
	enum built built = shifted_build(s, j, ts);
#ifdef SCHED_DEBUG
	if (built != BUILD_FAILED)
		shifted_verify(s, j, ts, n, sh->shift, built);
#endif
	for (uint32_t i = 0; i < n && built == BUILT; i++) {
		const struct sched_job *k = x->jobs[i];
		x->part_b[i] = k->part;
		x->start_b[i] = movable(s, k, ts) ? k->start + sh->shift : k->start;
	}
	return built;
}

/*
 * The slow way, from the copy of the live profile in the work profiles:
 * jobs planned at or after ts are pushed back by `shift` (the new job's
 * estimate, or 0) and the new job (if any) is put at ts in partition jp;
 * start_b/part_b set. false if they do not all fit. O(n x segments).
 */
static bool build_by_moves(struct sched *s, const struct sched_job *j, sched_time_t ts, uint8_t jp,
			   sched_time_t shift, uint32_t n)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	/* The shift releases and reserves many jobs; in AST order (the default heuristic) their
	 * starts ascend, so each pass walks the profile once with a cursor per partition. */
	const struct sched_seg *cur[SCHED_MAX_PARTITIONS];
	for (unsigned p = 0; p < SCHED_MAX_PARTITIONS; p++)
		cur[p] = NULL; /* not an initializer: GCC would call memset, which the core must not */
	for (uint32_t i = 0; i < n; i++) {
		struct sched_job *k = x->jobs[i];
		x->start_b[i] = k->start;
		x->part_b[i] = k->part;
		if (movable(s, k, ts) && shift > 0)
			(void)sched_profile_release_from(&x->work[k->part], &cur[k->part], k->start, k->estimate, k->procs);
	}
	/* The new job goes in before the shifted jobs: reserves only take processors, so
	 * whether they all fit does not depend on their order, and a slot where it does
	 * not fit (about one candidate in six) is known before n reserves. */
	if (j != NULL && sched_profile_reserve(&x->work[jp], ts, j->estimate, j->procs) != SCHED_OK)
		return false;
	for (unsigned p = 0; p < SCHED_MAX_PARTITIONS; p++)
		cur[p] = NULL;
	for (uint32_t i = 0; i < n && shift > 0; i++) {
		struct sched_job *k = x->jobs[i];
		if (!movable(s, k, ts))
			continue;
		if (k->start > SCHED_TIME_MAX - 1 - shift - k->estimate ||
		    sched_profile_reserve_from(&x->work[k->part], &cur[k->part], k->start + shift, k->estimate,
					       k->procs) != SCHED_OK)
			return false;
		x->start_b[i] = k->start + shift;
	}
	return true;
}

/*
 * Compress the jobs movable at ts one by one in heuristic order (the order
 * of scratch.jobs), each to its earliest anchor in the work profiles.
 * false as soon as one ends past its slack. O(n x segments).
 */
static bool compress_candidate(struct sched *s, const struct sched_job *j, sched_time_t ts, uint32_t n)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	for (uint32_t i = 0; i < n; i++) {
		struct sched_job *k = x->jobs[i];
		if (!movable(s, k, ts))
			continue;
		if (s->n_parts == 1) {
			/* Search, release and reserve from the anchor's segment: one scan, not three. */
			sched_time_t a;
			int e = sched_profile_move_earlier(&x->work[0], sched_earliest(s, k), k->procs, k->estimate,
							   x->start_b[i], &a);
			if (e == SCHED_OK)
				x->start_b[i] = a;
			else if (e != SCHED_E_RANGE)
				return false; /* cannot happen: the slot was free with k's own released */
		} else {
			uint8_t np = x->part_b[i];
			sched_time_t a = earlier_in_work(s, k, x->start_b[i], x->part_b[i], &np);
			if (a != SCHED_TIME_MAX) {
				(void)sched_profile_release(&x->work[x->part_b[i]], x->start_b[i], k->estimate, k->procs);
				if (sched_profile_reserve(&x->work[np], a, k->estimate, k->procs) != SCHED_OK)
					return false; /* cannot happen: the slot was free with k's own released */
				x->start_b[i] = a;
				x->part_b[i] = np;
			}
		}
		/* Later moves never touch k again: a delay past its slack already makes the price
		 * infinite, so the rest of the compression would be wasted. */
		if (beyond_slack(j, k, (int64_t)x->start_b[i] - (int64_t)k->start))
			return false;
	}
	return true;
}

/*
 * One candidate: jobs planned at or after ts are pushed back by `shift`
 * (the new job's estimate, or 0), the new job (if any) is put at ts in
 * partition jp, then those jobs are compressed in heuristic order. The
 * result lands in start_b/part_b. Returns false if the candidate is
 * infeasible, or (with *no_room set) if the scratch cannot hold it;
 * otherwise its price and number of moved jobs.
 */
static bool candidate(struct sched *s, const struct sched_job *j, sched_time_t ts, uint8_t jp,
		      sched_time_t shift, uint32_t n, struct shifted *sh, struct sched_num *price, uint32_t *moves,
		      bool *no_room)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	/* The fast build writes work[0] anew: the live profile is copied only when it fails. */
	bool fast = sh != NULL && sh->on && j != NULL;
	if (!(fast ? sched_scratch_ready(s) : sched_scratch_copy(s))) {
		*no_room = true;
		return false;
	}
	enum built built = fast ? build_shifted(s, j, ts, n, sh) : BUILD_FAILED;
	if (fast && built == BUILD_FAILED && sched_profile_copy(&x->work[0], x->segs, sched_prof(s, 0)) != SCHED_OK) {
		sched_scratch_clear(s);
		*no_room = true;
		return false;
	}
	bool ok = built == BUILD_FAILED ? build_by_moves(s, j, ts, jp, shift, n) : built == BUILT;
	ok = ok && compress_candidate(s, j, ts, n);
	sched_scratch_clear(s);
	if (!ok)
		return false;
	struct sched_num p = j != NULL ? own_price(s, j, ts) : num_zero();
	uint16_t pj3 = j == NULL || over_quota(j) ? 3000u : sj_c(j)->prio3; /* as the callers' order */
	uint32_t m = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct sched_job *k = x->jobs[i];
		int64_t t = (int64_t)x->start_b[i] - (int64_t)k->start;
		if (t == 0 && x->part_b[i] == k->part)
			continue;
		m++;
		SCHED_ASSERT(!beyond_slack(j, k, t)); /* the compression above gave up on those */
		p = num_add(p, sched_slack_cost(s, factor_of(s, x, i, pj3), t));
	}
	*price = p;
	*moves = m;
	return true;
}

/* Move the jobs to the kept schedule (start_a/part_a) and charge or refund their slack. */
static void apply(struct sched *s, uint32_t n)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	for (uint32_t i = 0; i < n; i++) {
		struct sched_job *k = x->jobs[i];
		if (x->start_a[i] != k->start || x->part_a[i] != k->part)
			sched_unreserve(s, k);
	}
	for (uint32_t i = 0; i < n; i++) {
		struct sched_job *k = x->jobs[i];
		if (k->reserved)
			continue;
		int64_t t = (int64_t)x->start_a[i] - (int64_t)k->start;
		int err = sched_reserve_at(s, k, x->start_a[i], x->part_a[i]);
		SCHED_ASSERT(err == SCHED_OK); /* the same placements fitted in the copy */
		(void)err;
		if (sj(k)->slack != SCHED_SLACK_INF) {
			int64_t left = (int64_t)sj(k)->slack - t;
			sj(k)->slack = left > SCHED_SLACK_INF - 1 ? SCHED_SLACK_INF - 1 : (int32_t)left;
		}
		if (t < 0)
			s->counters.moved++;
	}
}

/* The cheapest schedule found so far. */
struct best {
	struct sched_num price;
	uint32_t moves;
	sched_time_t ts;   /* where the new job goes */
	uint8_t part;
	uint32_t rank;     /* its place in the order of section 2.4's search (conservative's: 0) */
	bool moved;        /* start_a/part_a hold a schedule that moves jobs */
	bool no_room;      /* a candidate did not fit the scratch: the search is void */
};

/*
 * Keep the candidate now in start_b if it is cheaper, or as cheap with
 * fewer moves (section 2.3: "when two schedules are equally priced, we'll
 * choose the schedule with the least number of moved jobs"). `more_ties`
 * (a removal under removal_ties = more) turns that tie around. A full tie
 * goes to the candidate first in the search's order (`rank`): the one a
 * search in that order keeps, whatever order the candidates are built in.
 */
static bool better(const struct best *b, struct sched_num price, uint32_t moves, bool more_ties, uint32_t rank)
{
	int c = num_cmp(price, b->price);
	if (c != 0)
		return c < 0;
	if (moves != b->moves)
		return more_ties ? moves > b->moves : moves < b->moves;
	return rank < b->rank;
}

static void keep(struct sched_work *x, uint32_t n, struct best *b, struct sched_num price,
		 uint32_t moves, sched_time_t ts, uint8_t part, bool more_ties, uint32_t rank)
{
	if (!better(b, price, moves, more_ties, rank))
		return;
	b->price = price;
	b->rank = rank;
	b->moves = moves;
	b->ts = ts;
	b->part = part;
	b->moved = true;
	for (uint32_t i = 0; i < n; i++) {
		x->start_a[i] = x->start_b[i];
		x->part_a[i] = x->part_b[i];
	}
}

/* The copy of every profile, plus the new job, must fit the scratch area. */
static bool room(struct sched *s)
{
	return sched_scratch_room(s, s->n_waiting + s->n_running + 1);
}

/* A job's scheduler priority and slack, once, from its first placement under slack (section 2.2). */
void sched_slack_settle(struct sched *s, struct sched_job *j)
{
	if (sj(j)->settled)
		return;
	sj(j)->settled = 1;
	if (over_quota(j)) {
		sj(j)->slack = SCHED_SLACK_INF;
		return;
	}
	uint64_t sp = (uint64_t)(j->start - s->now) * 1000u / (2u * (uint64_t)params_of(s)->awt);
	if (sp > 1000)
		sp = 1000;
	sj(j)->prio3 = (uint16_t)(sj(j)->prio3 - 500u + sp);
	sj(j)->slack = sched_slack_initial(s, sj(j)->prio3);
}

static bool profile_has_time(const struct sched_profile *prof, sched_time_t t)
{
	for (const struct sched_seg *g = sched_profile_first(prof); g != NULL && g->time <= t;
	     g = sched_profile_next(prof, g))
		if (g->time == t)
			return true;
	return false;
}

/* Does one of the first i jobs of the order start at t (a slot already tried)? */
static bool started_before(const struct sched_work *x, uint32_t i, sched_time_t t)
{
	for (uint32_t k = 0; k < i; k++)
		if (x->jobs[k]->start == t)
			return true;
	return false;
}

/*
 * Try one candidate. Once one has not fitted the scratch the search stops:
 * the cheapest of the others is no answer to what the paper asks (the
 * cheapest of them all), so the caller falls back as it does when the
 * scratch is too small from the start.
 */
static void try_slot(struct sched *s, const struct sched_job *j, sched_time_t ts, uint8_t part, uint32_t n,
		     sched_time_t last_start, struct shifted *sh, struct best *b, uint32_t rank)
{
	struct sched_num price;
	uint32_t moves;
	if (b->no_room)
		return;
	/* After the last planned start nobody can move: the candidate is the newcomer alone,
	 * priced at its own term with no move, which decides it without building it. Past
	 * the anchor (where it fits) that never beats conservative's schedule. */
	if (j != NULL && ts > last_start && !better(b, own_price(s, j, ts), 0, false, rank))
		return;
	if (candidate(s, j, ts, part, j != NULL ? j->estimate : 0, n, sh, &price, &moves, &b->no_room)) {
		struct sched_work xw = sched_work_of(s);
		keep(&xw, n, b, price, moves, ts, part, j == NULL && params_of(s)->removal_ties == SCHED_TIES_MORE,
		     rank);
	}
}

/*
 * The slots of partition p (section 2.4), ranked from `rank` in the search's
 * order: where its profile changes, then where a waiting job starts that the
 * profile does not show (the profile merges a job that starts as another ends
 * into one segment, but the slot between them is still a choice). Under AST
 * the starts ascend, so the two lists are walked together in time order, each
 * slot with its rank: the shifted plan then moves each job across once, not
 * three times, and better() keeps what the search's order would. O(slots).
 */
static void try_partition(struct sched *s, const struct sched_job *j, uint8_t p, uint32_t n, sched_time_t last_start,
			  struct shifted *sh, struct best *b, uint32_t rank)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	const struct sched_profile *prof = sched_prof(s, p);
	const struct sched_seg *g = sched_profile_first(prof);
	uint32_t job_rank = rank + prof->count; /* the jobs' slots come after the profile's */
	if (params_of(s)->heuristic != SCHED_HEUR_AST) {
		for (; g != NULL; g = sched_profile_next(prof, g))
			try_slot(s, j, g->time, p, n, last_start, sh, b, rank++);
		for (uint32_t i = 0; i < n; i++) {
			sched_time_t ts = x->jobs[i]->start;
			if (!profile_has_time(prof, ts) && !started_before(x, i, ts))
				try_slot(s, j, ts, p, n, last_start, sh, b, job_rank + i);
		}
		return;
	}
	sched_time_t shown = SCHED_TIME_MAX; /* the last slot tried, from the profile or a job */
	for (uint32_t i = 0; g != NULL || i < n;) {
		sched_time_t jt = i < n ? x->jobs[i]->start : SCHED_TIME_MAX;
		SCHED_ASSERT(i == 0 || i >= n || x->jobs[i - 1]->start <= jt);
		if (g != NULL && g->time <= jt) {
			try_slot(s, j, g->time, p, n, last_start, sh, b, rank++);
			shown = g->time;
			g = sched_profile_next(prof, g);
		} else {
			/* A start the profile shows, or an earlier job's: tried already. */
			if (jt != shown)
				try_slot(s, j, jt, p, n, last_start, sh, b, job_rank + i);
			shown = jt;
			i++;
		}
	}
}

static int admit_slack(struct sched *s, struct sched_job *j)
{
	/* Conservative's schedule is always a candidate: j at its anchor, nobody moved. */
	struct best b;
	b.moves = 0;
	b.rank = 0;
	b.ts = SCHED_TIME_MAX;
	b.part = j->part;
	b.moved = false;
	b.no_room = false;
	for (unsigned p = 0; p < s->n_parts; p++) {
		if (!(j->allowed & (1u << p)))
			continue;
		sched_time_t a = sched_profile_find(sched_prof(s, p), s->now, j->procs, j->estimate);
		if (a < b.ts) {
			b.ts = a;
			b.part = (uint8_t)p;
		}
	}
	if (b.ts == SCHED_TIME_MAX)
		return SCHED_E_RANGE;
	b.price = own_price(s, j, b.ts);
	sched_time_t anchor = b.ts;
	uint8_t anchor_part = b.part;
	uint32_t n = 0;
	if (b.ts > s->now && !room(s)) {
		s->counters.scratch_short++;
	} else if (b.ts > s->now) {
		n = sched_slack_order(s, j, over_quota(j) ? 3000u : sj_c(j)->prio3);
		struct sched_work xw = sched_work_of(s);
		sched_time_t last_start = 0; /* of the jobs a candidate may move */
		for (uint32_t i = 0; i < n; i++)
			if (xw.jobs[i]->start > last_start)
				last_start = xw.jobs[i]->start;
		/* Each time slot of a profile the job may use: j there, the later jobs pushed back
		 * by its estimate, then compressed (section 2.4; the slots: try_partition()). */
		struct shifted sh;
		shifted_begin(s, n, j->estimate, &sh);
		uint32_t rank = 1;
		for (unsigned p = 0; p < s->n_parts; p++) {
			if (!(j->allowed & (1u << p)))
				continue;
			try_partition(s, j, (uint8_t)p, n, last_start, &sh, &b, rank);
			rank += sched_prof(s, p)->count + n;
		}
		shifted_end(s, &sh);
	}
	if (b.no_room) {
		/* As without room from the start: conservative's schedule, nobody moved. */
		s->counters.scratch_short++;
		b.moved = false;
		b.ts = anchor;
		b.part = anchor_part;
	}
	if (b.moved)
		apply(s, n);
	int err = sched_reserve_at(s, j, b.ts, b.part);
	SCHED_ASSERT(err == SCHED_OK); /* its place was free in the kept schedule */
	sched_slack_settle(s, j);
	sched_plan_refresh(s);
	return err;
}

/*
 * Capacity came free: a waiting job was cancelled (Remove, section 2.1), or
 * a running job ended early (Tick, by early_end). The removal search with a
 * dummy timeless job: for each distinct planned start ts, the jobs from ts
 * on are compressed in heuristic order; the most profitable (most negative)
 * price wins, no change (price 0) being a candidate.
 */
static void reflow_slack(struct sched *s, bool ended)
{
	if (ended && params_of(s)->early_end == SCHED_END_COMPRESS) {
		sched_compress(s); /* conservative's Tick: arrival order, nobody delayed, slacks untouched */
		return;
	}
	if (ended && params_of(s)->early_end == SCHED_END_KEEP) {
		sched_plan_refresh(s); /* Tick word for word: due jobs start, nobody moves */
		return;
	}
	s->counters.reflows++;
	if (s->n_waiting == 0)
		return;
	if (!room(s)) {
		s->counters.scratch_short++;
		sched_compress(s); /* no room to search: plain compression, which never delays */
		return;
	}
	struct sched_work xw = sched_work_of(s), *x = &xw;
	uint32_t n = sched_slack_order(s, NULL, 3000u);
	struct best b;
	b.moves = 0;
	b.rank = 0;
	b.ts = 0;
	b.part = 0;
	b.moved = false;
	b.no_room = false;
	b.price = num_zero();
	for (uint32_t i = 0; i < n; i++) {
		sched_time_t ts = x->jobs[i]->start;
		if (!started_before(x, i, ts))
			try_slot(s, NULL, ts, 0, n, SCHED_TIME_MAX, NULL, &b, i + 1u);
	}
	if (b.no_room) {
		s->counters.scratch_short++;
		sched_compress(s); /* as without room from the start */
		return;
	}
	if (b.moved)
		apply(s, n);
	sched_plan_refresh(s);
}

/*
 * A job's slack state, slack being the job owner (struct sched's job_owner):
 * at submit, UP + PP from its descriptor and an SP of 1/2 until it is placed
 * (section 2.2), no slack yet. A job already in the system when slack becomes
 * the owner (after another policy with per-job state) has lost its
 * descriptor: UP = PP = 0.
 */
static void job_init(struct sched *s, struct sched_job *j, const struct sched_job_desc *d)
{
	(void)s;
	uint32_t up = d == NULL ? 0 : d->up_milli > 1000u ? 1000u : d->up_milli;
	uint32_t pp = d == NULL ? 0 : d->pp_milli > 1000u ? 1000u : d->pp_milli;
	bool over = d != NULL && d->pp_milli == SCHED_PP_OVER_QUOTA;
	sj(j)->prio3 = over ? (uint16_t)SCHED_PRIO_OVER_QUOTA : (uint16_t)(up + pp + 500u);
	sj(j)->slack = SCHED_SLACK_INF;
	sj(j)->settled = 0;
}

/* What sched_job_read reports of it. */
static void job_info(const struct sched_job *j, struct sched_job_info *out)
{
	out->slack = sj_c(j)->slack;
	out->prio3 = sj_c(j)->prio3;
}

/* Taking over: every waiting job planned afresh; one without a scheduler priority yet gets it
 * from that placement, with its initial slack (section 2.2: once). */
static void enter_slack(struct sched *s)
{
	sched_replan_all(s);
	struct sched_list *it;
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *j = sched_job_of(it);
		if (j->reserved)
			sched_slack_settle(s, j);
	}
}

static const char *const heuristic_names[SCHED_HEUR_COUNT + 1] = {"ast", "aat", "du", "dc", "dp", NULL};
static const char *const early_end_names[SCHED_END_COUNT + 1] = {"compress", "search", "keep", NULL};
static const char *const removal_ties_names[SCHED_TIES_COUNT + 1] = {"fewer", "more", NULL};

#define SLACK_SET SCHED_PARAM_AT(SLACK, struct slack_params, set)
#define ALPHA(nm, i, what)                                                                             \
	{.name = nm, .kind = SCHED_PARAM_MILLI, .unit = "", .offset = SCHED_PARAM_AT(SLACK, struct slack_params, alpha_milli[i]), \
	 .size = 2, .set_offset = SLACK_SET, .min = 0, .max = 1000, .def = 1000,                              \
	 .help = "weight of " what " in a job's cost (s. 2.2)"}

static const struct sched_param params[] = {
	{.name = "sf", .kind = SCHED_PARAM_MILLI, .unit = "", .offset = SCHED_PARAM_AT(SLACK, struct slack_params, sf_milli),
	 .size = 4, .set_offset = SLACK_SET, .min = 0, .max = 1000000u, .def = 3000,
	 .help = "slack factor SF: a job may be delayed by SF x AWT, scaled by its priority (s. 3.2)"},
	{.name = "awt", .kind = SCHED_PARAM_SECONDS, .unit = "s", .offset = SCHED_PARAM_AT(SLACK, struct slack_params, awt),
	 .size = 4, .set_offset = SLACK_SET, .min = 1, .max = SCHED_NOW_LIMIT - 1u, .def = 2401,
	 .help = "average wait time AWT of the site (s. 3: 2401 s, conservative on the KTH trace)"},
	ALPHA("alpha-u", 0, "utilization"),
	ALPHA("alpha-t", 1, "the delay"),
	ALPHA("alpha-p", 2, "priority"),
	ALPHA("alpha-f", 3, "the slack ratio"),
	{.name = "heuristic", .kind = SCHED_PARAM_CHOICE, .unit = "", .choices = heuristic_names,
	 .offset = SCHED_PARAM_AT(SLACK, struct slack_params, heuristic), .size = 1, .set_offset = SLACK_SET,
	 .min = 0, .max = SCHED_HEUR_COUNT - 1u, .def = SCHED_HEUR_AST, .listable = true,
	 .help = "order of re-insertion (s. 2.4): ascending scheduled time, arrival, descending "
		 "utilization, cost, priority"},
	{.name = "early-end", .kind = SCHED_PARAM_CHOICE, .unit = "", .choices = early_end_names,
	 .offset = SCHED_PARAM_AT(SLACK, struct slack_params, early_end), .size = 1, .set_offset = SLACK_SET,
	 .min = 0, .max = SCHED_END_COUNT - 1u, .def = SCHED_END_COMPRESS,
	 .help = "when a job ends before its estimate: compress as conservative does (s. 2.1's Tick), "
		 "the removal search of s. 2.1, or keep the plan"},
	{.name = "removal-ties", .kind = SCHED_PARAM_CHOICE, .unit = "", .choices = removal_ties_names,
	 .offset = SCHED_PARAM_AT(SLACK, struct slack_params, removal_ties), .size = 1, .set_offset = SLACK_SET,
	 .min = 0, .max = SCHED_TIES_COUNT - 1u, .def = SCHED_TIES_FEWER,
	 .help = "equally priced schedules in a removal search: fewer moved jobs (s. 2.3), or more"},
};

const struct sched_policy sched_policy_slack = {
	.name = "slack",
	.help = "slack-based backfilling: the cheapest schedule within every job's slack, with user and "
		"political priorities (Talby & Feitelson 1999, s. 2)",
	.params = params,
	.n_params = sizeof params / sizeof params[0],
	.family = "plan",
	.needs_scratch = true,
	.job_bytes = sizeof(struct sched_slack_job),
	.job_init = job_init,
	.job_info = job_info,
	.enter = enter_slack,
	.admit = admit_slack,
	.reflow = reflow_slack,
	.pass = sched_start_due,
	.predict = sched_predict_reserved,
};
