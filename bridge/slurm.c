/* SPDX-License-Identifier: MIT */
/*
 * The Slurm backend (docs/bridge.md, "The Slurm backend"). Users sbatch to a hold partition (State=DOWN:
 * Slurm queues there but never allocates). The bridge polls that partition, submits each new pending
 * job to the controller under Slurm's job id, and when the controller starts it moves the job to the run
 * partition (State=UP), where Slurm's own scheduler starts it as soon as its CPUs are free. Ends come
 * from Slurm's job completion file (jobcomp/filetxt), which keeps every end with its start and end
 * times after squeue has forgotten the job. Slurm, not a supervisor, is the record of what ran.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
#include "util.h"

#define POLL_MS 500          /* how often Slurm's queue and completion file are read */
#define CMD_TIMEOUT_MS 15000 /* a Slurm command that takes longer is abandoned (slurmctld restarting) */

static struct {
	char jobcomp[PATH_MAX]; /* JobCompLoc */
	off_t jobcomp_off;      /* read up to here */
	int64_t next_poll;
	uint32_t default_limit; /* the hold partition's MaxTime, for a job that asks for none; 0 if none */
} S;

/*
 * Run a Slurm command; its standard output into @p out (NUL-terminated, cut at @p size). O(output).
 * @return its exit status, or -1 if it could not run or took longer than CMD_TIMEOUT_MS (then killed).
 */
