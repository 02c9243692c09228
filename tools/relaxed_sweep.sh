#!/usr/bin/env bash
# Relaxed backfilling (Spear and McGalliard 2007, seed 001) on KTH SP2: the
# tolerance sweep, and the paper's claims tested against the numbers of this
# section and of the Exhibit 11 section of docs/priorities-results.md.
#   tools/relaxed_sweep.sh            a Markdown section on stdout
# tools/priorities_report.sh calls it; run alone it prints its own claim
# table. With CLAIMS set to a file (tools/lib.sh), the claim rows are
# appended there instead, for the report's one table at its end.
# Every number comes from the replayer; verdicts are computed below, with
# the thresholds stated next to each, never typed. The replays whose only
# output is their CSV are the cells of tools/experiments/relaxed-tolerance.exp,
# run by build/sweep on WORKERS processes (default: every processor) into
# build/sweeps/relaxed-tolerance.csv (kept: a repeated run replays only what
# changed); those that write side files (--jobs-out, --events-out) run here.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tools/lib.sh
. "$here/lib.sh"
B=${BUILD:-build}
R=$B/replay
K=fixtures/KTH-SP2-1996-2.1-cln.fix
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
own_table=0
if [ -z "${CLAIMS:-}" ]; then
	CLAIMS=$tmp/claims
	own_table=1
fi
: >>"$CLAIMS"
export CLAIMS

# run NAME ARGS... TRACE: the replayer's CSV of that replay, a cell of the
# sweep in $S (below), into NAME.csv; the command kept for the document.
run() {
	local f=$1
	shift
	sweep_rows "$S" "run=${*:1:$#-1}" "trace=${!#}" >"$tmp/$f.csv"
	echo "build/replay --format csv $*" | sed "s|$B/||" >"$tmp/$f.cmd"
}
# direct NAME ARGS...: the same from a replay of its own, for one that writes
# a side file (--jobs-out), which an experiment cannot.
direct() {
	local f=$1
	shift
	"$R" --format csv "$@" >"$tmp/$f.csv"
	echo "build/replay --format csv $*" | sed "s|$B/||" >"$tmp/$f.cmd"
}
# val NAME KEY: column KEY of the first data row of NAME.csv.
val() {
	awk -F, -v key="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { print $c[key] }' "$tmp/$1.csv"
}
# pval NAME POLICY KEY: column KEY of POLICY's row of NAME.csv.
pval() {
	awk -F, -v p="$2" -v key="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["policy"] == p { print $c[key]; exit }' "$tmp/$1.csv"
}
# cwait NAME: average wait per size class (1-32, 33-64, 65-120, 121+ processors) of NAME.swf (-jobs-out).
cwait() {
	awk '/^;/ { next } $3 >= 0 { k = $5 <= 32 ? 1 : $5 <= 64 ? 2 : $5 <= 120 ? 3 : 4; w[k] += $3; n[k]++ }
		END { for (k = 1; k <= 4; k++) printf "%s ", n[k] ? sprintf("%.0f", w[k] / n[k]) : "-"; print "" }' "$tmp/$1.swf"
}
# pct A B: the change from A to B in percent.
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", 100 * (b - a) / a }'; }

tols="0 600 1800 3600 7200 14400 28800 86400"
name_of() { case $1 in 0) echo 0 ;; 600) echo 10m ;; 1800) echo 30m ;; 3600) echo 1h ;; 7200) echo 2h ;;
	14400) echo 4h ;; 28800) echo 8h ;; 86400) echo 24h ;; esac; }
# The replays whose only output is the CSV are the cells of
# tools/experiments/relaxed-tolerance.exp, run by build/sweep on $WORKERS
# (default: every processor) into build/sweeps/, where an interrupted report
# resumes (tools/lib.sh: sweep_run); the others are replayed here.
S=$B/sweeps/relaxed-tolerance.csv
sweep_run tools/experiments/relaxed-tolerance.exp "$S"
for t in $tols; do
	direct "all_$t" --policy relaxed --tolerance "$(name_of "$t")" --jobs-out "$tmp/all_$t.swf" "$K"
	run "arr_$t" --policy relaxed --tolerance "$(name_of "$t")" --relaxed-scope arrival "$K"
