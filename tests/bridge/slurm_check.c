/* SPDX-License-Identifier: MIT */
/*
 * slurm_check: an independent checker of a bridge session on Slurm.
 *
 * It reads what Slurm itself wrote, the jobcomp/filetxt file (one line per
 * ended job; tests/bridge/slurm_cluster.sh sets it up), and optionally the
 * list of jobs the test expects to run (--expect-ids) and when the controller
 * decided each start (--decisions, written by the bridge). It shares no code
 * with the bridge on purpose.
 *
 * The jobcomp line of Slurm 22.05 (jobcomp_filetxt.c), as observed:
 *   JobId=1 UserId=root(0) GroupId=root(0) Name=wrap JobState=COMPLETED
 *   Partition=run TimeLimit=1 StartTime=2026-11-27T10:58:59
 *   EndTime=2026-11-27T10:59:04 NodeList=vm NodeCnt=1 ProcCnt=4 WorkDir=/tmp/x
 *   ReservationName= Tres=cpu=4,mem=24105M,node=1,billing=4 Account= QOS=
 *   WcKey= Cluster=unknown SubmitTime=... EligibleTime=... DerivedExitCode=0:0
 *   ExitCode=0:0 <space><newline>
 * all on one line. TimeLimit is whole minutes, or UNLIMITED (or
 * Partition_Limit). Times are slurmctld's local time, whole seconds
 * (truncated), no zone: this program reads them in its own local time zone
 * (TZ), which must be slurmctld's. A job cancelled while pending also gets a
 * line: JobState=CANCELLED, StartTime == EndTime == the cancel time,
 * NodeList=(null) NodeCnt=0 ProcCnt=0. A job Slurm requeued (seen after a
 * crash of slurmctld) gets a line with JobState=PENDING.
 *
 * Name is free text (it may hold spaces and "Key=" words), so the fields are
 * not split on spaces blindly: the fixed run "JobState=S Partition=P
 * TimeLimit=L StartTime=T EndTime=T NodeList=N NodeCnt=C ProcCnt=C WorkDir="
 * after " Name=" is looked for, the first place where all of it matches.
 *
 * A job "ran" (has a real start) when its line has ProcCnt > 0, NodeCnt > 0
 * and a NodeList other than "(null)".
 *
 * Checks (violation kinds):
 *   malformed   a line that is not a jobcomp line, or ends before it starts
 *   twice       more than one line for one job id: Slurm never requeues here,
 *               a job runs once and ends once
 *   requeued    a line whose JobState is not a final state (PENDING: Slurm
 *               requeued the job)
 *   missing     an --expect-ids (or --decisions) job without any line
 *   not_run     an --expect-ids job whose line has no real start
 *   unexpected  a job that ran but is not in --expect-ids (when given)
 *   capacity    more than --cpus CPUs busy at some instant. A job occupies
 *               [StartTime, EndTime) in whole seconds: one ending in the
 *               second another starts does not overlap it, and a job with
 *               StartTime == EndTime (ran under a second) occupies nothing.
 *               Slurm truncates both times, so an overlap found this way is
 *               a real one; an overlap shorter than a second may be missed.
 *   timeout     a TIMEOUT job whose run (EndTime - StartTime) is not its
 *               limit: below limit - tolerance, or above limit +
 *               --timeout-slack + tolerance (slurmctld looks for jobs over
 *               their limit only every 30 s: the default slack)
 *   overlimit   any other job that ran longer than limit + slack + tolerance
 *   undecided   (--decisions) a job ran that the controller never started
 *   early       (--decisions) StartTime's second is before the decision's
 *   late        (--decisions) StartTime - decision > tolerance
 * Slurm's times are whole seconds: the tolerance must cover Slurm's reaction
 * (about 1 s from the move to the run partition to the start) and that
 * rounding.
 *
 * Output: one line per violation,
 *   slurm_check: VIOLATION <kind> job <ID>: <details>
 * (<ID> is "-" when no single job is to blame), then one summary line.
 * Exit 0: no violation; 1: violations; 2: usage error or unreadable input.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Bounds on parsed numbers, so that no arithmetic below can overflow; a
 * value outside is reported as malformed rather than silently wrapped. */
