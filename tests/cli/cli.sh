#!/usr/bin/env bash
# The replayer's command line: help, bad input and outputs. Prints TEST lines.
set -u
R=${BUILD:-build}/san/replay
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
KTH=fixtures/KTH-SP2-1996-2.1-cln.swf.gz

result() {
	if [ "$2" -eq 0 ]; then echo "TEST cli.$1 PASS"; else echo "TEST cli.$1 FAIL $3"; fi
}
same() { [ "$1" = "$2" ] && echo 0 || echo 1; }

# expect_error NAME STATUS PATTERN -- ARGS: exit status, one line on stderr matching PATTERN, nothing on stdout.
expect_error() {
	local name=$1 want=$2 pat=$3
	shift 4
	"$R" "$@" >"$tmp/out" 2>"$tmp/err"
	local st=$? lines
	lines=$(wc -l <"$tmp/err")
	if [ "$st" -ne "$want" ]; then
		result "$name" 1 "exit $st, expected $want: $(head -1 "$tmp/err")"
	elif ! grep -Eq -- "$pat" "$tmp/err"; then
		result "$name" 1 "stderr '$(head -1 "$tmp/err")' does not match '$pat'"
	elif [ "$want" -eq 1 ] && [ "$lines" -ne 1 ]; then
		result "$name" 1 "$lines lines on stderr, expected one"
	elif [ -s "$tmp/out" ]; then
		result "$name" 1 "printed a report despite the error"
	else
		result "$name" 0 ""
	fi
}

printf '1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n2 5 0 10 1 -1 -1 1 20 -1 1 1 1 -1\n' >"$tmp/short.swf"
printf '; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n2 5 0 1O 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n' >"$tmp/letter.swf"
printf '; MaxProcs: 4\n; nothing else\n' >"$tmp/empty.swf"
printf '1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n' >"$tmp/nosize.swf"
printf '; MaxProcs: 4\n1 0 0 10 9 -1 -1 9 20 -1 1 1 1 -1 1 -1 -1 -1\n' >"$tmp/allwide.swf"

expect_error missing_file 1 "^replay: $tmp/nope.swf: No such file" -- "$tmp/nope.swf"
expect_error malformed_line 1 "^replay: $tmp/short.swf:2: expected 18 numeric fields, found 14$" -- --procs 4 "$tmp/short.swf"
expect_error non_numeric_field 1 "^replay: $tmp/letter.swf:3: field 4 is not a number$" -- "$tmp/letter.swf"
expect_error no_jobs 1 "^replay: $tmp/empty.swf: no job lines in trace$" -- "$tmp/empty.swf"
expect_error nothing_left_after_cleaning 1 "^replay: $tmp/allwide.swf: no job left after cleaning" -- "$tmp/allwide.swf"
expect_error no_machine_size 1 "no MaxProcs or MaxNodes in the header; give --procs" -- "$tmp/nosize.swf"
expect_error unknown_option 2 "unknown option: --frobnicate" -- --frobnicate "$KTH"
expect_error unknown_policy 2 "unknown policy 'lottery'" -- --policy easy,lottery "$KTH"
expect_error bad_procs 2 "^replay: --procs takes a whole number in 1\\.\\.2147483647: -3$" -- --procs -3 "$KTH"
expect_error bad_format 2 "unknown format" -- --format xml "$KTH"
expect_error missing_argument 2 "option needs an argument" -- "$KTH" --policy
expect_error no_trace 2 "missing TRACE" --
expect_error jobs_out_needs_one_policy 2 "need exactly one policy column" -- --jobs-out "$tmp/x" "$KTH"
expect_error by_month_needs_start_time 1 "needs UnixStartTime" -- --by-month --procs 4 "$tmp/nosize.swf"
expect_error tolerance_needs_relaxed 2 "need --policy relaxed" -- --policy cons --tolerance 60 "$KTH"
expect_error bad_tolerance 2 "^replay: --tolerance takes 0\\.\\.2147483647s \\(or 30m, 2h, 1d\\): 5x" -- --policy relaxed --tolerance 5x "$KTH"
expect_error slack_knobs_need_slack 2 "need --policy slack" -- --policy cons --sf 2 "$KTH"
expect_error unknown_heuristic 2 "unknown heuristic 'lifo'" -- --policy slack --heuristic ast,lifo "$KTH"
expect_error alpha_range 2 "^replay: --alpha-u takes 0\\.\\.1: 1\\.5" -- --policy slack --alpha-u 1.5 "$KTH"
expect_error plans_need_events 2 "events-plans needs --events-out" -- --events-plans "$KTH"
expect_error partition_needs_site 2 "partition needs --site" -- --partition a=4 "$KTH"
expect_error gantt_needs_one_policy 2 "draw one policy" -- --policy easy,cons --gantt "$tmp/g.svg" "$KTH"
expect_error gantt_not_gang 2 "^replay: --gantt does not apply to --policy gang" -- --policy gang --procs 128 --gantt "$tmp/g.svg" "$KTH"
expect_error gantt_window_needs_gantt 2 "gantt-from and --gantt-to need --gantt" -- --policy easy --gantt-from 1h "$KTH"
expect_error gantt_window_order 2 "gantt-from must be before" -- --policy easy --gantt "$tmp/g.svg" --gantt-from 2h --gantt-to 1h "$KTH"
expect_error gantt_unwritable 1 "^replay: --gantt $tmp/nodir/g.svg: cannot be written: No such file" -- --policy easy --gantt "$tmp/nodir/g.svg" "$KTH"

# Issue 29 item 8: errors before work is wasted. Every output path is checked before the trace is
# read (the bad trace's error would come first otherwise), without creating or truncating a file.
expect_error jobs_out_checked_first 1 "^replay: --jobs-out $tmp/nodir/j.swf: cannot be written: No such file or directory$" \
	-- --policy fcfs --jobs-out "$tmp/nodir/j.swf" "$tmp/letter.swf"
expect_error output_is_a_directory 1 "^replay: --timeline $tmp: cannot be written: Is a directory$" -- --policy fcfs --timeline "$tmp" "$KTH"
expect_error output_under_a_file 1 "^replay: --events-out $KTH/e: cannot be written: Not a directory$" -- --policy fcfs --events-out "$KTH/e" "$KTH"
expect_error outputs_same_file 1 "^replay: --timeline and --timeline-svg name the same file: $tmp/t$" \
	-- --policy fcfs --timeline "$tmp/t" --timeline-svg "$tmp/t" "$KTH"
