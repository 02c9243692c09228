#!/usr/bin/env bash
# The controller survives being killed: tests/store/killrestart.c drives a
# console session against the host twin with a store (200 restarts, half of
# them by SIGKILL after a random delay, the others by a power cut inside a
# store write) and against every QEMU board (20 restarts each, SIGKILL), and
# checks every restored state against an uninterrupted run. TEST lines.
#   store.sh [TARGET...]    default: host and every board
set -u
B=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
targets=${*:-host $(make -s --no-print-directory print-ports)}
for t in $targets; do
	if [ "$t" = host ]; then
		out=$("$B/san/killrestart" --store "$tmp/host.img" --kills "${HOST_KILLS:-200}" --lines 600 --cut --seed 11 \
			-- "$B/san/console" --store FILE 2>&1)
	elif ! command -v qemu-system-arm >/dev/null 2>&1; then
		echo "TEST store.killrestart.$t FAIL qemu-system-arm is not installed"
		continue
	else
		# The board's store is a host file reached by semihosting (docs/port-guide.md).
		qemu=$(make -s --no-print-directory print-qemu-store PORT="$t" STORE=FILE)
		# shellcheck disable=SC2086 # the QEMU command line is words
		out=$(cd "$tmp" && "$OLDPWD/$B/san/killrestart" --store "$tmp/$t.img" --kills "${BOARD_KILLS:-20}" \
			--lines 160 --seed 12 -- timeout 600 $qemu -kernel "$OLDPWD/$B/fw/$t/firmware.elf" 2>&1)
	fi
	printf '%s\n' "$out" | sed "s/^TEST store.killrestart/TEST store.killrestart.$t/; s/^note: killrestart:/note: killrestart $t:/"
done

# A store that refuses a write: the command is not run (err 28, the digest unchanged), nothing
# else that changes the schedule is accepted, and a restart has everything acknowledged before.
case " $targets " in *" host "*)
	img=$tmp/refuse.img
	printf 'quit\n' | "$B/san/console" --store "$img" >/dev/null 2>&1 # formats the store
	out=$(printf 'submit 1 8 100\ndigest\nsubmit 2 8 100\ndigest\nadvance 5\nstore\nstatus\n' |
		SCHED_STORE_FAIL=2 "$B/san/console" --store "$img" 2>&1)
	d1=$(printf '%s\n' "$out" | grep '^ok seq=' | sed -n 1p | sed 's/^ok seq=[0-9]* //')
	d2=$(printf '%s\n' "$out" | grep '^ok seq=' | sed -n 2p | sed 's/^ok seq=[0-9]* //')
	refused=$(printf '%s\n' "$out" | grep -c '^err 28 ')
	again=$(printf 'digest\n' | "$B/san/console" --store "$img" 2>&1 | grep '^ok seq=')
	if [ -n "$d1" ] && [ "$d1" = "$d2" ] && [ "$refused" -eq 2 ] &&
		printf '%s\n' "$out" | grep -q '^ok store=failed' && printf '%s\n' "$out" | grep -q '^ok now=0 .*waiting=0 running=1' &&
		[ "$again" = "ok seq=1 $d1" ]; then
		echo "TEST store.write_refused PASS"
	else
		echo "TEST store.write_refused FAIL"
		printf '%s\n' "$out" "$again" | head -20
	fi
esac