#define MAXID 4000000000LL        /* Slurm's job ids are 32-bit */
#define MAXCPUS 1000000000LL      /* 1e9 CPUs */
#define MAXMIN 1000000000LL       /* limits in minutes */
#define MAXSEC 100000000000000LL  /* 1e14 s */

static struct {
	const char *jobcomp, *decisions, *expect;
	long long cpus, tolerance, slack;
} opt = {.cpus = -1, .tolerance = 2000, .slack = 30};

static long long n_violations;

static void usage(const char *why)
{
	fprintf(stderr,
	        "slurm_check: %s\n"
	        "usage: slurm_check --jobcomp FILE --cpus N [--tolerance MS] [--timeout-slack S]\n"
	        "                   [--decisions FILE] [--expect-ids FILE]\n"
	        "  --jobcomp FILE     Slurm's jobcomp/filetxt file (times read in this TZ: slurmctld's)\n"
	        "  --cpus N           the CPUs of the cluster\n"
	        "  --tolerance MS     slack of every time check (default 2000)\n"
	        "  --timeout-slack S  how late after its limit Slurm may end a job (default 30)\n"
	        "  --decisions FILE   lines 'ID UNIX_SECONDS[.FRACTION]': when the controller decided\n"
	        "                     each start\n"
	        "  --expect-ids FILE  one job id per line: the jobs expected to run, once each\n",
	        why);
	exit(2);
}

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "slurm_check: out of memory\n");
		exit(2);
	}
	return q;
}

/* Report one violation; id < 0 prints as "-". Details are made printable so
 * that each violation stays exactly one line. */
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
	if (n < 0)
		msg[0] = '\0';
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
	if (id >= 0)
		printf("slurm_check: VIOLATION %s job %lld: %s\n", kind, id, msg);
	else
		printf("slurm_check: VIOLATION %s job -: %s\n", kind, msg);
	free(msg);
	n_violations++;
}

/* Strict decimal in [lo, hi], digits only, no leading zeros (but "0"). The
 * digits are s[0..len). */
