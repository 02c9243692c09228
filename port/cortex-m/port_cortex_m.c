/* SPDX-License-Identifier: MIT */
/* The port interface for Cortex-M boards over the board's UART and counter, and semihosting exit. */
#include <stddef.h>
#include <stdint.h>

#include "cortex_m.h"
#include "port.h"

static uint32_t last_count;
static uint64_t high_count;

void port_init(void)
{
	board_init();
	last_count = board_counter();
	high_count = 0;
}

const char *port_name(void)
{
	return board_name;
}

const char *port_cycle_unit(void)
{
	return board_counter_unit;
}

/* The 32-bit counter extended to 64 bits: valid while it is read at least once per wrap. */
uint64_t port_cycles(void)
{
	uint32_t now = board_counter();
	if (now < last_count)
		high_count += (uint64_t)1 << 32;
	last_count = now;
	return high_count | now;
}

uint32_t port_uptime_s(void)
{
	/* No RTC under QEMU: the console's clock is the one its commands set. */
	return (uint32_t)(port_cycles() / 100000000u);
}

void port_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		board_putc(s[i]);
}

int port_getc(void)
{
	return board_getc();
}

static void put_str(const char *s)
{
	while (*s)
		board_putc(*s++);
}

static void put_dec(uint32_t v)
{
	char d[10];
	int n = 0;
	do {
		d[n++] = (char)('0' + v % 10u);
		v /= 10u;
	} while (v);
	while (n)
		board_putc(d[--n]);
}

void port_panic(const char *file, int line)
{
	put_str("\npanic: ");
	put_str(file);
	board_putc(':');
	put_dec((uint32_t)line);
	board_putc('\n');
	semihost_exit(2);
}

void sched_assert_failed(const char *file, int line)
{
	put_str("\nassertion failed: ");
	put_str(file);
	board_putc(':');
	put_dec((uint32_t)line);
	board_putc('\n');
	semihost_exit(2);
}

void port_exit(int status)
{
	semihost_exit(status);
}

void port_selftest_fault(void)
{
	__asm volatile("udf #0"); /* an undefined instruction: UsageFault, escalated to HardFault */
	for (;;) {
	}
}

/*
 * Semihosting SYS_EXIT_EXTENDED (0x20) with ADP_Stopped_ApplicationExit:
 * QEMU (-semihosting-config enable=on,target=native) exits with `code`.
 */
void semihost_exit(int code)
{
	volatile uint32_t block[2] = {0x20026u, (uint32_t)code};
	register uint32_t r0 __asm("r0") = 0x20u;
	register volatile uint32_t *r1 __asm("r1") = block;
	__asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	for (;;) {
	}
}

/* GCC may call these for struct copies even in freestanding code; there is no libc to supply them. */
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}
