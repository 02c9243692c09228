#!/usr/bin/env bash
# --stats-as pyss (docs/replay.md, "Statistics as pyss prints them"): pyss's job filter and formulas,
# checked against figures worked out by hand on a small workload, and against an awk re-derivation
# from --jobs-out on a random one; the schedule (its hash) does not move. Prints TEST lines.
set -u
B=${BUILD:-build}
R=$B/san/replay
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

result() {
	if [ "$2" -eq 0 ]; then echo "TEST stats_as.$1 PASS"; else echo "TEST stats_as.$1 FAIL $3"; fi
}

# The workload, on 10 processors (SWF fields: job submit wait run procs cpu mem reqprocs reqtime ...):
#   B1..B100  job k at 100 (k - 1), 1 processor, run 50, estimate 60: [100 (k - 1), +50) unless held
#   A   101   at 0, 5 processors, run 120, estimate 120: [0, 120)
#   Y   102   at 20, 10 processors, run 40, estimate 30: waits for A (B2, at 100, cannot pass it: no
#             processor is left at 120 under any of fcfs, easy, cons), [120, 150), killed at 30
#   S   103   at 147, 2 processors, run 2, estimate 2: nothing free until Y ends: [150, 152), wait 3
#             (B2 starts at 150 too: [150, 200), wait 50)
#   T2  104   at 3000, 1 processor, run 0, estimate 100: tiny (a run of 0, which pyss's reader makes
#             a 1 s job of 1 s estimate)
#   X   105   at 5010, 1 processor, run 1, estimate 1: tiny
#   Z2  106   at 9940, 10 processors, run 100: waits for B100 (ends 9950): [9950, 10050)
#   Z1  107   at 9950 (the last submission), 2 processors, run 500: [10050, 10550)
# 107 jobs ran. By finish time: B1 (50), A (120), Y (150), S (152), B2 (200), B3 (250), ...
# pyss's filter: B1 is the first 1% (107 / 100 = 1 place); T2 and X are tiny (total 105); Z2 and Z1
# finish after 9950 (B100 ends at 9950: not after). Used: A, Y, S, B2..B100 = 102 jobs.
#   Tw:  Y 100, S 3, B2 50, others 0: 153.   Tr: A 120, Y 30, S 2, 99 B x 50: 5102.
#   wait 153 / (60 x 102) = 0.025 min; response (153 + 5102) / 6120 = 0.8586601 min
#   slowdown (Tw+Tr)/Tr: A 1, Y 130/30, S 5/2, B2 2, 98 B x 1: 107.8333 / 102 = 1.0571895
#   bounded max(1, (Tw+Tr)/max(10, Tr)): S is max(1, 5/10) = 1, the rest as above: 106.3333 / 102 = 1.0424837
#   estimated (Tw+Tr)/Te: A 1, Y 130/30, S 5/2, B2 100/60, 98 B x 50/60: 91.1667 / 102 = 0.8937908
#   tail (bounded >= 3): Y alone, 4.3333333
#   top 10%: every job that ran, largest bounded slowdown first (Y 4.33, B2 2, Z1 600/500, Z2 110/100,
#   then the 1s in finish order: B1, A, S, B3, ...) adds the plain slowdown until fewer than 0.9 x 102
#   of a countdown from 102 are left: 11 jobs, 4.3333 + 2 + 1.2 + 1.1 + 1 + 1 + 2.5 + 4 x 1 = 17.1333,
#   divided by 102 - 91 + 1 = 12: 1.4277778.
W=$tmp/hand.swf
{
	echo '; MaxProcs: 10'
	awk 'BEGIN { for (k = 1; k <= 100; k++) printf "%d %d -1 50 1 -1 -1 1 60 -1 1 1 1 -1 1 -1 -1 -1\n", k, 100 * (k - 1) }'
	cat <<'EOF'
101 0 -1 120 5 -1 -1 5 120 -1 1 1 1 -1 1 -1 -1 -1
102 20 -1 40 10 -1 -1 10 30 -1 1 1 1 -1 1 -1 -1 -1
103 147 -1 2 2 -1 -1 2 2 -1 1 1 1 -1 1 -1 -1 -1
104 3000 -1 0 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1
105 5010 -1 1 1 -1 -1 1 1 -1 1 1 1 -1 1 -1 -1 -1
106 9940 -1 100 10 -1 -1 10 100 -1 1 1 1 -1 1 -1 -1 -1
107 9950 -1 500 2 -1 -1 2 600 -1 1 1 1 -1 1 -1 -1 -1
EOF
} >"$W"
want="pyss_jobs_total=105 pyss_jobs_used=102 pyss_dropped_tiny=2 pyss_dropped_first=1 pyss_dropped_after=2"
want="$want pyss_wait_min=0.025 pyss_response_min=0.8586601 pyss_sld=1.0571895 pyss_bsld=1.0424837"
want="$want pyss_est_sld=0.8937908 pyss_tail_bsld=4.3333333 pyss_tail_jobs=1 pyss_top10_sld=1.4277778"

