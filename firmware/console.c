/* SPDX-License-Identifier: MIT */
/* The console: line input to the command table, one reply line out, over the core and the port. No malloc, no stdio. */
#include "console.h"

#include <stddef.h>

#include "commands.h"
#include "con_config.h"
#include "con_reply.h"
#include "con_session.h"
#include "con_view.h"
#include "persist.h"
#include "console_err.h"
#include "port.h"
#include "sched/hash.h"

/* The console's state: one session per image, owned here and read by the command files through con_session.h. */
static _Alignas(8) unsigned char con_arena[CON_ARENA_BYTES]; /* tools/size.sh reads its size by this name */
static struct {
	const char *port;
	struct sched *s;          /* at the start of con_arena */
	struct sched_config cfg; /* what the next live_init uses; policy parameters mirror s's */
	sched_time_t now;
	bool selfcheck;
	bool restoring;     /* replaying the journal: commands run muted and are not journaled again */
	int exit_status;    /* -1 until quit */
	uint64_t hash;      /* FNV-1a over every decision since the last reset: the schedule hash */
	uint32_t decisions; /* how many */
	uint32_t node_size; /* config node_size: processors of a node, allocated whole (1: one by one) */
} con;
static struct line input;

struct command {
	const char *name;
	unsigned min, max; /* arguments after the command word */
	enum con_journal journal;
	const char *arguments, *help;
	void (*handler)(struct args *a);
};

static const struct command commands[] = {
#define CONSOLE_ENTRY_(name, min, max, journal, arguments, help, handler) {name, min, max, journal, arguments, help, handler},
	CONSOLE_COMMANDS(CONSOLE_ENTRY_)
#undef CONSOLE_ENTRY_
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

/* --- replies and arguments shared by the command files ---------------------------------- */

/* "err N MESSAGE": the code as a positive number, the message from the console's table (the core's extended). */
static void fmt_err(struct fmt *f, int code)
{
	fmt_kv(f, "err ", (uint32_t)-code);
	fmt_ch(f, ' ');
	fmt_str(f, con_strerror(code));
}

void con_err(int code, const char *why)
{
	struct fmt f;
	fmt_init(&f);
	fmt_err(&f, code);
	if (why != NULL) {
		fmt_str(&f, ": ");
		fmt_str(&f, why);
	}
	fmt_line(&f);
}

void con_ok(const char *text)
{
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "ok");
	fmt_str(&f, text);
	fmt_line(&f);
}

bool con_str_eq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

bool con_number(const char *s, uint32_t *out)
{
	if (*s == '-') {
		con_err(CON_E_NUMBER, "negative value");
		return false;
	}
	uint64_t v = 0;
	for (const char *p = s; *p; p++) {
		if (*p < '0' || *p > '9') {
			con_err(CON_E_NUMBER, "decimal digits only");
			return false;
		}
		v = v * 10u + (uint64_t)(*p - '0');
		if (v > UINT32_MAX) {
			con_err(SCHED_E_RANGE, "number too large (at most 4294967295)");
			return false;
		}
	}
	*out = (uint32_t)v;
	return true;
}

void con_fmt_next(struct fmt *f)
{
	sched_time_t next = sched_next_event(con.s);
	fmt_str(f, " next=");
	if (next == SCHED_TIME_MAX)
		fmt_ch(f, '-');
	else
		fmt_u32(f, next);
}

/* The core's FNV-1a 64 over one value's four bytes, little-endian: the schedule hash and the state digest. */
uint64_t con_hash_u32(uint64_t h, uint32_t v)
{
	const uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
	return sched_fnv1a(h, b, sizeof b);
}

/* --- the live session --------------------------------------------------------------------- */

struct sched *con_sched(void)
{
	return con.s;
}

sched_time_t con_now(void)
{
	return con.now;
}

void con_set_now(sched_time_t t)
{
	con.now = t;
}

const struct sched_config *con_config(void)
{
	return &con.cfg;
}

void con_set_config(const struct sched_config *c)
{
	con.cfg = *c;
}

uint32_t con_node_size(void)
{
	return con.node_size;
}

void con_set_node_size(uint32_t k)
{
	con.node_size = k;
}

const char *con_port(void)
{
	return con.port;
}

bool con_selfcheck(void)
{
	return con.selfcheck;
}

