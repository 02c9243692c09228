/* SPDX-License-Identifier: MIT */
/* The table of linked fixtures that "replay" and "fixtures" read. */
#include "console.h"

extern const uint8_t fixture_kth[], fixture_kth_end[], fixture_peek[], fixture_peek_end[];

const struct console_fixture console_fixtures[] = {
	{"kth", fixture_kth, fixture_kth_end},   /* KTH SP2, Sep 1996 - Aug 1997, 28,476 jobs */
	{"peek", fixture_peek, fixture_peek_end}, /* three jobs: estimates far from run times */
};
const unsigned console_fixture_count = sizeof console_fixtures / sizeof console_fixtures[0];
