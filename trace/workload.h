/* SPDX-License-Identifier: MIT */
/* The replayer's cleaning conventions: from SWF job lines to jobs the core can schedule. */
#ifndef SIM_WORKLOAD_H
#define SIM_WORKLOAD_H

#include "site.h"
#include "swf.h"
#include "sched/replay.h"
#include "sched/types.h"

/*
 * Conventions (also in `replay --help` and docs/replay.md):
 *  - processors = field 5 if > 0, else field 8;
 *  - estimate = field 9 if > 0, else the run time (field 4); an estimate of
 *    0 s (a zero run time with no request) is raised to 1 s, the core's unit;
 *  - the job holds its processors for min(run time, estimate): it is killed
 *    at its estimate;
 *  - submit = field 2;
 *  - skipped (and counted by reason): processors < 1, run time < 0, more
 *    processors than the machine, submit time < 0;
 *  - a job outside the slice (--months, --from, --to: on field 2 as in the
 *    trace) is outside, whatever the conventions would say of it: the skip
 *    counts are those of the replayed slice;
 *  - jobs are replayed in order of submit time; ties keep trace order;
 *  - with a site (--site): each job's queue, partition and priorities come
 *    from site_assign(); skipped too: no queue takes it, or it is wider than
 *    every partition its queue may use.
 * The knobs: --shrink F sets each submit to s0 + round(F (s - s0)), s0 the
 * first submit replayed, which multiplies every interarrival time by F;
 * --estimates exact sets estimate = max(run, 1); --estimates f=F draws it
 * uniformly from [r, F r] (rounded to whole seconds, at least 1) with a
 * seeded generator, so jobs then never reach their estimate;
 * --node-size K gives each job whole nodes: its processors rounded up to a
 * multiple of K, after the skip rules (the caller passes a machine that is a
 * multiple of K, so a job that fits still fits).
 */
/*
 * A replayed job: the core's cleaned record, handed to the engine as it is
 * (j.submit is after --shrink; j.seq is set by the replayer), and where it
 * came from.
 */
struct wjob {
	struct sched_replay_job j;
	uint32_t idx;              /* index into the trace's job array */
	sched_time_t trace_submit; /* field 2 as in the trace (months, slices) */
	sched_procs_t trace_procs; /* processors as the trace asks (j.procs is after --node-size) */
};

struct workload {
	struct wjob *jobs;
	size_t n;
	uint32_t skipped[TRACE_SKIP_COUNT]; /* jobs of the slice skipped, by reason, enum trace_skip (clean.h) (NONE unused) */
	uint32_t *skipped_idx;       /* their indices into the trace's job array, in trace order */
	uint8_t *skipped_why;        /* and why each was skipped (enum trace_skip), same order */
	size_t n_skipped_idx;
	uint32_t estimate_from_run;  /* jobs without a usable field 9 */
	uint32_t estimate_raised;    /* estimates of 0 s raised to 1 s */
	uint32_t reordered;          /* jobs that moved when sorting by submit time */
	uint32_t outside;            /* jobs outside the replayed slice (--months, --from, --to) */
	sched_procs_t procs;         /* machine size used */
};

/* What-if knobs (seed 000 section 3.3, seed 004 section 5, seed 001). */
enum estimate_mode {
	EST_TRACE,  /* the trace's requested time (the conventions above) */
	EST_EXACT,  /* perfect estimates: the run time itself */
	EST_FACTOR, /* uniform in [r, F r] (seed 000 section 3.3) */
};

struct workload_opts {
	enum estimate_mode estimates;
	double factor;           /* F of EST_FACTOR, >= 1 */
	uint64_t seed;           /* for EST_FACTOR */
	double shrink;           /* interarrival times are multiplied by this (> 0; 1 = as is) */
	sched_procs_t node_size; /* processors of a node, allocated whole (0: not given, as 1) */
	int64_t from, to;        /* replay jobs submitted in [from, to) (trace seconds) */
	const struct site *site; /* queues and partitions, or NULL */
};

/** The default options: trace estimates, no shrinking, the whole trace. */
void workload_opts_default(struct workload_opts *o);

/**
 * Apply the conventions to trace @p t for a machine of @p procs processors,
 * then the knobs of @p o in this order: the slice (on trace submit times),
 * sorting by submit time, --shrink, then --estimates; --node-size with the
 * conventions. @p procs must be a multiple of the node size. O(n log n).
 * @retval SCHED_E_NOENT no job is left (message in @p err).
 * @retval SCHED_E_NOSPACE out of memory.
 */
int workload_build(const struct swf_trace *t, sched_procs_t procs, const struct workload_opts *o,
		   struct workload *w, char *err, size_t errlen);

/** Release what workload_build allocated. */
void workload_free(struct workload *w);

/** Total of the skip counters: the jobs of the slice the conventions dropped. O(1). */
uint32_t workload_skipped(const struct workload *w);

/*
 * The skip reasons, per enum trace_skip (TRACE_SKIP_NONE's entry is empty):
 * the key names the count in the report's CSV columns (skipped_KEY) and its
 * JSON object skipped_by; the label says it in words, in the table ("wider
 * than machine": or than every partition its site queue may use; "bad
 * submit time": below 0, or too large for the core's clock).
 */
struct skip_reason {
	const char *key, *label;
};
extern const struct skip_reason skip_reasons[TRACE_SKIP_COUNT];

#endif /* SIM_WORKLOAD_H */
