/* SPDX-License-Identifier: MIT */
/* Standard Workload Format reader: header keys, 18 numeric fields per job line, clear errors. */
#define _POSIX_C_SOURCE 200809L
#include "swf.h"
#include "sched/err.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define LINE_MAX_BYTES 4096

static bool is_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

static bool is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\0';
}

/* The field names of the format's documentation, for messages. */
static const char *const field_names[SWF_FIELDS] = {
	"job number", "submit time", "wait time", "run time", "allocated processors", "average CPU time",
	"used memory", "requested processors", "requested time", "requested memory", "status", "user",
	"group", "executable", "queue", "partition", "preceding job", "think time",
};

/*
 * Integers (the common case) are converted by hand, which is exact and
 * several times faster than strtod; a fraction or more than 18 digits goes
 * through strtod, which reads a plain decimal exactly as far as it goes.
 */
enum swf_num swf_number(const char *p, const char **end, double *out)
{
	const char *start = p;
	bool neg = *p == '-';
	p += neg;
	int64_t x = 0;
	int digits = 0, frac = 0;
	for (; isdigit((unsigned char)*p); p++)
		if (digits++ < 18)
			x = x * 10 + (*p - '0');
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			frac++;
	if (digits + frac == 0 || !is_sep(*p)) {
		/* Not plain: say whether it is a number written otherwise (1e9, 0x10, +5, inf) or none at all. */
		while (!is_sep(*p))
			p++;
		*end = p;
		char *q;
		(void)strtod(start, &q);
		return q == p && q != start ? SWF_NUM_NOT_PLAIN : SWF_NUM_SYNTAX;
	}
	*end = p;
	if (frac == 0 && digits <= 18)
		*out = neg ? -(double)x : (double)x;
	else
		*out = strtod(start, NULL); /* 400 digits read as inf: out of any range, as it should */
	*out += 0.0;                        /* -0 reads as 0 */
	return SWF_NUM_OK;
}

/* The header keys with a number, and the values each may take; TimeZoneString is text. */
enum header_key { H_MAX_PROCS, H_MAX_NODES, H_MAX_JOBS, H_MAX_RECORDS, H_UNIX_START, H_TIME_ZONE, H_KEYS };
static const struct {
	const char *name;
	double min, max;
} header_keys[H_KEYS] = {
	[H_MAX_PROCS] = {"MaxProcs", -1, SWF_VALUE_MAX},
	[H_MAX_NODES] = {"MaxNodes", -1, SWF_VALUE_MAX},
	[H_MAX_JOBS] = {"MaxJobs", -1, SWF_VALUE_MAX},
	[H_MAX_RECORDS] = {"MaxRecords", -1, SWF_VALUE_MAX},
	[H_UNIX_START] = {"UnixStartTime", 0, 253402300799.0}, /* up to 9999-12-31 23:59:59 UTC */
	[H_TIME_ZONE] = {"TimeZone", -86400, 86400},
};

/* The header key's value: an integer in its range, then the end or a blank and any text ("338 (batch ...)"). */
static bool header_value(struct swf_header *h, enum header_key k, const char *v, char *why, size_t wlen)
{
	const char *end;
	double x = 0;
	enum swf_num e = swf_number(v, &end, &x);
	int n = (int)(end - v) < 40 ? (int)(end - v) : 40;
	if (e != SWF_NUM_OK || x != floor(x)) {
		snprintf(why, wlen, "header %s: '%.*s' is not an integer (plain decimal digits)", header_keys[k].name,
			 n, v);
		return false;
	}
	if (x < header_keys[k].min || x > header_keys[k].max) {
		snprintf(why, wlen, "header %s: %.*s does not fit: allowed %.0f..%.0f", header_keys[k].name, n, v,
			 header_keys[k].min, header_keys[k].max);
		return false;
	}
	switch (k) {
	case H_MAX_PROCS: h->max_procs = (long)x; break;
	case H_MAX_NODES: h->max_nodes = (long)x; break;
	case H_MAX_JOBS: h->max_jobs = (long)x; break;
	case H_MAX_RECORDS: h->max_records = (long)x; break;
	case H_UNIX_START: h->unix_start = (int64_t)x; h->has_unix_start = true; break;
	case H_TIME_ZONE: h->tz_offset = (long)x; h->has_tz_offset = true; break;
	case H_KEYS: break;
	}
	return true;
}

