/* SPDX-License-Identifier: MIT */
/* The live schedule's commands: the clock, jobs in and out, and what the schedule holds. */
#include "clean.h"
#include "commands.h"
#include "con_config.h"
#include "con_reply.h"
#include "con_session.h"
#include "con_view.h"

/* The reply to a refusal by the core, with the console's reason where the code alone is vague. */
static void core_err(int err, const char *state_why)
{
	switch (err) {
	case SCHED_E_NOSPACE: con_err(err, "the job table is full"); break;
	case SCHED_E_RANGE: con_err(err, "time too large"); break;
	case SCHED_E_STATE: con_err(err, state_why); break;
	default: con_err(err, NULL); break;
	}
}

/* time: the clock; time T, advance T: move it, printing what falls due. */
void cmd_advance(struct args *a)
{
	uint32_t t = con_now();
	if (a->n == 2) {
		if (!con_number(a->v[1], &t))
			return;
		/* The core's clock rule (sched.h), checked before the line is journaled. */
		if (t >= SCHED_NOW_LIMIT || t < con_now()) {
			core_err(t < con_now() ? SCHED_E_TIME : SCHED_E_RANGE, NULL);
			return;
		}
		if (!con_commit())
			return;
		int err = sched_advance(con_sched(), t);
		if (err != SCHED_OK) {
			core_err(err, NULL);
			return;
		}
		con_set_now(t);
	}
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok now=", con_now());
	con_fmt_next(&f);
	fmt_line(&f);
}

/* The job a submit line describes; false (the reply printed) if an argument is malformed. */
static bool job_desc(const struct args *a, struct sched_job_desc *d)
{
	uint32_t id, procs, est, user = 0, queue = 0, up = 0, pp = 0;
	if (!con_number(a->v[1], &id) || !con_number(a->v[2], &procs) || !con_number(a->v[3], &est))
		return false;
	/* User and queue matter with site queues (limits); the console's machine has one queue, 0. */
	if ((a->n > 4 && !con_number(a->v[4], &user)) || (a->n > 5 && !con_number(a->v[5], &queue)))
		return false;
	/* User and political priority for slack, thousandths; "over" marks a user over quota. */
	if (a->n > 6 && !con_number(a->v[6], &up))
		return false;
	bool over = a->n > 7 && con_str_eq(a->v[7], "over");
	if (a->n > 7 && !over && !con_number(a->v[7], &pp))
		return false;
	if (up > 1000 || pp > 1000) {
		con_err(SCHED_E_RANGE, "priorities are 0..1000 (thousandths)");
		return false;
	}
	if (queue > 255) {
		con_err(SCHED_E_INVAL, "no such queue");
		return false;
	}
	/* config node_size: the job is given whole nodes (beyond any machine it stays too wide). */
	*d = sched_desc(id, trace_whole_nodes(procs, con_node_size()), est);
	d->user = user;
	d->queue = (uint8_t)queue;
	d->up_milli = (uint16_t)up;
	d->pp_milli = over ? (uint16_t)SCHED_PP_OVER_QUOTA : (uint16_t)pp;
	return true;
}

void cmd_submit(struct args *a)
{
	struct sched_job_desc d;
	if (!job_desc(a, &d))
		return;
	const char *why = NULL;
	int err = sched_admissible(con_sched(), &d, &why);
	if (err != SCHED_OK) {
		con_err(err, why); /* the core says exactly what is wrong with the job's shape */
		return;
	}
	/* The core's other refusals, in its order, before the line is journaled. */
	if (sched_find(con_sched(), d.id) != NULL) {
		core_err(SCHED_E_EXIST, NULL);
		return;
	}
	struct con_load l = con_view_load(con_sched());
	bool full = l.waiting + l.running >= con_view_params(con_sched())->max_jobs;
	/*
	 * A full table: the core refuses the job and counts it (stats' refused), its only trace, so
	 * it goes to the core unjournaled: that count is in memory, and a restore that replays the
	 * journal does not have it. Otherwise the line is journaled first. What only the policy's
	 * plan can find (no start before the clock's end) is refused after it, and refused again
	 * the same way when a restore replays it.
	 */
	if (!full && !con_commit())
		return;
	if ((err = sched_submit(con_sched(), &d, con_now())) != SCHED_OK) {
		core_err(err, NULL);
		return;
	}
	SCHED_ASSERT(!full); /* the core took a job into a full table: it went unjournaled */
	con_settle();
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok submitted ", d.id);
	fmt_str(&f, " start=");
	sched_time_t start;
	if (sched_predict(con_sched(), d.id, &start) == SCHED_OK)
		fmt_u32(&f, start);
	else
		fmt_ch(&f, '-');
	fmt_line(&f);
}

static void job_op(struct args *a, int (*op)(struct sched *, uint32_t, sched_time_t), const char *done)
{
	uint32_t id;
	if (!con_number(a->v[1], &id))
		return;
	/* The core's refusals (sched.h), checked before the line is journaled. */
	struct sched_job_info j;
	int err = sched_job_get(con_sched(), id, &j);
	if (err == SCHED_OK && op == sched_finish && j.state != SCHED_JOB_RUNNING)
		err = SCHED_E_STATE;
	if (err == SCHED_OK && !con_commit())
		return;
	if (err == SCHED_OK)
		err = op(con_sched(), id, con_now());
	if (err != SCHED_OK) {
		core_err(err, "the job is waiting (use cancel)");
		return;
	}
	con_settle();
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok ");
	fmt_str(&f, done);
	fmt_kv(&f, " ", id);
	fmt_line(&f);
}

