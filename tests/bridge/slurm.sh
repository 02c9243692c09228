#!/usr/bin/env bash
# The bridge's Slurm backend on a private single-node cluster (tests/bridge/slurm_cluster.sh: 16
# CPUs, a hold partition State=DOWN that users sbatch to, a run partition State=UP, jobcomp/filetxt).
# TEST lines.
#   slurm.sh [SESSION...]   sessions: refusals cons easy kills (default: all)
# cons, easy: 30 sbatch jobs of random widths (1..16 CPUs) and lengths (sleep 1..5 s, limit 1 minute;
#   two of them sleep 75 s and are killed at their limit by the controller) under conservative
#   backfilling, then EASY. kills: the same with the bridge killed 5 times, the controller 5 times
#   and slurmctld restarted twice, at random moments. refusals: the partition checks, a job with no
#   limit, a comment with the guarantee, a user's scancel. Each is checked from Slurm's own records (the jobcomp file) by
#   tests/bridge/slurm_check.c: every job ran exactly once, Slurm started each within a tolerance of
#   the controller's decision, never more than 16 CPUs busy, the killed ones ran their limit; and
#   every decided start exactly as a fresh controller fed the same inputs decides it (exact_check,
#   console_replay.sh); and the controller's start order against build/replay on an SWF written from
#   Slurm's records and the controller's view of each submission (order_check says why and when that
#   comparison can only be a note), within one second.
# Without Slurm's packages or root: a note line, and the check passes (SLURM_REQUIRED=1: a failure).
# Every process is stopped by its PID.
set -u
B=${BUILD:-build}
ROOT=$(pwd)
TEST_PREFIX=bridge.slurm
# shellcheck source=tests/bridge/lib.sh
. "$ROOT/tests/bridge/lib.sh"
SEED=${SEED:-1}
RANDOM=$SEED
BRIDGE=$ROOT/$B/san/bridge
CONSOLE=$ROOT/$B/san/console
CHECK=$ROOT/$B/san/slurm_check
REPLAY=$ROOT/$B/replay
N=16
tmp=$(mktemp -d /tmp/bsl.XXXXXX)
chmod 711 "$tmp"
started_pids=()
# shellcheck source=tests/bridge/slurm_cluster.sh
. "$ROOT/tests/bridge/slurm_cluster.sh"

cleanup() {
	local p
	for p in "${started_pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	slurm_stop >/dev/null 2>&1
	keep_records "$tmp"
	rm -rf "$tmp"
}
trap cleanup EXIT


if ! slurm_bridge_start "$tmp/cluster"; then
	if [ "${SLURM_REQUIRED:-0}" = 1 ]; then
		fail cluster "$SLURM_REASON"
	else
		echo "note: bridge.slurm: not run: $SLURM_REASON (SLURM_REQUIRED=1 makes this a failure)"
		pass skipped
	fi
	exit 0
fi

