/* SPDX-License-Identifier: MIT */
/* A site file: the machine's partitions, its queues with their limits, and how trace jobs map to them. */
#ifndef SIM_SITE_H
#define SIM_SITE_H

#include <stddef.h>
#include <stdint.h>

#include "clean.h"
#include "sched/replay.h"
#include "sched/sched.h"

/*
 * The format is in docs/site-format.md; fixtures/nccs-palm.site is the
 * commented example. A site gives the core its partitions and queues
 * (struct sched_config) and gives each trace job its queue, partition and
 * priorities (site_assign).
 */

#define SITE_NAME_MAX 24
#define SITE_MAX_MAPS 256
#define SITE_MAX_ROUTES 32
#define SITE_MAX_USERS 4096

struct site_range {
	uint32_t lo, hi; /* inclusive; hi 0 = no upper bound */
};

struct site_prio {
	uint16_t up, pp;   /* thousandths; pp may be SCHED_PP_OVER_QUOTA */
	bool has_up, has_pp;
};

struct site_route {
	uint8_t queue;
	struct site_range procs, time;
};

struct site_map {
	int32_t swf;   /* the value of SWF field 15 (queue) or 16 (partition) */
	uint8_t to;    /* queue or partition index */
};

struct site_user {
	uint32_t user;
	struct site_prio prio;
};

struct site {
	char part_name[SCHED_MAX_PARTITIONS][SITE_NAME_MAX];
	char queue_name[SCHED_MAX_QUEUES][SITE_NAME_MAX];
	struct site_prio queue_prio[SCHED_MAX_QUEUES];
	int default_queue;                 /* -1: none */
	struct sched_config cfg;           /* n_partitions, partition_procs, n_queues, queues */
	struct site_map queue_map[SITE_MAX_MAPS], part_map[SITE_MAX_MAPS];
	size_t n_queue_map, n_part_map;
	struct site_route routes[SITE_MAX_ROUTES];
	size_t n_routes;
	struct site_user *users;           /* n_users entries, sorted by user after loading */
	size_t n_users;
};

/**
 * Read site file @p path into @p s. O(size). Returns SCHED_OK, SCHED_E_NOENT
 * (cannot open), or SCHED_E_FORMAT with "FILE:LINE: message" in @p err (unknown keyword, bad number or range, duplicate or
 * unknown name, a table full, no partition or no queue).
 */
int site_load(const char *path, struct site *s, char *err, size_t errlen);

/** Parse a site from text (for tests); @p name labels messages. O(size). Errors as site_load's. */
int site_parse(const char *text, const char *name, struct site *s, char *err, size_t errlen);

/** Release what site_load or site_parse allocated. */
void site_free(struct site *s);

struct site_job {
	uint8_t queue, partition;  /* partition: SCHED_PART_ANY or one the queue may use */
	uint16_t up, pp;
};

/**
 * The queue, partition and priorities of a trace job from its SWF queue
 * and partition fields, user, processors and estimate: a `map queue` entry
 * for its queue number first, else the first `route` it matches, else the
 * default queue. The partition comes from `map partition` when the queue
 * may use it. Priorities: the user's line, else the queue's, else 0.
 * Returns TRACE_SKIP_NONE, TRACE_SKIP_NO_QUEUE when nothing takes it, or
 * TRACE_SKIP_WIDE when it needs more processors than every partition its
 * queue may use (the replay's skip reasons). O(routes + log users).
 */
enum trace_skip site_assign(const struct site *s, int32_t swf_queue, int32_t swf_partition, uint32_t user,
			   sched_procs_t procs, sched_time_t estimate, struct site_job *out);

/** Resize partition @p name (or the only one, when name is NULL) to @p procs. O(partitions). SCHED_E_NOENT if unknown. */
int site_resize(struct site *s, const char *name, sched_procs_t procs);

/** Index of the queue called @p name, or -1. */
int site_queue_index(const struct site *s, const char *name);

/** Total processors over the partitions. */
sched_procs_t site_procs(const struct site *s);

#endif /* SIM_SITE_H */
