#!/usr/bin/env bash
# Drive a console session against one target and compare every reply.
#   drive.sh TARGET SCRIPT    TARGET: host, or a board name (port/<board>/port.mk)
# SCRIPT lines: "> CMD" is sent (\xHH escapes allowed); each following
# "< LINE" is one expected output line, a shell glob (* matches anything);
# "! exit N" is the exit status expected at the end (default 0); "#" starts
# a comment; "@ targets: a b" limits the script to those targets.
# The driver waits for the banner ("... ready") before it sends anything:
# a board drops bytes that arrive before its UART is enabled (docs/port-guide.md).
# Prints one TEST line.
set -u
target=$1
script=$2
name=console.$target.$(basename "$script" .txt)
B=${BUILD:-build}

only=$(sed -n 's/^@ targets: //p' "$script")
if [ -n "$only" ] && ! printf ' %s ' $only | grep -q " $target "; then
	exit 0
fi
if [ "$target" = host ]; then
	cmd=("$B/san/console")
else
	qemu=$(make -s --no-print-directory print-qemu PORT="$target")
	read -r -a cmd <<<"$qemu -kernel $B/fw/$target/firmware.elf"
fi

fail() {
	echo "TEST $name FAIL $*"
	kill "$pid" 2>/dev/null
	exit 0
}

coproc TARGET { exec timeout 120 "${cmd[@]}" 2>&1; }
pid=$TARGET_PID
exec {to}>&"${TARGET[1]}" {from}<&"${TARGET[0]}"

IFS= read -r -t 20 banner <&"$from" || fail "no banner within 20 s"
case "$banner" in *" ready") ;; *) fail "unexpected banner: $banner" ;; esac

want_exit=0
expect=()
flush() { # send the pending command, then read and compare its expected lines
	if [ -n "${sent+x}" ]; then
		for pat in "${expect[@]}"; do
			IFS= read -r -t 60 got <&"$from" || fail "after '$sent': no reply (expected '$pat')"
			got=${got%$'\r'}
			# shellcheck disable=SC2053
			[[ "$got" == $pat ]] || fail "after '$sent': got '$got', expected '$pat'"
		done
	fi
	expect=()
	unset sent
}
while IFS= read -r line || [ -n "$line" ]; do
	case "$line" in
	'> '*)
		flush
		sent=${line#> }
		printf '%b\n' "$sent" >&"$to"
		;;
	'< '*) expect+=("${line#< }") ;;
	'! exit '*) want_exit=${line#! exit } ;;
	'#'* | '@'* | '') ;;
	*) fail "bad script line: $line" ;;
	esac
done <"$script"
flush
exec {to}>&-
extra=$(timeout 20 cat <&"$from")
wait "$pid" 2>/dev/null
st=$?
[ -z "$extra" ] || fail "unexpected output at the end: $(printf '%s' "$extra" | head -2 | tr '\n' '|')"
[ "$st" -eq "$want_exit" ] || fail "exit status $st, expected $want_exit"
echo "TEST $name PASS"
