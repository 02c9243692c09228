/* SPDX-License-Identifier: MIT */
/* Benchmarks on the target: the cost of submit, finish-with-compression and advance at backlogs 16..1024. */
#include "bench.h"

#include "fmt.h"
#include "sched/gang.h"
#include "port.h"

/* A fixed xorshift, so every run builds the same backlog. */
static uint32_t rng_state;

static uint32_t rnd(uint32_t lo, uint32_t hi)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return lo + rng_state % (hi - lo + 1u);
}

#define PROCS 128u
#define SAMPLES 8u

static uint64_t overhead;

static uint64_t elapsed(uint64_t c0)
{
	uint64_t d = port_cycles() - c0;
	return d > overhead ? d - overhead : 0;
}

/* Is p of the dynP family (the registry says so; its position says nothing)? */
static bool in_dynp_family(enum sched_policy_id p)
{
	struct sched_policy_info info;
	if (sched_policy_info(p, &info) != SCHED_OK)
		return false;
	const char *a = info.family, *b = "dynp";
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* The machine full with BENCH_RUNNING jobs, then `backlog` waiting jobs. */
static bool planning(enum sched_policy_id p)
{
	return sched_policy_needs_scratch(p);
}

/* The bounds on one event's work (issue 14), both 0 (off) but in the bounded rows. */
struct bounds {
	uint32_t compress_depth, reservation_depth;
};

static int build(struct sched **sp, void *arena, size_t size, enum sched_policy_id p, struct bounds b,
		 unsigned backlog)
{
	struct sched_config cfg = {.procs = PROCS, .max_jobs = BENCH_CAPACITY, .policy = p};
	/* Parameters by name, through the registry (in range: the sets cannot fail). */
	(void)sched_param_set(&cfg, sched_param_find("compress-depth", NULL), b.compress_depth);
	(void)sched_param_set(&cfg, sched_param_find("reservation-depth", NULL), b.reservation_depth);
	if (planning(p)) {
		/* Scratch for every job in the system: the search is measured, never its fallback. */
		cfg.max_jobs = BENCH_PLAN_CAPACITY;
		cfg.scratch_jobs = BENCH_PLAN_CAPACITY;
		(void)sched_param_set(&cfg, sched_param_find("tolerance", NULL), 600); /* relaxed: ten minutes */
	}
	int err = sched_init(sp, &cfg, arena, size, NULL, NULL, 0);
	struct sched *s = *sp;
	rng_state = 2463534242u;
	for (uint32_t i = 0; err == SCHED_OK && i < BENCH_RUNNING; i++) {
		struct sched_job_desc d = sched_desc(i, PROCS / BENCH_RUNNING, 2000u + 97u * i);
		err = sched_submit(s, &d, 0);
	}
	if (err == SCHED_OK)
		err = sched_advance(s, 0);
	for (uint32_t i = 0; err == SCHED_OK && i < backlog; i++) {
		struct sched_job_desc d = sched_desc(1000u + i, rnd(1, 64), rnd(60, 20000));
		err = sched_submit(s, &d, 1);
	}
	if (err == SCHED_OK)
		err = sched_advance(s, 1);
	return err;
}

/* The samples of one operation: their sum and the worst of them. */
struct tally {
	uint64_t total, worst;
};

static void tally_add(struct tally *t, uint64_t cost)
{
	t->total += cost;
	if (cost > t->worst)
		t->worst = cost;
}

static void line(const char *policy, const char *op, unsigned backlog, uint32_t segs, const struct tally *t,
		 unsigned samples)
{
	uint64_t total = t->total;
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "bench policy=");
	fmt_str(&f, policy);
	fmt_str(&f, " op=");
	fmt_str(&f, op);
	fmt_kv(&f, " backlog=", backlog);
	fmt_kv(&f, " segments=", segs);
	fmt_kv(&f, " per_op=", total / samples);
	fmt_kv(&f, " max=", t->worst);
	fmt_kv(&f, " per_segment_x100=", segs ? total * 100u / samples / segs : 0);
	fmt_str(&f, " unit=");
	fmt_str(&f, port_cycle_unit());
	fmt_line(&f);
}

/* Segments in the profile now (the bench machine has one partition). */
static uint32_t segments(const struct sched *s)
{
	struct sched_stats st;
	sched_stats(s, &st);
	return st.segments;
}

