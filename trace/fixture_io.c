/* SPDX-License-Identifier: MIT */
/* Host-side fixture files: streaming reads through the core's decoder, writes through its encoder. */
#define _POSIX_C_SOURCE 200809L
#include "fixture_io.h"
#include "sched/err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One field of a record, by its SWF field number. */
static int32_t field_of(const struct fix_job *j, enum fix_field f)
{
	switch (f) {
	case FIX_F_JOB: return j->job;
	case FIX_F_SUBMIT: return j->submit;
	case FIX_F_RUN: return j->run;
	case FIX_F_ALLOC_PROCS: return j->alloc_procs;
	case FIX_F_REQ_PROCS: return j->req_procs;
	case FIX_F_REQ_TIME: return j->req_time;
	case FIX_F_STATUS: return j->status;
	case FIX_F_USER: return j->user;
	case FIX_F_GROUP: return j->group;
	case FIX_F_QUEUE: return j->queue;
	case FIX_F_PARTITION: return j->partition;
	}
	return -1;
}

static long file_read(void *ctx, uint8_t *buf, size_t n)
{
	FILE *f = ctx;
	size_t got = fread(buf, 1, n, f);
	if (got == 0 && ferror(f))
		return SCHED_E_IO;
	return (long)got;
}

bool fixture_is(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return false;
	char magic[4];
	bool yes = fread(magic, 1, 4, f) == 4 && memcmp(magic, FIX_MAGIC, 4) == 0;
	fclose(f);
	return yes;
}

__attribute__((format(printf, 2, 3)))
static int add_line(struct swf_header *h, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	char **lines = realloc(h->lines, (h->n_lines + 1) * sizeof *lines);
	if (lines == NULL)
		return SCHED_E_NOSPACE;
	h->lines = lines;
	if ((h->lines[h->n_lines] = strdup(buf)) == NULL)
		return SCHED_E_NOSPACE;
	h->n_lines++;
	return 0;
}

int fixture_load(const char *path, struct swf_trace *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	t->hdr.max_procs = t->hdr.max_nodes = -1;
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return SCHED_E_NOENT;
	}
	static struct fix_dec d; /* about 700 bytes; static keeps it off small stacks */
	int rc = fix_dec_init(&d, file_read, f);
	if (rc == SCHED_OK) {
		const struct fix_header *fh = &d.hdr;
		struct swf_header *h = &t->hdr;
		if (fh->max_procs)
			h->max_procs = (long)fh->max_procs;
		if (fh->max_nodes)
			h->max_nodes = (long)fh->max_nodes;
		h->has_unix_start = fh->has_unix_start;
		h->unix_start = fh->unix_start;
		h->has_tz_offset = fh->has_tz_offset;
		h->tz_offset = fh->tz_offset;
		snprintf(h->tz_name, sizeof h->tz_name, "%s", fh->tz_name);
		snprintf(t->source, sizeof t->source, "%s", fh->source);
		int e = add_line(h, "; Note: decoded from fixture %s (source %s)", path, fh->source);
		if (h->max_nodes > 0)
			e |= add_line(h, "; MaxNodes: %ld", h->max_nodes);
		if (h->max_procs > 0)
			e |= add_line(h, "; MaxProcs: %ld", h->max_procs);
		if (h->has_unix_start)
			e |= add_line(h, "; UnixStartTime: %lld", (long long)h->unix_start);
		if (h->has_tz_offset)
			e |= add_line(h, "; TimeZone: %ld", h->tz_offset);
		if (h->tz_name[0])
			e |= add_line(h, "; TimeZoneString: %s", h->tz_name);
		/* Never size from the header alone: it is read before the CRC is checked. */
		const size_t first_cap = (size_t)1 << 20;
		size_t cap = fh->jobs == 0 ? 1 : fh->jobs < first_cap ? fh->jobs : first_cap;
		t->jobs = malloc(cap * sizeof *t->jobs);
		if (e != 0 || t->jobs == NULL) {
			snprintf(err, errlen, "%s: out of memory", path);
			fclose(f);
			swf_free(t);
			return SCHED_E_NOSPACE;
		}
		struct fix_job j;
		while ((rc = fix_dec_next(&d, &j)) == SCHED_OK) {
			if (t->n == cap) {
				cap *= 2;
				struct fix_job *more = realloc(t->jobs, cap * sizeof *more);
				if (more == NULL) {
					rc = SCHED_E_IO;
					break;
				}
				t->jobs = more;
			}
			t->jobs[t->n] = j;
			if (t->n > 0 && j.submit < t->jobs[t->n - 1].submit)
				t->submit_backwards++;
			t->n++;
		}
		if (rc == FIX_END)
			rc = SCHED_OK;
	}
	fclose(f);
	if (rc != SCHED_OK) {
		/* Say where: in the header, in a record, or after the last record. */
		if (t->jobs == NULL)
			snprintf(err, errlen, "%s: %s (in the header)", path, sched_strerror(rc));
		else if (d.jobs_done < d.hdr.jobs)
			snprintf(err, errlen, "%s: %s (at job %u of %u)", path, sched_strerror(rc),
				 d.jobs_done + 1, d.hdr.jobs);
		else
			snprintf(err, errlen, "%s: %s (after all %u jobs)", path, sched_strerror(rc), d.hdr.jobs);
		swf_free(t);
		return SCHED_E_FORMAT;
	}
	if (t->n == 0) {
		snprintf(err, errlen, "%s: no job lines in trace", path);
		swf_free(t);
		return SCHED_E_NOENT;
	}
	return 0;
}

