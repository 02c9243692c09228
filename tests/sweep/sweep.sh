#!/usr/bin/env bash
# build/sweep run locally: its table against replays the test runs itself, the same bytes for any number
# of workers and task shares, resumption after a SIGTERM or SIGKILL at a random cell, reruns when a
# trace changes, JSON, and the errors. Prints TEST lines. The sweep is the sanitizer build; the cells
# run the optimised replayer (hundreds of replays: the sweep is under test here, not the replayer).
set -u
B=${BUILD:-build}
S=$B/san/sweep
R=$B/replay
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

result() {
	if [ "$2" -eq 0 ]; then echo "TEST sweep.$1 PASS"; else echo "TEST sweep.$1 FAIL $3"; fi
}

# shellcheck source=tests/sweep/lib.sh
. "$(dirname "$0")/lib.sh"
sweep_workloads "$tmp"
sweep_big_experiment "$tmp"

# --- the table is the replays' own CSV, in the documented cell order ---------------------------------
cat >"$tmp/small.exp" <<EOF
trace $tmp/a.swf $tmp/b.swf
policy easy cons
vary --shrink 1 0.5
EOF
"$S" "$tmp/small.exp" --replay "$R" -o "$tmp/small.csv" 2>"$tmp/err"
st=$?
# The table's columns are the union of the cells' (cons has a parameter column that easy has not):
# each replay's row is laid out in the table's column order by name, blank where it has none.
cols=$(head -1 "$tmp/small.csv" | cut -d, -f6-)
{
	n=0
	for t in "$tmp/a.swf" "$tmp/b.swf"; do
		for p in easy cons; do
			for f in 1 0.5; do
				"$R" --format csv --policy "$p" --shrink "$f" "$t" |
					awk -F, -v cols="$cols" -v pre="$n,$t,$p,$f" '
						NR == 1 { for (i = 1; i <= NF; i++) {
								at[$i] = i  # a column the table lacks spoils the comparison
								if (index("," cols ",", "," $i ",") == 0) print "missing column " $i
							  }
							  next }
						{ m = split(cols, c, ","); line = pre
						  for (i = 1; i <= m; i++) line = line "," ((c[i] in at) ? $(at[c[i]]) : "")
						  print line }'
				n=$((n + 1))
			done
		done
	done
} >"$tmp/want_rows"
# Drop the digest (column 5: the sweep's own) and compare the rest; the header's sweep columns too.
cut -d, -f1-4,6- "$tmp/small.csv" | tail -n +2 >"$tmp/got_rows"
first=$("$R" --format csv --policy easy "$tmp/a.swf" | head -1)
hdr_ok=$(head -1 "$tmp/small.csv" | grep -c "^sweep_cell,sweep_trace,sweep_policy,sweep_shrink,sweep_digest,$(echo "$first" | cut -d, -f1-3)")
if [ $st -ne 0 ]; then
	result table_is_the_replays 1 "exit $st: $(tail -1 "$tmp/err")"
elif ! cmp -s "$tmp/got_rows" "$tmp/want_rows" || [ "$hdr_ok" -ne 1 ]; then
	result table_is_the_replays 1 "rows or header differ from the replays run one by one: $(diff "$tmp/got_rows" "$tmp/want_rows" | head -3)"
else
	result table_is_the_replays 0 ""
fi
digests=$(cut -d, -f5 "$tmp/small.csv" | tail -n +2 | sort -u | wc -l)
result digest_per_cell "$([ "$digests" -eq 8 ] && echo 0 || echo 1)" "$digests distinct digests for 8 cells"

# --- the same bytes for any number of workers; the progress line ----------------------------------
"$S" "$tmp/big.exp" --replay "$R" --workers 1 --quiet -o "$tmp/w1.csv" 2>/dev/null
"$S" "$tmp/big.exp" --replay "$R" --workers 2 --progress -o "$tmp/w2.csv" 2>"$tmp/w2.err"
"$S" "$tmp/big.exp" --replay "$R" --workers 7 --quiet -o "$tmp/w7.csv" 2>/dev/null
rows=$(tail -n +2 "$tmp/w1.csv" | wc -l)
if [ "$rows" -ne 108 ]; then
	result workers_same_bytes 1 "$rows rows for 108 cells"
elif cmp -s "$tmp/w1.csv" "$tmp/w2.csv" && cmp -s "$tmp/w1.csv" "$tmp/w7.csv"; then
	result workers_same_bytes 0 ""
else
	result workers_same_bytes 1 "the table differs between 1, 2 and 7 workers"
