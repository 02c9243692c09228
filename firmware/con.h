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
	int exit_status; /* -1 until quit */
};
extern struct con con;

/** Start the live scheduler afresh over the arena, empty, at time 0. O(max_jobs). */
void con_live_init(void);

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
