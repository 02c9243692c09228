/* SPDX-License-Identifier: MIT */
/* Experiment files for build/sweep: the parser and the cells (sweep_exp.h has the format). */
#include "sweep_exp.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/hash.h"

/*
 * Options the sweep sets or that would break its one-CSV-per-cell contract: the report's format, the
 * side files (their paths would repeat across cells), the lines --hash adds after the CSV, progress.
 */
static const char *const reserved[] = {
	"--format", "--jobs-out", "--events-out", "--events-plans", "--gantt", "--gantt-from", "--gantt-to",
	"--timeline", "--timeline-svg", "--hash", "--progress", "--quiet", "--help", "-h", NULL,
};

struct parser {
	const char *path;
	int line;
	char *err;
	size_t errlen;
};

static int fail(struct parser *p, const char *fmt, ...)
{
	int n = p->line > 0 ? snprintf(p->err, p->errlen, "%s:%d: ", p->path, p->line)
			    : snprintf(p->err, p->errlen, "%s: ", p->path);
	va_list ap;
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < p->errlen)
		vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return SCHED_E_FORMAT;
}

static void *xcalloc(size_t n, size_t size)
{
	void *q = calloc(n ? n : 1, size);
	if (q == NULL) {
		fputs("sweep: out of memory\n", stderr);
		exit(1);
	}
	return q;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = xcalloc(n, 1);
	memcpy(d, s, n);
	return d;
}

static int is_reserved(const char *arg)
{
	size_t n = strcspn(arg, "=");
	for (int i = 0; reserved[i] != NULL; i++)
		if (strlen(reserved[i]) == n && strncmp(arg, reserved[i], n) == 0)
			return 1;
	return 0;
}

static int check_args(struct parser *p, char **tok, int n)
{
	for (int i = 0; i < n; i++)
		if (is_reserved(tok[i]))
			return fail(p, "%s is set by the sweep itself or would clash between cells: leave it out",
				    tok[i]);
	return 0;
}

/* A value of @p argc arguments copied from @p tok, labelled by @p label (or the arguments joined). */
static void value_set(struct sweep_value *v, char **tok, int argc, const char *label)
{
	v->argv = xcalloc((size_t)argc, sizeof *v->argv);
	v->argc = argc;
	size_t len = 1;
	for (int i = 0; i < argc; i++) {
		v->argv[i] = xstrdup(tok[i]);
		len += strlen(tok[i]) + 1;
	}
	if (label != NULL) {
		v->label = xstrdup(label);
		return;
	}
	v->label = xcalloc(len, 1);
	for (int i = 0; i < argc; i++) {
		if (i > 0)
			strcat(v->label, " ");
		strcat(v->label, tok[i]);
	}
}

static struct sweep_axis *new_axis(struct parser *p, struct sweep_exp *e, const char *name, int count)
{
	if (e->naxes == SWEEP_MAX_AXES) {
		fail(p, "more than %d axes", SWEEP_MAX_AXES);
		return NULL;
	}
	for (int i = 0; i < e->naxes; i++)
		if (strcmp(e->axes[i].name, name) == 0) {
			fail(p, "a second axis named '%s' (its column would repeat)", name);
			return NULL;
		}
	if (count == 0) {
		fail(p, "axis '%s' has no values", name);
		return NULL;
	}
	if (e->ncells > SWEEP_MAX_CELLS / (uint64_t)count) {
		fail(p, "more than %u cells", SWEEP_MAX_CELLS);
		return NULL;
	}
	struct sweep_axis *a = &e->axes[e->naxes++];
	a->name = xstrdup(name);
	a->values = xcalloc((size_t)count, sizeof *a->values);
	a->count = count;
	e->ncells *= (uint64_t)count;
	return a;
}

/* seeds A-B or seeds S...: --seed S for each. */
static int parse_seeds(struct parser *p, struct sweep_exp *e, char **tok, int n)
{
	long lo = 0, hi = -1;
	char *end;
	if (n == 1 && strchr(tok[0], '-') != NULL) {
		lo = strtol(tok[0], &end, 10);
		if (*end != '-' || end == tok[0])
			return fail(p, "seeds takes A-B or a list of numbers, not '%s'", tok[0]);
		hi = strtol(end + 1, &end, 10);
		if (*end != '\0' || lo < 0 || hi < lo || hi - lo >= (long)SWEEP_MAX_CELLS)
			return fail(p, "seeds takes A-B with 0 <= A <= B, not '%s'", tok[0]);
	}
	int count = hi >= lo ? (int)(hi - lo + 1) : n;
	struct sweep_axis *a = new_axis(p, e, "seed", count);
	if (a == NULL)
		return SCHED_E_FORMAT;
	for (int i = 0; i < count; i++) {
		char num[24];
		if (hi >= lo) {
			snprintf(num, sizeof num, "%ld", lo + i);
		} else {
			long s = strtol(tok[i], &end, 10);
			if (*end != '\0' || end == tok[i] || s < 0)
				return fail(p, "seeds takes whole numbers >= 0, not '%s'", tok[i]);
			snprintf(num, sizeof num, "%ld", s);
		}
		char *args[2] = {"--seed", num};
		value_set(&a->values[i], args, 2, num);
	}
	return 0;
}

