#!/usr/bin/env bash
# config node_size against build/replay --node-size: the console's replay of KTH in whole nodes must
# print the host replayer's schedule hash, jobs and kills (as tests/console/hash.sh without nodes);
# and node_size survives a restart from the store's journal and from a snapshot. Host twin only (the
# boards run tests/console/nodes.txt). Prints TEST lines.
set -u
B=${BUILD:-build}
C=$B/san/console
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

result() {
	if [ "$2" -eq 0 ]; then echo "TEST console_nodes.$1 PASS"; else echo "TEST console_nodes.$1 FAIL $3"; fi
}

cfg=$(printf 'config\nquit\n' | "$C")
cap=$(echo "$cfg" | sed -n 's/^ok procs=.* max_jobs=\([0-9]*\) .*/\1/p')
scratch=$(echo "$cfg" | sed -n 's/^ok procs=.* scratch_jobs=\([0-9]*\).*/\1/p')
# KTH has 100 processors: in nodes of 4 it keeps them, in nodes of 8 it has 96 (12 nodes). Its load
# passes 1 in nodes of 8 (a job of 1 processor takes 8): FCFS and EASY only there.
for kp in 4:fcfs,easy,cons 8:fcfs,easy; do
	k=${kp%%:*}
	for pol in ${kp#*:}; do
		pol=${pol//,/ }
		for p in $pol; do
			"$B/rel/replay" --quiet --policy "$p" --node-size "$k" --capacity "$cap" --scratch "$scratch" --hash \
				--format csv fixtures/KTH-SP2-1996-2.1-cln.fix >"$tmp/host" 2>&1
			h=$(awk '$1 == "hash" { print $4 }' "$tmp/host")
			col() { awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } NR == 2 { print $c + 0 }' "$tmp/host"; }
			want="procs=$((100 - 100 % k)) jobs=$(col jobs) killed=$(col killed) hash=$h"
			got=$(printf 'config node_size %s\nreplay kth %s\nquit\n' "$k" "$p" | "$C" |
				sed -n 's/^ok replay kth .* \(procs=[0-9]*\) \(jobs=[0-9]*\) .* \(killed=[0-9]*\) .* \(hash=[0-9a-f]*\) .*/\1 \2 \3 \4/p')
			result "replay_kth_${p}_k$k" "$([ -n "$h" ] && [ "$got" = "$want" ] && echo 0 || echo 1)" "console '$got', host '$want'"
		done
	done
done

# The store: node_size from the journal at the first restart, from a snapshot at the second.
store=$tmp/s.store
printf 'config node_size 4\nsubmit 1 3 100\nquit\n' | "$C" --store "$store" >/dev/null 2>&1
got=$(printf 'config\nrunning\nstore snapshot\nquit\n' | "$C" --store "$store" 2>&1 | grep -E '^ok (procs|running)' |
	sed 's/^ok procs=.* \(node_size=[0-9]*\)$/\1/' | tr '\n' ' ')
result store_journal "$([ "$got" = "node_size=4 ok running=1 from=0 1:4:100:0 " ] && echo 0 || echo 1)" "got '$got'"
got=$(printf 'config\nquit\n' | "$C" --store "$store" 2>&1 | sed -n 's/^ok procs=.* \(node_size=[0-9]*\)$/\1/p')
result store_snapshot "$([ "$got" = node_size=4 ] && echo 0 || echo 1)" "got '$got'"
