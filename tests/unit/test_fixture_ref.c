/* SPDX-License-Identifier: MIT */
/* The fast fixture decoder against a bit-at-a-time reference (fixture_ref.h): committed fixtures, truncations, source failures, bit flips, short reads. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_ref.h"
#include "harness.h"
#include "fixture/fixture.h"

/*
 * What it checks: that the project's fast fixture decoder (fix_dec_init,
 * fix_dec_next in fixture/src/fixture.c) decodes every input (the committed
 * fixtures and the corrupt corpus, every prefix, a source failing at every
 * byte, single and random bit flips, short reads of every size) to the same
 * jobs and the same error as an independent decoder.
 *
 * Where the expected results come from: fixture_ref.h, a slow bit-at-a-time
 * decoder written from docs/fixture-format.md alone, sharing nothing with the
 * decoder under test but the public types and constants of fixture/fixture.h;
 * never from the fast decoder's own output. The project's
 * encoder (fix_enc_*, fix_header_encode) and fix_crc32 only make inputs.
 * reference_follows_spec checks the reference itself against the spec: the
 * CRC's known vector, the corrupt corpus's expected.txt, and hand-made bit
 * streams (bw_*, written from the spec) for each rule of the format and of
 * its Errors section.
 *
 * Each case decodes one input twice: with the fast decoder (fix_dec_init,
 * then fix_dec_next until it stops, through a byte source that can end,
 * fail after K bytes, or give 1..N bytes a call) and with the reference.
 * Both must decode the same jobs, field by field, and stop with the same
 * code (FIX_END or the same error), the header read in full by both or by
 * neither, and the fast decoder's error latched. Mismatches are printed
 * with what reproduces them (input, flipped bits, prefix, fail position,
 * read size and its seed) and tallied by kind; a test fails if any
 * mismatch remains. Every random draw is seeded: the same cases every run.
 */

#define MAX_JOBS 100000
#define SEED 0x5eedf1c5u

/* ---- inputs ------------------------------------------------------------- */

static bool load(const char *path, uint8_t **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return false;
	size_t cap = 1 << 16, n = 0;
	uint8_t *p = malloc(cap);
	for (;;) {
		if (n == cap) {
			cap *= 2;
			uint8_t *q = realloc(p, cap);
			if (q == NULL) {
				free(p);
				fclose(f);
				return false;
			}
			p = q;
		}
		size_t got = fread(p + n, 1, cap - n, f);
		if (got == 0)
			break;
		n += got;
	}
	fclose(f);
	*data = p;
	*len = n;
	return true;
}

/* Two entries of a names[][256] array, as strings. */
static int cmp_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* The *.fix files of a directory, sorted; returns how many (at most max). */
static size_t list_fix(const char *dir, char names[][256], size_t max)
{
	DIR *d = opendir(dir);
	if (d == NULL)
		return 0;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < max) {
		size_t l = strlen(e->d_name);
		size_t dl = strlen(dir);
		if (l > 4 && dl + 1 + l < 256 && strcmp(e->d_name + l - 4, ".fix") == 0) {
			memcpy(names[n], dir, dl);
			names[n][dl] = '/';
			memcpy(names[n] + dl + 1, e->d_name, l + 1);
			n++;
		}
	}
	closedir(d);
	qsort(names, n, sizeof names[0], cmp_name);
	return n;
}

struct wbuf {
	uint8_t *p;
	size_t n, cap;
};

static int wbuf_write(void *ctx, const uint8_t *data, size_t n)
{
	struct wbuf *b = ctx;
	if (b->n + n > b->cap)
		return -1;
	memcpy(b->p + b->n, data, n);
	b->n += n;
	return 0;
}

static void put_crc(uint8_t *p, size_t body)
{
	uint32_t crc = fix_crc32(0, p, body);
	for (int i = 0; i < 4; i++)
		p[body + (size_t)i] = (uint8_t)(crc >> (8 * i));
}

/* A whole fixture made with the project's encoder, as fixture_save() lays it out; returns its size. */
static size_t build_fixture(struct fix_header *h, const struct fix_job *jobs, size_t n, uint8_t *out, size_t cap)
{
	static uint8_t rec[1 << 18];
	struct wbuf rb = {rec, 0, sizeof rec};
	static struct fix_enc e;
	fix_enc_init(&e, h->fields, wbuf_write, &rb);
	for (size_t i = 0; i < n; i++)
		if (fix_enc_job(&e, &jobs[i]) != SCHED_OK)
			return 0;
	if (fix_enc_finish(&e) != SCHED_OK)
		return 0;
	h->jobs = (uint32_t)n;
	h->records_bytes = (uint32_t)rb.n;
	int hn = fix_header_encode(h, out, cap);
	if (hn < 0 || (size_t)hn + rb.n + 4 > cap)
		return 0;
	memcpy(out + hn, rec, rb.n);
	put_crc(out, (size_t)hn + rb.n);
	return (size_t)hn + rb.n + 4;
}

static int32_t pick(struct test_rng *r, const int32_t *pool, bool extreme)
{
	switch (test_rng_range(r, 0, extreme ? 4 : 11)) {
	case 0: return -1;
	case 1: return INT32_MIN;
	case 2: return INT32_MAX;
	case 3: return -2; /* fold: 2^32 - 1, the largest code */
	case 4: return INT32_MAX - (int32_t)test_rng_range(r, 0, 3);
	case 5: return (int32_t)test_rng_range(r, 0, 10);
	case 6: return (int32_t)test_rng_range(r, 0, 100000);
	case 7: return -(int32_t)test_rng_range(r, 2, 1000);
	case 8: return (int32_t)test_rng_range(r, 380, 386); /* about the first escape: u >= 384 at k = 4 */
	case 9:
	case 10: return pool[test_rng_range(r, 0, 19)]; /* repeats: cache hits, misses, evictions */
	default: return (int32_t)(uint32_t)test_rng_next(r);
	}
}

static void random_name(struct test_rng *r, char *s)
{
	static const unsigned lens[] = {0, 1, 5, 12, 127};
	unsigned n = lens[test_rng_range(r, 0, 4)];
	for (unsigned i = 0; i < n; i++)
		s[i] = (char)test_rng_range(r, 0x20, 0x7e);
	s[n] = '\0';
}

/* The stored fields of set number @p combo (0..511): one bit per optional field, job and submit always. */
static uint32_t fields_of_combo(uint32_t combo)
{
	static const int opt[] = {FIX_F_RUN,  FIX_F_ALLOC_PROCS, FIX_F_REQ_PROCS, FIX_F_REQ_TIME, FIX_F_STATUS,
				  FIX_F_USER, FIX_F_GROUP,       FIX_F_QUEUE,     FIX_F_PARTITION};
	uint32_t fields = 0;
	for (unsigned b = 0; b < sizeof opt / sizeof opt[0]; b++)
		if (combo & (1u << b))
			fields |= FIX_FIELD_BIT(opt[b]);
	return fields;
}

/*
 * A random fixture of @p n jobs storing @p fields (jobs and submits always):
 * extreme values, escapes, cache hits and evictions, req_procs equal to
 * alloc_procs half the time; with @p extreme, almost only the largest
 * codes, so that the Rice parameters climb to 28..31.
 */