/*
 * finish ID [ID...]: running jobs that ended by themselves now, all of them before one scheduling pass,
 * as the replay engine handles the ends of one instant (docs/replay.md). One pass per finish would let
 * a pass between two ends of the same second backfill into a hole the second end makes moot (EASY), or
 * compress twice where the replay compresses once. Every id is checked before the line is journaled:
 * one refused id refuses the whole line.
 */
void cmd_finish(struct args *a)
{
	if (a->n == 2) {
		job_op(a, sched_finish, "finished");
		return;
	}
	uint32_t ids[LINE_MAX_WORDS];
	size_t n = 0;
	for (size_t k = 1; k < a->n; k++) {
		if (!con_number(a->v[k], &ids[n]))
			return;
		struct sched_job_info j;
		int err = sched_job_get(con_sched(), ids[n], &j);
		if (err == SCHED_OK && j.state != SCHED_JOB_RUNNING)
			err = SCHED_E_STATE;
		for (size_t m = 0; m < n; m++)
			if (ids[m] == ids[n]) {
				con_err(SCHED_E_INVAL, "a job given twice");
				return;
			}
		if (err != SCHED_OK) {
			core_err(err, "the job is waiting (use cancel)");
			return;
		}
		n++;
	}
	if (!con_commit())
		return;
	for (size_t k = 0; k < n; k++) {
		int err = sched_finish(con_sched(), ids[k], con_now());
		SCHED_ASSERT(err == SCHED_OK); /* checked above, and nothing in between changes a job's state */
		(void)err;
	}
	con_settle();
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok finished");
	for (size_t k = 0; k < n; k++)
		fmt_kv(&f, " ", ids[k]);
	fmt_line(&f);
}

void cmd_cancel(struct args *a)
{
	job_op(a, sched_cancel, "cancelled");
}

void cmd_predict(struct args *a)
{
	uint32_t id;
	if (!con_number(a->v[1], &id))
		return;
	sched_time_t t;
	int err = sched_predict(con_sched(), id, &t);
	if (err != SCHED_OK) {
		core_err(err, NULL);
		return;
	}
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok ", id);
	fmt_kv(&f, " start=", t);
	fmt_line(&f);
}

void cmd_status(struct args *a)
{
	(void)a;
	struct con_load l = con_view_load(con_sched());
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok now=", con_now());
	fmt_str(&f, " policy=");
	fmt_str(&f, sched_policy_name(con_config()->policy));
	fmt_kv(&f, " waiting=", l.waiting);
	fmt_kv(&f, " running=", l.running);
	fmt_kv(&f, " busy=", l.busy);
	fmt_kv(&f, " free=", sched_free_now(con_sched()));
	fmt_kv(&f, " segments=", l.segments);
	con_fmt_next(&f);
	fmt_line(&f);
}

#define LIST_PAGE 16u

/* queue [FROM] / running [FROM]: up to 16 jobs as id:procs:estimate:start. */
static void list_jobs(struct args *a, enum sched_job_state which)
{
	uint32_t from = 0;
	if (a->n == 2 && !con_number(a->v[1], &from))
		return;
	struct con_load l = con_view_load(con_sched());
	struct fmt f;
	fmt_init(&f);
	if (which == SCHED_JOB_WAITING)
		fmt_kv(&f, "ok waiting=", l.waiting);
	else
		fmt_kv(&f, "ok running=", l.running);
	fmt_kv(&f, " from=", from);
	uint32_t i = 0, shown = 0;
	for (const struct sched_job *h = sched_first(con_sched(), which); h && shown < LIST_PAGE;
	     h = sched_next(con_sched(), h), i++) {
		if (i < from)
			continue;
		struct sched_job_info ji, *j = &ji;
		sched_job_read(h, j);
		fmt_kv(&f, " ", j->id);
		fmt_kv(&f, ":", j->procs);
		fmt_kv(&f, ":", j->estimate);
		fmt_ch(&f, ':');
		if (which == SCHED_JOB_RUNNING || j->reserved)
			fmt_u32(&f, j->start);
		else
			fmt_ch(&f, '-');
		shown++;
	}
	fmt_line(&f);
}

void cmd_queue(struct args *a)
{
	list_jobs(a, SCHED_JOB_WAITING);
}

void cmd_running(struct args *a)
{
	list_jobs(a, SCHED_JOB_RUNNING);
}

/* profile [FROM]: up to 16 segments as time:free. */
void cmd_profile(struct args *a)
{
	uint32_t from = 0;
	if (a->n == 2 && !con_number(a->v[1], &from))
		return;
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok segments=", con_view_load(con_sched()).segments);
	fmt_kv(&f, " from=", from);
	uint32_t i = 0, shown = 0;
	for (const struct sched_seg *g = sched_seg_first(con_sched(), 0); g && shown < LIST_PAGE;
	     g = sched_seg_next(con_sched(), 0, g), i++) {
		if (i < from)
			continue;
		fmt_kv(&f, " ", sched_seg_time(g));
		fmt_kv(&f, ":", sched_seg_free(g));
		shown++;
	}
	fmt_line(&f);
}

void cmd_stats(struct args *a)
{
	(void)a;
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok");
	con_fmt_counters(&f, con_sched());
	fmt_line(&f);
}

void cmd_reset(struct args *a)
{
	(void)a;
	if (!con_commit())
		return;
	con_live_init();
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok reset");
	con_fmt_config(&f);
	fmt_line(&f);
}
