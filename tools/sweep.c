/* SPDX-License-Identifier: MIT */
/*
 * build/sweep: run an experiment (tools/sweep_exp.h), one build/replay per cell, on local worker
 * processes or as a Slurm job array, into one CSV (or JSON) whose bytes depend only on the experiment
 * and the replayer, never on the number of workers or tasks. docs/sweep.md is the manual.
 *
 * Each finished cell is a file STATE/DIGEST.csv (STATE = OUTPUT.cells): its first line names the digest
 * and the arguments, then the replayer's CSV. The digest covers the replayer binary, the arguments and
 * the contents of every argument that names a file, so a re-run skips exactly the cells whose result
 * would be the same, and a changed trace or a rebuilt replayer runs them again. A cell is written to a
 * temporary name and renamed when its replay has exited 0: an interrupted sweep leaves no half cell.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fields.h"
#include "progress.h"
#include "sched/err.h"
#include "sweep_exp.h"
#include "sweep_sum.h"

static const char usage[] =
"Usage: sweep EXPERIMENT [OPTIONS]\n"
"Run every cell of an experiment file (traces x policies x parameter lists x\n"
"seeds; docs/sweep.md, examples in tools/experiments/) through build/replay\n"
"and write one table: a row per replayed row, each led by the cell's index,\n"
"its value on each axis and its config digest, then the replayer's CSV\n"
"columns (every option in force, the trace's checksum, the version).\n"
"\n"
"Options:\n"
"  -o FILE            the result: CSV, or JSON if FILE ends in .json; default\n"
"                     build/sweeps/NAME.csv (NAME: the experiment's name).\n"
"                     Finished cells are kept in FILE.cells/ and a re-run\n"
"                     skips them (verified by their digest: the replayer\n"
"                     binary, the arguments and the contents of every file\n"
"                     they name), so an interrupted sweep resumes\n"
"  --workers N        replays at once (default: the processors this process\n"
"                     may use); the result is the same bytes for any N\n"
"  --replay PATH      the replayer (default: replay beside this program)\n"
"  --list             print each cell's index, digest, state (done or todo)\n"
"                     and arguments; run nothing\n"
"  --prune            delete the kept results in FILE.cells/ that are no cell\n"
"                     of this experiment (an earlier version of the file, a\n"
"                     rebuilt replayer); run nothing\n"
"  --group-by AXES    also write FILE's name with .summary.csv: its rows grouped\n"
"                     by AXES (comma-separated: axis names such as policy,\n"
"                     shrink, or the replayer's columns such as period), with\n"
"                     n and each metric's mean and 95% interval (Student t)\n"
"                     over the other rows of a group: the seeds, say\n"
"  --plot METRIC:X[:LINE]\n"
"                     draw METRIC's mean and 95% interval against X, one\n"
"                     line per value of LINE: FILE's name with\n"
"                     .METRIC-by-X[-per-LINE].svg, with its .gp and .dat\n"
"                     (gnuplot draws it; repeatable), e.g.\n"
"                     --plot avg_bsld:shrink:policy\n"
"  --progress         progress on stderr even into a pipe, a line a second:\n"
"                     cells done, running and to start, rate and ETA over\n"
"                     the last 5 s; --quiet: none (default: on a terminal,\n"
"                     for runs over a second)\n"
"\n"
"Slurm (docs/sweep.md, 'Running on a cluster'):\n"
"  --slurm            submit the experiment as a job array: task I of K runs\n"
"                     the cells whose index is I modulo K, then a job that\n"
"                     depends on the array gathers FILE; prints the job ids\n"
"  --tasks K          array tasks (default: the cells, at most 64)\n"
"  --wait             wait until the gather job ends; its status is ours\n"
"  --partition P, --account A, --time T\n"
"                     passed to sbatch for both jobs\n"
"  --sbatch ARG       any other sbatch argument (repeatable), e.g.\n"
"                     --sbatch=--qos=short\n"
"  --task I/K         run only the cells of task I of K (what each array\n"
"                     task runs); writes cells, not FILE\n"
"  --gather           write FILE from the finished cells; runs nothing and\n"
"                     fails, naming them, if any cell is missing\n"
"  -h, --help         this text\n"
"\n"
"Before the first cell (or the submission), the experiment is checked: the\n"
"output folder takes files, every trace can be read, and the replayer takes\n"
"each axis value's arguments (tried on an empty trace); --slurm also checks\n"
"that sbatch is there and scontrol ping finds the controller UP.\n"
"\n"
"Exit status: 0 when every cell ran and FILE is written (or the jobs are\n"
"submitted), 1 when a cell failed, a file could not be read or written or no\n"
"cluster answers, 2 on bad usage, a bad experiment file or arguments the\n"
"replayer refuses. A cell whose replay exits 2 stops further launches.\n";

enum { O_WORKERS = 256, O_REPLAY, O_LIST, O_PROGRESS, O_QUIET, O_SLURM, O_TASKS, O_WAIT, O_PARTITION,
       O_ACCOUNT, O_TIME, O_SBATCH, O_TASK, O_GATHER, O_PRUNE, O_GROUP_BY, O_PLOT };

struct opts {
	const char *exp_path, *out, *replay;
	int workers, task, ntasks, slurm_tasks;
	bool list, gather, slurm, wait, prune;
	enum progress_mode progress;
	const char *sbatch[64];
	int nsbatch;
	const char *group_by;  /* --group-by: the summary's keys, or NULL */
	const char *plot[8];   /* --plot METRIC:X[:LINE] */
	int nplot;
};

struct cell {
	uint64_t digest;
	char *line;   /* "#sweep-cell v1 DIGEST ARGS...": the first line of its file */
	char **argv;  /* the replay's arguments, program name first, NULL-terminated */
	bool done;
};

