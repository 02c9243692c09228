#!/usr/bin/env bash
# Fixtures and trace tools: round trips, identical replays, the corrupt
# corpus, fixinfo's Table 2, wlgen's models and the replayer's knobs.
# Prints TEST lines.
set -u
B=${BUILD:-build}/san
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
result() {
	if [ "$2" -eq 0 ]; then echo "TEST fixtures.$1 PASS"; else echo "TEST fixtures.$1 FAIL $3"; fi
}
ok() { [ "$@" ] && echo 0 || echo 1; }
kept() { grep -v '^;' | awk '{print $1, $2, $4, $5, $8, $9, $11, $12, $13, $15, $16}'; }

traces="KTH-SP2-1996-2.1-cln CTC-SP2-1996-3.1-cln SDSC-SP2-1998-4.2-cln SDSC-Par-1996-3.1-cln lublin_256"

# 1. SWF -> fixture -> SWF keeps every kept field of every job, for every trace.
for t in $traces; do
	"$B/swf2fix" "fixtures/$t.swf.gz" "$tmp/$t.fix" 2>"$tmp/log" &&
		"$B/fix2swf" "$tmp/$t.fix" "$tmp/$t.swf" 2>>"$tmp/log"
	zcat "fixtures/$t.swf.gz" | kept >"$tmp/a"
	kept <"$tmp/$t.swf" >"$tmp/b"
	n=$(wc -l <"$tmp/a")
	cmp -s "$tmp/a" "$tmp/b"
	result "round_trip_$t" $? "kept fields differ: $(diff "$tmp/a" "$tmp/b" | head -2 | tr '\n' ' ') $(tail -1 "$tmp/log")"
	# 2. The committed fixture is what the tools make from its source today.
	cmp -s "$tmp/$t.fix" "fixtures/$t.fix"
	result "committed_fixture_current_$t" $? "fixtures/$t.fix differs from a fresh swf2fix (run make fixtures)"
	# 3. Bytes per job, recorded in fixtures/README.md, and the format's target for KTH.
	bytes=$(wc -c <"fixtures/$t.fix")
	bpj=$(awk -v b="$bytes" -v n="$n" 'BEGIN { printf "%.2f", b / n }')
	grep -q "| \`$t.fix\` .*| $bpj |" fixtures/README.md
	result "readme_lists_bytes_per_job_$t" $? "fixtures/README.md does not give $bpj bytes per job for $t.fix"
done
bpj=$(awk -v b="$(wc -c <fixtures/KTH-SP2-1996-2.1-cln.fix)" -v n=28476 'BEGIN { print (b / n <= 8) ? 0 : 1 }')
result kth_at_most_8_bytes_per_job "$bpj" "KTH fixture above 8 bytes per job"
"$B/swf2fix" tests/data/peek.swf "$tmp/peek.fix" 2>/dev/null
cmp -s "$tmp/peek.fix" fixtures/peek.fix
result committed_fixture_current_peek $? "fixtures/peek.fix is stale"

# A report CSV without its run_trace* columns (the trace's name, size and checksum).
no_trace_cols() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) skip[i] = $i ~ /^run_trace/ }
		{ o = ""; for (i = 1; i <= NF; i++) if (!skip[i]) o = o (o == "" ? "" : ",") $i; print o }'
}

# 4. Replaying the fixture and its SWF source gives identical schedules.
for pol in fcfs easy cons; do
	"$B/replay" --policy $pol --events-out "$tmp/ev_swf" --format csv fixtures/KTH-SP2-1996-2.1-cln.swf.gz >"$tmp/m_swf"
	"$B/replay" --policy $pol --events-out "$tmp/ev_fix" --format csv fixtures/KTH-SP2-1996-2.1-cln.fix >"$tmp/m_fix"
	# The reports differ only in the trace's name, size and checksum (run_trace*): compared without them.
	cmp -s "$tmp/ev_swf" "$tmp/ev_fix" && cmp -s <(cut -d, -f2- "$tmp/m_swf" | no_trace_cols) <(cut -d, -f2- "$tmp/m_fix" | no_trace_cols)
	result "fixture_and_swf_replay_identically_$pol" $? "schedules differ"
