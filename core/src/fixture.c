/* SPDX-License-Identifier: MIT */
/* The fixture codec: header, adaptive Rice and move-to-front records, CRC-32 trailer. */
#include "sched/fixture.h"
#include "util.h"

/*
 * The per-bit helpers are inlined into decode_job() on the host, where speed
 * is asked for; on the board (Arm, -O2 or -Os) they stay calls: inlined there
 * they made fix_dec_next 13 KB of flash instead of about 2 KB.
 */
#if defined(__GNUC__) && !defined(__OPTIMIZE_SIZE__) && !defined(__arm__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

/* --- CRC-32 ---------------------------------------------------------------------- */

/*
 * The board keeps a nibble table (64 bytes of flash, two lookups a byte); the
 * host a byte table (1 KiB, one lookup), which the decoder's bulk check of the
 * record section uses. Both tables are made by the preprocessor from the
 * polynomial, so there is no list of constants to get wrong.
 */
#define CRC_POLY 0xedb88320u
#define CRC_BIT(c) (((c) >> 1) ^ (CRC_POLY & (0u - ((c) & 1u))))
#define CRC_BITS4(c) CRC_BIT(CRC_BIT(CRC_BIT(CRC_BIT(c))))
#define CRC_4(n) CRC_ENTRY(n), CRC_ENTRY((n) + 1u), CRC_ENTRY((n) + 2u), CRC_ENTRY((n) + 3u)
#define CRC_16(n) CRC_4(n), CRC_4((n) + 4u), CRC_4((n) + 8u), CRC_4((n) + 12u)

#if defined(__arm__)
#define CRC_ENTRY(n) CRC_BITS4((uint32_t)(n))
static const uint32_t crc_nibble[16] = {CRC_16(0u)};

static uint32_t crc_step(uint32_t crc, uint8_t b)
{
	crc ^= b;
	crc = (crc >> 4) ^ crc_nibble[crc & 15u];
	return (crc >> 4) ^ crc_nibble[crc & 15u];
}
#else
#define CRC_ENTRY(n) CRC_BITS4(CRC_BITS4((uint32_t)(n)))
#define CRC_64(n) CRC_16(n), CRC_16((n) + 16u), CRC_16((n) + 32u), CRC_16((n) + 48u)
static const uint32_t crc_table[256] = {CRC_64(0u), CRC_64(64u), CRC_64(128u), CRC_64(192u)};

static uint32_t crc_step(uint32_t crc, uint8_t b)
{
	return (crc >> 8) ^ crc_table[(crc ^ b) & 0xffu];
}
#endif

uint32_t fix_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	for (size_t i = 0; i < n; i++)
		crc = crc_step(crc, p[i]);
	return ~crc;
}

/* --- the model shared by encoder and decoder ------------------------------------- */

/*
 * Numbers are mapped to unsigned codes: "offset" fields (most of them, where
 * -1 means unknown) as v + 1, so -1 costs one bit; deltas by zigzag. Codes go
 * through an adaptive Rice code whose parameter k follows a running mean, so
 * it fits each trace and each field without a table. A quotient of
 * RICE_ESCAPE or more is sent as the escape run followed by the 32-bit code.
 */
#define RICE_ESCAPE 24u
_Static_assert(RICE_ESCAPE < 32, "unary() counts the quotient in the low 32 bits");

static void rice_init(struct fix_rice *r)
{
	r->mean16 = 16u << 4;
	r->k = 4; /* 2^4 <= 16 + 1 < 2^5 */
}

/* The largest k <= 31 with 2^k <= mean + 1, kept with the mean (it moves a step at most per code). */
static unsigned rice_k(const struct fix_rice *r)
{
	return r->k;
}

/* floor(log2(x)) for x >= 1. */
static unsigned log2_floor(uint64_t x)
{
#if defined(__GNUC__)
	return 63u - (unsigned)__builtin_clzll(x);
#else
	unsigned k = 0;
	while (x >>= 1)
		k++;
	return k;
#endif
}