printf 'keep\n' >"$tmp/keep.svg"
expect_error output_check_leaves_files 1 "^replay: --timeline-svg $tmp/nodir/t.svg: cannot be written" \
	-- --policy fcfs --jobs-out "$tmp/new.swf" --gantt "$tmp/keep.svg" --timeline-svg "$tmp/nodir/t.svg" "$KTH"
result output_check_leaves_files_untouched "$([ "$(cat "$tmp/keep.svg")" = keep ] && [ ! -e "$tmp/new.swf" ] && echo 0 || echo 1)" \
	"keep.svg changed or new.swf was left behind"
expect_error unknown_short_option 2 "^replay: unknown option: -x$" -- -x "$KTH"
expect_error unknown_short_option_in_a_cluster 2 "^replay: unknown option: -x$" -- -xh "$KTH"
expect_error missing_argument_named 2 "^replay: option needs an argument: --procs$" -- "$KTH" --procs
expect_error capacity_range 2 "^replay: --capacity takes a whole number in 1\\.\\.1073741824: 2147483647$" -- --capacity 2147483647 "$KTH"
# Beyond what the core can hold (its arena under 4 GiB) the message names the limit N: N + 1 is
# refused with the same N, and N lies between the arena sizes' bounds for FCFS (see core/src/sched.c).
expect_error capacity_core_limit 2 "^replay: --capacity 100000000 is more than the core can hold under fcfs .*: allowed 1\\.\\.[0-9]+$" \
	-- --policy fcfs --capacity 100000000 "$KTH"
lim=$(sed -n 's/.*allowed 1\.\.\([0-9]*\)$/\1/p' "$tmp/err")
expect_error capacity_core_limit_consistent 2 "allowed 1\\.\\.$lim$" -- --policy fcfs --capacity $((lim + 1)) "$KTH"
result capacity_core_limit_plausible "$([ "${lim:-0}" -gt 1000000 ] && [ "${lim:-0}" -lt 100000000 ] && echo 0 || echo 1)" "limit '$lim'"

# Item 7: a number that does not fit, or is not a plain decimal, is an error naming file, line and
# field, from the replayer and swf2fix alike (one rule); nothing is wrapped or clamped.
job='1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 1 -1 -1'
printf '; MaxProcs: 99999999999\n%s\n' "$job" >"$tmp/mpbig.swf"
printf '; MaxProcs: 1e9\n%s\n' "$job" >"$tmp/mpexp.swf"
printf '; MaxProcs: 8\n%s\n%s\n' "$job" "${job/ 20 / 4294967296 }" >"$tmp/estbig.swf"
printf '; MaxProcs: 8\n%s\n' "${job/ 20 / 1e30 }" >"$tmp/estexp.swf"
for c in "mpbig:1: header MaxProcs: 99999999999 does not fit: allowed -1\\.\\.2147483647" \
	"mpexp:1: header MaxProcs: '1e9' is not an integer \\(plain decimal digits\\)" \
	"estbig:3: field 9 \\(requested time\\): 4294967296 does not fit: allowed -2147483648\\.\\.2147483647" \
	"estexp:2: field 9 \\(requested time\\): '1e30' is not a plain decimal \\(digits, a '-', a fraction\\)"; do
	f=${c%%:*}
	expect_error "number_rule_$f" 1 "^replay: $tmp/$f.swf:${c#*:}$" -- "$tmp/$f.swf"
	"${BUILD:-build}/san/swf2fix" "$tmp/$f.swf" "$tmp/$f.fix" 2>"$tmp/fix.err" >/dev/null
	st=$?
	result "number_rule_swf2fix_$f" "$([ $st -eq 1 ] && [ "$(sed 's/^swf2fix: //' "$tmp/fix.err")" = "$(sed 's/^replay: //' "$tmp/err")" ] &&
		[ ! -e "$tmp/$f.fix" ] && echo 0 || echo 1)" "exit $st: '$(head -1 "$tmp/fix.err")' is not the replayer's message"
done
# A .gz with bytes after its data: a warning with their count, the same report; a flipped CRC names the path once.
head -300 < <(gzip -dc "$KTH") | gzip -c >"$tmp/k.swf.gz"
{ cat "$tmp/k.swf.gz"; printf 'garbage!'; } >"$tmp/trail.swf.gz"
"$R" --policy fcfs --hash "$tmp/k.swf.gz" 2>/dev/null | grep '^hash' >"$tmp/k.hash"
"$R" --policy fcfs --hash "$tmp/trail.swf.gz" 2>"$tmp/trail.err" | grep '^hash' >"$tmp/trail.hash"
result gz_trailing_garbage_warned "$([ "$(cat "$tmp/trail.err")" = "replay: warning: $tmp/trail.swf.gz: 8 bytes after the end of the gzip data, ignored" ] &&
	[ -s "$tmp/k.hash" ] && cmp -s "$tmp/k.hash" "$tmp/trail.hash" && echo 0 || echo 1)" "stderr '$(head -1 "$tmp/trail.err")'"
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[-8] ^= 1; open(sys.argv[2], "wb").write(b)' \
	"$tmp/k.swf.gz" "$tmp/crc.swf.gz"
expect_error gz_crc_names_path_once 1 "^replay: $tmp/crc.swf.gz: the .gz is damaged: incorrect data check$" -- "$tmp/crc.swf.gz"
expect_error missing_site 1 "^replay: $tmp/nope.site: No such file" -- --site "$tmp/nope.site" "$KTH"
printf 'partition a 64\nqueue q1 priority=5 procs=8-4\n' >"$tmp/bad.site"
expect_error bad_site_line 1 "^replay: $tmp/bad.site:2: procs takes" -- --site "$tmp/bad.site" "$KTH"
printf 'partition a 64\npartition b 36\nqueue q1 default\n' >"$tmp/two.site"
expect_error procs_with_partitions 2 "use --partition NAME=N" -- --site "$tmp/two.site" --procs 100 "$KTH"
expect_error partition_unknown 2 "names no partition" -- --site "$tmp/two.site" --partition c=4 "$KTH"

# Gang scheduling: buddy blocks need a power-of-two machine; its knobs need it; it has no site or capacity.
expect_error gang_needs_power_of_two 1 "^replay: $KTH: gang scheduling needs a power-of-two machine.*has 100 \\(give --procs\\)" \
	-- --policy gang "$KTH"
