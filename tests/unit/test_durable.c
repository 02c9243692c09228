/* SPDX-License-Identifier: MIT */
/*
 * The durable store engine (firmware/durable.c) against power cuts and bit
 * flips, over a RAM model of NOR flash that refuses to set a bit without an
 * erase. The state is a record counter and a hash chain of every record's
 * payload: a restored state is either exactly the state after some prefix of
 * the history or it is wrong, and the test knows each prefix's hash.
 */
#include <stdio.h>
#include <string.h>

#include "durable.h"
#include "harness.h"
#include "sched/err.h"
#include "fixture/fixture.h" /* fix_crc32, to forge a record image */

#define SECTOR 256u
#define SECTORS 64u
#define SNAP_MAX 304u    /* the model's snapshot, padded to look like an arena */
#define JOURNAL 512u     /* small, so compactions come often */
#define HISTORY 60u      /* records a script appends */
#define STORE_BYTES (2u * (2u * SECTOR + 2u * SECTOR)) /* what the engine lays out: flips land here */

/* --- a NOR flash in RAM, with a power cut after a given number of bytes ------------------- */

struct nor {
	uint8_t mem[SECTOR * SECTORS];
	uint64_t budget; /* bytes until the cut; 0: no cut */
	bool dead;       /* the cut happened: every later call fails */
	uint64_t bytes;  /* bytes programmed or erased so far */
};

static int nor_take(struct nor *n, uint32_t want, uint32_t *take)
{
	if (n->dead)
		return SCHED_E_IO;
	*take = want;
	if (n->budget > 0 && n->bytes + want >= n->budget) {
		*take = (uint32_t)(n->budget - n->bytes);
		n->dead = true;
	}
	n->bytes += *take;
	return SCHED_OK;
}

static int nor_erase(void *ctx, uint32_t sector)
{
	struct nor *n = ctx;
	uint32_t take;
	if (sector >= SECTORS)
		return SCHED_E_RANGE;
	int err = nor_take(n, SECTOR, &take);
	if (err != SCHED_OK)
		return err;
	memset(n->mem + sector * SECTOR, 0xFF, take);
	return n->dead ? SCHED_E_IO : SCHED_OK;
}

static int nor_write(void *ctx, uint32_t off, const void *data, uint32_t len)
{
	struct nor *n = ctx;
	const uint8_t *p = data;
	if (off > sizeof n->mem || len > sizeof n->mem - off)
		return SCHED_E_RANGE;
	for (uint32_t i = 0; i < len; i++)
		if ((p[i] & ~n->mem[off + i]) != 0)
			return SCHED_E_STATE; /* the engine tried to set a bit without an erase */
	uint32_t take;
	int err = nor_take(n, len, &take);
	if (err != SCHED_OK)
		return err;
	for (uint32_t i = 0; i < take; i++)
		n->mem[off + i] &= p[i];
	return n->dead ? SCHED_E_IO : SCHED_OK;
}

static int nor_read(void *ctx, uint32_t off, void *data, uint32_t len)
{
	struct nor *n = ctx;
	if (n->dead)
		return SCHED_E_IO;
	if (off > sizeof n->mem || len > sizeof n->mem - off)
		return SCHED_E_RANGE;
	memcpy(data, n->mem + off, len);
	return SCHED_OK;
}

/* --- the state the engine keeps: a count and a hash chain of payloads ---------------------- */

struct model {
	uint32_t count;
	uint64_t hash;
	uint8_t pad[SNAP_MAX - 16u]; /* makes snapshots as long as SNAP_MAX */
};

static uint64_t chain(uint64_t h, const uint8_t *p, uint32_t n)
{
	h ^= n;
	h *= 1099511628211u;
	for (uint32_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 1099511628211u;
	}
	return h;
}

/* The history: payload i of the script, and the hash after each prefix. */
static uint8_t payload[HISTORY][DURABLE_PAYLOAD_MAX];
static uint32_t payload_len[HISTORY];
static uint64_t prefix_hash[HISTORY + 1];

