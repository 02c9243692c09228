/* SPDX-License-Identifier: MIT */
/* The one error convention of the core and the fixture codec (the console extends it), and its message table. */
#ifndef SCHED_ERR_H
#define SCHED_ERR_H

/*
 * Zero is success; every failure is a distinct negative value, so a console
 * prints it as a number (negated: `err 5 no such job`) and a test names it.
 * A function that returns an error leaves its object exactly as it was.
 *
 * One list, X(NAME, number, message), generates the enum and
 * sched_strerror(), so a code and its message cannot drift apart. The
 * numbers are part of the console protocol and of the schedule hash (a
 * refusal hashes as -SCHED_E_NOSPACE or -SCHED_E_LIMIT): never renumber,
 * only append. Groups: 1-19 the scheduler, 20-29 encoded input (the codec
 * says exactly what is wrong); 30-39 belong to the console's text commands,
 * in the firmware's own table (firmware/console_err.h): never used here.
 */
#define SCHED_ERRORS(X)                                                                   \
	X(NOSPACE, 1, "no space")                       /* a fixed-capacity pool is full */ \
	X(INVAL, 2, "invalid argument")                 /* zero processors, an unknown name, ... */ \
	X(RANGE, 3, "out of range")                     /* more processors than the machine, time overflow */ \
	X(STATE, 4, "wrong state")                      /* the object does not allow the call now */ \
	X(NOENT, 5, "no such job")                      /* no job with that id is in the system */ \
	X(EXIST, 6, "duplicate job id")                 /* a job with that id is in the system */ \
	X(TIME, 7, "time went backwards")               /* also: trace jobs out of submit order */ \
	X(NOTSUP, 8, "not supported by this policy")    /* e.g. a guarantee under FCFS */ \
	X(FORMAT, 9, "bad format")                      /* encoded input is corrupt (no detail) */ \
	X(LIMIT, 10, "outside its queue's limits")      /* the job can never satisfy its queue */ \
	X(CHECK, 11, "invariant check failed")          /* sched_check found a broken invariant */ \
	X(MAGIC, 20, "bad magic: not a fixture")        /* codec: the first bytes are not SWFX */ \
	X(VERSION, 21, "unknown format version")        /* codec: a version this decoder does not know */ \
	X(HEADER, 22, "inconsistent header")            /* codec: sizes, unknown fields, strings */ \
	X(TRUNCATED, 23, "truncated")                   /* codec: data ends inside a header, record or trailer */ \
	X(CRC, 24, "CRC mismatch")                      /* codec: the checksum does not match */ \
	X(COUNT, 25, "job count mismatch")              /* codec: records do not hold the header's count */ \
	X(TRAILING, 26, "data after the trailer")       /* codec: bytes after the trailer */ \
	X(VALUE, 27, "value out of range")              /* codec: a non-canonical or impossible value */ \
	X(IO, 28, "read or write failed")               /* codec: the byte source or sink failed */

#define SCHED_ERR_ENUM_(name, num, msg) SCHED_E_##name = -(num),
enum sched_err {
	SCHED_OK = 0,
	SCHED_ERRORS(SCHED_ERR_ENUM_)
};
#undef SCHED_ERR_ENUM_

/** The message of an error code ("no space", "CRC mismatch", ...); "ok" for 0. O(codes); never NULL. */
const char *sched_strerror(int err);

#endif /* SCHED_ERR_H */
