/* SPDX-License-Identifier: MIT */
/*
 * What survives a reset: the console's state in the port's non-volatile
 * store, through the durable engine (durable.c). A snapshot is the live
 * scheduler's arena, byte for byte (its state is position-independent, so
 * sched_attach() takes it up as it was), followed by the console's own
 * state; a journal record is a command line that changes the schedule,
 * written before the command runs and replayed through the same dispatcher
 * on restore. The format and the rules: docs/store-format.md.
 */
#include <stddef.h>

#include "con.h"
#include "durable.h"
#include "port.h"

#ifndef PERSIST_JOURNAL_BYTES
#define PERSIST_JOURNAL_BYTES 16384u /* per journal: about 250 submit lines between snapshots */
#endif
#ifndef PERSIST_REPLAY_BUDGET
/*
 * The work a restore may have to replay, in the port's counter unit: past
 * it, the next journaled line first compacts the journal into a snapshot,
 * so that a restore (and with it a reset under a watchdog) stays short
 * whatever the policy costs per command. Host: nanoseconds (0.1 s); a
 * board's port.mk sets its own (instructions or timer ticks).
 */
#define PERSIST_REPLAY_BUDGET 100000000u
#endif
#define PERSIST_LINE 1u              /* the one record type: a command line */
#define SAVED_MAGIC 0x314E4F43u      /* "CON1" */

/* The console's state beside the arena: what con_live_init() would otherwise set. */
struct con_saved {
	uint32_t magic, bytes;
	uint32_t config_layout; /* config_layout(): another build's struct sched_config is not read as ours */
	uint32_t now, decisions;
	uint64_t hash;
	struct sched_config cfg;
};
#define SNAPSHOT_MAX (CON_LIVE_BYTES + sizeof(struct con_saved))
_Static_assert(SNAPSHOT_MAX <= CON_ARENA_BYTES, "a snapshot is read back into the console's arena");

enum store_state { STORE_OFF, STORE_ON, STORE_FAILED };

static struct {
	enum store_state state;
	uint64_t journal_cost; /* what replaying the journal since the last snapshot costs */
	uint32_t budget_snapshots; /* snapshots taken because that cost passed the budget */
	int failure; /* the sched_err that made it fail */
	bool mounted; /* st.d is laid out over the store: a format can run */
	bool grown;   /* the port's store is as large as the layout */
	uint32_t present, want; /* bytes the port had at boot, and the bytes the layout needs */
	struct durable d;
	struct port_store_geometry g;
} st;

static bool format_at_boot; /* console_store_format_at_boot() was called */

void console_store_format_at_boot(void)
{
	format_at_boot = true;
}

/*
 * The console's medium: the port's store calls, except that a store
 * shorter than the layout (a new file, or one cut short) is grown only
 * before the first write or erase, and reads as erased past its end until
 * then, as the port's growth will make it. So a store the restore refuses
 * is left byte for byte as it was.
 */
static int grow(void)
{
	if (st.grown)
		return SCHED_OK;
	struct port_store_geometry g;
	int err = port_store_open(st.want, &g);
	st.grown = err == SCHED_OK;
	return err;
}

static int medium_erase(void *ctx, uint32_t sector)
{
	(void)ctx;
	int err = grow();
	return err != SCHED_OK ? err : port_store_erase(sector);
}

static int medium_write(void *ctx, uint32_t offset, const void *data, uint32_t n)
{
	(void)ctx;
	int err = grow();
	return err != SCHED_OK ? err : port_store_write(offset, data, n);
}

static int medium_read(void *ctx, uint32_t offset, void *data, uint32_t n)
{
	(void)ctx;
	uint32_t have = n; /* bytes the port has */
	if (!st.grown && (uint64_t)offset + n > st.present)
		have = offset >= st.present ? 0 : st.present - offset;
	unsigned char *p = data;
	for (uint32_t i = have; i < n; i++)
		p[i] = 0xFF;
	return have == 0 ? SCHED_OK : port_store_read(offset, data, have);
}

/*
 * A digest of how this build lays out struct sched_config: its size, the
 * offsets of its fixed fields, and every registry parameter's name, offset
 * and size. A build that moves a field gets another value, and its
 * snapshots are refused rather than misread. O(parameters).
 */