static int parse_num_n(const char *s, size_t len, long long lo, long long hi, long long *out)
{
	long long v = 0;
	if (len == 0 || len > 18 || (s[0] == '0' && len > 1))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	if (v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int parse_num(const char *s, long long lo, long long hi, long long *out)
{
	return parse_num_n(s, strlen(s), lo, hi, out);
}

/* "YYYY-MM-DDTHH:MM:SS" (exactly, len bytes) in local time -> Unix seconds. */
static int parse_time(const char *s, size_t len, long long *out)
{
	struct tm tm;
	long long f[6];
	static const size_t pos[6] = {0, 5, 8, 11, 14, 17}, wid[6] = {4, 2, 2, 2, 2, 2};
	static const char sep[] = "--T::";
	time_t t;
	if (len != 19)
		return -1;
	for (int i = 0; i < 5; i++)
		if (s[pos[i] + wid[i]] != sep[i])
			return -1;
	for (int i = 0; i < 6; i++) {
		f[i] = 0;
		for (size_t k = 0; k < wid[i]; k++) {
			char c = s[pos[i] + k];
			if (c < '0' || c > '9')
				return -1;
			f[i] = f[i] * 10 + (c - '0');
		}
	}
	if (f[0] < 1970 || f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > 31 || f[3] > 23 ||
	    f[4] > 59 || f[5] > 60)
		return -1;
	memset(&tm, 0, sizeof tm);
	tm.tm_year = (int)f[0] - 1900;
	tm.tm_mon = (int)f[1] - 1;
	tm.tm_mday = (int)f[2];
	tm.tm_hour = (int)f[3];
	tm.tm_min = (int)f[4];
	tm.tm_sec = (int)f[5];
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t == (time_t)-1 || tm.tm_mday != (int)f[2]) /* Feb 31 and the like */
		return -1;
	*out = (long long)t;
	return 0;
}

/* ---------- the jobcomp file ---------- */

struct rec {
	long long id, limit; /* limit in minutes, -1: none (UNLIMITED, Partition_Limit) */
	long long start, end, nodecnt, proccnt;
	long lineno;
	int ran, final;
	char state[24], start_s[20], end_s[20];
};

static struct rec *recs;
static size_t n_recs, cap_recs;
static long n_lines;

static const char *const FINAL[] = {"COMPLETED", "FAILED",    "TIMEOUT",       "CANCELLED",
                                    "NODE_FAIL", "PREEMPTED", "OUT_OF_MEMORY", "BOOT_FAIL",
                                    "DEADLINE",  NULL};

/* At *p, "KEY=" then a value of non-blank bytes; on success the value is
 * [*v, *v + *vn) and *p is moved past it. */
static int field(const char **p, const char *key, const char **v, size_t *vn)
{
	size_t kl = strlen(key);
	if (strncmp(*p, key, kl) != 0 || (*p)[kl] != '=')
		return -1;
	*v = *p + kl + 1;
	*vn = strcspn(*v, " \t\r\n");
	*p = *v + *vn;
	return 0;
}

/* The fixed run from JobState= to " WorkDir=", at p (just after a space). */
static int parse_run(const char *p, struct rec *r)
{
	static const char *const keys[] = {"JobState", "Partition", "TimeLimit", "StartTime",
	                                   "EndTime",  "NodeList",  "NodeCnt",   "ProcCnt"};
	const char *v[8];
	size_t vn[8];
	for (int i = 0; i < 8; i++) {
		if (field(&p, keys[i], &v[i], &vn[i]) != 0 || *p != ' ')
			return -1;
		p++;
	}
	if (strncmp(p, "WorkDir=", 8) != 0)
		return -1;
	if (vn[0] == 0 || vn[0] >= sizeof r->state)
		return -1;
	for (size_t i = 0; i < vn[0]; i++)
		if (!((v[0][i] >= 'A' && v[0][i] <= 'Z') || v[0][i] == '_'))
			return -1;
	memcpy(r->state, v[0], vn[0]);
	r->state[vn[0]] = '\0';
	if (vn[2] == 9 && strncmp(v[2], "UNLIMITED", 9) == 0)
		r->limit = -1;
	else if (vn[2] == 15 && strncmp(v[2], "Partition_Limit", 15) == 0)
		r->limit = -1;
	else if (parse_num_n(v[2], vn[2], 0, MAXMIN, &r->limit) != 0)
		return -1;
	if (parse_time(v[3], vn[3], &r->start) != 0 || parse_time(v[4], vn[4], &r->end) != 0)
		return -1;
	memcpy(r->start_s, v[3], 19);
	r->start_s[19] = '\0';
	memcpy(r->end_s, v[4], 19);
	r->end_s[19] = '\0';
	if (parse_num_n(v[6], vn[6], 0, MAXCPUS, &r->nodecnt) != 0 ||
	    parse_num_n(v[7], vn[7], 0, MAXCPUS, &r->proccnt) != 0)
		return -1;
	r->ran = r->proccnt > 0 && r->nodecnt > 0 && vn[5] > 0 &&
	         !(vn[5] == 6 && strncmp(v[5], "(null)", 6) == 0);
	r->final = 0;
	for (int i = 0; FINAL[i]; i++)
		if (strcmp(r->state, FINAL[i]) == 0)
			r->final = 1;
	return 0;
}

/* One line -> *r; 0 on success, -1 (with *why) if it is not a jobcomp line. */
static int parse_line(const char *line, struct rec *r, const char **why)
{
	const char *p = line, *v, *name, *c;
	size_t vn;
	if (field(&p, "JobId", &v, &vn) != 0 || *p != ' ') {
		*why = "does not start with JobId=";
		return -1;
	}
	if (parse_num_n(v, vn, 1, MAXID, &r->id) != 0) {
		*why = "bad JobId";
		return -1;
	}
	name = strstr(p, " Name=");
	if (!name) {
		*why = "no Name=";
		return -1;
	}
	for (c = strstr(name, " JobState="); c; c = strstr(c + 1, " JobState="))
		if (parse_run(c + 1, r) == 0)
			return 0;
	*why = "no valid JobState= ... ProcCnt= WorkDir= run after Name= (bad state, limit, "
	       "time or count)";
	return -1;
}

static int read_jobcomp(void)
{
	FILE *f = fopen(opt.jobcomp, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	if (!f) {
		fprintf(stderr, "slurm_check: cannot read --jobcomp %s: %s\n", opt.jobcomp,
		        strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		struct rec r;
		const char *why = "";
		n_lines++;
		if ((size_t)n != strlen(line)) {
			violation("malformed", -1, "line %ld holds a NUL byte", n_lines);
			continue;
		}
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0)
			continue;
		memset(&r, 0, sizeof r);
		if (parse_line(line, &r, &why) != 0) {
			violation("malformed", -1, "line %ld: %s: %.80s", n_lines, why, line);
			continue;
		}
		r.lineno = n_lines;
		if (r.end < r.start) {
			violation("malformed", r.id, "line %ld: EndTime=%s before StartTime=%s", n_lines,
			          r.end_s, r.start_s);
			continue;
		}
		if (n_recs == cap_recs) {
			cap_recs = cap_recs ? 2 * cap_recs : 64;
			recs = xrealloc(recs, cap_recs * sizeof *recs);
		}
		recs[n_recs++] = r;
	}
	if (ferror(f)) {
		fprintf(stderr, "slurm_check: error reading %s: %s\n", opt.jobcomp, strerror(errno));
		free(line);
		fclose(f);
		return -1;
	}
	free(line);
	fclose(f);
	return 0;
}

/* ---------- the side files ---------- */

struct idv {
	long long id, ms; /* ms: the decision's time (--decisions) */
	long lineno;
};

static int cmp_idv(const void *a, const void *b)
{
	const struct idv *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	if (x->ms != y->ms)
		return x->ms < y->ms ? -1 : 1;
	return (x->lineno > y->lineno) - (x->lineno < y->lineno);
}

/* "SECONDS[.FRACTION]" -> ms (the fraction truncated to ms). */
static int parse_secs(const char *s, long long *ms)
{
	const char *dot = strchr(s, '.');
	long long sec, frac = 0;
	size_t il = dot ? (size_t)(dot - s) : strlen(s);
	if (parse_num_n(s, il, 0, MAXSEC, &sec) != 0)
		return -1;
	if (dot) {
		const char *d = dot + 1;
		long long scale = 100;
		if (!*d)
			return -1;
		for (; *d; d++) {
			if (*d < '0' || *d > '9')
				return -1;
			frac += (*d - '0') * scale;
			scale /= 10;
		}
	}
	*ms = sec * 1000 + frac;
	return 0;
}

/* Read FILE of lines "ID" (words == 1) or "ID SECONDS" (words == 2); blank
 * lines and lines starting with '#' are skipped. Sorted by id on return. */
static int read_ids(const char *path, const char *what, int words, struct idv **out, size_t *nout)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, n = 0, c = 0;
	long lineno = 0;
	struct idv *v = NULL;
	if (!f) {
		fprintf(stderr, "slurm_check: cannot read %s %s: %s\n", what, path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) >= 0) {
		char *w[3], *save = NULL;
		int k = 0;
		lineno++;
		for (char *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save))
			if (k < 3)
				w[k++] = t;
			else
				k = 4;
		if (k == 0 || w[0][0] == '#')
			continue;
		if (n == c)
			v = xrealloc(v, (c = c ? 2 * c : 64) * sizeof *v);
		v[n].lineno = lineno;
		v[n].ms = 0;
		if (k != words || parse_num(w[0], 1, MAXID, &v[n].id) != 0 ||
		    (words == 2 && parse_secs(w[1], &v[n].ms) != 0)) {
			fprintf(stderr, "slurm_check: %s %s line %ld: wanted '%s'\n", what, path, lineno,
			        words == 2 ? "ID UNIX_SECONDS" : "ID");
			free(line);
			free(v);
			fclose(f);
			return -1;
		}
		n++;
	}
	free(line);
	fclose(f);
	if (n)
		qsort(v, n, sizeof *v, cmp_idv);
	*out = v;
	*nout = n;
	return 0;
}

