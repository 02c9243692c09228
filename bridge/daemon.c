/* SPDX-License-Identifier: MIT */
/*
 * The daemon (bridge run): owns the controller link, the clock and the local backend.
 *
 * Everything it promises rests on the records in DIR/jobs/ID (docs/bridge.md): a job's spec is written
 * before the controller sees it, "accepted" after the controller's ok, "started" by the supervisor
 * before the exec, "ended" after the reap, "closed" once the controller no longer holds the job. After
 * either side resets, the bridge compares those records with what the controller holds (its queue and
 * running lists) and does what is missing, in time order; every step is idempotent, so a reset in the
 * middle of a reconciliation only means doing it again.
 */
#define _GNU_SOURCE
#include "bridge.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends.h"
#include "daemon.h"
#include "link.h"
#include "spec.h"
#include "util.h"

struct bridge_state B;

static volatile sig_atomic_t stop_asked;

static void on_stop(int sig)
{
	(void)sig;
	stop_asked = 1;
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vlogf_(fmt, ap);
	va_end(ap);
	link_close(&B.link);
	exit(1);
}

uint32_t ctrl_of_ms(int64_t ms)
{
	int64_t t = ms / 1000 - B.epoch;
	return t < 0 ? 0 : (uint32_t)t;
}

void job_dir(const struct job *j, char *buf, size_t size)
{
	fmt_into(buf, size, "%s/%u", B.jobs_dir, j->id);
}

struct job *job_find(uint32_t id)
{
	return id >= 1 && id <= B.njobs && B.jobs[id - 1].id == id ? &B.jobs[id - 1] : NULL;
}

struct job *job_slot(uint32_t id)
{
	while (B.njobs < id) {
		if (B.njobs == B.cap) {
			B.cap = B.cap ? 2 * B.cap : 256;
			B.jobs = xrealloc(B.jobs, B.cap * sizeof *B.jobs);
		}
		B.jobs[B.njobs] = (struct job){.client = -1, .pidfd = -1, .guar = -1};
		B.njobs++;
	}
	return &B.jobs[id - 1];
}

/* A record of job @p j, written whole; a failure to write is fatal: a promise we cannot keep on disk
 * must not be made to anyone. */
static void vjob_rec(struct job *j, const char *name, bool exclusive, const char *fmt, va_list ap)
{
	char dir[PATH_MAX], text[REC_MAX];
	job_dir(j, dir, sizeof dir);
	int n = vsnprintf(text, sizeof text - 1, fmt, ap);
	if (n < 0 || (size_t)n >= sizeof text - 1)
		die("record %s of job %u too long", name, j->id);
	strcat(text, "\n");
	int rc = exclusive ? rec_create(dir, name, text) : rec_write(dir, name, text);
	if (rc != 0 && !(exclusive && errno == EEXIST))
		die("cannot write %s/%s: %s", dir, name, strerror(errno));
}

void job_rec(struct job *j, const char *name, bool exclusive, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vjob_rec(j, name, exclusive, fmt, ap);
	va_end(ap);
}

void end_job(struct job *j, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vjob_rec(j, "ended", true, fmt, ap);
	va_end(ap);
	/* The record that stands: ours, or an earlier writer's (the supervisor's, which knew more). */
	char dir[PATH_MAX], rec[REC_MAX];
	job_dir(j, dir, sizeof dir);
	if (rec_read(dir, "ended", rec, sizeof rec))
		mark_ended(j, rec);
}

