/* SPDX-License-Identifier: MIT */
/* build/wlgen: synthetic workloads (Downey's model, seed 002 s. 4.2; the trace matrix model, seed 004 s. 4). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_io.h"
#include "rng.h"
#include "trace_stats.h"

static const char usage[] =
"Usage: wlgen --model downey|matrix [OPTIONS] -o FILE\n"
"Write a synthetic workload as SWF text, or as a fixture when FILE ends in\n"
".fix (\"-\" writes SWF to standard output).\n"
"\n"
"Common options:\n"
"  --jobs N           jobs to generate (default 1000)\n"
"  --procs P          machine size (downey: default 128; matrix: the trace's)\n"
"  --seed S           random seed (default 1); the same seed gives the same file\n"
"  -o, --output FILE  where to write (required)\n"
"\n"
"--model downey (Zhou et al. 2000, s. 4.2; Downey 1997): sizes and run times\n"
"uniform in log space, exponential interarrival times. Run times are whole\n"
"time slots, so a job's run time is slots x quantum seconds.\n"
"  --load RHO         offered load rho = lambda * mean(p) * mean(t) / P\n"
"                     (default 0.5); lambda follows from it\n"
"  --min-size N, --max-size N     processors (default 1 and P)\n"
"  --sizes log|pow2   log: whole sizes, uniform in log space (default);\n"
"                     pow2: powers of two only, each exponent equally likely\n"
"                     (uniform in log space on the buddy sizes: no internal\n"
"                     fragmentation under gang scheduling, docs/gang.md)\n"
"  --min-slots N, --max-slots N   run time in slots (default 1 and 120)\n"
"  --quantum Q        seconds per slot (default 5)\n"
"  The model has no user estimates: field 9 is -1 (replays then use the run time).\n"
"\n"
"--model matrix --from TRACE (Streit 2002, s. 4): interarrival times from a\n"
"Weibull distribution fitted to the trace (shape by maximum likelihood, scale\n"
"keeping the trace's mean gap; the trace's share of 0 s gaps apart), and\n"
"(width, estimate, run time) drawn from the trace's joint frequency matrix:\n"
"exact widths and estimates, run times in quarter-octave bins (uniform within\n"
"a bin, on the same side of the estimate as in the trace; jobs that ran\n"
"exactly to their estimate keep doing so).\n"
"  --from TRACE       the trace (fixture or SWF) to take the model from\n"
"  --shrink F         multiply the fitted interarrival times by F (default 1)\n"
"  --weibull A,B      use shape A and scale B (s) for the positive gaps instead\n"
"                     of the fit, e.g. Streit 2002 Table 2's CTC 0.35,60, KTH\n"
"                     0.35,200, SDSC 0.4,290 (the share of 0 s gaps stays the\n"
"                     trace's); default: fitted as above\n";

struct job_out {
	long submit, run, procs, est;
};

static int write_out(const char *path, const struct job_out *j, size_t n, long procs,
		     const char *note)
{
	size_t len = strlen(path);
	if (len > 4 && strcmp(path + len - 4, ".fix") == 0) {
		struct swf_trace t;
		memset(&t, 0, sizeof t);
		t.hdr.max_procs = t.hdr.max_nodes = procs;
		t.jobs = calloc(n, sizeof *t.jobs);
		if (t.jobs == NULL)
			return SCHED_E_NOSPACE;
		for (size_t i = 0; i < n; i++)
			t.jobs[i] = (struct fix_job){
				.job = (int32_t)(i + 1), .submit = (int32_t)j[i].submit, .run = (int32_t)j[i].run,
				.alloc_procs = (int32_t)j[i].procs, .req_procs = (int32_t)j[i].procs,
				.req_time = (int32_t)j[i].est, .status = (j[i].est >= 0 && j[i].run > j[i].est) ? 0 : 1,
				.user = -1, .group = -1, .queue = -1, .partition = -1,
			};
		t.n = n;
		char err[512];
		size_t bytes;
		int rc = fixture_save(path, &t, note, &bytes, err, sizeof err);
		if (rc != 0)
			fprintf(stderr, "wlgen: %s\n", err);
		free(t.jobs);
		return rc;
	}
	FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
	if (f == NULL) {
		fprintf(stderr, "wlgen: %s: %s\n", path, strerror(errno));
		return SCHED_E_IO;
	}
	fprintf(f, "; Note: %s\n; MaxNodes: %ld\n; MaxProcs: %ld\n", note, procs, procs);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%zu %ld -1 %ld %ld -1 -1 %ld %ld -1 %d -1 -1 -1 -1 -1 -1 -1\n", i + 1,
			j[i].submit, j[i].run, j[i].procs, j[i].procs, j[i].est,
			(j[i].est >= 0 && j[i].run > j[i].est) ? 0 : 1);
	int rc = (f == stdout ? fflush(f) : fclose(f)) == 0 ? 0 : -1;
	if (rc != 0)
		fprintf(stderr, "wlgen: %s: write failed\n", path);
	return rc;
}

/* floor of a log-uniform variable on [lo, hi + 1): P(k) proportional to ln((k + 1) / k). */
static long log_uniform(struct rng *r, long lo, long hi)
{
	double x = exp(log((double)lo) + rng_unit(r) * (log1p((double)hi) - log((double)lo)));
	long k = (long)floor(x);
	return k < lo ? lo : k > hi ? hi : k;
}

