/* SPDX-License-Identifier: MIT */
/* Building output lines without printf: a fixed buffer, integers in decimal and hex. */
#ifndef FW_FMT_H
#define FW_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FMT_LINE_MAX 1024u

struct fmt {
	char buf[FMT_LINE_MAX];
	size_t len;
	int truncated;
};

void fmt_init(struct fmt *f);
void fmt_ch(struct fmt *f, char c);
void fmt_str(struct fmt *f, const char *s);
void fmt_u32(struct fmt *f, uint32_t v);
void fmt_u64(struct fmt *f, uint64_t v);
/** @p key as it is (e.g. " jobs="), then @p v in decimal. */
void fmt_kv(struct fmt *f, const char *key, uint64_t v);
/** v in decimal, zero-padded to at least @p width digits. */
void fmt_u32_pad(struct fmt *f, uint32_t v, unsigned width);
/** v as 16 lowercase hex digits. */
void fmt_hex64(struct fmt *f, uint64_t v);
/** End the line with '\n' and write it through port_write (a truncated line ends in "..."), unless muted. */
void fmt_line(struct fmt *f);
/** Mute (true) or unmute every fmt_line(): a restore replays commands without answering them again. O(1). */
void fmt_mute(bool on);

#endif /* FW_FMT_H */
