/* SPDX-License-Identifier: MIT */
/*
 * slowprog: a run whose units get slow, for the progress test (tests/tools/progress.sh). It counts
 * FAST units of 0.5 ms, then SLOW units of 30 steps of 10 ms each, through common/progress.c with
 * --progress semantics (PROGRESS_ON, stderr), calling progress_add(p, 0) at every step as the
 * replayer does at every event. The fast start is what once tuned a stride of units that the slow
 * units then never reached: progress went silent. Everything is sleep, so the gaps between lines
 * measure the progress code, not the CPU. Usage: slowprog FAST SLOW.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "progress.h"

static void sleep_us(long us)
{
	struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
	while (nanosleep(&ts, &ts) != 0)
		;
}

static void describe(void *ctx, char *buf, size_t len)
{
	snprintf(buf, len, "phase %s", *(const char **)ctx);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fputs("usage: slowprog FAST SLOW\n", stderr);
		return 2;
	}
	long fast = atol(argv[1]), slow = atol(argv[2]);
	if (fast < 0 || slow < 0) {
		fputs("slowprog: FAST and SLOW are counts >= 0\n", stderr);
		return 2;
	}
	const char *phase = "fast";
	struct progress p;
	progress_start(&p, stderr, PROGRESS_ON, "slowprog", "units", (uint64_t)(fast + slow));
	progress_describe(&p, describe, &phase);
	for (long i = 0; i < fast; i++) {
		sleep_us(500);
		progress_add(&p, 1);
	}
	phase = "slow";
	for (long i = 0; i < slow; i++) {
		for (int step = 0; step < 30; step++) {
			sleep_us(10000);
			progress_add(&p, 0);
		}
		progress_add(&p, 1);
	}
	progress_end(&p);
	return 0;
}