expect_error scheme_needs_gang 2 "need --policy gang" -- --scheme br "$KTH"
expect_error quantum_needs_gang 2 "need --policy gang" -- --policy easy --quantum 10 "$KTH"
expect_error bad_scheme 2 "^replay: unknown scheme 'buddy' \\(bc, br, brms, brmms\\)" -- --policy gang --scheme bc,buddy "$KTH"
expect_error zero_quantum 2 "^replay: --quantum takes 1\\.\\.86400s" -- --policy gang --quantum 0 --procs 128 "$KTH"
expect_error gang_without_site 2 "do not apply to --policy gang" -- --policy gang --site fixtures/nccs-palm.site "$KTH"
expect_error hi_pri_gap_range 2 "^replay: --hi-pri-gap takes a number from 0 to 2: 2.5" -- --policy slack --hi-pri-every 5 --hi-pri-gap 2.5 "$KTH"
# --help tells every option and the conventions.
"$R" --help >"$tmp/help"
st=$?
missing=""
for opt in --policy --procs --format --stats-as --by-month --jobs-out --jobs-csv --events-out --capacity --check --help \
	--events-plans --hash --tolerance --tolerance-factor --relaxed-scope --sf --awt --alpha-u --alpha-t --alpha-p --alpha-f \
	--progress --quiet --heuristic --early-end --removal-ties --hi-pri-every --hi-pri-gap "early-end takes one of compress, search, keep; default compress" --scratch --site --partition --months --from --to --shrink --estimates --seed --gantt --gantt-from --gantt-to --timeline --timeline-svg --scheme --quantum --max-slots --bc-slots --bc-fit \
	"field 5 if > 0, else field 8" "field 9 if > 0" "killed at" "skipped and counted" "at one instant"; do
	grep -q -- "$opt" "$tmp/help" || missing="$missing '$opt'"
done
result help_documents_everything $([ $st -eq 0 ] && [ -z "$missing" ] && echo 0 || echo 1) "missing:$missing"

# Side by side: one column per policy; the same numbers as one policy alone.
"$R" "$KTH" >"$tmp/all" 2>&1
"$R" --policy cons "$KTH" >"$tmp/cons" 2>&1
header=$(grep '^metric' "$tmp/all" | tr -s ' ')
a=$(awk '/^avg wait/ {print $NF}' "$tmp/all")
c=$(awk '/^avg wait/ {print $NF}' "$tmp/cons")
result three_policies_side_by_side $([ "$header" = "metric fcfs easy cons" ] && [ -n "$a" ] && [ "$a" = "$c" ] && echo 0 || echo 1) \
	"header '$header', cons avg wait '$a' vs alone '$c'"

# CSV and JSON carry the same figure as the table.
"$R" --policy easy --format csv "$KTH" >"$tmp/csv"
"$R" --policy easy --format json "$KTH" >"$tmp/json"
"$R" --policy easy "$KTH" >"$tmp/table"
t=$(awk '/^avg wait/ {print $NF}' "$tmp/table")
col=$(head -1 "$tmp/csv" | tr ',' '\n' | grep -n '^avg_wait$' | cut -d: -f1)
v=$(sed -n 2p "$tmp/csv" | cut -d, -f"$col")
j=$(grep -o '"avg_wait": [0-9.]*' "$tmp/json" | awk '{print $2}')
ok=$(awk -v t="$t" -v v="$v" -v j="$j" 'BEGIN { print (t != "" && (t - v) ^ 2 < 0.01 && (t - j) ^ 2 < 0.01) ? 0 : 1 }')
result formats_agree "$ok" "table $t, csv $v, json $j"

# --by-month: one row per month, and the month counts add up to the whole trace.
"$R" --by-month --policy easy "$KTH" >"$tmp/months"
rows=$(grep -cE '^[0-9]{4}-[0-9]{2} ' "$tmp/months")
sum=$(awk '/^[0-9][0-9][0-9][0-9]-[0-9][0-9] / {s += $2} END {print s}' "$tmp/months")
all=$(awk '/^jobs / {print $2}' "$tmp/table")
result by_month_rows "$([ "$rows" = 12 ] && [ "$sum" = "$all" ] && echo 0 || echo 1)" "$rows rows, $sum jobs vs $all"

