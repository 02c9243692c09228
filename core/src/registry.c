/* SPDX-License-Identifier: MIT */
/* The policy registry: the table made from sched/policies.h, names, help, and the parameters' parsing and checks. */
#include "sched_priv.h"
#include "util.h"

const struct sched_policy *const sched_policies[SCHED_POLICY_COUNT] = {
#define SCHED_POLICY_ENTRY(id, sym, bytes) [SCHED_POLICY_##id] = &sched_policy_##sym,
	SCHED_POLICIES(SCHED_POLICY_ENTRY)
#undef SCHED_POLICY_ENTRY
};

static bool str_eq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

const char *sched_policy_name(enum sched_policy_id policy)
{
	return (unsigned)policy < SCHED_POLICY_COUNT ? sched_policies[policy]->name : NULL;
}

const char *sched_policy_help(enum sched_policy_id policy)
{
	return (unsigned)policy < SCHED_POLICY_COUNT ? sched_policies[policy]->help : NULL;
}

int sched_policy_info(enum sched_policy_id id, struct sched_policy_info *out)
{
	if ((unsigned)id >= SCHED_POLICY_COUNT || out == NULL)
		return SCHED_E_INVAL;
	const struct sched_policy *p = sched_policies[id];
	out->name = p->name;
	out->family = p->family;
	out->timeshared = p->timeshared;
	out->plans = sched_pol_plans(p); /* a fact derived from its hooks */
	out->needs_scratch = p->needs_scratch;
	out->n_params = p->n_params;
	return SCHED_OK;
}

bool sched_policy_timeshared(enum sched_policy_id policy)
{
	return (unsigned)policy < SCHED_POLICY_COUNT && sched_policies[policy]->timeshared;
}

bool sched_policy_needs_scratch(enum sched_policy_id policy)
{
	return (unsigned)policy < SCHED_POLICY_COUNT && sched_policies[policy]->needs_scratch;
}

int sched_policy_parse(const char *name, enum sched_policy_id *policy)
{
	if (name == NULL)
		return SCHED_E_INVAL;
	for (unsigned i = 0; i < SCHED_POLICY_COUNT; i++) {
		if (str_eq(name, sched_policies[i]->name)) {
			*policy = (enum sched_policy_id)i;
			return SCHED_OK;
		}
	}
	if (str_eq(name, "conservative")) {
		*policy = SCHED_POLICY_CONS;
		return SCHED_OK;
	}
	return SCHED_E_INVAL;
}

unsigned sched_policy_params(enum sched_policy_id policy, const struct sched_param **out)
{
	if ((unsigned)policy >= SCHED_POLICY_COUNT) {
		*out = NULL;
		return 0;
	}
	*out = sched_policies[policy]->params;
	return sched_policies[policy]->n_params;
}

const struct sched_param *sched_param_find(const char *name, enum sched_policy_id *policy)
{
	for (unsigned i = 0; name != NULL && i < SCHED_POLICY_COUNT; i++) {
		const struct sched_policy *pol = sched_policies[i];
		for (unsigned k = 0; k < pol->n_params; k++) {
			if (str_eq(name, pol->params[k].name)) {
				if (policy != NULL)
					*policy = (enum sched_policy_id)i;
				return &pol->params[k];
			}
		}
	}
	return NULL;
}

/* --- values in a configuration ------------------------------------------------------------ */

/* Offsets are into the configuration's parameter area (sched_params_at), never outside it. */
static unsigned char *area(struct sched_config *c, uint16_t offset)
{
	SCHED_ASSERT(offset < SCHED_PARAM_BYTES);
	return (unsigned char *)c->params + offset;
}

static unsigned char *field(struct sched_config *c, const struct sched_param *p)
{
	return area(c, p->offset);
}