static uint32_t config_layout(void)
{
	uint64_t h = con_hash_u32(CON_HASH_BASIS, (uint32_t)sizeof(struct sched_config));
	h = con_hash_u32(h, (uint32_t)offsetof(struct sched_config, max_jobs));
	h = con_hash_u32(h, (uint32_t)offsetof(struct sched_config, policy));
	h = con_hash_u32(h, (uint32_t)offsetof(struct sched_config, scratch_jobs));
	for (int pol = 0; pol < SCHED_POLICY_COUNT; pol++) {
		const struct sched_param *ps;
		unsigned n = sched_policy_params((enum sched_policy_id)pol, &ps);
		for (unsigned k = 0; k < n; k++) {
			for (const char *c = ps[k].name; *c != '\0'; c++)
				h = con_hash_u32(h, (uint32_t)(unsigned char)*c);
			h = con_hash_u32(con_hash_u32(h, ps[k].offset), ps[k].size);
		}
	}
	return (uint32_t)(h ^ (h >> 32));
}

static int write_snapshot(void *ctx)
{
	(void)ctx;
	struct con_saved saved = {.magic = SAVED_MAGIC, .bytes = sizeof saved, .config_layout = config_layout(), .now = con.now,
				  .decisions = con.decisions, .hash = con.hash, .cfg = con.cfg};
	struct durable_piece pieces[2] = {{con_arena, (uint32_t)sched_arena_used(con.s)}, {&saved, sizeof saved}};
	int err = durable_snapshot(&st.d, pieces, 2);
	if (err == SCHED_OK)
		st.journal_cost = 0;
	return err;
}

/* Take up a snapshot read into con_arena: the arena, then the console's state after it. */
static int load_snapshot(void *ctx, uint32_t len)
{
	(void)ctx;
	if (len == 0) {
		con_live_init(); /* nothing usable: the empty schedule at boot's configuration */
		return SCHED_OK;
	}
	struct con_saved saved;
	if (len < sizeof saved)
		return SCHED_E_FORMAT;
	const unsigned char *tail = con_arena + (len - sizeof saved);
	unsigned char *to = (unsigned char *)&saved;
	for (size_t i = 0; i < sizeof saved; i++)
		to[i] = tail[i];
	if (saved.magic != SAVED_MAGIC || saved.bytes != sizeof saved || saved.config_layout != config_layout())
		return SCHED_E_FORMAT;
	int err = con_live_attach();
	if (err != SCHED_OK || sched_arena_used(con.s) != len - sizeof saved || sched_check(con.s) != SCHED_OK) {
		con_live_init();
		return err != SCHED_OK ? err : SCHED_E_FORMAT;
	}
	con.now = saved.now;
	con.decisions = saved.decisions;
	con.hash = saved.hash;
	con.cfg = saved.cfg;
	return SCHED_OK;
}

static void apply_record(void *ctx, uint8_t type, const uint8_t *payload, uint32_t n)
{
	(void)ctx;
	char line[DURABLE_PAYLOAD_MAX + 1];
	if (type != PERSIST_LINE)
		return; /* a newer build's record kind: the CRC says it is whole, this build cannot apply it */
	for (uint32_t i = 0; i < n; i++)
		line[i] = (char)payload[i];
	line[n] = '\0';
	con_replay_line(line);
}

/* "restore ..." : what the store gave back, what was set aside and why, and what it cost. */
static void report(const struct durable_report *r, bool requested, uint64_t cycles)
{
	struct con_load l = con_view_load(con.s);
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "restore");
	if (r->formatted)
		fmt_str(&f, requested ? " formatted requested" : " formatted");
	if (r->refused)
		fmt_str(&f, " refused");
	fmt_kv(&f, " generation=", r->generation);
	fmt_kv(&f, " snapshot_seq=", r->snapshot_seq);
	fmt_kv(&f, " records=", r->records);
	fmt_kv(&f, " seq=", durable_seq(&st.d));
	fmt_kv(&f, " now=", con.now);
	fmt_kv(&f, " waiting=", l.waiting);
	fmt_kv(&f, " running=", l.running);
	for (unsigned k = 0; k < 2; k++) {
		fmt_str(&f, k ? " slot1=" : " slot0=");
		fmt_str(&f, requested ? "formatted"
			    : k == r->slot_used && !r->formatted && !r->refused ? "used"
			    : durable_discard_name(r->slot_state[k]));
	}
	fmt_kv(&f, " second_copies=", r->second_copies);
	fmt_kv(&f, " one_copy=", r->one_copy);
	fmt_kv(&f, " torn_bytes=", r->torn_bytes);
	if (r->torn_bytes > 0)
		fmt_kv(&f, " torn_at=", r->torn_offset);
	fmt_kv(&f, " lost_records=", r->lost_records);
	fmt_str(&f, r->compacted || r->formatted ? " compacted=yes" : " compacted=no");
	fmt_kv(&f, " cost=", cycles);
	fmt_ch(&f, ' ');
	fmt_str(&f, port_cycle_unit());
	fmt_line(&f);
}