/* One comment line: the keys above are read, any other line is kept as it is. false with a message in @p why. */
static bool parse_header_line(struct swf_header *h, const char *line, char *why, size_t wlen)
{
	const char *p = line + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	const char *colon = strchr(p, ':');
	if (colon == NULL)
		return true;
	size_t klen = (size_t)(colon - p);
	const char *v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	for (int k = 0; k < H_KEYS; k++)
		if (strlen(header_keys[k].name) == klen && strncmp(p, header_keys[k].name, klen) == 0)
			return header_value(h, (enum header_key)k, v, why, wlen);
	if (klen == sizeof "TimeZoneString" - 1 && strncmp(p, "TimeZoneString", klen) == 0) {
		size_t n = strcspn(v, " \t");
		if (n >= sizeof h->tz_name)
			n = sizeof h->tz_name - 1;
		memcpy(h->tz_name, v, n);
		h->tz_name[n] = '\0';
	}
	return true;
}

/* One job line's fields into @p v; false with the first fault, naming its field, in @p why. */
static bool parse_fields(const char *p, double *v, char *why, size_t wlen)
{
	int nf = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		if (nf == SWF_FIELDS) {
			snprintf(why, wlen, "more than %d fields", SWF_FIELDS);
			return false;
		}
		const char *end;
		enum swf_num e = swf_number(p, &end, &v[nf]);
		int n = (int)(end - p) < 40 ? (int)(end - p) : 40;
		if (e == SWF_NUM_SYNTAX) {
			snprintf(why, wlen, "field %d is not a number", nf + 1);
			return false;
		}
		if (e == SWF_NUM_NOT_PLAIN) {
			snprintf(why, wlen, "field %d (%s): '%.*s' is not a plain decimal (digits, a '-', a fraction)",
				 nf + 1, field_names[nf], n, p);
			return false;
		}
		if (v[nf] < SWF_VALUE_MIN || v[nf] > SWF_VALUE_MAX) {
			snprintf(why, wlen, "field %d (%s): %.*s does not fit: allowed %.0f..%.0f", nf + 1,
				 field_names[nf], n, p, SWF_VALUE_MIN, SWF_VALUE_MAX);
			return false;
		}
		p = end;
		nf++;
	}
	if (nf < SWF_FIELDS) {
		snprintf(why, wlen, "expected %d numeric fields, found %d", SWF_FIELDS, nf);
		return false;
	}
	return true;
}

/* Bad lines do not stop the reading: the first is described, the numbers of up to ten are kept. */
struct bad_lines {
	uint32_t n, lines[10];
	char first[200];
};

static void bad_line(struct bad_lines *b, uint32_t lineno, const char *why)
{
	if (b->n == 0)
		snprintf(b->first, sizeof b->first, "%s", why);
	if (b->n < 10)
		b->lines[b->n] = lineno;
	b->n++;
}

static int fail(char *err, size_t errlen, const char *path, uint32_t line, const char *msg)
{
	if (line > 0)
		snprintf(err, errlen, "%s:%u: %s", path, line, msg);
	else
		snprintf(err, errlen, "%s: %s", path, msg);
	return SCHED_E_FORMAT;
}

static int add_header_line(struct swf_header *h, const char *line)
{
	char **lines = realloc(h->lines, (h->n_lines + 1) * sizeof *lines);
	if (lines == NULL)
		return SCHED_E_NOSPACE;
	h->lines = lines;
	h->lines[h->n_lines] = strdup(line);
	if (h->lines[h->n_lines] == NULL)
		return SCHED_E_NOSPACE;
	h->n_lines++;
	return 0;
}

/*
 * A source of lines: fills buf (cap bytes, NUL-terminated, newline kept)
 * and returns 1, or 0 at the end, SCHED_E_IO on a read error (message in
 * *why), or SCHED_E_RANGE for a line that does not fit.
 */
typedef int (*line_fn)(void *ctx, char *buf, size_t cap, const char **why);

