/* SPDX-License-Identifier: MIT */
/*
 * The port under libFuzzer: the console writes into a buffer the target
 * checks, there is no input device (the target calls console_feed() itself)
 * and no store (the controller keeps no state, as the host twin without
 * --store). Every path that would end the program (panic, exit, the
 * deliberate fault, an assertion) aborts, which libFuzzer reports as a
 * crash with the input that caused it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "port.h"
#include "port_fuzz.h"
#include "sched/err.h"
#include "sched/types.h"

/*
 * One input line's output at most is held: the target takes it after each
 * line. A line can start or kill at most every job of the table (864), a
 * few tens of kilobytes; a megabyte full means the console never stops.
 */
static char out[1u << 20];
static size_t out_len;
static uint64_t ticks;

const char *port_fuzz_output(size_t *n)
{
	*n = out_len;
	return out;
}

void port_fuzz_clear(void)
{
	out_len = 0;
	ticks = 0;
}

_Noreturn static void die(const char *why)
{
	fprintf(stderr, "port_fuzz: %s\n", why);
	abort();
}

void port_init(void)
{
}

const char *port_name(void)
{
	return "fuzz";
}

void port_selftest_fault(void)
{
	/* The target filters "selftest fault" out of its input: reaching this is a bug in that filter. */
	die("selftest fault reached");
}

uint32_t port_uptime_s(void)
{
	return 0;
}

/* A counter, not a clock: the same input prints the same cycles, so a crash reproduces exactly. */
uint64_t port_cycles(void)
{
	return ticks++;
}

const char *port_cycle_unit(void)
{
	return "ticks";
}

void port_write(const char *s, size_t n)
{
	if (n > sizeof out - out_len)
		die("more than a megabyte of output for one line");
	memcpy(out + out_len, s, n);
	out_len += n;
}

/* The target feeds bytes itself; console_run() is not part of the fuzzed code. */
int port_getc(void)
{
	return -1;
}

void port_panic(const char *file, int line)
{
	fprintf(stderr, "port_fuzz: panic at %s:%d\n", file, line);
	abort();
}

void port_exit(int status)
{
	fprintf(stderr, "port_fuzz: exit %d\n", status);
	abort();
}

void sched_assert_failed(const char *file, int line)
{
	fprintf(stderr, "port_fuzz: assertion failed at %s:%d\n", file, line);
	abort();
}

/* No store: the console must run without one, as the host twin does without --store. */
int port_store_open(uint32_t want_bytes, struct port_store_geometry *g)
{
	(void)want_bytes;
	(void)g;
	return SCHED_E_NOENT;
}

int port_store_erase(uint32_t sector)
{
	(void)sector;
	return SCHED_E_STATE;
}

int port_store_write(uint32_t offset, const void *data, uint32_t n)
{
	(void)offset;
	(void)data;
	(void)n;
	return SCHED_E_STATE;
}

int port_store_read(uint32_t offset, void *data, uint32_t n)
{
	(void)offset;
	(void)data;
	(void)n;
	return SCHED_E_STATE;
}
