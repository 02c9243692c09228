/* SPDX-License-Identifier: MIT */
/* Site files (docs/site-format.md): parsing, and mapping trace jobs to queues and partitions. */
#define _POSIX_C_SOURCE 200809L
#include "site.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	struct site *s;
	const char *name;
	int line;
	char *err;
	size_t errlen;
};

static int fail(struct parser *p, const char *fmt, ...)
{
	int n = snprintf(p->err, p->errlen, "%s:%d: ", p->name, p->line);
	if (n < 0 || (size_t)n >= p->errlen)
		return SCHED_E_FORMAT;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return SCHED_E_FORMAT;
}

static bool parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	char *end;
	errno = 0;
	if (*s < '0' || *s > '9')
		return false;
	unsigned long v = strtoul(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > max)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* Seconds: N, Ns, Nm, Nh, Nd, or H:MM[:SS]. */
static bool parse_duration(const char *s, uint32_t *out)
{
	char *end;
	errno = 0;
	if (*s < '0' || *s > '9')
		return false;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno != 0)
		return false;
	if (*end == ':') {
		unsigned long long mm, ss = 0;
		char *e2;
		mm = strtoull(end + 1, &e2, 10);
		if (e2 == end + 1 || mm > 59)
			return false;
		if (*e2 == ':') {
			char *e3;
			ss = strtoull(e2 + 1, &e3, 10);
			if (e3 == e2 + 1 || ss > 59)
				return false;
			e2 = e3;
		}
		if (*e2 != '\0')
			return false;
		v = v * 3600 + mm * 60 + ss;
	} else if (*end != '\0') {
		if (end[1] != '\0')
			return false;
		switch (*end) {
		case 's': break;
		case 'm': v *= 60; break;
		case 'h': v *= 3600; break;
		case 'd': v *= 86400; break;
		default: return false;
		}
	}
	if (v >= SCHED_ESTIMATE_LIMIT)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* A-B, A-, -B or A (exactly A), of counts or durations. */
static bool parse_range(const char *s, bool duration, struct site_range *r)
{
	char buf[64];
	if (strlen(s) >= sizeof buf)
		return false;
	strcpy(buf, s);
	char *dash = strchr(buf, '-');
	uint32_t max = SCHED_NOW_LIMIT - 1;
	r->lo = 0;
	r->hi = 0;
	if (dash == NULL) {
		bool ok = duration ? parse_duration(buf, &r->lo) : parse_u32(buf, max, &r->lo);
		r->hi = r->lo;
		return ok && r->lo > 0;
	}
	bool has_lo = dash != buf, has_hi = dash[1] != '\0';
	*dash = '\0';
	if (!has_lo && !has_hi)
		return false;
	if (has_lo && !(duration ? parse_duration(buf, &r->lo) : parse_u32(buf, max, &r->lo)))
		return false;
	if (has_hi && !(duration ? parse_duration(dash + 1, &r->hi) : parse_u32(dash + 1, max, &r->hi)))
		return false;
	return !has_hi || r->hi >= r->lo;
}

/* A priority in [0, 1] as thousandths; "over" (political only) marks over quota. */
static bool parse_prio(const char *s, bool political, uint16_t *out)
{
	if (political && (strcmp(s, "over") == 0 || strcmp(s, "over-quota") == 0)) {
		*out = SCHED_PP_OVER_QUOTA;
		return true;
	}
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end != '\0' || errno != 0 || !(v >= 0 && v <= 1))
		return false;
	*out = (uint16_t)(v * 1000 + 0.5);
	return true;
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n >= SITE_NAME_MAX)
		return false;
	for (const char *c = s; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      *c == '_' || *c == '-' || *c == '.'))
			return false;
	return true;
}

static int part_index(const struct site *s, const char *name)
{
	for (unsigned i = 0; i < s->cfg.n_partitions; i++)
		if (strcmp(s->part_name[i], name) == 0)
			return (int)i;
	return -1;
}

int site_queue_index(const struct site *s, const char *name)
{
	for (unsigned i = 0; i < s->cfg.n_queues; i++)
		if (strcmp(s->queue_name[i], name) == 0)
			return (int)i;
	return -1;
}

