/* SPDX-License-Identifier: MIT */
/* What only the host port offers: naming the file behind the store, and cutting writes for tests. */
#ifndef PORT_HOST_H
#define PORT_HOST_H

#include <stdint.h>

/**
 * Back port_store_open() with the file @p path (created if missing); NULL:
 * no store. Call before port_store_open(). O(1).
 */
void port_host_store_file(const char *path);

/**
 * A power cut for tests: after @p bytes more bytes have reached the file
 * (an erase counts its sector), the write in progress stops there and the
 * process ends at once with status 86, as a board loses power mid-write.
 * 0 turns it off. The environment variable SCHED_STORE_CUT sets it too.
 */
void port_host_store_cut(uint64_t bytes);

/**
 * A failing medium for tests: the @p nth port_store_write() from now
 * returns SCHED_E_IO and writes nothing (the process goes on). 0 turns it
 * off. The environment variable SCHED_STORE_FAIL sets it too.
 */
void port_host_store_fail(uint64_t nth);

#endif /* PORT_HOST_H */
