/* SPDX-License-Identifier: MIT */
/* The controller link (link.h). */
#define _GNU_SOURCE
#include "link.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static int spawn_child(struct link *l, char *why, size_t size)
{
	int in[2], out[2];
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) {
		fmt_into(why, size, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t bridge = getpid();
	pid_t c = fork();
	if (c < 0) {
		fmt_into(why, size, "fork: %s", strerror(errno));
		return -1;
	}
	if (c == 0) {
		/* A controller outliving its bridge would hold the store while the next bridge starts another
		 * on it: it dies with the bridge instead, and restores from the store when restarted. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != bridge)
			_exit(1);
		dup2(in[0], 0);
		dup2(out[1], 1);
		signal(SIGPIPE, SIG_DFL);
		/* "exec": the shell becomes the controller, so the child's pid (controller.pid) is the
		 * console's own, and its death is the pipe's end. */
		size_t len = strlen(l->command) + 6;
		char *line = malloc(len);
		if (!line)
			_exit(127);
		snprintf(line, len, "exec %s", l->command);
		execl("/bin/sh", "sh", "-c", line, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	l->child = c;
	l->wfd = in[1];
	l->rfd = out[0];
	return 0;
}

static int open_serial(struct link *l, char *why, size_t size)
{
	struct stat st;
	if (stat(l->serial, &st) != 0) {
		fmt_into(why, size, "nothing at %s: %s", l->serial, strerror(errno));
		return -1;
	}
	int fd;
	if (S_ISSOCK(st.st_mode)) {
		struct sockaddr_un sa = {.sun_family = AF_UNIX};
		if (strlen(l->serial) >= sizeof sa.sun_path) {
			fmt_into(why, size, "socket path too long: %s", l->serial);
			return -1;
		}
		strcpy(sa.sun_path, l->serial);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
			fmt_into(why, size, "nothing listens at %s: %s", l->serial, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
	} else {
		fd = open(l->serial, O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (fd < 0) {
			fmt_into(why, size, "cannot open %s: %s", l->serial, strerror(errno));
			return -1;
		}
		struct termios t;
		if (tcgetattr(fd, &t) == 0) {
			cfmakeraw(&t);
			cfsetispeed(&t, B115200);
			cfsetospeed(&t, B115200);
			t.c_cflag &= (tcflag_t)~(CSTOPB | PARENB | CRTSCTS);
			t.c_cflag |= CS8 | CLOCAL | CREAD;
			tcsetattr(fd, TCSANOW, &t);
		}
	}
	l->rfd = l->wfd = fd;
	return 0;
}

/* One line into @p line (CR LF or LF ended; the CR dropped). 1: a line; 0: deadline passed; -1: EOF. */
static int read_line(struct link *l, char *line, size_t size, int64_t deadline)
{
	for (;;) {
		char *nl = memchr(l->buf, '\n', l->len);
		if (nl) {
			size_t n = (size_t)(nl - l->buf);
			size_t keep = n < size ? n : size - 1;
			memcpy(line, l->buf, keep);
			line[keep] = '\0';
			if (keep > 0 && line[keep - 1] == '\r')
				line[keep - 1] = '\0';
			memmove(l->buf, nl + 1, l->len - n - 1);
			l->len -= n + 1;
			return 1;
		}
		if (l->len == sizeof l->buf) /* a line longer than any the console writes: noise */
			l->len = 0;
		int64_t left = deadline - now_ms();
		if (left <= 0)
			return 0;
		struct pollfd p = {.fd = l->rfd, .events = POLLIN};
		int r = poll(&p, 1, (int)(left > 1000 ? 1000 : left));
		if (r < 0 && errno != EINTR)
			return -1;
		if (r <= 0)
			continue;
		ssize_t got = read(l->rfd, l->buf + l->len, sizeof l->buf - l->len);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0)
			return -1;
		l->len += (size_t)got;
	}
}

static int send_line(struct link *l, const char *line)
{
	char out[REC_MAX + 2];
	fmt_into(out, sizeof out, "%s\n", line);
	size_t len = strlen(out), off = 0;
	while (off < len) {
		ssize_t w = write(l->wfd, out + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		off += (size_t)w;
	}
	return 0;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && strcmp(s + n - t, tail) == 0;
}

/* A board that is already up prints no banner: ask it, a few times, since a board just reset drops
 * what arrives before its UART is enabled. */
static int probe(struct link *l, char *why, size_t size)
{
	char line[REC_MAX];
	for (int attempt = 0; attempt < 20; attempt++) {
		if (send_line(l, "version") != 0)
			break;
		int64_t deadline = now_ms() + 500;
		int r;
		while ((r = read_line(l, line, sizeof line, deadline)) == 1) {
			if (strncmp(line, "ok sched-core ", 14) == 0 || ends_with(line, " ready")) {
				/* Drain whatever else is in flight (a banner's "ready" and our version answer). */
				while (read_line(l, line, sizeof line, now_ms() + 200) == 1)
					;
				return 0;
			}
		}
		if (r < 0)
			break;
	}
	fmt_into(why, size, "no answer to \"version\" on %s", l->serial);
	return -1;
}

int link_open(struct link *l, char *why, size_t size)
{
	l->len = 0;
	l->child = -1;
	l->rfd = l->wfd = -1;
	int rc = l->command ? spawn_child(l, why, size) : open_serial(l, why, size);
	if (rc != 0)
		return -1;
	char line[REC_MAX];
	if (l->command) {
		/* The child boots: a restore line, perhaps, then the banner ending in "ready". */
		int64_t deadline = now_ms() + l->timeout_ms;
		int r;
		while ((r = read_line(l, line, sizeof line, deadline)) == 1 && !ends_with(line, " ready"))
			;
		if (r != 1) {
			fmt_into(why, size, r == 0 ? "no banner within %d ms" : "the controller exited before its banner",
				 l->timeout_ms);
			link_close(l);
			return -1;
		}
	} else {
		/* A board that boots as we connect prints its banner; one already up prints nothing. */
		int r;
		bool ready = false;
		while ((r = read_line(l, line, sizeof line, now_ms() + 300)) == 1)
			ready = ready || ends_with(line, " ready");
		if (r < 0 || (!ready && probe(l, why, size) != 0)) {
			if (r < 0)
				fmt_into(why, size, "%s closed", l->serial);
			link_close(l);
			return -1;
		}
	}
	l->up = true;
	return 0;
}

void link_close(struct link *l)
{
	if (l->rfd >= 0)
		close(l->rfd);
	if (l->wfd >= 0 && l->wfd != l->rfd)
		close(l->wfd);
	l->rfd = l->wfd = -1;
	if (l->child > 0) {
		kill(l->child, SIGTERM);
		int64_t deadline = now_ms() + 2000;
		while (waitpid(l->child, NULL, WNOHANG) == 0) {
			if (now_ms() > deadline) {
				kill(l->child, SIGKILL);
				waitpid(l->child, NULL, 0);
				break;
			}
			sleep_ms(10);
		}
		l->child = -1;
	}
	l->up = false;
	l->len = 0;
}

static bool parse_evt(const char *line, struct evt *e)
{
	unsigned id, t, p = 0;
	if (sscanf(line, "evt start %u %u %u", &id, &t, &p) == 3)
		*e = (struct evt){EVT_START, id, t, p};
	else if (sscanf(line, "evt kill %u %u", &id, &t) == 2)
		*e = (struct evt){EVT_KILL, id, t, 0};
	else
		return false;
	return true;
}

int link_cmd(struct link *l, const char *line, struct reply *r)
{
	r->nevt = 0;
	r->ok = false;
	r->line[0] = '\0';
	if (!l->up || send_line(l, line) != 0) {
		link_close(l);
		return -1;
	}
	int64_t deadline = now_ms() + l->timeout_ms;
	char in[REC_MAX];
	for (;;) {
		int got = read_line(l, in, sizeof in, deadline);
		if (got != 1) {
			logf_("controller: %s after \"%s\"", got == 0 ? "no answer" : "link closed", line);
			link_close(l);
			return -1;
		}
		struct evt e;
		if (strncmp(in, "evt ", 4) == 0 && parse_evt(in, &e)) {
			if (r->nevt == r->cap) {
				r->cap = r->cap ? 2 * r->cap : 64;
				r->evt = xrealloc(r->evt, r->cap * sizeof *r->evt);
			}
			r->evt[r->nevt++] = e;
		} else if (strncmp(in, "ok", 2) == 0 && (in[2] == ' ' || in[2] == '\0')) {
			r->ok = true;
			fmt_into(r->line, sizeof r->line, "%s", in);
			return 0;
		} else if (strncmp(in, "err ", 4) == 0) {
			fmt_into(r->line, sizeof r->line, "%s", in);
			return 0;
		} else if (ends_with(in, " ready")) {
			/* The board reset under us: what we sent may or may not have been taken; reconcile. */
			logf_("controller: reset while answering \"%s\"", line);
			link_close(l);
			return -1;
		}
		/* Anything else (a restore line, a fault report) is logged and skipped. */
		else
			logf_("controller: %s", in);
	}
}

bool link_idle_input(struct link *l)
{
	struct pollfd p = {.fd = l->rfd, .events = POLLIN};
	return l->rfd >= 0 && poll(&p, 1, 0) > 0;
}

void reply_free(struct reply *r)
{
	free(r->evt);
	r->evt = NULL;
	r->cap = r->nevt = 0;
}