static uint32_t load(const struct sched_config *c, const struct sched_param *p)
{
	const unsigned char *f = sched_params_of(c, p->offset);
	switch (p->size) {
	case 1: return *f;
	case 2: return *(const uint16_t *)(const void *)f;
	default: return *(const uint32_t *)(const void *)f;
	}
}

static void store(struct sched_config *c, const struct sched_param *p, uint32_t v)
{
	unsigned char *f = field(c, p);
	switch (p->size) {
	case 1: *f = (uint8_t)v; break;
	case 2: *(uint16_t *)(void *)f = (uint16_t)v; break;
	default: *(uint32_t *)(void *)f = v; break;
	}
}

static bool block_given(const struct sched_config *c, const struct sched_param *p)
{
	return p->set_offset == SCHED_PARAM_NO_BLOCK || *(const bool *)sched_params_of(c, p->set_offset);
}

/* Give every parameter of block `set_offset` its default, and mark the block given. */
static void block_defaults(struct sched_config *c, uint16_t set_offset)
{
	for (unsigned i = 0; i < SCHED_POLICY_COUNT; i++) {
		const struct sched_policy *pol = sched_policies[i];
		for (unsigned k = 0; k < pol->n_params; k++)
			if (pol->params[k].set_offset == set_offset)
				store(c, &pol->params[k], pol->params[k].def);
	}
	*(bool *)(void *)area(c, set_offset) = true;
}

uint32_t sched_param_get(const struct sched_config *cfg, const struct sched_param *p)
{
	return block_given(cfg, p) ? load(cfg, p) : p->def;
}

int sched_param_set(struct sched_config *cfg, const struct sched_param *p, uint32_t value)
{
	if (value < p->min || value > p->max)
		return SCHED_E_RANGE;
	if (!block_given(cfg, p))
		block_defaults(cfg, p->set_offset);
	store(cfg, p, value);
	return SCHED_OK;
}

int sched_params_normalise(struct sched_config *c)
{
	for (unsigned i = 0; i < SCHED_POLICY_COUNT; i++) {
		const struct sched_policy *pol = sched_policies[i];
		for (unsigned k = 0; k < pol->n_params; k++) {
			const struct sched_param *p = &pol->params[k];
			if (!block_given(c, p))
				block_defaults(c, p->set_offset);
			uint32_t v = load(c, p);
			if (v < p->min || v > p->max)
				return SCHED_E_INVAL;
		}
	}
	for (unsigned i = 0; i < SCHED_POLICY_COUNT; i++) {
		int err = sched_policies[i]->check != NULL ? sched_policies[i]->check(c) : SCHED_OK;
		if (err != SCHED_OK)
			return err;
	}
	return SCHED_OK;
}

int sched_params_tune(struct sched_config *live, const struct sched_config *from)
{
	struct sched_config c;
	sched_copy(&c, live, sizeof c);
	for (unsigned i = 0; i < SCHED_POLICY_COUNT; i++) {
		const struct sched_policy *pol = sched_policies[i];
		for (unsigned k = 0; k < pol->n_params; k++) {
			const struct sched_param *p = &pol->params[k];
			store(&c, p, sched_param_get(from, p));
			if (p->set_offset != SCHED_PARAM_NO_BLOCK)
				*(bool *)(void *)area(&c, p->set_offset) = true;
		}
	}
	int err = sched_params_normalise(&c);
	if (err == SCHED_OK)
		sched_copy(live, &c, sizeof c);
	return err;
}

/* --- text ---------------------------------------------------------------------------------- */

/* Digits into *v, saturating just above 32 bits (so a range check refuses it); returns the
 * first character after them; *ok is false when there is no digit. */
static const char *digits(const char *s, uint64_t *v, bool *ok)
{
	*v = 0;
	*ok = *s >= '0' && *s <= '9';
	for (; *s >= '0' && *s <= '9'; s++) {
		*v = *v * 10u + (uint64_t)(*s - '0');
		if (*v > UINT32_MAX)
			*v = (uint64_t)UINT32_MAX + 1u;
	}
	return s;
}

