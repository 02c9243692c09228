/* SPDX-License-Identifier: MIT */
/* Conservative backfilling (seed 000 section 2.1): a reservation per job at submit, compression at every termination. */
#include "sched_priv.h"

/*
 * "Upon arrival, the first possible starting time for the new job is found
 * based on the current profile, and the profile is updated": that start is
 * the job's guarantee (sched_admit_strict, which also lets a job of a
 * higher queue go ahead of lower ones). At a termination (compress-at,
 * below) or a cancel the schedule is compressed (sched_compress).
 */
/*
 * A bound on the work of one event, off by default (the paper compresses
 * the whole schedule): like Slurm's bf_max_job_test, only the first N
 * waiting jobs in plan order may move up at an early end; the others keep
 * their reservations, so every guarantee still holds. For a board that
 * must answer within a fixed time at any backlog (docs/bench-target.md).
 */
/*
 * When the schedule is compressed. Seed 000 section 2.1: "Upon termination,
 * the profile is scanned and the schedule is compressed" -- at every
 * termination (the default, and what pyss does): a compression in plan
 * order is no fixpoint (a late job that moves up can free room an earlier
 * one could now use), so an on-time end or a kill at the estimate, which
 * frees nothing itself, still lets the next pass pick that up. `early`
 * compresses only when a job ends before its estimate (our reading before
 * issue 28). Under `every` the terminations of one instant are all released
 * first and the schedule compressed once, before that instant's arrivals and
 * pass, so the order of same-second ends does not matter (docs/replay.md).
 */
enum cons_compress_at { CONS_COMPRESS_EVERY, CONS_COMPRESS_EARLY, CONS_COMPRESS_COUNT };
static const char *const compress_at_names[CONS_COMPRESS_COUNT + 1] = {"every", "early", NULL};

/* Cons's parameter block (its part of the configuration's parameter area). */
struct cons_params {
	uint32_t reservation_depth; /* waiting jobs that hold a reservation, in plan order; 0 = all */
	uint32_t compress_depth;    /* waiting jobs one compression examines, in plan order; 0 = all */
	uint8_t compress_at;        /* enum cons_compress_at */
};
SCHED_PARAMS_BLOCK(CONS, struct cons_params);

/*
 * Cons's state: a compression owed to this instant's terminations
 * (compress-at every), and whether the schedule is known to be a fixpoint.
 * A compression that examined every waiting job and moved none leaves each
 * at its earliest anchor given all the others; until room appears (an early
 * end or a cancel releases an interval, a queue's running limit lifts, a job
 * of a higher queue arrives and those behind it are placed again, a tune)
 * every later event only takes room (arrivals, starts on time) or
 * frees none (an end or kill at the estimate ends where the profile already
 * ends the job), so a compression then would move nothing and is skipped.
 * Same schedule, without an O(n^2) pass at every on-time end of a long queue.
 */
struct cons_state {
	bool compress_due;
	bool fixpoint;
};
SCHED_POLICY_STATE(struct cons_state);

static struct cons_state *cons_of(struct sched *s)
{
	return sched_pstate(s);
}

/* The reservation_depth hook: only cons honours its parameter. */
static uint32_t reservation_depth(const struct sched *s)
{
	return ((const struct cons_params *)sched_params_of(&s->cfg, SCHED_PARAMS_AT_CONS))->reservation_depth;
}

/*
 * Under a reservation depth (Maui's bounded mode, not the paper's) compression
 * stays at early ends, at once: the depth's bookkeeping (who holds a
 * reservation) is settled with each compression, and EASY's rule at depth 1
 * recomputes its head's reservation at every pass anyway.
 */
static bool compress_every(const struct sched *s)
{
	return ((const struct cons_params *)sched_params_of(&s->cfg, SCHED_PARAMS_AT_CONS))->compress_at ==
		       CONS_COMPRESS_EVERY &&
	       reservation_depth(s) == 0;
}

/* Every compression honours it, whichever planning policy compresses (as it always has). */
uint32_t sched_cons_compress_depth(const struct sched_config *c)
{
	return ((const struct cons_params *)sched_params_of(c, SCHED_PARAMS_AT_CONS))->compress_depth;
}