static size_t make_synth(struct test_rng *r, uint32_t fields, size_t n, bool extreme, struct fix_job *jobs,
			 uint8_t *out, size_t cap)
{
	struct fix_header h;
	memset(&h, 0, sizeof h);
	h.version = FIX_VERSION;
	h.fields = (fields & FIX_KEPT_FIELDS) | FIX_FIELD_BIT(FIX_F_JOB) | FIX_FIELD_BIT(FIX_F_SUBMIT);
	h.max_procs = test_rng_range(r, 0, 1) ? (uint32_t)test_rng_next(r) : 128;
	h.max_nodes = test_rng_range(r, 0, 1) ? (uint32_t)test_rng_next(r) : 0;
	h.has_unix_start = test_rng_range(r, 0, 1);
	h.unix_start = h.has_unix_start ? (int64_t)test_rng_next(r) : 0;
	h.has_tz_offset = test_rng_range(r, 0, 1);
	h.tz_offset = h.has_tz_offset ? (int32_t)(uint32_t)test_rng_next(r) : 0;
	random_name(r, h.tz_name);
	random_name(r, h.source);
	int32_t pool[20];
	for (int i = 0; i < 20; i++)
		pool[i] = i < 4 ? i - 1 : (int32_t)(uint32_t)test_rng_next(r);
	int32_t job = 0, submit = 0;
	for (size_t i = 0; i < n; i++) {
		struct fix_job *j = &jobs[i];
		job = test_rng_range(r, 0, 2) == 0 || extreme ? pick(r, pool, extreme) : (int32_t)((uint32_t)job + 1u);
		submit = test_rng_range(r, 0, 2) == 0 || extreme ? pick(r, pool, extreme)
								 : (int32_t)((uint32_t)submit + test_rng_range(r, 0, 50));
		*j = (struct fix_job){job, submit, pick(r, pool, extreme), pick(r, pool, extreme), pick(r, pool, extreme),
				      pick(r, pool, extreme), pick(r, pool, extreme), pick(r, pool, extreme),
				      pick(r, pool, extreme), pick(r, pool, extreme), pick(r, pool, extreme)};
		if (test_rng_range(r, 0, 1))
			j->req_procs = j->alloc_procs;
#define ABSENT(name, f) if (!(h.fields & FIX_FIELD_BIT(f))) j->name = -1
		ABSENT(run, FIX_F_RUN); ABSENT(alloc_procs, FIX_F_ALLOC_PROCS); ABSENT(req_procs, FIX_F_REQ_PROCS);
		ABSENT(req_time, FIX_F_REQ_TIME); ABSENT(status, FIX_F_STATUS); ABSENT(user, FIX_F_USER);
		ABSENT(group, FIX_F_GROUP); ABSENT(queue, FIX_F_QUEUE); ABSENT(partition, FIX_F_PARTITION);
#undef ABSENT
	}
	return build_fixture(&h, jobs, n, out, cap);
}

/* ---- the byte source ---------------------------------------------------- */

struct src {
	const uint8_t *p;
	size_t len, pos;
	size_t fail_after;     /* bytes it gives before failing (-1) */
	uint32_t maxchunk;     /* 0: as many as asked; else 1..maxchunk a call, at random */
	struct test_rng rng;
};

static long src_read(void *ctx, uint8_t *buf, size_t n)
{
	struct src *s = ctx;
	if (n == 0)
		return 0;
	if (s->pos >= s->fail_after)
		return -1;
	if (s->pos >= s->len)
		return 0;
	size_t avail = (s->len < s->fail_after ? s->len : s->fail_after) - s->pos;
	size_t m = n < avail ? n : avail;
	if (s->maxchunk) {
		size_t c = test_rng_range(&s->rng, 1, s->maxchunk);
		if (c < m)
			m = c;
	}
	memcpy(buf, s->p + s->pos, m);
	s->pos += m;
	return (long)m;
}

/* ---- running both and comparing ----------------------------------------- */

struct fast_result {
	int err;
	bool header_ok;
	struct fix_header hdr;
	uint64_t njobs;
	int again; /* what one more fix_dec_next returned: the latched error */
};

static struct fix_job ref_jobs[MAX_JOBS], fast_jobs[MAX_JOBS];
static struct fixref_result ref;
static struct fast_result fast;

static void run_fast(const uint8_t *p, size_t len, size_t fail_after, uint32_t maxchunk, uint64_t seed)
{
	static struct fix_dec d;
	struct fix_job j;
	struct src s = {p, len, 0, fail_after, maxchunk, {0}};
	test_rng_seed(&s.rng, seed);
	memset(&d, 0x5a, sizeof d); /* no help from a zeroed state */
	memset(&fast, 0, sizeof fast);
	int rc = fix_dec_init(&d, src_read, &s);
	if (rc != SCHED_OK) {
		fast.err = rc;
		fast.again = fix_dec_next(&d, &j);
		return;
	}
	fast.header_ok = true;
	fast.hdr = d.hdr;
	for (;;) {
		rc = fix_dec_next(&d, &j);
		if (rc != SCHED_OK)
			break;
		if (fast.njobs < MAX_JOBS)
			fast_jobs[fast.njobs] = j;
		if (++fast.njobs > (uint64_t)MAX_JOBS + 1) {
			rc = 1000; /* runaway: more jobs than any input here holds */
			break;
		}
	}
	fast.err = rc;
	fast.again = fix_dec_next(&d, &j);
}

/* A code's name for the reports ("E_CRC"), from the one list of err.h. */
static const char *code_name(int e)
{
	static char other[32];
#define CODE_NAME_(name, num, msg) \
	case SCHED_E_##name:       \
		return "E_" #name;
	switch (e) {
	case FIX_END: return "FIX_END";
	case SCHED_OK: return "OK";
	SCHED_ERRORS(CODE_NAME_)
	default: snprintf(other, sizeof other, "code %d", e); return other;
	}
#undef CODE_NAME_
}

/* What reproduces a case. */
struct casedesc {
	const char *input;
	size_t len;        /* bytes given (a prefix when below the input's size) */
	size_t full;       /* the input's size */
	size_t fail_after; /* FIXREF_NO_FAIL: never */
	uint32_t maxchunk;
	uint64_t seed;     /* of the read sizes, and of the flips when there are flips */
	unsigned nflips;
	uint64_t flips[8]; /* bit positions: byte * 8 + bit (bit 0 least significant) */
	int crc;           /* with flips: 1 the CRC left as it was, 2 recomputed after the flips */
};

struct tally {
	int ref_err, fast_err;
	const char *kind, *where;
	unsigned long count;
	char first[600];
};
static struct tally tallies[64];
static unsigned ntallies;
static unsigned long cases, mismatches, printed;

static void describe(char *s, size_t cap, const struct casedesc *c)
{
	int n = snprintf(s, cap, "%s (%zu bytes)", c->input, c->full);
	if (c->len != c->full)
		n += snprintf(s + n, cap - (size_t)n, " prefix %zu", c->len);
	if (c->fail_after != FIXREF_NO_FAIL)
		n += snprintf(s + n, cap - (size_t)n, " source fails after %zu bytes", c->fail_after);
	if (c->nflips) {
		n += snprintf(s + n, cap - (size_t)n, " flips");
		for (unsigned i = 0; i < c->nflips; i++)
			n += snprintf(s + n, cap - (size_t)n, " byte %llu bit %u", (unsigned long long)(c->flips[i] / 8),
				      (unsigned)(c->flips[i] % 8));
		n += snprintf(s + n, cap - (size_t)n, " crc %s", c->crc == 2 ? "recomputed" : "left");
	}
	if (c->maxchunk)
		n += snprintf(s + n, cap - (size_t)n, " reads of 1..%u bytes", c->maxchunk);
	else
		n += snprintf(s + n, cap - (size_t)n, " reads as asked");
	snprintf(s + n, cap - (size_t)n, ", seed %#llx", (unsigned long long)c->seed);
}

