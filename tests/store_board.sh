#!/usr/bin/env bash
# The boards' non-volatile store (port/cortex-m/store_semihost.c) under QEMU,
# on every board of `make print-ports`, through the console's `store` command:
# without --store it is off; with one, pokes survive QEMU killed with SIGKILL
# and restarted; the NOR rule refuses a 1 bit written over a 0 (err 4) and
# changes nothing, even when the bad byte ends a long write; an erase sets
# 0xFF; an existing shorter file grows with 0xFF without losing its bytes.
# Needs `make -j2 firmware-all`.
# Prints TEST lines; without qemu-system-arm, a note and no TEST line.
set -u
B=${BUILD:-build}
if ! command -v qemu-system-arm >/dev/null 2>&1; then
	echo "note: tests/store_board.sh skipped: qemu-system-arm is not installed (apt-get install qemu-system-arm)"
	exit 0
fi
tmp=$(mktemp -d) # absolute, so QEMU's working directory does not matter
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

ff16=ffffffffffffffffffffffffffffffff # 16 erased bytes in hex
why=

# boot BOARD [STORE]: QEMU with the board's console on fds $to and $from, its PID in $pid; waits
# for the banner, because the netduinoplus2 drops bytes sent before its UART is on.
boot() {
	local qemu banner
	qemu=$(make -s --no-print-directory print-qemu PORT="$1" ${2:+STORE="$2"})
	read -r -a cmd <<<"$qemu -kernel $B/fw/$1/firmware.elf"
	# exec: the coprocess's PID is QEMU's own, the one a SIGKILL must reach.
	coproc QEMU { exec "${cmd[@]}" 2>&1; }
	pid=$QEMU_PID
	exec {to}>&"${QEMU[1]}" {from}<&"${QEMU[0]}"
	IFS= read -r -t 20 banner <&"$from" || { why="no banner within 20 s"; return 1; }
	case "$banner" in *" ready") ;; *) why="unexpected banner: $banner"; return 1 ;; esac
}

# ask CMD PATTERN: send one command and match its one reply line against a shell glob.
ask() {
	local got
	printf '%s\n' "$1" >&"$to"
	IFS= read -r -t 30 got <&"$from" || { why="after '$1': no reply (expected '$2')"; return 1; }
	got=${got%$'\r'}
	# shellcheck disable=SC2053
	[[ "$got" == $2 ]] || { why="after '$1': got '$got', expected '$2'"; return 1; }
}

# quit: end the session the normal way; QEMU must exit with status 0.
quit() {
	ask quit "ok bye" || return 1
	exec {to}>&- {from}<&-
	{ wait "$pid"; } 2>/dev/null
	local st=$?
	pid=
	[ "$st" -eq 0 ] || { why="exit status $st after quit"; return 1; }
}

# kill9: SIGKILL to QEMU by its PID, as a power cut would stop a board: no exit path runs.
kill9() {
	local comm
	comm=$(cat "/proc/$pid/comm" 2>/dev/null)
	[ "$comm" = qemu-system-arm ] || { why="PID $pid is '$comm', not qemu-system-arm"; return 1; }
	kill -KILL "$pid"
	{ wait "$pid"; } 2>/dev/null
	local st=$?
	exec {to}>&- {from}<&-
	pid=
	[ "$st" -eq 137 ] || { why="status $st after SIGKILL, expected 137"; return 1; }
}

# Stop whatever a failed step left running (by PID), and drop its descriptors.
reset_board() {
	if [ -n "$pid" ]; then
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		exec {to}>&- {from}<&-
		pid=
	fi
}

pass() { echo "TEST store_board.$board.$1 PASS"; }
fail() {
	echo "TEST store_board.$board.$1 FAIL $why"
	reset_board
}

# Hex of N bytes at OFFSET of FILE, as `store peek` prints them.
host_hex() { od -An -tx1 -v -j "$2" -N "$3" "$1" | tr -d ' \n'; }

step_off() {
	boot "$board" &&
		ask store "ok store=off" &&
		ask "store peek 0" "err 5 *no store*" &&
		quit
}

