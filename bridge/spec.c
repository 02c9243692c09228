/* SPDX-License-Identifier: MIT */
/* A job's description as the bridge keeps it (spec.h). */
#include "spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool spec_name_ok(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > SPEC_NAME)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-'))
			return false;
	}
	return true;
}

/* Free text (paths, arguments) is hex in a record, so a record stays one line of plain words. */
static bool put_hex(char *rec, size_t size, size_t *off, const char *key, const char *val)
{
	size_t klen = strlen(key), vlen = strlen(val);
	if (*off + 1 + klen + 1 + 2 * vlen + 2 > size)
		return false;
	rec[(*off)++] = ' ';
	memcpy(rec + *off, key, klen);
	*off += klen;
	rec[(*off)++] = '=';
	hex_encode(val, vlen, rec + *off);
	*off += 2 * vlen;
	return true;
}

int spec_save(const char *jobdir, const struct job_spec *s)
{
	static char rec[REQ_MAX * 2 + 256];
	int n = snprintf(rec, sizeof rec, "id=%u procs=%u limit=%u name=%s submit=%lld argc=%d", s->id, s->procs,
			 s->limit, s->name, (long long)s->submit_ms, s->argc);
	size_t off = (size_t)n;
	if (!put_hex(rec, sizeof rec, &off, "cwd", s->cwd))
		return -1;
	for (int i = 0; i < s->argc; i++) {
		char key[16];
		fmt_into(key, sizeof key, "a%d", i);
		if (!put_hex(rec, sizeof rec, &off, key, s->argv[i]))
			return -1;
	}
	rec[off++] = '\n';
	rec[off] = '\0';
	return rec_write(jobdir, "spec", rec);
}

int spec_load(const char *jobdir, struct job_spec *s)
{
	static char rec[REQ_MAX * 2 + 256], hex[REQ_MAX * 2 + 1];
	int64_t id, procs, limit, submit, argc;
	if (!rec_read(jobdir, "spec", rec, sizeof rec) || !kv_i64(rec, "id", &id) || !kv_i64(rec, "procs", &procs) ||
	    !kv_i64(rec, "limit", &limit) || !kv_i64(rec, "submit", &submit) || !kv_i64(rec, "argc", &argc) ||
	    !kv_get(rec, "name", s->name, sizeof s->name) || argc < 1 || argc > SPEC_ARGS || id < 1 ||
	    id > UINT32_MAX || procs < 1 || procs > UINT32_MAX || limit < 1 || limit > UINT32_MAX)
		return -1;
	s->id = (uint32_t)id;
	s->procs = (uint32_t)procs;
	s->limit = (uint32_t)limit;
	s->submit_ms = submit;
	s->argc = (int)argc;
	if (!kv_get(rec, "cwd", hex, sizeof hex) || hex_decode(hex, s->cwd, sizeof s->cwd) < 0)
		return -1;
	size_t used = 0;
	for (int i = 0; i < s->argc; i++) {
		char key[16];
		fmt_into(key, sizeof key, "a%d", i);
		long len;
		if (!kv_get(rec, key, hex, sizeof hex) || (len = hex_decode(hex, s->text + used, sizeof s->text - used)) < 0)
			return -1;
		s->argv[i] = s->text + used;
		used += (size_t)len + 1;
	}
	s->argv[s->argc] = NULL;
	return 0;
}
