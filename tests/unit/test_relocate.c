/* SPDX-License-Identifier: MIT */
/*
 * The scheduler's state is position-independent: a byte copy of its arena,
 * taken at any point of a replay and carried on at another address (the
 * old one scribbled over), gives the same schedule, bit for bit, as the
 * uninterrupted run. This is what a controller's checkpoint relies on.
 * Every policy of the registry runs, gang scheduling (the gang module's
 * arena) included.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "sched/replay.h"
#include "test_params.h"

#define JOBS 400u

struct source {
	struct sched_replay_job jobs[JOBS];
	uint32_t next;
};

/* A random workload heavy enough that jobs wait, end early and are killed. */
static void make_workload(struct source *src, uint64_t seed, sched_procs_t procs)
{
	struct test_rng r;
	test_rng_seed(&r, seed);
	sched_time_t t = 0;
	for (uint32_t i = 0; i < JOBS; i++) {
		struct sched_replay_job *j = &src->jobs[i];
		t += test_rng_range(&r, 0, 40);
		j->seq = i;
		j->submit = t;
		j->procs = test_rng_range(&r, 1, procs);
		j->estimate = test_rng_range(&r, 1, 2000);
		j->run = test_rng_range(&r, 0, 3) == 0 ? j->estimate + 5 : test_rng_range(&r, 0, j->estimate);
		j->user = test_rng_range(&r, 0, 5);
		j->queue = 0;
		j->partition = SCHED_PART_ANY;
		j->up_milli = (uint16_t)test_rng_range(&r, 0, 1000);
		j->pp_milli = 0;
	}
	src->next = 0;
}

static int next_job(void *ctx, struct sched_replay_job *job)
{
	struct source *src = ctx;
	if (src->next == JOBS)
		return 0;
	*job = src->jobs[src->next++];
	return 1;
}

/* Two arenas the replay hops between; every `every` steps it moves to the other. The hopper keeps
 * the replay's own handle (the step callback is given a read-only view, not a licence to move it). */
struct hopper {
	struct sched_replay *r;
	unsigned char *arena[2];
	size_t size;
	int at;
	uint32_t steps, every, moves;
	int failed;
};

static void on_step(void *ctx, const struct sched_replay *seen, sched_time_t t)
{
	(void)t;
	struct hopper *h = ctx;
	struct sched_replay *r = h->r;
	if (seen != r)
		h->failed = 1;
	if (++h->steps % h->every != 0)
		return;
	int to = 1 - h->at;
	memcpy(h->arena[to], h->arena[h->at], h->size);
	if (sched_replay_move(r, h->arena[to], h->size) != SCHED_OK)
		h->failed = 1;
	else if (sched_check(sched_replay_sched(r)) != SCHED_OK) /* gang's own checker too, through its audit hook */
		h->failed = 1;
	memset(h->arena[h->at], 0xA5, h->size); /* nothing may still point into the old copy */
	h->at = to;
	h->moves++;
}

/* The run's hash; `*ok` false if any step failed (CHECK cannot return from a function with a value). */
static uint64_t replay_hash(enum sched_policy_id p, struct source *src, uint32_t every, uint32_t *moves, int *ok)
{
	struct sched_config cfg = {.procs = 64, .max_jobs = 96, .policy = p, .scratch_jobs = 96};
	cfg = tp_set(cfg, "tolerance", 300);
	struct hopper h = {.at = 0, .every = every};
	h.size = sched_replay_arena_size_cfg(&cfg);
	h.arena[0] = aligned_alloc(SCHED_ARENA_ALIGN, (h.size + 7u) & ~(size_t)7u);
	h.arena[1] = aligned_alloc(SCHED_ARENA_ALIGN, (h.size + 7u) & ~(size_t)7u);
	static _Alignas(SCHED_ARENA_ALIGN) unsigned char room[SCHED_REPLAY_BYTES];
	uint64_t hash = 0;
	*ok = 0;
	if (h.arena[0] != NULL && h.arena[1] != NULL &&
	    sched_replay_init(&h.r, room, sizeof room, &cfg, h.arena[0], h.size, NULL, &h) == SCHED_OK) {
		if (every != 0)
			sched_replay_on_step(h.r, on_step);
		src->next = 0;
		*ok = sched_replay_run(h.r, next_job, src) == SCHED_OK && !h.failed;
		struct sched_replay_stats st;
		sched_replay_stats(h.r, &st);
		hash = st.hash;
	}
	free(h.arena[0]);
	free(h.arena[1]);
	*moves = h.moves;
	return hash;
}

static void a_moved_replay_keeps_its_schedule(void)
{
	static struct source src;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		make_workload(&src, seed, 64);
		for (int p = 0; p < SCHED_POLICY_COUNT; p++) {
			uint32_t moves = 0, none = 0;
			int ok;
			uint64_t straight = replay_hash((enum sched_policy_id)p, &src, 0, &none, &ok);
			CHECK(ok);
			/* Every step, then at irregular points (a prime stride). */
			CHECK_EQ(replay_hash((enum sched_policy_id)p, &src, 1, &moves, &ok), straight);
			CHECK(ok && moves > JOBS);
			CHECK_EQ(replay_hash((enum sched_policy_id)p, &src, 37, &moves, &ok), straight);
			CHECK(ok && moves > 10);
		}
	}
}

static void attach_refuses_what_is_not_a_scheduler(void)
{
	static _Alignas(8) unsigned char arena[SCHED_ARENA_SIZE(8)], junk[SCHED_ARENA_SIZE(8)];
	struct sched_config cfg = {.procs = 4, .max_jobs = 8, .policy = SCHED_POLICY_CONS};
	struct sched *s, *t;
	CHECK_EQ(sched_init(&s, &cfg, arena, sizeof arena, NULL, NULL, 0), SCHED_OK);
	harness_watch(s);
	CHECK(sched_arena_used(s) <= sizeof arena);
	memset(junk, 0x5A, sizeof junk);
	CHECK_EQ(sched_attach(&t, junk, sizeof junk, NULL, NULL), SCHED_E_FORMAT);
	memcpy(junk, arena, sizeof junk);
	CHECK_EQ(sched_attach(&t, junk, sched_arena_used(s) - 1, NULL, NULL), SCHED_E_NOSPACE);
	CHECK_EQ(sched_attach(&t, junk + 1, sizeof junk - 1, NULL, NULL), SCHED_E_INVAL);
	CHECK_EQ(sched_attach(&t, junk, sizeof junk, NULL, NULL), SCHED_OK);
	CHECK(t == (struct sched *)(void *)junk);
	harness_watch(t); /* the copy, taken up: as sound as the original */
	CHECK_EQ(sched_check(t), SCHED_OK);
}

static const struct test tests[] = {
	{"a_moved_replay_keeps_its_schedule", a_moved_replay_keeps_its_schedule},
	{"attach_refuses_what_is_not_a_scheduler", attach_refuses_what_is_not_a_scheduler},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("relocate", tests, argc, argv);
}
