/* SPDX-License-Identifier: MIT */
/* A job's supervisor: a process of its own (double fork, its own session) that starts the job when the
 * controller says so, records its start before the exec and its end after reaping it, and kills its
 * process group on request. It outlives the bridge, so a killed bridge leaves its jobs running. */
#ifndef BRIDGE_SUPER_H
#define BRIDGE_SUPER_H

#include <stdint.h>
#include <sys/types.h>

struct super_start {
	const char *jobdir;   /* DIR/jobs/ID: spec read from it, started/ended written to it */
	uint32_t id;
	uint32_t ctrl_start;  /* the controller's decided start, controller seconds */
	int64_t decided_ms;   /* the same as Unix milliseconds: lateness is measured from it */
	int64_t evt_ms;       /* when the bridge read the controller's "evt start": the decision's latency */
	int kill_wait_s;      /* SIGTERM, then SIGKILL this many seconds later (Slurm's KillWait) */
};

/**
 * Start the supervisor of one job: fork twice, so the supervisor belongs to no one and survives the
 * bridge; it writes jobdir/started (exclusively: a second supervisor of the same job finds it there
 * and exits without running anything) before the job's exec. O(1) in the bridge.
 * @return the supervisor's pid, or -1 (errno) if a fork failed.
 */
pid_t super_spawn(const struct super_start *s);

#endif /* BRIDGE_SUPER_H */