/* One policy (with its bounds) at one backlog: submit, finish and advance, SAMPLES each. */
static void bench_one(void *arena, size_t size, enum sched_policy_id p, struct bounds bounds, const char *name,
		      unsigned backlog)
{
	struct sched *sp = NULL;
	if (build(&sp, arena, size, p, bounds, backlog) != SCHED_OK)
		return;
	/* submit: a job arrives and is placed; it is then withdrawn (not measured). */
	struct tally submit = {0, 0};
	uint32_t segs = segments(sp);
	for (uint32_t k = 0; k < SAMPLES; k++) {
		struct sched_job_desc d = sched_desc(100000u + k, 1u + 7u * k, 600u + 900u * k);
		uint64_t c0 = port_cycles();
		int err = sched_submit(sp, &d, 2);
		tally_add(&submit, elapsed(c0));
		if (err == SCHED_OK)
			(void)sched_cancel(sp, d.id, 2);
	}
	line(name, "submit", backlog, segs, &submit, SAMPLES);
	/* finish: running jobs end long before their estimates (conservative compresses),
	 * each followed by the pass at that instant (advance). */
	struct tally finish = {0, 0}, advance = {0, 0};
	segs = segments(sp);
	for (uint32_t k = 0; k < SAMPLES; k++) {
		uint64_t c0 = port_cycles();
		(void)sched_finish(sp, k * 3u, 3u + k);
		tally_add(&finish, elapsed(c0));
		c0 = port_cycles();
		(void)sched_advance(sp, 3u + k);
		tally_add(&advance, elapsed(c0));
	}
	line(name, "finish", backlog, segs, &finish, SAMPLES);
	line(name, "advance", backlog, segs, &advance, SAMPLES);
}

void bench_run(void *arena, size_t size, unsigned max_backlog)
{
	uint64_t c0 = port_cycles();
	overhead = port_cycles() - c0; /* the cost of reading the counter itself */
	/* 185: the backlog of seed 004's measured self-tuning step (0.05 s, section 5). */
	static const unsigned backlogs[] = {16, 64, 256, 1024}, plan_backlogs[] = {16, 64, 128},
			      family_backlogs[] = {16, 64, 185, 512};
	for (int p = 0; p < SCHED_POLICY_COUNT; p++) {
		if (sched_policy_timeshared((enum sched_policy_id)p))
			continue; /* gang has its own bench below */
		const char *name = sched_policy_name((enum sched_policy_id)p);
		bool plan = planning((enum sched_policy_id)p);
		bool family = in_dynp_family((enum sched_policy_id)p);
		const unsigned *list = family ? family_backlogs : plan ? plan_backlogs : backlogs;
		unsigned n = plan && !family ? 3u : 4u;
		for (unsigned b = 0; b < n; b++)
			if (list[b] <= max_backlog)
				bench_one(arena, size, (enum sched_policy_id)p, (struct bounds){0, 0}, name, list[b]);
	}
	/* Conservative with its bounds (issue 14): at most 64 jobs examined per early end; at most
	 * 64 jobs holding reservations. */
	for (unsigned b = 0; b < 4; b++) {
		if (backlogs[b] > max_backlog)
			continue;
		bench_one(arena, size, SCHED_POLICY_CONS, (struct bounds){64, 0}, "cons-depth64", backlogs[b]);
		bench_one(arena, size, SCHED_POLICY_CONS, (struct bounds){0, 64}, "cons-resdepth64", backlogs[b]);
	}
}

/* --- time sharing: gang scheduling (seed 002) through the sched API ------------------------- */

static void ts_line(const char *name, const char *scheme, const char *op, uint32_t procs, uint32_t calls,
		    uint64_t total)
{
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "bench policy=");
	fmt_str(&f, name);
	fmt_str(&f, "-");
	fmt_str(&f, scheme);
	fmt_str(&f, " op=");
	fmt_str(&f, op);
	fmt_kv(&f, " procs=", procs);
	fmt_kv(&f, " calls=", calls);
	fmt_kv(&f, " per_op=", calls ? total / calls : 0);
	fmt_str(&f, " unit=");
	fmt_str(&f, port_cycle_unit());
	fmt_line(&f);
}

/* A time-shared policy: each value of its `scheme` parameter, a slice at a time (every_slice: no
 * slices folded), an arrival (sched_submit with its service) and the slice after it (sched_advance). */
/* Power-of-two sizes (each exponent equally likely: seed 002's sizes uniform in log space, on the
 * buddy sizes) and 1-120 quanta (uniform: the board has no libm); one arrival every `gap` quanta on
 * average gives a load of about 0.7. */
static const struct gang_machine {
	uint32_t procs, log2, slots, gap;
} gang_machines[] = {{128u, 7u, 32u, 22u}, {1024u, 10u, 16u, 16u}};
#define m gang_machines

