/* SPDX-License-Identifier: MIT */
/*
 * bridge_check: an independent checker of the bridge's on-disk records.
 *
 * It reads only what the bridge wrote under its --state DIR (records-spec:
 * DIR/epoch and DIR/jobs/<ID>/<record>), optionally a witness file the test
 * jobs themselves appended to (--runs) and the controller's `stats` reply
 * (--stats), and checks the bridge's promises: exactly once, capacity,
 * guarantees and limits. It shares no code with the bridge on purpose: a
 * misreading of the spec in the bridge must not be repeated here.
 *
 * Output: one line per violation,
 *   bridge_check: VIOLATION <kind> job <ID>: <details>
 * (<ID> is "-" when no single job is to blame), then one summary line.
 * Exit 0: no violation; 1: violations; 2: usage error or unreadable DIR.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds on parsed numbers. They exist only so that the arithmetic below
 * (e.g. (epoch + start) * 1000, sums of procs over many jobs) can never
 * overflow; any real value is far inside them, and a value outside is
 * reported as malformed rather than silently wrapped. */
#define MAXV 1000000000000000LL /* 1e15: ms until the year ~33000 */
#define MAXPROCS 1000000000LL   /* 1e9 processors per job */
#define MAXREC (1L << 20)       /* a one-line record larger than 1 MiB is garbage */

/* ---------- options and global counters ---------- */

static struct {
	const char *state, *runs, *stats;
	long long procs, tolerance, kill_wait;
	int expect_all_ended;
} opt = {.tolerance = 1000, .kill_wait = 5000};

static long long n_violations;

static void usage(const char *why)
{
	fprintf(stderr,
	        "bridge_check: %s\n"
	        "usage: bridge_check --state DIR --procs N [--tolerance MS] [--kill-wait MS]\n"
	        "                    [--runs FILE] [--stats 'LINE'] [--expect-all-ended]\n"
	        "  --tolerance MS   slack of every time check (default 1000)\n"
	        "  --kill-wait MS   the bridge's wait between TERM and KILL (default 5000)\n",
	        why);
	exit(2);
}

static void *xrealloc(void *p, size_t n);

/* Report one violation; id 0 means "no single job" and prints as "-". The
 * details are made printable (a file name or value may hold a newline or
 * terminal escapes) so that each violation stays exactly one line. */
__attribute__((format(printf, 3, 4))) static void violation(const char *kind, long long id,
                                                            const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = xrealloc(NULL, n < 0 ? 1 : (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(msg, n < 0 ? 1 : (size_t)n + 1, fmt, ap);
	va_end(ap);
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
	if (id > 0)
		printf("bridge_check: VIOLATION %s job %lld: %s\n", kind, id, msg);
	else
		printf("bridge_check: VIOLATION %s job -: %s\n", kind, msg);
	free(msg);
	n_violations++;
}

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "bridge_check: out of memory\n");
		exit(2);
	}
	return q;
}

static char *path_join(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = xrealloc(NULL, n);
	snprintf(p, n, "%s/%s", a, b);
	return p;
}

/* Strict decimal: optional '-' only if allowed, digits only, in [lo, hi].
 * Leading zeros are refused (except "0") so that one number has one spelling. */
static int parse_num(const char *s, long long lo, long long hi, long long *out)
{
	const char *d = (*s == '-') ? s + 1 : s;
	char *end;
	long long v;
	if (*d < '0' || *d > '9' || (d[0] == '0' && d[1] != '\0'))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* ---------- reading files ---------- */

/* Read a whole file. Returns 1 and a NUL-terminated buffer (len bytes, which
 * may contain NULs) on success, 0 if it does not exist, -1 on any other error
 * (errno kept) or if it is larger than cap (errno = EFBIG). */
static int read_file(const char *path, long cap, char **buf, size_t *len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0, size = 256;
	char *b;
	if (!f)
		return errno == ENOENT ? 0 : -1;
	b = xrealloc(NULL, size);
	for (;;) {
		size_t got = fread(b + n, 1, size - n - 1, f);
		n += got;
		if (got == 0)
			break;
		if (cap > 0 && n > (size_t)cap)
			break;
		if (size - n - 1 == 0)
			b = xrealloc(b, size *= 2);
	}
	if (ferror(f) || (cap > 0 && n > (size_t)cap)) {
		int e = ferror(f) ? errno : EFBIG;
		fclose(f);
		free(b);
		errno = e;
		return -1;
	}
	fclose(f);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 1;
}

/* ---------- one record: a line of key=value words ---------- */

typedef struct {
	char *buf;         /* the file's bytes, split in place */
	char **keys, **vals;
	size_t n;
	char why[200];     /* first problem found; "" while none */
} Rec;

__attribute__((format(printf, 2, 3))) static void rec_fail(Rec *r, const char *fmt, ...)
{
	va_list ap;
	if (r->why[0])
		return; /* keep the first problem: later ones are often its echo */
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof r->why, fmt, ap);
	va_end(ap);
}

