/* SPDX-License-Identifier: MIT */
/*
 * Snapshot slots and a mirrored write-ahead journal over a NOR-like store
 * (docs/store-format.md). Slot k pairs with journal k: records written after
 * the snapshot in slot k go to journal k. A new snapshot goes to the older
 * slot and starts that slot's journal empty, so the newer slot and its
 * journal, which together hold everything, are never touched while the new
 * ones are written; and if the newest snapshot is later found corrupt, the
 * older one with both journals still reaches every change.
 */
#include "durable.h"

#include <stddef.h>

#include "sched/err.h"
#include "sched/fixture.h" /* fix_crc32 */

#define SNAP_MAGIC 0x31504E53u /* "SNP1" */
#define SNAP_VERSION 1u
#define SNAP_HEADER 32u
#define REC_MAGIC 0x4Au
#define REC_HEADER 8u
#define REC_COPY_MAX (REC_HEADER + DURABLE_PAYLOAD_MAX + 4u)

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t div_up(uint32_t a, uint32_t b)
{
	return a / b + (a % b != 0);
}

/* --- layout ------------------------------------------------------------------------------- */

static uint32_t slot_bytes(const struct durable *d)
{
	return d->slot_sectors * d->m.sector_bytes;
}

static uint32_t journal_bytes(const struct durable *d)
{
	return d->journal_sectors * d->m.sector_bytes;
}

static uint32_t slot_at(const struct durable *d, unsigned k)
{
	return k * slot_bytes(d);
}

static uint32_t journal_at(const struct durable *d, unsigned k)
{
	return 2u * slot_bytes(d) + k * journal_bytes(d);
}

/* The layout a header records: log2 of the sector size, then slot and journal sectors (12 bits each). */
static uint32_t layout_word(const struct durable *d)
{
	uint32_t log2 = 0;
	while ((1u << log2) < d->m.sector_bytes)
		log2++;
	return log2 << 24 | d->slot_sectors << 12 | d->journal_sectors;
}

uint32_t durable_store_bytes(uint32_t sector_bytes, uint32_t snapshot_max, uint32_t journal_bytes_)
{
	if (sector_bytes == 0)
		return 0;
	uint64_t slot = ((uint64_t)snapshot_max + SNAP_HEADER + sector_bytes - 1) / sector_bytes * sector_bytes;
	uint64_t jour = (uint64_t)div_up(journal_bytes_, sector_bytes) * sector_bytes;
	uint64_t all = 2u * (slot + jour);
	return all > UINT32_MAX ? UINT32_MAX : (uint32_t)all;
}

int durable_mount(struct durable *d, const struct durable_medium *m, uint32_t snapshot_max, uint32_t journal_bytes_)
{
	if (m->sector_bytes == 0 || (m->sector_bytes & (m->sector_bytes - 1)) != 0 || snapshot_max == 0 ||
	    journal_bytes_ == 0 || snapshot_max > UINT32_MAX / 4)
		return SCHED_E_INVAL;
	*d = (struct durable){.m = *m, .snapshot_max = snapshot_max, .active = 1};
	d->slot_sectors = div_up(snapshot_max + SNAP_HEADER, m->sector_bytes);
	d->journal_sectors = div_up(journal_bytes_, m->sector_bytes);
	uint64_t bytes = (uint64_t)2u * (d->slot_sectors + d->journal_sectors) * m->sector_bytes;
	if (d->slot_sectors > 0xFFFu || d->journal_sectors > 0xFFFu || bytes > UINT32_MAX)
		return SCHED_E_RANGE; /* the header's layout word, and offsets, must hold it */
	if ((uint64_t)2u * (d->slot_sectors + d->journal_sectors) > m->sectors)
		return SCHED_E_NOSPACE;
	return SCHED_OK;
}

uint32_t durable_seq(const struct durable *d)
{
	return d->seq;
}