static void make_history(uint64_t seed)
{
	struct test_rng r;
	test_rng_seed(&r, seed);
	prefix_hash[0] = 14695981039346656037u;
	for (uint32_t i = 0; i < HISTORY; i++) {
		/* Mostly short lines, like console commands, with some at the limits. */
		uint32_t k = test_rng_range(&r, 0, 9);
		payload_len[i] = k == 0 ? 0 : k == 1 ? DURABLE_PAYLOAD_MAX : test_rng_range(&r, 8, 40);
		for (uint32_t b = 0; b < payload_len[i]; b++)
			payload[i][b] = (uint8_t)test_rng_next(&r);
		prefix_hash[i + 1] = chain(prefix_hash[i], payload[i], payload_len[i]);
	}
}

struct ctl {
	struct durable d;
	struct model live;
	struct model loaded; /* where a restore reads a snapshot */
	uint32_t applied_types_ok;
};

static void sink_apply(void *ctx, uint8_t type, const uint8_t *p, uint32_t n)
{
	struct ctl *c = ctx;
	c->applied_types_ok += type == 7;
	c->live.hash = chain(c->live.hash, p, n);
	c->live.count++;
}

static int sink_load(void *ctx, uint32_t len)
{
	struct ctl *c = ctx;
	if (len == 0) {
		memset(&c->live, 0, sizeof c->live);
		c->live.hash = prefix_hash[0];
		return SCHED_OK;
	}
	if (len != sizeof c->loaded)
		return SCHED_E_FORMAT;
	c->live = c->loaded;
	return SCHED_OK;
}

static int sink_snapshot(void *ctx)
{
	struct ctl *c = ctx;
	struct durable_piece piece = {&c->live, sizeof c->live};
	return durable_snapshot(&c->d, &piece, 1);
}

static struct durable_medium medium_of(struct nor *n)
{
	return (struct durable_medium){.erase = nor_erase, .write = nor_write, .read = nor_read, .ctx = n,
				       .sector_bytes = SECTOR, .sectors = SECTORS};
}

/* Boot: mount and restore; the engine's result code. */
static int boot(struct ctl *c, struct nor *n, struct durable_report *rep)
{
	struct durable_medium m = medium_of(n);
	int err = durable_mount(&c->d, &m, SNAP_MAX, JOURNAL);
	if (err != SCHED_OK)
		return err;
	struct durable_sink sink = {sink_load, sink_apply, sink_snapshot, c};
	memset(&c->live, 0, sizeof c->live);
	return durable_restore(&c->d, &c->loaded, sizeof c->loaded, &sink, rep);
}

/* Append record i as the console does: compact when the journal is full, then append. */
static int log_and_apply(struct ctl *c, uint32_t i)
{
	int err = durable_append(&c->d, 7, payload[i], payload_len[i]);
	if (err == SCHED_E_NOSPACE) {
		if ((err = sink_snapshot(c)) != SCHED_OK)
			return err;
		err = durable_append(&c->d, 7, payload[i], payload_len[i]);
	}
	if (err != SCHED_OK)
		return err;
	sink_apply(c, 7, payload[i], payload_len[i]);
	return SCHED_OK;
}

/* Run the script from a blank medium; returns how many records were acknowledged. */
static uint32_t run_script(struct ctl *c, struct nor *n, uint32_t from, uint32_t to)
{
	uint32_t acked = from;
	for (uint32_t i = from; i < to; i++) {
		if (log_and_apply(c, i) != SCHED_OK)
			break;
		acked = i + 1;
	}
	(void)n;
	return acked;
}

/* The restored state is exactly a prefix of the history, of at least @p acked records. */
static bool state_is_prefix(const struct ctl *c, uint32_t acked, uint32_t sent)
{
	return c->live.count >= acked && c->live.count <= sent && c->live.hash == prefix_hash[c->live.count];
}

static struct nor nor, nor2;
static struct ctl ctl;

/* A new medium: erased, no cut armed, nothing counted. */
static void wipe(void)
{
	memset(&nor, 0, sizeof nor);
	memset(nor.mem, 0xFF, sizeof nor.mem);
}

