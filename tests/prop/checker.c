/* SPDX-License-Identifier: MIT */
/*
 * An independent checker of replayed schedules. It reads what the replayer
 * wrote (--jobs-out, and --events-out for the policy properties) and never
 * calls the core: shadow times, extra nodes and capacities are recomputed
 * here from processors and estimates alone.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swf.h"

struct cj {
	long id, submit, wait, run, procs, est, status;
	long start;      /* from the events log */
	long pred;       /* guarantee given at submit, -1 when none */
	int state;       /* 0 unseen, 1 waiting, 2 running, 3 done */
	size_t arrival;  /* position in submit order */
};

static struct cj *jobs;
static size_t n_jobs;
static long machine;
static int violations;

static void violation(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (violations < 20) {
		fputs("violation: ", stdout);
		vprintf(fmt, ap);
		fputc('\n', stdout);
	}
	va_end(ap);
	violations++;
}

static int by_id(const void *a, const void *b)
{
	const struct cj *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

static struct cj *find(long id)
{
	struct cj key = {.id = id};
	return bsearch(&key, jobs, n_jobs, sizeof *jobs, by_id);
}

struct interval {
	long t;
	long delta;
};

static int by_time_ends_first(const void *a, const void *b)
{
	const struct interval *x = a, *y = b;
	if (x->t != y->t)
		return (x->t > y->t) - (x->t < y->t);
	return (x->delta > y->delta) - (x->delta < y->delta); /* negative (ends) first */
}

/* Basic sanity of every job and the processor count over time. */
static void check_jobs_out(void)
{
	struct interval *ev = malloc(2 * n_jobs * sizeof *ev);
	size_t n = 0;
	for (size_t i = 0; i < n_jobs; i++) {
		const struct cj *j = &jobs[i];
		if (j->wait < 0)
			violation("job %ld starts before it is submitted (wait %ld)", j->id, j->wait);
		if (j->run < 0 || j->run > j->est)
			violation("job %ld ran %ld s with estimate %ld s", j->id, j->run, j->est);
		if (j->status == 0 && j->run != j->est)
			violation("job %ld killed after %ld s, not at its estimate %ld s", j->id, j->run, j->est);
		if (j->procs < 1 || j->procs > machine)
			violation("job %ld uses %ld processors on a machine of %ld", j->id, j->procs, machine);
		ev[n++] = (struct interval){j->submit + j->wait, j->procs};
		ev[n++] = (struct interval){j->submit + j->wait + j->run, -j->procs};
	}
	qsort(ev, n, sizeof *ev, by_time_ends_first);
	long busy = 0;
	for (size_t i = 0; i < n; i++) {
		busy += ev[i].delta;
		if (busy > machine) {
			violation("%ld processors in use at %ld on a machine of %ld", busy, ev[i].t, machine);
			break;
		}
	}
	free(ev);
}

/* Each job ran min(its trace run time, its estimate): no early cut, no overrun. */
static void check_against_trace(const char *path)
{
	struct swf_trace t;
	char err[512];
	if (swf_read(path, &t, err, sizeof err) != 0) {
		fprintf(stderr, "checker: %s\n", err);
		exit(2);
	}
	for (size_t i = 0; i < t.n; i++) {
		struct cj *j = find((long)t.jobs[i].v[SWF_JOB]);
		if (j == NULL)
			continue; /* skipped by the conventions */
		long run = (long)t.jobs[i].v[SWF_RUN];
		long want = run < j->est ? run : j->est;
		if (j->run != want)
			violation("job %ld ran %ld s; trace run %ld s, estimate %ld s", j->id, j->run, run, j->est);
	}
	swf_free(&t);
}

static size_t *order;   /* jobs by arrival, for FCFS */

static int by_arrival(const void *a, const void *b)
{
	const struct cj *x = &jobs[*(const size_t *)a], *y = &jobs[*(const size_t *)b];
	if (x->submit != y->submit)
		return (x->submit > y->submit) - (x->submit < y->submit);
	return (x->arrival > y->arrival) - (x->arrival < y->arrival);
}

/* FCFS: start times never decrease in arrival order. */
static void check_fcfs_order(void)
{
	order = malloc(n_jobs * sizeof *order);
	for (size_t i = 0; i < n_jobs; i++)
		order[i] = i;
	qsort(order, n_jobs, sizeof *order, by_arrival);
	for (size_t k = 1; k < n_jobs; k++) {
		const struct cj *a = &jobs[order[k - 1]], *b = &jobs[order[k]];
		if (b->submit + b->wait < a->submit + a->wait)
			violation("FCFS: job %ld (arrived after job %ld) started first", b->id, a->id);
	}
	free(order);
}

/* --- replaying the events log ------------------------------------------------ */

static size_t *arrivals;   /* job indices in submit-event order */
static size_t n_arrivals;
static size_t head_pos;    /* first position in arrivals that may still wait */
static size_t *running;
static size_t n_running;

static struct cj *head(void)
{
	while (head_pos < n_arrivals && jobs[arrivals[head_pos]].state != 1)
		head_pos++;
	return head_pos < n_arrivals ? &jobs[arrivals[head_pos]] : NULL;
}

static long busy_now(void)
{
	long b = 0;
	for (size_t i = 0; i < n_running; i++)
		b += jobs[running[i]].procs;
	return b;
}

struct end_item {
	long end, procs;
};

static int by_end(const void *a, const void *b)
{
	const struct end_item *x = a, *y = b;
	return (x->end > y->end) - (x->end < y->end);
}

/*
 * Fig. 5 step 1, recomputed: walk the running jobs by expected end (start +
 * estimate) until the head fits; all jobs ending at one instant count together.
 */
static void shadow_of(const struct cj *h, long now, long *shadow, long *extra)
{
	long avail = machine - busy_now();
	if (avail >= h->procs) {
		*shadow = now;
		*extra = avail - h->procs;
		return;
	}
	struct end_item *e = malloc((n_running + 1) * sizeof *e);
	for (size_t i = 0; i < n_running; i++) {
		const struct cj *r = &jobs[running[i]];
		e[i] = (struct end_item){r->start + r->est, r->procs};
	}
	qsort(e, n_running, sizeof *e, by_end);
	*shadow = -1;
	for (size_t i = 0; i < n_running;) {
		long t = e[i].end;
		while (i < n_running && e[i].end == t)
			avail += e[i++].procs;
		if (avail >= h->procs) {
			*shadow = t < now ? now : t;
			*extra = avail - h->procs;
			break;
		}
	}
	free(e);
}

enum pol { P_FCFS, P_EASY, P_CONS };

/* At the end of an instant: the head must not fit (FCFS, EASY); EASY must not have missed a backfill. */
static void end_of_instant(enum pol pol, long t)
{
	if (pol == P_CONS)
		return;
	struct cj *h = head();
	if (h == NULL)
		return;
	long free_now = machine - busy_now();
	if (h->procs <= free_now)
		violation("%s: at %ld head job %ld (%ld procs) fits in %ld free processors but waits",
			  pol == P_FCFS ? "FCFS" : "EASY", t, h->id, h->procs, free_now);
	if (pol != P_EASY)
		return;
	long shadow, extra;
	shadow_of(h, t, &shadow, &extra);
	for (size_t k = head_pos + 1; k < n_arrivals; k++) {
		const struct cj *j = &jobs[arrivals[k]];
		if (j->state != 1)
			continue;
		if (j->procs <= free_now && (t + j->est <= shadow || j->procs <= extra))
			violation("EASY: at %ld job %ld could backfill (shadow %ld, extra %ld) but waits", t,
				  j->id, shadow, extra);
	}
}

static void replay_events(const char *path, enum pol pol)
{
	FILE *f = fopen(path, "r");
	if (f == NULL) {
		perror(path);
		exit(2);
	}
	arrivals = malloc(n_jobs * sizeof *arrivals);
	running = malloc(n_jobs * sizeof *running);
	long *head_shadow = malloc(n_jobs * sizeof *head_shadow);
	for (size_t i = 0; i < n_jobs; i++)
		head_shadow[i] = -1;
	char line[256];
	long cur = -1;
	/* EASY pass state: shadow and extra of the current pass, valid while pass_open. */
	bool pass_open = false;
	long pass_shadow = 0, pass_extra = 0;
	struct cj *last_head = NULL;
	while (fgets(line, sizeof line, f)) {
		long t, id, a, b;
		char kind[16], tail[32] = "";
		int got = sscanf(line, "%ld %15s %ld %ld %ld %31s", &t, kind, &id, &a, &b, tail);
		if (got < 3) {
			violation("events: malformed line '%s'", line);
			continue;
		}
		if (t < cur)
			violation("events: time goes back from %ld to %ld", cur, t);
		if (t != cur && cur >= 0)
			end_of_instant(pol, cur);
		if (t != cur)
			pass_open = false;
		cur = t;
		struct cj *j = find(id);
		if (j == NULL) {
			violation("events: unknown job %ld", id);
			continue;
		}
		bool is_start = strcmp(kind, "start") == 0;
		if (!is_start)
			pass_open = false;
		if (strcmp(kind, "submit") == 0) {
			if (j->state != 0)
				violation("job %ld submitted twice", id);
			j->state = 1;
			j->arrival = n_arrivals;
			arrivals[n_arrivals++] = (size_t)(j - jobs);
			j->pred = (got == 6 && strcmp(tail, "-") != 0) ? strtol(tail, NULL, 10) : -1;
		} else if (is_start) {
			if (j->state != 1) {
				violation("job %ld started while not waiting", id);
				continue;
			}
			if (t != j->submit + j->wait)
				violation("job %ld: events say start %ld, jobs-out %ld", id, t, j->submit + j->wait);
			long free_now = machine - busy_now();
			if (j->procs > free_now)
				violation("job %ld started on %ld processors with %ld free", id, j->procs, free_now);
			struct cj *h = head();
			if (pol == P_CONS && j->pred >= 0 && t > j->pred)
				violation("conservative: job %ld started at %ld after its guarantee %ld", id, t, j->pred);
			if (j == h) {
				pass_open = false; /* the pass computes shadow and extra after the heads */
				if (head_shadow[j - jobs] >= 0 && t > head_shadow[j - jobs])
					violation("EASY: head job %ld started at %ld, after the shadow time %ld", id,
						  t, head_shadow[j - jobs]);
			} else if (pol == P_FCFS) {
				violation("FCFS: job %ld started while job %ld was ahead of it", id, h->id);
			} else if (pol == P_EASY) {
				if (!pass_open) {
					shadow_of(h, t, &pass_shadow, &pass_extra);
					pass_open = true;
				}
				bool by_shadow = t + j->est <= pass_shadow;
				if (!by_shadow && j->procs > pass_extra)
					violation("EASY: job %ld backfilled at %ld ending at %ld past shadow %ld "
						  "with %ld procs > extra %ld", id, t, t + j->est, pass_shadow,
						  j->procs, pass_extra);
				if (!by_shadow)
					pass_extra -= j->procs;
			}
			j->state = 2;
			j->start = t;
			running[n_running++] = (size_t)(j - jobs);
		} else if (strcmp(kind, "end") == 0 || strcmp(kind, "kill") == 0) {
			if (j->state != 2) {
				violation("job %ld ended while not running", id);
				continue;
			}
			long end = j->submit + j->wait + j->run;
			if (t != end)
				violation("job %ld: events say end %ld, jobs-out %ld", id, t, end);
			if (strcmp(kind, "kill") == 0 && t != j->start + j->est)
				violation("job %ld killed at %ld, not at its estimate", id, t);
			j->state = 3;
			for (size_t i = 0; i < n_running; i++)
				if (running[i] == (size_t)(j - jobs)) {
					running[i] = running[--n_running];
					break;
				}
		} else {
			violation("events: unknown kind '%s'", kind);
		}
		/* A job that has just become the head: remember the shadow time it was promised. */
		struct cj *h = head();
		if (h != NULL && h != last_head && pol == P_EASY) {
			long extra;
			shadow_of(h, t, &head_shadow[h - jobs], &extra);
		}
		last_head = h;
	}
	if (cur >= 0)
		end_of_instant(pol, cur);
	fclose(f);
	for (size_t i = 0; i < n_jobs; i++)
		if (jobs[i].state != 3)
			violation("job %ld never finished in the events log", jobs[i].id);
	free(head_shadow);
	free(arrivals);
	free(running);
}

int main(int argc, char **argv)
{
	const char *policy = NULL, *events = NULL, *trace = NULL, *out = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--policy") == 0 && i + 1 < argc)
			policy = argv[++i];
		else if (strcmp(argv[i], "--events") == 0 && i + 1 < argc)
			events = argv[++i];
		else if (strcmp(argv[i], "--trace") == 0 && i + 1 < argc)
			trace = argv[++i];
		else if (out == NULL && argv[i][0] != '-')
			out = argv[i];
		else {
			out = NULL;
			break;
		}
	}
	enum pol pol;
	if (policy == NULL || out == NULL) {
		fprintf(stderr, "usage: checker --policy fcfs|easy|cons [--events LOG] [--trace SWF] JOBS_OUT\n");
		return 2;
	}
	if (strcmp(policy, "fcfs") == 0)
		pol = P_FCFS;
	else if (strcmp(policy, "easy") == 0)
		pol = P_EASY;
	else if (strcmp(policy, "cons") == 0)
		pol = P_CONS;
	else {
		fprintf(stderr, "checker: unknown policy %s\n", policy);
		return 2;
	}
	struct swf_trace t;
	char err[512];
	if (swf_read(out, &t, err, sizeof err) != 0) {
		fprintf(stderr, "checker: %s\n", err);
		return 2;
	}
	machine = swf_machine_size(&t.hdr);
	n_jobs = t.n;
	jobs = calloc(n_jobs, sizeof *jobs);
	for (size_t i = 0; i < n_jobs; i++) {
		const double *v = t.jobs[i].v;
		jobs[i] = (struct cj){
			.id = (long)v[SWF_JOB], .submit = (long)v[SWF_SUBMIT], .wait = (long)v[SWF_WAIT],
			.run = (long)v[SWF_RUN], .procs = (long)v[SWF_ALLOC_PROCS], .est = (long)v[SWF_REQ_TIME],
			.status = (long)v[SWF_STATUS], .pred = -1, .arrival = i,
		};
	}
	swf_free(&t);
	qsort(jobs, n_jobs, sizeof *jobs, by_id);
	for (size_t i = 1; i < n_jobs; i++)
		if (jobs[i].id == jobs[i - 1].id)
			violation("job number %ld appears twice", jobs[i].id);

	check_jobs_out();
	if (trace)
		check_against_trace(trace);
	if (pol == P_FCFS)
		check_fcfs_order();
	if (events)
		replay_events(events, pol);
	if (violations) {
		printf("%d violations in %zu jobs\n", violations, n_jobs);
		return 1;
	}
	printf("ok: %zu jobs, policy %s%s%s\n", n_jobs, policy, events ? ", events checked" : "",
	       trace ? ", run times checked" : "");
	free(jobs);
	return 0;
}
