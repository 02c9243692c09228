/* SPDX-License-Identifier: MIT */
/* Conservative backfilling (seed 000 section 2.1): a reservation per job at submit, compression on early ends. */
#include "sched_priv.h"

static int admit_cons(struct sched *s, struct sched_job *j)
{
	/* "Upon arrival, the first possible starting time for the new job is found based
	 * on the current profile, and the profile is updated": this start is the guarantee. */
	return sched_reserve_earliest(s, j);
}

/*
 * Compression, the second way of section 2.1: keep the profile and, in
 * arrival order, remove each waiting job and re-insert it at its earliest
 * anchor. The old slot is still free after the removal, so the new start is
 * never later: guarantees hold. O(n) jobs x O(n) segments.
 */
static void compress(struct sched *s)
{
	s->counters.reflows++;
	struct sched_list *it;
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *j = sched_job_of(it);
		/* Ask first, read-only: most jobs of a long backlog cannot move. */
		sched_time_t at = sched_profile_find_earlier(&s->profile, s->now, j->procs, j->estimate,
							    j->start);
		if (at == SCHED_TIME_MAX)
			continue;
		sched_unreserve(s, j);
		int err = sched_profile_reserve(&s->profile, at, j->estimate, j->procs);
		SCHED_ASSERT(err == SCHED_OK); /* the slot was free once j's own was released */
		(void)err;
		j->start = at;
		j->reserved = 1;
		s->counters.moved++;
	}
	sched_plan_refresh(s);
}

const struct sched_policy sched_policy_cons = {
	.name = "cons",
	.plans = true,
	.admit = admit_cons,
	.reflow = compress,
	.pass = sched_start_due,
	.predict = sched_predict_reserved,
};