static void client_reply(int *fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void client_reply(int *fd, const char *fmt, ...)
{
	if (*fd < 0)
		return;
	char line[REC_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	strcat(line, "\n");
	/* A client that went away is no reason to stop: MSG_NOSIGNAL, and the answer is dropped. */
	if (send(*fd, line, strlen(line), MSG_NOSIGNAL) < 0)
		logf_("a client went away before its answer: %s", strerror(errno));
	close(*fd);
	*fd = -1;
}

/* ---- the controller ------------------------------------------------------------------------------- */

/* A finish or cancel the controller took, or one about a job it no longer holds (err 5: it killed or
 * cancelled the job itself): either way the job is settled there. */
static bool settled(const struct reply *r)
{
	return r->ok || strncmp(r->line, "err 5 ", 6) == 0;
}

static void handle_evts(void);

/* One command; its decisions are acted on. @return the reply (B.r), or NULL if the link died. */
struct reply *ctl(const char *fmt, ...)
{
	char line[REC_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (!B.link.up || link_cmd(&B.link, line, &B.r) != 0)
		return NULL;
	handle_evts();
	/* Every answer that moves the clock says where it is and when it is next needed. */
	unsigned now;
	char next[32];
	if (B.r.ok && sscanf(B.r.line, "ok now=%u", &now) == 1) {
		B.ctrl_now = now;
		if (kv_get(B.r.line, "next", next, sizeof next))
			B.ctrl_next = next[0] == '-' ? -1 : atoll(next);
	}
	return &B.r;
}

/* Move the controller's clock to @p t (never backwards). @return false if the link died. */
bool advance_to(uint32_t t)
{
	if (t < B.ctrl_now)
		t = B.ctrl_now;
	/* Never one advance over a decision and what follows it. After a reset the controller's clock is
	 * behind; one jump to the present could start a job and kill it at its limit in the same reply,
	 * before it could run (seen: a 1 s job, started at 5 and killed at 6 by "advance 6"). So step through
	 * next=, carrying out each step's starts before the clock moves on. */
	for (;;) {
		uint32_t step = t;
		if (B.ctrl_next > (int64_t)B.ctrl_now && B.ctrl_next < (int64_t)t)
			step = (uint32_t)B.ctrl_next;
		struct reply *r = ctl("advance %u", step);
		if (!r)
			return false;
		if (!r->ok) {
			logf_("controller refused \"advance %u\": %s", step, r->line);
			return true;
		}
		if (B.be->starts)
			B.be->starts();
		if (step >= t || B.ctrl_now >= t)
			return true;
	}
}

static bool advance_now(void)
{
	return advance_to(ctrl_of_ms(now_ms()));
}

/* A submit, finish or cancel can move the next decision (a compression starts a job earlier, so its
 * kill comes earlier too), and their answers do not say when it is: ask. */
static bool refresh_next(void)
{
	return ctl("time") != NULL;
}

void kill_job(struct job *j, const char *reason, uint32_t ctrl)
{
	char dir[PATH_MAX];
	job_dir(j, dir, sizeof dir);
	if (!rec_exists(dir, "kill"))
		job_rec(j, "kill", true, "time=%lld ctrl=%u reason=%s", (long long)now_ms(), ctrl, reason);
	if (j->kill_sent)
		return;
	j->kill_sent = true;
	if (B.be->kill)
		B.be->kill(j, reason);
}

/* The job ended (its record is there, or it is written here): report it to the controller. */
/*
 * Write-ahead: before a submit, a finish or a cancel goes to the controller, the job's "submit-sent" or
 * "end-sent" record says when (wall ms, controller second) and, for a finish, which command (group=:
 * the bridge's pid and a count; the jobs of one "finish A B ..." share it). If the bridge dies between
 * the controller's ok and the accepted or closed record, its successor finds the command taken
 * (reconcile) and writes the record with the command's own time, not its own: the records then say
 * exactly what the controller took and when (tests/bridge/console_replay.sh feeds them to a fresh
 * controller and expects the same decisions).
 */
static void sent_rec(struct job *j, const char *name, const char *how, const char *group)
{
	job_rec(j, name, false, "time=%lld ctrl=%u how=%s group=%s", (long long)now_ms(), B.ctrl_now, how, group);
}

/* The write-ahead record @p name of @p j, if any: its time, controller second, how and group. */
static bool sent_read(const struct job *j, const char *name, int64_t *ms, uint32_t *ctrl, char *how, char *group)
{
	char dir[PATH_MAX], rec[REC_MAX];
	long long t;
	unsigned c;
	job_dir(j, dir, sizeof dir);
	return rec_read(dir, name, rec, sizeof rec) &&
	       sscanf(rec, "time=%lld ctrl=%u how=%15s group=%31s", &t, &c, how, group) == 4 && (*ms = t, *ctrl = c, true);
}

/* The closed record: the controller took the job's end (@p how) at @p ms, controller second @p ctrl. */
static void close_at(struct job *j, const char *how, int64_t ms, uint32_t ctrl, const char *group)
{
	if (j->closed)
		return;
	j->closed = true;
	job_rec(j, "closed", true, "time=%lld how=%s ctrl=%u group=%s", (long long)ms, how, ctrl, group);
}

void close_job(struct job *j, const char *how)
{
	int64_t ms;
	uint32_t ctrl;
	char sent_how[16], group[32];
	/* A finish or cancel sent for it, and taken: the command's own time (a predecessor's, after a reset). */
	if (strcmp(how, "kill") != 0 && sent_read(j, "end-sent", &ms, &ctrl, sent_how, group) &&
	    strcmp(sent_how, how) == 0)
		close_at(j, how, ms, ctrl, group);
	else
		close_at(j, how, now_ms(), B.ctrl_now, "-");
}

/* A new group name for one finish command: unique across bridges (pid) and within one (count). */
static const char *finish_group_name(void)
{
	static char name[32];
	static unsigned count;
	fmt_into(name, sizeof name, "%d.%u", (int)getpid(), ++count);
	return name;
}

static int cmp_end(const void *a, const void *b)
{
	const struct job *x = *(struct job *const *)a, *y = *(struct job *const *)b;
	return x->end_ms < y->end_ms ? -1 : x->end_ms > y->end_ms ? 1 : (x->id > y->id) - (x->id < y->id);
}

/* "finish A B ..." for jobs that ended in one controller second: one pass after all of them, as the
 * replay engine does (firmware/cmd_sched.c). @return false if the link died. */
static bool finish_group(struct job **v, size_t n)
{
	char line[REC_MAX] = "finish";
	const char *group = finish_group_name();
	for (size_t k = 0; k < n; k++) {
		size_t len = strlen(line);
		fmt_into(line + len, sizeof line - len, " %u", v[k]->id);
		sent_rec(v[k], "end-sent", "finish", group);
	}
	struct reply *r = ctl("%s", line);
	if (!r)
		return false;
	if (r->ok) {
		for (size_t k = 0; k < n; k++)
			close_job(v[k], "finish");
		return true;
	}
	/* One of them is no longer running there (killed at its limit in the same second): one by one. */
	for (size_t k = 0; k < n; k++) {
		sent_rec(v[k], "end-sent", "finish", finish_group_name());
		if (!(r = ctl("finish %u", v[k]->id)))
			return false;
		if (settled(r))
			close_job(v[k], r->ok ? "finish" : "kill");
		else
			logf_("job %u: controller refused its finish: %s", v[k]->id, r->line);
	}
	return true;
}

bool report_ends(struct job **v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_end);
	enum { GROUP = 7 }; /* ids a console line takes (8 words) */
	struct job *group[GROUP];
	size_t g = 0;
	bool ok = true;
	for (size_t k = 0; ok && k < n; k++) {
		struct job *j = v[k];
		const char *killed = j->killed;
		if (j->closed)
			continue;
		if (strcmp(killed, "no") != 0 && !j->in_run) {
			/* The controller ended it itself (evt kill, or the cancel we sent first). */
			close_job(j, killed[0] == 'c' ? "cancel" : "kill");
			continue;
		}
		uint32_t t = ctrl_of_ms(j->end_ms);
		if (g > 0 && (g == GROUP || ctrl_of_ms(group[0]->end_ms) < t)) {
			ok = finish_group(group, g);
			g = 0;
		}
		if (!ok || (g == 0 && !advance_to(t)))
			return false;
		j->in_run = false;
		if (strcmp(killed, "cancel") == 0) {
			sent_rec(j, "end-sent", "cancel", "-");
			struct reply *r = ctl("cancel %u", j->id);
			ok = r != NULL;
			if (r && settled(r))
				close_job(j, "cancel");
			continue;
		}
		group[g++] = j;
	}
	if (ok && g > 0)
		ok = finish_group(group, g);
	return ok && refresh_next();
}

void report_end(struct job *j)
{
	if (!j->closed && B.link.up)
		report_ends(&j, 1);
}

/* The job's processes are gone: its processors are free and nothing is left to watch. */
void release(struct job *j)
{
	if (j->spawned) {
		B.busy -= j->procs;
		j->spawned = false;
	}
	if (j->pidfd >= 0) {
		close(j->pidfd);
		j->pidfd = -1;
	}
}

void mark_ended(struct job *j, const char *rec)
{
	int64_t t = now_ms();
	kv_i64(rec, "time", &t);
	j->ended = true;
	j->end_ms = t;
	if (!kv_get(rec, "killed", j->killed, sizeof j->killed))
		fmt_into(j->killed, sizeof j->killed, "no");
	release(j);
}

static void handle_evts(void)
{
	for (size_t i = 0; i < B.r.nevt; i++) {
		struct evt e = B.r.evt[i];
		struct job *j = job_find(e.id);
		if (!j) {
			logf_("controller decided for job %u, which DIR does not hold: ignored", e.id);
			continue;
		}
		if (e.kind == EVT_START) {
			if (j->start_wanted || j->started)
				continue;
			j->start_wanted = true;
			j->start_ctrl = e.time;
			j->evt_ms = now_ms();
			j->in_wait = false;
			j->in_run = true;
		} else {
			j->in_run = false;
			if ((j->spawned || j->started) && !j->ended)
				kill_job(j, "limit", e.time);
			else if (!j->ended) {
				/* Killed before its deferred start: nothing ran, and nothing will. The kill record
				 * still says the controller killed it (an ended killed=limit always has one). */
				char dir[PATH_MAX];
				job_dir(j, dir, sizeof dir);
				if (!rec_exists(dir, "kill"))
					job_rec(j, "kill", true, "time=%lld ctrl=%u reason=limit", (long long)now_ms(), e.time);
				end_job(j, "time=%lld status=notrun killed=limit by=bridge", (long long)now_ms());
			}
			if (j->ended)
				close_job(j, "kill");
		}
	}
	/* Starts wait for their processors; a nested command from here would clobber B.r. */
}

/* ---- reconciliation -------------------------------------------------------------------------------- */

/* What the controller holds: "queue FROM" and "running FROM" pages of "id:procs:estimate:start". */
static bool fetch_held(const char *what, bool running)
{
	for (unsigned from = 0;;) {
		struct reply *r = ctl("%s %u", what, from);
		if (!r)
			return false;
		if (!r->ok)
			die("controller refused \"%s %u\": %s", what, from, r->line);
		unsigned total = 0, n = 0;
		char key[32];
		fmt_into(key, sizeof key, "ok %s=%%u", running ? "running" : "waiting");
		if (sscanf(r->line, key, &total) != 1)
			die("controller answered \"%s\" oddly: %s", what, r->line);
		const char *p = strstr(r->line, " from=");
		p = p ? strchr(p + 1, ' ') : NULL;
		while (p && *p == ' ') {
			unsigned id;
			if (sscanf(p + 1, "%u:", &id) != 1)
				break;
			struct job *j = job_find(id);
			if (!j || j->ack == ACK_REFUSED)
				die("the controller holds job %u, which %s does not know: was its store made by another "
				    "bridge? (start over with an empty --state DIR and store)",
				    id, B.jobs_dir);
			unsigned procs, est, start;
			if (running) {
				j->in_run = true;
				j->held_start = B.ctrl_now;
				/* The controller's own start: a start decided while we were apart is recorded at the
				 * second it was decided, not the second we learnt of it. */
				if (sscanf(p + 1, "%u:%u:%u:%u", &id, &procs, &est, &start) == 4)
					j->held_start = start;
			} else
				j->in_wait = true;
			n++;
			p = strchr(p + 1, ' ');
		}
		from += n;
		if (n == 0 || from >= total)
			return true;
	}
}


/* An ended job the controller no longer holds: our finish or cancel was taken before we could record
 * it (its write-ahead stands; a finish counts unless the controller had killed the job), or the
 * controller killed it. O(1) records. */
static void close_gone(struct job *j, const char *dir)
{
	int64_t ms;
	uint32_t ctrl;
	char how[16], group[32];
	const char *as = "kill";
	if (sent_read(j, "end-sent", &ms, &ctrl, how, group)) {
		if (strcmp(how, "cancel") == 0)
			as = "cancel";
		else if (strcmp(how, "finish") == 0 && !rec_exists(dir, "kill"))
			as = "finish";
	}
	close_job(j, as);
}

/* Bring the controller and the records into agreement (docs/bridge.md, "Resets"). @return false if the
 * link died on the way (it is then simply done again). */
static bool reconcile(void)
{
	for (size_t i = 0; i < B.njobs; i++)
		B.jobs[i].in_wait = B.jobs[i].in_run = false;
	if (!fetch_held("queue", false) || !fetch_held("running", true))
		return false;
	size_t nend = 0;
	struct job **ends = calloc(B.njobs + 1, sizeof *ends);
	if (!ends)
		die("out of memory");
	for (size_t i = 0; i < B.njobs; i++) {
		struct job *j = &B.jobs[i];
		char dir[PATH_MAX];
		if (!j->id || j->closed || j->ack == ACK_REFUSED)
			continue;
		job_dir(j, dir, sizeof dir);
		bool held = j->in_wait || j->in_run;
		if (j->ack == ACK_PENDING) {
			if (held) {
				/* The controller took it (journaled) but died before its ok. */
				j->ack = ACK_ACCEPTED;
				int64_t ms = now_ms();
				uint32_t ctrl = B.ctrl_now;
				char how[16], group[32];
				sent_read(j, "submit-sent", &ms, &ctrl, how, group); /* else: now, the best we know */
				job_rec(j, "accepted", true, "time=%lld ctrl=%u start=-", (long long)ms, ctrl);
				client_reply(&j->client, "ok %u - %lld", j->id, (long long)B.epoch);
			} else if (j->client < 0 && B.be->takes_submit) {
				/* Its client was told nothing was acknowledged (the bridge stopped): it stays refused.
				 * A job the backend found (Slurm's hold partition) has no client: it is still there,
				 * its user waits for it, and it is submitted again below. */
				j->ack = ACK_REFUSED;
				char why[] = "the bridge stopped before the controller acknowledged it", hex[2 * sizeof why];
				hex_encode(why, strlen(why), hex);
				job_rec(j, "refused", true, "time=%lld reason=%s", (long long)now_ms(), hex);
				continue;
			} else
				continue; /* submitted again below */
		}
		if (j->in_wait && (j->started || j->spawned)) {
			/* Never legitimate: the controller's journal holds every start it printed. */
			logf_("BUG: job %u runs here but the controller holds it as waiting", j->id);
		}
		if (j->in_run && !j->started && !j->spawned && !j->start_wanted && !j->ended) {
			logf_("job %u: the controller started it at %u while we were apart; starting it now (at %u)", j->id,
			      j->held_start, B.ctrl_now);
			j->start_wanted = true;
			j->start_ctrl = j->held_start;
			j->evt_ms = now_ms();
		}
		if (!held && (j->started || j->spawned) && !j->ended)
			kill_job(j, rec_exists(dir, "cancel") ? "cancel" : "limit", B.ctrl_now); /* its kill was lost with us */
		if (!held && j->ended)
			close_gone(j, dir);
		if (!held && !j->started && !j->spawned && !j->ended) {
			if (rec_exists(dir, "cancel")) {
				close_job(j, "cancel");
			} else {
				logf_("BUG: the controller lost acknowledged job %u; submitting it again", j->id);
				j->ack = ACK_PENDING;
			}
		}
		if (j->in_run && j->ended)
			ends[nend++] = j;
	}
	/* What happened while the controller was down, in time order: the ends of each second, then one
	 * pass (report_ends). */
	bool ok = report_ends(ends, nend);
	free(ends);
	if (!ok)
		return false;
	/* Then what was asked meanwhile: submits (their clients still wait) and cancels. */
	for (size_t i = 0; i < B.njobs; i++) {
		struct job *j = &B.jobs[i];
		if (j->id && j->ack == ACK_PENDING && !submit_job(j))
			return false;
	}
	for (size_t i = 0; i < B.njobs; i++) {
		struct job *j = &B.jobs[i];
		char dir[PATH_MAX];
		if (!j->id || j->closed || !j->in_wait)
			continue;
		job_dir(j, dir, sizeof dir);
		if (rec_exists(dir, "cancel")) {
			sent_rec(j, "end-sent", "cancel", "-");
			struct reply *r = ctl("cancel %u", j->id);
			if (!r)
				return false;
			close_job(j, "cancel");
			client_reply(&j->client, "ok cancelled %u", j->id);
		}
	}
	if (!advance_now())
		return false;
	if (B.be->tick)
		B.be->tick();
	return true;
}

/* ---- the controller's setup after every (re)connection --------------------------------------------- */

static void read_epoch(void)
{
	char rec[REC_MAX];
	int64_t e;
	if (rec_read(B.o->dir, "epoch", rec, sizeof rec) && kv_i64(rec, "epoch", &e))
		B.epoch = e;
	else
		B.epoch = -1;
}

static bool setup_controller(void)
{
	struct reply *r = ctl("store");
	if (!r)
		return false;
	if (strncmp(r->line, "ok store=on", 11) != 0)
		die("the controller has no store (%s): a reset would lose its jobs; start it with one "
		    "(build/console --store FILE, or QEMU with its store file)", r->line);
	if (!(r = ctl("status")))
		return false;
	unsigned now = 0, waiting = 0, running = 0;
	const char *p = strstr(r->line, "now=");
	char v[32];
	if (!p || sscanf(p, "now=%u", &now) != 1 || !kv_get(r->line, "waiting", v, sizeof v) || sscanf(v, "%u", &waiting) != 1 ||
	    !kv_get(r->line, "running", v, sizeof v) || sscanf(v, "%u", &running) != 1)
		die("controller answered \"status\" oddly: %s", r->line);
	B.ctrl_now = now;
	if (B.epoch < 0) {
		/* The first start: controller time 0 is now (or earlier, if its store already has time). */
		B.epoch = now_ms() / 1000 - now;
		char text[64];
		fmt_into(text, sizeof text, "epoch=%lld\n", (long long)B.epoch);
		if (rec_write(B.o->dir, "epoch", text) != 0)
			die("cannot write %s/epoch: %s", B.o->dir, strerror(errno));
	}
	if (!(r = ctl("config")))
		return false;
	unsigned procs = 0;
	if (!kv_get(r->line, "procs", v, sizeof v) || sscanf(v, "%u", &procs) != 1)
		die("controller answered \"config\" oddly: %s", r->line);
	if (procs != B.o->procs) {
		if (waiting || running)
			die("the controller has procs=%u and holds jobs, but --procs is %u: it cannot change now", procs,
			    B.o->procs);
		if (!(r = ctl("config procs %u", B.o->procs)))
			return false;
		if (!r->ok)
			die("the controller refused \"config procs %u\": %s", B.o->procs, r->line);
		if (!(r = ctl("status")))
			return false;
		if ((p = strstr(r->line, "now=")))
			sscanf(p, "now=%u", &B.ctrl_now);
	}
	if (B.o->policy) {
		char cur[64];
		if (!kv_get(r->line, "policy", cur, sizeof cur) || strcmp(cur, B.o->policy) != 0) {
			if (!(r = ctl("policy %s", B.o->policy)))
				return false;
			if (!r->ok)
				die("the controller refused \"policy %s\": %s", B.o->policy, r->line);
		}
	}
	if (B.o->selfcheck && !ctl("selfcheck on"))
		return false;
	return reconcile();
}

/* ---- clients --------------------------------------------------------------------------------------- */

bool submit_job(struct job *j)
{
	if (!advance_now())
		return false;
	sent_rec(j, "submit-sent", "submit", "-");
	struct reply *r = ctl("submit %u %u %u", j->id, j->procs, j->limit);
	if (!r)
		return false;
	if (!r->ok) {
		j->ack = ACK_REFUSED;
		char hex[2 * REC_MAX + 1];
		hex_encode(r->line, strlen(r->line), hex);
		job_rec(j, "refused", true, "time=%lld reason=%s", (long long)now_ms(), hex);
		client_reply(&j->client, "err %s", r->line);
		if (B.be->refused)
			B.be->refused(j, r->line);
		return true;
	}
	char start[32] = "-";
	kv_get(r->line, "start", start, sizeof start);
	j->ack = ACK_ACCEPTED;
	j->guar = start[0] == '-' ? -1 : atoll(start);
	j->in_wait = !j->start_wanted;
	job_rec(j, "accepted", true, "time=%lld ctrl=%u start=%s", (long long)now_ms(), B.ctrl_now, start);
	client_reply(&j->client, "ok %u %s %lld", j->id, start, (long long)B.epoch);
	if (B.be->accepted)
		B.be->accepted(j);
	return refresh_next();
}

static void req_submit(int *fd, char *args)
{
	static struct job_spec sp;
	char name[SPEC_NAME + 1], cwd[2 * 4096 + 1];
	unsigned procs, limit;
	int used = 0;
	if (sscanf(args, "%u %u %64s %8192s %n", &procs, &limit, name, cwd, &used) != 4 || !spec_name_ok(name)) {
		client_reply(fd, "err malformed submit request");
		return;
	}
	memset(&sp, 0, sizeof sp);
	sp.procs = procs;
	sp.limit = limit;
	strcpy(sp.name, name);
	if (hex_decode(cwd, sp.cwd, sizeof sp.cwd) < 0) {
		client_reply(fd, "err malformed submit request");
		return;
	}
	size_t off = 0;
	for (char *save = NULL, *w = strtok_r(args + used, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		long len;
		if (sp.argc == SPEC_ARGS || (len = hex_decode(w, sp.text + off, sizeof sp.text - off)) < 0) {
			client_reply(fd, "err too many or too long arguments (at most %d)", SPEC_ARGS);
			return;
		}
		sp.argv[sp.argc++] = sp.text + off;
		off += (size_t)len + 1;
	}
	if (sp.argc == 0 || access(sp.argv[0], X_OK) != 0) {
		client_reply(fd, "err not an executable file: %s", sp.argc ? sp.argv[0] : "(none)");
		return;
	}
	sp.id = (uint32_t)B.njobs + 1;
	sp.submit_ms = now_ms();
	struct job *j = job_new(&sp, *fd);
	*fd = -1; /* the job answers it now */
	submit_job(j); /* if the link dies, reconcile() submits it again and answers */
}

struct job *job_new(const struct job_spec *sp, int client)
{
	struct job *j = job_slot(sp->id);
	*j = (struct job){.id = sp->id, .procs = sp->procs, .limit = sp->limit, .submit_ms = sp->submit_ms,
			  .ack = ACK_PENDING, .client = client, .pidfd = -1, .guar = -1};
	strcpy(j->name, sp->name);
	char dir[PATH_MAX];
	job_dir(j, dir, sizeof dir);
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		die("cannot make %s: %s", dir, strerror(errno));
	if (spec_save(dir, sp) != 0)
		die("cannot write %s/spec: %s", dir, strerror(errno));
	return j;
}

void withdraw_job(struct job *j)
{
	char dir[PATH_MAX];
	job_dir(j, dir, sizeof dir);
	if (!rec_exists(dir, "cancel"))
		job_rec(j, "cancel", true, "time=%lld", (long long)now_ms());
	if (!advance_now())
		return; /* the cancel record stands: reconcile() sends it */
	sent_rec(j, "end-sent", "cancel", "-");
	struct reply *r = ctl("cancel %u", j->id);
	if (r && settled(r)) {
		j->in_wait = j->in_run = false;
		close_job(j, "cancel");
		refresh_next();
	}
}

static void req_cancel(int *fd, const char *args)
{
	unsigned id;
	struct job *j = sscanf(args, "%u", &id) == 1 ? job_find(id) : NULL;
	if (!j || j->ack == ACK_REFUSED) {
		client_reply(fd, "err no such job: %s", args);
		return;
	}
	if (j->closed || j->ended) {
		client_reply(fd, "err job %u has ended", j->id);
		return;
	}
	char dir[PATH_MAX];
	job_dir(j, dir, sizeof dir);
	if (!rec_exists(dir, "cancel"))
		job_rec(j, "cancel", true, "time=%lld", (long long)now_ms());
	if (!advance_now())
		goto later;
	bool running = j->started || j->spawned || j->start_wanted;
	sent_rec(j, "end-sent", "cancel", "-");
	struct reply *r = ctl("cancel %u", j->id);
	if (!r)
		goto later;
	if (!settled(r)) {
		client_reply(fd, "err %s", r->line);
		return;
	}
	if (running && !j->ended) {
		j->in_run = false;
		kill_job(j, "cancel", B.ctrl_now);
		if (!j->spawned && !j->started) {
			j->start_wanted = false;
			end_job(j, "time=%lld status=notrun killed=cancel by=bridge", (long long)now_ms());
		}
	}
	if (!running || j->ended)
		close_job(j, "cancel");
	client_reply(fd, "ok cancelled %u", j->id);
	refresh_next();
	return;
later:
	/* The cancel record stands: reconcile() sends it once the controller is back, and answers. */
	j->client = *fd;
	*fd = -1;
}

static const char *job_state(const struct job *j, char *status, size_t size)
{
	fmt_into(status, size, "-");
	if (j->ack == ACK_REFUSED)
		return "refused";
	if (j->ack == ACK_PENDING)
		return "pending";
	if (j->ended) {
		char dir[PATH_MAX], rec[REC_MAX], killed[16] = "no";
		job_dir(j, dir, sizeof dir);
		if (rec_read(dir, "ended", rec, sizeof rec)) {
			kv_get(rec, "status", status, size);
			kv_get(rec, "killed", killed, sizeof killed);
		}
		return strcmp(killed, "limit") == 0 ? "killed" : strcmp(killed, "cancel") == 0 ? "cancelled" : "ended";
	}
	if (j->closed)
		return "cancelled";
	if (j->started || j->spawned)
		return "running";
	return j->start_wanted ? "starting" : "waiting";
}

static void req_queue(int *fd, const char *args)
{
	bool all = strcmp(args, "all") == 0;
	FILE *out = fdopen(dup(*fd), "w");
	if (!out) {
		client_reply(fd, "err %s", strerror(errno));
		return;
	}
	for (size_t i = 0; i < B.njobs; i++) {
		struct job *j = &B.jobs[i];
		char status[32];
		if (!j->id)
			continue;
		const char *state = job_state(j, status, sizeof status);
		if (!all && (j->ended || j->closed || j->ack == ACK_REFUSED))
			continue;
		int64_t start = -1, guar = -1;
		if (j->started || j->spawned || j->start_wanted)
			start = (B.epoch + j->start_ctrl) * 1000;
		else if (j->ack == ACK_ACCEPTED && B.link.up) {
			/* The guarantee now, which only ever moves earlier. */
			struct reply *r = ctl("predict %u", j->id);
			char s[32];
			if (r && r->ok && kv_get(r->line, "start", s, sizeof s) && s[0] != '-')
				guar = (B.epoch + atoll(s)) * 1000;
		}
		if (j->started || j->spawned) {
			/* The supervisor's record, once there, is when it really started. */
			char dir[PATH_MAX], rec[REC_MAX];
			job_dir(j, dir, sizeof dir);
			if (rec_read(dir, "started", rec, sizeof rec))
				kv_i64(rec, "time", &start);
		}
		fprintf(out, "job id=%u name=%s state=%s procs=%u limit=%u submit=%lld start=%lld guar=%lld end=%lld status=%s\n",
			j->id, j->name, state, j->procs, j->limit, (long long)j->submit_ms, (long long)start, (long long)guar,
			(long long)(j->ended ? j->end_ms : -1), status);
	}
	fclose(out);
	client_reply(fd, "ok");
}

static void req_status(int *fd)
{
	struct reply *r = ctl("status");
	char status[REC_MAX], stats[REC_MAX];
	if (!r) {
		client_reply(fd, "err the controller is not connected");
		return;
	}
	fmt_into(status, sizeof status, "%s", r->line);
	if (!(r = ctl("stats"))) {
		client_reply(fd, "err the controller is not connected");
		return;
	}
	fmt_into(stats, sizeof stats, "%s", r->line);
	FILE *out = fdopen(dup(*fd), "w");
	if (out) {
		fprintf(out, "bridge procs=%u busy=%u epoch=%lld jobs=%zu\ncontroller %s\nstats %s\n", B.o->procs, B.busy,
			(long long)B.epoch, B.njobs, status, stats);
		fclose(out);
	}
	client_reply(fd, "ok");
}

static void serve(struct client *c)
{
	char *nl = memchr(c->buf, '\n', c->len);
	*nl = '\0';
	char *sp = strchr(c->buf, ' ');
	char *args = sp ? sp + 1 : c->buf + strlen(c->buf);
	if (sp)
		*sp = '\0';
	if (strcmp(c->buf, "submit") == 0 && !B.be->takes_submit)
		client_reply(&c->fd, "err the %s backend takes no submits here: %s", B.be->name, B.be->help);
	else if (strcmp(c->buf, "submit") == 0)
		req_submit(&c->fd, args);
	else if (strcmp(c->buf, "cancel") == 0)
		req_cancel(&c->fd, args);
	else if (strcmp(c->buf, "queue") == 0)
		req_queue(&c->fd, args);
	else if (strcmp(c->buf, "status") == 0)
		req_status(&c->fd);
	else
		client_reply(&c->fd, "err unknown request: %s", c->buf);
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->len = 0;
}

static void client_input(struct client *c)
{
	ssize_t r = read(c->fd, c->buf + c->len, sizeof c->buf - 1 - c->len);
	if (r <= 0) {
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		close(c->fd);
		c->fd = -1;
		c->len = 0;
		return;
	}
	c->len += (size_t)r;
	if (memchr(c->buf, '\n', c->len)) {
		/* Answers are written whole: the socket blocks for them. */
		fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) & ~O_NONBLOCK);
		serve(c);
	} else if (c->len == sizeof c->buf - 1) {
		client_reply(&c->fd, "err request too long");
		c->len = 0;
	}
}

static void accept_clients(void)
{
	for (;;) {
		int fd = accept4(B.listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			return;
		int k = 0;
		while (k < MAX_CLIENTS && B.clients[k].fd >= 0)
			k++;
		if (k == MAX_CLIENTS) {
			client_reply(&fd, "err busy: %d clients at once", MAX_CLIENTS);
			continue;
		}
		B.clients[k].fd = fd;
		B.clients[k].len = 0;
	}
}

/* ---- start-up -------------------------------------------------------------------------------------- */

static void take_lock(void)
{
	char path[PATH_MAX];
	fmt_into(path, sizeof path, "%s/%s", B.o->dir, BRIDGE_LOCK);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		char pid[32] = "?";
		ssize_t n = read(fd, pid, sizeof pid - 1);
		pid[n > 0 ? n : 1] = '\0';
		die("another bridge runs on %s (pid %s): one bridge per state directory", B.o->dir, strtok(pid, "\n"));
	}
	char text[32];
	fmt_into(text, sizeof text, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, text, strlen(text), 0) < 0)
		die("cannot write %s: %s", path, strerror(errno));
	/* The descriptor stays open (and locked) for the daemon's life. */
}

