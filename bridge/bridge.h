/* SPDX-License-Identifier: MIT */
/* The bridge's subcommands: one table from which dispatch and --help come (main.c). */
#ifndef BRIDGE_BRIDGE_H
#define BRIDGE_BRIDGE_H

#include <stdbool.h>
#include <stdint.h>

/* The daemon's options (bridge run). */
struct run_opts {
	const char *dir;        /* --state DIR */
	uint32_t procs;         /* --procs N */
	const char *controller; /* --controller 'COMMAND ARGS' */
	const char *serial;     /* --serial PATH */
	const char *backend;    /* --backend local|slurm */
	const char *hold_partition, *run_partition; /* --hold-partition, --run-partition (slurm) */
	const char *policy;     /* --policy P, or NULL to keep the controller's */
	int kill_wait;          /* --kill-wait S */
	int link_timeout_ms;    /* --link-timeout S */
	bool selfcheck;         /* --selfcheck: the controller checks its invariants after every command */
};

struct backend;
/** The backend called @p name (backends.h), or NULL. O(backends). */
const struct backend *backend_find(const char *name);
/** Call @p fn with each backend's name and help, in the list's order. O(backends). */
void backend_list(void (*fn)(const char *name, const char *help));

/** The daemon: never returns but through exit(). Exit status 0 on SIGTERM/SIGINT, 1 on a fatal error. */
int bridge_run(const struct run_opts *o);

/** The clients: talk to the daemon over DIR/bridge.sock. @return the process's exit status. */
int client_submit(int argc, char **argv);
int client_queue(int argc, char **argv);
int client_cancel(int argc, char **argv);
int client_status(int argc, char **argv);
int run_main(int argc, char **argv);

/* The socket and lock names inside DIR. */
#define BRIDGE_SOCK "bridge.sock"
#define BRIDGE_LOCK "bridge.lock"

#endif /* BRIDGE_BRIDGE_H */
