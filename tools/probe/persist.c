/* SPDX-License-Identifier: MIT */
/*
 * A probe firmware for tools/probe/persist.sh: it runs the words of its own
 * semihosting command line as steps, printing each result through semihosting
 * (SYS_WRITE0), so one image tests what a board's memory and QEMU's
 * semihosting keep. Steps (numbers decimal or 0x hex):
 *   r ADDR | w ADDR VALUE        read or write a 32-bit word (a fault is reported)
 *   open NAME MODE | close | seek POS | flen | write TEXT | read N | errno
 *                                semihosting file calls on one handle
 *   spin                         print "spinning" and loop, to be killed
 * Built by the script for each board with -nostdlib; not part of the firmware.
 */
#include <stdint.h>

static uint32_t semihost(uint32_t op, volatile uint32_t *block)
{
	register uint32_t r0 __asm("r0") = op;
	register volatile uint32_t *r1 __asm("r1") = block;
	__asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

static void out(const char *s)
{
	register uint32_t r0 __asm("r0") = 0x04; /* SYS_WRITE0: r1 is the string itself */
	register const char *r1 __asm("r1") = s;
	__asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
}

static void out_hex(uint32_t v)
{
	char b[12] = "0x";
	for (int i = 0; i < 8; i++)
		b[2 + i] = "0123456789abcdef"[(v >> (28 - 4 * i)) & 15u];
	b[10] = ' ';
	b[11] = '\0';
	out(b);
}

static void out_int(int32_t v)
{
	char b[13];
	int n = 12;
	uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
	b[n] = '\0';
	b[--n] = ' ';
	do {
		b[--n] = (char)('0' + u % 10u);
		u /= 10u;
	} while (u != 0);
	if (v < 0)
		b[--n] = '-';
	out(b + n);
}

__attribute__((noreturn)) static void leave(uint32_t code)
{
	volatile uint32_t block[2] = {0x20026u, code}; /* SYS_EXIT_EXTENDED, ADP_Stopped_ApplicationExit */
	semihost(0x20, block);
	for (;;) {
	}
}

static uint32_t number(const char *s)
{
	uint32_t v = 0;
	if (s[0] == '0' && s[1] == 'x')
		for (s += 2; *s; s++)
			v = v * 16u + (uint32_t)(*s <= '9' ? *s - '0' : (*s | 32) - 'a' + 10);
	else
		for (; *s; s++)
			v = v * 10u + (uint32_t)(*s - '0');
	return v;
}

static int same(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static uint32_t length(const char *s)
{
	uint32_t n = 0;
	while (s[n])
		n++;
	return n;
}

static char line[512];
static char *words[64];
static char data[256];

int main(void);
int main(void)
{
	volatile uint32_t block[3] = {(uint32_t)(uintptr_t)line, sizeof line, 0};
	int32_t r = (int32_t)semihost(0x15, block); /* SYS_GET_CMDLINE */
	out("cmdline r=");
	out_int(r);
	out("[");
	out(line);
	out("]\n");
	unsigned n = 0;
	for (char *p = line; *p && n < 64;) {
		while (*p == ' ')
			*p++ = '\0';
		if (*p)
			words[n++] = p;
		while (*p && *p != ' ')
			p++;
	}
	int32_t h = -1;
	/* words[0] is the program's name; a step short of its arguments ends the run. */
	for (unsigned i = 1; i < n; i++) {
		const char *w = words[i];
		unsigned left = n - i - 1;
		if (same(w, "r") && left >= 1) {
			uint32_t a = number(words[++i]);
			out("r ");
			out_hex(a);
			out_hex(*(volatile uint32_t *)(uintptr_t)a);
		} else if (same(w, "w") && left >= 2) {
			uint32_t a = number(words[++i]);
			*(volatile uint32_t *)(uintptr_t)a = number(words[++i]);
			out("w ");
			out_hex(a);
		} else if (same(w, "spin")) {
			out("spinning\n");
			for (;;) {
			}
		} else if (same(w, "open") && left >= 2) {
			const char *name = words[++i];
			block[0] = (uint32_t)(uintptr_t)name;
			block[1] = number(words[++i]);
			block[2] = length(name);
			h = (int32_t)semihost(0x01, block);
			out("open=");
			out_int(h);
		} else if (same(w, "close")) {
			block[0] = (uint32_t)h;
			out("close=");
			out_int((int32_t)semihost(0x02, block));
		} else if (same(w, "seek") && left >= 1) {
			block[0] = (uint32_t)h;
			block[1] = number(words[++i]);
			out("seek=");
			out_int((int32_t)semihost(0x0A, block));
		} else if (same(w, "flen")) {
			block[0] = (uint32_t)h;
			out("flen=");
			out_int((int32_t)semihost(0x0C, block));
		} else if (same(w, "write") && left >= 1) {
			const char *s = words[++i];
			block[0] = (uint32_t)h;
			block[1] = (uint32_t)(uintptr_t)s;
			block[2] = length(s);
			out("write_left=");
			out_int((int32_t)semihost(0x05, block));
		} else if (same(w, "read") && left >= 1) {
			uint32_t k = number(words[++i]);
			if (k >= sizeof data)
				k = sizeof data - 1;
			for (uint32_t j = 0; j < sizeof data; j++)
				data[j] = '\0';
			block[0] = (uint32_t)h;
			block[1] = (uint32_t)(uintptr_t)data;
			block[2] = k;
			out("read_left=");
			out_int((int32_t)semihost(0x06, block));
			out("[");
			out(data);
			out("] ");
		} else if (same(w, "errno")) {
			out("errno=");
			out_int((int32_t)semihost(0x13, block));
		} else {
			out("bad step ");
			out(w);
			out("\n");
			leave(2);
		}
		out("\n");
	}
	leave(0);
}

extern uint32_t _estack;
__attribute__((noreturn)) void Reset_Handler(void);
__attribute__((noreturn)) void Reset_Handler(void)
{
	/* No .data, and QEMU starts RAM at zero: nothing to copy or clear. */
	main();
	leave(0);
}

__attribute__((noreturn)) void Fault_Handler(void);
__attribute__((noreturn)) void Fault_Handler(void)
{
	out("fault cfsr=");
	out_hex(*(volatile uint32_t *)0xE000ED28u);
	out("bfar=");
	out_hex(*(volatile uint32_t *)0xE000ED38u);
	out("\n");
	leave(1);
}

typedef void (*vector)(void);
__attribute__((section(".isr_vector"), used)) const vector probe_vectors[16] = {
	(vector)(uintptr_t)&_estack, Reset_Handler, Fault_Handler, Fault_Handler, Fault_Handler,
	Fault_Handler, Fault_Handler, 0, 0, 0, 0, Fault_Handler, Fault_Handler, 0, Fault_Handler,
	Fault_Handler,
};