static double log_uniform_mean(long lo, long hi)
{
	double s = 0;
	for (long k = lo; k <= hi; k++)
		s += (double)k * log((double)(k + 1) / (double)k);
	return s / log((double)(hi + 1) / (double)lo);
}

/* The exponents of the powers of two in [lo, hi]: [*a, *b]. */
static void pow2_range(long lo, long hi, int *a, int *b)
{
	*a = 0;
	*b = 0;
	while ((1L << *a) < lo)
		(*a)++;
	while ((1L << (*b + 1)) <= hi)
		(*b)++;
}

/* A power of two in [lo, hi], each exponent equally likely. */
static long pow2_uniform(struct rng *r, long lo, long hi)
{
	int a, b;
	pow2_range(lo, hi, &a, &b);
	int k = a + (int)floor(rng_unit(r) * (double)(b - a + 1));
	return 1L << (k > b ? b : k);
}

static double pow2_uniform_mean(long lo, long hi)
{
	int a, b;
	pow2_range(lo, hi, &a, &b);
	double s = 0;
	for (int k = a; k <= b; k++)
		s += (double)(1L << k);
	return s / (double)(b - a + 1);
}

static int downey(long jobs, long procs, uint64_t seed, double load, long min_size, long max_size, bool pow2,
		  long min_slots, long max_slots, long quantum, const char *out)
{
	double mean_p = pow2 ? pow2_uniform_mean(min_size, max_size) : log_uniform_mean(min_size, max_size);
	double mean_t = log_uniform_mean(min_slots, max_slots) * (double)quantum;
	double lambda = load * (double)procs / (mean_p * mean_t);
	struct rng r;
	rng_seed(&r, seed);
	struct job_out *j = calloc((size_t)jobs, sizeof *j);
	if (j == NULL)
		return 1;
	double t = 0;
	for (long i = 0; i < jobs; i++) {
		t += -log(1.0 - rng_unit(&r)) / lambda;
		j[i].submit = (long)floor(t);
		j[i].procs = pow2 ? pow2_uniform(&r, min_size, max_size) : log_uniform(&r, min_size, max_size);
		j[i].run = log_uniform(&r, min_slots, max_slots) * quantum;
		j[i].est = -1;
	}
	char note[200];
	snprintf(note, sizeof note,
		 "wlgen downey: %ld jobs, %ld procs, load %.3f (lambda %.6f/s), %ssizes %ld-%ld, %ld-%ld slots of %ld s, seed %llu",
		 jobs, procs, load, lambda, pow2 ? "power-of-two " : "", min_size, max_size, min_slots, max_slots, quantum,
		 (unsigned long long)seed);
	int rc = write_out(out, j, (size_t)jobs, procs, note);
	free(j);
	return rc ? 1 : 0;
}

/* Quarter-octave bins of run time: bin 0 holds 0 s; bin b >= 1 covers [lo(b), lo(b + 1)). */
static long bin_lo(int b)
{
	return b == 0 ? 0 : (long)floor(pow(2.0, (double)(b - 1) / 4.0));
}

static int run_bin(long run)
{
	if (run <= 0)
		return 0;
	int b = 1;
	while (bin_lo(b + 1) <= run)
		b++;
	return b;
}

/* A cell of the matrix; rel keeps a run time's side of its estimate (below, equal, above),
 * so the share of jobs killed at their estimate survives the binning. */
struct cell {
	long width, est;
	int bin, rel;
	size_t count;
};

static int cmp_cell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;
	if (x->width != y->width)
		return (x->width > y->width) - (x->width < y->width);
	if (x->est != y->est)
		return (x->est > y->est) - (x->est < y->est);
	if (x->bin != y->bin)
		return (x->bin > y->bin) - (x->bin < y->bin);
	return (x->rel > y->rel) - (x->rel < y->rel);
}

/*
 * The matrix model. wa, wb > 0: the Weibull shape and scale of the positive
 * gaps as given (Streit 2002 Table 2 prints them per trace); else fitted.
 */
