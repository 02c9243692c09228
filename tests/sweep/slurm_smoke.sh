#!/usr/bin/env bash
# Slurm's side of build/sweep, without build/sweep: a private single-node cluster
# (tests/sweep/slurm_lib.sh) runs a 4-task job array, and a job submitted with
# --dependency=afterok on it while it runs (the shape of a sweep: cells, then the gather).
# Prints TEST lines. When the cluster cannot start here (no packages, no root, daemons refusing),
# it prints "note: slurm could not start: REASON" and no TEST line, unless SLURM_REQUIRED=1
# asks for "TEST slurm.available FAIL REASON".
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=SCRIPTDIR/slurm_lib.sh
. "$here/slurm_lib.sh"
# Not mktemp's default tmp.XXXXXX: a name no other test's cleanup glob is likely to match.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slurm_smoke.XXXXXX")
chmod 711 "$tmp" # munged: the directories above its socket searchable by all
# The sbatch --wait clients run in the background and are waited for with wait, which a signal
# interrupts: killed, the test stops them and the cluster at once rather than after they return.
bg=()
trap 'kill "${bg[@]}" 2>/dev/null; slurm_stop; rm -rf "$tmp"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

result() {
	if [ "$2" -eq 0 ]; then echo "TEST slurm.$1 PASS"; else echo "TEST slurm.$1 FAIL $3"; fi
}

if ! slurm_start "$tmp/cluster" 2>/dev/null; then
	echo "note: slurm could not start: $SLURM_REASON"
	[ "${SLURM_REQUIRED:-0}" = 1 ] && echo "TEST slurm.available FAIL $SLURM_REASON"
	exit 0
fi
[ "${SLURM_REQUIRED:-0}" = 1 ] && result available 0 ""

out=$tmp/out
mkdir -p "$out"
# Each task: its line in a file named by its index, and its start and end times (for the
# order checks below). Half a second of sleep keeps the array running while the dependent job is
# submitted, so afterok is tested against a running array, not a finished one.
# shellcheck disable=SC2016 # expanded by the job, not here
task='t0=$(date +%s.%N); sleep 0.5; echo "task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT" >"$SLURM_ARRAY_TASK_ID.txt"; echo "$t0 $(date +%s.%N)" >"$SLURM_ARRAY_TASK_ID.time"'
sbatch --parsable --wait --array=0-3 --job-name=cells --chdir="$out" \
	--output="$out/cells-%A_%a.log" --wrap "$task" >"$tmp/array.id" 2>"$tmp/array.err" &
apid=$!
bg+=("$apid")
for _ in $(seq 50); do
	[ -s "$tmp/array.id" ] && break
	sleep 0.1
done
array=$(cut -d';' -f1 "$tmp/array.id")
case "$array" in
'' | *[!0-9]*)
	result array 1 "sbatch printed no job id: $(head -c 200 "$tmp/array.err")"
	exit 0
	;;
esac

# The gather: counts the task files it finds when it starts.
# shellcheck disable=SC2016
gather='echo "$(date +%s.%N) $(ls [0-9].txt | wc -l)" >gather.txt'
sbatch --parsable --wait --dependency="afterok:$array" --job-name=gather --chdir="$out" \
	--output="$out/gather-%j.log" --wrap "$gather" >"$tmp/gather.id" 2>"$tmp/gather.err" &
bg+=("$!")
wait "$!"
gst=$?
wait "$apid"
ast=$?

# The array: every task ran once, wrote its own file, exited 0.
bad=''
for i in 0 1 2 3; do
	want="task $i of 4"
	got=$(cat "$out/$i.txt" 2>/dev/null)
	[ "$got" = "$want" ] || bad="$bad $i.txt='$got'"
done
extra=$(find "$out" -name '*.txt' ! -name '[0-3].txt' ! -name gather.txt | wc -l)
if [ "$ast" -ne 0 ]; then
	result array 1 "sbatch --wait exit $ast: $(head -c 200 "$tmp/array.err")"
elif [ -n "$bad" ] || [ "$extra" -ne 0 ]; then
	result array 1 "task files wrong:$bad ($extra unexpected)"
else
	result array 0 ""
fi

# CR_CPU: never more tasks at once than the node has CPUs.
cpus=$(nproc)
most=$(cat "$out"/[0-3].time 2>/dev/null | awk '{ print $1, 1; print $2, -1 }' | sort -n -k1,1 -k2,2n |
	awk '{ n += $2; if (n > m) m = n } END { print m + 0 }')
if [ "$most" -gt "$cpus" ]; then
	result array_cpus 1 "$most tasks ran at once on $cpus CPUs"
else
	result array_cpus 0 ""
fi

# The dependent job: ran, after every task had ended, and saw all four files.
last=$(cat "$out"/[0-3].time 2>/dev/null | awk '$2 > m { m = $2 } END { print m + 0 }')
read -r gstart gseen <"$out/gather.txt" 2>/dev/null
if [ "$gst" -ne 0 ]; then
	result afterok 1 "sbatch --wait exit $gst: $(head -c 200 "$tmp/gather.err")"
elif [ -z "${gstart:-}" ]; then
	result afterok 1 "the dependent job did not run"
elif [ "${gseen:-0}" -ne 4 ] || awk -v s="$gstart" -v l="$last" 'BEGIN { exit !(s < l) }'; then
	result afterok 1 "the dependent job started at $gstart and saw ${gseen:-0} files; last task ended at $last"
else
	result afterok 0 ""
fi

# slurm_stop leaves nothing running (slurm_lib.sh: the daemons, any slurmstepd of this cluster).
left=$(slurm_stop_leftovers)
if [ -n "$left" ]; then
	result stop 1 "still running after slurm_stop:$left"
else
	result stop 0 ""
fi
