/* SPDX-License-Identifier: MIT */
/* The host port: counters that never go back, and a store file that keeps the rules of NOR flash. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "host/port_host.h"
#include "port.h"
#include "sched/err.h"

static void counters_are_monotonic(void)
{
	port_init();
	uint64_t prev = port_cycles();
	uint32_t up = port_uptime_s();
	for (int i = 0; i < 100000; i++) {
		uint64_t now = port_cycles();
		CHECK(now >= prev);
		prev = now;
	}
	CHECK(port_uptime_s() >= up);
	CHECK(up < 5); /* seconds since port_init, which just ran */
}

/* The host's store behaves as NOR flash, keeps what was written across a reopen, and refuses misuse. */
static void store_file_is_nor_flash(void)
{
	char path[] = "/tmp/test_port_store_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	struct port_store_geometry g;
	port_host_store_file(NULL);
	CHECK_EQ(port_store_open(4096, &g), SCHED_E_NOENT);
	port_host_store_file(path);
	CHECK_EQ(port_store_open(10000, &g), SCHED_OK);
	CHECK_EQ(g.sector_bytes, 4096);
	CHECK_EQ(g.sectors, 3); /* rounded up to whole sectors */
	unsigned char b[8];
	CHECK_EQ(port_store_read(5000, b, 8), SCHED_OK);
	for (int i = 0; i < 8; i++)
		CHECK_EQ(b[i], 0xFF); /* a new medium reads erased */
	const unsigned char w[4] = {0x12, 0x34, 0xF0, 0x0F};
	CHECK_EQ(port_store_write(4094, w, 4), SCHED_OK); /* across a sector boundary */
	CHECK_EQ(port_store_read(4094, b, 4), SCHED_OK);
	CHECK(b[0] == 0x12 && b[1] == 0x34 && b[2] == 0xF0 && b[3] == 0x0F);
	/* Clearing more bits is allowed; setting one back is not, and changes nothing. */
	const unsigned char clear[1] = {0x10}, set[2] = {0x00, 0xFF};
	CHECK_EQ(port_store_write(4094, clear, 1), SCHED_OK);
	CHECK_EQ(port_store_write(4095, set, 2), SCHED_E_STATE);
	CHECK_EQ(port_store_read(4094, b, 3), SCHED_OK);
	CHECK(b[0] == 0x10 && b[1] == 0x34 && b[2] == 0xF0);
	CHECK_EQ(port_store_write(3 * 4096 - 1, w, 2), SCHED_E_RANGE);
	CHECK_EQ(port_store_read(3 * 4096, b, 1), SCHED_E_RANGE);
	CHECK_EQ(port_store_erase(3), SCHED_E_RANGE);
	/* Erase takes one sector back to 0xFF and leaves its neighbour alone. */
	CHECK_EQ(port_store_erase(1), SCHED_OK);
	CHECK_EQ(port_store_read(4094, b, 3), SCHED_OK);
	CHECK(b[0] == 0x10 && b[1] == 0x34 && b[2] == 0xFF);
	/* Reopened (as after a restart), larger: the old bytes stay, the new ones read erased. */
	CHECK_EQ(port_store_open(5 * 4096, &g), SCHED_OK);
	CHECK_EQ(g.sectors, 5);
	CHECK_EQ(port_store_read(4094, b, 2), SCHED_OK);
	CHECK(b[0] == 0x10 && b[1] == 0x34);
	CHECK_EQ(port_store_read(4 * 4096, b, 1), SCHED_OK);
	CHECK_EQ(b[0], 0xFF);
	unlink(path);
}

static const struct test tests[] = {
	{"store_file_is_nor_flash", store_file_is_nor_flash},
	{"counters_are_monotonic", counters_are_monotonic},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("port", tests, argc, argv);
}
