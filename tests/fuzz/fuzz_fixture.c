/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the fixture decoder on arbitrary bytes. It must never
 * crash, leak or trip a sanitizer, and whatever it accepts must be the one
 * encoding of its content: re-encoding the decoded header and jobs gives
 * back the input byte for byte.
 */
#include <stdlib.h>
#include <string.h>

#include "fixture/fixture.h"

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static int buf_write(void *ctx, const uint8_t *data, size_t n)
{
	struct buf *b = ctx;
	if (b->n + n > b->cap)
		return -1;
	memcpy(b->p + b->n, data, n);
	b->n += n;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fix_dec d;
	struct fix_mem mem = {data, size, 0};
	if (fix_dec_init(&d, fix_mem_read, &mem) != SCHED_OK)
		return 0;
	size_t cap = 1024;
	struct fix_job *jobs = malloc(cap * sizeof *jobs);
	size_t n = 0;
	int rc;
	struct fix_job j;
	while ((rc = fix_dec_next(&d, &j)) == SCHED_OK) {
		if (n == cap) {
			cap *= 2;
			struct fix_job *more = realloc(jobs, cap * sizeof *jobs);
			if (more == NULL)
				abort();
			jobs = more;
		}
		jobs[n++] = j;
	}
	if (rc == FIX_END) {
		struct buf out = {malloc(size + 64), 0, size + 64};
		uint8_t head[FIX_HEADER_FIXED + 2 * (FIX_NAME_MAX + 1)];
		int hn = fix_header_encode(&d.hdr, head, sizeof head);
		if (hn < 0)
			abort();
		buf_write(&out, head, (size_t)hn);
		static struct fix_enc e;
		fix_enc_init(&e, d.hdr.fields, buf_write, &out);
		for (size_t i = 0; i < n; i++)
			fix_enc_job(&e, &jobs[i]);
		if (fix_enc_finish(&e) != SCHED_OK || e.bytes != d.hdr.records_bytes)
			abort();
		uint32_t crc = fix_crc32(0, out.p, out.n);
		uint8_t tail[4] = {(uint8_t)crc, (uint8_t)(crc >> 8), (uint8_t)(crc >> 16), (uint8_t)(crc >> 24)};
		buf_write(&out, tail, 4);
		if (out.n != size || memcmp(out.p, data, size) != 0)
			abort();
		free(out.p);
	}
	free(jobs);
	return 0;
}