static void mismatch(const struct casedesc *c, const char *kind, const char *detail)
{
	char d[500];
	describe(d, sizeof d, c);
	mismatches++;
	struct tally *t = NULL;
	for (unsigned i = 0; i < ntallies; i++)
		if (tallies[i].ref_err == ref.err && tallies[i].fast_err == fast.err && strcmp(tallies[i].kind, kind) == 0 &&
		    strcmp(tallies[i].where, ref.where) == 0)
			t = &tallies[i];
	if (t == NULL && ntallies < 64) {
		t = &tallies[ntallies++];
		*t = (struct tally){ref.err, fast.err, kind, ref.where, 0, ""};
		snprintf(t->first, sizeof t->first, "%s", d);
	}
	if (t != NULL)
		t->count++;
	/* the first three of each kind, at most 60 in all */
	if ((t == NULL || t->count <= 3) && printed++ < 60)
		printf("  MISMATCH %s: %s\n    ref:  %s after %llu jobs (header %s, stopped in the %s at bit %llu = byte %llu bit %u)\n"
		       "    fast: %s after %llu jobs (header %s, then %s)%s%s\n",
		       kind, d, code_name(ref.err), (unsigned long long)ref.njobs, ref.header_ok ? "read" : "not read",
		       ref.where, (unsigned long long)ref.err_bit, (unsigned long long)(ref.err_bit / 8), (unsigned)(ref.err_bit % 8),
		       code_name(fast.err), (unsigned long long)fast.njobs, fast.header_ok ? "read" : "not read",
		       code_name(fast.again), detail[0] ? "\n    " : "", detail);
}

static bool same_header(const struct fix_header *a, const struct fix_header *b)
{
	return a->version == b->version && a->jobs == b->jobs && a->records_bytes == b->records_bytes &&
	       a->max_procs == b->max_procs && a->max_nodes == b->max_nodes && a->unix_start == b->unix_start &&
	       a->tz_offset == b->tz_offset && a->has_unix_start == b->has_unix_start &&
	       a->has_tz_offset == b->has_tz_offset && a->fields == b->fields &&
	       memchr(b->tz_name, 0, sizeof b->tz_name) && memchr(b->source, 0, sizeof b->source) &&
	       strcmp(a->tz_name, b->tz_name) == 0 && strcmp(a->source, b->source) == 0;
}

static void show_job(char *s, size_t cap, const struct fix_job *j)
{
	snprintf(s, cap, "%d %d %d %d %d %d %d %d %d %d %d", j->job, j->submit, j->run, j->alloc_procs, j->req_procs,
		 j->req_time, j->status, j->user, j->group, j->queue, j->partition);
}

/* Compare the fast result with the reference's; record a mismatch. */
static bool agree(const struct casedesc *c)
{
	char detail[400] = "";
	cases++;
	if (ref.err != fast.err) {
		mismatch(c, "final code", detail);
		return false;
	}
	if (ref.header_ok != fast.header_ok) {
		mismatch(c, "header read by one only", detail);
		return false;
	}
	if (ref.header_ok && !same_header(&ref.hdr, &fast.hdr)) {
		mismatch(c, "header fields", detail);
		return false;
	}
	if (ref.njobs != fast.njobs) {
		mismatch(c, "job count", detail);
		return false;
	}
	/* Both decoders kept the first MAX_JOBS jobs at most. */
	size_t kept = ref.njobs < (uint64_t)MAX_JOBS ? (size_t)ref.njobs : (size_t)MAX_JOBS;
	for (size_t i = 0; i < kept; i++)
		if (memcmp(&ref_jobs[i], &fast_jobs[i], sizeof ref_jobs[i]) != 0) {
			char a[150], b[150];
			show_job(a, sizeof a, &ref_jobs[i]);
			show_job(b, sizeof b, &fast_jobs[i]);
			snprintf(detail, sizeof detail, "job %llu: ref %s, fast %s", (unsigned long long)i, a, b);
			mismatch(c, "job fields", detail);
			return false;
		}
	if (fast.again != fast.err) {
		mismatch(c, "error not latched", detail);
		return false;
	}
	return true;
}

/* One case: the reference and the fast decoder on data[0 .. len), the source failing after fail_after bytes. */
static bool differential(struct casedesc *c, const uint8_t *data, size_t len, size_t fail_after, uint32_t maxchunk,
			 uint64_t seed)
{
	c->len = len;
	c->fail_after = fail_after;
	c->maxchunk = maxchunk;
	c->seed = seed;
	fixref_decode(data, len, fail_after, ref_jobs, MAX_JOBS, &ref);
	run_fast(data, len, fail_after, maxchunk, seed);
	return agree(c);
}

static void tally_reset(void)
{
	ntallies = 0;
	cases = mismatches = printed = 0;
}

static void tally_print(const char *what)
{
	printf("  %s: %lu cases, %lu mismatches\n", what, cases, mismatches);
	for (unsigned i = 0; i < ntallies; i++)
		printf("    %lu x %s: ref %s (in the %s), fast %s; first: %s\n", tallies[i].count, tallies[i].kind,
		       code_name(tallies[i].ref_err), tallies[i].where, code_name(tallies[i].fast_err), tallies[i].first);
	fflush(stdout);
}

/* A random read size bound: as asked a quarter of the time, else 1..N with N up to 300. */
static uint32_t random_chunk(struct test_rng *r)
{
	switch (test_rng_range(r, 0, 3)) {
	case 0: return 0;
	case 1: return test_rng_range(r, 1, 4);
	default: return test_rng_range(r, 1, 300);
	}
}

/* ---- (e) the reference against the spec itself ------------------------- */

/* A bit writer and a Rice coder written from the spec, to make inputs the encoder cannot. */
struct bw {
	uint8_t p[1024];
	size_t nbits;
};

static void bw_bits(struct bw *w, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++, w->nbits++)
		if ((v >> i) & 1)
			w->p[w->nbits / 8] |= (uint8_t)(1u << (w->nbits % 8));
}

/* The Rice parameter of a stream whose mean16 is @p mean16: the reference's rule. */
static unsigned spec_k(uint64_t mean16)
{
	struct fixref_stream s = {mean16};
	return fixref_k(&s);
}

/* Code u in the stream whose mean16 is *m; force_escape sends the escape even when not needed. */
static void bw_rice(struct bw *w, uint64_t *m, uint32_t u, bool force_escape)
{
	struct fixref_stream s = {*m};
	unsigned k = fixref_k(&s);
	uint64_t q = (uint64_t)u >> k;
	if (q >= 24 || force_escape) {
		bw_bits(w, (1u << 24) - 1, 24);
		bw_bits(w, u, 32);
	} else {
		bw_bits(w, (1ull << q) - 1, (unsigned)q);
		bw_bits(w, 0, 1);
		bw_bits(w, u, k);
	}
	fixref_update(&s, u);
	*m = s.mean16;
}

static void bw_end(struct bw *w)
{
	bw_bits(w, 1, 1);
	while (w->nbits % 8)
		w->nbits++;
}