# A slice names itself and counts only its own skipped jobs (tests/data/slice_skips.swf, worked by
# hand from its comments: jobs 1 Jan, 3 Feb, 6 Mar, 8 Apr are replayed; 2 Jan, 4 and 5 Feb, 7 Mar
# are skipped). Each case: options, then the CSV's "period jobs skipped" row by row.
SL=tests/data/slice_skips.swf
while IFS='|' read -r name opts want; do
	# shellcheck disable=SC2086 # the options are words
	got=$("$R" --policy fcfs $opts --format csv "$SL" 2>/dev/null |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { printf "%s %s %s;", $c["period"], $c["jobs"], $c["skipped"] }')
	result "slice_$name" "$(same "$got" "$want")" "--policy fcfs $opts: '$got', expected '$want'"
done <<'CASES'
whole||all 4 4;
months_2_3|--months 2-3|months=2-3 2 3;
months_2|--months 2-2|months=2-2 1 2;
from_to_seconds|--from 2678400 --to 5184000|from=2678400;to=5184000 1 2;
from_date|--from 2024-03-01|from=2024-03-01 2 1;
to_seconds|--to 2678400|to=2678400 1 1;
by_month|--by-month|2024-01 1 1;2024-02 1 2;2024-03 1 1;2024-04 1 0;
by_month_in_slice|--by-month --months 2-3|2024-02 1 2;2024-03 1 1;
CASES
# The table's header names the slice and its skipped count; JSON's top-level count and period agree;
# the hash line keeps four words (its readers take the fourth).
head=$("$R" --policy fcfs --months 2-3 "$SL" 2>/dev/null | head -1)
result slice_table_header "$([[ "$head" == *"slice months=2-3 (2024-02 to 2024-03, trace seconds 2678400 to 7862400); 3 jobs skipped"* ]] && echo 0 || echo 1)" "header '$head'"
got=$("$R" --policy fcfs --months 2-3 --format json "$SL" 2>/dev/null | jq -rc '[.skipped, .runs[0].period, .runs[0].skipped, .run.from, .run.to] | map(tojson) | join(" ")')
result slice_json "$(same "$got" '3 "months=2-3" 3 2678400 7862400')" "skipped, period, row skipped, from, to: '$got'"
got=$("$R" --policy fcfs --from '2024-02-01T00:00' --to 5184000 --hash "$SL" 2>/dev/null | awk '$1 == "hash" { print NF, $3 }')
result slice_hash_line_four_words "$(same "$got" "4 from=2024-02-01T00:00;to=5184000")" "hash line: '$got'"
"$R" --policy fcfs --months 2-2 --jobs-out "$tmp/sl.swf" "$SL" >/dev/null 2>&1
result slice_jobs_out_note "$(grep -q '2 jobs skipped by the' "$tmp/sl.swf" && echo 0 || echo 1)" "$(grep 'skipped by' "$tmp/sl.swf")"

# --jobs-out is valid SWF with every replayed job, which the replayer itself can read back.
"$R" --policy cons --jobs-out "$tmp/sched.swf" "$KTH" >/dev/null
n=$(grep -vc '^;' "$tmp/sched.swf")
"$R" --policy fcfs "$tmp/sched.swf" >"$tmp/again" 2>&1
result jobs_out_is_swf "$([ "$n" = "$all" ] && grep -q '^jobs ' "$tmp/again" && echo 0 || echo 1)" "$n job lines, expected $all"

# --capacity: arrivals beyond the core's capacity are refused and counted, never lost silently.
"$R" --policy fcfs --capacity 50 "$KTH" >"$tmp/cap"
refused=$(awk '/^refused / {print $2}' "$tmp/cap")
ran=$(awk '/^jobs / {print $2}' "$tmp/cap")
result capacity_refusals_counted "$([ "$refused" -gt 0 ] && [ $((refused + ran)) = "$all" ] && echo 0 || echo 1)" \
	"refused $refused + ran $ran != $all"

# Two runs give the same bytes.
"$R" --policy easy,cons --format csv "$KTH" >"$tmp/r1"
"$R" --policy easy,cons --format csv "$KTH" >"$tmp/r2"
cmp -s "$tmp/r1" "$tmp/r2"
result deterministic $? "two runs differ"

# Self-describing output: the JSON parses (jq, an independent parser; tests/ensure-deps.sh installs
# it), and its "run" object carries the options given, the defaults of the others, the trace's
# checksum and the version, typed: numbers as numbers, on/off as booleans, what is absent as null,
# lists as arrays. Two runs that differ in one option differ in exactly that field (and, in the
# CSV, in that run_ column).
R120s=tests/data/rand120.swf
# 64-bit FNV-1a of a file's bytes, in bash's wrapping 64-bit arithmetic (not the program's code).
fnv1a64() {
	local h=$((0xcbf29ce484222325)) b
	for b in $(od -An -v -tu1 "$1"); do
		h=$(((h ^ b) * 0x100000001b3))
	done
	printf '%016x\n' "$h"
}
"$R" --policy easy,slack --heuristic ast,aat --shrink 0.8 --estimates f=2 --seed 7 --format json "$R120s" >"$tmp/sd1.json"
"$R" --policy easy,slack --heuristic ast,aat --shrink 0.8 --estimates f=2 --seed 8 --format json "$R120s" >"$tmp/sd2.json"
jq empty "$tmp/sd1.json" 2>"$tmp/jq.err"
result json_parses $? "jq rejects the JSON: $(head -1 "$tmp/jq.err")"
got=$(jq -rc '.run | [.policy, .["slack.heuristic"], .shrink, .estimates, .seed, .capacity, .procs, .trace,
	.trace_bytes, .trace_fnv1a64, (.version != "")] | map(tojson) | join(" ")' "$tmp/sd1.json")
want="[\"easy\",\"slack-ast\",\"slack-aat\"] [\"ast\",\"aat\"] 0.8 \"f=2\" 7 null 32 \"rand120.swf\" $(wc -c <"$R120s") \"$(fnv1a64 "$R120s")\" true"
result json_run_options "$(same "$got" "$want")" "run object '$got', expected '$want'"
# Every value's JSON type, worked out from docs/replay.md's table (slack's parameters: numbers but
# the choices heuristic, early-end and removal-ties).
got=$(jq -r '.run | to_entries | map("\(.key):\(.value | type)") | join(" ")' "$tmp/sd1.json")
want="version:string trace:string trace_bytes:number trace_fnv1a64:string procs:number policy:array"
want="$want slack.sf:number slack.awt:number slack.alpha-u:number slack.alpha-t:number slack.alpha-p:number"
want="$want slack.alpha-f:number slack.heuristic:array slack.early-end:string slack.removal-ties:string"
want="$want capacity:null scratch:null hi_pri_every:number hi_pri_gap:number site:null partition:null"
want="$want months:null from_arg:null to_arg:null from:null to:null by_month:boolean shrink:number node_size:number"
want="$want estimates:string seed:number check:boolean stats_as:array"
result json_run_types "$(same "$got" "$want")" "types '$got', expected '$want'"
"$R" --policy cons --capacity 40 --scratch 30 --check --by-month --months 1-1 --format json "$R120s" >"$tmp/sd3.json" 2>/dev/null
got=$(jq -rc '.run | [.capacity, .scratch, .check, .by_month, .months, .from_arg] | map(tojson) | join(" ")' "$tmp/sd3.json")
result json_run_given_values_typed "$(same "$got" '40 30 true true "1-1" null')" "capacity, scratch, check, by_month, months, from_arg: '$got'"
diff=$(jq -rn --slurpfile a "$tmp/sd1.json" --slurpfile b "$tmp/sd2.json" \
	'[($a[0].run | keys[]) as $k | select($a[0].run[$k] != $b[0].run[$k]) | $k] | join(" ")')
result json_run_one_option_one_field "$(same "$diff" seed)" "differing fields: '$diff', expected seed"
# Counts and whole seconds are integers in the JSON and the CSV (no ".000"); averages keep their
# decimals. The integer keys are those the table prints without decimals (docs/replay.md).
ints="jobs skipped refused refused_room refused_limit killed backfilled peak_jobs max_wait min_wait total_run"
ints="$ints max_run min_run jobs_1_32 jobs_33_64 jobs_65_120 jobs_121_up makespan"
# The JSON's text as printed (jq would read 120.000 as 120): each integer key's value is digits alone.
bad=$(for k in $ints; do grep -o "\"$k\": [^,}]*" "$tmp/sd1.json" | grep -vE ': [0-9]+$'; done | sort -u | tr '\n' ' ')
dec=$(jq -r '.runs[0] | [.avg_wait, .ef, .utilization_pct] | map(tostring | test("\\.")) | all' "$tmp/sd1.json")
result json_counts_are_integers "$([ -z "$bad" ] && [ "$dec" = true ] && echo 0 || echo 1)" "not integers: '$bad'; averages with decimals: $dec"
"$R" --policy easy,slack --heuristic ast,aat --format csv "$R120s" >"$tmp/int.csv"
bad=$(awk -F, -v ints="$ints relaxed_starts scratch_fallbacks limit_holds" 'NR == 1 { n = split(ints, k, " "); for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ for (i = 1; i <= n; i++) if (!(k[i] in c) || $c[k[i]] !~ /^[0-9]+$/) print k[i] "=" $c[k[i]] }' "$tmp/int.csv" | sort -u | tr '\n' ' ')
result csv_counts_are_integers "$([ -z "$bad" ] && grep -q ',avg_wait,' "$tmp/int.csv" && echo 0 || echo 1)" "not integers: '$bad'"
"$R" --policy cons --capacity 50 --format csv "$R120s" >"$tmp/sd1.csv"
"$R" --policy cons --capacity 60 --format csv "$R120s" >"$tmp/sd2.csv"
cols=$(paste -d'\t' <(head -1 "$tmp/sd1.csv" | tr , '\n') <(sed -n 2p "$tmp/sd1.csv" | tr , '\n') \
	<(sed -n 2p "$tmp/sd2.csv" | tr , '\n') | awk -F'\t' '$1 ~ /^run_/ && $2 != $3 { printf "%s ", $1 }')
result csv_run_one_option_one_column "$(same "$cols" "run_capacity ")" "differing run_ columns: '$cols'"

# Every policy of the registry, taken from --help (so a new policy is tested without editing this
# file): it replays the random 120-job trace with the core's checker on, every job accounted for.
policies=$("$R" --help | awk '/^Policies \(/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
for pol in $policies; do
	procs=()
	[ "$pol" = gang ] && procs=(--procs 64)
	"$R" --policy "$pol" "${procs[@]}" --check tests/data/rand120.swf >"$tmp/pol_$pol" 2>&1
	st=$?
	ran=$(awk '/^jobs / {print $2; exit}' "$tmp/pol_$pol")
	result "registry_policy_$pol" "$([ $st -eq 0 ] && [ -n "$ran" ] && [ "$ran" -gt 0 ] && echo 0 || echo 1)" \
		"exit $st, jobs '$ran': $(head -2 "$tmp/pol_$pol" | tr '\n' ' ')"
done
result registry_lists_policies "$([ "$(echo $policies | wc -w)" -ge 11 ] && echo 0 || echo 1)" "policies: $policies"

# Relaxed backfilling: a job the trial does not delay never vetoes it (policy_relaxed.c, within()).
# Worked by hand: job 2 (user 1) is held to 1000 by the per-user limit, past its guarantee 0 + 10 s;
# job 4 fits on the 5 idle processors at 2 and delays only job 3, from 1000 to 1007, within T = 10 s.
for scope in all arrival; do
	"$R" --policy relaxed --relaxed-scope "$scope" --site tests/data/relaxed_veto.site --tolerance 10 \
		--events-out "$tmp/veto.ev" tests/data/relaxed_veto.swf >/dev/null 2>"$tmp/veto.err"
	got=$(awk '$2 == "start" { printf "%s:%s ", $3, $1 }' "$tmp/veto.ev")
	result "relaxed_undelayed_job_no_veto_$scope" "$([ "$got" = "1:0 4:2 2:1000 3:1007 " ] && echo 0 || echo 1)" \
		"starts (job:time) $got$(head -1 "$tmp/veto.err")"
done

# make help is read from the Makefile's "## text" comments, so it cannot go stale; this checks
# every .PHONY target has one (a new target without it would be missing from make help).
make -s --no-print-directory help >"$tmp/mh" 2>&1
missing=""
phony=$(sed -n '/^\.PHONY:/,/[^\\]$/p' Makefile | tr -d '\\' | sed 's/^\.PHONY://')
for t in $phony; do
	grep -q "^  $t " "$tmp/mh" || missing="$missing $t"
done
result make_help_lists_every_target "$([ -z "$missing" ] && [ "$(echo $phony | wc -w)" -gt 20 ] && echo 0 || echo 1)" \
	"no '## text' on:$missing"

# Progress (common/progress.h): --progress into a pipe prints newline-ended lines on stderr whose last
# counts every job of every column once (here refused ones too: --capacity 5); without it, nothing.
R120=tests/data/rand120.swf
"$R" --policy fcfs,easy --capacity 5 --format csv --progress "$R120" >"$tmp/pr.out" 2>"$tmp/pr.err"
st=$?
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { s += $c["jobs"] + $c["refused"] } END { print s }' "$tmp/pr.out")
last=$(tail -1 "$tmp/pr.err")
refused=$(awk -F, 'NR == 2 { print $7 }' "$tmp/pr.out")
result progress_pipe_final_total "$([ $st -eq 0 ] && [ "$want" = 240 ] && [ "${refused%.*}" -gt 0 ] &&
	[[ "$last" =~ ^replay:\ $want/$want\ jobs\ \(100%\),\ [0-9]+\ jobs/s,\ [0-9.]+\ s$ ]] &&
	! grep -q $'\r' "$tmp/pr.err" && echo 0 || echo 1)" "exit $st, want $want (refused $refused), last line '$last'"
"$R" --policy fcfs,easy --capacity 5 --format csv "$R120" >"$tmp/np.out" 2>"$tmp/np.err"
result progress_silent_in_pipe "$([ ! -s "$tmp/np.err" ] && echo 0 || echo 1)" "stderr: $(head -c 200 "$tmp/np.err")"
cmp -s "$tmp/pr.out" "$tmp/np.out"
result progress_report_unchanged $? "the CSV differs with --progress"
"$R" --policy easy --progress "$R120" >"$tmp/pt.out" 2>/dev/null
"$R" --policy easy "$R120" >"$tmp/nt.out" 2>/dev/null
cmp -s "$tmp/pt.out" "$tmp/nt.out"
result progress_table_unchanged $? "the table differs with --progress"
# Gang scheduling counts through the same hook (each job as it ends).
"$R" --policy gang --procs 64 --progress "$R120" 2>"$tmp/pg.err" >/dev/null
result progress_gang "$(tail -1 "$tmp/pg.err" | grep -q '^replay: 120/120 jobs (100%)' && echo 0 || echo 1)" \
	"last line '$(tail -1 "$tmp/pg.err")'"
# Of --quiet and --progress the last wins (docs/replay.md).
"$R" --policy easy --quiet --progress "$R120" 2>"$tmp/qp.err" >/dev/null
"$R" --policy easy --progress --quiet "$R120" 2>"$tmp/pq.err" >/dev/null
result progress_last_wins "$(grep -q '^replay: 120/120 jobs' "$tmp/qp.err" && [ ! -s "$tmp/pq.err" ] && echo 0 || echo 1)" \
	"--quiet --progress: '$(tail -1 "$tmp/qp.err")'; --progress --quiet: '$(head -1 "$tmp/pq.err")'"
# On a terminal (script(1) gives one): a run shorter than a second stays silent, --progress ends
# with its last line, --quiet prints nothing. (A longer run's rewritten line costs seconds: not here.)
if command -v script >/dev/null 2>&1; then
	script -qc "$R --policy easy $R120 2>&1 >/dev/null" /dev/null </dev/null >"$tmp/tty.auto"
	script -qc "$R --policy easy --progress $R120 2>&1 >/dev/null" /dev/null </dev/null >"$tmp/tty.on"
	script -qc "$R --policy easy --quiet $R120 2>&1 >/dev/null" /dev/null </dev/null >"$tmp/tty.q"
	result progress_terminal "$([ ! -s "$tmp/tty.auto" ] && [ ! -s "$tmp/tty.q" ] &&
		tr -d '\r' <"$tmp/tty.on" | grep -Eq '^replay: 120/120 jobs \(100%\), [0-9]+ jobs/s, [0-9.]+ s$' &&
		echo 0 || echo 1)" "auto '$(head -c 100 "$tmp/tty.auto")', forced '$(head -c 100 "$tmp/tty.on")'"
