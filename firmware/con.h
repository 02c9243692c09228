/* SPDX-License-Identifier: MIT */
/* What the console's command files share: the live scheduler, the arena, replies and argument parsing. */
#ifndef FW_CON_H
#define FW_CON_H

#include <stdbool.h>
#include <stdint.h>

#include "bench.h"
#include "console.h"
#include "fmt.h"
#include "line.h"
#include "sched/replay.h"
#include "sched/sched.h"

#define CONSOLE_VERSION "0.4.0"

/*
 * One arena serves the live scheduler, a replay and the benchmarks in turn
 * (a board has no room for three): a replay or a benchmark ends with an
 * empty live schedule, as after "reset".
 */
#define CON_LIVE_BYTES SCHED_ARENA_SIZE_SCRATCH(CONSOLE_MAX_JOBS, CONSOLE_SCRATCH_JOBS)
#define CON_REPLAY_BYTES SCHED_REPLAY_ARENA_SIZE_SCRATCH(CONSOLE_MAX_JOBS, CONSOLE_SCRATCH_JOBS)
#define CON_ARENA_BYTES (CON_REPLAY_BYTES > BENCH_ARENA_BYTES ? CON_REPLAY_BYTES : BENCH_ARENA_BYTES)
extern unsigned char con_arena[CON_ARENA_BYTES];

/* The live session. */
struct con {
	const char *port;
	struct sched *s;          /* at the start of con_arena */
	struct sched_config cfg; /* what the next live_init uses; policy parameters mirror s's */
	sched_time_t now;
	bool selfcheck;
	bool restoring;     /* replaying the journal: commands run muted and are not journaled again */
	int exit_status;    /* -1 until quit */
	uint64_t hash;      /* FNV-1a over every decision since the last reset: the schedule hash */
	uint32_t decisions; /* how many */
};
#define CON_HASH_BASIS 14695981039346656037u
extern struct con con;

/** Start the live scheduler afresh over the arena, empty, at time 0. O(max_jobs). */
void con_live_init(void);

/** Take up the live scheduler already in con_arena (a restored snapshot). O(1). sched_attach()'s errors. */
int con_live_attach(void);

/** Run one journaled line again, muted and not journaled: a restore's replay. O(the command). */
void con_replay_line(char *text);

/**
 * A journaled command (commands.h) has checked everything that can refuse it
 * and is about to change the schedule: make its line durable now, so that a
 * refused line is never journaled and never moves seq. Call it once, right
 * before the first change; a handler that refuses returns without it. True if
 * the line is durable, or needs no journal (no store, a restore's replay, a
 * line the table does not journal); false, with the err reply printed, if the
 * store refused: the command must not go on. O(one journal append; a
 * snapshot when the journal is full).
 */
bool con_commit(void);

/**
 * Before a command replaces the live schedule other than by its own
 * journaled line (replay, bench), and after it has checked everything that
 * can refuse it: journal it as a reset. False, with the err reply printed,
 * if the store refused: the command must not go on. O(as con_commit).
 */
bool con_arena_take(void);

/** FNV-1a step over the four bytes of @p v. O(1). */
uint64_t con_hash_u32(uint64_t h, uint32_t v);

/*
 * The store (persist.c): what survives a reset. Without one (no --store on
 * the host, no semihosting store on a board) these do nothing.
 */
/** At boot: restore the newest state the store holds and print the "restore" line. O(restore). */
void persist_boot(void);
/** Append " store=on|off|failed" (and the journal's position) to the banner. O(1). */
void persist_fmt_banner(struct fmt *f);
/**
 * Make the line @p text (@p n bytes) durable before it runs, compacting a
 * full journal into a snapshot first. True if it is (or there is no store);
 * false with the err reply printed if the store failed.
 */
bool persist_log(const char *text, unsigned n);
/**
 * A journaled line ran for @p cycles (the port's counter): what replaying it
 * would cost a restore. When the journal's total passes the budget, the next
 * line is preceded by a snapshot, so a restore never replays more. O(1).
 */
void persist_ran(uint64_t cycles);

/** Run the pass a state change calls for, at the current time. O(pass). */
void con_settle(void);

/** Print "err N MESSAGE" for the (negative) sched_err @p code, with ": WHY" when @p why is not NULL. */
void con_err(int code, const char *why);

/** Print "ok" followed by @p text as it is (e.g. " bye" or ""). */
void con_ok(const char *text);

/** A decimal number that fits 32 bits into @p out; otherwise the err reply is printed and false returned. */
bool con_number(const char *s, uint32_t *out);

/** Whether two strings are equal (no libc on a board). */
bool con_str_eq(const char *a, const char *b);

/** Append " next=T" (or "-"): when the core next needs the clock. */
void con_fmt_next(struct fmt *f);

/** Append the configuration as `config` prints it (cmd_config.c). */
void con_fmt_config(struct fmt *f);

/** Parse a policy name into @p p; otherwise the err reply is printed and false returned (cmd_config.c). */
bool con_policy_arg(const char *name, enum sched_policy_id *p);

/*
 * The console's only reads of struct sched's (and the replay's) fields
 * (view.c): when the core's objects become opaque, only that file changes.
 */
struct con_load {
	uint32_t waiting, running, busy, segments; /* segments: of partition 0's profile */
};
/** Jobs waiting and running, processors busy, profile segments. O(1). */
struct con_load con_view_load(const struct sched *s);
/** The live configuration, policy parameters included, as the core normalised it. O(1). */
const struct sched_config *con_view_params(const struct sched *s);
/** Append `stats`'s counters and pool peaks (" submitted=N ... peak_segments=N"). O(1). */
void con_fmt_counters(struct fmt *f, const struct sched *s);
/** Slack insertions of a replay that found too little scratch. O(1). */
uint32_t con_view_fallbacks(const struct sched_replay *r);

#endif /* FW_CON_H */
