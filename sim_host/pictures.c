/* SPDX-License-Identifier: MIT */
/* Pictures of one replayed schedule: hand-written SVG (no library) and a CSV time series. */
#include "pictures.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The plot area of both charts, in SVG pixels. */
#define SCHED_PROCS_NONE UINT32_MAX

enum { LEFT = 80, RIGHT = 70, TOP = 56, BOTTOM = 70, PLOT_W = 1400 };

/* Text into SVG: the trace's file name may hold anything. */
static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

/*
 * A time axis reads better in the unit of its span than in raw seconds, and
 * in the trace's calendar when it has one (zone): ticks then fall on local
 * minutes, hours, midnights, Mondays or firsts of the month.
 */
struct time_axis {
	double from, to, unit, step; /* seconds; step a 1-2-5 multiple of the unit (no calendar) */
	const char *unit_name;
	double x0, w;                /* pixels */
	const struct tz *zone;       /* NULL: seconds from the trace's time 0 */
	int64_t epoch;               /* Unix time of simulated time 0 */
	int64_t cal_secs;            /* calendar step: seconds (a divisor of a day, or days), */
	int cal_months;              /* or months */
};

/* Calendar steps, shortest first: the first that gives at most 10 ticks is taken. */
static const struct {
	int64_t secs;
	int months;
} cal_steps[] = {
	{1, 0},     {2, 0},     {5, 0},      {10, 0},     {15, 0},      {30, 0},      {60, 0},      {120, 0},
	{300, 0},   {600, 0},   {900, 0},    {1800, 0},   {3600, 0},    {7200, 0},    {10800, 0},   {21600, 0},
	{43200, 0}, {86400, 0}, {172800, 0}, {604800, 0}, {1209600, 0}, {0, 1},       {0, 2},       {0, 3},
	{0, 6},     {0, 12},    {0, 24},     {0, 60},     {0, 120},     {0, 240},
};

static double nice(double x)
{
	double p = 1;
	while (p * 10 <= x)
		p *= 10;
	while (p > x && p > 1e-9)
		p /= 10;
	return x <= p ? p : x <= 2 * p ? 2 * p : x <= 5 * p ? 5 * p : 10 * p;
}

static struct time_axis time_axis(const struct picture_src *s, double from, double to, double x0, double w)
{
	struct time_axis a = {from, to > from ? to : from + 1, 1, 1, "seconds", x0, w, s->zone, s->epoch, 0, 0};
	double span = a.to - a.from;
	if (a.zone != NULL) {
		size_t k = 0, n = sizeof cal_steps / sizeof cal_steps[0];
		while (k + 1 < n && span / (cal_steps[k].secs ? (double)cal_steps[k].secs : cal_steps[k].months * 2629746.0) > 10)
			k++;
		a.cal_secs = cal_steps[k].secs, a.cal_months = cal_steps[k].months;
		return a;
	}
	if (span >= 3 * 86400)
		a.unit = 86400, a.unit_name = "days";
	else if (span >= 3 * 3600)
		a.unit = 3600, a.unit_name = "hours";
	else if (span >= 180)
		a.unit = 60, a.unit_name = "minutes";
	a.step = nice(span / a.unit / 10) * a.unit;
	return a;
}

static double tx(const struct time_axis *a, double t)
{
	return a->x0 + (t - a->from) * a->w / (a->to - a->from);
}

static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/* Local time (seconds from 1970-01-01T00:00 local) of simulated time @p t, and back. */
static int64_t to_local(const struct tz *z, int64_t epoch, int64_t t)
{
	return epoch + t + tz_offset_at(z, epoch + t);
}

static int64_t from_local(const struct tz *z, int64_t epoch, int64_t local)
{
	return local - tz_offset_at(z, local - z->std_offset) - epoch;
}

/* "YYYY-MM-DD HH:MM[:SS]" of local time @p local (seconds only when not 0). */
static void civil_text(char *buf, size_t len, int64_t local)
{
	int y, m, d;
	tz_civil_from_days(floor_div(local, 86400), &y, &m, &d);
	int64_t sod = local - floor_div(local, 86400) * 86400;
	int n = snprintf(buf, len, "%04d-%02d-%02d %02d:%02d", y, m, d, (int)(sod / 3600), (int)(sod / 60 % 60));
	if (sod % 60 && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ":%02d", (int)(sod % 60));
}

