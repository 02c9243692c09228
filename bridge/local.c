/* SPDX-License-Identifier: MIT */
/*
 * The local backend: a machine of N virtual processors on this host. Each job runs under a supervisor
 * of its own (super.c), watched through a pidfd; a start waits until the processors of the jobs killed
 * for it are really free (docs/bridge.md, "The local backend").
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "daemon.h"
#include "super.h"
#include "util.h"

static void watch(struct job *j, pid_t pid, bool is_job)
{
	if (j->pidfd >= 0)
		close(j->pidfd);
	j->pidfd = pidfd_open_(pid);
	j->watch_job = is_job;
	if (j->pidfd >= 0)
		fd_flags(j->pidfd, true);
}

static void spawn(struct job *j)
{
	char dir[PATH_MAX];
	job_dir(j, dir, sizeof dir);
	struct super_start s = {dir, j->id, j->start_ctrl, (B.epoch + j->start_ctrl) * 1000, j->evt_ms, B.o->kill_wait};
	pid_t sup = super_spawn(&s);
	if (sup < 0) {
		logf_("job %u: cannot start its supervisor: %s; trying again in 1 s", j->id, strerror(errno));
		j->retry_at = now_ms() + 1000;
		return;
	}
	j->spawned = true;
	j->sup = sup;
	j->sup_starttime = 0;
	B.busy += j->procs;
	watch(j, sup, false);
	int64_t late = now_ms() - (B.epoch + j->start_ctrl) * 1000;
	if (late > 2000)
		logf_("job %u: started %lld ms after the controller's decision", j->id, (long long)late);
}

/* Start what the controller decided, as soon as the processors of the jobs that were killed for it are
 * really free (a dying job still holds them, as a COMPLETING job holds its nodes in Slurm). */
static void local_tick(void)
{
	int64_t t = now_ms();
	for (size_t i = 0; i < B.njobs; i++) {
		struct job *j = &B.jobs[i];
		if (j->id && j->start_wanted && !j->spawned && !j->ended && j->retry_at <= t &&
		    B.busy + j->procs <= B.o->procs)
			spawn(j);
	}
}

/* SIGTERM to the supervisor, which terminates the group and kills it after the grace period; without
 * a supervisor, the same from here. */
static void local_kill(struct job *j, const char *reason)
{
	(void)reason;
	if (!j->watch_job && j->pidfd >= 0) {
		pidfd_signal(j->pidfd, SIGTERM);
	} else if (proc_alive(j->pid, j->starttime)) {
		kill(-j->pid, SIGTERM);
		j->sigkill_at = now_ms() + (int64_t)B.o->kill_wait * 1000;
	}
}

static bool load_started(struct job *j, const char *dir)
{
	char rec[REC_MAX];
	int64_t pid = 0, st = 0, sup = 0, sst = 0, ctrl = 0;
	if (!rec_read(dir, "started", rec, sizeof rec) || !kv_i64(rec, "pid", &pid))
		return false;
	kv_i64(rec, "starttime", &st);
	kv_i64(rec, "supervisor", &sup);
	kv_i64(rec, "super_starttime", &sst);
	if (kv_i64(rec, "ctrl", &ctrl))
		j->start_ctrl = (uint32_t)ctrl;
	j->started = true;
	j->pid = (pid_t)pid;
	j->starttime = (unsigned long long)st;
	j->sup = (pid_t)sup;
	j->sup_starttime = (unsigned long long)sst;
	return true;
}

/* The watched process exited (or was already gone): find the job's end, or who to watch next. */
static void local_ready(struct job *j)
{
	char dir[PATH_MAX], rec[REC_MAX];
	job_dir(j, dir, sizeof dir);
	if (rec_read(dir, "ended", rec, sizeof rec)) {
		mark_ended(j, rec);
		report_end(j);
		return;
	}
	if (!j->started && !load_started(j, dir)) {
		/* The supervisor left without starting the job (a failed fork, or killed before its record):
		 * nothing ran, so it may be started again, unless it was to be killed anyway. */
		if (j->pidfd >= 0 && !j->watch_job && proc_alive(j->sup, j->sup_starttime))
			return;
		release(j);
		if (rec_exists(dir, "kill")) {
			end_job(j, "time=%lld status=notrun killed=limit by=bridge", (long long)now_ms());
			report_end(j);
		} else {
			logf_("job %u: its supervisor exited before starting it; starting it again", j->id);
			j->retry_at = now_ms() + 500;
		}
		return;
	}
	if (!j->watch_job && proc_alive(j->sup, j->sup_starttime)) {
		watch(j, j->sup, false); /* the record named another, living supervisor */
		return;
	}
	if (proc_alive(j->pid, j->starttime)) {
		if (!j->watch_job)
			logf_("job %u: its supervisor (pid %ld) is gone; watching the job (pid %ld)", j->id, (long)j->sup,
			      (long)j->pid);
		watch(j, j->pid, true);
		if (j->pidfd >= 0 && proc_alive(j->pid, j->starttime))
			return;
	}
	/* Nobody reaped it for us: its end is when we saw it gone, its status unknown. */
	char reason[16] = "no", krec[REC_MAX];
	if (rec_read(dir, "kill", krec, sizeof krec))
		kv_get(krec, "reason", reason, sizeof reason);
	kill(-j->pid, SIGKILL); /* the rest of its group, if the job's first process left any */
	end_job(j, "time=%lld status=unknown killed=%s by=bridge", (long long)now_ms(), reason);
	logf_("job %u: ended without its supervisor; exit status unknown", j->id);
	report_end(j);
}


/* At the bridge's start: the supervisor outlived the last bridge; watch it again, or find the end. */
static void local_recover(struct job *j, const char *dir)
{
	if (!load_started(j, dir))
		return;
	j->start_wanted = true;
	j->spawned = true;
	B.busy += j->procs;
	if (proc_alive(j->sup, j->sup_starttime))
		watch(j, j->sup, false);
	else
		local_ready(j);
}

/* SIGKILL for the jobs the bridge itself terminated (their supervisor was gone), then the starts. */
static void local_tick_all(void)
{
	int64_t t = now_ms();
	for (size_t i = 0; i < B.njobs; i++) {
		struct job *j = &B.jobs[i];
		if (j->sigkill_at && t >= j->sigkill_at && !j->ended) {
			if (proc_alive(j->pid, j->starttime))
				kill(-j->pid, SIGKILL);
			j->sigkill_at = 0;
		}
	}
	local_tick();
}

static int64_t local_due(void)
{
	int64_t due = -1, t = now_ms();
	for (size_t i = 0; i < B.njobs; i++) {
		const struct job *j = &B.jobs[i];
		if (j->sigkill_at && (due < 0 || j->sigkill_at < due))
			due = j->sigkill_at;
		if (j->retry_at > t && (due < 0 || j->retry_at < due))
			due = j->retry_at;
	}
	return due;
}

static size_t local_fds(struct pollfd *p, struct job **who, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < B.njobs && n < max; i++)
		if (B.jobs[i].pidfd >= 0) {
			who[n] = &B.jobs[i];
			p[n++] = (struct pollfd){.fd = B.jobs[i].pidfd, .events = POLLIN};
		}
	return n;
}

const struct backend backend_local = {
	.name = "local",
	.help = "local processes: N virtual processors on this host, a supervisor per job",
	.takes_submit = true,
	.recover = local_recover,
	.kill = local_kill,
	.tick = local_tick_all,
	.starts = local_tick,
	.due = local_due,
	.fds = local_fds,
	.ready = local_ready,
};