/* Header (fields, jobs), the records of @p w, the CRC: the file's size. */
static size_t craft(uint8_t *out, uint32_t fields, uint32_t jobs, const struct bw *w, size_t extra_zero_bytes)
{
	struct fix_header h;
	memset(&h, 0, sizeof h);
	h.version = FIX_VERSION;
	h.fields = fields;
	h.jobs = jobs;
	h.records_bytes = (uint32_t)((w->nbits + 7) / 8 + extra_zero_bytes);
	strcpy(h.source, "crafted");
	int hn = fix_header_encode(&h, out, 400);
	if (hn < 0)
		return 0;
	memcpy(out + hn, w->p, (w->nbits + 7) / 8);
	memset(out + (size_t)hn + (w->nbits + 7) / 8, 0, extra_zero_bytes);
	put_crc(out, (size_t)hn + h.records_bytes);
	return (size_t)hn + h.records_bytes + 4;
}

#define FJS (FIX_FIELD_BIT(FIX_F_JOB) | FIX_FIELD_BIT(FIX_F_SUBMIT))

/* A fixture's header_bytes: where its record section starts. */
static size_t header_size(const uint8_t *file)
{
	return (size_t)file[6] | (size_t)file[7] << 8;
}

/* Check the reference gives @p want on data; also run the fast decoder against it. */
static bool ref_expect(const char *name, const uint8_t *data, size_t len, size_t fail_after, int want, uint64_t want_jobs)
{
	struct casedesc c = {name, len, len, FIXREF_NO_FAIL, 0, 0, 0, {0}, 0};
	differential(&c, data, len, fail_after, 0, SEED);
	if (ref.err != want || ref.njobs != want_jobs) {
		printf("  REFERENCE WRONG %s: got %s after %llu jobs, the spec says %s after %llu\n", name,
		       code_name(ref.err), (unsigned long long)ref.njobs, code_name(want), (unsigned long long)want_jobs);
		return false;
	}
	return true;
}

static void reference_follows_spec(void)
{
	tally_reset();
	bool ok = true;
	/* The bitwise CRC: the known vector, and zlib's on random data. */
	CHECK_EQ(fixref_crc32((const uint8_t *)"123456789", 9), 0xCBF43926u);
	struct test_rng r;
	test_rng_seed(&r, SEED);
	static uint8_t buf[4096], file[1 << 16];
	for (int i = 0; i < 50; i++) {
		size_t n = test_rng_range(&r, 0, sizeof buf);
		for (size_t j = 0; j < n; j++)
			buf[j] = (uint8_t)test_rng_next(&r);
		CHECK_EQ(fixref_crc32(buf, n), fix_crc32(0, buf, n));
	}

	/* The corrupt corpus: each file gets the error expected.txt names (a prefix of the message). */
	FILE *f = fopen("tests/data/corrupt/expected.txt", "r");
	CHECK(f != NULL);
	char line[512];
	int files = 0;
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		char *tab = strchr(line, '\t');
		CHECK(tab != NULL);
		*tab = '\0';
		char *msg = tab + 1;
		msg[strcspn(msg, "\r\n")] = '\0';
		char path[600];
		snprintf(path, sizeof path, "tests/data/corrupt/%s", line);
		uint8_t *data;
		size_t len;
		CHECK(load(path, &data, &len));
		fixref_decode(data, len, FIXREF_NO_FAIL, ref_jobs, MAX_JOBS, &ref);
		const char *got = ref.err == FIX_END ? "OK" : sched_strerror(ref.err);
		bool match = strncmp(got, msg, strlen(msg)) == 0;
		printf("  corpus %-24s expected \"%s\", reference: %s\n", line, msg, got);
		if (!match)
			ok = false;
		free(data);
		files++;
	}
	fclose(f);
	CHECK(files >= 15);

	/* Every committed fixture decodes whole, as many jobs as its header says. */
	static char names[64][256];
	size_t nf = list_fix("fixtures", names, 64);
	CHECK(nf >= 6);
	for (size_t i = 0; i < nf; i++) {
		uint8_t *data;
		size_t len;
		CHECK(load(names[i], &data, &len));
		fixref_decode(data, len, FIXREF_NO_FAIL, ref_jobs, MAX_JOBS, &ref);
		if (ref.err != FIX_END || ref.njobs != ref.hdr.jobs) {
			printf("  REFERENCE WRONG %s: %s after %llu jobs\n", names[i], code_name(ref.err),
			       (unsigned long long)ref.njobs);
			ok = false;
		}
		free(data);
	}

	/* It decodes what the encoder made back to the very jobs, for every set of stored fields. */
	static struct fix_job want[64];
	for (uint32_t combo = 0; combo < 512; combo++) {
		uint32_t fields = fields_of_combo(combo);
		size_t nj = test_rng_range(&r, 0, 40);
		size_t len = make_synth(&r, fields, nj, combo % 7 == 3, want, file, sizeof file);
		CHECK(len > 0);
		fixref_decode(file, len, FIXREF_NO_FAIL, ref_jobs, MAX_JOBS, &ref);
		CHECK_EQ(ref.err, FIX_END);
		CHECK_EQ(ref.njobs, nj);
		for (size_t j = 0; j < nj; j++)
			CHECK(memcmp(&want[j], &ref_jobs[j], sizeof want[j]) == 0);
	}

	/* Hand-made records for each rule of "Every value has exactly one encoding". */
	struct bw w;
	uint64_t mj, ms, mr, mi, mx;
	size_t n;
