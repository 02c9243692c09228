/* SPDX-License-Identifier: MIT */
/* build/fix2swf: write a fixture back as SWF text (the round trip of swf2fix). */
#include <stdio.h>
#include <string.h>

#include "fixture_io.h"

static const char usage[] =
"Usage: fix2swf FILE.fix [OUT.swf]\n"
"Write a fixture as SWF text (to OUT, or standard output). The header carries\n"
"what the fixture keeps (MaxProcs, MaxNodes, UnixStartTime, TimeZone,\n"
"TimeZoneString, the source name); fields a fixture does not keep are -1.\n"
"Exit status: 0 done, 1 bad input (each corruption has its own message), 2 bad usage.\n";

int main(int argc, char **argv)
{
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		fputs(usage, stdout);
		return 0;
	}
	if (argc < 2 || argc > 3 || argv[1][0] == '-') {
		fprintf(stderr, "swf2fix: expected FILE.fix [OUT.swf]\n%s", usage);
		return 2;
	}
	char err[512];
	struct swf_trace t;
	if (fixture_load(argv[1], &t, err, sizeof err) != 0) {
		fprintf(stderr, "fix2swf: %s\n", err);
		return 1;
	}
	FILE *f = argc == 3 ? fopen(argv[2], "w") : stdout;
	if (f == NULL) {
		perror(argv[2]);
		swf_free(&t);
		return 1;
	}
	for (size_t i = 0; i < t.hdr.n_lines; i++)
		fprintf(f, "%s\n", t.hdr.lines[i]);
	for (size_t i = 0; i < t.n; i++) {
		double v[SWF_FIELDS];
		swf_job_values(&t, i, v);
		swf_print_job(f, v);
	}
	int rc = 0;
	if ((f == stdout ? fflush(f) : fclose(f)) != 0) {
		fprintf(stderr, "fix2swf: write failed\n");
		rc = 1;
	}
	swf_free(&t);
	return rc;
}