static void fail(int err, const char *what)
{
	st.state = STORE_FAILED;
	st.failure = err;
	con_err(err, what);
}

/* The console's side of the engine: its snapshot, its records, and its empty state. */
static const struct durable_sink sink = {load_snapshot, apply_record, write_snapshot, NULL};

/* Format the store: the empty schedule at boot's configuration, seq 0. */
static int format(void)
{
	int err = durable_format(&st.d, &sink);
	if (err != SCHED_OK) {
		con_live_init();
		return err;
	}
	st.state = STORE_ON;
	st.failure = SCHED_OK;
	st.journal_cost = 0;
	return SCHED_OK;
}

void persist_boot(void)
{
	st.state = STORE_OFF;
	st.mounted = false;
	int err = port_store_open(0, &st.g); /* asks for nothing, so nothing is written yet */
	if (err == SCHED_E_NOENT)
		return;
	if (err == SCHED_OK) {
		uint64_t present = (uint64_t)st.g.sectors * st.g.sector_bytes;
		st.want = durable_store_bytes(st.g.sector_bytes, SNAPSHOT_MAX, PERSIST_JOURNAL_BYTES);
		st.present = present > UINT32_MAX ? UINT32_MAX : (uint32_t)present;
		st.grown = st.present >= st.want;
		if (!st.grown)
			st.g.sectors = st.want / st.g.sector_bytes; /* the layout's, in whole sectors */
		struct durable_medium m = {medium_erase, medium_write, medium_read, NULL, st.g.sector_bytes, st.g.sectors};
		err = durable_mount(&st.d, &m, SNAPSHOT_MAX, PERSIST_JOURNAL_BYTES);
	}
	if (err != SCHED_OK) {
		fail(err, "the store cannot be opened: journaled commands are refused");
		return;
	}
	st.mounted = true;
	st.state = STORE_ON;
	struct durable_report r = {.formatted = true};
	uint64_t c0 = port_cycles();
	if (format_at_boot)
		err = format(); /* asked for: whatever the store held is gone */
	else
		err = durable_restore(&st.d, con_arena, CON_ARENA_BYTES, &sink, &r);
	uint64_t cycles = port_cycles() - c0;
	if (err == SCHED_E_FORMAT) {
		report(&r, false, cycles);
		fail(err, "the store holds state this build cannot take up (another build's, or damaged; the restore "
			  "line says which) and was left as it was: journaled commands are refused until `store format` "
			  "(build/console --store-format) starts it afresh, discarding it");
		return;
	}
	if (err != SCHED_OK) {
		con_live_init();
		fail(err, "the store failed during restore: journaled commands are refused");
		return;
	}
	report(&r, format_at_boot, cycles);
}

void persist_fmt_banner(struct fmt *f)
{
	fmt_str(f, st.state == STORE_ON ? " store=on" : st.state == STORE_OFF ? " store=off" : " store=failed");
	if (st.state == STORE_ON)
		fmt_kv(f, " seq=", durable_seq(&st.d));
}

bool persist_log(const char *text, unsigned n)
{
	if (st.state == STORE_OFF)
		return true;
	if (st.state == STORE_FAILED) {
		con_err(SCHED_E_IO, st.failure == SCHED_E_FORMAT
			? "the store was refused at boot (the restore line says why): nothing that changes the "
			  "schedule is accepted until store format"
			: "the store failed earlier: nothing that changes the schedule is accepted");
		return false;
	}
	int err = SCHED_OK;
	if (st.journal_cost >= PERSIST_REPLAY_BUDGET) {
		st.budget_snapshots++;
		err = write_snapshot(NULL); /* a restore would replay too much: start a new journal */
	}
	if (err == SCHED_OK)
		err = durable_append(&st.d, PERSIST_LINE, text, n);
	if (err == SCHED_E_NOSPACE) {
		/* A full journal: the state so far becomes a snapshot, and the journal starts again. */
		err = write_snapshot(NULL);
		if (err == SCHED_OK)
			err = durable_append(&st.d, PERSIST_LINE, text, n);
	}
	if (err != SCHED_OK) {
		/* The bytes may have reached the medium before the error: a restart replays the line if they
		   are whole, and its banner's seq says which. Nothing runs now, and nothing more is taken. */
		fail(err, "the store failed writing this line's record: it did not run now; after a restart, "
			  "the banner's seq says whether it took");
		return false;
	}
	return true;
}