static const struct sched_param params[] = {
	{.name = "reservation-depth", .kind = SCHED_PARAM_COUNT_KIND, .unit = "",
	 .offset = SCHED_PARAM_AT(CONS, struct cons_params, reservation_depth), .size = 4, .set_offset = SCHED_PARAM_NO_BLOCK,
	 .min = 0, .max = 1000000u, .def = 0,
	 .help = "waiting jobs that hold a reservation, in plan order (0: all, as the paper; 1: EASY's rule; "
		 "the others start where they fit now, like Maui's RESERVATIONDEPTH)"},
	{.name = "compress-depth", .kind = SCHED_PARAM_COUNT_KIND, .unit = "",
	 .offset = SCHED_PARAM_AT(CONS, struct cons_params, compress_depth), .size = 4, .set_offset = SCHED_PARAM_NO_BLOCK,
	 .min = 0, .max = 1000000u, .def = 0,
	 .help = "waiting jobs a compression examines, in plan order (0: all, as the paper; a bound on "
		 "the work of one early end, guarantees kept)"},
	{.name = "compress-at", .kind = SCHED_PARAM_CHOICE, .unit = "", .choices = compress_at_names,
	 .offset = SCHED_PARAM_AT(CONS, struct cons_params, compress_at), .size = 1, .set_offset = SCHED_PARAM_NO_BLOCK,
	 .min = 0, .max = CONS_COMPRESS_COUNT - 1u, .def = CONS_COMPRESS_EVERY, .listable = true,
	 .help = "when the schedule is compressed: every termination (s. 2.1, as pyss; one compression "
		 "per instant, before its arrivals), or early, only when a job ends before its estimate "
		 "(always early under a reservation depth)"},
};

/*
 * Reservation depth, off by default (the paper reserves for every job): like
 * Maui's RESERVATIONDEPTH, only the first N waiting jobs in plan order hold a
 * reservation; a job gets one when it reaches the first N, and the others
 * start only where they fit now without touching a reservation. So the
 * profile holds at most N reservations besides the running jobs, and the
 * cost of a search no longer grows with the backlog. N = 1 is EASY's rule
 * (Feitelson & Mu'alem Weil 1998, s. 2.2: only the head is protected) on one
 * partition without queue limits; EASY keeps a head per partition and passes
 * over a job its limits hold back, the depth counts one reservation for the
 * machine and keeps a held job's at its retry time.
 */

/* Is j among the first `depth` waiting jobs, background jobs aside? O(depth). */
static bool within_depth(const struct sched *s, const struct sched_job *j, uint32_t depth)
{
	uint32_t n = 0;
	const struct sched_list *it;
	sched_list_for_each(it, &s->waiting) {
		const struct sched_job *k = sched_job_of((struct sched_list *)it);
		if (k == j)
			return true;
		if (!sched_is_background(s, k) && ++n == depth)
			return false;
	}
	return false;
}

/* The whole compression: the schedule, then the reservation depth's places. */
static void compress_now(struct sched *s)
{
	struct cons_state *c = cons_of(s);
	uint32_t moved = s->counters.moved;
	c->compress_due = false;
	sched_compress(s);
	/* Only a compression that saw every job can certify the fixpoint. */
	c->fixpoint = s->counters.moved == moved && sched_cons_compress_depth(&s->cfg) == 0 &&
		      sched_reservation_depth(s) == 0;
	if (sched_reservation_depth(s) != 0)
		sched_depth_settle(s, false); /* a cancelled reservation leaves a place within the depth */
}

/* The compression this instant's terminations owe, once they are all in: before an arrival or a pass. */
static void settle_compression(struct sched *s)
{
	struct cons_state *c = cons_of(s);
	if (!c->compress_due)
		return;
	if (c->fixpoint)
		c->compress_due = false; /* it would move nothing (see struct cons_state) */
	else
		compress_now(s);
}

