/* SPDX-License-Identifier: MIT */
/*
 * The port under libFuzzer: the console writes into a buffer the target
 * checks, there is no input device (the target calls console_feed() itself)
 * and a store in RAM, wiped for every input. Every path that would end the program (panic, exit, the
 * deliberate fault, an assertion) aborts, which libFuzzer reports as a
 * crash with the input that caused it.
 */
#include <stdbool.h>
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

/*
 * The store: NOR flash in RAM, wiped for every input, so the journal, the
 * snapshots and the restore run under the fuzzer too. A write that would
 * set a bit without an erase is the engine's bug, not an input's: abort.
 */
#define FUZZ_SECTOR 4096u
#define FUZZ_SECTORS 64u
static unsigned char store_mem[FUZZ_SECTOR * FUZZ_SECTORS];
static uint32_t store_size; /* bytes opened; 0 until port_store_open */

static bool store_ready; /* store_mem was erased once; afterwards only the opened part is wiped */

void port_fuzz_store_wipe(void)
{
	memset(store_mem, 0xFF, store_ready ? store_size : sizeof store_mem);
	store_ready = true;
	store_size = 0;
}

int port_store_open(uint32_t want_bytes, struct port_store_geometry *g)
{
	uint32_t sectors = (want_bytes + FUZZ_SECTOR - 1) / FUZZ_SECTOR;
	if (sectors > FUZZ_SECTORS)
		return SCHED_E_NOSPACE;
	if (sectors * FUZZ_SECTOR > store_size)
		store_size = sectors * FUZZ_SECTOR;
	g->sector_bytes = FUZZ_SECTOR;
	g->sectors = store_size / FUZZ_SECTOR;
	return SCHED_OK;
}

int port_store_erase(uint32_t sector)
{
	if (sector >= store_size / FUZZ_SECTOR)
		return SCHED_E_RANGE;
	memset(store_mem + sector * FUZZ_SECTOR, 0xFF, FUZZ_SECTOR);
	return SCHED_OK;
}

int port_store_write(uint32_t offset, const void *data, uint32_t n)
{
	const unsigned char *p = data;
	if (offset > store_size || n > store_size - offset)
		return SCHED_E_RANGE;
	for (uint32_t i = 0; i < n; i++)
		if ((p[i] & ~store_mem[offset + i]) != 0) {
			fprintf(stderr, "port_fuzz: the store engine set a bit without an erase at %u\n", offset + i);
			abort();
		}
	for (uint32_t i = 0; i < n; i++)
		store_mem[offset + i] = p[i];
	return SCHED_OK;
}

int port_store_read(uint32_t offset, void *data, uint32_t n)
{
	if (offset > store_size || n > store_size - offset)
		return SCHED_E_RANGE;
	memcpy(data, store_mem + offset, n);
	return SCHED_OK;
}
