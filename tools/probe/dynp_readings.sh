#!/usr/bin/env bash
# The investigation behind docs/dynp.md "Why the advanced decider does not win
# here" and the readings table of docs/dynp-results.md: self-tuning dynP's
# simple and advanced deciders under other readings of "=" in Streit 2002
# (seed 004), section 3.2, Table 1. An instrumented copy of the core
# (dynp_readings.diff: the qualities the deciders compare, changed as the
# environment names) is built in a temporary clone of the committed tree; the
# tree itself is untouched.
#   tools/probe/dynp_readings.sh [TRACE.fix [PROCS]]
#       one row per reading: both deciders' ARTwW, the gap, the advanced
#       decider's calls, disagreements and case 6b (default: KTH_syn, seed 1,
#       as tools/dynp_report.sh makes it)
#   tools/probe/dynp_readings.sh --csv DIR SET:PROCS:FILE...
#       for tools/dynp_report.sh: each reading's replay of Table 4's command
#       (both deciders x three qualities) of each FILE into DIR/READING.SET.SEED.csv,
#       where FILE is .../SET.SEED.fix
# Readings (environment of the probe's replay): DYNP_EQ=sec (each quality as
# the average it stands for, in whole seconds), DYNP_EQ=rel:T (within a
# fraction T of each other is equal), DYNP_FCFS_IS_CURRENT=1 (FCFS scored as
# equal to the order in force).
set -eu
readings() { # NAME|ENV (empty: the core as it is)
	cat <<'TXT'
exact|
sec|DYNP_EQ=sec
rel0.1|DYNP_EQ=rel:0.001
rel1|DYNP_EQ=rel:0.01
rel5|DYNP_EQ=rel:0.05
fcfscur|DYNP_FCFS_IS_CURRENT=1
TXT
}
here=$(pwd)
abs() { case $1 in /*) echo "$1" ;; *) echo "$here/$1" ;; esac; }
if [ "${1:-}" = --csv ]; then
	outdir=$(abs "$2")
	shift 2
	specs=""
	for a in "$@"; do specs="$specs ${a%%:*}:$(echo "$a" | cut -d: -f2):$(abs "${a#*:*:}")"; done
	. "$(dirname "$0")/lib.sh"
	probe_clone dynp_readings.diff
	readings | while IFS='|' read -r name env; do
		for a in $specs; do
			set_=${a%%:*} p=$(echo "$a" | cut -d: -f2) f=${a#*:*:}
			seed=$(basename "$f" .fix)
			seed=${seed##*.}
			# shellcheck disable=SC2086 # env is one word or none
			env $env build/replay --policy dynp --decider simple,advanced --quality artww,art,ms --procs "$p" \
				--format csv --quiet "$f" >"$outdir/$name.$set_.$seed.csv"
		done
	done
	exit 0
fi
trace=$(abs "${1:-}")
procs=${2:-100}
. "$(dirname "$0")/lib.sh"
probe_clone dynp_readings.diff
if [ -z "${1:-}" ]; then
	# shellcheck disable=SC2154 # tmp: probe_clone sets it
	build/wlgen --model matrix --from fixtures/KTH-SP2-1996-2.1-cln.fix --procs 100 --weibull 0.35,200 --jobs 10000 --seed 1 \
		-o "$tmp/KTH_syn.fix" >/dev/null
	trace=$tmp/KTH_syn.fix
fi
echo "reading | ARTwW simple | ARTwW advanced | gap | calls (advanced) | differs | case 6b"
readings | while IFS='|' read -r name env; do
	# shellcheck disable=SC2086 # env is one word or none
	env $env build/replay --policy dynp --decider simple,advanced --procs "$procs" --format csv --quiet "$trace" |
		awk -F, -v r="$name" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ a[$c["policy"]] = $c["artww"]; if ($c["policy"] ~ /adv/) { n = $c["decider_calls"]; d = $c["decider_differs"]; b = $c["case_6b"] } }
			END { s = a["dynp-simple-artww"]; v = a["dynp-adv-artww"]
			      printf "%s | %.0f | %.0f | %.1f%% | %d | %.1f%% | %.1f%%\n", r, s, v, 100 * (s - v) / s, n, 100 * d / n, 100 * b / n }'
done
