/* SPDX-License-Identifier: MIT */
/* Relaxed backfilling (Spear and McGalliard 2007, s. 2.1, Exhibit 8): a backfill may delay others by a bounded tolerance. */
#include "sched_priv.h"

/*
 * The paper: "With relaxed backfill, some small delays to the higher
 * priority jobs can be tolerated ... Relaxed backfill allows both jobs J3
 * and J4 to jump ahead of higher priority J2, even though the execution
 * time of J4 exceeds J1 and causes J2 to be delayed slightly" (s. 2.1,
 * Exhibit 8), "The delay tolerable by a higher priority job is a tunable
 * parameter", and the delay is limited so that no job starves (s. 2.2).
 * A backfill is a start on idle processors, so a job jumps ahead by
 * starting now; J3 and J4 were waiting already when they jumped.
 *
 * Every job first gets its conservative reservation (strict backfilling:
 * "no lower priority job can delay any higher priority job"). Then, with
 * the default scope (SCHED_RELAXED_ALL), every scheduling pass tries each
 * waiting job, in plan order, that fits on the processors idle now but is
 * reserved later: in the scratch profiles it starts now, and every other
 * waiting job is placed again in plan order at its earliest start not
 * before its current one. The trial is kept, and the job started, only if
 * every job of the tried job's queue priority or higher stays within its
 * tolerance:
 *
 *   new start <= current start + T   and   new start <= guarantee + T,
 *   T = tolerance + tolerance_permille x (that job's estimate) / 1000,
 *
 * the guarantee being the start it was given at submit. The first bound is
 * the paper's "delayed slightly" (J2's delay behind the strict schedule of
 * the moment); the second keeps several backfills from adding up, so no job
 * ever starts later than guarantee + T. With T = 0 nothing may be delayed
 * and the schedule is the conservative one exactly (no trial is made).
 * Jobs of a lower queue priority have no bound (a higher queue goes ahead
 * of them, as in strict mode). A trial never moves the others earlier;
 * compression does that when capacity frees early.
 *
 * SCHED_RELAXED_ARRIVAL, this project's first reading, tries only a job
 * that has just arrived, at its arrival (jobs due now count as started:
 * they start in this instant's pass).
 */

/* Relaxed's parameter block (its part of the configuration's parameter area). */
struct relaxed_params {
	sched_time_t tolerance;      /* delay allowed to others, seconds ... */
	uint32_t tolerance_permille; /* ... plus this share of the delayed job's estimate */
	uint8_t scope;               /* enum sched_relaxed_scope (default ALL) */
};
SCHED_PARAMS_BLOCK(RELAXED, struct relaxed_params);

static const struct relaxed_params *params_of(const struct sched *s)
{
	return sched_params_of(&s->cfg, SCHED_PARAMS_AT_RELAXED);
}

static sched_time_t tolerance(const struct sched *s, const struct sched_job *k)
{
	const struct relaxed_params *rp = params_of(s);
	uint64_t t = rp->tolerance + (uint64_t)rp->tolerance_permille * k->estimate / 1000u;
	return t > SCHED_NOW_LIMIT ? SCHED_NOW_LIMIT : (sched_time_t)t;
}

/*
 * Whether a trial that re-places k at `at` keeps it within its tolerance. A
 * job the trial does not delay never vetoes it: a queue limit or a higher
 * queue's backfill may already have put k past guarantee + T, and the paper
 * bounds only the delay a backfill causes ("cause J2 to be delayed slightly",
 * s. 2.1), so such a job must not switch relaxed backfilling off while it waits.
 */
static bool within(const struct sched *s, const struct sched_job *k, sched_time_t at)
{
	if (at <= k->start)
		return true;
	sched_time_t tol = tolerance(s, k);
	return at <= k->start + tol && (k->guarantee == SCHED_TIME_MAX || at <= k->guarantee + tol);
}

/* In the scratch profiles (already holding only running jobs): j starts now, if it fits anywhere. */
static bool trial_start_now(struct sched *s, struct sched_job *j, uint8_t *part)
{
	for (unsigned p = 0; p < s->n_parts; p++) {
		if (!(j->allowed & (1u << p)))
			continue;
		struct sched_profile *w = &s->scratch.work[p];
		if (sched_profile_find(w, s->now, j->procs, j->estimate) == s->now &&
		    sched_profile_reserve(w, s->now, j->estimate, j->procs) == SCHED_OK) {
			*part = (uint8_t)p;
			return true;
		}
	}
	return false;
}

