/* SPDX-License-Identifier: MIT */
/* A reference decoder of the fixture format, written from docs/fixture-format.md alone: one bit at a time, for obviousness. */
#ifndef FIXTURE_REF_H
#define FIXTURE_REF_H

/*
 * fixref_decode() reads a whole fixture from memory with a plain bit cursor,
 * following docs/fixture-format.md section by section. It is slow on
 * purpose: no tables, no bit buffer, the CRC computed bit by bit from the
 * polynomial. It exists to be compared with the fast decoder
 * (fixture/src/fixture.c), which it does not share a line with.
 *
 * Error semantics, from the spec ("Errors are those of reading the format
 * bit by bit: a byte the source fails to give is reported only when a bit
 * of it is needed"; "A decoder latches its first error") and from the
 * rules of docs/fixture-format.md, Errors, on when each check is made:
 *   - the reader stops at the first error;
 *   - a bit whose byte the source cannot give is SCHED_E_IO (the byte is at
 *     or past fail_after) or SCHED_E_TRUNCATED (the data ends before it);
 *   - the header's fields are checked in one step once the whole header,
 *     both strings included, has been read, except the two string lengths,
 *     each checked as soon as its byte is read (see fixref_header);
 *   - a Rice code is read whole before its value is checked, except a
 *     quotient whose q << k does not fit in 32 bits, SCHED_E_VALUE as soon
 *     as the unary part ends (see fixref_rice);
 *   - the end marker's padding must be zero and the record section must end
 *     with the marker's byte (else SCHED_E_COUNT); the CRC is checked only
 *     then, and then "nothing may follow".
 * Decisions where the spec leaves room are marked "DECISION"; those the
 * maintainer has settled say so and cite docs/fixture-format.md, Errors.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sched/err.h"
#include "fixture/fixture.h"

/* fail_after value for a source that never fails. */
#define FIXREF_NO_FAIL SIZE_MAX

struct fixref_result {
	int err;               /* FIX_END for a good file, else the first error (enum sched_err) */
	bool header_ok;        /* the header was read whole and found valid */
	struct fix_header hdr; /* valid when header_ok */
	uint64_t njobs;        /* jobs decoded before stopping (all stored when <= cap) */
	uint64_t err_bit;      /* the reader's next bit when it stopped (from bit 0 of byte 0): one past the bit that showed it */
	const char *where;     /* the part it stopped in: "header", "record", "end marker", ... */
};

/* ---- the byte source and the bit cursor --------------------------------- */

struct fixref_rd {
	const uint8_t *data;
	size_t len;        /* bytes the data holds */
	size_t fail_after; /* the source gives bytes 0 .. fail_after - 1 only, then fails */
	uint64_t pos;      /* the next bit: bit pos % 8 (least significant first) of byte pos / 8 */
	uint64_t end;      /* the current section ends before this bit (UINT64_MAX: no section limit) */
};

/* Get byte @p i from the source, as a decoder must to use any bit of it. */
static int fixref_byte(const struct fixref_rd *r, uint64_t i, uint8_t *out)
{
	/* A source that fails after K bytes fails for byte K even at the end of the data. */
	if (i >= r->fail_after)
		return SCHED_E_IO;
	if (i >= r->len)
		return SCHED_E_TRUNCATED;
	*out = r->data[i];
	return SCHED_OK;
}

/* Read one bit. */
static int fixref_bit(struct fixref_rd *r, unsigned *bit)
{
	/* DECISION: a bit needed past the record section ("records_bytes") is never taken from
	 * the source (those bytes are the trailer): the record is cut short, SCHED_E_TRUNCATED
	 * ("a record is cut short (truncation)"). */
	if (r->pos >= r->end)
		return SCHED_E_TRUNCATED;
	uint8_t byte;
	int e = fixref_byte(r, r->pos / 8, &byte);
	if (e != SCHED_OK)
		return e;
	*bit = (byte >> (r->pos % 8)) & 1u;
	r->pos++;
	return SCHED_OK;
}

