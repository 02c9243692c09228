/* SPDX-License-Identifier: MIT */
/* The dynP family (seed 004): planning in FCFS, SJF or LJF order, basic and self-tuning dynP. */
#include "sched_priv.h"
#include "util.h"

/*
 * Seed 004 keeps a full schedule: a new job is placed at once (it gets a
 * proposed start, as under conservative backfilling), and "a rescheduling
 * process is done every time a job ends. At that time, every running and
 * pending job is placed into the schedule. The order in which variable jobs
 * are newly placed is specified by the scheduling policy" (section 5). So:
 *
 *  - submit: the job is placed at its earliest anchor (conservative's insert);
 *  - every job end (by itself, killed, or a waiting job cancelled): every
 *    waiting job loses its reservation and is placed again, one by one at its
 *    earliest anchor, in the order in force: FCFS (arrival), SJF (ascending
 *    estimate) or LJF (descending estimate), ties by arrival; jobs of a
 *    higher site queue first. There is no guarantee: a job may move later.
 *
 * Basic dynP (section 3.1) picks the order at each submit when at least 5
 * jobs wait: their average estimate at most the lower bound gives SJF, at
 * most the upper bound FCFS, above it LJF; the queue is then re-planned.
 *
 * Self-tuning dynP (section 3.2) runs a step at every submit and every job
 * end when at least 2 jobs wait (with fewer, every order gives the same
 * schedule): a full virtual schedule per order, built in the scratch
 * profiles with the same placement as the live one, is scored (makespan,
 * ART or ARTwW over the running and waiting jobs, planned ends at start +
 * estimate); the decider of Table 1 picks the order; the live schedule is
 * then re-planned in it, which gives exactly that virtual schedule. Scores
 * are compared as exact integers: ART and ARTwW by their numerators, which
 * share one denominator across the three schedules.
 */

/* Basic dynP's parameter block; all zero (set false): the seed's bounds. */
struct basic_params {
	sched_time_t lower, upper; /* bounds on the waiting jobs' average estimate (7200, 9000 s) */
	bool set;
};
SCHED_PARAMS_BLOCK(DYNP_BASIC, struct basic_params);

/* Self-tuning dynP's parameter block; all zero: the advanced decider and ARTwW. */
struct tuning_params {
	uint8_t decider; /* enum sched_decider */
	uint8_t quality; /* enum sched_quality */
	bool set;
};
SCHED_PARAMS_BLOCK(DYNP, struct tuning_params);

static const struct basic_params *basic_of(const struct sched_config *c)
{
	return sched_params_of(c, SCHED_PARAMS_AT_DYNP_BASIC);
}

static const struct tuning_params *tuning_of(const struct sched_config *c)
{
	return sched_params_of(c, SCHED_PARAMS_AT_DYNP);
}

/* The family's state (sched_pstate): the order in force and what the deciders did. */
struct family_state {
	uint8_t order;                 /* enum sched_order */
	bool replan_due;               /* a job ended: re-plan at the next pass (section 5) */
	struct sched_dynp_stats stats; /* seed 004 Tables 4 to 6 */
};
SCHED_POLICY_STATE(struct family_state);

static struct family_state *fam(struct sched *s)
{
	return sched_pstate(s);
}

static uint16_t prio(const struct sched *s, const struct sched_job *j)
{
	return s->cfg.queues[j->queue].priority;
}

/* Is a placed before b under order o? Higher queues first; ties by arrival. */
static bool before(const struct sched *s, enum sched_order o, const struct sched_job *a, const struct sched_job *b)
{
	if (prio(s, a) != prio(s, b))
		return prio(s, a) > prio(s, b);
	if (o == SCHED_ORDER_SJF && a->estimate != b->estimate)
		return a->estimate < b->estimate;
	if (o == SCHED_ORDER_LJF && a->estimate != b->estimate)
		return a->estimate > b->estimate;
	return a->arrival < b->arrival;
}

