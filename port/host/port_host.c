/* SPDX-License-Identifier: MIT */
/* The host port: POSIX stdio for the console, CLOCK_MONOTONIC for time, abort() for panics. */
#define _POSIX_C_SOURCE 200809L
#include "port.h"
#include "sched/types.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static struct timespec boot;

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void port_init(void)
{
	clock_gettime(CLOCK_MONOTONIC, &boot);
}

uint32_t port_uptime_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)(ts.tv_sec - boot.tv_sec);
}

uint64_t port_cycles(void)
{
	return mono_ns();
}

const char *port_name(void)
{
	return "host";
}

void port_selftest_fault(void)
{
	port_panic("selftest fault", 0);
}

const char *port_cycle_unit(void)
{
	return "ns";
}

void port_write(const char *s, size_t n)
{
	/* A console answers line by line: the driver must see each line as it is written. */
	fwrite(s, 1, n, stdout);
	fflush(stdout);
}

int port_getc(void)
{
	int c = getchar();
	return c == EOF ? -1 : c;
}

void port_panic(const char *file, int line)
{
	fflush(stdout);
	fprintf(stderr, "panic: %s:%d\n", file, line);
	abort();
}

void port_exit(int status)
{
	fflush(stdout);
	exit(status);
}

void sched_assert_failed(const char *file, int line)
{
	fflush(stdout);
	fprintf(stderr, "assertion failed: %s:%d\n", file, line);
	abort();
}
