#!/usr/bin/env bash
# make priorities-report: docs/priorities-results.md. Slack-based backfilling
# on KTH SP2 in the layouts of seed 003 Tables 1 and 5, the comparison of
# seed 001 Exhibit 11, and site queues at work. Every table is made by the
# replayer commands printed above it; the paper's figures are typed in below.
set -eu
B=${BUILD:-build}
R=$B/replay
K=fixtures/KTH-SP2-1996-2.1-cln.fix
out=docs/priorities-results.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run FILE ARGS...: the replayer's CSV into FILE, the command kept for the document.
run() {
	local f=$1
	shift
	"$R" --format csv "$@" >"$tmp/$f"
	echo "build/replay --format csv $*" | sed "s|$B/||" >"$tmp/$f.cmd"
}

# Seed 003 Table 1 (seconds): month, conservative, priority.
cat >"$tmp/paper_t1" <<'TXT'
1996-09 440.6 440.6
1996-10 3062.7 2504.3
1996-11 4887.0 3774.6
1996-12 2157.2 1904.2
1997-01 3302.3 2531.9
1997-02 2624.3 2373.9
1997-03 2644.8 2196.9
1997-04 2220.3 1905.2
1997-05 2093.6 1779.2
1997-06 1443.2 1282.0
1997-07 399.9 354.1
1997-08 1941.5 1670.8
TXT

run t1.csv --procs 128 --by-month --policy cons,slack "$K"
run t5eq.csv --procs 128 --by-month --policy slack --heuristic ast,aat,dc,du,dp "$K"
run t5hi.csv --procs 128 --by-month --policy slack --heuristic ast,aat,dc,du,dp --hi-pri-every 5 "$K"
run t5c_eq.csv --procs 128 --by-month --policy slack --early-end compress "$K"
run t5c_hi.csv --procs 128 --by-month --policy slack --early-end compress --hi-pri-every 5 "$K"
run x_fcfs.csv --policy fcfs "$K"
run x_cons.csv --policy cons "$K"
run x_relaxed.csv --policy relaxed --tolerance 1h "$K"
run x_minus12.csv --policy relaxed --tolerance 1h --procs 88 "$K"
run x_minus6.csv --policy relaxed --tolerance 1h --procs 94 "$K"
run x_plus12.csv --policy relaxed --tolerance 1h --procs 112 "$K"
"$R" --site fixtures/sdsc-sp2.site --policy fcfs,cons,relaxed --tolerance 1h \
	fixtures/SDSC-SP2-1998-4.2-cln.fix >"$tmp/sdsc_site"
"$R" --site fixtures/nccs-palm.site --policy fcfs,cons,relaxed --tolerance 1h "$K" >"$tmp/nccs_site"

# Column KEY of the CSV rows as "policy period jobs value".
sel() {
	awk -F, -v key="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["policy"], $c["period"], $c["jobs"], $c[key] }' "$tmp/$1"
}

table1() {
	sel t1.csv avg_wait | awk -v paper="$tmp/paper_t1" '
		BEGIN { while ((getline l < paper) > 0) { split(l, f, " "); pc[f[1]] = f[2]; pp[f[1]] = f[3] } }
		$1 == "cons" { cons[$2] = $4; jobs[$2] = $3; order[++n] = $2 }
		$1 == "slack" { slack[$2] = $4 }
		END {
			print "| month | jobs | conservative | slack (AST) | change | paper: conservative | paper: priority | paper: change |"
			print "|---|---:|---:|---:|---:|---:|---:|---:|"
			for (i = 1; i <= n; i++) {
				m = order[i]; tj += jobs[m]; tc += cons[m] * jobs[m]; ts += slack[m] * jobs[m]
				ch = cons[m] > 0 ? sprintf("%.1f%%", 100 * (cons[m] - slack[m]) / cons[m]) : "-"
				pch = pc[m] > 0 ? sprintf("%.1f%%", 100 * (pc[m] - pp[m]) / pc[m]) : "-"
				printf "| %s | %d | %.1f | %.1f | %s | %s | %s | %s |\n", m, jobs[m], cons[m], slack[m], ch, pc[m], pp[m], pch
			}
			printf "| **average** | %d | **%.1f** | **%.1f** | **%.1f%%** | **2401.44** | **2004.46** | **16.5%%** |\n",
				tj, tc / tj, ts / tj, 100 * (tc - ts) / tc
		}'
}

