#!/usr/bin/env bash
# make bench: replay KTH SP2, SDSC SP2 and CTC SP2 under every policy and
# record wall time (median of several runs), instructions (callgrind), peak
# memory and jobs per second in docs/benchmarks.md. A benchmark, never a
# test: the wall times depend on the machine and its load; the instruction
# counts do not.
set -eu
B=${BUILD:-build}
RUNS=${RUNS:-5}
out=${OUT:-docs/benchmarks.md}
traces="KTH-SP2-1996-2.1-cln SDSC-SP2-1998-4.2-cln CTC-SP2-1996-3.1-cln"
policies="fcfs easy cons relaxed slack"
# Slack's O(n^3) search on CTC's long queues takes half a minute natively, half an hour under
# callgrind: CTC is measured under the other policies only.
skip() { [ "$1" = CTC-SP2-1996-3.1-cln ] && [ "$2" = slack ]; }

. "$(dirname "$0")/lib.sh"
need=()
command -v valgrind >/dev/null 2>&1 || need+=(valgrind)
[ -x /usr/bin/time ] || need+=(time)
need_packages "${need[@]}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR] = $1} END {printf "%.3f", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

rows=""
for t in $traces; do
	f=fixtures/$t.swf.gz
	for p in $policies; do
		skip "$t" "$p" && continue
		opts=()
		[ "$p" = relaxed ] && opts=(--tolerance 3600)
		: >"$tmp/walls"
		for _ in $(seq "$RUNS"); do
			t0=$(date +%s%N)
			"$B/replay" --policy "$p" "${opts[@]}" --format csv "$f" >"$tmp/csv"
			t1=$(date +%s%N)
			awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f\n", (b - a) / 1e9 }' >>"$tmp/walls"
		done
		/usr/bin/time -f '%M' -o "$tmp/time" "$B/replay" --policy "$p" "${opts[@]}" --format csv "$f" >/dev/null
		mem=$(cat "$tmp/time")
		wall="$(median <"$tmp/walls") [$(sort -n "$tmp/walls" | head -1)-$(sort -n "$tmp/walls" | tail -1)]"
		jobs=$(sed -n 2p "$tmp/csv" | cut -d, -f5 | cut -d. -f1)
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$B/replay" --policy "$p" "${opts[@]}" "$f" \
			>/dev/null 2>"$tmp/vg"
		instr=$(grep -o 'refs: *[0-9,]*' "$tmp/vg" | tr -dc 0-9)
		# Instructions spent in the core alone (callgrind's inclusive cost of the public calls).
		core=$(callgrind_annotate --inclusive=yes "$tmp/cg" 2>/dev/null |
			awk '/core\/src\/sched.c:sched_(submit|finish|advance|cancel) \[/ {gsub(",", "", $1); s += $1} END {printf "%.0f", s}')
		jps=$(awk -v j="$jobs" -v w="${wall%% *}" 'BEGIN { printf "%.0f", (w > 0) ? j / w : 0 }')
		rows="$rows| $t | $p | $jobs | $wall | $(commas "$instr") | $(commas "$core") | $(awk -v m="$mem" 'BEGIN{printf "%.1f", m / 1024}') | $jps |
"
		echo "$t $p: wall $wall s, $instr instructions ($core in the core), ${mem} KiB" >&2
	done
done

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
{
	echo "# Benchmarks"
	echo
	echo "Produced by \`make bench\` (tools/bench.sh) on $(date -u +%Y-%m-%d): $cpu, $(nproc) cores,"
	echo "$(gcc --version | head -1), \`-O2\`. Wall time is the median [min-max] of $RUNS runs of"
	echo "\`build/replay --policy P --format csv TRACE\` (relaxed with \`--tolerance 3600\`; whole program: reading and decompressing the"
	echo "trace, the replay, the report); instructions are callgrind's count for the same"
	echo "command, total and inside the core's public calls (submit, finish, advance, cancel)."
	echo "Instruction counts repeat exactly; wall times vary with the machine's load."
	echo
	echo "| trace | policy | jobs | wall (s), median [min-max] | instructions | in the core | peak RSS (MiB) | jobs/s (median) |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|"
	printf '%s' "$rows"
} >"$out.tmp"
publish "$out"
