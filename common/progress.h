/* SPDX-License-Identifier: MIT */
/*
 * Progress on stderr for long host runs (build/replay, build/sweep):
 * "LABEL: DONE/TOTAL UNIT (P%), R UNIT/s, ETA M:SS[, WHAT]".
 *
 * Usage: progress_start() once with the total, progress_add() for each unit
 * of work done (jobs, cells, ...) and progress_add(p, 0) from any place that
 * runs often (an event, a wake-up), progress_end() once. While progress is
 * shown, a timer (setitimer, SIGALRM every PROGRESS_TICK_S) sets a flag;
 * progress_add() is an increment and a test of that flag, and reads the
 * clock only when the flag is up. So a line comes on time however the cost
 * of a unit changes (a stride of units tuned from an early rate went silent
 * for minutes once the queue grew), as long as progress_add() is called at
 * least every PROGRESS_TICK_S. R and the ETA come from the last
 * PROGRESS_RECENT_S, not from the average since the start.
 *
 * Reproducible instruction counts: when nothing is shown (PROGRESS_OFF, or
 * PROGRESS_AUTO off a terminal) no timer is armed, the flag never rises and
 * the clock is never read after progress_start(), so the count of a run
 * does not depend on its timing. When progress is shown, the lines (and the
 * count) depend on the wall time.
 *
 * Modes:
 *   PROGRESS_AUTO  shown only when the stream is a terminal and the run has
 *                  lasted PROGRESS_DELAY_S: one line rewritten with \r, at
 *                  most every PROGRESS_TTY_S, blanked by progress_end() (the
 *                  report that follows is left alone). Nothing otherwise.
 *   PROGRESS_ON    forced (--progress), terminal or not: into a file or pipe
 *                  a newline-ended line every PROGRESS_LINE_S after the
 *                  first PROGRESS_DELAY_S (so a log stays readable); on a
 *                  terminal the rewritten line as AUTO. In both, always a
 *                  last newline-ended line from progress_end() with the
 *                  final count, average rate and time.
 *   PROGRESS_OFF   nothing (--quiet).
 * One progress at a time per process (the timer and its flag are the
 * process's); SIGALRM is taken while one is shown (installed with
 * SA_RESTART, the previous handler put back by progress_end()). Writes only
 * to the stream given; never to stdout unless that is the stream.
 */
#ifndef COMMON_PROGRESS_H
#define COMMON_PROGRESS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum progress_mode { PROGRESS_AUTO = 0, PROGRESS_ON, PROGRESS_OFF };

#define PROGRESS_DELAY_S 1.0   /* nothing before a run has lasted this long: short runs stay silent */
#define PROGRESS_TTY_S 0.25    /* terminal: at most four rewrites a second */
#define PROGRESS_LINE_S 1.0    /* forced into a file or pipe: a line a second */
#define PROGRESS_TICK_S 0.25   /* the timer's period: the flag rises this often */
#define PROGRESS_RECENT_S 5.0  /* the rate and the ETA: over about this much of the latest wall time */
#define PROGRESS_SAMPLES 32    /* readings kept for the recent rate (at one a tick: 8 s) */

/* What the caller adds at the end of a line (the queue length, the cells running): at most @p len bytes. */
typedef void progress_describe_fn(void *ctx, char *buf, size_t len);

struct progress {
	FILE *f;
	const char *label, *unit;
	bool on;              /* anything may be shown at all */
	bool forced;          /* PROGRESS_ON: a last line at the end */
	bool tty;             /* rewrite one line rather than append lines */
	bool armed;           /* the timer runs and SIGALRM is ours */
	uint64_t total, done;
	double t0, last_show;
	struct { double t; uint64_t done; } sample[PROGRESS_SAMPLES]; /* a ring of readings, for the recent rate */
	unsigned n_samples, next_sample;
	double t_change;      /* the reading at which done was last seen to grow */
	uint64_t done_change;
	progress_describe_fn *describe;
	void *describe_ctx;
	int width;            /* of the line on the terminal, to blank it */
};

/* Raised by the timer every PROGRESS_TICK_S while a progress is shown; lowered by progress_check(). */
extern volatile sig_atomic_t progress_due;

/**
 * Start counting to @p total units of @p unit ("jobs") under @p label
 * ("replay"); @p label and @p unit must outlive @p p. Reads the clock, asks
 * isatty() of @p f, and arms the timer if anything may be shown. O(1).
 */
void progress_start(struct progress *p, FILE *f, enum progress_mode mode, const char *label, const char *unit,
		    uint64_t total);

/**
 * Add @p fn(@p ctx) to the end of each line from now on (NULL: nothing); called only when a line is
 * shown. @p p may be NULL. O(1).
 */
void progress_describe(struct progress *p, progress_describe_fn *fn, void *ctx);

/** The slow path of progress_add(): read the clock, keep the reading, maybe show a line. O(PROGRESS_SAMPLES). */
void progress_check(struct progress *p);

/**
 * Count @p n more units done (0: only give a due line its chance). O(1): an increment and a test of
 * the timer's flag. @p p may be NULL (no progress).
 */
static inline void progress_add(struct progress *p, uint64_t n)
{
	if (p != NULL) {
		p->done += n;
		if (progress_due)
			progress_check(p);
	}
}

/** The end: disarm the timer; PROGRESS_ON prints the last line, PROGRESS_AUTO blanks what it showed. O(1). */
void progress_end(struct progress *p);

#endif /* COMMON_PROGRESS_H */