else
	echo "note: cli.progress_terminal skipped: script (util-linux) is not installed"
fi

# Pictures (--gantt, --timeline, --timeline-svg) of the random 120-job trace under EASY: valid XML, one
# job group per job that ran, and a timeline that the schedule written by --jobs-out recomputes.
"$R" --policy easy --gantt "$tmp/g.svg" --timeline "$tmp/t.csv" --timeline-svg "$tmp/t.svg" \
	--jobs-out "$tmp/g.swf" tests/data/rand120.swf >/dev/null 2>"$tmp/g.err"
result pictures_written "$([ $? -eq 0 ] && [ -s "$tmp/g.svg" ] && [ -s "$tmp/t.csv" ] && [ -s "$tmp/t.svg" ] && echo 0 || echo 1)" \
	"$(head -1 "$tmp/g.err")"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$tmp/g.svg" "$tmp/t.svg" 2>"$tmp/xml.err"
	result pictures_svg_well_formed $? "$(head -2 "$tmp/xml.err" | tr '\n' ' ')"
else
	echo "NOTE cli.pictures_svg_well_formed not checked: xmllint missing (Debian package libxml2-utils)"
fi
ran=$(grep -vc '^;' "$tmp/g.swf")
groups=$(grep -c 'class="job"' "$tmp/g.svg")
result gantt_one_group_per_job "$([ "$ran" -gt 100 ] && [ "$groups" = "$ran" ] && echo 0 || echo 1)" "$groups groups, $ran jobs ran"
# Every timeline row against a recomputation from --jobs-out (start = submit + wait, end = start + run).
bad=$(awk -F, -v procs=32 'NR == FNR { if ($0 !~ /^;/) { split($0, f, " "); n++; sub_[n] = f[2];
		st[n] = f[2] + f[3]; en[n] = st[n] + f[4]; p[n] = f[5] } next }
	FNR == 1 { if ($0 != "time,busy_procs,queued_jobs,running_jobs") print "header " $0; next }
	{ rows++; busy = 0; q = 0; run = 0
	  for (i = 1; i <= n; i++) { if (st[i] <= $1 && $1 < en[i]) { busy += p[i]; run++ }
				    if (sub_[i] <= $1 && $1 < st[i]) q++ }
	  if ($2 > procs || $2 != busy || $3 != q || $4 != run) print "at " $1 ": " $2 "," $3 "," $4 " recomputed " busy "," q "," run }
	END { if (rows < 100) print "only " rows " rows" }' "$tmp/g.swf" "$tmp/t.csv" | head -3)
