/* SPDX-License-Identifier: MIT */
/* The configuration as the console shows and parses it (cmd_config.c), for the banner and the replay command. */
#ifndef FW_CON_CONFIG_H
#define FW_CON_CONFIG_H

#include <stdbool.h>

#include "fmt.h"
#include "sched/sched.h"

/** Append the configuration as `config` prints it. O(policy parameters). */
void con_fmt_config(struct fmt *f);

/** Parse a policy name into @p p; otherwise the err reply is printed and false returned. O(policies). */
bool con_policy_arg(const char *name, enum sched_policy_id *p);

#endif /* FW_CON_CONFIG_H */