/* axis NAME ARGS | ARGS | ...: each group one value. */
static int parse_axis(struct parser *p, struct sweep_exp *e, char **tok, int n)
{
	if (n < 2)
		return fail(p, "axis takes a name and groups of arguments separated by '|'");
	int count = 1;
	for (int i = 1; i < n; i++)
		count += strcmp(tok[i], "|") == 0;
	struct sweep_axis *a = new_axis(p, e, tok[0], count);
	if (a == NULL)
		return SCHED_E_FORMAT;
	int start = 1, k = 0;
	for (int i = 1; i <= n; i++) {
		if (i < n && strcmp(tok[i], "|") != 0)
			continue;
		/* "LABEL: ARGS": the column shows LABEL rather than the arguments joined. */
		const char *label = NULL;
		size_t len = i > start ? strlen(tok[start]) : 0;
		if (len > 1 && tok[start][len - 1] == ':') {
			tok[start][len - 1] = '\0';
			label = tok[start++];
		}
		if (i == start)
			return fail(p, "axis '%s': an empty group of arguments", tok[0]);
		value_set(&a->values[k++], tok + start, i - start, label);
		start = i + 1;
	}
	return 0;
}

static int parse_line(struct parser *p, struct sweep_exp *e, char **tok, int n)
{
	const char *kw = tok[0];
	char **rest = tok + 1;
	int m = n - 1;
	if (strcmp(kw, "name") == 0) {
		if (m != 1)
			return fail(p, "name takes one word");
		free(e->name);
		e->name = xstrdup(rest[0]);
		return 0;
	}
	if (check_args(p, rest, m) != 0)
		return SCHED_E_FORMAT;
	if (strcmp(kw, "set") == 0) {
		char **f = realloc(e->fixed, (size_t)(e->nfixed + m + 1) * sizeof *f);
		if (f == NULL)
			return fail(p, "out of memory");
		e->fixed = f;
		for (int i = 0; i < m; i++)
			e->fixed[e->nfixed++] = xstrdup(rest[i]);
		return 0;
	}
	if (strcmp(kw, "seeds") == 0)
		return m == 0 ? fail(p, "seeds has no values") : parse_seeds(p, e, rest, m);
	if (strcmp(kw, "axis") == 0)
		return parse_axis(p, e, rest, m);
	if (strcmp(kw, "trace") == 0 || strcmp(kw, "policy") == 0) {
		struct sweep_axis *a = new_axis(p, e, kw, m);
		if (a == NULL)
			return SCHED_E_FORMAT;
		a->is_trace = kw[0] == 't';
		for (int i = 0; i < m; i++) {
			if (a->is_trace) {
				value_set(&a->values[i], rest + i, 1, NULL);
			} else {
				char *args[2] = {"--policy", rest[i]};
				value_set(&a->values[i], args, 2, rest[i]);
			}
		}
		return 0;
	}
	if (strcmp(kw, "vary") == 0) {
		if (m < 1 || strncmp(rest[0], "--", 2) != 0 || strchr(rest[0], '=') != NULL)
			return fail(p, "vary takes --OPTION and its values (vary --shrink 1 0.8 0.6)");
		struct sweep_axis *a = new_axis(p, e, rest[0] + 2, m - 1);
		if (a == NULL)
			return SCHED_E_FORMAT;
		for (int i = 1; i < m; i++) {
			char *args[2] = {rest[0], rest[i]};
			value_set(&a->values[i - 1], args, 2, rest[i]);
		}
		return 0;
	}
	return fail(p, "unknown keyword '%s' (name, trace, policy, vary, seeds, axis, set)", kw);
}

