/* SPDX-License-Identifier: MIT */
/* Scalar types, limits and the assertion hook shared by every core module. */
#ifndef SCHED_TYPES_H
#define SCHED_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

/*
 * Time is whole seconds since an epoch the caller chooses (a trace's
 * UnixStartTime, the board's boot). 32 bits cover 136 years; the core never
 * wraps: a time computation that would pass SCHED_TIME_MAX is an error.
 * SCHED_TIME_MAX itself means "never" (no next event, the profile's end).
 */
typedef uint32_t sched_time_t;
#define SCHED_TIME_MAX UINT32_MAX

/* Processor counts. */
typedef uint32_t sched_procs_t;

/*
 * Assertions guard proven invariants and programmer errors only, never bad
 * input or a full pool (those return an error code). The application
 * provides sched_assert_failed() (the host port prints and aborts; a board
 * prints over its UART and exits); it must not return.
 */
#ifdef __GNUC__
__attribute__((noreturn))
#endif
void sched_assert_failed(const char *file, int line);

#ifndef SCHED_ASSERT
#define SCHED_ASSERT(cond) ((cond) ? (void)0 : sched_assert_failed(__FILE__, __LINE__))
#endif

/* Saturating addition of a duration to a time: never wraps past SCHED_TIME_MAX. */
static inline sched_time_t sched_time_add(sched_time_t t, sched_time_t d)
{
	return (d > SCHED_TIME_MAX - t) ? SCHED_TIME_MAX : (sched_time_t)(t + d);
}

#endif /* SCHED_TYPES_H */
