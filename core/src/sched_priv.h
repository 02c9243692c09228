/* SPDX-License-Identifier: MIT */
/* The policy interface and the helpers that policies share; private to core/src. */
#ifndef SCHED_PRIV_H
#define SCHED_PRIV_H

#include "sched/sched.h"

/*
 * A policy is a table of hooks over the common machinery. Queueing policies
 * (FCFS, EASY) keep only running jobs in the profile and decide at each
 * pass; planning policies (conservative and the later ones of DESIGN.md)
 * hold a reservation for every waiting job and start jobs when their
 * reservation comes due. Hooks run with s->now already set.
 */
struct sched_policy {
	const char *name;
	bool plans; /* every waiting job holds a reservation */
	/* A job was appended to the waiting queue; place it. An error refuses it. */
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

static inline struct sched_job *sched_job_of(struct sched_list *link)
{
	return SCHED_LIST_ENTRY(link, struct sched_job, link);
}

/* Expected end of a job that starts or started at j->start. */
static inline sched_time_t sched_job_end(const struct sched_job *j)
{
	return j->start + j->estimate;
}

/* Start waiting job j at s->now: move it to the running list and emit START. */
void sched_start_job(struct sched *s, struct sched_job *j);

/* Reserve j at its earliest anchor from s->now; sets j->start. */
int sched_reserve_earliest(struct sched *s, struct sched_job *j);

/* Drop waiting job j's reservation from the profile. */
void sched_unreserve(struct sched *s, struct sched_job *j);

/* Planning pass: start, in queue order, every waiting job whose reservation is due. */
void sched_start_due(struct sched *s);

/* A reservation was made at t: keep the earliest one known (next_event). */
static inline void sched_plan_note(struct sched *s, sched_time_t t)
{
	if (t < s->first_start)
		s->first_start = t;
}

/* Recompute the earliest reservation after reservations moved or vanished. O(n). */
void sched_plan_refresh(struct sched *s);

/* Planning predict: the job's reservation. */
int sched_predict_reserved(const struct sched *s, const struct sched_job *j, sched_time_t *start);

#endif /* SCHED_PRIV_H */