fi
grep -q "^sweep: 108/108 cells (100%)" "$tmp/w2.err"
result progress_into_pipe $? "no final progress line: $(tail -2 "$tmp/w2.err" | head -1)"

# Progress while cells run (issue 29): a replayer that sleeps 2.5 s per cell, one worker, two cells.
# A line a second, stamped by Python when it arrives (wall time; the run is sleep, not CPU), saying
# the cells running and those to start; no gap near a cell's length.
cat >"$tmp/replay-slow" <<EOF
#!/bin/sh
for a; do last=\$a; done
[ "\$last" = /dev/null ] && exit 1
sleep 2.5
exec "$PWD/$R" "\$@"
EOF
chmod +x "$tmp/replay-slow"
printf 'trace %s\npolicy easy\nseeds 1-2\n' "$tmp/a.swf" >"$tmp/slow.exp"
"$S" "$tmp/slow.exp" --replay "$tmp/replay-slow" --workers 1 --progress -o "$tmp/slow.csv" 2>&1 >/dev/null |
	python3 -u -c '
import sys, time
t0 = time.monotonic()
for line in sys.stdin:
    sys.stdout.write("%.3f %s" % (time.monotonic() - t0, line))' >"$tmp/slow.lines"
gap=$(awk '/ cells \(/ { if (n++) { g = $1 - prev; if (g > max) max = g } prev = $1 } END { printf "%.2f", max }' "$tmp/slow.lines")
ok=$(awk -v g="$gap" 'BEGIN { print (g > 0 && g <= 1.6) ? 0 : 1 }')
grep -q "sweep: 0/2 cells (0%), 0[.0-9]* cells/s, 1 running, 1 to start$" "$tmp/slow.lines" &&
	grep -q "sweep: 1/2 cells (50%), .*, 1 running, 0 to start$" "$tmp/slow.lines" &&
	grep -q "sweep: 2/2 cells (100%), [0-9.]* cells/s, [0-9.]* s$" "$tmp/slow.lines" || ok=1
result progress_while_cells_run "$ok" "largest gap $gap s: $(tr '\n' '|' <"$tmp/slow.lines")"

# A re-run skips every cell and writes the same table.
"$S" "$tmp/big.exp" --replay "$R" --quiet -o "$tmp/w1.csv" 2>"$tmp/rerun.err"
grep -q "108 cells, 108 done already, 0 to run" "$tmp/rerun.err" && cmp -s "$tmp/w1.csv" "$tmp/w2.csv"
result rerun_skips_all $? "$(head -1 "$tmp/rerun.err")"

# --- shares of tasks, gathered, give the same table; a gather with cells missing fails --------------
for i in 0 1 2 3 4; do "$S" "$tmp/big.exp" --replay "$R" --quiet --task "$i/5" -o "$tmp/tasks.csv" 2>/dev/null; done
"$S" "$tmp/big.exp" --replay "$R" --gather -o "$tmp/tasks.csv" 2>/dev/null
cmp -s "$tmp/tasks.csv" "$tmp/w1.csv"
result task_shares_gathered $? "5 task shares gathered differ from the local run"
"$S" "$tmp/big.exp" --replay "$R" --quiet --task 1/4 -o "$tmp/part.csv" 2>/dev/null
"$S" "$tmp/big.exp" --replay "$R" --gather -o "$tmp/part.csv" 2>"$tmp/gerr"
st=$?
if [ $st -eq 1 ] && [ ! -e "$tmp/part.csv" ] && grep -q "81 of 108 cells are not done" "$tmp/gerr" &&
	grep -q "^sweep: cell 0 is not done: --procs 64 --policy fcfs --estimates trace --seed 1 " "$tmp/gerr"; then
	result gather_names_missing 0 ""
else
	result gather_names_missing 1 "exit $st: $(tail -1 "$tmp/gerr")"
fi

# --- resumption: the replayer kills the sweep at a random cell (SIGTERM, then SIGKILL) ---------------
# The wrapper is the same file in every run (the digest covers the replayer), its victim in a file.
# The sweep's checks of the options (replays of /dev/null, before any cell) are not counted.
cat >"$tmp/replay-wrap" <<EOF
#!/bin/sh
for a; do last=\$a; done
[ "\$last" = /dev/null ] && exec "$PWD/$R" "\$@"
mkdir "$tmp/calls/\$\$" 2>/dev/null
if [ -s "$tmp/kill_at" ] && [ "\$(ls "$tmp/calls" | wc -l)" -ge "\$(cut -d' ' -f1 "$tmp/kill_at")" ]; then
	sig=\$(cut -d' ' -f2 "$tmp/kill_at")
	: >"$tmp/kill_at"
	kill -"\$sig" \$PPID
