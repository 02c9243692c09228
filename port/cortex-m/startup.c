/* SPDX-License-Identifier: MIT */
/* Cortex-M start-up shared by the boards: vector table, reset (copy .data, clear .bss), fault reports. */
#include <stdint.h>

#include "cortex_m.h"
#include "port.h"

/* Symbols of the board's linker script. */
extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, _estack;

int main(void);

__attribute__((noreturn)) void Reset_Handler(void)
{
	/* -ffreestanding keeps these loops loops: there is no memcpy to call yet.
	 * The linker symbols bound regions, so they are compared as addresses. */
	uint32_t *src = &_sidata;
	uint32_t *dst = &_sdata;
	for (uintptr_t end = (uintptr_t)&_edata; (uintptr_t)dst < end;)
		*dst++ = *src++;
	dst = &_sbss;
	for (uintptr_t end = (uintptr_t)&_ebss; (uintptr_t)dst < end;)
		*dst++ = 0;
	port_exit(main());
}

static void put_str(const char *s)
{
	while (*s)
		board_putc(*s++);
}

static void put_hex(uint32_t v)
{
	static const char hex[] = "0123456789abcdef";
	put_str("0x");
	for (int i = 7; i >= 0; i--)
		board_putc(hex[(v >> (4 * i)) & 15u]);
}

#define SCB_CFSR (*(volatile uint32_t *)0xE000ED28u)
#define SCB_HFSR (*(volatile uint32_t *)0xE000ED2Cu)
#define SCB_MMFAR (*(volatile uint32_t *)0xE000ED34u)
#define SCB_BFAR (*(volatile uint32_t *)0xE000ED38u)
#define SCB_ICSR (*(volatile uint32_t *)0xE000ED04u)

/* Called with the stacked exception frame: r0-r3, r12, lr, pc, xpsr. */
__attribute__((noreturn, used)) void fault_report(const uint32_t *frame)
{
	static const char *const names[16] = {
		"Thread", "Reset", "NMI", "HardFault", "MemManage", "BusFault", "UsageFault", "Reserved7",
		"Reserved8", "Reserved9", "Reserved10", "SVCall", "DebugMon", "Reserved13", "PendSV", "SysTick",
	};
	uint32_t active = SCB_ICSR & 0x1ffu;
	put_str("\nfault ");
	put_str(active < 16 ? names[active] : "IRQ");
	put_str(" pc=");
	put_hex(frame[6]);
	put_str(" lr=");
	put_hex(frame[5]);
	put_str(" psr=");
	put_hex(frame[7]);
	put_str(" cfsr=");
	put_hex(SCB_CFSR);
	put_str(" hfsr=");
	put_hex(SCB_HFSR);
	put_str(" mmfar=");
	put_hex(SCB_MMFAR);
	put_str(" bfar=");
	put_hex(SCB_BFAR);
	put_str("\n");
	semihost_exit(1);
}

/* Find the frame on whichever stack the fault used (bit 2 of EXC_RETURN), then report. */
__attribute__((naked, noreturn)) void Fault_Handler(void)
{
	__asm volatile("tst lr, #4\n"
		       "ite eq\n"
		       "mrseq r0, msp\n"
		       "mrsne r0, psp\n"
		       "b fault_report\n");
}

typedef void (*vector)(void);

/* The first 16 entries: the stack top, reset, then every system exception reports and exits. */
__attribute__((section(".isr_vector"), used)) const vector vectors[16] = {
	(vector)(uintptr_t)&_estack, Reset_Handler, Fault_Handler, Fault_Handler, Fault_Handler,
	Fault_Handler, Fault_Handler, 0, 0, 0, 0, Fault_Handler, Fault_Handler, 0, Fault_Handler,
	Fault_Handler,
};