uint32_t durable_journal_free(const struct durable *d)
{
	return journal_bytes(d) - d->append_at;
}

void durable_info(const struct durable *d, struct durable_info *out)
{
	*out = (struct durable_info){.generation = d->generation, .seq = d->seq,
				     .journal_records = d->records_since_snapshot,
				     .journal_free = durable_journal_free(d), .snapshots_written = d->snapshots_written};
}

const char *durable_discard_name(int why)
{
	switch (why) {
	case DURABLE_OK: return "ok";
	case DURABLE_BLANK: return "blank";
	case DURABLE_BAD_HEADER: return "torn or corrupt header";
	case DURABLE_BAD_DATA: return "corrupt data";
	case DURABLE_REFUSED: return "another build's layout";
	case DURABLE_STALE: return "stale";
	default: return "?";
	}
}

/* --- snapshots ----------------------------------------------------------------------------- */

struct snap_header {
	uint32_t generation, seq, len, crc, layout;
};

static int erase_range(const struct durable *d, uint32_t at, uint32_t sectors)
{
	for (uint32_t s = 0; s < sectors; s++) {
		int err = d->m.erase(d->m.ctx, at / d->m.sector_bytes + s);
		if (err != SCHED_OK)
			return err;
	}
	return SCHED_OK;
}

/* CRC of @p n bytes of the medium at @p at, read through a small buffer (RAM is tight on a board). */
static int crc_of(const struct durable *d, uint32_t at, uint32_t n, uint32_t *crc)
{
	uint8_t buf[64];
	uint32_t c = 0;
	for (uint32_t done = 0; done < n;) {
		uint32_t k = n - done < sizeof buf ? n - done : (uint32_t)sizeof buf;
		int err = d->m.read(d->m.ctx, at + done, buf, k);
		if (err != SCHED_OK)
			return err;
		c = fix_crc32(c, buf, k);
		done += k;
	}
	*crc = c;
	return SCHED_OK;
}

/* The header of slot @p k: DURABLE_OK with @p h filled, DURABLE_BLANK or DURABLE_BAD_HEADER; <0 on I/O. */
static int read_header(const struct durable *d, unsigned k, struct snap_header *h)
{
	uint8_t b[SNAP_HEADER];
	int err = d->m.read(d->m.ctx, slot_at(d, k), b, SNAP_HEADER);
	if (err != SCHED_OK)
		return err;
	bool blank = true;
	for (unsigned i = 0; i < SNAP_HEADER; i++)
		blank = blank && b[i] == 0xFF;
	if (blank)
		return DURABLE_BLANK;
	if (get32(b) != SNAP_MAGIC || get32(b + 4) != (SNAP_VERSION | SNAP_HEADER << 16) ||
	    get32(b + 28) != fix_crc32(0, b, 28))
		return DURABLE_BAD_HEADER;
	*h = (struct snap_header){.generation = get32(b + 8), .seq = get32(b + 12), .len = get32(b + 16),
				  .crc = get32(b + 20), .layout = get32(b + 24)};
	if (h->layout != layout_word(d) || h->len > slot_bytes(d) - SNAP_HEADER)
		return DURABLE_BAD_HEADER; /* written under another layout: its journals are elsewhere */
	return DURABLE_OK;
}

