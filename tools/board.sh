#!/usr/bin/env bash
# Run console commands on a board under QEMU, as `build/console <FILE` does on the host:
#   tools/board.sh [--port BOARD] [--store FILE] [--timeout S] [COMMANDS|-]
# Piping into QEMU directly hangs or loses commands: the board's UART drops the
# bytes that arrive before it is enabled (docs/port-guide.md), and QEMU does not
# exit at the end of its input. So this boots the firmware (make firmware PORT=BOARD
# first), waits for the banner ("... ready"), sends one command line at a time and
# reads its reply up to the "ok" or "err" line that ends it (docs/console.md),
# and at the end of the commands sends "quit" (its "ok bye" unprinted) unless they did; the exit status is
# the board's (quit CODE), or 1 if the board stopped answering. Output: the banner
# and every reply line, as the host twin prints them. Blank and "#" lines are skipped.
set -u
usage="Usage: tools/board.sh [--port BOARD] [--store FILE] [--timeout S] [COMMANDS|-]
  --port BOARD  one of: make print-ports (default netduinoplus2)
  --store FILE  the board's non-volatile store in FILE (make print-qemu-store)
  --timeout S   seconds to wait for the banner and for each reply (default 300)
  COMMANDS      a file of console commands, one per line (default -: stdin)"
port=netduinoplus2 store="" wait=300 file=-
while [ $# -gt 0 ]; do
	case "$1" in
	--port) [ $# -ge 2 ] || { echo "board.sh: --port needs a BOARD" >&2; exit 2; }; port=$2; shift 2 ;;
	--store) [ $# -ge 2 ] || { echo "board.sh: --store needs a FILE" >&2; exit 2; }; store=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || { echo "board.sh: --timeout needs seconds" >&2; exit 2; }; wait=$2; shift 2 ;;
	-h | --help) echo "$usage"; exit 0 ;;
	-?*) echo "board.sh: unknown option '$1'" >&2; echo "$usage" >&2; exit 2 ;;
	*) file=$1; shift; [ $# -eq 0 ] || { echo "board.sh: one COMMANDS file only" >&2; exit 2; } ;;
	esac
done
B=${BUILD:-build}
elf=$B/fw/$port/firmware.elf
if ! printf ' %s ' $(make -s --no-print-directory print-ports) | grep -q " $port "; then
	echo "board.sh: unknown board '$port' (make print-ports lists them)" >&2
	exit 2
fi
[ -f "$elf" ] || { echo "board.sh: $elf is missing: run make firmware PORT=$port" >&2; exit 2; }
[ "$file" = - ] || [ -r "$file" ] || { echo "board.sh: cannot read $file" >&2; exit 2; }
if [ -n "$store" ]; then
	qemu=$(make -s --no-print-directory print-qemu-store PORT="$port" STORE="$store")
else
	qemu=$(make -s --no-print-directory print-qemu PORT="$port")
fi
read -r -a cmd <<<"$qemu -kernel $elf"

coproc BOARD { exec "${cmd[@]}" 2>&1; }
pid=$BOARD_PID
exec {to}>&"${BOARD[1]}" {from}<&"${BOARD[0]}"
stop() { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; exit "$1"; }

# The restore line (with a store) comes before the banner; print both.
while :; do
	IFS= read -r -t "$wait" line <&"$from" || { echo "board.sh: no banner from $port within $wait s" >&2; stop 1; }
	line=${line%$'\r'}
	printf '%s\n' "$line"
	case "$line" in *" ready") break ;; esac
done

quit=no
# send LINE [quiet]: one command, then its reply through the line that ends it (not printed
# when quiet: the closing quit, which the host twin, ending at end of input, does not print).
send() {
	printf '%s\n' "$1" >&"$to"
	while :; do
		IFS= read -r -t "$wait" line <&"$from" || { echo "board.sh: no reply to '$1' within $wait s" >&2; stop 1; }
		line=${line%$'\r'}
		[ $# -gt 1 ] || printf '%s\n' "$line"
		case "$line" in ok | "ok "* | "err "*) return ;; esac
	done
}
while IFS= read -r c || [ -n "$c" ]; do
	case "$c" in '' | '#'*) continue ;; esac
	send "$c"
	case "$c" in quit | "quit "*) case "$line" in "ok"*) quit=yes; break ;; esac ;; esac
done < <(cat -- "$file")
[ "$quit" = yes ] || send quit quiet
exec {to}>&-
wait "$pid"