static void bench_timeshared(void *arena, size_t size, enum sched_policy_id p)
{
	const struct sched_param *scheme = sched_param_find("scheme", NULL), *quantum = sched_param_find("quantum", NULL),
				 *slots = sched_param_find("max-slots", NULL);
	const sched_time_t q = 5;
	for (unsigned k = 0; k < sizeof m / sizeof m[0]; k++) {
		for (uint32_t sc = scheme->min; sc <= scheme->max; sc++) {
			struct sched_config cfg = {.procs = m[k].procs, .max_jobs = BENCH_GANG_JOBS, .policy = p,
						   .every_slice = true};
			(void)sched_param_set(&cfg, scheme, sc);
			(void)sched_param_set(&cfg, quantum, q);
			(void)sched_param_set(&cfg, slots, m[k].slots);
			char name[16];
			sched_param_format(scheme, sc, name, sizeof name);
			struct sched *s;
			if (sched_arena_size_cfg(&cfg) > size || sched_init(&s, &cfg, arena, size, NULL, NULL, 0) != SCHED_OK) {
				ts_line(sched_policy_name(p), name, "no_room", m[k].procs, 0, 0);
				continue;
			}
			rng_state = 88172645u;
			uint64_t tick = 0, submit = 0;
			uint32_t arrivals = 0;
			for (uint32_t t = 0; t < BENCH_GANG_QUANTA; t++) {
				struct sched_stats st;
				sched_stats(s, &st);
				if (rnd(1, m[k].gap) == 1 && st.waiting + st.running < cfg.max_jobs) {
					uint32_t procs = 1u << rnd(0, m[k].log2), len = rnd(1, 120);
					struct sched_job_desc d = sched_desc(t, procs, len * q);
					d.service = len * q;
					uint64_t c0 = port_cycles();
					int err = sched_submit(s, &d, t * q);
					submit += elapsed(c0);
					arrivals += err == SCHED_OK;
				}
				uint64_t c0 = port_cycles();
				(void)sched_advance(s, t * q);
				tick += elapsed(c0);
			}
			ts_line(sched_policy_name(p), name, "quantum", m[k].procs, BENCH_GANG_QUANTA, tick);
			ts_line(sched_policy_name(p), name, "arrival", m[k].procs, arrivals, submit);
		}
	}
}

static void gang_ignore(void *ctx, const struct sched_gang_event *e)
{
	(void)ctx;
	(void)e;
}

/*
 * The gang module alone (sched/gang.h: submit and tick, no struct sched), the
 * way this benchmark measured gang before it ran behind struct sched: the
 * same workload, so that the difference from the rows above is the
 * scheduler's layer (admission, the job table, the clock), not the matrix.
 */
static void bench_gang_module(void *arena, size_t size)
{
	for (unsigned k = 0; k < sizeof m / sizeof m[0]; k++) {
		for (int sc = 0; sc < SCHED_GANG_SCHEME_COUNT; sc++) {
			struct sched_gang_config cfg = {.procs = m[k].procs, .max_slots = m[k].slots,
							.max_jobs = BENCH_GANG_JOBS, .scheme = (enum sched_gang_scheme)sc,
							.quantum = 5};
			const char *name = sched_gang_scheme_name((enum sched_gang_scheme)sc);
			struct sched_gang *g;
			if (sched_gang_init(&g, &cfg, arena, size, gang_ignore, NULL, 0) != SCHED_OK) {
				ts_line("gang-module", name, "no_room", m[k].procs, 0, 0);
				continue;
			}
			rng_state = 88172645u;
			uint64_t tick = 0, submit = 0;
			uint32_t arrivals = 0;
			for (uint32_t q = 0; q < BENCH_GANG_QUANTA; q++) {
				if (rnd(1, m[k].gap) == 1 && sched_gang_jobs(g) < cfg.max_jobs) {
					uint32_t procs = 1u << rnd(0, m[k].log2), len = rnd(1, 120);
					uint64_t c0 = port_cycles();
					int err = sched_gang_submit(g, q, procs, len, sched_gang_now(g));
					submit += elapsed(c0);
					arrivals += err == SCHED_OK;
				}
				uint64_t c0 = port_cycles();
				(void)sched_gang_tick(g);
				tick += elapsed(c0);
			}
			ts_line("gang-module", name, "quantum", m[k].procs, BENCH_GANG_QUANTA, tick);
			ts_line("gang-module", name, "arrival", m[k].procs, arrivals, submit);
		}
	}
}
#undef m

void bench_gang(void *arena, size_t size)
{
	for (int p = 0; p < SCHED_POLICY_COUNT; p++)
		if (sched_policy_timeshared((enum sched_policy_id)p))
			bench_timeshared(arena, size, (enum sched_policy_id)p);
	bench_gang_module(arena, size);
}
