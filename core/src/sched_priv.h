/* SPDX-License-Identifier: MIT */
/* The policy interface and the planning helpers that policies share; private to core/src. */
#ifndef SCHED_PRIV_H
#define SCHED_PRIV_H

#include "sched/sched.h"

/*
 * A policy is a table of hooks over the common machinery. Queueing policies
 * (FCFS, EASY) keep only running jobs in the profiles and decide at each
 * pass; planning policies (conservative, relaxed, slack) hold a reservation
 * for every waiting job (background-queue jobs excepted) and start jobs when
 * their reservation comes due. Hooks run with s->now already set.
 */
struct sched_policy {
	const char *name;
	bool plans;         /* every waiting job holds a reservation */
	bool needs_scratch; /* refuses to run without a scratch area */
	bool ordered;       /* the dynP family: plans in s->order, re-plans at every job end */
	/* A job was put in the waiting queue at its place in the plan; give it a reservation. */
	int (*admit)(struct sched *s, struct sched_job *j);
	/* Capacity was freed before its planned end (early finish, cancel). */
	void (*reflow)(struct sched *s);
	/* One scheduling pass at s->now: start what may start. */
	void (*pass)(struct sched *s);
	/* The guaranteed start of waiting job j, if the policy gives one. */
	int (*predict)(const struct sched *s, const struct sched_job *j, sched_time_t *start);
};

extern const struct sched_policy sched_policy_fcfs;
extern const struct sched_policy sched_policy_easy;
extern const struct sched_policy sched_policy_cons;
extern const struct sched_policy sched_policy_relaxed;
extern const struct sched_policy sched_policy_slack;
extern const struct sched_policy sched_policy_fcfs_replan;
extern const struct sched_policy sched_policy_sjf;
extern const struct sched_policy sched_policy_ljf;
extern const struct sched_policy sched_policy_dynp_basic;
extern const struct sched_policy sched_policy_dynp;

static inline struct sched_job *sched_job_of(struct sched_list *link)
{
	return SCHED_LIST_ENTRY(link, struct sched_job, link);
}

/* Expected end of a job that starts or started at j->start. */
static inline sched_time_t sched_job_end(const struct sched_job *j)
{
	return j->start + j->estimate;
}

static inline const struct sched_queue_cfg *sched_queue_of(const struct sched *s, const struct sched_job *j)
{
	return &s->cfg.queues[j->queue];
}

static inline bool sched_is_background(const struct sched *s, const struct sched_job *j)
{
	return s->cfg.queues[j->queue].background;
}

static inline struct sched_profile *sched_prof(struct sched *s, unsigned p)
{
	return &s->part[p].profile;
}

/* The next waiting job after j in plan order, or NULL. */
static inline struct sched_job *sched_next_waiting(struct sched *s, struct sched_job *j)
{
	return j->link.next == &s->waiting ? NULL : sched_job_of(j->link.next);
}

/* The earliest a waiting job may be planned: now, or later while its queue's limits hold it back. */
static inline sched_time_t sched_earliest(const struct sched *s, const struct sched_job *j)
{
	return j->hold > s->now ? j->hold : s->now;
}

/* --- plan.c: reservations across partitions ------------------------------------------ */

/* Reserve j at its earliest anchor, at or after `earliest` (and now), in any partition it may use. */
int sched_place(struct sched *s, struct sched_job *j, sched_time_t earliest);

/* Reserve j exactly at `start` in partition `part`. */
int sched_reserve_at(struct sched *s, struct sched_job *j, sched_time_t start, uint8_t part);

/* Drop waiting job j's reservation. */
void sched_unreserve(struct sched *s, struct sched_job *j);

/* Compression step: move j to an earlier anchor if one exists; true if it moved. */
bool sched_move_earlier(struct sched *s, struct sched_job *j);

/* Compression (seed 000 section 2.1) of every reserved waiting job, in plan order. */
void sched_compress(struct sched *s);

/* Re-plan, in order, every reserved waiting job after j (they have a lower queue priority). */
void sched_replan_after(struct sched *s, struct sched_job *j);

/* Give every waiting job a reservation afresh, in plan order. */
void sched_replan_all(struct sched *s);

/* Planning pass: start due jobs (queue limits permitting), then background jobs that fit now. */
void sched_start_due(struct sched *s);

/* Planning predict: the job's reservation. */
int sched_predict_reserved(const struct sched *s, const struct sched_job *j, sched_time_t *start);

/* Conservative admission with queue priorities: place j, re-plan the lower-priority jobs after it. */
int sched_admit_strict(struct sched *s, struct sched_job *j);

/* --- sched.c --------------------------------------------------------------------------- */

/* Start waiting job j at s->now in partition `part`: move it to the running list and emit START. */
void sched_start_job(struct sched *s, struct sched_job *j, uint8_t part);

/*
 * May j start now under its queue's running limits? If not, *retry is the
 * earliest time a running job that blocks it ends.
 */
bool sched_limits_allow(const struct sched *s, const struct sched_job *j, sched_time_t *retry);

/* A higher queue has a job waiting: background jobs of j's queue must not start. */
bool sched_background_held(const struct sched *s, const struct sched_job *j);

/* A reservation was made at t: keep the earliest one known (next_event). */
static inline void sched_plan_note(struct sched *s, sched_time_t t)
{
	if (t < s->first_start)
		s->first_start = t;
}

/* Recompute the earliest reservation after reservations moved or vanished. O(n). */
void sched_plan_refresh(struct sched *s);

/* --- the dynP family (policy_dynp.c) ----------------------------------------------------- */

/* Entering a policy of the family: its initial order, every waiting job placed in it. */
void sched_family_enter(struct sched *s);

/* Re-plan in the order in force (self-tuning dynP decides it first). */
void sched_family_replan(struct sched *s);

/*
 * Quality of the virtual schedule of the n jobs in scratch.jobs placed in
 * order o (which sorts scratch.jobs), starting from `base` (the running
 * jobs' part); the live schedule is not touched.
 */
uint64_t sched_dynp_virtual(struct sched *s, enum sched_order o, uint32_t n, uint64_t base);

/* --- scratch (plan.c) ------------------------------------------------------------------ */

/* Copy every partition's profile into the scratch work profiles; false if it does not fit. */
bool sched_scratch_copy(struct sched *s);

/* Give the work profiles' segments back. */
void sched_scratch_clear(struct sched *s);

/* Earliest anchor of j in the work profiles, at or after `earliest`; partition in *part. */
sched_time_t sched_scratch_find(struct sched *s, const struct sched_job *j, sched_time_t earliest,
				uint8_t *part);

#endif /* SCHED_PRIV_H */
