/* SPDX-License-Identifier: MIT */
/* bench [BACKLOG]: the per-operation benchmark (bench.c) over the console's arena. */
#include "commands.h"
#include "con.h"

void cmd_bench(struct args *a)
{
	uint32_t max_backlog = BENCH_MAX_BACKLOG;
	if (a->n == 2 && !con_number(a->v[1], &max_backlog))
		return;
	if (max_backlog == 0 || max_backlog > BENCH_MAX_BACKLOG) {
		con_err(SCHED_E_RANGE, "bench backlog must be 1..1024");
		return;
	}
	if (!con_arena_take())
		return; /* the store refused the reset this benchmark is to the live schedule */
	bench_run(con_arena, sizeof con_arena, max_backlog);
	bench_gang(con_arena, sizeof con_arena);
	con_live_init(); /* the benchmark used the live schedule's arena */
	con_ok(" bench");
}
