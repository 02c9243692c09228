/* SPDX-License-Identifier: MIT */
/* The clients (bridge submit, queue, cancel, status): one request line to DIR/bridge.sock, then the
 * daemon's answer. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "bridge.h"
#include "spec.h"
#include "util.h"

struct conn {
	const char *dir;
	int timeout_s;
	int fd;
	size_t len;
	char buf[REQ_MAX];
};

/* Exit statuses: 0 done, 1 refused, 2 usage, 3 no bridge answered (nothing was sent: safe to try
 * again), 4 the answer was lost (the request may or may not have taken effect). */
static int fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("bridge: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return status;
}

/* Connect and send @p req. @return 0, or an exit status with the message printed. */
static int conn_send(struct conn *c, const char *req)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (snprintf(sa.sun_path, sizeof sa.sun_path, "%s/%s", c->dir, BRIDGE_SOCK) >= (int)sizeof sa.sun_path)
		return fail(2, "the state directory's path is too long for a socket: %s", c->dir);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0 || connect(c->fd, (struct sockaddr *)&sa, sizeof sa) != 0)
		return fail(3, "no bridge answers at %s (%s): start one with 'bridge run --state %s ...'", sa.sun_path,
			    strerror(errno), c->dir);
	size_t len = strlen(req), off = 0;
	while (off < len) {
		ssize_t w = send(c->fd, req + off, len - off, MSG_NOSIGNAL);
		if (w <= 0)
			return fail(4, "the bridge closed the connection: %s", strerror(errno));
		off += (size_t)w;
	}
	c->len = 0;
	return 0;
}

/* The next answer line. @return 1, or 0 at the end, or an exit status (> 1) after a message. */
static int conn_line(struct conn *c, char *line, size_t size)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		if (nl) {
			size_t n = (size_t)(nl - c->buf);
			if (n >= size)
				n = size - 1;
			memcpy(line, c->buf, n);
			line[n] = '\0';
			c->len -= (size_t)(nl - c->buf) + 1;
			memmove(c->buf, nl + 1, c->len);
			return 1;
		}
		struct pollfd p = {.fd = c->fd, .events = POLLIN};
		int r = poll(&p, 1, c->timeout_s * 1000);
		if (r == 0)
			return fail(4, "no answer from the bridge within %d s (is its controller down? see %s/bridge.log)",
				    c->timeout_s, c->dir);
		ssize_t got = r > 0 ? read(c->fd, c->buf + c->len, sizeof c->buf - c->len) : -1;
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return c->len ? fail(4, "the bridge's answer was cut short") : 0;
		c->len += (size_t)got;
	}
}

/* Common options, anywhere before a "--": --state DIR (required), --timeout S. They are taken out of
 * argv, so each client parses only its own. @return 0, or an exit status after a message. */
static int common(int *argc, char **argv, struct conn *c, int *i, const char *usage)
{
	c->dir = NULL;
	c->timeout_s = 60;
	int out = 1, k = 1;
	for (; k < *argc && strcmp(argv[k], "--") != 0; k++) {
		const char *a = argv[k];
		uint64_t v;
		bool opt = strcmp(a, "--state") == 0 || strcmp(a, "--timeout") == 0;
		if (opt && k + 1 >= *argc)
			return fail(2, "%s needs a value\n%s", a, usage);
		if (strcmp(a, "--state") == 0)
			c->dir = argv[++k];
		else if (strcmp(a, "--timeout") == 0) {
			if (!parse_duration(argv[++k], 86400, &v))
				return fail(2, "--timeout takes a duration (60, 5m), not '%s'", argv[k]);
			c->timeout_s = (int)v;
		} else
			argv[out++] = argv[k];
	}
	while (k < *argc)
		argv[out++] = argv[k++];
	*argc = out;
	*i = 1;
	if (!c->dir)
		return fail(2, "%s needs --state DIR\n%s", argv[0], usage);
	return 0;
}

static char *find_program(const char *name, char *out, size_t size)
{
	if (strchr(name, '/')) {
		if (!realpath(name, out))
			return NULL;
		return out;
	}
	const char *path = getenv("PATH");
	char buf[PATH_MAX];
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		const char *end = strchr(p, ':');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? p : ".", name) < (int)sizeof buf &&
		    access(buf, X_OK) == 0 && realpath(buf, out))
			return out;
		p += n + (end != NULL);
	}
	(void)size;
	return NULL;
}

static const char submit_usage[] =
	"Usage: bridge submit --state DIR -n PROCS -t LIMIT [--name NAME] [--timeout S] -- COMMAND [ARGS...]";

