/* SPDX-License-Identifier: MIT */
/* Planning helpers shared by the planning policies: reservations across partitions, compression, the pass. */
#include "sched_priv.h"

static bool allowed(const struct sched_job *j, unsigned p)
{
	return (j->allowed & (1u << p)) != 0;
}

void sched_note_reserved(struct sched *s, struct sched_job *j, sched_time_t start, uint8_t part)
{
	j->start = start;
	j->part = part;
	j->reserved = 1;
	sched_plan_note(s, start);
}

int sched_reserve_at(struct sched *s, struct sched_job *j, sched_time_t start, uint8_t part)
{
	int err = sched_profile_reserve(sched_prof(s, part), start, j->estimate, j->procs);
	if (err != SCHED_OK)
		return err;
	sched_note_reserved(s, j, start, part);
	return SCHED_OK;
}

int sched_place(struct sched *s, struct sched_job *j, sched_time_t earliest)
{
	if (earliest < sched_earliest(s, j))
		earliest = sched_earliest(s, j);
	sched_time_t best = SCHED_TIME_MAX;
	uint8_t best_part = 0;
	unsigned options = 0;
	for (unsigned p = 0; p < s->n_parts; p++) {
		if (!allowed(j, p))
			continue;
		options++;
		best_part = (uint8_t)p;
	}
	if (options == 1) {
		/* One partition: find and reserve in a single scan. */
		sched_time_t at;
		int err = sched_profile_place(sched_prof(s, best_part), earliest, j->procs, j->estimate, &at);
		if (err != SCHED_OK)
			return err;
		sched_note_reserved(s, j, at, best_part);
		return SCHED_OK;
	}
	/* Several: the earliest anchor over all of them; ties go to the lowest-numbered partition. */
	for (unsigned p = 0; p < s->n_parts; p++) {
		if (!allowed(j, p))
			continue;
		sched_time_t a = sched_profile_find(sched_prof(s, p), earliest, j->procs, j->estimate);
		if (a < best) {
			best = a;
			best_part = (uint8_t)p;
		}
	}
	if (best == SCHED_TIME_MAX)
		return SCHED_E_RANGE;
	return sched_reserve_at(s, j, best, best_part);
}

void sched_unreserve(struct sched *s, struct sched_job *j)
{
	SCHED_ASSERT(j->reserved);
	int err = sched_profile_release(sched_prof(s, j->part), j->start, j->estimate, j->procs);
	SCHED_ASSERT(err == SCHED_OK);
	(void)err;
	j->reserved = 0;
}

bool sched_move_earlier(struct sched *s, struct sched_job *j)
{
	sched_time_t from = sched_earliest(s, j);
	if (!j->reserved || j->start <= from)
		return false; /* already due, or held back by its queue's limits until then */
	if (s->n_parts == 1) {
		/* One partition: the common case, without the partition loop. */
		sched_time_t a;
		int e = sched_profile_move_earlier(sched_prof(s, 0), from, j->procs, j->estimate, j->start, &a);
		if (e == SCHED_E_RANGE)
			return false;
		SCHED_ASSERT(e == SCHED_OK); /* the slot was free once j's own was released */
		(void)e;
		sched_note_reserved(s, j, a, 0);
		return true;
	}
	sched_time_t best = SCHED_TIME_MAX;
	uint8_t best_part = j->part;
	for (unsigned p = 0; p < s->n_parts; p++) {
		if (!allowed(j, p))
			continue;
		/* Read-only first: most jobs of a long queue cannot move. In its own partition the
		 * job's reservation counts as free; elsewhere the search stops at its current start. */
		sched_time_t a = p == j->part
			? sched_profile_find_earlier(sched_prof(s, p), from, j->procs, j->estimate, j->start)
			: sched_profile_find_before(sched_prof(s, p), from, j->procs, j->estimate, j->start);
		if (a < best) {
			best = a;
			best_part = (uint8_t)p;
		}
	}
	if (best == SCHED_TIME_MAX)
		return false;
	sched_unreserve(s, j);
	int err = sched_reserve_at(s, j, best, best_part);
	SCHED_ASSERT(err == SCHED_OK); /* the slot was free once j's own was released */
	(void)err;
	return true;
}

