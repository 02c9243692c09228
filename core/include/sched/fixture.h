/* SPDX-License-Identifier: MIT */
/* The compact binary fixture format: a streaming decoder and a record encoder, both malloc-free. */
#ifndef SCHED_FIXTURE_H
#define SCHED_FIXTURE_H

#include "sched/err.h"
#include "sched/types.h"

/*
 * A fixture holds a workload trace's jobs in a few bytes each, with the
 * fields the schedulers and metrics use (docs/fixture-format.md):
 *
 *   header   magic "SWFX", version, sizes, machine, epoch and time zone,
 *            which fields are present, source name (little-endian, sized)
 *   records  one bit-packed record per job, adaptively coded
 *   trailer  CRC-32 (IEEE 802.3) of every byte before it
 *
 * The decoder pulls bytes through a callback, keeps a fixed state of about
 * 600 bytes and never allocates, so a board streams a fixture from flash.
 * Corrupt input gets a specific error code (SCHED_E_MAGIC ..), never a crash.
 */

#define FIX_MAGIC "SWFX"
#define FIX_VERSION 1
#define FIX_HEADER_FIXED 44   /* header bytes before the two strings */
#define FIX_NAME_MAX 127      /* longest source name or time zone name */

/*
 * The codec reports errors as enum sched_err (sched/err.h): SCHED_E_MAGIC ..
 * SCHED_E_IO say exactly what is wrong. FIX_END is no error but the
 * decoder's "no more records, the trailer checked out".
 */
#define FIX_END 1

/* SWF fields a fixture keeps; bit (f - 1) of fix_header.fields for SWF field f. */
enum fix_field {
	FIX_F_JOB = 1, FIX_F_SUBMIT = 2, FIX_F_RUN = 4, FIX_F_ALLOC_PROCS = 5,
	FIX_F_REQ_PROCS = 8, FIX_F_REQ_TIME = 9, FIX_F_STATUS = 11, FIX_F_USER = 12,
	FIX_F_GROUP = 13, FIX_F_QUEUE = 15, FIX_F_PARTITION = 16,
};
#define FIX_FIELD_BIT(f) (1u << ((f) - 1))
#define FIX_KEPT_FIELDS                                                                    \
	(FIX_FIELD_BIT(FIX_F_JOB) | FIX_FIELD_BIT(FIX_F_SUBMIT) | FIX_FIELD_BIT(FIX_F_RUN) |  \
	 FIX_FIELD_BIT(FIX_F_ALLOC_PROCS) | FIX_FIELD_BIT(FIX_F_REQ_PROCS) |                  \
	 FIX_FIELD_BIT(FIX_F_REQ_TIME) | FIX_FIELD_BIT(FIX_F_STATUS) |                        \
	 FIX_FIELD_BIT(FIX_F_USER) | FIX_FIELD_BIT(FIX_F_GROUP) | FIX_FIELD_BIT(FIX_F_QUEUE) | \
	 FIX_FIELD_BIT(FIX_F_PARTITION))

struct fix_header {
	uint16_t version;
	uint32_t jobs;           /* records that follow */
	uint32_t records_bytes;  /* bytes of the record section */
	uint32_t max_procs;      /* header MaxProcs, 0 when the trace has none */
	uint32_t max_nodes;      /* header MaxNodes, 0 when the trace has none */
	int64_t unix_start;      /* UnixStartTime, valid with has_unix_start */
	int32_t tz_offset;       /* TimeZone, valid with has_tz_offset */
	bool has_unix_start;
	bool has_tz_offset;
	uint32_t fields;         /* FIX_FIELD_BIT of each field present; absent ones read as -1 */
	char tz_name[FIX_NAME_MAX + 1];
	char source[FIX_NAME_MAX + 1];
};

/* One job: the kept SWF fields, -1 where unknown. */
struct fix_job {
	int32_t job, submit, run, alloc_procs, req_procs, req_time;
	int32_t status, user, group, queue, partition;
};

/* Adaptive Rice coder state for one stream of numbers. */
struct fix_rice {
	uint64_t mean16; /* running mean x 16 */
	uint8_t k;       /* the Rice parameter that mean gives */
};

