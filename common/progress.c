/* SPDX-License-Identifier: MIT */
/* Progress on stderr for long host runs: see progress.h. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t progress_due;
static struct sigaction old_alarm; /* the handler before ours: one progress at a time (progress.h) */

static void on_alarm(int sig)
{
	(void)sig;
	progress_due = 1;
}

/* Monotonic seconds: wall-clock jumps (NTP, DST) must not make an ETA jump. */
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The timer: SIGALRM every PROGRESS_TICK_S. SA_RESTART so that no read or write of the run fails with
 * EINTR because of it (a replay's report into a pipe); a sweep's wait is a sigtimedwait(), which the
 * signal ends whatever the flag. */
static void arm(struct progress *p)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, &old_alarm) != 0)
		return;
	long us = (long)(PROGRESS_TICK_S * 1e6);
	struct itimerval it = {.it_interval = {us / 1000000, us % 1000000}, .it_value = {us / 1000000, us % 1000000}};
	if (setitimer(ITIMER_REAL, &it, NULL) != 0) {
		sigaction(SIGALRM, &old_alarm, NULL);
		return;
	}
	p->armed = true;
}

static void disarm(struct progress *p)
{
	if (!p->armed)
		return;
	struct itimerval off;
	memset(&off, 0, sizeof off);
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old_alarm, NULL);
	p->armed = false;
	progress_due = 0;
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
	p->t0 = p->last_show = p->t_change = now_s();
	p->sample[0].t = p->t0;
	p->n_samples = p->next_sample = 1;
	progress_due = 0;
	if (p->on)
		arm(p);
}

void progress_describe(struct progress *p, progress_describe_fn *fn, void *ctx)
{
	if (p == NULL)
		return;
	p->describe = fn;
	p->describe_ctx = ctx;
}

/* Units a second over the oldest kept reading within PROGRESS_RECENT_S of @p t. When no unit was done in
 * that window (a sweep's cells can each take longer than it), the average since the start, but at most
 * one unit over the time since the last one: an ETA that grows while nothing ends, not a fixed one. */
static double recent_rate(const struct progress *p, double t)
{
	unsigned oldest = (p->next_sample + PROGRESS_SAMPLES - p->n_samples) % PROGRESS_SAMPLES;
	for (unsigned k = 0; k < p->n_samples; k++) {
		unsigned i = (oldest + k) % PROGRESS_SAMPLES;
		if (t - p->sample[i].t > PROGRESS_RECENT_S)
			continue;
		double dt = t - p->sample[i].t;
		if (dt > 0 && p->done > p->sample[i].done)
			return (double)(p->done - p->sample[i].done) / dt;
		break;
	}
	double el = t - p->t0, since = t - p->t_change;
	double avg = el > 0 ? (double)p->done / el : 0;
	return since > 0 && avg > 1 / since ? 1 / since : avg;
}

/* "LABEL: DONE/TOTAL UNIT (P%), R UNIT/s, ETA M:SS, WHAT" (", T s" at the end, R then the average) into buf. */
static int format(const struct progress *p, double t, bool final, char *buf, size_t len)
{
	double el = t - p->t0;
	double rate = final ? (el > 0 ? (double)p->done / el : 0) : recent_rate(p, t);
	double pct = p->total ? 100.0 * (double)p->done / (double)p->total : 100.0;
	/* A sweep's cells come at under one a second: "0 cells/s" would say nothing. */
	int n = snprintf(buf, len, rate < 10 ? "%s: %llu/%llu %s (%.0f%%), %.2f %s/s" : "%s: %llu/%llu %s (%.0f%%), %.0f %s/s",
			 p->label, (unsigned long long)p->done, (unsigned long long)p->total, p->unit, pct, rate, p->unit);
	if (n < 0 || (size_t)n >= len)
		return n;
	if (final) {
		n += snprintf(buf + n, len - (size_t)n, ", %.1f s", el);
	} else if (rate > 0 && p->done < p->total) {
		double eta = (double)(p->total - p->done) / rate;
		unsigned long s = eta < 1e7 ? (unsigned long)(eta + 0.5) : 9999999ul;
		n += snprintf(buf + n, len - (size_t)n, ", ETA %lu:%02lu", s / 60, s % 60);
	}
	if (!final && p->describe != NULL && (size_t)n + 3 < len) {
		char what[96] = "";
		p->describe(p->describe_ctx, what, sizeof what);
		if (what[0] != '\0')
			n += snprintf(buf + n, len - (size_t)n, ", %s", what);
	}
	return n < (int)len ? n : (int)len - 1;
}

static void show(struct progress *p, double t, bool final)
{
	char buf[256];
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
	progress_due = 0;
	if (!p->on)
		return;
	double t = now_s();
	if (p->done != p->done_change) {
		p->done_change = p->done;
		p->t_change = t;
	}
	p->sample[p->next_sample].t = t;
	p->sample[p->next_sample].done = p->done;
	p->next_sample = (p->next_sample + 1) % PROGRESS_SAMPLES;
	if (p->n_samples < PROGRESS_SAMPLES)
		p->n_samples++;
	/* Half a tick of slack: the timer's ticks land a little early or late, and a line due at 1.0 s must
	 * not wait for the tick at 1.25 s. */
	double every = (p->tty ? PROGRESS_TTY_S : PROGRESS_LINE_S) - PROGRESS_TICK_S / 2;
	if (t - p->t0 >= PROGRESS_DELAY_S && t - p->last_show >= every)
		show(p, t, false);
}

void progress_end(struct progress *p)
{
	disarm(p);
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
}