/* Every termination: an early or on-time end, a kill at the estimate, a running job cancelled. */
static void on_end_cons(struct sched *s, struct sched_job *j)
{
	struct cons_state *c = cons_of(s);
	if (compress_every(s))
		c->compress_due = true;
	if (sched_queue_limited(sched_queue_of(s, j)))
		c->fixpoint = false; /* its queue's held jobs may go sooner now (retire_running lowers hold) */
}

static void on_tune_cons(struct sched *s)
{
	cons_of(s)->fixpoint = false; /* a new depth or bound: certify again */
}

static int admit_cons(struct sched *s, struct sched_job *j)
{
	settle_compression(s); /* ends, then compression, then arrivals */
	if (sched_next_waiting(s, j) != NULL)
		cons_of(s)->fixpoint = false; /* a higher queue's job goes ahead: those behind are placed again */
	uint32_t depth = sched_reservation_depth(s);
	if (depth == 0)
		return sched_admit_strict(s, j);
	if (!within_depth(s, j, depth))
		return SCHED_OK; /* no reservation until it reaches the depth */
	if (sched_next_waiting(s, j) == NULL)
		return sched_place(s, j, s->now);
	/* A job of a higher queue went ahead: as under strict admission, it is placed first and
	 * the jobs behind it are placed again, the last of them falling out of the depth. */
	for (struct sched_job *k = sched_next_waiting(s, j); k != NULL; k = sched_next_waiting(s, k)) {
		if (k->reserved) {
			sched_unreserve(s, k);
			k->guarantee = SCHED_TIME_MAX;
		}
	}
	int err = sched_place(s, j, s->now);
	sched_depth_settle(s, false);
	return err;
}

static void reflow_cons(struct sched *s, bool ended)
{
	cons_of(s)->fixpoint = false; /* an interval was released: room */
	if (ended && compress_every(s))
		return; /* on_end_cons owes it; compressed once this instant's ends are all in */
	compress_now(s); /* an early end under `early`, or a cancelled reservation */
}

static void enter_cons(struct sched *s)
{
	if (sched_reservation_depth(s) == 0)
		sched_enter_planning(s);
	else
		sched_depth_settle(s, true);
}

/* The jobs beyond the depth start where they fit now, in plan order. O(n x segments). */
static void backfill_beyond(struct sched *s, uint32_t depth)
{
	uint32_t n = 0;
	struct sched_list *it, *tmp;
	sched_list_for_each_safe(it, tmp, &s->waiting) {
		struct sched_job *j = sched_job_of(it);
		if (sched_is_background(s, j) || n++ < depth)
			continue;
		sched_time_t retry;
		if (sched_queue_limited(sched_queue_of(s, j)) && !sched_limits_allow(s, j, &retry))
			continue;
		for (unsigned p = 0; p < s->n_parts; p++) {
			struct sched_partition *part = &s->part[p];
			if (!(j->allowed & (1u << p)) || j->procs > part->procs - part->busy)
				continue; /* cheaper than a search: too wide for what running jobs leave */
			if (sched_profile_find(&part->profile, s->now, j->procs, j->estimate) == s->now) {
				sched_start_job(s, j, (uint8_t)p);
				break;
			}
		}
	}
}

static void pass_cons(struct sched *s)
{
	settle_compression(s);
	uint32_t depth = sched_reservation_depth(s);
	sched_start_due(s);
	if (depth == 0)
		return;
	/* Starts leave places within the depth; the jobs that reach it may be due at once. */
	for (;;) {
		sched_depth_settle(s, false);
		if (s->first_start > s->now)
			break;
		sched_start_due(s);
	}
	backfill_beyond(s, depth);
}

const struct sched_policy sched_policy_cons = {
	.name = "cons",
	.help = "conservative backfilling: every job a reservation at submit, compression at every "
		"termination (Feitelson & Mu'alem Weil 1998, s. 2.1)",
	.params = params,
	.n_params = sizeof params / sizeof params[0],
	.family = "plan",
	.state_bytes = sizeof(struct cons_state),
	.reservation_depth = reservation_depth,
	.on_end = on_end_cons,
	.on_tune = on_tune_cons,
	.enter = enter_cons,
	.admit = admit_cons,
	.reflow = reflow_cons,
	.pass = pass_cons,
	.predict = sched_predict_reserved,
};