HOT void rice_update(struct fix_rice *r, uint32_t u)
{
	uint64_t target = (uint64_t)u << 4, mean16 = r->mean16;
	if (target >= mean16)
		mean16 += (target - mean16) >> 4;
	else
		mean16 -= (mean16 - target) >> 4;
	r->mean16 = mean16;
	unsigned k = log2_floor((mean16 >> 4) + 1); /* the doc's "largest k with 2^k <= mean + 1" */
	r->k = (uint8_t)(k < 31u ? k : 31u);
}

static void mtf_init(struct fix_mtf *m, uint8_t cap)
{
	m->n = 0;
	m->cap = cap;
	rice_init(&m->index);
	rice_init(&m->raw);
}

/* Bring entry i to the front; with i == m->n, insert v (dropping the last when full). */
static void mtf_touch(struct fix_mtf *m, unsigned i, int32_t v)
{
	if (i == m->n && m->n < m->cap)
		m->n++;
	if (i >= m->n)
		i = m->n - 1u;
	for (; i > 0; i--)
		m->v[i] = m->v[i - 1];
	m->v[0] = v;
}

static void model_init(struct fix_model *m)
{
	sched_zero(m, sizeof *m);
	rice_init(&m->job);
	rice_init(&m->submit);
	rice_init(&m->run);
	rice_init(&m->alloc);
	rice_init(&m->req_procs);
	mtf_init(&m->req_time, 16);
	mtf_init(&m->status, 4);
	mtf_init(&m->user, 16);
	mtf_init(&m->group, 16);
	mtf_init(&m->queue, 4);
	mtf_init(&m->partition, 4);
}

/* Two's complement reinterpretation without implementation-defined conversions. */
static int32_t as_i32(uint32_t u)
{
	return u > (uint32_t)INT32_MAX ? (int32_t)((int64_t)u - 4294967296LL) : (int32_t)u;
}

/* -1 (unknown) becomes 0; a bijection of the 32-bit values. */
static uint32_t fold_offset(int32_t v)
{
	return (uint32_t)v + 1u;
}

static int32_t unfold_offset(uint32_t u)
{
	return as_i32(u - 1u);
}

/* Small differences of either sign become small codes; a bijection of the 32-bit values. */
static uint32_t zigzag(int32_t d)
{
	return d >= 0 ? (uint32_t)d << 1 : ~((uint32_t)d << 1);
}

static int32_t unzigzag(uint32_t z)
{
	return as_i32((z >> 1) ^ (0u - (z & 1u)));
}

/* Differences are taken modulo 2^32, so every int32 sequence codes losslessly. */
static int32_t delta(int32_t v, int32_t prev, uint32_t bias)
{
	return as_i32((uint32_t)v - (uint32_t)prev - bias);
}

static int32_t undelta(int32_t prev, int32_t d, uint32_t bias)
{
	return as_i32((uint32_t)prev + bias + (uint32_t)d);
}

static bool has(uint32_t fields, enum fix_field f)
{
	return (fields & FIX_FIELD_BIT(f)) != 0;
}

/* --- encoder --------------------------------------------------------------------- */

static void put_bits(struct fix_enc *e, uint32_t v, unsigned n)
{
	/* Bits go out least significant first, filling each byte from bit 0. */
	for (unsigned i = 0; i < n; i++) {
		e->bits |= ((v >> i) & 1u) << e->nbits;
		if (++e->nbits == 8) {
			uint8_t byte = (uint8_t)e->bits;
			if (e->state == SCHED_OK && e->write(e->ctx, &byte, 1) != 0)
				e->state = SCHED_E_IO;
			e->bytes++;
			e->bits = 0;
			e->nbits = 0;
		}
	}
}

static void put_rice(struct fix_enc *e, struct fix_rice *r, uint32_t u)
{
	unsigned k = rice_k(r);
	uint32_t q = u >> k;
	if (q >= RICE_ESCAPE) {
		for (unsigned i = 0; i < RICE_ESCAPE; i++)
			put_bits(e, 1, 1);
		put_bits(e, u, 32);
	} else {
		for (uint32_t i = 0; i < q; i++)
			put_bits(e, 1, 1);
		put_bits(e, 0, 1);
		put_bits(e, u, k);
	}
	rice_update(r, u);
}