# Yearly averages (total wait / total jobs over the months) per heuristic.
table5() {
	{ sel t5eq.csv avg_wait | sed 's/^/eq /'
	  sel t5hi.csv avg_wait | sed 's/^/all /'
	  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print "hi", $c["policy"], $c["period"], $c["hi_pri_jobs"], $c["hi_pri_avg_wait"]
		  print "lo", $c["policy"], $c["period"], $c["lo_pri_jobs"], $c["lo_pri_avg_wait"] }' "$tmp/t5hi.csv"
	} | awk '
		{ k = $1 " " $2; if ($4 > 0) { w[k] += $5 * $4; j[k] += $4 } }
		END {
			split("ast aat dc du dp", h, " ")
			split("Ascend Sched,Ascend Arrival,Descend Cost,Descend Util,Descend Pri", name, ",")
			printf "| |"; for (i = 1; i <= 5; i++) printf " %s |", name[i]; print ""
			printf "|---|"; for (i = 1; i <= 5; i++) printf "---:|"; print ""
			best = w["eq slack-ast"] / j["eq slack-ast"]
			row("Equal Pri", "eq"); row("Unequal Pri", "all")
			printf "| Perf Loss |"; for (i = 1; i <= 5; i++) printf " %.1f%% |", 100 * (v("all", h[i]) - best) / best; print ""
			row("Hi-Pri Jobs", "hi"); row("Lo-Pri Jobs", "lo")
			printf "| Gap |"; for (i = 1; i <= 5; i++) printf " %.1f |", v("lo", h[i]) - v("hi", h[i]); print ""
		}
		function v(kind, heur,   k) { k = kind " slack-" heur; return j[k] ? w[k] / j[k] : 0 }
		function row(label, kind,   i) { printf "| %s |", label; for (i = 1; i <= 5; i++) printf " %.1f |", v(kind, h[i]); print "" }'
}

# Equal and unequal priorities, hi and lo, for AST with each early-end treatment.
early_end() {
	for mode in search compress; do
		if [ $mode = search ]; then eq=t5eq.csv hi=t5hi.csv; else eq=t5c_eq.csv hi=t5c_hi.csv; fi
		awk -F, -v mode=$mode -v eqf="$tmp/$eq" '
			BEGIN { while ((getline l < eqf) > 0) { n++; split(l, f, ","); if (n == 1) { for (i = 1; i in f; i++) c[f[i]] = i; continue }
				if (f[c["policy"]] ~ /ast$|^slack$/) { ew += f[c["avg_wait"]] * f[c["jobs"]]; ej += f[c["jobs"]] } } }
			NR == 1 { for (i = 1; i <= NF; i++) d[$i] = i; next }
			$d["policy"] ~ /ast$|^slack$/ { aw += $d["avg_wait"] * $d["jobs"]; aj += $d["jobs"]
				hw += $d["hi_pri_avg_wait"] * $d["hi_pri_jobs"]; hj += $d["hi_pri_jobs"]
				lw += $d["lo_pri_avg_wait"] * $d["lo_pri_jobs"]; lj += $d["lo_pri_jobs"] }
			END { printf "| %s | %.1f | %.1f | %.1f | %.1f | %.1f |\n", mode, ew / ej, aw / aj, hw / hj, lw / lj, lw / lj - hw / hj }' "$tmp/$hi"
	done
}

