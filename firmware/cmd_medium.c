/* SPDX-License-Identifier: MIT */
/* medium [peek OFFSET|poke OFFSET BYTE [COUNT]|erase SECTOR]: the store's medium byte by byte, for tests. */
#include <stdbool.h>

#include "commands.h"
#include "con.h"
#include "port.h"

/* What the console asks of the store: room for the checkpoint and journal to come. */
#define CON_STORE_BYTES (64u * 1024u)
/* Enough for one poke to span two sectors and more than one 512-byte chunk of a board's NOR check. */
#define CON_POKE_MAX 1024u

static struct port_store_geometry geometry;
static bool store_open;

/* Opened on first use, so a session that never asks does no I/O; until it opens, every use retries. */
static int open_store(void)
{
	if (!store_open) {
		int err = port_store_open(CON_STORE_BYTES, &geometry);
		if (err != SCHED_OK)
			return err;
		store_open = true;
	}
	return SCHED_OK;
}

static void store_err(int err)
{
	if (err == SCHED_E_NOENT)
		con_err(err, "no store: boot with --store FILE");
	else if (err == SCHED_E_STATE)
		con_err(err, "a bit would go from 0 to 1: erase the sector first");
	else
		con_err(err, NULL);
}

/* Whether the subcommand has @p min..@p max words in all; otherwise the err reply is printed. */
static bool arity(const struct args *a, unsigned min, unsigned max, const char *usage)
{
	if (a->n >= min && a->n <= max)
		return true;
	con_err(a->n < min ? SCHED_E_MISSING : SCHED_E_EXTRA, usage);
	return false;
}

static void peek(uint32_t offset)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[16];
	int err = port_store_read(offset, b, sizeof b);
	if (err != SCHED_OK) {
		store_err(err);
		return;
	}
	struct fmt f;
	fmt_init(&f);
	fmt_kv(&f, "ok at=", offset);
	fmt_str(&f, " hex=");
	for (unsigned i = 0; i < sizeof b; i++) {
		fmt_ch(&f, hex[b[i] >> 4]);
		fmt_ch(&f, hex[b[i] & 15u]);
	}
	fmt_line(&f);
}

void cmd_medium(struct args *a)
{
	const char *sub = a->n > 1 ? a->v[1] : "";
	uint32_t x = 0, y = 0, count = 1;
	if (a->n == 1) {
		/* nothing to parse */
	} else if (con_str_eq(sub, "peek")) {
		if (!arity(a, 3, 3, "medium peek OFFSET") || !con_number(a->v[2], &x))
			return;
	} else if (con_str_eq(sub, "poke")) {
		if (!arity(a, 4, 5, "medium poke OFFSET BYTE [COUNT]") || !con_number(a->v[2], &x) ||
		    !con_number(a->v[3], &y) || (a->n == 5 && !con_number(a->v[4], &count)))
			return;
		if (y > 255) {
			con_err(SCHED_E_RANGE, "a byte is 0..255");
			return;
		}
		if (count == 0 || count > CON_POKE_MAX) {
			con_err(SCHED_E_RANGE, "a poke is 1..1024 bytes");
			return;
		}
	} else if (con_str_eq(sub, "erase")) {
		if (!arity(a, 3, 3, "medium erase SECTOR") || !con_number(a->v[2], &x))
			return;
	} else {
		con_err(SCHED_E_INVAL, "medium takes peek, poke or erase");
		return;
	}

	int err = open_store();
	if (a->n == 1) {
		if (err == SCHED_E_NOENT) {
			con_ok(" medium=off");
		} else if (err != SCHED_OK) {
			store_err(err);
		} else {
			struct fmt f;
			fmt_init(&f);
			fmt_kv(&f, "ok medium=on sectors=", geometry.sectors);
			fmt_kv(&f, " sector_bytes=", geometry.sector_bytes);
			fmt_line(&f);
		}
		return;
	}
	if (err != SCHED_OK) {
		store_err(err);
		return;
	}
	if (con_str_eq(sub, "peek")) {
		peek(x);
		return;
	}
	struct fmt f;
	fmt_init(&f);
	if (con_str_eq(sub, "poke")) {
		/* On the stack, not static: the board's RAM has no 1 KiB to spare, its 8 KiB stack has. */
		unsigned char b[CON_POKE_MAX];
		for (uint32_t i = 0; i < count; i++)
			b[i] = (unsigned char)y;
		err = port_store_write(x, b, count);
		fmt_kv(&f, "ok at=", x);
		fmt_kv(&f, " byte=", y);
		if (count > 1)
			fmt_kv(&f, " count=", count);
	} else {
		err = port_store_erase(x);
		fmt_kv(&f, "ok erased=", x);
	}
	if (err != SCHED_OK)
		store_err(err);
	else
		fmt_line(&f);
}
