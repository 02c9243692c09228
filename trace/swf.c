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

/* Parse the integer that starts a header value; trailing text ("338 (batch ...)") is allowed. */
static bool header_long(const char *v, long *out)
{
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (end == v || errno != 0)
		return false;
	*out = x;
	return true;
}

static void parse_header_line(struct swf_header *h, const char *line)
{
	const char *p = line + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	const char *colon = strchr(p, ':');
	if (colon == NULL)
		return;
	size_t klen = (size_t)(colon - p);
	const char *v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;
#define KEY(k) (klen == sizeof(k) - 1 && strncmp(p, k, klen) == 0)
	if (KEY("MaxProcs")) {
		(void)header_long(v, &h->max_procs);
	} else if (KEY("MaxJobs")) {
		(void)header_long(v, &h->max_jobs);
	} else if (KEY("MaxRecords")) {
		(void)header_long(v, &h->max_records);
	} else if (KEY("MaxNodes")) {
		(void)header_long(v, &h->max_nodes);
	} else if (KEY("UnixStartTime")) {
		long x;
		if (header_long(v, &x)) {
			h->unix_start = x;
			h->has_unix_start = true;
		}
	} else if (KEY("TimeZone")) {
		h->has_tz_offset = header_long(v, &h->tz_offset);
	} else if (KEY("TimeZoneString")) {
		size_t n = strcspn(v, " \t");
		if (n >= sizeof h->tz_name)
			n = sizeof h->tz_name - 1;
		memcpy(h->tz_name, v, n);
		h->tz_name[n] = '\0';
	}
#undef KEY
}

/*
 * One numeric field. Integers (the common case) are parsed by hand, which
 * is exact and several times faster than strtod; anything with a fraction
 * or exponent goes through strtod. Returns the position after the field,
 * or NULL if the token is not a finite number.
 */
static const char *parse_number(const char *p, double *out)
{
	const char *start = p;
	bool neg = false;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (!isdigit((unsigned char)*p) && *p != '.')
		return NULL;
	int64_t x = 0;
	int digits = 0;
	while (isdigit((unsigned char)*p)) {
		if (digits++ < 18)
			x = x * 10 + (*p - '0');
		p++;
	}
	if (digits <= 18 && (*p == ' ' || *p == '\t' || *p == '\0')) {
		*out = neg ? -(double)x : (double)x;
		*out += 0.0; /* -0 reads as 0 */
		return p;
	}
	char *end;
	errno = 0;
	double d = strtod(start, &end);
	if (end == start || errno == ERANGE || !isfinite(d))
		return NULL;
	if (*end != ' ' && *end != '\t' && *end != '\0')
		return NULL;
	*out = d + 0.0; /* -0 reads as 0 */
	return end;
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
	/* Bad job lines do not stop the reading: all of them are reported, then it fails. */
	uint32_t bad = 0, bad_lines[10];
	char first_bad[160] = "";
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
			parse_header_line(&t->hdr, p);
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
		int nf = 0;
		while (nf < SWF_FIELDS) {
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == '\0')
				break;
			const char *q = parse_number(p, &j->v[nf]);
			if (q == NULL)
				break;
			p = q;
			nf++;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (nf < SWF_FIELDS || *p != '\0') {
			if (bad == 0) {
				if (nf < SWF_FIELDS && *p != '\0')
					snprintf(first_bad, sizeof first_bad, "field %d is not a number", nf + 1);
				else if (nf < SWF_FIELDS)
					snprintf(first_bad, sizeof first_bad,
						 "expected %d numeric fields, found %d", SWF_FIELDS, nf);
				else
					snprintf(first_bad, sizeof first_bad, "more than %d fields", SWF_FIELDS);
				bad_lines[0] = lineno;
			} else if (bad < 10) {
				bad_lines[bad] = lineno;
			}
			bad++;
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
	else if (rc == 0 && got < 0)
		rc = fail(err, errlen, path, lineno, why ? why : "read error");
	if (rc == 0 && bad > 0) {
		char msg[400];
		int len = snprintf(msg, sizeof msg, "%s", first_bad);
		if (bad > 1) {
			len += snprintf(msg + len, sizeof msg - (size_t)len, "; %u more bad lines:", bad - 1);
			for (uint32_t i = 1; i < bad && i < 10 && len < (int)sizeof msg - 12; i++)
				len += snprintf(msg + len, sizeof msg - (size_t)len, " %u", bad_lines[i]);
			if (bad > 10 && len < (int)sizeof msg - 5)
				snprintf(msg + len, sizeof msg - (size_t)len, " ...");
		}
		rc = fail(err, errlen, path, bad_lines[0], msg);
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

static int gz_line(void *ctx, char *buf, size_t cap, const char **why)
{
	gzFile gz = ctx;
	if (gzgets(gz, buf, (int)cap) == NULL) {
		int zerr;
		const char *msg = gzerror(gz, &zerr);
		if (zerr == Z_BUF_ERROR) {
			*why = "compressed data ends early (truncated .gz)";
			return SCHED_E_IO;
		}
		if (zerr != Z_OK) {
			*why = msg;
			return SCHED_E_IO;
		}
		return 0;
	}
	size_t len = strlen(buf);
	if (len == cap - 1 && buf[len - 1] != '\n' && !gzeof(gz))
		return SCHED_E_RANGE;
	return 1;
}

static int read_file(const char *path, bool keep_text, struct swf_trace *t, char *err, size_t errlen)
{
	gzFile gz = gzopen(path, "rb");
	if (gz == NULL) {
		memset(t, 0, sizeof *t);
		(void)fail(err, errlen, path, 0, errno ? strerror(errno) : "cannot open");
		return SCHED_E_NOENT;
	}
	gzbuffer(gz, 1 << 17);
	int rc = parse(path, gz_line, gz, keep_text, t, err, errlen);
	gzclose(gz);
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
	char buf[40];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
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