#define RESET() (memset(&w, 0, sizeof w), mj = ms = mr = mi = mx = 256)
	RESET();
	bw_rice(&w, &mj, 0, false); /* job 1 */
	bw_rice(&w, &ms, 5, false); /* submit -3 */
	bw_end(&w);
	n = craft(file, FJS, 1, &w, 0);
	ok &= ref_expect("minimal", file, n, FIXREF_NO_FAIL, FIX_END, 1);
	CHECK(ref_jobs[0].job == 1 && ref_jobs[0].submit == -3 && ref_jobs[0].run == -1 && ref_jobs[0].partition == -1);
	ok &= ref_expect("source fails inside the records", file, n, n - 5, SCHED_E_IO, 0);
	ok &= ref_expect("source fails when asked past the trailer", file, n, n, SCHED_E_IO, 1);
	ok &= ref_expect("trailer cut short", file, n - 1, FIXREF_NO_FAIL, SCHED_E_TRUNCATED, 1);
	file[n] = 0;
	ok &= ref_expect("a byte after the trailer", file, n + 1, FIXREF_NO_FAIL, SCHED_E_TRAILING, 1);
	file[n - 1] ^= 0x80;
	ok &= ref_expect("CRC wrong", file, n, FIXREF_NO_FAIL, SCHED_E_CRC, 1);
	n = craft(file, FJS, 2, &w, 0);
	ok &= ref_expect("count too high (the marker where record 2 should be)", file, n, FIXREF_NO_FAIL, SCHED_E_COUNT, 1);
	n = craft(file, FJS, 1, &w, 1);
	ok &= ref_expect("a zero byte after the marker's byte", file, n, FIXREF_NO_FAIL, SCHED_E_COUNT, 1);
	file[n - 5] = 0x80; /* the record section's last byte, after the marker's */
	put_crc(file, n - 4);
	ok &= ref_expect("a non-zero byte after the marker's byte", file, n, FIXREF_NO_FAIL, SCHED_E_COUNT, 1);
	n = craft(file, FJS, 0, &w, 0);
	ok &= ref_expect("count too low (a 0 where the marker should be)", file, n, FIXREF_NO_FAIL, SCHED_E_COUNT, 0);
	RESET();
	bw_rice(&w, &mj, 0, false);
	bw_rice(&w, &ms, 0, false);
	bw_bits(&w, 1, 1);
	while (w.nbits % 8 != 7)
		bw_bits(&w, 0, 1);
	bw_bits(&w, 1, 1); /* a 1 in the padding's last bit */
	n = craft(file, FJS, 1, &w, 0);
	/* docs/fixture-format.md, Errors: a 1 in the padding is data past the last record */
	ok &= ref_expect("non-zero padding", file, n, FIXREF_NO_FAIL, SCHED_E_COUNT, 1);
	RESET();
	bw_rice(&w, &mj, 0, true);
	bw_rice(&w, &ms, 0, false);
	bw_end(&w);
	n = craft(file, FJS, 1, &w, 0);
	ok &= ref_expect("escape for 0", file, n, FIXREF_NO_FAIL, SCHED_E_VALUE, 0);
	/* docs/fixture-format.md, Errors: a Rice code is read whole before its value is checked.
	 * The escape is bits 0..55 of the records: cut after 32 of them. */
	ok &= ref_expect("escape for 0, cut inside its 32 bits", file, header_size(file) + 4, FIXREF_NO_FAIL,
			 SCHED_E_TRUNCATED, 0);
	ok &= ref_expect("escape for 0, the source failing inside its 32 bits", file, n, header_size(file) + 4,
			 SCHED_E_IO, 0);
	RESET();
	bw_rice(&w, &mj, 383, true); /* k = 4: 383 >> 4 = 23, no escape needed */
	bw_rice(&w, &ms, 0, false);
	bw_end(&w);
	n = craft(file, FJS, 1, &w, 0);
	ok &= ref_expect("escape for 383 at k = 4", file, n, FIXREF_NO_FAIL, SCHED_E_VALUE, 0);
	RESET();
	bw_rice(&w, &mj, 384, false); /* 384 >> 4 = 24: the escape is the code */
	bw_rice(&w, &ms, 0, false);
	bw_end(&w);
	n = craft(file, FJS, 1, &w, 0);
	ok &= ref_expect("escape for 384 at k = 4", file, n, FIXREF_NO_FAIL, FIX_END, 1);
	CHECK_EQ(ref_jobs[0].job, 1 + 192);
	/* The run stream driven to k = 31; then two ones are a q no 32-bit value has. */
	RESET();
	uint32_t nj = 0;
	while (spec_k(mr) < 31 && nj < 100) {
		bw_rice(&w, &mj, 0, false);
		bw_rice(&w, &ms, 0, false);
		bw_rice(&w, &mr, UINT32_MAX, false); /* run -2 */
		nj++;
	}
	CHECK_EQ(spec_k(mr), 31);
	struct bw base = w; /* nj records, the run stream at k = 31 */
	const uint64_t mj0 = mj, ms0 = ms;
	struct bw good = w;
	bw_end(&good);
	n = craft(file, FJS | FIX_FIELD_BIT(FIX_F_RUN), nj, &good, 0);
	ok &= ref_expect("run stream at k = 31", file, n, FIXREF_NO_FAIL, FIX_END, nj);
	CHECK_EQ(ref_jobs[nj - 1].run, -2);
	bw_rice(&w, &mj, 0, false);
	bw_rice(&w, &ms, 0, false);
	bw_bits(&w, 3, 2);
	bw_bits(&w, 0, 60);
	bw_end(&w);
	n = craft(file, FJS | FIX_FIELD_BIT(FIX_F_RUN), nj + 1, &w, 0);
	ok &= ref_expect("q = 2 at k = 31", file, n, FIXREF_NO_FAIL, SCHED_E_VALUE, nj);
	/* docs/fixture-format.md, Errors: q << k not fitting in 32 bits is SCHED_E_VALUE as soon as
	 * the unary part ends, even if the low bits are cut short; cut before its zero, the code is
	 * cut short (TRUNCATED, or IO). The submit code's length moves the run code to every
	 * alignment, so that one of them puts the zero at the start of a byte. */
	bool cut_before_zero = false;
	for (uint32_t sq = 0; sq < 16; sq++) {
		struct bw v = base;
		uint64_t a = mj0, b = ms0;
		bw_rice(&v, &a, 0, false);
		bw_rice(&v, &b, sq << spec_k(b), false); /* the submit code's q = sq */
		size_t zero = v.nbits + 2;
		bw_bits(&v, 3, 2);
		bw_bits(&v, 0, 60);
		bw_end(&v);
		n = craft(file, FJS | FIX_FIELD_BIT(FIX_F_RUN), nj + 1, &v, 0);
		size_t hn = header_size(file);
		ok &= ref_expect("q = 2 at k = 31, cut inside its low bits", file, hn + zero / 8 + 1, FIXREF_NO_FAIL,
				 SCHED_E_VALUE, nj);
		ok &= ref_expect("q = 2 at k = 31, the source failing inside its low bits", file, n, hn + zero / 8 + 1,
				 SCHED_E_VALUE, nj);
		if (zero % 8 == 0 && !cut_before_zero) {
			cut_before_zero = true;
			ok &= ref_expect("q = 2 at k = 31, cut before its zero", file, hn + zero / 8, FIXREF_NO_FAIL,
					 SCHED_E_TRUNCATED, nj);
			ok &= ref_expect("q = 2 at k = 31, the source failing before its zero", file, n, hn + zero / 8,
					 SCHED_E_IO, nj);
		}
	}
	CHECK(cut_before_zero);
	/* Caches. */
	const uint32_t FST = FJS | FIX_FIELD_BIT(FIX_F_STATUS);
	for (int v = 0; v < 4; v++) {
		RESET();
		bw_rice(&w, &mj, 0, false);
		bw_rice(&w, &ms, 0, false);
		if (v == 3) {
			bw_bits(&w, 1, 1); /* a hit in the empty cache */
			bw_rice(&w, &mi, 0, false);
		} else {
			bw_bits(&w, 0, 1);
			bw_rice(&w, &mx, 8, false); /* status 7 */
		}
		bw_rice(&w, &mj, 0, false);
		bw_rice(&w, &ms, 0, false);
		if (v == 0) {
			bw_bits(&w, 0, 1); /* status 7 again, as a miss */
			bw_rice(&w, &mx, 8, false);
		} else {
			bw_bits(&w, 1, 1);
			bw_rice(&w, &mi, v == 2 ? 1 : 0, false); /* index 1 is past a cache of one */
		}
		bw_end(&w);
		n = craft(file, FST, 2, &w, 0);
		static const char *names_c[] = {"a miss for a cached value", "a hit", "an index past the cache",
						"a hit in an empty cache"};
		static const int want_c[] = {SCHED_E_VALUE, FIX_END, SCHED_E_VALUE, SCHED_E_VALUE};
		static const uint64_t jobs_c[] = {1, 2, 1, 0};
		ok &= ref_expect(names_c[v], file, n, FIXREF_NO_FAIL, want_c[v], jobs_c[v]);
		if (v == 1)
			CHECK(ref_jobs[0].status == 7 && ref_jobs[1].status == 7 && ref_jobs[1].user == -1);
	}
	/* docs/fixture-format.md, Errors: a cache index past the cache is SCHED_E_VALUE only once
	 * the whole index code is read; cut short first, TRUNCATED (IO for a failing source). */
	{
		RESET();
		bw_rice(&w, &mj, 0, false);
		bw_rice(&w, &ms, 0, false);
		bw_bits(&w, 1, 1); /* a hit in the empty status cache */
		size_t at = w.nbits;
		bw_rice(&w, &mi, 200, false); /* index 200 at k = 4: 12 ones, a zero, 4 bits */
		bw_end(&w);
		n = craft(file, FST, 1, &w, 0);
		size_t cut = header_size(file) + at / 8 + 1; /* the index code's first byte only */
		ok &= ref_expect("index 200 in an empty cache", file, n, FIXREF_NO_FAIL, SCHED_E_VALUE, 0);
		ok &= ref_expect("index 200 in an empty cache, cut inside the index", file, cut, FIXREF_NO_FAIL,
				 SCHED_E_TRUNCATED, 0);
		ok &= ref_expect("index 200 in an empty cache, the source failing inside the index", file, n, cut,
				 SCHED_E_IO, 0);
	}
	/* A "different" requested processor count equal to the allocated one. */
	for (int v = 0; v < 2; v++) {
		uint64_t ma = 256, mq = 256;
		RESET();
		bw_rice(&w, &mj, 0, false);
		bw_rice(&w, &ms, 0, false);
		bw_rice(&w, &ma, 9, false); /* alloc 8 */
		bw_bits(&w, (unsigned)v, 1);
		if (v == 0)
			bw_rice(&w, &mq, 9, false);
		bw_end(&w);
		n = craft(file, FJS | FIX_FIELD_BIT(FIX_F_ALLOC_PROCS) | FIX_FIELD_BIT(FIX_F_REQ_PROCS), 1, &w, 0);
		ok &= ref_expect(v ? "req procs: equal" : "req procs: different but equal", file, n, FIXREF_NO_FAIL,
				 v ? FIX_END : SCHED_E_VALUE, (uint64_t)v);
		if (v)
			CHECK(ref_jobs[0].alloc_procs == 8 && ref_jobs[0].req_procs == 8);
	}
	/* The header, patched after the encoder, the CRC recomputed. */
	RESET();
	bw_rice(&w, &mj, 0, false);
	bw_rice(&w, &ms, 0, false);
	bw_end(&w);
	/* docs/fixture-format.md, Errors: the header's fields are checked in one step once the whole
	 * header is read, except tz_len and source_len, each checked as soon as its byte is read.
	 * The crafted header: tz_len 0 at 42, source_len 7 at 43, "crafted" at 44..50:
	 * header_bytes 51; records_bytes 2. "cut" is the bytes given (0: all of them). */
	static const struct {
		const char *name;
		size_t off[3];
		uint8_t xor_mask[3];
		size_t cut;
		int want;
	} patches[] = {
		{"magic", {0}, {0x01}, 0, SCHED_E_MAGIC},
		{"version 3", {4}, {0x02}, 0, SCHED_E_VERSION},
		{"header_bytes + 1", {6}, {0x01}, 0, SCHED_E_HEADER},
		{"records_bytes 0", {12}, {0x02}, 0, SCHED_E_HEADER},
		{"unix_start given while flagged absent", {24}, {0x05}, 0, SCHED_E_HEADER},
		{"tz_offset given while flagged absent", {35}, {0x80}, 0, SCHED_E_HEADER},
		{"flags bit 2", {36}, {0x04}, 0, SCHED_E_HEADER},
		{"flags bit 15", {37}, {0x80}, 0, SCHED_E_HEADER},
		{"fields: field 3 (the wait)", {38}, {0x04}, 0, SCHED_E_HEADER},
		{"fields: field 17", {40}, {0x01}, 0, SCHED_E_HEADER},
		{"fields: field 1 absent (fields 1 and 2 are always stored)", {38}, {0x01}, 0, SCHED_E_HEADER},
		{"tz_len 128", {42}, {0x80}, 0, SCHED_E_HEADER},
		{"source_len + 1", {43}, {0x01}, 0, SCHED_E_HEADER},
		{"source not printable (0x7f)", {44}, {'c' ^ 0x7f}, 0, SCHED_E_HEADER},
		{"source not printable (0x1f)", {45}, {'r' ^ 0x1f}, 0, SCHED_E_HEADER},
		/* the magic and the version are checked as soon as read */
		{"magic, cut inside the source", {0}, {0x01}, 47, SCHED_E_MAGIC},
		{"magic, cut after it", {0}, {0x01}, 4, SCHED_E_MAGIC},
		{"version 3, cut inside the source", {4}, {0x02}, 47, SCHED_E_VERSION},
		{"magic, cut inside it", {0}, {0x01}, 3, SCHED_E_TRUNCATED},
		/* the other fields' checks wait for the whole header */
		{"records_bytes 0, cut inside the source", {12}, {0x02}, 47, SCHED_E_TRUNCATED},
		{"unix_start given while flagged absent, cut inside the source", {24}, {0x05}, 47, SCHED_E_TRUNCATED},
		{"flags bit 2, cut inside the source", {36}, {0x04}, 47, SCHED_E_TRUNCATED},
		{"fields: field 3, cut inside the source", {38}, {0x04}, 47, SCHED_E_TRUNCATED},
		{"source not printable, cut inside it", {44}, {'c' ^ 0x7f}, 47, SCHED_E_TRUNCATED},
		{"source not printable, cut right after the header", {44}, {'c' ^ 0x7f}, 51, SCHED_E_HEADER},
		{"header_bytes 43, cut before tz_len", {6}, {0x33 ^ 0x2b}, 42, SCHED_E_TRUNCATED},
		{"source cut inside it (lengths consistent)", {0}, {0}, 47, SCHED_E_TRUNCATED},
		/* a length's check is made at its byte */
		{"header_bytes 43, cut after tz_len (44 + 0 > 43)", {6}, {0x33 ^ 0x2b}, 43, SCHED_E_HEADER},
		{"header_bytes 65535, cut before source_len", {6, 7}, {0x33 ^ 0xff, 0xff}, 43, SCHED_E_TRUNCATED},
		{"header_bytes 65535, cut inside the source (44 + 0 + 7 != 65535)", {6, 7}, {0x33 ^ 0xff, 0xff}, 47,
		 SCHED_E_HEADER},
		{"tz_len 128, cut inside its string", {42}, {0x80}, 44, SCHED_E_HEADER},
		{"tz_len 8 (44 + 8 > 51), cut inside its string", {42}, {0x08}, 46, SCHED_E_HEADER},
		{"tz_len 2, its string not printable, cut inside it", {42}, {0x02}, 44, SCHED_E_TRUNCATED},
		{"tz_len 2, its string (0x07 'c') not printable, cut before source_len", {42}, {0x02}, 45, SCHED_E_HEADER},
		{"tz_len 2, its string \"ab\", cut before source_len", {42, 43, 44}, {0x02, 0x07 ^ 'a', 'c' ^ 'b'}, 45,
		 SCHED_E_TRUNCATED},
		{"tz_len 2, its string \"ab\", then source_len 114", {42, 43, 44}, {0x02, 0x07 ^ 'a', 'c' ^ 'b'}, 46,
		 SCHED_E_HEADER},
		{"tz_len 2, then source_len 114 (44 + 2 + 114 != 51)", {42}, {0x02}, 0, SCHED_E_HEADER},
		{"source_len 8 (44 + 0 + 8 != 51), cut inside the source", {43}, {0x07 ^ 0x08}, 47, SCHED_E_HEADER},
		/* the magic and the version come first, whatever follows them */
		{"magic and version 3", {0, 4}, {0x01, 0x02}, 0, SCHED_E_MAGIC},
		{"version 3 and flags bit 2", {4, 36}, {0x02, 0x04}, 0, SCHED_E_VERSION},
		{"magic and source_len + 1", {0, 43}, {0x01, 0x01}, 0, SCHED_E_MAGIC},
		{"magic and tz_len 128", {0, 42}, {0x01, 0x80}, 0, SCHED_E_MAGIC},
		/* the lengths before the one step */
		{"flags bit 2 and source_len + 1", {36, 43}, {0x04, 0x01}, 0, SCHED_E_HEADER},
	};
	for (size_t i = 0; i < sizeof patches / sizeof patches[0]; i++) {
		n = craft(file, FJS, 1, &w, 0);
		CHECK_EQ(header_size(file), 51);
		CHECK_EQ(file[12], 2);
		for (int k = 0; k < 3; k++)
			file[patches[i].off[k]] ^= patches[i].xor_mask[k];
		put_crc(file, n - 4);
		ok &= ref_expect(patches[i].name, file, patches[i].cut ? patches[i].cut : n, FIXREF_NO_FAIL,
				 patches[i].want, 0);
	}
	/* test_fixture's empty fixture: fields 0 given to the encoder, which stores jobs and submits anyway */
	{
		struct fix_header h;
		memset(&h, 0, sizeof h);
		h.version = FIX_VERSION;
		n = build_fixture(&h, NULL, 0, file, sizeof file);
		CHECK(n > 0);
		ok &= ref_expect("empty fixture made with fields 0", file, n, FIXREF_NO_FAIL, FIX_END, 0);
	}