static int matrix(long jobs, long procs, uint64_t seed, const char *from, double shrink, double wa, double wb,
		  const char *out)
{
	char err[512];
	struct swf_trace t;
	if (trace_load(from, false, &t, err, sizeof err) != 0) {
		fprintf(stderr, "wlgen: %s\n", err);
		return 1;
	}
	struct trace_stats st;
	trace_stats(&t, &st);
	if (procs <= 0)
		procs = st.machine > 0 ? st.machine : st.max_width;
	/* The joint frequency matrix, as a sorted list of non-empty cells. */
	struct cell *c = calloc(t.n, sizeof *c);
	size_t nc = 0;
	for (size_t i = 0; i < t.n; i++) {
		const struct fix_job *j = &t.jobs[i];
		long w = (long)job_width(j), run = j->run;
		if (w < 1 || run < 0 || w > procs)
			continue;
		long est = j->req_time;
		int rel = est < 0 ? 0 : (run > est) - (run < est);
		c[nc++] = (struct cell){w, est, run_bin(run), rel, 1};
	}
	qsort(c, nc, sizeof *c, cmp_cell);
	size_t m = 0;
	for (size_t i = 0; i < nc; i++) {
		if (m > 0 && cmp_cell(&c[m - 1], &c[i]) == 0)
			c[m - 1].count++;
		else
			c[m++] = c[i];
	}
	size_t total = nc;
	if (total == 0 || st.weibull_alpha <= 0) {
		fprintf(stderr, "wlgen: %s: too few usable jobs to build a model\n", from);
		free(c);
		swf_free(&t);
		return 1;
	}
	/*
	 * The shape comes from the maximum-likelihood fit; the scale is then set
	 * so that the mean gap equals the trace's: a Weibull fit alone misses the
	 * heavy tail, shortens the mean gap and so would raise the load.
	 */
	double mean_gap = st.interarrival.n ? st.interarrival.sum / (double)st.interarrival.n : 0;
	double positive_mean = st.zero_gaps < 1 ? mean_gap / (1 - st.zero_gaps) : 0;
	double alpha = st.weibull_alpha, beta = positive_mean / tgamma(1 + 1 / alpha);
	if (wa > 0 && wb > 0) {
		/* The paper's own parameters: its Table 3 mean gaps are these Weibulls' means, not the traces'. */
		alpha = wa;
		beta = wb;
	}
	/* Cumulative counts for sampling a cell in O(log cells). */
	size_t *cum = malloc(m * sizeof *cum);
	for (size_t i = 0, s = 0; i < m; i++)
		cum[i] = (s += c[i].count);
	struct rng r;
	rng_seed(&r, seed);
	struct job_out *j = calloc((size_t)jobs, sizeof *j);
	double clock = 0;
	for (long i = 0; i < jobs; i++) {
		if (i > 0 && rng_unit(&r) >= st.zero_gaps) {
			/* Inverse of F(x) = 1 - exp(-(x / beta)^alpha); a positive gap is at least 1 s. */
			double u = rng_unit(&r), x = beta * pow(-log(1.0 - u), 1.0 / alpha);
			clock += shrink * fmax(1.0, floor(x + 0.5));
		}
		size_t want = (size_t)(rng_unit(&r) * (double)total), lo = 0, hi = m - 1;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (cum[mid] > want)
				hi = mid;
			else
				lo = mid + 1;
		}
		const struct cell *k = &c[lo];
		long a = bin_lo(k->bin), b = k->bin == 0 ? 0 : bin_lo(k->bin + 1) - 1;
		/* Keep the run on the same side of the estimate as the trace's jobs of this cell. */
		if (k->rel < 0 && b >= k->est)
			b = k->est - 1;
		if (k->rel > 0 && a <= k->est)
			a = k->est + 1;
		j[i].submit = (long)floor(clock);
		j[i].procs = k->width;
		j[i].est = k->est;
		j[i].run = k->rel == 0 && k->est >= 0 ? k->est : a + (long)(rng_unit(&r) * (double)(b - a + 1));
	}
	char note[300];
	snprintf(note, sizeof note,
		 "wlgen matrix from %s: %ld jobs, %ld procs, Weibull alpha %.4f beta %.2f s, %.5f of gaps 0 s, shrink %.3f, %zu matrix cells, seed %llu",
		 from, jobs, procs, alpha, beta, st.zero_gaps, shrink, m,
		 (unsigned long long)seed);
	int rc = write_out(out, j, (size_t)jobs, procs, note);
	free(j);
	free(cum);
	free(c);
	swf_free(&t);
	return rc ? 1 : 0;
}

static long num(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < lo || v > hi) {
		fprintf(stderr, "wlgen: %s takes a whole number from %ld to %ld, not '%s'\n", opt, lo, hi, s);
		exit(2);
	}
	return v;
}