/* Heap sort of scratch.jobs[0, n): O(n log n), in place, deterministic (the order is total). */
static void sift(const struct sched *s, enum sched_order o, struct sched_job **v, uint32_t root, uint32_t n)
{
	for (;;) {
		uint32_t child = 2u * root + 1u;
		if (child >= n)
			return;
		if (child + 1u < n && before(s, o, v[child], v[child + 1u]))
			child++;
		if (!before(s, o, v[root], v[child]))
			return;
		struct sched_job *t = v[root];
		v[root] = v[child];
		v[child] = t;
		root = child;
	}
}

static void sort_jobs(struct sched *s, enum sched_order o, uint32_t n)
{
	struct sched_job **v = sched_scratch_jobs(s);
	for (uint32_t i = n / 2u; i-- > 0;)
		sift(s, o, v, i, n);
	for (uint32_t end = n; end-- > 1;) {
		struct sched_job *t = v[0];
		v[0] = v[end];
		v[end] = t;
		sift(s, o, v, 0, end);
	}
}

/* The waiting jobs that get reservations, into scratch.jobs in FCFS order (the waiting list's plan
 * order: higher queues first, then arrival, as before() has it); their number. O(n). */
static uint32_t fill(struct sched *s)
{
	uint32_t k = 0;
	struct sched_job **v = sched_scratch_jobs(s);
	struct sched_list *it;
	sched_list_for_each(it, &s->waiting) {
		struct sched_job *j = sched_job_of(it);
		if (!sched_is_background(s, j))
			v[k++] = j;
	}
	return k;
}

/* fill(), when the scratch can take the jobs; false if it cannot. */
static bool gather(struct sched *s, uint32_t *n)
{
	if (!sched_scratch_room(s, s->n_waiting + s->n_running + 1u))
		return false;
	*n = fill(s);
	return true;
}

static void reverse(struct sched_job **v, uint32_t lo, uint32_t hi)
{
	while (lo + 1u < hi) {
		struct sched_job *t = v[lo];
		v[lo++] = v[--hi];
		v[hi] = t;
	}
}

/*
 * SJF order into LJF order, or back, in O(n): they differ only in the direction of the estimates
 * within each queue priority, ties by arrival in both. Reverse each priority's run, then each run
 * of equal estimates within it (which the first reversal left in descending arrival).
 */
static void flip(const struct sched *s, uint32_t n)
{
	struct sched_job **v = sched_scratch_jobs((struct sched *)s);
	for (uint32_t g = 0; g < n;) {
		uint32_t end = g + 1u;
		while (end < n && prio(s, v[end]) == prio(s, v[g]))
			end++;
		reverse(v, g, end);
		for (uint32_t r = g; r < end;) {
			uint32_t same_end = r + 1u;
			while (same_end < end && v[same_end]->estimate == v[r]->estimate)
				same_end++;
			reverse(v, r, same_end);
			r = same_end;
		}
		g = end;
	}
}

/* scratch.jobs[0, n), in order `have`, into order `want`: the cheapest of a refill (FCFS is the
 * waiting list's order), a flip between SJF and LJF, or a sort. O(n), or O(n log n) for a sort. */
static void arrange(struct sched *s, enum sched_order have, enum sched_order want, uint32_t n)
{
	if (have == want)
		return;
	if (want == SCHED_ORDER_FCFS) {
		uint32_t k = fill(s);
		SCHED_ASSERT(k == n); /* the waiting list has not changed since the jobs were gathered */
		(void)k;
	} else if (have != SCHED_ORDER_FCFS) {
		flip(s, n);
	} else {
		sort_jobs(s, want, n);
	}
}