static void open_socket(void)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	char path[PATH_MAX];
	fmt_into(path, sizeof path, "%s/%s", B.o->dir, BRIDGE_SOCK);
	if (strlen(path) >= sizeof sa.sun_path)
		die("the socket path %s is longer than a Unix socket's %zu bytes: use a shorter --state DIR", path,
		    sizeof sa.sun_path - 1);
	strcpy(sa.sun_path, path);
	unlink(path); /* ours: we hold the lock */
	B.listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (B.listen_fd < 0 || bind(B.listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(B.listen_fd, 64) != 0)
		die("cannot listen at %s: %s", path, strerror(errno));
}

/* The jobs as DIR records them; running ones are watched again (their supervisors outlived us). */
static void load_jobs(void)
{
	DIR *d = opendir(B.jobs_dir);
	if (!d)
		die("cannot read %s: %s", B.jobs_dir, strerror(errno));
	struct dirent *e;
	static struct job_spec sp;
	while ((e = readdir(d))) {
		uint64_t id;
		if (!parse_u64(e->d_name, 1, UINT32_MAX, &id))
			continue;
		struct job *j = job_slot((uint32_t)id);
		*j = (struct job){.id = (uint32_t)id, .client = -1, .pidfd = -1, .guar = -1};
		char dir[PATH_MAX], rec[REC_MAX];
		job_dir(j, dir, sizeof dir);
		if (spec_load(dir, &sp) != 0) {
			logf_("job %u: its spec is unreadable: left alone", j->id);
			j->ack = ACK_REFUSED;
			continue;
		}
		j->procs = sp.procs;
		j->limit = sp.limit;
		j->submit_ms = sp.submit_ms;
		strcpy(j->name, sp.name);
		j->ack = rec_exists(dir, "refused") ? ACK_REFUSED : rec_read(dir, "accepted", rec, sizeof rec) ? ACK_ACCEPTED
												     : ACK_PENDING;
		if (j->ack == ACK_ACCEPTED) {
			char s[32];
			if (kv_get(rec, "start", s, sizeof s) && s[0] != '-')
				j->guar = atoll(s);
		}
		j->closed = rec_exists(dir, "closed");
		if (rec_read(dir, "ended", rec, sizeof rec)) {
			mark_ended(j, rec);
			j->started = rec_exists(dir, "started");
			continue;
		}
		/* A kill record is acted on again (kill_sent false): the last bridge may have died before. */
		if (rec_exists(dir, "started") && B.be->recover)
			B.be->recover(j, dir);
	}
	closedir(d);
}

