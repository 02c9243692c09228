/* SPDX-License-Identifier: MIT */
/* The backends, one line each: --backend's names, its help and the dispatch come from this list. A new
 * backend is one file (a struct backend) and one line here. */
#ifndef BRIDGE_BACKENDS_H
#define BRIDGE_BACKENDS_H

#define BRIDGE_BACKENDS(X) \
	X(backend_local)   \
	X(backend_slurm)

#endif /* BRIDGE_BACKENDS_H */
