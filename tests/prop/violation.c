/* SPDX-License-Identifier: MIT */
#include "violation.h"

#include <stdarg.h>
#include <stdio.h>

int violations;

void violation(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (violations < 20) {
		fputs("violation: ", stdout);
		vprintf(fmt, ap);
		fputc('\n', stdout);
	}
	va_end(ap);
	violations++;
}
