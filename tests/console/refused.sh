#!/usr/bin/env bash
# A refused command changes nothing, in memory or in the store (issue 25).
# For every command of the console's table (parsed from firmware/commands.h,
# so a new command without a case below fails here), on the host twin with a
# store: a session builds a schedule with jobs running and waiting and a full
# job table; a second session sends the command's refused lines (the table's
# wrong counts, generated, and the values listed below) between two `digest`s;
# a third only restarts and asks `digest`. Each refused line must get exactly
# one `err` line and no `evt`; the digest must not move in the session (seq
# included: a refused line is not journaled), the store file must be the same
# bytes, and the restart must give back the digest from before.
#
# Only refusals are sent: the lines that end the session on purpose are not
# (`quit` with a code of 0..255 exits, `selftest fault` crashes), nor `medium
# poke` or `erase` that the medium takes (they change the store by design).
# Host only: the boards run the same dispatcher and persist.c over a
# semihosting file (tests/store/board.sh, tests/store/store.sh).
#   refused.sh     Prints one TEST line per command, and one for the table.
set -u
B=${BUILD:-build}
console=$B/san/console
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The refused lines of each command beyond its wrong counts, one per line. Empty: the command
# takes no arguments, so a wrong count is all there is to refuse. The schedule they meet is
# setup's: jobs 1 and 3 running, 2 and 4 waiting, the job table (4) full, the clock at 10. The
# store's first bytes are its header ("SNP1", with 0 bits): `medium poke 0 255` would set some.
declare -A refused=(
	[help]='help nosuch'
	[version]=''
	[config]='config procs 5
config jobs 4
config jobs 0
config jobs 100000
config procs x
config procs
config nosuch 5
config sf 99999
config sf x
config heuristic nosuch
config lower 9500
config help nosuch'
	[time]='time 5
time 2147483648
time 4294967296
time x'
	[advance]='advance 9
advance 2147483648
advance -1'
	[submit]='submit 5 8 100
submit 1 8 100
submit 5 0 100
submit 5 8 0
submit 5 129 100
submit 5 8 2147483648
submit 5 8 100 0 1
submit 5 8 100 0 0 1001
submit 5 8 100 0 0 0 x
submit x 8 100'
	[finish]='finish 2
finish 99
finish x'
	[cancel]='cancel 99
cancel -1'
	[predict]='predict 99
predict x'
	[status]=''
	[queue]='queue x'
	[running]='running -1'
	[profile]='profile 4294967296'
	[stats]=''
	[policy]='policy gang
policy nosuch'
	[reset]=''
	[replay]='replay peek gang
replay kth gang
replay nosuch
replay nosuch gang
replay peek nosuch'
	[fixtures]=''
	[bench]='bench 0
bench 1025
bench x'
	[selfcheck]='selfcheck maybe'
	[selftest]='selftest nosuch'
	[digest]=''
	[store]='store nosuch'
	[medium]='medium nosuch
medium peek
medium peek 4294967295
medium open 4294967295
medium poke 0 255
medium poke 0 83 2
medium poke 0 256
medium poke 0 0 0
medium poke 0 0 1025
medium poke 4294967295 0
medium erase 4294967295
medium erase x'
	[quit]='quit 256
quit x'
)

setup='selfcheck on
config jobs 4
submit 1 64 1000
submit 2 128 500
submit 3 32 200
submit 4 64 300
advance 10
digest
quit'

# The table: "name min max" per command, from the X-macro list.
table=$(sed -n 's/^[[:space:]]*X("\([a-z]*\)", \([0-9]*\), \([0-9]*\),.*/\1 \2 \3/p' firmware/commands.h)
if [ -z "$table" ] || [ ! -x "$console" ]; then
	echo "TEST console.refused.table FAIL no command table in firmware/commands.h, or no $console"
	exit 0
fi
missing=
while read -r name min max; do
	if [ -z "${refused[$name]+x}" ]; then
		missing+=" $name (no refused lines: add them to tests/console/refused.sh)"
	elif [ -z "${refused[$name]}" ] && [ "$max" -gt 0 ]; then
		missing+=" $name (takes arguments, but lists no refused value)"
	fi
done <<<"$table"
for name in "${!refused[@]}"; do
	grep -q "^$name " <<<"$table" || missing+=" $name (listed here, not in the table)"
done
if [ -z "$missing" ]; then
	echo "TEST console.refused.table PASS"
else
	echo "TEST console.refused.table FAIL$missing"
fi

# words N: N arguments "1", each after a space (a count the table refuses).
words() {
	w=
	for ((i = 0; i < $1; i++)); do w+=" 1"; done
}

while read -r name min max; do
	[ -n "${refused[$name]+x}" ] || continue
	lines=()
	words $((max + 1))
	lines+=("$name$w")
	if [ "$min" -gt 0 ]; then
		words $((min - 1))
		lines+=("$name$w")
	fi
	if [ -n "${refused[$name]}" ]; then
		while IFS= read -r l; do lines+=("$l"); done <<<"${refused[$name]}"
	fi
	store=$tmp/$name.store
	out=$(printf '%s\n' "$setup" | "$console" --store "$store" 2>&1)
	want=$(printf '%s\n' "$out" | grep '^ok seq=')
	if [ -z "$want" ]; then
		echo "TEST console.refused.$name FAIL setup gave no digest: $(printf '%s' "$out" | tail -2 | tr '\n' '|')"
		continue
	fi
	cp "$store" "$tmp/before"
	out=$({ printf 'selfcheck on\ndigest\n'; printf '%s\n' "${lines[@]}"; printf 'digest\nquit\n'; } |
		"$console" --store "$store" 2>&1)
	st=$?
	# The restore line, the banner, selfcheck's ok, the digest; one reply per line; the digest, bye.
	mapfile -t got <<<"$out"
	why=
	if [ "$st" -ne 0 ] || [ "${#got[@]}" -ne $((${#lines[@]} + 6)) ]; then
		why="exit $st, ${#got[@]} output lines for ${#lines[@]} refused lines: $(printf '%s' "$out" | grep -v '^err ' | tail -n +3 | head -4 | tr '\n' '|')"
	elif [ "${got[3]}" != "$want" ]; then
		why="the restart before the refusals gave '${got[3]}', not '$want'"
	else
		for ((k = 0; k < ${#lines[@]}; k++)); do
			case ${got[k + 4]} in
			'err '*) ;;
			*)
				why="'${lines[k]}' answered '${got[k + 4]}'"
				break
				;;
			esac
		done
	fi
	after=${got[${#lines[@]} + 4]-}
	if [ -z "$why" ] && [ "$after" != "$want" ]; then
		why="digest moved in the session: '$want' became '$after'"
	fi
	if [ -z "$why" ] && ! cmp -s "$store" "$tmp/before"; then
		why="the store changed: $(cmp "$store" "$tmp/before" 2>&1 | head -1)"
	fi
	if [ -z "$why" ]; then
		restarted=$(printf 'digest\nquit\n' | "$console" --store "$store" 2>&1 | grep '^ok seq=')
		[ "$restarted" = "$want" ] || why="after a restart '$restarted', before the refusals '$want'"
	fi
	if [ -z "$why" ]; then
		echo "TEST console.refused.$name PASS"
	else
		echo "TEST console.refused.$name FAIL $why"
	fi
done <<<"$table"