struct membuf {
	uint8_t *p;
	size_t n, cap;
};

static int mem_write(void *ctx, const uint8_t *buf, size_t n)
{
	struct membuf *m = ctx;
	if (m->n + n > m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 1 << 16;
		while (cap < m->n + n)
			cap *= 2;
		uint8_t *p = realloc(m->p, cap);
		if (p == NULL)
			return SCHED_E_NOSPACE;
		m->p = p;
		m->cap = cap;
	}
	memcpy(m->p + m->n, buf, n);
	m->n += n;
	return 0;
}

int fixture_save(const char *path, const struct swf_trace *t, const char *source, size_t *bytes,
		 char *err, size_t errlen)
{
	struct fix_header h;
	memset(&h, 0, sizeof h);
	h.version = FIX_VERSION;
	h.jobs = (uint32_t)t->n;
	h.max_procs = t->hdr.max_procs > 0 ? (uint32_t)t->hdr.max_procs : 0;
	h.max_nodes = t->hdr.max_nodes > 0 ? (uint32_t)t->hdr.max_nodes : 0;
	h.has_unix_start = t->hdr.has_unix_start;
	h.unix_start = t->hdr.unix_start;
	h.has_tz_offset = t->hdr.has_tz_offset;
	h.tz_offset = (int32_t)t->hdr.tz_offset;
	snprintf(h.tz_name, sizeof h.tz_name, "%s", t->hdr.tz_name);
	snprintf(h.source, sizeof h.source, "%s", source);
	/* A field is stored when any job knows it. */
	static const enum fix_field kept[] = {
		FIX_F_JOB, FIX_F_SUBMIT, FIX_F_RUN, FIX_F_ALLOC_PROCS, FIX_F_REQ_PROCS, FIX_F_REQ_TIME,
		FIX_F_STATUS, FIX_F_USER, FIX_F_GROUP, FIX_F_QUEUE, FIX_F_PARTITION,
	};
	for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++)
		for (size_t i = 0; i < t->n; i++)
			if (field_of(&t->jobs[i], kept[k]) != -1) {
				h.fields |= FIX_FIELD_BIT(kept[k]);
				break;
			}

	struct membuf rec = {0};
	static struct fix_enc e;
	fix_enc_init(&e, h.fields, mem_write, &rec);
	for (size_t i = 0; i < t->n; i++)
		fix_enc_job(&e, &t->jobs[i]);
	if (fix_enc_finish(&e) != SCHED_OK) {
		free(rec.p);
		snprintf(err, errlen, "%s: out of memory", path);
		return SCHED_E_NOSPACE;
	}
	h.records_bytes = (uint32_t)rec.n;
	uint8_t head[FIX_HEADER_FIXED + 2 * (FIX_NAME_MAX + 1)];
	int hn = fix_header_encode(&h, head, sizeof head);
	if (hn < 0) {
		free(rec.p);
		snprintf(err, errlen, "%s: %s", path, sched_strerror(hn));
		return SCHED_E_FORMAT;
	}
	uint32_t crc = fix_crc32(0, head, (size_t)hn);
	crc = fix_crc32(crc, rec.p, rec.n);
	uint8_t tail[4] = {(uint8_t)crc, (uint8_t)(crc >> 8), (uint8_t)(crc >> 16), (uint8_t)(crc >> 24)};
	FILE *f = fopen(path, "wb");
	int ok = f != NULL && fwrite(head, 1, (size_t)hn, f) == (size_t)hn &&
		 fwrite(rec.p, 1, rec.n, f) == rec.n && fwrite(tail, 1, 4, f) == 4;
	if (f != NULL && fclose(f) != 0)
		ok = 0;
	free(rec.p);
	if (!ok) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno ? errno : EIO));
		unlink(path);
		return SCHED_E_STATE;
	}
	*bytes = (size_t)hn + rec.n + 4;
	return SCHED_OK;
}

int trace_load(const char *path, bool keep_text, struct swf_trace *t, char *err, size_t errlen)
{
	if (fixture_is(path))
		return fixture_load(path, t, err, errlen);
	return keep_text ? swf_read(path, t, err, errlen) : swf_read_jobs(path, t, err, errlen);
}