void con_set_selfcheck(bool on)
{
	con.selfcheck = on;
}

void con_quit(int status)
{
	con.exit_status = status;
}

uint64_t con_hash(void)
{
	return con.hash;
}

uint32_t con_decisions(void)
{
	return con.decisions;
}

static void on_decision(void *ctx, const struct sched_decision *d)
{
	(void)ctx;
	/* Every decision since the last reset, restored ones included: equal hashes, equal schedules. */
	con.hash = con_hash_u32(con_hash_u32(con_hash_u32(con_hash_u32(con.hash, (uint32_t)d->kind), d->job), d->time),
				d->kind == SCHED_DEC_START ? d->procs : 0);
	con.decisions++;
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, d->kind == SCHED_DEC_START ? "evt start " : "evt kill ");
	fmt_u32(&f, d->job);
	fmt_kv(&f, " ", d->time);
	if (d->kind == SCHED_DEC_START)
		fmt_kv(&f, " ", d->procs);
	fmt_line(&f);
}

void con_live_init(void)
{
	int err = sched_init(&con.s, &con.cfg, con_arena, CON_LIVE_BYTES, on_decision, NULL, 0);
	SCHED_ASSERT(err == SCHED_OK);
	(void)err;
	con.now = 0;
	con.hash = CON_HASH_BASIS;
	con.decisions = 0;
}

void con_settle(void)
{
	int err = sched_advance(con.s, con.now);
	SCHED_ASSERT(err == SCHED_OK); /* con.now never goes back */
	(void)err;
}

/* --- the table ----------------------------------------------------------------------- */