exhibit11() {
	awk -F, '
		FNR == 1 { f++; for (i = 1; i <= NF; i++) c[f, $i] = i; next }
		{ for (i = 1; i <= NF; i++) val[f, i] = $i }
		END {
			n = split("makespan total_run avg_run max_run min_run avg_wait max_wait min_wait utilization_pct ef ef_1_32 ef_33_64 ef_65_120 ef_121_up jobs skipped", key, " ")
			split("Total elapsed time,Total run time,Average run time,Max run time,Min run time,Average wait time,Max wait time,Min wait time,Average usage (%),Total Expansion Factor,(0 to 32) Expansion Factor,(33 to 64) Expansion Factor,(65 to 120) Expansion Factor,(121+) Expansion Factor,Jobs replayed,Jobs skipped (wider than the machine)", label, ",")
			print "| Workload | No Backfill | Strict Backfill | Relaxed Backfill | Remove 12 CPUs | Remove 6 CPUs | Add 12 CPUs |"
			print "|---|---:|---:|---:|---:|---:|---:|"
			for (k = 1; k <= n; k++) {
				printf "| %s |", label[k]
				for (g = 1; g <= f; g++) {
					x = val[g, c[g, key[k]]]
					if (x == "") printf " - |"
					else if (key[k] ~ /^ef/) printf " %.2f |", x
					else if (key[k] == "utilization_pct") printf " %.2f |", x
					else printf " %.0f |", x
				}
				print ""
			}
		}' "$tmp/x_fcfs.csv" "$tmp/x_cons.csv" "$tmp/x_relaxed.csv" "$tmp/x_minus12.csv" \
		"$tmp/x_minus6.csv" "$tmp/x_plus12.csv"
}

cmds() {
	for f in "$@"; do echo "    $(cat "$tmp/$f.cmd")"; done
}

