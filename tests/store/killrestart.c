/* SPDX-License-Identifier: MIT */
/*
 * Kill a controller at many points of a console session and restart it:
 * nothing acknowledged may be lost and nothing may differ. A reference run
 * records, after every command that changes the schedule (one that is
 * refused is not journaled, so it is not counted), the controller's `digest`
 * (schedule hash, and a digest of every job with its guarantee and of the
 * profile). The killed runs send the same session; at each kill point
 * the controller dies (SIGKILL after a random delay, or, on the host, a
 * power cut in the middle of a store write through SCHED_STORE_CUT); on
 * restart its banner's seq must cover every journaled line whose `ok` was
 * seen, the digest must equal the reference's at that seq, and the session
 * goes on from the next line. The final digest must equal the reference's.
 *
 *   killrestart --kills N [--seed S] [--lines L] [--cut] -- COMMAND... (FILE in COMMAND: the store)
 * Prints TEST lines and a note with the counts.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINES 4000
#define REPLY_TIMEOUT_MS 60000

static char *session[MAX_LINES];
static bool mutating[MAX_LINES];
static int n_lines;
static char *reference[MAX_LINES + 1]; /* digest after the k-th journaled line; [0]: the empty state */
static char *store_path;
static char **command;
static int n_command;

static uint64_t rng = 88172645463325252u;
static uint32_t draw(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* --- the session: submits, clock moves, ends, cancels, policy and parameter changes -------- */

__attribute__((format(printf, 2, 3))) static void add(bool changes, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	session[n_lines] = strdup(buf);
	mutating[n_lines] = changes;
	n_lines++;
}

static void make_session(int lines)
{
	static const char *policies[] = {"policy cons", "policy easy", "policy relaxed", "policy slack",
					 "policy dynp", "policy fcfs", "policy sjf"};
	long now = 0, next_id = 1;
	add(true, "config procs 64");
	while (n_lines < lines && n_lines < MAX_LINES - 2) {
		uint32_t k = draw(100);
		if (k < 62)
			add(true, "submit %ld %ld %ld", next_id++, 1 + (long)draw(64), 10 + (long)draw(3000));
		else if (k < 80)
			add(true, "advance %ld", now += 1 + draw(400));
		else if (k < 88 && next_id > 1)
			add(true, "finish %ld", 1 + (long)draw((uint32_t)(next_id - 1)));
		else if (k < 92 && next_id > 1)
			add(true, "cancel %ld", 1 + (long)draw((uint32_t)(next_id - 1)));
		else if (k < 94)
			add(true, "%s", policies[draw(7)]);
		else if (k < 95)
			add(true, "config tolerance %ld", (long)draw(4) * 600);
		else if (k < 97)
			add(false, "store snapshot"); /* snapshots often, so kills and cuts land in them */
		else if (k < 98)
			add(false, "status");
		else
			add(false, "queue");
	}
	add(true, "advance %ld", now + 1000000); /* every job ends: the schedule is complete */
}

/* --- one controller process behind two pipes ------------------------------------------------ */

struct proc {
	pid_t pid;
	int in, out; /* its stdin (we write), its stdout (we read) */
	char buf[1 << 16];
	size_t len;
	bool eof;
};

static void start(struct proc *p, uint64_t cut)
{
	int to[2], from[2];
	if (pipe(to) != 0 || pipe(from) != 0) {
		perror("pipe");
		exit(2);
	}
	p->pid = fork();
	if (p->pid == 0) {
		setpgid(0, 0); /* its own group: a kill reaches a wrapper's child too (timeout, a shell) */
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[1]);
		close(from[0]);
		char cutv[32];
		snprintf(cutv, sizeof cutv, "%llu", (unsigned long long)cut);
		setenv("SCHED_STORE_CUT", cutv, 1);
		char *argv[64];
		for (int i = 0; i < n_command && i < 62; i++) {
			char *f = strstr(command[i], "FILE");
			if (f == NULL) {
				argv[i] = command[i];
				continue;
			}
			argv[i] = malloc(strlen(command[i]) + strlen(store_path) + 1);
			sprintf(argv[i], "%.*s%s%s", (int)(f - command[i]), command[i], store_path, f + 4);
		}
		argv[n_command < 62 ? n_command : 62] = NULL;
		execvp(argv[0], argv);
		perror("exec");
		_exit(127);
	}
	setpgid(p->pid, p->pid); /* also here, so the group exists before any kill */
	close(to[0]);
	close(from[1]);
	p->in = to[1];
	p->out = from[0];
	p->len = 0;
	p->eof = false;
}