/* Flip one random bit of the part of the medium the engine lays out; returns which. */
static uint32_t flip_one_bit(struct test_rng *r)
{
	uint32_t bit = test_rng_range(r, 0, STORE_BYTES * 8u - 1u);
	nor.mem[bit / 8u] ^= (uint8_t)(1u << (bit % 8u));
	return bit;
}
_Static_assert(sizeof(struct model) == SNAP_MAX, "the model is one snapshot");

/* An uninterrupted script: the bytes it writes are the cut points of the next test. */
static uint64_t clean_run_bytes(void)
{
	wipe();
	struct durable_report rep;
	if (boot(&ctl, &nor, &rep) != SCHED_OK || !rep.formatted)
		return 0;
	uint64_t formatted = nor.bytes;
	if (run_script(&ctl, &nor, 0, HISTORY) != HISTORY)
		return 0;
	return nor.bytes - formatted;
}

static void clean_run_restores_everything(void)
{
	make_history(1);
	uint64_t bytes = clean_run_bytes();
	CHECK(bytes > 0);
	struct durable_info info;
	durable_info(&ctl.d, &info);
	CHECK(info.snapshots_written >= 4); /* compactions happened: the script crosses journals */
	CHECK_EQ(info.seq, HISTORY);
	struct durable_report rep;
	CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
	CHECK(!rep.formatted && !rep.compacted);
	CHECK_EQ(rep.seq, HISTORY);
	CHECK_EQ(rep.records + rep.snapshot_seq, HISTORY);
	CHECK(state_is_prefix(&ctl, HISTORY, HISTORY));
	CHECK_EQ(ctl.live.count, HISTORY);
	CHECK_EQ(rep.lost_records + rep.second_copies + rep.torn_bytes, 0);
}

/*
 * A power cut after every byte the script writes (snapshot payloads and
 * headers, record copies, erases): the restore is a prefix holding every
 * acknowledged record, and the store takes new records and restores again.
 */
static void cut_at_every_byte(void)
{
	make_history(2);
	uint64_t total = clean_run_bytes();
	struct durable_info info;
	durable_info(&ctl.d, &info);
	uint32_t snapshots = info.snapshots_written;
	CHECK(total > 1000);
	uint32_t compacted = 0, torn_seen = 0;
	for (uint64_t cut = 1; cut <= total; cut++) {
		wipe();
		struct durable_report rep;
		CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
		nor.budget = nor.bytes + cut;
		uint32_t acked = run_script(&ctl, &nor, 0, HISTORY);
		CHECK(nor.dead);
		nor.dead = false;
		nor.budget = 0;
		if (boot(&ctl, &nor, &rep) != SCHED_OK) {
			fprintf(stderr, "cut %llu: restore failed\n", (unsigned long long)cut);
			CHECK(false);
		}
		if (!state_is_prefix(&ctl, acked, acked + 1)) {
			fprintf(stderr, "cut %llu: %u acked, restored %u\n", (unsigned long long)cut, acked, ctl.live.count);
			CHECK(false);
		}
		CHECK_EQ(rep.lost_records, 0);
		compacted += rep.compacted;
		torn_seen += rep.torn_bytes > 0;
		/* The restored store goes on: the rest of the history, then another restore. */
		uint32_t have = ctl.live.count;
		CHECK_EQ(run_script(&ctl, &nor, have, HISTORY), HISTORY);
		CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
		CHECK_EQ(ctl.live.count, HISTORY);
		CHECK(state_is_prefix(&ctl, HISTORY, HISTORY));
	}
	printf("note: durable: %llu power-cut points (every byte of %u records and %u snapshots written), "
	       "%u restores found a torn tail, %u compacted\n",
	       (unsigned long long)total, HISTORY, snapshots, torn_seen, compacted);
	CHECK(torn_seen > 0 && compacted > 0);
}

