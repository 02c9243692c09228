/* SPDX-License-Identifier: MIT */
/* The bridge's small helpers: clocks, record files, hex text, durations, logging. */
#define _GNU_SOURCE
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void sleep_ms(int64_t ms)
{
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
	while (ms > 0 && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* The temporary file beside NAME, unique to this process so concurrent writers never share one. */
static int write_tmp(const char *dir, const char *name, const char *text, char *tmp, size_t size)
{
	fmt_into(tmp, size, "%s/.%s.%ld.tmp", dir, name, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	size_t len = strlen(text), off = 0;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = errno;
			close(fd);
			unlink(tmp);
			errno = e;
			return -1;
		}
		off += (size_t)w;
	}
	/* A record is a promise to the other side after a power cut: on disk before it is named. */
	if (fsync(fd) != 0 || close(fd) != 0) {
		int e = errno;
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

/* Name the synced temporary file: rename (replacing) or link (failing with EEXIST if NAME exists). */
static int rec_put(const char *dir, const char *name, const char *text, bool exclusive)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	if (write_tmp(dir, name, text, tmp, sizeof tmp) != 0)
		return -1;
	fmt_into(path, sizeof path, "%s/%s", dir, name);
	int rc = exclusive ? link(tmp, path) : rename(tmp, path);
	int e = errno;
	if (exclusive || rc != 0)
		unlink(tmp);
	errno = e;
	return rc;
}

int rec_write(const char *dir, const char *name, const char *text)
{
	return rec_put(dir, name, text, false);
}

int rec_create(const char *dir, const char *name, const char *text)
{
	return rec_put(dir, name, text, true);
}

bool rec_read(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];
	fmt_into(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	size_t off = 0;
	for (;;) {
		ssize_t r = read(fd, buf + off, size - 1 - off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		off += (size_t)r;
		if (off == size - 1)
			break;
	}
	close(fd);
	buf[off] = '\0';
	char *nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return nl != NULL;
}

bool rec_exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	fmt_into(path, sizeof path, "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

bool kv_get(const char *rec, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);
	for (const char *p = rec; *p;) {
		while (*p == ' ')
			p++;
		const char *end = strchr(p, ' ');
		size_t wlen = end ? (size_t)(end - p) : strlen(p);
		if (wlen > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
			size_t vlen = wlen - klen - 1;
			if (vlen >= size)
				return false;
			memcpy(out, p + klen + 1, vlen);
			out[vlen] = '\0';
			return true;
		}
		p += wlen;
	}
	return false;
}

bool kv_i64(const char *rec, const char *key, int64_t *out)
{
	char v[32], *end;
	if (!kv_get(rec, key, v, sizeof v) || v[0] == '\0')
		return false;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	if (errno != 0 || *end != '\0')
		return false;
	*out = x;
	return true;
}

void hex_encode(const char *in, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[(unsigned char)in[i] >> 4];
		out[2 * i + 1] = digits[(unsigned char)in[i] & 15];
	}
	out[2 * len] = '\0';
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

long hex_decode(const char *in, char *out, size_t size)
{
	size_t len = strlen(in);
	if (len % 2 != 0 || len / 2 >= size)
		return -1;
	for (size_t i = 0; i < len / 2; i++) {
		int hi = hexval(in[2 * i]), lo = hexval(in[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (char)(hi * 16 + lo);
	}
	out[len / 2] = '\0';
	return (long)(len / 2);
}

bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool parse_duration(const char *s, uint64_t max, uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno != 0)
		return false;
	unsigned long long unit = 1;
	if (*end != '\0') {
		unit = end[1] != '\0' ? 0 : *end == 's' ? 1 : *end == 'm' ? 60 : *end == 'h' ? 3600 : *end == 'd' ? 86400 : 0;
		if (unit == 0 || v > ULLONG_MAX / unit)
			return false;
	}
	v *= unit;
	if (v < 1 || v > max)
		return false;
	*out = v;
	return true;
}

unsigned long long proc_starttime(pid_t pid)
{
	char path[64], buf[1024];
	fmt_into(path, sizeof path, "/proc/%ld/stat", (long)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* The command name (field 2) may hold spaces and parentheses: count fields after the last ')'. */
	char *p = strrchr(buf, ')');
	if (!p)
		return 0;
	p++;
	for (int field = 3; field < 22 && p; field++) /* p: the space before field 3, then 4, ... 22 */
		p = strchr(p + 1, ' ');
	if (!p)
		return 0;
	/* A zombie has exited: it holds no processors, so it counts as gone. */
	char state = 0;
	const char *q = strrchr(buf, ')');
	if (q[1] == ' ')
		state = q[2];
	if (state == 'Z' || state == 'X')
		return 0;
	return strtoull(p + 1, NULL, 10);
}

bool proc_alive(pid_t pid, unsigned long long starttime)
{
	if (pid <= 0)
		return false;
	unsigned long long st = proc_starttime(pid);
	return st != 0 && (starttime == 0 || st == starttime);
}

int pidfd_open_(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

int pidfd_signal(int pidfd, int sig)
{
	return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

void fd_flags(int fd, bool nonblock)
{
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (nonblock)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static FILE *log_file;

void log_open(const char *path)
{
	log_file = fopen(path, "ae");
	if (log_file)
		setvbuf(log_file, NULL, _IOLBF, 0);
}

void vlogf_(const char *fmt, va_list ap)
{
	char line[REC_MAX];
	vsnprintf(line, sizeof line, fmt, ap);
	int64_t t = now_ms();
	time_t secs = (time_t)(t / 1000);
	struct tm tm;
	gmtime_r(&secs, &tm);
	char stamp[32];
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(stderr, "bridge %s.%03dZ %s\n", stamp, (int)(t % 1000), line);
	if (log_file)
		fprintf(log_file, "%s.%03dZ %s\n", stamp, (int)(t % 1000), line);
}

void logf_(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vlogf_(fmt, ap);
	va_end(ap);
}

void fmt_into(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size) {
		fprintf(stderr, "bridge: internal error: text of %d bytes in a buffer of %zu\n", n, size);
		abort();
	}
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n);
	if (!q) {
		logf_("out of memory (%zu bytes)", n);
		abort();
	}
	return q;
}