/* key=value: split in place; returns the value or NULL when there is no '='. */
static char *split_kv(char *tok)
{
	char *eq = strchr(tok, '=');
	if (eq == NULL)
		return NULL;
	*eq = '\0';
	return eq + 1;
}

static int prio_kv(struct parser *p, const char *key, const char *val, struct site_prio *pr, bool *handled)
{
	*handled = true;
	if (strcmp(key, "up") == 0) {
		if (!parse_prio(val, false, &pr->up))
			return fail(p, "up takes a number in [0, 1], not '%s'", val);
		pr->has_up = true;
	} else if (strcmp(key, "pp") == 0) {
		if (!parse_prio(val, true, &pr->pp))
			return fail(p, "pp takes a number in [0, 1] or 'over', not '%s'", val);
		pr->has_pp = true;
	} else {
		*handled = false;
	}
	return 0;
}

static int do_partition(struct parser *p, char **tok, int n)
{
	struct site *s = p->s;
	uint32_t procs;
	if (n != 3)
		return fail(p, "expected: partition NAME PROCESSORS");
	if (!valid_name(tok[1]))
		return fail(p, "bad partition name '%s' (letters, digits, _ - ., at most %d)", tok[1], SITE_NAME_MAX - 1);
	if (part_index(s, tok[1]) >= 0)
		return fail(p, "partition '%s' defined twice", tok[1]);
	if (s->cfg.n_partitions == SCHED_MAX_PARTITIONS)
		return fail(p, "more than %u partitions", SCHED_MAX_PARTITIONS);
	if (s->cfg.n_queues > 0)
		return fail(p, "partitions come before the queues that use them");
	if (!parse_u32(tok[2], SCHED_NOW_LIMIT - 1, &procs) || procs == 0)
		return fail(p, "bad processor count '%s'", tok[2]);
	strcpy(s->part_name[s->cfg.n_partitions], tok[1]);
	s->cfg.partition_procs[s->cfg.n_partitions++] = procs;
	return 0;
}

static int do_queue(struct parser *p, char **tok, int n)
{
	struct site *s = p->s;
	if (n < 2)
		return fail(p, "expected: queue NAME [key=value ...] [background] [default]");
	if (!valid_name(tok[1]))
		return fail(p, "bad queue name '%s'", tok[1]);
	if (site_queue_index(s, tok[1]) >= 0)
		return fail(p, "queue '%s' defined twice", tok[1]);
	if (s->cfg.n_queues == SCHED_MAX_QUEUES)
		return fail(p, "more than %u queues", SCHED_MAX_QUEUES);
	unsigned qi = s->cfg.n_queues;
	struct sched_queue_cfg *q = &s->cfg.queues[qi];
	memset(q, 0, sizeof *q);
	struct site_prio *pr = &s->queue_prio[qi];
	memset(pr, 0, sizeof *pr);
	for (int i = 2; i < n; i++) {
		if (strcmp(tok[i], "background") == 0) {
			q->background = true;
			continue;
		}
		if (strcmp(tok[i], "default") == 0) {
			if (s->default_queue >= 0)
				return fail(p, "two default queues");
			s->default_queue = (int)qi;
			continue;
		}
		char *val = split_kv(tok[i]);
		if (val == NULL)
			return fail(p, "unknown word '%s' (key=value, background or default)", tok[i]);
		const char *key = tok[i];
		struct site_range r;
		uint32_t v;
		bool handled;
		int err = prio_kv(p, key, val, pr, &handled);
		if (err != 0)
			return err;
		if (handled)
			continue;
		if (strcmp(key, "priority") == 0) {
			if (!parse_u32(val, UINT16_MAX, &v))
				return fail(p, "priority takes 0..65535, not '%s'", val);
			q->priority = (uint16_t)v;
		} else if (strcmp(key, "procs") == 0) {
			if (!parse_range(val, false, &r))
				return fail(p, "procs takes A-B, A-, -B or A, not '%s'", val);
			q->min_procs = r.lo;
			q->max_procs = r.hi;
		} else if (strcmp(key, "time") == 0) {
			if (!parse_range(val, true, &r))
				return fail(p, "time takes a range of durations (90, 30m, 12h, 1:30), not '%s'", val);
			q->min_time = r.lo;
			q->max_time = r.hi;
		} else if (strcmp(key, "per-user") == 0) {
			if (!parse_u32(val, UINT16_MAX, &v) || v == 0)
				return fail(p, "per-user takes 1..65535, not '%s'", val);
			q->max_running_per_user = (uint16_t)v;
		} else if (strcmp(key, "cap") == 0) {
			if (!parse_u32(val, SCHED_NOW_LIMIT - 1, &v) || v == 0)
				return fail(p, "cap takes a processor count, not '%s'", val);
			q->proc_cap = v;
		} else if (strcmp(key, "partitions") == 0) {
			char *save = NULL;
			for (char *nm = strtok_r(val, ",", &save); nm; nm = strtok_r(NULL, ",", &save)) {
				int pi = part_index(s, nm);
				if (pi < 0)
					return fail(p, "unknown partition '%s'", nm);
				q->partitions |= (uint8_t)(1u << pi);
			}
			if (q->partitions == 0)
				return fail(p, "partitions needs at least one name");
		} else {
			return fail(p, "unknown queue key '%s' (priority, procs, time, per-user, cap, partitions, up, pp)",
				    key);
		}
	}
	strcpy(s->queue_name[qi], tok[1]);
	s->cfg.n_queues++;
	return 0;
}

