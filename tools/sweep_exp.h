/* SPDX-License-Identifier: MIT */
/*
 * Experiment files for build/sweep (docs/sweep.md): axes of replay arguments whose product is the set
 * of cells, each cell one run of build/replay. The format, a line each:
 *
 *   name NAME                      the experiment's name (default: the file's base name)
 *   trace PATH...                  axis "trace": the workload, the last argument of every replay
 *   policy NAME...                 axis "policy": --policy NAME
 *   vary --OPTION VALUE...         axis OPTION: --OPTION VALUE
 *   seeds A-B | seeds S...         axis "seed": --seed S, the repetitions
 *   axis NAME ARGS | ARGS | ...    axis NAME: groups of arguments taken together (a trace with its
 *                                  machine size, say); a group may start with "LABEL:", which its
 *                                  column then shows instead of the arguments
 *   set ARGS...                    arguments every cell gets
 *
 * '#' starts a comment, a line ending in '\' goes on on the next, tokens are separated by blanks.
 * Cells are the product of the axes in file order, the last axis varying fastest; a cell's index is
 * its place in that order, so the same file always gives the same cells in the same order.
 */
#ifndef SWEEP_EXP_H
#define SWEEP_EXP_H

#include <stddef.h>
#include <stdint.h>

#include "sched/err.h"
#include "sched/hash.h"

#define SWEEP_MAX_AXES 16
#define SWEEP_MAX_CELLS 1000000u /* a file asking for more is refused: most likely a mistake */

struct sweep_value {
	char **argv; /* the replay arguments this value adds, in order */
	int argc;
	char *label; /* the value as the sweep's column shows it */
};

struct sweep_axis {
	char *name; /* the column is sweep_NAME */
	struct sweep_value *values;
	int count;
	int is_trace; /* a trace axis goes last on the replay's command line */
};

struct sweep_exp {
	char *name;
	struct sweep_axis axes[SWEEP_MAX_AXES];
	int naxes;
	char **fixed; /* the set lines' arguments, in order */
	int nfixed;
	uint64_t ncells;
};

/*
 * Read the experiment in @p path into @p e. O(size of the file). Returns 0, or SCHED_E_FORMAT with a message
 * "PATH:LINE: what is wrong" in @p err (an unknown keyword, an empty axis, an option the sweep sets
 * itself, no trace, more than SWEEP_MAX_CELLS cells, a file that cannot be read).
 */
int sweep_exp_load(struct sweep_exp *e, const char *path, char *err, size_t errlen);

/* Free what sweep_exp_load() allocated. O(size). */
void sweep_exp_free(struct sweep_exp *e);

/*
 * The replay arguments of cell @p cell (0 <= cell < ncells), without the program name: the set
 * arguments, then each non-trace axis' value in file order, then the trace axes'. @p argv must hold
 * sweep_exp_max_args(e) entries; its strings belong to @p e. Also writes each axis' value index into
 * @p pick if not NULL (SWEEP_MAX_AXES entries). O(axes + arguments). Returns the count.
 */
int sweep_exp_cell_args(const struct sweep_exp *e, uint64_t cell, char **argv, int *pick);

/* The most arguments a cell can have. O(axes). */
int sweep_exp_max_args(const struct sweep_exp *e);

/* The digests' hash: FNV-1a 64 (the core's), from SWEEP_HASH_START, over @p n bytes. O(n). */
#define SWEEP_HASH_START SCHED_FNV_OFFSET
uint64_t sweep_hash(uint64_t h, const void *p, size_t n);

/* sweep_hash() over a whole file into @p h. O(size). Returns 0, or SCHED_E_IO (errno set) if it cannot be read. */
int sweep_hash_file(const char *path, uint64_t *h);

#endif /* SWEEP_EXP_H */
