/* SPDX-License-Identifier: MIT */
/*
 * The policy registry, tested from the registry itself: every policy and
 * every parameter it lists is checked here, so a new policy is tested
 * without editing this file.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "sched/replay.h"
#include "sched_priv.h"

static void every_policy_has_a_name_and_help(void)
{
	for (int p = 0; p < SCHED_POLICY_COUNT; p++) {
		const char *name = sched_policy_name((enum sched_policy_id)p);
		CHECK(name != NULL && name[0] != '\0');
		CHECK(sched_policy_help((enum sched_policy_id)p) != NULL);
		CHECK(strlen(sched_policy_help((enum sched_policy_id)p)) > 20);
		enum sched_policy_id back;
		CHECK_EQ(sched_policy_parse(name, &back), SCHED_OK);
		CHECK_EQ(back, p);
		/* Names are unique. */
		for (int q = 0; q < p; q++)
			CHECK(strcmp(name, sched_policy_name((enum sched_policy_id)q)) != 0);
	}
	CHECK(sched_policy_name(SCHED_POLICY_COUNT) == NULL);
	CHECK(sched_policy_help(SCHED_POLICY_COUNT) == NULL);
}

/* Each parameter: its default in range; text round-trips; the range is enforced by parse, set and init. */
static void check_param(enum sched_policy_id pol, const struct sched_param *p)
{
	char buf[32];
	uint32_t v;
	CHECK(p->name != NULL && p->help != NULL && p->unit != NULL);
	CHECK(p->min <= p->def && p->def <= p->max);
	CHECK(p->size == 1 || p->size == 2 || p->size == 4);
	enum sched_policy_id owner;
	CHECK(sched_param_find(p->name, &owner) == p);
	CHECK_EQ(owner, pol);
	const uint32_t probe[3] = {p->min, p->def, p->max};
	for (int k = 0; k < 3; k++) {
		sched_param_format(p, probe[k], buf, sizeof buf);
		CHECK_EQ(sched_param_parse(p, buf, &v), SCHED_OK);
		CHECK_EQ(v, probe[k]);
	}
	CHECK_EQ(sched_param_parse(p, "", &v), SCHED_E_INVAL);
	CHECK_EQ(sched_param_parse(p, "x1", &v), SCHED_E_INVAL);
	if (p->kind != SCHED_PARAM_CHOICE) {
		CHECK_EQ(sched_param_parse(p, "99999999999", &v), SCHED_E_RANGE);
		CHECK_EQ(sched_param_parse(p, "-1", &v), SCHED_E_INVAL);
	}
	/* A configuration: unset, it reads the default; set, it reads the value; a bad one is refused. */
	struct sched_config cfg = {.procs = 8, .max_jobs = 4, .policy = pol, .scratch_jobs = 4};
	CHECK_EQ(sched_param_get(&cfg, p), p->def);
	CHECK_EQ(sched_param_set(&cfg, p, p->max), SCHED_OK);
	CHECK_EQ(sched_param_get(&cfg, p), p->max);
	if (p->max < UINT32_MAX)
		CHECK_EQ(sched_param_set(&cfg, p, p->max + 1u), SCHED_E_RANGE);
	CHECK_EQ(sched_param_get(&cfg, p), p->max);
	CHECK_EQ(sched_param_set(&cfg, p, p->min), SCHED_OK);
	struct sched_config def = {.procs = 8, .max_jobs = 4, .policy = pol, .scratch_jobs = 4};
	{
		/* Every policy, gang's time sharing too, takes (and checks) its parameters at sched_init. */
		static _Alignas(8) unsigned char arena[1u << 20];
		CHECK(sched_arena_size_cfg(&cfg) <= sizeof arena && sched_arena_size_cfg(&def) <= sizeof arena);
		struct sched *s;
		int ok = sched_init(&s, &cfg, arena, sizeof arena, NULL, NULL, 0);
		/* Cross-parameter checks may refuse an extreme, but never a default configuration. */
		CHECK(ok == SCHED_OK || ok == SCHED_E_INVAL);
		if (ok == SCHED_OK)
			CHECK_EQ(sched_param_get(sched_config_get(s), p), p->min);
		CHECK_EQ(sched_init(&s, &def, arena, sizeof arena, NULL, NULL, 0), SCHED_OK);
		CHECK_EQ(sched_param_get(sched_config_get(s), p), p->def);
	}
	if (p->kind == SCHED_PARAM_CHOICE) {
		for (uint32_t c = 0; p->choices[c] != NULL; c++) {
			CHECK_EQ(sched_param_parse(p, p->choices[c], &v), SCHED_OK);
			CHECK_EQ(v, c);
		}
	}
}