done
run cons --policy cons "$K"
run fcfs --policy fcfs "$K"
run fcfs112 --policy fcfs --procs 112 "$K"
run minus6 --policy relaxed --tolerance 1h --procs 94 "$K"
run minus12 --policy relaxed --tolerance 1h --procs 88 "$K"
run plus12 --policy relaxed --tolerance 1h --procs 112 "$K"
run cons_exact --policy cons --estimates exact "$K"
run rel_exact --policy relaxed --tolerance 1h --estimates exact "$K"
run cons_early --policy cons --compress-at early "$K"
run fcfs88 --policy fcfs --procs 88 "$K"
run fcfs94 --policy fcfs --procs 94 "$K"
run load06 --policy fcfs,cons --shrink 0.6 "$K"
run exact2 --policy fcfs,easy --estimates exact "$K"
SEEDS="1 2 3 4 5 6 7 8 9 10" F=4
for s in $SEEDS; do run "f4_$s" --policy fcfs,easy,cons,relaxed --tolerance 1h --estimates "f=$F" --seed "$s" "$K"; done
"$R" --policy relaxed --tolerance 1h --events-out "$tmp/rel1h.ev" "$K" >/dev/null
# The latest start past its guarantee, over every job that had one (events: "T submit ID P E G", "T start ID P").
late=$(awk '$2 == "submit" && $6 != "-" { g[$3] = $6 } $2 == "start" && ($3 in g) { d = $1 - g[$3]; if (d > m) m = d }
	END { print m + 0 }' "$tmp/rel1h.ev")

cat <<TXT
## Relaxed backfilling: the tolerance sweep (Spear and McGalliard 2007, s. 2.1 and 4.1)

The whole KTH trace on its 100 processors under relaxed backfilling, one
replay per tolerance. By default every scheduling pass tries every waiting
job that fits on the idle processors, in plan order, and starts it if no job
of its priority or higher is delayed by more than the tolerance T, neither
from its current start nor from its guarantee (the start it got on arrival):
Exhibit 8 lets J3 and J4, waiting already, jump ahead of J2. Tolerance 0 is
conservative backfilling as this project ran it before issue 28, compressing
the schedule at early ends only (\`--policy cons --compress-at early\`:
$(printf %.0f "$(val cons_early avg_wait)") s average wait, against $(printf %.0f "$(val all_0 avg_wait)") s at T = 0); conservative's default
now compresses at every end ($(printf %.0f "$(val cons avg_wait)") s, the strict column of the Exhibit 11
section). Average wait in seconds; the expansion factor is (wait + run) / run summed over the jobs of each class,
as the replayer reports it; classes by processors, as in Exhibit 11 (KTH
has no job wider than 100, so 121+ is empty).

TXT
for t in $tols; do echo "    $(cat "$tmp/all_$t.cmd" | sed 's| --jobs-out [^ ]*||')"; done
echo
echo "| tolerance | relaxed starts | avg wait | wait 1-32 | wait 33-64 | wait 65-120 | EF | EF 1-32 | EF 33-64 | EF 65-120 | EF 121+ |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for t in $tols; do
	read -r w1 w2 w3 _ <<<"$(cwait "all_$t")"
	printf '| %s | %d | %.0f | %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %s |\n' "$(name_of "$t")" \
		"$(val "all_$t" relaxed_starts | cut -d. -f1)" "$(val "all_$t" avg_wait)" "$w1" "$w2" "$w3" \
		"$(val "all_$t" ef)" "$(val "all_$t" ef_1_32)" "$(val "all_$t" ef_33_64)" "$(val "all_$t" ef_65_120)" \
		"$(val "all_$t" ef_121_up | sed 's/^$/-/')"
done
# The figure's data (make figures draws docs/figures/relaxed-ef-by-class.svg from it): the
# expansion factor per size class of the table above, against the tolerance.
mkdir -p docs/figures/data
{
	echo "# Spear and McGalliard 2007 Exhibit 11 classes on KTH: expansion factor against the tolerance (scope all); written by tools/relaxed_sweep.sh"
	echo "tolerance_s,tolerance,ef,ef_1_32,ef_33_64,ef_65_120"
	for t in $tols; do
		echo "$t,$(name_of "$t"),$(val "all_$t" ef),$(val "all_$t" ef_1_32),$(val "all_$t" ef_33_64),$(val "all_$t" ef_65_120)"
	done
} >docs/figures/data/relaxed-ef-by-class.csv
cat <<'TXT'

The expansion factor by size class against the tolerance, drawn (`make
figures`, from docs/figures/data/relaxed-ef-by-class.csv; the tolerances are
equally spaced on the axis, not to scale):

![Expansion factor of the 1-32, 33-64 and 65-120 processor classes against the tolerance, KTH](figures/relaxed-ef-by-class.svg)
TXT
cat <<'TXT'

Our first reading, kept as `--relaxed-scope arrival`: only a job that has
just arrived is tried, at its arrival; a job already waiting never jumps
ahead, and an early end only compresses strictly.

TXT
echo "    $(cat "$tmp/arr_3600.cmd" | sed 's|--tolerance 1h|--tolerance T|')"
echo
echo "| tolerance | relaxed starts | avg wait | EF | EF 1-32 | EF 33-64 | EF 65-120 |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for t in $tols; do
	printf '| %s | %d | %.0f | %.3f | %.3f | %.3f | %.3f |\n' "$(name_of "$t")" \
		"$(val "arr_$t" relaxed_starts | cut -d. -f1)" "$(val "arr_$t" avg_wait)" "$(val "arr_$t" ef)" \
		"$(val "arr_$t" ef_1_32)" "$(val "arr_$t" ef_33_64)" "$(val "arr_$t" ef_65_120)"
done

# --- the numbers the claims are tested on ---
ef0=$(val all_0 ef) ef1h=$(val all_3600 ef) ef24=$(val all_86400 ef)
s0=$(val all_0 ef_1_32) s1h=$(val all_3600 ef_1_32) s24=$(val all_86400 ef_1_32)
m0=$(val all_0 ef_33_64) m1h=$(val all_3600 ef_33_64) m24=$(val all_86400 ef_33_64)
w0=$(val all_0 ef_65_120) w1h=$(val all_3600 ef_65_120) w24=$(val all_86400 ef_65_120)
# Over the sweep: the tolerances at which the small class gains and the widest class loses against T = 0.
sweep=$(for t in $tols; do echo "$t $(val "all_$t" ef_1_32) $(val "all_$t" ef_65_120)"; done |
	awk -v s0="$s0" -v w0="$w0" '$1 > 0 { n++; if ($2 < s0) sg++; if ($3 > w0) wl++ } END { print n, sg + 0, wl + 0 }')
read -r n_t small_gain wide_lose <<<"$sweep"
wait_fcfs=$(val fcfs avg_wait) wait_cons=$(val cons avg_wait) wait_rel=$(val all_3600 avg_wait)
ef_fcfs=$(val fcfs ef) ef_cons=$(val cons ef)
u_fcfs=$(val fcfs utilization_pct) u_cons=$(val cons utilization_pct)
wait_m6=$(val minus6 avg_wait) wait_m12=$(val minus12 avg_wait) wait_f112=$(val fcfs112 avg_wait)
wait_p12=$(val plus12 avg_wait)
# Utilization where the policies can differ: the trace's arrivals at shrink 0.6 (offered load about 1.17).
u6_fcfs=$(pval load06 fcfs utilization_pct) u6_cons=$(pval load06 cons utilization_pct)
wait_f88=$(val fcfs88 avg_wait) wait_f94=$(val fcfs94 avg_wait)
# Estimates drawn from [r, F r] (Feitelson and Mu'alem Weil 1998, s. 3.3) against exact ones, seed by
# seed: the change of the average wait in % (negative: the inaccurate estimates wait less).
w_exact() { case $1 in fcfs | easy) pval exact2 "$1" avg_wait ;; cons) val cons_exact avg_wait ;; relaxed) val rel_exact avg_wait ;; esac; }
chg() { # POLICY: the % change of each seed
	local e s
	e=$(w_exact "$1")
	for s in $SEEDS; do awk -v e="$e" -v w="$(pval "f4_$s" "$1" avg_wait)" 'BEGIN { printf "%.4f ", 100 * (w - e) / e }'; done
}
read -ra ch_fcfs <<<"$(chg fcfs)"
read -ra ch_easy <<<"$(chg easy)"
read -ra ch_cons <<<"$(chg cons)"
read -ra ch_rel <<<"$(chg relaxed)"
# relaxed's change minus conservative's, seed by seed: positive when inaccuracy helps relaxed less.
read -ra ch_rc <<<"$(for i in "${!ch_rel[@]}"; do awk -v r="${ch_rel[$i]}" -v c="${ch_cons[$i]}" 'BEGIN { printf "%.4f ", r - c }'; done)"
p_easy=$(paired '<0' "${ch_easy[@]}") p_cons=$(paired '<0' "${ch_cons[@]}") p_rc=$(paired '>0' "${ch_rc[@]}")
# pi RESULT [UNIT]: a paired result as "mean M%, 95% interval [LO, HI]% over K seeds" (UNIT instead of %).
pi() { echo "$1" | awk -F'|' -v u="${2:-%}" '{ printf "mean %+.1f%s, 95%% interval [%+.1f, %+.1f]%s over %d seeds", $2, u, $3, $4, u, $5 }'; }
fcfs_same=$(echo "${ch_fcfs[@]}" | awk '{ for (i = 1; i <= NF; i++) if ($i != 0) d = 1; print d ? "differs" : "is the same" }')
# The trace's own estimates against exact ones (the measurement before issue 28, kept as context).
gain_cons=$(awk -v e="$(val cons_exact avg_wait)" -v t="$wait_cons" 'BEGIN { printf "%+.1f%%", 100 * (t - e) / e }')
gain_rel=$(awk -v e="$(val rel_exact avg_wait)" -v t="$wait_rel" 'BEGIN { printf "%+.1f%%", 100 * (t - e) / e }')

cat <<TXT

**Small jobs gain, wide jobs lose?** Against strict backfilling (T = 0),
the 1-32 processor class's expansion factor falls at $small_gain of the
$n_t tolerances (1 h: $(printf %.3f "$s0") to $(printf %.3f "$s1h"), $(pct "$s0" "$s1h"); 24 h: $(printf %.3f "$s24"), $(pct "$s0" "$s24")) and
the widest class, 65-120 processors, loses at $wide_lose of them (1 h: $(printf %.3f "$w0") to
$(printf %.3f "$w1h"), $(pct "$w0" "$w1h"); 24 h: $(printf %.3f "$w24"), $(pct "$w0" "$w24")); 33-64 goes from $(printf %.3f "$m0") to $(printf %.3f "$m1h") (1 h) and
$(printf %.3f "$m24") (24 h). Over all jobs the expansion factor goes from $(printf %.3f "$ef0") to
$(printf %.3f "$ef1h") (1 h) and $(printf %.3f "$ef24") (24 h). No job started more than $late s after its
guarantee at T = 1 h (the bound is 3600 s; the property checker verifies it
on random workloads and on this trace, tests/prop).

**Inaccurate estimates** (s. 4.1: users overestimate, and "this inaccuracy
helps performance with FCFS and conservative backfill", less so relaxed
backfill). The overestimation is modelled as Feitelson and Mu'alem Weil
1998 (s. 3.3) did: each estimate drawn uniformly from [r, $F r], r the run
time, ten draws (seeds 1-10), each against the same replay with exact
estimates (\`--estimates exact\`). The average wait changes by
$(pi "$p_cons") under conservative, $(pi "$p_easy") under EASY (FCFS order with
backfilling), and $(pi "$(paired '<0' "${ch_rel[@]}")") under relaxed
backfilling (T = 1 h); FCFS without backfilling $fcfs_same with every draw
(its plan never looks at an estimate, and no job outlives one drawn from
[r, $F r]). The trace's own estimates against exact ones, for comparison:
$gain_cons under conservative, $gain_rel under relaxed (they are not
overestimates alone: $(val cons killed) jobs are killed at theirs).

TXT
for f in cons_exact rel_exact exact2 f4_1; do echo "    $(cat "$tmp/$f.cmd")"; done
echo "    (and seeds 2 to 10)"

# --- the claim rows ---
# Verdicts (tools/lib.sh, issue 28): the direction first (directed), a comparison over drawn
# estimates by the 95% interval of its paired differences over the seeds (paired), a compound
# claim split into one row per part.
S='Spear and McGalliard 2007'
# Exhibit 11: backfilling against none. Threshold: the same direction and our drop of the average wait
# within 25 percentage points of the paper's (4,076 s to 190 s: -95.3%).
d_ours=$(awk -v a="$wait_fcfs" -v b="$wait_cons" 'BEGIN { printf "%.1f", 100 * (b - a) / a }')
claim "$S, Exhibit 11" "strict backfilling cuts the average wait of FCFS without backfilling from 4,076 s to 190 s (-95.3%) and the EF from 2.46 to 1.10" \
	"$(commas "$wait_fcfs") s to $(commas "$wait_cons") s (${d_ours}%), EF $(printf %.2f "$ef_fcfs") to $(printf %.2f "$ef_cons")" \
	"$(directed "$d_ours < 0" "$d_ours - (-95.3) <= 25 && $d_ours - (-95.3) >= -25")" \
	"direction: lower; REPRODUCED within 25 points of -95.3%"
# s. 4.1 and Exhibit 11: FCFS without backfilling has a lower utilization (82.78% against 86.12%).
# Measured where the policies can differ: at the trace's own load every job runs and utilization over
# the makespan is set by the work and the last arrivals, so the arrivals are brought closer (shrink 0.6).
du=$(awk -v a="$u6_fcfs" -v b="$u6_cons" 'BEGIN { printf "%.2f", b - a }')
claim "$S, s. 4.1, Exhibit 11" "\"FCFS without backfill results in low system utilization\": 82.78% against 86.12% with strict backfilling" \
	"shrink 0.6 (offered load about 1.17): $(printf %.2f "$u6_fcfs")% against $(printf %.2f "$u6_cons")% ($(printf %+.2f "$du") points); at the trace's load $(printf %.2f "$u_fcfs")% and $(printf %.2f "$u_cons")%" \
	"$(directed "$du > 0" "$du >= 1")" \
	"direction: strict backfilling higher (else NOT REPRODUCED); REPRODUCED at least 1 point higher (paper +3.3). At the trace's load the arrivals set utilization, so the comparison is made at shrink 0.6"
# Exhibit 11: relaxed backfilling lowers the total expansion factor of strict (1.10 to 1.07).
# Threshold: lower; the paper's drop is 2.7%, "dramatically" in s. 4.1.
claim "$S, Exhibit 11, s. 4.1" "relaxed backfilling \"reduces the expansion factor\" of strict backfilling over all jobs (1.10 to 1.07)" \
	"T = 1 h: $(printf %.3f "$ef0") to $(printf %.3f "$ef1h") ($(pct "$ef0" "$ef1h")); 24 h: $(printf %.3f "$ef24")" \
	"$(verdict "$ef1h < $ef0 && $ef24 < $ef0" "$ef1h < $ef0 || $ef24 < $ef0")" \
	"threshold: lower at 1 h and at 24 h (partly: at one of them)"
# s. 4.1: relaxed hurts the larger jobs, bumped back for the numerous small ones: two rows. Over the
# sweep's tolerances above 0: the widest class (65-120) loses, the 1-32 class gains.
claim "$S, s. 4.1" "relaxed backfilling \"hurts larger jobs that are bumped backward\"; \"expansion factors increase for jobs with the highest parallelism\"" \
	"EF 65-120 higher than strict at $wide_lose of $n_t tolerances (1 h: $(pct "$w0" "$w1h"); 24 h: $(pct "$w0" "$w24"))" \
	"$(directed "2 * $wide_lose > $n_t" "$wide_lose == $n_t")" \
	"direction: higher at most tolerances (else NOT REPRODUCED); REPRODUCED at every one"
claim "$S, s. 4.1" "the smaller jobs gain (larger ones are bumped \"to accommodate smaller jobs\")" \
	"EF 1-32 lower than strict at $small_gain of $n_t tolerances (1 h: $(pct "$s0" "$s1h"); 24 h: $(pct "$s0" "$s24"))" \
	"$(directed "2 * $small_gain > $n_t" "$small_gain == $n_t")" \
	"direction: lower at most tolerances (else NOT REPRODUCED); REPRODUCED at every one"
# Exhibit 11 class by class, strict to relaxed, at T = 1 h here: one row per class, the direction.
cls_row() { # LABEL PAPER FROM TO WANT(down|up)
	local ok
	if [ "$5" = down ]; then ok="$4 < $3"; else ok="$4 > $3"; fi
	claim "$S, Exhibit 11" "strict to relaxed, the $1 processor class: $2" \
		"T = 1 h: $(printf %.3f "$3") to $(printf %.3f "$4") ($(pct "$3" "$4"))" \
		"$(verdict "$ok")" "the direction ($5); the paper's sizes are a few hundredths"
}
cls_row 0-32 "1.02 to 1.01" "$s0" "$s1h" down
cls_row 33-64 "1.17 to 1.11" "$m0" "$m1h" down
cls_row 65-120 "1.81 to 1.87 (121+ 3.01 to 1.44: KTH has no such job)" "$w0" "$w1h" up
# Exhibit 11: relaxed and strict have the same average wait (190 s). Threshold: within 5%.
dw=$(awk -v a="$wait_cons" -v b="$wait_rel" 'BEGIN { printf "%.1f", 100 * (b - a) / a }')
claim "$S, Exhibit 11" "relaxed backfilling has the average wait of strict (190 s and 190 s; EF 1.10 and 1.07)" \
	"T = 1 h: $(commas "$wait_cons") s and $(commas "$wait_rel") s (${dw}%)" \
	"$(verdict "$dw <= 5 && $dw >= -5")" \
	"threshold: within 5%. The paper's relaxed column repeats strict's average and maximum wait (190, 77,165) and the no-backfill usage (82.78%) while its EFs differ: those cells look copied. Ours falls with the tolerance (sweep above)"
# s. 2.2: the tolerance limits the delay, so no job starves. Threshold: no start past guarantee + T.
claim "$S, s. 2.2" "relaxed backfill avoids starvation \"by limiting the delay a high priority job must tolerate\"" \
	"latest start past its guarantee at T = 1 h: $late s" \
	"$(verdict "$late <= 3600")" "threshold: at most T = 3600 s (also checked by tests/prop on random workloads)"
# s. 4.1: "this inaccuracy helps performance with FCFS and conservative backfill [...] Inaccuracy is
# less helpful with relaxed backfill": three rows, each decided by the interval of the paired changes.
claim "$S, s. 4.1" "users' overestimates help \"FCFS\" (read as FCFS order with backfilling, EASY: the reason given is holes that backfill exploits)" \
	"estimates from [r, $F r] against exact: EASY's wait $(pi "$p_easy"); FCFS without backfilling $fcfs_same" \
	"${p_easy%%|*}" "the interval of the wait's change below zero; $NOISE_WORD if it holds zero"
claim "$S, s. 4.1" "users' overestimates help conservative backfill" \
	"estimates from [r, $F r] against exact: $(pi "$p_cons")" \
	"${p_cons%%|*}" "the interval of the wait's change below zero; $NOISE_WORD if it holds zero"
claim "$S, s. 4.1" "\"Inaccuracy is less helpful with relaxed backfill\"" \
	"relaxed's change of the wait minus conservative's, seed by seed: $(pi "$p_rc" " points") (relaxed: $(pi "$(paired '<0' "${ch_rel[@]}")"))" \
	"${p_rc%%|*}" "the interval of the difference above zero (relaxed's wait falls less); $NOISE_WORD if it holds zero"
# s. 4.2 and Exhibit 11: machine size. The paper's remove and add columns sit far above its backfilling
# columns (Exhibit 11 section), so they were probably run without backfilling: each claim is judged
# both ways, FCFS without backfilling and relaxed backfilling (1 h), one row each.
# "modest (5-10%) reductions in system capacity caused dramatic increases in wait times" (Exhibit 11:
# 64 of 1,152 CPUs fewer, x3.6; 128 fewer, x13.5, against its no-backfill column). Direction: the wait
# rises with 6 and with 12 of 100 processors fewer; dramatic: at least doubles at both.
cap_cut() { # LABEL BASE M6 M12
	local r6 r12
	r6=$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.2f", b / a }')
	r12=$(awk -v a="$2" -v b="$4" 'BEGIN { printf "%.2f", b / a }')
	claim "$S, s. 4.2, Exhibit 11" "\"modest (5-10%) reductions in system capacity caused dramatic increases in wait times\" ($1)" \
		"6 and 12 of 100 processors fewer: wait x$r6 and x$r12 ($(commas "$2") s to $(commas "$3") s and $(commas "$4") s)" \
		"$(directed "$r6 > 1 && $r12 > 1" "$r6 >= 2 && $r12 >= 2")" \
		"direction: longer with both cuts (else NOT REPRODUCED); dramatic: at least x2 with both"
}
cap_cut "without backfilling, FCFS" "$wait_fcfs" "$wait_f94" "$wait_f88"
cap_cut "relaxed backfilling, 1 h" "$wait_rel" "$wait_m6" "$wait_m12"
# Exhibit 11: 128 of 1,152 CPUs more (11%) lower the wait (1,128 s against 4,076 s, -72%). Threshold:
# 12 of 100 more lower it by 25% at least.
cap_add() { # LABEL BASE P12
	local dp
	dp=$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%.1f", 100 * (b - a) / a }')
	claim "$S, Exhibit 11" "11% more processors lower the average wait (1,128 s against 4,076 s, -72%) ($1)" \
		"12 of 100 more: $(commas "$2") s to $(commas "$3") s (${dp}%)" \
		"$(directed "$dp < 0" "$dp <= -25")" "direction: lower (else NOT REPRODUCED); REPRODUCED at least 25% lower"
}
cap_add "without backfilling, FCFS" "$wait_fcfs" "$wait_f112"
cap_add "relaxed backfilling, 1 h" "$wait_rel" "$wait_p12"
# s. 4.2: backfilling is worth more than 10% more processors. Threshold: strict backfilling on 100
# processors waits less than FCFS without backfilling on 112.
claim "$S, s. 4.2" "\"Adding backfill ... improves system performance more than a 10% increase in processor capacity\"" \
	"strict backfilling on 100: $(commas "$wait_cons") s; FCFS on 112: $(commas "$wait_f112") s" \
	"$(verdict "$wait_cons < $wait_f112")" "threshold: lower average wait with backfilling"

echo
echo "The claims below also use these replays (Exhibit 11's machine sizes, s. 4.2, and utilization at shrink 0.6):"
echo
for f in fcfs cons minus6 minus12 plus12 fcfs94 fcfs88 fcfs112 load06; do echo "    $(cat "$tmp/$f.cmd")"; done
echo
times >"$tmp/times" # the builtin, in this shell: line 2 is the children's user and system time
echo "This section took $(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%.1f s", t }' \
	"$tmp/times") of CPU (its replays, user and system$(sweep_reused ""))."
if [ $own_table -eq 1 ]; then
	echo
	echo "### What reproduces (Spear and McGalliard 2007)"
	echo
	claims_table
fi
