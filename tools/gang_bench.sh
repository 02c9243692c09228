#!/usr/bin/env bash
# make gang-bench (and make bench): the cost of gang scheduling (seed 002) per
# quantum and per arrival, in instructions (callgrind's inclusive counts of
# sched_gang_tick and sched_gang_submit over a whole replay, divided by the
# quanta and arrivals of that replay), on 128 and 1024 processors, every
# scheme, Downey model workloads at rho 0.5 and 0.9. Writes docs/gang-cost.md.
# Instruction counts repeat exactly; no wall time is quoted.
set -eu
B=${BUILD:-build}
JOBS=${JOBS:-2000}
out=${OUT:-docs/gang-cost.md}
. "$(dirname "$0")/lib.sh"
command -v valgrind >/dev/null 2>&1 || need_packages valgrind
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
inclusive() { # callgrind file, function: its inclusive instruction count
	callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
		awk -v f="$2" '$0 ~ ":" f " \\[" { gsub(",", "", $1); print $1; exit }'
}

rows=""
for procs in 128 1024; do
	for rho in 0.5 0.9; do
		"$B/wlgen" --model downey --jobs "$JOBS" --procs "$procs" --load "$rho" --seed 1 -o "$tmp/w.swf" 2>/dev/null
		for sc in bc br brms brmms; do
			"$B/replay" --policy gang --scheme "$sc" --max-slots 1024 --format csv "$tmp/w.swf" >"$tmp/csv"
			read -r calls slots maxslots < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				{ printf "%d %.2f %d\n", $c["gang_quanta"], $c["gang_avg_slots"], $c["gang_max_slots"] }' "$tmp/csv")
			valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$B/replay" --policy gang --scheme "$sc" --max-slots 1024 \
				"$tmp/w.swf" >/dev/null 2>"$tmp/vg"
			tick=$(inclusive "$tmp/cg" sched_gang_tick)
			submit=$(inclusive "$tmp/cg" sched_gang_submit)
			per_q=$(awk -v a="$tick" -v b="$calls" 'BEGIN { printf "%.0f", a / b }')
			per_a=$(awk -v a="$submit" -v b="$JOBS" 'BEGIN { printf "%.0f", a / b }')
			rows="$rows| $procs | $rho | ${sc^^} | $(commas "$calls") | $slots | $maxslots | $(commas "$per_q") | $(commas "$per_a") |
"
			echo "gang $procs procs rho $rho $sc: $calls quanta, $per_q instr/quantum, $per_a instr/arrival" >&2
		done
	done
done

{
	echo "# The cost of gang scheduling"
	echo
	echo "Produced by \`make gang-bench\` (tools/gang_bench.sh, also run by \`make bench\`) on"
	echo "$(date -u +%Y-%m-%d), $(gcc --version | head -1), \`-O2\`, x86-64 instructions counted by"
	echo "callgrind. For each machine size and load, one Downey model workload of $JOBS jobs"
	echo "(\`build/wlgen --model downey --jobs $JOBS --procs P --load RHO --seed 1\`, sizes 1 to P"
	echo "uniform in log space, 1 to 120 slots of 5 s) is replayed under each scheme"
	echo "(\`build/replay --policy gang --scheme S --max-slots 1024\`). *Per quantum* is the"
	echo "inclusive count of \`sched_gang_tick\` (one quantum: the context switch list, the"
	echo "ends, and the re-packing, slot deletion, extra slots and waiting arrivals they"
	echo "trigger) over the quanta of the replay; *per arrival* is that of \`sched_gang_submit\`"
	echo "(buddy placement, re-packing, a new slot if needed, and under BRMS and BRMMS the"
	echo "extra slots it hands out or takes back) over the $JOBS arrivals. Averages: a single"
	echo "call can cost much more (an end that lets a slot be deleted walks the matrix)."
	echo
	echo "| processors | rho | scheme | quanta | avg slots n_a | largest n_l | instructions per quantum | per arrival |"
	echo "|---:|---:|---|---:|---:|---:|---:|---:|"
	printf '%s' "$rows"
} >"$out.tmp"
publish "$out"