static const struct command *find(const char *name)
{
	for (unsigned i = 0; i < N_COMMANDS; i++)
		if (con_str_eq(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* "name arguments": what a command takes, for help and for arity errors. */
static void fmt_usage(struct fmt *f, const struct command *c)
{
	fmt_str(f, c->name);
	if (c->arguments[0] != '\0') {
		fmt_ch(f, ' ');
		fmt_str(f, c->arguments);
	}
}

/* help: every command with its arguments; help COMMAND: its arguments and what it does. */
void cmd_help(struct args *a)
{
	struct fmt f;
	fmt_init(&f);
	if (a->n == 2) {
		const struct command *c = find(a->v[1]);
		if (c == NULL) {
			con_err(CON_E_COMMAND, "try help");
			return;
		}
		fmt_str(&f, "ok ");
		fmt_usage(&f, c);
		fmt_str(&f, ": ");
		fmt_str(&f, c->help);
		fmt_line(&f);
		return;
	}
	fmt_str(&f, "ok commands: ");
	for (unsigned i = 0; i < N_COMMANDS; i++) {
		if (i > 0)
			fmt_str(&f, "; ");
		fmt_usage(&f, &commands[i]);
	}
	fmt_line(&f);
}

/* Whether this line changes the schedule, so that it goes to the journal before it runs. */
static bool journaled(const struct command *c, const struct args *a)
{
	if (c->journal == CON_J_NO || (c->journal == CON_J_ARGS && a->n < 2))
		return false;
	return a->n < 2 || !con_str_eq(a->v[1], "help"); /* config help NAME describes, changes nothing */
}

/*
 * The line of the journaled command that is running, until its handler commits it
 * (con_commit): a handler that refuses returns first, and the line is never written.
 */
static struct {
	bool pending;   /* to be written when the handler commits */
	bool committed; /* the handler went past its checks: the line took effect */
	char text[LINE_MAX_BYTES + 1];
	unsigned n;
} journal;

/* The words of a line joined by single spaces: what the journal keeps, and replays through here. */
static unsigned join(const struct args *a, char *out)
{
	unsigned n = 0;
	for (unsigned i = 0; i < a->n; i++) {
		if (i > 0)
			out[n++] = ' ';
		for (const char *w = a->v[i]; *w != '\0'; w++)
			out[n++] = *w;
	}
	out[n] = '\0';
	return n;
}

static void run_line(char *text)
{
	struct args a;
	if (line_split(text, &a) != SCHED_OK) {
		con_err(CON_E_EXTRA, "at most 8 words");
		return;
	}
	if (a.n == 0)
		return; /* an empty line gets no reply */
	const struct command *c = find(a.v[0]);
	if (c == NULL) {
		con_err(CON_E_COMMAND, "try help");
		return;
	}
	if (a.n - 1 < c->min || a.n - 1 > c->max) {
		/* The same words as con_err(), with the command's usage as the reason. */
		int code = a.n - 1 < c->min ? CON_E_MISSING : CON_E_EXTRA;
		struct fmt f;
		fmt_init(&f);
		fmt_err(&f, code);
		fmt_str(&f, ": ");
		fmt_usage(&f, c);
		fmt_line(&f);
		return;
	}
	if (!journaled(c, &a)) {
		c->handler(&a);
		return;
	}
	journal.pending = !con.restoring; /* a restore's replay is in the journal already */
	journal.committed = false;
	journal.n = join(&a, journal.text);
	uint64_t c0 = port_cycles();
	c->handler(&a);
	uint64_t cycles = port_cycles() - c0;
	journal.pending = false;
	if (journal.committed)
		persist_ran(cycles); /* what a restore replays: the lines that took effect */
}

bool con_commit(void)
{
	if (journal.pending) {
		journal.pending = false;
		if (!persist_log(journal.text, journal.n))
			return false; /* not durable, so not done: persist_log() said why */
	}
	journal.committed = true;
	return true;
}

/* Run one journaled line again, muted and not journaled: a restore's replay. O(the command). */
static void replay_line(char *text)
{
	con.restoring = true;
	fmt_mute(true);
	run_line(text);
	fmt_mute(false);
	con.restoring = false;
}

unsigned char *con_arena_take(void)
{
	char line[] = "reset";
	if (!con.restoring && !persist_log(line, sizeof line - 1))
		return NULL;
	return con_arena;
}

/* --- the session's side of the store (persist.c calls the console only through this sink) ---- */

#define SAVED_MAGIC 0x314E4F43u /* "CON1" */

/* The console's state beside the arena in a snapshot: what con_live_init() would otherwise set. */
struct con_saved {
	uint32_t magic, bytes;
	uint32_t config_layout; /* config_layout(): another build's struct sched_config is not read as ours */
	uint32_t now, decisions;
	uint64_t hash;
	struct sched_config cfg;
	uint32_t node_size; /* con.node_size: beside cfg, as the core has no nodes */
};
#define SNAPSHOT_MAX (CON_LIVE_BYTES + sizeof(struct con_saved))
_Static_assert(SNAPSHOT_MAX <= CON_ARENA_BYTES, "a snapshot is read back into the console's arena");

/*
 * A digest of how this build lays out struct sched_config: its size, the
 * offsets of its fixed fields, and every registry parameter's name, offset
 * and size. A build that moves a field gets another value, and its
 * snapshots are refused rather than misread. O(parameters).
 */
static uint32_t config_layout(void)
{
	uint64_t h = con_hash_u32(CON_HASH_BASIS, (uint32_t)sizeof(struct sched_config));
	h = con_hash_u32(h, (uint32_t)offsetof(struct sched_config, max_jobs));
	h = con_hash_u32(h, (uint32_t)offsetof(struct sched_config, policy));
	h = con_hash_u32(h, (uint32_t)offsetof(struct sched_config, scratch_jobs));
	for (int pol = 0; pol < SCHED_POLICY_COUNT; pol++) {
		const struct sched_param *ps;
		unsigned n = sched_policy_params((enum sched_policy_id)pol, &ps);
		for (unsigned k = 0; k < n; k++) {
			for (const char *c = ps[k].name; *c != '\0'; c++)
				h = con_hash_u32(h, (uint32_t)(unsigned char)*c);
			h = con_hash_u32(con_hash_u32(h, ps[k].offset), ps[k].size);
		}
	}
	return (uint32_t)(h ^ (h >> 32));
}

/* A snapshot: the arena as far as it is used, then the console's state. */
static int store_save(void *ctx, int (*write)(const struct durable_piece *pieces, unsigned count))
{
	(void)ctx;
	struct con_saved saved;
	unsigned char *bytes = (unsigned char *)&saved;
	for (size_t i = 0; i < sizeof saved; i++)
		bytes[i] = 0; /* padding too: equal states write equal snapshots */
	saved.magic = SAVED_MAGIC;
	saved.bytes = sizeof saved;
	saved.config_layout = config_layout();
	saved.now = con.now;
	saved.decisions = con.decisions;
	saved.hash = con.hash;
	saved.cfg = con.cfg;
	saved.node_size = con.node_size;
	const struct durable_piece pieces[2] = {{con_arena, (uint32_t)sched_arena_used(con.s)}, {&saved, sizeof saved}};
	return write(pieces, 2);
}

/* Take up a snapshot read into the arena: the arena, then the console's state after it. */
static int store_load(void *ctx, uint32_t len)
{
	(void)ctx;
	if (len == 0) {
		con_live_init(); /* nothing usable: the empty schedule at boot's configuration */
		return SCHED_OK;
	}
	struct con_saved saved;
	if (len < sizeof saved)
		return SCHED_E_FORMAT;
	const unsigned char *tail = con_arena + (len - sizeof saved);
	unsigned char *to = (unsigned char *)&saved;
	for (size_t i = 0; i < sizeof saved; i++)
		to[i] = tail[i];
	if (saved.magic != SAVED_MAGIC || saved.bytes != sizeof saved || saved.config_layout != config_layout())
		return SCHED_E_FORMAT;
	int err = sched_attach(&con.s, con_arena, CON_LIVE_BYTES, on_decision, NULL);
	if (err != SCHED_OK || sched_arena_used(con.s) != len - sizeof saved || sched_check(con.s) != SCHED_OK) {
		con_live_init();
		return err != SCHED_OK ? err : SCHED_E_FORMAT;
	}
	con.now = saved.now;
	con.decisions = saved.decisions;
	con.hash = saved.hash;
	con.cfg = saved.cfg;
	con.node_size = saved.node_size ? saved.node_size : 1u;
	return SCHED_OK;
}

static void store_reset(void *ctx)
{
	(void)ctx;
	con_live_init();
}

static void store_replay(void *ctx, char *line)
{
	(void)ctx;
	replay_line(line);
}

static void store_refuse(void *ctx, int code, const char *why)
{
	(void)ctx;
	con_err(code, why);
}

static void store_live(void *ctx, struct persist_live *out)
{
	(void)ctx;
	struct con_load l = con_view_load(con.s);
	*out = (struct persist_live){.now = con.now, .waiting = l.waiting, .running = l.running};
}

static const struct persist_sink store_sink = {
	.ctx = NULL, .buffer = con_arena, .capacity = CON_ARENA_BYTES, .snapshot_max = SNAPSHOT_MAX,
	.reset = store_reset, .load = store_load, .save = store_save, .replay = store_replay,
	.refuse = store_refuse, .live = store_live,
};

/* --- the session ------------------------------------------------------------------------ */

void console_init(const char *port_name)
{
	con.port = port_name;
	con.cfg = (struct sched_config){.procs = CONSOLE_DEFAULT_PROCS, .max_jobs = CONSOLE_MAX_JOBS,
					.policy = SCHED_POLICY_CONS, .scratch_jobs = CONSOLE_SCRATCH_JOBS};
	con.node_size = 1;
	input = (struct line){.len = 0};
	con.selfcheck = false;
	con.exit_status = -1;
	con_live_init();
	persist_boot(&store_sink); /* with a store: what it holds replaces the empty schedule, and is reported */
	struct fmt f;
	fmt_init(&f);
	fmt_str(&f, "sched-core " CONSOLE_VERSION " port=");
	fmt_str(&f, port_name);
	con_fmt_config(&f);
	fmt_kv(&f, " fixtures=", console_fixture_count);
	persist_fmt_banner(&f);
	fmt_str(&f, " ready");
	fmt_line(&f);
}

int console_feed(char c)
{
	int rc = line_feed(&input, c);
	if (rc == 0)
		return -1;
	if (rc < 0) {
		con_err(rc, rc == CON_E_LINE ? "the excess was discarded (at most 127 bytes)" : NULL);
		return con.exit_status;
	}
	run_line(input.buf);
	if (con.selfcheck && sched_check(con.s) != SCHED_OK) {
		con_err(SCHED_E_CHECK, NULL);
		con.exit_status = 3;
	}
	return con.exit_status;
}

int console_run(const char *port_name)
{
	console_init(port_name);
	for (;;) {
		int c = port_getc();
		if (c < 0)
			return 0;
		int status = console_feed((char)c);
		if (status >= 0)
			return status;
	}
}
