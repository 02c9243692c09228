/* SPDX-License-Identifier: MIT */
/* build/bridge: the controller's decisions as real jobs (docs/bridge.md). One table of subcommands,
 * from which dispatch and --help come. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bridge.h"
#include "sched/sched.h"
#include "util.h"

/* X(name, usage, what it does, handler) */
#define BRIDGE_COMMANDS(X)                                                                                        \
	X("run", "--state DIR --procs N (--controller 'COMMAND ARGS' | --serial PATH) [--policy P]\n"          \
		 "                 [--backend local | --backend slurm --hold-partition P --run-partition P]\n"   \
		 "                 [--kill-wait S] [--link-timeout S] [--selfcheck]",                              \
	  "the daemon, in the foreground: the controller link, the clock and the jobs", run_main)                 \
	X("submit", "--state DIR -n PROCS -t LIMIT [--name NAME] [--timeout S] -- COMMAND [ARGS...]",             \
	  "a job: printed with its id and guaranteed start once the controller holds it", client_submit)          \
	X("queue", "--state DIR [--format table|csv|json] [--all] [--timeout S]",                                  \
	  "waiting and running jobs (--all: every job, ended and refused ones too)", client_queue)               \
	X("cancel", "--state DIR [--timeout S] ID", "withdraw a waiting job, or kill a running one", client_cancel) \
	X("status", "--state DIR [--timeout S]", "the bridge, the controller's status and its counters", client_status)

static FILE *usage_out;

static void print_backend(const char *name, const char *help)
{
	fprintf(usage_out, "                        %-6s %s\n", name, help);
}

static void usage(FILE *out)
{
	usage_out = out;
	fputs("Usage:\n", out);
#define USAGE_LINE(name, args, what, fn) fprintf(out, "  bridge %-6s %s\n", name, args);
	BRIDGE_COMMANDS(USAGE_LINE)
#undef USAGE_LINE
	fputs("  bridge --help\n\n", out);
#define WHAT_LINE(name, args, what, fn) fprintf(out, "  %-7s %s\n", name, what);
	BRIDGE_COMMANDS(WHAT_LINE)
#undef WHAT_LINE
	fputs("\nrun's options:\n"
	      "  --state DIR         the bridge's records (jobs/ID/: spec, accepted, started, ended, out, err),\n"
	      "                      its socket, lock, log (bridge.log) and the clock's epoch; one bridge per DIR\n"
	      "  --procs N           the machine: N virtual processors on this host; the controller must have\n"
	      "                      procs=N, or be empty (then 'config procs N' is sent)\n"
	      "  --controller CMD    run the console as a child over pipes, by /bin/sh: the host twin\n"
	      "                      ('build/console --store DIR/controller.store') or QEMU with -serial stdio\n"
	      "  --serial PATH       a Unix socket (QEMU's -chardev socket,path=PATH,server=on) or a tty\n"
	      "                      (raw, 115200 8N1) where a board answers; retried with a back-off\n"
	      "                      from 0.1 s doubling to 5 s while nothing answers\n"
	      "  --backend B         where jobs run (default local):\n", out);
	backend_list(print_backend);
	fputs("  --hold-partition P  slurm: the partition (State=DOWN) users submit to, watched for new jobs\n"
	      "  --run-partition P   slurm: the partition (State=UP) a job is moved to when the controller\n"
	      "                      starts it; both must cover the same nodes, with --procs CPUs in all\n"
	      "  --policy P          switch the controller to policy P:", out);
	for (int p = 0; p < SCHED_POLICY_COUNT; p++)
		fprintf(out, "%s%s", p ? "," : " ", sched_policy_name((enum sched_policy_id)p));
	fputs(" (gang is refused:\n"
	      "                      the live schedule space-shares); default: keep the controller's\n"
	      "  --kill-wait S       at a kill, SIGTERM to the job's process group, SIGKILL S seconds later\n"
	      "                      (default 5, as Slurm's KillWait)\n"
	      "  --link-timeout S    a controller that does not answer a command within S seconds is dead:\n"
	      "                      restarted (--controller) or reconnected (--serial) (default 30)\n"
	      "  --selfcheck         the controller checks its invariants after every command (for tests)\n"
	      "\nsubmit: LIMIT takes 90, 30m, 2h, 1d; the job runs COMMAND (found in PATH) in the current\n"
	      "directory with the bridge's environment plus SCHED_JOB_ID, SCHED_PROCS and SCHED_LIMIT, its\n"
	      "output in DIR/jobs/ID/out and err.\n"
	      "Exit status of submit, queue, cancel and status: 0 done; 1 refused (the controller's reason\n"
	      "is printed); 2 a usage error; 3 no bridge answers at DIR (nothing was sent: safe to retry);\n"
	      "4 the answer was lost (the bridge stopped: see 'bridge queue --all' for what took effect).\n"
	      "Jobs are killed at their limit. A job's processors are free once its process has exited.\n"
	      "Resets of either side, and what each record means: docs/bridge.md.\n",
	      out);
}