static int do_map(struct parser *p, char **tok, int n)
{
	struct site *s = p->s;
	if (n != 4 || (strcmp(tok[1], "queue") != 0 && strcmp(tok[1], "partition") != 0))
		return fail(p, "expected: map queue|partition SWF-NUMBER NAME");
	bool queue = tok[1][0] == 'q';
	char *end;
	errno = 0;
	long v = strtol(tok[2], &end, 10);
	if (end == tok[2] || *end != '\0' || errno != 0 || v < -1 || v > INT32_MAX)
		return fail(p, "bad SWF number '%s'", tok[2]);
	int to = queue ? site_queue_index(s, tok[3]) : part_index(s, tok[3]);
	if (to < 0)
		return fail(p, "unknown %s '%s'", tok[1], tok[3]);
	struct site_map *m = queue ? s->queue_map : s->part_map;
	size_t *nm = queue ? &s->n_queue_map : &s->n_part_map;
	for (size_t i = 0; i < *nm; i++)
		if (m[i].swf == (int32_t)v)
			return fail(p, "SWF %s %ld mapped twice", tok[1], v);
	if (*nm == SITE_MAX_MAPS)
		return fail(p, "more than %d map %s lines", SITE_MAX_MAPS, tok[1]);
	m[*nm].swf = (int32_t)v;
	m[*nm].to = (uint8_t)to;
	(*nm)++;
	return 0;
}

static int do_route(struct parser *p, char **tok, int n)
{
	struct site *s = p->s;
	if (n < 2)
		return fail(p, "expected: route QUEUE [procs=A-B] [time=A-B]");
	int q = site_queue_index(s, tok[1]);
	if (q < 0)
		return fail(p, "unknown queue '%s'", tok[1]);
	if (s->n_routes == SITE_MAX_ROUTES)
		return fail(p, "more than %d routes", SITE_MAX_ROUTES);
	struct site_route *r = &s->routes[s->n_routes];
	memset(r, 0, sizeof *r);
	r->queue = (uint8_t)q;
	for (int i = 2; i < n; i++) {
		char *val = split_kv(tok[i]);
		if (val != NULL && strcmp(tok[i], "procs") == 0) {
			if (!parse_range(val, false, &r->procs))
				return fail(p, "procs takes A-B, A-, -B or A, not '%s'", val);
		} else if (val != NULL && strcmp(tok[i], "time") == 0) {
			if (!parse_range(val, true, &r->time))
				return fail(p, "time takes a range of durations, not '%s'", val);
		} else {
			return fail(p, "unknown route condition '%s%s%s' (procs=, time=)", tok[i], val ? "=" : "",
				    val ? val : "");
		}
	}
	s->n_routes++;
	return 0;
}

