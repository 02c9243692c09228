#!/usr/bin/env bash
# The boards' non-volatile store (port/cortex-m/store_semihost.c) under QEMU,
# on every board of `make print-ports`, killed with SIGKILL by its PID and
# started again, through the console (its store, firmware/persist.c, and the
# `medium` command that makes the port's calls one by one):
#   off               without --store, no store, and the console says so;
#   formats           a fresh file: the console formats it and journals lines;
#   grow              `medium open` grows the file by 16 sectors of 0xFF past
#                     the console's and keeps the console's bytes;
#   sigkill_restores  bytes poked there, then SIGKILL: they are in the file,
#                     and the restart restores the journaled schedule (restore
#                     line, banner seq, the same digest);
#   raw_persists      the restarted board reads the poked bytes back;
#   nor_rule          a 1 bit over a 0 is err 4 and changes nothing;
#   span_refused_whole the same when the bad byte ends a 1000-byte write over
#                     two sectors and two 512-byte chunks of the board's check;
#   erase             an erase reads 0xFF, in the console and in the file, and
#                     the console's store restores the same schedule after it.
# Needs `make -j2 firmware-all`. Prints TEST lines; without qemu-system-arm,
# one FAIL that says so (make test installs it).
set -u
B=${BUILD:-build}
if ! command -v qemu-system-arm >/dev/null 2>&1; then
	echo "TEST store_board.qemu_available FAIL qemu-system-arm is not installed (make test installs it as root: apt-get install qemu-system-arm)"
	exit 0
fi
tmp=$(mktemp -d) # absolute, so QEMU's working directory does not matter
pid=
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

ff16=ffffffffffffffffffffffffffffffff # 16 erased bytes in hex
why=
restore= # the "restore ..." line of the last boot, if any
banner=

# boot BOARD [STORE]: QEMU with the board's console on fds $to and $from, its PID in $pid. Waits
# for the banner (the netduinoplus2 drops bytes sent before its UART is on), keeping the restore
# line a store prints before it.
boot() {
	local qemu line
	local -a cmd
	if [ $# -gt 1 ]; then
		qemu=$(make -s --no-print-directory print-qemu-store PORT="$1" STORE="$2")
	else
		qemu=$(make -s --no-print-directory print-qemu PORT="$1")
	fi
	read -r -a cmd <<<"$qemu -kernel $B/fw/$1/firmware.elf"
	# exec: the coprocess's PID is QEMU's own, the one a SIGKILL must reach.
	coproc QEMU { exec "${cmd[@]}" 2>&1; }
	pid=$QEMU_PID
	exec {to}>&"${QEMU[1]}" {from}<&"${QEMU[0]}"
	restore='' banner=''
	while IFS= read -r -t 60 line <&"$from"; do
		line=${line%$'\r'}
		case "$line" in
		restore*) restore=$line ;;
		*" ready") banner=$line; return 0 ;;
		*) why="unexpected line before the banner: $line"; return 1 ;;
		esac
	done
	why="no banner within 60 s"
	return 1
}

# ask CMD PATTERN...: send one command and match the next lines, one per shell glob; the last
# line read is in $got.
got=
ask() {
	local sent=$1
	shift
	printf '%s\n' "$sent" >&"$to"
	for pat in "$@"; do
		IFS= read -r -t 60 got <&"$from" || { why="after '$sent': no reply (expected '$pat')"; return 1; }
		got=${got%$'\r'}
		# shellcheck disable=SC2053
		[[ "$got" == $pat ]] || { why="after '$sent': got '$got', expected '$pat'"; return 1; }
	done
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
		{ wait "$pid"; } 2>/dev/null
		exec {to}>&- {from}<&-
		pid=
	fi
}

pass() { echo "TEST store_board.$board.$1 PASS"; }
fail() {
	echo "TEST store_board.$board.$1 FAIL $why"
	reset_board
}

# Hex of N bytes at OFFSET of FILE, as `medium peek` prints them.
host_hex() { od -An -tx1 -v -j "$2" -N "$3" "$1" | tr -d ' \n'; }

step_off() {
	boot "$board" || return 1
	[ -z "$restore" ] || { why="a restore line without a store: $restore"; return 1; }
	case "$banner" in *" store=off ready") ;; *) why="banner: $banner"; return 1 ;; esac
	ask medium "ok medium=off" &&
		ask "medium peek 0" "err 5 *no store*" &&
		ask store "ok store=off" &&
		quit
}

# A fresh store: the console formats it; three journaled lines; SIGKILL; the restart restores them.
sectors='' base='' digest=''
step_console() {
	local f=$1 size
	boot "$board" "$f" || return 1
	case "$restore" in "restore formatted "*) ;; *) why="first boot's restore line: '$restore'"; return 1 ;; esac
	case "$banner" in *" store=on seq=0 ready") ;; *) why="banner: $banner"; return 1 ;; esac
	ask medium "ok medium=on sectors=* sector_bytes=4096" || return 1
	sectors=${got#ok medium=on sectors=}
	sectors=${sectors%% *}
	base=$((sectors * 4096))
	size=$(stat -c %s "$f")
	[ "$size" -eq "$base" ] || { why="store file is $size bytes, the port says $sectors sectors"; return 1; }
	ask "submit 1 128 100" "evt start 1 0 128" "ok submitted 1 start=0" &&
		ask "submit 2 64 50" "ok submitted 2 start=100" &&
		ask "advance 10" "ok now=10 next=100" &&
		ask digest "ok seq=3 hash=* jobs=2 now=10" || return 1
	digest=$got
}