static void rec_free(Rec *r)
{
	free(r->buf);
	free(r->keys);
	free(r->vals);
	memset(r, 0, sizeof *r);
}

/* Split "k=v k=v\n" in place. The spec says one line of space-separated
 * key=value words ending in '\n': anything else (no final newline, a second
 * line, an empty word, a word without '=', a repeated key, a NUL) is
 * reported; a reader must never see half a record. */
static void rec_split(Rec *r, size_t len)
{
	char *p, *word;
	if (len == 0) {
		rec_fail(r, "empty file");
		return;
	}
	if (strlen(r->buf) != len) {
		rec_fail(r, "contains a NUL byte");
		return;
	}
	if (r->buf[len - 1] != '\n') {
		rec_fail(r, "no final newline (partial write?)");
		return;
	}
	r->buf[len - 1] = '\0';
	if (strchr(r->buf, '\n')) {
		rec_fail(r, "more than one line");
		return;
	}
	for (p = r->buf; p;) {
		char *eq;
		word = p;
		p = strchr(p, ' ');
		if (p)
			*p++ = '\0';
		eq = strchr(word, '=');
		if (!eq || eq == word) {
			rec_fail(r, "word '%.40s' is not key=value", word);
			return;
		}
		*eq = '\0';
		for (size_t i = 0; i < r->n; i++)
			if (strcmp(r->keys[i], word) == 0) {
				rec_fail(r, "key %.40s repeated", word);
				return;
			}
		r->keys = xrealloc(r->keys, (r->n + 1) * sizeof *r->keys);
		r->vals = xrealloc(r->vals, (r->n + 1) * sizeof *r->vals);
		r->keys[r->n] = word;
		r->vals[r->n++] = eq + 1;
	}
}

/* Load DIR/NAME into r. Returns 0 if absent, 1 if present (r->why says
 * whether its form was bad). */
static int rec_load(Rec *r, const char *dir, const char *name)
{
	char *path = path_join(dir, name);
	size_t len = 0;
	int st = read_file(path, MAXREC, &r->buf, &len);
	free(path);
	memset(r->why, 0, sizeof r->why);
	if (st == 0)
		return 0;
	if (st < 0) {
		r->buf = NULL;
		rec_fail(r, "unreadable: %s", strerror(errno));
		return 1;
	}
	rec_split(r, len);
	return 1;
}

static const char *rec_get(Rec *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->keys[i], key) == 0)
			return r->vals[i];
	rec_fail(r, "missing key %s", key);
	return NULL;
}

static long long rec_num(Rec *r, const char *key, long long lo, long long hi)
{
	const char *v = rec_get(r, key);
	long long x = lo;
	if (v && parse_num(v, lo, hi, &x) != 0)
		rec_fail(r, "%s=%.40s is not a number in [%lld, %lld]", key, v, lo, hi);
	return x;
}

/* Index of the key's value in choices (NULL-terminated), or -1. */
static int rec_enum(Rec *r, const char *key, const char *const *choices)
{
	const char *v = rec_get(r, key);
	if (!v)
		return -1;
	for (int i = 0; choices[i]; i++)
		if (strcmp(v, choices[i]) == 0)
			return i;
	rec_fail(r, "%s=%.40s is not one of the allowed values", key, v);
	return -1;
}

/* ---------- the jobs ---------- */

enum { KILLED_NO, KILLED_LIMIT, KILLED_CANCEL };

/* What the records say of one job. has_* : the record file exists (even if
 * malformed: presence alone decides the exactly-once checks); ok_* : it
 * parsed, so its values may be used. */
typedef struct {
	long long id;
	int has_spec, has_acc, has_ref, has_sta, has_kill, has_end, has_can, has_clo;
	int ok_spec, ok_acc, ok_sta, ok_kill, ok_end, ok_can;
	long long procs, limit;
	long long acc_start;   /* -1: no guarantee (start=-) */
	long long sta_time, sta_ctrl;
	int kill_reason;       /* KILLED_LIMIT or KILLED_CANCEL */
	long long end_time;
	int end_killed;
	int clo_how;           /* the closed record's how=: 0 finish, 1 kill, 2 cancel, 3 refused; -1 none */
	int notrun;            /* ended status=notrun: started by the controller, ended before it could run */
	long long can_time;
	long long runs;        /* lines "run <ID>" in the witness file */
} Job;