fi
exec "$PWD/$R" "\$@"
EOF
chmod +x "$tmp/replay-wrap"
for sig in TERM KILL; do
	rm -rf "$tmp/calls" "$tmp/r_$sig.csv" "$tmp/r_$sig.csv.cells"
	mkdir "$tmp/calls"
	k=$((5 + RANDOM % 95))
	echo "$k $sig" >"$tmp/kill_at"
	"$S" "$tmp/big.exp" --replay "$tmp/replay-wrap" --quiet -o "$tmp/r_$sig.csv" 2>"$tmp/r1.err"
	st1=$?
	sleep 0.2 # a replay killed with its sweep (SIGKILL) ends by its parent-death signal
	kept=$(find "$tmp/r_$sig.csv.cells" -name '*.csv' | wc -l)
	tmps=$(find "$tmp/r_$sig.csv.cells" -name '*.tmp.*' | wc -l)
	"$S" "$tmp/big.exp" --replay "$tmp/replay-wrap" --quiet -o "$tmp/r_$sig.csv" 2>"$tmp/r2.err"
	st2=$?
	# Only the digest (column 6; the wrapper is not the replayer) may differ from the reference table.
	same=$(cut -d, -f1-5,7- "$tmp/r_$sig.csv" | cmp -s - <(cut -d, -f1-5,7- "$tmp/w1.csv") && echo 1 || echo 0)
	want=$([ $sig = TERM ] && echo 143 || echo 137)
	if [ $st1 -ne "$want" ]; then
		result "resume_after_$sig" 1 "killed at call $k: exit $st1, expected $want"
	elif [ "$kept" -lt 1 ] || [ "$kept" -ge 108 ]; then
		result "resume_after_$sig" 1 "killed at call $k: $kept cells kept"
	elif [ $sig = TERM ] && [ "$tmps" -ne 0 ]; then
		result "resume_after_$sig" 1 "$tmps half-written cells left after SIGTERM"
	elif [ $st2 -ne 0 ] || ! grep -q "108 cells, $kept done already" "$tmp/r2.err" || [ "$same" -ne 1 ]; then
		result "resume_after_$sig" 1 "killed at call $k ($kept kept): re-run exit $st2, $(head -1 "$tmp/r2.err"), same table: $same"
	else
		result "resume_after_$sig" 0 ""
	fi
done

# --- a changed trace runs its cells again; other cells are kept --------------------------------------
cp "$tmp/b.swf" "$tmp/b_orig.swf"
echo "; a comment changes the file, so the digest" >>"$tmp/b.swf"
todo=$("$S" "$tmp/big.exp" --replay "$R" -o "$tmp/w1.csv" --list | grep -c " todo ")
todo_b=$("$S" "$tmp/big.exp" --replay "$R" -o "$tmp/w1.csv" --list | grep " todo " | grep -c "$tmp/b.swf")
result changed_trace_reruns "$([ "$todo" -eq 54 ] && [ "$todo_b" -eq 54 ] && echo 0 || echo 1)" \
	"$todo cells to run after b.swf changed ($todo_b of them on b.swf), expected 54"
cp "$tmp/b_orig.swf" "$tmp/b.swf"

# --- axis groups with labels; --prune deletes only what is no cell of the experiment ----------------
cat >"$tmp/label.exp" <<EOF
axis machine  small: --procs 64 $tmp/a.swf | big: --procs 100 $tmp/a.swf | --procs 80 $tmp/a.swf
policy easy
EOF
"$S" "$tmp/label.exp" --replay "$R" --quiet -o "$tmp/label.csv" 2>/dev/null
labels=$(cut -d, -f2 "$tmp/label.csv" | tail -n +2 | tr '\n' '/')
procs=$(awk -F, 'NR > 1 { printf "%s/", $6 }' "$tmp/label.csv")
result axis_labels "$([ "$labels" = "small/big/--procs 80 $tmp/a.swf/" ] && [ "$procs" = "64/100/80/" ] && echo 0 || echo 1)" \
	"labels $labels, procs $procs"
