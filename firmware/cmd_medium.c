/* SPDX-License-Identifier: MIT */
/* medium [open BYTES|peek OFFSET|poke OFFSET BYTE [COUNT]|erase SECTOR]: the port's store calls one by one, for tests. */
#include <stdbool.h>

#include "commands.h"
#include "con_reply.h"
#include "console_err.h"
#include "port.h"

/* Enough for one poke to span two sectors and more than one 512-byte chunk of a board's NOR check. */
#define CON_POKE_MAX 1024u

static void medium_err(int err)
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
	con_err(a->n < min ? CON_E_MISSING : CON_E_EXTRA, usage);
	return false;
}

static void peek(uint32_t offset)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[16];
	int err = port_store_read(offset, b, sizeof b);
	if (err != SCHED_OK) {
		medium_err(err);
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
	} else if (con_str_eq(sub, "open") || con_str_eq(sub, "peek")) {
		if (!arity(a, 3, 3, sub[0] == 'o' ? "medium open BYTES" : "medium peek OFFSET") ||
		    !con_number(a->v[2], &x))
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
		con_err(SCHED_E_INVAL, "medium takes open, peek, poke or erase");
		return;
	}

	/*
	 * Every use opens: the port's open is cheap once its file is open, and
	 * asking for 0 bytes never resizes what the console's store set up at
	 * boot. Only `medium open BYTES` asks for more (the port grows the file).
	 */
	struct port_store_geometry g;
	int err = port_store_open(x > 0 && sub[0] == 'o' ? x : 0, &g);
	if (a->n == 1 && err == SCHED_E_NOENT) {
		con_ok(" medium=off");
		return;
	}
	if (err != SCHED_OK) {
		medium_err(err);
		return;
	}
	struct fmt f;
	fmt_init(&f);
	if (a->n == 1 || sub[0] == 'o') {
		fmt_kv(&f, "ok medium=on sectors=", g.sectors);
		fmt_kv(&f, " sector_bytes=", g.sector_bytes);
		fmt_line(&f);
		return;
	}
	if (con_str_eq(sub, "peek")) {
		peek(x);
		return;
	}
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
		medium_err(err);
	else
		fmt_line(&f);
}