int client_submit(int argc, char **argv)
{
	struct conn c;
	int i, rc = common(&argc, argv, &c, &i, submit_usage);
	if (rc)
		return rc;
	uint64_t procs = 0, limit = 0;
	bool have_n = false, have_t = false;
	const char *name = "job";
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		const char *a = argv[i];
		if (i + 1 >= argc)
			return fail(2, "%s needs a value\n%s", a, submit_usage);
		if (strcmp(a, "-n") == 0) {
			if (!parse_u64(argv[++i], 0, UINT32_MAX, &procs))
				return fail(2, "-n takes a number of processors, not '%s'", argv[i]);
			have_n = true;
		} else if (strcmp(a, "-t") == 0) {
			/* 0 is passed on: the controller's refusal says why, as for any other limit it refuses. */
			if (strcmp(argv[++i], "0") != 0 && !parse_duration(argv[i], UINT32_MAX, &limit))
				return fail(2, "-t takes a duration (90, 30m, 2h, 1d), not '%s'", argv[i]);
			have_t = true;
		} else if (strcmp(a, "--name") == 0) {
			name = argv[++i];
			if (!spec_name_ok(name))
				return fail(2, "--name takes 1 to %d of A-Z a-z 0-9 . _ -, not '%s'", SPEC_NAME, name);
		} else
			return fail(2, "unknown option '%s'\n%s", a, submit_usage);
	}
	if (!have_n || !have_t || i + 1 >= argc)
		return fail(2, "submit needs -n PROCS, -t LIMIT and -- COMMAND\n%s", submit_usage);
	i++;
	char prog[PATH_MAX], cwd[PATH_MAX];
	if (!find_program(argv[i], prog, sizeof prog) || access(prog, X_OK) != 0) {
		fprintf(stderr, "bridge: refused: '%s' is not an executable file\n", argv[i]);
		return 1;
	}
	if (!getcwd(cwd, sizeof cwd))
		return fail(2, "cannot read the working directory: %s", strerror(errno));
	static char req[REQ_MAX];
	char hex[2 * PATH_MAX + 1];
	hex_encode(cwd, strlen(cwd), hex);
	int n = snprintf(req, sizeof req, "submit %llu %llu %s %s", (unsigned long long)procs,
			 (unsigned long long)limit, name, hex);
	for (int k = i; k < argc && n > 0 && (size_t)n < sizeof req; k++) {
		const char *arg = k == i ? prog : argv[k];
		size_t len = strlen(arg);
		if ((size_t)n + 2 + 2 * len >= sizeof req)
			return fail(2, "the command line is too long (at most %d bytes encoded)", REQ_MAX);
		req[n++] = ' ';
		hex_encode(arg, len, req + n);
		n += (int)(2 * len);
	}
	req[n++] = '\n';
	req[n] = '\0';
	if ((rc = conn_send(&c, req)))
		return rc;
	char line[REC_MAX];
	rc = conn_line(&c, line, sizeof line);
	if (rc != 1)
		return rc ? rc : fail(4, "the bridge closed the connection without an answer: the job may or may not "
				      "have been accepted; see 'bridge queue --state %s --all'", c.dir);
	unsigned id;
	char start[32];
	long long epoch;
	if (sscanf(line, "ok %u %31s %lld", &id, start, &epoch) == 3) {
		if (start[0] == '-')
			printf("%u start=- (no start guaranteed under this policy)\n", id);
		else {
			time_t t = (time_t)(epoch + atoll(start));
			struct tm tm;
			char at[64];
			localtime_r(&t, &tm);
			strftime(at, sizeof at, "%Y-%m-%d %H:%M:%S %z", &tm);
			printf("%u start=%s (%s)\n", id, start, at);
		}
		return 0;
	}
	fprintf(stderr, "bridge: refused: %s\n", strncmp(line, "err ", 4) == 0 ? line + 4 : line);
	return 1;
}

static void when(long long ms, char *out, size_t size)
{
	if (ms < 0) {
		snprintf(out, size, "-");
		return;
	}
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(out, size, "%Y-%m-%dT%H:%M:%S", &tm);
}

static const char queue_usage[] = "Usage: bridge queue --state DIR [--format table|csv|json] [--all] [--timeout S]";

