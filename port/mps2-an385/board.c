/* SPDX-License-Identifier: MIT */
/* ARM MPS2 with the AN385 image (Cortex-M3) under QEMU: CMSDK UART0 console, CMSDK TIMER0 counter. */
#include <stdint.h>

#include "cortex_m.h"

#define REG(addr) (*(volatile uint32_t *)(addr))

#define UART0_DATA REG(0x40004000u)
#define UART0_STATE REG(0x40004004u)
#define UART0_CTRL REG(0x40004008u)
#define UART0_BAUDDIV REG(0x40004010u)
#define UART_TX_FULL (1u << 0)
#define UART_RX_FULL (1u << 1)

#define TIMER0_CTRL REG(0x40000000u)
#define TIMER0_VALUE REG(0x40000004u)
#define TIMER0_RELOAD REG(0x40000008u)

const char board_name[] = "mps2-an385";
/* TIMER0 follows the emulated 25 MHz clock, not instructions (docs/port-guide.md): use netduinoplus2 to count. */
const char board_counter_unit[] = "ticks";

void board_init(void)
{
	UART0_BAUDDIV = 16;
	UART0_CTRL = 3; /* TX and RX enable, or TX hangs */
	(void)UART0_DATA; /* one dummy read, or QEMU stalls about a second before input arrives */
	TIMER0_RELOAD = 0xFFFFFFFFu;
	TIMER0_VALUE = 0xFFFFFFFFu;
	TIMER0_CTRL = 1;
}

void board_putc(char c)
{
	while (UART0_STATE & UART_TX_FULL) {
	}
	UART0_DATA = (uint8_t)c;
}

int board_getc(void)
{
	while (!(UART0_STATE & UART_RX_FULL)) {
	}
	return (int)(UART0_DATA & 0xFFu);
}

uint32_t board_counter(void)
{
	return 0xFFFFFFFFu - TIMER0_VALUE; /* the timer counts down */
}
