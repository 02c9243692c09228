/* SPDX-License-Identifier: MIT */
/*
 * An independent checker of gang-scheduled replays (seed 002). It reads the
 * replayer's --jobs-out, its --events-out with the context switch lists
 * (--events-plans) and the trace, never the core, and checks from them alone:
 * every quantum's blocks are aligned buddy blocks of the right size, disjoint
 * and inside the machine; a job keeps its processors for life (shifts move it
 * between slots, never across processors); it runs exactly its quanta, at
 * most once per quantum, first at its start and last a quantum before its
 * end; no quantum is idle, and no slot runs empty, while a job is in the
 * system; and the processor active ratio r_a recomputed from the switch lists
 * matches --ra.
 *
 * With --scheme bc it checks BC's slots as Zhou, Walsh and Brent 2000 (s. 4.1)
 * have them: no re-packing, so a job runs in one and the same slot (the SLOT
 * field, a row of the matrix) all its life; and with --bc-slots keep-one (the
 * default) the last slot is never deleted, so from the first quantum to the
 * last end every quantum runs a slot (idle ones run it empty), while with
 * drop-empty no slot ever runs empty.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swf.h"
#include "violation.h"

struct gj {
	long id, submit, wait, run, procs, est;
	long quanta;            /* min(trace run, estimate) in whole quanta, at least 1 */
	long first, last;       /* first and last quantum it ran in, -1 before */
	long block, size;       /* its processors, -1 before */
	long runs;              /* quanta it ran */
	long start_ev, end_ev;  /* from the start and end events, -1 before */
	long seen;              /* the last quantum it appeared in */
	long row;               /* the slot (matrix row) it last ran in, -1 before */
};

static struct gj *jobs;
static size_t n_jobs;
static long machine, quantum;
static bool bc;        /* --scheme bc: a job never changes slots */

static int by_id(const void *a, const void *b)
{
	const struct gj *x = a, *y = b;
	return (x->id > y->id) - (x->id < y->id);
}

static struct gj *find(long id)
{
	struct gj key = {.id = id};
	struct gj *j = bsearch(&key, jobs, n_jobs, sizeof *jobs, by_id);
	if (j == NULL)
		violation("the log names job %ld, which is not in the schedule", id);
	return j;
}

static void read_swf(const char *path, struct swf_trace *t)
{
	char err[512];
	if (swf_read(path, t, err, sizeof err) != 0) {
		fprintf(stderr, "gang_checker: %s\n", err);
		exit(2);
	}
}