/*
 * The scratch profiles a trial starts from: the running jobs and the jobs
 * due now (they start in this instant's pass, so they count as started),
 * every other reservation dropped. Built from the running jobs (O(R + S))
 * instead of a copy less n releases from the head (O(n x S)): the same
 * lists, profiles being canonical. false: no room.
 */
static bool trial_base(struct sched *s)
{
	if (!sched_scratch_running(s))
		return false;
	struct sched_list *it;
	sched_list_for_each(it, &s->waiting) {
		const struct sched_job *k = sched_job_of(it);
		if (!k->reserved || k->start > s->now || sched_job_end(k) <= s->now)
			continue;
		int err = sched_profile_reserve(&s->scratch.work[k->part], s->now, sched_job_end(k) - s->now, k->procs);
		SCHED_ASSERT(err == SCHED_OK); /* the live profile holds it over the same interval */
		(void)err;
	}
	return true;
}

/* k placed in the trial at its earliest start not before its current one; SCHED_TIME_MAX if none
 * (a refused trial is dropped whole, reservation and all). */
static sched_time_t trial_place(struct sched *s, const struct sched_job *k, uint8_t *part)
{
	sched_time_t at;
	return sched_scratch_place(s, k, k->start, part, &at) == SCHED_OK ? at : SCHED_TIME_MAX;
}

/*
 * A kept trial with one partition: its scratch profile is the live profile
 * the apply below would make (the same reservations), so it is copied in,
 * O(S), and only the jobs' records change. false: the live pool cannot take
 * the copy at once (the caller applies it job by job).
 */
static bool adopt_trial(struct sched *s, struct sched_job *j, uint8_t jpart, uint32_t n)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	struct sched_profile *live = sched_prof(s, 0);
	if (s->n_parts != 1 || sched_pool_available(&s->segs) + live->count < x->work[0].count)
		return false;
	sched_profile_clear(live);
	int err = sched_profile_copy(live, &s->segs, &x->work[0]);
	SCHED_ASSERT(err == SCHED_OK);
	(void)err;
	sched_note_reserved(s, j, s->now, jpart);
	for (uint32_t i = 0; i < n; i++)
		sched_note_reserved(s, x->jobs[i], x->start_a[i], x->part_a[i]);
	return true;
}

/*
 * Try j (reserved later than now) at now, as described at the top; keep the
 * trial if every bounded job stays within its tolerance. Returns whether j
 * now holds a reservation at now. O(n) placements in the scratch, each
 * O(segments).
 */
static bool try_start_now(struct sched *s, struct sched_job *j)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	if (!sched_scratch_room(s, s->n_waiting + s->n_running) || !trial_base(s)) {
		s->counters.scratch_short++;
		return false;
	}
	uint16_t prio = s->cfg.queues[j->queue].priority;
	struct sched_list *it;
	uint8_t jpart = 0;
	bool ok = trial_start_now(s, j, &jpart);
	uint32_t n = 0;
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *k = sched_job_of(it);
		if (!ok)
			break;
		if (k == j || !k->reserved || k->start <= s->now)
			continue;
		uint8_t part = k->part;
		sched_time_t at = trial_place(s, k, &part);
		bool bounded = s->cfg.queues[k->queue].priority >= prio;
		if (at == SCHED_TIME_MAX || (bounded && !within(s, k, at))) {
			ok = false;
			break;
		}
		x->jobs[n] = k;
		x->start_a[n] = at;
		x->part_a[n] = part;
		n++;
	}
	if (ok && adopt_trial(s, j, jpart, n)) {
		sched_scratch_clear(s);
		s->counters.relaxed++;
		sched_plan_refresh(s);
		return true;
	}
	sched_scratch_clear(s);
	if (!ok)
		return false;
	/* Apply: drop the reservations the trial moved, then take the trial's, so none ever overlap. */
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *k = sched_job_of(it);
		if (k->reserved && k->start > s->now)
			sched_unreserve(s, k);
	}
	int err = sched_reserve_at(s, j, s->now, jpart);
	for (uint32_t i = 0; err == SCHED_OK && i < n; i++)
		err = sched_reserve_at(s, x->jobs[i], x->start_a[i], x->part_a[i]);
	SCHED_ASSERT(err == SCHED_OK); /* the same placements fitted in the copy */
	s->counters.relaxed++;
	sched_plan_refresh(s);
	return true;
}