/* Read an @p n-bit field (n <= 64), least significant bit first (so a little-endian multi-byte field reads in byte order). */
static int fixref_field(struct fixref_rd *r, unsigned n, uint64_t *out)
{
	uint64_t v = 0;
	for (unsigned j = 0; j < n; j++) {
		unsigned bit;
		int e = fixref_bit(r, &bit);
		if (e != SCHED_OK)
			return e;
		v |= (uint64_t)bit << j;
	}
	*out = v;
	return SCHED_OK;
}

/* ---- numbers ------------------------------------------------------------ */

static int32_t fixref_i32(uint32_t u)
{
	if (u <= (uint32_t)INT32_MAX)
		return (int32_t)u;
	return (int32_t)(u - 2147483648u) - INT32_MAX - 1; /* u - 2^32 */
}

static int64_t fixref_i64(uint64_t u)
{
	if (u <= (uint64_t)INT64_MAX)
		return (int64_t)u;
	return (int64_t)(u - 9223372036854775808ull) - INT64_MAX - 1; /* u - 2^64 */
}

/* fold(v) = v + 1 modulo 2^32, and back. */
static uint32_t fixref_fold(int32_t v)
{
	return (uint32_t)v + 1u;
}

static int32_t fixref_unfold(uint32_t u)
{
	return fixref_i32(u - 1u);
}

/* zigzag(d) = 2d for d >= 0, -2d - 1 for d < 0: back from u to d modulo 2^32. */
static uint32_t fixref_unzigzag(uint32_t u)
{
	if (u % 2 == 0)
		return u / 2;
	return UINT32_MAX - u / 2; /* -(u/2) - 1 modulo 2^32 */
}

/* ---- CRC-32, IEEE 802.3, reflected, bit by bit -------------------------- */

static uint32_t fixref_crc32(const uint8_t *p, size_t n)
{
	/* The polynomial x^32 + x^26 + x^23 + x^22 + x^16 + x^12 + x^11 + x^10 + x^8 + x^7 + x^5 +
	 * x^4 + x^2 + x + 1 is 0x04C11DB7; the reflected register takes it bit-reversed. */
	const uint32_t poly = 0x04C11DB7u;
	uint32_t rpoly = 0;
	for (unsigned i = 0; i < 32; i++)
		if (poly & (1u << i))
			rpoly |= 1u << (31 - i);
	uint32_t crc = 0xFFFFFFFFu; /* initial XOR */
	for (size_t i = 0; i < n; i++)
		for (unsigned b = 0; b < 8; b++) { /* reflected: each byte's bit 0 first */
			unsigned in = (p[i] >> b) & 1u;
			unsigned out = (crc ^ in) & 1u;
			crc >>= 1;
			if (out)
				crc ^= rpoly;
		}
	return crc ^ 0xFFFFFFFFu; /* final XOR */
}

/* ---- adaptive Rice ------------------------------------------------------ */

struct fixref_stream {
	uint64_t mean16; /* running mean x 16 */
};

/* The largest k <= 31 with 2^k <= mean + 1, mean = mean16 / 16 rounded down. */
static unsigned fixref_k(const struct fixref_stream *s)
{
	uint64_t mean = s->mean16 / 16;
	unsigned k = 0;
	for (unsigned c = 0; c <= 31; c++)
		if ((1ull << c) <= mean + 1)
			k = c;
	return k;
}

/* After each code, mean16 moves a sixteenth of the way to 16u. */
static void fixref_update(struct fixref_stream *s, uint32_t u)
{
	uint64_t target = 16 * (uint64_t)u;
	if (target >= s->mean16)
		s->mean16 += (target - s->mean16) >> 4;
	else
		s->mean16 -= (s->mean16 - target) >> 4;
}

/* What the value being read may be, beyond "a 32-bit number". */
enum { FIXREF_ANY, FIXREF_BELOW, FIXREF_NOT_IN };
struct fixref_want {
	int kind;
	uint32_t below;      /* FIXREF_BELOW: u < below (a cache index) */
	const uint32_t *set; /* FIXREF_NOT_IN: u is none of these */
	unsigned nset;
};

