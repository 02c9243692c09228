/* SPDX-License-Identifier: MIT */
/* What the shared Cortex-M support needs from each board: its UART and its counter. */
#ifndef PORT_CORTEX_M_H
#define PORT_CORTEX_M_H

#include <stdint.h>

/* Provided by the board folder. */
void board_init(void);            /* clocks, UART, counter */
void board_putc(char c);          /* blocking */
int board_getc(void);             /* blocking; -1 never happens on a board */
uint32_t board_counter(void);     /* free-running, counting up, 32 bits */
extern const char board_name[];
extern const char board_counter_unit[];

/* Provided by port/cortex-m. */
__attribute__((noreturn)) void semihost_exit(int code);

#endif /* PORT_CORTEX_M_H */
