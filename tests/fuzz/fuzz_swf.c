/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the SWF parser on arbitrary text. It must never crash,
 * leak or trip a sanitizer, and what it accepts must print back to text
 * that parses to the same values.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "swf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct swf_trace t, u;
	char err[512];
	if (swf_parse_buffer("fuzz", (const char *)data, size, &t, err, sizeof err) != 0)
		return 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	for (size_t i = 0; i < t.n; i++)
		swf_print_job(f, t.text[i].v);
	fclose(f);
	if (swf_parse_buffer("again", text, len, &u, err, sizeof err) != 0 || u.n != t.n)
		abort();
	for (size_t i = 0; i < t.n; i++)
		for (int k = 0; k < SWF_FIELDS; k++)
			if (t.text[i].v[k] != u.text[i].v[k])
				abort();
	free(text);
	swf_free(&t);
	swf_free(&u);
	return 0;
}
