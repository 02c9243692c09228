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
			--lines 160 --seed 12 -- $qemu -kernel "$OLDPWD/$B/fw/$t/firmware.elf" 2>&1)
	fi
	printf '%s\n' "$out" | sed "s/^TEST store.killrestart/TEST store.killrestart.$t/; s/^note: killrestart:/note: killrestart $t:/"
done

# A store that refuses a write: the command is not run (err 28, the digest unchanged), nothing
# else that changes the schedule is accepted, and a restart has everything acknowledged before.
# The 4th write is the second submit's record (a journaled line writes its record, then a mark
# in each slot).
case " $targets " in *" host "*)
	img=$tmp/refuse.img
	printf 'quit\n' | "$B/san/console" --store "$img" >/dev/null 2>&1 # formats the store
	out=$(printf 'submit 1 8 100\ndigest\nsubmit 2 8 100\ndigest\nadvance 5\nstore\nstatus\n' |
		SCHED_STORE_FAIL=4 "$B/san/console" --store "$img" 2>&1)
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

# --- damage and other builds (issue 25, items 0.2 and 0.3), host only ---------------------------
# A store that lost sectors (an erase, a truncated file: the missing part reads as erased) or that
# another build wrote must never give back less than was acknowledged without saying so: either
# the restore is a prefix of the history whose seq plus lost_records is every acknowledged line,
# with the uninterrupted run's digest at that seq, or the store is refused and the file is left
# byte for byte as it was. A second restart must agree with the first.
case " $targets " in *" host "*)
	san=$B/san/console rel=$B/rel/console
	# The history: submits with an advance now and then, a digest after each (seq -> digest).
	n=320
	for ((i = 1; i <= n; i++)); do
		if ((i % 10 == 0)); then echo "advance $((i * 3))"; else echo "submit $i $((i % 7 + 1)) $((50 + i % 40))"; fi
		echo digest
	done >"$tmp/history.txt"
	printf 'quit\n' >>"$tmp/history.txt"
	"$san" --store "$tmp/long.img" <"$tmp/history.txt" >"$tmp/history.out" 2>&1
	# The issue's case: a few lines after the format, all in journal 1, its slot's pair the newest.
	short=12
	{ head -n $((2 * short)) "$tmp/history.txt"; echo quit; } | "$san" --store "$tmp/short.img" >/dev/null 2>&1
	# The layout this build gives (docs/store-format.md: | slot 0 | slot 1 | journal 0 | journal 1 |,
	# journals of 4 sectors): the host's arena, and so its slots, grow with what a build keeps.
	nsec=$(printf 'store\nquit\n' | "$san" --store "$tmp/geom.img" 2>/dev/null | sed -n 's/^ok store=on sectors=\([0-9]*\) .*/\1/p')
	slot=$(((nsec - 8) / 2))
	declare -A at_seq=()
	while read -r _ seq rest; do at_seq[${seq#seq=}]=$rest; done < <(grep '^ok seq=' "$tmp/history.out")

	why=
	# restart IMG: one boot of the san console on IMG and a digest; sets r (restored seq), lost,
	# dig (the digest after seq=), state (restored, refused, formatted) and rline (the restore line).
	restart() {
		local out
		out=$(printf 'digest\nquit\n' | "$san" --store "$1" 2>&1)
		rline=$(printf '%s\n' "$out" | grep '^restore' | head -1)
		lost=$(printf '%s\n' "$rline" | sed -n 's/.* lost_records=\([0-9]*\).*/\1/p')
		local d
		d=$(printf '%s\n' "$out" | grep '^ok seq=' | head -1)
		r=${d#ok seq=}
		r=${r%% *}
		dig=${d#ok seq=* }
		if printf '%s\n' "$out" | grep -q ' store=failed .*ready$\| store=failed ready$'; then
			state=refused
		elif [[ $rline == "restore formatted"* ]]; then
			state=formatted
		else
			state=restored
		fi
		if [ -z "$rline" ] || [ -z "$d" ]; then
			why="no restore or digest line: $(printf '%s' "$out" | grep -v '^sched-core' | head -3)"
			return 1
		fi
	}
	# damaged NAME IMG ACKED: the restore of IMG is honest about ACKED acknowledged lines (above).
	damaged() {
		local name=$1 img=$2 acked=$3 r1 dig1
		cp "$img" "$tmp/before.img"
		restart "$img" || return 1
		if [ "$state" = refused ]; then
			[[ $rline == "restore refused"* ]] || { why="$name: refused without a restore refused line: $rline"; return 1; }
			cmp -s "$img" "$tmp/before.img" || { why="$name: refused, but the file changed"; return 1; }
			restart "$img" || return 1
			if [ "$state" != refused ] || ! cmp -s "$img" "$tmp/before.img"; then
				why="$name: refused once, then $state"
				return 1
			fi
			refusals=$((refusals + 1))
			return 0
		fi
		[ -n "$lost" ] || { why="$name: no lost_records in: $rline"; return 1; }
		if [ $((r + lost)) -ne "$acked" ]; then
			why="$name: $acked acknowledged, restored seq=$r and lost_records=$lost: $rline"
			return 1
		fi
		if [ "$r" -gt 0 ] && [ "$dig" != "${at_seq[$r]}" ]; then
			why="$name: the digest at seq=$r is not the uninterrupted run's"
			return 1
		fi
		losses=$((losses + (lost > 0)))
		r1=$r dig1=$dig
		restart "$img" || return 1
		if [ "$state" != restored ] || [ "$r" != "$r1" ] || [ "$dig" != "$dig1" ] || [ "$lost" != 0 ]; then
			why="$name: the second restart gave $state seq=$r lost_records=$lost: $rline"
			return 1
		fi
	}
	verdict() { # verdict NAME OK: a TEST line, with why on a failure
		if [ "$2" = 0 ]; then echo "TEST $1 PASS"; else echo "TEST $1 FAIL $why"; fi
	}

	# The sector that holds the active journal, and each other journal sector, erased by `medium erase`,
	# in a store with a few lines after its format and in one whose history crossed journals.
	refusals=0 losses=0 ok=0
	for ref in short long; do
		acked=$n
		[ "$ref" = short ] && acked=$short
		for s in $(seq $((2 * slot)) $((nsec - 1))); do
			cp "$tmp/$ref.img" "$tmp/case.img"
			printf 'medium erase %s\nquit\n' "$s" | "$san" --store "$tmp/case.img" >/dev/null 2>&1
			damaged "$ref history, erase sector $s" "$tmp/case.img" "$acked" || { ok=1; break 2; }
		done
	done
	if [ "$ok" = 0 ] && [ "$losses" -lt 2 ]; then
		why="only $losses erases lost a record: the test missed an active journal"
		ok=1
	fi
	verdict store.erase_journal_sector "$ok"

	# The file truncated: the sizes of the issue, then every sector boundary (0: an empty file is a
	# new store), each in both stores.
	for size in 131072 262144 270000; do
		ok=0
		for ref in short long; do
			acked=$n
			[ "$ref" = short ] && acked=$short
			cp "$tmp/$ref.img" "$tmp/case.img"
			truncate -s "$size" "$tmp/case.img"
			damaged "$ref history, truncated to $size" "$tmp/case.img" "$acked" || { ok=1; break; }
		done
		verdict "store.truncate_$size" "$ok"
	done
	refusals=0 losses=0 ok=0
	for ref in short long; do
		acked=$n
		[ "$ref" = short ] && acked=$short
		for ((s = 0; s <= nsec; s++)); do
			cp "$tmp/$ref.img" "$tmp/case.img"
			truncate -s $((s * 4096)) "$tmp/case.img"
			if [ "$s" -eq 0 ]; then
				if ! restart "$tmp/case.img" || [ "$state" != formatted ]; then
					why="an empty file: $state $rline"
					ok=1
					break 2
				fi
				continue
			fi
			damaged "$ref history, truncated to sector $s" "$tmp/case.img" "$acked" || { ok=1; break 2; }
		done
	done
	verdict store.truncate_every_sector "$ok"
	echo "note: store damage: 2 x $nsec truncations at a sector boundary: $losses reported a loss, $refusals refused"

	# Another build of the same commit (san and rel differ in -O, SCHED_DEBUG, SCHED_FAILPOINTS, ASan):
	# it takes the store up as it was, or refuses it without changing a byte.
	# layout FROM TO: FROM writes lines, TO opens the store.
	layout() {
		local from=$1 to=$2 img=$tmp/layout.img out want got
		rm -f "$img"
		out=$(printf 'submit 1 8 100\nsubmit 2 16 50\nadvance 5\nsubmit 3 4 30\ndigest\nquit\n' | "$from" --store "$img" 2>&1)
		want=$(printf '%s\n' "$out" | grep '^ok seq=')
		cp "$img" "$tmp/before.img"
		out=$(printf 'digest\nquit\n' | "$to" --store "$img" 2>&1)
		got=$(printf '%s\n' "$out" | grep '^ok seq=')
		if printf '%s\n' "$out" | grep -q ' store=failed'; then
			cmp -s "$img" "$tmp/before.img" || { why="refused, but the file changed"; return 1; }
			echo "note: store layout: $to refuses a store $from wrote, and leaves it alone"
			return 0
		fi
		if [ -z "$want" ] || [ "$got" != "$want" ]; then
			why="wrote '$want', read '$got': $(printf '%s\n' "$out" | grep '^restore')"
			return 1
		fi
	}
	layout "$san" "$rel"
	verdict store.layout_san_to_rel $?
	layout "$rel" "$san"
	verdict store.layout_rel_to_san $?
esac

# A store of another layout (the arena's layout version changed in both slots, their CRCs made
# good again: as a build with another job table would write) and the explicit ways past it: the
# console refuses it, changes no byte, and runs nothing journaled until `store format`; and
# --store-format starts it afresh at boot.
case " $targets " in *" host "*)
	# le32 FILE OFFSET: the little-endian word there. put FILE OFFSET: stdin's bytes written there.
	le32() { od -An -tu4 -j "$2" -N 4 "$1" | tr -d ' '; }
	put() { dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
	# crc FILE OFFSET LENGTH: the CRC-32 of those bytes, as 4 little-endian bytes (gzip's trailer).
	crc() { dd if="$1" bs=4096 iflag=skip_bytes,count_bytes skip="$2" count="$3" status=none | gzip -c | tail -c 8 | head -c 4; }
	other_build() {
		local img=$1 k b len
		for k in 0 1; do
			b=$((k * slot * 4096))
			len=$(le32 "$img" $((b + 16)))
			printf '\111' | put "$img" $((b + 32 + 4)) # struct sched's version, low byte: another job size
			crc "$img" $((b + 32)) "$len" | put "$img" $((b + 20))
			crc "$img" "$b" 28 | put "$img" $((b + 28))
		done
	}
	img=$tmp/other.img
	rm -f "$img"
	printf 'submit 1 8 100\nsubmit 2 16 50\nquit\n' | "$san" --store "$img" >/dev/null 2>&1
	other_build "$img"
	cp "$img" "$tmp/other.before"
	out=$(printf 'submit 3 8 100\nstore\nstore format\nsubmit 3 8 100\ndigest\nquit\n' | "$san" --store "$img" 2>&1)
	again=$(printf 'digest\nquit\n' | "$san" --store "$img" 2>&1)
	if printf '%s\n' "$out" | grep -q "^restore refused .*slot0=another build's layout slot1=another build's layout .*lost_records=2 " &&
		printf '%s\n' "$out" | grep -q '^err 9 bad format: the store holds state this build cannot take up' &&
		printf '%s\n' "$out" | grep -q ' store=failed ready$' &&
		printf '%s\n' "$out" | grep -q '^err 9 ' && printf '%s\n' "$out" | grep -q '^ok store=failed' &&
		printf '%s\n' "$out" | grep -q '^ok formatted store=on generation=[0-9]* seq=0$' &&
		printf '%s\n' "$out" | grep -q '^ok seq=1 ' &&
		printf '%s\n' "$again" | grep -q '^restore generation=.* seq=1 .*lost_records=0 ' &&
		[ "$(printf '%s\n' "$again" | grep '^ok seq=')" = "$(printf '%s\n' "$out" | grep '^ok seq=')" ]; then
		echo "TEST store.other_layout_refused_until_format PASS"
	else
		echo "TEST store.other_layout_refused_until_format FAIL"
		printf '%s\n' "$out" "$again" | grep -v '^sched-core' | head -12
	fi
	# Refused: nothing was written before the format (checked on a copy that no format reached).
	cp "$tmp/other.before" "$img"
	printf 'submit 3 8 100\nstore snapshot\nquit\n' | "$san" --store "$img" >/dev/null 2>&1
	if cmp -s "$img" "$tmp/other.before"; then
		echo "TEST store.other_layout_left_alone PASS"
	else
		echo "TEST store.other_layout_left_alone FAIL the refused store changed"
	fi
	out=$(printf 'digest\nquit\n' | "$san" --store "$img" --store-format 2>&1)
	if printf '%s\n' "$out" | grep -q '^restore formatted requested ' && printf '%s\n' "$out" | grep -q ' store=on seq=0 ready$' &&
		printf '%s\n' "$out" | grep -q '^ok seq=0 '; then
		echo "TEST store.store_format_option PASS"
	else
		echo "TEST store.store_format_option FAIL"
		printf '%s\n' "$out" | grep -v '^sched-core' | head -5
	fi
esac