done

# 5. Each corrupt file gets its own error, from fix2swf and from the replayer alike.
while IFS=$'\t' read -r file want; do
	case "$file" in '#'* | '') continue ;; esac
	f=tests/data/corrupt/$file
	"$B/fix2swf" "$f" >/dev/null 2>"$tmp/err"
	st=$?
	if [ "$want" = OK ]; then
		result "corrupt_corpus_$file" $st "valid fixture rejected: $(cat "$tmp/err")"
		continue
	fi
	got=$(cat "$tmp/err")
	"$B/replay" --procs 32 "$f" >/dev/null 2>"$tmp/err2"
	st2=$?
	r=1
	if [ $st -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^fix2swf: $f: $want" "$tmp/err" &&
		{ [ "$file" = empty.fix ] || [ "$file" = bad_magic.fix ] || grep -q "^replay: $f: $want" "$tmp/err2"; } &&
		[ $st2 -eq 1 ]; then
		r=0
	fi
	result "corrupt_corpus_$file" $r "expected '$want', got '$got' / '$(cat "$tmp/err2")'"
done <tests/data/corrupt/expected.txt

# 6. fixinfo prints the Table 2 statistics (checked against values read off the traces by awk).
"$B/fixinfo" fixtures/KTH-SP2-1996-2.1-cln.fix fixtures/SDSC-SP2-1998-4.2-cln.fix fixtures/CTC-SP2-1996-3.1-cln.fix >"$tmp/info"
row() { awk -v k="$1" 'index($0, k) == 1 { $1 = ""; sub(/^ +/, ""); print }' "$tmp/info" | awk '{print $(NF-2), $(NF-1), $NF}'; }
want_jobs="28476 59715 77222"
for t in KTH-SP2-1996-2.1-cln SDSC-SP2-1998-4.2-cln CTC-SP2-1996-3.1-cln; do
	zcat "fixtures/$t.swf.gz" | awk '!/^;/ { w = $5 > 0 ? $5 : $8; if (w > mw) mw = w; if ($9 >= 0 && $4 >= 0 && $4 > $9) o++ } END { print mw, o + 0 }'
done >"$tmp/awk"
got_w=$(row "maximum job width" | tr ' ' '\n')
got_o=$(row "jobs with actual > estimated" | tr ' ' '\n')
paste -d' ' <(echo "$got_w") <(echo "$got_o") >"$tmp/got"
r=$(ok "$(row "number of jobs")" = "$want_jobs")
cmp -s "$tmp/awk" "$tmp/got" || r=1
for label in "width of machine" "average requested resources" "estimated runtime avg" "actual runtime max" \
	"interarrival time avg" "Weibull alpha"; do
	grep -q "^$label" "$tmp/info" || r=1
done
result fixinfo_table2 "$r" "fixinfo: $(head -3 "$tmp/info" | tr '\n' ' ') vs awk $(tr '\n' ' ' <"$tmp/awk")"

# 7. wlgen: same seed, same bytes; Downey's load is what was asked; the matrix model keeps the trace's character.
"$B/wlgen" --model downey --jobs 20000 --procs 128 --load 0.7 --seed 5 -o "$tmp/d1.swf"
"$B/wlgen" --model downey --jobs 20000 --procs 128 --load 0.7 --seed 5 -o "$tmp/d2.swf"
cmp -s "$tmp/d1.swf" "$tmp/d2.swf"
result wlgen_deterministic $? "two runs with one seed differ"
rho=$(awk '!/^;/ { p += $5; t += $4; n++; last = $2 } END { printf "%.3f", (n / last) * (p / n) * (t / n) / 128 }' "$tmp/d1.swf")
shape=$(awk '!/^;/ { if ($4 % 5 || $4 < 5 || $4 > 600 || $5 < 1 || $5 > 128) bad++ } END { print bad + 0 }' "$tmp/d1.swf")
result wlgen_downey_load "$(awk -v r="$rho" -v s="$shape" 'BEGIN { print (r > 0.665 && r < 0.735 && s == 0) ? 0 : 1 }')" \
	"measured load $rho for 0.7, $shape jobs outside 1-120 slots of 5 s or 1-128 processors"
# Power-of-two sizes: only powers of two, every exponent about equally often, and the same load.
"$B/wlgen" --model downey --jobs 20000 --procs 128 --load 0.7 --seed 5 --sizes pow2 -o "$tmp/p2.swf"
read -r rho bad spread < <(awk '!/^;/ { p += $5; t += $4; n++; last = $2; x = $5; while (x > 1 && x % 2 == 0) x /= 2; if (x != 1) bad++; c[$5]++ }
	END { lo = n; hi = 0; for (k = 1; k <= 128; k *= 2) { if (c[k] < lo) lo = c[k]; if (c[k] > hi) hi = c[k] }
	      printf "%.3f %d %.3f\n", (n / last) * (p / n) * (t / n) / 128, bad, hi / lo }' "$tmp/p2.swf")
result wlgen_downey_pow2 "$(awk -v r="$rho" -v b="$bad" -v s="$spread" 'BEGIN { print (r > 0.665 && r < 0.735 && b == 0 && s < 1.15) ? 0 : 1 }')" \
	"measured load $rho for 0.7, $bad sizes not a power of two, most/least common exponent $spread"
"$B/wlgen" --model downey --sizes square -o "$tmp/x.swf" >/dev/null 2>&1
result wlgen_bad_sizes "$(ok $? = 2)" "accepted --sizes square"
"$B/wlgen" --model matrix --from fixtures/KTH-SP2-1996-2.1-cln.fix --jobs 10000 --seed 2 -o "$tmp/m.fix"
"$B/fixinfo" --csv fixtures/KTH-SP2-1996-2.1-cln.fix "$tmp/m.fix" >"$tmp/mi"
close=$(awk -F, '
	/^average requested resources|^estimated runtime avg|^actual runtime avg|^interarrival time avg/ {
		d = ($3 - $2) / $2; if (d < 0) d = -d; if (d > 0.08) bad = bad " " $1 }
	/^  \(% of all jobs\)/ { d = $3 - $2; if (d < 0) d = -d; if (d > 1) bad = bad " killed%" }
	END { print bad == "" ? 0 : 1; print bad > "/dev/stderr" }' "$tmp/mi" 2>"$tmp/bad")
result wlgen_matrix_keeps_character "$close" "more than 8% off the source in:$(cat "$tmp/bad")"
# --weibull A,B replaces the fit: Streit 2002's CTC parameters 0.35,60 give positive gaps of mean
# 60 x Gamma(1 + 1/0.35) = 301.75 s (computed apart), times the share of positive gaps of the
# trace (0.99351 for CTC; fixinfo's 0 s share). 20,000 gaps: the mean's standard error is about 3%.
"$B/wlgen" --model matrix --from fixtures/CTC-SP2-1996-3.1-cln.fix --procs 430 --weibull 0.35,60 --jobs 20000 --seed 3 -o "$tmp/w.fix"
wg=$("$B/fixinfo" --csv "$tmp/w.fix" | awk -F, '/^interarrival time avg/ { print $2 } /^width of machine/ { w = $2 } END { if (w != 430) print "machine", w }')
result wlgen_weibull_given "$(awk -v g="$wg" 'BEGIN { e = 301.75 * 0.99351; d = (g - e) / e; print (d < 0.1 && d > -0.1) ? 0 : 1 }')" \
	"mean gap $wg s, expected 300 s within 10%"
"$B/wlgen" --model matrix --from fixtures/CTC-SP2-1996-3.1-cln.fix --weibull 0.35 -o "$tmp/x.fix" >/dev/null 2>&1
result wlgen_weibull_needs_both "$(ok $? = 2)" "accepted --weibull without a scale"

# 8. The knobs.
K=fixtures/KTH-SP2-1996-2.1-cln.fix
"$B/replay" --policy cons --estimates exact --format csv "$K" >"$tmp/exact"
killed=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "killed") c = i } NR == 2 { print $c + 0 }' "$tmp/exact")
result estimates_exact_never_kill "$(ok "$killed" = 0)" "$killed jobs killed with exact estimates"
"$B/replay" --policy easy --estimates f=4 --seed 9 --jobs-out "$tmp/f4.swf" "$K" >/dev/null
bad=$(grep -v '^;' "$tmp/f4.swf" | awk '{ r = $4; e = $9; if (e < r || e > 4 * (r > 0 ? r : 1) + 1) b++ } END { print b + 0 }')
result estimates_factor_range "$(ok "$bad" = 0)" "$bad estimates outside [r, 4r]"
"$B/replay" --policy easy --estimates f=4 --seed 9 --format csv "$K" >"$tmp/s9a"
"$B/replay" --policy easy --estimates f=4 --seed 10 --format csv "$K" >"$tmp/s10"
"$B/replay" --policy easy --estimates f=4 --seed 9 --format csv "$K" >"$tmp/s9b"
cmp -s "$tmp/s9a" "$tmp/s9b" && ! cmp -s "$tmp/s9a" "$tmp/s10"
result estimates_seeded $? "same seed should repeat, another seed should differ"
"$B/replay" --policy fcfs --shrink 0.5 --jobs-out "$tmp/sh.swf" "$K" >/dev/null
span=$(grep -v '^;' "$tmp/sh.swf" | awk 'NR == 1 { a = $2 } { b = $2 } END { print b - a }')
orig=$(zcat fixtures/KTH-SP2-1996-2.1-cln.swf.gz | awk '!/^;/ && $5 + $8 > 0 { if (!n++) a = $2; b = $2 } END { print b - a }')
result shrink_halves_interarrivals "$(awk -v s="$span" -v o="$orig" 'BEGIN { d = s - o / 2; print (d < 1 && d > -1) ? 0 : 1 }')" \
	"span $span vs half of $orig"
"$B/replay" --policy easy --months 2-2 --format csv "$K" | sed -n 2p | cut -d, -f5 >"$tmp/mo"
"$B/replay" --policy easy --by-month "$K" | awk '$1 == "1996-10" {print $2}' >"$tmp/bm"
"$B/replay" --policy easy --from 1996-10-01 --to 1996-11-01 --format csv "$K" | sed -n 2p | cut -d, -f5 >"$tmp/ft"
cmp -s "$tmp/mo" "$tmp/bm" && cmp -s "$tmp/mo" "$tmp/ft"
result months_and_dates_slice_alike $? "--months 2-2 $(cat "$tmp/mo"), --by-month $(cat "$tmp/bm"), --from/--to $(cat "$tmp/ft")"
"$B/replay" --months 0-3 "$K" >/dev/null 2>&1
result bad_months_rejected "$(ok $? = 2)" "--months 0-3 accepted"
"$B/replay" --estimates f=0.5 "$K" >/dev/null 2>&1
result bad_factor_rejected "$(ok $? = 2)" "--estimates f=0.5 accepted"

# 9. The tools' command lines: usage errors, help, and swf2fix's report of every bad line.
"$B/swf2fix" >/dev/null 2>&1
result swf2fix_usage "$(ok $? = 2)" "no arguments accepted"
printf '; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n2 5 x\n3 6 0 1 1\n4 7 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n' >"$tmp/bad.swf"
"$B/swf2fix" "$tmp/bad.swf" "$tmp/bad.fix" 2>"$tmp/err"
st=$?
result swf2fix_names_every_bad_line "$(ok $st = 1 -a ! -e "$tmp/bad.fix")" "exit $st: $(cat "$tmp/err")"
grep -q "bad.swf:3: field 3 is not a number; 1 more bad lines: 4" "$tmp/err"
result swf2fix_bad_line_message $? "got: $(cat "$tmp/err")"
"$B/fix2swf" "$tmp/nope.fix" >/dev/null 2>"$tmp/err"
result fix2swf_missing_file "$(ok $? = 1)" "$(cat "$tmp/err")"
"$B/fixinfo" "$tmp/nope.fix" >/dev/null 2>"$tmp/err"
result fixinfo_missing_file "$(ok $? = 1)" "$(cat "$tmp/err")"
# A trace without estimates (SDSC Paragon: field 9 is -1 throughout) has no estimate statistics:
# "-", not an average of 0 s, a minimum of -1 s or 0 jobs overrunning; KTH's column keeps its numbers.
"$B/fixinfo" --csv fixtures/SDSC-Par-1996-3.1-cln.fix fixtures/KTH-SP2-1996-2.1-cln.fix >"$tmp/noest"
bad=$(awk -F, '/^estimated runtime|^jobs with actual|^  \(% of all/ { if ($2 != "-" || $3 !~ /^[0-9.]+$/) print $0 }' "$tmp/noest")
result fixinfo_no_estimates_dash "$(ok -z "$bad" -a "$(grep -c ',-,' "$tmp/noest")" = 5)" "rows: $bad"
"$B/wlgen" --model nosuch -o "$tmp/x.swf" >/dev/null 2>&1
result wlgen_unknown_model "$(ok $? = 2)" "accepted"
"$B/wlgen" --model matrix -o "$tmp/x.swf" >/dev/null 2>&1
result wlgen_matrix_needs_from "$(ok $? = 2)" "accepted"
missing=""
for t in swf2fix fix2swf fixinfo wlgen console; do
	"$B/$t" --help >"$tmp/h" 2>&1 && grep -q "^Usage: $t" "$tmp/h" || missing="$missing $t"
done
result tools_have_help "$(ok -z "$missing")" "no usage from:$missing"
# An unknown option is an error with the usage, not a console session started on it.
"$B/console" --bogus </dev/null >"$tmp/h" 2>&1
rc=$?
result console_unknown_option "$(ok $rc = 2)" "exit $rc: $(head -2 "$tmp/h" | tr '\n' ' ')"
grep -q "^Usage: console" "$tmp/h"
result console_unknown_option_usage $? "no usage: $(head -2 "$tmp/h")"
# A --store that cannot be opened ends the console at start with the path and the system's reason
# (it used to start, answer every journaled command `err 28 ... cannot be opened`, and exit 0).
echo quit | "$B/console" --store "$tmp/nodir/s.img" >"$tmp/so" 2>"$tmp/se"
rc=$?
result console_store_unopenable "$([ $rc = 1 ] && [ ! -s "$tmp/so" ] &&
	[ "$(cat "$tmp/se")" = "console: --store $tmp/nodir/s.img: cannot be opened: No such file or directory" ] && echo 0 || echo 1)" \
	"exit $rc: $(head -1 "$tmp/se")"
"$B/wlgen" -x >/dev/null 2>"$tmp/we"
rc=$?
result wlgen_unknown_short_option "$([ $rc = 2 ] && [ "$(head -1 "$tmp/we")" = "wlgen: unknown option '-x'" ] && echo 0 || echo 1)" \
	"exit $rc: $(head -1 "$tmp/we")"
"$B/wlgen" --model downey --jobs 300 --seed 4 -o "$tmp/d.fix" && "$B/replay" --policy easy "$tmp/d.fix" >"$tmp/r"
result wlgen_writes_fixtures_the_replayer_reads $? "$(tail -2 "$tmp/r")"
