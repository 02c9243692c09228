/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the console's line input and command dispatcher (the
 * host twin's code: firmware/console.c, line.c, the cmd_*.c files, over the
 * core) on arbitrary bytes. Besides no crash, leak or sanitizer report, it
 * holds the console to the protocol of docs/console.md, taken from that
 * document rather than from the code, on every line:
 *  - a line of more than 127 bytes (a carriage return right before its line
 *    feed not counted) gets exactly one line, "err 34 ..."; one with a byte
 *    below 0x20 other than tab "err 35 ..."; one of more than 8 words
 *    "err 32 ..."; a blank line (spaces and tabs) nothing;
 *  - any other line gets zero or more "evt" (or "bench") lines, then
 *    exactly one "ok" or "err <code> <message>" line, the code and message
 *    a row of the error tables (SCHED_ERRORS in core/include/sched/err.h,
 *    CON_ERRORS in firmware/console_err.h);
 *  - nothing is written before a line ends, and every line written is
 *    whole, printable ASCII and not cut short (fmt.c ends a cut one "...");
 *  - "quit [CODE]" with CODE 0..255 answers "ok bye" and ends the input with
 *    that status, and nothing else ends it;
 *  - the core's invariant checker passes after every line: the target turns
 *    "selfcheck on" first, and an "err 11" is a crash; if the input turns it
 *    off, the target runs the checker itself.
 * A few lines are not sent (skipped(): the deliberate fault, a bench that
 * would run, an input's second replay). Each input starts from
 * console_init(), which sets the console's global state (con, the live
 * schedule in its arena, the line being read) afresh.
 * The build (Makefile) gives the console a job table of 64 so that inputs
 * run faster and can fill it; the code is the twin's.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "con_session.h"
#include "console.h"
#include "console_err.h"
#include "port.h"
#include "port_fuzz.h"
#include "sched/err.h"

/* docs/console.md's limits, written out here so that the console is checked against the document. */
#define DOC_LINE_MAX 127u
#define DOC_MAX_WORDS 8u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * Small fixtures in place of the image's (tests/fuzz/fuzz_fixtures.S):
 * KTH's replay takes seconds, these at most milliseconds.
 */
extern const uint8_t fuzz_fx_peek[], fuzz_fx_peek_end[], fuzz_fx_valid[], fuzz_fx_valid_end[];
extern const uint8_t fuzz_fx_crc[], fuzz_fx_crc_end[], fuzz_fx_truncated[], fuzz_fx_truncated_end[];
extern const uint8_t fuzz_fx_magic[], fuzz_fx_magic_end[];
const struct console_fixture console_fixtures[] = {
	{"peek", fuzz_fx_peek, fuzz_fx_peek_end},
	{"valid", fuzz_fx_valid, fuzz_fx_valid_end},
	{"crc", fuzz_fx_crc, fuzz_fx_crc_end},
	{"truncated", fuzz_fx_truncated, fuzz_fx_truncated_end},
	{"magic", fuzz_fx_magic, fuzz_fx_magic_end},
	{"empty", fuzz_fx_peek, fuzz_fx_peek}, /* no bytes at all */
};
const unsigned console_fixture_count = sizeof console_fixtures / sizeof console_fixtures[0];

/* The error tables themselves, not con_strerror(): the console's messages are checked against them. */
#define ERR_ROW_(name, num, msg) {num, msg},
static const struct {
	int code;
	const char *msg;
} errors[] = {SCHED_ERRORS(ERR_ROW_) CON_ERRORS(ERR_ROW_)};
#undef ERR_ROW_

static const uint8_t *cur_line; /* the input line being checked, for the crash report */
static size_t cur_len;

_Noreturn static void fail(const char *why)
{
	size_t n;
	const char *out = port_fuzz_output(&n);
	fprintf(stderr, "fuzz_console: %s\n", why);
	if (cur_line != NULL)
		fprintf(stderr, "  line (%zu bytes): %.*s\n", cur_len, (int)(cur_len > 300 ? 300 : cur_len),
			(const char *)cur_line);
	fprintf(stderr, "  output (%zu bytes): %.*s\n", n, (int)(n > 2000 ? 2000 : n), out);
	abort();
}