result timeline_matches_schedule "$([ -z "$bad" ] && echo 0 || echo 1)" "$bad"
# A zoomed window draws only the jobs it shows.
"$R" --policy easy --gantt "$tmp/z.svg" --gantt-from 0 --gantt-to 1h tests/data/rand120.swf >/dev/null
zoomed=$(grep -c 'class="job"' "$tmp/z.svg")
result gantt_window_zooms "$([ "$zoomed" -gt 0 ] && [ "$zoomed" -lt "$ran" ] && echo 0 || echo 1)" "$zoomed of $ran jobs in the first hour"

# Every time option takes the same forms: seconds, a duration, a local date (slice_skips.swf is UTC
# from 2024-01-01, so 31 days is 2024-02-01, trace second 2678400: its header's comments).
got=""
for t in 2678400 31d 2024-02-01 "2024-02-01 00:00" 2024-02-01T00:00:00; do
	got="$got $("$R" --policy fcfs --from "$t" --format json "$SL" | jq -c '.run.from')"
done
result time_forms_agree "$(same "$got" " 2678400 2678400 2678400 2678400 2678400")" "--from as seconds, 31d and dates: $got"
expect_error bad_time_day 2 "^replay: --gantt-from takes seconds \(90\), a duration \(90s, 30m, 2h, 1d\) or a local date YYYY-MM-DD\[THH:MM\[:SS\]\]: 2024-02-30" -- --policy fcfs --gantt "$tmp/g.svg" --gantt-from 2024-02-30 "$SL"
expect_error bad_time_unit 2 "^replay: --from takes seconds .*: 5x" -- --policy fcfs --from 5x "$SL"
expect_error gantt_date_needs_start_time 1 "needs UnixStartTime" -- --policy fcfs --procs 4 --gantt "$tmp/g.svg" --gantt-from 2024-01-01 "$tmp/nosize.swf"
expect_error gantt_date_not_under_shrink 2 "^replay: --gantt-to: a date does not apply under --shrink" -- --policy fcfs --shrink 0.5 --gantt "$tmp/g.svg" --gantt-to 2024-03-01 "$SL"
expect_error gantt_window_before_schedule 2 "^replay: --gantt-to 2023-12-31 \(simulated second -86400\) is at or before the first submit" -- --policy fcfs --timeline-svg "$tmp/g.svg" --gantt-to 2023-12-31 "$SL"
expect_error gantt_window_order_dates 2 "gantt-from must be before --gantt-to: 2024-02-01 is simulated second 2678400, 1d second 86400" -- --policy fcfs --gantt "$tmp/g.svg" --gantt-from 2024-02-01 --gantt-to 1d "$SL"
# A window after the last end: a warning, and pictures that say they draw nothing.
"$R" --policy fcfs --gantt "$tmp/e.svg" --timeline-svg "$tmp/et.svg" --gantt-from 2025-01-01 "$SL" >"$tmp/e.out" 2>"$tmp/e.err"
st=$?
result gantt_window_after_schedule "$([ $st -eq 0 ] && grep -q 'is at or after the schedule.s last end' "$tmp/e.err" &&
	grep -q 'class="empty"' "$tmp/e.svg" && grep -q 'class="empty"' "$tmp/et.svg" && [ "$(grep -c 'class="job"' "$tmp/e.svg")" = 0 ] &&
	echo 0 || echo 1)" "exit $st: $(head -1 "$tmp/e.err")"