static void put_mtf(struct fix_enc *e, struct fix_mtf *m, int32_t v)
{
	unsigned i = 0;
	while (i < m->n && m->v[i] != v)
		i++;
	if (i < m->n) {
		put_bits(e, 1, 1);
		put_rice(e, &m->index, i);
	} else {
		put_bits(e, 0, 1);
		put_rice(e, &m->raw, fold_offset(v));
	}
	mtf_touch(m, i, v);
}

void fix_enc_init(struct fix_enc *e, uint32_t fields, fix_write_fn write, void *ctx)
{
	e->write = write;
	e->ctx = ctx;
	e->fields = (fields & FIX_KEPT_FIELDS) | FIX_FIELD_BIT(FIX_F_JOB) | FIX_FIELD_BIT(FIX_F_SUBMIT);
	e->bits = 0;
	e->nbits = 0;
	e->bytes = 0;
	e->state = SCHED_OK;
	model_init(&e->model);
}

int fix_enc_job(struct fix_enc *e, const struct fix_job *j)
{
	struct fix_model *m = &e->model;
	/* Job numbers usually count up by one: code the difference from "previous + 1". */
	put_rice(e, &m->job, zigzag(delta(j->job, m->prev_job, 1)));
	m->prev_job = j->job;
	put_rice(e, &m->submit, zigzag(delta(j->submit, m->prev_submit, 0)));
	m->prev_submit = j->submit;
	if (has(e->fields, FIX_F_RUN))
		put_rice(e, &m->run, fold_offset(j->run));
	if (has(e->fields, FIX_F_ALLOC_PROCS))
		put_rice(e, &m->alloc, fold_offset(j->alloc_procs));
	if (has(e->fields, FIX_F_REQ_PROCS)) {
		/* Requested processors nearly always equal the allocated ones: one bit then. */
		bool same = has(e->fields, FIX_F_ALLOC_PROCS) && j->req_procs == j->alloc_procs;
		if (has(e->fields, FIX_F_ALLOC_PROCS))
			put_bits(e, same ? 1u : 0u, 1);
		if (!same)
			put_rice(e, &m->req_procs, fold_offset(j->req_procs));
	}
	if (has(e->fields, FIX_F_REQ_TIME))
		put_mtf(e, &m->req_time, j->req_time);
	if (has(e->fields, FIX_F_STATUS))
		put_mtf(e, &m->status, j->status);
	if (has(e->fields, FIX_F_USER))
		put_mtf(e, &m->user, j->user);
	if (has(e->fields, FIX_F_GROUP))
		put_mtf(e, &m->group, j->group);
	if (has(e->fields, FIX_F_QUEUE))
		put_mtf(e, &m->queue, j->queue);
	if (has(e->fields, FIX_F_PARTITION))
		put_mtf(e, &m->partition, j->partition);
	return e->state;
}

int fix_enc_finish(struct fix_enc *e)
{
	/* A 1 bit ends the records, then zeros to the byte: the decoder can tell
	 * "no record left" from "a record cut short". */
	put_bits(e, 1, 1);
	if (e->nbits > 0)
		put_bits(e, 0, 8 - e->nbits);
	return e->state;
}

/* --- header ---------------------------------------------------------------------- */

static void le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | ((uint64_t)rd32(p + 4) << 32);
}

static size_t str_len(const char *s, size_t max)
{
	size_t n = 0;
	while (n <= max && s[n] != '\0')
		n++;
	return n;
}

int fix_header_encode(const struct fix_header *h, uint8_t *out, size_t cap)
{
	size_t tz = str_len(h->tz_name, FIX_NAME_MAX);
	size_t src = str_len(h->source, FIX_NAME_MAX);
	size_t total = FIX_HEADER_FIXED + tz + src;
	if (tz > FIX_NAME_MAX || src > FIX_NAME_MAX || total > cap || (h->fields & ~FIX_KEPT_FIELDS))
		return SCHED_E_HEADER;
	const uint8_t magic[4] = {'S', 'W', 'F', 'X'};
	for (int i = 0; i < 4; i++)
		out[i] = magic[i];
	le16(out + 4, FIX_VERSION);
	le16(out + 6, (uint16_t)total);
	le32(out + 8, h->jobs);
	le32(out + 12, h->records_bytes);
	le32(out + 16, h->max_procs);
	le32(out + 20, h->max_nodes);
	/* Absent values are written as 0, so that every header has one encoding. */
	le64(out + 24, h->has_unix_start ? (uint64_t)h->unix_start : 0);
	le32(out + 32, h->has_tz_offset ? (uint32_t)h->tz_offset : 0);
	le16(out + 36, (uint16_t)((h->has_unix_start ? 1u : 0u) | (h->has_tz_offset ? 2u : 0u)));
	le32(out + 38, h->fields | FIX_FIELD_BIT(FIX_F_JOB) | FIX_FIELD_BIT(FIX_F_SUBMIT));
	out[42] = (uint8_t)tz;
	for (size_t i = 0; i < tz; i++)
		out[43 + i] = (uint8_t)h->tz_name[i];
	out[43 + tz] = (uint8_t)src;
	for (size_t i = 0; i < src; i++)
		out[44 + tz + i] = (uint8_t)h->source[i];
	return (int)total;
}