static void ensure_dir(void)
{
	if (mkdir(B.o->dir, 0755) != 0 && errno != EEXIST)
		die("cannot make the state directory %s: %s", B.o->dir, strerror(errno));
	if (access(B.o->dir, W_OK | X_OK) != 0)
		die("the state directory %s is not writable: %s", B.o->dir, strerror(errno));
	fmt_into(B.jobs_dir, sizeof B.jobs_dir, "%s/jobs", B.o->dir);
	if (mkdir(B.jobs_dir, 0755) != 0 && errno != EEXIST)
		die("cannot make %s: %s", B.jobs_dir, strerror(errno));
}

/* ---- the loop -------------------------------------------------------------------------------------- */

static int64_t started_ms; /* this daemon's start: a bridge restart's cost is measured from it */

static void connect_controller(void)
{
	char why[REC_MAX];
	int64_t t0 = now_ms();
	if (link_open(&B.link, why, sizeof why) != 0) {
		B.backoff_ms = B.backoff_ms ? (B.backoff_ms * 2 > 5000 ? 5000 : B.backoff_ms * 2) : 100;
		B.reconnect_at = now_ms() + B.backoff_ms;
		logf_("controller: %s; trying again in %.1f s", why, (double)B.backoff_ms / 1000);
		return;
	}
	if (B.link.child > 0) {
		/* For operators and tests, who stop a process by its pid, never by its name. */
		char text[32];
		fmt_into(text, sizeof text, "%ld\n", (long)B.link.child);
		rec_write(B.o->dir, "controller.pid", text);
	}
	logf_("controller: connected (%s)", B.o->controller ? "child" : B.o->serial);
	if (setup_controller()) {
		B.backoff_ms = 0;
		int64_t t = now_ms();
		logf_("controller: reconciled at now=%u; %u of %u processors busy; %lld ms from connecting, %lld ms "
		      "from this bridge's start",
		      B.ctrl_now, B.busy, B.o->procs, (long long)(t - t0), (long long)(t - started_ms));
	}
}

