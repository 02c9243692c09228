/* SPDX-License-Identifier: MIT */
/*
 * The console's only reads of struct sched's (and the replay's) fields
 * (view.c): when the core's objects become opaque, only that file changes.
 */
#ifndef FW_CON_VIEW_H
#define FW_CON_VIEW_H

#include <stdint.h>

#include "fmt.h"
#include "sched/replay.h"
#include "sched/sched.h"

struct con_load {
	uint32_t waiting, running, busy, segments; /* segments: of partition 0's profile */
};
/** Jobs waiting and running, processors busy, profile segments. O(1). */
struct con_load con_view_load(const struct sched *s);
/** The live configuration, policy parameters included, as the core normalised it. O(1). */
const struct sched_config *con_view_params(const struct sched *s);
/** Append `stats`'s counters and pool peaks (" submitted=N ... peak_segments=N"). O(1). */
void con_fmt_counters(struct fmt *f, const struct sched *s);
/** Slack insertions of a replay that found too little scratch. O(1). */
uint32_t con_view_fallbacks(const struct sched_replay *r);

#endif /* FW_CON_VIEW_H */