static int do_user(struct parser *p, char **tok, int n)
{
	struct site *s = p->s;
	uint32_t uid;
	if (n < 3)
		return fail(p, "expected: user UID up=X pp=Y|over");
	if (!parse_u32(tok[1], INT32_MAX, &uid))
		return fail(p, "bad user number '%s'", tok[1]);
	for (size_t i = 0; i < s->n_users; i++)
		if (s->users[i].user == uid)
			return fail(p, "user %u listed twice", uid);
	if (s->n_users == SITE_MAX_USERS)
		return fail(p, "more than %d users", SITE_MAX_USERS);
	struct site_user u = {.user = uid};
	for (int i = 2; i < n; i++) {
		char *val = split_kv(tok[i]);
		bool handled = false;
		int err = val != NULL ? prio_kv(p, tok[i], val, &u.prio, &handled) : 0;
		if (err != 0)
			return err;
		if (!handled)
			return fail(p, "unknown user setting '%s%s%s' (up=, pp=)", tok[i], val ? "=" : "", val ? val : "");
	}
	struct site_user *grown = realloc(s->users, (s->n_users + 1) * sizeof *grown);
	if (grown == NULL)
		return fail(p, "out of memory");
	s->users = grown;
	s->users[s->n_users++] = u;
	return 0;
}

static int by_user(const void *a, const void *b)
{
	const struct site_user *x = a, *y = b;
	return x->user < y->user ? -1 : x->user > y->user;
}

