/* SPDX-License-Identifier: MIT */
/*
 * An independent checker of replayed schedules. It reads what the replayer
 * wrote (--jobs-out, and --events-out for the policy properties) and never
 * calls the core: shadow times, extra nodes, capacities, tolerances, slacks
 * and queue limits are recomputed here from the log and the published
 * formulas alone (the site file is read with the replayer's parser).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site.h"
#include "swf.h"
#include "violation.h"

struct cj {
	long id, submit, wait, run, procs, est, status;
	long start;      /* from the events log */
	long pred;       /* guarantee given at submit, -1 when none */
	long bound;      /* latest start the policy allows (relaxed, slack); -1 when unbounded */
	long queue, user, part;
	long up, pp;     /* thousandths; pp -1 = over quota */
	int state;       /* 0 unseen, 1 waiting, 2 running, 3 done */
	size_t arrival;  /* position in submit order */
};

/* What the checker knows of the policy's parameters and the site. */
static struct {
	long tolerance, tolerance_permille;  /* relaxed */
	long sf_milli, awt;                  /* slack */
	struct site site;
	bool have_site;
	/* Guarantees can only be kept while no queue outranks another and no running limit holds
	 * a job back (a held job is re-planned later; a higher queue goes ahead of a lower one). */
	bool guarantees;
} cfg = {.sf_milli = 3000, .awt = 2401, .guarantees = true};

static struct cj *jobs;
static size_t n_jobs;
static long machine;

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
		struct cj *j = find((long)t.jobs[i].job);
		if (j == NULL)
			continue; /* skipped by the conventions */
		long run = t.jobs[i].run;
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

enum pol { P_FCFS, P_EASY, P_CONS, P_RELAXED, P_SLACK, P_FAMILY };

/* The queueing checks (head order, EASY's shadow) assume one queue and one partition. */
static bool queueing_checks(enum pol pol)
{
	return (pol == P_FCFS || pol == P_EASY) && !cfg.have_site;
}