static void tick(void)
{
	int64_t t = now_ms();
	if (B.link.up && B.ctrl_next >= 0 && t >= (B.epoch + B.ctrl_next) * 1000)
		advance_now();
	if (B.be->tick)
		B.be->tick();
}

static int poll_timeout(void)
{
	int64_t t = now_ms(), due = t + 1000;
	if (B.link.up && B.ctrl_next >= 0 && (B.epoch + B.ctrl_next) * 1000 < due)
		due = (B.epoch + B.ctrl_next) * 1000;
	if (!B.link.up && B.reconnect_at < due)
		due = B.reconnect_at;
	int64_t be = B.be->due ? B.be->due() : -1;
	if (be >= 0 && be < due)
		due = be;
	return due <= t ? 0 : (int)(due - t);
}

const struct backend *backend_find(const char *name)
{
#define BACKEND_MATCH(b) \
	if (strcmp(name, b.name) == 0) \
		return &b;
	BRIDGE_BACKENDS(BACKEND_MATCH)
#undef BACKEND_MATCH
	return NULL;
}

void backend_list(void (*fn)(const char *name, const char *help))
{
#define BACKEND_LIST(b) fn(b.name, b.help);
	BRIDGE_BACKENDS(BACKEND_LIST)
#undef BACKEND_LIST
}