/* Whether @p u is a value @p w allows. */
static bool fixref_allowed(uint32_t u, const struct fixref_want *w)
{
	if (w->kind == FIXREF_BELOW)
		return u < w->below;
	if (w->kind == FIXREF_NOT_IN)
		for (unsigned i = 0; i < w->nset; i++)
			if (w->set[i] == u)
				return false;
	return true;
}

/*
 * Read one adaptive Rice code of stream @p s: q = u >> k ones, a zero, the
 * low k bits of u; if q >= 24, 24 ones and all 32 bits of u.
 * DECISION (settled: docs/fixture-format.md, Errors): the code is read whole
 * (its unary part up to its zero or the 24-one escape run, then its k low
 * bits or the escape's 32 bits) before its value is checked, so a cut or a
 * failing source inside it is SCHED_E_TRUNCATED or SCHED_E_IO; then an
 * escape for a u with u >> k < 24 ("an escape used for a value that did not
 * need it") or a u that @p w does not allow (a cache index past the cache, a
 * miss for a cached value, a "different" count equal to the allocated one)
 * is SCHED_E_VALUE. The one exception: a unary part that ends (its zero
 * read) with q < 24 and q << k not fitting in 32 bits (k > 0 and
 * q >> (32 - k) != 0) is SCHED_E_VALUE at once, before its low bits.
 */
static int fixref_rice(struct fixref_rd *r, struct fixref_stream *s, const struct fixref_want *w, uint32_t *out)
{
	unsigned k = fixref_k(s);
	uint64_t q = 0, u;
	unsigned bit;
	int e;
	/* The unary part: ones up to a zero, or 24 ones (the escape). */
	while (q < 24) {
		if ((e = fixref_bit(r, &bit)) != SCHED_OK)
			return e;
		if (bit == 0)
			break;
		q++;
	}
	if (q < 24) {
		if (k > 0 && (q >> (32 - k)) != 0)
			return SCHED_E_VALUE; /* q << k does not fit in 32 bits: no u has this q */
		uint64_t low;
		if ((e = fixref_field(r, k, &low)) != SCHED_OK)
			return e;
		u = (q << k) | low;
	} else {
		if ((e = fixref_field(r, 32, &u)) != SCHED_OK)
			return e;
		if ((u >> k) < 24)
			return SCHED_E_VALUE; /* the escape for a value that did not need it */
	}
	if (!fixref_allowed((uint32_t)u, w))
		return SCHED_E_VALUE;
	fixref_update(s, (uint32_t)u);
	*out = (uint32_t)u;
	return SCHED_OK;
}

/* ---- move-to-front caches ----------------------------------------------- */

struct fixref_cache {
	int32_t v[16]; /* most recent first */
	unsigned n, cap;
	struct fixref_stream index, raw;
};

static int fixref_cache_read(struct fixref_rd *r, struct fixref_cache *c, int32_t *out)
{
	unsigned hit;
	uint32_t u;
	int e = fixref_bit(r, &hit);
	if (e != SCHED_OK)
		return e;
	if (hit) {
		/* "a cache index past the cache" is SCHED_E_VALUE, once the whole index code is read */
		struct fixref_want w = {FIXREF_BELOW, c->n, NULL, 0};
		if ((e = fixref_rice(r, &c->index, &w, &u)) != SCHED_OK)
			return e;
		int32_t v = c->v[u];
		for (unsigned i = u; i > 0; i--) /* move to the front */
			c->v[i] = c->v[i - 1];
		c->v[0] = v;
		*out = v;
		return SCHED_OK;
	}
	/* A miss for a value that is in the cache is not canonical. */
	uint32_t in_cache[16];
	for (unsigned i = 0; i < c->n; i++)
		in_cache[i] = fixref_fold(c->v[i]);
	struct fixref_want w = {FIXREF_NOT_IN, 0, in_cache, c->n};
	if ((e = fixref_rice(r, &c->raw, &w, &u)) != SCHED_OK)
		return e;
	int32_t v = fixref_unfold(u);
	if (c->n < c->cap)
		c->n++;
	for (unsigned i = c->n - 1; i > 0; i--) /* the last entry drops out when full */
		c->v[i] = c->v[i - 1];
	c->v[0] = v;
	*out = v;
	return SCHED_OK;
}