/* Simulated time @p t for a subtitle: a local date and time, or seconds. */
static void time_text(char *buf, size_t len, const struct picture_src *s, int64_t t)
{
	if (s->zone != NULL)
		civil_text(buf, len, to_local(s->zone, s->epoch, t));
	else
		snprintf(buf, len, "%lld s", (long long)t);
}

/* One tick: simulated time, and its local time under a calendar. */
struct tick {
	double t;
	int64_t local;
};

/* The calendar ticks in [from, to], at most @p max: local multiples of the step (weeks from a Monday; months from the 1st). */
static size_t calendar_ticks(const struct time_axis *a, struct tick *out, size_t max)
{
	int64_t lo = to_local(a->zone, a->epoch, (int64_t)floor(a->from));
	size_t n = 0;
	double prev = -INFINITY;
	int y, m, d;
	tz_civil_from_days(floor_div(lo, 86400), &y, &m, &d);
	int64_t month = (int64_t)y * 12 + m - 1; /* months: step through firsts of the month */
	int64_t monday = 4 * 86400;              /* 1970-01-05 */
	int64_t base = a->cal_secs % 604800 == 0 ? monday : 0;
	int64_t local = a->cal_months ? 0 : base + (floor_div(lo - base, a->cal_secs)) * a->cal_secs;
	for (int guard = 0; n < max && guard < 4 * (int)max; guard++) {
		if (a->cal_months) {
			while (month % a->cal_months != 0)
				month++;
			local = tz_days_from_civil((int)floor_div(month, 12), (int)(month - floor_div(month, 12) * 12) + 1, 1) * 86400;
			month += a->cal_months;
		}
		double t = (double)from_local(a->zone, a->epoch, local);
		if (t > a->to + 1e-9)
			break;
		if (t >= a->from - 1e-9 && t > prev) /* a summer-time change can repeat a local hour */
			out[n++] = (struct tick){t, local}, prev = t;
		local += a->cal_secs;
	}
	return n;
}

/* The tick label under a calendar: the coarsest text that tells the ticks apart, with the date under a time of day when the day changes. */
static void tick_label(const struct time_axis *a, const struct tick *k, const struct tick *before, char *line1,
		       char *line2, size_t len)
{
	char full[32], prev[32] = "";
	civil_text(full, sizeof full, k->local);
	if (before != NULL)
		civil_text(prev, sizeof prev, before->local);
	line2[0] = '\0';
	if (a->cal_months >= 12)
		snprintf(line1, len, "%.4s", full);
	else if (a->cal_months)
		snprintf(line1, len, "%.7s", full);
	else if (a->cal_secs >= 86400)
		snprintf(line1, len, "%.10s", full);
	else {
		snprintf(line1, len, "%s", full + 11);
		if (a->cal_secs < 60 && strlen(line1) == 5)
			snprintf(line1 + 5, len - 5, ":00");
		if (before == NULL || strncmp(full, prev, 10) != 0)
			snprintf(line2, len, "%.10s", full);
	}
}

/* Ticks, grid lines and labels of the time axis under a plot of height @p h at @p top. */
static void draw_time_axis(FILE *f, const struct time_axis *a, double top, double h)
{
	struct tick ticks[64];
	size_t n = 0;
	if (a->zone != NULL) {
		n = calendar_ticks(a, ticks, sizeof ticks / sizeof ticks[0]);
	} else {
		double first = a->step * floor(a->from / a->step);
		if (first < a->from)
			first += a->step;
		for (double t = first; t <= a->to + 1e-9 && n < sizeof ticks / sizeof ticks[0]; t += a->step)
			ticks[n++] = (struct tick){t, 0};
	}
	for (size_t k = 0; k < n; k++) {
		double x = tx(a, ticks[k].t);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\" stroke-width=\"0.5\"/>\n",
			x, top, x, top + h);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", x, top + h, x,
			top + h + 5);
		if (a->zone == NULL) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.10g</text>\n", x, top + h + 19,
				ticks[k].t / a->unit);
			continue;
		}
		/* data-t: the tick's local time in full, for a reader that checks the axis (tests/pictures.sh). */
		char l1[32], l2[32], full[32];
		tick_label(a, &ticks[k], k ? &ticks[k - 1] : NULL, l1, l2, sizeof l1);
		civil_text(full, sizeof full, ticks[k].local);
		fprintf(f, "<text class=\"tick\" data-t=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			full, x, top + h + 19, l1);
		if (l2[0])
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"#444\">%s</text>\n", x,
				top + h + 33, l2);
	}
	if (a->zone != NULL) {
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">local time, ", a->x0 + a->w / 2, top + h + 50);
		xml_text(f, a->zone->name);
		fputs(" (the trace's UnixStartTime and TimeZoneString)</text>\n", f);
		return;
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">simulated time (%s from the trace's time 0)</text>\n",
		a->x0 + a->w / 2, top + h + 42, a->unit_name);
}