int durable_snapshot(struct durable *d, const struct durable_piece *pieces, unsigned count)
{
	uint32_t len = 0;
	for (unsigned i = 0; i < count; i++) {
		if (pieces[i].n > d->snapshot_max - len)
			return SCHED_E_NOSPACE;
		len += pieces[i].n;
	}
	unsigned target = 1u - d->active;
	/* The older slot and its journal go first; the newer pair stays whole until the header commits. */
	int err = erase_range(d, slot_at(d, target), d->slot_sectors);
	if (err == SCHED_OK)
		err = erase_range(d, journal_at(d, target), d->journal_sectors);
	uint32_t at = slot_at(d, target) + SNAP_HEADER, crc = 0;
	for (unsigned i = 0; i < count && err == SCHED_OK; i++) {
		if (pieces[i].n == 0)
			continue;
		err = d->m.write(d->m.ctx, at, pieces[i].data, pieces[i].n);
		crc = fix_crc32(crc, pieces[i].data, pieces[i].n);
		at += pieces[i].n;
	}
	if (err != SCHED_OK)
		return err;
	uint8_t h[SNAP_HEADER];
	put32(h, SNAP_MAGIC);
	put32(h + 4, SNAP_VERSION | SNAP_HEADER << 16);
	put32(h + 8, d->generation + 1u);
	put32(h + 12, d->seq);
	put32(h + 16, len);
	put32(h + 20, crc);
	put32(h + 24, layout_word(d));
	put32(h + 28, fix_crc32(0, h, 28));
	if ((err = d->m.write(d->m.ctx, slot_at(d, target), h, SNAP_HEADER)) != SCHED_OK)
		return err;
	/* Read back: a medium that lost bytes silently must not become the only copy. */
	struct snap_header back;
	uint32_t back_crc;
	int state = read_header(d, target, &back);
	if (state < 0)
		return state;
	if (state != DURABLE_OK || (err = crc_of(d, slot_at(d, target) + SNAP_HEADER, len, &back_crc)) != SCHED_OK ||
	    back_crc != crc)
		return err != SCHED_OK ? err : SCHED_E_CRC;
	d->active = (uint8_t)target;
	d->generation++;
	d->append_at = 0;
	d->records_since_snapshot = 0;
	d->snapshots_written++;
	return SCHED_OK;
}

/* --- journal records ---------------------------------------------------------------------- */

/* Bytes one copy of a record with an @p n-byte payload takes: header, payload, CRC, 4-aligned. */
static uint32_t copy_bytes(uint32_t n)
{
	return (REC_HEADER + n + 4u + 3u) & ~3u;
}

int durable_append(struct durable *d, uint8_t type, const void *payload, uint32_t n)
{
	if (type == 0 || type == 0xFF || n > DURABLE_PAYLOAD_MAX)
		return SCHED_E_INVAL;
	uint32_t cb = copy_bytes(n);
	if (2u * cb > durable_journal_free(d))
		return SCHED_E_NOSPACE;
	uint8_t rec[2u * (REC_COPY_MAX + 3u)];
	const uint8_t *p = payload;
	rec[0] = REC_MAGIC;
	rec[1] = type;
	rec[2] = (uint8_t)n;
	rec[3] = 0;
	put32(rec + 4, d->seq + 1u);
	for (uint32_t i = 0; i < n; i++)
		rec[REC_HEADER + i] = p[i];
	put32(rec + REC_HEADER + n, fix_crc32(0, rec, REC_HEADER + n));
	for (uint32_t i = REC_HEADER + n + 4u; i < cb; i++)
		rec[i] = 0xFF; /* padding stays erased */
	for (uint32_t i = 0; i < cb; i++)
		rec[cb + i] = rec[i]; /* the second copy, written in the same call */
	int err = d->m.write(d->m.ctx, journal_at(d, d->active) + d->append_at, rec, 2u * cb);
	if (err != SCHED_OK) {
		/* The bytes there are unknown now: nothing more goes into this journal until a snapshot. */
		d->append_at = journal_bytes(d);
		return err;
	}
	d->append_at += 2u * cb;
	d->seq++;
	d->records_since_snapshot++;
	return SCHED_OK;
}

struct record {
	uint8_t type, n;
	uint32_t seq;
	uint8_t payload[DURABLE_PAYLOAD_MAX];
};

/*
 * One copy at @p at: true with @p r filled if it is whole and @p copies
 * copies of its size fit before @p end (a first copy is always followed by
 * its twin: one that could not be is no first copy).
 */