static const struct idv *find_id(const struct idv *v, size_t n, long long id)
{
	size_t lo = 0, hi = n; /* the first entry with this id */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].id == id ? &v[lo] : NULL;
}

/* ---------- checks ---------- */

static int has_line(long long id)
{
	size_t lo = 0, hi = n_recs; /* recs sorted by id */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (recs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n_recs && recs[lo].id == id;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->lineno > y->lineno) - (x->lineno < y->lineno);
}

struct ev {
	long long t, cpus;
	size_t rec; /* index in recs */
	int start;
};

static int cmp_ev(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->start != y->start)
		return x->start - y->start; /* ends first: [S, E) */
	return (x->rec > y->rec) - (x->rec < y->rec);
}

static long long max_busy;

static void check_capacity(void)
{
	struct ev *ev = xrealloc(NULL, 2 * n_recs * sizeof *ev);
	size_t *active = xrealloc(NULL, n_recs * sizeof *active), n_active = 0, n = 0;
	long long busy = 0;
	for (size_t i = 0; i < n_recs; i++) {
		if (!recs[i].ran || recs[i].end == recs[i].start)
			continue;
		ev[n++] = (struct ev){recs[i].start, recs[i].proccnt, i, 1};
		ev[n++] = (struct ev){recs[i].end, recs[i].proccnt, i, 0};
	}
	if (n)
		qsort(ev, n, sizeof *ev, cmp_ev);
	for (size_t k = 0; k < n; k++) {
		if (!ev[k].start) {
			busy -= ev[k].cpus;
			for (size_t a = 0; a < n_active; a++)
				if (active[a] == ev[k].rec) {
					active[a] = active[--n_active];
					break;
				}
			continue;
		}
		busy += ev[k].cpus;
		active[n_active++] = ev[k].rec;
		if (busy > max_busy)
			max_busy = busy;
		if (busy > opt.cpus) {
			char held[512];
			size_t len = 0;
			held[0] = '\0';
			for (size_t a = 0; a < n_active && len < sizeof held - 40; a++) {
				int w = snprintf(held + len, sizeof held - len, "%s%lld(%lld)", a ? " " : "",
				                 recs[active[a]].id, recs[active[a]].proccnt);
				if (w < 0)
					break;
				len += (size_t)w;
			}
			if (len >= sizeof held - 40)
				snprintf(held + sizeof held - 40, 40, " ...");
			violation("capacity", recs[ev[k].rec].id,
			          "from StartTime=%s %lld of %lld CPUs busy, held by jobs %s",
			          recs[ev[k].rec].start_s, busy, opt.cpus, held);
		}
	}
	free(ev);
	free(active);
}

