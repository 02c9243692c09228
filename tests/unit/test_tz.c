/* SPDX-License-Identifier: MIT */
/* Calendar months in trace time zones: fixed cases from the tz database, and libc where it has the zone. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "tz.h"

static void civil_round_trip(void)
{
	CHECK_EQ(tz_days_from_civil(1970, 1, 1), 0);
	CHECK_EQ(tz_days_from_civil(2000, 3, 1), 11017);
	CHECK_EQ(tz_days_from_civil(1969, 12, 31), -1);
	for (int64_t d = -800000; d < 800000; d += 37) {
		int y, m, dd;
		tz_civil_from_days(d, &y, &m, &dd);
		CHECK(m >= 1 && m <= 12 && dd >= 1 && dd <= 31);
		CHECK_EQ(tz_days_from_civil(y, m, dd), d);
	}
}

/* Reference instants read from the tz database (Python zoneinfo) once, by hand. */
static void summer_time_switches(void)
{
	struct tz sto, est;
	CHECK(tz_lookup("Europe/Stockholm", 0, &sto));
	CHECK(tz_lookup("US/Eastern", 0, &est));
	CHECK_EQ(tz_offset_at(&sto, 843480031), 7200); /* KTH's UnixStartTime: 1996-09-23 14:00:31 CEST */
	CHECK_EQ(tz_offset_at(&sto, 828233999), 3600);
	CHECK_EQ(tz_offset_at(&sto, 828234000), 7200); /* 1996-03-31 03:00 CEST */
	CHECK_EQ(tz_offset_at(&sto, 846377999), 7200);
	CHECK_EQ(tz_offset_at(&sto, 846378000), 3600); /* 1996-10-27 02:00 CET */
	CHECK_EQ(tz_offset_at(&est, 860309999), -18000);
	CHECK_EQ(tz_offset_at(&est, 860310000), -14400); /* 1997-04-06 03:00 EDT */
	int y, m;
	tz_year_month(&sto, 843480031, &y, &m);
	CHECK_EQ(y, 1996);
	CHECK_EQ(m, 9);
	CHECK_EQ(tz_month_start(&sto, 1996, 10), 844120800);
	struct tz pst;
	CHECK(tz_lookup("US/Pacific", 0, &pst));
	CHECK_EQ(tz_month_start(&pst, 1997, 11), 878371200);
}

static void unknown_zone_falls_back(void)
{
	struct tz z;
	CHECK(!tz_lookup("Mars/Olympus", -3600, &z));
	CHECK_EQ(tz_offset_at(&z, 846378000), -3600);
	int y, m;
	tz_year_month(&z, 844120800 - 1, &y, &m);
	CHECK_EQ(m, 9);
}

/* Compare month and offset with the C library over the traces' years, if its tz data is installed. */
static void agrees_with_libc(void)
{
	const char *zones[] = {"Europe/Stockholm", "US/Eastern", "US/Pacific", "Europe/Berlin", "US/Central"};
	struct test_rng rng;
	test_rng_seed(&rng, 7);
	int compared = 0;
	for (size_t k = 0; k < sizeof zones / sizeof zones[0]; k++) {
		char file[128];
		snprintf(file, sizeof file, "/usr/share/zoneinfo/%s", zones[k]);
		if (access(file, R_OK) != 0)
			continue;
		setenv("TZ", zones[k], 1);
		tzset();
		struct tz z;
		CHECK(tz_lookup(zones[k], 0, &z));
		for (int i = 0; i < 20000; i++) {
			/* 1990-01-01 .. 2010-01-01 */
			time_t t = (time_t)(631152000 + (int64_t)(test_rng_next(&rng) % 631152000u));
			struct tm tm;
			localtime_r(&t, &tm);
			int y, m;
			tz_year_month(&z, t, &y, &m);
			CHECK_EQ(y, tm.tm_year + 1900);
			CHECK_EQ(m, tm.tm_mon + 1);
			CHECK_EQ(tz_offset_at(&z, t), tm.tm_gmtoff);
			compared++;
		}
	}
	unsetenv("TZ");
	if (compared == 0)
		printf("note: no tz database here; libc comparison skipped\n");
}

static const struct test tests[] = {
	{"civil_round_trip", civil_round_trip},
	{"summer_time_switches", summer_time_switches},
	{"unknown_zone_falls_back", unknown_zone_falls_back},
	{"agrees_with_libc", agrees_with_libc},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("tz", tests, argc, argv);
}
