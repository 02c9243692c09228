/* SPDX-License-Identifier: MIT */
/* The firmware's entry on a board: bring the port up and run the console (the host twin's is twin_main.c). */
#include "console.h"
#include "port.h"

int main(void)
{
	port_init();
	return console_run(port_name());
}