static bool duration_opt(const char *opt, const char *v, uint64_t max, int *out)
{
	uint64_t s;
	if (!parse_duration(v, max, &s)) {
		fprintf(stderr, "bridge: %s takes a duration (5, 30s, 2m), not '%s'\n", opt, v);
		return false;
	}
	*out = (int)s;
	return true;
}

int run_main(int argc, char **argv)
{
	struct run_opts o = {.backend = "local", .kill_wait = 5, .link_timeout_ms = 30000};
	int link_s = 30;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has = i + 1 < argc;
		uint64_t v;
		if (strcmp(a, "--selfcheck") == 0) {
			o.selfcheck = true;
			continue;
		}
		if (!has || strncmp(a, "--", 2) != 0) {
			fprintf(stderr, "bridge run: %s '%s'\n", strncmp(a, "--", 2) == 0 ? "missing value for" : "unexpected argument", a);
			return 2;
		}
		const char *val = argv[++i];
		if (strcmp(a, "--state") == 0)
			o.dir = val;
		else if (strcmp(a, "--procs") == 0) {
			if (!parse_u64(val, 1, 0xFFFFFFFEu, &v)) {
				fprintf(stderr, "bridge run: --procs takes a number of processors, not '%s'\n", val);
				return 2;
			}
			o.procs = (uint32_t)v;
		} else if (strcmp(a, "--controller") == 0)
			o.controller = val;
		else if (strcmp(a, "--serial") == 0)
			o.serial = val;
		else if (strcmp(a, "--backend") == 0)
			o.backend = val;
		else if (strcmp(a, "--hold-partition") == 0)
			o.hold_partition = val;
		else if (strcmp(a, "--run-partition") == 0)
			o.run_partition = val;
		else if (strcmp(a, "--policy") == 0) {
			enum sched_policy_id p;
			if (sched_policy_parse(val, &p) != 0) {
				fprintf(stderr, "bridge run: unknown policy '%s' (bridge --help lists them)\n", val);
				return 2;
			}
			o.policy = val;
		} else if (strcmp(a, "--kill-wait") == 0) {
			if (!duration_opt(a, val, 3600, &o.kill_wait))
				return 2;
		} else if (strcmp(a, "--link-timeout") == 0) {
			if (!duration_opt(a, val, 3600, &link_s))
				return 2;
			o.link_timeout_ms = link_s * 1000;
		} else {
			fprintf(stderr, "bridge run: unknown option '%s' (bridge --help)\n", a);
			return 2;
		}
	}
	if (!o.dir || !o.procs || (!o.controller == !o.serial)) {
		fprintf(stderr, "bridge run: needs --state DIR, --procs N and one of --controller or --serial\n");
		return 2;
	}
	if (!backend_find(o.backend)) {
		fprintf(stderr, "bridge run: unknown backend '%s' (bridge --help lists them)\n", o.backend);
		return 2;
	}
	if (strcmp(o.backend, "slurm") == 0 && (!o.hold_partition || !o.run_partition)) {
		fprintf(stderr, "bridge run: --backend slurm needs --hold-partition P and --run-partition P\n");
		return 2;
	}
	if (strlen(o.dir) > 2048) {
		fprintf(stderr, "bridge run: the state directory's path is too long\n");
		return 2;
	}
	return bridge_run(&o);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
#define DISPATCH(name, args, what, fn)       \
	if (strcmp(argv[1], name) == 0)      \
		return fn(argc - 1, argv + 1);
	BRIDGE_COMMANDS(DISPATCH)
#undef DISPATCH
	fprintf(stderr, "bridge: unknown command '%s' (bridge --help)\n", argv[1]);
	return 2;
}
