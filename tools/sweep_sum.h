/* SPDX-License-Identifier: MIT */
/*
 * A sweep's table summarised (docs/sweep.md, "Summaries and plots"): its rows grouped by the columns a
 * user names (axes, or the replayer's own columns such as policy), and for every numeric metric the
 * mean and the 95% interval over the rest of the rows of each group (the seeds, say); and one metric
 * drawn against one column, one line per value of another, as a gnuplot script and its data, rendered
 * to SVG when gnuplot is installed.
 */
#ifndef SWEEP_SUM_H
#define SWEEP_SUM_H

#include <stddef.h>

/*
 * Split one CSV line (RFC 4180) into at most @p max fields, in place. O(length). Returns the count, or
 * SCHED_E_FORMAT (an unclosed quote, text after a closing quote, more than @p max fields).
 */
int sweep_csv_split(char *line, char **f, int max);

/*
 * Group the CSV table @p table by @p keys (comma-separated names; each the column of that name, else
 * sweep_NAME, else run_NAME) and write @p out: the keys, n, then for each metric (a column neither a
 * key nor sweep_* nor run_*, whose non-empty values are all numbers) METRIC_mean and METRIC_ci95 (the
 * half width of the Student t interval, empty for one row). Groups in the order of their first row.
 * O(rows log rows x columns). Returns 0, or SCHED_E_INVAL / SCHED_E_IO / SCHED_E_FORMAT with the
 * reason in @p err (an unknown key naming the columns there are, an unreadable table).
 */
int sweep_summary(const char *table, const char *keys, const char *out, char *err, size_t errlen);

/*
 * Draw @p spec, "METRIC:X[:LINE]", from the CSV table @p table: the mean of METRIC with its 95%
 * interval against X, one line per value of LINE; into BASE.dat (gnuplot's data: a block per line),
 * BASE.gp (the script) and BASE.svg, the last by running gnuplot when it is on the PATH (else said on
 * stderr: the script is there to run). O(rows log rows). Returns 0, or an error as sweep_summary.
 */
int sweep_plot(const char *table, const char *spec, const char *base, char *err, size_t errlen);

#endif /* SWEEP_SUM_H */