/* The words of a line as docs/console.md splits it: at spaces and tabs. */
struct words {
	const uint8_t *w[DOC_MAX_WORDS];
	size_t len[DOC_MAX_WORDS];
	unsigned n; /* counts past DOC_MAX_WORDS, keeping only the first ones */
};

static bool word_is(const struct words *w, unsigned i, const char *s)
{
	return i < w->n && i < DOC_MAX_WORDS && w->len[i] == strlen(s) && memcmp(w->w[i], s, w->len[i]) == 0;
}

/* A word of decimal digits only, its value (saturated above 2^32), or -1. */
static int64_t word_number(const struct words *w, unsigned i)
{
	if (i >= w->n || i >= DOC_MAX_WORDS)
		return -1;
	int64_t v = 0;
	for (size_t k = 0; k < w->len[i]; k++) {
		uint8_t c = w->w[i][k];
		if (c < '0' || c > '9')
			return -1;
		v = v * 10 + (c - '0');
		if (v > (int64_t)UINT32_MAX)
			v = (int64_t)UINT32_MAX + 1;
	}
	return v;
}

/* What docs/console.md promises for one line (the bytes before its line feed). */
struct verdict {
	enum { EXPECT_NOTHING, EXPECT_ERR, EXPECT_REPLY } kind;
	int code; /* EXPECT_ERR: the one code it gets */
};

static struct verdict classify(const uint8_t *p, size_t n, struct words *w)
{
	if (n > 0 && p[n - 1] == '\r')
		n--; /* "a carriage return before the line feed is ignored" */
	if (n > DOC_LINE_MAX)
		return (struct verdict){EXPECT_ERR, 34};
	for (size_t i = 0; i < n; i++)
		if (p[i] < 0x20 && p[i] != '\t')
			return (struct verdict){EXPECT_ERR, 35};
	w->n = 0;
	for (size_t i = 0; i < n;) {
		while (i < n && (p[i] == ' ' || p[i] == '\t'))
			i++;
		size_t start = i;
		while (i < n && p[i] != ' ' && p[i] != '\t')
			i++;
		if (i > start) {
			if (w->n < DOC_MAX_WORDS) {
				w->w[w->n] = p + start;
				w->len[w->n] = i - start;
			}
			w->n++;
		}
	}
	if (w->n > DOC_MAX_WORDS)
		return (struct verdict){EXPECT_ERR, 32};
	if (w->n == 0)
		return (struct verdict){EXPECT_NOTHING, 0};
	return (struct verdict){EXPECT_REPLY, 0};
}

/*
 * Lines the target does not send:
 *  - "selftest fault" crashes on purpose (tests/console/fault*.txt test it);
 *  - a "bench" that would run (no argument, or a backlog of 1..1024) takes
 *    10 ms to a second and prints timings; its refusals (0, above 1024, not
 *    a number, too many words) are still sent;
 *  - a "replay" with a name after the input's first such line: the
 *    fixtures here are small, but 120 jobs under slack take milliseconds,
 *    and mutation copies lines, so more than one would halve the inputs a
 *    second fuzzed; a replay ends with an empty schedule, so a second one
 *    would find the state the first left anyway. *replayed says whether
 *    the input has had its one.
 */
static bool skipped(const struct words *w, bool *replayed)
{
	/* medium poke and erase damage the store on purpose: the restore check would see it. */
	if (word_is(w, 0, "medium") && (word_is(w, 1, "poke") || word_is(w, 1, "erase")))
		return true;
	if (word_is(w, 0, "selftest"))
		return w->n == 2 && word_is(w, 1, "fault");
	if (word_is(w, 0, "bench")) {
		int64_t backlog = word_number(w, 1);
		return w->n == 1 || (w->n == 2 && backlog >= 1 && backlog <= 1024);
	}
	if (word_is(w, 0, "replay") && w->n >= 2 && w->n <= 3) {
		bool again = *replayed;
		*replayed = true;
		return again;
	}
	return false;
}