/* Kill it, and anything it started, by the process group we made for it; then reap it. */
static void stop(struct proc *p)
{
	if (p->pid > 0) {
		kill(-p->pid, SIGKILL);
		waitpid(p->pid, NULL, 0);
	}
	close(p->in);
	close(p->out);
	p->pid = -1;
}

/* The next output line (without '\n') into @p line; false at EOF or timeout. */
static bool read_line(struct proc *p, char *line, size_t cap, int timeout_ms)
{
	for (;;) {
		char *nl = memchr(p->buf, '\n', p->len);
		if (nl != NULL) {
			size_t n = (size_t)(nl - p->buf);
			size_t k = n < cap - 1 ? n : cap - 1;
			memcpy(line, p->buf, k);
			line[k] = '\0';
			if (k > 0 && line[k - 1] == '\r')
				line[k - 1] = '\0';
			memmove(p->buf, nl + 1, p->len - n - 1);
			p->len -= n + 1;
			return true;
		}
		if (p->eof || p->len == sizeof p->buf)
			return false;
		struct pollfd pf = {.fd = p->out, .events = POLLIN};
		int r = poll(&pf, 1, timeout_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		ssize_t got = read(p->out, p->buf + p->len, sizeof p->buf - p->len);
		if (got <= 0)
			p->eof = true;
		else
			p->len += (size_t)got;
	}
}

/* The reply to one line: skip evt lines; true with the ok/err line in @p reply. */
static bool reply(struct proc *p, char *reply, size_t cap, int timeout_ms)
{
	while (read_line(p, reply, cap, timeout_ms))
		if (strncmp(reply, "ok", 2) == 0 || strncmp(reply, "err ", 4) == 0)
			return true;
	return false;
}

static bool send(struct proc *p, const char *line)
{
	char buf[160];
	int n = snprintf(buf, sizeof buf, "%s\n", line);
	return write(p->in, buf, (size_t)n) == n;
}

/* Wait for the banner; its "seq=N" through @p seq. False if it never came. */
static bool banner(struct proc *p, long *seq, char *restore_line, size_t cap)
{
	char line[4096];
	restore_line[0] = '\0';
	while (read_line(p, line, sizeof line, REPLY_TIMEOUT_MS)) {
		if (strncmp(line, "restore", 7) == 0)
			snprintf(restore_line, cap, "%s", line);
		char *s = strstr(line, " seq=");
		if (strstr(line, " ready") != NULL) {
			*seq = s != NULL ? strtol(s + 5, NULL, 10) : -1;
			return true;
		}
	}
	return false;
}

/* "seq=N hash=H decisions=D state=S jobs=J now=T" from a digest reply, without its seq. */
static char *digest_of(struct proc *p)
{
	char r[512];
	if (!send(p, "digest") || !reply(p, r, sizeof r, REPLY_TIMEOUT_MS) || strncmp(r, "ok seq=", 7) != 0)
		return NULL;
	char *h = strstr(r, " hash=");
	return h != NULL ? strdup(h + 1) : NULL;
}

static int failures;
static void fail(const char *what, const char *detail)
{
	failures++;
	printf("TEST store.killrestart.%s FAIL %s\n", what, detail);
}

/* --- the reference run, then the killed one ------------------------------------------------- */

static bool reference_run(void)
{
	unlink(store_path);
	struct proc p;
	start(&p, 0);
	long seq;
	char r[4096];
	if (!banner(&p, &seq, r, sizeof r) || seq != 0) {
		fail("reference", "no banner with seq=0 from a fresh store");
		stop(&p);
		return false;
	}
	int k = 0;
	reference[0] = digest_of(&p);
	for (int i = 0; i < n_lines; i++) {
		if (!send(&p, session[i]) || !reply(&p, r, sizeof r, REPLY_TIMEOUT_MS)) {
			fail("reference", "no reply");
			stop(&p);
			return false;
		}
		/* A refused line (a finish of a job that has ended, say) is not journaled: the lines the
		   journal counts are those the reference run took. The killed runs meet the same state. */
		if (strncmp(r, "ok", 2) != 0)
			mutating[i] = false;
		if (mutating[i] && (reference[++k] = digest_of(&p)) == NULL) {
			fail("reference", "no digest");
			stop(&p);
			return false;
		}
	}
	stop(&p);
	return reference[0] != NULL;
}

/* Where the killed run stands. */
struct run {
	int line, acked, sent;     /* next session line; journaled lines acknowledged and sent */
	int restarts, cut_deaths, mid_line, kills, gap, next_kill;
	bool cuts;
	long worst_cost;
};

/*
 * Start (again) and check what it restored: its seq covers every
 * acknowledged journaled line and no more than were sent, and its digest is
 * the reference's at that seq; then go on from the line after it. A power
 * cut armed for the new process may fire inside the restore's own writes:
 * that start is retried without one (@p depth counts the retries).
 */
static bool restart(struct proc *p, struct run *run, int depth)
{
	if (p->pid > 0) {
		stop(p);
		run->restarts += depth == 0;
	}
	/* Small budgets end it inside a record's write, large ones mostly inside a snapshot's. */
	uint64_t cut = 0;
	if (run->cuts && run->restarts < run->kills && draw(2) == 0)
		cut = draw(2) == 0 ? 1 + draw(400) : 1 + draw(600000);
	start(p, cut);
	long seq;
	char restore_line[4096], detail[4400];
	if (!banner(p, &seq, restore_line, sizeof restore_line)) {
		if (cut > 0 && depth < 3) {
			run->cut_deaths++;
			run->cuts = false;
			bool ok = restart(p, run, depth + 1);
			run->cuts = true;
			return ok;
		}
		fail("restart", "no banner");
		return false;
	}
	char *cost = strstr(restore_line, " cost=");
	if (cost != NULL && strtol(cost + 6, NULL, 10) > run->worst_cost)
		run->worst_cost = strtol(cost + 6, NULL, 10);
	if (seq < run->acked || seq > run->sent) {
		snprintf(detail, sizeof detail, "restart %d: restored seq=%ld, acknowledged %d, sent %d (%.300s)", run->restarts,
			 seq, run->acked, run->sent, restore_line);
		fail("nothing_lost", detail);
		return false;
	}
	char *dg = digest_of(p);
	if (dg == NULL || strcmp(dg, reference[seq]) != 0) {
		snprintf(detail, sizeof detail, "restart %d at seq %ld: digest %s, reference %s", run->restarts, seq,
			 dg ? dg : "(none)", reference[seq]);
		fail("same_state", detail);
		free(dg);
		return false;
	}
	free(dg);
	run->acked = run->sent = (int)seq;
	run->line = 0;
	for (int j = 0; j < (int)seq; run->line++)
		j += mutating[run->line];
	run->next_kill = run->line + 1 + (int)draw((uint32_t)run->gap * 2u);
	return true;
}

int main(int argc, char **argv)
{
	int kills = 20, lines = 400;
	bool cuts = false;
	unsigned long long seed = 1;
	int i = 1;
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--kills") == 0 && i + 1 < argc)
			kills = atoi(argv[++i]);
		else if (strcmp(argv[i], "--lines") == 0 && i + 1 < argc)
			lines = atoi(argv[++i]);
		else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
			seed = strtoull(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--store") == 0 && i + 1 < argc)
			store_path = argv[++i];
		else if (strcmp(argv[i], "--cut") == 0)
			cuts = true;
		else {
			fprintf(stderr, "usage: killrestart --store FILE --kills N [--lines L] [--seed S] [--cut] -- COMMAND...\n");
			return 2;
		}
	}
	if (i + 1 >= argc || store_path == NULL) {
		fprintf(stderr, "killrestart: no --store or no command after --\n");
		return 2;
	}
	command = argv + i + 1;
	n_command = argc - i - 1;
	signal(SIGPIPE, SIG_IGN);
	rng ^= seed * 0x9E3779B97F4A7C15u;
	make_session(lines);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!reference_run())
		return 1;
	int journaled = 0;
	for (int k = 0; k < n_lines; k++)
		journaled += mutating[k];

	/* Kill points: every `gap` lines or so a SIGKILL after a random delay; with --cut, half the
	   restarts arm a power cut that ends the process inside a store write, wherever it falls. */
	int gap = n_lines / (2 * kills + 1); /* kills come about every gap lines; restarts go back a little */
	struct run run = {.gap = gap > 0 ? gap : 1, .cuts = cuts, .kills = kills};
	unlink(store_path);
	struct proc p = {.pid = -1};
	if (!restart(&p, &run, 0))
		return 1;
	run.next_kill = 1 + (int)draw((uint32_t)run.gap * 2u);
	char r[4096];
	while (run.line < n_lines && failures == 0) {
		const char *text = session[run.line];
		bool kill_now = run.restarts < kills && run.line >= run.next_kill;
		if (!send(&p, text)) {
			/* It died before this line (an armed cut fired on an earlier write). */
			if (!restart(&p, &run, 0))
				break;
			continue;
		}
		run.sent += mutating[run.line];
		if (kill_now) {
			struct timespec d = {0, (long)draw(3000) * 1000L};
			nanosleep(&d, NULL);
			kill(-p.pid, SIGKILL);
		}
		/* Anything it answered before dying counts as acknowledged. */
		bool answered = reply(&p, r, sizeof r, kill_now ? 500 : REPLY_TIMEOUT_MS);
		if (answered) {
			run.acked += mutating[run.line];
			run.line++;
		}
		if (!answered || kill_now) {
			run.mid_line += !answered;
			run.cut_deaths += !kill_now;
			if (!restart(&p, &run, 0))
				break;
		}
	}
	long worst_cost = run.worst_cost;
	int restarts = run.restarts, cut_restarts = run.cut_deaths, mid_line = run.mid_line;
	char *final = failures == 0 ? digest_of(&p) : NULL;
	stop(&p);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (failures == 0 && (final == NULL || strcmp(final, reference[journaled]) != 0)) {
		char detail[512];
		snprintf(detail, sizeof detail, "final digest %s, uninterrupted %s", final ? final : "(none)",
			 reference[journaled]);
		fail("final_schedule", detail);
	}
	if (failures == 0 && restarts < kills) {
		char detail[128];
		snprintf(detail, sizeof detail, "only %d of %d kills happened", restarts, kills);
		fail("kills", detail);
	}
	if (failures == 0)
		printf("TEST store.killrestart PASS\n");
	printf("note: killrestart: %d restarts (%d by a store cut mid-write, %d killed before answering) over %d "
	       "lines (%d journaled), every restored digest equal to the uninterrupted run's, final hash equal; "
	       "worst restore %ld (the port's unit); %.1f s\n",
	       restarts, cut_restarts, mid_line, n_lines, journaled, worst_cost,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	free(final);
	return failures != 0;
}