static void every_parameter_round_trips_and_is_checked(void)
{
	unsigned total = 0;
	for (int pol = 0; pol < SCHED_POLICY_COUNT; pol++) {
		const struct sched_param *params;
		unsigned n = sched_policy_params((enum sched_policy_id)pol, &params);
		for (unsigned k = 0; k < n; k++)
			check_param((enum sched_policy_id)pol, &params[k]);
		total += n;
	}
	CHECK(total > 0);
	CHECK(sched_param_find("no-such-parameter", NULL) == NULL);
}

/* Values written by hand, against the parser (independent of the formatter). */
static void parser_by_hand(void)
{
	enum sched_policy_id pol;
	const struct sched_param *sf = sched_param_find("sf", &pol), *tol = sched_param_find("tolerance", &pol);
	uint32_t v;
	CHECK(sf != NULL && tol != NULL);
	CHECK_EQ(sched_param_parse(sf, "3", &v), SCHED_OK);
	CHECK_EQ(v, 3000);
	CHECK_EQ(sched_param_parse(sf, "0.5", &v), SCHED_OK);
	CHECK_EQ(v, 500);
	CHECK_EQ(sched_param_parse(sf, "1.2345", &v), SCHED_OK);
	CHECK_EQ(v, 1235);
	CHECK_EQ(sched_param_parse(sf, "1.2344", &v), SCHED_OK);
	CHECK_EQ(v, 1234);
	CHECK_EQ(sched_param_parse(sf, "1.", &v), SCHED_E_INVAL);
	CHECK_EQ(sched_param_parse(tol, "30m", &v), SCHED_OK);
	CHECK_EQ(v, 1800);
	CHECK_EQ(sched_param_parse(tol, "2h", &v), SCHED_OK);
	CHECK_EQ(v, 7200);
	CHECK_EQ(sched_param_parse(tol, "1d", &v), SCHED_OK);
	CHECK_EQ(v, 86400);
	CHECK_EQ(sched_param_parse(tol, "5x", &v), SCHED_E_INVAL);
	char buf[8];
	sched_param_format(sf, 2500, buf, sizeof buf);
	CHECK(strcmp(buf, "2.5") == 0);
	sched_param_format(sf, 2050, buf, sizeof buf);
	CHECK(strcmp(buf, "2.05") == 0);
	sched_param_format(sf, 1, buf, 3); /* cut to fit, always terminated */
	CHECK(strcmp(buf, "0.") == 0);
}