static bool any_tolerance(const struct sched *s)
{
	return params_of(s)->tolerance > 0 || params_of(s)->tolerance_permille > 0;
}

static int admit_relaxed(struct sched *s, struct sched_job *j)
{
	int err = sched_admit_strict(s, j);
	if (err == SCHED_OK && j->start > s->now && params_of(s)->scope == SCHED_RELAXED_ARRIVAL)
		(void)try_start_now(s, j);
	return err;
}

/* Could j start now on idle processors, its queue's limits and hold allowing? O(partitions). */
static bool could_start_now(const struct sched *s, const struct sched_job *j)
{
	if (!j->reserved || j->start <= s->now || sched_is_background(s, j) || sched_earliest(s, j) > s->now)
		return false;
	sched_time_t retry;
	if (!sched_limits_allow(s, j, &retry))
		return false;
	for (unsigned p = 0; p < s->n_parts; p++)
		if ((j->allowed & (1u << p)) && sched_profile_free_at(sched_prof_c(s, p), s->now) >= j->procs)
			return true;
	return false;
}

/*
 * The pass (SCHED_RELAXED_ALL): start what is due, then try every waiting
 * job in plan order, as Exhibit 8 lets J3 and J4, waiting already, jump
 * ahead of J2. A job that passes starts at once, so the next trial sees the
 * processors it took and the queue limits it uses. Only jobs that fit on
 * the processors idle now are tried: O(w) cheap tests for w waiting jobs,
 * plus O(w x segments) per trial.
 */
static void pass_relaxed(struct sched *s)
{
	sched_start_due(s);
	if (params_of(s)->scope != SCHED_RELAXED_ALL || !any_tolerance(s))
		return;
	bool started = false;
	struct sched_list *it, *tmp;
	sched_list_for_each_safe(it, tmp, &s->waiting) {
		struct sched_job *k = sched_job_of(it);
		if (!could_start_now(s, k) || !try_start_now(s, k))
			continue;
		sched_start_job(s, k, k->part);
		started = true;
	}
	if (started)
		sched_plan_refresh(s);
}

static const char *const scope_names[SCHED_RELAXED_SCOPE_COUNT + 1] = {"all", "arrival", NULL};

static const struct sched_param params[] = {
	{.name = "tolerance", .kind = SCHED_PARAM_SECONDS, .unit = "s",
	 .offset = SCHED_PARAM_AT(RELAXED, struct relaxed_params, tolerance), .size = 4, .set_offset = SCHED_PARAM_NO_BLOCK,
	 .min = 0, .max = SCHED_NOW_LIMIT - 1u, .def = 0,
	 .help = "delay a backfill may cause to any job of its queue's priority or higher; 0 is conservative "
		 "exactly (Spear and McGalliard 2007, s. 2.1)"},
	{.name = "tolerance-factor", .kind = SCHED_PARAM_MILLI, .unit = "",
	 .offset = SCHED_PARAM_AT(RELAXED, struct relaxed_params, tolerance_permille), .size = 4, .set_offset = SCHED_PARAM_NO_BLOCK,
	 .min = 0, .max = 1000000u, .def = 0,
	 .help = "plus this multiple of the delayed job's estimate"},
	{.name = "relaxed-scope", .kind = SCHED_PARAM_CHOICE, .unit = "", .choices = scope_names,
	 .offset = SCHED_PARAM_AT(RELAXED, struct relaxed_params, scope), .size = 1, .set_offset = SCHED_PARAM_NO_BLOCK,
	 .min = 0, .max = SCHED_RELAXED_SCOPE_COUNT - 1u, .def = SCHED_RELAXED_ALL, .listable = true,
	 .help = "which jobs may start early: all = every waiting job in every pass (Exhibit 8: J3, J4 "
		 "were waiting), arrival = only a job arriving (our first reading)"},
};

const struct sched_policy sched_policy_relaxed = {
	.name = "relaxed",
	.help = "relaxed backfilling: conservative, but a backfill may delay others by a tolerance "
		"(Spear and McGalliard 2007, s. 2.1)",
	.params = params,
	.n_params = sizeof params / sizeof params[0],
	.family = "plan",
	.needs_scratch = true,
	.enter = sched_enter_planning,
	.admit = admit_relaxed,
	.reflow = sched_reflow_compress,
	.pass = pass_relaxed,
	.predict = sched_predict_reserved,
};
