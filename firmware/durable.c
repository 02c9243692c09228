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
#include "fixture/fixture.h" /* fix_crc32 */

#define SNAP_MAGIC 0x31504E53u /* "SNP1" */
#define SNAP_VERSION 1u
#define SNAP_HEADER 32u
#define REC_MAGIC 0x4Au
#define REC_HEADER 8u
#define REC_COPY_MAX (REC_HEADER + DURABLE_PAYLOAD_MAX + 4u)
#define SUCC_MAGIC 0x3154584Eu /* "NXT1" */
#define SUCC_BYTES 16u
#define MARK 0x00u /* a mark byte as written; one that reads with at most 4 bits set counts */

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

/*
 * A slot ends in its marks, so that an erased or missing journal sector is
 * seen as such and not as a journal nothing was written to (issue 25):
 *
 *   | header | payload ... | own marks (M) | successor (16) | next marks (M) |
 *
 * Every record appended writes one mark byte in the own marks of the slot
 * its journal pairs with, and one in the next marks of the other, older,
 * slot, whose successor record names the snapshot the journal follows. So
 * the count of acknowledged records since a snapshot is kept outside the
 * journal twice, in two slots, which no single erased sector or cut-short
 * file removes together with the journal and the newer slot: a store cut
 * at slot 1 keeps slot 0's marks, whichever slot is the newer.
 */
static uint32_t marks_max(const struct durable *d)
{
	return d->journal_sectors * d->m.sector_bytes / DURABLE_MARK_SPAN;
}

static uint32_t marks_bytes(uint32_t marks)
{
	return 2u * marks + SUCC_BYTES;
}

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

/* Slot @p k's own marks: one per record in journal k since the snapshot in slot k. */
static uint32_t own_marks_at(const struct durable *d, unsigned k)
{
	return slot_at(d, k) + slot_bytes(d) - marks_bytes(marks_max(d));
}

/* Slot @p k's successor record: the snapshot written after it (in the other slot). */
static uint32_t succ_at(const struct durable *d, unsigned k)
{
	return own_marks_at(d, k) + marks_max(d);
}

/* Slot @p k's next marks: one per record in the other journal since that successor. */
static uint32_t next_marks_at(const struct durable *d, unsigned k)
{
	return succ_at(d, k) + SUCC_BYTES;
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
	uint64_t jour = (uint64_t)div_up(journal_bytes_, sector_bytes) * sector_bytes;
	uint64_t marks = 2u * (jour / DURABLE_MARK_SPAN) + SUCC_BYTES;
	uint64_t slot = ((uint64_t)snapshot_max + SNAP_HEADER + marks + sector_bytes - 1) / sector_bytes * sector_bytes;
	uint64_t all = 2u * (slot + jour);
	return all > UINT32_MAX ? UINT32_MAX : (uint32_t)all;
}

int durable_mount(struct durable *d, const struct durable_medium *m, uint32_t snapshot_max, uint32_t journal_bytes_)
{
	if (m->sector_bytes == 0 || (m->sector_bytes & (m->sector_bytes - 1)) != 0 || snapshot_max == 0 ||
	    journal_bytes_ == 0 || snapshot_max > UINT32_MAX / 4)
		return SCHED_E_INVAL;
	*d = (struct durable){.m = *m, .snapshot_max = snapshot_max, .active = 1};
	d->journal_sectors = div_up(journal_bytes_, m->sector_bytes);
	if (d->journal_sectors > 0xFFFu || (uint64_t)d->journal_sectors * m->sector_bytes > UINT32_MAX / 4)
		return SCHED_E_RANGE;
	if (marks_max(d) == 0)
		return SCHED_E_INVAL; /* a journal shorter than DURABLE_MARK_SPAN could hold no record */
	d->slot_sectors = div_up(snapshot_max + SNAP_HEADER + marks_bytes(marks_max(d)), m->sector_bytes);
	uint64_t bytes = (uint64_t)2u * (d->slot_sectors + d->journal_sectors) * m->sector_bytes;
	if (d->slot_sectors > 0xFFFu || bytes > UINT32_MAX)
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

/*
 * The header of slot @p k: DURABLE_OK with @p h filled, DURABLE_BLANK,
 * DURABLE_BAD_HEADER, or DURABLE_REFUSED (@p h filled) for a whole header
 * of another layout (another build's sector, slot or journal size: its
 * journals and marks are elsewhere, and its snapshot is not for this build);
 * <0 on I/O.
 */
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
		return DURABLE_REFUSED;
	return DURABLE_OK;
}

