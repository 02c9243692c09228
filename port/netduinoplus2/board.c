/* SPDX-License-Identifier: MIT */
/* Netduino Plus 2 (STM32F405, Cortex-M4F) under QEMU: USART1 console, TIM2 instruction counter. */
#include <stdint.h>

#include "cortex_m.h"

#define REG(addr) (*(volatile uint32_t *)(addr))

#define RCC_AHB1ENR REG(0x40023830u)
#define RCC_APB1ENR REG(0x40023840u)
#define RCC_APB2ENR REG(0x40023844u)
#define GPIOA_MODER REG(0x40020000u)
#define GPIOA_AFRH REG(0x40020024u)

#define USART1_SR REG(0x40011000u)
#define USART1_DR REG(0x40011004u)
#define USART1_CR1 REG(0x4001100Cu)
#define USART_SR_RXNE (1u << 5)
#define USART_SR_TXE (1u << 7)

#define TIM2_CR1 REG(0x40000000u)
#define TIM2_EGR REG(0x40000014u)
#define TIM2_CNT REG(0x40000024u)
#define TIM2_PSC REG(0x40000028u)
#define TIM2_ARR REG(0x4000002Cu)

const char board_name[] = "netduinoplus2";
/* Under qemu -icount shift=0 TIM2 advances once per instruction (docs/port-guide.md); on silicon, per cycle. */
const char board_counter_unit[] = "instructions";

void board_init(void)
{
	/* Clocks and pins for a real chip (QEMU ignores them): GPIOA, TIM2, USART1; PA9/PA10 as AF7. */
	RCC_AHB1ENR |= 1u << 0;
	RCC_APB1ENR |= 1u << 0;
	RCC_APB2ENR |= 1u << 4;
	GPIOA_MODER = (GPIOA_MODER & ~(0xFu << 18)) | (0xAu << 18);
	GPIOA_AFRH = (GPIOA_AFRH & ~(0xFFu << 4)) | (0x77u << 4);
	/* UE | TE | RE. Bytes that arrive before this are lost: the host waits for the banner. */
	USART1_CR1 = (1u << 13) | (1u << 3) | (1u << 2);
	/* TIM2 free-running over the full 32 bits. */
	TIM2_CR1 = 0;
	TIM2_PSC = 0;
	TIM2_ARR = 0xFFFFFFFFu;
	TIM2_EGR = 1;
	TIM2_CNT = 0;
	TIM2_CR1 = 1;
}

void board_putc(char c)
{
	while (!(USART1_SR & USART_SR_TXE)) {
	}
	USART1_DR = (uint8_t)c;
}

int board_getc(void)
{
	while (!(USART1_SR & USART_SR_RXNE)) {
	}
	return (int)(USART1_DR & 0xFFu);
}

uint32_t board_counter(void)
{
	return TIM2_CNT;
}