# Still running: the port grows the file by 16 sectors of 0xFF past the console's, keeping its bytes.
step_grow() {
	local f=$1 size
	cp "$f" "$tmp/before"
	ask "medium open $((base + 65536))" "ok medium=on sectors=$((sectors + 16)) sector_bytes=4096" || return 1
	size=$(stat -c %s "$f")
	[ "$size" -eq $((base + 65536)) ] || { why="grown to $size bytes, expected $((base + 65536))"; return 1; }
	cmp -s -n "$base" "$f" "$tmp/before" || { why="the console's $base bytes changed"; return 1; }
	[ "$(host_hex "$f" "$base" 65536 | tr -d f)" = "" ] || { why="the new sectors are not all 0xFF"; return 1; }
	ask "medium peek $base" "ok at=$base hex=$ff16" &&
		ask "medium peek $((base + 65520))" "ok at=$((base + 65520)) hex=$ff16"
}

# Still running: program bytes in the new sectors, SIGKILL; the file holds them; a second boot
# restores the console's schedule and reads them.
want=ffffffffa500ffffffffffffffffff5a # at base+4096: +4=0xa5, +5=0x00, +15=0x5a
step_sigkill() {
	local f=$1 at=$((base + 4096)) hex
	ask "medium poke $((at + 4)) 165" "ok at=$((at + 4)) byte=165" &&
		ask "medium poke $((at + 5)) 0" "ok at=$((at + 5)) byte=0" &&
		ask "medium poke $((at + 15)) 90" "ok at=$((at + 15)) byte=90" &&
		ask "medium peek $at" "ok at=$at hex=$want" &&
		kill9 || return 1
	hex=$(host_hex "$f" "$at" 16)
	[ "$hex" = "$want" ] || { why="after SIGKILL the file holds $hex at $at, expected $want"; return 1; }
	boot "$board" "$f" || return 1
	case "$restore" in "restore generation=2 "*" records=3 seq=3 now=10 waiting=1 running=1 slot0=stale slot1=used "*) ;;
	*) why="restore line after SIGKILL: '$restore'"; return 1 ;; esac
	case "$banner" in *" store=on seq=3 ready") ;; *) why="banner after SIGKILL: $banner"; return 1 ;; esac
	ask digest "$digest"
}

step_raw() {
	local at=$((base + 4096))
	ask medium "ok medium=on sectors=$((sectors + 16)) sector_bytes=4096" &&
		ask "medium peek $at" "ok at=$at hex=$want"
}

# Still running: 0x00 -> 0x01 is refused whole; 0xa5 -> 0xa1 only clears a bit; the end is the end.
step_nor() {
	local at=$((base + 4096)) end=$((base + 65536))
	ask "medium poke $((at + 5)) 1" "err 4 wrong state*" &&
		ask "medium peek $at" "ok at=$at hex=$want" &&
		ask "medium poke $((at + 4)) 161" "ok at=$((at + 4)) byte=161" &&
		ask "medium peek $at" "ok at=$at hex=ffffffffa100ffffffffffffffffff5a" &&
		ask "medium poke $((end - 1)) 0" "ok at=$((end - 1)) byte=0" &&
		ask "medium poke $end 0" "err 3 out of range*"
}

# Still running: one 1000-byte write from base+8000 over a sector boundary (base+8192), more
# than one 512-byte chunk of the board's check, whose only bad byte is in its last chunk.
step_span() {
	local s=$((base + 8000))
	ask "medium poke $((s + 900)) 0" "ok at=$((s + 900)) byte=0" &&
		ask "medium poke $s 254 1000" "err 4 wrong state*" &&
		ask "medium peek $s" "ok at=$s hex=$ff16" &&
		ask "medium peek $((base + 8192))" "ok at=$((base + 8192)) hex=$ff16" &&
		ask "medium peek $((s + 896))" "ok at=$((s + 896)) hex=ffffffff00ffffffffffffffffffffff" &&
		ask "medium poke $s 0 1000" "ok at=$s byte=0 count=1000" &&
		ask "medium peek $s" "ok at=$s hex=00000000000000000000000000000000" &&
		ask "medium peek $((s + 992))" "ok at=$((s + 992)) hex=0000000000000000ffffffffffffffff"
}

# Still running: erase the sector at base+4096; the file agrees after quit; the console's store
# still restores the same schedule.
step_erase() {
	local f=$1 at=$((base + 4096)) hex
	ask "medium erase $((sectors + 1))" "ok erased=$((sectors + 1))" &&
		ask "medium peek $at" "ok at=$at hex=$ff16" &&
		ask "medium poke $((at + 5)) 1" "ok at=$((at + 5)) byte=1" &&
		ask "medium peek $((base + 65520))" "ok at=$((base + 65520)) hex=ffffffffffffffffffffffffffffff00" &&
		ask "medium erase $((sectors + 16))" "err 3 out of range*" &&
		quit || return 1
	hex=$(host_hex "$f" "$at" 16)
	[ "$hex" = ffffffffff01ffffffffffffffffffff ] || { why="the file holds $hex at $at after the erase"; return 1; }
	boot "$board" "$f" &&
		ask digest "$digest" &&
		quit
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
	# Each step goes on from the last one's state: the first failure ends the board's run.
	for step in console:formats grow:grow sigkill:sigkill_restores raw:raw_persists nor:nor_rule \
		span:span_refused_whole erase:erase; do
		if ! "step_${step%%:*}" "$store"; then
			fail "${step#*:}"
			break
		fi
		pass "${step#*:}"
	done
done
