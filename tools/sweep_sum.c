/* SPDX-License-Identifier: MIT */
/* A sweep's table grouped, averaged with 95% intervals, and drawn: see sweep_sum.h. */
#define _POSIX_C_SOURCE 200809L
#include "sweep_sum.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fields.h"
#include "sched/err.h"

int sweep_csv_split(char *line, char **f, int max)
{
	int n = 0;
	char *r = line;
	for (;;) {
		if (n == max)
			return SCHED_E_FORMAT;
		char *w = r;
		f[n++] = w;
		if (*r == '"') {
			r++;
			for (;;) {
				if (*r == '\0')
					return SCHED_E_FORMAT;
				if (*r == '"' && r[1] == '"') {
					*w++ = '"';
					r += 2;
				} else if (*r == '"') {
					r++;
					break;
				} else {
					*w++ = *r++;
				}
			}
		} else {
			while (*r != ',' && *r != '\0')
				*w++ = *r++;
		}
		if (*r == ',') {
			*w = '\0';
			r++;
			continue;
		}
		if (*r != '\0')
			return SCHED_E_FORMAT;
		*w = '\0';
		return n;
	}
}

enum { MAX_COLS = 1024, MAX_KEYS = 16 };

/* The table in memory: each row one line split in place. */
struct table {
	char *head_line, **head;
	int ncols;
	char **lines; /* a row's line; its fields in cells[row * ncols ...] */
	char **cells;
	size_t nrows;
};

static void table_free(struct table *t)
{
	free(t->head_line);
	free(t->head);
	for (size_t i = 0; i < t->nrows; i++)
		free(t->lines[i]);
	free(t->lines);
	free(t->cells);
	memset(t, 0, sizeof *t);
}

static int fail(char *err, size_t len, int rc, const char *fmt, const char *a, const char *b)
{
	snprintf(err, len, fmt, a, b);
	return rc;
}

