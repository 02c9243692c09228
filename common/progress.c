/* SPDX-License-Identifier: MIT */
/* Progress on stderr for long host runs: see progress.h. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

/* Monotonic seconds: wall-clock jumps (NTP, DST) must not make an ETA jump. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(struct progress *p, FILE *f, enum progress_mode mode, const char *label, const char *unit,
		    uint64_t total)
{
	memset(p, 0, sizeof *p);
	p->f = f;
	p->label = label;
	p->unit = unit;
	p->total = total;
	p->tty = isatty(fileno(f)) == 1;
	p->forced = mode == PROGRESS_ON;
	p->on = p->forced || (mode == PROGRESS_AUTO && p->tty);
	/* The first reading after one unit: a sweep's unit (a cell) can take seconds, a replay's (a job)
	 * microseconds; the stride is re-tuned from the rate at every reading. Off: the clock is never read
	 * again (next_check never reached). */
	p->stride = 1;
	p->next_check = p->on ? p->stride : UINT64_MAX;
	p->t0 = p->last_check = now_s();
	p->last_show = p->t0;
}

/* "LABEL: DONE/TOTAL UNIT (P%), R UNIT/s, ETA M:SS" (or ", T s" at the end) into buf. */
static int format(const struct progress *p, double t, bool final, char *buf, size_t len)
{
	double el = t - p->t0;
	double rate = el > 0 ? (double)p->done / el : 0;
	double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 100.0;
	int n = snprintf(buf, len, "%s: %llu/%llu %s (%.0f%%), %.0f %s/s", p->label, (unsigned long long)p->done,
			 (unsigned long long)p->total, p->unit, pct, rate, p->unit);
	if (n < 0 || (size_t)n >= len)
		return n;
	if (final) {
		n += snprintf(buf + n, len - (size_t)n, ", %.1f s", el);
	} else if (rate > 0 && p->done < p->total) {
		double eta = (double)(p->total - p->done) / rate;
		unsigned long s = eta < 1e7 ? (unsigned long)(eta + 0.5) : 9999999ul;
		n += snprintf(buf + n, len - (size_t)n, ", ETA %lu:%02lu", s / 60, s % 60);
	}
	return n;
}

static void show(struct progress *p, double t, bool final)
{
	char buf[200];
	int n = format(p, t, final, buf, sizeof buf);
	if (n < 0)
		return;
	if (p->tty) {
		/* Pad over the longer line it replaces. */
		int pad = p->width > n ? p->width - n : 0;
		fprintf(p->f, "\r%s%*s%s", buf, pad, "", final ? "\n" : "");
		p->width = final ? 0 : n;
	} else {
		fprintf(p->f, "%s\n", buf);
	}
	fflush(p->f);
	p->last_show = t;
}

void progress_check(struct progress *p)
{
	double t = now_s();
	/* Re-tune the stride from the rate since the last reading: the next one about PROGRESS_CHECK_S away. */
	double dt = t - p->last_check;
	uint64_t units = p->done - p->done_at_check;
	if (dt > 0 && units > 0) {
		double want = (double)units * PROGRESS_CHECK_S / dt;
		p->stride = want < 1 ? 1 : want > 1e6 ? 1000000u : (uint64_t)want;
	}
	p->last_check = t;
	p->done_at_check = p->done;
	p->next_check = p->done + p->stride;
	double every = p->tty ? PROGRESS_TTY_S : PROGRESS_LINE_S;
	if (t - p->t0 >= PROGRESS_DELAY_S && t - p->last_show >= every)
		show(p, t, false);
}

void progress_end(struct progress *p)
{
	if (!p->on)
		return;
	if (p->forced) {
		show(p, now_s(), true);
	} else if (p->width > 0) {
		/* Blank the line, so what follows (the report, the prompt) starts clean. */
		fprintf(p->f, "\r%*s\r", p->width, "");
		fflush(p->f);
	}
	/* Ended: later calls add nothing and show nothing. */
	p->on = false;
	p->next_check = UINT64_MAX;
}