#undef RESET
	tally_print("fast decoder on the spec cases");
	CHECK(ok);
	CHECK_EQ(mismatches, 0);
}

/* ---- (a, d) every committed fixture, read whole and in short reads ---- */

static void committed_fixtures(void)
{
	tally_reset();
	static char names[64][256];
	size_t nf = list_fix("fixtures", names, 64);
	CHECK(nf >= 6);
	nf += list_fix("tests/data/corrupt", names + nf, 64 - nf);
	CHECK(nf >= 21);
	struct test_rng r;
	test_rng_seed(&r, SEED + 1);
	static const uint32_t chunks[] = {0, 1, 2, 3, 7, 255, 256, 257, 300};
	for (size_t i = 0; i < nf; i++) {
		uint8_t *data;
		size_t len;
		CHECK(load(names[i], &data, &len));
		struct casedesc c = {names[i], len, len, FIXREF_NO_FAIL, 0, 0, 0, {0}, 0};
		fixref_decode(data, len, FIXREF_NO_FAIL, ref_jobs, MAX_JOBS, &ref);
		/* the reference once; the fast decoder with every read size */
		bool big = len > 100000;
		for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
			if (big && chunks[k] > 0 && chunks[k] < 7)
				continue; /* a byte a call over 455 KB: the small files and the random sizes cover it */
			c.maxchunk = chunks[k];
			c.seed = test_rng_next(&r);
			run_fast(data, len, FIXREF_NO_FAIL, c.maxchunk, c.seed);
			agree(&c);
		}
		for (int k = 0; k < 3; k++) {
			c.maxchunk = test_rng_range(&r, 1, 300);
			c.seed = test_rng_next(&r);
			run_fast(data, len, FIXREF_NO_FAIL, c.maxchunk, c.seed);
			agree(&c);
		}
		free(data);
	}
	tally_print("committed fixtures");
	CHECK_EQ(mismatches, 0);
}