/* --- decoder --------------------------------------------------------------------- */

long fix_mem_read(void *ctx, uint8_t *buf, size_t n)
{
	struct fix_mem *m = ctx;
	size_t left = m->len - m->pos;
	if (n > left)
		n = left;
	for (size_t i = 0; i < n; i++)
		buf[i] = m->data[m->pos + i];
	m->pos += n;
	return (long)n;
}

/*
 * The CRC takes a chunk's bytes in one run once they are consumed, not one
 * call per byte: crc_sync() before a chunk is replaced and before the trailer
 * is compared.
 */
static void crc_sync(struct fix_dec *d)
{
	d->crc = fix_crc32(d->crc, d->buf + d->crc_pos, d->buf_pos - d->crc_pos);
	d->crc_pos = d->buf_pos;
}

/* Next byte of the file: 0..255, -1 at the end, SCHED_E_IO on failure. */
static int next_byte(struct fix_dec *d)
{
	if (d->buf_pos == d->buf_len) {
		crc_sync(d);
		long got = d->read(d->ctx, d->buf, sizeof d->buf);
		if (got < 0 || (size_t)got > sizeof d->buf)
			return SCHED_E_IO;
		if (got == 0)
			return -1;
		d->buf_len = (size_t)got;
		d->buf_pos = d->crc_pos = 0;
	}
	d->consumed++;
	return d->buf[d->buf_pos++];
}

static int read_exact(struct fix_dec *d, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int b = next_byte(d);
		if (b < 0)
			return b == -1 ? SCHED_E_TRUNCATED : b;
		out[i] = (uint8_t)b;
	}
	return SCHED_OK;
}

static bool printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

/* Read a length-prefixed string of the header into dst. */
/*
 * One of the header's two strings, its length byte first. The length is
 * checked against header_bytes (@p size) as soon as it is read, as a
 * bit-by-bit reading would: the time zone must leave room for the source's
 * length byte, and the source must end the header exactly. So a length that
 * contradicts the header is reported as such, not as a truncation while
 * reading past it.
 */
static int read_string(struct fix_dec *d, char *dst, size_t *used, size_t size, bool last)
{
	uint8_t len;
	int err = read_exact(d, &len, 1);
	if (err != SCHED_OK)
		return err;
	size_t end = *used + 1u + len; /* the header's bytes once this string is read */
	if (len > FIX_NAME_MAX || (last ? end != size : end + 1u > size))
		return SCHED_E_HEADER;
	err = read_exact(d, (uint8_t *)dst, len);
	if (err != SCHED_OK)
		return err;
	dst[len] = '\0';
	*used += 1u + len;
	return printable(dst, len) ? SCHED_OK : SCHED_E_HEADER;
}

