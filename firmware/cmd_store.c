/* SPDX-License-Identifier: MIT */
/* store [snapshot|format] and digest: the non-volatile store (persist.c) and what a restore must give back. */
#include "commands.h"
#include "con_reply.h"
#include "con_session.h"
#include "persist.h"

/* " generation=G seq=S" and the rest of the store's position, as `store` prints it. */
static void fmt_store(struct fmt *f, const struct persist_info *p)
{
	fmt_kv(f, " sectors=", p->sectors);
	fmt_kv(f, " sector_bytes=", p->sector_bytes);
	fmt_kv(f, " generation=", p->generation);
	fmt_kv(f, " seq=", p->seq);
	fmt_kv(f, " journal_records=", p->journal_records);
	fmt_kv(f, " journal_free=", p->journal_free);
	fmt_kv(f, " snapshot_bytes=", p->snapshot_bytes);
	fmt_kv(f, " snapshots_written=", p->snapshots_written);
	fmt_kv(f, " journal_cost=", p->journal_cost);
	fmt_kv(f, " replay_budget=", p->replay_budget);
	fmt_kv(f, " budget_snapshots=", p->budget_snapshots);
}

/* store format on a mounted store: the empty schedule at seq 0, whatever the store held. */
static void store_format(void)
{
	int err = persist_format();
	if (err != SCHED_OK) {
		con_err(err, "the format failed");
		return;
	}
	struct persist_info p;
	persist_info(&p);
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok formatted store=on generation=", p.generation);
	fmt_kv(&f, " seq=", p.seq);
	fmt_line(&f);
}

/*
 * store: where the store stands; store snapshot: compact the journal into a
 * snapshot now; store format: start the store afresh with the empty
 * schedule, discarding whatever it held (the one way, with --store-format,
 * to reuse a store the restore refused).
 */
void cmd_store(struct args *a)
{
	bool snapshot = a->n == 2 && con_str_eq(a->v[1], "snapshot");
	bool format = a->n == 2 && con_str_eq(a->v[1], "format");
	if (a->n == 2 && !snapshot && !format) {
		con_err(SCHED_E_INVAL, "store takes snapshot, format or nothing");
		return;
	}
	struct persist_info p;
	persist_info(&p);
	if (format && p.mounted) {
		store_format();
		return;
	}
	if (p.state != PERSIST_ON) {
		if (a->n == 2) {
			con_err(p.state == PERSIST_OFF ? SCHED_E_STATE : p.failure,
				p.state == PERSIST_OFF              ? "no store"
				: p.failure == SCHED_E_FORMAT ? "the store was refused at boot: store format starts it afresh"
							      : "the store failed");
			return;
		}
		con_ok(p.state == PERSIST_OFF ? " store=off" : " store=failed");
		return;
	}
	if (snapshot) {
		int err = persist_snapshot();
		if (err != SCHED_OK) {
			con_err(err, "the snapshot was not written");
			return;
		}
		persist_info(&p);
	}
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, snapshot ? "ok snapshot store=on" : "ok store=on");
	fmt_store(&f, &p);
	fmt_line(&f);
}

/* One job's public state into the digest. */
static uint64_t digest_job(uint64_t h, const struct sched_job_info *j)
{
	h = con_hash_u32(con_hash_u32(con_hash_u32(h, j->id), j->procs), j->estimate);
	h = con_hash_u32(con_hash_u32(con_hash_u32(h, j->submit), j->start), (uint32_t)j->state);
	h = con_hash_u32(con_hash_u32(h, j->guarantee), (uint32_t)j->slack);
	return con_hash_u32(con_hash_u32(h, j->prio3), j->reserved);
}

/*
 * digest: the schedule hash (every decision since the last reset), a digest
 * of the state as the public API shows it (the clock, the policy, every job
 * with its guarantee, the profile), and the journal's position: equal
 * digests after a restore mean nothing was lost and no guarantee moved.
 */
void cmd_digest(struct args *a)
{
	(void)a;
	struct sched *s = con_sched();
	uint64_t h = con_hash_u32(con_hash_u32(CON_HASH_BASIS, con_now()), (uint32_t)con_config()->policy);
	uint32_t jobs = 0;
	for (int which = SCHED_JOB_WAITING; which <= SCHED_JOB_RUNNING; which++)
		for (const struct sched_job *j = sched_first(s, (enum sched_job_state)which); j != NULL;
		     j = sched_next(s, j), jobs++) {
			struct sched_job_info info;
			sched_job_read(j, &info);
			h = digest_job(h, &info);
		}
	for (const struct sched_seg *g = sched_seg_first(s, 0); g != NULL; g = sched_seg_next(s, 0, g))
		h = con_hash_u32(con_hash_u32(h, sched_seg_time(g)), sched_seg_free(g));
	struct persist_info p;
	persist_info(&p);
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok seq=", p.seq);
	fmt_str(&f, " hash=");
	fmt_hex64(&f, con_hash());
	fmt_kv(&f, " decisions=", con_decisions());
	fmt_str(&f, " state=");
	fmt_hex64(&f, h);
	fmt_kv(&f, " jobs=", jobs);
	fmt_kv(&f, " now=", con_now());
	fmt_line(&f);
}