/* One value per column of the plot (PLOT_W of them; < 0: no data there) as a filled step area over [top, top + h], vmax at the top. */
static void draw_area(FILE *f, const char *id, const double *v, double top, double h, double vmax, const char *fill,
		      double opacity)
{
	fprintf(f, "<path id=\"%s\" fill=\"%s\" fill-opacity=\"%.1f\" stroke=\"none\" d=\"M%d %.1f", id, fill, opacity,
		LEFT, top + h);
	for (int c = 0; c < PLOT_W; c++)
		if (v[c] >= 0)
			fprintf(f, " L%d %.1f L%d %.1f", LEFT + c, top + h - v[c] * h / vmax, LEFT + c + 1,
				top + h - v[c] * h / vmax);
	fprintf(f, " L%d %.1f Z\"/>\n", LEFT + PLOT_W, top + h);
}

/* A vertical axis from 0 to @p max at @p x (labels on the side given by @p anchor). */
static void draw_value_axis(FILE *f, double max, double x, double top, double h, const char *anchor, bool grid,
			    double grid_w)
{
	double step = nice(max / 8);
	for (double v = 0; v <= max + 1e-9; v += step) {
		double y = top + h - v * h / max;
		if (grid)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\" stroke-width=\"0.5\"/>\n",
				x, y, x + grid_w, y);
		bool left = anchor[0] == 'e';
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", x, y,
			left ? x - 5 : x + 5, y);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%g</text>\n", left ? x - 8 : x + 8, y + 4,
			anchor, v);
	}
}

static void svg_open(FILE *f, double w, double h)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		   "font-family=\"sans-serif\" font-size=\"13\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
		w, h, w, h);
}

static void svg_title(FILE *f, const char *what, const struct picture_src *s, double w)
{
	fprintf(f, "<text x=\"%.1f\" y=\"24\" text-anchor=\"middle\" font-size=\"17\" font-weight=\"bold\">%s: ",
		w / 2, what);
	xml_text(f, s->trace);
	fputs(", policy ", f);
	xml_text(f, s->policy);
	fprintf(f, ", %u processors</text>\n", (unsigned)s->procs);
}

/* Jobs that ran, by start time then workload order: the order the drawing assigns rows in. */
static const struct picture_src *sort_src;
static int by_start(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	sched_time_t si = sort_src->out[i].start, sj = sort_src->out[j].start;
	return si != sj ? (si < sj ? -1 : 1) : (i < j ? -1 : i > j);
}

static size_t ran_by_start(const struct picture_src *s, size_t *idx)
{
	size_t m = 0;
	for (size_t i = 0; i < s->n; i++)
		if (!s->out[i].refused)
			idx[m++] = i;
	sort_src = s;
	qsort(idx, m, sizeof *idx, by_start);
	return m;
}

void pictures_span(const struct picture_src *s, sched_time_t *lo, sched_time_t *hi)
{
	*lo = SCHED_TIME_MAX;
	*hi = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (s->out[i].refused)
			continue;
		*lo = s->out[i].submit < *lo ? s->out[i].submit : *lo;
		*hi = s->out[i].end > *hi ? s->out[i].end : *hi;
	}
	if (*lo > *hi)
		*lo = *hi = 0;
}