/* Setting one parameter of a block gives the rest of the block its defaults, as init would. */
static void a_block_takes_its_defaults(void)
{
	enum sched_policy_id pol;
	const struct sched_param *awt = sched_param_find("awt", &pol), *sf = sched_param_find("sf", &pol);
	struct sched_config cfg = {.procs = 8, .max_jobs = 4, .policy = SCHED_POLICY_SLACK, .scratch_jobs = 4};
	CHECK_EQ(sched_param_set(&cfg, awt, 600), SCHED_OK);
	CHECK_EQ(sched_param_get(&cfg, awt), 600);
	CHECK_EQ(sched_param_get(&cfg, sf), sf->def);
	CHECK_EQ(sched_param_get(&cfg, sched_param_find("alpha-f", NULL)), 1000);
	/* Cross-checks come from the policy: basic dynP's bounds must be in order. */
	struct sched_config d = {.procs = 8, .max_jobs = 4, .policy = SCHED_POLICY_DYNP_BASIC, .scratch_jobs = 4};
	CHECK_EQ(sched_param_set(&d, sched_param_find("lower", &pol), 9500), SCHED_OK);
	static _Alignas(8) unsigned char arena[SCHED_ARENA_SIZE_SCRATCH(4, 4)];
	struct sched *s;
	CHECK_EQ(sched_init(&s, &d, arena, sizeof arena, NULL, NULL, 0), SCHED_E_INVAL);
	CHECK_EQ(sched_param_set(&d, sched_param_find("upper", &pol), 9500), SCHED_OK);
	CHECK_EQ(sched_init(&s, &d, arena, sizeof arena, NULL, NULL, 0), SCHED_OK);
}

/*
 * What the console decides on before it journals a line or gives up its live schedule: the
 * checks answer what the calls then do (a check that passes, a call that refuses, would leave
 * the console journaled and refused), and a refused tune changes nothing.
 */
static void the_checks_agree_with_the_calls(void)
{
	static _Alignas(8) unsigned char big[1u << 20];
	static _Alignas(SCHED_ARENA_ALIGN) unsigned char room[SCHED_REPLAY_BYTES];
	struct sched_replay *r;
	const sched_procs_t machines[] = {0, 8, 100}; /* 100: no power of two, which gang refuses */
	unsigned refused = 0, taken = 0;
	for (int pol = 0; pol < SCHED_POLICY_COUNT; pol++)
		for (unsigned m = 0; m < 3; m++)
			for (uint32_t scratch = 0; scratch <= 4; scratch += 4)
				for (size_t size = 64; size <= sizeof big; size *= 64) {
					struct sched_config cfg = {.procs = machines[m], .max_jobs = 4,
								   .policy = (enum sched_policy_id)pol, .scratch_jobs = scratch};
					int want = sched_replay_check(&cfg, size);
					CHECK_EQ(sched_replay_init(&r, room, sizeof room, &cfg, big, size, NULL, NULL), want);
					refused += want != SCHED_OK;
					taken += want == SCHED_OK;
				}
	CHECK(refused > 0 && taken > 0);

	enum sched_policy_id owner;
	static _Alignas(8) unsigned char arena[SCHED_ARENA_SIZE_SCRATCH(4, 4)];
	struct sched *s;
	struct sched_config cfg = {.procs = 8, .max_jobs = 4, .policy = SCHED_POLICY_DYNP_BASIC, .scratch_jobs = 4};
	CHECK_EQ(sched_init(&s, &cfg, arena, sizeof arena, NULL, NULL, 0), SCHED_OK);
	struct sched_config before, c;
	memcpy(&before, sched_config_get(s), sizeof before);
	memcpy(&c, &before, sizeof c);
	CHECK_EQ(sched_param_set(&c, sched_param_find("lower", &owner), 9500), SCHED_OK); /* above upper */
	CHECK_EQ(sched_tune_check(s, &c), SCHED_E_INVAL);
	CHECK_EQ(sched_tune(s, &c), SCHED_E_INVAL);
	CHECK(memcmp(sched_config_get(s), &before, sizeof before) == 0);
	CHECK_EQ(sched_param_set(&c, sched_param_find("upper", &owner), 9500), SCHED_OK);
	CHECK_EQ(sched_tune_check(s, &c), SCHED_OK);
	CHECK(memcmp(sched_config_get(s), &before, sizeof before) == 0); /* the check only looks */
	CHECK_EQ(sched_tune(s, &c), SCHED_OK);
	CHECK_EQ(sched_param_get(sched_config_get(s), sched_param_find("lower", &owner)), 9500);
}