# The timeline drawn: each pixel column's time-weighted mean, least and largest value, recomputed by
# tests/cli/pictures_check.py from the exact CSV (Python's csv module, brute force), over the whole
# schedule and over a window; the columns' mean busy over the whole span is the report's utilization.
if command -v python3 >/dev/null 2>&1 && python3 -c 'import zoneinfo; zoneinfo.ZoneInfo("Europe/Stockholm")' 2>/dev/null; then
	CHECK="python3 tests/cli/pictures_check.py"
	bad=$($CHECK columns "$tmp/t.csv" "$tmp/t.svg" 2>&1)
	result timeline_svg_columns "$([ -z "$bad" ] && echo 0 || echo 1)" "$(echo "$bad" | head -2 | tr '\n' ' ')"
	util=$("$R" --policy easy --format csv tests/data/rand120.swf | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["utilization_pct"] }')
	mean=$(grep -o '<path id="busy-mean"[^>]*d="[^"]*"' "$tmp/t.svg" | grep -o 'L[0-9]* [0-9.]*' |
		awk 'NR % 2 == 1 && NR < 2800 { s += (56 + 420 - $2) / 420; n++ } END { printf "%.2f", 100 * s / n }')
	result timeline_mean_is_utilization "$(awk -v a="$util" -v b="$mean" 'BEGIN { d = a - b; print (d < 0 ? -d : d) < 0.05 ? 0 : 1 }')" \
		"columns' mean busy $mean%, report's utilization $util%"
	# A window zooms the timeline, not the replay: the same schedule (hash), the CSV cut to the window
	# (the state at its start, then the rows inside it), the SVG's columns recomputed over the window.
	"$R" --policy easy --hash --timeline "$tmp/w.csv" --timeline-svg "$tmp/w.svg" --gantt-from 1h --gantt-to "1996-09-23 16:00" \
		tests/data/rand120.swf >"$tmp/w.out"
	"$R" --policy easy --hash tests/data/rand120.swf >"$tmp/nw.out"
	result window_same_replay "$([ "$(grep '^hash' "$tmp/w.out")" = "$(grep '^hash' "$tmp/nw.out")" ] && echo 0 || echo 1)" "hash lines differ"
	to=$(( $(TZ=Europe/Stockholm date -d '1996-09-23 16:00' +%s) - 843480031 ))
	want=$(awk -F, -v from=3600 -v to="$to" 'NR == 1 { print; next } $1 <= from { last = $0; next }
		$1 < to { if (last != "") { sub(/^[0-9]+/, from, last); print last; last = "" } print }' "$tmp/t.csv")
	result timeline_window_csv "$([ "$want" = "$(cat "$tmp/w.csv")" ] && echo 0 || echo 1)" \
		"window 3600..$to: $(diff <(echo "$want") "$tmp/w.csv" | head -3 | tr '\n' ' ')"
	got=$($CHECK window "$tmp/w.svg")
	bad=$($CHECK columns "$tmp/t.csv" "$tmp/w.svg" 2>&1)
	result timeline_svg_window_columns "$([ "$got" = "3600 $to" ] && [ -z "$bad" ] && echo 0 || echo 1)" \
		"window '$got', want '3600 $to'; $(echo "$bad" | head -2 | tr '\n' ' ')"
	# Calendar axes across the end of summer time (Europe/Stockholm, 1996-10-27 03:00 CEST = 02:00 CET):
	# a job every 3 hours for 10 days from 1996-10-20 00:00 local; ticks placed by Python's zoneinfo.
	{
		printf '; UnixStartTime: 845762400\n; TimeZoneString: Europe/Stockholm\n; MaxProcs: 4\n'
		for i in $(seq 1 80); do printf '%d %d 0 7200 2 -1 -1 2 7200 -1 1 1 1 -1 1 -1 -1 -1\n' "$i" $(( (i - 1) * 10800 )); done
	} >"$tmp/dst.swf"
	"$R" --policy fcfs --gantt "$tmp/dst.svg" --timeline-svg "$tmp/dstt.svg" --gantt-from 1996-10-26 --gantt-to 1996-10-28 \
		"$tmp/dst.swf" >/dev/null
	from=$(( $(TZ=Europe/Stockholm date -d '1996-10-26 00:00' +%s) - 845762400 ))
	to=$(( $(TZ=Europe/Stockholm date -d '1996-10-28 00:00' +%s) - 845762400 ))
	got=$($CHECK window "$tmp/dst.svg")
	bad="$($CHECK ticks "$tmp/dst.svg" 845762400 Europe/Stockholm)$($CHECK ticks "$tmp/dstt.svg" 845762400 Europe/Stockholm)"
	result calendar_axis_dst "$([ "$got" = "$from $to" ] && [ -z "$bad" ] && grep -q '>local time, Europe/Stockholm' "$tmp/dst.svg" &&
		echo 0 || echo 1)" "window '$got', want '$from $to'; $(echo "$bad" | head -2 | tr '\n' ' ')"
	bad=$($CHECK ticks "$tmp/t.svg" 843480031 Europe/Stockholm)
	result calendar_axis_whole "$([ -z "$bad" ] && echo 0 || echo 1)" "$(echo "$bad" | head -2 | tr '\n' ' ')"