static double real(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !(v >= lo && v <= hi)) {
		fprintf(stderr, "wlgen: %s takes a number from %g to %g, not '%s'\n", opt, lo, hi, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *model = NULL, *out = NULL, *from = NULL;
	long jobs = 1000, procs = 0, min_size = 1, max_size = 0, min_slots = 1, max_slots = 120, quantum = 5;
	double load = 0.5, shrink = 1, wa = 0, wb = 0;
	bool pow2 = false;
	uint64_t seed = 1;
	static const struct option opts[] = {
		{"model", required_argument, 0, 'm'}, {"jobs", required_argument, 0, 'n'},
		{"procs", required_argument, 0, 'p'}, {"seed", required_argument, 0, 's'},
		{"output", required_argument, 0, 'o'}, {"load", required_argument, 0, 'l'},
		{"min-size", required_argument, 0, 1}, {"max-size", required_argument, 0, 2},
		{"min-slots", required_argument, 0, 3}, {"max-slots", required_argument, 0, 4},
		{"quantum", required_argument, 0, 'q'}, {"from", required_argument, 0, 'f'},
		{"shrink", required_argument, 0, 'k'}, {"sizes", required_argument, 0, 5},
		{"weibull", required_argument, 0, 6}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
	};
	int ch;
	opterr = 0;
	/* The leading ':' makes getopt tell a missing argument (':') from an unknown option ('?'). */
	while ((ch = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'm': model = optarg; break;
		case 'n': jobs = num("--jobs", optarg, 1, 100000000); break;
		case 'p': procs = num("--procs", optarg, 1, 1 << 30); break;
		case 's': seed = (uint64_t)num("--seed", optarg, 0, LONG_MAX); break;
		case 'o': out = optarg; break;
		case 'l': load = real("--load", optarg, 1e-6, 100); break;
		case 1: min_size = num("--min-size", optarg, 1, 1 << 30); break;
		case 2: max_size = num("--max-size", optarg, 1, 1 << 30); break;
		case 3: min_slots = num("--min-slots", optarg, 1, 1 << 30); break;
		case 4: max_slots = num("--max-slots", optarg, 1, 1 << 30); break;
		case 'q': quantum = num("--quantum", optarg, 1, 1 << 20); break;
		case 'f': from = optarg; break;
		case 5:
			if (strcmp(optarg, "log") != 0 && strcmp(optarg, "pow2") != 0) {
				fprintf(stderr, "wlgen: --sizes takes log or pow2, not '%s'\nTry 'wlgen --help'.\n", optarg);
				return 2;
			}
			pow2 = optarg[0] == 'p';
			break;
		case 'k': shrink = real("--shrink", optarg, 1e-6, 1000); break;
		case 6: {
			char *comma = strchr(optarg, ',');
			if (comma == NULL) {
				fprintf(stderr, "wlgen: --weibull takes SHAPE,SCALE, not '%s'\nTry 'wlgen --help'.\n", optarg);
				return 2;
			}
			*comma = '\0';
			wa = real("--weibull shape", optarg, 0.01, 100);
			wb = real("--weibull scale", comma + 1, 1e-3, 1e9);
			break;
		}
		case 'h': fputs(usage, stdout); return 0;
		default: {
			char name[3] = {'-', (char)optopt, '\0'};
			fprintf(stderr, "wlgen: %s '%s'\nTry 'wlgen --help'.\n",
				ch == ':' ? "option needs an argument:" : "unknown option",
				ch == '?' && optopt ? name : argv[optind - 1]);
			return 2;
		}
		}
	}
	if (optind != argc || model == NULL || out == NULL) {
		fprintf(stderr, "wlgen: --model and -o are required\nTry 'wlgen --help'.\n");
		return 2;
	}
	if (strcmp(model, "downey") == 0) {
		if (procs == 0)
			procs = 128;
		if (max_size == 0)
			max_size = procs;
		if (min_size > max_size || max_size > procs || min_slots > max_slots) {
			fprintf(stderr, "wlgen: need min-size <= max-size <= procs and min-slots <= max-slots\n");
			return 2;
		}
		return downey(jobs, procs, seed, load, min_size, max_size, pow2, min_slots, max_slots, quantum, out);
	}
	if (strcmp(model, "matrix") == 0) {
		if (from == NULL) {
			fprintf(stderr, "wlgen: --model matrix needs --from TRACE\n");
			return 2;
		}
		return matrix(jobs, procs, seed, from, shrink, wa, wb, out);
	}
	fprintf(stderr, "wlgen: unknown model '%s' (downey, matrix)\n", model);
	return 2;
}
