/* SPDX-License-Identifier: MIT */
/* The session's commands: version, selfcheck, selftest, quit. */
#include "commands.h"
#include "con_reply.h"
#include "con_session.h"
#include "port.h"

void cmd_version(struct args *a)
{
	(void)a;
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok sched-core " CONSOLE_VERSION " port=");
	fmt_str(&f, con_port());
	fmt_line(&f);
}

void cmd_selfcheck(struct args *a)
{
	if (!con_str_eq(a->v[1], "on") && !con_str_eq(a->v[1], "off")) {
		con_err(SCHED_E_INVAL, "selfcheck takes on or off");
		return;
	}
	con_set_selfcheck(con_str_eq(a->v[1], "on"));
	con_ok(con_selfcheck() ? " selfcheck=on" : " selfcheck=off");
}

/* selftest fault: fail on purpose, to prove that a fault is reported and ends the run non-zero. */
void cmd_selftest(struct args *a)
{
	if (!con_str_eq(a->v[1], "fault")) {
		con_err(SCHED_E_INVAL, "selftest takes fault");
		return;
	}
	port_selftest_fault();
}

void cmd_quit(struct args *a)
{
	uint32_t code = 0;
	if (a->n == 2 && !con_number(a->v[1], &code))
		return;
	if (code > 255) {
		con_err(SCHED_E_RANGE, "exit code must be 0..255");
		return;
	}
	con_ok(" bye");
	con_quit((int)code);
}
