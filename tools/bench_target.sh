#!/usr/bin/env bash
# make bench-target: the core's cost per operation on the Netduino Plus 2 under
# QEMU with exact instruction counting (-icount shift=0: TIM2 counts one per
# instruction), at backlogs of 16, 64, 256 and 1024 jobs, and whole replays of
# the KTH fixture. Runs everything twice; the counts must be identical.
# Writes docs/bench-target.md and prints the table.
set -eu
B=${BUILD:-build}
out=${OUT:-docs/bench-target.md}
elf=$B/fw/netduinoplus2/firmware.elf
qemu=$(make -s --no-print-directory print-qemu PORT=netduinoplus2)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # the console waits for input only after its banner; QEMU reads piped input at once
	# shellcheck disable=SC2086
	(sleep 1; printf 'bench\nreplay kth fcfs\nreplay kth easy\nreplay kth cons\nquit\n') |
		timeout 600 $qemu -kernel "$elf" | tr -d '\r' | grep -E '^(bench|ok replay)'
}
run >"$tmp/a"
run >"$tmp/b"
echo "== run 1 =="
cat "$tmp/a"
echo "== run 2 =="
cat "$tmp/b"
if ! cmp -s "$tmp/a" "$tmp/b"; then
	echo "bench-target: two runs gave different counts:" >&2
	diff "$tmp/a" "$tmp/b" >&2
	exit 1