/* At the end of an instant: the head must not fit (FCFS, EASY); EASY must not have missed a backfill. */
static void end_of_instant(enum pol pol, long t)
{
	if (!queueing_checks(pol))
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

/* Running jobs per (queue, user), for the per-user limits. */
struct qu {
	long queue, user, running;
};
static struct qu *qus;
static size_t n_qus, cap_qus;

static long *qu_count(long queue, long user)
{
	for (size_t i = 0; i < n_qus; i++)
		if (qus[i].queue == queue && qus[i].user == user)
			return &qus[i].running;
	if (n_qus == cap_qus) {
		cap_qus = cap_qus ? 2 * cap_qus : 64;
		struct qu *grown = realloc(qus, cap_qus * sizeof *qus);
		if (grown == NULL) {
			fprintf(stderr, "checker: out of memory\n");
			exit(2);
		}
		qus = grown;
	}
	qus[n_qus] = (struct qu){queue, user, 0};
	return &qus[n_qus++].running;
}

static long queue_held[SCHED_MAX_QUEUES], part_held[SCHED_MAX_PARTITIONS];

/*
 * Seed 003 section 2.2, recomputed: SP from the wait the placement gave,
 * p = (UP + PP + SP) / 3, s0 = (1 - p) SF AWT, in the thousandths the
 * replayer documents (docs/priorities.md). -1: infinite (over quota).
 */
static long initial_slack(const struct cj *j, long t)
{
	if (j->pp < 0)
		return -1;
	long long sp = (long long)(j->pred - t) * 1000 / (2 * cfg.awt);
	if (sp > 1000)
		sp = 1000;
	long long prio3 = j->up + j->pp + sp;
	return (long)((3000 - prio3) * cfg.sf_milli * cfg.awt / 3000000);
}

/* A job's planned or actual start must respect the policy's bound. */
static void check_bound(const struct cj *j, long at, const char *what)
{
	if (j->bound >= 0 && at > j->bound)
		violation("job %ld %s at %ld, past its bound %ld (guarantee %ld)", j->id, what, at, j->bound, j->pred);
}

/* Split a line into words; returns how many. */
static int words(char *line, char **w, int max)
{
	int n = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t\n", &save); t && n < max; t = strtok_r(NULL, " \t\n", &save))
		w[n++] = t;
	return n;
}

static const char *option_of(char **w, int n, int from, const char *key)
{
	size_t k = strlen(key);
	for (int i = from; i < n; i++)
		if (strncmp(w[i], key, k) == 0 && w[i][k] == '=')
			return w[i] + k + 1;
	return NULL;
}

static bool outside_ranges(const struct sched_queue_cfg *qc, long procs, long est)
{
	return (qc->min_procs && procs < (long)qc->min_procs) || (qc->max_procs && procs > (long)qc->max_procs) ||
	       (qc->min_time && est < (long)qc->min_time) || (qc->max_time && est > (long)qc->max_time) ||
	       (qc->proc_cap && procs > (long)qc->proc_cap);
}

/* A refused submit: with a site and reason "limits", the job must be outside its queue's ranges. */
static void check_refusal(char **w, int n)
{
	if (n < 7) {
		violation("events: refused submit without a reason");
		return;
	}
	if (strcmp(w[6], "limits") != 0 || !cfg.have_site)
		return;
	const char *q = option_of(w, n, 7, "q");
	long queue = q ? strtol(q, NULL, 10) : -1;
	if (queue < 0 || queue >= cfg.site.cfg.n_queues) {
		violation("events: refusal by limits without a valid q=");
		return;
	}
	if (!outside_ranges(&cfg.site.cfg.queues[queue], strtol(w[3], NULL, 10), strtol(w[4], NULL, 10)))
		violation("job %s refused by its queue's limits but inside them", w[2]);
}

/* A start under a site: partitions, the queue's ranges and running limits. */
static void check_site_start(const struct cj *j, long t)
{
	const struct site *st = &cfg.site;
	const struct sched_queue_cfg *qc = &st->cfg.queues[j->queue];
	if (outside_ranges(qc, j->procs, j->est))
		violation("job %ld started in queue %s outside its ranges", j->id, st->queue_name[j->queue]);
	if (qc->partitions && !(qc->partitions & (1u << j->part)))
		violation("job %ld started in partition %ld, closed to queue %s", j->id, j->part,
			  st->queue_name[j->queue]);
	if (st->cfg.n_partitions > 0 && part_held[j->part] > (long)st->cfg.partition_procs[j->part])
		violation("%ld processors in use in partition %s at %ld, of %u", part_held[j->part],
			  st->part_name[j->part], t, st->cfg.partition_procs[j->part]);
	if (qc->proc_cap && queue_held[j->queue] > (long)qc->proc_cap)
		violation("queue %s holds %ld processors at %ld, cap %u", st->queue_name[j->queue],
			  queue_held[j->queue], t, qc->proc_cap);
	long mine = *qu_count(j->queue, j->user);
	if (qc->max_running_per_user && mine > (long)qc->max_running_per_user)
		violation("user %ld runs %ld jobs in queue %s at %ld, limit %u", j->user, mine,
			  st->queue_name[j->queue], t, qc->max_running_per_user);
}

/* A submit line: the guarantee, the site and priority fields, and the bound the policy promises. */
static void on_submit(struct cj *j, enum pol pol, char **w, int nw, long t)
{
	if (j->state != 0)
		violation("job %ld submitted twice", j->id);
	j->state = 1;
	j->arrival = n_arrivals;
	arrivals[n_arrivals++] = (size_t)(j - jobs);
	j->pred = (nw >= 6 && strcmp(w[5], "-") != 0) ? strtol(w[5], NULL, 10) : -1;
	const char *v;
	if ((v = option_of(w, nw, 6, "q")) != NULL)
		j->queue = strtol(v, NULL, 10);
	if ((v = option_of(w, nw, 6, "u")) != NULL)
		j->user = strtol(v, NULL, 10);
	if ((v = option_of(w, nw, 6, "up")) != NULL)
		j->up = strtol(v, NULL, 10);
	if ((v = option_of(w, nw, 6, "pp")) != NULL)
		j->pp = strcmp(v, "over") == 0 ? -1 : strtol(v, NULL, 10);
	if (cfg.have_site && (j->queue < 0 || j->queue >= cfg.site.cfg.n_queues)) {
		violation("job %ld: submit without a valid q=", j->id);
		j->queue = 0;
	}
	j->bound = -1;
	if (pol == P_RELAXED && j->pred >= 0 && cfg.guarantees)
		j->bound = j->pred + cfg.tolerance + cfg.tolerance_permille * j->est / 1000;
	if (pol == P_SLACK && j->pred >= 0 && cfg.guarantees) {
		long s0 = initial_slack(j, t);
		j->bound = s0 < 0 ? -1 : j->pred + s0;
	}
	if (j->pred >= 0 && j->pred < t)
		violation("job %ld promised a start %ld before its submit %ld", j->id, j->pred, t);
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
	char line[512];
	long cur = -1;
	/* EASY pass state: shadow and extra of the current pass, valid while pass_open. */
	bool pass_open = false;
	long pass_shadow = 0, pass_extra = 0;
	struct cj *last_head = NULL;
	/* Under conservative without queue priorities no guarantee is ever broken. */
	bool cons_guarantee = pol == P_CONS && cfg.guarantees;
	while (fgets(line, sizeof line, f)) {
		char *w[16];
		int nw = words(line, w, 16);
		if (nw < 3) {
			violation("events: malformed line '%s'", line);
			continue;
		}
		long t = strtol(w[0], NULL, 10), id = strtol(w[2], NULL, 10);
		const char *kind = w[1];
		if (t < cur)
			violation("events: time goes back from %ld to %ld", cur, t);
		if (t != cur && cur >= 0)
			end_of_instant(pol, cur);
		if (t != cur)
			pass_open = false;
		cur = t;
		bool is_submit = strcmp(kind, "submit") == 0;
		if (is_submit && nw >= 6 && strcmp(w[5], "refused") == 0) {
			check_refusal(w, nw);
			if (find(id) != NULL)
				violation("job %ld refused but in the schedule", id);
			continue;
		}
		struct cj *j = find(id);
		if (j == NULL) {
			violation("events: unknown job %ld", id);
			continue;
		}
		bool is_start = strcmp(kind, "start") == 0;
		if (!is_start)
			pass_open = false;
		if (is_submit) {
			on_submit(j, pol, w, nw, t);
		} else if (strcmp(kind, "plan") == 0) {
			if (j->state != 1 || nw < 4) {
				violation("job %ld: plan line while not waiting", id);
				continue;
			}
			long at = strtol(w[3], NULL, 10);
			if (at < t)
				violation("job %ld planned at %ld, in the past (%ld)", id, at, t);
			if (cons_guarantee && j->pred >= 0 && at > j->pred)
				violation("conservative: job %ld planned at %ld after its guarantee %ld", id, at, j->pred);
			check_bound(j, at, "planned");
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
			const char *pv = option_of(w, nw, 4, "p");
			j->part = pv ? strtol(pv, NULL, 10) : 0;
			if (j->part < 0 || j->part >= SCHED_MAX_PARTITIONS) {
				violation("job %ld: bad partition %ld", id, j->part);
				j->part = 0;
			}
			if (cons_guarantee && j->pred >= 0 && t > j->pred)
				violation("conservative: job %ld started at %ld after its guarantee %ld", id, t, j->pred);
			check_bound(j, t, "started");
			struct cj *h = queueing_checks(pol) ? head() : NULL;
			if (h == NULL) {
				/* no queueing order to check */
			} else if (j == h) {
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
			if (cfg.have_site) {
				(*qu_count(j->queue, j->user))++;
				queue_held[j->queue] += j->procs;
				part_held[j->part] += j->procs;
				check_site_start(j, t);
			}
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
			if (cfg.have_site) {
				(*qu_count(j->queue, j->user))--;
				queue_held[j->queue] -= j->procs;
				part_held[j->part] -= j->procs;
			}
		} else {
			violation("events: unknown kind '%s'", kind);
		}
		/* A job that has just become the head: remember the shadow time it was promised. */
		struct cj *h = queueing_checks(pol) ? head() : NULL;
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
	free(qus);
}

int main(int argc, char **argv)
{
	const char *policy = NULL, *events = NULL, *trace = NULL, *out = NULL, *site = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--policy") == 0 && i + 1 < argc)
			policy = argv[++i];
		else if (strcmp(argv[i], "--site") == 0 && i + 1 < argc)
			site = argv[++i];
		else if (strcmp(argv[i], "--tolerance") == 0 && i + 1 < argc)
			cfg.tolerance = strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--tolerance-permille") == 0 && i + 1 < argc)
			cfg.tolerance_permille = strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--sf-milli") == 0 && i + 1 < argc)
			cfg.sf_milli = strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--awt") == 0 && i + 1 < argc)
			cfg.awt = strtol(argv[++i], NULL, 10);
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
		fprintf(stderr, "usage: checker --policy fcfs|easy|cons|relaxed|slack|fcfs-replan|sjf|ljf|dynp-basic|dynp\n"
				"               [--events LOG] [--trace SWF]\n"
				"               [--site FILE] [--tolerance S] [--tolerance-permille P]\n"
				"               [--sf-milli M] [--awt S] JOBS_OUT\n");
		return 2;
	}
	if (strcmp(policy, "fcfs") == 0)
		pol = P_FCFS;
	else if (strcmp(policy, "easy") == 0)
		pol = P_EASY;
	else if (strcmp(policy, "cons") == 0)
		pol = P_CONS;
	else if (strcmp(policy, "relaxed") == 0)
		pol = P_RELAXED;
	else if (strncmp(policy, "slack", 5) == 0)
		pol = P_SLACK;
	else if (strcmp(policy, "fcfs-replan") == 0 || strcmp(policy, "sjf") == 0 || strcmp(policy, "ljf") == 0 ||
		 strncmp(policy, "dynp", 4) == 0)
		pol = P_FAMILY; /* no guarantee to check: the generic properties only */
	else {
		fprintf(stderr, "checker: unknown policy %s\n", policy);
		return 2;
	}
	struct swf_trace t;
	char err[512];
	if (site != NULL) {
		if (site_load(site, &cfg.site, err, sizeof err) != 0) {
			fprintf(stderr, "checker: %s\n", err);
			return 2;
		}
		cfg.have_site = true;
		for (unsigned q = 0; q < cfg.site.cfg.n_queues; q++) {
			const struct sched_queue_cfg *qc = &cfg.site.cfg.queues[q];
			if (qc->priority != cfg.site.cfg.queues[0].priority || qc->max_running_per_user ||
			    qc->proc_cap || qc->background)
				cfg.guarantees = false;
		}
	}
	if (swf_read(out, &t, err, sizeof err) != 0) {
		fprintf(stderr, "checker: %s\n", err);
		return 2;
	}
	machine = swf_machine_size(&t.hdr);
	n_jobs = t.n;
	jobs = calloc(n_jobs, sizeof *jobs);
	for (size_t i = 0; i < n_jobs; i++) {
		double v[SWF_FIELDS];
		swf_job_values(&t, i, v); /* field 3, the wait, is not in the job record */
		jobs[i] = (struct cj){
			.id = (long)v[SWF_JOB], .submit = (long)v[SWF_SUBMIT], .wait = (long)v[SWF_WAIT],
			.run = (long)v[SWF_RUN], .procs = (long)v[SWF_ALLOC_PROCS], .est = (long)v[SWF_REQ_TIME],
			.status = (long)v[SWF_STATUS], .pred = -1, .arrival = i, .bound = -1,
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
	if (pol == P_FCFS && !cfg.have_site)
		check_fcfs_order();
	if (events)
		replay_events(events, pol);
	if (violations) {
		printf("%d violations in %zu jobs\n", violations, n_jobs);
		return 1;
	}
	printf("ok: %zu jobs, policy %s%s%s%s\n", n_jobs, policy, events ? ", events checked" : "",
	       trace ? ", run times checked" : "", cfg.have_site ? ", site limits checked" : "");
	free(jobs);
	site_free(&cfg.site);
	return 0;
}
