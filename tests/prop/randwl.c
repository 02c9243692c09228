/* SPDX-License-Identifier: MIT */
/* Random SWF workloads for the property tests: bursts, wide jobs, estimates far from run times. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static uint64_t next(void)
{
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 2685821657736338717ull;
}

static long range(long lo, long hi)
{
	return lo + (long)(next() % (uint64_t)(hi - lo + 1));
}

int main(int argc, char **argv)
{
	long seed = 1, jobs = 500, procs = 32, gap = 60;
	for (int i = 1; i + 1 < argc; i += 2) {
		long v = strtol(argv[i + 1], NULL, 10);
		if (strcmp(argv[i], "--seed") == 0)
			seed = v;
		else if (strcmp(argv[i], "--jobs") == 0)
			jobs = v;
		else if (strcmp(argv[i], "--procs") == 0)
			procs = v;
		else if (strcmp(argv[i], "--gap") == 0)
			gap = v;
		else {
			fprintf(stderr, "usage: randwl [--seed S] [--jobs N] [--procs P] [--gap SECONDS]\n");
			return 2;
		}
	}
	if (jobs < 1 || procs < 1 || gap < 1) {
		fprintf(stderr, "randwl: --jobs, --procs and --gap must be positive\n");
		return 2;
	}
	state = (uint64_t)seed * 0x9e3779b97f4a7c15ull + 1;
	printf("; Note: random workload, seed %ld\n; MaxProcs: %ld\n; MaxNodes: %ld\n"
	       "; UnixStartTime: 843480031\n; TimeZoneString: Europe/Stockholm\n",
	       seed, procs, procs);
	long t = 0;
	static const long estimates[] = {1, 5, 60, 300, 600, 1800, 3600, 7200, 14400};
	for (long j = 1; j <= jobs; j++) {
		/* A third of the arrivals share the previous instant: bursts test same-time ordering. */
		if (range(0, 2) != 0)
			t += range(1, 2 * gap);
		long p;
		switch (range(0, 5)) {
		case 0: p = procs; break;                              /* the whole machine */
		case 1: p = 1L << range(0, 5); break;                  /* powers of two */
		case 2: p = range(procs / 2 > 0 ? procs / 2 : 1, procs); break;
		default: p = range(1, procs / 4 > 0 ? procs / 4 : 1); break;
		}
		if (p > procs)
			p = procs;
		long est = estimates[range(0, sizeof estimates / sizeof estimates[0] - 1)];
		long run;
		switch (range(0, 9)) {
		case 0: run = est; break;                 /* ends exactly at its estimate */
		case 1: run = est + range(1, 100); break; /* killed at its estimate */
		case 2: run = range(0, 2); break;         /* far shorter than estimated, even zero */
		default: run = range(0, est); break;
		}
		long status = run > est ? 0 : 1;
		printf("%ld %ld -1 %ld %ld -1 -1 %ld %ld -1 %ld %ld 1 -1 1 -1 -1 -1\n", j, t, run, p, p, est,
		       status, range(1, 8));
	}
	return 0;
}