static Job *jobs;
static size_t n_jobs;
static long long epoch = -1; /* -1: unknown (missing or malformed) */

static void bad_record(Job *j, const char *name, Rec *r)
{
	violation("malformed", j->id, "jobs/%lld/%s: %s", j->id, name, r->why);
}

static void parse_spec(Job *j, Rec *r)
{
	long long id = rec_num(r, "id", 1, MAXV);
	j->procs = rec_num(r, "procs", 1, MAXPROCS);
	j->limit = rec_num(r, "limit", 0, MAXV / 1000);
	rec_get(r, "name");
	rec_num(r, "submit", 0, MAXV);
	if (!r->why[0] && id != j->id)
		rec_fail(r, "id=%lld in the directory of job %lld", id, j->id);
}

static void parse_accepted(Job *j, Rec *r)
{
	const char *s;
	rec_num(r, "time", 0, MAXV);
	rec_num(r, "ctrl", 0, MAXV);
	s = rec_get(r, "start");
	j->acc_start = -1;
	if (s && strcmp(s, "-") != 0 && parse_num(s, 0, MAXV, &j->acc_start) != 0)
		rec_fail(r, "start=%.40s is neither a number nor '-'", s);
}

static void parse_refused(Rec *r)
{
	const char *s;
	rec_num(r, "time", 0, MAXV);
	s = rec_get(r, "reason");
	if (s && (strlen(s) % 2 != 0 || strspn(s, "0123456789abcdefABCDEF") != strlen(s)))
		rec_fail(r, "reason=%.40s is not hex", s);
}

static void parse_started(Job *j, Rec *r)
{
	j->sta_time = rec_num(r, "time", 0, MAXV);
	j->sta_ctrl = rec_num(r, "ctrl", 0, MAXV);
	rec_num(r, "pid", 1, MAXV);
	rec_num(r, "pgid", 1, MAXV);
	rec_num(r, "starttime", 0, MAXV);
	rec_num(r, "supervisor", 1, MAXV);
	rec_num(r, "late_ms", -MAXV, MAXV); /* may be negative: real minus decided */
}

static void parse_kill(Job *j, Rec *r)
{
	static const char *const reasons[] = {"limit", "cancel", NULL};
	rec_num(r, "time", 0, MAXV);
	rec_num(r, "ctrl", 0, MAXV);
	j->kill_reason = rec_enum(r, "reason", reasons) + 1; /* KILLED_LIMIT or _CANCEL */
}

/* status=exit:<0..255>|signal:<1..255>|unknown|notrun */
static void check_status(Rec *r)
{
	const char *s = rec_get(r, "status");
	long long v;
	if (!s || strcmp(s, "unknown") == 0 || strcmp(s, "notrun") == 0)
		return;
	if (strncmp(s, "exit:", 5) == 0 && parse_num(s + 5, 0, 255, &v) == 0)
		return;
	if (strncmp(s, "signal:", 7) == 0 && parse_num(s + 7, 1, 255, &v) == 0)
		return;
	rec_fail(r, "status=%.40s is not exit:N, signal:N, unknown or notrun", s);
}

static void parse_ended(Job *j, Rec *r)
{
	static const char *const killed[] = {"no", "limit", "cancel", NULL};
	static const char *const by[] = {"supervisor", "bridge", NULL};
	j->end_time = rec_num(r, "time", 0, MAXV);
	check_status(r);
	j->end_killed = rec_enum(r, "killed", killed);
	int who = rec_enum(r, "by", by);
	const char *st = rec_get(r, "status");
	j->notrun = st && strcmp(st, "notrun") == 0;
	/* docs/bridge.md: only the bridge writes notrun, for a start the controller killed or cancelled
	 * before the job's processors were free; a job that ended by itself ran. */
	if (j->notrun && (who != 1 || j->end_killed == 0))
		rec_fail(r, "status=notrun needs by=bridge and killed=limit or cancel");
}

static int closed_how; /* parse_closed's how=, for the loader to keep */

static void parse_closed(Rec *r)
{
	static const char *const how[] = {"finish", "kill", "cancel", "refused", NULL};
	rec_num(r, "time", 0, MAXV);
	closed_how = rec_enum(r, "how", how);
	rec_num(r, "ctrl", 0, MAXV);
}