int site_parse(const char *text, const char *name, struct site *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->default_queue = -1;
	struct parser p = {.s = s, .name = name, .line = 0, .err = err, .errlen = errlen};
	const char *at = text;
	while (*at) {
		const char *nl = strchr(at, '\n');
		size_t len = nl ? (size_t)(nl - at) : strlen(at);
		p.line++;
		char buf[1024];
		if (len >= sizeof buf) {
			fail(&p, "line longer than %zu characters", sizeof buf - 1);
			goto bad;
		}
		memcpy(buf, at, len);
		buf[len] = '\0';
		at += len + (nl ? 1 : 0);
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		char *tok[64];
		int n = 0;
		char *save = NULL;
		for (char *t = strtok_r(buf, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
			if (n == 64) {
				fail(&p, "more than 64 words");
				goto bad;
			}
			tok[n++] = t;
		}
		if (n == 0)
			continue;
		int rc;
		if (strcmp(tok[0], "partition") == 0)
			rc = do_partition(&p, tok, n);
		else if (strcmp(tok[0], "queue") == 0)
			rc = do_queue(&p, tok, n);
		else if (strcmp(tok[0], "map") == 0)
			rc = do_map(&p, tok, n);
		else if (strcmp(tok[0], "route") == 0)
			rc = do_route(&p, tok, n);
		else if (strcmp(tok[0], "user") == 0)
			rc = do_user(&p, tok, n);
		else
			rc = fail(&p, "unknown keyword '%s' (partition, queue, map, route, user)", tok[0]);
		if (rc != 0)
			goto bad;
	}
	p.line = 0;
	if (s->cfg.n_queues == 0) {
		snprintf(err, errlen, "%s: no queue defined", name);
		goto bad;
	}
	for (unsigned q = 0; q < s->cfg.n_queues; q++) {
		const struct sched_queue_cfg *qc = &s->cfg.queues[q];
		sched_procs_t widest = 0;
		for (unsigned i = 0; i < s->cfg.n_partitions; i++)
			if ((qc->partitions == 0 || (qc->partitions & (1u << i))) && s->cfg.partition_procs[i] > widest)
				widest = s->cfg.partition_procs[i];
		if (qc->proc_cap && qc->min_procs > qc->proc_cap) {
			snprintf(err, errlen, "%s: queue %s: minimum processors above its cap", name, s->queue_name[q]);
			goto bad;
		}
		if (s->cfg.n_partitions > 0 && qc->min_procs > widest) {
			snprintf(err, errlen, "%s: queue %s: minimum processors above its widest partition", name,
				 s->queue_name[q]);
			goto bad;
		}
	}
	if (s->n_users > 1)
		qsort(s->users, s->n_users, sizeof *s->users, by_user);
	return 0;
bad:
	site_free(s);
	return SCHED_E_FORMAT;
}

int site_load(const char *path, struct site *s, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (f == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return SCHED_E_NOENT;
	}
	size_t cap = 4096, n = 0;
	char *text = malloc(cap);
	size_t got;
	while (text != NULL && (got = fread(text + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 == cap) {
			char *grown = cap > (64u << 20) ? NULL : realloc(text, cap * 2);
			if (grown == NULL) {
				free(text);
				text = NULL;
				break;
			}
			text = grown;
			cap *= 2;
		}
	}
	bool bad = ferror(f) != 0;
	fclose(f);
	if (text == NULL || bad) {
		free(text);
		snprintf(err, errlen, "%s: %s", path, bad ? "read error" : "too large");
		return SCHED_E_FORMAT;
	}
	text[n] = '\0';
	if (memchr(text, '\0', n) != NULL) {
		free(text);
		snprintf(err, errlen, "%s: not a text file", path);
		return SCHED_E_FORMAT;
	}
	int rc = site_parse(text, path, s, err, errlen);
	free(text);
	return rc;
}

void site_free(struct site *s)
{
	free(s->users);
	s->users = NULL;
	s->n_users = 0;
}

static bool in_range(const struct site_range *r, uint32_t v)
{
	return v >= r->lo && (r->hi == 0 || v <= r->hi);
}

static int map_find(const struct site_map *m, size_t n, int32_t swf)
{
	for (size_t i = 0; i < n; i++)
		if (m[i].swf == swf)
			return m[i].to;
	return -1;
}

enum trace_skip site_assign(const struct site *s, int32_t swf_queue, int32_t swf_partition, uint32_t user,
			   sched_procs_t procs, sched_time_t estimate, struct site_job *out)
{
	int q = map_find(s->queue_map, s->n_queue_map, swf_queue);
	for (size_t i = 0; q < 0 && i < s->n_routes; i++)
		if (in_range(&s->routes[i].procs, procs) && in_range(&s->routes[i].time, estimate))
			q = s->routes[i].queue;
	if (q < 0)
		q = s->default_queue;
	if (q < 0)
		return TRACE_SKIP_NO_QUEUE;
	const struct sched_queue_cfg *qc = &s->cfg.queues[q];
	uint8_t mask = qc->partitions;
	out->queue = (uint8_t)q;
	out->partition = SCHED_PART_ANY;
	int pi = map_find(s->part_map, s->n_part_map, swf_partition);
	if (pi >= 0 && (mask == 0 || (mask & (1u << pi))))
		out->partition = (uint8_t)pi;
	if (s->cfg.n_partitions > 0) {
		sched_procs_t widest = 0;
		for (unsigned i = 0; i < s->cfg.n_partitions; i++) {
			bool may = out->partition == SCHED_PART_ANY ? (mask == 0 || (mask & (1u << i))) : i == out->partition;
			if (may && s->cfg.partition_procs[i] > widest)
				widest = s->cfg.partition_procs[i];
		}
		if (procs > widest)
			return TRACE_SKIP_WIDE;
	}
	struct site_prio pr = s->queue_prio[q];
	struct site_user key = {.user = user};
	const struct site_user *u = s->n_users ? bsearch(&key, s->users, s->n_users, sizeof key, by_user) : NULL;
	if (u != NULL) {
		if (u->prio.has_up)
			pr.up = u->prio.up;
		if (u->prio.has_pp)
			pr.pp = u->prio.pp;
	}
	out->up = pr.up;
	out->pp = pr.pp;
	return TRACE_SKIP_NONE;
}

int site_resize(struct site *s, const char *name, sched_procs_t procs)
{
	int pi = name ? part_index(s, name) : (s->cfg.n_partitions == 1 ? 0 : -1);
	if (pi < 0 || procs == 0)
		return SCHED_E_NOENT;
	s->cfg.partition_procs[pi] = procs;
	return 0;
}

sched_procs_t site_procs(const struct site *s)
{
	sched_procs_t total = 0;
	for (unsigned i = 0; i < s->cfg.n_partitions; i++)
		total += s->cfg.partition_procs[i];
	return total;
}