/* Split @p s (modified) at blanks into at most @p max tokens. */
static int tokenize(char *s, char **tok, int max)
{
	int n = 0;
	for (char *t = strtok(s, " \t\r"); t != NULL && n < max; t = strtok(NULL, " \t\r"))
		tok[n++] = t;
	return n;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	size_t cap = 4096, len = 0, got;
	char *buf = xcalloc(cap, 1);
	while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (cap - len < 2) {
			char *b = realloc(buf, cap * 2);
			if (b == NULL) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static const char *base_name(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	snprintf(out, len, "%s", b);
	char *dot = strrchr(out, '.');
	if (dot != NULL && dot != out)
		*dot = '\0';
	return out;
}

int sweep_exp_load(struct sweep_exp *e, const char *path, char *err, size_t errlen)
{
	struct parser p = {path, 0, err, errlen};
	memset(e, 0, sizeof *e);
	e->ncells = 1;
	char *text = read_all(path);
	if (text == NULL)
		return fail(&p, "cannot read the experiment file: %s", strerror(errno));
	enum { MAX_TOK = 4096 };
	char **tok = xcalloc(MAX_TOK, sizeof *tok);
	int rc = 0;
	char *s = text;
	while (rc == 0 && *s != '\0') {
		/* One logical line: physical lines joined where one ends in a backslash. */
		char *start = s, *w = s;
		int first = p.line + 1;
		for (;;) {
			char *nl = strchr(s, '\n');
			size_t len = nl ? (size_t)(nl - s) : strlen(s);
			p.line++;
			char *hash = memchr(s, '#', len);
			size_t keep = hash ? (size_t)(hash - s) : len;
			while (keep > 0 && (s[keep - 1] == ' ' || s[keep - 1] == '\t' || s[keep - 1] == '\r'))
				keep--;
			int more = keep > 0 && s[keep - 1] == '\\' && nl != NULL;
			if (more)
				keep--;
			memmove(w, s, keep);
			w += keep;
			s = nl ? nl + 1 : s + len;
			if (!more)
				break;
			*w++ = ' ';
		}
		*w = '\0';
		int n = tokenize(start, tok, MAX_TOK);
		if (n == MAX_TOK) {
			rc = fail(&p, "more than %d words on one line", MAX_TOK - 1);
		} else if (n > 0) {
			int here = p.line;
			p.line = first; /* errors name the line the keyword is on */
			rc = parse_line(&p, e, tok, n);
			p.line = here;
		}
	}
	free(tok);
	free(text);
	if (rc == 0) {
		int traces = 0;
		for (int i = 0; i < e->naxes; i++)
			traces += e->axes[i].is_trace;
		if (traces == 0 && e->naxes == 0 && e->nfixed == 0)
			rc = fail(&p, "no axes and no arguments: nothing to run");
	}
	if (rc == 0 && e->name == NULL) {
		char b[256];
		e->name = xstrdup(base_name(path, b, sizeof b));
	}
	if (rc != 0)
		sweep_exp_free(e);
	return rc;
}

void sweep_exp_free(struct sweep_exp *e)
{
	for (int i = 0; i < e->naxes; i++) {
		struct sweep_axis *a = &e->axes[i];
		for (int k = 0; k < a->count; k++) {
			for (int j = 0; j < a->values[k].argc; j++)
				free(a->values[k].argv[j]);
			free(a->values[k].argv);
			free(a->values[k].label);
		}
		free(a->values);
		free(a->name);
	}
	for (int i = 0; i < e->nfixed; i++)
		free(e->fixed[i]);
	free(e->fixed);
	free(e->name);
	memset(e, 0, sizeof *e);
}

int sweep_exp_max_args(const struct sweep_exp *e)
{
	int n = e->nfixed;
	for (int i = 0; i < e->naxes; i++) {
		int most = 0;
		for (int k = 0; k < e->axes[i].count; k++)
			if (e->axes[i].values[k].argc > most)
				most = e->axes[i].values[k].argc;
		n += most;
	}
	return n;
}

int sweep_exp_cell_args(const struct sweep_exp *e, uint64_t cell, char **argv, int *pick)
{
	int idx[SWEEP_MAX_AXES];
	for (int i = e->naxes - 1; i >= 0; i--) {
		idx[i] = (int)(cell % (uint64_t)e->axes[i].count);
		cell /= (uint64_t)e->axes[i].count;
		if (pick != NULL)
			pick[i] = idx[i];
	}
	int n = 0;
	for (int i = 0; i < e->nfixed; i++)
		argv[n++] = e->fixed[i];
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < e->naxes; i++) {
			if (e->axes[i].is_trace != pass)
				continue;
			const struct sweep_value *v = &e->axes[i].values[idx[i]];
			for (int j = 0; j < v->argc; j++)
				argv[n++] = v->argv[j];
		}
	return n;
}

uint64_t sweep_hash(uint64_t h, const void *p, size_t n)
{
	return sched_fnv1a(h, p, n);
}

int sweep_hash_file(const char *path, uint64_t *h)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return SCHED_E_IO;
	static uint8_t buf[1 << 16];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		*h = sched_fnv1a(*h, buf, n);
	int bad = ferror(f);
	fclose(f);
	return bad ? SCHED_E_IO : 0;
}
