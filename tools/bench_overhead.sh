#!/usr/bin/env bash
# make bench (issue 14, target 3): the replayer's overhead beside its scheduling.
# For FCFS, EASY and conservative on KTH SP2, SDSC SP2 and CTC SP2 (the fixtures):
#   whole     callgrind's instruction count of `build/replay --policy P --format csv TRACE.fix`
#   replay    callgrind's inclusive count of sched_replay_run (core/src/replay.c), in the same run:
#             the replay alone (event loop, scheduler, the host's event callback), what a driver
#             that loads once and replays would measure
#   ratio     whole / replay
# and the cost per job of reading the trace: the fixture (inclusive fixture_load: file reads,
# decoding, the job array) against the SWF text (inclusive parse() of trace/swf.c minus its line
# source file_line, so gzip inflation and line reading are left out of the text's figure).
# Writes the section "Replayer overhead (issue 14)" of docs/benchmarks.md (OUT=... elsewhere),
# replacing that section and keeping the rest of the file. Instruction counts repeat exactly.
#   tools/bench_overhead.sh [--print]   --print: the table on stdout, no file written
set -eu
B=${BUILD:-build}
out=${OUT:-docs/benchmarks.md}
traces=${TRACES:-"KTH-SP2-1996-2.1-cln SDSC-SP2-1998-4.2-cln CTC-SP2-1996-3.1-cln"}
policies=${POLICIES:-"fcfs easy cons"}
print=0
[ "${1:-}" = --print ] && print=1

. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null 2>&1 || need_packages valgrind

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# incl FILE:FUNCTION CALLGRIND_FILE: that function's inclusive count (0 when it never ran).
incl() {
	callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$2" 2>/dev/null |
		awk -v f="$1" '$3 == f && $4 ~ /^\[/ {gsub(",", "", $1); s += $1} END {printf "%.0f", s}'
}

rows="" reads=""
for t in $traces; do
	fix=fixtures/$t.fix
	for p in $policies; do
		valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$B/replay" --policy "$p" --format csv "$fix" \
			>"$tmp/csv" 2>"$tmp/vg"
		whole=$(grep -o 'refs: *[0-9,]*' "$tmp/vg" | tr -dc 0-9)
		replay=$(incl core/src/replay.c:sched_replay_run "$tmp/cg")
		jobs=$(sed -n 2p "$tmp/csv" | cut -d, -f5)
		if [ "$p" = fcfs ]; then
			fixload=$(incl trace/fixture_io.c:fixture_load "$tmp/cg")
		fi
		rows="$rows| $t | $p | $jobs | $(commas "$whole") | $(commas "$replay") | $(awk -v a="$whole" -v b="$replay" 'BEGIN{printf "%.2f", a / b}') | $(commas "$((whole / jobs))") | $(commas "$((replay / jobs))") |
"
		echo "$t $p: whole $whole, replay $replay, $jobs jobs" >&2
	done
	# The text: parse() without its line source (inflation and line reading).
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cgs" "$B/replay" --policy fcfs --format csv \
		"fixtures/$t.swf.gz" >/dev/null 2>&1
	parse=$(incl trace/swf.c:parse "$tmp/cgs")
	line=$(incl trace/swf.c:file_line "$tmp/cgs")
	[ "$line" -gt 0 ] || { echo "bench_overhead: no file_line in the callgrind output (renamed?)" >&2; exit 1; }
	lines=$(zcat "fixtures/$t.swf.gz" | grep -cv '^ *;')
	fjobs=$("$B/fixinfo" "$fix" | awk '/^number of jobs/ { print $NF; exit }')
	[ -n "$fjobs" ] || fjobs=$lines
	textpj=$(((parse - line) / lines))
	fixpj=$((fixload / fjobs))
	reads="$reads| $t | $lines | $(commas "$textpj") | $(commas "$fixpj") | $(awk -v a="$textpj" -v b="$fixpj" 'BEGIN{printf "%.1f", a / b}') |
"
	echo "$t: text $textpj, fixture $fixpj per job" >&2
done

{
	echo "## Replayer overhead (issue 14)"
	echo
	echo "Produced by \`make bench\` (tools/bench_overhead.sh) on $(date -u +%Y-%m-%d), commit"
	echo "$(git describe --always --dirty 2>/dev/null || echo unknown), $(gcc --version | head -1), \`-O2\`."
	echo "Instructions are callgrind's (\`valgrind --tool=callgrind\`); they repeat exactly."
	echo "*whole*: the command \`build/replay --policy P --format csv fixtures/TRACE.fix\`;"
	echo "*replay*: callgrind's inclusive count of \`sched_replay_run\` in the same run (the event loop, the"
	echo "scheduler and the host's event callback: what a driver that loads once and replays measures);"
	echo "the ratio is whole / replay (target: at most 2)."
	echo
	echo "| trace | policy | jobs | whole | replay | ratio | whole per job | replay per job |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|"
	printf '%s' "$rows"
	echo
	echo "Reading the trace, instructions per job: the SWF text is \`parse()\` of trace/swf.c (inclusive)"
	echo "minus its line source \`file_line\` (its own gzip inflation and line reading), from"
	echo "\`build/replay --policy fcfs --format csv fixtures/TRACE.swf.gz\`; the fixture is \`fixture_load\`"
	echo "(inclusive: file reads, header, decoding, CRC, the job array) from the fcfs run above."
	echo "Target: the fixture decodes at least 5 times faster than the text parses."
	echo
	echo "| trace | job lines | SWF text parse | fixture decode | text / fixture |"
	echo "|---|---:|---:|---:|---:|"
	printf '%s' "$reads"
} >"$tmp/section"

if [ $print -eq 1 ]; then
	cat "$tmp/section"
	exit 0
fi
replace_section "Replayer overhead (issue 14)" "$tmp/section" "$out"
echo "wrote the overhead section of $out" >&2
