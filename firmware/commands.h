/* SPDX-License-Identifier: MIT */
/* The console's command table: one line per command, from which dispatch, arity checks and help come. */
#ifndef FW_COMMANDS_H
#define FW_COMMANDS_H

#include "line.h"

/*
 * X(name, min, max, arguments, help, handler): the command word, how many
 * arguments it takes (the dispatcher refuses other counts before the
 * handler runs), its arguments and a one-line description as `help` prints
 * them, and the handler, void handler(struct args *). A handler prints
 * exactly one "ok" or "err" line (after any "evt" or "bench" lines). To add
 * a command: one file firmware/cmd_*.c with its handler, one line here.
 */
#define CONSOLE_COMMANDS(X)                                                                               \
	X("help", 0, 1, "[COMMAND]", "the commands with their arguments, or what one does", cmd_help)   \
	X("version", 0, 0, "", "the build and the board", cmd_version)                                 \
	X("config", 0, 2, "[KEY VALUE|help [KEY]]", "show the configuration, set one parameter, or describe them", cmd_config) \
	X("time", 0, 1, "[T]", "the clock and the next event; with T as advance", cmd_advance)        \
	X("advance", 1, 1, "T", "move the clock to T, printing what falls due", cmd_advance)          \
	X("submit", 3, 7, "ID PROCS ESTIMATE [USER [QUEUE [UP [PP]]]]", "a job arrives now", cmd_submit) \
	X("finish", 1, 1, "ID", "the running job ended by itself now", cmd_finish)                    \
	X("cancel", 1, 1, "ID", "withdraw a waiting or running job now", cmd_cancel)                   \
	X("predict", 1, 1, "ID", "the start the policy guarantees the job", cmd_predict)              \
	X("status", 0, 0, "", "the clock, the policy and the machine's load", cmd_status)             \
	X("queue", 0, 1, "[FROM]", "up to 16 waiting jobs from position FROM", cmd_queue)             \
	X("running", 0, 1, "[FROM]", "up to 16 running jobs from position FROM", cmd_running)         \
	X("profile", 0, 1, "[FROM]", "up to 16 profile segments from FROM", cmd_profile)              \
	X("stats", 0, 0, "", "the core's counters since the last reset", cmd_stats)                    \
	X("policy", 0, 1, "[NAME]", "list the policies, or switch to one now", cmd_policy)             \
	X("reset", 0, 0, "", "an empty schedule at time 0", cmd_reset)                                 \
	X("replay", 1, 2, "NAME [POLICY]", "replay a linked fixture: metrics, hash, cycles", cmd_replay) \
	X("fixtures", 0, 0, "", "the fixtures linked into the image", cmd_fixtures)                    \
	X("bench", 0, 1, "[BACKLOG]", "the per-operation benchmark", cmd_bench)                        \
	X("selfcheck", 1, 1, "on|off", "run the invariant checker after every command", cmd_selfcheck) \
	X("selftest", 1, 1, "fault", "fail on purpose, to test the fault report", cmd_selftest)       \
	X("store", 0, 4, "[peek OFFSET|poke OFFSET BYTE [COUNT]|erase SECTOR]", "the non-volatile store: on or off, 16 bytes in hex, program COUNT copies of a byte, erase a sector", cmd_store) \
	X("quit", 0, 1, "[CODE]", "end the session with exit status CODE", cmd_quit)

#define CONSOLE_DECLARE_(name, min, max, arguments, help, handler) void handler(struct args *a);
CONSOLE_COMMANDS(CONSOLE_DECLARE_)
#undef CONSOLE_DECLARE_

#endif /* FW_COMMANDS_H */