int fix_dec_init(struct fix_dec *d, fix_read_fn read, void *ctx)
{
	sched_zero(d, sizeof *d);
	d->read = read;
	d->ctx = ctx;
	uint8_t h[42];
	int err = read_exact(d, h, 4);
	if (err == SCHED_OK && (h[0] != 'S' || h[1] != 'W' || h[2] != 'F' || h[3] != 'X'))
		err = SCHED_E_MAGIC;
	if (err == SCHED_OK)
		err = read_exact(d, h + 4, 2);
	if (err == SCHED_OK && rd16(h + 4) != FIX_VERSION)
		err = SCHED_E_VERSION;
	if (err == SCHED_OK)
		err = read_exact(d, h + 6, sizeof h - 6);
	struct fix_header *hd = &d->hdr;
	size_t used = sizeof h;
	if (err == SCHED_OK)
		err = read_string(d, hd->tz_name, &used, rd16(h + 6), false);
	if (err == SCHED_OK)
		err = read_string(d, hd->source, &used, rd16(h + 6), true);
	if (err != SCHED_OK) {
		d->state = err;
		return err;
	}
	hd->version = rd16(h + 4);
	hd->jobs = rd32(h + 8);
	hd->records_bytes = rd32(h + 12);
	hd->max_procs = rd32(h + 16);
	hd->max_nodes = rd32(h + 20);
	hd->unix_start = (int64_t)rd64(h + 24);
	hd->tz_offset = (int32_t)rd32(h + 32);
	uint16_t flags = rd16(h + 36);
	hd->has_unix_start = (flags & 1u) != 0;
	hd->has_tz_offset = (flags & 2u) != 0;
	hd->fields = rd32(h + 38);
	uint32_t must = FIX_FIELD_BIT(FIX_F_JOB) | FIX_FIELD_BIT(FIX_F_SUBMIT);
	/* header_bytes needs no test here: read_string() held the strings to it. */
	if ((flags & ~3u) || (hd->fields & ~FIX_KEPT_FIELDS) ||
	    (hd->fields & must) != must || hd->records_bytes == 0 ||
	    (!hd->has_unix_start && hd->unix_start != 0) || (!hd->has_tz_offset && hd->tz_offset != 0)) {
		d->state = SCHED_E_HEADER;
		return SCHED_E_HEADER;
	}
	d->record_left = hd->records_bytes;
	model_init(&d->model);
	return SCHED_OK;
}

/*
 * The record section is read through a 64-bit accumulator, least significant
 * bit first; bits above nbits are always 0. While a record decodes, the
 * accumulator is a local struct bitrd (registers, on the host where the
 * helpers are inlined) and goes back into the decoder between records. A
 * refill tops it up to at least 56 bits, a whole Rice code (at most 24 + 32),
 * or to the section's end: up to seven bytes in one load when the chunk in
 * hand has eight, else a byte at a time across chunks. A byte the source
 * fails to give is remembered (src_err) and only reported when a bit of it is
 * needed, so errors come where the bit-at-a-time reading of the format gives
 * them.
 */
struct bitrd {
	uint64_t bits;
	unsigned nbits;
};

/* Near a chunk's or the section's end: a byte at a time, reading the next chunk when needed. */
static struct bitrd refill_slow(struct fix_dec *d, struct bitrd b)
{
	while (b.nbits <= 56 && d->record_left > 0 && d->src_err == SCHED_OK) {
		int c = next_byte(d);
		if (c < 0) {
			d->src_err = c == -1 ? SCHED_E_TRUNCATED : c;
			break;
		}
		d->record_left--;
		b.bits |= (uint64_t)c << b.nbits;
		b.nbits += 8;
	}
	return b;
}

HOT struct bitrd refill(struct fix_dec *d, struct bitrd b)
{
	size_t pos = d->buf_pos;
	if (d->buf_len - pos < 8 || d->record_left < 8)
		return refill_slow(d, b);
	unsigned n = (63u - b.nbits) >> 3; /* whole bytes that fit above the bits in hand */
	b.bits |= (rd64(d->buf + pos) & ((UINT64_C(1) << (8u * n)) - 1u)) << b.nbits;
	b.nbits += 8u * n;
	d->buf_pos = pos + n;
	d->consumed += n;
	d->record_left -= n;
	return b;
}

/* The error for a bit that is not there: the source's failure, or the section's end. */
static int missing(const struct fix_dec *d)
{
	return d->record_left > 0 && d->src_err != SCHED_OK ? d->src_err : SCHED_E_TRUNCATED;
}

/* Next bit of the record section: 0 or 1, or an error (the section has ended). */
HOT int get_bit(struct fix_dec *d, struct bitrd *b)
{
	if (b->nbits == 0) {
		*b = refill(d, *b);
		if (b->nbits == 0)
			return missing(d);
	}
	int bit = (int)(b->bits & 1u);
	b->bits >>= 1;
	b->nbits--;
	return bit;
}