static int parse(const char *path, line_fn next, void *ctx, bool keep_text, struct swf_trace *t,
		 char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	t->hdr.max_procs = -1;
	t->hdr.max_nodes = -1;
	t->hdr.max_jobs = -1;
	t->hdr.max_records = -1;

	size_t cap = 0;
	char line[LINE_MAX_BYTES];
	uint32_t lineno = 0;
	double prev_submit = -INFINITY;
	int rc = 0, got;
	const char *why = NULL;
	struct bad_lines bad = {.n = 0};
	char why_line[200];
	struct swf_job one = {.line = 0}; /* without the text, each line is parsed here, its record kept */
	while ((got = next(ctx, line, sizeof line, &why)) == 1) {
		lineno++;
		size_t len = strlen(line);
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == ';') {
			if (!parse_header_line(&t->hdr, p, why_line, sizeof why_line))
				bad_line(&bad, lineno, why_line);
			if (add_header_line(&t->hdr, line) != 0) {
				rc = fail(err, errlen, path, lineno, "out of memory");
				break;
			}
			continue;
		}
		if (is_blank(p))
			continue;
		if (t->n == cap) {
			cap = cap ? cap * 2 : 4096;
			struct swf_job *text = keep_text ? realloc(t->text, cap * sizeof *text) : NULL;
			if (text != NULL)
				t->text = text;
			struct fix_job *jobs = realloc(t->jobs, cap * sizeof *jobs);
			if (jobs != NULL)
				t->jobs = jobs;
			if ((keep_text && text == NULL) || jobs == NULL) {
				rc = fail(err, errlen, path, lineno, "out of memory");
				break;
			}
		}
		struct swf_job *j = keep_text ? &t->text[t->n] : &one;
		j->line = lineno;
		if (!parse_fields(p, j->v, why_line, sizeof why_line)) {
			bad_line(&bad, lineno, why_line);
			continue;
		}
		for (int k = 0; k < SWF_FIELDS; k++)
			if (k != SWF_AVG_CPU && k != SWF_USED_MEM && k != SWF_REQ_MEM &&
			    j->v[k] != floor(j->v[k]))
				t->non_integral++;
		if (j->v[SWF_SUBMIT] < prev_submit)
			t->submit_backwards++;
		prev_submit = j->v[SWF_SUBMIT];
		swf_job_record(j, &t->jobs[t->n]);
		t->n++;
	}
	if (rc == 0 && got == SCHED_E_RANGE)
		rc = fail(err, errlen, path, lineno + 1, "line longer than 4095 bytes");
	else if (rc == 0 && got < 0) {
		/* Not the line's fault (a CRC is checked at the end of the data): where the reading stopped. */
		char msg[200];
		snprintf(msg, sizeof msg, lineno ? "%s (after line %u)" : "%s", why ? why : "read error", lineno);
		rc = fail(err, errlen, path, 0, msg);
	}
	if (rc == 0 && bad.n > 0) {
		char msg[440];
		int len = snprintf(msg, sizeof msg, "%s", bad.first);
		if (bad.n > 1) {
			len += snprintf(msg + len, sizeof msg - (size_t)len, "; %u more bad lines:", bad.n - 1);
			for (uint32_t i = 1; i < bad.n && i < 10 && len < (int)sizeof msg - 12; i++)
				len += snprintf(msg + len, sizeof msg - (size_t)len, " %u", bad.lines[i]);
			if (bad.n > 10 && len < (int)sizeof msg - 5)
				snprintf(msg + len, sizeof msg - (size_t)len, " ...");
		}
		rc = fail(err, errlen, path, bad.lines[0], msg);
	}
	if (rc == 0 && t->n == 0)
		rc = fail(err, errlen, path, 0, "no job lines in trace");
	if (rc != 0) {
		swf_free(t);
		return rc;
	}
	/* Give back what the doubling left unused (on a 312,807-job trace, 40%). */
	struct fix_job *fit = realloc(t->jobs, t->n * sizeof *fit);
	if (fit != NULL)
		t->jobs = fit;
	if (keep_text) {
		struct swf_job *tfit = realloc(t->text, t->n * sizeof *tfit);
		if (tfit != NULL)
			t->text = tfit;
	}
	return rc;
}

/*
 * A trace file, plain or gzip'd (one member or several, as gzip -d takes
 * them), inflated here rather than through gzgets: gzgets drops whatever
 * follows the last member without a word and puts the path in its own
 * messages, so a CRC error named it twice.
 */
struct file_src {
	FILE *f;
	z_stream z;
	bool gz, member_end; /* gzip'd; the last inflate ended a member */
	size_t pos, len;     /* the unread bytes of out */
	uint64_t trailing;   /* bytes after the last member, ignored */
	const char *why;
	char why_buf[120];
	unsigned char in[1 << 16], out[1 << 17];
};

/* At least @p need unread bytes of input, if the file has them; false on a read error. */
static bool fill_in(struct file_src *s, size_t need)
{
	if (s->z.avail_in >= need || feof(s->f))
		return true;
	memmove(s->in, s->z.next_in, s->z.avail_in);
	s->z.next_in = s->in;
	s->z.avail_in += (uInt)fread(s->in + s->z.avail_in, 1, sizeof s->in - s->z.avail_in, s->f);
	if (ferror(s->f)) {
		s->why = strerror(errno ? errno : EIO);
		return false;
	}
	return true;
}