static int run_cmd(char *const argv[], char *out, size_t size)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	pid_t c = fork();
	if (c < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (c == 0) {
		dup2(p[1], 1);
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	size_t len = 0;
	int64_t deadline = now_ms() + CMD_TIMEOUT_MS;
	bool timed_out = false;
	for (;;) {
		struct pollfd pf = {.fd = p[0], .events = POLLIN};
		int64_t left = deadline - now_ms();
		if (left <= 0) {
			timed_out = true;
			break;
		}
		int r = poll(&pf, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			timed_out = r == 0;
			break;
		}
		char tmp[4096];
		ssize_t got = read(p[0], tmp, sizeof tmp);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		size_t keep = len + (size_t)got < size ? (size_t)got : size - 1 - len;
		memcpy(out + len, tmp, keep);
		len += keep;
	}
	out[len] = '\0';
	close(p[0]);
	if (timed_out)
		kill(c, SIGKILL);
	int st;
	while (waitpid(c, &st, 0) < 0 && errno == EINTR)
		;
	if (timed_out) {
		logf_("slurm: %s took more than %d ms: abandoned", argv[0], CMD_TIMEOUT_MS);
		return -1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Slurm's time limits as squeue and sinfo print them: MINUTES, MM:SS, HH:MM:SS, D-HH, D-HH:MM,
 * D-HH:MM:SS; UNLIMITED, INFINITE, NOT_SET give 0. Slurm keeps limits in whole minutes (sbatch -t 0:20
 * becomes 1:00). @return seconds, 0 for none, or -1 if malformed. */
static int64_t parse_limit(const char *s)
{
	if (strncmp(s, "UNLIMITED", 9) == 0 || strncmp(s, "INFINITE", 8) == 0 || strncmp(s, "NOT_SET", 7) == 0 ||
	    strcmp(s, "N/A") == 0)
		return 0;
	long long d = 0, v[3] = {0, 0, 0};
	int n = 0;
	const char *p = s;
	const char *dash = strchr(s, '-');
	if (dash) {
		d = atoll(s);
		p = dash + 1;
	}
	while (*p && n < 3) {
		char *end;
		v[n++] = strtoll(p, &end, 10);
		if (end == p || (*end != ':' && *end != '\0'))
			return -1;
		p = *end == ':' ? end + 1 : end;
	}
	long long secs;
	if (dash)
		secs = d * 86400 + v[0] * 3600 + v[1] * 60 + v[2]; /* D-HH[:MM[:SS]] */
	else if (n == 1)
		secs = v[0] * 60; /* minutes */
	else if (n == 2)
		secs = v[0] * 60 + v[1]; /* MM:SS */
	else
		secs = v[0] * 3600 + v[1] * 60 + v[2];
	return secs;
}

/* Slurm's times, "2026-11-27T10:25:32" in slurmctld's local time zone (no zone is written: the bridge
 * must run in the same TZ), as Unix seconds; -1 if none. */
static int64_t parse_time(const char *s)
{
	struct tm tm = {0};
	const char *end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		return -1;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm);
}

/* The value of " Key=" in a line of scontrol's or the completion file's "Key=Value" words. */
static bool field(const char *line, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);
	for (const char *p = line; (p = strstr(p, key)) != NULL; p += klen) {
		if ((p == line || p[-1] == ' ' || p[-1] == '\n') && p[klen] == '=') {
			const char *v = p + klen + 1, *e = v;
			while (*e && *e != ' ' && *e != '\n')
				e++;
			size_t n = (size_t)(e - v) < size - 1 ? (size_t)(e - v) : size - 1;
			memcpy(out, v, n);
			out[n] = '\0';
			return true;
		}
	}
	return false;
}

static void comment(const struct job *j, const char *text)
{
	char id[32], arg[REC_MAX], out[256];
	fmt_into(id, sizeof id, "JobId=%u", j->id);
	fmt_into(arg, sizeof arg, "Comment=%s", text);
	char *argv[] = {"scontrol", "update", id, arg, NULL};
	if (run_cmd(argv, out, sizeof out) != 0)
		logf_("slurm: job %u: could not set its comment", j->id);
}

/* A partition's nodes, total CPUs and state, from sinfo. */
static bool partition(const char *name, char *nodes, size_t size, uint64_t *cpus, char *avail, size_t asize,
		      char *maxtime, size_t msize)
{
	static char out[65536];
	char *argv[] = {"sinfo", "-h", "-p", (char *)name, "-o", "%N|%C|%a|%l", NULL};
	if (run_cmd(argv, out, sizeof out) != 0)
		return false;
	char c[64];
	/* One line per node state; a partition all in one state gives one. Sum the CPU totals. */
	*cpus = 0;
	nodes[0] = '\0';
	for (char *save = NULL, *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char n[1024], a[32], m[64];
		unsigned long long al, id, ot, t;
		if (sscanf(line, "%1023[^|]|%63[^|]|%31[^|]|%63s", n, c, a, m) != 4 ||
		    sscanf(c, "%llu/%llu/%llu/%llu", &al, &id, &ot, &t) != 4)
			return false;
		*cpus += t;
		if (nodes[0])
			strncat(nodes, ",", size - strlen(nodes) - 1);
		strncat(nodes, n, size - strlen(nodes) - 1);
		fmt_into(avail, asize, "%s", a);
		fmt_into(maxtime, msize, "%s", m);
	}
	return nodes[0] != '\0';
}

static void slurm_setup(void)
{
	static char out[65536];
	char *conf[] = {"scontrol", "show", "config", NULL};
	if (run_cmd(conf, out, sizeof out) != 0)
		die("slurm: 'scontrol show config' failed: is slurmctld up, and SLURM_CONF right?");
	char type[128] = "", loc[PATH_MAX] = "";
	for (char *save = NULL, *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char k[64], v[PATH_MAX];
		if (sscanf(line, "%63s = %4095s", k, v) == 2) {
			if (strcmp(k, "JobCompType") == 0)
				fmt_into(type, sizeof type, "%s", v);
			else if (strcmp(k, "JobCompLoc") == 0)
				fmt_into(loc, sizeof loc, "%s", v);
		}
	}
	if (strcmp(type, "jobcomp/filetxt") != 0)
		die("slurm: JobCompType is %s: the bridge reads job ends from jobcomp/filetxt (JobCompType=jobcomp/filetxt, "
		    "JobCompLoc=FILE in slurm.conf; docs/bridge.md)", type[0] ? type : "not set");
	fmt_into(S.jobcomp, sizeof S.jobcomp, "%s", loc);
	char hn[4096], rn[4096], ha[32], ra[32], hmax[64], rmax[64];
	uint64_t hc, rc;
	if (!partition(B.o->hold_partition, hn, sizeof hn, &hc, ha, sizeof ha, hmax, sizeof hmax))
		die("slurm: no partition %s (sinfo -p %s)", B.o->hold_partition, B.o->hold_partition);
	if (!partition(B.o->run_partition, rn, sizeof rn, &rc, ra, sizeof ra, rmax, sizeof rmax))
		die("slurm: no partition %s (sinfo -p %s)", B.o->run_partition, B.o->run_partition);
	if (strcmp(hn, rn) != 0)
		die("slurm: the partitions cover different nodes: %s has %s, %s has %s", B.o->hold_partition, hn,
		    B.o->run_partition, rn);
	if (rc != B.o->procs)
		die("slurm: %s has %llu CPUs but --procs is %u: they must be equal", B.o->run_partition,
		    (unsigned long long)rc, B.o->procs);
	if (strcmp(ha, "up") == 0)
		die("slurm: %s is up: Slurm would start its jobs itself; set it State=DOWN (docs/bridge.md)",
		    B.o->hold_partition);
	if (strcmp(ra, "up") != 0)
		logf_("slurm: %s is %s: moved jobs will wait until it is up", B.o->run_partition, ra);
	int64_t lim = parse_limit(hmax);
	S.default_limit = lim > 0 && lim <= UINT32_MAX ? (uint32_t)lim : 0;
	logf_("slurm: %s (hold, %s) and %s (run) over %s, %llu CPUs; ends from %s", B.o->hold_partition, ha,
	      B.o->run_partition, rn, (unsigned long long)rc, S.jobcomp);
}

/* A new pending job in the hold partition: recorded, then submitted to the controller. */
static void admit(uint32_t id, uint32_t cpus, const char *limit, const char *name, const char *submit)
{
	static struct job_spec sp;
	memset(&sp, 0, sizeof sp);
	sp.id = id;
	sp.procs = cpus;
	int64_t lim = parse_limit(limit);
	/* No limit of its own: the partition's (docs/bridge.md); none there either: refused below. */
	sp.limit = lim > 0 && lim <= UINT32_MAX ? (uint32_t)lim : S.default_limit;
	int64_t t = parse_time(submit);
	sp.submit_ms = t > 0 ? t * 1000 : now_ms();
	/* Slurm's names are free text; the record keeps a safe version. */
	size_t k = 0;
	for (const char *c = name; *c && k < SPEC_NAME; c++)
		sp.name[k++] = spec_name_ok((char[]){*c, 0}) ? *c : '_';
	if (k == 0)
		sp.name[k++] = 'j';
	sp.name[k] = '\0';
	fmt_into(sp.cwd, sizeof sp.cwd, "/");
	fmt_into(sp.text, sizeof sp.text, "slurm:%u", id);
	sp.argv[0] = sp.text;
	sp.argc = 1;
	struct job *j = job_new(&sp, -1);
	if (sp.limit == 0) {
		/* The controller needs an estimate: a job with none, in a partition with none, cannot be planned. */
		j->ack = ACK_REFUSED;
		char why[] = "no time limit (give one with --time, or set the partition's MaxTime)", hex[2 * sizeof why];
		hex_encode(why, strlen(why), hex);
		job_rec(j, "refused", true, "time=%lld reason=%s", (long long)now_ms(), hex);
		B.be->refused(j, why);
		return;
	}
	logf_("slurm: job %u (%u CPUs, limit %u s) found in %s", id, cpus, sp.limit, B.o->hold_partition);
	submit_job(j);
}

static bool move(struct job *j)
{
	char id[32], part[256], out[512];
	fmt_into(id, sizeof id, "JobId=%u", j->id);
	fmt_into(part, sizeof part, "Partition=%s", B.o->run_partition);
	char *argv[] = {"scontrol", "update", id, part, NULL};
	int st = run_cmd(argv, out, sizeof out);
	if (st != 0)
		logf_("slurm: job %u: moving it to %s failed (status %d); trying again", j->id, B.o->run_partition, st);
	return st == 0;
}

/* New pending jobs in the hold partition. */
static void discover(void)
{
	static char out[1 << 20];
	char *argv[] = {"squeue", "-h", "-p", (char *)B.o->hold_partition, "-t", "PD", "-o", "%i|%C|%l|%V|%j", NULL};
	if (run_cmd(argv, out, sizeof out) != 0)
		return; /* slurmctld restarting: the next poll */
	for (char *save = NULL, *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned id, cpus;
		char limit[64], submit[64], name[256] = "";
		if (sscanf(line, "%u|%u|%63[^|]|%63[^|]|%255[^\n]", &id, &cpus, limit, submit, name) < 4)
			continue;
		struct job *j = job_find(id);
		if (!j)
			admit(id, cpus, limit, name, submit);
		else if (j->spawned && !j->ended && move(j)) {
			/* Moved, yet back in the hold partition: a slurmctld killed within seconds of the move
			 * lost it (its state was not saved yet). Moving it again is the one move Slurm kept. */
			logf_("slurm: job %u was back in %s (slurmctld lost its move): moved again", j->id,
			      B.o->hold_partition);
		}
	}
}

/* Starts the controller decided: each job's started record (exclusive) first, then the move, so a
 * restarted bridge never moves a job twice; a move that failed is retried while Slurm holds the job. */
static void start_decided(void)
{
	int64_t t = now_ms();
	for (size_t i = 0; i < B.njobs; i++) {
		struct job *j = &B.jobs[i];
		if (!j->id || !j->start_wanted || j->spawned || j->ended || j->retry_at > t)
			continue;
		char dir[PATH_MAX];
		job_dir(j, dir, sizeof dir);
		if (!rec_exists(dir, "started"))
			job_rec(j, "started", true, "time=%lld ctrl=%u late_ms=%lld evt_ms=%lld by=move", (long long)t,
				j->start_ctrl, (long long)(t - (B.epoch + j->start_ctrl) * 1000), (long long)j->evt_ms);
		j->started = true;
		if (move(j)) {
			j->spawned = true;
			B.busy += j->procs; /* as the local backend counts: released at its end */
		} else
			j->retry_at = t + 1000;
	}
}

/* The states a job ends in; others (PENDING after a requeue) are not ends. */
static bool final_state(const char *state)
{
	static const char *const finals[] = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
					     "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY"};
	for (size_t i = 0; i < sizeof finals / sizeof finals[0]; i++)
		if (strcmp(state, finals[i]) == 0)
			return true;
	return false;
}