/* The unary quotient at the front of the bits: ones up to a zero, at most RICE_ESCAPE. */
HOT unsigned unary(uint64_t bits)
{
#if defined(__GNUC__)
	/* A zero planted at bit RICE_ESCAPE caps the count there. The cap is below 32, so the
	 * low word decides: a 32-bit count is one instruction on the host and RBIT+CLZ on a
	 * Cortex-M3, where the 64-bit one would be a libgcc call (__ctzdi2). */
	return (unsigned)__builtin_ctz(~(uint32_t)bits | (UINT32_C(1) << RICE_ESCAPE));
#else
	unsigned q = 0;
	while (q < RICE_ESCAPE && ((bits >> q) & 1u))
		q++;
	return q;
#endif
}

HOT int get_rice(struct fix_dec *d, struct bitrd *b, struct fix_rice *r, uint32_t *out)
{
	unsigned k = rice_k(r);
	unsigned q = unary(b->bits);
	/* Bits of the whole code: the quotient, its terminating zero (none when escaped), the rest. */
	unsigned need = q < RICE_ESCAPE ? q + 1 + k : RICE_ESCAPE + 32;
	if (need > b->nbits) {
		/* Usually the bit buffer holds the code; else refill and look again (the ones may go on). */
		*b = refill(d, *b);
		q = unary(b->bits);
		need = q < RICE_ESCAPE ? q + 1 + k : RICE_ESCAPE + 32;
		unsigned used = q < RICE_ESCAPE ? q + 1 : q;
		if (used > b->nbits)
			return missing(d); /* the zero found lies past the data: the code is cut short */
		if (q < RICE_ESCAPE && k > 0 && (q >> (32 - k)) != 0)
			return SCHED_E_VALUE; /* an encoder would have escaped (reported before a cut) */
		if (need > b->nbits)
			return missing(d);
	}
	uint64_t bits = b->bits;
	uint32_t u;
	if (q == RICE_ESCAPE) {
		u = (uint32_t)(bits >> RICE_ESCAPE);
		if ((u >> k) < RICE_ESCAPE)
			return SCHED_E_VALUE; /* an encoder escapes only values that need it */
	} else {
		/* q < RICE_ESCAPE < 2^5: only a k above 27 can overflow 32 bits. */
		if (k > 27 && (q >> (32 - k)) != 0)
			return SCHED_E_VALUE; /* an encoder would have escaped */
		uint32_t low = (uint32_t)(bits >> (q + 1)) & (((uint32_t)1 << k) - 1u);
		u = (q << k) | low;
	}
	b->bits = bits >> need;
	b->nbits -= need;
	rice_update(r, u);
	*out = u;
	return SCHED_OK;
}

HOT int get_mtf(struct fix_dec *d, struct bitrd *b, struct fix_mtf *m, int32_t *out)
{
	int hit = get_bit(d, b);
	if (hit < 0)
		return hit;
	uint32_t u;
	int err;
	if (hit) {
		err = get_rice(d, b, &m->index, &u);
		if (err != SCHED_OK)
			return err;
		if (u >= m->n)
			return SCHED_E_VALUE;
		*out = m->v[u];
		mtf_touch(m, u, *out);
	} else {
		err = get_rice(d, b, &m->raw, &u);
		if (err != SCHED_OK)
			return err;
		*out = unfold_offset(u);
		/* A value already cached must have been sent as a hit. */
		for (unsigned i = 0; i < m->n; i++)
			if (m->v[i] == *out)
				return SCHED_E_VALUE;
		mtf_touch(m, m->n, *out);
	}
	return SCHED_OK;
}