int bridge_run(const struct run_opts *o)
{
	started_ms = now_ms();
	B.o = o;
	B.be = backend_find(o->backend);
	B.listen_fd = -1;
	B.ctrl_next = -1;
	for (int k = 0; k < MAX_CLIENTS; k++)
		B.clients[k].fd = -1;
	B.link = (struct link){.command = o->controller, .serial = o->serial, .timeout_ms = o->link_timeout_ms,
			       .rfd = -1, .wfd = -1, .child = -1};
	signal(SIGPIPE, SIG_IGN);
	struct sigaction sa = {.sa_handler = on_stop};
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	ensure_dir();
	take_lock();
	char path[PATH_MAX];
	fmt_into(path, sizeof path, "%s/bridge.log", o->dir);
	log_open(path);
	logf_("bridge %ld on %s: procs=%u backend=%s controller=%s", (long)getpid(), o->dir, o->procs, o->backend,
	      o->controller ? o->controller : o->serial);
	read_epoch();
	if (B.be->setup)
		B.be->setup();
	load_jobs();
	open_socket();
	size_t npoll = 0;
	struct pollfd *pfd = NULL;
	struct job **pjob = NULL;
	while (!stop_asked) {
		if (!B.link.up && now_ms() >= B.reconnect_at)
			connect_controller();
		tick();
		/* Listen, clients, the link (an EOF is a dead controller), and the backend's (a pidfd per job). */
		size_t need = 2 + MAX_CLIENTS + B.njobs;
		if (need > npoll) {
			npoll = need * 2;
			pfd = xrealloc(pfd, npoll * sizeof *pfd);
			pjob = xrealloc(pjob, npoll * sizeof *pjob);
		}
		size_t n = 0;
		/* New clients only while the controller answers: their requests wait in the backlog meanwhile. */
		pfd[n++] = (struct pollfd){.fd = B.link.up ? B.listen_fd : -1, .events = POLLIN};
		pfd[n++] = (struct pollfd){.fd = B.link.up ? B.link.rfd : -1, .events = POLLIN};
		for (int k = 0; k < MAX_CLIENTS; k++)
			pfd[n++] = (struct pollfd){.fd = B.link.up ? B.clients[k].fd : -1, .events = POLLIN};
		size_t first_job = n;
		if (B.be->fds)
			n += B.be->fds(pfd + n, pjob + n, npoll - n);
		int r = poll(pfd, n, poll_timeout());
		if (r < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (r <= 0)
			continue;
		if (pfd[1].revents) {
			/* Nothing is asked of it: unsolicited output is a reset (banner) or a closed line. */
			logf_("controller: link closed or reset; reconnecting");
			link_close(&B.link);
			B.reconnect_at = now_ms() + 50;
			continue;
		}
		for (size_t k = first_job; k < n; k++)
			if (pfd[k].revents && B.be->ready)
				B.be->ready(pjob[k]);
		for (int k = 0; k < MAX_CLIENTS; k++)
			if (pfd[2 + k].revents && B.clients[k].fd >= 0)
				client_input(&B.clients[k]);
		if (pfd[0].revents)
			accept_clients();
	}
	logf_("bridge stopping: jobs keep running under their supervisors");
	fmt_into(path, sizeof path, "%s/%s", o->dir, BRIDGE_SOCK);
	unlink(path);
	link_close(&B.link);
	return 0;
}
