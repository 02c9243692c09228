#!/usr/bin/env bash
# make dynp-report: docs/dynp-results.md. The dynP family (seed 004) on the
# archive traces and on trace-matrix synthetic sets made from them: seed 004
# Table 4 (simple vs advanced decider x three quality metrics), Tables 5 and
# 6 (the advanced decider with ARTwW in detail), and ARTwW and utilization
# over shrinking factors for FCFS, SJF, LJF, basic and self-tuning dynP.
# Every table is made by the commands printed above it.
set -eu
B=${BUILD:-build}
R=$B/replay
out=docs/dynp-results.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The synthetic sets: 10,000 jobs each from each trace's model, as seed 004 section 4 made them.
for t in KTH-SP2-1996-2.1-cln CTC-SP2-1996-3.1-cln SDSC-SP2-1998-4.2-cln; do
	"$B/wlgen" --model matrix --from "fixtures/$t.fix" --jobs 10000 --seed 1 -o "$tmp/${t%%-*}_syn.fix"
done
syn="KTH_syn CTC_syn SDSC_syn"
real="KTH-SP2-1996-2.1-cln CTC-SP2-1996-3.1-cln SDSC-SP2-1998-4.2-cln SDSC-Par-1996-3.1-cln lublin_256"
path_of() { case $1 in *_syn) echo "$tmp/$1.fix" ;; *) echo "fixtures/$1.fix" ;; esac; }
shown_path() { case $1 in *_syn) echo "$1.fix" ;; *) echo "fixtures/$1.fix" ;; esac; }

for s in $syn $real; do
	"$R" --policy dynp --decider simple,advanced --quality artww,art,ms --format csv "$(path_of "$s")" >"$tmp/t4_$s.csv"
done

# val FILE POLICY KEY
val() {
	awk -F, -v p="$2" -v k="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["policy"] == p { print $c[k] }' "$1"
}

table4() {
	local f=$tmp/t4_$1.csv
	local cols="dynp-simple-artww dynp-adv-artww dynp-simple-art dynp-adv-art dynp-simple-ms dynp-adv-ms"
	echo "| $1 | ARTwW simple | ARTwW advanced | ART simple | ART advanced | MS simple | MS advanced |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	row() { # label key format
		local line="| $1 |"
		for c in $cols; do line="$line $(val "$f" "$c" "$2" | awk -v fmt="$3" '{ printf fmt, $1 }') |"; done
		echo "$line"
	}
	row "ARTwW (s)" artww "%.0f"
	row "UTIL (%)" utilization_pct "%.2f"
	row "LOC" loc "%.5f"
	row "jobs started with SJF" started_sjf "%.0f"
	row "jobs started with FCFS" started_fcfs "%.0f"
	row "jobs started with LJF" started_ljf "%.0f"
}

# Tables 5 and 6: the advanced decider with ARTwW, one column per job set.
detail() {
	local sets="$*"
	local head="|" sep="|---|"
	for s in $sets; do head="$head $s |"; sep="$sep---:|"; done
	echo "| $head" | sed 's/^| |/| |/'
	echo "$sep"
	line() { # label key format
		local l="| $1 |"
		for s in $sets; do l="$l $(val "$tmp/t4_$s.csv" dynp-adv-artww "$2" | awk -v fmt="$3" '{ printf fmt, $1 }') |"; done
		echo "$l"
	}
	line "average run time (s)" avg_run "%.0f"
	line "average wait time (s)" avg_wait "%.0f"
	line "ART (s)" avg_response "%.0f"
	line "ARTwW (s)" artww "%.0f"
	line "utilization (%)" utilization_pct "%.2f"
	line "LOC" loc "%.5f"
	line "jobs started with SJF" started_sjf "%.0f"
	line "jobs started with FCFS" started_fcfs "%.0f"
	line "jobs started with LJF" started_ljf "%.0f"
	line "total tries of switches" decider_calls "%.0f"
	line "switches to SJF (%)" switches_sjf_pct "%.2f"
	line "switches to FCFS (%)" switches_fcfs_pct "%.2f"
	line "switches to LJF (%)" switches_ljf_pct "%.2f"
	line "same policy (%)" same_pct "%.2f"
	line "average backlog at start of self-tuning" avg_backlog "%.2f"
	for k in case_1 case_2_7 case_3_9 case_4b_5 case_4a case_4c case_6a case_6b case_6c case_8a case_8b case_8c \
		case_10a case_10b case_10c decider_differs; do
		label=$(echo "$k" | sed 's/^case_\([0-9a-z]*\)_\([0-9]*\)$/cases \1 \& \2/; s/^case_/case /; s/decider_differs/differences to the simple decider/')
		line "$label" "$k" "%.0f"
	done
}

