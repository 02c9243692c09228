/* SPDX-License-Identifier: MIT */
/* The firmware's (and the host twin's) entry: bring the port up and run the console. */
#include "console.h"
#include "port.h"

int main(void)
{
	port_init();
	return console_run(port_name());
}
