/* SPDX-License-Identifier: MIT */
/* Fault injection (core/src/failpoint.h): compiled only with SCHED_FAILPOINTS, the san build's. */
#include "failpoint.h"

#ifdef SCHED_FAILPOINTS

static struct {
	uint64_t seen[SCHED_FAIL_SITE_COUNT];
	uint64_t countdown;          /* allocations at an armed site until the failure; 0: disarmed */
	unsigned sites;              /* the armed sites, a mask */
	enum sched_fail_site fired;
} fp;

bool sched_fail(enum sched_fail_site site)
{
	fp.seen[site]++;
	if (fp.countdown == 0 || !(fp.sites & (1u << site)))
		return false;
	if (--fp.countdown != 0)
		return false;
	fp.fired = site;
	return true;
}

void sched_fail_reset(void)
{
	for (unsigned i = 0; i < SCHED_FAIL_SITE_COUNT; i++)
		fp.seen[i] = 0;
	fp.countdown = 0;
	fp.sites = 0;
	fp.fired = SCHED_FAIL_NONE;
}

void sched_fail_arm(uint64_t k, unsigned sites)
{
	fp.countdown = k;
	fp.sites = sites;
	fp.fired = SCHED_FAIL_NONE;
}

uint64_t sched_fail_seen(enum sched_fail_site site)
{
	if (site != SCHED_FAIL_NONE)
		return fp.seen[site];
	uint64_t n = 0;
	for (unsigned i = 0; i < SCHED_FAIL_SITE_COUNT; i++)
		n += fp.seen[i];
	return n;
}

enum sched_fail_site sched_fail_fired(void)
{
	return fp.fired;
}

const char *sched_fail_site_name(enum sched_fail_site site)
{
	static const char *const names[SCHED_FAIL_SITE_COUNT] = {
		"none", "pool", "job", "segment", "scratch-jobs", "scratch-segs", "gang-job", "gang-slot", "replay-slot",
	};
	return (unsigned)site < SCHED_FAIL_SITE_COUNT ? names[site] : "?";
}

#else

/* ISO C wants a translation unit to declare something; this costs no code. */
typedef int sched_failpoint_unused;

#endif /* SCHED_FAILPOINTS */