/* The status "quit" ends the input with, or -1 if the line must not end it. */
static int quit_status(const struct words *w)
{
	if (!word_is(w, 0, "quit"))
		return -1;
	if (w->n == 1)
		return 0;
	int64_t code = word_number(w, 1);
	return w->n == 2 && code >= 0 && code <= 255 ? (int)code : -1;
}

static bool starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && memcmp(s, prefix, k) == 0;
}

/* Decimal digits from s[*at], at most 10, none of them leading zeros; advances *at. */
static bool number_at(const char *s, size_t n, size_t *at)
{
	size_t start = *at;
	while (*at < n && s[*at] >= '0' && s[*at] <= '9')
		(*at)++;
	size_t len = *at - start;
	return len >= 1 && len <= 10 && (len == 1 || s[start] != '0');
}

/* "evt start J T P" or "evt kill J T". */
static bool is_evt(const char *s, size_t n)
{
	size_t at;
	unsigned fields;
	if (starts(s, n, "evt start ")) {
		at = 10;
		fields = 3;
	} else if (starts(s, n, "evt kill ")) {
		at = 9;
		fields = 2;
	} else {
		return false;
	}
	for (unsigned f = 0; f < fields; f++) {
		if (f > 0 && (at >= n || s[at++] != ' '))
			return false;
		if (!number_at(s, n, &at))
			return false;
	}
	return at == n;
}

/* The code of "err <code> <message>[: <reason>]" with a row of the table, or 0 if the line is not one. */
static int err_code(const char *s, size_t n)
{
	size_t at = 4;
	if (!starts(s, n, "err ") || !number_at(s, n, &at) || at >= n || s[at] != ' ')
		return 0;
	int code = 0;
	for (size_t i = 4; i < at && code < 1000; i++)
		code = code * 10 + (s[i] - '0');
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
		if (errors[i].code != code)
			continue;
		size_t m = strlen(errors[i].msg);
		at++;
		if (n - at < m || memcmp(s + at, errors[i].msg, m) != 0)
			return 0;
		at += m;
		if (at == n)
			return code;
		return n - at > 2 && s[at] == ':' && s[at + 1] == ' ' ? code : 0;
	}
	return 0;
}

/* Check the output one complete input line caused; rc is what console_feed() returned at its line feed. */
static void check_reply(struct verdict v, const struct words *w, int rc)
{
	size_t n;
	const char *out = port_fuzz_output(&n);
	if (v.kind == EXPECT_NOTHING) {
		if (n != 0)
			fail("a blank line got a reply");
		if (rc >= 0)
			fail("a blank line ended the input");
		return;
	}
	if (n == 0 || out[n - 1] != '\n')
		fail("no reply, or one that does not end in a whole line");
	const char *last = NULL;
	size_t last_n = 0;
	for (size_t at = 0; at < n;) {
		const char *s = out + at;
		size_t len = (size_t)((const char *)memchr(s, '\n', n - at) - s);
		at += len + 1;
		for (size_t i = 0; i < len; i++)
			if (s[i] < 0x20 || s[i] > 0x7e)
				fail("a byte that is not printable ASCII in the output");
		if (len >= 3 && memcmp(s + len - 3, "...", 3) == 0)
			fail("a line cut short");
		if (starts(s, len, "err 11 "))
			fail("err 11: the core's invariant check failed");
		if (last != NULL && !is_evt(last, last_n) && !starts(last, last_n, "bench "))
			fail("a line other than evt or bench before the reply");
		last = s;
		last_n = len;
	}
	bool ok = (last_n == 2 && memcmp(last, "ok", 2) == 0) || starts(last, last_n, "ok ");
	int code = ok ? 0 : err_code(last, last_n);
	if (!ok && code == 0)
		fail("the last line is neither ok nor err <code> <message> from the table");
	if (v.kind == EXPECT_ERR) {
		if (code != v.code || last != out)
			fail("a refused line did not get exactly its one err line");
		if (rc >= 0)
			fail("a refused line ended the input");
		return;
	}
	bool bye = last_n == 6 && memcmp(last, "ok bye", 6) == 0;
	int want = quit_status(w);
	if (bye != (rc >= 0))
		fail("ok bye without the end of the input, or the end without ok bye");
	if (rc >= 0 && rc != want)
		fail("the input ended other than by quit [CODE], or with another status");
	if (want >= 0 && rc < 0)
		fail("quit [CODE] did not end the input");
}

