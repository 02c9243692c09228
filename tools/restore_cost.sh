#!/usr/bin/env bash
# The worst restore a board does: a snapshot, then a full journal of submits
# replayed through the console, measured with the port's counter (exact
# instructions on the netduinoplus2 under -icount shift=0). For each policy:
# a fresh store, submits until the journal has no room for one more (the
# next would compact), quit, start again, and print the restore line.
#   tools/restore_cost.sh [BOARD [POLICY...]]   default: netduinoplus2 cons easy slack dynp
set -u
B=${BUILD:-build}
board=${1:-netduinoplus2}
shift || true
policies=${*:-cons easy slack dynp}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s --no-print-directory "$B/fw/$board/firmware.elf" >/dev/null || exit 1

# session BOARD STORE: run QEMU with a store, fed by the coprocess's input; sets $pid, $to, $from.
start() {
	local qemu
	qemu=$(make -s --no-print-directory print-qemu-store PORT="$board" STORE="$1")
	read -r -a cmd <<<"$qemu -kernel $B/fw/$board/firmware.elf"
	coproc Q { exec "${cmd[@]}" 2>&1; }
	pid=$Q_PID
	exec {to}>&"${Q[1]}" {from}<&"${Q[0]}"
	while IFS= read -r -t 60 line <&"$from"; do
		case "$line" in restore*) restored=$line ;; *" ready"*) return 0 ;; esac
	done
	echo "no banner from $board" >&2
	exit 1
}
ask() { # ask LINE: send it, return the ok/err reply in $reply
	printf '%s\n' "$1" >&"$to"
	while IFS= read -r -t 60 reply <&"$from"; do
		case "$reply" in ok* | err*) return 0 ;; esac
	done
	echo "no reply to '$1'" >&2
	exit 1
}
for p in $policies; do
	store=$tmp/$p.img
	start "$store"
	ask "policy $p"
	n=0
	while :; do
		ask store
		free=${reply##*journal_free=}
		free=${free%% *}
		[ "$free" -ge 128 ] || break # one more submit line (two 32-byte copies) and a margin
		n=$((n + 1))
		ask "submit $n $((1 + n * 37 % 96)) $((600 + n * 7919 % 86400))"
	done
	ask "quit"
	wait "$pid" 2>/dev/null
	start "$store"
	ask "quit"
	wait "$pid" 2>/dev/null
	echo "$board $p: $n submits journaled; $restored"
done
