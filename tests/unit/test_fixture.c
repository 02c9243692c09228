/* SPDX-License-Identifier: MIT */
/* The fixture codec: encode/decode identity on extreme values, streaming, errors. */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "fixture/fixture.h"

struct buf {
	uint8_t p[1 << 16];
	size_t n;
};

static int buf_write(void *ctx, const uint8_t *data, size_t n)
{
	struct buf *b = ctx;
	if (b->n + n > sizeof b->p)
		return -1;
	memcpy(b->p + b->n, data, n);
	b->n += n;
	return 0;
}

/* A whole fixture in memory, as fixture_save() lays it out. */
static void build(struct buf *b, struct fix_header *h, const struct fix_job *jobs, size_t n)
{
	static struct buf rec;
	rec.n = 0;
	static struct fix_enc e;
	fix_enc_init(&e, h->fields, buf_write, &rec);
	for (size_t i = 0; i < n; i++)
		fix_enc_job(&e, &jobs[i]);
	fix_enc_finish(&e);
	h->jobs = (uint32_t)n;
	h->records_bytes = (uint32_t)rec.n;
	b->n = 0;
	uint8_t head[FIX_HEADER_FIXED + 2 * (FIX_NAME_MAX + 1)];
	int hn = fix_header_encode(h, head, sizeof head);
	buf_write(b, head, (size_t)hn);
	buf_write(b, rec.p, rec.n);
	uint32_t crc = fix_crc32(0, b->p, b->n);
	uint8_t t[4] = {(uint8_t)crc, (uint8_t)(crc >> 8), (uint8_t)(crc >> 16), (uint8_t)(crc >> 24)};
	buf_write(b, t, 4);
}

static int32_t pick(struct test_rng *r)
{
	switch (test_rng_range(r, 0, 7)) {
	case 0: return -1;
	case 1: return INT32_MIN;
	case 2: return INT32_MAX;
	case 3: return (int32_t)test_rng_range(r, 0, 10);
	case 4: return (int32_t)test_rng_range(r, 0, 100000);
	case 5: return -(int32_t)test_rng_range(r, 2, 1000);
	default: return (int32_t)(uint32_t)test_rng_next(r);
	}
}

static bool same_job(const struct fix_job *a, const struct fix_job *b, uint32_t fields)
{
#define F(name, f) ((fields & FIX_FIELD_BIT(f)) ? a->name == b->name : b->name == -1)
	return a->job == b->job && a->submit == b->submit && F(run, FIX_F_RUN) &&
	       F(alloc_procs, FIX_F_ALLOC_PROCS) && F(req_procs, FIX_F_REQ_PROCS) &&
	       F(req_time, FIX_F_REQ_TIME) && F(status, FIX_F_STATUS) && F(user, FIX_F_USER) &&
	       F(group, FIX_F_GROUP) && F(queue, FIX_F_QUEUE) && F(partition, FIX_F_PARTITION);
#undef F
}

/* Hand the decoder one byte at a time, to exercise its refills. */
static long one_byte_read(void *ctx, uint8_t *buf, size_t n)
{
	(void)n;
	return fix_mem_read(ctx, buf, 1);
}

