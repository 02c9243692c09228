/* SPDX-License-Identifier: MIT */
/* Output lines for the console: decimal and hex without printf, written through the port. */
#include "fmt.h"

#include "port.h"

static bool muted;

void fmt_mute(bool on)
{
	muted = on;
}

void fmt_init(struct fmt *f)
{
	f->len = 0;
	f->truncated = 0;
}

void fmt_ch(struct fmt *f, char c)
{
	if (f->len < FMT_LINE_MAX - 4)
		f->buf[f->len++] = c;
	else
		f->truncated = 1;
}

void fmt_str(struct fmt *f, const char *s)
{
	while (*s)
		fmt_ch(f, *s++);
}

void fmt_u64(struct fmt *f, uint64_t v)
{
	char d[20];
	unsigned n = 0;
	do {
		d[n++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v != 0);
	while (n > 0)
		fmt_ch(f, d[--n]);
}

void fmt_u32(struct fmt *f, uint32_t v)
{
	fmt_u64(f, v);
}

void fmt_kv(struct fmt *f, const char *key, uint64_t v)
{
	fmt_str(f, key);
	fmt_u64(f, v);
}

void fmt_u32_pad(struct fmt *f, uint32_t v, unsigned width)
{
	uint32_t p = 1;
	unsigned digits = 1;
	while (digits < width) {
		p *= 10u;
		digits++;
	}
	while (p > 1 && v < p) {
		fmt_ch(f, '0');
		p /= 10u;
	}
	if (v > 0)
		fmt_u32(f, v);
	else if (width == 0 || p == 1)
		fmt_ch(f, '0');
}

void fmt_hex64(struct fmt *f, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	for (int i = 15; i >= 0; i--)
		fmt_ch(f, hex[(v >> (4 * i)) & 15u]);
}

void fmt_line(struct fmt *f)
{
	if (f->truncated) {
		f->buf[f->len++] = '.';
		f->buf[f->len++] = '.';
		f->buf[f->len++] = '.';
	}
	f->buf[f->len++] = '\n';
	if (!muted)
		port_write(f->buf, f->len);
	f->len = 0;
	f->truncated = 0;
}
