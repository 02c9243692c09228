#!/usr/bin/env bash
# make size: flash and RAM of each board's firmware, of the core alone, and the
# RAM one job slot costs; written to docs/size.md and printed.
set -eu
B=${BUILD:-build}
out=${OUT:-docs/size.md}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ports=$(make -s --no-print-directory print-ports)
objsize() { # text+data of object files
	arm-none-eabi-size "$@" | awk 'NR > 1 { s += $1 + $2 } END { print s }'
}
core=$B/fw/netduinoplus2/core/src
policies=$(objsize "$core"/pool.o "$core"/profile.o "$core"/sched.o "$core"/policy_queue.o \
	"$core"/policy_easy_sjbf.o "$core"/policy_cons.o "$core"/plan.o "$core"/metrics.o "$core"/check.o)
codec=$(objsize "$B"/fw/netduinoplus2/fixture/src/fixture.o "$core"/replay.o)
planning=$(objsize "$core"/policy_relaxed.o "$core"/policy_slack.o "$core"/num.o)
family=$(objsize "$core"/policy_dynp.o)
gang=$(objsize "$core"/gang.o "$core"/policy_gang.o)
maxjobs=$(sed -n 's/^#define CONSOLE_MAX_JOBS \([0-9]*\)u.*/\1/p' firmware/console.h)
scratch=$(sed -n 's/^#define CONSOLE_SCRATCH_JOBS \([0-9]*\)u.*/\1/p' firmware/console.h)
arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Icore/include -Icore/src -Ifixture/include -c tools/probe/sizes.c -o "$tmp/p.o"
sz() { arm-none-eabi-nm -S -t d "$tmp/p.o" | awk -v s="$1" '$4 == s { print $2 + 0 }'; }
# The same objects as the host's compiler lays them out (64-bit links).
cc -Icore/include -Icore/src -Ifixture/include -c tools/probe/sizes.c -o "$tmp/h.o"
hsz() { nm -S -t d "$tmp/h.o" | awk -v s="$1" '$4 == s { print $2 + 0 }'; }
hjob=$(hsz probe_job) hseg=$(hsz probe_seg) hslot=$(hsz probe_slot) hpend=$(hsz probe_pending)
hsched=$(hsz probe_sched) hdec=$(hsz probe_dec)
hper_slot=$((hjob + 2 * hseg + 8))
job=$(sz probe_job) seg=$(sz probe_seg) slot=$(sz probe_slot) pend=$(sz probe_pending)
sched=$(sz probe_sched) dec=$(sz probe_dec) gjob=$(sz probe_gang_job) gang_obj=$(sz probe_gang)
gang_run=$(sz probe_gang_run)
per_slot=$((job + 2 * seg + 4))
{
	echo "# Sizes"
	echo
	echo "Produced by \`make size\` (tools/size.sh) with $(arm-none-eabi-gcc --version | head -1), \`-O2\`."
	echo
	echo "## Firmware"
	echo
	echo "| board | text | data | bss | flash (text + data) | RAM (data + bss + 8 KiB stack) | of which fixtures |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	for p in $ports; do
		read -r text data bss _ < <(arm-none-eabi-size "$B/fw/$p/firmware.elf" | awk 'NR == 2')
		fx=$(arm-none-eabi-nm -t d "$B/fw/$p/firmware.elf" |
			awk '$3 ~ /^fixture_[a-z0-9]+$/ { a[$3] = $1 + 0 }
			     $3 ~ /^fixture_[a-z0-9]+_end$/ { e[$3] = $1 + 0 }
			     END { for (k in a) s += e[k "_end"] - a[k]; print s }')
		echo "| $p | $text | $data | $bss | $((text + data)) | $((data + bss + 8192)) | $fx |"
	done
	echo
	arena=$(arm-none-eabi-nm -S -t d "$B/fw/netduinoplus2/firmware.elf" | awk '$4 == "con_arena" { print $2 + 0 }')
	echo "The RAM is almost all one static arena ($arena bytes) that serves the live"
	echo "scheduler, a replay and the benchmarks in turn, sized for a replay of $maxjobs jobs in the"
	echo "system with planning scratch for $scratch (firmware/console.h)."
	echo
	echo "## The core"
	echo
	echo "| part | flash (bytes) |"
	echo "|---|---:|"
	echo "| scheduler with FCFS, EASY (arrival-order and shortest-first backfilling) and conservative (pool, profile, sched, partitions and queues, reservations and compression, metrics, invariant check) | $policies |"
	echo "| relaxed and slack-based backfilling, and slack's soft float | $planning |"
	echo "| the dynP family: FCFS/SJF/LJF re-planning, basic and self-tuning dynP, the deciders | $family |"
	echo "| gang scheduling: buddy blocks, re-packing, the workload tree, four schemes (docs/gang.md) | $gang |"
	echo "| fixture decoder and encoder, replay engine | $codec |"
	echo
	echo "Target: the core with FCFS, EASY and conservative within 16 KiB of flash: $policies bytes."
	echo "All eleven space-sharing policies: $((policies + planning + family)) bytes; with gang scheduling $((policies + planning + family + gang))."
	echo "(The firmware links it for its \`bench\` command.)"
	echo
	echo "## RAM per job slot"
	echo
	echo "| object | bytes on Cortex-M | bytes on the host (x86-64, $(cc --version | head -1)) |"
	echo "|---|---:|---:|"
	echo "| job record (\`struct sched_job\`) | $job | $hjob |"
	echo "| profile segment (\`struct sched_seg\`), two per job slot | $seg | $hseg |"
	echo "| id index head | 4 | 8 |"
	echo "| **a job slot of the scheduler** | **$per_slot** | **$hper_slot** |"
	echo "| replay slot and pending end (a replay only) | $((slot + pend)) | $((hslot + hpend)) |"
	echo "| the scheduler object itself (\`struct sched\`) | $sched | $hsched |"
	echo "| fixture decoder state (\`struct fix_dec\`) | $dec | $hdec |"
	echo
	echo "A pool writes an element only when it first hands it out (core/src/pool.c), so on the host,"
	echo "where the arena comes from malloc, the pages of slots never used are never touched: a"
	echo "replay's memory follows the jobs in the system at once, not the trace's length."
	echo
	cat <<'TXT'
The target was at most 48 bytes per job slot; a slot costs more, and this is why.
The profile needs up to two segments per job (its start and its end can each
split a period: Feitelson and Mu'alem Weil 1998, section 2.1), and every container is a doubly linked
list of 32-bit pointers, so a segment is 16 bytes (two links, a time, a free
count). A job record holds two links for its list and one for its id chain,
its id, user, arrival number, processors, submit, estimate and start, its
guarantee (relaxed bounds delays by it), the hold time its queue's limits
impose, its slack and priority (slack), and six bytes of queue, partition
and state. 48 bytes would need 16-bit index links instead of pointers, which
caps a table at 65,535 entries, costs an index-to-address computation at
every step of every scan, and gives up the container_of idiom the code is
built on; or a segment pool smaller than the 2n + 8 worst case, which would
let a compression run out of segments halfway. We keep pointers and the
worst-case bound. The planning scratch of relaxed and slack costs a further
2 segments and 30 bytes of arrays per job it can plan around.
TXT
	echo
	echo "## RAM of the gang scheduler"
	echo
	echo "One arena (\`sched_gang_arena_size\`): 2 bytes per cell of the slots x processors"
	echo "matrix, 8 bytes per processor for the workload tree, $gjob bytes per job"
	echo "(\`struct sched_gang_job\`), $gang_run per entry of the context switch list (one per"
	echo "processor at most), and per slot 8 bytes of bookkeeping (each part rounded up to 8 bytes); the object itself is $gang_obj bytes."
	echo
	echo "| processors | slots | jobs | arena (bytes) |"
	echo "|---:|---:|---:|---:|"
	for cfg in "128 16 64" "128 64 256" "1024 16 256" "1024 64 1024"; do
		set -- $cfg
		echo "| $1 | $2 | $3 | $(( $1 * $2 * 2 + 2 * $1 * 4 + $3 * gjob + $1 * gang_run + $2 * 8 )) |"
	done
} >"$out"
cat "$out"