/* A picture's time window: the options', else the schedule's span, its end cut at the last end. */
struct window {
	int64_t from, to;
	sched_time_t lo, hi; /* the schedule's span */
	bool empty;          /* the window holds nothing of the schedule */
};

static struct window window_of(const struct picture_src *s)
{
	struct window w;
	pictures_span(s, &w.lo, &w.hi);
	w.from = s->has_from ? s->from : (int64_t)w.lo;
	w.to = s->has_to && s->to < (int64_t)w.hi ? s->to : (int64_t)w.hi;
	w.empty = w.from >= (int64_t)w.hi || w.to <= (int64_t)w.lo;
	if (w.to <= w.from)
		w.to = w.from + 1;
	return w;
}

/* The subtitle under the title: the window, in calendar time when there is one; in red when it is empty. */
static void window_subtitle(FILE *f, const struct picture_src *s, const struct window *w, double W)
{
	char a[48], b[48];
	time_text(a, sizeof a, s, w->from);
	time_text(b, sizeof b, s, w->to);
	fprintf(f, "<text x=\"%.1f\" y=\"42\" text-anchor=\"middle\" fill=\"#444\">window %s to %s", W / 2, a, b);
	if (s->zone != NULL)
		fprintf(f, " (simulated seconds %lld to %lld)</text>\n", (long long)w->from, (long long)w->to);
	else
		fputs(" of simulated time</text>\n", f);
	if (!w->empty)
		return;
	time_text(a, sizeof a, s, (int64_t)w->lo);
	time_text(b, sizeof b, s, (int64_t)w->hi);
	fprintf(f, "<text class=\"empty\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"15\" fill=\"#b00\">"
		   "Nothing to draw: the window is outside the schedule (first submit %s, last end %s)</text>\n",
		W / 2, TOP + 40, a, b);
}

bool pictures_window_empty(const struct picture_src *s)
{
	return window_of(s).empty;
}