/* ---- records ------------------------------------------------------------ */

struct fixref_model {
	uint32_t prev_job, prev_submit; /* start at 0 */
	struct fixref_stream job, submit, run, alloc, req_procs;
	struct fixref_cache req_time, status, user, group, queue, partition;
};

static void fixref_model_init(struct fixref_model *m)
{
	memset(m, 0, sizeof *m);
	struct fixref_stream *streams[] = {&m->job, &m->submit, &m->run, &m->alloc, &m->req_procs,
		&m->req_time.index, &m->req_time.raw, &m->status.index, &m->status.raw,
		&m->user.index, &m->user.raw, &m->group.index, &m->group.raw,
		&m->queue.index, &m->queue.raw, &m->partition.index, &m->partition.raw};
	for (size_t i = 0; i < sizeof streams / sizeof streams[0]; i++)
		streams[i]->mean16 = 256; /* a mean of 16 */
	m->req_time.cap = 16;
	m->status.cap = 4;
	m->user.cap = 16;
	m->group.cap = 16;
	m->queue.cap = 4;
	m->partition.cap = 4;
}

static bool fixref_stored(uint32_t fields, int f)
{
	return (fields & (1u << (f - 1))) != 0;
}

/* One record, its fields in the order of the spec's table, only the stored ones. */
static int fixref_record(struct fixref_rd *r, struct fixref_model *m, uint32_t fields, struct fix_job *j)
{
	static const struct fixref_want any = {FIXREF_ANY, 0, NULL, 0};
	uint32_t u;
	int e;
	j->job = j->submit = j->run = j->alloc_procs = j->req_procs = j->req_time = -1;
	j->status = j->user = j->group = j->queue = j->partition = -1;
	if (fixref_stored(fields, FIX_F_JOB)) { /* zigzag(job - previous job - 1) */
		if ((e = fixref_rice(r, &m->job, &any, &u)) != SCHED_OK)
			return e;
		m->prev_job = m->prev_job + 1u + fixref_unzigzag(u);
		j->job = fixref_i32(m->prev_job);
	}
	if (fixref_stored(fields, FIX_F_SUBMIT)) { /* zigzag(submit - previous submit) */
		if ((e = fixref_rice(r, &m->submit, &any, &u)) != SCHED_OK)
			return e;
		m->prev_submit = m->prev_submit + fixref_unzigzag(u);
		j->submit = fixref_i32(m->prev_submit);
	}
	if (fixref_stored(fields, FIX_F_RUN)) {
		if ((e = fixref_rice(r, &m->run, &any, &u)) != SCHED_OK)
			return e;
		j->run = fixref_unfold(u);
	}
	if (fixref_stored(fields, FIX_F_ALLOC_PROCS)) {
		if ((e = fixref_rice(r, &m->alloc, &any, &u)) != SCHED_OK)
			return e;
		j->alloc_procs = fixref_unfold(u);
	}
	if (fixref_stored(fields, FIX_F_REQ_PROCS)) {
		if (fixref_stored(fields, FIX_F_ALLOC_PROCS)) {
			unsigned equal;
			if ((e = fixref_bit(r, &equal)) != SCHED_OK)
				return e;
			if (equal) {
				j->req_procs = j->alloc_procs;
			} else {
				/* a "different" count equal to the allocated one is not canonical */
				uint32_t same = fixref_fold(j->alloc_procs);
				struct fixref_want w = {FIXREF_NOT_IN, 0, &same, 1};
				if ((e = fixref_rice(r, &m->req_procs, &w, &u)) != SCHED_OK)
					return e;
				j->req_procs = fixref_unfold(u);
			}
		} else {
			if ((e = fixref_rice(r, &m->req_procs, &any, &u)) != SCHED_OK)
				return e;
			j->req_procs = fixref_unfold(u);
		}
	}
	if (fixref_stored(fields, FIX_F_REQ_TIME) && (e = fixref_cache_read(r, &m->req_time, &j->req_time)) != SCHED_OK)
		return e;
	if (fixref_stored(fields, FIX_F_STATUS) && (e = fixref_cache_read(r, &m->status, &j->status)) != SCHED_OK)
		return e;
	if (fixref_stored(fields, FIX_F_USER) && (e = fixref_cache_read(r, &m->user, &j->user)) != SCHED_OK)
		return e;
	if (fixref_stored(fields, FIX_F_GROUP) && (e = fixref_cache_read(r, &m->group, &j->group)) != SCHED_OK)
		return e;
	if (fixref_stored(fields, FIX_F_QUEUE) && (e = fixref_cache_read(r, &m->queue, &j->queue)) != SCHED_OK)
		return e;
	if (fixref_stored(fields, FIX_F_PARTITION) &&
	    (e = fixref_cache_read(r, &m->partition, &j->partition)) != SCHED_OK)
		return e;
	return SCHED_OK;
}

