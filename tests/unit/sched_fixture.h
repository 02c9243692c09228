/* SPDX-License-Identifier: MIT */
/* A scheduler over a static arena that records every decision, for the scheduler tests. */
#ifndef TEST_SCHED_FIXTURE_H
#define TEST_SCHED_FIXTURE_H

#include <string.h>

#include "harness.h"
#include "sched/sched.h"

#define FX_CAP 64
#define FX_LOG 1024

struct fx {
	struct sched *s;        /* in arena */
	_Alignas(16) unsigned char arena[SCHED_ARENA_SIZE_SCRATCH(FX_CAP, FX_CAP)];
	struct sched_decision log[FX_LOG];
	int n;
};

static inline void fx_record(void *ctx, const struct sched_decision *d)
{
	struct fx *f = ctx;
	if (f->n < FX_LOG)
		f->log[f->n++] = *d;
}

/*
 * A scheduler for a configuration of the test's own (partitions, queues,
 * parameters), watched by the harness's after-each check (so @p f must be
 * static, as every test's is).
 */
static inline int fx_init_cfg(struct fx *f, struct sched_config cfg)
{
	cfg.max_jobs = FX_CAP;
	cfg.scratch_jobs = FX_CAP;
	f->n = 0;
	int err = sched_init(&f->s, &cfg, f->arena, sizeof f->arena, fx_record, f, 0);
	if (err == SCHED_OK)
		harness_watch(f->s);
	return err;
}

/* A scheduler of @p procs processors under @p policy, watched as fx_init_cfg()'s. */
static inline int fx_init(struct fx *f, enum sched_policy_id policy, sched_procs_t procs)
{
	struct sched_config cfg = {.procs = procs, .max_jobs = FX_CAP, .policy = policy, .scratch_jobs = FX_CAP};
	return fx_init_cfg(f, cfg);
}


static inline int fx_submit(struct fx *f, uint32_t id, sched_procs_t procs, sched_time_t est,
			    sched_time_t now)
{
	struct sched_job_desc d = sched_desc(id, procs, est);
	return sched_submit(f->s, &d, now);
}

/* When job id was started (or killed), per the log; SCHED_TIME_MAX if never. */
static inline sched_time_t fx_when(const struct fx *f, enum sched_decision_kind kind, uint32_t id)
{
	for (int i = 0; i < f->n; i++)
		if (f->log[i].kind == kind && f->log[i].job == id)
			return f->log[i].time;
	return SCHED_TIME_MAX;
}

static inline sched_time_t fx_started(const struct fx *f, uint32_t id)
{
	return fx_when(f, SCHED_DEC_START, id);
}

static inline bool fx_backfilled(const struct fx *f, uint32_t id)
{
	for (int i = 0; i < f->n; i++)
		if (f->log[i].kind == SCHED_DEC_START && f->log[i].job == id)
			return f->log[i].backfilled;
	return false;
}

static inline sched_time_t fx_predict(const struct fx *f, uint32_t id)
{
	sched_time_t t;
	return sched_predict(f->s, id, &t) == SCHED_OK ? t : SCHED_TIME_MAX;
}

/* The scheduler's counters and sizes, through the public API. */
static inline struct sched_stats fx_stats(const struct fx *f)
{
	struct sched_stats st;
	sched_stats(f->s, &st);
	return st;
}

#endif /* TEST_SCHED_FIXTURE_H */