# start_bridge DIR POLICY: the daemon on the cluster, once it answers.
start_bridge() {
	local dir=$1 policy=$2
	"$BRIDGE" run --state "$dir" --procs $N --controller "$CONSOLE --store $dir.store" --policy "$policy" \
		--selfcheck --backend slurm --hold-partition hold --run-partition run 2>>"$dir.stderr" &
	BRIDGE_PID=$!
	started_pids+=("$BRIDGE_PID")
	for _ in $(seq 100); do
		"$BRIDGE" status --state "$dir" --timeout 2 >/dev/null 2>&1 && return 0
		kill -0 "$BRIDGE_PID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# submit_jobs DIR COUNT: sbatch COUNT jobs, a random gap between them; ids into DIR.ids.
submit_jobs() {
	local dir=$1 i cpus len out killed=0
	for i in $(seq "$2"); do
		cpus=$(rnd 1 $N)
		len=$(rnd 1 5)
		# Two jobs outlive their limit (a minute: Slurm's limits are whole minutes); small, so the
		# rest of the session is not held for the minute.
		if [ $killed -lt 2 ] && [ "$i" -gt 3 ] && [ "$(rnd 1 8)" = 1 ]; then
			cpus=$(rnd 1 2)
			len=75
			killed=$((killed + 1))
		fi
		out=$(sbatch --parsable -J "t$i" -n "$cpus" -t 1 -o /dev/null --wrap "sleep $len" 2>&1) ||
			echo "sbatch failed: $out" >>"$dir.errors"
		echo "${out%%;*}" >>"$dir.ids"
		sleep "0.$(rnd 0 5)"
	done
}

# wait_all DIR SECONDS: until every submitted job has its final jobcomp line.
wait_all() {
	local dir=$1 id left
	for _ in $(seq $(($2 * 2))); do
		left=0
		while read -r id; do
			grep -q "^JobId=$id .* JobState=\(COMPLETED\|CANCELLED\|TIMEOUT\|FAILED\)" "$SLURM_JOBCOMP" 2>/dev/null ||
				left=$((left + 1))
		done <"$dir.ids"
		[ $left -eq 0 ] && return 0
		sleep 0.5
	done
	return 1
}

# decisions DIR: "ID UNIX_SECONDS" of every start the controller decided (the bridge's records).
decisions() {
	local epoch f id
	epoch=$(sed -n 's/^epoch=//p' "$1/epoch")
	for f in "$1"/jobs/*/started; do
		[ -f "$f" ] || continue
		id=$(basename "$(dirname "$f")")
		echo "$id $((epoch + $(sed -n 's/.* ctrl=\([0-9]*\).*/\1/p' "$f")))"
	done
}

# order_check NAME DIR POLICY TOLERANCE_S: the controller's start order (its decisions) against
# build/replay of the same submissions as the controller saw them: the second it accepted each job
# (its accepted record: the bridge finds a job up to 0.5 s after Slurm's SubmitTime, and seconds
# later while the bridge or the controller is down), the CPUs, the one-minute limit as the estimate,
# and as the run time the span from the controller's decision to the finish the bridge sent it (the
# closed record; Slurm's EndTime for a job the controller killed): the CPUs are the job's from the
# decision on (the move and Slurm's start take about a second) until the controller hears of the
# end (the completion file is polled every 0.5 s, and the clock may have moved on). Slurm's own SubmitTime
# and StartTime are not what the controller decided on: one second's difference can flip a backfill
# (a job that ends exactly at a reservation), and the flip moves every later start (seen: 70 s).
order_check() {
	local name=$1 dir=$2 policy=$3 tol=$4
	local swf=$dir.swf
	# The jobs that ran: id, submit, decided start, run time, CPUs (Unix seconds; Slurm's are in
	# slurmctld's local time).
	local id line subm start end cpus acc_ms
	: >"$dir.real"
	EPOCH=$(sed -n 's/^epoch=//p' "$dir/epoch")
	while read -r id; do
		start=$(awk -v id="$id" '$1 == id { print $2 }' "$dir.decisions")
		[ -n "$start" ] || continue
		line=$(grep "^JobId=$id " "$SLURM_JOBCOMP" | grep -v ' JobState=PENDING ' | tail -1)
		cpus=$(printf '%s' "$line" | sed -n 's/.* ProcCnt=\([0-9]*\) .*/\1/p')
		[ -n "$cpus" ] && [ "$cpus" -gt 0 ] || continue
		subm=$(sed -n 's/.* ctrl=\([0-9]*\).*/\1/p' "$dir/jobs/$id/accepted")
		subm=$((EPOCH + subm))
		# Within one second, the order the controller took them in (a bridge that was down finds
		# several at once), not the ids' order.
		acc_ms=$(sed -n 's/^time=\([0-9]*\) .*/\1/p' "$dir/jobs/$id/accepted")
		end=$(date -d "$(printf '%s' "$line" | sed -n 's/.* EndTime=\([^ ]*\) .*/\1/p')" +%s)
		# A job that ended by itself ended, for the controller, when the bridge said finish: the
		# closed record's second (EndTime plus the poll, or later if the clock had moved on).
		if grep -q 'how=finish' "$dir/jobs/$id/closed" 2>/dev/null; then
			end=$((EPOCH + $(sed -n 's/.* ctrl=\([0-9]*\).*/\1/p' "$dir/jobs/$id/closed")))
		fi
		echo "$id $subm $start $((end - start)) $cpus $acc_ms" >>"$dir.real"
	done <"$dir.ids"
	sort -k2,2n -k6,6n -o "$dir.real" "$dir.real"
	local first
	first=$(head -1 "$dir.real" | cut -d' ' -f2)
	awk -v f="$first" '{ printf "%d %d -1 %d %d -1 -1 %d 60 -1 1 -1 -1 -1 -1 -1 -1 -1\n", $1, $2 - f, $4, $5, $5 }' \
		"$dir.real" >"$swf"
	if ! "$REPLAY" --policy "$policy" --procs $N --quiet --jobs-out "$dir.sim" "$swf" >/dev/null 2>"$dir.replay.err"; then
		fail "$name.order" "build/replay failed" "$dir.replay.err"
		return
	fi
	# Pairs the replay orders apart by more than the tolerance must be in that order in Slurm too.
	local bad
	bad=$(awk -v f="$first" -v tol="$tol" '
		FNR == NR { if ($1 !~ /^;/) sim[$1] = $2 + $3; next }
		{ real[$1] = $3 - f; ids[++n] = $1 }
		END { for (a = 1; a <= n; a++) for (b = 1; b <= n; b++) {
			x = ids[a]; y = ids[b]
			if (sim[y] - sim[x] > tol && real[x] > real[y] + tol) {
				printf "job %s (replay %d, Slurm %d) after job %s (replay %d, Slurm %d); ", x, sim[x], real[x], y, sim[y], real[y]; c++ }
		} print c + 0 }' "$dir.sim" "$dir.real")
	# The replayer's instant is ends, then arrivals, then one pass. A second where the controller got a
	# finish after a submit, or two finish lines, has no SWF that replays it (console_replay.sh says
	# why): the comparison is then a note, and exact_check below is the test.
	local mixed
	mixed=$(awk '{ if ($2 == "finish") { if (sub_[$1] || fin[$1]) bad[$1] = 1; fin[$1] = 1 } else if ($2 == "submit") sub_[$1] = 1 }
		END { for (s in bad) n++; print n + 0 }' "$dir.inputs")
	if [ "${bad##* }" = 0 ]; then
		pass "$name.order"
	elif [ "$mixed" -gt 0 ]; then
		echo "note: bridge.slurm.$name: build/replay orders ${bad##* } pairs otherwise, in a session with $mixed seconds no SWF can express (a finish after a submit, or two finishes, in one second): not a test"
		pass "$name.order"
	else
		fail "$name.order" "$bad"
	fi
}

# exact_check NAME DIR POLICY: a fresh controller fed the inputs the records say the live one took, in
# their order (console_replay.sh), decides exactly the starts the live one decided, through every reset.
exact_check() {
	local name=$1 dir=$2 policy=$3 diffs
	local f id
	bash "$ROOT/tests/bridge/console_replay.sh" "$CONSOLE" "$dir" $N "$policy" "$dir.inputs" >"$dir.exact" 2>&1
	# A start the controller killed before the job's processors were free (ended status=notrun) has no
	# started record: its decision is not compared.
	grep -l 'status=notrun' "$dir"/jobs/*/ended 2>/dev/null | sed 's|.*/jobs/\([0-9]*\)/ended|^\1 |' >"$dir.notrun"
	grep -v -f "$dir.notrun" "$dir.exact" >"$dir.exact.run"
	mv "$dir.exact.run" "$dir.exact"
	for f in "$dir"/jobs/*/started; do
		[ -f "$f" ] || continue
		id=$(basename "$(dirname "$f")")
		echo "$id $(sed -n 's/.* ctrl=\([0-9]*\).*/\1/p' "$f")"
	done | sort -n >"$dir.decisions.sorted"
	if diffs=$(diff "$dir.exact" "$dir.decisions.sorted"); then
		pass "$name.exact"
	elif [ "$name" != kills ]; then
		fail "$name.exact" "fresh controller vs live (ID SECOND): $(printf '%s' "$diffs" | head -12 | tr '\n' ' ')"
	else
		# As in bridge.sh: through kills, a note until the one unexplained mismatch (docs/bridge.md) is.
		echo "note: bridge.slurm.$name: exact: $(printf '%s\n' "$diffs" | grep -c '^<') decided starts differ from a fresh controller's, through the kills: $(printf '%s' "$diffs" | head -8 | tr '\n' ' ')"
	fi
}

# check NAME DIR POLICY TOLERANCE_MS
check() {
	local name=$1 dir=$2 policy=$3 tol=$4 out st
	decisions "$dir" >"$dir.decisions"
	# This session's lines only: the cluster, and its completion file, serve every session in turn.
	tail -n +"$((JOBCOMP_FROM + 1))" "$SLURM_JOBCOMP" >"$dir.jobcomp"
	out=$("$CHECK" --jobcomp "$dir.jobcomp" --cpus $N --tolerance "$tol" --decisions "$dir.decisions" \
		--expect-ids "$dir.ids" 2>&1)
	st=$?
	echo "note: bridge.slurm.$name: $(printf '%s\n' "$out" | tail -1)"
	if [ $st -eq 0 ]; then pass "$name.invariants"; else
		fail "$name.invariants" "slurm_check exit $st"
		printf '%s\n' "$out" | head -20
	fi
	if grep -q BUG "$dir/bridge.log"; then fail "$name.no_bug" "the bridge logged a BUG" "$dir/bridge.log"; else pass "$name.no_bug"; fi
	if [ -s "$dir.errors" ]; then fail "$name.sbatch" "$(head -2 "$dir.errors")"; else pass "$name.sbatch"; fi
	exact_check "$name" "$dir" "$policy"
	order_check "$name" "$dir" "$policy" 1
	latency "$name" "$dir"
}

# latency NAME DIR: from the bridge reading the controller's decision (the started record's evt_ms) to
# Slurm's StartTime, over the jobs that ran: median and 99th percentile (nearest rank). StartTime is
# whole seconds, so each value is low by up to a second: the true latency is in [value, value + 1000).
latency() {
	local name=$1 dir=$2 f id evt st line
	: >"$dir.latency"
	for f in "$dir"/jobs/*/started; do
		[ -f "$f" ] || continue
		id=$(basename "$(dirname "$f")")
		evt=$(sed -n 's/.* evt_ms=\([0-9]*\).*/\1/p' "$f")
		line=$(grep "^JobId=$id " "$dir.jobcomp" | grep -v ' JobState=PENDING ' | tail -1)
		printf '%s' "$line" | grep -q ' NodeCnt=[1-9]' || continue
		st=$(date -d "$(printf '%s' "$line" | sed -n 's/.* StartTime=\([^ ]*\) .*/\1/p')" +%s)
		[ -n "$evt" ] && [ "$evt" -gt 0 ] && echo $((st * 1000 - evt)) >>"$dir.latency"
	done
	sort -n -o "$dir.latency" "$dir.latency"
	local n med p99
	n=$(wc -l <"$dir.latency")
	[ "$n" -gt 0 ] || return
	med=$(sed -n "$(((n + 1) / 2))p" "$dir.latency")
	p99=$(sed -n "$(((99 * n + 99) / 100))p" "$dir.latency")
	echo "note: bridge.slurm.$name: decision to RUNNING over $n jobs: median $med ms, p99 $p99 ms (Slurm's StartTime is whole seconds: add up to 1000 ms)"
}

session() {
	local name=$1 policy=$2 kills=$3 dir=$tmp/$1
	JOBCOMP_FROM=$(cat "$SLURM_JOBCOMP" 2>/dev/null | wc -l)
	if ! start_bridge "$dir" "$policy"; then
		fail "$name.start" "the bridge did not answer" "$dir.stderr"
		return
	fi
	submit_jobs "$dir" 30 &
	local submitter=$!
	started_pids+=("$submitter")
	local b=0 c=0 k
	if [ "$kills" = yes ]; then
		# s: slurmctld stopped (SIGTERM: it saves its state, as an administrator's restart does) and
		# started again. Not SIGKILL: then Slurm itself can requeue a job that had just started while
		# it still runs on the node (docs/bridge.md), and no bridge could make that run once.
		local s=0
		for k in b c s b c b c s b c b c; do
			sleep "$(rnd 1 4).$(rnd 0 9)"
			if [ $k = s ]; then
				if slurm_restart_ctld TERM "0.$(rnd 0 9)" >/dev/null 2>&1; then s=$((s + 1)); else
					fail "$name.slurmctld" "$SLURM_REASON"
				fi
			elif [ $k = b ]; then
				kill -9 "$BRIDGE_PID" && wait "$BRIDGE_PID" 2>/dev/null
				b=$((b + 1))
				sleep "0.$(rnd 0 9)"
				start_bridge "$dir" "$policy" || fail "$name.restart" "the bridge did not come back" "$dir.stderr"
			else
				kill_controller "$dir" && c=$((c + 1))
			fi
		done
		echo "note: bridge.slurm.$name: survived $b bridge kills, $c controller kills, $s slurmctld restarts"
		if [ $b -ge 5 ] && [ $c -ge 5 ] && [ $s -ge 2 ]; then pass "$name.count"; else fail "$name.count" "b=$b c=$c s=$s"; fi
	fi
	wait "$submitter"
	wait_all "$dir" 240 || fail "$name.done" "jobs without a final jobcomp line after 240 s" "$dir/bridge.log"
	# A move takes Slurm up to about 1.1 s, and the decision's second hides up to one more: 3 s. With
	# kills, a start can fall due while the bridge is down (up to a second, then a restart of the
	# sanitizer build), and a restarted slurmctld starts nothing for about 5 s: 10 s.
	check "$name" "$dir" "$policy" $([ "$kills" = yes ] && echo 10000 || echo 3000)
	kill "$BRIDGE_PID" 2>/dev/null
	wait "$BRIDGE_PID" 2>/dev/null
}

# refusals: a job with no time limit in a partition with none is refused (the controller needs an
# estimate): the user sees the reason in the job's comment, and Slurm has cancelled it; a pending job
# the user cancels with scancel is the controller's cancel; the comment of an accepted job gives its
# guarantee; a bridge on partitions of the wrong size refuses to start.
refusals() {
	local dir=$tmp/refusals out id wide blocked
	out=$("$BRIDGE" run --state "$dir.bad" --procs 8 --controller "$CONSOLE --store $dir.bad.store" --backend slurm \
		--hold-partition hold --run-partition run 2>&1)
	if [ $? -eq 1 ] && printf '%s' "$out" | grep -q "run has 16 CPUs but --procs is 8"; then pass refuse.procs; else
		fail refuse.procs "$out"
	fi
	out=$("$BRIDGE" run --state "$dir.bad2" --procs 16 --controller "$CONSOLE --store $dir.bad2.store" --backend slurm \
		--hold-partition nosuch --run-partition run 2>&1)
	if [ $? -eq 1 ] && printf '%s' "$out" | grep -q "no partition nosuch"; then pass refuse.partition; else
		fail refuse.partition "$out"
	fi
	start_bridge "$dir" cons || { fail refusals.start "the bridge did not answer" "$dir.stderr"; return; }
	id=$(sbatch --parsable -J nolimit -n 1 -o /dev/null --wrap 'sleep 1')
	for _ in $(seq 50); do
		squeue -h -j "$id" -o %T 2>/dev/null | grep -q . || break
		sleep 0.2
	done
	out=$(grep "^JobId=$id " "$SLURM_JOBCOMP")
	if printf '%s' "$out" | grep -q 'JobState=CANCELLED' && [ -f "$dir/jobs/$id/refused" ] &&
		[ ! -f "$dir/jobs/$id/started" ] && grep -q "refused by the controller (no time limit" "$dir/bridge.log"; then
		pass refuse.no_limit
	else
		fail refuse.no_limit "$out" "$dir/bridge.log"
	fi
	# A 16-CPU job holds the machine; one behind it waits; the user cancels the waiting one.
	wide=$(sbatch --parsable -J wide -n 16 -t 1 -o /dev/null --wrap 'sleep 8')
	blocked=$(sbatch --parsable -J blocked -n 4 -t 1 -o /dev/null --wrap 'sleep 1')
	for _ in $(seq 50); do [ -f "$dir/jobs/$blocked/accepted" ] && break; sleep 0.2; done
	out=$(squeue -h -j "$blocked" -o '%k')
	if printf '%s' "$out" | grep -q "controller: start guaranteed by"; then pass comment.guarantee; else
		fail comment.guarantee "comment: $out"
	fi
	scancel "$blocked"
	for _ in $(seq 50); do [ -f "$dir/jobs/$blocked/closed" ] && break; sleep 0.2; done
	if grep -q 'how=cancel' "$dir/jobs/$blocked/closed" 2>/dev/null && [ ! -f "$dir/jobs/$blocked/started" ] &&
		"$BRIDGE" status --state "$dir" | grep -q ' cancelled=1 '; then
		pass scancel.pending
	else
		fail scancel.pending "no cancel reached the controller" "$dir/bridge.log"
	fi
	scancel "$wide"
	pending_spec "$dir"
	kill "$BRIDGE_PID" 2>/dev/null
	wait "$BRIDGE_PID" 2>/dev/null
}

# pending_spec DIR: the bridge killed after it recorded a Slurm job (its spec) and before the
# controller's ok. The job has no client to tell, and is still in Slurm's hold partition, its user
# waiting for it: a restarted bridge submits it again (a local job in that state stays refused, its
# client having been told). Made exactly: the spec record is written by hand while the bridge is down.
# Before the fix the job was cancelled with "the bridge stopped before the controller acknowledged it"
# (seen in the kills session: three users' jobs lost).
pending_spec() {
	local dir=$1 id a0 st
	kill -9 "$BRIDGE_PID" && wait "$BRIDGE_PID" 2>/dev/null
	id=$(sbatch --parsable -J pend -n 2 -t 1 -o /dev/null --wrap 'sleep 1')
	a0=$(printf 'slurm:%s' "$id" | od -An -tx1 | tr -d ' \n')
	mkdir -p "$dir/jobs/$id"
	echo "id=$id procs=2 limit=60 name=pend submit=$(($(date +%s) * 1000)) argc=1 cwd=2f a0=$a0" >"$dir/jobs/$id/spec"
	start_bridge "$dir" cons || { fail restart.pending_spec "the bridge did not come back" "$dir.stderr"; return; }
	for _ in $(seq 100); do
		st=$(grep "^JobId=$id " "$SLURM_JOBCOMP" | grep -v ' JobState=PENDING ' | tail -1)
		[ -n "$st" ] && break
		sleep 0.2
	done
	if printf '%s' "$st" | grep -q 'JobState=COMPLETED' && [ -f "$dir/jobs/$id/accepted" ] &&
		[ ! -f "$dir/jobs/$id/refused" ]; then
		pass restart.pending_spec
	else
		fail restart.pending_spec "job $id: ${st:-no end in 20 s}" "$dir/bridge.log"
	fi
}

for s in ${*:-refusals cons easy kills}; do
	case $s in
	refusals) refusals ;;
	cons) session cons cons no ;;
	easy) session easy easy no ;;
	kills) session kills cons yes ;;
	esac
done
exit 0
