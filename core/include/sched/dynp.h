/* SPDX-License-Identifier: MIT */
/* The dynP family (seed 004): planning orders FCFS, SJF, LJF, and the deciders that switch between them. */
#ifndef SCHED_DYNP_H
#define SCHED_DYNP_H

#include <stdbool.h>
#include <stdint.h>

#include "sched/types.h"

/* The order in which a planning pass places the waiting jobs (seed 004 section 3). */
enum sched_order {
	SCHED_ORDER_FCFS, /* ascending arrival */
	SCHED_ORDER_SJF,  /* ascending estimate, then arrival */
	SCHED_ORDER_LJF,  /* descending estimate, then arrival */
	SCHED_ORDER_COUNT
};

/* Self-tuning dynP's decider (section 3.2, Table 1). */
enum sched_decider {
	SCHED_DECIDER_ADVANCED, /* the last column of Table 1 (default) */
	SCHED_DECIDER_SIMPLE,   /* the pseudo-code switch_to_best_policy() */
	SCHED_DECIDER_COUNT
};

/* The quality of a virtual schedule (section 3.2); lower is better. */
enum sched_quality {
	SCHED_QUALITY_ARTWW, /* average response time weighted by width (default) */
	SCHED_QUALITY_ART,   /* average response time */
	SCHED_QUALITY_MS,    /* makespan */
	SCHED_QUALITY_COUNT
};

/* The rows of Table 1. 4b and 5 are one condition, as are 2 and 7, and 3 and 9 (Table 6 counts them together). */
enum sched_dynp_case {
	SCHED_CASE_1,   /* FCFS = SJF = LJF */
	SCHED_CASE_2,   /* SJF < FCFS, SJF < LJF (FCFS != LJF) */
	SCHED_CASE_3,   /* FCFS < SJF, FCFS < LJF (SJF != LJF) */
	SCHED_CASE_4A,  /* LJF < FCFS, LJF < SJF, FCFS < SJF */
	SCHED_CASE_4B,  /* LJF < FCFS, LJF < SJF, FCFS = SJF (= case 5) */
	SCHED_CASE_4C,  /* LJF < FCFS, LJF < SJF, FCFS > SJF */
	SCHED_CASE_6A,  /* FCFS = SJF < LJF, current FCFS */
	SCHED_CASE_6B,  /* FCFS = SJF < LJF, current SJF */
	SCHED_CASE_6C,  /* FCFS = SJF < LJF, current LJF */
	SCHED_CASE_7,   /* FCFS = LJF, SJF < FCFS */
	SCHED_CASE_8A,  /* FCFS = LJF < SJF, current FCFS */
	SCHED_CASE_8B,  /* FCFS = LJF < SJF, current SJF */
	SCHED_CASE_8C,  /* FCFS = LJF < SJF, current LJF */
	SCHED_CASE_9,   /* SJF = LJF, FCFS < SJF */
	SCHED_CASE_10A, /* SJF = LJF < FCFS, current FCFS */
	SCHED_CASE_10B, /* SJF = LJF < FCFS, current SJF */
	SCHED_CASE_10C, /* SJF = LJF < FCFS, current LJF */
	SCHED_CASE_COUNT
};

/* What the dynP policies did, for the layout of seed 004 Tables 4 to 6. */
struct sched_dynp_stats {
	uint32_t started[SCHED_ORDER_COUNT];  /* jobs started while each order was in force */
	uint32_t calls;                       /* decider calls (self-tuning steps, or basic decisions) */
	uint32_t same;                        /* calls that kept the current order */
	uint32_t switches[SCHED_ORDER_COUNT]; /* calls that switched to each order */
	uint64_t backlog;                     /* sum over calls of the waiting jobs at the call */
	uint32_t cases[SCHED_CASE_COUNT];     /* self-tuning: how often each row of Table 1 came up */
	uint32_t differs;                     /* self-tuning: calls where the other decider would have chosen otherwise */
};

/**
 * The decider of self-tuning dynP (seed 004 section 3.2, Table 1): from the
 * qualities @p q (indexed by enum sched_order, lower is better, compared
 * exactly) and the @p current order, the order to use, and in @p c (may be
 * NULL) the row of Table 1. O(1).
 */
enum sched_order sched_dynp_decide(enum sched_decider d, const uint64_t q[SCHED_ORDER_COUNT],
				   enum sched_order current, enum sched_dynp_case *c);

/** Name of a case ("1", "4a", ...), an order ("fcfs", "sjf", "ljf"); NULL if unknown. O(1).
 * (Deciders and qualities are CHOICE parameters: sched_param_parse/format name them.) */
const char *sched_dynp_case_name(enum sched_dynp_case c);
const char *sched_order_name(enum sched_order o);

#endif /* SCHED_DYNP_H */
