/* SPDX-License-Identifier: MIT */
/* The boards' non-volatile store: a host file reached by semihosting, kept to NOR flash rules. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "port.h"
#include "sched/err.h"

/*
 * Under QEMU nothing on the boards outlives the process: the netduinoplus2's
 * flash is a ROM that ignores writes, and every RAM starts from zero
 * (docs/port-guide.md, "The non-volatile store", has the experiments). A file
 * that QEMU opens for the firmware through semihosting does persist: each
 * SYS_WRITE is one write(2) on the host, so a SIGKILL loses nothing written.
 * There is no semihosting fsync, so a host crash may; that is the price.
 *
 * The file is named by the firmware's semihosting command line, `--store
 * FILE`, relative to QEMU's working directory. Sectors are 4096 bytes like the
 * host port's, so a store file moves between the twin and a board.
 */

#define STORE_SECTOR_BYTES 4096u
/* Semihosting positions are signed 32 bits (SYS_SEEK, SYS_FLEN). */
#define STORE_MAX_BYTES (0x80000000u - STORE_SECTOR_BYTES)

enum {
	SYS_OPEN = 0x01,
	SYS_CLOSE = 0x02,
	SYS_WRITE = 0x05,
	SYS_READ = 0x06,
	SYS_SEEK = 0x0A,
	SYS_FLEN = 0x0C,
	SYS_GET_CMDLINE = 0x15,
};

/* SYS_OPEN modes, fopen's: "r+b" needs the file to exist; "a+b" creates one without truncating. */
#define MODE_RPLUS_B 3u
#define MODE_APLUS_B 11u

/*
 * The one buffer: the command line while opening, then old bytes while a write
 * checks the NOR rule, then erased bytes for an erase. 512 bytes because the
 * netduinoplus2's RAM is nearly all the console's arena (docs/size.md).
 */
static char scratch[512];

static int32_t handle = -1;  /* the open file, kept across failed opens so a retry reuses it */
static bool is_open;         /* port_store_open has succeeded: the other calls may run */
static uint32_t store_bytes; /* the size it gave, whole sectors */

/* One semihosting call: QEMU reads (and for SYS_GET_CMDLINE writes) the block, answers in r0. */
static int32_t semihost(uint32_t op, volatile uint32_t *block)
{
	register uint32_t r0 __asm("r0") = op;
	register volatile uint32_t *r1 __asm("r1") = block;
	__asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return (int32_t)r0;
}

static int seek(uint32_t offset)
{
	volatile uint32_t block[2] = {(uint32_t)handle, offset};
	return semihost(SYS_SEEK, block) == 0 ? SCHED_OK : SCHED_E_IO;
}

/* SYS_WRITE and SYS_READ answer the bytes they did not move: anything but 0 is a failure. */
static int put(const void *p, uint32_t n, uint32_t offset)
{
	int err = seek(offset);
	if (err != SCHED_OK)
		return err;
	volatile uint32_t block[3] = {(uint32_t)handle, (uint32_t)(uintptr_t)p, n};
	return semihost(SYS_WRITE, block) == 0 ? SCHED_OK : SCHED_E_IO;
}

static int get(void *p, uint32_t n, uint32_t offset)
{
	int err = seek(offset);
	if (err != SCHED_OK)
		return err;
	volatile uint32_t block[3] = {(uint32_t)handle, (uint32_t)(uintptr_t)p, n};
	return semihost(SYS_READ, block) == 0 ? SCHED_OK : SCHED_E_IO;
}

static void fill_erased(void)
{
	for (size_t i = 0; i < sizeof scratch; i++)
		scratch[i] = (char)0xFF;
}

/* Write erased bytes over [from, to). */
static int put_erased(uint32_t from, uint32_t to)
{
	fill_erased();
	while (from < to) {
		uint32_t k = to - from;
		if (k > sizeof scratch)
			k = sizeof scratch;
		int err = put(scratch, k, from);
		if (err != SCHED_OK)
			return err;
		from += k;
	}
	return SCHED_OK;
}

