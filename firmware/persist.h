/* SPDX-License-Identifier: MIT */
/*
 * What survives a reset (persist.c): the console's state in the port's
 * non-volatile store, through the durable engine. Persist knows the store
 * (its journal, its replay budget, whether it failed), not the console: what
 * a snapshot holds, how a journaled line runs again and how a refusal is
 * printed reach it through the sink the console gives persist_boot(), as the
 * durable engine reaches persist through its own sink. Without a store (no
 * --store on the host, no semihosting store on a board) these do nothing.
 */
#ifndef FW_PERSIST_H
#define FW_PERSIST_H

#include <stdbool.h>
#include <stdint.h>

#include "durable.h"
#include "fmt.h"

/* What the restore line shows of the live schedule once the store is taken up. */
struct persist_live {
	uint32_t now, waiting, running;
};

/* The console's side of the store: every call persist makes out of itself goes through here. */
struct persist_sink {
	void *ctx;
	unsigned char *buffer; /* where a snapshot is read back (the live arena) */
	uint32_t capacity;     /* its bytes */
	uint32_t snapshot_max; /* the largest snapshot save() writes */
	/* The empty schedule at boot's configuration: nothing to restore, or a restore undone. */
	void (*reset)(void *ctx);
	/* Take up the snapshot of @p len bytes in buffer: SCHED_OK, or why not (durable_sink's load). */
	int (*load)(void *ctx, uint32_t len);
	/*
	 * Hand the pieces a snapshot of the current state is made of, in order,
	 * to @p write, and return what it returns (the pieces may live on the
	 * console's stack: they are used only during the call).
	 */
	int (*save)(void *ctx, int (*write)(const struct durable_piece *pieces, unsigned count));
	/* Run one journaled line again, muted and not journaled again. */
	void (*replay)(void *ctx, char *line);
	/* Print the err reply for the (negative) sched_err @p code with its reason. */
	void (*refuse)(void *ctx, int code, const char *why);
	/* The clock and the load, for the restore line. */
	void (*live)(void *ctx, struct persist_live *out);
};

/** At boot: restore the newest state the store holds through @p sink (kept) and print the "restore" line. O(restore). */
void persist_boot(const struct persist_sink *sink);

/** Append " store=on|off|failed" (and the journal's position) to the banner. O(1). */
void persist_fmt_banner(struct fmt *f);

/**
 * Make the line @p text (@p n bytes) durable before it runs, compacting a
 * full journal into a snapshot first. True if it is (or there is no store);
 * false with the err reply printed (sink->refuse) if the store failed.
 * O(one append; a snapshot when the journal is full or over its budget).
 */
bool persist_log(const char *text, unsigned n);

/**
 * A journaled line ran for @p cycles (the port's counter): what replaying it
 * would cost a restore. When the journal's total passes the budget, the next
 * line is preceded by a snapshot, so a restore never replays more. O(1).
 */
void persist_ran(uint64_t cycles);

enum persist_state { PERSIST_OFF, PERSIST_ON, PERSIST_FAILED };

/* Where the store stands, for the store and digest commands; the counts are 0 unless on. */
struct persist_info {
	enum persist_state state;
	int failure;  /* the sched_err that made it fail (SCHED_E_FORMAT: refused at boot) */
	bool mounted; /* laid out over the port's store: a format can run */
	uint32_t sectors, sector_bytes;
	uint32_t generation, seq, journal_records, journal_free, snapshots_written;
	uint32_t snapshot_bytes; /* what a snapshot of the current state takes */
	uint64_t journal_cost, replay_budget; /* what a restore would replay now, and the most it may */
	uint32_t budget_snapshots; /* snapshots taken because the cost passed the budget */
};

/** Fill @p out with where the store stands. O(1), and a snapshot's size summed through sink->save. */
void persist_info(struct persist_info *out);

/**
 * Start a mounted store afresh with the empty schedule, discarding what it
 * held. O(store size). On an error the store is failed (journaled commands
 * are refused) and the error returned; SCHED_E_STATE if it is not mounted.
 */
int persist_format(void);

/** Compact the journal into a snapshot now. O(snapshot). SCHED_E_STATE if the store is not on; other errors fail it. */
int persist_snapshot(void);

#endif /* FW_PERSIST_H */