/* Send one line (without its line feed, then the line feed) and check the reply. */
static int send(const uint8_t *p, size_t n, struct verdict v, const struct words *w)
{
	size_t out_n;
	port_fuzz_clear();
	cur_line = p;
	cur_len = n;
	for (size_t i = 0; i < n; i++)
		if (console_feed((char)p[i]) != -1)
			fail("console_feed ended the input before the line feed");
	(void)port_fuzz_output(&out_n);
	if (out_n != 0)
		fail("output before the line ended");
	int rc = console_feed('\n');
	check_reply(v, w, rc);
	if (!con_selfcheck() && sched_check(con_sched()) != SCHED_OK)
		fail("the core's invariant check failed (selfcheck off)");
	return rc;
}

/* One dictionary entry per lowercase word of @p s (letters, digits, '-'), split at anything else. */
static void dict_words(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t start = i;
		while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			i++;
		if (i > start && s[start] >= 'a' && s[start] <= 'z')
			fprintf(f, "\"%.*s\"\n", (int)(i - start), s + start);
		if (i == start)
			i++;
	}
}

static FILE *create(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (f == NULL) {
		perror(path);
		exit(1);
	}
	return f;
}

static void done(FILE *f)
{
	if (fclose(f) != 0)
		exit(1);
}

/*
 * With FUZZ_CONSOLE_EXPORT=DIR, write into DIR and exit: console.dict, a
 * libFuzzer dictionary of the names the console takes (the words of help,
 * the policies, their parameters and choices, the linked fixtures), and
 * seeds that use them (seed-policies: a few jobs under every policy;
 * seed-params: every parameter and choice; seed-replay-NAME: a fixture),
 * which mutation alone rarely puts together. tests/fuzz/fuzz.sh uses them,
 * so a new policy, parameter or fixture is fuzzed without a list to keep.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *dir = getenv("FUZZ_CONSOLE_EXPORT");
	if (dir == NULL)
		return 0;
	size_t n;
	console_init(port_name());
	port_fuzz_clear();
	for (const char *c = "help\n"; *c != '\0'; c++)
		console_feed(*c);
	const char *out = port_fuzz_output(&n);
	FILE *dict = create(dir, "console.dict"), *pol = create(dir, "seed-policies");
	FILE *par = create(dir, "seed-params");
	dict_words(dict, out, n);
	for (int p = 0; p < SCHED_POLICY_COUNT; p++) {
		const char *name = sched_policy_name((enum sched_policy_id)p);
		fprintf(dict, "\"%s\"\n", name);
		/* On the 128 processors: 2 waits for 1, 3 and 4 may backfill, 1 ends early, 2 is withdrawn. */
		fprintf(pol, "reset\npolicy %s\nsubmit 1 100 100\nsubmit 2 64 50\nsubmit 3 20 10\n"
			     "submit 4 8 30 1 0 500 over\nadvance 5\nfinish 1\ncancel 2\nqueue\nprofile\nadvance 60\n",
			name);
		const struct sched_param *ps;
		unsigned k = sched_policy_params((enum sched_policy_id)p, &ps);
		for (unsigned i = 0; i < k; i++) {
			char v[24];
			sched_param_format(&ps[i], ps[i].max, v, sizeof v);
			fprintf(dict, "\"%s\"\n", ps[i].name);
			fprintf(par, "config help %s\nconfig %s %s\n", ps[i].name, ps[i].name, v);
			for (unsigned c = 0; ps[i].kind == SCHED_PARAM_CHOICE && ps[i].choices[c] != NULL; c++) {
				fprintf(dict, "\"%s\"\n", ps[i].choices[c]);
				fprintf(par, "config %s %s\n", ps[i].name, ps[i].choices[c]);
			}
		}
	}
	for (unsigned i = 0; i < console_fixture_count; i++) {
		/* One seed each: an input runs one replay (skipped()). */
		char name[64];
		snprintf(name, sizeof name, "seed-replay-%s", console_fixtures[i].name);
		FILE *rep = create(dir, name);
		fprintf(rep, "policy slack\nreplay %s\nstatus\n", console_fixtures[i].name);
		done(rep);
		fprintf(dict, "\"%s\"\n", console_fixtures[i].name);
	}
	done(dict);
	done(pol);
	done(par);
	exit(0);
}