static char *chomp(char *s)
{
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* Read the CSV @p path: a header and rows of as many fields. O(size). */
static int table_read(struct table *t, const char *path, char *err, size_t len)
{
	memset(t, 0, sizeof *t);
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return fail(err, len, SCHED_E_IO, "cannot read %s: %s", path, strerror(errno));
	char *line = NULL, *fields[MAX_COLS];
	size_t cap = 0, room = 0;
	int rc = 0;
	if (getline(&line, &cap, f) < 0 || (t->ncols = sweep_csv_split(chomp(line), fields, MAX_COLS)) < 1) {
		rc = fail(err, len, SCHED_E_FORMAT, "%s: no CSV header%s", path, "");
		goto out;
	}
	t->head_line = line;
	t->head = malloc((size_t)t->ncols * sizeof *t->head);
	if (t->head == NULL)
		goto oom;
	memcpy(t->head, fields, (size_t)t->ncols * sizeof *t->head);
	line = NULL;
	cap = 0;
	while (getline(&line, &cap, f) >= 0) {
		if (chomp(line)[0] == '\0')
			continue;
		if (sweep_csv_split(line, fields, MAX_COLS) != t->ncols) {
			char where[32];
			snprintf(where, sizeof where, "%zu", t->nrows + 2);
			rc = fail(err, len, SCHED_E_FORMAT, "%s:%s: not as many fields as the header", path, where);
			goto out;
		}
		if (t->nrows == room) {
			room = room ? 2 * room : 256;
			char **nl = realloc(t->lines, room * sizeof *nl);
			if (nl == NULL)
				goto oom;
			t->lines = nl;
			char **nc = realloc(t->cells, room * (size_t)t->ncols * sizeof *nc);
			if (nc == NULL)
				goto oom;
			t->cells = nc;
		}
		t->lines[t->nrows] = line;
		memcpy(t->cells + t->nrows * (size_t)t->ncols, fields, (size_t)t->ncols * sizeof *fields);
		t->nrows++;
		line = NULL;
		cap = 0;
	}
	goto out;
oom:
	rc = fail(err, len, SCHED_E_NOSPACE, "out of memory reading %s%s", path, "");
out:
	free(line);
	fclose(f);
	if (rc != 0)
		table_free(t);
	return rc;
}

static const char *cell(const struct table *t, size_t row, int col)
{
	return t->cells[row * (size_t)t->ncols + (size_t)col];
}

/* The column a user's NAME means: NAME, else sweep_NAME, else run_NAME; -1 if none. */
static int column(const struct table *t, const char *name)
{
	static const char *const prefix[] = {"", "sweep_", "run_"};
	char want[256];
	for (int p = 0; p < 3; p++) {
		snprintf(want, sizeof want, "%s%s", prefix[p], name);
		for (int c = 0; c < t->ncols; c++)
			if (strcmp(t->head[c], want) == 0)
				return c;
	}
	return -1;
}

/* Split the comma-separated @p names into columns of @p t; an unknown name is an error naming the axes. */
static int key_columns(const struct table *t, const char *names, int *cols, int max, const char *what, char *err,
		       size_t len)
{
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", names);
	int n = 0;
	for (char *save = NULL, *k = strtok_r(buf, ",", &save); k != NULL; k = strtok_r(NULL, ",", &save)) {
		int c = column(t, k);
		if (c < 0) {
			char axes[512] = "";
			size_t w = 0;
			for (int i = 0; i < t->ncols && w < sizeof axes - 64; i++)
				if (strncmp(t->head[i], "sweep_", 6) == 0 && strcmp(t->head[i], "sweep_cell") != 0 &&
				    strcmp(t->head[i], "sweep_digest") != 0)
					w += (size_t)snprintf(axes + w, sizeof axes - w, "%s%s", w ? ", " : "", t->head[i] + 6);
			snprintf(err, len, "%s: no column '%s' in the table (the axes: %s; or any column of the replayer's, "
				 "such as policy or period)", what, k, axes);
			return SCHED_E_INVAL;
		}
		if (n == max) {
			snprintf(err, len, "%s: at most %d columns", what, max);
			return SCHED_E_INVAL;
		}
		cols[n++] = c;
	}
	if (n == 0) {
		snprintf(err, len, "%s: no column named", what);
		return SCHED_E_INVAL;
	}
	return n;
}

/* A number, all of it, finite. */
static bool number(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return s[0] != '\0' && *end == '\0' && errno == 0 && isfinite(*v);
}

/* The groups: rows sorted by their key, each group's rows contiguous in @p order. */
struct grouping {
	const struct table *t;
	const int *keys;
	int nkeys;
	size_t *order;   /* row indices, by group in order of first appearance, rows in table order */
	size_t *start;   /* group g is order[start[g] .. start[g + 1]) */
	size_t ngroups;
};

static const struct grouping *sort_ctx; /* qsort has no context argument in C11 */

static int cmp_key(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	for (int k = 0; k < sort_ctx->nkeys; k++) {
		int c = strcmp(cell(sort_ctx->t, x, sort_ctx->keys[k]), cell(sort_ctx->t, y, sort_ctx->keys[k]));
		if (c != 0)
			return c;
	}
	return x < y ? -1 : x > y;
}

static const size_t *first_ctx; /* cmp_group's: each run's first row */

static int cmp_group(const void *a, const void *b)
{
	size_t x = first_ctx[*(const size_t *)a], y = first_ctx[*(const size_t *)b];
	return x < y ? -1 : x > y;
}

/* Group @p t's rows by @p keys. O(rows log rows x keys). */
static int group(struct grouping *g, const struct table *t, const int *keys, int nkeys)
{
	memset(g, 0, sizeof *g);
	g->t = t, g->keys = keys, g->nkeys = nkeys;
	size_t n = t->nrows;
	size_t *sorted = malloc((n + 1) * sizeof *sorted), *begin = malloc((n + 1) * sizeof *begin);
	size_t *idx = malloc((n + 1) * sizeof *idx);
	g->order = malloc((n + 1) * sizeof *g->order);
	g->start = malloc((n + 2) * sizeof *g->start);
	if (sorted == NULL || begin == NULL || idx == NULL || g->order == NULL || g->start == NULL) {
		free(sorted), free(begin), free(idx);
		return SCHED_E_NOSPACE;
	}
	for (size_t i = 0; i < n; i++)
		sorted[i] = i;
	sort_ctx = g;
	qsort(sorted, n, sizeof *sorted, cmp_key);
	/* Runs of equal keys: each a group, its rows in table order; begin[] holds where each run starts. */
	size_t runs = 0;
	for (size_t i = 0; i < n; i++) {
		bool same = i > 0;
		for (int k = 0; same && k < nkeys; k++)
			same = strcmp(cell(t, sorted[i], keys[k]), cell(t, sorted[i - 1], keys[k])) == 0;
		if (!same)
			begin[runs++] = i;
	}
	begin[runs] = n;
	/* Groups in the order of their first row: sort the runs by their first (smallest) row. */
	for (size_t r = 0; r < runs; r++)
		idx[r] = r;
	size_t *firsts = malloc((runs + 1) * sizeof *firsts);
	if (firsts == NULL) {
		free(sorted), free(begin), free(idx);
		return SCHED_E_NOSPACE;
	}
	for (size_t r = 0; r < runs; r++)
		firsts[r] = sorted[begin[r]];
	first_ctx = firsts;
	qsort(idx, runs, sizeof *idx, cmp_group);
	size_t w = 0;
	for (size_t r = 0; r < runs; r++) {
		g->start[r] = w;
		for (size_t i = begin[idx[r]]; i < begin[idx[r] + 1]; i++)
			g->order[w++] = sorted[i];
	}
	g->start[runs] = w;
	g->ngroups = runs;
	free(firsts);
	free(sorted), free(begin), free(idx);
	return 0;
}

static void grouping_free(struct grouping *g)
{
	free(g->order);
	free(g->start);
}

/* t(0.975, df): df = 1..30 from the table (tools/lib.sh: paired uses the same); beyond, 1.96. */
static double t975(size_t df)
{
	static const double t[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
				     2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
				     2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
	return df >= 1 && df <= 30 ? t[df - 1] : 1.96;
}

/* Mean and 95% half width of column @p col over group @p k's non-empty values; *n their count. */
static void mean_ci(const struct grouping *g, size_t k, int col, double *mean, double *half, size_t *n)
{
	double sum = 0, ss = 0, v;
	*n = 0;
	for (size_t i = g->start[k]; i < g->start[k + 1]; i++)
		if (number(cell(g->t, g->order[i], col), &v)) {
			sum += v;
			(*n)++;
		}
	*mean = *n ? sum / (double)*n : 0;
	for (size_t i = g->start[k]; i < g->start[k + 1]; i++)
		if (number(cell(g->t, g->order[i], col), &v))
			ss += (v - *mean) * (v - *mean);
	*half = *n > 1 ? t975(*n - 1) * sqrt(ss / (double)(*n - 1) / (double)*n) : NAN;
}

/* Whether column @p c is a metric: no key, no sweep_ or run_ column, every non-empty value a number, one at least. */
static bool is_metric(const struct table *t, int c, const int *keys, int nkeys)
{
	for (int k = 0; k < nkeys; k++)
		if (keys[k] == c)
			return false;
	if (strncmp(t->head[c], "sweep_", 6) == 0 || strncmp(t->head[c], "run_", 4) == 0)
		return false;
	bool any = false;
	double v;
	for (size_t r = 0; r < t->nrows; r++) {
		const char *s = cell(t, r, c);
		if (s[0] == '\0')
			continue;
		if (!number(s, &v))
			return false;
		any = true;
	}
	return any;
}

/* Write to a temporary name and rename, so a reader never sees half a file. */
static FILE *open_tmp(const char *path, char *tmp, size_t len)
{
	snprintf(tmp, len, "%s.tmp.%ld", path, (long)getpid());
	return fopen(tmp, "w");
}

static int close_tmp(FILE *f, const char *tmp, const char *path, char *err, size_t len)
{
	bool ok = fflush(f) == 0 && !ferror(f);
	ok &= fclose(f) == 0;
	if (!ok || rename(tmp, path) != 0) {
		unlink(tmp);
		return fail(err, len, SCHED_E_IO, "cannot write %s: %s", path, strerror(errno));
	}
	return 0;
}

int sweep_summary(const char *table, const char *keys, const char *out, char *err, size_t errlen)
{
	struct table t;
	int rc = table_read(&t, table, err, errlen);
	if (rc != 0)
		return rc;
	int kc[MAX_KEYS];
	int nk = key_columns(&t, keys, kc, MAX_KEYS, "--group-by", err, errlen);
	if (nk < 0) {
		table_free(&t);
		return nk;
	}
	struct grouping g;
	if (group(&g, &t, kc, nk) != 0) {
		table_free(&t);
		return fail(err, errlen, SCHED_E_NOSPACE, "out of memory%s%s", "", "");
	}
	char tmp[4096];
	FILE *f = open_tmp(out, tmp, sizeof tmp);
	if (f == NULL) {
		rc = fail(err, errlen, SCHED_E_IO, "cannot write %s: %s", out, strerror(errno));
		goto done;
	}
	bool metric[MAX_COLS] = {false};
	for (int c = 0; c < t.ncols; c++)
		metric[c] = is_metric(&t, c, kc, nk);
	char name[300];
	for (int k = 0; k < nk; k++) {
		csv_field(f, t.head[kc[k]]);
		fputc(',', f);
	}
	fputs("n", f);
	for (int c = 0; c < t.ncols; c++)
		for (int s = 0; metric[c] && s < 2; s++) {
			snprintf(name, sizeof name, "%s_%s", t.head[c], s ? "ci95" : "mean");
			fputc(',', f);
			csv_field(f, name);
		}
	fputc('\n', f);
	for (size_t k = 0; k < g.ngroups; k++) {
		for (int i = 0; i < nk; i++) {
			csv_field(f, cell(&t, g.order[g.start[k]], kc[i]));
			fputc(',', f);
		}
		fprintf(f, "%zu", g.start[k + 1] - g.start[k]);
		for (int c = 0; c < t.ncols; c++) {
			if (!metric[c])
				continue;
			double m, h;
			size_t n;
			mean_ci(&g, k, c, &m, &h, &n);
			if (n == 0)
				fputs(",,", f);
			else if (n == 1)
				fprintf(f, ",%.10g,", m);
			else
				fprintf(f, ",%.10g,%.10g", m, h);
		}
		fputc('\n', f);
	}
	rc = close_tmp(f, tmp, out, err, errlen);
done:
	grouping_free(&g);
	table_free(&t);
	return rc;
}

/* gnuplot's single-quoted string: a quote doubled. */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* A column as a reader names it: the axis, without the table's sweep_ prefix. */
static const char *axis_name(const char *col)
{
	return strncmp(col, "sweep_", 6) == 0 ? col + 6 : col;
}

struct point {
	double x, mean, half;
	size_t n;
	const char *label;
};

static int cmp_point(const void *a, const void *b)
{
	double x = ((const struct point *)a)->x, y = ((const struct point *)b)->x;
	return x < y ? -1 : x > y;
}

/*
 * BASE.dat: a block per line value (@p titles, in the order of their first row, at most 64), in a block
 * the points by x (numeric) or in the order of their first row (categories, numbered). O(groups x lines).
 */
static int write_dat(const struct table *t, const struct grouping *g, const int col[3], bool xnum, const char *base,
		     const char **titles, size_t *nlines, char *err, size_t len)
{
	int mc = col[0], xc = col[1], lc = col[2];
	char path[4096], tmp[4200];
	snprintf(path, sizeof path, "%s.dat", base);
	const char **cats = malloc((t->nrows + 1) * sizeof *cats);
	struct point *pts = malloc((g->ngroups + 1) * sizeof *pts);
	FILE *f = cats != NULL && pts != NULL ? open_tmp(path, tmp, sizeof tmp) : NULL;
	int rc = 0;
	if (f == NULL) {
		free(cats), free(pts);
		return fail(err, len, SCHED_E_IO, "cannot write %s: %s", path, strerror(errno));
	}
	fprintf(f, "# %s against %s%s%s: x, mean, 95%% half width (0 for one row), rows, x's label\n", t->head[mc],
		t->head[xc], lc >= 0 ? ", a block per " : "", lc >= 0 ? t->head[lc] : "");
	*nlines = 0;
	for (size_t k = 0; k < g->ngroups && rc == 0; k++) {
		const char *lv = lc >= 0 ? cell(t, g->order[g->start[k]], lc) : "";
		size_t l = 0;
		while (l < *nlines && strcmp(titles[l], lv) != 0)
			l++;
		if (l < *nlines)
			continue;
		if (*nlines == 64)
			rc = fail(err, len, SCHED_E_INVAL, "--plot: more than 64 lines (values of %s)%s", t->head[lc], "");
		else
			titles[(*nlines)++] = lv;
	}
	size_t ncats = 0;
	for (size_t l = 0; l < *nlines && rc == 0; l++) {
		fprintf(f, "%s# %s\n", l ? "\n\n" : "", titles[l]);
		size_t np = 0;
		for (size_t k = 0; k < g->ngroups; k++) {
			size_t first = g->order[g->start[k]];
			if (lc >= 0 && strcmp(cell(t, first, lc), titles[l]) != 0)
				continue;
			const char *xv = cell(t, first, xc);
			size_t c = 0;
			while (c < ncats && strcmp(cats[c], xv) != 0)
				c++;
			if (c == ncats)
				cats[ncats++] = xv;
			struct point *pt = &pts[np];
			mean_ci(g, k, mc, &pt->mean, &pt->half, &pt->n);
			if (pt->n == 0)
				continue;
			pt->label = xv;
			if (!xnum || !number(xv, &pt->x))
				pt->x = (double)c;
			np++;
		}
		qsort(pts, np, sizeof *pts, cmp_point);
		for (size_t i = 0; i < np; i++) {
			fprintf(f, "%.10g %.10g %.10g %zu \"", pts[i].x, pts[i].mean, pts[i].n > 1 ? pts[i].half : 0.0, pts[i].n);
			for (const char *c = pts[i].label; *c; c++)
				fputc(*c == '"' ? '\'' : *c, f); /* a data file's string is double-quoted, no escape */
			fputs("\"\n", f);
		}
	}
	free(cats), free(pts);
	if (rc != 0) {
		fclose(f);
		unlink(tmp);
		return rc;
	}
	return close_tmp(f, tmp, path, err, len);
}

/*
 * BASE.gp: the script drawing BASE.dat into BASE.svg, one yerrorlines plot per line. It names its data
 * and its picture without a folder: the three files stay together, and gnuplot runs in their folder
 * (run_gnuplot; by hand: cd there, gnuplot FILE.gp). O(lines).
 */
static int write_gp(const struct table *t, const int col[3], bool xnum, const char *base, const char *const *titles,
		    size_t nlines, char *err, size_t len)
{
	int mc = col[0], xc = col[1], lc = col[2];
	char path[4096], tmp[4200], dat[4200], svg[4200], yl[300];
	snprintf(path, sizeof path, "%s.gp", base);
	FILE *f = open_tmp(path, tmp, sizeof tmp);
	if (f == NULL)
		return fail(err, len, SCHED_E_IO, "cannot write %s: %s", path, strerror(errno));
	snprintf(dat, sizeof dat, "%s.dat", path_base_name(base));
	snprintf(svg, sizeof svg, "%s.svg", path_base_name(base));
	fputs("# Written by build/sweep --plot (docs/sweep.md); in this folder: gnuplot THIS_FILE\n", f);
	fputs("set terminal svg size 900,560 dynamic noenhanced font 'sans,13' background '#ffffff'\nset output ", f);
	gp_string(f, svg);
	fputs("\nset xlabel ", f);
	gp_string(f, axis_name(t->head[xc]));
	snprintf(yl, sizeof yl, "%s (mean, 95%% interval)", axis_name(t->head[mc]));
	fputs("\nset ylabel ", f);
	gp_string(f, yl);
	fputs("\nset key outside right top\nset grid\nset offsets graph 0.03, graph 0.03, 0, 0\n", f);
	if (!xnum)
		fputs("set xtics rotate by -30\n", f);
	fputs("plot ", f);
	for (size_t l = 0; l < nlines; l++) {
		fputs(l ? ", \\\n     " : "", f);
		gp_string(f, dat);
		fprintf(f, " index %zu using 1:2:3%s with yerrorlines lw 2 pt 7 title ", l, xnum ? "" : ":xtic(5)");
		gp_string(f, lc >= 0 ? titles[l] : t->head[mc]);
	}
	fputc('\n', f);
	return close_tmp(f, tmp, path, err, len);
}

/* BASE.dat and BASE.gp for the metric col[0] against col[1], a line per value of col[2] (or one if -1). */
static int plot_files(const struct table *t, const int col[3], const char *base, char *err, size_t len)
{
	int keys[2] = {col[2], col[1]};
	struct grouping g;
	if (group(&g, t, col[2] >= 0 ? keys : keys + 1, col[2] >= 0 ? 2 : 1) != 0)
		return fail(err, len, SCHED_E_NOSPACE, "out of memory%s%s", "", "");
	/* X numeric: placed by value; else categories, placed in the order of their first row. */
	bool xnum = true;
	double v;
	for (size_t r = 0; r < t->nrows && xnum; r++)
		xnum = number(cell(t, r, col[1]), &v);
	const char *titles[64];
	size_t nlines = 0;
	int rc = write_dat(t, &g, col, xnum, base, titles, &nlines, err, len);
	if (rc == 0)
		rc = write_gp(t, col, xnum, base, titles, nlines, err, len);
	grouping_free(&g);
	return rc;
}

/* Run gnuplot on @p script in the script's folder; 0 if it drew, -1 if it is not installed, else its status. */
static int run_gnuplot(const char *script)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", script);
	char *slash = strrchr(dir, '/');
	pid_t pid = fork();
	if (pid == 0) {
		if (slash != NULL) {
			*slash = '\0';
			if (chdir(dir[0] ? dir : "/") != 0)
				_exit(127);
		}
		execlp("gnuplot", "gnuplot", path_base_name(script), (char *)NULL);
		_exit(errno == ENOENT ? 126 : 127);
	}
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return SCHED_E_IO;
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	return code == 126 ? -1 : code;
}

int sweep_plot(const char *table, const char *spec, const char *base, char *err, size_t errlen)
{
	char buf[512], *part[3] = {NULL, NULL, NULL};
	snprintf(buf, sizeof buf, "%s", spec);
	int np = 0;
	for (char *save = NULL, *p = strtok_r(buf, ":", &save); p != NULL; p = strtok_r(NULL, ":", &save))
		if (np < 3)
			part[np++] = p;
		else
			np = 4;
	if (np < 2 || np > 3)
		return fail(err, errlen, SCHED_E_INVAL, "--plot takes METRIC:X or METRIC:X:LINE, not '%s'%s", spec, "");
	struct table t;
	int rc = table_read(&t, table, err, errlen);
	if (rc != 0)
		return rc;
	int cols[3] = {-1, -1, -1};
	static const char *const what[] = {"--plot's metric", "--plot's x", "--plot's lines"};
	for (int i = 0; i < np && rc == 0; i++) {
		int n = key_columns(&t, part[i], &cols[i], 1, what[i], err, errlen);
		rc = n < 0 ? n : 0;
	}
	if (rc == 0 && !is_metric(&t, cols[0], cols + 1, np - 1))
		rc = fail(err, errlen, SCHED_E_INVAL, "--plot: %s is no metric (a column of numbers, not a sweep_ or run_ one)%s",
			  t.head[cols[0]], "");
	if (rc == 0)
		rc = plot_files(&t, cols, base, err, errlen);
	table_free(&t);
	if (rc != 0)
		return rc;
	char script[4096];
	snprintf(script, sizeof script, "%s.gp", base);
	int g = run_gnuplot(script);
	if (g == -1)
		fprintf(stderr, "sweep: gnuplot is not installed: %s.dat and %s are written; gnuplot %s draws %s.svg\n", base,
			script, script, base);
	else if (g != 0)
		return fail(err, errlen, SCHED_E_IO, "gnuplot failed on %s%s", script, "");
	else
		fprintf(stderr, "sweep: drew %s.svg (%s.dat, %s)\n", base, base, script);
	return 0;
}
