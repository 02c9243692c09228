/* SPDX-License-Identifier: MIT */
/*
 * pngstat FILE.png: what a rendered picture holds, to tell a drawing from a blank page without
 * looking at it. Prints one line, `WIDTH HEIGHT INKED DISTINCT`: the pixels whose colour differs
 * from the top-left pixel's (the page's background) and the number of distinct colours (counted up
 * to 65536). Reads the 8-bit, non-interlaced greyscale, RGB and RGBA PNGs a browser's screenshot
 * writes; anything else is refused (exit 1) rather than misread. zlib inflates the image data.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int fail(const char *path, const char *why)
{
	fprintf(stderr, "pngstat: %s: %s\n", path, why);
	return 1;
}

/* The Paeth predictor of PNG filter type 4. */
static unsigned char paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
	return (unsigned char)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

/* Distinct colours in an open-addressing set of 2^17 slots, at most 2^16 kept (half full at worst). */
enum { SET_BITS = 17, SET_MAX = 1 << 16 };
static uint32_t set_slot[1u << SET_BITS];
static uint8_t set_used[1u << SET_BITS];
static unsigned set_n;

static void set_add(uint32_t rgba)
{
	if (set_n == SET_MAX)
		return;
	uint32_t h = (rgba * 2654435761u) >> (32 - SET_BITS);
	while (set_used[h] && set_slot[h] != rgba)
		h = (h + 1) & ((1u << SET_BITS) - 1);
	if (!set_used[h]) {
		set_used[h] = 1, set_slot[h] = rgba;
		set_n++;
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: pngstat FILE.png\n");
		return 2;
	}
	const char *path = argv[1];
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return fail(path, "cannot open");
	/* The whole file: screenshots are a few hundred KB. */
	size_t cap = 1 << 16, len = 0, got;
	unsigned char *buf = malloc(cap);
	while (buf != NULL && (got = fread(buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap) {
			unsigned char *b = realloc(buf, cap *= 2);
			if (b == NULL)
				free(buf);
			buf = b;
		}
	}
	fclose(f);
	if (buf == NULL)
		return fail(path, "out of memory");
	static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
	if (len < 8 + 25 || memcmp(buf, sig, 8) != 0 || memcmp(buf + 12, "IHDR", 4) != 0) {
		free(buf);
		return fail(path, "not a PNG");
	}
	uint32_t w = be32(buf + 16), h = be32(buf + 20);
	unsigned depth = buf[24], type = buf[25], interlace = buf[28];
	unsigned chans = type == 0 ? 1 : type == 2 ? 3 : type == 6 ? 4 : 0;
	if (depth != 8 || chans == 0 || interlace != 0 || w == 0 || h == 0 || w > 20000 || h > 20000) {
		free(buf);
		return fail(path, "only 8-bit, non-interlaced greyscale, RGB or RGBA");
	}
	/* The IDAT chunks, concatenated, are one zlib stream. */
	size_t stride = (size_t)w * chans, raw_len = (stride + 1) * h;
	unsigned char *raw = malloc(raw_len);
	z_stream z;
	memset(&z, 0, sizeof z);
	if (raw == NULL || inflateInit(&z) != Z_OK) {
		free(buf), free(raw);
		return fail(path, "out of memory");
	}
	z.next_out = raw;
	z.avail_out = (uInt)raw_len;
	int zr = Z_OK;
	for (size_t at = 8; at + 12 <= len && zr == Z_OK;) {
		uint32_t n = be32(buf + at);
		if (n > len - at - 12)
			break;
		if (memcmp(buf + at + 4, "IDAT", 4) == 0) {
			z.next_in = buf + at + 8;
			z.avail_in = n;
			zr = inflate(&z, Z_NO_FLUSH);
		}
		at += 12 + (size_t)n;
	}
	inflateEnd(&z);
	free(buf);
	if (zr != Z_STREAM_END || z.avail_out != 0) {
		free(raw);
		return fail(path, "truncated or corrupt image data");
	}
	/* Undo each row's filter in place (PNG section 9), then count. */
	uint64_t inked = 0;
	uint32_t bg = 0;
	for (uint32_t y = 0; y < h; y++) {
		unsigned char *row = raw + y * (stride + 1), ft = row[0], *px = row + 1;
		const unsigned char *up = y ? raw + (y - 1) * (stride + 1) + 1 : NULL;
		if (ft > 4) {
			free(raw);
			return fail(path, "unknown row filter");
		}
		for (size_t i = 0; i < stride; i++) {
			int a = i >= chans ? px[i - chans] : 0, b = up ? up[i] : 0, c = up && i >= chans ? up[i - chans] : 0;
			int add = ft == 1 ? a : ft == 2 ? b : ft == 3 ? (a + b) / 2 : ft == 4 ? paeth(a, b, c) : 0;
			px[i] = (unsigned char)(px[i] + add);
		}
		for (uint32_t x = 0; x < w; x++) {
			const unsigned char *p = px + (size_t)x * chans;
			uint32_t rgba = chans == 1 ? (uint32_t)p[0] * 0x010101u << 8 | 0xff
				      : (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (chans == 4 ? p[3] : 0xffu);
			if (x == 0 && y == 0)
				bg = rgba;
			inked += rgba != bg;
			set_add(rgba);
		}
	}
	free(raw);
	printf("%u %u %llu %u\n", w, h, (unsigned long long)inked, set_n);
	return 0;
}