/* One bit flipped anywhere in a written store: nothing is lost and no wrong state is taken up. */
static void single_flips_lose_nothing(void)
{
	make_history(3);
	CHECK(clean_run_bytes() > 0);
	memcpy(&nor2, &nor, sizeof nor);
	struct test_rng r;
	test_rng_seed(&r, 99);
	uint32_t trials = 4000, noticed = 0;
	for (uint32_t t = 0; t < trials; t++) {
		memcpy(&nor, &nor2, sizeof nor);
		uint32_t bit = flip_one_bit(&r);
		struct durable_report rep;
		CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
		if (ctl.live.count != HISTORY || !state_is_prefix(&ctl, HISTORY, HISTORY)) {
			fprintf(stderr, "flip of bit %u: restored %u records\n", bit, ctl.live.count);
			CHECK(false);
		}
		noticed += rep.compacted;
		CHECK_EQ(rep.lost_records, 0);
	}
	printf("note: durable: %u single-bit flips, none lost a record, %u were noticed and compacted away\n",
	       trials, noticed);
}

/* Several flips at once (2 to 8): a loss is possible, but only of a reported kind, and never a wrong state. */
static void many_flips_never_accept_a_wrong_state(void)
{
	make_history(4);
	CHECK(clean_run_bytes() > 0);
	memcpy(&nor2, &nor, sizeof nor);
	struct test_rng r;
	test_rng_seed(&r, 7);
	uint32_t losses = 0, refusals = 0, trials = 3000;
	static struct nor flipped;
	for (uint32_t t = 0; t < trials; t++) {
		memcpy(&nor, &nor2, sizeof nor);
		uint32_t flips = test_rng_range(&r, 2, 8);
		for (uint32_t f = 0; f < flips; f++)
			(void)flip_one_bit(&r);
		memcpy(&flipped, &nor, sizeof nor);
		struct durable_report rep;
		int err = boot(&ctl, &nor, &rep);
		if (err == SCHED_E_FORMAT) {
			/* Nothing to take up, but records or marks are there: refused, and left as it was. */
			refusals++;
			CHECK(rep.refused);
			CHECK(memcmp(nor.mem, flipped.mem, sizeof nor.mem) == 0);
			continue;
		}
		CHECK_EQ(err, SCHED_OK);
		CHECK(state_is_prefix(&ctl, 0, HISTORY));
		if (ctl.live.count < HISTORY) {
			losses++;
			bool said = rep.lost_records > 0 || rep.torn_bytes > 0 ||
				    rep.slot_state[0] == DURABLE_BAD_DATA || rep.slot_state[1] == DURABLE_BAD_DATA ||
				    rep.slot_state[0] == DURABLE_BAD_HEADER || rep.slot_state[1] == DURABLE_BAD_HEADER;
			CHECK(said);
		}
	}
	printf("note: durable: %u trials of 2-8 flips: %u lost records, each with the damage reported; %u found "
	       "no snapshot to take up and were refused\n",
	       trials, losses, refusals);
}

/* The medium's rules and the engine's limits. */
static void limits(void)
{
	wipe();
	struct durable_medium m = medium_of(&nor);
	struct durable d;
	CHECK_EQ(durable_mount(&d, &m, SECTOR * SECTORS, JOURNAL), SCHED_E_NOSPACE);
	m.sector_bytes = 300;
	CHECK_EQ(durable_mount(&d, &m, SNAP_MAX, JOURNAL), SCHED_E_INVAL);
	CHECK_EQ(durable_store_bytes(SECTOR, SNAP_MAX, JOURNAL), STORE_BYTES);
	make_history(5);
	struct durable_report rep;
	CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
	uint8_t big[DURABLE_PAYLOAD_MAX + 1] = {0};
	CHECK_EQ(durable_append(&ctl.d, 7, big, sizeof big), SCHED_E_INVAL);
	CHECK_EQ(durable_append(&ctl.d, 0, big, 1), SCHED_E_INVAL);
	CHECK_EQ(durable_append(&ctl.d, 0xFF, big, 1), SCHED_E_INVAL);
	/* A full journal says so, and a snapshot makes room. */
	uint32_t n = 0;
	while (durable_append(&ctl.d, 7, big, 40) == SCHED_OK)
		n++;
	CHECK(n >= JOURNAL / 128u);
	CHECK_EQ(durable_append(&ctl.d, 7, big, 40), SCHED_E_NOSPACE);
	CHECK_EQ(durable_seq(&ctl.d), n);
	struct durable_piece too_big = {big, SNAP_MAX + 1};
	CHECK_EQ(durable_snapshot(&ctl.d, &too_big, 1), SCHED_E_NOSPACE);
	CHECK_EQ(sink_snapshot(&ctl), SCHED_OK);
	CHECK_EQ(durable_append(&ctl.d, 7, big, 40), SCHED_OK);
	/* Another build's snapshot (a length the loader refuses) is set aside and said to be. */
	struct durable_piece odd = {big, 10};
	CHECK_EQ(durable_snapshot(&ctl.d, &odd, 1), SCHED_OK);
	CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
	CHECK_EQ(rep.slot_state[rep.slot_used == 0 ? 1 : 0], DURABLE_REFUSED);
	CHECK(rep.compacted);
}