# Shrinking factors: seed 004 section 5.2 used 1.00 down to 0.65 (CTC) and 0.60 (KTH); our SDSC set
# comes from the SDSC SP2 trace, already loaded at 1.00, so it gets the same range as KTH.
shrinks() { case $1 in CTC_syn) echo "1.00 0.90 0.80 0.75 0.70 0.65" ;; *) echo "1.00 0.90 0.80 0.70 0.65 0.60" ;; esac; }
for s in $syn; do
	for f in $(shrinks "$s"); do
		"$R" --policy fcfs-replan,sjf,ljf,dynp-basic,dynp --shrink "$f" --format csv "$(path_of "$s")" >"$tmp/c_${s}_$f.csv"
	done
done

curve() { # set key format
	local s=$1
	echo "| shrinking factor | FCFS | SJF | LJF | basic dynP | dynP (advanced, ARTwW) |"
	echo "|---:|---:|---:|---:|---:|---:|"
	for f in $(shrinks "$s"); do
		local l="| $f |"
		for p in fcfs-replan sjf ljf dynp-basic dynp; do
			l="$l $(val "$tmp/c_${s}_$f.csv" "$p" "$2" | awk -v fmt="$3" '{ printf fmt, $1 }') |"
		done
		echo "$l"
	done
}