/*
 * Compression, the second way of seed 000 section 2.1: keep the profile
 * and, in plan order, remove each waiting job and re-insert it at its
 * earliest anchor. The old slot is still free after the removal, so the new
 * start is never later: guarantees hold. O(n) jobs x O(n) segments; with
 * compress_depth D (cons), O(D) jobs.
 */
void sched_compress(struct sched *s)
{
	s->counters.reflows++;
	uint32_t left = sched_cons_compress_depth(&s->cfg); /* cons's parameter, honoured by every compression */
	uint32_t reserved_left = sched_reservation_depth(s);
	/* The earliest reservation, in the same walk when it sees them all (a move changes only
	 * the job moved): sched_plan_refresh's second walk of every waiting job is then spared. */
	sched_time_t first = SCHED_TIME_MAX;
	bool all_seen = true;
	struct sched_list *it;
	if (s->n_parts == 1)
		sched_profile_resume(sched_prof(s, 0), true); /* moves alone change it until the end */
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *j = sched_job_of(it);
		if (sched_move_earlier(s, j))
			s->counters.moved++;
		if (j->reserved && j->start < first)
			first = j->start;
		if (left != 0 && --left == 0) {
			all_seen = false; /* the depth is reached: the rest keep their reservations */
			break;
		}
		/* A move keeps the reservation, so j->reserved is what it was before. */
		if (reserved_left != 0 && j->reserved && --reserved_left == 0)
			break; /* the jobs after the reservation depth hold nothing to move, or reserved */
	}
	if (s->n_parts == 1)
		sched_profile_resume(sched_prof(s, 0), false);
	if (all_seen)
		s->first_start = first;
	else
		sched_plan_refresh(s);
}

void sched_reflow_compress(struct sched *s, bool ended)
{
	(void)ended;
	sched_compress(s);
}

void sched_depth_settle(struct sched *s, bool drop)
{
	uint32_t depth = sched_reservation_depth(s);
	uint32_t n = 0;
	struct sched_list *it;
	if (drop && depth != 0) {
		/* First, so that the jobs within the depth are placed in the room these leave. */
		sched_list_for_each(it, &s->waiting) {
			struct sched_job *k = sched_job_of(it);
			if (sched_is_background(s, k) || n++ < depth || !k->reserved)
				continue;
			sched_unreserve(s, k);
			k->guarantee = SCHED_TIME_MAX;
		}
	}
	n = 0;
	/* Only the jobs this walk sees hold reservations when it is done (background jobs never do,
	 * and the rest are beyond the depth), so it finds the earliest too: no second walk. */
	sched_time_t first = SCHED_TIME_MAX;
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *k = sched_job_of(it);
		if (sched_is_background(s, k))
			continue;
		if (depth != 0 && n++ >= depth)
			break;
		if (!k->reserved) {
			/* Reached the depth: from now on the job has a guarantee, as at a submit under cons. */
			int err = sched_place(s, k, s->now);
			SCHED_ASSERT(err == SCHED_OK); /* admission checked that it fits the machine */
			(void)err;
			k->guarantee = k->start;
		}
		if (k->start < first)
			first = k->start;
	}
	s->first_start = first;
}

void sched_enter_planning(struct sched *s)
{
	sched_replan_all(s);
}

void sched_replan_all(struct sched *s)
{
	struct sched_list *it;
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *k = sched_job_of(it);
		if (k->reserved)
			sched_unreserve(s, k);
	}
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *k = sched_job_of(it);
		if (sched_is_background(s, k))
			continue;
		int err = sched_place(s, k, s->now);
		SCHED_ASSERT(err == SCHED_OK);
		(void)err;
	}
	sched_plan_refresh(s);
}