/* One line of the completion file: the job's end, as Slurm recorded it. @return the job, if its end
 * is to be reported to the controller (with the others of the same read: report_ends). */
static struct job *ended_line(const char *line)
{
	char state[64] = "", exitc[32] = "", start[64] = "", end[64] = "", nodes[32] = "0";
	if (strncmp(line, "JobId=", 6) != 0)
		return NULL;
	struct job *j = job_find((uint32_t)atol(line + 6));
	if (!j || j->ack == ACK_REFUSED || j->ended)
		return NULL;
	/* Name= is free text and comes before the rest: read the fields after the last " JobState=". */
	const char *rest = line, *p;
	while ((p = strstr(rest + 1, " JobState=")) != NULL)
		rest = p;
	field(rest, "JobState", state, sizeof state);
	if (!final_state(state))
		return NULL;
	field(rest, "ExitCode", exitc, sizeof exitc);
	field(rest, "StartTime", start, sizeof start);
	field(rest, "EndTime", end, sizeof end);
	field(rest, "NodeCnt", nodes, sizeof nodes);
	int64_t st = parse_time(start), et = parse_time(end);
	char dir[PATH_MAX], krec[REC_MAX], reason[16] = "no";
	job_dir(j, dir, sizeof dir);
	if (rec_read(dir, "kill", krec, sizeof krec))
		kv_get(krec, "reason", reason, sizeof reason);
	else if (strcmp(state, "TIMEOUT") == 0)
		fmt_into(reason, sizeof reason, "limit"); /* Slurm's own limit came first */
	/* A job that never had a node never ran (a cancel while it waited, in either partition). */
	bool ran = atol(nodes) > 0;
	if (!ran && !j->started) {
		/* Cancelled by its user while it waited (scancel): the controller's cancel. */
		end_job(j, "time=%lld status=%s killed=cancel by=slurm", (long long)(et > 0 ? et * 1000 : now_ms()), state);
		logf_("slurm: job %u withdrawn in Slurm (%s) before it started", j->id, state);
		withdraw_job(j);
		return NULL;
	}
	end_job(j, "time=%lld status=%s:%s killed=%s by=slurm slurm_start=%lld", (long long)(et * 1000), state, exitc,
		reason, (long long)st);
	/* A user's scancel of a running job is, for the controller, a cancel. */
	if (strcmp(state, "CANCELLED") == 0 && strcmp(reason, "no") == 0) {
		withdraw_job(j);
		return NULL;
	}
	return j;
}