void persist_ran(uint64_t cycles)
{
	if (st.state == STORE_ON)
		st.journal_cost += cycles;
}

/* --- the store and digest commands ------------------------------------------------------------ */

/*
 * store: where the store stands; store snapshot: compact the journal into a
 * snapshot now; store format: start the store afresh with the empty
 * schedule, discarding whatever it held (the one way, with --store-format,
 * to reuse a store the restore refused).
 */
void cmd_store(struct args *a)
{
	if (a->n == 2 && !con_str_eq(a->v[1], "snapshot") && !con_str_eq(a->v[1], "format")) {
		con_err(SCHED_E_INVAL, "store takes snapshot, format or nothing");
		return;
	}
	if (a->n == 2 && con_str_eq(a->v[1], "format") && st.mounted) {
		int err = format();
		if (err != SCHED_OK) {
			fail(err, "the format failed");
			return;
		}
		struct durable_info info;
		durable_info(&st.d, &info);
		struct fmt f;
		fmt_init(&f);
		fmt_kv(&f, "ok formatted store=on generation=", info.generation);
		fmt_kv(&f, " seq=", info.seq);
		fmt_line(&f);
		return;
	}
	if (st.state != STORE_ON) {
		if (a->n == 2) {
			con_err(st.state == STORE_OFF ? SCHED_E_STATE : st.failure,
				st.state == STORE_OFF                ? "no store"
				: st.failure == SCHED_E_FORMAT ? "the store was refused at boot: store format starts it afresh"
							       : "the store failed");
			return;
		}
		con_ok(st.state == STORE_OFF ? " store=off" : " store=failed");
		return;
	}
	if (a->n == 2) {
		int err = write_snapshot(NULL);
		if (err != SCHED_OK) {
			fail(err, "the snapshot was not written");
			return;
		}
	}
	struct durable_info info;
	durable_info(&st.d, &info);
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, a->n == 2 ? "ok snapshot store=on" : "ok store=on");
	fmt_kv(&f, " sectors=", st.g.sectors);
	fmt_kv(&f, " sector_bytes=", st.g.sector_bytes);
	fmt_kv(&f, " generation=", info.generation);
	fmt_kv(&f, " seq=", info.seq);
	fmt_kv(&f, " journal_records=", info.journal_records);
	fmt_kv(&f, " journal_free=", info.journal_free);
	fmt_kv(&f, " snapshot_bytes=", sched_arena_used(con.s) + sizeof(struct con_saved));
	fmt_kv(&f, " snapshots_written=", info.snapshots_written);
	fmt_kv(&f, " journal_cost=", st.journal_cost);
	fmt_kv(&f, " replay_budget=", PERSIST_REPLAY_BUDGET);
	fmt_kv(&f, " budget_snapshots=", st.budget_snapshots);
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
	uint64_t h = con_hash_u32(con_hash_u32(CON_HASH_BASIS, con.now), (uint32_t)con.cfg.policy);
	uint32_t jobs = 0;
	for (int which = SCHED_JOB_WAITING; which <= SCHED_JOB_RUNNING; which++)
		for (const struct sched_job *j = sched_first(con.s, (enum sched_job_state)which); j != NULL;
		     j = sched_next(con.s, j), jobs++) {
			struct sched_job_info info;
			sched_job_read(j, &info);
			h = digest_job(h, &info);
		}
	for (const struct sched_seg *g = sched_seg_first(con.s, 0); g != NULL; g = sched_seg_next(con.s, 0, g))
		h = con_hash_u32(con_hash_u32(h, sched_seg_time(g)), sched_seg_free(g));
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok seq=", st.state == STORE_ON ? durable_seq(&st.d) : 0);
	fmt_str(&f, " hash=");
	fmt_hex64(&f, con.hash);
	fmt_kv(&f, " decisions=", con.decisions);
	fmt_str(&f, " state=");
	fmt_hex64(&f, h);
	fmt_kv(&f, " jobs=", jobs);
	fmt_kv(&f, " now=", con.now);
	fmt_line(&f);
}