static bool read_copy(const struct durable *d, uint32_t at, uint32_t copies, uint32_t end, struct record *r, int *io)
{
	uint8_t b[REC_COPY_MAX];
	if (at > end || end - at < copies * copy_bytes(0))
		return false;
	if ((*io = d->m.read(d->m.ctx, at, b, REC_HEADER)) != SCHED_OK)
		return false;
	uint32_t n = b[2];
	if (b[0] != REC_MAGIC || b[1] == 0 || b[1] == 0xFF || n > DURABLE_PAYLOAD_MAX ||
	    end - at < copies * copy_bytes(n))
		return false;
	if ((*io = d->m.read(d->m.ctx, at + REC_HEADER, b + REC_HEADER, n + 4u)) != SCHED_OK)
		return false;
	if (get32(b + REC_HEADER + n) != fix_crc32(0, b, REC_HEADER + n))
		return false;
	r->type = b[1];
	r->n = (uint8_t)n;
	r->seq = get32(b + 4);
	for (uint32_t i = 0; i < n; i++)
		r->payload[i] = b[REC_HEADER + i];
	return true;
}

static bool same_record(const struct record *a, const struct record *b)
{
	if (a->type != b->type || a->n != b->n || a->seq != b->seq)
		return false;
	for (uint32_t i = 0; i < a->n; i++)
		if (a->payload[i] != b->payload[i])
			return false;
	return true;
}

/* Bits in which the medium's [a, a+n) and [b, b+n) differ, counted up to @p cap. */
static uint32_t bits_apart(const struct durable *d, uint32_t a, uint32_t b, uint32_t n, uint32_t cap, int *io)
{
	uint8_t x[16], y[16];
	uint32_t bits = 0;
	for (uint32_t done = 0; done < n && bits <= cap;) {
		uint32_t k = n - done < sizeof x ? n - done : (uint32_t)sizeof x;
		if ((*io = d->m.read(d->m.ctx, a + done, x, k)) != SCHED_OK ||
		    (*io = d->m.read(d->m.ctx, b + done, y, k)) != SCHED_OK)
			return cap + 1;
		for (uint32_t i = 0; i < k; i++)
			for (uint8_t v = (uint8_t)(x[i] ^ y[i]); v != 0; v &= (uint8_t)(v - 1))
				bits++;
		done += k;
	}
	return bits;
}

/* How much of a record pair was whole. */
enum pair_state { PAIR_NONE, PAIR_BOTH, PAIR_FIRST_ONLY, PAIR_SECOND_ONLY };

/* A first copy that differs from its twin in more bits than this is no damaged twin: a record
 * image inside a payload, found at an offset a length allows, must not pass for the second copy. */
#define TWIN_MAX_BITS 8u

/*
 * The record pair at @p pos: the first copy, checked against its twin (a
 * cut between the two leaves one copy, which is damage to heal), or when the
 * first is damaged, the second, looked for at each offset a first copy's
 * length allows and accepted only if the damaged first copy is its near
 * twin. Returns the pair's size, or 0 if no copy is whole.
 */
static uint32_t read_pair(const struct durable *d, uint32_t pos, uint32_t end, struct record *r, enum pair_state *how,
			  int *io)
{
	struct record twin;
	*how = PAIR_NONE;
	if (read_copy(d, pos, 2, end, r, io)) {
		uint32_t cb = copy_bytes(r->n);
		bool whole = read_copy(d, pos + cb, 1, end, &twin, io) && same_record(&twin, r);
		*how = whole ? PAIR_BOTH : PAIR_FIRST_ONLY;
		return *io == SCHED_OK ? 2u * cb : 0;
	}
	for (uint32_t cb = copy_bytes(0); cb <= copy_bytes(DURABLE_PAYLOAD_MAX) && *io == SCHED_OK; cb += 4u)
		if (read_copy(d, pos + cb, 1, end, r, io) && copy_bytes(r->n) == cb &&
		    bits_apart(d, pos, pos + cb, cb, TWIN_MAX_BITS, io) <= TWIN_MAX_BITS) {
			*how = PAIR_SECOND_ONLY;
			return 2u * cb;
		}
	return 0;
}