/* A wiped medium, booted: formatted, with the empty state in both slots. */
static void fresh(void)
{
	wipe();
	struct durable_report rep;
	(void)boot(&ctl, &nor, &rep);
}

/* Right after a format, before any compaction: one flipped bit still loses nothing. */
static void flips_right_after_format_lose_nothing(void)
{
	make_history(6);
	for (uint32_t i = 0; i < 5; i++) { /* short records: the journal does not fill */
		payload_len[i] = 8;
		prefix_hash[i + 1] = chain(prefix_hash[i], payload[i], payload_len[i]);
	}
	fresh();
	CHECK_EQ(run_script(&ctl, &nor, 0, 5), 5);
	CHECK_EQ(ctl.d.snapshots_written, 2); /* the format's two, no compaction yet */
	memcpy(&nor2, &nor, sizeof nor);
	struct test_rng r;
	test_rng_seed(&r, 5);
	for (uint32_t t = 0; t < 2000; t++) {
		memcpy(&nor, &nor2, sizeof nor);
		uint32_t bit = flip_one_bit(&r);
		struct durable_report rep;
		CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
		if (ctl.live.count != 5 || !state_is_prefix(&ctl, 5, 5)) {
			fprintf(stderr, "flip of bit %u after the format: restored %u of 5\n", bit, ctl.live.count);
			CHECK(false);
		}
	}
}

/*
 * A store whose snapshots this build refuses (another build's), with records
 * in a journal: the restore refuses it and writes nothing (issue 25: nothing
 * acknowledged is erased unasked); a format asked for starts it afresh, and
 * the old records must not follow on from the new history's seq, however
 * far it goes.
 */
static void a_store_of_another_build_is_refused_until_formatted(void)
{
	make_history(7);
	fresh();
	uint8_t odd[10] = {0};
	struct durable_piece p = {odd, sizeof odd};
	CHECK_EQ(durable_snapshot(&ctl.d, &p, 1), SCHED_OK);
	CHECK_EQ(durable_snapshot(&ctl.d, &p, 1), SCHED_OK); /* both slots refused now */
	if (ctl.d.active != 1)
		CHECK_EQ(durable_snapshot(&ctl.d, &p, 1), SCHED_OK); /* the old records go to journal 1, which a
									format's first snapshot does not erase */
	for (uint32_t i = 0; i < 6; i++)
		CHECK_EQ(durable_append(&ctl.d, 7, "old", 3), SCHED_OK);
	memcpy(&nor2, &nor, sizeof nor);
	struct durable_report rep;
	CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_E_FORMAT);
	CHECK(rep.refused && !rep.formatted);
	CHECK_EQ(rep.slot_state[0], DURABLE_REFUSED);
	CHECK_EQ(rep.slot_state[1], DURABLE_REFUSED);
	CHECK_EQ(rep.lost_records, 6);
	CHECK(memcmp(nor.mem, nor2.mem, sizeof nor.mem) == 0);
	CHECK_EQ(durable_append(&ctl.d, 7, "new", 3), SCHED_E_STATE); /* nothing goes on over it */
	CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_E_FORMAT);             /* and it stays refused */
	CHECK(memcmp(nor.mem, nor2.mem, sizeof nor.mem) == 0);
	struct durable_sink sink = {sink_load, sink_apply, sink_snapshot, &ctl};
	CHECK_EQ(durable_format(&ctl.d, &sink), SCHED_OK);
	CHECK_EQ(ctl.live.count, 0);
	CHECK_EQ(run_script(&ctl, &nor, 0, 4), 4);
	CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
	CHECK_EQ(rep.seq, 4);
	CHECK_EQ(rep.lost_records, 0);
	CHECK(state_is_prefix(&ctl, 4, 4));

	/* A store laid out otherwise (another journal size, as another build's): refused, untouched. */
	memcpy(&nor2, &nor, sizeof nor);
	struct durable_medium m = medium_of(&nor);
	CHECK_EQ(durable_mount(&ctl.d, &m, SNAP_MAX, 2u * JOURNAL), SCHED_OK);
	memset(&ctl.live, 0, sizeof ctl.live);
	CHECK_EQ(durable_restore(&ctl.d, &ctl.loaded, sizeof ctl.loaded, &sink, &rep), SCHED_E_FORMAT);
	CHECK(rep.refused);
	CHECK_EQ(rep.slot_state[0], DURABLE_REFUSED);
	CHECK_EQ(rep.slot_state[1], DURABLE_REFUSED);
	CHECK(memcmp(nor.mem, nor2.mem, sizeof nor.mem) == 0);
}