/* A decimal in thousandths: "3", "0.5", "1.2345" (the fourth place rounds half up). */
static int parse_milli(const char *s, uint64_t *out)
{
	bool ok;
	uint64_t whole;
	s = digits(s, &whole, &ok);
	if (!ok)
		return SCHED_E_INVAL;
	uint64_t frac = 0;
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return SCHED_E_INVAL;
		unsigned places = 0;
		for (; *s >= '0' && *s <= '9'; s++, places++) {
			if (places < 3)
				frac = frac * 10u + (uint64_t)(*s - '0');
			else if (places == 3 && *s >= '5')
				frac++; /* half up; carries into the whole part below */
		}
		for (; places < 3; places++)
			frac *= 10u;
	}
	if (*s != '\0')
		return SCHED_E_INVAL;
	*out = whole * 1000u + frac;
	return SCHED_OK;
}

/* A duration: seconds, or a number with one unit letter s, m, h or d. */
static int parse_seconds(const char *s, uint64_t *out)
{
	bool ok;
	uint64_t v;
	s = digits(s, &v, &ok);
	if (!ok)
		return SCHED_E_INVAL;
	uint64_t unit = 1;
	if (*s != '\0') {
		unit = s[1] != '\0' ? 0 : *s == 's' ? 1 : *s == 'm' ? 60 : *s == 'h' ? 3600 : *s == 'd' ? 86400 : 0;
		if (unit == 0)
			return SCHED_E_INVAL;
	}
	*out = v * unit;
	return SCHED_OK;
}

int sched_param_parse(const struct sched_param *p, const char *text, uint32_t *value)
{
	if (p == NULL || text == NULL)
		return SCHED_E_INVAL;
	uint64_t v = 0;
	int err = SCHED_OK;
	bool ok;
	switch (p->kind) {
	case SCHED_PARAM_CHOICE:
		for (v = 0; p->choices[v] != NULL && !str_eq(text, p->choices[v]); v++)
			;
		if (p->choices[v] == NULL)
			return SCHED_E_INVAL;
		break;
	case SCHED_PARAM_MILLI: err = parse_milli(text, &v); break;
	case SCHED_PARAM_SECONDS: err = parse_seconds(text, &v); break;
	default:
		if (*digits(text, &v, &ok) != '\0' || !ok)
			err = SCHED_E_INVAL;
		break;
	}
	if (err != SCHED_OK)
		return err;
	if (v < p->min || v > p->max)
		return SCHED_E_RANGE;
	*value = (uint32_t)v;
	return SCHED_OK;
}

/* Append the decimal digits of v at buf[*at], within size - 1 characters. */
static void put_u32(char *buf, size_t size, size_t *at, uint32_t v, unsigned min_digits)
{
	char tmp[10];
	unsigned n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v != 0 || n < min_digits);
	while (n > 0 && *at + 1 < size)
		buf[(*at)++] = tmp[--n];
}

void sched_param_format(const struct sched_param *p, uint32_t value, char *buf, size_t size)
{
	if (size == 0)
		return;
	size_t at = 0;
	if (p->kind == SCHED_PARAM_CHOICE) {
		uint32_t n = 0;
		while (p->choices[n] != NULL)
			n++;
		const char *name = value < n ? p->choices[value] : "?";
		while (*name != '\0' && at + 1 < size)
			buf[at++] = *name++;
	} else if (p->kind == SCHED_PARAM_MILLI) {
		put_u32(buf, size, &at, value / 1000u, 1);
		uint32_t frac = value % 1000u;
		if (frac != 0) {
			unsigned places = 3;
			while (frac % 10u == 0) {
				frac /= 10u;
				places--;
			}
			if (at + 1 < size)
				buf[at++] = '.';
			put_u32(buf, size, &at, frac, places);
		}
	} else {
		put_u32(buf, size, &at, value, 1);
	}
	buf[at] = '\0';
}