/* ---- (b) every prefix, every failing byte -------------------------------- */

static void every_prefix_and_failure(const char *name, const uint8_t *data, size_t len, struct test_rng *r)
{
	struct casedesc c = {name, len, len, FIXREF_NO_FAIL, 0, 0, 0, {0}, 0};
	for (size_t l = 0; l <= len; l++)
		differential(&c, data, l, FIXREF_NO_FAIL, random_chunk(r), test_rng_next(r));
	for (size_t k = 0; k <= len; k++)
		differential(&c, data, len, k, random_chunk(r), test_rng_next(r));
}

static uint8_t synth[1 << 16];
static struct fix_job synth_jobs[4096];

static void truncations_and_failures(void)
{
	tally_reset();
	struct test_rng r;
	test_rng_seed(&r, SEED + 2);
	uint8_t *data;
	size_t len;
	CHECK(load("fixtures/peek.fix", &data, &len));
	every_prefix_and_failure("fixtures/peek.fix", data, len, &r);
	free(data);
	unsigned long small_cases = cases;
	/* Every set of stored fields, a few jobs each. */
	for (uint32_t combo = 0; combo < 512; combo++) {
		uint32_t fields = fields_of_combo(combo);
		uint64_t seed = SEED ^ (combo * 0x9e3779b97f4a7c15ull);
		struct test_rng g;
		test_rng_seed(&g, seed);
		len = make_synth(&g, fields, test_rng_range(&g, 0, 4), combo % 5 == 1, synth_jobs, synth, sizeof synth);
		CHECK(len > 0);
		char name[80];
		snprintf(name, sizeof name, "synthetic fields %#x (make_synth seed %#llx)", fields | FJS,
			 (unsigned long long)seed);
		every_prefix_and_failure(name, synth, len, &r);
	}
	small_cases = cases - small_cases;
	/* A few longer ones: caches full, Rice parameters from 0 to 31. */
	unsigned long long_bytes = 0;
	for (int i = 0; i < 6; i++) {
		uint64_t seed = SEED + 100 + (uint64_t)i;
		struct test_rng g;
		test_rng_seed(&g, seed);
		uint32_t fields = (uint32_t)test_rng_next(&g) | FIX_KEPT_FIELDS * (i < 3);
		len = make_synth(&g, fields, 12 + 4 * (size_t)i, i % 2 == 1, synth_jobs, synth, sizeof synth);
		long_bytes += len;
		CHECK(len > 0);
		char name[80];
		snprintf(name, sizeof name, "synthetic long %d (make_synth seed %#llx)", i, (unsigned long long)seed);
		every_prefix_and_failure(name, synth, len, &r);
	}
	printf("  peek.fix and 512 small fixtures (one per set of stored fields): %lu cases; 6 longer ones (%lu bytes in all): %lu cases\n",
	       small_cases, long_bytes, cases - small_cases);
	tally_print("truncations and failing sources");
	CHECK_EQ(mismatches, 0);
}

/* ---- (c) bit flips ------------------------------------------------------ */

struct base {
	char name[96];
	uint8_t *p;
	size_t len;
	size_t hdr; /* header bytes */
};

static uint8_t flipped[1 << 16];

static void flip_case(const struct base *b, uint64_t seed, int single_bit /* -1: random flips */, int crc_mode)
{
	struct test_rng r;
	test_rng_seed(&r, seed);
	struct casedesc c = {b->name, b->len, b->len, FIXREF_NO_FAIL, 0, 0, 0, {0}, 0};
	memcpy(flipped, b->p, b->len);
	size_t body = b->len - 4;
	c.crc = crc_mode ? crc_mode : (int)test_rng_range(&r, 1, 2);
	uint64_t span = (uint64_t)(c.crc == 2 ? body : b->len) * 8;
	if (single_bit >= 0) {
		c.nflips = 1;
		c.flips[0] = (uint64_t)single_bit;
	} else {
		c.nflips = test_rng_range(&r, 0, 1) ? 1 : test_rng_range(&r, 2, 6);
		for (unsigned i = 0; i < c.nflips; i++) {
			uint64_t pos;
			switch (test_rng_range(&r, 0, 9)) {
			case 0: pos = test_rng_range(&r, 0, (uint32_t)b->hdr * 8 - 1); break; /* the header */
			case 1: /* the end of the records: marker, padding, count */
			case 2: pos = body * 8 - 1 - test_rng_range(&r, 0, body * 8 - 1 < 127 ? (uint32_t)body * 8 - 1 : 127); break;
			case 3:
			case 4: /* near the previous flip */
				if (i > 0) {
					int64_t p = (int64_t)c.flips[i - 1] + (int64_t)test_rng_range(&r, 0, 32) - 16;
					pos = p < 0 ? 0 : (uint64_t)p >= span ? span - 1 : (uint64_t)p;
					break;
				}
				/* fall through */
			default: pos = test_rng_next(&r) % span;
			}
			c.flips[i] = pos;
		}
	}
	for (unsigned i = 0; i < c.nflips; i++)
		flipped[c.flips[i] / 8] ^= (uint8_t)(1u << (c.flips[i] % 8));
	if (c.crc == 2)
		put_crc(flipped, body);
	differential(&c, flipped, b->len, FIXREF_NO_FAIL, random_chunk(&r), seed);
}

