/* SPDX-License-Identifier: MIT */
/*
 * Durable state over a NOR-like store: a snapshot in two slots and a
 * write-ahead journal of records, each CRC-protected, so that a reset at
 * any instant (a power cut in the middle of any write) leaves a state that
 * restores to every change acknowledged before it; each record is also
 * counted by a mark in both slots, so that an erased or missing journal
 * sector is reported as lost records, never taken for an unwritten one.
 * A store it cannot take up is refused, never formatted unasked. Knows nothing of the
 * scheduler: a snapshot is opaque bytes, a record an opaque payload; the
 * console decides what they hold (firmware/persist.c). The format and the
 * recovery rules: docs/store-format.md. Freestanding: no libc, no malloc.
 */
#ifndef FW_DURABLE_H
#define FW_DURABLE_H

#include <stdbool.h>
#include <stdint.h>

/* How the engine reaches the medium (port_store_* on a controller, a RAM model in tests). */
struct durable_medium {
	int (*erase)(void *ctx, uint32_t sector);
	int (*write)(void *ctx, uint32_t offset, const void *data, uint32_t n);
	int (*read)(void *ctx, uint32_t offset, void *data, uint32_t n);
	void *ctx;
	uint32_t sector_bytes, sectors;
};

#define DURABLE_PAYLOAD_MAX 160u /* bytes of one record's payload */
/*
 * Journal bytes per record mark: a journal of J bytes takes at most J / 64
 * records between snapshots (a console submit line and its copy are about
 * 64 bytes), and each slot keeps two mark bytes per record it may take.
 */
#define DURABLE_MARK_SPAN 64u

/* Why a part of the store was not used on restore (reported, never silent). */
enum durable_discard {
	DURABLE_OK = 0,
	DURABLE_BLANK,      /* erased: never written */
	DURABLE_BAD_HEADER, /* magic, version or header CRC wrong: torn or corrupt */
	DURABLE_BAD_DATA,   /* payload CRC wrong: corrupt */
	DURABLE_REFUSED,    /* valid bytes the caller could not take up (another build's layout) */
	DURABLE_STALE,      /* older than the snapshot restored */
};

/* What durable_restore() found and did. */
struct durable_report {
	bool formatted;           /* the store held nothing, and was started afresh */
	bool refused;             /* nothing usable, but not blank: left as it was (SCHED_E_FORMAT) */
	uint8_t slot_used;        /* the snapshot taken up (0 or 1) */
	uint8_t slot_state[2];    /* enum durable_discard of each slot */
	uint32_t generation;      /* of the snapshot taken up */
	uint32_t snapshot_seq;    /* the last record it contains */
	uint32_t records;         /* journal records replayed after it */
	uint32_t seq;             /* the last change restored: snapshot_seq + records */
	uint32_t second_copies;   /* records whose first copy was corrupt, taken from the second */
	uint32_t one_copy;        /* records whose second copy is missing or differs (a cut between them) */
	uint32_t torn_offset;     /* where unusable bytes follow the last record (0: none) */
	uint32_t torn_bytes;      /* how many bytes there are not erased */
	uint32_t lost_records;    /* acknowledged records the restore could not apply: past a gap or a corrupt
				     pair, or erased or missing (counted by the marks in the slots) */
	bool compacted;           /* a new snapshot was written to leave a clean store */
};

/* The engine's state: caller-owned; read it through the functions below. */
struct durable {
	struct durable_medium m;
	uint32_t slot_sectors, journal_sectors;
	uint32_t generation; /* of the newest snapshot written */
	uint32_t seq;        /* of the last record written (or of the snapshot, if none since) */
	uint8_t active;      /* the slot of the newest snapshot; records go to its journal */
	uint32_t append_at;  /* offset within the active journal of the next record */
	uint32_t snapshot_max;
	uint32_t records_since_snapshot;
	uint32_t snapshots_written;
	bool ready;          /* restored or formatted: appends and snapshots may run */
	bool succ_ok;        /* the active slot's successor record and next marks are erased */
	bool next_ok;        /* the older slot names the active one: records are marked there too */
	uint32_t own_at;     /* mark bytes used in the active slot's own marks */
	uint32_t next_at;    /* and in the older slot's next marks */
};

/** Bytes a store needs for snapshots of up to @p snapshot_max bytes and journals of @p journal_bytes. O(1). */
uint32_t durable_store_bytes(uint32_t sector_bytes, uint32_t snapshot_max, uint32_t journal_bytes);

/**
 * Lay the engine out over @p m: two snapshot slots for up to @p snapshot_max
 * bytes, then two journals of @p journal_bytes each, in whole sectors.
 * Reads nothing. O(1). SCHED_E_NOSPACE: the medium is too small;
 * SCHED_E_INVAL: a zero size or a sector size that is not a power of two.
 */
