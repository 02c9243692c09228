/* SPDX-License-Identifier: MIT */
/* CSV fields as RFC 4180 writes them, shared by the replayer's report and build/sweep. */
#ifndef SIM_CSV_H
#define SIM_CSV_H

#include <stdio.h>

/** Write @p s as one CSV field, quoted only when it holds a comma, a quote or a line break. O(length). */
void csv_field(FILE *f, const char *s);

#endif /* SIM_CSV_H */