int pictures_gantt(FILE *f, const struct picture_src *s)
{
	size_t *idx = malloc((s->n + 1) * sizeof *idx);
	sched_time_t *busy = calloc(s->procs, sizeof *busy);   /* each drawing row's end of use */
	sched_procs_t *row = malloc((s->n + 1) * sizeof *row);  /* each job's lowest row, for its wait line */
	if (idx == NULL || busy == NULL || row == NULL) {
		free(idx), free(busy), free(row);
		return -1;
	}
	size_t m = ran_by_start(s, idx);
	struct window win = window_of(s);
	int64_t from = win.from, to = win.to;
	double ph = s->procs * 4.0 < 300 ? 300 : s->procs * 4.0 > 800 ? 800 : s->procs * 4.0;
	double W = LEFT + PLOT_W + RIGHT, H = TOP + ph + BOTTOM + 20;
	struct time_axis ax = time_axis(s, (double)from, (double)to, LEFT, PLOT_W);
	double px_per_s = PLOT_W / (ax.to - ax.from), row_h = ph / s->procs;
	size_t visible = 0;
	for (size_t k = 0; k < m; k++) {
		const struct replay_job_out *o = &s->out[idx[k]];
		visible += (int64_t)o->end > from && (int64_t)o->submit < to;
	}
	/* Bounded output: on a big window, jobs under a pixel wide are left out, then the rest capped. */
	bool skip_narrow = visible > PICTURES_GANTT_MAX;
	size_t drawn = 0, narrow = 0, capped = 0;

	svg_open(f, W, H);
	svg_title(f, "Gantt chart", s, W);
	window_subtitle(f, s, &win, W);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.1f\" fill=\"#f7f7f7\" stroke=\"#000\"/>\n", LEFT,
		TOP, PLOT_W, ph);
	fprintf(f, "<svg x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.1f\" viewBox=\"%d %d %d %.1f\">\n", LEFT, TOP, PLOT_W,
		ph, LEFT, TOP, PLOT_W, ph); /* clips the jobs to the plot area */
	for (size_t k = 0; k < m; k++) {
		size_t i = idx[k];
		const struct replay_job_out *o = &s->out[i];
		sched_procs_t need = s->jobs[i].j.procs;
		/* First fit: the lowest run of contiguous free rows; else (fragmented) the lowest free rows. */
		sched_procs_t first = 0, got = 0;
		for (sched_procs_t r = 0; r < s->procs && got < need; r++) {
			if (busy[r] <= o->start)
				got = got ? got + 1 : (first = r, 1);
			else
				got = 0;
		}
		bool contiguous = got == need;
		row[i] = contiguous ? first : 0;
		bool show = (int64_t)o->end > from && (int64_t)o->submit < to;
		bool in_rect = (int64_t)o->end > from && (int64_t)o->start < to;
		double width = ((double)o->end - o->start) * px_per_s;
		if (show && skip_narrow && width < 1)
			narrow++, show = false;
		if (show && drawn == PICTURES_GANTT_MAX)
			capped++, show = false;
		drawn += show;
		if (show) {
			fprintf(f, "<g class=\"job\" fill=\"hsl(%ld,55%%,62%%)\"%s><title>job %ld: %u processors, submit %u, start %u (wait %u s), end %u%s</title>\n",
				(s->names[i] * 137) % 360, row_h >= 3 ? " stroke=\"#333\" stroke-width=\"0.4\"" : "",
				s->names[i], (unsigned)need, (unsigned)o->submit, (unsigned)o->start,
				(unsigned)(o->start - o->submit), (unsigned)o->end, o->killed ? ", killed at its estimate" : "");
		}
		double x = tx(&ax, o->start), w = width < 0.5 ? 0.5 : width;
		sched_procs_t placed = 0;
		for (sched_procs_t r = contiguous ? first : 0; r < s->procs && placed < need;) {
			if (busy[r] > o->start) {
				r++;
				continue;
			}
			sched_procs_t a = r;
			while (r < s->procs && busy[r] <= o->start && placed < need)
				busy[r++] = o->end, placed++;
			if (placed == r - a && !contiguous)
				row[i] = a;
			if (show && in_rect)
				fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/>\n", x,
					TOP + ph - r * row_h, w, (r - a) * row_h);
		}
		if (show)
			fputs("</g>\n", f);
		else
			row[i] = SCHED_PROCS_NONE; /* no wait line for a job not drawn */
	}
	/* Waits on top of everything: from submit to start at the middle of the job's lowest row. */
	fputs("<g stroke=\"#000\" stroke-width=\"1\" stroke-opacity=\"0.55\">\n", f);
	for (size_t k = 0; k < m; k++) {
		size_t i = idx[k];
		const struct replay_job_out *o = &s->out[i];
		if (o->start == o->submit || row[i] == SCHED_PROCS_NONE)
			continue;
		double y = TOP + ph - (row[i] + 0.5) * row_h;
		fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", tx(&ax, o->submit), y,
			tx(&ax, o->start), y);
	}
	fputs("</g>\n</svg>\n", f);
	draw_time_axis(f, &ax, TOP, ph);
	draw_value_axis(f, s->procs, LEFT, TOP, ph, "end", false, 0);
	fprintf(f, "<text transform=\"translate(22,%.1f) rotate(-90)\" text-anchor=\"middle\">processors (rows drawn first-fit)</text>\n",
		TOP + ph / 2);
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" fill=\"#444\">Rectangles: jobs (hover for details); lines: waits from submit to start. "
		   "The core assigns processor counts, not ids: rows are a drawing, not a placement.</text>\n",
		LEFT, H - 10);
	if (narrow || capped) {
		fprintf(f, "<!-- %zu jobs in the window: %zu narrower than a pixel and %zu beyond the cap of %d not drawn -->\n",
			visible, narrow, capped, PICTURES_GANTT_MAX);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" fill=\"#b00\">%zu of %zu jobs drawn: %zu under a pixel wide and %zu beyond %d left out; zoom with --gantt-from/--gantt-to</text>\n",
			LEFT, H - 28, drawn, visible, narrow, capped, PICTURES_GANTT_MAX);
	}
	fputs("</svg>\n", f);
	free(idx), free(busy), free(row);
	return 0;
}

/* One change of the timeline's figures at an instant (slots: time sharing only). */
struct tl_event {
	sched_time_t t;
	int32_t busy, queued, running, slots;
};

