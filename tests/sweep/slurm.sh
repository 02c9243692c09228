#!/usr/bin/env bash
# build/sweep --slurm on a real Slurm: a private single-node cluster (slurm_lib.sh) runs the tests'
# 108-cell experiment as a job array of 6 tasks and a gather job, and the table must be the local
# run's, byte for byte. A re-submission finds every cell done and gathers the same table again.
# Prints TEST lines. When the cluster cannot start here it says why on a "note:" line (and fails
# only if SLURM_REQUIRED=1); the local sweep is tested by sweep.sh either way.
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=${BUILD:-build}
S=$PWD/$B/san/sweep
R=$PWD/$B/replay
# shellcheck source=tests/sweep/slurm_lib.sh
. "$here/slurm_lib.sh"
# shellcheck source=tests/sweep/lib.sh
. "$here/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sweep_slurm.XXXXXX")
chmod 711 "$tmp" # munged: the directories above its socket searchable by all
trap 'slurm_stop; rm -rf "$tmp"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

result() {
	if [ "$2" -eq 0 ]; then echo "TEST sweep.$1 PASS"; else echo "TEST sweep.$1 FAIL $3"; fi
}

sweep_workloads "$tmp"
sweep_big_experiment "$tmp"

# Without sbatch on the PATH, --slurm says so and submits nothing (this runs on any machine).
mkdir "$tmp/nobin"
PATH=$tmp/nobin "$S" "$tmp/big.exp" --replay "$R" --slurm -o "$tmp/x.csv" >/dev/null 2>"$tmp/err"
st=$?
if [ $st -eq 1 ] && grep -q "^sweep: --slurm: no sbatch on the PATH: this machine is no Slurm client; nothing was submitted" "$tmp/err" &&
	[ ! -e "$tmp/x.csv.cells/array.sbatch" ]; then
	result slurm_without_sbatch 0 ""
else
	result slurm_without_sbatch 1 "exit $st: $(head -2 "$tmp/err" | tr '\n' ' ')"
fi
# With the clients but no controller (a slurm.conf naming a closed port), --slurm says so plainly.
if command -v sbatch >/dev/null 2>&1 && command -v scontrol >/dev/null 2>&1; then
	printf 'ClusterName=none\nSlurmctldHost=nohost(127.0.0.1)\nSlurmctldPort=9\nMessageTimeout=2\nAuthType=auth/none\nNodeName=nohost CPUs=1\nPartitionName=p Nodes=nohost\n' >"$tmp/down.conf"
	SLURM_CONF=$tmp/down.conf "$S" "$tmp/big.exp" --replay "$R" --slurm -o "$tmp/x.csv" >"$tmp/nc.out" 2>"$tmp/err"
	st=$?
	if [ $st -eq 1 ] && [ ! -s "$tmp/nc.out" ] && grep -q "^sweep: --slurm: no Slurm controller answers from here (scontrol ping" "$tmp/err" &&
		[ ! -e "$tmp/x.csv.cells/array.sbatch" ]; then
		result slurm_without_controller 0 ""
	else
		result slurm_without_controller 1 "exit $st: $(head -2 "$tmp/err" | tr '\n' ' ')"
	fi
fi

if ! slurm_start "$tmp/cluster" 2>/dev/null; then
	echo "note: slurm could not start, so the sweep's Slurm path is not tested here: $SLURM_REASON"
	[ "${SLURM_REQUIRED:-0}" = 1 ] && echo "TEST sweep.slurm_available FAIL $SLURM_REASON"
	exit 0
fi

"$S" "$tmp/big.exp" --replay "$R" --quiet -o "$tmp/local.csv" 2>"$tmp/local.err"
mkdir "$tmp/out"
"$S" "$tmp/big.exp" --replay "$R" --slurm --tasks 6 --wait --time 5 -o "$tmp/out/slurm.csv" \
	>"$tmp/submit.out" 2>"$tmp/submit.err"
st=$?
array=$(sed -n 's/.* in array job \([0-9]*\) of 6 tasks$/\1/p' "$tmp/submit.out")
logs=$(find "$tmp/out/slurm.csv.cells" -name "slurm-${array:-none}_*.out" | wc -l)
if [ $st -ne 0 ]; then
	result slurm_array 1 "exit $st: $(tail -2 "$tmp/submit.err" | tr '\n' ' ') $(cat "$tmp/out/slurm.csv.cells"/slurm-*.out 2>/dev/null | tail -3 | tr '\n' ' ')"
elif [ -z "$array" ] || [ "$logs" -ne 6 ]; then
	result slurm_array 1 "array job '$array' left $logs task logs, expected 6: $(cat "$tmp/submit.out")"
elif ! cmp -s "$tmp/local.csv" "$tmp/out/slurm.csv"; then
	result slurm_array 1 "the gathered table differs from the local run's"
else
	result slurm_array 0 ""
fi

# Submitted again: every task finds its cells done, the gather writes the same table.
rm -f "$tmp/out/slurm.csv"
"$S" "$tmp/big.exp" --replay "$R" --slurm --tasks 2 --wait -o "$tmp/out/slurm.csv" >"$tmp/submit2.out" 2>&1
st=$?
if [ $st -eq 0 ] && cmp -s "$tmp/local.csv" "$tmp/out/slurm.csv" && grep -q "(0 to run)" "$tmp/submit2.out"; then
	result slurm_resubmit 0 ""
else
	result slurm_resubmit 1 "exit $st: $(tr '\n' ' ' <"$tmp/submit2.out" | head -c 300)"
fi

# Stopped by the PIDs it started: no daemon and no job step of this cluster is left.
left=$(slurm_stop_leftovers)
result slurm_stopped "$([ -z "$left" ] && echo 0 || echo 1)" "still running after slurm_stop:$left"
exit 0