/* After a member: another member, the end, or bytes that are no gzip data (counted, the caller warns). */
static int next_member(struct file_src *s)
{
	if (!fill_in(s, 2))
		return SCHED_E_IO;
	if (s->z.avail_in == 0)
		return 0;
	if (s->z.avail_in >= 2 && s->z.next_in[0] == 0x1f && s->z.next_in[1] == 0x8b) {
		s->member_end = false;
		return inflateReset(&s->z) == Z_OK ? 1 : SCHED_E_IO;
	}
	s->trailing += s->z.avail_in;
	s->z.avail_in = 0;
	while (!feof(s->f) && !ferror(s->f))
		s->trailing += fread(s->in, 1, sizeof s->in, s->f);
	return 0;
}

/* The next block of text into out: 1, 0 at the end, SCHED_E_IO with s->why. */
static int refill(struct file_src *s)
{
	s->pos = s->len = 0;
	if (!s->gz) {
		s->len = fread(s->out, 1, sizeof s->out, s->f);
		if (s->len == 0 && ferror(s->f)) {
			s->why = strerror(errno ? errno : EIO);
			return SCHED_E_IO;
		}
		return s->len > 0;
	}
	while (s->len == 0) {
		if (s->member_end) {
			int rc = next_member(s);
			if (rc <= 0)
				return rc;
		}
		if (!fill_in(s, 1))
			return SCHED_E_IO;
		s->z.next_out = s->out;
		s->z.avail_out = sizeof s->out;
		int rc = inflate(&s->z, Z_NO_FLUSH);
		s->len = sizeof s->out - s->z.avail_out;
		if (rc == Z_STREAM_END) {
			s->member_end = true;
		} else if (rc == Z_BUF_ERROR) { /* no input left to make progress with: fill_in found the end */
			s->why = "compressed data ends early: the .gz is truncated";
			return SCHED_E_IO;
		} else if (rc != Z_OK) {
			/* zlib's "incorrect data check": the gzip trailer's CRC-32 does not match the data */
			snprintf(s->why_buf, sizeof s->why_buf, "the .gz is damaged: %s",
				 rc == Z_MEM_ERROR ? "out of memory" : s->z.msg ? s->z.msg : "corrupt compressed data");
			s->why = s->why_buf;
			return SCHED_E_IO;
		}
	}
	return 1;
}

static int file_line(void *ctx, char *buf, size_t cap, const char **why)
{
	struct file_src *s = ctx;
	size_t n = 0;
	while (n < cap - 1) {
		if (s->pos == s->len) {
			int rc = refill(s);
			if (rc < 0) {
				*why = s->why;
				return rc;
			}
			if (rc == 0)
				break;
		}
		const unsigned char *at = s->out + s->pos;
		const unsigned char *nl = memchr(at, '\n', s->len - s->pos);
		size_t take = nl ? (size_t)(nl - at) + 1 : s->len - s->pos;
		if (take > cap - 1 - n)
			take = cap - 1 - n;
		memcpy(buf + n, at, take);
		/* A NUL would end the line early: a separator, as in mem_line. */
		for (char *z = memchr(buf + n, '\0', take); z != NULL; z = memchr(z, '\0', (size_t)(buf + n + take - z)))
			*z = ' ';
		n += take;
		s->pos += take;
		if (buf[n - 1] == '\n')
			break;
	}
	buf[n] = '\0';
	if (n == cap - 1 && buf[n - 1] != '\n') {
		int rc = s->pos < s->len ? 1 : refill(s);
		if (rc < 0) {
			*why = s->why;
			return rc;
		}
		if (rc > 0)
			return SCHED_E_RANGE;
	}
	return n > 0;
}

static int read_file(const char *path, bool keep_text, struct swf_trace *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	struct file_src *s = calloc(1, sizeof *s);
	if (s == NULL)
		return fail(err, errlen, path, 0, "out of memory");
	s->z.next_in = s->in;
	errno = 0;
	s->f = fopen(path, "rb");
	if (s->f == NULL) {
		(void)fail(err, errlen, path, 0, errno ? strerror(errno) : "cannot open");
		free(s);
		return SCHED_E_NOENT;
	}
	int rc = fill_in(s, 2) ? SCHED_OK : fail(err, errlen, path, 0, s->why);
	s->gz = s->z.avail_in >= 2 && s->z.next_in[0] == 0x1f && s->z.next_in[1] == 0x8b;
	if (rc == SCHED_OK && s->gz && inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK)
		rc = fail(err, errlen, path, 0, "out of memory");
	if (rc == SCHED_OK && !s->gz) {
		/* Plain text: what fill_in read is the first block. */
		memcpy(s->out, s->in, s->z.avail_in);
		s->len = s->z.avail_in;
	}
	if (rc == SCHED_OK)
		rc = parse(path, file_line, s, keep_text, t, err, errlen);
	if (rc == SCHED_OK)
		t->trailing = s->trailing;
	if (s->gz)
		inflateEnd(&s->z);
	fclose(s->f);
	free(s);
	return rc;
}

