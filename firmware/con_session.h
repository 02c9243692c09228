/* SPDX-License-Identifier: MIT */
/*
 * The console's live session (console.c): the live scheduler over the one
 * arena, its clock, its configuration and its schedule hash, and the
 * journal's rules for a command that changes them. The state is the
 * console's own; command files read and change it through these functions.
 */
#ifndef FW_CON_SESSION_H
#define FW_CON_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "bench.h"
#include "console.h"
#include "fmt.h"
#include "sched/hash.h"
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

/** The live scheduler (at the start of the arena). O(1). */
struct sched *con_sched(void);

/** The live clock: the time of the last advance. O(1). */
sched_time_t con_now(void);

/** Move the live clock to @p t (not before con_now(); the caller advances the scheduler). O(1). */
void con_set_now(sched_time_t t);

/** The configuration the next con_live_init() uses; its policy parameters mirror the live ones. O(1). */
const struct sched_config *con_config(void);

/** Keep @p c as the configuration for the next con_live_init() (a reset); the live scheduler is untouched. O(1). */
void con_set_config(const struct sched_config *c);

/**
 * Processors of a node, allocated whole (config node_size; 1, the default: one by one): submit and
 * replay round a job's processors up to a multiple of it (trace_whole_nodes). O(1).
 */
uint32_t con_node_size(void);

/** Keep @p k (>= 1) as the node size; the caller has checked that it divides the machine. O(1). */
void con_set_node_size(uint32_t k);

/** The port's name, as the banner shows it. O(1). */
const char *con_port(void);

/** Whether the invariant checker runs after every command (selfcheck on). O(1). */
bool con_selfcheck(void);

/** Run the invariant checker after every command (@p on) or not. O(1). */
void con_set_selfcheck(bool on);

/** End the session after this command with exit status @p status (0..255). O(1). */
void con_quit(int status);

/** The schedule hash: FNV-1a over every decision since the last reset, restored ones included. O(1). */
uint64_t con_hash(void);

/** How many decisions the hash covers. O(1). */
uint32_t con_decisions(void);

/* The hash's start: the one FNV-1a offset (sched/hash.h). */
#define CON_HASH_BASIS SCHED_FNV_OFFSET

/** FNV-1a step over the four bytes of @p v. O(1). */
uint64_t con_hash_u32(uint64_t h, uint32_t v);

/** Start the live scheduler afresh over the arena, empty, at time 0. O(max_jobs). */
void con_live_init(void);

/** Run the pass a state change calls for, at the current time. O(pass). */
void con_settle(void);

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
 * can refuse it: journal it as a reset, and lend it the console's arena
 * (CON_ARENA_BYTES; it calls con_live_init() when done). NULL, with the err
 * reply printed, if the store refused: the command must not go on. O(as
 * con_commit).
 */
unsigned char *con_arena_take(void);

/** Append " next=T" (or "-"): when the core next needs the clock. O(1). */
void con_fmt_next(struct fmt *f);

#endif /* FW_CON_SESSION_H */
