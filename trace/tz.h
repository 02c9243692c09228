/* SPDX-License-Identifier: MIT */
/* Local calendar months of trace times, from built-in rules for the archive's time zones. */
#ifndef SIM_TZ_H
#define SIM_TZ_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The replayer must split a trace into calendar months the same way on every
 * machine, with or without a tz database installed, so the rules for the
 * zones that Parallel Workloads Archive traces name are built in: European
 * Union summer time (Europe/...) and United States daylight time (US/... and
 * America/...), each with its historical eras. An unknown zone falls back to
 * the header's fixed TimeZone offset.
 */
enum tz_rule { TZ_RULE_NONE, TZ_RULE_EU, TZ_RULE_US };

struct tz {
	char name[64];
	long std_offset;    /* seconds east of UTC in winter */
	enum tz_rule rule;
};

/**
 * Find @p name. Returns true when it is known; otherwise @p out holds a zone
 * with no summer time at @p fallback_offset and the caller should say so.
 */
bool tz_lookup(const char *name, long fallback_offset, struct tz *out);

/** Seconds east of UTC in force at @p utc (a Unix time). */
long tz_offset_at(const struct tz *z, int64_t utc);

/** Local calendar year and month (1-12) of Unix time @p utc. */
void tz_year_month(const struct tz *z, int64_t utc, int *year, int *month);

/** Unix time of local midnight starting @p year-@p month-01 in zone @p z. */
int64_t tz_month_start(const struct tz *z, int year, int month);

/** Days since 1970-01-01 of a proleptic Gregorian date. */
int64_t tz_days_from_civil(int year, int month, int day);

/** The inverse of tz_days_from_civil. */
void tz_civil_from_days(int64_t days, int *year, int *month, int *day);

#endif /* SIM_TZ_H */
