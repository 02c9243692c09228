/* SPDX-License-Identifier: MIT */
/*
 * Progress on stderr for long host runs (build/replay today, a sweep later):
 * "LABEL: DONE/TOTAL UNIT (P%), R UNIT/s, ETA M:SS".
 *
 * Usage: progress_start() once with the total, progress_add() for each unit
 * of work done (jobs, cells, ...), progress_end() once. The counter is
 * cheap: progress_add() is an increment and a compare; the monotonic clock
 * is read only every `stride` units, a stride re-tuned at each reading so
 * that readings come about every PROGRESS_CHECK_S, whatever a unit costs.
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
 *                  final count, rate and time.
 *   PROGRESS_OFF   nothing (--quiet).
 * Not thread-safe: one progress per process or thread. Writes only to the
 * stream given; never to stdout unless that is the stream.
 */
#ifndef COMMON_PROGRESS_H
#define COMMON_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum progress_mode { PROGRESS_AUTO = 0, PROGRESS_ON, PROGRESS_OFF };

#define PROGRESS_DELAY_S 1.0  /* nothing before a run has lasted this long: short runs stay silent */
#define PROGRESS_TTY_S 0.25   /* terminal: at most four rewrites a second */
#define PROGRESS_LINE_S 1.0   /* forced into a file or pipe: a line a second */
#define PROGRESS_CHECK_S 0.05 /* aim of the stride: a clock reading every 50 ms */

struct progress {
	FILE *f;
	const char *label, *unit;
	bool on;              /* anything may be shown at all */
	bool forced;          /* PROGRESS_ON: a last line at the end */
	bool tty;             /* rewrite one line rather than append lines */
	uint64_t total, done;
	uint64_t next_check;  /* done at which the clock is read next */
	uint64_t stride;
	double t0, last_check, last_show;
	uint64_t done_at_check;
	int width;            /* of the line on the terminal, to blank it */
};

/**
 * Start counting to @p total units of @p unit ("jobs") under @p label
 * ("replay"); @p label and @p unit must outlive @p p. Reads the clock once
 * and, in PROGRESS_AUTO, asks isatty() of @p f. O(1).
 */
void progress_start(struct progress *p, FILE *f, enum progress_mode mode, const char *label, const char *unit,
		    uint64_t total);

/** The slow path of progress_add(): read the clock, maybe show a line. O(1). */
void progress_check(struct progress *p);

/** Count @p n more units done. O(1); a clock reading every stride units. @p p may be NULL (no progress). */
static inline void progress_add(struct progress *p, uint64_t n)
{
	if (p != NULL && (p->done += n) >= p->next_check)
		progress_check(p);
}

/** The end: PROGRESS_ON prints the last line, PROGRESS_AUTO blanks what it showed. O(1). */
void progress_end(struct progress *p);

#endif /* COMMON_PROGRESS_H */
