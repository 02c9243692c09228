/* SPDX-License-Identifier: MIT */
/* The line-command console over the scheduling core: the same code on the host twin and on boards. */
#ifndef FW_CONSOLE_H
#define FW_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

#include "line.h"
#include "sched/sched.h"

/* Capacities; a board's port.mk may override them. */
#ifndef CONSOLE_MAX_JOBS
#define CONSOLE_MAX_JOBS 864u      /* jobs in the live scheduler and in a replay */
#endif
#ifndef CONSOLE_SCRATCH_JOBS
#define CONSOLE_SCRATCH_JOBS 192u  /* jobs in the system the relaxed and slack policies can plan around */
#endif
#ifndef CONSOLE_DEFAULT_PROCS
#define CONSOLE_DEFAULT_PROCS 128u /* the machine the console schedules at boot */
#endif
#define CONSOLE_LINE_MAX LINE_MAX_BYTES /* longest command line; longer ones are refused */

/* A fixture linked into the image (flash on a board). */
struct console_fixture {
	const char *name;
	const uint8_t *data;
	const uint8_t *end;
};

/** The fixtures this image carries, and how many (provided by the build). */
extern const struct console_fixture console_fixtures[];
extern const unsigned console_fixture_count;

/**
 * Make console_init() format the store (the empty schedule at seq 0,
 * whatever the store held) instead of restoring it: build/console
 * --store-format. O(1).
 */
void console_store_format_at_boot(void);

/** Set up the live scheduler and print the banner, which ends in "ready". */
void console_init(const char *port_name);

/**
 * Feed one input byte; a complete line runs its command and prints its
 * reply (zero or more "evt" lines, then exactly one "ok" or "err" line).
 * Returns -1 normally, or an exit status once "quit" has run.
 */
int console_feed(char c);

/** Read bytes with port_getc() until the input ends or "quit"; return the exit status. */
int console_run(const char *port_name);

#endif /* FW_CONSOLE_H */
