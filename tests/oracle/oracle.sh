#!/usr/bin/env bash
# The regression oracle: for every committed fixture x every variant of
# tests/oracle/variants.txt, the replayer's schedule hash and the digests of
# its --jobs-out and --events-out files. A refactor must leave every line as it
# is (tests/oracle/hashes.txt); a change in schedule is a bug until the paper
# says the new one is right.
#   tests/oracle/oracle.sh [--quick] > FILE   print the table (sorted)
#   tests/oracle/oracle.sh --check [--quick]  compare with hashes.txt; TEST lines
# --quick leaves out the rows whose replay takes more than a few seconds
# (tests/oracle/slow.txt), so that `make test` stays short; `make oracle`
# checks every row. Rows in tests/oracle/skip.txt are never run (no trusted hash).
# --only REGEX keeps the variants whose name matches (e.g. --only '^slack' after a
# change to one policy), slow rows included unless --quick is given too.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
B=${BUILD:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
replay=${REPLAY:-$B/replay}
check=0 quick=0 only=
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1 ;;
	--quick) quick=1 ;;
	--only)
		[ $# -ge 2 ] || { echo "oracle.sh: --only needs a pattern" >&2; exit 2; }
		only=$2
		shift ;;
	*) echo "usage: oracle.sh [--check] [--quick] [--only REGEX]" >&2; exit 2 ;;
	esac
	shift
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Fixtures are named relative to the repository (the jobs-out header quotes the path), so the
# table is the same in any checkout.
cd "$root" || exit 2
case $replay in /*) ;; *) replay=$PWD/$replay ;; esac

# pow2 N: the smallest power of two >= N.
pow2() { local p=1; while [ "$p" -lt "$1" ]; do p=$((p * 2)); done; echo "$p"; }

# digest FILE: the first 16 hex digits of its MD5, or - when the replay wrote no such file.
digest() {
	if [ -f "$1" ]; then md5sum <"$1" | cut -c1-16; else echo -; fi
}

# row FIXTURE NAME OPTS...: one line "FIXTURE NAME HASH JOBS EVENTS".
row() {
	local fix=$1 name=$2
	shift 2
	local d="$work/$(basename "$fix").$name"
	local h
	h=$("$replay" "$@" --hash --jobs-out "$d.jobs" --events-out "$d.ev" "$fix" 2>"$d.err" |
		awk '$1 == "hash" { print $4 }')
	if [ -z "$h" ]; then
		# The error, not the warnings before it (a --procs that differs from the header, say).
		h="ERROR:$(grep -v '^replay: .*: warning: ' "$d.err" | sed "s|$root/||g" | head -c 60 | tr ' \n' '__')"
	fi
	printf '%s %s %s %s %s\n' "$(basename "$fix")" "$name" "$h" "$(digest "$d.jobs")" "$(digest "$d.ev")"
}

jobs_list() {
	for fix in fixtures/*.fix; do
		local base procs
		base=$(basename "$fix")
		procs=$("$B/fixinfo" "$fix" | awk '/^width of machine/ { print $NF; exit }')
		[ -n "$procs" ] || procs=1
		grep -v '^#' "$here/variants.txt" | while read -r name opts; do
			[ -n "$name" ] || continue
			if [ -n "$only" ] && ! [[ $name =~ $only ]]; then
				continue
			fi
			if grep -qx "$base $name" "$here/skip.txt"; then
				continue
			fi
			if [ $quick -eq 1 ] && grep -qx "$base $name" "$here/slow.txt"; then
				continue
			fi
			echo "$fix $name ${opts//@GANGPROCS@/$(pow2 "$procs")}"
		done
	done
}

export -f row digest
export replay work root
table=$(jobs_list | xargs -P "$(nproc)" -L 1 bash -c 'row "$@"' _ | sort)
if [ $check -eq 0 ]; then
	printf '%s\n' "$table"
	exit 0
fi
# --check: every row we computed must stand in hashes.txt, letter for letter.
fail=0
while read -r fix name rest; do
	want=$(awk -v f="$fix" -v n="$name" '$1 == f && $2 == n { print $3, $4, $5 }' "$here/hashes.txt")
	if [ "$want" = "$rest" ]; then
		echo "TEST oracle.$fix.$name PASS"
	else
		echo "TEST oracle.$fix.$name FAIL want '$want' got '$rest'"
		fail=1
	fi
done <<<"$table"
exit $fail
