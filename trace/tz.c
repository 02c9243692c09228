/* SPDX-License-Identifier: MIT */
/* Built-in summer-time rules (EU and US eras) and Gregorian calendar arithmetic. */
#include "tz.h"

#include <string.h>

int64_t tz_days_from_civil(int year, int month, int day)
{
	/* Count from 1 March so that the leap day ends the year; 146097 days make 400 years. */
	int64_t y = month <= 2 ? (int64_t)year - 1 : year;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t mp = month > 2 ? month - 3 : month + 9;
	int64_t doy = (153 * mp + 2) / 5 + day - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void tz_civil_from_days(int64_t days, int *year, int *month, int *day)
{
	days += 719468;
	int64_t era = (days >= 0 ? days : days - 146096) / 146097;
	int64_t doe = days - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	int d = (int)(doy - (153 * mp + 2) / 5 + 1);
	int m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*year = (int)(yoe + era * 400 + (m <= 2));
	*month = m;
	*day = d;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/* 0 = Sunday; 1970-01-01 was a Thursday. */
static int weekday(int64_t days)
{
	return (int)(((days % 7) + 11) % 7);
}

static int days_in_month(int year, int month)
{
	return (int)(tz_days_from_civil(month == 12 ? year + 1 : year, month == 12 ? 1 : month + 1, 1) -
		     tz_days_from_civil(year, month, 1));
}

static int64_t last_sunday(int year, int month)
{
	int64_t last = tz_days_from_civil(year, month, days_in_month(year, month));
	return last - weekday(last);
}

static int64_t nth_sunday(int year, int month, int n)
{
	int64_t first = tz_days_from_civil(year, month, 1);
	return first + (7 - weekday(first)) % 7 + 7 * (n - 1);
}

/* [start, end) of summer time in year `year`, as Unix times; false when the rule has none. */
static bool summer(const struct tz *z, int year, int64_t *start, int64_t *end)
{
	if (z->rule == TZ_RULE_EU) {
		/* Central European rules switch at 01:00 UTC; the October end dates from 1996.
		 * (The British Isles ended differently before 1996, so they are not listed.) */
		if (year < 1981)
			return false;
		*start = last_sunday(year, 3) * 86400 + 3600;
		*end = (year >= 1996 ? last_sunday(year, 10) : last_sunday(year, 9)) * 86400 + 3600;
		return true;
	}
	if (z->rule == TZ_RULE_US) {
		/* US rules switch at 02:00 local standard time and back at 02:00 local daylight time. */
		int64_t on, off;
		if (year >= 2007) {
			on = nth_sunday(year, 3, 2);
			off = nth_sunday(year, 11, 1);
		} else if (year >= 1987) {
			on = nth_sunday(year, 4, 1);
			off = last_sunday(year, 10);
		} else if (year >= 1976) {
			on = last_sunday(year, 4);
			off = last_sunday(year, 10);
		} else {
			return false;
		}
		*start = on * 86400 + 7200 - z->std_offset;
		*end = off * 86400 + 3600 - z->std_offset;
		return true;
	}
	return false;
}

long tz_offset_at(const struct tz *z, int64_t utc)
{
	int y, m, d;
	tz_civil_from_days(floor_div(utc + z->std_offset, 86400), &y, &m, &d);
	int64_t start, end;
	if (summer(z, y, &start, &end) && utc >= start && utc < end)
		return z->std_offset + 3600;
	return z->std_offset;
}

void tz_year_month(const struct tz *z, int64_t utc, int *year, int *month)
{
	int d;
	tz_civil_from_days(floor_div(utc + tz_offset_at(z, utc), 86400), year, month, &d);
}

int64_t tz_month_start(const struct tz *z, int year, int month)
{
	int64_t local = tz_days_from_civil(year, month, 1) * 86400;
	/* No zone here changes its offset at midnight, so one correction settles it. */
	int64_t guess = local - z->std_offset;
	return local - tz_offset_at(z, guess);
}

struct zone_def {
	const char *name;
	long std_offset;
	enum tz_rule rule;
};

static const struct zone_def zones[] = {
	{"UTC", 0, TZ_RULE_NONE},           {"GMT", 0, TZ_RULE_NONE},
	{"Europe/Stockholm", 3600, TZ_RULE_EU},
	{"Europe/Berlin", 3600, TZ_RULE_EU}, {"Europe/Paris", 3600, TZ_RULE_EU},
	{"Europe/Amsterdam", 3600, TZ_RULE_EU}, {"Europe/Brussels", 3600, TZ_RULE_EU},
	{"Europe/Zurich", 3600, TZ_RULE_EU}, {"Europe/Vienna", 3600, TZ_RULE_EU},
	{"Europe/Rome", 3600, TZ_RULE_EU},   {"Europe/Madrid", 3600, TZ_RULE_EU},
	{"Europe/Oslo", 3600, TZ_RULE_EU},   {"Europe/Copenhagen", 3600, TZ_RULE_EU},
	{"Europe/Prague", 3600, TZ_RULE_EU}, {"Europe/Warsaw", 3600, TZ_RULE_EU},
	{"Europe/Helsinki", 7200, TZ_RULE_EU}, {"Europe/Athens", 7200, TZ_RULE_EU},
	{"US/Eastern", -18000, TZ_RULE_US},  {"America/New_York", -18000, TZ_RULE_US},
	{"US/Central", -21600, TZ_RULE_US},  {"America/Chicago", -21600, TZ_RULE_US},
	{"US/Mountain", -25200, TZ_RULE_US}, {"America/Denver", -25200, TZ_RULE_US},
	{"US/Pacific", -28800, TZ_RULE_US},  {"America/Los_Angeles", -28800, TZ_RULE_US},
};

bool tz_lookup(const char *name, long fallback_offset, struct tz *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < sizeof zones / sizeof zones[0]; i++) {
		if (strcmp(name, zones[i].name) == 0) {
			strncpy(out->name, zones[i].name, sizeof out->name - 1);
			out->std_offset = zones[i].std_offset;
			out->rule = zones[i].rule;
			return true;
		}
	}
	strncpy(out->name, name, sizeof out->name - 1);
	out->std_offset = fallback_offset;
	out->rule = TZ_RULE_NONE;
	return false;
}