int sched_admit_strict(struct sched *s, struct sched_job *j)
{
	/* Jobs after j in the plan are of a lower queue priority: j goes ahead of them. */
	bool behind = sched_next_waiting(s, j) != NULL;
	struct sched_job *k;
	if (behind)
		for (k = sched_next_waiting(s, j); k != NULL; k = sched_next_waiting(s, k))
			if (k->reserved)
				sched_unreserve(s, k);
	int err = sched_place(s, j, s->now);
	if (behind) {
		for (k = sched_next_waiting(s, j); k != NULL; k = sched_next_waiting(s, k)) {
			if (sched_is_background(s, k))
				continue;
			int e = sched_place(s, k, s->now);
			SCHED_ASSERT(e == SCHED_OK);
			(void)e;
			k->guarantee = k->start; /* a higher queue went ahead: the old guarantee is void */
		}
		sched_plan_refresh(s);
	}
	return err;
}

/* Start the jobs whose reservation is due; those a queue limit holds back get a later one. Sets
 * first_start to the earliest reservation left (what sched_plan_refresh would). O(n). */
static bool start_reserved_due(struct sched *s)
{
	bool freed = false;
	sched_time_t first = SCHED_TIME_MAX; /* sched_plan_refresh's answer, in the same walk */
	struct sched_list *it, *tmp;
	sched_list_for_each_safe(it, tmp, &s->waiting) {
		struct sched_job *j = sched_job_of(it);
		if (!j->reserved)
			continue;
		if (j->start > s->now) {
			if (j->start < first)
				first = j->start;
			continue;
		}
		sched_time_t retry;
		if (sched_limits_allow(s, j, &retry)) {
			sched_start_job(s, j, j->part); /* moves no other reservation */
			continue;
		}
		/* The limit frees up no earlier than when a blocking job ends; until then no
		 * compression may bring the job back to now (it would be held again, forever). */
		s->counters.limited++;
		sched_unreserve(s, j);
		j->hold = retry;
		int err = sched_place(s, j, retry); /* places j alone */
		SCHED_ASSERT(err == SCHED_OK && j->start > s->now);
		(void)err;
		if (j->start < first)
			first = j->start;
		freed = true;
	}
	s->first_start = first;
	return freed;
}

/* Background jobs have no reservation: they start when nothing of a higher queue waits and they fit now. */
static void start_background(struct sched *s)
{
	struct sched_list *it, *tmp;
	sched_list_for_each_safe(it, tmp, &s->waiting) {
		struct sched_job *j = sched_job_of(it);
		if (!sched_is_background(s, j))
			continue;
		if (sched_background_held(s, j))
			break;
		sched_time_t retry;
		if (!sched_limits_allow(s, j, &retry))
			continue;
		for (unsigned p = 0; p < s->n_parts; p++) {
			if (allowed(j, p) &&
			    sched_profile_find(sched_prof(s, p), s->now, j->procs, j->estimate) == s->now) {
				sched_start_job(s, j, (uint8_t)p);
				break;
			}
		}
	}
}

void sched_start_due(struct sched *s)
{
	for (;;) {
		if (s->first_start > s->now)
			break; /* nothing is due (first_start is never later than the earliest reservation) */
		bool freed = start_reserved_due(s); /* also refreshes first_start: one walk, not two */
		if (!freed)
			break;
		/* A held-back job left a hole at now: let the others use it, then start what became due. */
		sched_pol_reflow(s, false);
		if (s->first_start > s->now)
			break;
	}
	if (s->has_background)
		start_background(s);
}