static void check_limits(const struct rec *r)
{
	long long d_ms = (r->end - r->start) * 1000, lim_ms, hi_ms;
	if (!r->ran)
		return;
	if (r->limit < 0) {
		if (strcmp(r->state, "TIMEOUT") == 0)
			violation("timeout", r->id, "JobState=TIMEOUT without a time limit (line %ld)",
			          r->lineno);
		return;
	}
	lim_ms = r->limit * 60000;
	hi_ms = lim_ms + opt.slack * 1000 + opt.tolerance;
	if (strcmp(r->state, "TIMEOUT") == 0) {
		if (d_ms < lim_ms - opt.tolerance || d_ms > hi_ms)
			violation("timeout", r->id,
			          "ran %lld s (StartTime=%s EndTime=%s), its limit is %lld min: wanted "
			          "%lld..%lld ms",
			          d_ms / 1000, r->start_s, r->end_s, r->limit, lim_ms - opt.tolerance, hi_ms);
	} else if (d_ms > hi_ms) {
		violation("overlimit", r->id,
		          "JobState=%s ran %lld s (StartTime=%s EndTime=%s), over its limit of %lld min "
		          "by more than %lld s + %lld ms",
		          r->state, d_ms / 1000, r->start_s, r->end_s, r->limit, opt.slack, opt.tolerance);
	}
}

