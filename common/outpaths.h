/* SPDX-License-Identifier: MIT */
/* The output files of a host run, checked before the work that fills them: a bad path fails in a second, not after the run. */
#ifndef COMMON_OUTPATHS_H
#define COMMON_OUTPATHS_H

#include <stdbool.h>
#include <stddef.h>

/* One output: the option that names it (for the message) and its path; a NULL path is not asked for. */
struct outpath {
	const char *option;
	const char *path;
};

/**
 * Whether each of the @p n outputs can be written, checked without creating
 * or truncating anything the user has: an existing file is opened for
 * appending (not written), a missing one is created exclusively and removed
 * again, a FIFO or device is only asked (access W_OK: opening it would block
 * or hand its reader an end of file). Two outputs naming the same path are
 * refused too. O(n^2). On failure "OPTION PATH: reason" in @p msg.
 */
bool outpaths_check(const struct outpath *outs, size_t n, char *msg, size_t len);

#endif /* COMMON_OUTPATHS_H */
