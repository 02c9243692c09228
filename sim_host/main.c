/* SPDX-License-Identifier: MIT */
/* build/replay: replay an SWF trace through the core under one or more policies and report metrics. */
#include <stdio.h>
#include <stdlib.h>

#include "options.h"
#include "policy_opts.h"
#include "run.h"
#include "sched/err.h"

/* The only place that exits: bad usage is status 2, bad input or a failed replay 1. */
int main(int argc, char **argv)
{
	static struct opts op;
	char msg[640];
	int rc = options_parse(argc, argv, &op, msg, sizeof msg);
	if (rc == SCHED_OK && op.help) {
		fputs(options_help, stdout);
		report_stats_help(stdout);
		policy_opts_help(stdout);
		return 0;
	}
	struct run r;
	if (rc == SCHED_OK)
		rc = run_prepare(&r, &op, msg, sizeof msg);
	else
		r.op = NULL;
	if (rc == SCHED_OK)
		rc = run_replays(&r, msg, sizeof msg);
	if (rc == SCHED_OK)
		rc = run_output(&r, msg, sizeof msg);
	if (rc == SCHED_E_INVAL)
		fprintf(stderr, "replay: %s\nTry 'replay --help'.\n", msg);
	else if (rc != SCHED_OK)
		fprintf(stderr, "replay: %s\n", msg);
	int status = rc == SCHED_OK ? 0 : rc == SCHED_E_INVAL ? 2 : 1;
	if (r.op != NULL && run_free(&r, msg, sizeof msg) != SCHED_OK) {
		fprintf(stderr, "replay: %s\n", msg);
		status = status ? status : 1;
	}
	return status;
}
