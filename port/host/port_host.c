/* SPDX-License-Identifier: MIT */
/* The host port: POSIX stdio for the console, CLOCK_MONOTONIC for time, abort() for panics. */
#define _POSIX_C_SOURCE 200809L
#include "port.h"
#include "host/port_host.h"
#include "sched/err.h"
#include "sched/types.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
	const char *cut = getenv("SCHED_STORE_CUT"), *fail = getenv("SCHED_STORE_FAIL");
	if (cut != NULL && *cut != '\0')
		port_host_store_cut(strtoull(cut, NULL, 10));
	if (fail != NULL && *fail != '\0')
		port_host_store_fail(strtoull(fail, NULL, 10));
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

/* --- the store: a file of erased-or-programmed sectors ----------------------------------- */

#define HOST_SECTOR_BYTES 4096u

static const char *store_path;
static unsigned char erased[HOST_SECTOR_BYTES]; /* 0xFF once a store is open */
static int store_fd = -1;
static uint32_t store_size;
static uint64_t cut_budget; /* bytes until the simulated power cut; 0: none */
static uint64_t fail_countdown; /* port_store_write calls until one fails; 0: none */

void port_host_store_file(const char *path)
{
	store_path = path;
}

void port_host_store_cut(uint64_t bytes)
{
	cut_budget = bytes;
}

void port_host_store_fail(uint64_t nth)
{
	fail_countdown = nth;
}

/* Write all of [p, p+n) at off, or stop where the power cut falls and end the process. */
static int put(const unsigned char *p, uint32_t n, uint32_t off)
{
	uint32_t take = n;
	bool cut = cut_budget > 0 && cut_budget <= n;
	if (cut)
		take = (uint32_t)cut_budget;
	else if (cut_budget > 0)
		cut_budget -= n;
	for (uint32_t done = 0; done < take;) {
		ssize_t w = pwrite(store_fd, p + done, take - done, (off_t)(off + done));
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return SCHED_E_IO;
		done += (uint32_t)w;
	}
	if (fsync(store_fd) != 0)
		return SCHED_E_IO;
	if (cut) {
		fflush(stdout);
		_exit(86);
	}
	return SCHED_OK;
}

static int get(unsigned char *p, uint32_t n, uint32_t off)
{
	for (uint32_t done = 0; done < n;) {
		ssize_t r = pread(store_fd, p + done, n - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return SCHED_E_IO;
		done += (uint32_t)r;
	}
	return SCHED_OK;
}

int port_store_open(uint32_t want_bytes, struct port_store_geometry *g)
{
	if (store_path == NULL)
		return SCHED_E_NOENT;
	if (store_fd < 0) {
		store_fd = open(store_path, O_RDWR | O_CREAT, 0644);
		if (store_fd < 0)
			return SCHED_E_IO;
	}
	memset(erased, 0xFF, sizeof erased);
	struct stat st;
	if (fstat(store_fd, &st) != 0)
		return SCHED_E_IO;
	uint64_t want = ((uint64_t)want_bytes + HOST_SECTOR_BYTES - 1) / HOST_SECTOR_BYTES * HOST_SECTOR_BYTES;
	uint64_t have = (uint64_t)st.st_size / HOST_SECTOR_BYTES * HOST_SECTOR_BYTES;
	if (want > UINT32_MAX)
		return SCHED_E_RANGE;
	store_size = (uint32_t)(have > want ? have : want);
	if (have < want) {
		/*
		 * Grow with erased bytes: a new medium reads as 0xFF. From the last
		 * whole sector, so a torn tail (a file cut inside a sector) is erased
		 * too: before the growth it was past the store, and the console read
		 * it as erased (firmware/persist.c), so it must not come back.
		 */
		for (uint64_t at = have; at < store_size;) {
			uint32_t n = (uint32_t)(store_size - at < HOST_SECTOR_BYTES ? store_size - at : HOST_SECTOR_BYTES);
			int err = put(erased, n, (uint32_t)at);
			if (err != SCHED_OK)
				return err;
			at += n;
		}
	}
	g->sector_bytes = HOST_SECTOR_BYTES;
	g->sectors = store_size / HOST_SECTOR_BYTES;
	return SCHED_OK;
}

int port_store_erase(uint32_t sector)
{
	if (store_fd < 0)
		return SCHED_E_STATE;
	if (sector >= store_size / HOST_SECTOR_BYTES)
		return SCHED_E_RANGE;
	return put(erased, HOST_SECTOR_BYTES, sector * HOST_SECTOR_BYTES);
}

int port_store_write(uint32_t offset, const void *data, uint32_t n)
{
	if (store_fd < 0)
		return SCHED_E_STATE;
	if (offset > store_size || n > store_size - offset)
		return SCHED_E_RANGE;
	if (fail_countdown > 0 && --fail_countdown == 0)
		return SCHED_E_IO; /* a medium that refuses, for tests: nothing was written */
	/* NOR rules: check the whole span first, so a refused write changes nothing. */
	unsigned char old[512];
	const unsigned char *p = data;
	for (uint32_t at = 0; at < n;) {
		uint32_t k = n - at;
		if (k > sizeof old)
			k = sizeof old;
		int err = get(old, k, offset + at);
		if (err != SCHED_OK)
			return err;
		for (uint32_t i = 0; i < k; i++)
			if ((unsigned char)(p[at + i] & ~old[i]) != 0)
				return SCHED_E_STATE;
		at += k;
	}
	return put(p, n, offset);
}

int port_store_read(uint32_t offset, void *data, uint32_t n)
{
	if (store_fd < 0)
		return SCHED_E_STATE;
	if (offset > store_size || n > store_size - offset)
		return SCHED_E_RANGE;
	return get(data, n, offset);
}
