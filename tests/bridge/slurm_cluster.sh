# shellcheck shell=bash
# The private Slurm cluster of the bridge's Slurm backend tests: tests/sweep/slurm_lib.sh's
# single-node cluster, declared with 16 CPUs whatever this machine has (config_overrides), with
#   hold  Default=YES State=DOWN  where users' sbatch lands; Slurm queues a job there and never
#                                 starts it (squeue's reason: PartitionDown)
#   run   State=UP                where the bridge moves a job (scontrol update JobId=ID
#                                 Partition=run) when the controller says "evt start ID"
# both over the one node, OverSubscribe=NO, and jobcomp/filetxt writing a line per ended job to
# DIR/jobcomp.txt (slurm_check --jobcomp reads it).
# Source this file (it sources slurm_lib.sh), then, from the test's own shell (not from $(...)):
#   slurm_bridge_start DIR   start it (slurm_start DIR with the settings above); on failure
#                            returns 1, the reason in SLURM_REASON. Sets SLURM_JOBCOMP to the
#                            jobcomp file. SLURM_BRIDGE_CPUS (default 16), SLURM_HOLD and
#                            SLURM_RUN (default hold, run) may be set before the call.
#   slurm_stop / slurm_stop_leftovers / slurm_pid NAME   as in slurm_lib.sh
# Helpers, for a started cluster:
#   slurm_job_state ID            the job's state as squeue prints it (PENDING, RUNNING, ...),
#                                 empty once squeue has forgotten it (MinJobAge=4 s after its end)
#   slurm_wait_state ID STATE [S] wait up to S seconds (default 10) for that state; 1 if not
#   slurm_jobcomp_line ID         the job's jobcomp line(s), once it has ended
#   slurm_wait_jobcomp ID [S]     wait up to S seconds (default 10) for its jobcomp line
#   slurm_restart_ctld [SIG [S]]  stop our slurmctld with SIG (TERM, the default: it saves its
#                                 state; KILL: a crash) by its PID, leave it down S seconds
#                                 (default 0), start it again recovering its state (no -c), wait
#                                 until it answers; 1 (SLURM_REASON) if not
# Observed on Debian's Slurm 22.05.8, on this cluster:
#   - sbatch lands in hold, PENDING with reason PartitionDown; scontrol update JobId=ID
#     Partition=run starts it 0.3 to 1.1 s later (sched/builtin's pass), or about 1 s after the
#     job that held its CPUs left RUNNING (meanwhile: run PENDING Resources);
#   - time limits are whole minutes: -t 0:20 (0 min 20 s) becomes 1 minute, and slurmctld looks
#     for jobs over their limit only every 30 s: a TIMEOUT job of -t 1 ended 87 s after its start;
#   - jobcomp lines: StartTime/EndTime in slurmctld's local time (its TZ), YYYY-MM-DDTHH:MM:SS;
#     TimeLimit in minutes or UNLIMITED; a job cancelled while pending (in hold, or in run
#     waiting for CPUs) gets a line too: JobState=CANCELLED, StartTime == EndTime == the cancel
#     time, NodeList=(null) NodeCnt=0 ProcCnt=0;
#   - a restarted slurmctld starts nothing for about 5 s. SIGTERM saves its state: a move to run
#     survives. After a SIGKILL, a move (or a start) less than about 3 s old is lost: the job is
#     back in hold (reason ReqNodeNotAvail for a while, not PartitionDown), and a job that had
#     started is PENDING again while it runs on the node (Slurm then requeues it: a JobState=PENDING
#     jobcomp line, the node DRAINed for a duplicate job id). A job that ends while slurmctld is
#     down gets EndTime = when slurmctld learned of it.

_slurm_cluster_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/sweep/slurm_lib.sh
. "$_slurm_cluster_here/../sweep/slurm_lib.sh"

SLURM_JOBCOMP=

slurm_bridge_start() {
	local dir=${1:?slurm_bridge_start DIR} hold=${SLURM_HOLD:-hold} run=${SLURM_RUN:-run}
	mkdir -p "$dir" || {
		SLURM_REASON="cannot create $dir"
		return 1
	}
	SLURM_JOBCOMP=$(cd "$dir" && pwd -P)/jobcomp.txt
	SLURM_NODE_CPUS=${SLURM_BRIDGE_CPUS:-16} \
		SLURM_PARTITIONS_CONF="PartitionName=$hold Nodes=ALL Default=YES MaxTime=INFINITE State=DOWN OverSubscribe=NO
PartitionName=$run Nodes=ALL Default=NO MaxTime=INFINITE State=UP OverSubscribe=NO" \
		SLURM_JOBCOMP_FILE=$SLURM_JOBCOMP \
		slurm_start "$dir"
}

slurm_job_state() {
	squeue -h -j "$1" -o %T 2>/dev/null
}

slurm_wait_state() {
	local deadline=$((SECONDS + ${3:-10}))
	while [ $SECONDS -le $deadline ]; do
		[ "$(slurm_job_state "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

slurm_jobcomp_line() {
	grep "^JobId=$1 " "$SLURM_JOBCOMP" 2>/dev/null
}

slurm_wait_jobcomp() {
	local deadline=$((SECONDS + ${2:-10}))
	while [ $SECONDS -le $deadline ]; do
		slurm_jobcomp_line "$1" >/dev/null && return 0
		sleep 0.1
	done
	return 1
}

slurm_restart_ctld() {
	local sig=${1:-TERM} down=${2:-0} i p pid='' idx=''
	for i in "${!SLURM_PIDS[@]}"; do
		p=${SLURM_PIDS[i]}
		[ "${p#*:}" = slurmctld ] && pid=${p%%:*} idx=$i
	done
	if [ -z "$pid" ] || ! _slurm_alive "$pid" || ! _slurm_ours "$pid" slurmctld; then
		SLURM_REASON="no slurmctld of ours is running"
		return 1
	fi
	# (stderr away: bash would report "Killed" for the job it reaps)
	{
		kill "-$sig" "$pid"
		for _ in $(seq 200); do
			_slurm_alive "$pid" || break
			sleep 0.05
		done
		_slurm_alive "$pid" || wait "$pid"
	} 2>/dev/null
	if _slurm_alive "$pid"; then
		SLURM_REASON="slurmctld ($pid) still running 10 s after SIG$sig"
		return 1
	fi
	sleep "$down"
	slurmctld -D -f "$SLURM_CONF" </dev/null >>"$SLURM_DIR/log/slurmctld.out" 2>&1 &
	pid=$!
	SLURM_PIDS[idx]="$pid:slurmctld"
	for _ in $(seq 150); do
		_slurm_alive "$pid" || break
		scontrol ping 2>/dev/null | grep -q 'is UP' && return 0
		sleep 0.2
	done
	SLURM_REASON="slurmctld did not come back: $(_slurm_log_tail "$SLURM_DIR/log/slurmctld.log")"
	return 1
}
