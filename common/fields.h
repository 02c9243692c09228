/* SPDX-License-Identifier: MIT */
/* One value as a CSV field (RFC 4180) or a JSON string or number (RFC 8259), shared by the replayer's report and build/sweep (common/: neither includes the other's headers). */
#ifndef COMMON_FIELDS_H
#define COMMON_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** Write @p s as one CSV field, quoted only when it holds a comma, a quote or a line break. O(length). */
void csv_field(FILE *f, const char *s);

/** Write @p s as a JSON string: quoted, with `"` and `\` escaped and control characters as \\u00XX. O(length). */
void json_string(FILE *f, const char *s);

/** Whether the @p n bytes at @p s are a number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?. O(n). */
bool json_number(const char *s, size_t n);

/** @p path without its folders (the part after the last '/'), a pointer into it. O(length). */
const char *path_base_name(const char *path);

#endif /* COMMON_FIELDS_H */