static bool contains(const char *s, size_t n, const char *what)
{
	size_t k = strlen(what);
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, what, k) == 0)
			return true;
	return false;
}

/* The console's "digest" line (without its newline) into @p line. */
static void digest_line(char *line, size_t cap)
{
	size_t n;
	port_fuzz_clear();
	cur_line = NULL;
	for (const char *c = "digest\n"; *c; c++)
		(void)console_feed(*c);
	const char *out = port_fuzz_output(&n);
	if (n < 8 || memcmp(out, "ok seq=", 7) != 0 || memchr(out, '\n', n) != out + n - 1 || n >= cap)
		fail("digest did not answer one ok line");
	memcpy(line, out, n - 1);
	line[n - 1] = '\0';
}

/* Boot: a "restore ..." line (the store in RAM), then one banner line ending in "store=on seq=N ready". */
static void boot(bool fresh)
{
	size_t n;
	port_fuzz_clear();
	console_init(port_name());
	const char *out = port_fuzz_output(&n);
	const char *nl = memchr(out, '\n', n);
	if (nl == NULL || !starts(out, n, "restore "))
		fail("no restore line before the banner");
	if (fresh != starts(out, n, "restore formatted "))
		fail(fresh ? "a wiped store was not formatted" : "the store was formatted again");
	size_t rest = n - (size_t)(nl + 1 - out);
	const char *banner = nl + 1;
	if (rest < 7 || memchr(banner, '\n', rest) != banner + rest - 1 || memcmp(banner + rest - 7, " ready\n", 7) != 0 ||
	    !contains(banner, rest, " store=on seq="))
		fail("the banner is not one line ending in store=on seq=N ready");
}

/*
 * A reset after the input: the store must give back exactly what the input
 * left (the same digest: journal position, schedule hash, every job with its
 * guarantee, the profile), whatever the commands were.
 */
static void check_restore(void)
{
	char before[512], after[512];
	digest_line(before, sizeof before);
	boot(false);
	digest_line(after, sizeof after);
	if (strcmp(before, after) != 0) {
		fprintf(stderr, "before the reset: %s\nafter it:         %s\n", before, after);
		fail("the restored state differs from the one before the reset");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n;
	cur_line = NULL;
	port_fuzz_store_wipe();
	boot(true);
	const char *out;

	static const uint8_t selfcheck[] = "selfcheck on";
	struct words w;
	struct verdict v = classify(selfcheck, sizeof selfcheck - 1, &w);
	send(selfcheck, sizeof selfcheck - 1, v, &w);
	out = port_fuzz_output(&n);
	if (!starts(out, n, "ok"))
		fail("selfcheck on was refused");

	bool replayed = false;
	for (size_t at = 0; at < size;) {
		const uint8_t *p = data + at;
		const uint8_t *nl = memchr(p, '\n', size - at);
		if (nl == NULL) {
			/* An unfinished line: it is only collected, nothing runs and nothing is written. */
			port_fuzz_clear();
			for (size_t i = 0; i < size - at; i++)
				if (console_feed((char)p[i]) != -1)
					fail("console_feed ended the input inside an unfinished line");
			(void)port_fuzz_output(&n);
			if (n != 0)
				fail("output for an unfinished line");
			/* End it refused (a control character: err 35), so it never runs and the digest below is a line of its own. */
			(void)console_feed('\x01');
			(void)console_feed('\n');
			break;
		}
		size_t len = (size_t)(nl - p);
		at += len + 1;
		v = classify(p, len, &w);
		if (v.kind == EXPECT_REPLY && skipped(&w, &replayed))
			continue;
		if (send(p, len, v, &w) >= 0)
			break; /* quit: the rest of the input is never read */
	}
	check_restore();
	return 0;
}
