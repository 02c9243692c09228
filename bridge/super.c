/* SPDX-License-Identifier: MIT */
/* A job's supervisor (super.h). Everything here after the first fork runs in the child processes. */
#define _GNU_SOURCE
#include "super.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spec.h"
#include "util.h"

static volatile sig_atomic_t term_asked, grace_over;

static void on_term(int sig)
{
	(void)sig;
	term_asked = 1;
}

static void on_alarm(int sig)
{
	(void)sig;
	grace_over = 1;
}

/* The bridge's descriptors (its lock above all: flock belongs to the open file, and a supervisor that
 * kept it would stop the next bridge from starting) must not live on in the supervisor. */
static void close_inherited(void)
{
	if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
		return;
	long max = sysconf(_SC_OPEN_MAX);
	for (long fd = 3; fd < (max > 0 ? max : 1024); fd++)
		close((int)fd);
}

/* The job's process: wait for the supervisor's go, then exec. Never returns. */
static void job_exec(const struct super_start *s, const struct job_spec *sp, int go, int out, int err)
{
	setpgid(0, 0);
	char c = 0;
	ssize_t r;
	while ((r = read(go, &c, 1)) < 0 && errno == EINTR)
		;
	if (r != 1 || c != 'g') {
		/* The supervisor died. Run only if it recorded this process as the job's start: the record is
		 * the promise, and a job the records say started must have run. */
		char rec[REC_MAX];
		int64_t pid = 0;
		if (!rec_read(s->jobdir, "started", rec, sizeof rec) || !kv_i64(rec, "pid", &pid) || pid != getpid())
			_exit(0);
	}
	close(go);
	int null = open("/dev/null", O_RDONLY);
	if (null >= 0)
		dup2(null, 0);
	dup2(out, 1);
	dup2(err, 2);
	if (chdir(sp->cwd) != 0) {
		dprintf(2, "bridge: job %u: cannot enter %s: %s\n", s->id, sp->cwd, strerror(errno));
		_exit(126);
	}
	char v[32];
	fmt_into(v, sizeof v, "%u", s->id);
	setenv("SCHED_JOB_ID", v, 1);
	fmt_into(v, sizeof v, "%u", sp->procs);
	setenv("SCHED_PROCS", v, 1);
	fmt_into(v, sizeof v, "%u", sp->limit);
	setenv("SCHED_LIMIT", v, 1);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execv(sp->argv[0], sp->argv);
	dprintf(2, "bridge: job %u: cannot run %s: %s\n", s->id, sp->argv[0], strerror(errno));
	_exit(127);
}

/* SIGTERM to the group, SIGKILL after the grace period, until the job is reaped. */
static int reap(pid_t job, int kill_wait_s)
{
	int st = 0;
	bool termed = false, killed = false;
	for (;;) {
		if (term_asked && !termed) {
			termed = true;
			kill(-job, SIGTERM);
			alarm((unsigned)(kill_wait_s > 0 ? kill_wait_s : 1));
		}
		if (grace_over && !killed) {
			killed = true;
			kill(-job, SIGKILL);
		}
		pid_t r = waitpid(job, &st, 0);
		if (r == job)
			return st;
		if (r < 0 && errno != EINTR)
			return -1;
	}
}

static void record_end(const struct super_start *s, pid_t job, int st)
{
	/* The job ends when its first process does (as a batch script's does in Slurm); what it left
	 * behind in its process group goes with it, so its processors are really free. */
	kill(-job, SIGKILL);
	char kill_rec[REC_MAX], reason[16] = "no", status[32], rec[REC_MAX];
	if (rec_read(s->jobdir, "kill", kill_rec, sizeof kill_rec) && !kv_get(kill_rec, "reason", reason, sizeof reason))
		fmt_into(reason, sizeof reason, "limit");
	if (st < 0)
		fmt_into(status, sizeof status, "unknown");
	else if (WIFEXITED(st))
		fmt_into(status, sizeof status, "exit:%d", WEXITSTATUS(st));
	else
		fmt_into(status, sizeof status, "signal:%d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
	fmt_into(rec, sizeof rec, "time=%lld status=%s killed=%s by=supervisor\n", (long long)now_ms(), status, reason);
	rec_create(s->jobdir, "ended", rec);
}

/* The supervisor proper. Never returns. */
static void supervise(const struct super_start *s)
{
	struct job_spec sp;
	char path[PATH_MAX];
	if (spec_load(s->jobdir, &sp) != 0)
		_exit(3);
	fmt_into(path, sizeof path, "%s/out", s->jobdir);
	int out = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	fmt_into(path, sizeof path, "%s/err", s->jobdir);
	int err = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	int go[2];
	if (out < 0 || err < 0 || pipe2(go, O_CLOEXEC) != 0)
		_exit(3);
	struct sigaction sa = {.sa_handler = on_term};
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	pid_t job = fork();
	if (job < 0)
		_exit(3);
	if (job == 0) {
		close(go[1]);
		job_exec(s, &sp, go[0], out, err);
	}
	close(go[0]);
	setpgid(job, job);
	int64_t t = now_ms();
	char rec[REC_MAX];
	fmt_into(rec, sizeof rec,
		 "time=%lld ctrl=%u pid=%ld pgid=%ld starttime=%llu supervisor=%ld super_starttime=%llu late_ms=%lld "
		 "evt_ms=%lld\n",
		 (long long)t, s->ctrl_start, (long)job, (long)job, proc_starttime(job), (long)getpid(),
		 proc_starttime(getpid()), (long long)(t - s->decided_ms), (long long)s->evt_ms);
	if (rec_create(s->jobdir, "started", rec) != 0) {
		/* Another supervisor started this job already (a restarted bridge), or the disk refused the
		 * record: either way this one must not run it. */
		kill(job, SIGKILL);
		waitpid(job, NULL, 0);
		_exit(errno == EEXIST ? 0 : 3);
	}
	/* A cancel or kill that came while the job was being set up is honoured at once. */
	if (rec_exists(s->jobdir, "kill"))
		term_asked = 1;
	ssize_t w;
	while ((w = write(go[1], "g", 1)) < 0 && errno == EINTR)
		;
	close(go[1]);
	record_end(s, job, reap(job, s->kill_wait_s));
	_exit(0);
}

pid_t super_spawn(const struct super_start *s)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	pid_t a = fork();
	if (a < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (a == 0) {
		setsid();
		signal(SIGPIPE, SIG_IGN);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		pid_t b = fork();
		if (b == 0) {
			close_inherited();
			/* The bridge's standard streams may be a terminal or a test's pipe: a supervisor holding
			 * them would keep its reader waiting for an end of file. */
			int null = open("/dev/null", O_RDWR);
			if (null >= 0) {
				dup2(null, 0);
				dup2(null, 1);
				dup2(null, 2);
				if (null > 2)
					close(null);
			}
			supervise(s);
		}
		ssize_t w = write(p[1], &b, sizeof b);
		_exit(w == (ssize_t)sizeof b && b > 0 ? 0 : 3);
	}
	close(p[1]);
	pid_t sup = -1;
	ssize_t r;
	while ((r = read(p[0], &sup, sizeof sup)) < 0 && errno == EINTR)
		;
	close(p[0]);
	while (waitpid(a, NULL, 0) < 0 && errno == EINTR)
		;
	return r == (ssize_t)sizeof sup ? sup : -1;
}
