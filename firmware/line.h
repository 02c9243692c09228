/* SPDX-License-Identifier: MIT */
/* Line input: bytes in, checked command lines and their words out. No commands, no output. */
#ifndef FW_LINE_H
#define FW_LINE_H

#include <stdbool.h>
#include <stddef.h>

#include "console_err.h"

#define LINE_MAX_BYTES 127u /* longest command line; longer ones are refused whole */
#define LINE_MAX_WORDS 8u   /* a command and up to seven arguments */

/* A line being assembled. Zero-initialised, it is empty. */
struct line {
	char buf[LINE_MAX_BYTES + 1];
	size_t len;
	size_t dropped; /* bytes of an over-long line thrown away */
	bool control;   /* the line held a control character */
	bool cr;        /* the last byte was a carriage return, held back until the next shows what it was */
};

/* The words of a line; v[0] is the command. */
struct args {
	char *v[LINE_MAX_WORDS];
	unsigned n;
};

/**
 * Take one byte. O(1). Returns 0 while the line goes on (a carriage return
 * right before the line feed is ignored; anywhere else it is a control
 * character), 1 at its line feed with the line in l->buf, or at that line
 * feed CON_E_LINE (over LINE_MAX_BYTES, the rest discarded) or
 * CON_E_CONTROL; either way the next byte starts a new line.
 */
int line_feed(struct line *l, char c);

/** Split @p s in place at spaces and tabs into @p a. O(length). SCHED_OK, or CON_E_EXTRA past LINE_MAX_WORDS. */
int line_split(char *s, struct args *a);

#endif /* FW_LINE_H */