/* ---- the header --------------------------------------------------------- */

static bool fixref_printable(uint64_t c)
{
	return c >= 0x20 && c <= 0x7E;
}

/* A header string of @p len bytes into @p dst. Settled (docs/fixture-format.md, Errors): it is
 * checked to be printable once it is read ("a string is not printable": SCHED_E_HEADER). */
static int fixref_string(struct fixref_rd *r, uint64_t len, char *dst)
{
	bool printable = true;
	for (uint64_t i = 0; i < len; i++) {
		uint64_t c;
		int e = fixref_field(r, 8, &c);
		if (e != SCHED_OK)
			return e;
		printable &= fixref_printable(c);
		dst[i] = (char)c;
	}
	return printable ? SCHED_OK : SCHED_E_HEADER;
}

/*
 * Settled (docs/fixture-format.md, Errors, "When each check is made"): the
 * magic is checked as soon as its 4 bytes are read and the version as soon
 * as its 2 are (SCHED_E_MAGIC, SCHED_E_VERSION): they say whether the rest
 * can be read at all. Each string length is checked as soon as its byte is
 * read, because a decoder must know how many bytes a string takes:
 *   - tz_len: SCHED_E_HEADER when tz_len > 127 or 44 + tz_len > header_bytes;
 *   - source_len: SCHED_E_HEADER when source_len > 127 or
 *     44 + tz_len + source_len != header_bytes.
 * (Together they hold header_bytes to 44 + tz_len + source_len, 44..298.)
 * Each string is checked to be printable once it is read. The other fields
 * are checked in one step once the whole header is read, so a file cut
 * inside the header is SCHED_E_TRUNCATED (or IO) whatever they hold.
 * DECISION: that step takes the checks in the order of the header table:
 * records_bytes, flags (with the values they flag), fields.
 */
