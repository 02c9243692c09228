/* SPDX-License-Identifier: MIT */
/* Pictures of one replayed schedule: hand-written SVG (no library) and a CSV time series. */
#include "pictures.h"

#include <stdint.h>
#include <stdlib.h>

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

/* A time axis reads better in the unit of its span than in raw seconds. */
struct time_axis {
	double from, to, unit, step; /* seconds; step a 1-2-5 multiple of the unit */
	const char *unit_name;
	double x0, w;                /* pixels */
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

static struct time_axis time_axis(double from, double to, double x0, double w)
{
	struct time_axis a = {from, to > from ? to : from + 1, 1, 1, "seconds", x0, w};
	double span = a.to - a.from;
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

/* Ticks, grid lines and labels of the time axis under a plot of height @p h at @p top. */
static void draw_time_axis(FILE *f, const struct time_axis *a, double top, double h)
{
	double first = a->step * (double)(int64_t)(a->from / a->step);
	if (first < a->from)
		first += a->step;
	for (double t = first; t <= a->to + 1e-9; t += a->step) {
		double x = tx(a, t);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ccc\" stroke-width=\"0.5\"/>\n",
			x, top, x, top + h);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000\"/>\n", x, top + h, x,
			top + h + 5);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x, top + h + 19,
			t / a->unit);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">simulated time (%s from the trace's time 0)</text>\n",
		a->x0 + a->w / 2, top + h + 42, a->unit_name);
}

