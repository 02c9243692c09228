/* SPDX-License-Identifier: MIT */
/* The daemon's shared state and what a backend sees of it (daemon.c, local.c, slurm.c). */
#ifndef BRIDGE_DAEMON_H
#define BRIDGE_DAEMON_H

#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "bridge.h"
#include "link.h"
#include "spec.h"
#include "util.h"

enum ack { ACK_PENDING, ACK_ACCEPTED, ACK_REFUSED };

struct job {
	uint32_t id, procs, limit;
	char name[SPEC_NAME + 1];
	int64_t submit_ms;
	enum ack ack;
	int64_t guar;         /* the guaranteed start (controller seconds), -1 if none */
	bool start_wanted;    /* the controller decided its start */
	uint32_t start_ctrl;  /* ... for this controller time */
	uint32_t held_start;  /* the controller's start, as its running list said at the last reconciliation */
	int64_t evt_ms;       /* ... and we read it then */
	bool spawned;         /* the backend was asked to run it (local: a supervisor holds its processors) */
	bool started, ended, closed, kill_sent;
	bool in_wait, in_run; /* what the controller holds, as of the last reconciliation */
	int client;           /* a client waiting for this job's submit or cancel answer, or -1 */
	int64_t end_ms;
	char killed[8];       /* the ended record's killed=: no, limit or cancel */
	/* The local backend's. */
	int pidfd;            /* the supervisor's (or, without one, the job's) pidfd, or -1 */
	bool watch_job;       /* the supervisor is gone: the job's own process is watched */
	pid_t pid, sup;
	unsigned long long starttime, sup_starttime;
	int64_t sigkill_at;
	int64_t retry_at;     /* a start whose supervisor failed is tried again then */
};

/*
 * A backend: where jobs run. One table (backends.h) from which --backend and its help come. Every hook
 * may be NULL where the backend has nothing to do.
 */
struct backend {
	const char *name;
	const char *help;
	bool takes_submit;                            /* bridge submit (else jobs arrive by the backend) */
	void (*setup)(void);                          /* once, before the controller: check the machine */
	void (*recover)(struct job *j, const char *dir); /* at start: a job started and not ended */
	void (*kill)(struct job *j, const char *reason); /* stop it (the kill record is written) */
	void (*tick)(void);                           /* every loop: starts decided, polls */
	void (*starts)(void);                         /* carry out the starts decided so far, nothing else */
	int64_t (*due)(void);                         /* when tick() next wants to run (ms), or -1 */
	size_t (*fds)(struct pollfd *p, struct job **who, size_t max); /* descriptors to watch */
	void (*ready)(struct job *j);                 /* one of them fired */
	void (*accepted)(struct job *j);              /* the controller holds it (its guarantee in j->guar) */
	void (*refused)(struct job *j, const char *why); /* the controller refused it */
};

extern const struct backend backend_local, backend_slurm;

#define MAX_CLIENTS 64

struct client {
	int fd;
	size_t len;
	char buf[REQ_MAX];
};

struct bridge_state {
	const struct run_opts *o;
	const struct backend *be;
	char jobs_dir[PATH_MAX];
	struct link link;
	int64_t epoch;          /* Unix seconds of controller time 0 */
	uint32_t ctrl_now;
	int64_t ctrl_next;      /* controller seconds, -1: never */
	uint32_t busy;          /* local: processors held by spawned jobs that have not ended */
	struct job *jobs;       /* jobs[id - 1]; id 0: no job there */
	size_t njobs, cap;
	int listen_fd;
	struct client clients[MAX_CLIENTS];
	int64_t backoff_ms, reconnect_at;
	struct reply r;
};

extern struct bridge_state B;

/** Log, stop the controller, exit(1). */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/** Controller seconds of a Unix time in ms (0 before the epoch). O(1). */
uint32_t ctrl_of_ms(int64_t ms);
/** DIR/jobs/ID of @p j into @p buf. O(1). */
void job_dir(const struct job *j, char *buf, size_t size);
/** The job with id @p id, or NULL. O(1). */
struct job *job_find(uint32_t id);
/** The slot of job @p id, the table grown to hold it (new slots empty). O(id) amortised. */
struct job *job_slot(uint32_t id);
/** Write record @p name of @p j (exclusive: only if absent); a failure is fatal. O(size). */
void job_rec(struct job *j, const char *name, bool exclusive, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/** One controller command, its decisions acted on. @return the reply, or NULL if the link died. */
struct reply *ctl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** Move the controller's clock to @p t (never backwards). @return false if the link died. */
bool advance_to(uint32_t t);
/** Record that the controller no longer holds @p j (how: finish, kill, cancel). O(1). */
void close_job(struct job *j, const char *how);
/** @p j's ended record is there: tell the controller (advance to the end, finish). */
void report_end(struct job *j);
/** Ended jobs @p v (@p n, reordered): in time order, the ends of each controller second as one
 *  "finish A B ..." (one pass, as the replay engine); kills and cancels closed. @return false if the
 *  link died (the reconciliation does the rest). O(n log n) plus a command per second. */
bool report_ends(struct job **v, size_t n);
/** Write @p j's ended record (exclusively: an earlier one stands) and take the one that stands into
 *  memory (mark_ended). A record that cannot be written is fatal. O(size). */
void end_job(struct job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/** @p j's processes are gone: its processors are free, nothing is left to watch. O(1). */
void release(struct job *j);
/** Take @p j's ended record @p rec into memory; its processors are free. O(1). */
void mark_ended(struct job *j, const char *rec);
/** A new job from @p sp: its slot, its directory and its spec record, pending; @p client (or -1) is
 *  answered when the controller has it. A record that cannot be written is fatal. O(size). */
struct job *job_new(const struct job_spec *sp, int client);
/** Submit a new job (spec written) to the controller; its client, if any, is answered. @return false if
 *  the link died (the job is then submitted again at the reconciliation). */
bool submit_job(struct job *j);
/** The controller killed or cancelled @p j, or the bridge must: the kill record, then the backend. */
void kill_job(struct job *j, const char *reason, uint32_t ctrl);
/** A user withdrew @p j outside the bridge (Slurm's scancel): the controller's cancel. */
void withdraw_job(struct job *j);

#endif /* BRIDGE_DAEMON_H */
