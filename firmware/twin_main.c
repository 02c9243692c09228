/* SPDX-License-Identifier: MIT */
/* The host twin's entry (build/console): the board's console on stdin/stdout, plus --help. */
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "port.h"

static const char usage[] =
	"Usage: console [--help]\n"
	"The firmware's line console on stdin and stdout, the same code as on the boards:\n"
	"wait for the banner (\"... ready\"), then send one command per line; each gets\n"
	"zero or more \"evt\" lines, then one \"ok ...\" or \"err <code> <message>\" line.\n"
	"Send \"help\" for the commands and their arguments, \"quit [CODE]\" to end.\n"
	"The protocol and the error codes: docs/console.md.\n";

int main(int argc, char **argv)
{
	if (argc > 1) {
		bool help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
		fputs(usage, help ? stdout : stderr);
		return help ? 0 : 2;
	}
	port_init();
	return console_run(port_name());
}
