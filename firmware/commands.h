/* SPDX-License-Identifier: MIT */
/* The console's command table: one line per command, from which dispatch, arity checks and help come. */
#ifndef FW_COMMANDS_H
#define FW_COMMANDS_H

#include "line.h"

/*
 * X(name, min, max, journal, arguments, help, handler): the command word,
 * how many arguments it takes (the dispatcher refuses other counts before
 * the handler runs), whether its line changes the schedule and so goes to
 * the store's write-ahead journal before it runs (CON_J_NO, CON_J_YES, or
 * CON_J_ARGS: when it has arguments, as `time T` but not `time`), its
 * arguments and a one-line description as `help` prints them, and the
 * handler, void handler(struct args *). A handler prints exactly one "ok" or
 * "err" line (after any "evt" or "bench" lines), and a refusal changes
 * nothing, in memory or in the store: a journaled command checks everything
 * that can refuse it, then calls con_commit() (which journals its line), then
 * changes the schedule. To add a command: one file firmware/cmd_*.c with its
 * handler, one line here, and its refused lines in tests/console/refused.sh.
 * A command that replaces the live schedule some other way calls
 * con_arena_take() where a journaled one calls con_commit() (replay, bench).
 */
enum con_journal { CON_J_NO, CON_J_YES, CON_J_ARGS };

#define CONSOLE_COMMANDS(X)                                                                               \
	X("help", 0, 1, CON_J_NO, "[COMMAND]", "the commands with their arguments, or what one does", cmd_help)   \
	X("version", 0, 0, CON_J_NO, "", "the build and the board", cmd_version)                                 \
	X("config", 0, 2, CON_J_ARGS, "[KEY VALUE|help [KEY]]", "show the configuration, set one parameter, or describe them", cmd_config) \
	X("time", 0, 1, CON_J_ARGS, "[T]", "the clock and the next event; with T as advance", cmd_advance)        \
	X("advance", 1, 1, CON_J_YES, "T", "move the clock to T, printing what falls due", cmd_advance)          \
	X("submit", 3, 7, CON_J_YES, "ID PROCS ESTIMATE [USER [QUEUE [UP [PP]]]]", "a job arrives now", cmd_submit) \
	X("finish", 1, 7, CON_J_YES, "ID [ID...]", "running jobs that ended by themselves now, then one pass", cmd_finish) \
	X("cancel", 1, 1, CON_J_YES, "ID", "withdraw a waiting or running job now", cmd_cancel)                   \
	X("predict", 1, 1, CON_J_NO, "ID", "the start the policy guarantees the job", cmd_predict)              \
	X("status", 0, 0, CON_J_NO, "", "the clock, the policy and the machine's load", cmd_status)             \
	X("queue", 0, 1, CON_J_NO, "[FROM]", "up to 16 waiting jobs from position FROM", cmd_queue)             \
	X("running", 0, 1, CON_J_NO, "[FROM]", "up to 16 running jobs from position FROM", cmd_running)         \
	X("profile", 0, 1, CON_J_NO, "[FROM]", "up to 16 profile segments from FROM", cmd_profile)              \
	X("stats", 0, 0, CON_J_NO, "", "the core's counters since the last reset", cmd_stats)                    \
	X("policy", 0, 1, CON_J_ARGS, "[NAME]", "list the policies, or switch to one now", cmd_policy)             \
	X("reset", 0, 0, CON_J_YES, "", "an empty schedule at time 0", cmd_reset)                                 \
	X("replay", 1, 2, CON_J_NO, "NAME [POLICY]", "replay a linked fixture: metrics, hash, cycles", cmd_replay) \
	X("fixtures", 0, 0, CON_J_NO, "", "the fixtures linked into the image", cmd_fixtures)                    \
	X("bench", 0, 1, CON_J_NO, "[BACKLOG]", "the per-operation benchmark", cmd_bench)                        \
	X("selfcheck", 1, 1, CON_J_NO, "on|off", "run the invariant checker after every command", cmd_selfcheck) \
	X("selftest", 1, 1, CON_J_NO, "fault", "fail on purpose, to test the fault report", cmd_selftest)       \
	X("digest", 0, 0, CON_J_NO, "", "the schedule's hash, the state's digest and the journal's position", cmd_digest) \
	X("store", 0, 1, CON_J_NO, "[snapshot|format]", "the non-volatile store; snapshot: compact the journal now; format: start it afresh, empty, discarding what it held", cmd_store) \
	X("medium", 0, 4, CON_J_NO, "[open BYTES|peek OFFSET|poke OFFSET BYTE [COUNT]|erase SECTOR]", "the port's store calls under the journal, for tests: geometry, 16 bytes in hex, COUNT copies of a byte, an erase", cmd_medium) \
	X("quit", 0, 1, CON_J_NO, "[CODE]", "end the session with exit status CODE", cmd_quit)

#define CONSOLE_DECLARE_(name, min, max, journal, arguments, help, handler) void handler(struct args *a);
CONSOLE_COMMANDS(CONSOLE_DECLARE_)
#undef CONSOLE_DECLARE_

#endif /* FW_COMMANDS_H */
