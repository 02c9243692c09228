/* SPDX-License-Identifier: MIT */
/* The fuzz build's port (port_fuzz.c): the console's output kept for the target to check. */
#ifndef PORT_FUZZ_H
#define PORT_FUZZ_H

#include <stddef.h>

/** What the console has written since the last port_fuzz_clear(); @p n gets its length. O(1). */
const char *port_fuzz_output(size_t *n);

/** Forget the output so far, and start port_cycles() from 0 again (each input runs the same). O(1). */
void port_fuzz_clear(void);

/** Erase the store in RAM, as a new board's flash: the next console_init() formats it. O(store). */
void port_fuzz_store_wipe(void);

#endif /* PORT_FUZZ_H */