static void bit_flips(void)
{
	tally_reset();
	static struct base bases[40];
	size_t nb = 0;
	/* peek.fix */
	CHECK(load("fixtures/peek.fix", &bases[nb].p, &bases[nb].len));
	snprintf(bases[nb].name, sizeof bases[nb].name, "fixtures/peek.fix");
	nb++;
	/* lublin_256.fix's first jobs, re-encoded small */
	uint8_t *lub;
	size_t lub_len;
	CHECK(load("fixtures/lublin_256.fix", &lub, &lub_len));
	fixref_decode(lub, lub_len, FIXREF_NO_FAIL, ref_jobs, MAX_JOBS, &ref);
	CHECK_EQ(ref.err, FIX_END);
	free(lub);
	static const size_t lub_jobs[] = {60, 400};
	for (int i = 0; i < 2; i++) {
		struct fix_header h = ref.hdr;
		static uint8_t tmp[1 << 16];
		size_t n = build_fixture(&h, ref_jobs, lub_jobs[i], tmp, sizeof tmp);
		CHECK(n > 0);
		bases[nb].p = malloc(n);
		memcpy(bases[nb].p, tmp, n);
		bases[nb].len = n;
		snprintf(bases[nb].name, sizeof bases[nb].name, "lublin_256.fix's first %zu jobs re-encoded", lub_jobs[i]);
		printf("  %s: %zu bytes\n", bases[nb].name, n);
		nb++;
	}
	/* synthetic ones */
	for (int i = 0; nb < 40; i++) {
		uint64_t seed = SEED + 200 + (uint64_t)i;
		struct test_rng g;
		test_rng_seed(&g, seed);
		uint32_t fields = i % 3 == 0 ? FIX_KEPT_FIELDS : (uint32_t)test_rng_next(&g);
		size_t n = make_synth(&g, fields, test_rng_range(&g, 1, 40), i % 4 == 1, synth_jobs, synth, sizeof synth);
		CHECK(n > 0);
		bases[nb].p = malloc(n);
		memcpy(bases[nb].p, synth, n);
		bases[nb].len = n;
		snprintf(bases[nb].name, sizeof bases[nb].name, "synthetic flip base %d (make_synth seed %#llx)", i,
			 (unsigned long long)seed);
		nb++;
	}
	for (size_t i = 0; i < nb; i++)
		bases[i].hdr = (size_t)bases[i].p[6] | (size_t)bases[i].p[7] << 8;
	/* Every single bit of peek.fix, of the small lublin one and of three synthetic ones, both CRC modes. */
	size_t exhaustive[] = {0, 1, 3, 4, 5};
	unsigned long single = 0;
	for (size_t e = 0; e < sizeof exhaustive / sizeof exhaustive[0]; e++) {
		const struct base *b = &bases[exhaustive[e]];
		for (size_t bit = 0; bit < b->len * 8; bit++) {
			flip_case(b, SEED ^ (bit * 0x100000001b3ull) ^ e, (int)bit, 1);
			if (bit < (b->len - 4) * 8)
				flip_case(b, SEED ^ (bit * 0x100000001b3ull) ^ e ^ 1, (int)bit, 2);
			single += 1 + (bit < (b->len - 4) * 8);
		}
	}
	/* Random flips, one to six, anywhere, in the header, at the records' end, in clusters. */
	const unsigned long random_cases = 20000;
	for (unsigned long i = 0; i < random_cases; i++) {
		uint64_t seed = (SEED + 7) * 0x9e3779b97f4a7c15ull + i;
		const struct base *b = &bases[i % nb];
		flip_case(b, seed, -1, 0);
	}
	printf("  %lu exhaustive single flips, %lu random flip cases over %zu inputs\n", single, random_cases, nb);
	for (size_t i = 0; i < nb; i++)
		free(bases[i].p);
	tally_print("bit flips");
	CHECK_EQ(mismatches, 0);
}

/* ---- (d) short reads at every alignment --------------------------------- */

static void short_reads(void)
{
	tally_reset();
	struct test_rng r;
	test_rng_seed(&r, SEED + 3);
	/* A few KB with every field: every read bound 1..300, each with its own random sizes. */
	for (int i = 0; i < 2; i++) {
		struct test_rng g;
		uint64_t seed = SEED + 300 + (uint64_t)i;
		test_rng_seed(&g, seed);
		size_t len = make_synth(&g, FIX_KEPT_FIELDS, 150, i == 1, synth_jobs, synth, sizeof synth);
		CHECK(len > 0);
		char name[80];
		snprintf(name, sizeof name, "synthetic 150 jobs (make_synth seed %#llx)", (unsigned long long)seed);
		struct casedesc c = {name, len, len, FIXREF_NO_FAIL, 0, 0, 0, {0}, 0};
		fixref_decode(synth, len, FIXREF_NO_FAIL, ref_jobs, MAX_JOBS, &ref);
		CHECK_EQ(ref.err, FIX_END);
		for (uint32_t n = 1; n <= 300; n++) {
			c.maxchunk = n;
			c.seed = test_rng_next(&r);
			run_fast(synth, len, FIXREF_NO_FAIL, n, c.seed);
			agree(&c);
		}
		/* Cut or failing at and about each 256-byte boundary, and at random places, in short reads. */
		for (size_t at = 0; at <= len + 256; at += 256)
			for (size_t d = 0; d < 4; d++) {
				size_t l = at + d < 2 ? 0 : at + d - 2 > len ? len : at + d - 2;
				differential(&c, synth, l, FIXREF_NO_FAIL, test_rng_range(&r, 1, 300), test_rng_next(&r));
				differential(&c, synth, len, l, test_rng_range(&r, 1, 300), test_rng_next(&r));
			}
		for (int k = 0; k < 40; k++) {
			size_t l = test_rng_range(&r, 0, (uint32_t)len);
			differential(&c, synth, l, FIXREF_NO_FAIL, test_rng_range(&r, 1, 300), test_rng_next(&r));
			differential(&c, synth, len, l, test_rng_range(&r, 1, 300), test_rng_next(&r));
		}
		printf("  %s: %zu bytes\n", name, len);
	}
	tally_print("short reads");
	CHECK_EQ(mismatches, 0);
}

static const struct test tests[] = {
	{"reference_follows_spec", reference_follows_spec},
	{"committed_fixtures", committed_fixtures},
	{"truncations_and_failures", truncations_and_failures},
	{"bit_flips", bit_flips},
	{"short_reads", short_reads},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("fixture_ref", tests, argc, argv);
}