/*
 * A format cut at every byte, over a store of another build's: the next
 * restore either formats (nothing was left to lose), or refuses again and
 * writes nothing, or takes up the new empty state; never anything else.
 */
static void a_format_cut_anywhere_leaves_no_wrong_state(void)
{
	make_history(10);
	fresh();
	uint8_t odd[10] = {0};
	struct durable_piece p = {odd, sizeof odd};
	CHECK_EQ(durable_snapshot(&ctl.d, &p, 1), SCHED_OK);
	CHECK_EQ(durable_snapshot(&ctl.d, &p, 1), SCHED_OK);
	for (uint32_t i = 0; i < 6; i++)
		CHECK_EQ(durable_append(&ctl.d, 7, "old", 3), SCHED_OK);
	static struct nor old;
	memcpy(&old, &nor, sizeof nor);
	struct durable_sink sink = {sink_load, sink_apply, sink_snapshot, &ctl};
	uint64_t at = nor.bytes;
	CHECK_EQ(durable_format(&ctl.d, &sink), SCHED_OK);
	uint64_t total = nor.bytes - at;
	uint32_t refused = 0;
	for (uint64_t cut = 1; cut <= total; cut++) {
		memcpy(&nor, &old, sizeof nor);
		nor.budget = nor.bytes + cut;
		(void)durable_format(&ctl.d, &sink);
		nor.dead = false;
		nor.budget = 0;
		memcpy(&nor2, &nor, sizeof nor);
		struct durable_report rep;
		int err = boot(&ctl, &nor, &rep);
		if (err == SCHED_E_FORMAT) {
			refused++;
			CHECK(memcmp(nor.mem, nor2.mem, sizeof nor.mem) == 0);
			continue;
		}
		CHECK_EQ(err, SCHED_OK);
		CHECK_EQ(ctl.live.count, 0);
		CHECK_EQ(run_script(&ctl, &nor, 0, 3), 3);
		CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
		CHECK(state_is_prefix(&ctl, 3, 3));
	}
	printf("note: durable: a format cut at each of its %llu bytes: %u left a store that is refused again\n",
	       (unsigned long long)total, refused);
}

/*
 * A cut between a record's two copies, restored and gone on from; then one
 * flipped bit anywhere: nothing acknowledged is lost (the one-copy record
 * must have been healed by a snapshot).
 */
