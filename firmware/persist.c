/* SPDX-License-Identifier: MIT */
/*
 * What survives a reset: the console's state in the port's non-volatile
 * store, through the durable engine (durable.c). A snapshot is the pieces
 * the console's sink gives (the live scheduler's arena, byte for byte, then
 * the console's own state); a journal record is a command line that changes
 * the schedule, written before the command runs and handed back to the sink
 * on restore. Persist calls the console only through that sink. The format
 * and the rules: docs/store-format.md.
 */
#include <stddef.h>

#include "console.h"
#include "persist.h"
#include "port.h"
#include "sched/err.h"

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
static struct {
	enum persist_state state;
	uint64_t journal_cost; /* what replaying the journal since the last snapshot costs */
	uint32_t budget_snapshots; /* snapshots taken because that cost passed the budget */
	int failure; /* the sched_err that made it fail */
	bool mounted; /* st.d is laid out over the store: a format can run */
	bool grown;   /* the port's store is as large as the layout */
	uint32_t present, want; /* bytes the port had at boot, and the bytes the layout needs */
	struct durable d;
	struct port_store_geometry g;
	const struct persist_sink *sink; /* the console's side: persist_boot()'s */
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

/* The sink's pieces into the engine's older slot. */
static int write_pieces(const struct durable_piece *pieces, unsigned count)
{
	return durable_snapshot(&st.d, pieces, count);
}

static uint32_t counted_bytes; /* count_pieces()'s sum */

/* The sink's pieces, only counted: the bytes a snapshot would take now. */
static int count_pieces(const struct durable_piece *pieces, unsigned count)
{
	counted_bytes = 0;
	for (unsigned k = 0; k < count; k++)
		counted_bytes += pieces[k].n;
	return SCHED_OK;
}

static int write_snapshot(void *ctx)
{
	(void)ctx;
	int err = st.sink->save(st.sink->ctx, write_pieces);
	if (err == SCHED_OK)
		st.journal_cost = 0;
	return err;
}

/* The snapshot the engine read into the sink's buffer: the console takes it up, or says why not. */
static int load_snapshot(void *ctx, uint32_t len)
{
	(void)ctx;
	return st.sink->load(st.sink->ctx, len);
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
	st.sink->replay(st.sink->ctx, line);
}

/* "restore ..." : what the store gave back, what was set aside and why, and what it cost. */
static void report(const struct durable_report *r, bool requested, uint64_t cycles)
{
	struct persist_live l;
	st.sink->live(st.sink->ctx, &l);
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
	fmt_kv(&f, " now=", l.now);
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
	st.state = PERSIST_FAILED;
	st.failure = err;
	st.sink->refuse(st.sink->ctx, err, what);
}

/* The console's side of the engine: its snapshot, its records, and its empty state. */
static const struct durable_sink engine_sink = {load_snapshot, apply_record, write_snapshot, NULL};

/* Format the store: the empty schedule at boot's configuration, seq 0. */
static int format(void)
{
	int err = durable_format(&st.d, &engine_sink);
	if (err != SCHED_OK) {
		st.sink->reset(st.sink->ctx);
		return err;
	}
	st.state = PERSIST_ON;
	st.failure = SCHED_OK;
	st.journal_cost = 0;
	return SCHED_OK;
}

void persist_boot(const struct persist_sink *sink)
{
	st.sink = sink;
	st.state = PERSIST_OFF;
	st.mounted = false;
	int err = port_store_open(0, &st.g); /* asks for nothing, so nothing is written yet */
	if (err == SCHED_E_NOENT)
		return;
	if (err == SCHED_OK) {
		uint64_t present = (uint64_t)st.g.sectors * st.g.sector_bytes;
		st.want = durable_store_bytes(st.g.sector_bytes, sink->snapshot_max, PERSIST_JOURNAL_BYTES);
		st.present = present > UINT32_MAX ? UINT32_MAX : (uint32_t)present;
		st.grown = st.present >= st.want;
		if (!st.grown)
			st.g.sectors = st.want / st.g.sector_bytes; /* the layout's, in whole sectors */
		struct durable_medium m = {medium_erase, medium_write, medium_read, NULL, st.g.sector_bytes, st.g.sectors};
		err = durable_mount(&st.d, &m, sink->snapshot_max, PERSIST_JOURNAL_BYTES);
	}
	if (err != SCHED_OK) {
		fail(err, "the store cannot be opened: journaled commands are refused");
		return;
	}
	st.mounted = true;
	st.state = PERSIST_ON;
	struct durable_report r = {.formatted = true};
	uint64_t c0 = port_cycles();
	if (format_at_boot)
		err = format(); /* asked for: whatever the store held is gone */
	else
		err = durable_restore(&st.d, sink->buffer, sink->capacity, &engine_sink, &r);
	uint64_t cycles = port_cycles() - c0;
	if (err == SCHED_E_FORMAT) {
		report(&r, false, cycles);
		fail(err, "the store holds state this build cannot take up (another build's, or damaged; the restore "
			  "line says which) and was left as it was: journaled commands are refused until `store format` "
			  "(build/console --store-format) starts it afresh, discarding it");
		return;
	}
	if (err != SCHED_OK) {
		sink->reset(sink->ctx);
		fail(err, "the store failed during restore: journaled commands are refused");
		return;
	}
	report(&r, format_at_boot, cycles);
}

void persist_fmt_banner(struct fmt *f)
{
	fmt_str(f, st.state == PERSIST_ON ? " store=on" : st.state == PERSIST_OFF ? " store=off" : " store=failed");
	if (st.state == PERSIST_ON)
		fmt_kv(f, " seq=", durable_seq(&st.d));
}

bool persist_log(const char *text, unsigned n)
{
	if (st.state == PERSIST_OFF)
		return true;
	if (st.state == PERSIST_FAILED) {
		st.sink->refuse(st.sink->ctx, SCHED_E_IO, st.failure == SCHED_E_FORMAT
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
	if (st.state == PERSIST_ON)
		st.journal_cost += cycles;
}

/* --- what the store and digest commands read and do --------------------------------------- */

void persist_info(struct persist_info *out)
{
	*out = (struct persist_info){.state = st.state, .failure = st.failure, .mounted = st.mounted,
				     .replay_budget = PERSIST_REPLAY_BUDGET};
	if (st.state != PERSIST_ON)
		return;
	struct durable_info info;
	durable_info(&st.d, &info);
	(void)st.sink->save(st.sink->ctx, count_pieces);
	out->snapshot_bytes = counted_bytes;
	out->sectors = st.g.sectors;
	out->sector_bytes = st.g.sector_bytes;
	out->generation = info.generation;
	out->seq = info.seq;
	out->journal_records = info.journal_records;
	out->journal_free = info.journal_free;
	out->snapshots_written = info.snapshots_written;
	out->journal_cost = st.journal_cost;
	out->budget_snapshots = st.budget_snapshots;
}

int persist_format(void)
{
	if (!st.mounted)
		return SCHED_E_STATE;
	int err = format();
	if (err != SCHED_OK) {
		st.state = PERSIST_FAILED;
		st.failure = err;
	}
	return err;
}

int persist_snapshot(void)
{
	if (st.state != PERSIST_ON)
		return SCHED_E_STATE;
	int err = write_snapshot(NULL);
	if (err != SCHED_OK) {
		st.state = PERSIST_FAILED;
		st.failure = err;
	}
	return err;
}