/* The successor record of slot @p k: DURABLE_OK with @p h's generation and seq, DURABLE_BLANK, or DURABLE_BAD_HEADER. */
static int read_succ(const struct durable *d, unsigned k, struct snap_header *h)
{
	uint8_t b[SUCC_BYTES];
	int err = d->m.read(d->m.ctx, succ_at(d, k), b, SUCC_BYTES);
	if (err != SCHED_OK)
		return err;
	bool blank = true;
	for (unsigned i = 0; i < SUCC_BYTES; i++)
		blank = blank && b[i] == 0xFF;
	if (blank)
		return DURABLE_BLANK;
	if (get32(b) != SUCC_MAGIC || get32(b + 12) != fix_crc32(0, b, 12))
		return DURABLE_BAD_HEADER;
	*h = (struct snap_header){.generation = get32(b + 4), .seq = get32(b + 8)};
	return DURABLE_OK;
}

int durable_snapshot(struct durable *d, const struct durable_piece *pieces, unsigned count)
{
	if (!d->ready)
		return SCHED_E_STATE;
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
	unsigned left = d->active;
	bool name_it = d->succ_ok;
	d->active = (uint8_t)target;
	d->generation++;
	d->append_at = 0;
	d->records_since_snapshot = 0;
	d->snapshots_written++;
	d->own_at = d->next_at = 0;
	d->succ_ok = true; /* the slot was just erased, its successor record with it */
	d->next_ok = false;
	if (!name_it)
		return SCHED_OK; /* the slot left may hold a stale one: a format's first snapshot, or a restore's
				    that writes a second */
	/* The slot left names the new one: the records to come are counted there as well. */
	put32(h, SUCC_MAGIC);
	put32(h + 4, d->generation);
	put32(h + 8, d->seq);
	put32(h + 12, fix_crc32(0, h, 12));
	if ((err = d->m.write(d->m.ctx, succ_at(d, left), h, SUCC_BYTES)) != SCHED_OK) {
		d->append_at = journal_bytes(d); /* unknown bytes there: nothing is appended before the next snapshot */
		return err;
	}
	d->next_ok = true;
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
	if (!d->ready)
		return SCHED_E_STATE;
	uint32_t cb = copy_bytes(n);
	if (2u * cb > durable_journal_free(d) || d->own_at >= marks_max(d) || d->next_at >= marks_max(d))
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
	/* Marked after the record is whole: a mark never counts a record that is not there. */
	const uint8_t mark = MARK;
	if (err == SCHED_OK)
		err = d->m.write(d->m.ctx, own_marks_at(d, d->active) + d->own_at, &mark, 1);
	if (err == SCHED_OK && d->next_ok)
		err = d->m.write(d->m.ctx, next_marks_at(d, 1u - d->active) + d->next_at, &mark, 1);
	if (err != SCHED_OK) {
		/* The bytes there are unknown now: nothing more goes into this journal until a snapshot. */
		d->append_at = journal_bytes(d);
		return err;
	}
	d->own_at++;
	d->next_at += d->next_ok;
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

/* The mark bytes of one area: how many count, where the last written one ends, and whether
 * they are exactly the marks written in order (no torn or stray byte). */
struct marks {
	uint32_t count, end;
	bool clean;
};

static int read_marks(const struct durable *d, uint32_t at, uint32_t n, struct marks *mk)
{
	uint8_t buf[64];
	uint32_t exact = 0;
	*mk = (struct marks){0};
	for (uint32_t done = 0; done < n;) {
		uint32_t k = n - done < sizeof buf ? n - done : (uint32_t)sizeof buf;
		int err = d->m.read(d->m.ctx, at + done, buf, k);
		if (err != SCHED_OK)
			return err;
		for (uint32_t i = 0; i < k; i++) {
			unsigned bits = 0;
			for (uint8_t v = buf[i]; v != 0; v &= (uint8_t)(v - 1))
				bits++;
			/* Nearer 0x00 than 0xFF: a flipped bit or two neither makes nor unmakes a mark. */
			mk->count += bits <= 4;
			exact += buf[i] == MARK;
			if (buf[i] != 0xFF)
				mk->end = done + i + 1;
		}
		done += k;
	}
	mk->clean = exact == mk->end;
	return SCHED_OK;
}

/* What the end of a slot holds. */
struct slot_marks {
	int succ_state;           /* read_succ's answer */
	struct snap_header succ;  /* its generation and seq, when DURABLE_OK */
	struct marks own, next;
	bool tail_blank;          /* no successor record, no next mark: no snapshot followed this one */
};

static int read_slot_marks(const struct durable *d, unsigned k, struct slot_marks *sm)
{
	int state = read_succ(d, k, &sm->succ);
	if (state < 0)
		return state;
	sm->succ_state = state;
	int err = read_marks(d, own_marks_at(d, k), marks_max(d), &sm->own);
	if (err == SCHED_OK)
		err = read_marks(d, next_marks_at(d, k), marks_max(d), &sm->next);
	sm->tail_blank = state == DURABLE_BLANK && sm->next.end == 0;
	return err;
}

/*
 * The last seq the marks show acknowledged (0: none). A slot whose
 * successor record stands counts the records marked after that successor
 * (its own marks are then covered by the successor's seq, or were reported
 * lost when the successor was written); any other slot with a whole header
 * counts its own journal's. A successor record is stale when the other slot
 * has a whole header of another generation: a restore replaced that slot.
 */
static uint32_t marked_seq(const int hstate[2], const struct snap_header h[2], const struct slot_marks sm[2])
{
	uint32_t seq = 0;
	for (unsigned k = 0; k < 2; k++) {
		bool succ = sm[k].succ_state == DURABLE_OK &&
			    (hstate[1 - k] != DURABLE_OK || h[1 - k].generation == sm[k].succ.generation);
		uint32_t v = succ ? sm[k].succ.seq + sm[k].next.count
			   : hstate[k] == DURABLE_OK ? h[k].seq + sm[k].own.count : 0;
		seq = v > seq ? v : seq;
	}
	return seq;
}

/* Take up the newest whole snapshot the caller accepts, among headers read into @p state and
 * @p h; -1 in *slot if none. */
static int load_snapshot(struct durable *d, void *dest, uint32_t cap, const struct durable_sink *sink,
			 struct durable_report *rep, const int hstate[2], const struct snap_header h[2], int *slot)
{
	int state[2] = {hstate[0], hstate[1]};
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

int durable_format(struct durable *d, const struct durable_sink *sink)
{
	/* Generations go on above any the store holds, whole or named by a successor record. */
	for (unsigned k = 0; k < 2; k++) {
		struct snap_header h;
		int state = read_header(d, k, &h);
		if (state < 0)
			return state;
		if (state == DURABLE_OK && h.generation > d->generation)
			d->generation = h.generation;
		if ((state = read_succ(d, k, &h)) < 0)
			return state;
		if (state == DURABLE_OK && h.generation > d->generation)
			d->generation = h.generation;
	}
	/*
	 * The empty state goes to both slots, so that one flipped bit in either
	 * still leaves a base for the records to come; and journal 1 is erased
	 * first (journal 0 goes with the first snapshot), so that no record of
	 * what was there can follow on from the new seq 0 if the second write is
	 * cut. Slot 1's end is not known to be erased until its own snapshot:
	 * the first snapshot writes no successor record there.
	 */
	d->active = 1;
	d->seq = 0;
	d->ready = true;
	d->succ_ok = d->next_ok = false;
	d->own_at = d->next_at = 0;
	d->append_at = journal_bytes(d);
	int err = erase_range(d, journal_at(d, 1), d->journal_sectors);
	if (err == SCHED_OK) {
		sink->load(sink->ctx, 0);
		err = sink->snapshot(sink->ctx);
	}
	if (err == SCHED_OK)
		err = sink->snapshot(sink->ctx);
	d->ready = err == SCHED_OK;
	return err;
}

/*
 * No snapshot to take up. A store that holds nothing (blank or torn headers
 * only: a first format cut short) is formatted; one that holds anything
 * acknowledged is refused untouched, whatever it is: a snapshot another
 * build wrote, one whose data is corrupt (its header is whole, so it was
 * committed), a record, or a mark.
 */
static int restore_nothing(struct durable *d, const struct durable_sink *sink, struct durable_report *rep,
			   uint32_t marked)
{
	struct replay_pos none = {.seq = 0, .broken = true};
	for (unsigned k = 0; k < 2; k++) {
		int err = replay_journal(d, k, sink, &none, rep, false, NULL); /* counts what is there */
		if (err != SCHED_OK)
			return err;
	}
	bool held = rep->lost_records > 0 || marked > 0;
	for (unsigned k = 0; k < 2; k++)
		held = held || rep->slot_state[k] == DURABLE_BAD_DATA || rep->slot_state[k] == DURABLE_REFUSED;
	if (held) {
		rep->refused = true;
		rep->lost_records = marked > rep->lost_records ? marked : rep->lost_records;
		d->ready = false;
		sink->load(sink->ctx, 0);
		return SCHED_E_FORMAT;
	}
	rep->formatted = true;
	return durable_format(d, sink);
}

int durable_restore(struct durable *d, void *dest, uint32_t cap, const struct durable_sink *sink,
		    struct durable_report *rep)
{
	*rep = (struct durable_report){0};
	d->ready = false;
	struct snap_header h[2];
	int hstate[2];
	struct slot_marks sm[2];
	for (unsigned k = 0; k < 2; k++) {
		hstate[k] = read_header(d, k, &h[k]);
		if (hstate[k] < 0)
			return hstate[k];
		rep->slot_state[k] = (uint8_t)hstate[k];
		int err = read_slot_marks(d, k, &sm[k]);
		if (err != SCHED_OK)
			return err;
		if (hstate[k] == DURABLE_OK && h[k].generation > d->generation)
			d->generation = h[k].generation;
		/* A successor lost with its slot still took its generation: a new one must not reuse it. */
		if (sm[k].succ_state == DURABLE_OK && sm[k].succ.generation > d->generation)
			d->generation = sm[k].succ.generation;
	}
	uint32_t marked = marked_seq(hstate, h, sm);
	int slot;
	int err = load_snapshot(d, dest, cap, sink, rep, hstate, h, &slot);
	if (err != SCHED_OK)
		return err;
	if (slot < 0)
		return restore_nothing(d, sink, rep, marked);
	unsigned base = (unsigned)slot, other = 1u - base;
	/* A damaged slot with a readable, newer header of this layout: its journal is the one that goes on. */
	bool newer_damaged = hstate[other] == DURABLE_OK &&
			     (rep->slot_state[other] == DURABLE_BAD_DATA || rep->slot_state[other] == DURABLE_REFUSED) &&
			     h[other].generation > h[base].generation;
	struct replay_pos p = {.seq = h[base].seq};
	rep->slot_used = (uint8_t)base;
	rep->generation = h[base].generation;
	rep->snapshot_seq = h[base].seq;
	uint32_t end_base = 0;
	if ((err = replay_journal(d, base, sink, &p, rep, !newer_damaged, &end_base)) != SCHED_OK)
		return err;
	uint32_t in_base = rep->records;
	if ((err = replay_journal(d, other, sink, &p, rep, newer_damaged, NULL)) != SCHED_OK)
		return err;
	rep->seq = p.seq;
	/* Acknowledged records the marks count beyond what was restored: erased, cut off, or past a hole. */
	if (marked > p.seq && marked - p.seq > rep->lost_records)
		rep->lost_records = marked - p.seq;
	d->seq = p.seq;
	d->records_since_snapshot = rep->records;
	d->active = (uint8_t)base; /* a compaction then overwrites the other, damaged or stale, slot */
	d->append_at = end_base;
	d->ready = true;
	/* Appends go on marking both slots only if the marks agree with the journal and the older slot
	   names this one; else the compaction below starts both afresh. */
	bool own_agree = sm[base].own.clean && sm[base].own.count == in_base;
	bool named = rep->slot_state[other] == DURABLE_STALE && sm[other].succ_state == DURABLE_OK &&
		     sm[other].succ.generation == h[base].generation && sm[other].succ.seq == h[base].seq &&
		     sm[other].next.clean && sm[other].next.count == in_base;
	bool damaged = newer_damaged || rep->torn_bytes > 0 || rep->second_copies > 0 || rep->one_copy > 0 ||
		       rep->lost_records > 0 || !own_agree || !named || !sm[base].tail_blank ||
		       rep->slot_state[other] == DURABLE_BAD_HEADER || rep->slot_state[other] == DURABLE_BAD_DATA ||
		       rep->slot_state[other] == DURABLE_REFUSED;
	if (!damaged) {
		d->own_at = d->next_at = in_base;
		d->succ_ok = d->next_ok = true;
		return SCHED_OK;
	}
	rep->compacted = true;
	/*
	 * A second snapshot, into the base slot, erases it and its journal when
	 * they hold what a later restore must not see again: a successor record
	 * naming a snapshot that is gone (its marks would be counted lost again),
	 * or records past a loss (counted lost again, and one whose seq the new
	 * history reaches would be applied to it).
	 */
	bool twice = !sm[base].tail_blank || rep->lost_records > 0;
	d->succ_ok = sm[base].tail_blank;
	err = sink->snapshot(sink->ctx);
	if (err == SCHED_OK && twice)
		err = sink->snapshot(sink->ctx);
	return err;
}
