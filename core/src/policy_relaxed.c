/* SPDX-License-Identifier: MIT */
/* Relaxed backfilling (seed 001 section 2.1, Exhibit 8): a backfill may delay others by a bounded tolerance. */
#include "sched_priv.h"

/*
 * A new job first gets its conservative reservation. If that is not now,
 * the job is tried at now instead: in the scratch profiles it starts now,
 * and every other waiting job is placed again in plan order at its earliest
 * start not before its current one (jobs due now keep their place: they
 * start in this instant's pass, so they count as started). The trial is kept only if every job of
 * the new job's queue priority or higher stays within its tolerance:
 *
 *   new start <= current start + T   and   new start <= guarantee + T,
 *   T = tolerance + tolerance_permille x (that job's estimate) / 1000,
 *
 * the guarantee being the start it was given at submit. So the total delay
 * a job ever suffers from relaxed backfills is at most T, and with T = 0
 * nothing may move: the schedule is the conservative one exactly. Jobs of a
 * lower queue priority have no bound (a higher queue goes ahead of them, as
 * in strict mode). The new job does not move the others earlier here;
 * compression does that when capacity frees early.
 */

static sched_time_t tolerance(const struct sched *s, const struct sched_job *k)
{
	uint64_t t = s->cfg.tolerance + (uint64_t)s->cfg.tolerance_permille * k->estimate / 1000u;
	return t > SCHED_NOW_LIMIT ? SCHED_NOW_LIMIT : (sched_time_t)t;
}

static bool within(const struct sched *s, const struct sched_job *k, sched_time_t at)
{
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

static void try_start_now(struct sched *s, struct sched_job *j)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	if (!sched_scratch_room(s, s->n_waiting + s->n_running) || !sched_scratch_copy(s)) {
		s->counters.scratch_short++;
		return;
	}
	uint16_t prio = s->cfg.queues[j->queue].priority;
	struct sched_list *it;
	/* The scratch profiles keep the running jobs and the jobs due now (they start in this
	 * instant's pass, so they count as started) and drop every other reservation. */
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *k = sched_job_of(it);
		if (k->reserved && k->start > s->now)
			(void)sched_profile_release(&x->work[k->part], k->start, k->estimate, k->procs);
	}
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
		sched_time_t at = sched_scratch_find(s, k, k->start, &part);
		bool bounded = s->cfg.queues[k->queue].priority >= prio;
		if (at == SCHED_TIME_MAX || (bounded && !within(s, k, at)) ||
		    sched_profile_reserve(&x->work[part], at, k->estimate, k->procs) != SCHED_OK) {
			ok = false;
			break;
		}
		x->jobs[n] = k;
		x->start_a[n] = at;
		x->part_a[n] = part;
		n++;
	}
	sched_scratch_clear(s);
	if (!ok)
		return;
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
}

static int admit_relaxed(struct sched *s, struct sched_job *j)
{
	int err = sched_admit_strict(s, j);
	if (err == SCHED_OK && j->start > s->now)
		try_start_now(s, j);
	return err;
}

static const struct sched_param params[] = {
	{.name = "tolerance", .kind = SCHED_PARAM_SECONDS, .unit = "s",
	 .offset = offsetof(struct sched_config, tolerance), .size = 4, .set_offset = SCHED_PARAM_NO_BLOCK,
	 .min = 0, .max = SCHED_NOW_LIMIT - 1u, .def = 0,
	 .help = "delay a backfill may cause to any job of its queue's priority or higher; 0 is conservative "
		 "exactly (Spear & McGalliard, s. 2.1)"},
	{.name = "tolerance-factor", .kind = SCHED_PARAM_MILLI, .unit = "",
	 .offset = offsetof(struct sched_config, tolerance_permille), .size = 4, .set_offset = SCHED_PARAM_NO_BLOCK,
	 .min = 0, .max = 1000000u, .def = 0,
	 .help = "plus this multiple of the delayed job's estimate"},
};

const struct sched_policy sched_policy_relaxed = {
	.name = "relaxed",
	.help = "relaxed backfilling: conservative, but a backfill may delay others by a tolerance "
		"(Spear & McGalliard, s. 2.1)",
	.params = params,
	.n_params = sizeof params / sizeof params[0],
	.plans = true,
	.needs_scratch = true,
	.enter = sched_enter_planning,
	.admit = admit_relaxed,
	.reflow = sched_reflow_compress,
	.pass = sched_start_due,
	.predict = sched_predict_reserved,
};