/* The live schedule re-planned: every gathered job released, then placed in scratch.jobs order. */
static void replan_live(struct sched *s, uint32_t n)
{
	struct sched_job **v = sched_scratch_jobs(s);
	/* Every reservation goes (they are all among the gathered jobs): with one partition its
	 * profile is rebuilt from the running jobs at once, instead of n releases from the head. */
	if (s->n_parts == 1 && sched_running_profile(s, 0, sched_prof(s, 0), &s->segs)) {
		for (uint32_t i = 0; i < n; i++)
			v[i]->reserved = 0;
	} else {
		for (uint32_t i = 0; i < n; i++)
			if (v[i]->reserved)
				sched_unreserve(s, v[i]);
	}
	for (uint32_t i = 0; i < n; i++) {
		int err = sched_place(s, v[i], s->now);
		SCHED_ASSERT(err == SCHED_OK); /* every job fits once the running jobs end */
		(void)err;
	}
	s->first_start = SCHED_TIME_MAX;
	sched_plan_refresh(s);
}

/* Add one job ending at `end` to a quality accumulator. */
static void score_add(uint64_t *acc, enum sched_quality q, const struct sched_job *j, sched_time_t end)
{
	switch (q) {
	case SCHED_QUALITY_MS:
		if (end > *acc)
			*acc = end;
		break;
	case SCHED_QUALITY_ART:
		*acc += (uint64_t)(end - j->submit);
		break;
	default:
		*acc += (uint64_t)j->procs * (end - j->submit);
		break;
	}
}

/* The running jobs' part of a schedule's quality: the same in every order. */
static uint64_t running_score(const struct sched *s, enum sched_quality q)
{
	uint64_t acc = 0;
	const struct sched_list *it;
	sched_list_for_each(it, &s->running) {
		const struct sched_job *j = sched_job_of((struct sched_list *)it);
		score_add(&acc, q, j, sched_job_end(j));
	}
	return acc;
}

bool sched_dynp_virtual(struct sched *s, enum sched_order have, enum sched_order o, uint32_t n, uint64_t base,
			uint64_t *quality)
{
	struct sched_work xw = sched_work_of(s), *x = &xw;
	enum sched_quality q = (enum sched_quality)tuning_of(&s->cfg)->quality;
	arrange(s, have, o, n);
	/* The running jobs' profiles: the copy less every reservation. */
	if (!sched_scratch_running(s))
		return false; /* gather() checked the backlog; only fault injection refuses */
	uint64_t acc = base;
	for (uint32_t i = 0; i < n; i++) {
		const struct sched_job *k = x->jobs[i];
		uint8_t part;
		sched_time_t a = SCHED_TIME_MAX;
		int err = sched_scratch_place(s, k, sched_earliest(s, k), &part, &a);
		SCHED_ASSERT(err == SCHED_OK);
		(void)err;
		score_add(&acc, q, k, a + k->estimate);
	}
	sched_scratch_clear(s);
	*quality = acc;
	return true;
}

enum sched_order sched_dynp_decide(enum sched_decider d, const uint64_t q[SCHED_ORDER_COUNT],
				   enum sched_order current, enum sched_dynp_case *c)
{
	uint64_t f = q[SCHED_ORDER_FCFS], sj = q[SCHED_ORDER_SJF], lj = q[SCHED_ORDER_LJF];
	enum sched_dynp_case k;
	enum sched_order simple, advanced;
	/* Table 1, row by row; the three "current policy" sub-cases index a, b, c by FCFS, SJF, LJF. */
	if (f == sj && sj == lj) {
		k = SCHED_CASE_1;
		simple = SCHED_ORDER_FCFS;
		advanced = current;
	} else if (sj < f && sj < lj) {
		k = f == lj ? SCHED_CASE_7 : SCHED_CASE_2;
		simple = advanced = SCHED_ORDER_SJF;
	} else if (f < sj && f < lj) {
		k = sj == lj ? SCHED_CASE_9 : SCHED_CASE_3;
		simple = advanced = SCHED_ORDER_FCFS;
	} else if (lj < f && lj < sj) {
		k = f < sj ? SCHED_CASE_4A : f == sj ? SCHED_CASE_4B : SCHED_CASE_4C;
		simple = advanced = SCHED_ORDER_LJF;
	} else if (f == sj) { /* and both below LJF */
		k = (enum sched_dynp_case)(SCHED_CASE_6A + current);
		simple = SCHED_ORDER_FCFS; /* 6a's "current policy" is FCFS too */
		advanced = current == SCHED_ORDER_LJF ? SCHED_ORDER_FCFS : current;
	} else if (f == lj) { /* and both below SJF */
		k = (enum sched_dynp_case)(SCHED_CASE_8A + current);
		simple = SCHED_ORDER_FCFS;
		advanced = current == SCHED_ORDER_SJF ? SCHED_ORDER_FCFS : current;
	} else { /* SJF = LJF, both below FCFS */
		k = (enum sched_dynp_case)(SCHED_CASE_10A + current);
		simple = SCHED_ORDER_SJF;
		advanced = current == SCHED_ORDER_FCFS ? SCHED_ORDER_SJF : current;
	}
	if (c != NULL)
		*c = k;
	return d == SCHED_DECIDER_SIMPLE ? simple : advanced;
}