bool sched_running_profile(struct sched *s, unsigned part, struct sched_profile *prof, struct sched_pool *pool)
{
	/* Profiles are canonical (sorted, merged, trimmed at now), so this is the very list that
	 * releasing every reservation would leave; a running job past its estimate holds nothing. */
	sched_procs_t held = 0;
	uint32_t steps = 0;
	sched_time_t last = s->now;
	const struct sched_list *it;
	sched_list_for_each(it, &s->running) {
		const struct sched_job *j = sched_job_of((struct sched_list *)it);
		if (j->part != part || sched_job_end(j) <= s->now)
			continue;
		held += j->procs;
		if (sched_job_end(j) != last)
			steps++;
		last = sched_job_end(j);
	}
	sched_procs_t procs = s->part[part].procs;
	if (sched_profile_restart(prof, pool, procs, s->now, procs - held, steps) != SCHED_OK)
		return false;
	/* The running list is in ascending end order: one step up per distinct end. */
	sched_procs_t free = procs - held;
	last = s->now;
	sched_list_for_each(it, &s->running) {
		const struct sched_job *j = sched_job_of((struct sched_list *)it);
		if (j->part != part || sched_job_end(j) <= s->now)
			continue;
		if (sched_job_end(j) != last && last != s->now)
			sched_profile_append(prof, last, free);
		free += j->procs;
		last = sched_job_end(j);
	}
	if (last != s->now)
		sched_profile_append(prof, last, free);
	SCHED_ASSERT(free == procs);
	return true;
}

/* --- scratch ---------------------------------------------------------------------------- */

bool sched_scratch_room(struct sched *s, uint32_t jobs)
{
	return jobs <= s->scratch.cap && !SCHED_FAIL(SCHED_FAIL_SCRATCH_JOBS);
}

void sched_scratch_clear(struct sched *s)
{
	for (unsigned p = 0; p < s->n_parts; p++) {
		struct sched_profile *w = &s->scratch.work[p];
		if (w->pool != 0 && w->count > 0)
			sched_profile_clear(w);
	}
}

bool sched_scratch_ready(struct sched *s)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	if (x->cap == 0 || s->n_waiting > x->cap)
		return false;
	sched_scratch_clear(s);
	/* One question for the profiles and every split a plan tried in them can make: the
	 * bound of cover_segments() (sched.c), as the trial holds no job the system does not.
	 * Callers have checked that the backlog fits (sched_scratch_room), so the pool,
	 * sized 2 x cap + 8, only refuses under fault injection. */
	return sched_pool_room(x->segs, 2u * (s->n_waiting + s->n_running) + s->n_parts);
}

bool sched_scratch_running(struct sched *s)
{
	if (!sched_scratch_ready(s))
		return false;
	for (unsigned p = 0; p < s->n_parts; p++) {
		if (!sched_running_profile(s, p, &s->scratch.work[p], &s->scratch.segs)) {
			sched_scratch_clear(s);
			return false;
		}
	}
	return true;
}

bool sched_scratch_copy(struct sched *s)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	if (!sched_scratch_ready(s))
		return false;
	for (unsigned p = 0; p < s->n_parts; p++) {
		if (sched_profile_copy(&x->work[p], x->segs, sched_prof(s, p)) != SCHED_OK) {
			sched_scratch_clear(s);
			return false;
		}
	}
	return true;
}

/* Earliest anchor of j in the work profiles, at or after `earliest`; partition in *part. */
static sched_time_t scratch_find(struct sched *s, const struct sched_job *j, sched_time_t earliest, uint8_t *part)
{
	sched_time_t best = SCHED_TIME_MAX;
	for (unsigned p = 0; p < s->n_parts; p++) {
		if (!allowed(j, p))
			continue;
		sched_time_t a = sched_profile_find(&s->scratch.work[p], earliest, j->procs, j->estimate);
		if (a < best) {
			best = a;
			*part = (uint8_t)p;
		}
	}
	return best;
}

int sched_scratch_place(struct sched *s, const struct sched_job *j, sched_time_t earliest, uint8_t *part,
			sched_time_t *at)
{
	if (s->n_parts == 1) {
		*part = 0;
		return sched_profile_place(&s->scratch.work[0], earliest, j->procs, j->estimate, at); /* one scan */
	}
	sched_time_t a = scratch_find(s, j, earliest, part);
	if (a == SCHED_TIME_MAX)
		return SCHED_E_RANGE;
	int err = sched_profile_reserve(&s->scratch.work[*part], a, j->estimate, j->procs);
	if (err == SCHED_OK)
		*at = a;
	return err;
}
