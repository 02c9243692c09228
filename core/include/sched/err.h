/* SPDX-License-Identifier: MIT */
/* Error codes returned by every fallible core function. */
#ifndef SCHED_ERR_H
#define SCHED_ERR_H

/*
 * Zero is success; every failure is a distinct negative value so that a
 * console can print it as a number and a test can name it. A function that
 * returns an error leaves the scheduler exactly as it was.
 */
enum sched_err {
	SCHED_OK = 0,
	SCHED_E_NOSPACE = -1, /* a fixed-capacity pool is full: the request is refused */
	SCHED_E_INVAL = -2,   /* an argument is malformed (zero processors, zero estimate, ...) */
	SCHED_E_RANGE = -3,   /* a value is out of range (more processors than the machine, time overflow) */
	SCHED_E_STATE = -4,   /* the object is not in a state that allows the call */
	SCHED_E_NOENT = -5,   /* no job with that id is in the system */
	SCHED_E_EXIST = -6,   /* a job with that id is already in the system */
	SCHED_E_TIME = -7,    /* the clock went backwards */
	SCHED_E_NOTSUP = -8,  /* the policy does not offer this (e.g. a guarantee under FCFS) */
	SCHED_E_FORMAT = -9,  /* encoded input is corrupt */
	SCHED_E_LIMIT = -10,  /* the job can never satisfy its queue's limits */
};

/** Short English name of an error code, for logs and consoles. O(1); never NULL. */
const char *sched_strerror(int err);

#endif /* SCHED_ERR_H */
