/* SPDX-License-Identifier: MIT */
/* Per-operation cost of the core on the target, at growing backlogs (make bench-target). */
#ifndef FW_BENCH_H
#define FW_BENCH_H

#include <stddef.h>

#include "sched/sched.h"

#define BENCH_MAX_BACKLOG 1024u
#define BENCH_RUNNING 32u                       /* jobs that fill the machine */
#define BENCH_EXTRA 8u                          /* jobs submitted and cancelled while measuring */
#define BENCH_CAPACITY (BENCH_MAX_BACKLOG + BENCH_RUNNING + BENCH_EXTRA)
/* The policies that plan in scratch: relaxed and slack at backlogs up to 128, the dynP family up to 512. */
#define BENCH_PLAN_MAX_BACKLOG 512u
#define BENCH_PLAN_CAPACITY (BENCH_PLAN_MAX_BACKLOG + BENCH_RUNNING + BENCH_EXTRA)
#define BENCH_PLAN_BYTES SCHED_ARENA_SIZE_SCRATCH(BENCH_PLAN_CAPACITY, BENCH_PLAN_CAPACITY)
#define BENCH_ARENA_BYTES (SCHED_ARENA_SIZE(BENCH_CAPACITY) > BENCH_PLAN_BYTES ? SCHED_ARENA_SIZE(BENCH_CAPACITY) \
										 : BENCH_PLAN_BYTES)

/**
 * For each policy and each backlog of 16, 64, 256 and 1024 waiting jobs (up
 * to @p max_backlog; relaxed and slack at 16, 64 and 128, the dynP family at
 * 16, 64, 185 and 512, with scratch for the whole system), print one line
 * per operation: submit, finish of a
 * running job before its estimate (conservative compresses here), and the
 * scheduling pass that follows (advance), in the port's cycle unit, with
 * the profile's length. Uses @p arena (at least BENCH_ARENA_BYTES):
 * the console lends its own, so a board needs no second scheduler.
 */
void bench_run(void *arena, size_t size, unsigned max_backlog);

#define BENCH_GANG_JOBS 128u
#define BENCH_GANG_QUANTA 3000u

/**
 * The time-shared policies' cost on the target (gang, seed 002), through
 * the sched API like every policy: for 128 processors (32 slots) and 1024
 * (16 slots), each value of its `scheme` parameter, BENCH_GANG_QUANTA
 * quanta of a synthetic load of about 0.7; prints the mean cost of a
 * quantum (sched_advance, a slice at a time) and of an arrival
 * (sched_submit) in the port's cycle unit, or op=no_room if @p arena is too small.
 * Then the same for the gang module alone (policy=gang-module-SCHEME: sched_gang_submit
 * and sched_gang_tick, no struct sched), as this benchmark measured gang before.
 */
void bench_gang(void *arena, size_t size);

#endif /* FW_BENCH_H */