int swf_read(const char *path, struct swf_trace *t, char *err, size_t errlen)
{
	return read_file(path, true, t, err, errlen);
}

int swf_read_jobs(const char *path, struct swf_trace *t, char *err, size_t errlen)
{
	return read_file(path, false, t, err, errlen);
}

struct mem_lines {
	const char *p, *end;
};

static int mem_line(void *ctx, char *buf, size_t cap, const char **why)
{
	(void)why;
	struct mem_lines *m = ctx;
	if (m->p >= m->end)
		return 0;
	size_t n = 0;
	while (m->p < m->end && n < cap - 1) {
		char c = *m->p++;
		/* A NUL inside a line would end it early: read it as a field separator instead. */
		buf[n++] = c == '\0' ? ' ' : c;
		if (c == '\n')
			break;
	}
	buf[n] = '\0';
	if (n == cap - 1 && buf[n - 1] != '\n' && m->p < m->end)
		return SCHED_E_RANGE;
	return 1;
}

int swf_parse_buffer(const char *name, const char *data, size_t len, struct swf_trace *t, char *err,
		     size_t errlen)
{
	struct mem_lines m = {data, data + len};
	return parse(name, mem_line, &m, true, t, err, errlen);
}

void swf_free(struct swf_trace *t)
{
	for (size_t i = 0; i < t->hdr.n_lines; i++)
		free(t->hdr.lines[i]);
	free(t->hdr.lines);
	free(t->jobs);
	free(t->text);
	memset(t, 0, sizeof *t);
}

long swf_machine_size(const struct swf_header *h)
{
	if (h->max_procs > 0)
		return h->max_procs;
	if (h->max_nodes > 0)
		return h->max_nodes;
	return -1;
}

void swf_print_value(FILE *f, double v)
{
	if (v == floor(v) && fabs(v) < 9e15) {
		fprintf(f, "%lld", (long long)v);
		return;
	}
	/* %g would write 1e-07, which the reader refuses: %f with the fewest decimals that read back. */
	char buf[400];
	for (int prec = 1; prec <= 340; prec++) {
		snprintf(buf, sizeof buf, "%.*f", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

void swf_print_job(FILE *f, const double *v)
{
	for (int k = 0; k < SWF_FIELDS; k++) {
		if (k)
			fputc(' ', f);
		swf_print_value(f, v[k]);
	}
	fputc('\n', f);
}

static int32_t to_i32(double v)
{
	if (v >= 2147483647.0)
		return INT32_MAX;
	if (v <= -2147483648.0)
		return INT32_MIN;
	return (int32_t)v;
}

void swf_job_record(const struct swf_job *in, struct fix_job *out)
{
	const double *v = in->v;
	*out = (struct fix_job){
		.job = to_i32(v[SWF_JOB]), .submit = to_i32(v[SWF_SUBMIT]), .run = to_i32(v[SWF_RUN]),
		.alloc_procs = to_i32(v[SWF_ALLOC_PROCS]), .req_procs = to_i32(v[SWF_REQ_PROCS]),
		.req_time = to_i32(v[SWF_REQ_TIME]), .status = to_i32(v[SWF_STATUS]),
		.user = to_i32(v[SWF_USER]), .group = to_i32(v[SWF_GROUP]),
		.queue = to_i32(v[SWF_QUEUE]), .partition = to_i32(v[SWF_PARTITION]),
	};
}

void swf_job_values(const struct swf_trace *t, size_t i, double v[SWF_FIELDS])
{
	if (t->text != NULL) {
		memcpy(v, t->text[i].v, SWF_FIELDS * sizeof v[0]);
		return;
	}
	const struct fix_job *j = &t->jobs[i];
	for (int k = 0; k < SWF_FIELDS; k++)
		v[k] = -1;
	v[SWF_JOB] = j->job;
	v[SWF_SUBMIT] = j->submit;
	v[SWF_RUN] = j->run;
	v[SWF_ALLOC_PROCS] = j->alloc_procs;
	v[SWF_REQ_PROCS] = j->req_procs;
	v[SWF_REQ_TIME] = j->req_time;
	v[SWF_STATUS] = j->status;
	v[SWF_USER] = j->user;
	v[SWF_GROUP] = j->group;
	v[SWF_QUEUE] = j->queue;
	v[SWF_PARTITION] = j->partition;
}