/* One value per column of the plot (PLOT_W of them; -1: no data there) as a filled step area over [top, top + h], vmax at the top. */
static void draw_area(FILE *f, const int32_t *v, double top, double h, double vmax, const char *fill,
		      double opacity)
{
	fprintf(f, "<path fill=\"%s\" fill-opacity=\"%.1f\" stroke=\"none\" d=\"M%d %.1f", fill, opacity, LEFT,
		top + h);
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

/* The span of the schedule: first submit to last end of the jobs that ran. */
static void schedule_span(const struct picture_src *s, sched_time_t *lo, sched_time_t *hi)
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

int pictures_gantt(FILE *f, const struct picture_src *s, sched_time_t from, sched_time_t to)
{
	size_t *idx = malloc((s->n + 1) * sizeof *idx);
	sched_time_t *busy = calloc(s->procs, sizeof *busy);   /* each drawing row's end of use */
	sched_procs_t *row = malloc((s->n + 1) * sizeof *row);  /* each job's lowest row, for its wait line */
	if (idx == NULL || busy == NULL || row == NULL) {
		free(idx), free(busy), free(row);
		return -1;
	}
	size_t m = ran_by_start(s, idx);
	sched_time_t lo, hi;
	schedule_span(s, &lo, &hi);
	if (from == 0)
		from = lo;
	if (to == 0 || to > hi)
		to = hi > from ? hi : from + 1;
	double ph = s->procs * 4.0 < 300 ? 300 : s->procs * 4.0 > 800 ? 800 : s->procs * 4.0;
	double W = LEFT + PLOT_W + RIGHT, H = TOP + ph + BOTTOM + 20;
	struct time_axis ax = time_axis(from, to, LEFT, PLOT_W);
	double px_per_s = PLOT_W / (ax.to - ax.from), row_h = ph / s->procs;
	size_t visible = 0;
	for (size_t k = 0; k < m; k++) {
		const struct replay_job_out *o = &s->out[idx[k]];
		visible += o->end > from && o->submit < to;
	}
	/* Bounded output: on a big window, jobs under a pixel wide are left out, then the rest capped. */
	bool skip_narrow = visible > PICTURES_GANTT_MAX;
	size_t drawn = 0, narrow = 0, capped = 0;

	svg_open(f, W, H);
	svg_title(f, "Gantt chart", s, W);
	fprintf(f, "<text x=\"%.1f\" y=\"42\" text-anchor=\"middle\" fill=\"#444\">window %u s to %u s of simulated time</text>\n",
		W / 2, (unsigned)from, (unsigned)to);
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
		bool show = o->end > from && o->submit < to;
		bool in_rect = o->end > from && o->start < to;
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
	for (long k = 0; k < n; k++) {
		fprintf(f, "%u,%d,%d,%d", (unsigned)rows[k].t, rows[k].busy, rows[k].queued, rows[k].running);
		if (ts)
			fprintf(f, ",%d", rows[k].slots);
		fputc('\n', f);
	}
	free(rows);
	return 0;
}

int pictures_timeline_svg(FILE *f, const struct picture_src *s)
{
	struct tl_event *rows;
	long n = timeline(s, &rows);
	if (n < 0)
		return -1;
	enum { COLS = PLOT_W, SLOTS_H = 130, GAP = 66 };
	/* Time sharing: a panel of slots in use under the main one, on the same time axis. */
	bool ts = s->slots != NULL;
	double ph = 420, W = LEFT + PLOT_W + RIGHT, top2 = TOP + ph + GAP;
	double H = (ts ? top2 + SLOTS_H + 18 : TOP + ph) + BOTTOM + 20;
	sched_time_t lo = n ? rows[0].t : 0, hi = n ? rows[n - 1].t : 1;
	struct time_axis ax = time_axis(lo, hi, LEFT, PLOT_W);
	/* Bounded size whatever the trace: each pixel column shows the most busy and queued of its span. */
	static int32_t busy[COLS], queued[COLS], slots[COLS];
	int32_t max_q = 1, max_b = 1, max_s = 1;
	for (int c = 0; c < COLS; c++)
		busy[c] = queued[c] = slots[c] = -1;
	for (long k = 0; k < n; k++) {
		double end = k + 1 < n ? rows[k + 1].t : rows[k].t + 1e-9;
		int c0 = (int)((rows[k].t - ax.from) * COLS / (ax.to - ax.from));
		int c1 = (int)((end - ax.from) * COLS / (ax.to - ax.from));
		for (int c = c0 < 0 ? 0 : c0; c <= c1 && c < COLS; c++) {
			busy[c] = rows[k].busy > busy[c] ? rows[k].busy : busy[c];
			queued[c] = rows[k].queued > queued[c] ? rows[k].queued : queued[c];
			slots[c] = rows[k].slots > slots[c] ? rows[k].slots : slots[c];
		}
		max_q = rows[k].queued > max_q ? rows[k].queued : max_q;
		max_b = rows[k].busy > max_b ? rows[k].busy : max_b;
		max_s = rows[k].slots > max_s ? rows[k].slots : max_s;
	}
	double qmax = nice((double)max_q);
	/* Under time sharing the started jobs can hold more processors than the machine has (one
	 * machine per slot): the axis grows to show them. */
	double bmax = ts && max_b > (int32_t)s->procs ? nice((double)max_b) : (double)s->procs;
	svg_open(f, W, H);
	svg_title(f, "Timeline", s, W);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.1f\" fill=\"#f7f7f7\" stroke=\"#000\"/>\n", LEFT,
		TOP, PLOT_W, ph);
	draw_time_axis(f, &ax, TOP, ph);
	draw_value_axis(f, bmax, LEFT, TOP, ph, "end", true, PLOT_W);
	draw_value_axis(f, qmax, LEFT + PLOT_W, TOP, ph, "start", false, 0);
	draw_area(f, busy, TOP, ph, bmax, "#6a9fd8", 0.7);
	if (ts && bmax > s->procs) /* where one slot's worth of processors ends */
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#2c6cb0\" stroke-dasharray=\"6 4\"/>\n",
			LEFT, TOP + ph - s->procs * ph / bmax, LEFT + PLOT_W, TOP + ph - s->procs * ph / bmax);
	fputs("<path fill=\"none\" stroke=\"#c0392b\" stroke-width=\"1.2\" d=\"", f);
	bool pen = false;
	for (int c = 0; c < COLS; c++) {
		if (queued[c] < 0)
			continue;
		fprintf(f, "%c%d %.1f", pen ? 'L' : 'M', LEFT + c, TOP + ph - queued[c] * ph / qmax);
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
		draw_area(f, slots, top2, SLOTS_H, smax, "#27ae60", 0.6);
		fprintf(f, "<text transform=\"translate(22,%.1f) rotate(-90)\" text-anchor=\"middle\" fill=\"#1e8449\">slots in use</text>\n",
			top2 + SLOTS_H / 2.0);
		/* Two lines: the legend of three series does not fit one. */
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" fill=\"#444\">Blue area: processors of the jobs started and not ended, over every slot "
			   "(dashed: the machine's %u); red line: jobs waiting for their first quantum; green: time slots in use.</text>\n",
			LEFT, H - 28, (unsigned)s->procs);
	}
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" fill=\"#444\">%s"
		   "Each of the %d pixel columns shows the largest value over its time span (the exact series: --timeline).</text>\n",
		LEFT, H - 10, ts ? "" : "Blue area: busy processors; red line: jobs waiting. ", COLS);
	fputs("</svg>\n", f);
	free(rows);
	return 0;
}