fi
echo "== the two runs gave identical counts =="
n=$(grep -c '^bench' "$tmp/a")
# fcfs, easy, cons at 4 backlogs, relaxed, slack and easy-sjbf (the policies that need scratch) at 3, the
# five of the dynP family at 4; 3 operations each; then conservative with a bounded compression and with a
# reservation depth at 4 backlogs each; then gang scheduling: 4 schemes x 2 machines x 2 operations, through
# struct sched and again of the gang module alone. A new
# policy adds its lines (firmware/bench.c asks the registry): this count, and a table below, name it.
[ "$n" -eq 179 ] || { echo "bench-target: expected 179 bench lines, got $n" >&2; cat "$tmp/a" >&2; exit 1; }

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
# Least-squares slope of log(cost) against log(x) over the lines given on stdin as "x cost".
slope() { awk '{ x = log($1); y = log($2); n++; sx += x; sy += y; sxx += x * x; sxy += x * y }
	END { printf "%.2f", (n * sxy - sx * sy) / (n * sxx - sx * sx) }'; }
cells() { # policy op backlog...: " v1 | v2 | ..." the mean cost at each backlog, as table cells
	local p=$1 op=$2 b row=""
	shift 2
	for b in "$@"; do
		row="$row $(grep "policy=$p op=$op backlog=$b " "$tmp/a" | field per_op) |"
	done
	echo "$row"
}
gang_table() { # PREFIX: per quantum and per arrival of each scheme on both machines, from policy=PREFIX-SCHEME lines
	local sc procs op row
	echo "| scheme | per quantum, 128 procs | per arrival, 128 | per quantum, 1024 | per arrival, 1024 |"
	echo "|---|---:|---:|---:|---:|"
	for sc in bc br brms brmms; do
		row="| ${sc^^} |"
		for procs in 128 1024; do
			for op in quantum arrival; do
				row="$row $(grep "policy=$1-$sc op=$op procs=$procs " "$tmp/a" | field per_op) |"
			done
		done
		echo "$row"
	done
}
fit() { # policy op by(backlog|segments)
	grep "policy=$1 op=$2 " "$tmp/a" | while read -r l; do
		echo "$(echo "$l" | field "$3") $(echo "$l" | field per_op)"
	done | slope
}

{
	echo "# Benchmarks on the target"
	echo
	echo "Produced by \`make bench-target\` (tools/bench_target.sh) on $(date -u +%Y-%m-%d): the"
	echo "firmware for the Netduino Plus 2 (STM32F405, Cortex-M4, \`-O2\`, $(arm-none-eabi-gcc --version | head -1))"
	echo "under \`$qemu\`."
	echo "With \`-icount shift=0\` QEMU's TIM2 advances once per executed instruction, so"
	echo "these are exact instruction counts (not cycles: QEMU has no pipeline or"
	echo "wait-state model). The whole run was made twice and the counts compared: they"
	echo "are identical."
	echo
	echo "## Cost per operation"
	echo
	echo "Machine of 128 processors, filled by 32 running jobs of 4 processors; then"
	echo "a backlog of waiting jobs (processors 1-64, estimates 60-20,000 s, from a"
	echo "fixed generator). Each figure is the mean of 8 operations, less the cost of"
	echo "reading the counter: **submit** (a new job placed; conservative finds its"
	echo "anchor), **finish** (a running job ends long before its estimate),"
	echo "**advance** (the scheduling pass that follows at that instant). Conservative"
	echo "compresses its whole schedule once an instant's ends are all in"
	echo "(\`compress-at every\`, the default since issue 28): in the pass, so its"
	echo "compression is in **advance**, and its **finish** only releases the interval."
	echo "*Segments* is the profile's length at the time (queueing policies keep only"
	echo "running jobs in it)."
	echo
	echo "| policy | operation | backlog 16 | 64 | 256 | 1024 | per segment at 1024 |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	for p in fcfs easy cons; do
		for op in submit finish advance; do
			row="| $p | $op |$(cells "$p" "$op" 16 64 256 1024)"
			l=$(grep "policy=$p op=$op backlog=1024 " "$tmp/a")
			per=$(echo "$l" | field per_segment_x100 | awk '{ printf "%.1f", $1 / 100 }')
			segs=$(echo "$l" | field segments)
			echo "$row $per ($segs segments) |"
		done
	done
	echo
	echo "Growth, as the least-squares slope of log(cost) over the four backlogs:"
	echo
	echo "| operation | against backlog | against profile segments | expected |"
	echo "|---|---:|---:|---|"
	echo "| conservative submit (insert) | $(fit cons submit backlog) | $(fit cons submit segments) | ~1 in segments |"
	echo "| conservative advance after an early end (compression, then the pass) | $(fit cons advance backlog) | $(fit cons advance segments) | ~2 in segments: each of n jobs scans up to its start; a little more where the scans get longer as the profile fills |"
	echo "| EASY advance (the pass scans the queue) | $(fit easy advance backlog) | - | ~1 |"
	echo
	echo "## Bounds on the work of one event (issue 14)"
	echo
	echo "Two optional bounds for conservative, both off by default (the paper's schedule):"
	echo
	echo "- \`--compress-depth 64\` (the console's \`config compress-depth 64\`): an early end examines only"
	echo "  the first 64 waiting jobs in plan order, like Slurm's \`bf_max_job_test\`; the others keep their"
	echo "  reservations, so guarantees hold."
	echo "- \`--reservation-depth 64\` (\`config reservation-depth 64\`): only the first 64 waiting jobs hold"
	echo "  reservations, like Maui's \`RESERVATIONDEPTH\`; the others start where they fit now. The"
	echo "  profile then holds at most 64 reservations besides the running jobs, so every search is short."
	echo
	echo "Neither gives the paper's schedule: their cost in wait and slowdown is in"
	echo "[bench-load.md](bench-load.md#notes). The same machine and backlogs; mean and **worst** of the 8"
	echo "operations, and the profile's segments at the time."
	echo
	echo "| operation | bound | backlog 16 | 64 | 256 | 1024 | segments at 1024 |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	for op in submit finish advance; do
		for p in cons cons-depth64 cons-resdepth64; do
			case $p in
			cons) row="| $op | none (default) |" ;;
			cons-depth64) row="| $op | compress depth 64 |" ;;
			*) row="| $op | reservation depth 64 |" ;;
			esac
			for b in 16 64 256 1024; do
				l=$(grep "policy=$p op=$op backlog=$b " "$tmp/a")
				row="$row $(echo "$l" | field per_op) (worst $(echo "$l" | field max)) |"
			done
			echo "$row $(grep "policy=$p op=$op backlog=1024 " "$tmp/a" | field segments) |"
		done
	done
	echo
	echo "## Relaxed, slack-based and shortest-first backfilling (the policies that need scratch)"
	echo
	echo "The same machine and backlogs, with scratch for every job in the system (so"
	echo "the search itself is measured, never its conservative fallback), at backlogs"
	echo "of 16, 64 and 128 (the board's console gives the planning policies scratch"
	echo "for 192 jobs). Relaxed uses a tolerance of 600 s. **submit** is the whole"
	echo "insertion: for slack, every candidate time slot with the later jobs shifted"
	echo "and compressed in AST order (Talby and Feitelson 1999, section 2.4: O(n^3) at worst);"
	echo "**finish** is the removal search with the dummy timeless job. For easy-sjbf"
	echo "(EASY, the candidates behind the head sorted by estimate) the cost is in its"
	echo "pass, **advance**: the heads, then a heap sort of the rest, then EASY's two tests."
	echo
	echo "| policy | operation | backlog 16 | 64 | 128 | slope against backlog |"
	echo "|---|---|---:|---:|---:|---:|"
	for p in relaxed slack easy-sjbf; do
		for op in submit finish advance; do
			row="| $p | $op |$(cells "$p" "$op" 16 64 128)"
			echo "$row $(fit "$p" "$op" backlog) |"
		done
	done
	echo
	echo "## The dynP family"
	echo
	echo "The same machine, with scratch for every job in the system, at backlogs of 16, 64,"
	echo "185 (the backlog of the self-tuning step Streit 2002 measured: 0.05 s on an Athlon XP"
	echo "1800+, section 5) and 512. For \`dynp\` (self-tuning, advanced decider, ARTwW)"
	echo "**submit** is the insertion plus one self-tuning step (three virtual schedules, the"
	echo "decision, the live re-plan) and **finish** an early end, which runs a step too;"
	echo "for the fixed orders a finish re-plans every waiting job once."
	echo
	echo "| policy | operation | backlog 16 | 64 | 185 | 512 | slope against backlog |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	for p in fcfs-replan sjf ljf dynp-basic dynp; do
		for op in submit finish advance; do
			row="| $p | $op |$(cells "$p" "$op" 16 64 185 512)"
			echo "$row $(fit "$p" "$op" backlog) |"
		done
	done
	echo
	echo "## Gang scheduling"
	echo
	echo "The gang scheduler of Zhou, Walsh and Brent 2000 (docs/gang.md), each scheme on 128 processors with at"
	echo "most 32 slots and on 1024 with at most 16, for 3,000 quanta of a synthetic load"
	echo "of about 0.7 (power-of-two sizes, each exponent equally likely; 1-120 quanta,"
	echo "uniform; an arrival every 22 or 16 quanta on average; at most 128 jobs), driven"
	echo "through \`struct sched\` like every policy. Mean instructions per quantum (a"
	echo "\`sched_advance\` that runs one time slice: the context switch list, ends,"
	echo "re-packing, extra slots) and per arrival (\`sched_submit\`). The host's"
	echo "x86-64 counts on Downey workloads are in [gang-cost.md](gang-cost.md)."
	echo
	gang_table gang
	echo
	echo "The same workload driving the gang module alone (\`sched_gang_submit\`, \`sched_gang_tick\`:"
	echo "the matrix, buddy blocks, re-packing and slots, without \`struct sched\`), as this benchmark"
	echo "measured gang before it became a policy. The difference from the table above is the"
	echo "scheduler's layer every policy pays: admission, the job table and its index, the clock."
	echo
	gang_table gang-module
	echo
	echo "## Whole replays of the KTH SP2 fixture"
	echo
	echo "\`replay kth POLICY\` on the board: 28,476 jobs decoded from flash, cleaned,"
	echo "and replayed with the machine of 100 processors; the instructions include"
	echo "decoding, the replay engine and the metrics."
	echo
	echo "| policy | jobs | instructions | per job | schedule hash |"
	echo "|---|---:|---:|---:|---|"
	grep '^ok replay' "$tmp/a" | while read -r l; do
		j=$(echo "$l" | field jobs)
		c=$(echo "$l" | field cycles)
		echo "| $(echo "$l" | field policy) | $j | $c | $((c / j)) | \`$(echo "$l" | field hash)\` |"
	done
	echo
	echo "The hashes are those of \`build/replay --hash\` on the host for the same"
	echo "fixture (a test checks it): the same schedule, bit for bit."
} >"$out"
echo "wrote $out" >&2