static void count_decision(struct sched *s, enum sched_order next, uint32_t backlog)
{
	fam(s)->stats.calls++;
	fam(s)->stats.backlog += backlog;
	if (next == (enum sched_order)fam(s)->order)
		fam(s)->stats.same++;
	else
		fam(s)->stats.switches[next]++;
	fam(s)->order = (uint8_t)next;
}

/* The order each policy of the family starts with; dynP's is FCFS (section 3.2: "The initial policy is FCFS"). */
static enum sched_order initial_order(enum sched_policy_id p)
{
	return p == SCHED_POLICY_SJF ? SCHED_ORDER_SJF : p == SCHED_POLICY_LJF ? SCHED_ORDER_LJF : SCHED_ORDER_FCFS;
}

/* Entering a policy of the family: its initial order, every waiting job placed in it. */
static void enter_family(struct sched *s)
{
	fam(s)->order = (uint8_t)initial_order(s->cfg.policy);
	fam(s)->replan_due = false;
	uint32_t n;
	if (!gather(s, &n)) {
		s->counters.scratch_short++;
		sched_replan_all(s); /* arrival order, the best that needs no sorting */
		return;
	}
	arrange(s, SCHED_ORDER_FCFS, (enum sched_order)fam(s)->order, n);
	replan_live(s, n);
}

/* Self-tuning dynP's step (section 3.2): score the three virtual schedules, let the decider
 * pick the order. false, deciding nothing, when the scratch cannot hold one of them. */
static bool self_tune(struct sched *s, uint32_t n)
{
	uint64_t q[SCHED_ORDER_COUNT];
	uint64_t base = running_score(s, (enum sched_quality)tuning_of(&s->cfg)->quality);
	/* scratch.jobs comes in FCFS order (gather) and is left in the last order scored. */
	for (unsigned o = 0; o < SCHED_ORDER_COUNT; o++)
		if (!sched_dynp_virtual(s, o == 0 ? SCHED_ORDER_FCFS : (enum sched_order)(o - 1u), (enum sched_order)o,
					n, base, &q[o]))
			return false;
	enum sched_dynp_case c;
	enum sched_decider d = (enum sched_decider)tuning_of(&s->cfg)->decider;
	enum sched_order next = sched_dynp_decide(d, q, (enum sched_order)fam(s)->order, &c);
	enum sched_decider other = d == SCHED_DECIDER_SIMPLE ? SCHED_DECIDER_ADVANCED : SCHED_DECIDER_SIMPLE;
	if (sched_dynp_decide(other, q, (enum sched_order)fam(s)->order, NULL) != next)
		fam(s)->stats.differs++;
	fam(s)->stats.cases[c]++;
	count_decision(s, next, n);
	return true;
}

/* A job ended: re-plan in the order in force; self-tuning dynP decides the order first. */
void sched_family_replan(struct sched *s)
{
	fam(s)->replan_due = false;
	uint32_t n;
	enum sched_order have = SCHED_ORDER_FCFS; /* gather's order */
	bool ok = gather(s, &n);
	if (ok && s->cfg.policy == SCHED_POLICY_DYNP && n >= 2) {
		ok = self_tune(s, n);
		have = (enum sched_order)(SCHED_ORDER_COUNT - 1); /* the last order self_tune() scored */
	}
	if (!ok) {
		/* No room to sort or to score: compression keeps every plan valid and never delays anyone. */
		s->counters.scratch_short++;
		sched_compress(s);
		return;
	}
	s->counters.reflows++;
	arrange(s, have, (enum sched_order)fam(s)->order, n);
	replan_live(s, n);
}

