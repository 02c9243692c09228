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

/*
 * --- The non-volatile store ----------------------------------------------
 * A medium that behaves like NOR flash: equal sectors; erasing a sector sets
 * its bytes to 0xFF; a write can only clear bits (a write that would turn a
 * 0 bit back into 1 fails whole with SCHED_E_STATE and changes nothing);
 * a read returns what is there. What must survive a reset lives here
 * (firmware/durable.c). Host: a file named by build/console --store FILE,
 * each write and erase followed by fsync. Boards under QEMU: a host file
 * reached by semihosting, named by the firmware's semihosting command line
 * (--store FILE); a real board maps the same calls onto its flash sectors.
 * Errors are negative sched_err codes (core/include/sched/err.h).
 */
struct port_store_geometry {
	uint32_t sector_bytes; /* erase unit; a power of two */
	uint32_t sectors;
};

/**
 * Open the platform's store, sized for at least @p want_bytes (a store on a
 * file is created or grown to that, rounded up to whole sectors, with the
 * new bytes erased; a torn tail, part of a sector past the last whole one,
 * is not part of the store and is erased when it grows); fills @p g.
 * Asking for 0 bytes never changes the medium. O(size) on creation, else O(1).
 * SCHED_E_NOENT: no store is configured (the controller keeps no state);
 * SCHED_E_NOSPACE: a fixed medium smaller than @p want_bytes; SCHED_E_IO.
 */
int port_store_open(uint32_t want_bytes, struct port_store_geometry *g);

/** Erase sector @p sector to 0xFF. O(sector). SCHED_E_RANGE, SCHED_E_IO, SCHED_E_STATE (not open). */
int port_store_erase(uint32_t sector);

/**
 * Program @p n bytes at byte @p offset (may cross sectors); durable when it
 * returns. O(n). SCHED_E_STATE: a bit would go from 0 to 1 (nothing
 * written) or the store is not open; SCHED_E_RANGE; SCHED_E_IO.
 */
int port_store_write(uint32_t offset, const void *data, uint32_t n);

/** Read @p n bytes at @p offset. O(n). SCHED_E_RANGE, SCHED_E_IO, SCHED_E_STATE (not open). */
int port_store_read(uint32_t offset, void *data, uint32_t n);

#endif /* PORT_H */