/*
 * The NULL-hook rule (core/src/sched_priv.h): `pass` and a time-shared
 * policy's own hooks are required (sched.c calls them unguarded); every
 * other hook is optional and guarded. Beyond that a policy's hooks agree
 * with what the registry states of it (sched_policy_info): a planning policy
 * admits, passes, predicts and enters; a time-shared one has the hooks of its own area; state
 * is declared exactly when it is set up and read; and the shared areas are
 * the largest any policy declares, no more.
 */
static void hooks_agree_with_info(void)
{
	size_t most_state = 0, most_job = 0;
	struct sched_policy_info info;
	for (int id = 0; id < SCHED_POLICY_COUNT; id++) {
		const struct sched_policy *p = sched_policies[id];
		CHECK_EQ(sched_policy_info((enum sched_policy_id)id, &info), SCHED_OK);
		CHECK(info.family != NULL && strcmp(info.name, p->name) == 0);
		CHECK_EQ(info.n_params, p->n_params);
		CHECK_EQ(info.timeshared, sched_policy_timeshared((enum sched_policy_id)id));
		CHECK_EQ(info.needs_scratch, sched_policy_needs_scratch((enum sched_policy_id)id));
		bool any = p->admit || p->reflow || p->pass || p->predict || p->enter || p->on_start || p->on_end ||
			   p->on_cancel || p->on_tune || p->stats || p->reservation_depth || p->job_init || p->job_info;
		bool ts_hooks = p->arena_size || p->init || p->attach || p->leave || p->next_event || p->audit;
		if (info.timeshared) {
			/* Its state is its own area of the arena, laid out at init: every hook of that
			 * life, arrivals and slices through admit and pass, none of the per-job state. */
			CHECK(any && !info.plans && p->state_bytes == 0 && p->job_bytes == 0);
			CHECK(p->arena_size && p->init && p->attach && p->leave && p->next_event && p->audit);
			CHECK(p->admit && p->pass && p->stats);
			CHECK(strcmp(info.family, "gang") == 0);
			continue;
		}
		CHECK(!ts_hooks); /* the time-sharing hooks are only called for a time-shared policy */
		CHECK(p->pass != NULL); /* a policy that never starts a job is none */
		CHECK_EQ(info.plans, p->admit != NULL);
		if (info.plans)
			CHECK(p->predict != NULL && p->enter != NULL);
		CHECK_EQ(info.plans, strcmp(info.family, "queue") != 0);
		CHECK(p->reservation_depth == NULL || info.plans);
		CHECK_EQ(p->job_bytes > 0, p->job_init != NULL);
		CHECK_EQ(p->job_bytes > 0, p->job_info != NULL);
		CHECK(p->state_bytes == 0 || p->enter != NULL || p->on_start != NULL); /* state it never sets is none */
		CHECK(p->state_bytes <= SCHED_POLICY_STATE_BYTES && p->job_bytes <= SCHED_POLICY_JOB_BYTES);
		if (p->state_bytes > most_state)
			most_state = p->state_bytes;
		if (p->job_bytes > most_job)
			most_job = p->job_bytes;
	}
	CHECK_EQ(most_state, SCHED_POLICY_STATE_BYTES);
	CHECK_EQ(most_job, SCHED_POLICY_JOB_BYTES);
	CHECK_EQ(sched_policy_info(SCHED_POLICY_COUNT, &info), SCHED_E_INVAL);
}

static const struct test tests[] = {
	{"hooks_agree_with_info", hooks_agree_with_info},
	{"every_policy_has_a_name_and_help", every_policy_has_a_name_and_help},
	{"every_parameter_round_trips_and_is_checked", every_parameter_round_trips_and_is_checked},
	{"parser_by_hand", parser_by_hand},
	{"a_block_takes_its_defaults", a_block_takes_its_defaults},
	{"the_checks_agree_with_the_calls", the_checks_agree_with_the_calls},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("registry", tests, argc, argv);
}