/* Basic dynP (section 3.1): the average estimate of the waiting jobs against the bounds. */
static void basic_decision(struct sched *s)
{
	uint32_t n = 0;
	uint64_t sum = 0;
	struct sched_list *it;
	sched_list_for_each(it, &s->waiting) {
		const struct sched_job *j = sched_job_of(it);
		if (sched_is_background(s, j))
			continue;
		n++;
		sum += j->estimate;
	}
	if (n < 5)
		return; /* "a threshold of 5 jobs to prevent unnecessary policy switches" */
	/* AERT <= bound, compared without dividing: sum <= bound x n. Estimates are >= 1, so AERT > 0. */
	enum sched_order next = sum <= (uint64_t)basic_of(&s->cfg)->lower * n   ? SCHED_ORDER_SJF
				: sum <= (uint64_t)basic_of(&s->cfg)->upper * n ? SCHED_ORDER_FCFS
									 : SCHED_ORDER_LJF;
	count_decision(s, next, n);
	sched_family_replan(s); /* "reorder waiting queue according to new policy" */
}

static int admit_family(struct sched *s, struct sched_job *j)
{
	int err = sched_admit_strict(s, j);
	if (err != SCHED_OK)
		return err;
	if (s->cfg.policy == SCHED_POLICY_DYNP_BASIC)
		basic_decision(s);
	else if (s->cfg.policy == SCHED_POLICY_DYNP)
		sched_family_replan(s); /* a scheduling step: the self-tuning decision and its plan */
	return SCHED_OK;
}

static void reflow_family(struct sched *s, bool ended)
{
	(void)ended;
	sched_family_replan(s);
}

/* Basic dynP's bounds must be in order. */
static int check_bounds(const struct sched_config *c)
{
	return basic_of(c)->lower <= basic_of(c)->upper ? SCHED_OK : SCHED_E_INVAL;
}

/* A job started while the order in force was in force: Table 4's counts. */
static void family_on_start(struct sched *s, struct sched_job *j)
{
	(void)j;
	fam(s)->stats.started[fam(s)->order]++;
}

/* A running job ended (by itself, killed or cancelled): the next pass re-plans (section 5). */
static void family_on_end(struct sched *s, struct sched_job *j)
{
	(void)j;
	fam(s)->replan_due = true;
}

/* The order in force and the deciders' counts, for sched_stats. */
static void family_stats(const struct sched *s, struct sched_stats *out)
{
	const struct family_state *f = sched_pstate_c(s);
	out->order = f->order;
	sched_copy(&out->dynp, &f->stats, sizeof out->dynp); /* a struct copy would call memcpy */
}

/* The pass: the re-planning every job end asks for (kills end jobs inside the pass), then the starts. */
static void pass_family(struct sched *s)
{
	if (fam(s)->replan_due)
		sched_family_replan(s);
	sched_start_due(s);
}

static const char *const case_names[SCHED_CASE_COUNT] = {
	"1", "2", "3", "4a", "4b", "4c", "6a", "6b", "6c", "7", "8a", "8b", "8c", "9", "10a", "10b", "10c",
};
static const char *const order_names[SCHED_ORDER_COUNT] = {"fcfs", "sjf", "ljf"};
static const char *const decider_names[SCHED_DECIDER_COUNT + 1] = {"advanced", "simple", NULL};
static const char *const quality_names[SCHED_QUALITY_COUNT + 1] = {"artww", "art", "ms", NULL};
static const char *const decider_labels[SCHED_DECIDER_COUNT + 1] = {"adv", "simple", NULL};

#define BASIC_SET SCHED_PARAM_AT(DYNP_BASIC, struct basic_params, set)
#define TUNING_SET SCHED_PARAM_AT(DYNP, struct tuning_params, set)

