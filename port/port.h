/* SPDX-License-Identifier: MIT */
/* The port boundary: what a platform gives the programs built around the core. */
#ifndef PORT_H
#define PORT_H

#include <stddef.h>
#include <stdint.h>

/*
 * One implementation per platform: port/host/ over POSIX, and one folder per
 * board. The build picks the folder; nothing includes a platform header
 * except the port itself. The core does not call the port: it is handed
 * times and jobs. The port provides the core's sched_assert_failed() hook,
 * routed to port_panic().
 */

/** Bring up the console and the counters; call once before anything else. */
void port_init(void);

/** The port's name, as the console's banner and version print it. */
const char *port_name(void);

/**
 * Fail on purpose, the way a real fault would (an undefined instruction on
 * a board, an abort on the host), to prove the fault path reports and exits
 * non-zero. Used by the console's "selftest fault".
 */
#ifdef __GNUC__
__attribute__((noreturn))
#endif
void port_selftest_fault(void);

/** Seconds since boot (host: since port_init) from a monotonic source; never goes back. */
uint32_t port_uptime_s(void);

/**
 * A free-running counter for cost measurements: instructions or cycles on a
 * board (see docs), nanoseconds on the host. Differences of two reads are
 * meaningful; the absolute value is not.
 */
uint64_t port_cycles(void);

/** What port_cycles() counts: "instructions", "cycles", "ticks" or "ns". */
const char *port_cycle_unit(void);

/** Write @p n bytes to the console; returns only when all are queued. */
void port_write(const char *s, size_t n);

/** Next console byte, blocking; -1 when the input has ended (host EOF). */
int port_getc(void);

/** Report a fatal error at file:line on the console and stop with a non-zero status. */
#ifdef __GNUC__
__attribute__((noreturn))
#endif
void port_panic(const char *file, int line);

/** Stop the program with @p status (board: semihosting exit). */
#ifdef __GNUC__
__attribute__((noreturn))
#endif
void port_exit(int status);

#endif /* PORT_H */
