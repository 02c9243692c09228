/* SPDX-License-Identifier: MIT */
/* The console's own error codes (30-35: its text input), after the core's: one numbering, one message table. */
#ifndef CONSOLE_ERR_H
#define CONSOLE_ERR_H

#include "sched/err.h"

/*
 * The core's table (sched/err.h) keeps 1-29 for the scheduler and the
 * fixture codec and leaves 30-39 to the console, which adds its input
 * errors here the same way: X(NAME, number, message), the code the number
 * negated. The numbers are the console protocol (`err 33 not a number`,
 * docs/console.md): never renumber, only append. con_strerror() has a case
 * for every code of both tables, so a number taken twice does not compile.
 */
#define CON_ERRORS(X)                                                                      \
	X(COMMAND, 30, "unknown command")               /* the first word names no command */ \
	X(MISSING, 31, "missing argument")              /* fewer words than the command needs */ \
	X(EXTRA, 32, "too many arguments")              /* more words than it takes */ \
	X(NUMBER, 33, "not a number")                   /* not decimal digits only */ \
	X(LINE, 34, "line too long")                    /* the excess was discarded */ \
	X(CONTROL, 35, "control character in line")     /* a byte below 0x20 other than tab */

#define CON_ERR_ENUM_(name, num, msg) CON_E_##name = -(num),
enum con_err {
	CON_ERRORS(CON_ERR_ENUM_)
};
#undef CON_ERR_ENUM_

/** The message of a console or core error code ("not a number", "no space", ...); "ok" for 0. O(codes); never NULL. */
const char *con_strerror(int err);

#endif /* CONSOLE_ERR_H */