/* Load one record of job j with its parser; returns whether it is present
 * and sets *ok to whether it parsed. */
static int load_one(Job *j, const char *dir, const char *name, int *ok)
{
	Rec r = {0};
	int present = rec_load(&r, dir, name);
	*ok = 0;
	if (!present)
		return 0;
	if (!r.why[0]) {
		if (strcmp(name, "spec") == 0)
			parse_spec(j, &r);
		else if (strcmp(name, "accepted") == 0)
			parse_accepted(j, &r);
		else if (strcmp(name, "refused") == 0)
			parse_refused(&r);
		else if (strcmp(name, "started") == 0)
			parse_started(j, &r);
		else if (strcmp(name, "kill") == 0)
			parse_kill(j, &r);
		else if (strcmp(name, "ended") == 0)
			parse_ended(j, &r);
		else if (strcmp(name, "cancel") == 0)
			j->can_time = rec_num(&r, "time", 0, MAXV);
		else if (strcmp(name, "closed") == 0) {
			closed_how = -1;
			parse_closed(&r);
			j->clo_how = closed_how;
		}
	}
	if (r.why[0])
		bad_record(j, name, &r);
	*ok = !r.why[0];
	rec_free(&r);
	return 1;
}

/* Load every record of job j from its directory; returns whether it has
 * any record at all. */
static int load_job(Job *j, const char *dir)
{
	int ok_ref, ok_clo, others;
	j->has_spec = load_one(j, dir, "spec", &j->ok_spec);
	j->has_acc = load_one(j, dir, "accepted", &j->ok_acc);
	j->has_ref = load_one(j, dir, "refused", &ok_ref);
	j->has_sta = load_one(j, dir, "started", &j->ok_sta);
	j->has_kill = load_one(j, dir, "kill", &j->ok_kill);
	j->has_end = load_one(j, dir, "ended", &j->ok_end);
	j->has_can = load_one(j, dir, "cancel", &j->ok_can);
	j->has_clo = load_one(j, dir, "closed", &ok_clo);
	others = j->has_acc || j->has_ref || j->has_sta || j->has_kill || j->has_end || j->has_can ||
	         j->has_clo;
	/* The spec is written first of all: any other record without it means
	 * the directory is not what the bridge promises. */
	if (!j->has_spec && others)
		violation("malformed", j->id, "jobs/%lld has records but no spec", j->id);
	return j->has_spec || others;
}

/* A directory name must be a canonical decimal ID >= 1. */
static int parse_id(const char *name, long long *id)
{
	return parse_num(name, 1, MAXV, id);
}