static int by_time(const void *a, const void *b)
{
	sched_time_t x = ((const struct tl_event *)a)->t, y = ((const struct tl_event *)b)->t;
	return x < y ? -1 : x > y;
}

/* The timeline's rows (state after each instant, changed figures only) into *rows; their count, or -1. */
static long timeline(const struct picture_src *s, struct tl_event **rows)
{
	struct tl_event *ev = malloc((3 * s->n + s->n_slots + 1) * sizeof *ev);
	if (ev == NULL)
		return -1;
	size_t m = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct replay_job_out *o = &s->out[i];
		if (o->refused)
			continue;
		int32_t p = (int32_t)s->jobs[i].j.procs;
		ev[m++] = (struct tl_event){o->submit, 0, 1, 0, 0};
		ev[m++] = (struct tl_event){o->start, p, -1, 1, 0};
		ev[m++] = (struct tl_event){o->end, -p, 0, -1, 0};
	}
	/* The slots come as levels: as changes they sum like the rest. */
	for (size_t k = 0; k < s->n_slots; k++)
		ev[m++] = (struct tl_event){s->slots[k].t, 0, 0, 0,
					    (int32_t)s->slots[k].slots - (int32_t)(k ? s->slots[k - 1].slots : 0)};
	qsort(ev, m, sizeof *ev, by_time);
	struct tl_event cur = {0, 0, 0, 0, 0};
	size_t out = 0;
	for (size_t k = 0; k < m;) {
		struct tl_event next = cur;
		next.t = ev[k].t;
		for (; k < m && ev[k].t == next.t; k++)
			next.busy += ev[k].busy, next.queued += ev[k].queued, next.running += ev[k].running,
				next.slots += ev[k].slots;
		if (out == 0 || next.busy != cur.busy || next.queued != cur.queued || next.running != cur.running ||
		    next.slots != cur.slots)
			ev[out++] = next; /* out <= k: rewriting in place is safe */
		cur = next;
	}
	*rows = ev;
	return (long)out;
}

int pictures_timeline_csv(FILE *f, const struct picture_src *s)
{
	struct tl_event *rows;
	long n = timeline(s, &rows);
	if (n < 0)
		return -1;
	/* Space sharing keeps its four columns (readers find them by position); time sharing adds one. */
	bool ts = s->slots != NULL;
	fputs(ts ? "time,busy_procs,queued_jobs,running_jobs,slots\n" : "time,busy_procs,queued_jobs,running_jobs\n", f);
	/* A window starts with the state in force at its start: the last row at or before it, retimed. */
	long k = 0;
	while (s->has_from && k + 1 < n && (int64_t)rows[k + 1].t <= s->from)
		k++;
	for (; k < n && !(s->has_to && (int64_t)rows[k].t >= s->to); k++) {
		if (s->has_from && (int64_t)rows[k].t < s->from && k + 1 < n)
			rows[k].t = (sched_time_t)s->from;
		else if (s->has_from && (int64_t)rows[k].t < s->from)
			continue; /* the window starts after the last change: nothing in it */
		fprintf(f, "%u,%d,%d,%d", (unsigned)rows[k].t, rows[k].busy, rows[k].queued, rows[k].running);
		if (ts)
			fprintf(f, ",%d", rows[k].slots);
		fputc('\n', f);
	}
	free(rows);
	return 0;
}

/* One series over one pixel column: the time-weighted sum and the time covered, the least and largest value. */
struct column {
	double sum, cover;
	int32_t min, max;
};

enum { SERIES_BUSY, SERIES_QUEUED, SERIES_SLOTS, N_SERIES, COLS = PLOT_W };

static int32_t series_value(const struct tl_event *e, int series)
{
	return series == SERIES_BUSY ? e->busy : series == SERIES_QUEUED ? e->queued : e->slots;
}

/*
 * Each row's value holds from its instant to the next row's: spread over the
 * columns of [from, to) it overlaps. O(n + COLS): consecutive rows share at
 * most one column.
 */