struct sweep {
	struct sweep_exp exp;
	struct opts o;
	struct cell *cells;
	char state[PATH_MAX];
	uint64_t replay_sum;
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p == NULL) {
		fputs("sweep: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

/* --- digests --------------------------------------------------------------------------------------- */

static bool is_file(const char *path)
{
	struct stat st;
	return path[0] != '-' && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * A cell's digest: the replayer's checksum, then each argument and, for one that names a regular file
 * (a trace, a site file), that file's checksum. Traces are hashed once per sweep (@p memo).
 */
static uint64_t cell_digest(struct sweep *s, char **args, int n, uint64_t *memo_h, const char **memo_p,
			    int *nmemo)
{
	uint64_t h = sweep_hash(SWEEP_HASH_START, (const uint8_t *)"sweep-cell v1", 14);
	h = sweep_hash(h, (const uint8_t *)&s->replay_sum, sizeof s->replay_sum);
	for (int i = 0; i < n; i++) {
		h = sweep_hash(h, (const uint8_t *)args[i], strlen(args[i]) + 1);
		if (!is_file(args[i]))
			continue;
		int k = 0;
		while (k < *nmemo && strcmp(memo_p[k], args[i]) != 0)
			k++;
		if (k == *nmemo) {
			memo_h[k] = SWEEP_HASH_START;
			if (sweep_hash_file(args[i], &memo_h[k]) != 0) {
				fprintf(stderr, "sweep: cannot read %s: %s\n", args[i], strerror(errno));
				exit(1);
			}
			memo_p[k] = args[i];
			if (*nmemo < 255)
				(*nmemo)++;
		}
		h = sweep_hash(h, (const uint8_t *)&memo_h[k], sizeof memo_h[k]);
	}
	return h;
}

/* The arguments as the cell's first line spells them (after "#sweep-cell v1 DIGEST "). */
static const char *cell_args(const struct cell *c)
{
	size_t skip = strlen("#sweep-cell v1 ") + 16;
	return c->line + skip + (c->line[skip] == ' ');
}

static void cell_path(const struct sweep *s, const struct cell *c, const char *suffix, char *out, size_t len)
{
	snprintf(out, len, "%s/%016llx%s", s->state, (unsigned long long)c->digest, suffix);
}

/* Whether the cell's file exists and its first line is this cell's (digest and arguments). */
static bool cell_done(const struct sweep *s, const struct cell *c)
{
	char path[PATH_MAX + 32];
	cell_path(s, c, ".csv", path, sizeof path);
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return false;
	size_t want = strlen(c->line);
	char *buf = xmalloc(want + 2);
	bool ok = fgets(buf, (int)want + 2, f) != NULL && strncmp(buf, c->line, want) == 0 && buf[want] == '\n';
	free(buf);
	fclose(f);
	return ok;
}

static void build_cells(struct sweep *s)
{
	struct sweep_exp *e = &s->exp;
	int max = sweep_exp_max_args(e);
	char **args = xmalloc((size_t)max * sizeof *args);
	uint64_t memo_h[256];
	const char *memo_p[256];
	int nmemo = 0;
	s->cells = xmalloc((size_t)e->ncells * sizeof *s->cells);
	for (uint64_t i = 0; i < e->ncells; i++) {
		struct cell *c = &s->cells[i];
		int n = sweep_exp_cell_args(e, i, args, NULL);
		c->digest = cell_digest(s, args, n, memo_h, memo_p, &nmemo);
		size_t len = 64;
		for (int k = 0; k < n; k++)
			len += strlen(args[k]) + 1;
		c->line = xmalloc(len);
		int w = snprintf(c->line, len, "#sweep-cell v1 %016llx", (unsigned long long)c->digest);
		for (int k = 0; k < n; k++)
			w += snprintf(c->line + w, len - (size_t)w, " %s", args[k]);
		/* program name, the arguments, the sweep's own two, NULL */
		c->argv = xmalloc((size_t)(n + 6) * sizeof *c->argv);
		c->argv[0] = (char *)s->o.replay;
		c->argv[1] = "--format";
		c->argv[2] = "csv";
		c->argv[3] = "--quiet";
		memcpy(c->argv + 4, args, (size_t)n * sizeof *args);
		c->argv[n + 4] = NULL;
		c->done = cell_done(s, c);
	}
	free(args);
}

/* --- running cells --------------------------------------------------------------------------------- */

struct slot {
	pid_t pid;
	uint64_t cell;
	char tmp[PATH_MAX + 64];
};

/* Start the replay of cell @p i with stdout into a temporary file holding its first line already. */
static int launch(struct sweep *s, uint64_t i, struct slot *slot)
{
	struct cell *c = &s->cells[i];
	char err[PATH_MAX + 32];
	snprintf(slot->tmp, sizeof slot->tmp, "%s/%016llx.tmp.%ld", s->state, (unsigned long long)c->digest,
		 (long)getpid());
	cell_path(s, c, ".err", err, sizeof err);
	int fd = open(slot->tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int efd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || efd < 0 || dprintf(fd, "%s\n", c->line) < 0) {
		fprintf(stderr, "sweep: cannot write in %s: %s\n", s->state, strerror(errno));
		if (fd >= 0)
			close(fd);
		if (efd >= 0)
			close(efd);
		return SCHED_E_IO;
	}
	pid_t pid = fork();
	if (pid == 0) {
		/* A replay outlives no sweep: killed with it, even by SIGKILL, so none writes on unseen. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL); /* the sweep blocks SIGCHLD for its wait: not the replay */
		dup2(fd, 1);
		dup2(efd, 2);
		close(fd);
		close(efd);
		execv(c->argv[0], c->argv);
		fprintf(stderr, "sweep: cannot run %s: %s\n", c->argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	close(efd);
	if (pid < 0) {
		fprintf(stderr, "sweep: fork: %s\n", strerror(errno));
		return SCHED_E_IO;
	}
	slot->pid = pid;
	slot->cell = i;
	return 0;
}

/* The first line of a cell's stderr, for the failure message: the replayer's own words (its last line is
 * at best "Try 'replay --help'"). */
static void first_err_line(const struct sweep *s, const struct cell *c, char *out, size_t len)
{
	char path[PATH_MAX + 32];
	cell_path(s, c, ".err", path, sizeof path);
	out[0] = '\0';
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return;
	char line[512];
	while (out[0] == '\0' && fgets(line, sizeof line, f) != NULL)
		if (line[0] != '\n')
			snprintf(out, len, "%s", line);
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
}

/* A replay ended: keep its cell (rename) or report it. Returns its exit status (128+signal if killed). */
static int reap(struct sweep *s, struct slot *slot, int status)
{
	struct cell *c = &s->cells[slot->cell];
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	char path[PATH_MAX + 32];
	if (code == 0) {
		cell_path(s, c, ".csv", path, sizeof path);
		int fd = open(slot->tmp, O_RDONLY);
		if (fd >= 0) {
			fsync(fd); /* the rename must not land before the bytes */
			close(fd);
		}
		if (rename(slot->tmp, path) != 0) {
			fprintf(stderr, "sweep: cannot rename %s: %s\n", slot->tmp, strerror(errno));
			code = 1;
		} else {
			c->done = true;
			cell_path(s, c, ".err", path, sizeof path);
			unlink(path);
		}
	} else {
		unlink(slot->tmp);
		if (!stop_signal) {
			char msg[512];
			first_err_line(s, c, msg, sizeof msg);
			cell_path(s, c, ".err", path, sizeof path);
			fprintf(stderr, "sweep: cell %llu failed (exit %d): %s\n  %s\n  (all of its stderr: %s)\n",
				(unsigned long long)slot->cell, code, msg, cell_args(c), path);
		}
	}
	slot->pid = 0;
	return code;
}

/* What the progress line adds: the cells running and those not started yet. */
struct run_state {
	uint64_t todo, started;
	int running;
};

static void describe_cells(void *vctx, char *buf, size_t len)
{
	const struct run_state *rs = vctx;
	uint64_t left = rs->todo - rs->started;
	snprintf(buf, len, "%d running, %llu to start", rs->running, (unsigned long long)left);
}

/*
 * A replay that ended (its pid, its status in @p status), or 0 when none did within a second or a
 * signal came first (the progress timer, a stop: errno EINTR). SIGCHLD (@p chld) must be blocked.
 */
static pid_t wait_child(const sigset_t *chld, int *status)
{
	pid_t pid = waitpid(-1, status, WNOHANG);
	if (pid != 0)
		return pid;
	struct timespec second = {1, 0};
	if (sigtimedwait(chld, NULL, &second) < 0 && errno == EINTR)
		return SCHED_E_IO; /* errno stays EINTR */
	pid = waitpid(-1, status, WNOHANG);
	return pid;
}

/* Run every cell of @p mine (task I of K, or all) not yet done, @p workers at once. 0, or 1 if one failed. */
static int run_cells(struct sweep *s, int task, int ntasks)
{
	uint64_t todo = 0, total = 0;
	for (uint64_t i = 0; i < s->exp.ncells; i++)
		if ((int)(i % (uint64_t)ntasks) == task) {
			total++;
			todo += !s->cells[i].done;
		}
	int workers = s->o.workers;
	struct slot *slots = calloc((size_t)workers, sizeof *slots);
	if (slots == NULL)
		return 1;
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	fprintf(stderr, "sweep: %s: %llu cells, %llu done already, %llu to run on %d worker%s\n", s->exp.name,
		(unsigned long long)total, (unsigned long long)(total - todo), (unsigned long long)todo, workers,
		workers == 1 ? "" : "s");
	/* SIGCHLD blocked: a replay that ends is taken by sigtimedwait() (wait_child), which also returns
	 * on the progress timer's tick and on a stop signal. */
	sigset_t chld, saved;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &saved);
	struct progress pr;
	struct run_state rs = {.todo = todo};
	progress_start(&pr, stderr, s->o.progress, "sweep", "cells", todo);
	progress_describe(&pr, describe_cells, &rs);
	int failed = 0, running = 0;
	bool refused = false;
	uint64_t next = 0;
	for (;;) {
		while (!stop_signal && !refused && running < workers && next < s->exp.ncells) {
			uint64_t i = next++;
			if ((int)(i % (uint64_t)ntasks) != task || s->cells[i].done)
				continue;
			int k = 0;
			while (slots[k].pid != 0)
				k++;
			if (launch(s, i, &slots[k]) != 0) {
				failed++;
				refused = true; /* the state folder is not writable: nothing else will be */
				break;
			}
			running++;
			rs.running = running;
			rs.started++;
		}
		if (running == 0)
			break;
		int status;
		pid_t pid = wait_child(&chld, &status);
		progress_add(&pr, 0);
		if (pid == 0 || (pid < 0 && errno == EINTR)) {
			if (stop_signal)
				for (int k = 0; k < workers; k++)
					if (slots[k].pid != 0)
						kill(slots[k].pid, SIGTERM);
			continue;
		}
		if (pid < 0)
			break;
		for (int k = 0; k < workers; k++) {
			if (slots[k].pid != pid)
				continue;
			int code = reap(s, &slots[k], status);
			running--;
			if (code != 0 && !stop_signal) {
				failed++;
				refused |= code == 2;
			}
			rs.running = running;
			if (code == 0)
				progress_add(&pr, 1);
		}
	}
	progress_end(&pr);
	sigprocmask(SIG_SETMASK, &saved, NULL);
	free(slots);
	if (stop_signal) {
		fprintf(stderr, "sweep: stopped by signal %d; the finished cells are kept, run again to resume\n",
			(int)stop_signal);
		signal((int)stop_signal, SIG_DFL);
		raise((int)stop_signal);
		return 1;
	}
	if (refused)
		fprintf(stderr, "sweep: stopped launching: a replay refused its arguments (exit 2)\n");
	return refused && failed ? 2 : failed ? 1 : 0;
}

/* --- gathering ------------------------------------------------------------------------------------- */

struct columns {
	char **name;
	bool *text;   /* JSON: some value of the column is not a number... */
	bool *isbool;  /* ...but every one is true or false: booleans; else all of its values are strings */
	int n, cap;
};

static int column_of(struct columns *c, const char *name, bool add)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0)
			return i;
	if (!add)
		return -1;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		char **nn = realloc(c->name, (size_t)c->cap * sizeof *nn);
		bool *nt = nn ? realloc(c->text, (size_t)c->cap * sizeof *nt) : NULL;
		if (nt != NULL)
			c->text = nt;
		bool *nb = nt ? realloc(c->isbool, (size_t)c->cap * sizeof *nb) : NULL;
		if (nb == NULL) {
			fputs("sweep: out of memory\n", stderr);
			exit(1);
		}
		c->name = nn;
		c->isbool = nb;
	}
	/* Checksums and the version are names, whatever digits they happen to be made of. */
	size_t len = strlen(name);
	c->isbool[c->n] = true;
	c->text[c->n] = strcmp(name, "sweep_digest") == 0 || strcmp(name, "run_version") == 0 ||
			(len > 8 && strcmp(name + len - 8, "_fnv1a64") == 0);
	c->name[c->n] = strdup(name);
	if (c->name[c->n] == NULL)
		exit(1);
	return c->n++;
}

static char *read_line(FILE *f, char **buf, size_t *cap)
{
	ssize_t n = getline(buf, cap, f);
	if (n < 0)
		return NULL;
	while (n > 0 && ((*buf)[n - 1] == '\n' || (*buf)[n - 1] == '\r'))
		(*buf)[--n] = '\0';
	return *buf;
}

enum { MAX_FIELDS = 1024 };

struct out {
	FILE *f;
	bool json, first;
	struct columns cols;
};

static void write_row(struct out *o, char **vals)
{
	const struct columns *c = &o->cols;
	if (o->json)
		fputs(o->first ? "[\n  {" : ",\n  {", o->f);
	for (int i = 0; i < c->n; i++) {
		const char *v = vals[i] ? vals[i] : "";
		if (!o->json) {
			if (i > 0)
				fputc(',', o->f);
			csv_field(o->f, v);
			continue;
		}
		fputs(i > 0 ? ", " : "", o->f);
		json_string(o->f, c->name[i]);
		fputs(": ", o->f);
		bool string = c->text[i] && !c->isbool[i];
		if (v[0] == '\0' && !string)
			fputs("null", o->f);
		else if (string)
			json_string(o->f, v);
		else
			fputs(v, o->f); /* a number, or true or false, as written */
	}
	fputs(o->json ? "}" : "\n", o->f);
	o->first = false;
}

/*
 * One pass over the cells' files in cell order: @p pass 0 learns the columns (and, for JSON, which are
 * numbers), 1 writes the rows. Memory holds one line at a time. Returns 0, or 1 with the reason said.
 */
static int gather_pass(struct sweep *s, struct out *o, int pass)
{
	char *buf = NULL, *f[MAX_FIELDS], **vals = NULL, path[PATH_MAX + 32];
	size_t cap = 0;
	int nsweep = s->exp.naxes + 2, rc = 0;
	char **scratch = xmalloc((size_t)sweep_exp_max_args(&s->exp) * sizeof *scratch);
	for (uint64_t i = 0; i < s->exp.ncells && rc == 0; i++) {
		const struct cell *c = &s->cells[i];
		cell_path(s, c, ".csv", path, sizeof path);
		FILE *in = fopen(path, "r");
		int map[MAX_FIELDS], nf = -1;
		if (in != NULL && read_line(in, &buf, &cap) != NULL && read_line(in, &buf, &cap) != NULL)
			nf = sweep_csv_split(buf, f, MAX_FIELDS);
		if (nf < 1) {
			fprintf(stderr, "sweep: %s: no CSV header (a replay that printed no table?)\n", path);
			rc = 1;
		}
		for (int k = 0; k < nf; k++)
			map[k] = column_of(&o->cols, f[k], pass == 0);
		if (vals == NULL)
			vals = xmalloc((size_t)o->cols.n * sizeof *vals);
		char cellno[24], digest[24];
		int pick[SWEEP_MAX_AXES];
		sweep_exp_cell_args(&s->exp, i, scratch, pick);
		snprintf(cellno, sizeof cellno, "%llu", (unsigned long long)i);
		snprintf(digest, sizeof digest, "%016llx", (unsigned long long)c->digest);
		while (rc == 0 && (pass == 1 || o->json) && read_line(in, &buf, &cap) != NULL) {
			if (buf[0] == '\0')
				continue;
			int nv = sweep_csv_split(buf, f, MAX_FIELDS);
			if (nv != nf) {
				fprintf(stderr, "sweep: %s: a row of %d fields under a header of %d\n", path, nv, nf);
				rc = 1;
				break;
			}
			memset(vals, 0, (size_t)o->cols.n * sizeof *vals);
			vals[0] = cellno;
			for (int a = 0; a < s->exp.naxes; a++)
				vals[1 + a] = s->exp.axes[a].values[pick[a]].label;
			vals[nsweep - 1] = digest;
			for (int k = 0; k < nv; k++)
				vals[map[k]] = f[k];
			if (pass == 1) {
				write_row(o, vals);
				continue;
			}
			for (int k = 0; k < o->cols.n; k++) {
				const char *v = vals[k];
				if (v == NULL || v[0] == '\0')
					continue;
				if (!json_number(v, strlen(v)))
					o->cols.text[k] = true;
				if (strcmp(v, "true") != 0 && strcmp(v, "false") != 0)
					o->cols.isbool[k] = false;
			}
		}
		if (pass == 0) {
			free(vals); /* the columns may grow with the next cell */
			vals = NULL;
		}
		if (in != NULL)
			fclose(in);
	}
	free(scratch);
	free(vals);
	free(buf);
	return rc;
}

/*
 * Write the result from the cells' files: the sweep's columns (cell, one per axis, digest), then every
 * replayer column in the order first seen, into a temporary file renamed over the output, so a reader
 * never sees half a table. Fails, naming them, if cells are missing.
 */
static int gather(struct sweep *s)
{
	uint64_t missing = 0;
	for (uint64_t i = 0; i < s->exp.ncells; i++)
		if (!s->cells[i].done && missing++ < 10)
			fprintf(stderr, "sweep: cell %llu is not done: %s\n", (unsigned long long)i, cell_args(&s->cells[i]));
	if (missing) {
		fprintf(stderr, "sweep: %llu of %llu cells are not done; %s is not written\n",
			(unsigned long long)missing, (unsigned long long)s->exp.ncells, s->o.out);
		return 1;
	}
	size_t len = strlen(s->o.out);
	struct out o = {.json = len > 5 && strcmp(s->o.out + len - 5, ".json") == 0, .first = true};
	char key[80], tmp[PATH_MAX + 32];
	column_of(&o.cols, "sweep_cell", true);
	for (int a = 0; a < s->exp.naxes; a++) {
		snprintf(key, sizeof key, "sweep_%s", s->exp.axes[a].name);
		column_of(&o.cols, key, true);
	}
	column_of(&o.cols, "sweep_digest", true);
	int rc = gather_pass(s, &o, 0);
	if (rc == 0) {
		snprintf(tmp, sizeof tmp, "%s.tmp.%ld", s->o.out, (long)getpid());
		o.f = fopen(tmp, "w");
		if (o.f == NULL) {
			fprintf(stderr, "sweep: cannot write %s: %s\n", tmp, strerror(errno));
			rc = 1;
		}
	}
	if (rc == 0 && !o.json) {
		for (int i = 0; i < o.cols.n; i++) {
			if (i > 0)
				fputc(',', o.f);
			csv_field(o.f, o.cols.name[i]);
		}
		fputc('\n', o.f);
	}
	if (rc == 0)
		rc = gather_pass(s, &o, 1);
	if (rc == 0 && o.json)
		fputs(o.first ? "[]\n" : "\n]\n", o.f);
	if (o.f != NULL) {
		if (rc == 0 && (fflush(o.f) != 0 || fsync(fileno(o.f)) != 0)) {
			fprintf(stderr, "sweep: cannot write %s: %s\n", tmp, strerror(errno));
			rc = 1;
		}
		if (fclose(o.f) != 0)
			rc = 1;
		if (rc == 0 && rename(tmp, s->o.out) != 0) {
			fprintf(stderr, "sweep: cannot write %s: %s\n", s->o.out, strerror(errno));
			rc = 1;
		}
		if (rc != 0)
			unlink(tmp);
	}
	for (int i = 0; i < o.cols.n; i++)
		free(o.cols.name[i]);
	free(o.cols.name);
	free(o.cols.text);
	free(o.cols.isbool);
	return rc;
}

/* --- checks before anything runs --------------------------------------------------------------- */

enum capture { CAPTURE_OUT, CAPTURE_ERR, CAPTURE_BOTH };

/*
 * Run @p argv (by path if argv[0] has a '/', else from PATH) and keep what it writes into @p out (at
 * most @p len - 1 bytes): its stdout (its stderr left alone), its stderr (its stdout thrown away), or
 * both; killed after @p timeout_s seconds unless 0. Returns its exit status (128 + signal if killed, 127
 * if it could not start), or SCHED_E_IO.
 */
static int run_capture(char **argv, enum capture what, unsigned timeout_s, char *out, size_t len)
{
	int p[2];
	if (pipe(p) != 0)
		return SCHED_E_IO;
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		dup2(what == CAPTURE_ERR ? null : p[1], 1);
		if (what != CAPTURE_OUT)
			dup2(p[1], 2);
		close(p[0]);
		close(p[1]);
		if (timeout_s > 0)
			alarm(timeout_s); /* kept across exec, and SIGALRM's default ends the program */
		if (strchr(argv[0], '/') != NULL)
			execv(argv[0], argv);
		else
			execvp(argv[0], argv);
		fprintf(stderr, "sweep: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	size_t got = 0;
	ssize_t n;
	while (got + 1 < len && (n = read(p[0], out + got, len - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	char sink[512];
	while (read(p[0], sink, sizeof sink) > 0)
		; /* past @p len the rest is read and dropped: the child must not block on a full pipe */
	close(p[0]);
	int status;
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return SCHED_E_IO;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* The first non-empty line of @p text, cut in place. */
static char *first_line(char *text)
{
	text += strspn(text, "\n");
	text[strcspn(text, "\n")] = '\0';
	return text;
}

/* The last non-empty line of @p text, cut in place. */
static char *last_line(char *text)
{
	size_t n = strlen(text);
	while (n > 0 && text[n - 1] == '\n')
		text[--n] = '\0';
	char *nl = strrchr(text, '\n');
	return nl != NULL ? nl + 1 : text;
}

/* The folder of @p path ("." if none) into @p out. */
static void dir_of(const char *path, char *out, size_t len)
{
	snprintf(out, len, "%s", path);
	char *slash = strrchr(out, '/');
	if (slash == NULL)
		snprintf(out, len, ".");
	else if (slash == out)
		slash[1] = '\0';
	else
		*slash = '\0';
}

/* Whether the output's folder and the state folder take new files. Returns 0, or 1 with the reason said. */
static int check_output(const struct sweep *s)
{
	char dir[PATH_MAX];
	dir_of(s->o.out, dir, sizeof dir);
	const char *where[] = {dir, s->state};
	for (int i = 0; i < 2; i++)
		if (access(where[i], W_OK) != 0) {
			fprintf(stderr, "sweep: cannot write in %s (-o %s): %s; nothing was launched\n", where[i],
				s->o.out, strerror(errno));
			return 1;
		}
	return 0;
}

/*
 * Whether argument @p k of @p argv (@p n of them) is a trace: the last one when a `trace` line gives
 * the traces (@p trace_axis), or one named like a trace (.swf, .fix, and either gzipped), which is how
 * a trace inside an `axis` group is told from the other words.
 */
static bool is_trace_arg(char **argv, int k, int n, bool trace_axis)
{
	if (trace_axis)
		return k == n - 1;
	static const char *const ext[] = {".swf", ".fix", ".swf.gz", ".fix.gz"};
	size_t len = strlen(argv[k]);
	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		size_t e = strlen(ext[i]);
		if (len > e && strcmp(argv[k] + len - e, ext[i]) == 0)
			return true;
	}
	return false;
}

/* Whether every cell's traces (is_trace_arg) are files this process can read. O(cells x arguments).
 * Returns 0, or 1 naming the first cell and trace that is not. */
static int check_traces(const struct sweep *s, bool trace_axis)
{
	const char *ok[64];
	int nok = 0;
	for (uint64_t i = 0; i < s->exp.ncells; i++) {
		char **a = s->cells[i].argv + 4; /* after the program and the sweep's own three */
		int n = 0;
		while (a[n] != NULL)
			n++;
		for (int k = 0; k < n; k++) {
			const char *trace = a[k];
			int m = 0;
			while (m < nok && ok[m] != trace)
				m++;
			if (m < nok || !is_trace_arg(a, k, n, trace_axis))
				continue;
			struct stat st;
			if (stat(trace, &st) != 0 || access(trace, R_OK) != 0 || S_ISDIR(st.st_mode)) {
				fprintf(stderr, "sweep: %s: cell %llu: cannot read the trace %s: %s; nothing was launched\n",
					s->o.exp_path, (unsigned long long)i, trace,
					S_ISDIR(st.st_mode) ? "a folder" : strerror(errno));
				return 1;
			}
			if (nok < 64)
				ok[nok++] = trace;
		}
	}
	return 0;
}

/*
 * Whether the replayer takes each axis value's arguments: cell 0, then for each other value of each
 * non-trace axis the cell with that value and the first of every other axis, run with its trace
 * (is_trace_arg) replaced by an empty one (/dev/null). A refused option exits 2 before any trace is read; an accepted one goes on to find no
 * job (exit 1). O(1 + sum of the axes' sizes) replays of nothing. Returns 0, 1 if the replayer cannot
 * run, or 2 naming the cell, its value and the replayer's first line.
 */
static int check_options(const struct sweep *s, bool trace_axis)
{
	const struct sweep_exp *e = &s->exp;
	uint64_t stride[SWEEP_MAX_AXES];
	uint64_t str = 1;
	for (int a = e->naxes - 1; a >= 0; a--) {
		stride[a] = str;
		str *= (uint64_t)e->axes[a].count;
	}
	char **argv = xmalloc((size_t)(sweep_exp_max_args(e) + 6) * sizeof *argv);
	char err[1024];
	int rc = 0;
	for (int a = -1; a < e->naxes && rc == 0; a++) {
		int first = a < 0 ? 0 : 1, last = a < 0 ? 0 : e->axes[a].count - 1;
		if (a >= 0 && e->axes[a].is_trace)
			continue;
		for (int v = first; v <= last && rc == 0; v++) {
			uint64_t cell = a < 0 ? 0 : (uint64_t)v * stride[a];
			int n = 0, traces = 0;
			for (char **c = s->cells[cell].argv; *c != NULL; c++)
				argv[n++] = *c;
			argv[n] = NULL;
			for (int k = 4; k < n; k++)
				if (is_trace_arg(argv + 4, k - 4, n - 4, trace_axis)) {
					argv[k] = "/dev/null";
					traces++;
				}
			if (traces != 1)
				continue; /* no word is named like a trace, or several: nothing to try it on */
			int st = run_capture(argv, CAPTURE_ERR, 0, err, sizeof err);
			if (st == 2) {
				fprintf(stderr, "sweep: %s: the replayer refuses the arguments of cell %llu", s->o.exp_path,
					(unsigned long long)cell);
				if (a >= 0)
					fprintf(stderr, " (%s %s)", e->axes[a].name, e->axes[a].values[v].label);
				fprintf(stderr, ": %s\n  %s\nsweep: nothing was launched\n", first_line(err),
					cell_args(&s->cells[cell]));
				rc = 2;
			} else if (st == 127 || st < 0) {
				fprintf(stderr, "sweep: cannot run the replayer %s%s%s\n", argv[0], st < 0 ? "" : ": ",
					st < 0 ? "" : first_line(err));
				rc = 1;
			}
		}
	}
	free(argv);
	return rc;
}

/* The checks of a run before its first cell: output, traces, options. Returns 0, 1 or 2 (as main). */
static int check_experiment(const struct sweep *s)
{
	bool trace_axis = false;
	for (int a = 0; a < s->exp.naxes; a++)
		trace_axis |= s->exp.axes[a].is_trace != 0;
	int rc = check_output(s);
	if (rc == 0)
		rc = check_traces(s, trace_axis);
	return rc != 0 ? rc : check_options(s, trace_axis);
}

/* Whether a program of that name is on the PATH. */
static bool on_path(const char *name)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];
	while (path != NULL && *path != '\0') {
		size_t n = strcspn(path, ":");
		snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, name);
		if (n > 0 && access(buf, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

/*
 * Whether a Slurm cluster answers here: sbatch on the PATH, and scontrol ping finding a controller UP
 * (when scontrol is there). Returns 0, or 1 saying plainly what is missing.
 */
static int check_slurm(void)
{
	if (!on_path("sbatch")) {
		fputs("sweep: --slurm: no sbatch on the PATH: this machine is no Slurm client; nothing was submitted "
		      "(without --slurm the cells run here)\n", stderr);
		return 1;
	}
	if (!on_path("scontrol"))
		return 0;
	char out[2048];
	char *argv[] = {"scontrol", "ping", NULL};
	/* A missing slurm.conf makes Slurm's clients retry for a minute: 20 s is enough for an answer. */
	int st = run_capture(argv, CAPTURE_BOTH, 20, out, sizeof out);
	if (strstr(out, " is UP") != NULL)
		return 0;
	char *down = strstr(out, "Slurmctld");
	char *why = down != NULL && strstr(down, " is DOWN") != NULL ? first_line(down) : last_line(out);
	if (st == 128 + SIGALRM)
		fputs("sweep: --slurm: no Slurm controller answers from here (scontrol ping: no answer in 20 s); ", stderr);
	else
		fprintf(stderr, "sweep: --slurm: no Slurm controller answers from here (scontrol ping, exit %d: %s); ", st,
			why);
	fputs("nothing was submitted (without --slurm the cells run here)\n", stderr);
	return 1;
}

/* --- summaries and plots ------------------------------------------------------------------------------- */

/* FILE without its .csv, then @p suffix, into @p out. */
static void beside(const char *file, const char *suffix, char *out, size_t len)
{
	size_t n = strlen(file);
	if (n > 4 && strcmp(file + n - 4, ".csv") == 0)
		n -= 4;
	snprintf(out, len, "%.*s%s", (int)n, file, suffix);
}

/* --group-by and --plot, from the table just written. Returns 0, or 2 (a name that is no column) or 1. */
static int summarise(const struct sweep *s)
{
	char path[PATH_MAX + 300], err[1024];
	if (s->o.group_by != NULL) {
		beside(s->o.out, ".summary.csv", path, sizeof path);
		int e = sweep_summary(s->o.out, s->o.group_by, path, err, sizeof err);
		if (e != 0) {
			fprintf(stderr, "sweep: %s\n", err);
			return e == SCHED_E_INVAL ? 2 : 1;
		}
		fprintf(stderr, "sweep: wrote %s (grouped by %s)\n", path, s->o.group_by);
	}
	for (int i = 0; i < s->o.nplot; i++) {
		char name[400];
		snprintf(name, sizeof name, ".%s", s->o.plot[i]);
		/* avg_bsld:shrink:policy -> .avg_bsld-by-shrink-per-policy */
		char *c = strchr(name, ':');
		if (c != NULL) {
			char rest[400];
			snprintf(rest, sizeof rest, "-by-%s", c + 1);
			char *d = strchr(rest, ':');
			if (d != NULL) {
				char tail[400];
				snprintf(tail, sizeof tail, "-per-%s", d + 1);
				snprintf(d, sizeof rest - (size_t)(d - rest), "%s", tail);
			}
			snprintf(c, sizeof name - (size_t)(c - name), "%s", rest);
		}
		for (char *p = name; *p; p++)
			if (*p == '/' || *p == ':')
				*p = '_';
		beside(s->o.out, name, path, sizeof path);
		int e = sweep_plot(s->o.out, s->o.plot[i], path, err, sizeof err);
		if (e != 0) {
			fprintf(stderr, "sweep: %s\n", err);
			return e == SCHED_E_INVAL ? 2 : 1;
		}
	}
	return 0;
}

/* --- Slurm ------------------------------------------------------------------------------------------- */

static void shell_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static char *absolute(const char *path)
{
	char *r = realpath(path, NULL);
	if (r == NULL) {
		fprintf(stderr, "sweep: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return r;
}

/*
 * Submit the array and the gather job. The tasks and the gather run this same program with the same
 * experiment, replayer and output, by absolute paths, from the current directory (trace paths in the
 * experiment are relative to it), so the cluster's nodes need the same paths: a shared filesystem.
 */
static int submit(struct sweep *s, char *self)
{
	uint64_t todo = 0;
	for (uint64_t i = 0; i < s->exp.ncells; i++)
		todo += !s->cells[i].done;
	int k = s->o.slurm_tasks ? s->o.slurm_tasks : (int)(s->exp.ncells < 64 ? s->exp.ncells : 64);
	char cwd[PATH_MAX], script[PATH_MAX + 32];
	if (getcwd(cwd, sizeof cwd) == NULL)
		return 1;
	char *exp = absolute(s->o.exp_path), *replay = absolute(s->o.replay);
	char out_dir[PATH_MAX];
	snprintf(out_dir, sizeof out_dir, "%s", s->o.out);
	char *slash = strrchr(out_dir, '/');
	const char *out_base = s->o.out;
	if (slash != NULL) {
		*slash = '\0';
		out_base = slash + 1;
	} else {
		strcpy(out_dir, ".");
	}
	char *dir = absolute(out_dir);
	char out[PATH_MAX * 2];
	int rc = 0;
	snprintf(out, sizeof out, "%s/%s", dir, out_base);
	for (int pass = 0; pass < 2; pass++) {
		snprintf(script, sizeof script, "%s/%s.sbatch", s->state, pass == 0 ? "array" : "gather");
		FILE *f = fopen(script, "w");
		if (f == NULL) {
			fprintf(stderr, "sweep: cannot write %s: %s\n", script, strerror(errno));
			rc = 1;
			goto out;
		}
		fprintf(f, "#!/bin/sh\n# Written by build/sweep for experiment %s (%llu cells, %d tasks).\n", s->exp.name,
			(unsigned long long)s->exp.ncells, k);
		fputs("exec ", f);
		shell_quote(f, self);
		fputc(' ', f);
		shell_quote(f, exp);
		fputs(" --replay ", f);
		shell_quote(f, replay);
		fputs(" -o ", f);
		shell_quote(f, out);
		if (pass == 0)
			fprintf(f, " --quiet --workers \"${SLURM_CPUS_PER_TASK:-1}\" --task \"$SLURM_ARRAY_TASK_ID/%d\"\n", k);
		else
			fputs(" --quiet --gather\n", f);
		fclose(f);
	}
	char *argv[96], dep[192], array[64], jobname[128], chdir_arg[PATH_MAX + 16], logs[PATH_MAX + 64], id[128];
	char extra[2][PATH_MAX + 32];
	char array_id[128];
	for (int pass = 0; pass < 2; pass++) {
		int n = 0;
		argv[n++] = "sbatch";
		argv[n++] = "--parsable";
		snprintf(jobname, sizeof jobname, "--job-name=sweep-%s%s", s->exp.name, pass ? "-gather" : "");
		argv[n++] = jobname;
		snprintf(chdir_arg, sizeof chdir_arg, "--chdir=%s", cwd);
		argv[n++] = chdir_arg;
		snprintf(logs, sizeof logs, "--output=%s/slurm-%s.out", s->state, pass ? "%j-gather" : "%A_%a");
		argv[n++] = logs;
		for (int i = 0; i < s->o.nsbatch; i++)
			argv[n++] = (char *)s->o.sbatch[i];
		if (pass == 0) {
			snprintf(array, sizeof array, "--array=0-%d", k - 1);
			argv[n++] = array;
		} else {
			snprintf(dep, sizeof dep, "--dependency=afterok:%s", array_id);
			argv[n++] = dep;
			if (s->o.wait)
				argv[n++] = "--wait";
		}
		snprintf(extra[pass], sizeof extra[pass], "%s/%s.sbatch", s->state, pass == 0 ? "array" : "gather");
		argv[n++] = extra[pass];
		argv[n] = NULL;
		rc = run_capture(argv, CAPTURE_OUT, 0, id, sizeof id);
		id[strcspn(id, "\n")] = '\0';
		if (rc != 0 && !(pass == 1 && s->o.wait && id[0] != '\0')) {
			fprintf(stderr, "sweep: sbatch failed (exit %d)%s\n", rc,
				pass ? "; the array is submitted: run --gather when it ends" : "");
			rc = 1;
			goto out;
		}
		id[strcspn(id, ";")] = '\0';
		if (pass == 0) {
			snprintf(array_id, sizeof array_id, "%s", id);
			printf("sweep: %s: %llu cells (%llu to run) in array job %s of %d tasks\n", s->exp.name,
			       (unsigned long long)s->exp.ncells, (unsigned long long)todo, id, k);
		} else {
			printf("sweep: gather job %s writes %s when the array ends (squeue -j %s,%s)\n", id, out, array_id, id);
			if (s->o.wait && rc != 0) {
				fprintf(stderr, "sweep: the gather job failed (exit %d): %s/slurm-%s-gather.out\n", rc, s->state,
					id);
				rc = 1;
				goto out;
			}
		}
		fflush(stdout);
	}
	rc = 0;
out:
	free(exp);
	free(replay);
	free(dir);
	return rc;
}

/* --- pruning ----------------------------------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * Delete the files of FILE.cells/ named by a digest that is no cell of this experiment: DIGEST.csv,
 * DIGEST.err and DIGEST.tmp.PID (a replay killed with its sweep). A current cell's files, the batch
 * scripts and the Slurm logs stay. O(files x log cells). Returns 0, or 1 if a file could not go.
 */
static int prune(struct sweep *s)
{
	uint64_t n = s->exp.ncells, *d = xmalloc((size_t)n * sizeof *d);
	for (uint64_t i = 0; i < n; i++)
		d[i] = s->cells[i].digest;
	qsort(d, (size_t)n, sizeof *d, cmp_u64);
	DIR *dir = opendir(s->state);
	if (dir == NULL) {
		free(d);
		fprintf(stderr, "sweep: %s: %s\n", s->state, strerror(errno));
		return 1;
	}
	unsigned long gone = 0, kept = 0;
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		const char *name = e->d_name;
		if (strspn(name, "0123456789abcdef") != 16 || name[16] != '.')
			continue;
		const char *rest = name + 17;
		if (strcmp(rest, "csv") != 0 && strcmp(rest, "err") != 0 && strncmp(rest, "tmp.", 4) != 0)
			continue;
		uint64_t digest = strtoull(name, NULL, 16);
		if (bsearch(&digest, d, (size_t)n, sizeof *d, cmp_u64) != NULL) {
			kept += strcmp(rest, "csv") == 0;
			continue;
		}
		char path[PATH_MAX + 300];
		snprintf(path, sizeof path, "%s/%s", s->state, name);
		if (unlink(path) == 0) {
			gone++;
		} else {
			fprintf(stderr, "sweep: cannot delete %s: %s\n", path, strerror(errno));
			rc = 1;
		}
	}
	closedir(dir);
	free(d);
	fprintf(stderr, "sweep: %s: deleted %lu files of no cell of %s; %lu of its %llu cells kept\n", s->state, gone,
		s->exp.name, kept, (unsigned long long)n);
	return rc;
}

/* --- options and main ---------------------------------------------------------------------------------- */

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "sweep: %s%s\n%s", msg, arg ? arg : "", usage);
	return 2;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end != '\0' || v < lo || v > hi)
		return SCHED_E_INVAL;
	*out = (int)v;
	return 0;
}

static int default_workers(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{"workers", required_argument, 0, O_WORKERS}, {"replay", required_argument, 0, O_REPLAY},
		{"list", no_argument, 0, O_LIST}, {"progress", no_argument, 0, O_PROGRESS},
		{"quiet", no_argument, 0, O_QUIET}, {"slurm", no_argument, 0, O_SLURM},
		{"tasks", required_argument, 0, O_TASKS}, {"wait", no_argument, 0, O_WAIT},
		{"partition", required_argument, 0, O_PARTITION}, {"account", required_argument, 0, O_ACCOUNT},
		{"time", required_argument, 0, O_TIME}, {"sbatch", required_argument, 0, O_SBATCH},
		{"task", required_argument, 0, O_TASK}, {"gather", no_argument, 0, O_GATHER},
		{"prune", no_argument, 0, O_PRUNE}, {"group-by", required_argument, 0, O_GROUP_BY},
		{"plot", required_argument, 0, O_PLOT},
		{"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
	};
	static char passed[3][256];
	int ch;
	o->ntasks = 1;
	while ((ch = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			fputs(usage, stdout);
			exit(0);
		case 'o':
			o->out = optarg;
			break;
		case O_WORKERS:
			if (parse_int(optarg, 1, 1024, &o->workers) != 0)
				return usage_error("--workers takes 1..1024, not ", optarg);
			break;
		case O_REPLAY:
			o->replay = optarg;
			break;
		case O_LIST:
			o->list = true;
			break;
		case O_PROGRESS:
			o->progress = PROGRESS_ON;
			break;
		case O_QUIET:
			o->progress = PROGRESS_OFF;
			break;
		case O_SLURM:
			o->slurm = true;
			break;
		case O_TASKS:
			if (parse_int(optarg, 1, 100000, &o->slurm_tasks) != 0)
				return usage_error("--tasks takes 1..100000, not ", optarg);
			break;
		case O_WAIT:
			o->wait = true;
			break;
		case O_PARTITION:
		case O_ACCOUNT:
		case O_TIME: {
			int k = ch - O_PARTITION;
			const char *name[] = {"--partition=", "--account=", "--time="};
			snprintf(passed[k], sizeof passed[k], "%s%s", name[k], optarg);
			o->sbatch[o->nsbatch++] = passed[k];
			break;
		}
		case O_SBATCH:
			if (o->nsbatch == 60)
				return usage_error("too many --sbatch arguments", NULL);
			o->sbatch[o->nsbatch++] = optarg;
			break;
		case O_TASK: {
			char *slash = strchr(optarg, '/');
			if (slash == NULL)
				return usage_error("--task takes I/K, not ", optarg);
			*slash = '\0';
			if (parse_int(slash + 1, 1, 100000, &o->ntasks) != 0 || parse_int(optarg, 0, o->ntasks - 1, &o->task) != 0) {
				*slash = '/';
				return usage_error("--task takes I/K with 0 <= I < K, not ", optarg);
			}
			break;
		}
		case O_GATHER:
			o->gather = true;
			break;
		case O_PRUNE:
			o->prune = true;
			break;
		case O_GROUP_BY:
			o->group_by = optarg;
			break;
		case O_PLOT:
			if (o->nplot == 8)
				return usage_error("at most 8 --plot", NULL);
			o->plot[o->nplot++] = optarg;
			break;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1)
		return usage_error(optind >= argc ? "no experiment file" : "one experiment file, not several: ",
				   optind < argc ? argv[optind + 1] : NULL);
	o->exp_path = argv[optind];
	if (o->workers == 0)
		o->workers = default_workers();
	if ((o->slurm + o->gather + o->list + o->prune + (o->ntasks > 1)) > 1)
		return usage_error("--slurm, --gather, --list, --prune and --task exclude each other", NULL);
	if (o->wait && !o->slurm)
		return usage_error("--wait goes with --slurm", NULL);
	size_t olen = o->out ? strlen(o->out) : 0;
	if ((o->group_by || o->nplot) && olen > 5 && strcmp(o->out + olen - 5, ".json") == 0)
		return usage_error("--group-by and --plot read the CSV table: -o FILE.csv, not ", o->out);
	if ((o->group_by || o->nplot) && (o->list || o->prune || o->slurm || o->ntasks > 1))
		return usage_error("--group-by and --plot go with a run or --gather (they read the table)", NULL);
	return 0;
}

static char *sibling_replay(void)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof path - 16);
	if (n <= 0)
		return "replay";
	path[n] = '\0';
	char *slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "replay");
	return path;
}

/* mkdir -p for the output's folder and the state folder. */
static int make_dirs(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return SCHED_E_IO;
		*p = '/';
	}
	return mkdir(buf, 0755) != 0 && errno != EEXIST ? SCHED_E_IO : 0;
}

int main(int argc, char **argv)
{
	struct sweep s = {0};
	int rc = parse_opts(argc, argv, &s.o);
	if (rc != 0)
		return rc;
	char err[PATH_MAX + 256];
	if (sweep_exp_load(&s.exp, s.o.exp_path, err, sizeof err) != 0) {
		fprintf(stderr, "sweep: %s\n", err);
		return 2;
	}
	static char out_default[PATH_MAX];
	if (s.o.out == NULL) {
		snprintf(out_default, sizeof out_default, "build/sweeps/%s.csv", s.exp.name);
		s.o.out = out_default;
	}
	if (s.o.replay == NULL)
		s.o.replay = sibling_replay();
	s.replay_sum = SWEEP_HASH_START;
	if (sweep_hash_file(s.o.replay, &s.replay_sum) != 0 || access(s.o.replay, X_OK) != 0) {
		fprintf(stderr, "sweep: cannot run the replayer %s: %s (--replay PATH)\n", s.o.replay, strerror(errno));
		return 1;
	}
	snprintf(s.state, sizeof s.state, "%s.cells", s.o.out);
	if (!s.o.list && make_dirs(s.state) != 0) {
		fprintf(stderr, "sweep: cannot make %s: %s\n", s.state, strerror(errno));
		return 1;
	}
	build_cells(&s);
	if (s.o.list) {
		for (uint64_t i = 0; i < s.exp.ncells; i++)
			printf("%llu %016llx %s %s\n", (unsigned long long)i, (unsigned long long)s.cells[i].digest,
			       s.cells[i].done ? "done" : "todo", cell_args(&s.cells[i]));
	} else if (s.o.slurm) {
		/* A cluster, the output, the traces and the options are checked before a job is queued. */
		rc = check_slurm();
		if (rc == 0)
			rc = check_experiment(&s);
		if (rc == 0) {
			char *self = absolute(strchr(argv[0], '/') ? argv[0] : "/proc/self/exe");
			rc = submit(&s, self);
			free(self);
		}
	} else if (s.o.gather) {
		rc = gather(&s);
		if (rc == 0)
			rc = summarise(&s);
	} else if (s.o.prune) {
		rc = prune(&s);
	} else {
		/* A typo must not cost a launch of every cell: the experiment is checked first. */
		rc = check_experiment(&s);
		if (rc == 0)
			rc = run_cells(&s, s.o.task, s.o.ntasks);
		if (rc == 0 && s.o.ntasks == 1) {
			rc = gather(&s);
			if (rc == 0) {
				fprintf(stderr, "sweep: wrote %s (%llu cells)\n", s.o.out, (unsigned long long)s.exp.ncells);
				rc = summarise(&s);
			}
		}
	}
	for (uint64_t i = 0; i < s.exp.ncells; i++) {
		free(s.cells[i].line);
		free(s.cells[i].argv);
	}
	free(s.cells);
	sweep_exp_free(&s.exp);
	return rc;
}
