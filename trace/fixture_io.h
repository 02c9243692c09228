/* SPDX-License-Identifier: MIT */
/* Fixtures on the host: load one into an SWF trace, save a trace as one, and load either kind. */
#ifndef SIM_FIXTURE_IO_H
#define SIM_FIXTURE_IO_H

#include "fixture/fixture.h"
#include "swf.h"

/**
 * Read the fixture at @p path into @p t: its records as decoded, no SWF
 * text (header lines are synthesised from the fixture's header). Returns -1 with "PATH: message" in @p err on any
 * codec error (each has its own message: bad magic, CRC mismatch, ...).
 */
int fixture_load(const char *path, struct swf_trace *t, char *err, size_t errlen);

/**
 * Write trace @p t as a fixture at @p path, naming @p source in its header.
 * Fields that are -1 for every job are left out. On success *bytes holds
 * the file's size. O(jobs). On failure (nothing is left at @p path then),
 * with a message: SCHED_E_NOSPACE, SCHED_E_FORMAT (a header the codec
 * refuses), SCHED_E_STATE (the file could not be written).
 */
int fixture_save(const char *path, const struct swf_trace *t, const char *source, size_t *bytes,
		 char *err, size_t errlen);

/** True when the file at @p path starts with the fixture magic. */
bool fixture_is(const char *path);

/**
 * Read a fixture or an SWF file (plain or gzip'd), whichever @p path holds; errors as theirs.
 * @p keep_text keeps an SWF file's lines as written (swf_read); false reads the job records only
 * (swf_read_jobs). A fixture has no text either way.
 */
int trace_load(const char *path, bool keep_text, struct swf_trace *t, char *err, size_t errlen);

#endif /* SIM_FIXTURE_IO_H */