/* Bytes in [at, end) that are not erased. */
static int count_written(const struct durable *d, uint32_t at, uint32_t end, uint32_t *count)
{
	uint8_t buf[64];
	*count = 0;
	while (at < end) {
		uint32_t k = end - at < sizeof buf ? end - at : (uint32_t)sizeof buf;
		int err = d->m.read(d->m.ctx, at, buf, k);
		if (err != SCHED_OK)
			return err;
		for (uint32_t i = 0; i < k; i++)
			*count += buf[i] != 0xFF;
		at += k;
	}
	return SCHED_OK;
}

/* --- restore -------------------------------------------------------------------------------- */

/* Where a restore stands: the last change applied, and whether the records still follow on. */
struct replay_pos {
	uint32_t seq;
	bool broken; /* a gap or a damaged pair: later records cannot be applied */
};

/*
 * Replay journal @p k: skip records the snapshot already holds, apply those
 * that follow on. Returns where its records end (the append point when @p k
 * is the active journal) through @p end_at, unless NULL; torn tails are reported only for
 * the journal that is to be appended to.
 */
static int replay_journal(struct durable *d, unsigned k, const struct durable_sink *sink, struct replay_pos *p,
			  struct durable_report *rep, bool active, uint32_t *end_at)
{
	uint32_t base = journal_at(d, k), end = base + journal_bytes(d), pos = base;
	int io = SCHED_OK;
	uint32_t last_lost = 0;
	struct record r;
	while (pos < end) {
		enum pair_state how;
		uint32_t size = read_pair(d, pos, end, &r, &how, &io);
		if (io != SCHED_OK)
			return io;
		if (size == 0)
			break;
		if (r.seq > p->seq && (p->broken || r.seq > p->seq + 1u)) {
			p->broken = true;
			rep->lost_records++;
		} else if (r.seq == p->seq + 1u) {
			sink->apply(sink->ctx, r.type, r.payload, r.n);
			p->seq++;
			rep->records++;
			rep->second_copies += how == PAIR_SECOND_ONLY;
			rep->one_copy += how == PAIR_FIRST_ONLY;
		}
		pos += size;
	}
	if (end_at != NULL)
		*end_at = pos - base;
	uint32_t written = 0;
	int err = count_written(d, pos, end, &written);
	if (err != SCHED_OK || written == 0)
		return err;
	if (active) {
		rep->torn_offset = pos;
		rep->torn_bytes = written;
	}
	/* Damage with whole records after it: they cannot be applied past the hole, but are counted. */
	for (uint32_t at = pos + 4u; at < end && io == SCHED_OK; at += 4u)
		if (read_copy(d, at, 1, end, &r, &io) && r.seq > p->seq) {
			p->broken = true;
			rep->lost_records += r.seq != last_lost;
			last_lost = r.seq;
		}
	return io;
}

