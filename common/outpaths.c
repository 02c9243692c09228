/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "outpaths.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One path: 0, or the errno that says why it cannot be written. */
static int writable(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return EISDIR;
		if (!S_ISREG(st.st_mode))
			return access(path, W_OK) == 0 ? 0 : errno;
		int fd = open(path, O_WRONLY | O_APPEND | O_NOCTTY); /* no O_TRUNC: its bytes stay */
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	}
	if (errno != ENOENT)
		return errno;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY, 0666);
	if (fd < 0)
		return errno == EEXIST ? 0 : errno; /* made meanwhile, or a dangling link: the writer will say */
	close(fd);
	unlink(path);
	return 0;
}

bool outpaths_check(const struct outpath *outs, size_t n, char *msg, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		if (outs[i].path == NULL)
			continue;
		for (size_t k = 0; k < i; k++)
			if (outs[k].path != NULL && strcmp(outs[k].path, outs[i].path) == 0) {
				snprintf(msg, len, "%s and %s name the same file: %s", outs[k].option, outs[i].option,
					 outs[i].path);
				return false;
			}
		int e = outs[i].path[0] == '\0' ? ENOENT : writable(outs[i].path);
		if (e != 0) {
			snprintf(msg, len, "%s %s: cannot be written: %s", outs[i].option, outs[i].path, strerror(e));
			return false;
		}
	}
	return true;
}