static const struct sched_param basic_params[] = {
	{.name = "lower", .kind = SCHED_PARAM_SECONDS, .unit = "s", .offset = SCHED_PARAM_AT(DYNP_BASIC, struct basic_params, lower),
	 .size = 4, .set_offset = BASIC_SET, .min = 0, .max = SCHED_NOW_LIMIT - 1u, .def = 7200,
	 .help = "the waiting jobs' average estimate at most this: SJF (s. 3.1, 5.2)"},
	{.name = "upper", .kind = SCHED_PARAM_SECONDS, .unit = "s", .offset = SCHED_PARAM_AT(DYNP_BASIC, struct basic_params, upper),
	 .size = 4, .set_offset = BASIC_SET, .min = 0, .max = SCHED_NOW_LIMIT - 1u, .def = 9000,
	 .help = "at most this: FCFS; above: LJF (s. 3.1, 5.2)"},
};

static const struct sched_param tuning_params[] = {
	{.name = "decider", .kind = SCHED_PARAM_CHOICE, .unit = "", .choices = decider_names, .labels = decider_labels,
	 .offset = SCHED_PARAM_AT(DYNP, struct tuning_params, decider), .size = 1, .set_offset = TUNING_SET,
	 .min = 0, .max = SCHED_DECIDER_COUNT - 1u, .def = SCHED_DECIDER_ADVANCED, .listable = true,
	 .help = "which of the three schedules to follow (s. 3.2, Table 1): advanced or simple"},
	{.name = "quality", .kind = SCHED_PARAM_CHOICE, .unit = "", .choices = quality_names,
	 .offset = SCHED_PARAM_AT(DYNP, struct tuning_params, quality), .size = 1, .set_offset = TUNING_SET,
	 .min = 0, .max = SCHED_QUALITY_COUNT - 1u, .def = SCHED_QUALITY_ARTWW, .listable = true,
	 .help = "how a virtual schedule is scored (s. 3.2): artww, art or ms"},
};

#define FAMILY(sym, nm, what, par, npar, chk)                                             \
	const struct sched_policy sym = {                                           \
		.name = nm,                                                         \
		.help = what,                                                       \
		.params = par,                                                      \
		.n_params = npar,                                                   \
		.family = "dynp",                                                   \
		.needs_scratch = true,                                              \
		.state_bytes = sizeof(struct family_state),                         \
		.enter = enter_family,                                              \
		.on_start = family_on_start,                                        \
		.on_end = family_on_end,                                            \
		.stats = family_stats,                                              \
		.admit = admit_family,                                              \
		.reflow = reflow_family,                                            \
		.pass = pass_family,                                                \
		.predict = sched_predict_reserved,                                  \
		.check = chk,                                                       \
	}

FAMILY(sched_policy_fcfs_replan, "fcfs-replan",
       "planning in arrival order, every waiting job placed again at each job end (Streit 2002, s. 3)",
       NULL, 0, NULL);
FAMILY(sched_policy_sjf, "sjf", "planning, shortest estimate first (Streit 2002, s. 3)", NULL, 0, NULL);
FAMILY(sched_policy_ljf, "ljf", "planning, longest estimate first (Streit 2002, s. 3)", NULL, 0, NULL);
FAMILY(sched_policy_dynp_basic, "dynp-basic",
       "basic dynP: the waiting jobs' average estimate picks the order (Streit 2002, s. 3.1)", basic_params,
       2, check_bounds);
FAMILY(sched_policy_dynp, "dynp",
       "self-tuning dynP: the best of three virtual schedules at every step (Streit 2002, s. 3.2)",
       tuning_params, 2, NULL);

const char *sched_dynp_case_name(enum sched_dynp_case c)
{
	return (unsigned)c < SCHED_CASE_COUNT ? case_names[c] : NULL;
}

const char *sched_order_name(enum sched_order o)
{
	return (unsigned)o < SCHED_ORDER_COUNT ? order_names[o] : NULL;
}