# Each pyss_* column of the CSV's one row against the hand-worked value: counts exactly, the rest
# within the CSV's last printed digit (5 decimals for the table's 2, 6 for its 3).
check_hand() {
	awk -F, -v want="$want" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^pyss_/) c[$i] = i; next }
		{ n = split(want, kv, " ")
		  for (j = 1; j <= n; j++) { split(kv[j], p, "="); got = $c[p[1]]; d = got - p[2]; if (d < 0) d = -d
			if (!(p[1] in c) || got == "" || d > 1e-5) bad = bad " " p[1] "=" got }
		  for (k in c) if (index(" " want, " " k "=") == 0) bad = bad " unexpected " k }
		END { print bad }'
}
for pol in fcfs easy cons; do
	bad=$("$R" --policy "$pol" --stats-as pyss --format csv "$W" 2>"$tmp/err" | check_hand)
	result "hand_worked_$pol" "$([ -z "$bad" ] && echo 0 || echo 1)" "differ from the hand-worked values:$bad $(head -1 "$tmp/err")"
done

# The schedule does not move: the same hashes and the same --jobs-out with and without the option.
for f in "$W" fixtures/KTH-SP2-1996-2.1-cln.fix; do
	base=$("$R" --policy fcfs,easy,cons --hash "$f" | grep '^hash ')
	ok=0
	for sets in pyss ours,pyss pyss,ours; do
		[ "$("$R" --policy fcfs,easy,cons --stats-as "$sets" --hash "$f" | grep '^hash ')" = "$base" ] || ok=1
	done
	result "hash_unchanged_$(basename "$f" | cut -d- -f1 | cut -d. -f1)" "$ok" "a hash differs with --stats-as: $base"
done
"$R" --policy easy --jobs-out "$tmp/a.swf" "$W" >/dev/null
"$R" --policy easy --stats-as pyss --jobs-out "$tmp/b.swf" "$W" >/dev/null
cmp -s "$tmp/a.swf" "$tmp/b.swf"
result jobs_out_unchanged $? "--jobs-out differs with --stats-as pyss"

# Ours stay ours: with both sets the ours columns are the default's, and no key is printed twice.
"$R" --format csv "$W" | cut -d, -f1-36 >"$tmp/ours.csv"
"$R" --stats-as ours,pyss --format csv "$W" >"$tmp/both.csv"
cut -d, -f1-36 "$tmp/both.csv" | cmp -s - "$tmp/ours.csv"
same_ours=$?
dups=$(head -1 "$tmp/both.csv" | tr , '\n' | sort | uniq -d | tr '\n' ' ')
result ours_unchanged_keys_distinct "$([ $same_ours -eq 0 ] && [ -z "$dups" ] && echo 0 || echo 1)" \
	"ours columns differ ($same_ours) or keys twice: '$dups'"
# JSON: the same figures under the same keys, and the run record says which sets.
got=$("$R" --policy easy --stats-as pyss --format json "$W" |
	jq -r '[.run.stats_as, .runs[0].pyss_jobs_used, .runs[0].pyss_tail_jobs, (.runs[0] | has("avg_wait"))] | map(tojson) | join(" ")')
result json "$([ "$got" = '["pyss"] 102 1 false' ] && echo 0 || echo 1)" "stats_as, used, tail jobs, has avg_wait: '$got'"
# The table labels its rows and --by-month gets pyss's columns.
"$R" --policy easy --stats-as pyss "$W" >"$tmp/table"
result table "$(grep -Eq '^pyss jobs used +102$' "$tmp/table" && grep -Eq '^pyss wait \(min\) +0\.03$' "$tmp/table" &&
	! grep -q '^avg wait' "$tmp/table" && echo 0 || echo 1)" "$(grep -E '^pyss (jobs used|wait)' "$tmp/table" | tr '\n' ' ')"
"$R" --policy easy --stats-as pyss --by-month tests/data/slice_skips.swf >"$tmp/months" 2>&1
result by_month_columns "$(grep -Eq 'pwait\(m\) +pbsld +pused$' "$tmp/months" && echo 0 || echo 1)" "$(head -3 "$tmp/months" | tr '\n' ' ')"

# Bad lists are bad usage.
"$R" --stats-as pyss,lublin "$W" >/dev/null 2>"$tmp/err"
st1=$?
"$R" --stats-as pyss,pyss "$W" >/dev/null 2>"$tmp/err2"
st2=$?
result bad_list "$([ $st1 -eq 2 ] && [ $st2 -eq 2 ] && grep -q 'stats-as takes a list of ours, pyss' "$tmp/err" &&
	grep -q 'distinct' "$tmp/err2" && echo 0 || echo 1)" "exit $st1 and $st2: $(head -1 "$tmp/err")"

