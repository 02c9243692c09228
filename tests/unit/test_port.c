/* SPDX-License-Identifier: MIT */
/* The host port: counters that never go back. */
#include "harness.h"
#include "port.h"

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

static const struct test tests[] = {
	{"counters_are_monotonic", counters_are_monotonic},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("port", tests, argc, argv);
}
