/* SPDX-License-Identifier: MIT */
/* The property checkers' report of what they found broken. */
#ifndef PROP_VIOLATION_H
#define PROP_VIOLATION_H

/* Violations found so far. */
extern int violations;

/* Count one violation and print it ("violation: ..."), the first 20 only. */
void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* PROP_VIOLATION_H */
