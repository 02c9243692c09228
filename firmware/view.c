/* SPDX-License-Identifier: MIT */
/* What the console shows of the scheduler's state, read through the core's accessors. */
#include "con_view.h"

struct con_load con_view_load(const struct sched *s)
{
	struct sched_stats st;
	sched_stats(s, &st);
	return (struct con_load){.waiting = st.waiting, .running = st.running, .busy = st.busy,
				 .segments = st.segments};
}

const struct sched_config *con_view_params(const struct sched *s)
{
	return sched_config_get(s);
}

void con_fmt_counters(struct fmt *f, const struct sched *s)
{
	struct sched_stats st;
	sched_stats(s, &st);
	const struct sched_counters *c = &st.counters;
	fmt_kv(f, " submitted=", c->submitted);
	fmt_kv(f, " refused=", c->refused);
	fmt_kv(f, " started=", c->started);
	fmt_kv(f, " backfilled=", c->backfilled);
	fmt_kv(f, " finished=", c->finished);
	fmt_kv(f, " killed=", c->killed);
	fmt_kv(f, " cancelled=", c->cancelled);
	fmt_kv(f, " compressions=", c->reflows);
	fmt_kv(f, " moved=", c->moved);
	fmt_kv(f, " peak_jobs=", st.jobs_peak);
	fmt_kv(f, " peak_segments=", st.segs_peak);
}

uint32_t con_view_fallbacks(const struct sched_replay *r)
{
	const struct sched *s = sched_replay_sched(r);
	if (s == NULL)
		return 0; /* time sharing: no planning scratch to fall back from */
	struct sched_stats st;
	sched_stats(s, &st);
	return st.counters.scratch_short;
}
