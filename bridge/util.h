/* SPDX-License-Identifier: MIT */
/* The bridge's small helpers: clocks, record files, hex text, durations, logging. */
#ifndef BRIDGE_UTIL_H
#define BRIDGE_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Longest record file, request line and controller line the bridge handles. */
#define REC_MAX 4096
#define REQ_MAX 65536

/** Unix time in milliseconds (CLOCK_REALTIME: it must mean the same after a reboot). O(1). */
int64_t now_ms(void);

/** Sleep @p ms milliseconds (restarted after signals). O(1). */
void sleep_ms(int64_t ms);

/** Write @p text to DIR/NAME whole: a temporary file, fsync, then rename over NAME. O(size).
 *  @return 0, or -1 with errno set. */
int rec_write(const char *dir, const char *name, const char *text);

/** As rec_write, but NAME must not exist yet (link, not rename): exactly one writer wins.
 *  @return 0, -1 with errno EEXIST if NAME was there, or -1 with another errno. */
int rec_create(const char *dir, const char *name, const char *text);

/** Read DIR/NAME (one line, at most REC_MAX-1 bytes) into @p buf. O(size).
 *  @return true if it exists and was read whole. */
bool rec_read(const char *dir, const char *name, char *buf, size_t size);

/** Whether DIR/NAME exists. O(1). */
bool rec_exists(const char *dir, const char *name);

/** The value of KEY in a "k=v k=v" record, copied into @p out (@p size bytes). O(length).
 *  @return true if KEY is there and its value fits. */
bool kv_get(const char *rec, const char *key, char *out, size_t size);

/** KEY's value as a signed 64-bit decimal. O(length). @return true if present and well formed. */
bool kv_i64(const char *rec, const char *key, int64_t *out);

/** @p len bytes of @p in as lowercase hex into @p out (2*len+1 bytes). O(len). */
void hex_encode(const char *in, size_t len, char *out);

/** Hex text @p in into @p out (@p size bytes, NUL-terminated). O(length).
 *  @return the decoded length, or -1 if @p in is not even-length hex or does not fit. */
long hex_decode(const char *in, char *out, size_t size);

/** A duration: 90, 90s, 30m, 2h, 1d (the replayer's forms) into seconds, at most @p max. O(length).
 *  @return true if well formed, at least 1 and at most @p max. */
bool parse_duration(const char *s, uint64_t max, uint64_t *out);

/** A decimal whole number in [min, max]. O(length). @return true if well formed and in range. */
bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/** The start time of process @p pid in clock ticks since boot (/proc/PID/stat field 22): with the
 *  pid it names one process for ever, so a reused pid is told apart. O(1). @return 0 if none. */
unsigned long long proc_starttime(pid_t pid);

/** Whether @p pid is alive and is still the process that had @p starttime (0: any). O(1). */
bool proc_alive(pid_t pid, unsigned long long starttime);

/** A pidfd for @p pid (Linux 5.3): readable once the process has exited, child or not. O(1).
 *  @return the descriptor, or -1 with errno (ESRCH: no such process). */
int pidfd_open_(pid_t pid);

/** Send @p sig through a pidfd: never reaches a process that reused the pid. O(1). @return 0 or -1. */
int pidfd_signal(int pidfd, int sig);

/** Make @p fd close-on-exec and, if @p nonblock, non-blocking. O(1). */
void fd_flags(int fd, bool nonblock);

/** The log: every line to stderr and, once log_open() succeeded, to FILE, with a timestamp. */
void log_open(const char *path);
void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vlogf_(const char *fmt, va_list ap);

/** realloc, or the end of the process with a message: the bridge has no way on without memory. O(n). */
void *xrealloc(void *p, size_t n);

/** snprintf into a fixed buffer; aborts if the text would not fit (a bug: the sizes are fixed). */
void fmt_into(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif /* BRIDGE_UTIL_H */