else
	echo "note: cli.timeline_svg_* and cli.calendar_axis_* not run: python3 with zoneinfo and the tz database (Debian tzdata) needed"
fi

# Gang scheduling's timeline (time sharing: one more column, the slots in use). The random 120-job
# trace on 64 processors: busy, queued and running recomputed from --jobs-out (field 3 the time to
# the first quantum, 4 from then to the end); no bound of the machine on busy (a job per slot).
"$R" --policy gang --procs 64 --format csv --timeline "$tmp/gt.csv" --timeline-svg "$tmp/gt.svg" \
	--jobs-out "$tmp/gt.swf" --events-out "$tmp/gt.ev" --events-plans tests/data/rand120.swf >"$tmp/gt.out" 2>"$tmp/gt.err"
st=$?
bad=$(awk -F, 'NR == FNR { if ($0 !~ /^;/) { split($0, f, " "); n++; sub_[n] = f[2];
		st[n] = f[2] + f[3]; en[n] = st[n] + f[4]; p[n] = f[5] } next }
	FNR == 1 { if ($0 != "time,busy_procs,queued_jobs,running_jobs,slots") print "header " $0; next }
	{ rows++; busy = 0; q = 0; run = 0
	  for (i = 1; i <= n; i++) { if (st[i] <= $1 && $1 < en[i]) { busy += p[i]; run++ }
				    if (sub_[i] <= $1 && $1 < st[i]) q++ }
	  if ($2 != busy || $3 != q || $4 != run) print "at " $1 ": " $2 "," $3 "," $4 " recomputed " busy "," q "," run }
	END { if (rows < 100) print "only " rows " rows" }' "$tmp/gt.swf" "$tmp/gt.csv" | head -3)
result timeline_gang_matches_schedule "$([ $st -eq 0 ] && [ -z "$bad" ] && echo 0 || echo 1)" "exit $st: $bad$(head -1 "$tmp/gt.err")"
# Slots: a quantum (5 s, from the first arrival's boundary) runs a slot (a `switch` line of
# --events-plans) exactly when the timeline has a slot in use; the time-weighted mean and the most
# slots are the report's n_a and n_l (gang_avg_slots, gang_max_slots: Zhou, Walsh and Brent 2000 s. 4.3).
bad=$(awk -F, -v q=5 'NR == FNR { if ($2 == "switch") sw[$1] = 1; next }
	FNR == 1 { next }
	{ if (FNR > 2) { for (b = t + (q - t % q) % q; b < $1; b += q) if ((b in sw) != (k > 0)) { print "quantum " b ": slots " k ", switch " (b in sw) + 0; exit }
			 sum += k * ($1 - t) }
	  if (FNR == 2) first = $1 - $1 % q
	  t = $1; k = $5; if (k > max) max = k }
	END { printf "%.4f %d\n", sum / (t - first), max }' FS=' ' "$tmp/gt.ev" FS=, "$tmp/gt.csv")
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { printf "%.4f %d\n", $c["gang_avg_slots"], $c["gang_max_slots"] }' "$tmp/gt.out")
result timeline_gang_slots "$([ -n "$want" ] && [ "$bad" = "$want" ] && echo 0 || echo 1)" "timeline '$bad', report n_a n_l '$want'"
xmllint --noout "$tmp/gt.svg" 2>"$tmp/xml.err" && grep -q '>slots in use<' "$tmp/gt.svg"
result timeline_gang_svg "$?" "$(head -2 "$tmp/xml.err" | tr '\n' ' ')"
# An idle gap, worked by hand (docs/gang.md): job 1 (4 of 8 processors, 20 s = 4 quanta) at 0, job 2
# (2 processors, 10 s) at 100. BR deletes the emptied slot (0 slots from 20 to 100); BC keeps its last.
printf '; MaxProcs: 8\n1 0 0 20 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n2 100 0 10 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n' >"$tmp/gap.swf"
for sc in br:0 bc:1; do
	"$R" --policy gang --scheme "${sc%:*}" --timeline "$tmp/gap.csv" "$tmp/gap.swf" >/dev/null 2>&1
	k=${sc#*:}
	want="time,busy_procs,queued_jobs,running_jobs,slots 0,4,0,1,1 20,0,0,0,$k 100,2,0,1,1 110,0,0,0,$k"
	got=$(tr '\n' ' ' <"$tmp/gap.csv")
	result "timeline_gang_idle_gap_${sc%:*}" "$([ "$got" = "$want " ] && echo 0 || echo 1)" "got '$got'"
done
# Quanta in which nothing changes run in one step (issue 25, docs/gang.md) unless --events-plans
# asks for every quantum's switch list: the same report, timeline and events, but the switch lines.
"$R" --policy gang --procs 64 --format csv --timeline "$tmp/gs.csv" --jobs-out "$tmp/gs.swf" \
	--events-out "$tmp/gs.ev" tests/data/rand120.swf >"$tmp/gs.out" 2>"$tmp/gs.err"
st=$?
grep -v ' switch ' "$tmp/gt.ev" >"$tmp/gt.noswitch"
result gang_skip_changes_no_output "$([ $st -eq 0 ] && cmp -s "$tmp/gs.csv" "$tmp/gt.csv" && cmp -s "$tmp/gs.swf" "$tmp/gt.swf" &&
	cmp -s "$tmp/gs.ev" "$tmp/gt.noswitch" && cmp -s "$tmp/gs.out" "$tmp/gt.out" && echo 0 || echo 1)" "exit $st, or an output differs"
# Three jobs of 2^31 s sharing a slot at a 1 s quantum: 2^31 quanta, a minute of ticks (hours under
# the sanitizers) before issue 25; 9 lines of events, ending at 2^31 - 1.
timeout 20 "$R" --policy gang --quantum 1 --events-out "$tmp/long.ev" tests/data/gang_long.swf >/dev/null 2>"$tmp/long.err"
st=$?
got=$(awk '$2 == "end" { e = e $1 " " }  END { print NR, e }' "$tmp/long.ev" 2>/dev/null)
result gang_quiet_quanta_in_one_step "$([ $st -eq 0 ] && [ "$got" = "9 2147483647 2147483647 2147483647 " ] && echo 0 || echo 1)" \
	"exit $st, events '$got' $(head -1 "$tmp/long.err")"
