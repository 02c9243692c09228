/* SPDX-License-Identifier: MIT */
/* The replies and argument parsing every command file shares (console.c): one "ok" or "err" line per command. */
#ifndef FW_CON_REPLY_H
#define FW_CON_REPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "fmt.h"       /* the lines a reply is built in */
#include "sched/err.h" /* the codes it carries */

/** Print "err N MESSAGE" for the (negative) sched_err @p code, with ": WHY" when @p why is not NULL. O(1). */
void con_err(int code, const char *why);

/** Print "ok" followed by @p text as it is (e.g. " bye" or ""). O(1). */
void con_ok(const char *text);

/** A decimal number that fits 32 bits into @p out; otherwise the err reply is printed and false returned. O(digits). */
bool con_number(const char *s, uint32_t *out);

/** Whether two strings are equal (no libc on a board). O(length). */
bool con_str_eq(const char *a, const char *b);

#endif /* FW_CON_REPLY_H */
