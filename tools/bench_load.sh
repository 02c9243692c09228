#!/usr/bin/env bash
# make bench (issue 14, target 1): the planning policies under load. For KTH SP2 and CTC SP2 at
# --shrink 1.0, 0.8, 0.6, 0.5 and 0.4 (interarrival times x F: the queue grows as F falls), every
# planning policy (and EASY for reference) is replayed once per cell under a CPU-time cap:
#   CPU per job   user + system time of `build/replay --policy P [OPTS] --shrink F --format csv
#                 --quiet fixtures/TRACE.fix` (/usr/bin/time), divided by the replayed jobs
#   mean queue    the time-averaged number of waiting jobs, by Little's law: the sum of the waits
#                 (avg_wait x jobs) over the makespan
# A cell over the cap is killed (ulimit -t) and shows "> CAP s". Cells under FAST seconds run
# RUNS times and show the median CPU with [min-max]. Cells run WORKERS at a time (default: the
# cores); CPU time, unlike wall time, hardly depends on that.
# Writes docs/bench-load.md (OUT=... elsewhere), keeping its hand-written notes (from its
# "## Notes" heading on).
# ONLY=REGEX keeps the policies whose row name matches (e.g. ONLY='^cons$' for the rows a profile
# change moves; the other rows of OUT are then not written: copy the rows wanted by hand).
#   CAP=600 RUNS=3 FAST=5 WORKERS=N TRACES="..." SHRINKS="..." ONLY=REGEX tools/bench_load.sh
set -eu
B=${BUILD:-build}
out=${OUT:-docs/bench-load.md}
CAP=${CAP:-600}
RUNS=${RUNS:-3}
FAST=${FAST:-5}
WORKERS=${WORKERS:-$(nproc)}
traces=${TRACES:-"KTH-SP2-1996-2.1-cln CTC-SP2-1996-3.1-cln"}
shrinks=${SHRINKS:-"1.0 0.8 0.6 0.5 0.4"}
# NAME|OPTIONS: the policies of the issue (every planning one; slack with each heuristic; dynP
# basic and self-tuning with both deciders), conservative with the board's bound (a reservation
# depth of 64: another schedule, docs/bench-load.md's notes), EASY last as the reference.
policies=(
	"cons|--policy cons"
	"relaxed 1h|--policy relaxed --tolerance 3600"
	"slack ast|--policy slack --heuristic ast"
	"slack aat|--policy slack --heuristic aat"
	"slack du|--policy slack --heuristic du"
	"slack dc|--policy slack --heuristic dc"
	"slack dp|--policy slack --heuristic dp"
	"fcfs-replan|--policy fcfs-replan"
	"sjf|--policy sjf"
	"ljf|--policy ljf"
	"dynp-basic|--policy dynp-basic"
	"dynp simple|--policy dynp --decider simple"
	"dynp advanced|--policy dynp --decider advanced"
	"cons resdepth 64|--policy cons --reservation-depth 64"
	"easy|--policy easy"
)
if [ -n "${ONLY:-}" ]; then
	kept=()
	for p in "${policies[@]}"; do
		[[ ${p%%|*} =~ $ONLY ]] && kept+=("$p")
	done
	[ ${#kept[@]} -gt 0 ] || { echo "bench_load: ONLY=$ONLY matches no policy" >&2; exit 2; }
	policies=("${kept[@]}")
fi

. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/time ] || need_packages time
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-load.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# cell ID TRACE SHRINK OPTIONS...: writes $tmp/ID.out "CPU_SECONDS JOBS MEAN_QUEUE", one line
# per run ("- - -" when over the cap or failed).
cell() {
	local id=$1 trace=$2 shrink=$3
	shift 3
	local n=0
	: >"$tmp/$id.out"
	while :; do
		n=$((n + 1))
		if (ulimit -t "$CAP"; exec /usr/bin/time -f '%U %S' -o "$tmp/$id.time" "$B/replay" "$@" \
			--shrink "$shrink" --format csv --quiet "fixtures/$trace.fix") >"$tmp/$id.csv" 2>/dev/null; then
			local cpu
			cpu=$(awk '{ printf "%.3f", $1 + $2 }' "$tmp/$id.time")
			row=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
				NR == 2 { printf "%s %.1f", $c["jobs"], ($c["makespan"] > 0) ? $c["avg_wait"] * $c["jobs"] / $c["makespan"] : 0 }' "$tmp/$id.csv")
			echo "$cpu $row" >>"$tmp/$id.out"
			awk -v c="$cpu" -v f="$FAST" 'BEGIN { exit !(c < f) }' && [ "$n" -lt "$RUNS" ] && continue
		else
			echo "- - -" >>"$tmp/$id.out"
		fi
		break
	done
	echo "$trace F=$shrink $*: $(tr '\n' ' ' <"$tmp/$id.out")" >&2
}
export -f cell
export B CAP RUNS FAST tmp

i=0
: >"$tmp/list"
for t in $traces; do
	for f in $shrinks; do
		for p in "${policies[@]}"; do
			i=$((i + 1))
			echo "$i $t $f ${p#*|}" >>"$tmp/list"
		done
	done
done
echo "bench_load: $i cells, cap $CAP s of CPU each, $WORKERS at a time" >&2
xargs -P "$WORKERS" -L 1 bash -c 'cell "$@"' _ <"$tmp/list"

# fmt ID: "us per job (mean queue)" from the runs of one cell.
fmt() {
	awk -v cap="$CAP" '
		$1 == "-" { over = 1; next }
		{ cpu[++n] = $1; jobs = $2; q = $3 }
		END {
			if (over || n == 0) { printf "> %d s", cap; exit }
			m = n; for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (cpu[j] < cpu[i]) { t = cpu[i]; cpu[i] = cpu[j]; cpu[j] = t }
			med = (n % 2) ? cpu[(n + 1) / 2] : (cpu[n / 2] + cpu[n / 2 + 1]) / 2
			us = 1e6 * med / jobs
			s = (us >= 100) ? sprintf("%.0f", us) : sprintf("%.1f", us)
			if (n > 1) s = s sprintf(" [%.1f-%.1f]", 1e6 * cpu[1] / jobs, 1e6 * cpu[n] / jobs)
			printf "%s (%.0f)", s, q
		}' "$tmp/$1.out"
}

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
{
	echo "# The planning policies under load"
	echo
	echo "Produced by \`make bench\` (tools/bench_load.sh) on $(date -u +%Y-%m-%d), commit"
	echo "$(git rev-parse --short HEAD 2>/dev/null || echo unknown): $cpu, $(nproc) cores, $(gcc --version | head -1), \`-O2\`."
	echo "Each cell: **CPU time** (user + system, \`/usr/bin/time\`) per replayed job of"
	echo "\`build/replay --policy P [OPTIONS] --shrink F --format csv --quiet fixtures/TRACE.fix\`, in"
	echo "microseconds, and in brackets the mean queue (time-averaged waiting jobs: the sum of the waits"
	echo "over the makespan, Little's law). Cells under $FAST s ran $RUNS times: median [min-max]; slower"
	echo "ones once. A cell is stopped after $CAP s of CPU (\`> $CAP s\`). $WORKERS cells ran at a time."
	echo "CPU times vary by a few per cent between runs on this shared machine (and \`/usr/bin/time\` counts"
	echo "in 10 ms steps: 0.35 us a job on KTH, 0.13 on CTC); the schedules do not."
	id=0
	for t in $traces; do
		echo
		echo "## $t"
		echo
		printf '| policy |'
		for f in $shrinks; do printf ' F = %s |' "$f"; done
		echo
		printf '|---|'
		for _ in $shrinks; do printf -- '---:|'; done
		echo
		# The cells were numbered trace, shrink, policy (the last fastest); the rows are policies.
		base=$id
		np=${#policies[@]}
		for k in "${!policies[@]}"; do
			printf '| %s |' "${policies[$k]%%|*}"
			j=0
			for _ in $shrinks; do
				printf ' %s |' "$(fmt $((base + j * np + k + 1)))"
				j=$((j + 1))
			done
			echo
		done
		id=$((base + j * np))
	done
} >"$out.tmp"
# The hand-written notes: from "## Notes" to the end.
if [ -f "$out" ] && grep -q '^## Notes' "$out"; then
	echo >>"$out.tmp"
	sed -n '/^## Notes/,$p' "$out" >>"$out.tmp"
fi
mv "$out.tmp" "$out"
echo "wrote $out" >&2
