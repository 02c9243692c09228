/* SPDX-License-Identifier: MIT */
/* The host twin's entry (build/console): the board's console on stdin/stdout, plus --help. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "console.h"
#include "port.h"
#include "host/port_host.h"

static const char usage[] =
	"Usage: console [--store FILE [--store-format]] [--help]\n"
	"The firmware's line console on stdin and stdout, the same code as on the boards:\n"
	"wait for the banner (\"... ready\"), then send one command per line; each gets\n"
	"zero or more \"evt\" lines, then one \"ok ...\" or \"err <code> <message>\" line.\n"
	"Send \"help\" for the commands and their arguments, \"quit [CODE]\" to end.\n"
	"  --store FILE  keep the schedule in FILE (created if missing) across restarts:\n"
	"                every command that changes it is journaled there before it runs,\n"
	"                and a restart restores it (docs/store-format.md); without it,\n"
	"                nothing survives the process. A store this build cannot take up\n"
	"                (another build's layout, or damage that left no snapshot) is\n"
	"                refused and left as it is: journaled commands then fail.\n"
	"                A FILE that cannot be opened or created ends the console at\n"
	"                once, with the reason (exit status 1)\n"
	"  --store-format  start the store afresh, empty, discarding whatever it held\n"
	"                (as the console's \"store format\" does)\n"
	"The protocol and the error codes: docs/console.md.\n";

int main(int argc, char **argv)
{
	int i = 1;
	if (argc > 2 && strcmp(argv[1], "--store") == 0) {
		/* Open as the port will (created if missing), so a bad path fails here with its reason, not in every command. */
		int fd = open(argv[2], O_RDWR | O_CREAT, 0644);
		if (fd < 0) {
			fprintf(stderr, "console: --store %s: cannot be opened: %s\n", argv[2], strerror(errno));
			return 1;
		}
		close(fd);
		port_host_store_file(argv[2]);
		i = 3;
		if (argc > i && strcmp(argv[i], "--store-format") == 0) {
			console_store_format_at_boot();
			i++;
		}
	}
	if (argc > i) {
		bool help = argc == i + 1 && (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0);
		if (!help)
			fprintf(stderr, "console: unexpected argument '%s'\n", argv[i]);
		fputs(usage, help ? stdout : stderr);
		return help ? 0 : 2;
	}
	port_init();
	return console_run(port_name());
}