# An independent re-derivation (awk and sort, not the program's code) from --jobs-out of the random
# 120-job trace under each policy: pyss's loop as docs/replay.md states it; ties in finish time in
# trace order (the jobs are in submit order), ties in bounded slowdown in finish order.
rederive() {
	awk '!/^;/ { r = $4 < 1 ? 1 : $4; e = $2 + $3 + $4; tiny = ($5 == 1 && ($9 == 1 || $4 == 0))
		     printf "%d %d %d %d %d %d %d\n", e, ++n, $2, $3, r, $9, tiny }' "$1" | sort -k1,1n -k2,2n >"$tmp/fin"
	last=$(awk '!/^;/ { if ($2 > m) m = $2 } END { print m }' "$1")
	awk -v last="$last" 'NR == FNR { n++; next }
		FNR == 1 { size = n }
		{ pos++; w = $4; r = $5
		  if (!stop && $7) { size--; next }
		  if (!stop && size >= 100 && pos <= int(size / 100)) next
		  if (!stop && $1 > last) stop = 1
		  if (stop) next
		  c++; sw += w; sr += r; ss += (w + r) / r; b = (w + r) / (r > 10 ? r : 10); b = b > 1 ? b : 1; sb += b
		  se += (w + r) / $6; if (b >= 3) { tc++; st += b } }
		END { d = c ? c : 1
		      printf "%d %d %.7f %.7f %.7f %.7f %.7f %.7f %d\n", size, c, sw / (60 * d), (sw + sr) / (60 * d), ss / d, sb / d,
			     se / d, st / (tc ? tc : 1), tc }' "$tmp/fin" "$tmp/fin" >"$tmp/filt"
	used=$(cut -d' ' -f2 "$tmp/filt")
	# Top 10%: bounded slowdown as a sort key, largest first, then the finish place.
	awk '{ w = $4; r = $5; b = (w + r) / (r > 10 ? r : 10); printf "%.17g %d %.17g\n", (b > 1 ? b : 1), NR, (w + r) / r }' \
		"$tmp/fin" | sort -k1,1gr -k2,2n | awk -v used="$used" '{ s += $3; left = used - NR; if (left < 0.9 * used) exit }
		END { left = used - NR; d = used - left + 1; printf " %.7f\n", s / (d > 1 ? d : 1) }' >"$tmp/top"
	printf '%s%s\n' "$(cat "$tmp/filt")" "$(cat "$tmp/top")"
}
for pol in fcfs easy cons; do
	"$R" --policy "$pol" --jobs-out "$tmp/r.swf" tests/data/rand120.swf >/dev/null
	want=$(rederive "$tmp/r.swf")
	got=$("$R" --policy "$pol" --stats-as pyss --format csv tests/data/rand120.swf |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ printf "%d %d %.7f %.7f %.7f %.7f %.7f %.7f %d %.7f\n", $c["pyss_jobs_total"], $c["pyss_jobs_used"],
				  $c["pyss_wait_min"], $c["pyss_response_min"], $c["pyss_sld"], $c["pyss_bsld"], $c["pyss_est_sld"],
				  $c["pyss_tail_bsld"], $c["pyss_tail_jobs"], $c["pyss_top10_sld"] }')
	# The CSV has 5 or 6 decimals: compare each figure to 1e-4 relative.
	ok=$(awk -v a="$got" -v b="$want" 'BEGIN { n = split(a, x, " "); m = split(b, y, " "); bad = n != m || n != 10
		for (i = 1; i <= n; i++) { d = x[i] - y[i]; if (d < 0) d = -d; if (d > 1e-4 * (y[i] > 1 ? y[i] : 1)) bad = 1 }
		print bad }')
	result "rederived_rand120_$pol" "$ok" "replay '$got', awk '$want'"
done

# The sweep passes the option through like any other: one experiment, both sets, a column each.
cat >"$tmp/s.exp" <<EOF
trace $W
policy easy
vary --stats-as ours pyss
EOF
if [ -x "$B/san/sweep" ]; then
	"$B/san/sweep" "$tmp/s.exp" --replay "$R" --quiet -o "$tmp/s.csv" 2>"$tmp/serr"
	got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "%s:%s:%s ", $c["sweep_stats-as"], $c["avg_wait"] != "", $c["pyss_jobs_used"] }' "$tmp/s.csv" 2>/dev/null)
	result sweep "$([ "$got" = "ours:1: pyss:0:102 " ] && echo 0 || echo 1)" "got '$got' $(tail -1 "$tmp/serr")"
else
	echo "note: stats_as.sweep skipped: $B/san/sweep is not built (make test-build)"
fi
