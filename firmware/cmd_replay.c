/* SPDX-License-Identifier: MIT */
/* replay and fixtures: the fixtures linked into the image, streamed through the core's replay engine. */
#include "clean.h"
#include "commands.h"
#include "con_config.h"
#include "con_reply.h"
#include "con_session.h"
#include "con_view.h"
#include "port.h"
#include "fixture/fixture.h"

/* The replay engine's registers (large: kept out of the stack), and its handle while it runs. */
static _Alignas(SCHED_ARENA_ALIGN) unsigned char replay_room[SCHED_REPLAY_BYTES];
static struct sched_replay *replay;

/* The replay's job source: a fixture decoded as it streams from flash. */
struct source {
	struct fix_dec dec;
	struct fix_mem mem;
	sched_procs_t machine;
	uint32_t seq, skipped;
};

static struct source src; /* about 1.3 KB (the fixture decoder): kept off the stack */

/* The codec's own error (SCHED_E_CRC, ...) goes through the replay engine to the reply. */
static int next_job(void *ctx, struct sched_replay_job *job)
{
	struct source *s = ctx;
	for (;;) {
		struct fix_job fj;
		int err = fix_dec_next(&s->dec, &fj);
		if (err == FIX_END)
			return 0;
		if (err != SCHED_OK)
			return err;
		if (trace_clean_job(fj.submit, fj.run, fj.alloc_procs, fj.req_procs, fj.req_time, s->machine, job) !=
		    TRACE_SKIP_NONE) {
			s->skipped++;
			continue;
		}
		job->procs = trace_whole_nodes(job->procs, con_node_size()); /* as replay --node-size */
		job->seq = s->seq++;
		return 1;
	}
}

/* Open fixture @p fx for streaming; false (the reply printed) if its header is unusable. */
static bool source_open(const struct console_fixture *fx)
{
	src.mem = (struct fix_mem){fx->data, (size_t)(fx->end - fx->data), 0};
	src.seq = src.skipped = 0;
	int err = fix_dec_init(&src.dec, fix_mem_read, &src.mem);
	if (err != SCHED_OK) {
		con_err(err, NULL);
		return false;
	}
	src.machine = src.dec.hdr.max_procs ? src.dec.hdr.max_procs : src.dec.hdr.max_nodes;
	if (src.machine == 0) {
		con_err(SCHED_E_HEADER, "fixture gives no machine size");
		return false;
	}
	/* config node_size: the fixture's machine in whole nodes, rounded down as replay --node-size does. */
	if (con_node_size() > src.machine) {
		con_err(SCHED_E_RANGE, "node_size is more than the fixture's machine");
		return false;
	}
	src.machine -= src.machine % con_node_size();
	return true;
}

/*
 * Read the whole fixture once, as the replay will, while the live schedule is still
 * there: a stream the codec refuses, or one out of submit order (what the replay engine
 * refuses of its source), is refused before anything changes. Then open it again for the
 * replay. False with the reply printed. O(jobs of the fixture).
 */
static bool source_verify(const struct console_fixture *fx)
{
	if (!source_open(fx))
		return false;
	struct sched_replay_job job;
	sched_time_t last = 0;
	int have;
	while ((have = next_job(&src, &job)) == 1) {
		if (job.submit < last) {
			con_err(SCHED_E_TIME, "fixture jobs are not in submit order");
			return false;
		}
		last = job.submit;
	}
	if (have < 0) {
		con_err(have, NULL);
		return false;
	}
	return source_open(fx);
}

/* A summary's millionths with three decimals, truncated (bit-identical everywhere). */
static void fmt_milli(struct fmt *f, uint64_t micro)
{
	uint64_t milli = micro / 1000u;
	fmt_u64(f, milli / 1000u);
	fmt_ch(f, '.');
	fmt_u32_pad(f, (uint32_t)(milli % 1000u), 3);
}