static int by_id(const void *a, const void *b)
{
	const Job *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

static Job *find_job(long long id)
{
	Job key = {.id = id};
	if (n_jobs == 0)
		return NULL;
	return bsearch(&key, jobs, n_jobs, sizeof *jobs, by_id);
}

/* Read every DIR/jobs/<ID>/. A missing jobs directory is a bridge that ran
 * no job yet (zero jobs); any other failure to list it is exit 2. */
static void load_jobs(void)
{
	char *jdir = path_join(opt.state, "jobs");
	DIR *d = opendir(jdir);
	struct dirent *e;
	if (!d) {
		if (errno == ENOENT) {
			free(jdir);
			return;
		}
		fprintf(stderr, "bridge_check: cannot read %s: %s\n", jdir, strerror(errno));
		exit(2);
	}
	while ((e = readdir(d)) != NULL) {
		long long id;
		char *sub;
		DIR *probe;
		/* Dot names: ".", "..", and any hidden temporary the bridge may
		 * keep while it writes a record whole (spec: temp file then rename). */
		if (e->d_name[0] == '.')
			continue;
		if (parse_id(e->d_name, &id) != 0) {
			violation("malformed", 0, "jobs/%.60s: not a decimal job ID >= 1", e->d_name);
			continue;
		}
		sub = path_join(jdir, e->d_name);
		probe = opendir(sub);
		if (!probe) {
			violation("malformed", id, "jobs/%s: not a readable directory: %s", e->d_name,
			          strerror(errno));
			free(sub);
			continue;
		}
		closedir(probe);
		jobs = xrealloc(jobs, (n_jobs + 1) * sizeof *jobs);
		memset(&jobs[n_jobs], 0, sizeof *jobs);
		jobs[n_jobs].id = id;
		/* An empty directory is a job being created (mkdir before its spec
		 * is renamed in): not a job yet. */
		if (load_job(&jobs[n_jobs], sub))
			n_jobs++;
		free(sub);
	}
	closedir(d);
	free(jdir);
	if (n_jobs > 0) /* qsort's base must not be NULL, even for 0 items */
		qsort(jobs, n_jobs, sizeof *jobs, by_id);
}

/* DIR must be readable, and look like a state directory (epoch or jobs/). */
static void load_epoch(void)
{
	char *jd = path_join(opt.state, "jobs");
	DIR *d = opendir(opt.state);
	Rec r = {0};
	if (!d) {
		fprintf(stderr, "bridge_check: cannot read state directory %s: %s\n", opt.state,
		        strerror(errno));
		exit(2);
	}
	closedir(d);
	if (!rec_load(&r, opt.state, "epoch")) {
		DIR *j = opendir(jd);
		if (!j) {
			fprintf(stderr, "bridge_check: %s has neither epoch nor jobs/: not a bridge state directory\n",
			        opt.state);
			exit(2);
		}
		closedir(j);
		violation("malformed", 0, "epoch: missing while jobs/ exists");
	} else {
		long long v = r.why[0] ? 0 : rec_num(&r, "epoch", 0, MAXV);
		if (r.why[0])
			violation("malformed", 0, "epoch: %s", r.why);
		else
			epoch = v;
	}
	rec_free(&r);
	free(jd);
}

/* ---------- invariant 1: exactly once, and the records' coherence ---------- */

/* Was the job cancelled before it started (or without ever starting)? Such a
 * job is exempt from having started. */
static int cancelled_before_start(const Job *j)
{
	if (!j->has_can)
		return 0;
	if (!j->has_sta)
		return 1;
	return j->ok_can && j->ok_sta && j->can_time < j->sta_time;
}

static void check_exactly_once(const Job *j)
{
	if (j->has_acc && j->has_ref)
		violation("accepted-refused", j->id, "both accepted and refused records");
	if (j->has_sta && j->has_ref)
		violation("started-refused", j->id, "a refused job has a started record");
	else if (j->has_sta && !j->has_acc)
		violation("started-unaccepted", j->id, "started without an accepted record");
	if (j->has_end && !j->has_sta && !j->notrun)
		violation("ended-unstarted", j->id, "ended without a started record");
	if (j->notrun && j->has_sta)
		violation("notrun-started", j->id, "ended status=notrun but has a started record");
	if (j->ok_sta && j->ok_end && j->end_time < j->sta_time)
		violation("order", j->id, "ended.time %lld before started.time %lld", j->end_time,
		          j->sta_time);
	/* The kill the job ended by must be one the bridge was told of (a
	 * malformed kill record is already reported: no second report). */
	if (j->ok_end && j->end_killed == KILLED_LIMIT &&
	    !(j->has_kill && (!j->ok_kill || j->kill_reason == KILLED_LIMIT)))
		violation("kill-mismatch", j->id, "ended killed=limit without a kill reason=limit record");
	if (j->ok_end && j->end_killed == KILLED_CANCEL && !j->has_can)
		violation("kill-mismatch", j->id, "ended killed=cancel without a cancel record");
}

/* --expect-all-ended: the session is over, nothing may be left half done. */
static void check_all_ended(const Job *j)
{
	int must_run = j->has_acc && !j->has_ref && !cancelled_before_start(j);
	if (must_run && !j->has_sta && !j->notrun)
		violation("not-started", j->id, "accepted, not cancelled, never started");
	if (j->has_sta && !j->has_end)
		violation("not-ended", j->id, "started but no ended record");
	if (must_run && !j->has_clo)
		violation("not-closed", j->id, "accepted but no closed record");
}

/* ---------- invariants 3 and 4: guarantee and limits ---------- */

static void check_guarantee(const Job *j)
{
	long long due;
	if (!j->ok_acc || j->acc_start < 0 || !j->ok_sta || epoch < 0)
		return;
	due = (epoch + j->acc_start) * 1000;
	if (j->sta_time > due + opt.tolerance)
		violation("late", j->id, "started at %lld ms, %lld ms after its guarantee start=%lld (tolerance %lld)",
		          j->sta_time, j->sta_time - due, j->acc_start, opt.tolerance);
	/* The controller's own decision must not be later than its promise. */
	if (j->sta_ctrl > j->acc_start)
		violation("late", j->id, "decided start ctrl=%lld after its guarantee start=%lld",
		          j->sta_ctrl, j->acc_start);
}

/* run = ended.time - started.time over-estimates the process's life
 * (started is a lower bound, ended an upper bound), so "too short" is exact
 * and "too long" needs the tolerance. */
static void check_limits(const Job *j)
{
	long long run, lim;
	if (!j->ok_sta || !j->ok_end || !j->ok_spec || j->end_time < j->sta_time)
		return;
	run = j->end_time - j->sta_time;
	lim = j->limit * 1000;
	if (j->end_killed == KILLED_LIMIT) {
		if (run < lim - opt.tolerance)
			violation("limit-short", j->id, "killed at its limit after %lld ms, limit %lld ms (tolerance %lld)",
			          run, lim, opt.tolerance);
		if (run > lim + opt.kill_wait + opt.tolerance)
			violation("limit-long", j->id,
			          "killed at its limit after %lld ms, limit %lld ms + kill wait %lld + tolerance %lld",
			          run, lim, opt.kill_wait, opt.tolerance);
	} else if (j->end_killed == KILLED_NO && run > lim + opt.tolerance) {
		violation("limit-long", j->id, "ran %lld ms unkilled, limit %lld ms (tolerance %lld)", run, lim,
		          opt.tolerance);
	}
}

/* ---------- invariant 2: capacity ---------- */

/*
 * Boundary rule. A job holds its procs over the closed interval
 * [started.time, ended.time] (ms): started.time is a lower bound of its
 * process's life and ended.time an upper bound, so nothing shorter is sound.
 * The one exception: an end at t and a start at the same t do not overlap.
 * The bridge starts a job into freed processors only after it reaped the job
 * that freed them, so the new started record follows the old ended record in
 * time; with millisecond stamps both may read the same t. Hence events at
 * one t are ordered: ends of jobs that started before t, then starts, then
 * (only then) ends of jobs that started at t too, so a zero-length job
 * [t, t] still counts at t. A job without ended (or, wrongly, ending before
 * its start: reported as "order") holds its procs from its start to
 * +infinity, resp. at its start only.
 */
enum { EV_END = 0, EV_START = 1, EV_END_INSTANT = 2 };

typedef struct {
	long long t;
	int type;
	long long procs, id;
} Event;

static int by_event(const void *a, const void *b)
{
	const Event *x = a, *y = b;
	if (x->t != y->t)
		return (x->t > y->t) - (x->t < y->t);
	if (x->type != y->type)
		return x->type - y->type;
	return (x->id > y->id) - (x->id < y->id);
}

/* Can the job take part in the sweep? Its start and procs must be known,
 * and its end known or truly absent. A malformed record is already a
 * violation (exit 1); guessing its value would only add echoes of it. */
static int sweepable(const Job *j)
{
	return j->ok_sta && j->ok_spec && (j->ok_end || !j->has_end);
}

/* Does job j hold its procs at instant t, just after the starts at t? */
static int holds_at(const Job *j, long long t)
{
	if (!sweepable(j) || j->sta_time > t)
		return 0;
	if (!j->ok_end || j->end_time < j->sta_time)
		return !j->ok_end || j->sta_time == t;
	return j->end_time > t || j->sta_time == t;
}

static void report_capacity(long long t, long long busy, long long id)
{
	printf("bridge_check: VIOLATION capacity job %lld: at %lld ms %lld of %lld procs busy, held by jobs",
	       id, t, busy, opt.procs);
	for (size_t i = 0; i < n_jobs; i++)
		if (holds_at(&jobs[i], t))
			printf(" %lld(%lld)", jobs[i].id, jobs[i].procs);
	putchar('\n');
	n_violations++;
}

/* Sweep the intervals; report each time the busy count rises above N (not
 * every event while it stays above). Returns the largest busy count. */
static long long check_capacity(void)
{
	Event *ev = NULL;
	size_t n = 0;
	long long busy = 0, max_busy = 0;
	int over = 0;
	for (size_t i = 0; i < n_jobs; i++) {
		const Job *j = &jobs[i];
		if (!sweepable(j))
			continue;
		ev = xrealloc(ev, (n + 2) * sizeof *ev);
		ev[n++] = (Event){j->sta_time, EV_START, j->procs, j->id};
		if (j->ok_end) {
			long long e = j->end_time < j->sta_time ? j->sta_time : j->end_time;
			ev[n++] = (Event){e, e == j->sta_time ? EV_END_INSTANT : EV_END, j->procs, j->id};
		}
	}
	if (n > 0)
		qsort(ev, n, sizeof *ev, by_event);
	for (size_t i = 0; i < n; i++) {
		if (ev[i].type != EV_START) {
			busy -= ev[i].procs;
			over = over && busy > opt.procs;
			continue;
		}
		busy += ev[i].procs;
		if (busy > max_busy)
			max_busy = busy;
		if (busy > opt.procs && !over) {
			report_capacity(ev[i].t, busy, ev[i].id);
			over = 1;
		}
	}
	free(ev);
	return max_busy;
}

/* ---------- the witness: --runs FILE ---------- */

/* One line "run <ID>" per process that began. A missing file means no job
 * process began. */
static void read_runs(void)
{
	char *buf = NULL, *line, *next;
	size_t len = 0;
	long long lineno = 0;
	int st = read_file(opt.runs, 0, &buf, &len);
	if (st < 0) {
		fprintf(stderr, "bridge_check: cannot read --runs %s: %s\n", opt.runs, strerror(errno));
		exit(2);
	}
	if (st == 0)
		return;
	if (strlen(buf) != len)
		violation("malformed", 0, "runs %s: contains a NUL byte", opt.runs);
	for (line = buf; line && *line; line = next) {
		long long id;
		Job *j;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (strncmp(line, "run ", 4) != 0 || parse_id(line + 4, &id) != 0) {
			violation("malformed", 0, "runs %s line %lld: '%.60s' is not 'run <ID>'", opt.runs,
			          lineno, line);
			continue;
		}
		j = find_job(id);
		if (!j || !j->has_sta)
			violation("run-unstarted", id, "runs line %lld: the job ran but has no started record",
			          lineno);
		if (j)
			j->runs++;
	}
	free(buf);
}

static void check_runs(const Job *j)
{
	if (j->runs > 1)
		violation("run-twice", j->id, "its process began %lld times (runs file)", j->runs);
	if (j->has_sta && j->runs == 0)
		violation("run-missing", j->id, "started record but its process never began (runs file)");
}

/* ---------- the controller's stats ---------- */

/* Value of key in "ok k=v k=v ..."; -1 if absent or not a number. */
static long long stats_value(const char *line, const char *key)
{
	size_t kl = strlen(key);
	const char *p = line;
	while ((p = strstr(p, key)) != NULL) {
		int word_start = (p == line || p[-1] == ' ');
		if (word_start && p[kl] == '=') {
			char num[32];
			size_t n = strcspn(p + kl + 1, " \n");
			long long v;
			if (n == 0 || n >= sizeof num)
				return -1;
			memcpy(num, p + kl + 1, n);
			num[n] = '\0';
			return parse_num(num, 0, MAXV, &v) == 0 ? v : -1;
		}
		p += kl;
	}
	return -1;
}

/* The controller's value must lie in [lo, lo + unsure]: unsure counts the
 * jobs whose malformed ended record leaves it open whether they count. */
static void stats_compare(const char *key, long long lo, long long unsure, const char *what)
{
	long long v = stats_value(opt.stats, key);
	if (v < 0)
		violation("stats", 0, "controller stats have no numeric %s", key);
	else if (unsure == 0 && v != lo)
		violation("stats", 0, "controller %s=%lld but the records count %lld %s", key, v, lo, what);
	else if (v < lo || v > lo + unsure)
		violation("stats", 0, "controller %s=%lld but the records count %lld to %lld %s", key, v, lo,
		          lo + unsure, what);
}

/*
 * What the controller counts, recounted from the records:
 *   submitted = jobs with accepted;  started = jobs with started;
 *   killed    = ended killed=limit (the controller's own kills);
 *   finished  = ended killed=no;
 *   except where the closed record says how the controller saw the end: how=kill counts as killed and
 *   how=finish as finished, whatever the process did. After a reset the controller's clock catches up
 *   in steps, and a start it decided for a past second is carried out late; its kill, at the decided
 *   start plus the limit, can then come before the job's own exit, which the records keep as
 *   killed=no. The controller counted a kill, and its view is the closed record's.
 *   cancelled = accepted jobs with a cancel record, except those that ended
 *               killed=no or killed=limit (the cancel came too late to count:
 *               the job had already finished or been killed). A job
 *               cancelled while running ends killed=cancel and counts here,
 *               not in finished.
 */
static void check_stats(void)
{
	long long acc = 0, sta = 0, kil = 0, fin = 0, can = 0, unsure = 0, unsure_can = 0;
	if (strncmp(opt.stats, "ok", 2) != 0 || (opt.stats[2] != ' ' && opt.stats[2] != '\0' &&
	                                          opt.stats[2] != '\n')) {
		violation("stats", 0, "controller reply is not 'ok ...': '%.80s'", opt.stats);
		return;
	}
	for (size_t i = 0; i < n_jobs; i++) {
		const Job *j = &jobs[i];
		int cancel = j->has_acc && j->has_can;
		acc += j->has_acc;
		sta += j->has_sta || j->notrun; /* the controller started it: its kill came first */
		if (j->has_end && !j->ok_end) { /* how it ended is unknown */
			unsure++;
			unsure_can += cancel;
			continue;
		}
		if (j->has_end && j->has_clo && (j->clo_how == 0 || j->clo_how == 1) && j->end_killed != KILLED_CANCEL) {
			kil += j->clo_how == 1;
			fin += j->clo_how == 0;
			continue;
		}
		kil += j->has_end && j->end_killed == KILLED_LIMIT;
		fin += j->has_end && j->end_killed == KILLED_NO;
		can += cancel && (!j->has_end || j->end_killed == KILLED_CANCEL);
	}
	stats_compare("submitted", acc, 0, "accepted");
	stats_compare("started", sta, 0, "started");
	stats_compare("killed", kil, unsure, "ended killed=limit");
	stats_compare("finished", fin, unsure, "ended killed=no");
	stats_compare("cancelled", can, unsure_can, "cancelled");
}

/* ---------- main ---------- */

static long long num_arg(const char *name, const char *v, long long lo)
{
	long long x;
	if (!v || parse_num(v, lo, MAXV, &x) != 0) {
		char msg[120];
		snprintf(msg, sizeof msg, "%s needs a whole number >= %lld", name, lo);
		usage(msg);
	}
	return x;
}

static void parse_args(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--expect-all-ended") == 0) {
			opt.expect_all_ended = 1;
			continue;
		}
		if (!v)
			usage("missing value or unknown option");
		if (strcmp(a, "--state") == 0)
			opt.state = v;
		else if (strcmp(a, "--procs") == 0)
			opt.procs = num_arg(a, v, 1);
		else if (strcmp(a, "--tolerance") == 0)
			opt.tolerance = num_arg(a, v, 0);
		else if (strcmp(a, "--kill-wait") == 0)
			opt.kill_wait = num_arg(a, v, 0);
		else if (strcmp(a, "--runs") == 0)
			opt.runs = v;
		else if (strcmp(a, "--stats") == 0)
			opt.stats = v;
		else
			usage("unknown option");
		i++;
	}
	if (!opt.state || opt.procs < 1)
		usage("--state DIR and --procs N are required");
}