static int fixref_header(struct fixref_rd *r, struct fix_header *h)
{
	uint64_t magic, version, header_bytes, jobs, records_bytes, max_procs, max_nodes, unix_start, tz_offset;
	uint64_t flags, fields, tz_len, source_len;
	int e;
	memset(h, 0, sizeof *h);
	/* Settled (docs/fixture-format.md, Errors): the magic and the version are checked as soon as
	 * read, since they say whether the rest can be read at all. */
	uint64_t want_magic = (uint64_t)'S' | (uint64_t)'W' << 8 | (uint64_t)'F' << 16 | (uint64_t)'X' << 24;
	if ((e = fixref_field(r, 32, &magic)) != SCHED_OK)
		return e;
	if (magic != want_magic)
		return SCHED_E_MAGIC;
	if ((e = fixref_field(r, 16, &version)) != SCHED_OK)
		return e;
	if (version != 1)
		return SCHED_E_VERSION;
	if ((e = fixref_field(r, 16, &header_bytes)) != SCHED_OK || (e = fixref_field(r, 32, &jobs)) != SCHED_OK ||
	    (e = fixref_field(r, 32, &records_bytes)) != SCHED_OK || (e = fixref_field(r, 32, &max_procs)) != SCHED_OK ||
	    (e = fixref_field(r, 32, &max_nodes)) != SCHED_OK || (e = fixref_field(r, 64, &unix_start)) != SCHED_OK ||
	    (e = fixref_field(r, 32, &tz_offset)) != SCHED_OK || (e = fixref_field(r, 16, &flags)) != SCHED_OK ||
	    (e = fixref_field(r, 32, &fields)) != SCHED_OK)
		return e;
	/* tz_len, checked as soon as read: 0..127, and leaving header_bytes room for it */
	if ((e = fixref_field(r, 8, &tz_len)) != SCHED_OK)
		return e;
	if (tz_len > 127 || 44 + tz_len > header_bytes)
		return SCHED_E_HEADER;
	if ((e = fixref_string(r, tz_len, h->tz_name)) != SCHED_OK)
		return e;
	/* source_len, checked as soon as read: 0..127, and header_bytes = 44 + tz_len + source_len */
	if ((e = fixref_field(r, 8, &source_len)) != SCHED_OK)
		return e;
	if (source_len > 127 || 44 + tz_len + source_len != header_bytes)
		return SCHED_E_HEADER;
	if ((e = fixref_string(r, source_len, h->source)) != SCHED_OK)
		return e;
	/* The whole header is read: the one step for the other fields. */
	/* DECISION (settled: docs/fixture-format.md, Errors): records_bytes 0 is SCHED_E_HEADER
	 * (the header table says "at least 1: the end marker"). */
	if (records_bytes == 0)
		return SCHED_E_HEADER;
	/* flags: bit 0 unix_start present, bit 1 tz_offset present, other bits 0. DECISION
	 * (settled: docs/fixture-format.md, Errors): a value given while its flag says absent
	 * (unix_start or tz_offset non-zero, its bit clear) is SCHED_E_HEADER, "inconsistent
	 * header", not SCHED_E_VALUE. */
	if ((flags & ~(uint64_t)3) != 0)
		return SCHED_E_HEADER;
	if ((flags & 1) == 0 && unix_start != 0)
		return SCHED_E_HEADER;
	if ((flags & 2) == 0 && tz_offset != 0)
		return SCHED_E_HEADER;
	/* fields: bit f-1 for SWF field f. DECISION: "Fields 1 and 2 are always stored", so a
	 * clear bit 0 or 1 is a fields value it cannot hold (SCHED_E_HEADER), as is a field the
	 * format does not keep. */
	if ((fields & ~(uint64_t)FIX_KEPT_FIELDS) != 0)
		return SCHED_E_HEADER;
	if (!fixref_stored((uint32_t)fields, FIX_F_JOB) || !fixref_stored((uint32_t)fields, FIX_F_SUBMIT))
		return SCHED_E_HEADER;
	h->version = (uint16_t)version;
	h->jobs = (uint32_t)jobs;
	h->records_bytes = (uint32_t)records_bytes;
	h->max_procs = (uint32_t)max_procs;
	h->max_nodes = (uint32_t)max_nodes;
	h->unix_start = fixref_i64(unix_start);
	h->tz_offset = fixref_i32((uint32_t)tz_offset);
	h->has_unix_start = (flags & 1) != 0;
	h->has_tz_offset = (flags & 2) != 0;
	h->fields = (uint32_t)fields;
	return SCHED_OK;
}

/* ---- the whole file ----------------------------------------------------- */

/* The end and its marker: DECISION: at the start of a record that the header's count still
 * expects, if the rest of the record section is exactly the end marker (a 1, then zeros to
 * the end of the section's last byte), "the records end here": SCHED_E_COUNT ("The marker
 * lets a decoder tell 'the records end here' (a job count that is too high) from 'a record is
 * cut short' (truncation)"). The look covers only the byte holding the record's first bit,
 * which the record needs anyway. */