int durable_mount(struct durable *d, const struct durable_medium *m, uint32_t snapshot_max, uint32_t journal_bytes);

/* The caller's side of a restore: take up a snapshot, then apply records in order. */
struct durable_sink {
	/*
	 * The snapshot's @p len bytes are in the destination: 0 to take them up,
	 * else the slot is refused. @p len 0: nothing usable, start empty.
	 */
	int (*load)(void *ctx, uint32_t len);
	/* Apply one record (its outcome is the caller's: a refused change replays as refused). */
	void (*apply)(void *ctx, uint8_t type, const uint8_t *payload, uint32_t n);
	/* Write a fresh snapshot of the current state (through durable_snapshot()); 0 on success. */
	int (*snapshot)(void *ctx);
	void *ctx;
};

/**
 * Restore: take up the newest snapshot that is whole (read into @p dest of
 * @p cap bytes, CRC-checked, then offered to sink->load), replay the
 * records after it from both journals as long as they follow on without a
 * gap, and report everything set aside, with every acknowledged record the
 * marks count that could not be applied in lost_records. When anything was
 * set aside (a torn tail, a corrupt copy, a bad slot, a lost record) a new
 * snapshot is written at once, so appends never meet half-written bytes.
 * When no snapshot can be taken up: a store that holds nothing (no header
 * but blank or torn ones, no record, no mark) is formatted as by
 * durable_format(); any other is refused, SCHED_E_FORMAT with
 * rep->refused, and nothing is written, so that nothing acknowledged is
 * erased unasked (another build's snapshots, damage): only durable_format()
 * starts it afresh. O(store size + records x apply). Errors of the medium
 * (SCHED_E_IO) and of sink->snapshot are returned; the report is filled as
 * far as it got.
 */
int durable_restore(struct durable *d, void *dest, uint32_t cap, const struct durable_sink *sink,
		    struct durable_report *rep);

/**
 * Format: start the store afresh, whatever it holds, with the caller's
 * empty state (sink->load with length 0, then sink->snapshot into both
 * slots) at seq 0. Every journal sector is erased before the first snapshot,
 * so no record of before can follow on from the new sequence. Generations
 * go on from the highest found, so a format cut short is never mistaken
 * for an older snapshot. O(store size). Medium errors, and sink->snapshot's.
 */
int durable_format(struct durable *d, const struct durable_sink *sink);

/**
 * Append one record (type 1..254, @p n <= DURABLE_PAYLOAD_MAX) to the
 * journal, written twice and then marked in both slots (three writes),
 * durable when this returns. It gets sequence number durable_seq() + 1.
 * O(n). SCHED_E_NOSPACE: the journal or its marks are full (write a
 * snapshot, then append again); SCHED_E_INVAL; SCHED_E_STATE: not restored
 * or formatted; medium errors.
 */
int durable_append(struct durable *d, uint8_t type, const void *payload, uint32_t n);

/* One piece of a snapshot's bytes. */
struct durable_piece {
	const void *data;
	uint32_t n;
};

/**
 * Write a snapshot of the state after record durable_seq(), made of
 * @p count pieces in order, into the older slot, then start its journal
 * empty. The new slot is committed by its header, written last and read
 * back; until then the previous snapshot and journal stay whole.
 * Then the slot it leaves gets a successor record naming it, so the
 * records to come are marked there too. O(snapshot + slot and journal
 * erase). SCHED_E_NOSPACE: over snapshot_max; SCHED_E_CRC: the read-back
 * differs; SCHED_E_STATE: not restored or formatted; medium errors.
 */
int durable_snapshot(struct durable *d, const struct durable_piece *pieces, unsigned count);

/** The sequence number of the last change made durable. O(1). */
uint32_t durable_seq(const struct durable *d);

/* Where the engine stands, for a status line. */
struct durable_info {
	uint32_t generation;        /* of the newest snapshot */
	uint32_t seq;               /* of the last change made durable */
	uint32_t journal_records;   /* records since that snapshot */
	uint32_t journal_free;      /* bytes before the journal is full */
	uint32_t snapshots_written; /* since durable_mount() */
};

/** Fill @p out with where @p d stands. O(1). */
void durable_info(const struct durable *d, struct durable_info *out);

/** Journal bytes still free before a snapshot is needed. O(1). */
uint32_t durable_journal_free(const struct durable *d);

/** Text for an enum durable_discard ("blank", "torn or corrupt header", ...). O(1). */
const char *durable_discard_name(int why);

#endif /* FW_DURABLE_H */
