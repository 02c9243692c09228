/* SPDX-License-Identifier: MIT */
/* Line input: a fixed buffer, whole-line refusal of over-long or control-laden lines, tokenising. */
#include "line.h"

#include "console_err.h"

/* Keep reading to the end of a bad line, so its tail is not taken for a command. */
static void take(struct line *l, char c)
{
	if ((unsigned char)c < 0x20 && c != '\t')
		l->control = true;
	if (l->len < LINE_MAX_BYTES)
		l->buf[l->len++] = c;
	else
		l->dropped++;
}

int line_feed(struct line *l, char c)
{
	/*
	 * Only the CR of a CR LF ending is dropped. One inside a line sends a
	 * terminal back to column 0: dropped too, the console would run other
	 * text than a screen or a log shows, so it makes the line bad.
	 */
	if (l->cr) {
		l->cr = false;
		if (c != '\n')
			take(l, '\r');
	}
	if (c == '\r') {
		l->cr = true;
		return 0;
	}
	if (c != '\n') {
		take(l, c);
		return 0;
	}
	l->buf[l->len] = '\0';
	int rc = l->dropped > 0 ? CON_E_LINE : l->control ? CON_E_CONTROL : 1;
	l->len = 0;
	l->dropped = 0;
	l->control = false;
	return rc;
}

int line_split(char *s, struct args *a)
{
	a->n = 0;
	while (*s) {
		while (*s == ' ' || *s == '\t')
			*s++ = '\0';
		if (*s == '\0')
			break;
		if (a->n == LINE_MAX_WORDS)
			return CON_E_EXTRA;
		a->v[a->n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
	return SCHED_OK;
}