static bool is_pow2(long x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

/* One quantum's context switch list: "T switch SLOT JOB:FIRST:COUNT ...". Returns its runs. */
static long on_switch(long t, char *rest, char *owner, long *busy)
{
	memset(owner, 0, (size_t)machine);
	char *save = NULL;
	const char *slot = strtok_r(rest, " \n", &save);
	long row = slot != NULL ? strtol(slot, NULL, 10) : -1, n = 0;
	for (char *w = strtok_r(NULL, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
		long id, first, count;
		if (sscanf(w, "%ld:%ld:%ld", &id, &first, &count) != 3) {
			violation("at %ld: unreadable run '%s'", t, w);
			continue;
		}
		struct gj *j = find(id);
		if (j == NULL)
			continue;
		if (!is_pow2(count) || first < 0 || first % count != 0 || first + count > machine)
			violation("at %ld: job %ld on %ld..%ld is no aligned buddy block of a %ld-processor machine", t,
				  id, first, first + count - 1, machine);
		else if (!(count / 2 < j->procs && j->procs <= count))
			violation("at %ld: job %ld of %ld processors holds a block of %ld", t, id, j->procs, count);
		if (j->block >= 0 && (j->block != first || j->size != count))
			violation("at %ld: job %ld moved from processors %ld+%ld to %ld+%ld", t, id, j->block, j->size,
				  first, count);
		if (j->seen == t)
			violation("at %ld: job %ld runs twice in one quantum", t, id);
		if (bc && j->row >= 0 && j->row != row)
			violation("at %ld: BC moved job %ld from slot %ld to slot %ld (BC has no re-packing)", t, id,
				  j->row, row);
		if (t < j->submit)
			violation("at %ld: job %ld runs before it arrives at %ld", t, id, j->submit);
		for (long p = first; p < first + count && p < machine && p >= 0; p++) {
			if (owner[p])
				violation("at %ld: processor %ld runs two jobs", t, p);
			owner[p] = 1;
		}
		if (j->first < 0)
			j->first = t;
		j->last = t;
		j->block = first;
		j->size = count;
		j->seen = t;
		j->row = row;
		j->runs++;
		n++;
		*busy += j->procs;
	}
	return n;
}

/* Is a job in the system at boundary t (placed by then, not yet ended)? Its id, or -1. */
static long someone_at(long t, long origin)
{
	for (size_t i = 0; i < n_jobs; i++) {
		long end = jobs[i].submit + jobs[i].wait + jobs[i].run;
		long first_boundary = origin + (jobs[i].submit - origin + quantum - 1) / quantum * quantum;
		if (first_boundary <= t && end > t)
			return jobs[i].id;
	}
	return -1;
}

int main(int argc, char **argv)
{
	const char *events = NULL, *trace = NULL, *out = NULL;
	double ra = -1;
	const char *scheme = "", *bc_slots = "keep-one";
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--quantum") == 0 && i + 1 < argc)
			quantum = strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--scheme") == 0 && i + 1 < argc)
			scheme = argv[++i];
		else if (strcmp(argv[i], "--bc-slots") == 0 && i + 1 < argc)
			bc_slots = argv[++i];
		else if (strcmp(argv[i], "--events") == 0 && i + 1 < argc)
			events = argv[++i];
		else if (strcmp(argv[i], "--trace") == 0 && i + 1 < argc)
			trace = argv[++i];
		else if (strcmp(argv[i], "--ra") == 0 && i + 1 < argc)
			ra = strtod(argv[++i], NULL);
		else if (out == NULL && argv[i][0] != '-')
			out = argv[i];
		else {
			out = NULL;
			break;
		}
	}
	if (out == NULL || events == NULL || trace == NULL || quantum <= 0) {
		fprintf(stderr, "usage: gang_checker --quantum Q --events LOG --trace SWF [--ra R] [--scheme S] "
				"[--bc-slots keep-one|drop-empty] JOBS_OUT\n");
		return 2;
	}
	bc = strcmp(scheme, "bc") == 0;
	bool keep_one = bc && strcmp(bc_slots, "keep-one") == 0;
	if (bc && !keep_one && strcmp(bc_slots, "drop-empty") != 0) {
		fprintf(stderr, "gang_checker: --bc-slots is keep-one or drop-empty\n");
		return 2;
	}
	struct swf_trace t;
	read_swf(out, &t);
	machine = swf_machine_size(&t.hdr);
	n_jobs = t.n;
	jobs = calloc(n_jobs, sizeof *jobs);
	for (size_t i = 0; i < n_jobs; i++) {
		double v[SWF_FIELDS];
		swf_job_values(&t, i, v); /* field 3, the wait, is not in the job record */
		jobs[i] = (struct gj){.id = (long)v[SWF_JOB], .submit = (long)v[SWF_SUBMIT], .wait = (long)v[SWF_WAIT],
				      .run = (long)v[SWF_RUN], .procs = (long)v[SWF_ALLOC_PROCS], .est = (long)v[SWF_REQ_TIME],
				      .first = -1, .last = -1, .block = -1, .size = -1, .start_ev = -1, .end_ev = -1,
				      .seen = -1, .row = -1};
	}
	swf_free(&t);
	qsort(jobs, n_jobs, sizeof *jobs, by_id);

	/* The work each job needs comes from the trace, not from the replayer. */
	read_swf(trace, &t);
	for (size_t i = 0; i < t.n; i++) {
		struct gj *j = find((long)t.jobs[i].job);
		if (j == NULL)
			continue;
		long run = t.jobs[i].run, use = run < j->est ? run : j->est;
		j->quanta = use <= 0 ? 1 : (use + quantum - 1) / quantum;
	}
	swf_free(&t);

	FILE *f = fopen(events, "r");
	if (f == NULL) {
		perror(events);
		return 2;
	}
	char *owner = malloc((size_t)machine), *line = NULL;
	size_t cap = 0;
	long prev = -1, quanta_seen = 0, busy = 0, origin = -1;
	while (getline(&line, &cap, f) > 0) {
		long time;
		char kind[16];
		int used = 0;
		if (sscanf(line, "%ld %15s %n", &time, kind, &used) < 2) {
			violation("unreadable log line: %s", line);
			continue;
		}
		if (strcmp(kind, "switch") == 0) {
			if (origin < 0)
				origin = time;
			if ((time - origin) % quantum != 0 || time <= prev)
				violation("quantum at %ld is off the grid of %ld s quanta after %ld", time, quantum, prev);
			/* Every boundary skipped since the last quantum was idle: nobody may have been in the system. */
			for (size_t i = 0; prev >= 0 && time - prev > quantum && i < n_jobs; i++) {
				long end = jobs[i].submit + jobs[i].wait + jobs[i].run;
				long first_boundary = origin + (jobs[i].submit - origin + quantum - 1) / quantum * quantum;
				if (first_boundary < time && end > prev + quantum)
					violation("quanta %ld..%ld were idle while job %ld was in the system", prev + quantum,
						  time - quantum, jobs[i].id);
			}
			/* BC keeps its last slot: once there is one, every quantum runs it. */
			if (keep_one && prev >= 0 && time - prev > quantum)
				violation("quanta %ld..%ld ran no slot: BC (keep-one) deleted its last slot", prev + quantum,
					  time - quantum);
			prev = time;
			quanta_seen++;
			if (on_switch(time, line + used, owner, &busy) == 0) {
				/* An empty slot runs only as the last one of an idle machine (BC, keep-one). */
				long who = someone_at(time, origin);
				if (who >= 0)
					violation("at %ld: an empty slot ran while job %ld was in the system", time, who);
				else if (!keep_one)
					violation("at %ld: an empty slot ran; %s deletes an empty slot at once", time,
						  bc ? "BC (drop-empty)" : "this scheme");
			}
		} else if (strcmp(kind, "start") == 0 || strcmp(kind, "end") == 0) {
			struct gj *j = find(strtol(line + used, NULL, 10));
			if (j != NULL)
				*(kind[0] == 's' ? &j->start_ev : &j->end_ev) = time;
		} else if (strcmp(kind, "submit") != 0) {
			violation("unknown log line: %s", line);
		}
	}
	fclose(f);
	free(line);
	free(owner);

	long last_end = origin;
	for (size_t i = 0; i < n_jobs; i++) {
		const struct gj *j = &jobs[i];
		if (j->runs != j->quanta)
			violation("job %ld ran %ld quanta; it needs %ld", j->id, j->runs, j->quanta);
		if (j->first < 0)
			continue;
		long start = j->submit + j->wait, end = start + j->run;
		if (j->start_ev != j->first || start != j->first)
			violation("job %ld first ran at %ld; start event %ld, jobs-out %ld", j->id, j->first, j->start_ev, start);
		if (j->end_ev != j->last + quantum || end != j->last + quantum)
			violation("job %ld last ran at %ld; end event %ld, jobs-out end %ld", j->id, j->last, j->end_ev, end);
		if (end > last_end)
			last_end = end;
	}
	/* r_a: the processors running jobs over all processors, averaged over every quantum from the
	 * first boundary to the last end, idle quanta included (seed 002 section 4.3). */
	if (ra >= 0 && origin >= 0) {
		long all = (last_end - origin) / quantum;
		/* The log starts at the first busy quantum; the replay may start up to a quantum earlier. */
		double lo = (double)busy / ((double)machine * (double)(all + 1)), hi = (double)busy / ((double)machine * (double)all);
		if (ra < lo - 0.0005 || ra > hi + 0.0005)
			violation("r_a reported %.3f; the switch lists give %.4f..%.4f", ra, lo, hi);
	}
	if (violations) {
		printf("%d violations in %zu jobs\n", violations, n_jobs);
		return 1;
	}
	printf("ok: %zu jobs, %ld quanta checked\n", n_jobs, quanta_seen);
	free(jobs);
	return 0;
}