static void cut_then_flip_loses_nothing(void)
{
	make_history(8);
	uint64_t total = clean_run_bytes();
	CHECK(total > 1000);
	struct test_rng r;
	test_rng_seed(&r, 11);
	for (uint64_t cut = 1; cut <= total; cut += 3) {
		fresh();
		nor.budget = nor.bytes + cut;
		(void)run_script(&ctl, &nor, 0, HISTORY);
		nor.dead = false;
		nor.budget = 0;
		struct durable_report rep;
		CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
		CHECK_EQ(run_script(&ctl, &nor, ctl.live.count, HISTORY), HISTORY);
		uint32_t bit = flip_one_bit(&r);
		CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
		if (ctl.live.count != HISTORY || !state_is_prefix(&ctl, HISTORY, HISTORY)) {
			fprintf(stderr, "cut %llu, then bit %u: restored %u of %u\n", (unsigned long long)cut, bit,
				ctl.live.count, HISTORY);
			CHECK(false);
		}
	}
}

/*
 * A payload that holds a whole record image (the engine's payloads are
 * opaque): when the first copy is damaged, the image must not pass for its
 * second copy.
 */
static void a_record_image_in_a_payload_is_not_a_copy(void)
{
	fresh();
	uint32_t seq = durable_seq(&ctl.d) + 1u;
	uint8_t forged[24];
	memset(forged, 'x', sizeof forged);
	uint8_t *img = forged + 4; /* where the search for a second copy first looks: 12 bytes in */
	img[0] = 0x4A, img[1] = 7, img[2] = 0, img[3] = 0;
	img[4] = (uint8_t)seq, img[5] = (uint8_t)(seq >> 8), img[6] = (uint8_t)(seq >> 16), img[7] = (uint8_t)(seq >> 24);
	uint32_t crc = fix_crc32(0, img, 8);
	img[8] = (uint8_t)crc, img[9] = (uint8_t)(crc >> 8), img[10] = (uint8_t)(crc >> 16), img[11] = (uint8_t)(crc >> 24);
	CHECK_EQ(durable_append(&ctl.d, 7, forged, sizeof forged), SCHED_OK);
	uint64_t want = chain(prefix_hash[0], forged, sizeof forged);
	/* The first copy's header: magic, type, length 24, then the seq. */
	const uint8_t head[8] = {0x4A, 7, 24, 0, (uint8_t)seq, (uint8_t)(seq >> 8), (uint8_t)(seq >> 16), (uint8_t)(seq >> 24)};
	uint8_t *at = NULL;
	for (uint32_t i = 0; i + 8 <= STORE_BYTES && at == NULL; i++)
		if (memcmp(nor.mem + i, head, 8) == 0)
			at = nor.mem + i;
	CHECK(at != NULL);
	at[0] ^= 0x01; /* the first copy's magic: damaged */
	struct durable_report rep;
	CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
	CHECK_EQ(ctl.live.count, 1);
	CHECK(ctl.live.hash == want); /* the real payload, from the real second copy */
	CHECK_EQ(rep.second_copies, 1);
}

/* What a boot after damage did, when it did it honestly. */
enum honest { DISHONEST, RESTORED, REFUSED };

/*
 * After a damaging boot: either the store was refused and left as it was, or
 * the restored state is a prefix whose length plus lost_records is every
 * acknowledged record, and a second boot agrees without a new report.
 * @p before is the medium as the boot found it.
 */
static enum honest honest_restore(uint32_t acked, const struct nor *before, const char *what, uint32_t which, uint32_t at)
{
	struct durable_report rep;
	int err = boot(&ctl, &nor, &rep);
	if (err == SCHED_E_FORMAT) {
		if (memcmp(nor.mem, before->mem, sizeof nor.mem) == 0)
			return REFUSED;
		fprintf(stderr, "%s %u after %u records: refused, but the medium changed\n", what, which, at);
		return DISHONEST;
	}
	if (err != SCHED_OK || !state_is_prefix(&ctl, 0, acked) || ctl.live.count + rep.lost_records != acked) {
		fprintf(stderr, "%s %u after %u records: err %d, restored %u, lost_records %u of %u acknowledged\n", what,
			which, at, err, ctl.live.count, rep.lost_records, acked);
		return DISHONEST;
	}
	uint32_t count = ctl.live.count;
	if (boot(&ctl, &nor, &rep) != SCHED_OK || ctl.live.count != count || rep.lost_records != 0) {
		fprintf(stderr, "%s %u after %u records: the second boot restored %u (lost_records %u), the first %u\n", what,
			which, at, ctl.live.count, rep.lost_records, count);
		return DISHONEST;
	}
	return RESTORED;
}