static bool same(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/*
 * The word after "--store" on the semihosting command line, in scratch; NULL
 * when there is none. QEMU joins its arguments with single spaces, so a name
 * with a space in it cannot be told apart and is not supported.
 */
static const char *store_name(int *err)
{
	volatile uint32_t block[2] = {(uint32_t)(uintptr_t)scratch, sizeof scratch};
	*err = SCHED_OK;
	if (semihost(SYS_GET_CMDLINE, block) != 0) {
		*err = SCHED_E_IO; /* includes a line longer than scratch: QEMU then copies nothing */
		return NULL;
	}
	scratch[sizeof scratch - 1] = '\0';
	bool after_flag = false;
	for (char *p = scratch; *p != '\0';) {
		while (*p == ' ')
			*p++ = '\0';
		if (*p == '\0')
			break;
		char *word = p;
		while (*p != '\0' && *p != ' ')
			p++;
		if (*p == ' ')
			*p++ = '\0';
		if (after_flag)
			return word;
		after_flag = same(word, "--store");
	}
	return NULL;
}

static int32_t open_mode(const char *name, uint32_t mode)
{
	uint32_t len = 0;
	while (name[len] != '\0')
		len++;
	volatile uint32_t block[3] = {(uint32_t)(uintptr_t)name, mode, len};
	return semihost(SYS_OPEN, block);
}

/* Open the file read-write, creating it empty if it is missing but never truncating it. */
static int open_file(const char *name)
{
	/*
	 * No fopen mode does both: "a+b" creates without truncating, then "r+b"
	 * allows writes anywhere. QEMU 7.2 drops O_APPEND and "a+b" alone would
	 * seem to do, but a QEMU that honours it would append every write.
	 */
	int32_t h = open_mode(name, MODE_APLUS_B);
	if (h < 0)
		return SCHED_E_IO;
	volatile uint32_t block[1] = {(uint32_t)h};
	if (semihost(SYS_CLOSE, block) != 0)
		return SCHED_E_IO;
	h = open_mode(name, MODE_RPLUS_B);
	if (h < 0)
		return SCHED_E_IO;
	handle = h;
	return SCHED_OK;
}

int port_store_open(uint32_t want_bytes, struct port_store_geometry *g)
{
	if (want_bytes > STORE_MAX_BYTES)
		return SCHED_E_RANGE;
	if (handle < 0) {
		int err;
		const char *name = store_name(&err);
		if (name == NULL)
			return err != SCHED_OK ? err : SCHED_E_NOENT;
		err = open_file(name);
		if (err != SCHED_OK)
			return err;
	}
	volatile uint32_t block[1] = {(uint32_t)handle};
	int32_t len = semihost(SYS_FLEN, block);
	if (len < 0)
		return SCHED_E_IO;
	uint32_t have = (uint32_t)len;
	uint32_t want = (want_bytes + STORE_SECTOR_BYTES - 1) / STORE_SECTOR_BYTES * STORE_SECTOR_BYTES;
	uint32_t whole = have / STORE_SECTOR_BYTES * STORE_SECTOR_BYTES; /* a torn tail is not a sector */
	uint32_t size = whole > want ? whole : want;
	/*
	 * A new medium reads as erased: the bytes added are 0xFF, never the zeros
	 * a seek past the end leaves. From the last whole sector: a torn tail was
	 * past the store, read as erased, and must not come back.
	 */
	if (want > whole) {
		/* A failure part way keeps the store of before the call: only bytes past it changed. */
		int err = put_erased(whole, want);
		if (err != SCHED_OK)
			return err;
	}
	is_open = true;
	store_bytes = size;
	g->sector_bytes = STORE_SECTOR_BYTES;
	g->sectors = size / STORE_SECTOR_BYTES;
	return SCHED_OK;
}

int port_store_erase(uint32_t sector)
{
	if (!is_open)
		return SCHED_E_STATE;
	if (sector >= store_bytes / STORE_SECTOR_BYTES)
		return SCHED_E_RANGE;
	return put_erased(sector * STORE_SECTOR_BYTES, (sector + 1) * STORE_SECTOR_BYTES);
}

int port_store_write(uint32_t offset, const void *data, uint32_t n)
{
	if (!is_open)
		return SCHED_E_STATE;
	if (offset > store_bytes || n > store_bytes - offset)
		return SCHED_E_RANGE;
	/* NOR rules: check the whole span before anything is written, so a refused write changes nothing. */
	const unsigned char *p = data;
	for (uint32_t at = 0; at < n;) {
		uint32_t k = n - at;
		if (k > sizeof scratch)
			k = sizeof scratch;
		int err = get(scratch, k, offset + at);
		if (err != SCHED_OK)
			return err;
		for (uint32_t i = 0; i < k; i++)
			if ((unsigned char)(p[at + i] & ~(unsigned char)scratch[i]) != 0)
				return SCHED_E_STATE;
		at += k;
	}
	return n == 0 ? SCHED_OK : put(p, n, offset);
}

int port_store_read(uint32_t offset, void *data, uint32_t n)
{
	if (!is_open)
		return SCHED_E_STATE;
	if (offset > store_bytes || n > store_bytes - offset)
		return SCHED_E_RANGE;
	return n == 0 ? SCHED_OK : get(data, n, offset);
}
