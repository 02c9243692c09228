/* SPDX-License-Identifier: MIT */
/* The controller link: the console as a child over pipes (--controller) or a serial line (--serial: a
 * Unix socket such as QEMU's -chardev socket, or a tty at 115200 8N1), spoken line by line as
 * docs/console.md says: one command out, its "evt" lines and one "ok"/"err" line back. */
#ifndef BRIDGE_LINK_H
#define BRIDGE_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util.h"

enum evt_kind { EVT_START, EVT_KILL };

struct evt {
	enum evt_kind kind;
	uint32_t id, time, procs;
};

struct reply {
	bool ok;            /* "ok ..." rather than "err ..." */
	char line[REC_MAX]; /* the closing line, without its newline */
	size_t nevt, cap;
	struct evt *evt;    /* the decisions printed before it, in order */
};

struct link {
	const char *command; /* --controller COMMAND, run by /bin/sh; or NULL */
	const char *serial;  /* --serial PATH; or NULL */
	int timeout_ms;      /* a command not answered within this is a dead controller */
	int rfd, wfd;
	pid_t child;
	bool up;
	size_t len;
	char buf[REC_MAX];
};

/**
 * Start the controller (or connect to it) and wait until it answers: its banner ("... ready") or, on
 * a serial line to a board that is already up, an answer to "version". O(boot time).
 * @return 0, or -1 with the reason in @p why (nothing at PATH, the child exited, no answer).
 */
int link_open(struct link *l, char *why, size_t size);

/** Close the link; a child is sent SIGTERM and reaped. O(1). */
void link_close(struct link *l);

/**
 * Send @p line, then collect the evt lines and the closing ok/err line into @p r. An unsolicited
 * banner on the way (the board reset) ends it like a lost link. O(reply).
 * @return 0, or -1 if the link died or timed out (then l->up is false).
 */
int link_cmd(struct link *l, const char *line, struct reply *r);

/** Whether the link has bytes or an end of file waiting although no command is under way. O(1). */
bool link_idle_input(struct link *l);

/** Free a reply's event list. O(1). */
void reply_free(struct reply *r);

#endif /* BRIDGE_LINK_H */
