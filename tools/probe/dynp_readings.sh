#!/usr/bin/env bash
# The investigation behind docs/dynp.md "Why the advanced decider does not win
# here": self-tuning dynP's simple and advanced deciders under other readings
# of Streit 2002 (seed 004), section 3.2. An instrumented copy of the core
# (dynp_readings.diff: counters of decider calls, cases and disagreements,
# and switches for each reading, read from the environment) is built in a
# temporary clone; the tree itself is untouched.
#   tools/probe/dynp_readings.sh [TRACE.fix]   default: a KTH_syn set made by wlgen
# Readings (environment): DYNP_EQ=sec|secfloor|secq|secall|fltall|rel:P|relq:P (how "=" is
# evaluated), DYNP_WHEN=submit|end (when the decider runs), DYNP_MINQ=N (only
# with N jobs waiting), DYNP_FCFS_IS_CURRENT=1 (FCFS scored as the policy in
# force), DYNP_FCFS_QUEUE=1 (FCFS keeps the queue's order).
set -eu
. "$(dirname "$0")/lib.sh"
probe_clone dynp_readings.diff
trace=${1:-}
if [ -z "$trace" ]; then
	build/wlgen --model matrix --from fixtures/KTH-SP2-1996-2.1-cln.fix --jobs 10000 --seed 1 -o "$tmp/KTH_syn.fix" >/dev/null
	trace=$tmp/KTH_syn.fix
fi
run() { # LABEL ENV...: ARTwW of both deciders, the advanced one's calls, disagreements and cases
	local label=$1 sa a out
	shift
	for d in simple advanced; do
		out=$(env "$@" build/replay --policy dynp --quality artww --decider $d "$trace" 2>&1)
		a=$(printf '%s\n' "$out" | awk '/^ARTwW/{print $3}')
		if [ $d = simple ]; then
			sa=$a
			continue
		fi
		printf '%s | simple %s | advanced %s | gap %s | calls %s | differs %s | %s\n' "$label" "$sa" "$a" \
			"$(awk -v s="$sa" -v a="$a" 'BEGIN{printf "%.1f%%", 100*(s-a)/s}')" \
			"$(printf '%s\n' "$out" | awk '/STAT calls/{print $3}')" \
			"$(printf '%s\n' "$out" | awk '/STAT differs/{print $3}')" \
			"$(printf '%s\n' "$out" | sed -n 's/^STAT cases //p')"
	done
}
run "current (exact)"
run "whole seconds" DYNP_EQ=sec
run "tolerance 0.1%" DYNP_EQ=rel:0.001
run "tolerance 1%" DYNP_EQ=rel:0.01
run "tolerance 5%" DYNP_EQ=rel:0.05
run "decide at submit only" DYNP_WHEN=submit
run "decide at job end only" DYNP_WHEN=end
run "only with >= 5 waiting" DYNP_MINQ=5
run "FCFS scored as the policy in force" DYNP_FCFS_IS_CURRENT=1
run "FCFS keeps the queue order" DYNP_FCFS_QUEUE=1
