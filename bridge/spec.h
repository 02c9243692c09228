/* SPDX-License-Identifier: MIT */
/* A job's description as the bridge keeps it: DIR/jobs/ID/spec, one record line. */
#ifndef BRIDGE_SPEC_H
#define BRIDGE_SPEC_H

#include <stdint.h>

#include "util.h"

#define SPEC_ARGS 256   /* arguments of a job's command, the program included */
#define SPEC_NAME 64    /* a job's name: letters, digits, '.', '_', '-' */

struct job_spec {
	uint32_t id, procs, limit;
	int64_t submit_ms;
	char name[SPEC_NAME + 1];
	char cwd[4096];
	int argc;
	char *argv[SPEC_ARGS + 1]; /* into text[], NULL-terminated */
	char text[REQ_MAX];
};

/** Save @p s as jobdir/spec (rec_write). O(size). @return 0, or -1 with errno. */
int spec_save(const char *jobdir, const struct job_spec *s);

/** Load jobdir/spec into @p s. O(size). @return 0, or -1 if missing or malformed. */
int spec_load(const char *jobdir, struct job_spec *s);

/** Whether @p name is a valid job name (1..SPEC_NAME of [A-Za-z0-9._-]). O(length). */
bool spec_name_ok(const char *name);

#endif /* BRIDGE_SPEC_H */
