/* SPDX-License-Identifier: MIT */
/*
 * The console's only reads of the core's object fields. struct sched is
 * becoming opaque: these few functions are then rewritten over its
 * accessors and no command file changes.
 */
#include "con.h"

struct con_load con_view_load(const struct sched *s)
{
	return (struct con_load){.waiting = s->n_waiting, .running = s->n_running, .busy = s->busy,
				 .segments = s->part[0].profile.count};
}

const struct sched_config *con_view_params(const struct sched *s)
{
	return &s->cfg;
}

void con_fmt_counters(struct fmt *f, const struct sched *s)
{
	const struct sched_counters *c = &s->counters;
	fmt_kv(f, " submitted=", c->submitted);
	fmt_kv(f, " refused=", c->refused);
	fmt_kv(f, " started=", c->started);
	fmt_kv(f, " backfilled=", c->backfilled);
	fmt_kv(f, " finished=", c->finished);
	fmt_kv(f, " killed=", c->killed);
	fmt_kv(f, " cancelled=", c->cancelled);
	fmt_kv(f, " compressions=", c->reflows);
	fmt_kv(f, " moved=", c->moved);
	fmt_kv(f, " peak_jobs=", s->jobs.max_used);
	fmt_kv(f, " peak_segments=", s->segs.max_used);
}

uint32_t con_view_fallbacks(const struct sched_replay *r)
{
	return r->sched.counters.scratch_short;
}