/* Take up the newest whole snapshot the caller accepts; -1 in *slot if none. */
static int load_snapshot(struct durable *d, void *dest, uint32_t cap, const struct durable_sink *sink,
			 struct durable_report *rep, struct snap_header h[2], int *slot)
{
	int state[2];
	for (unsigned k = 0; k < 2; k++) {
		state[k] = read_header(d, k, &h[k]);
		if (state[k] < 0)
			return state[k];
		rep->slot_state[k] = (uint8_t)state[k];
		if (state[k] == DURABLE_OK && h[k].generation > d->generation)
			d->generation = h[k].generation;
	}
	*slot = -1;
	for (unsigned tries = 0; tries < 2; tries++) {
		int k = -1;
		for (unsigned c = 0; c < 2; c++)
			if (state[c] == DURABLE_OK && (k < 0 || h[c].generation > h[k].generation))
				k = (int)c;
		if (k < 0)
			return SCHED_OK;
		int err = h[k].len > cap ? SCHED_OK : d->m.read(d->m.ctx, slot_at(d, (unsigned)k) + SNAP_HEADER, dest, h[k].len);
		if (err != SCHED_OK)
			return err;
		if (h[k].len > cap)
			state[k] = DURABLE_REFUSED;
		else if (fix_crc32(0, dest, h[k].len) != h[k].crc)
			state[k] = DURABLE_BAD_DATA;
		else if (sink->load(sink->ctx, h[k].len) != SCHED_OK)
			state[k] = DURABLE_REFUSED;
		else {
			*slot = k;
			state[1 - k] = state[1 - k] == DURABLE_OK ? DURABLE_STALE : state[1 - k];
		}
		rep->slot_state[k] = (uint8_t)state[k];
		rep->slot_state[1 - k] = (uint8_t)state[1 - k];
		if (*slot >= 0)
			return SCHED_OK;
	}
	return SCHED_OK;
}

int durable_restore(struct durable *d, void *dest, uint32_t cap, const struct durable_sink *sink,
		    struct durable_report *rep)
{
	*rep = (struct durable_report){0};
	struct snap_header h[2];
	int slot;
	int err = load_snapshot(d, dest, cap, sink, rep, h, &slot);
	if (err != SCHED_OK)
		return err;
	if (slot < 0) {
		/* Nothing to take up: start empty and write that, so the next restore has a base. */
		struct replay_pos none = {.seq = 0, .broken = true};
		for (unsigned k = 0; k < 2 && err == SCHED_OK; k++)
			err = replay_journal(d, k, sink, &none, rep, false, NULL); /* counts what is lost */
		if (err != SCHED_OK)
			return err;
		rep->formatted = true;
		d->seq = 0;
		sink->load(sink->ctx, 0);
		/*
		 * The empty state goes to both slots, so that one flipped bit in either
		 * still leaves a base for the records to come; and journal 1 is erased
		 * first, so that no record of what was there (another build's, say) can
		 * follow on from the new seq 0 if the second write is cut.
		 */
		err = erase_range(d, journal_at(d, 1), d->journal_sectors);
		if (err == SCHED_OK)
			err = sink->snapshot(sink->ctx);
		return err == SCHED_OK ? sink->snapshot(sink->ctx) : err;
	}
	unsigned base = (unsigned)slot, other = 1u - base;
	/* A damaged slot with a readable, newer header: its journal is the one that goes on. */
	bool newer_damaged = (rep->slot_state[other] == DURABLE_BAD_DATA || rep->slot_state[other] == DURABLE_REFUSED) &&
			     h[other].generation > h[base].generation;
	struct replay_pos p = {.seq = h[base].seq};
	rep->slot_used = (uint8_t)base;
	rep->generation = h[base].generation;
	rep->snapshot_seq = h[base].seq;
	uint32_t end_base = 0;
	if ((err = replay_journal(d, base, sink, &p, rep, !newer_damaged, &end_base)) != SCHED_OK ||
	    (err = replay_journal(d, other, sink, &p, rep, newer_damaged, NULL)) != SCHED_OK)
		return err;
	rep->seq = p.seq;
	d->seq = p.seq;
	d->records_since_snapshot = rep->records;
	d->active = (uint8_t)base; /* a compaction then overwrites the other, damaged or stale, slot */
	d->append_at = end_base;
	bool damaged = newer_damaged || rep->torn_bytes > 0 || rep->second_copies > 0 || rep->one_copy > 0 ||
		       rep->lost_records > 0 ||
		  rep->slot_state[other] == DURABLE_BAD_HEADER || rep->slot_state[other] == DURABLE_BAD_DATA ||
		  rep->slot_state[other] == DURABLE_REFUSED;
	if (!damaged)
		return SCHED_OK;
	rep->compacted = true;
	return sink->snapshot(sink->ctx);
}