{
	cat <<'TXT'
# The dynP family on traces and synthetic sets (seed 004)

Produced by `make dynp-report` (tools/dynp_report.sh); every number comes
from the commands shown. How the policies work is in [dynp.md](dynp.md).

**Job sets.** The five traces of the archive as they are, and three
synthetic sets of 10,000 jobs made as seed 004 section 4 made its own: the
trace-matrix model of `wlgen` (Weibull interarrival times, and width,
estimate and run time drawn together from the trace's joint frequencies),
one from each of KTH SP2, CTC SP2 and SDSC SP2:

    build/wlgen --model matrix --from fixtures/KTH-SP2-1996-2.1-cln.fix --jobs 10000 --seed 1 -o KTH_syn.fix
    build/wlgen --model matrix --from fixtures/CTC-SP2-1996-3.1-cln.fix --jobs 10000 --seed 1 -o CTC_syn.fix
    build/wlgen --model matrix --from fixtures/SDSC-SP2-1998-4.2-cln.fix --jobs 10000 --seed 1 -o SDSC_syn.fix

They differ from the seed's: its CTC set ran on 430 processors (ours: the
trace's 338-processor batch partition), and its SDSC set came from an SDSC
machine of 352 processors that sat nearly idle (utilization 31%), while ours
comes from the SDSC SP2 of 128 processors, which is loaded (90% at shrinking
factor 1). PC2, the seed's own trace, is not in the archive.

## Simple against advanced decider (seed 004 Table 4 layout)

Self-tuning dynP with each decider and each quality metric, at shrinking
factor 1, one command per job set:

TXT
	for s in $syn $real; do
		echo "    build/replay --policy dynp --decider simple,advanced --quality artww,art,ms --format csv $(shown_path "$s")"
	done
	echo
	for s in $syn $real; do
		table4 "$s"
		echo
	done
	cat <<'TXT'
## The advanced decider with ARTwW in detail (seed 004 Tables 5 and 6 layout)

The advanced-ARTwW column of the same runs. Cases that Table 1 states twice
(2 and 7, 3 and 9, 4b and 5) are counted together, as the seed's Table 6
does; the last row counts the steps where the simple decider would have
chosen another order.

TXT
	detail $syn
	echo
	detail $real
	cat <<'TXT'

## Over shrinking factors (seed 004 Figures 4 and 8)

ARTwW, then utilization, for FCFS, SJF and LJF (each with conservative
backfilling and re-planning at every job end), basic dynP (bounds 7200 s
and 9000 s, as in the seed) and self-tuning dynP (advanced decider, ARTwW);
one command per point:

    build/replay --policy fcfs-replan,sjf,ljf,dynp-basic,dynp --shrink F --format csv SET.fix

TXT
	for s in $syn; do
		echo "### $s: ARTwW (s)"
		echo
		curve "$s" artww "%.0f"
		echo
		echo "### $s: utilization (%)"
		echo
		curve "$s" utilization_pct "%.2f"
		echo
	done
	cat <<'TXT'
## Against seed 004's findings

- **Advanced against simple decider.** The seed finds the advanced decider
  "almost always better" for ARTwW, by up to 30.7% (KTH_syn, ARTwW quality).
  We do not: with ARTwW or ART as quality the two deciders are within about
  4% of each other on every set, each ahead on some (advanced ahead on
  CTC_syn and SDSC SP2, behind on KTH_syn and CTC). Where the seed sees the
  simple decider "favor FCFS", we see the same: with ARTwW the simple decider
  starts 14% to 53% of the jobs under FCFS, the advanced one 64% to 88%
  under SJF; and with makespan as quality the advanced decider runs most jobs
  under LJF (8,600 to 9,700 of 10,000 on the synthetic sets; the seed:
  6,900 to 9,400), which costs response time and buys little utilization,
  as in the seed.
- **Which cases come up.** Seed 004's Table 6 is dominated by case 6b (FCFS
  and SJF tie, SJF in force: over two thirds of the calls). Ours is dominated
  by cases 2 and 7 (SJF strictly best: half of the calls to nearly all),
  with 6b at 0.1% to 8%. Our steps also run at every submit, and our synthetic sets
  are not the seed's; the decisions themselves follow Table 1 exactly
  (tests/unit/test_dynp.c), so the difference lies in the schedules being
  compared, which we cannot see in the seed.
- **SJF for response time, LJF for utilization.** The seed finds SJF best
  for response time and slowdown on all four sets at every load, and LJF
  best for utilization. LJF's utilization is the highest here too at high
  load (95-97%), and SJF's the lowest: starved long jobs run at the end and
  stretch the makespan. SJF gives the best ARTwW of the single orders on
  KTH_syn at every load and on SDSC_syn below factor 0.9, but not on
  CTC_syn, where FCFS is far better (ARTwW 22,490 s against 87,412 s at
  factor 1): CTC's wide, long jobs wait behind every short one under SJF,
  and ARTwW weighs them by their width.
- **dynP against the single orders.** Self-tuning dynP (advanced, ARTwW)
  beats every single order on KTH_syn at every load, and on CTC_syn at
  factor 1; below 0.9 on CTC_syn it falls behind FCFS, which is exactly the
  anomaly the seed reports for its CTC_syn ("the advanced decider cannot
  compete with FCFS"). On SDSC_syn it stays close to SJF.
- **Basic dynP** with the seed's bounds of 7200 s and 9000 s is close to LJF
  and poor everywhere (the average estimate of these traces' queues is
  above 9000 s most of the time), which the seed also observed: "the old
  bound setting for the basic dynP scheduler performs bad for the four
  synthetic job sets".
- **Cost.** One self-tuning step at a backlog of 185 jobs costs 2.4 million
  instructions on the Cortex-M4 and about 0.26 ms on this host, against
  the seed's 0.05 s (docs/dynp.md, docs/bench-target.md).
TXT
} >"$out"
echo "wrote $out"