int client_queue(int argc, char **argv)
{
	struct conn c;
	int i, rc = common(&argc, argv, &c, &i, queue_usage);
	if (rc)
		return rc;
	const char *format = "table";
	bool all = false;
	for (; i < argc; i++) {
		if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
			format = argv[++i];
		else if (strcmp(argv[i], "--all") == 0)
			all = true;
		else
			return fail(2, "unknown option '%s'\n%s", argv[i], queue_usage);
	}
	int fmt = strcmp(format, "table") == 0 ? 0 : strcmp(format, "csv") == 0 ? 1 : strcmp(format, "json") == 0 ? 2 : -1;
	if (fmt < 0)
		return fail(2, "--format takes table, csv or json, not '%s'", format);
	if ((rc = conn_send(&c, all ? "queue all\n" : "queue\n")))
		return rc;
	static const char *const keys[] = {"id", "name", "state", "procs", "limit", "submit", "start", "guar", "end", "status"};
	enum { NKEYS = sizeof keys / sizeof keys[0] };
	if (fmt == 0)
		printf("%6s %-12s %-9s %5s %7s %-19s %-19s %-19s %s\n", "ID", "NAME", "STATE", "PROCS", "LIMIT", "SUBMIT",
		       "START", "END", "STATUS");
	else if (fmt == 1)
		printf("id,name,state,procs,limit,submit_ms,start_ms,guaranteed_ms,end_ms,status\n");
	else
		printf("[");
	char line[REC_MAX];
	int rows = 0;
	while ((rc = conn_line(&c, line, sizeof line)) == 1 && strncmp(line, "job ", 4) == 0) {
		char v[NKEYS][128];
		for (int k = 0; k < NKEYS; k++)
			if (!kv_get(line + 4, keys[k], v[k], sizeof v[k]))
				snprintf(v[k], sizeof v[k], "-");
		if (fmt == 0) {
			char s[32], st[40], e[32];
			when(atoll(v[5]), s, sizeof s);
			long long start = atoll(v[6]) >= 0 ? atoll(v[6]) : atoll(v[7]);
			when(start, st, sizeof st);
			if (atoll(v[6]) < 0 && start >= 0)
				strcat(st, "*");
			when(atoll(v[8]), e, sizeof e);
			printf("%6s %-12s %-9s %5s %7s %-19s %-19s %-19s %s\n", v[0], v[1], v[2], v[3], v[4], s, st, e, v[9]);
		} else if (fmt == 1) {
			printf("%s", v[0]);
			for (int k = 1; k < NKEYS; k++)
				printf(",%s", atoll(v[k]) < 0 && k >= 6 && k <= 8 ? "" : v[k]);
			printf("\n");
		} else {
			printf("%s\n  {\"id\": %s, \"name\": \"%s\", \"state\": \"%s\", \"procs\": %s, \"limit\": %s, "
			       "\"submit_ms\": %s",
			       rows ? "," : "", v[0], v[1], v[2], v[3], v[4], v[5]);
			static const char *const opt[] = {"start_ms", "guaranteed_ms", "end_ms"};
			for (int k = 6; k <= 8; k++)
				printf(", \"%s\": %s", opt[k - 6], atoll(v[k]) < 0 ? "null" : v[k]);
			printf(", \"status\": %s%s%s}", v[9][0] == '-' ? "" : "\"", v[9][0] == '-' ? "null" : v[9],
			       v[9][0] == '-' ? "" : "\"");
		}
		rows++;
	}
	if (fmt == 2)
		printf("%s]\n", rows ? "\n" : "");
	if (fmt == 0 && rows)
		printf("(* a guaranteed start: the job waits)\n");
	if (rc > 1)
		return rc;
	if (strcmp(line, "ok") != 0)
		return fail(1, "%s", line);
	return 0;
}

static const char cancel_usage[] = "Usage: bridge cancel --state DIR [--timeout S] ID";

int client_cancel(int argc, char **argv)
{
	struct conn c;
	int i, rc = common(&argc, argv, &c, &i, cancel_usage);
	if (rc)
		return rc;
	uint64_t id;
	if (i + 1 != argc || !parse_u64(argv[i], 1, UINT32_MAX, &id))
		return fail(2, "cancel takes one job id\n%s", cancel_usage);
	char req[64], line[REC_MAX];
	snprintf(req, sizeof req, "cancel %llu\n", (unsigned long long)id);
	if ((rc = conn_send(&c, req)))
		return rc;
	if ((rc = conn_line(&c, line, sizeof line)) != 1)
		return rc ? rc : fail(4, "the bridge closed the connection without an answer");
	if (strncmp(line, "ok ", 3) == 0) {
		printf("%s\n", line + 3);
		return 0;
	}
	fprintf(stderr, "bridge: %s\n", strncmp(line, "err ", 4) == 0 ? line + 4 : line);
	return 1;
}

static const char status_usage[] = "Usage: bridge status --state DIR [--timeout S]";

int client_status(int argc, char **argv)
{
	struct conn c;
	int i, rc = common(&argc, argv, &c, &i, status_usage);
	if (rc)
		return rc;
	if (i != argc)
		return fail(2, "unknown option '%s'\n%s", argv[i], status_usage);
	if ((rc = conn_send(&c, "status\n")))
		return rc;
	char line[REC_MAX];
	while ((rc = conn_line(&c, line, sizeof line)) == 1 && strcmp(line, "ok") != 0) {
		if (strncmp(line, "err ", 4) == 0) {
			fprintf(stderr, "bridge: %s\n", line + 4);
			return 1;
		}
		printf("%s\n", line);
	}
	return rc > 1 ? rc : 0;
}