int main(int argc, char **argv)
{
	struct idv *exp = NULL, *dec = NULL;
	size_t n_exp = 0, n_dec = 0, n_jobs = 0, n_ran = 0;
	long long worst_ms = -1, worst_id = 0;
	for (int i = 1; i < argc; i += 2) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
			usage("an independent checker of a bridge session on Slurm");
		if (!v)
			usage("every option takes a value");
		if (strcmp(a, "--jobcomp") == 0)
			opt.jobcomp = v;
		else if (strcmp(a, "--decisions") == 0)
			opt.decisions = v;
		else if (strcmp(a, "--expect-ids") == 0)
			opt.expect = v;
		else if (strcmp(a, "--cpus") == 0) {
			if (parse_num(v, 1, MAXCPUS, &opt.cpus) != 0)
				usage("--cpus wants a positive number");
		} else if (strcmp(a, "--tolerance") == 0) {
			if (parse_num(v, 0, 86400000, &opt.tolerance) != 0)
				usage("--tolerance wants milliseconds, 0..86400000");
		} else if (strcmp(a, "--timeout-slack") == 0) {
			if (parse_num(v, 0, 86400, &opt.slack) != 0)
				usage("--timeout-slack wants seconds, 0..86400");
		} else
			usage("unknown option");
	}
	if (!opt.jobcomp)
		usage("--jobcomp FILE is required");
	if (opt.cpus < 0)
		usage("--cpus N is required");
	if ((opt.expect && read_ids(opt.expect, "--expect-ids", 1, &exp, &n_exp) != 0) ||
	    (opt.decisions && read_ids(opt.decisions, "--decisions", 2, &dec, &n_dec) != 0) ||
	    read_jobcomp() != 0) {
		free(exp);
		free(dec);
		free(recs);
		return 2;
	}
	if (n_recs)
		qsort(recs, n_recs, sizeof *recs, cmp_rec);

	/* Per job: its lines are recs[i..j). */
	for (size_t i = 0, j; i < n_recs; i = j) {
		const struct rec *ran = NULL;
		const struct idv *d = dec ? find_id(dec, n_dec, recs[i].id) : NULL;
		long long id = recs[i].id;
		for (j = i; j < n_recs && recs[j].id == id; j++) {
			if (!recs[j].final)
				violation("requeued", id,
				          "line %ld has JobState=%s, not a final state (Slurm requeued it)",
				          recs[j].lineno, recs[j].state);
			if (recs[j].ran && !ran)
				ran = &recs[j];
			check_limits(&recs[j]);
		}
		n_jobs++;
		if (j - i > 1)
			violation("twice", id, "%zu jobcomp lines (lines %ld and %ld%s): a job ends once",
			          j - i, recs[i].lineno, recs[i + 1].lineno, j - i > 2 ? ", ..." : "");
		if (ran)
			n_ran++;
		if (opt.expect && !find_id(exp, n_exp, id)) {
			if (ran)
				violation("unexpected", id,
				          "ran (StartTime=%s, %s) but is not in --expect-ids", ran->start_s,
				          ran->state);
		} else if (opt.expect && !ran) {
			violation("not_run", id, "expected to run, but its line has no start (JobState=%s "
			          "NodeCnt=%lld ProcCnt=%lld)", recs[i].state, recs[i].nodecnt,
			          recs[i].proccnt);
		}
		if (opt.decisions && ran) {
			if (!d) {
				violation("undecided", id, "started at %s but is not in --decisions",
				          ran->start_s);
			} else {
				long long late = ran->start * 1000 - d->ms;
				if (ran->start < d->ms / 1000)
					violation("early", id, "StartTime=%s (%lld) is before its decision at %lld.%03lld",
					          ran->start_s, ran->start, d->ms / 1000, d->ms % 1000);
				else if (late > opt.tolerance)
					violation("late", id,
					          "StartTime=%s (%lld) is %lld ms after its decision at "
					          "%lld.%03lld (tolerance %lld ms)",
					          ran->start_s, ran->start, late, d->ms / 1000, d->ms % 1000,
					          opt.tolerance);
				if (late > worst_ms) {
					worst_ms = late;
					worst_id = id;
				}
			}
		}
	}
	/* Jobs expected, or decided, that have no line at all. */
	for (size_t k = 0; k < n_exp; k++)
		if ((k == 0 || exp[k].id != exp[k - 1].id) && !has_line(exp[k].id))
			violation("missing", exp[k].id, "in --expect-ids but has no jobcomp line");
	for (size_t k = 0; k < n_dec; k++)
		if ((k == 0 || dec[k].id != dec[k - 1].id) && !has_line(dec[k].id) &&
		    !(opt.expect && find_id(exp, n_exp, dec[k].id)))
			violation("missing", dec[k].id,
			          "its start was decided at %lld.%03lld but it has no jobcomp line",
			          dec[k].ms / 1000, dec[k].ms % 1000);
	check_capacity();

	printf("slurm_check: %ld lines, %zu jobs, %zu ran, %lld violations; max busy %lld of %lld CPUs",
	       n_lines, n_jobs, n_ran, n_violations, max_busy, opt.cpus);
	if (opt.decisions) {
		if (worst_ms >= 0)
			printf("; worst start delay %lld ms (job %lld)", worst_ms, worst_id);
		else
			printf("; no decided start");
	}
	printf("\n");
	free(exp);
	free(dec);
	free(recs);
	return n_violations ? 1 : 0;
}