static void reply_replay(const char *name, enum sched_policy_id policy, uint64_t cycles)
{
	/* The core's one summary of the metrics, as the replayer prints it. */
	struct sched_replay_stats rs;
	sched_replay_stats(replay, &rs);
	struct sched_metrics_summary m;
	sched_metrics_summarize(&rs.metrics, src.machine, &m);
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok replay ");
	fmt_str(&f, name);
	fmt_str(&f, " policy=");
	fmt_str(&f, sched_policy_name(policy));
	fmt_kv(&f, " procs=", src.machine);
	fmt_kv(&f, " jobs=", m.jobs);
	fmt_kv(&f, " skipped=", src.skipped);
	fmt_kv(&f, " refused=", rs.refused);
	fmt_kv(&f, " killed=", m.killed);
	fmt_str(&f, " avg_wait=");
	fmt_milli(&f, m.avg_wait_micro);
	fmt_kv(&f, " max_wait=", m.max_wait);
	fmt_str(&f, " avg_bsld=");
	fmt_milli(&f, m.avg_bsld_micro);
	fmt_str(&f, " util=");
	fmt_milli(&f, m.util_pct_micro);
	fmt_kv(&f, " fallbacks=", con_view_fallbacks(replay));
	fmt_str(&f, " hash=");
	fmt_hex64(&f, rs.hash);
	fmt_kv(&f, " cycles=", cycles);
	fmt_line(&f);
}

/* replay NAME [POLICY]: run a linked fixture through the replay engine; metrics, hash, cycles. */
void cmd_replay(struct args *a)
{
	const struct console_fixture *fx = NULL;
	for (unsigned i = 0; i < console_fixture_count; i++)
		if (con_str_eq(a->v[1], console_fixtures[i].name))
			fx = &console_fixtures[i];
	if (fx == NULL) {
		con_err(SCHED_E_INVAL, "unknown fixture (see fixtures)");
		return;
	}
	enum sched_policy_id policy = con_config()->policy;
	/* The header first (the machine), for the engine's checks; the whole stream only then. */
	if (a->n == 3 && !con_policy_arg(a->v[2], &policy))
		return;
	/* As replay --node-size: gang's buddy blocks are not modelled in nodes. */
	if (con_node_size() > 1 && sched_policy_timeshared(policy)) {
		con_err(SCHED_E_NOTSUP, "node_size does not apply to gang (config node_size 1)");
		return;
	}
	if (!source_open(fx))
		return;
	/* The live schedule's policy parameters (config tolerance, sf, ...) apply to the replay too:
	   the whole opaque parameter area, copied as it is. */
	const struct sched_config *live = con_view_params(con_sched());
	struct sched_config cfg = {.procs = src.machine, .max_jobs = CONSOLE_MAX_JOBS, .policy = policy,
				   .scratch_jobs = CONSOLE_SCRATCH_JOBS};
	for (size_t i = 0; i < sizeof cfg.params / sizeof cfg.params[0]; i++)
		cfg.params[i] = live->params[i];
	/* Everything the replay engine would refuse at its start (a policy that cannot run on this
	   machine, such as gang's buddy blocks on one of no power of two processors, a job table
	   too large for the arena), found while the live schedule is intact. */
	int err = sched_replay_check(&cfg, CON_REPLAY_BYTES);
	if (err != SCHED_OK) {
		con_err(err, err == SCHED_E_NOSPACE ? "more than the console's arena holds"
			     : err == SCHED_E_INVAL ? "the policy cannot run on this machine (gang: a power of two processors)"
						    : NULL);
		return;
	}
	/* O(jobs): after the O(1) checks, so that "replay kth gang" is refused without reading KTH. */
	if (!source_verify(fx))
		return;
	unsigned char *arena = con_arena_take();
	if (arena == NULL)
		return; /* the store refused the reset this replay is to the live schedule */
	err = sched_replay_init(&replay, replay_room, sizeof replay_room, &cfg, arena, CON_REPLAY_BYTES, NULL, NULL);
	uint64_t c0 = port_cycles();
	if (err == SCHED_OK)
		err = sched_replay_run(replay, next_job, &src);
	uint64_t cycles = port_cycles() - c0;
	con_live_init(); /* the live schedule shared the arena: start it afresh */
	if (err != SCHED_OK)
		con_err(err, err == SCHED_E_TIME ? "fixture jobs are not in submit order" : NULL);
	else
		reply_replay(fx->name, policy, cycles);
}

void cmd_fixtures(struct args *a)
{
	(void)a;
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok fixtures=", console_fixture_count);
	for (unsigned i = 0; i < console_fixture_count; i++) {
		fmt_ch(&f, ' ');
		fmt_str(&f, console_fixtures[i].name);
		fmt_kv(&f, ":", (uint32_t)(console_fixtures[i].end - console_fixtures[i].data));
	}
	fmt_line(&f);
}