static void identity_on_extreme_values(void)
{
	static struct buf b;
	static struct fix_job jobs[2000], got;
	static struct fix_dec d;
	struct test_rng r;
	test_rng_seed(&r, 99);
	for (int round = 0; round < 40; round++) {
		struct fix_header h = {.version = FIX_VERSION, .max_procs = 128, .has_unix_start = true,
				       .unix_start = -5, .has_tz_offset = round % 2, .tz_offset = round % 2 ? -18000 : 0};
		strcpy(h.tz_name, "Europe/Stockholm");
		strcpy(h.source, "extreme values");
		/* Every subset of the optional fields appears over the rounds. */
		h.fields = FIX_KEPT_FIELDS & (uint32_t)test_rng_next(&r);
		h.fields |= FIX_FIELD_BIT(FIX_F_JOB) | FIX_FIELD_BIT(FIX_F_SUBMIT);
		size_t n = test_rng_range(&r, 0, 2000);
		for (size_t i = 0; i < n; i++) {
			struct fix_job *j = &jobs[i];
			*j = (struct fix_job){pick(&r), pick(&r), pick(&r), pick(&r), pick(&r), pick(&r),
					      pick(&r), pick(&r), pick(&r), pick(&r), pick(&r)};
			if (test_rng_range(&r, 0, 1))
				j->req_procs = j->alloc_procs;
			if (i > 0 && test_rng_range(&r, 0, 1))
				j->req_time = jobs[i - 1].req_time; /* cache hits */
		}
		build(&b, &h, jobs, n);
		struct fix_mem m = {b.p, b.n, 0};
		CHECK_EQ(fix_dec_init(&d, round % 3 ? fix_mem_read : one_byte_read, &m), SCHED_OK);
		CHECK_EQ(d.hdr.jobs, n);
		CHECK(strcmp(d.hdr.tz_name, "Europe/Stockholm") == 0 && strcmp(d.hdr.source, "extreme values") == 0);
		CHECK(d.hdr.has_unix_start && d.hdr.unix_start == -5);
		CHECK_EQ(d.hdr.tz_offset, round % 2 ? -18000 : 0);
		for (size_t i = 0; i < n; i++) {
			CHECK_EQ(fix_dec_next(&d, &got), SCHED_OK);
			CHECK(same_job(&jobs[i], &got, h.fields));
		}
		CHECK_EQ(fix_dec_next(&d, &got), FIX_END);
		CHECK_EQ(fix_dec_next(&d, &got), FIX_END); /* latched */
	}
}

static void crc_known_vector(void)
{
	CHECK_EQ(fix_crc32(0, (const uint8_t *)"123456789", 9), 0xCBF43926u);
	uint32_t part = fix_crc32(0, (const uint8_t *)"1234", 4);
	CHECK_EQ(fix_crc32(part, (const uint8_t *)"56789", 5), 0xCBF43926u);
}

static long failing_read(void *ctx, uint8_t *buf, size_t n)
{
	int *calls = ctx;
	(void)buf;
	(void)n;
	return (*calls)++ == 0 ? 0 : -1;
}

static long error_read(void *ctx, uint8_t *buf, size_t n)
{
	(void)ctx;
	(void)buf;
	(void)n;
	return -1;
}

static void source_errors(void)
{
	static struct fix_dec d;
	int calls = 0;
	CHECK_EQ(fix_dec_init(&d, failing_read, &calls), SCHED_E_TRUNCATED); /* empty */
	CHECK_EQ(fix_dec_init(&d, error_read, NULL), SCHED_E_IO);
	struct fix_job j;
	CHECK_EQ(fix_dec_next(&d, &j), SCHED_E_IO); /* latched from init */
}

/* A fixture of no jobs is legal: header, the end marker, the CRC. */
static void empty_fixture(void)
{
	static struct buf b;
	static struct fix_dec d;
	struct fix_header h = {.version = FIX_VERSION, .fields = 0};
	build(&b, &h, NULL, 0);
	CHECK_EQ(h.records_bytes, 1);
	struct fix_mem m = {b.p, b.n, 0};
	CHECK_EQ(fix_dec_init(&d, fix_mem_read, &m), SCHED_OK);
	struct fix_job j;
	CHECK_EQ(fix_dec_next(&d, &j), FIX_END);
}

static void header_rejects_bad_values(void)
{
	uint8_t out[FIX_HEADER_FIXED + 2 * (FIX_NAME_MAX + 1)];
	struct fix_header h = {.version = FIX_VERSION};
	h.fields = FIX_FIELD_BIT(3); /* the wait is not a kept field */
	CHECK_EQ(fix_header_encode(&h, out, sizeof out), SCHED_E_HEADER);
	h.fields = 0;
	CHECK_EQ(fix_header_encode(&h, out, 10), SCHED_E_HEADER); /* no room */
	memset(h.source, 'x', sizeof h.source); /* no terminator within the limit */
	CHECK_EQ(fix_header_encode(&h, out, sizeof out), SCHED_E_HEADER);
	CHECK(strcmp(sched_strerror(SCHED_E_CRC), "CRC mismatch") == 0);
}

static const struct test tests[] = {
	{"identity_on_extreme_values", identity_on_extreme_values},
	{"crc_known_vector", crc_known_vector},
	{"source_errors", source_errors},
	{"empty_fixture", empty_fixture},
	{"header_rejects_bad_values", header_rejects_bad_values},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("fixture", tests, argc, argv);
}