static int fixref_at_marker(const struct fixref_rd *r, bool *yes)
{
	uint8_t byte;
	int e;
	*yes = false;
	if (r->pos >= r->end)
		return SCHED_E_TRUNCATED;
	if ((e = fixref_byte(r, r->pos / 8, &byte)) != SCHED_OK)
		return e;
	if (r->pos / 8 + 1 == r->end / 8) /* the section's last byte */
		*yes = (byte >> (r->pos % 8)) == 1;
	return SCHED_OK;
}

static int fixref_body(struct fixref_rd *r, struct fixref_result *res, struct fix_job *jobs, size_t cap)
{
	struct fix_header *h = &res->hdr;
	res->where = "header";
	int e = fixref_header(r, h);
	if (e != SCHED_OK)
		return e;
	res->header_ok = true;
	/* The header was read whole, so pos is at header_bytes. */
	uint64_t rec_start = r->pos / 8, rec_end = rec_start + h->records_bytes;
	struct fixref_model m;
	fixref_model_init(&m);
	r->end = rec_end * 8;
	res->where = "record";
	for (uint64_t n = 0; n < h->jobs; n++) {
		bool marker;
		if ((e = fixref_at_marker(r, &marker)) != SCHED_OK)
			return e;
		if (marker)
			return SCHED_E_COUNT; /* the records end before `jobs` records */
		struct fix_job j;
		if ((e = fixref_record(r, &m, h->fields, &j)) != SCHED_OK)
			return e;
		if (res->njobs < cap)
			jobs[res->njobs] = j;
		res->njobs++;
	}
	/* After the last record a single 1 bit, then zero bits to the end of the byte. */
	unsigned bit;
	res->where = "end marker";
	if ((e = fixref_bit(r, &bit)) != SCHED_OK)
		return e; /* DECISION: the section ends where the marker should be: TRUNCATED */
	if (bit == 0)
		return SCHED_E_COUNT; /* not the marker: the records go on after `jobs` of them */
	/* DECISION (settled: docs/fixture-format.md, Errors): the marker is followed by zero bits
	 * to the end of its byte; a 1 bit in that padding, or any byte of the record section after
	 * the marker's byte, is data past the last record: SCHED_E_COUNT, not SCHED_E_VALUE. */
	res->where = "padding";
	while (r->pos % 8 != 0) {
		if ((e = fixref_bit(r, &bit)) != SCHED_OK)
			return e;
		if (bit)
			return SCHED_E_COUNT;
	}
	res->where = "section end";
	if (r->pos != r->end)
		return SCHED_E_COUNT;
	/* The trailer: CRC-32 of every byte before it, little-endian, checked only once read whole. */
	r->end = UINT64_MAX;
	res->where = "trailer";
	uint64_t stored;
	if ((e = fixref_field(r, 32, &stored)) != SCHED_OK)
		return e;
	if ((uint32_t)stored != fixref_crc32(r->data, rec_end))
		return SCHED_E_CRC;
	/* Nothing may follow it: the decoder asks for one more byte. DECISION: if the source fails
	 * then, that is SCHED_E_IO (the decoder cannot know the data ended). */
	uint8_t extra;
	res->where = "after the trailer";
	e = fixref_byte(r, r->pos / 8, &extra);
	if (e == SCHED_E_IO)
		return SCHED_E_IO;
	if (e == SCHED_OK)
		return SCHED_E_TRAILING;
	return FIX_END;
}

/**
 * Decode the fixture in data[0 .. len) as a byte source that fails (-1) for
 * byte @p fail_after and after (FIXREF_NO_FAIL: never) would give it. The
 * first min(njobs, cap) jobs go to @p jobs. Returns res->err: FIX_END for a
 * good file, else the first error.
 */
static int fixref_decode(const uint8_t *data, size_t len, size_t fail_after, struct fix_job *jobs, size_t cap,
			 struct fixref_result *res)
{
	struct fixref_rd r = {data, len, fail_after, 0, UINT64_MAX};
	memset(res, 0, sizeof *res);
	res->err = fixref_body(&r, res, jobs, cap);
	res->err_bit = r.pos;
	return res->err;
}

#endif /* FIXTURE_REF_H */