/* A move-to-front cache for fields with few distinct values. */
#define FIX_MTF_MAX 16
struct fix_mtf {
	int32_t v[FIX_MTF_MAX];
	uint8_t n, cap;
	struct fix_rice index, raw;
};

/* The model both sides evolve identically, record by record. */
struct fix_model {
	int32_t prev_job, prev_submit;
	struct fix_rice job, submit, run, alloc, req_procs;
	struct fix_mtf req_time, status, user, group, queue, partition;
};

/** Pull up to @p n bytes into @p buf; return how many (0 at the end), or -1 on failure. */
typedef long (*fix_read_fn)(void *ctx, uint8_t *buf, size_t n);

/* Bytes the decoder asks its source for at a time: fewer calls, at this much RAM. */
#ifndef FIX_DEC_CHUNK
#define FIX_DEC_CHUNK 256
#endif

struct fix_dec {
	struct fix_header hdr;
	fix_read_fn read;
	void *ctx;
	uint8_t buf[FIX_DEC_CHUNK];
	size_t buf_len, buf_pos;
	size_t crc_pos;         /* bytes of buf the CRC has taken (at most buf_pos) */
	uint32_t crc;           /* of every byte before buf + crc_pos */
	uint64_t consumed;      /* bytes consumed so far */
	uint64_t bits;          /* bit buffer of the record section, next bit lowest */
	unsigned nbits;
	uint32_t record_left;   /* bytes of the record section not yet loaded */
	int src_err;            /* the source failed (or ended) inside the record section */
	uint32_t jobs_done;
	struct fix_model model;
	int state;              /* error latched once one happens */
};

/**
 * Read and validate the header through @p read. O(header).
 * @retval SCHED_OK, SCHED_E_MAGIC, SCHED_E_VERSION, SCHED_E_HEADER, SCHED_E_TRUNCATED, SCHED_E_IO.
 */
int fix_dec_init(struct fix_dec *d, fix_read_fn read, void *ctx);

/**
 * Decode the next job into @p job. After the last one it checks the
 * padding, the CRC and the end of data and returns FIX_END. O(1) per job.
 * @retval SCHED_OK a job was decoded. @retval FIX_END all done, checksum good.
 * @retval SCHED_E_TRUNCATED, SCHED_E_COUNT, SCHED_E_CRC, SCHED_E_TRAILING, SCHED_E_VALUE, SCHED_E_IO.
 * An error is latched: every later call returns it again.
 */
int fix_dec_next(struct fix_dec *d, struct fix_job *job);

/* A byte source over memory, e.g. a fixture linked into flash. */
struct fix_mem {
	const uint8_t *data;
	size_t len, pos;
};

/** fix_read_fn over a struct fix_mem. */
long fix_mem_read(void *ctx, uint8_t *buf, size_t n);

/** Write @p n bytes; return 0, or -1 on failure. */
typedef int (*fix_write_fn)(void *ctx, const uint8_t *buf, size_t n);

struct fix_enc {
	fix_write_fn write;
	void *ctx;
	uint32_t fields;
	uint32_t bits;
	unsigned nbits;
	uint64_t bytes;         /* record bytes written */
	struct fix_model model;
	int state;
};

/**
 * Serialise @p h into @p out (at least FIX_HEADER_FIXED + 2 * (FIX_NAME_MAX + 1)
 * bytes); returns the header size, or SCHED_E_HEADER if a field is out of range.
 */
int fix_header_encode(const struct fix_header *h, uint8_t *out, size_t cap);

/** Start encoding records of the fields in @p fields (FIX_FIELD_BIT set). O(1). */
void fix_enc_init(struct fix_enc *e, uint32_t fields, fix_write_fn write, void *ctx);

/** Append one job. O(1). @retval SCHED_OK, SCHED_E_IO. */
int fix_enc_job(struct fix_enc *e, const struct fix_job *job);

/** Flush the last partial byte; e->bytes is then the record section's size. @retval SCHED_OK, SCHED_E_IO. */
int fix_enc_finish(struct fix_enc *e);

/** Continue a CRC-32 (IEEE 802.3, reflected, as zlib's crc32) over @p n bytes; start from 0. */
uint32_t fix_crc32(uint32_t crc, const uint8_t *p, size_t n);

#endif /* SCHED_FIXTURE_H */