/* Lateness = started.time - (epoch + started.ctrl) * 1000: how long after
 * the controller's decided start the bridge began the job. */
static void worst_lateness(long long *worst, long long *who)
{
	*worst = 0;
	*who = 0;
	for (size_t i = 0; i < n_jobs; i++) {
		const Job *j = &jobs[i];
		long long late;
		if (!j->ok_sta || epoch < 0)
			continue;
		late = j->sta_time - (epoch + j->sta_ctrl) * 1000;
		if (*who == 0 || late > *worst) {
			*worst = late;
			*who = j->id;
		}
	}
}

int main(int argc, char **argv)
{
	long long n_acc = 0, n_sta = 0, n_kil = 0, n_notrun = 0, max_busy, worst, who;
	parse_args(argc, argv);
	load_epoch();
	load_jobs();
	if (opt.runs)
		read_runs();
	for (size_t i = 0; i < n_jobs; i++) {
		const Job *j = &jobs[i];
		check_exactly_once(j);
		check_guarantee(j);
		check_limits(j);
		if (opt.expect_all_ended)
			check_all_ended(j);
		if (opt.runs)
			check_runs(j);
		n_acc += j->has_acc;
		n_sta += j->has_sta;
		n_kil += j->ok_end && j->end_killed == KILLED_LIMIT;
		n_notrun += j->notrun;
	}
	max_busy = check_capacity();
	if (opt.stats)
		check_stats();
	worst_lateness(&worst, &who);
	printf("bridge_check: %zu jobs, %lld accepted, %lld started, %lld killed, %lld violations; "
	       "max busy %lld of %lld; worst lateness %lld ms (job ",
	       n_jobs, n_acc, n_sta, n_kil, n_violations, max_busy, opt.procs, worst);
	if (who > 0)
		printf("%lld)", who);
	else
		printf("-)");
	if (n_notrun > 0)
		printf("; %lld not run (killed or cancelled before their processors were free)", n_notrun);
	printf("\n");
	free(jobs);
	return n_violations ? 1 : 0;
}