# Boot with a new store, program bytes, SIGKILL; the file holds them; a second boot reads them.
step_sigkill() {
	local f=$1 want=ffffffffa500ffffffffffffffffff5a # 4100=0xa5, 4101=0x00, 4111=0x5a
	boot "$board" "$f" &&
		ask store "ok store=on sectors=16 sector_bytes=4096" &&
		ask "store peek 4096" "ok at=4096 hex=$ff16" &&
		ask "store poke 4100 165" "ok at=4100 byte=165" &&
		ask "store poke 4101 0" "ok at=4101 byte=0" &&
		ask "store poke 4111 90" "ok at=4111 byte=90" &&
		ask "store peek 4096" "ok at=4096 hex=$want" &&
		kill9 || return 1
	local size hex
	size=$(stat -c %s "$f")
	[ "$size" -eq 65536 ] || { why="store file is $size bytes, expected 65536"; return 1; }
	hex=$(host_hex "$f" 4096 16)
	[ "$hex" = "$want" ] || { why="after SIGKILL the file holds $hex at 4096, expected $want"; return 1; }
	boot "$board" "$f" &&
		ask store "ok store=on sectors=16 sector_bytes=4096" &&
		ask "store peek 4096" "ok at=4096 hex=$want" &&
		ask "store peek 0" "ok at=0 hex=$ff16"
}

# Still running from step_sigkill: 0x00 -> 0x01 is refused whole; 0xa5 -> 0xa1 only clears a bit.
step_nor() {
	ask "store poke 4101 1" "err 4 wrong state*" &&
		ask "store peek 4096" "ok at=4096 hex=ffffffffa500ffffffffffffffffff5a" &&
		ask "store poke 4100 161" "ok at=4100 byte=161" &&
		ask "store peek 4096" "ok at=4096 hex=ffffffffa100ffffffffffffffffff5a" &&
		ask "store poke 65535 0" "ok at=65535 byte=0" &&
		ask "store poke 65536 0" "err 3 out of range*"
}

# Still running: one 1000-byte write over sectors 1 and 2 (8000..8999), more than one 512-byte
# chunk of the board's check, whose only bad byte is in its last chunk: refused whole.
step_span() {
	ask "store poke 8900 0" "ok at=8900 byte=0" &&
		ask "store poke 8000 254 1000" "err 4 wrong state*" &&
		ask "store peek 8000" "ok at=8000 hex=$ff16" &&
		ask "store peek 8192" "ok at=8192 hex=$ff16" &&
		ask "store peek 8896" "ok at=8896 hex=ffffffff00ffffffffffffffffffffff" &&
		ask "store poke 8000 0 1000" "ok at=8000 byte=0 count=1000" &&
		ask "store peek 8000" "ok at=8000 hex=00000000000000000000000000000000" &&
		ask "store peek 8992" "ok at=8992 hex=0000000000000000ffffffffffffffff"
}

# Still running: erasing sector 1 sets it to 0xFF and leaves sector 15; the file agrees after quit.
step_erase() {
	local f=$1
	ask "store erase 1" "ok erased=1" &&
		ask "store peek 4096" "ok at=4096 hex=$ff16" &&
		ask "store poke 4101 1" "ok at=4101 byte=1" &&
		ask "store peek 65520" "ok at=65520 hex=ffffffffffffffffffffffffffffff00" &&
		ask "store erase 16" "err 3 out of range*" &&
		quit || return 1
	local hex
	hex=$(host_hex "$f" 4096 16)
	[ "$hex" = ffffffffff01ffffffffffffffffffff ] || { why="the file holds $hex at 4096 after the erase"; return 1; }
}

# An existing 5000-byte file of zeros: its bytes stay, the rest up to 64 KiB reads erased.
step_grow() {
	local f=$1
	head -c 5000 /dev/zero >"$f"
	boot "$board" "$f" &&
		ask store "ok store=on sectors=16 sector_bytes=4096" &&
		ask "store peek 4992" "ok at=4992 hex=0000000000000000ffffffffffffffff" &&
		ask "store peek 65520" "ok at=65520 hex=$ff16" &&
		quit || return 1
	local size
	size=$(stat -c %s "$f")
	[ "$size" -eq 65536 ] || { why="grown to $size bytes, expected 65536"; return 1; }
	cmp -s -n 5000 "$f" /dev/zero || { why="the first 5000 bytes changed"; return 1; }
}

ports=$(make -s --no-print-directory print-ports)
for board in $ports; do
	if [ ! -f "$B/fw/$board/firmware.elf" ]; then
		why="no $B/fw/$board/firmware.elf: run make -j2 firmware-all"
		fail build
		continue
	fi
	if step_off; then pass off; else fail off; fi
	store=$tmp/$board.store
	if ! step_sigkill "$store"; then
		fail sigkill_persists
		continue
	fi
	pass sigkill_persists
	if ! step_nor; then
		fail nor_rule
		continue
	fi
	pass nor_rule
	if ! step_span; then
		fail span_refused_whole
		continue
	fi
	pass span_refused_whole
	if step_erase "$store"; then pass erase; else fail erase; fi
	if step_grow "$tmp/$board.grow"; then pass grow; else fail grow; fi
done