/* New lines of the completion file (read whole at the start: ended records are exclusive, so a line
 * seen twice changes nothing). */
static void read_ends(void)
{
	int fd = open(S.jobcomp, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return; /* not written yet */
	struct stat st;
	if (fstat(fd, &st) == 0 && st.st_size < S.jobcomp_off)
		S.jobcomp_off = 0; /* rotated */
	static char buf[1 << 16];
	static size_t have;
	static struct job **ends;
	static size_t cap;
	size_t n = 0;
	for (;;) {
		ssize_t r = pread(fd, buf + have, sizeof buf - 1 - have, S.jobcomp_off);
		if (r <= 0)
			break;
		S.jobcomp_off += r;
		have += (size_t)r;
		buf[have] = '\0';
		char *start = buf, *nl;
		while ((nl = strchr(start, '\n')) != NULL) {
			*nl = '\0';
			struct job *j = ended_line(start);
			if (j) {
				if (n == cap) {
					cap = cap ? 2 * cap : 64;
					ends = xrealloc(ends, cap * sizeof *ends);
				}
				ends[n++] = j;
			}
			start = nl + 1;
		}
		have = (size_t)(buf + have - start);
		memmove(buf, start, have);
		if (have == sizeof buf - 1)
			have = 0; /* a line longer than any Slurm writes: skipped */
	}
	close(fd);
	/* The ends of one second as one finish, then one pass: what build/replay does at an instant. */
	if (n > 0 && B.link.up)
		report_ends(ends, n);
}

static void slurm_tick(void)
{
	if (!B.link.up)
		return;
	start_decided();
	int64_t t = now_ms();
	if (t < S.next_poll)
		return;
	S.next_poll = t + POLL_MS;
	read_ends();
	discover();
	start_decided();
}

static int64_t slurm_due(void)
{
	return S.next_poll;
}

static void slurm_kill(struct job *j, const char *reason)
{
	char id[32], out[256];
	fmt_into(id, sizeof id, "%u", j->id);
	char *argv[] = {"scancel", id, NULL};
	if (run_cmd(argv, out, sizeof out) != 0)
		logf_("slurm: scancel %u (%s) failed; the controller no longer counts it", j->id, reason);
}

/* At the bridge's start: a job recorded as started. If Slurm still holds it in the hold partition, its
 * move never happened (the bridge died between the record and the move): move it now. */
static void slurm_recover(struct job *j, const char *dir)
{
	(void)dir;
	j->started = true;
	j->start_wanted = true;
	char id[32], out[512];
	fmt_into(id, sizeof id, "%u", j->id);
	char *argv[] = {"squeue", "-h", "-j", id, "-o", "%P|%T", NULL};
	if (run_cmd(argv, out, sizeof out) == 0 && strncmp(out, B.o->hold_partition, strlen(B.o->hold_partition)) == 0 &&
	    out[strlen(B.o->hold_partition)] == '|') {
		logf_("slurm: job %u was to be moved to %s when the last bridge stopped: moving it now", j->id,
		      B.o->run_partition);
		j->spawned = false; /* start_decided() moves it */
		return;
	}
	j->spawned = true;
	B.busy += j->procs;
}

static void slurm_accepted(struct job *j)
{
	char text[128];
	if (j->guar >= 0) {
		time_t t = (time_t)(B.epoch + j->guar);
		struct tm tm;
		localtime_r(&t, &tm);
		char at[32];
		strftime(at, sizeof at, "%Y-%m-%dT%H:%M:%S", &tm);
		fmt_into(text, sizeof text, "controller: start guaranteed by %s", at);
	} else
		fmt_into(text, sizeof text, "controller: waiting (no start guaranteed under this policy)");
	comment(j, text);
}

static void slurm_refused(struct job *j, const char *why)
{
	char text[REC_MAX];
	fmt_into(text, sizeof text, "controller refused: %s", why);
	/* Comments are one word in scontrol's syntax only when quoted by the shell; spaces are fine here. */
	comment(j, text);
	char id[32], out[256];
	fmt_into(id, sizeof id, "%u", j->id);
	char *argv[] = {"scancel", id, NULL};
	run_cmd(argv, out, sizeof out);
	logf_("slurm: job %u refused by the controller (%s): cancelled with that comment", j->id, why);
}

const struct backend backend_slurm = {
	.name = "slurm",
	.help = "a Slurm cluster: users sbatch to --hold-partition; started jobs move to --run-partition",
	.takes_submit = false,
	.setup = slurm_setup,
	.recover = slurm_recover,
	.kill = slurm_kill,
	.tick = slurm_tick,
	.starts = start_decided,
	.due = slurm_due,
	.accepted = slurm_accepted,
	.refused = slurm_refused,
};