static void columns(const struct tl_event *rows, long n, double from, double to, struct column col[N_SERIES][COLS])
{
	double cw = (to - from) / COLS;
	for (int v = 0; v < N_SERIES; v++)
		for (int c = 0; c < COLS; c++)
			col[v][c] = (struct column){0, 0, INT32_MAX, INT32_MIN};
	for (long k = 0; k + 1 < n; k++) {
		double a = rows[k].t < from ? from : rows[k].t, b = rows[k + 1].t > to ? to : rows[k + 1].t;
		if (b <= a)
			continue;
		int c0 = (int)((a - from) / cw), c1 = (int)((b - from) / cw);
		for (int c = c0; c <= c1 && c < COLS; c++) {
			double lo = from + c * cw, hi = lo + cw;
			double over = (b < hi ? b : hi) - (a > lo ? a : lo);
			if (over <= 0)
				continue;
			for (int v = 0; v < N_SERIES; v++) {
				int32_t x = series_value(&rows[k], v);
				struct column *p = &col[v][c];
				p->sum += x * over, p->cover += over;
				p->min = x < p->min ? x : p->min;
				p->max = x > p->max ? x : p->max;
			}
		}
	}
}

/* The columns' means (-1: no data) and the largest value of all. */
static int32_t means(const struct column *col, double *mean)
{
	int32_t top = 1;
	for (int c = 0; c < COLS; c++) {
		mean[c] = col[c].cover > 0 ? col[c].sum / col[c].cover : -1;
		top = col[c].cover > 0 && col[c].max > top ? col[c].max : top;
	}
	return top;
}

/* The least-to-largest band of a series, one closed path per run of columns with data. */
static void draw_band(FILE *f, const char *id, const struct column *col, double top, double h, double vmax,
		      const char *fill, double opacity)
{
	fprintf(f, "<path id=\"%s\" fill=\"%s\" fill-opacity=\"%.2f\" stroke=\"none\" d=\"", id, fill, opacity);
	for (int c = 0; c < COLS;) {
		if (col[c].cover <= 0) {
			c++;
			continue;
		}
		int e = c;
		while (e < COLS && col[e].cover > 0)
			e++;
		for (int k = c; k < e; k++)
			fprintf(f, "%c%d %.1f L%d %.1f ", k == c ? 'M' : 'L', LEFT + k, top + h - col[k].max * h / vmax,
				LEFT + k + 1, top + h - col[k].max * h / vmax);
		for (int k = e - 1; k >= c; k--)
			fprintf(f, "L%d %.1f L%d %.1f ", LEFT + k + 1, top + h - col[k].min * h / vmax, LEFT + k,
				top + h - col[k].min * h / vmax);
		fputs("Z ", f);
		c = e;
	}
	fputs("\"/>\n", f);
}

