/* SPDX-License-Identifier: MIT */
/* The console's message table: its own codes, then the core's. */
#include "console_err.h"

const char *con_strerror(int err)
{
	switch (err) {
#define CON_ERR_CASE_(name, num, msg) \
	case CON_E_##name: return msg;
	CON_ERRORS(CON_ERR_CASE_)
#undef CON_ERR_CASE_
	/* The core's codes, listed only so that a console code that reuses one is a duplicate case. */
#define SCHED_ERR_CASE_(name, num, msg) case SCHED_E_##name:
	SCHED_ERRORS(SCHED_ERR_CASE_)
#undef SCHED_ERR_CASE_
	default:
		return sched_strerror(err);
	}
}
