/* SPDX-License-Identifier: MIT */
/* bench [BACKLOG]: the per-operation benchmark (bench.c) over the console's arena. */
#include "commands.h"
#include "con_reply.h"
#include "con_session.h"

void cmd_bench(struct args *a)
{
	uint32_t max_backlog = BENCH_MAX_BACKLOG;
	if (a->n == 2 && !con_number(a->v[1], &max_backlog))
		return;
	if (max_backlog == 0 || max_backlog > BENCH_MAX_BACKLOG) {
		con_err(SCHED_E_RANGE, "bench backlog must be 1..1024");
		return;
	}
	unsigned char *arena = con_arena_take();
	if (arena == NULL)
		return; /* the store refused the reset this benchmark is to the live schedule */
	bench_run(arena, CON_ARENA_BYTES, max_backlog);
	bench_gang(arena, CON_ARENA_BYTES);
	con_live_init(); /* the benchmark used the live schedule's arena */
	con_ok(" bench");
}