{
	cat <<'TXT'
# Priorities at work: slack-based and relaxed backfilling, site queues

Produced by `make priorities-report` (tools/priorities_report.sh) from the
committed fixtures; every number below comes from the replayer commands
printed above its table, and the paper's figures are typed in for
comparison. How the policies work, and which delays each one bounds, is in
[priorities.md](priorities.md).

## Slack-based backfilling on KTH SP2 (seed 003 Table 1 layout)

Each calendar month of the KTH trace replayed on its own on 128 processors,
as the paper did (section 3.1: "the average wait time of the system with 128
processors"; the SP2 itself had 100), under conservative backfilling and
under slack-based backfilling with the paper's parameters: all alphas 1,
SF = 3, AWT = 2401 s, heuristic AST, equal (zero) user and political
priorities. The average row is total wait over total jobs, as in the paper.

TXT
	cmds t1.csv
	echo
	table1
	cat <<'TXT'

## The five heuristics (seed 003 Table 5 layout)

The same monthly replays under each complexity-reduction heuristic, first
with equal priorities, then with every fifth job of each month given user
and political priority 1 and the others 0 (section 3.3). Yearly averages in
seconds; Perf Loss is relative to the best equal-priority result (AST), Gap
is low-priority minus high-priority average wait.

TXT
	cmds t5eq.csv t5hi.csv
	echo
	table5
	cat <<'TXT'

Seed 003's Table 5, for comparison:

| | Ascend Sched | Ascend Arrival | Descend Cost | Descend Util | Descend Pri |
|---|---:|---:|---:|---:|---:|
| Equal Pri | 2004.5 | 2088.5 | 2179.9 | 2206.0 | 2120.0 |
| Unequal Pri | 2226.2 | 2223.3 | 2250.1 | 2279.8 | 2228.5 |
| Perf Loss | 11.1% | 10.9% | 12.3% | 13.7% | 11.2% |
| Hi-Pri Jobs | 1955.3 | 1952.6 | 1988.1 | 2048.9 | 1962.3 |
| Lo-Pri Jobs | 2294.0 | 2291.1 | 2315.7 | 2337.6 | 2295.1 |
| Gap | 338.7 | 338.5 | 327.6 | 288.7 | 332.7 |

### When a job ends early

Seed 003 defines insert, remove and Tick; a running job that ends before its
estimate is not covered (Tick "simply" kills overdue jobs and starts due
ones). By default we run the removal search then (`--early-end search`);
`--early-end compress` uses plain compression instead. AST, yearly averages:

TXT
	cmds t5c_eq.csv t5c_hi.csv
	echo
	echo "| early end | Equal Pri | Unequal Pri | Hi-Pri Jobs | Lo-Pri Jobs | Gap |"
	echo "|---|---:|---:|---:|---:|---:|"
	early_end
	cat <<'TXT'

### Where and why the numbers differ from the paper's

- **The headline agrees.** Slack-based backfilling beats conservative in
  every month, by 17.4% over the year against the paper's 16.5%, and the
  heuristics rank as in the paper with equal priorities, AST best and DU
  worst (the paper: AST, AAT, DP, DC, DU; we find AAT, DC and DP within
  0.1% of each other).
- **Absolute waits are lower** than the paper's: conservative averages
  2016 s here against 2401 s. The paper does not say how its simulator
  treated early ends under conservative (we compress), how it cleaned the
  log (we replay the archive's cleaned version 2.1, 28,476 jobs, 1 skipped;
  the paper's months hold 85 to 4,060 jobs, ours 92 to 4,081), or where its
  months begin (ours are calendar months in the trace's Stockholm time).
  September 1996 shows the months differ: 85 jobs waiting 440.6 s on
  average there, 92 jobs waiting under a second here.
- **Priorities separate the classes less.** With every fifth job at high
  priority, the paper's high-priority jobs wait 339 s less than the others
  and the total rises 11%; ours wait 61 s less (AST) and the total rises
  1.7%, and under DC the high-priority jobs even wait longer. The choice at
  early ends is part of the reason: with plain compression (the table
  above) the gap grows to about 180 s, and the overall wait rises by about
  6%: the removal search re-prices the whole schedule at every early end
  and wins waiting time for everyone, lowering what a priority can buy. We
  have not found a reading of the paper that reproduces its gap; the
  formulas themselves are checked against hand-computed cases and libm
  (tests/unit/test_priorities.c, test_num.c), and no schedule ever overdraws
  a slack (the checker on random workloads and on this trace).

## Relaxed backfilling and machine size (seed 001 Exhibit 11 layout)

The whole KTH trace on its 100 processors, one command per column: FCFS
without backfilling, conservative (strict) backfilling, relaxed backfilling
with a tolerance of one hour, and relaxed backfilling on a machine with 12
and 6 processors fewer and 12 more (NCCS removed 128 and 64 of 1,152 and
added 128: about 11% and 5.5%). Times in seconds. With fewer processors
the jobs wider than the machine cannot run at all and are skipped (last row).

The pattern is the paper's: backfilling changes everything (average wait
354,169 s without, 7,344 s with strict backfilling; the paper's 4,076 and
190), relaxed backfilling improves on strict a little (the paper: 190 and
190 s average wait, expansion factor 1.10 and 1.07), and a machine 11%
smaller almost doubles the wait while 12% more nearly halves it. The
paper's remove and add columns are 13.5 times and a quarter of its
no-backfill column (54,934 and 1,128 s against 4,076 s) but far above its
backfilling ones (190 s), so they were probably run without backfilling;
ours use relaxed backfilling, the policy the paper recommends. The widest
class suffers most from fewer processors in both. The paper's relaxed column
repeats the no-backfill utilization (82.78%), which looks like a typo: ours
stays with strict (69.90%).

TXT
	cmds x_fcfs.csv x_cons.csv x_relaxed.csv x_minus12.csv x_minus6.csv x_plus12.csv
	echo
	exhibit11
	echo; CLAIMS=${CLAIMS:-} BUILD=$B tools/relaxed_sweep.sh
	cat <<'TXT'

## Site queues

SDSC SP2 with its six LoadLeveler classes as queues of different priority
(fixtures/sdsc-sp2.site, mapped from the trace's queue field), the rows
that differ by queue:

TXT
	echo '```'
	echo "\$ build/replay --site fixtures/sdsc-sp2.site --policy fcfs,cons,relaxed --tolerance 1h fixtures/SDSC-SP2-1998-4.2-cln.fix"
	grep -E '^(metric|jobs|refused|avg wait|expansion factor|utilization|relaxed starts|q )' "$tmp/sdsc_site"
	echo '```'
	cat <<'TXT'

KTH routed through the NCCS Palm/Explore queues of seed 001 Exhibit 3
(fixtures/nccs-palm.site: four hosts, per-user running limits, processor
and time ranges; the trace has no queue numbers, so jobs are routed by size
and requested time). The machine is ten times KTH's, so the waits that
remain are those the per-user limits impose:

TXT
	echo '```'
	echo "\$ build/replay --site fixtures/nccs-palm.site --policy fcfs,cons,relaxed --tolerance 1h fixtures/KTH-SP2-1996-2.1-cln.fix"
	grep -E '^(metric|jobs|refused|  by queue|avg wait|starts held|q )' "$tmp/nccs_site" | grep -v ' -  *- *-$'
	echo '```'
} >"$out"
echo "wrote $out"