int pictures_timeline_svg(FILE *f, const struct picture_src *s)
{
	struct tl_event *rows;
	long n = timeline(s, &rows);
	if (n < 0)
		return -1;
	enum { SLOTS_H = 130, GAP = 72 };
	/* Time sharing: a panel of slots in use under the main one, on the same time axis. */
	bool ts = s->slots != NULL;
	double ph = 420, W = LEFT + PLOT_W + RIGHT, top2 = TOP + ph + GAP;
	double H = (ts ? top2 + SLOTS_H + 18 : TOP + ph) + BOTTOM + 20;
	struct window win = window_of(s);
	struct time_axis ax = time_axis(s, (double)win.from, (double)win.to, LEFT, PLOT_W);
	/* Bounded size whatever the trace: a pixel column shows its span's mean, least and largest value. */
	static struct column col[N_SERIES][COLS];
	static double mean[N_SERIES][COLS];
	columns(rows, n, ax.from, ax.to, col);
	int32_t max_b = means(col[SERIES_BUSY], mean[SERIES_BUSY]);
	int32_t max_q = means(col[SERIES_QUEUED], mean[SERIES_QUEUED]);
	int32_t max_s = means(col[SERIES_SLOTS], mean[SERIES_SLOTS]);
	double qmax = nice((double)max_q);
	/* Under time sharing the started jobs can hold more processors than the machine has (one
	 * machine per slot): the axis grows to show them. */
	double bmax = ts && max_b > (int32_t)s->procs ? nice((double)max_b) : (double)s->procs;
	svg_open(f, W, H);
	svg_title(f, "Timeline", s, W);
	window_subtitle(f, s, &win, W);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.1f\" fill=\"#f7f7f7\" stroke=\"#000\"/>\n", LEFT,
		TOP, PLOT_W, ph);
	draw_time_axis(f, &ax, TOP, ph);
	draw_value_axis(f, bmax, LEFT, TOP, ph, "end", true, PLOT_W);
	draw_value_axis(f, qmax, LEFT + PLOT_W, TOP, ph, "start", false, 0);
	draw_band(f, "busy-band", col[SERIES_BUSY], TOP, ph, bmax, "#6a9fd8", 0.3);
	draw_area(f, "busy-mean", mean[SERIES_BUSY], TOP, ph, bmax, "#6a9fd8", 0.8);
	if (ts && bmax > s->procs) /* where one slot's worth of processors ends */
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#2c6cb0\" stroke-dasharray=\"6 4\"/>\n",
			LEFT, TOP + ph - s->procs * ph / bmax, LEFT + PLOT_W, TOP + ph - s->procs * ph / bmax);
	draw_band(f, "queued-band", col[SERIES_QUEUED], TOP, ph, qmax, "#c0392b", 0.15);
	fputs("<path id=\"queued-mean\" fill=\"none\" stroke=\"#c0392b\" stroke-width=\"1.2\" d=\"", f);
	bool pen = false;
	for (int c = 0; c < COLS; c++) {
		if (mean[SERIES_QUEUED][c] < 0) {
			pen = false; /* a gap stays a gap */
			continue;
		}
		fprintf(f, "%c%d %.1f", pen ? 'L' : 'M', LEFT + c, TOP + ph - mean[SERIES_QUEUED][c] * ph / qmax);
		pen = true;
	}
	fputs("\"/>\n", f);
	fprintf(f, "<text transform=\"translate(22,%.1f) rotate(-90)\" text-anchor=\"middle\" fill=\"#2c6cb0\">%s</text>\n",
		TOP + ph / 2, ts ? "processors of the started jobs (all slots)" : "busy processors");
	fprintf(f, "<text transform=\"translate(%.1f,%.1f) rotate(90)\" text-anchor=\"middle\" fill=\"#c0392b\">queued jobs</text>\n",
		W - 18, TOP + ph / 2);
	if (ts) {
		double smax = nice((double)max_s);
		fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#f7f7f7\" stroke=\"#000\"/>\n", LEFT,
			top2, PLOT_W, SLOTS_H);
		draw_time_axis(f, &ax, top2, SLOTS_H);
		draw_value_axis(f, smax, LEFT, top2, SLOTS_H, "end", true, PLOT_W);
		draw_band(f, "slots-band", col[SERIES_SLOTS], top2, SLOTS_H, smax, "#27ae60", 0.25);
		draw_area(f, "slots-mean", mean[SERIES_SLOTS], top2, SLOTS_H, smax, "#27ae60", 0.7);
		fprintf(f, "<text transform=\"translate(22,%.1f) rotate(-90)\" text-anchor=\"middle\" fill=\"#1e8449\">slots in use</text>\n",
			top2 + SLOTS_H / 2.0);
		/* Two lines: the legend of three series does not fit one. */
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" fill=\"#444\">Blue: processors of the jobs started and not ended, over every slot "
			   "(dashed: the machine's %u); red: jobs waiting for their first quantum; green: time slots in use.</text>\n",
			LEFT, H - 28, (unsigned)s->procs);
	}
	char span[48];
	double cw = (ax.to - ax.from) / COLS;
	snprintf(span, sizeof span, "%.3g %s", cw >= 172800 ? cw / 86400 : cw >= 7200 ? cw / 3600 : cw >= 120 ? cw / 60 : cw,
		 cw >= 172800 ? "days" : cw >= 7200 ? "hours" : cw >= 120 ? "minutes" : "s");
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" fill=\"#444\">%s"
		   "Each of the %d pixel columns (%s each) shows the time-weighted mean (solid area, line) and, lighter, "
		   "the least to the largest value in its span (exact series: --timeline).</text>\n",
		LEFT, H - 10, ts ? "" : "Blue: busy processors; red: jobs waiting. ", COLS, span);
	fputs("</svg>\n", f);
	free(rows);
	return 0;
}
