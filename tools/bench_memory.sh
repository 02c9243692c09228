#!/usr/bin/env bash
# make bench (issue 14, target 4): the replayer's peak memory on a trace of 312,807 jobs, the
# length of the CEA-Curie log the issue measured. That log is not in this repository, so the
# trace is made here: build/wlgen's matrix model of CTC SP2 (Streit 2002: CTC's widths,
# estimates, run times and interarrival gaps), 312,807 jobs, seed 1, as SWF text, gzip'd SWF
# and a fixture. For FCFS, EASY and conservative, the peak resident set (/usr/bin/time %M) and
# CPU time of `build/replay --policy P --format csv TRACE`, and the same for BASE, a replayer
# built from another commit (e.g. the issue's baseline 23dc74d), when given; BASE_NAME names it.
# Writes the section "Peak memory (issue 14)" of docs/benchmarks.md (OUT=... elsewhere).
#   BASE=/path/to/old/replay BASE_NAME="23dc74d" tools/bench_memory.sh [--print]
set -eu
B=${BUILD:-build}
out=${OUT:-docs/benchmarks.md}
base=${BASE:-}
base_name=${BASE_NAME:-$base}
jobs=312807
print=0
[ "${1:-}" = --print ] && print=1

. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/time ] || need_packages time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$B/wlgen" --model matrix --from fixtures/CTC-SP2-1996-3.1-cln.fix --jobs $jobs --seed 1 -o "$tmp/t.swf" >/dev/null
gzip -k "$tmp/t.swf"
"$B/swf2fix" "$tmp/t.swf" "$tmp/t.fix" >/dev/null 2>&1

# measure BINARY POLICY INPUT: "PEAK_KIB CPU_SECONDS" of one replay.
measure() {
	/usr/bin/time -f '%M %U %S' -o "$tmp/time" "$1" --policy "$2" --format csv "$3" >/dev/null 2>"$tmp/err" || {
		echo "bench_memory: $1 --policy $2 $3 failed: $(head -c 300 "$tmp/err")" >&2
		exit 1
	}
	awk '{ printf "%d %.2f", $1, $2 + $3 }' "$tmp/time"
}
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

rows=""
for input in t.swf t.swf.gz t.fix; do
	for p in fcfs easy cons; do
		read -r kib cpu <<<"$(measure "$B/replay" "$p" "$tmp/$input")"
		row="| ${input#t} | $p | $(mib "$kib") | $cpu |"
		if [ -n "$base" ]; then
			read -r bkib bcpu <<<"$(measure "$base" "$p" "$tmp/$input")"
			row="$row $(mib "$bkib") | $bcpu | $(awk -v a="$kib" -v b="$bkib" 'BEGIN{printf "%.2f", a / b}') |"
		fi
		rows="$rows$row
"
		echo "$input $p: ${kib} KiB" >&2
	done
done

{
	echo "## Peak memory (issue 14)"
	echo
	echo "Produced by \`make bench\` (tools/bench_memory.sh) on $(date -u +%Y-%m-%d), commit"
	echo "$(git describe --always --dirty 2>/dev/null || echo unknown), $(gcc --version | head -1), \`-O2\`."
	echo "The trace: \`build/wlgen --model matrix --from fixtures/CTC-SP2-1996-3.1-cln.fix --jobs $jobs"
	echo "--seed 1\` (the length of the CEA-Curie log, which is not in this repository; CTC's widths,"
	echo "estimates, run times and gaps), as SWF text, gzip'd and as a fixture (\`build/swf2fix\`)."
	echo "Peak resident memory (\`/usr/bin/time\` %M) and CPU time (user + system, s) of"
	echo "\`build/replay --policy P --format csv TRACE\`; one run each (memory repeats to a few pages)."
	if [ -n "$base" ]; then
		echo "*base*: the same for the replayer built from $base_name; the ratio is"
		echo "today's peak over the base's (target: at most 0.5)."
		echo
		echo "| input | policy | peak (MiB) | CPU (s) | base peak (MiB) | base CPU (s) | ratio |"
		echo "|---|---|---:|---:|---:|---:|---:|"
	else
		echo
		echo "| input | policy | peak (MiB) | CPU (s) |"
		echo "|---|---|---:|---:|"
	fi
	printf '%s' "$rows"
} >"$tmp/section"

if [ $print -eq 1 ]; then
	cat "$tmp/section"
	exit 0
fi
replace_section "Peak memory (issue 14)" "$tmp/section" "$out"
echo "wrote the peak-memory section of $out" >&2