HOT int decode_job(struct fix_dec *d, struct bitrd *b, struct fix_job *j)
{
	struct fix_model *m = &d->model;
	uint32_t fields = d->hdr.fields;
	uint32_t u;
	int err;
#define GET(call)                      \
	do {                           \
		err = (call);          \
		if (err != SCHED_OK)     \
			return err;    \
	} while (0)
	j->run = j->alloc_procs = j->req_procs = j->req_time = -1;
	j->status = j->user = j->group = j->queue = j->partition = -1;
	GET(get_rice(d, b, &m->job, &u));
	j->job = undelta(m->prev_job, unzigzag(u), 1);
	m->prev_job = j->job;
	GET(get_rice(d, b, &m->submit, &u));
	j->submit = undelta(m->prev_submit, unzigzag(u), 0);
	m->prev_submit = j->submit;
	if (has(fields, FIX_F_RUN)) {
		GET(get_rice(d, b, &m->run, &u));
		j->run = unfold_offset(u);
	}
	if (has(fields, FIX_F_ALLOC_PROCS)) {
		GET(get_rice(d, b, &m->alloc, &u));
		j->alloc_procs = unfold_offset(u);
	}
	if (has(fields, FIX_F_REQ_PROCS)) {
		int same = 0;
		if (has(fields, FIX_F_ALLOC_PROCS)) {
			same = get_bit(d, b);
			if (same < 0)
				return same;
		}
		if (same) {
			j->req_procs = j->alloc_procs;
		} else {
			GET(get_rice(d, b, &m->req_procs, &u));
			j->req_procs = unfold_offset(u);
			if (has(fields, FIX_F_ALLOC_PROCS) && j->req_procs == j->alloc_procs)
				return SCHED_E_VALUE; /* an equal count is sent as one bit */
		}
	}
	if (has(fields, FIX_F_REQ_TIME))
		GET(get_mtf(d, b, &m->req_time, &j->req_time));
	if (has(fields, FIX_F_STATUS))
		GET(get_mtf(d, b, &m->status, &j->status));
	if (has(fields, FIX_F_USER))
		GET(get_mtf(d, b, &m->user, &j->user));
	if (has(fields, FIX_F_GROUP))
		GET(get_mtf(d, b, &m->group, &j->group));
	if (has(fields, FIX_F_QUEUE))
		GET(get_mtf(d, b, &m->queue, &j->queue));
	if (has(fields, FIX_F_PARTITION))
		GET(get_mtf(d, b, &m->partition, &j->partition));
#undef GET
	return SCHED_OK;
}

/* Only the end marker and its zero padding (the section's last byte) are left in the record section? */
HOT int at_end_marker(struct fix_dec *d, struct bitrd *b, bool *yes)
{
	/* Bits in hand already decide it: the marker must be in the section's last byte, all loaded. */
	if (b->nbits == 0)
		*b = refill(d, *b);
	*yes = d->record_left == 0 && b->nbits > 0 && b->nbits <= 8 && b->bits == 1u;
	return b->nbits == 0 && d->record_left > 0 ? missing(d) : SCHED_OK;
}

/* After the last record: the end marker, zero padding, the CRC of everything before, then nothing. */
static int finish(struct fix_dec *d, struct bitrd *b)
{
	int marker = get_bit(d, b);
	if (marker < 0)
		return marker;
	if (marker != 1 || b->bits != 0 || b->nbits >= 8 || d->record_left != 0)
		return SCHED_E_COUNT; /* more record data than the header's job count */
	crc_sync(d);
	uint32_t want = d->crc;
	uint8_t t[4];
	int err = read_exact(d, t, 4);
	if (err != SCHED_OK)
		return err;
	if (rd32(t) != want)
		return SCHED_E_CRC;
	int c = next_byte(d);
	if (c >= 0)
		return SCHED_E_TRAILING;
	return c == -1 ? FIX_END : c;
}

int fix_dec_next(struct fix_dec *d, struct fix_job *job)
{
	if (d->state != SCHED_OK)
		return d->state;
	struct bitrd b = {d->bits, d->nbits};
	int err;
	bool ended = false;
	if (d->jobs_done == d->hdr.jobs) {
		err = finish(d, &b);
	} else if ((err = at_end_marker(d, &b, &ended)) != SCHED_OK) {
		/* the data ends before the records do */
	} else if (ended) {
		err = SCHED_E_COUNT; /* the records ended cleanly, but fewer than announced */
	} else {
		err = decode_job(d, &b, job);
		if (err == SCHED_OK)
			d->jobs_done++;
	}
	d->bits = b.bits;
	d->nbits = b.nbits;
	if (err != SCHED_OK)
		d->state = err;
	return err;
}