# small.exp's 8 cells join label.exp's 3 in one folder; pruning for label.exp deletes the 8 only.
cp "$tmp/small.csv.cells"/*.csv "$tmp/label.csv.cells/"
"$S" "$tmp/label.exp" --replay "$R" --prune -o "$tmp/label.csv" 2>"$tmp/prune.err"
left=$(find "$tmp/label.csv.cells" -name '*.csv' | wc -l)
todo=$("$S" "$tmp/label.exp" --replay "$R" --list -o "$tmp/label.csv" | grep -c " todo ")
result prune "$([ "$left" -eq 3 ] && [ "$todo" -eq 0 ] && grep -q "deleted 8 files" "$tmp/prune.err" && echo 0 || echo 1)" \
	"$left cells left (want 3), $todo of label.exp's to run again: $(cat "$tmp/prune.err")"

# --- JSON: valid, one object per row, numbers unquoted ---------------------------------------------
"$S" "$tmp/small.exp" --replay "$R" -o "$tmp/small.json" 2>/dev/null
if command -v jq >/dev/null 2>&1; then
	n=$(jq length "$tmp/small.json" 2>/dev/null)
	ty=$(jq -r '.[0] | [(.jobs|type), (.sweep_shrink|type), (.sweep_digest|type), (.policy|type), (.run_check|type)] | join(",")' "$tmp/small.json" 2>/dev/null)
	result json_rows "$([ "${n:-0}" -eq 8 ] && [ "$ty" = "number,number,string,string,boolean" ] && echo 0 || echo 1)" \
		"jq: $n objects (want 8), types $ty"
else
	echo "note: jq not installed: the sweep's JSON is not parsed"
fi

# --- errors ----------------------------------------------------------------------------------------
# expect NAME STATUS PATTERN -- ARGS: the exit status and a line of stderr matching PATTERN.
expect() {
	local name=$1 want=$2 pat=$3
	shift 4
	"$S" "$@" >"$tmp/out" 2>"$tmp/err"
	local st=$?
	if [ $st -ne "$want" ]; then
		result "$name" 1 "exit $st, expected $want: $(head -1 "$tmp/err")"
	elif ! grep -Eq -- "$pat" "$tmp/err"; then
		result "$name" 1 "stderr '$(head -1 "$tmp/err")' does not match '$pat'"
	else
		result "$name" 0 ""
	fi
}
printf 'trace %s\npolicy easy\nrepeat 3\n' "$tmp/a.swf" >"$tmp/kw.exp"
printf 'trace %s\nset --jobs-out x.swf\n' "$tmp/a.swf" >"$tmp/res.exp"
printf 'trace %s\nvary --shrink\n' "$tmp/a.swf" >"$tmp/empty.exp"
printf 'trace %s %s\npolicy easy\n' "$tmp/a.swf" "$tmp/nope.swf" >"$tmp/missing.exp"
printf 'trace %s\npolicy easy lottery cons fcfs\nseeds 1-5\n' "$tmp/a.swf" >"$tmp/usage.exp"
expect unknown_keyword 2 "kw.exp:3: unknown keyword 'repeat'" -- "$tmp/kw.exp"
expect reserved_option 2 "res.exp:2: --jobs-out is set by the sweep itself" -- "$tmp/res.exp"
expect empty_axis 2 "empty.exp:2: axis 'shrink' has no values" -- "$tmp/empty.exp"
expect no_experiment 2 "no experiment file" --
expect unreadable_experiment 2 "nope.exp: cannot read the experiment file: No such file" -- "$tmp/nope.exp"
expect bad_workers 2 "--workers takes 1..1024, not 0" -- "$tmp/small.exp" --workers 0
expect wait_needs_slurm 2 "--wait goes with --slurm" -- "$tmp/small.exp" --wait
expect missing_replayer 1 "cannot run the replayer $tmp/none" -- "$tmp/small.exp" --replay "$tmp/none"
# Checked before any cell runs (issue 29): a trace that cannot be read, an option the replayer refuses
# (probed on an empty trace, where a bad option exits 2 before any reading), an output folder that
# takes no file. Nothing is launched: no cell file, no table.
expect missing_trace_checked 1 "missing.exp: cell 1: cannot read the trace $tmp/nope.swf: No such file or directory; nothing was launched" \
	-- "$tmp/missing.exp" --replay "$R" -o "$tmp/m.csv"
n=$(find "$tmp/m.csv.cells" -name '*.csv' -o -name '*.err' | wc -l)
result missing_trace_launches_nothing "$([ "$n" -eq 0 ] && [ ! -e "$tmp/m.csv" ] && echo 0 || echo 1)" "$n cell files"
# Inside axis groups (no trace line) the trace is the word named like one.
printf 'axis machine --procs 64 %s | --procs 80 %s\npolicy easy lotto\n' "$tmp/a.swf" "$tmp/nope.swf" >"$tmp/group.exp"
expect group_trace_checked 1 "group.exp: cell 2: cannot read the trace $tmp/nope.swf" -- "$tmp/group.exp" --replay "$R" -o "$tmp/g.csv"
printf 'axis machine --procs 64 %s | --procs 80 %s\npolicy easy lotto\n' "$tmp/a.swf" "$tmp/b.swf" >"$tmp/group.exp"
expect group_option_checked 2 "group.exp: the replayer refuses the arguments of cell 1 \(policy lotto\): replay: unknown policy 'lotto'" \
	-- "$tmp/group.exp" --replay "$R" -o "$tmp/g.csv"
printf 'trace %s\npolicy easy\nseeds 1-3\nset --shrnk 0.5\n' "$tmp/a.swf" >"$tmp/typo.exp"
expect option_typo_checked 2 "typo.exp: the replayer refuses the arguments of cell 0: replay: unknown option: --shrnk" \
	-- "$tmp/typo.exp" --replay "$R" -o "$tmp/t.csv"
expect axis_value_checked 2 "usage.exp: the replayer refuses the arguments of cell 5 \(policy lottery\): replay: unknown policy 'lottery'" \
	-- "$tmp/usage.exp" --replay "$R" --workers 1 -o "$tmp/u.csv"
n=$(find "$tmp/t.csv.cells" "$tmp/u.csv.cells" "$tmp/g.csv.cells" -name '*.csv' | wc -l)
result refused_options_launch_nothing "$([ "$n" -eq 0 ] && echo 0 || echo 1)" "$n cells ran, expected none"
# A file where the output's folder should be: mkdir fails before any cell (whoever runs the test).
expect output_folder_checked 1 "cannot make $tmp/a.swf/x.csv.cells" -- "$tmp/small.exp" --replay "$R" -o "$tmp/a.swf/x.csv"
# A cell that fails all the same (a trace that is there but is no SWF): its first error line, which
# names the trace and line, and the file holding all of its stderr.
printf 'garbage here\n1 2 3\n' >"$tmp/bad.swf"
printf 'trace %s %s\npolicy easy\n' "$tmp/a.swf" "$tmp/bad.swf" >"$tmp/badtrace.exp"
expect failed_cell 1 "cell 1 failed \(exit 1\): replay: $tmp/bad.swf:1: field 1 is not a number" -- "$tmp/badtrace.exp" --replay "$R" -o "$tmp/m.csv"
[ ! -e "$tmp/m.csv" ] && grep -Eq "\(all of its stderr: $tmp/m.csv.cells/[0-9a-f]{16}.err\)" "$tmp/err"
result failed_cell_no_table $? "a table was written although a cell failed, or no .err named: $(tail -1 "$tmp/err")"
# A replay that exits 2 on a real trace although its arguments passed the check still stops further
# launches: a replayer that refuses lottery's cells only when they run (not on the empty trace).
cat >"$tmp/replay-late" <<EOF
#!/bin/sh
for a; do last=\$a; done
[ "\$last" = /dev/null ] && exit 1
case " \$* " in *" lottery "*) echo "replay: lottery refused late" >&2; exit 2 ;; esac
exec "$PWD/$R" "\$@"
EOF
chmod +x "$tmp/replay-late"
rm -rf "$tmp/u.csv.cells"
expect usage_error_stops 2 "stopped launching: a replay refused its arguments" -- "$tmp/usage.exp" --replay "$tmp/replay-late" --workers 1 -o "$tmp/u.csv"
# 5 cells of easy ran before lottery's first cell refused; the 10 of cons and fcfs never started.
n=$(find "$tmp/u.csv.cells" -name '*.csv' | wc -l)
result usage_error_launches_no_more "$([ "$n" -eq 5 ] && echo 0 || echo 1)" "$n cells ran, expected 5"
# --- summaries and plots (issue 29): grouped means and 95% intervals, checked by Python's csv and
# statistics modules from the table itself, with t(0.975, 3) = 3.182 from a printed t table ------------
cat >"$tmp/sum.exp" <<EOF
trace $tmp/a.swf
policy easy cons
vary --shrink 1 0.7
set --estimates f=3
seeds 1-4
EOF
"$S" "$tmp/sum.exp" --replay "$R" --quiet -o "$tmp/sum.csv" --group-by policy,shrink --plot avg_bsld:shrink:policy 2>"$tmp/sum.err"
st=$?
python3 - "$tmp" "$st" <<'PY'
import csv, math, statistics, sys
tmp, st = sys.argv[1], int(sys.argv[2])
def result(name, ok, why=""):
    print("TEST sweep.%s %s" % (name, "PASS" if ok else "FAIL " + why))
if st != 0:
    result("summary", False, "exit %d: %s" % (st, open(tmp + "/sum.err").read()[-300:]))
    sys.exit(0)
rows = list(csv.DictReader(open(tmp + "/sum.csv")))
want, order = {}, []
for r in rows:
    k = (r["policy"], r["sweep_shrink"])
    if k not in want:
        want[k] = []
        order.append(k)
    want[k].append(r)
T3 = 3.182  # t(0.975, 3 degrees of freedom)
summ = list(csv.DictReader(open(tmp + "/sum.summary.csv")))
problems = []
if [(s["policy"], s["sweep_shrink"]) for s in summ] != order:
    problems.append("groups %s, want %s" % ([(s["policy"], s["sweep_shrink"]) for s in summ], order))
for s in summ:
    g = want.get((s["policy"], s["sweep_shrink"]), [])
    if int(s["n"]) != 4 or len(g) != 4:
        problems.append("n=%s for %d rows" % (s["n"], len(g)))
    for m in ("avg_bsld", "avg_wait", "utilization_pct", "max_wait"):
        v = [float(r[m]) for r in g]
        mean, half = statistics.mean(v), T3 * statistics.stdev(v) / math.sqrt(len(v))
        got_m, got_h = float(s[m + "_mean"]), float(s[m + "_ci95"])
        if not math.isclose(got_m, mean, rel_tol=1e-8, abs_tol=1e-9) or not math.isclose(got_h, half, rel_tol=1e-8, abs_tol=1e-9):
            problems.append("%s %s: %g +- %g, want %g +- %g" % (s["policy"], m, got_m, got_h, mean, half))
for c in summ[0]:
    if c.startswith("run_") or c.startswith("sweep_seed") or c.startswith("trace"):
        problems.append("column %s summarised" % c)
result("summary_means_and_intervals", not problems, "; ".join(problems[:3]))
# The plot's data: a block per policy in the order of first appearance, the points by shrink.
base = tmp + "/sum.avg_bsld-by-shrink-per-policy"
blocks = [b for b in open(base + ".dat").read().split("\n\n\n")]
got = []
for b in blocks:
    lines = [l for l in b.strip().split("\n") if not l.startswith("#")]
    got.append([tuple(float(x) for x in l.split()[:3]) for l in lines])
exp = []
for pol in ("easy", "cons"):
    pts = []
    for f in ("0.7", "1"):
        v = [float(r["avg_bsld"]) for r in want[(pol, f)]]
        pts.append((float(f), statistics.mean(v), T3 * statistics.stdev(v) / 2))
    exp.append(pts)
ok = len(got) == 2 and all(len(a) == 2 and all(math.isclose(x, y, rel_tol=1e-8) for p, q in zip(a, e) for x, y in zip(p, q)) for a, e in zip(got, exp))
result("plot_data", ok, "got %s, want %s" % (got, exp))
PY
if command -v gnuplot >/dev/null 2>&1; then
	svg=$tmp/sum.avg_bsld-by-shrink-per-policy.svg
	grep -q ">easy<" "$svg" && grep -q ">cons<" "$svg" && grep -q ">avg_bsld (mean, 95% interval)<" "$svg" && grep -q ">shrink<" "$svg"
	result plot_svg $? "the SVG lacks a line's title or an axis label: $(ls -la "$svg" 2>&1)"
else
	echo "note: sweep.plot_svg skipped: gnuplot is not installed (the .gp and .dat are checked above)"
fi
expect group_by_unknown 2 "--group-by: no column 'polcy' in the table \(the axes: trace, policy, shrink, seed" \
	-- "$tmp/sum.exp" --replay "$R" --quiet -o "$tmp/sum.csv" --group-by polcy
expect plot_not_a_metric 2 "--plot: policy is no metric" -- "$tmp/sum.exp" --replay "$R" --quiet -o "$tmp/sum.csv" --plot policy:shrink
expect group_by_json 2 "--group-by and --plot read the CSV table" -- "$tmp/sum.exp" --replay "$R" -o "$tmp/sum.json" --group-by policy
"$S" --help | grep -q "^Usage: sweep EXPERIMENT"
result help $? "--help prints no usage"
exit 0