/* The first format of a blank medium, cut at every byte: the next boot formats again or takes up
 * what the format committed, and never refuses (a new controller must not need a technician). */
static void a_first_format_cut_anywhere_formats_again(void)
{
	make_history(11);
	wipe();
	struct durable_report rep;
	CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
	uint64_t total = nor.bytes;
	for (uint64_t cut = 1; cut <= total; cut++) {
		wipe();
		nor.budget = cut;
		(void)boot(&ctl, &nor, &rep);
		nor.dead = false;
		nor.budget = 0;
		int err = boot(&ctl, &nor, &rep);
		if (err != SCHED_OK) {
			fprintf(stderr, "first format cut at byte %llu: the next boot gave %d\n", (unsigned long long)cut, err);
			CHECK(false);
		}
		CHECK_EQ(ctl.live.count, 0);
		CHECK_EQ(run_script(&ctl, &nor, 0, 3), 3);
		CHECK_EQ(boot(&ctl, &nor, &rep), SCHED_OK);
		CHECK(state_is_prefix(&ctl, 3, 3));
	}
}

/*
 * An erased sector anywhere in the store, and the store cut short (a file
 * truncated: the rest reads as erased), after every record of a script:
 * nothing acknowledged is lost without being reported (issue 25, 0.2).
 */
static void erased_sectors_are_never_silent(void)
{
	make_history(9);
	static struct nor after;
	uint32_t sectors = STORE_BYTES / SECTOR, erases = 0, truncations = 0, losses = 0, refusals = 0;
	for (uint32_t at = 1; at <= HISTORY; at++) {
		fresh();
		CHECK_EQ(run_script(&ctl, &nor, 0, at), at);
		memcpy(&after, &nor, sizeof nor);
		for (uint32_t cut = 0; cut < 2u * sectors; cut++) {
			bool truncate = cut >= sectors;
			uint32_t s = truncate ? cut - sectors : cut;
			if (truncate && s == 0)
				continue; /* nothing left at all: a new medium */
			memcpy(&nor, &after, sizeof nor);
			memset(nor.mem + s * SECTOR, 0xFF, truncate ? STORE_BYTES - s * SECTOR : SECTOR);
			memcpy(&nor2, &nor, sizeof nor);
			enum honest how = honest_restore(at, &nor2, truncate ? "truncated at sector" : "erased sector", s, at);
			CHECK(how != DISHONEST);
			losses += how == RESTORED && ctl.live.count < at;
			refusals += how == REFUSED;
			erases += !truncate;
			truncations += truncate;
		}
	}
	printf("note: durable: %u single erased sectors and %u truncations, after every record of a %u-record "
	       "script: %u lost records and said so, %u refused and left the medium alone\n",
	       erases, truncations, HISTORY, losses, refusals);
}

static const struct test tests[] = {
	{"clean_run_restores_everything", clean_run_restores_everything},
	{"cut_at_every_byte", cut_at_every_byte},
	{"single_flips_lose_nothing", single_flips_lose_nothing},
	{"many_flips_never_accept_a_wrong_state", many_flips_never_accept_a_wrong_state},
	{"limits", limits},
	{"flips_right_after_format_lose_nothing", flips_right_after_format_lose_nothing},
	{"a_store_of_another_build_is_refused_until_formatted", a_store_of_another_build_is_refused_until_formatted},
	{"a_format_cut_anywhere_leaves_no_wrong_state", a_format_cut_anywhere_leaves_no_wrong_state},
	{"cut_then_flip_loses_nothing", cut_then_flip_loses_nothing},
	{"a_record_image_in_a_payload_is_not_a_copy", a_record_image_in_a_payload_is_not_a_copy},
	{"a_first_format_cut_anywhere_formats_again", a_first_format_cut_anywhere_formats_again},
	{"erased_sectors_are_never_silent", erased_sectors_are_never_silent},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("durable", tests, argc, argv);
}
