# shellcheck shell=bash
# A private single-node Slurm cluster for tests, every file of it under one directory.
# Source this file, then:
#   slurm_start DIR   start munged, slurmctld and slurmd (as children of this shell: call it
#                     from the test's own shell, not from $(...)); exports SLURM_CONF so sbatch,
#                     squeue, sinfo and scontrol talk to it; on failure returns 1 with the reason
#                     in SLURM_REASON (also printed on stderr as "slurm: REASON").
#   slurm_stop        cancel what is still queued, stop exactly the daemons slurm_start started
#                     (by PID, checked against /proc), wait for them. Idempotent: safe in an
#                     EXIT trap and twice.
# Nothing under /etc, /run or /var is written or read for state: the munge key, socket, pid,
# log and seed files, and Slurm's config, state, spool, pid and log files all live under DIR;
# Slurm finds the private munged through AuthInfo=socket=..., the clients through SLURM_CONF.
# No systemd, no cgroups (proctrack/linuxproc, task/none, jobacct_gather/none), no accounting.
# Needs root (SlurmUser=root and SlurmdUser=root) and the Debian packages slurmctld, slurmd,
# slurm-client, munge. SLURM_CONF_EXTRA, if set, is appended to the generated slurm.conf (a later
# line wins), for a test that needs another setting.
# Optional, all unset by default (then the cluster is as described above: the node has this
# machine's CPUs, one partition "test", JobCompType=jobcomp/none):
#   SLURM_NODE_CPUS=N        declare the node with N CPUs whatever this machine has
#                            (adds SlurmdParameters=config_overrides, so slurmd accepts it)
#   SLURM_PARTITIONS_CONF=.. the PartitionName= line(s) replacing the default one; name the node
#                            Nodes=ALL, or Nodes=@NODE@ (@NODE@ is replaced by the node's name)
#   SLURM_JOBCOMP_FILE=PATH  JobCompType=jobcomp/filetxt with JobCompLoc=PATH: a line per
#                            ended job (the file is created empty by slurm_start, if absent)
# After slurm_start, SLURM_NODE holds the node's name (this host's short name).

SLURM_DIR=
SLURM_REASON=
SLURM_NODE=
SLURM_PIDS=() # "pid:program" of every daemon slurm_start started, in start order

# _slurm_free_port [OTHER]: print a TCP port in 20000..59999 that nothing listens on (read from
# /proc/net/tcp{,6} with awk: no tool needed, and bash's read would take a byte per system call)
# and that is not OTHER. Random, so that two clusters started at the same time are unlikely to
# pick the same one; the daemons' logs say so if they lose the race.
_slurm_free_port() {
	local used port
	used=$(awk 'FNR > 1 && $4 == "0A" {
		h = toupper(substr($2, index($2, ":") + 1)); n = 0
		for (i = 1; i <= length(h); i++) n = n * 16 + index("0123456789ABCDEF", substr(h, i, 1)) - 1
		printf " %d ", n
	}' /proc/net/tcp /proc/net/tcp6 2>/dev/null)
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		port=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
		case "$used" in *" $port "*) continue ;; esac
		[ "$port" = "${1:-}" ] && continue
		echo "$port"
		return 0
	done
	return 1
}

# _slurm_fail REASON: record why, say it, undo what started, fail.
_slurm_fail() {
	SLURM_REASON=$*
	echo "slurm: $SLURM_REASON" >&2
	slurm_stop
	return 1
}

# _slurm_log_tail FILE: its last lines on one line, for a reason.
_slurm_log_tail() {
	if [ -s "$1" ]; then
		tail -n 3 "$1" | tr '\n' ' ' | sed 's/ *$//'
	else
		echo "(no log at $1)"
	fi
}

# _slurm_spawn NAME LOG CMD...: start CMD in the background, stdin and output away from ours (a
# daemon holding the test's stdout would keep a $(...) reading it waiting forever); remember it.
_slurm_spawn() {
	local name=$1 log=$2
	shift 2
	"$@" </dev/null >>"$log" 2>&1 &
	SLURM_PIDS+=("$!:$name")
}

# _slurm_alive PID: running (a zombie, exited but not yet reaped, counts as gone).
_slurm_alive() {
	local st
	[ -r "/proc/$1/stat" ] || return 1
	st=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

# _slurm_ours PID NAME: PID is still the daemon we started (its command line names the program
# and, for every one of them, a file under our directory), not a reused PID.
_slurm_ours() {
	local cmd
	cmd=$(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null) || return 1
	case "$cmd" in
	*"$2"*"$SLURM_DIR"*) return 0 ;;
	*) return 1 ;;
	esac
}

slurm_start() {
	local dir=${1:?slurm_start DIR}
	local host cpus mem cport dport t p
	SLURM_REASON=
	if [ ${#SLURM_PIDS[@]} -gt 0 ]; then
		SLURM_REASON="a cluster is already running under $SLURM_DIR"
		echo "slurm: $SLURM_REASON" >&2
		return 1
	fi
	for p in munged slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
		command -v "$p" >/dev/null 2>&1 || {
			SLURM_REASON="$p is not installed (Debian packages: slurmctld slurmd slurm-client munge)"
			echo "slurm: $SLURM_REASON" >&2
			return 1
		}
	done
	if [ "$(id -u)" -ne 0 ]; then
		SLURM_REASON="needs root (the private cluster runs its daemons and jobs as root)"
		echo "slurm: $SLURM_REASON" >&2
		return 1
	fi
	mkdir -p "$dir" || {
		SLURM_REASON="cannot create $dir"
		return 1
	}
	SLURM_DIR=$(cd "$dir" && pwd -P)
	# munged wants every directory above its socket searchable by all, the key's directory
	# writable by no one else; the rest may stay private.
	if ! { chmod 711 "$SLURM_DIR" &&
		mkdir -p "$SLURM_DIR/munge" "$SLURM_DIR/run" "$SLURM_DIR/state" "$SLURM_DIR/spool" \
			"$SLURM_DIR/log" &&
		chmod 700 "$SLURM_DIR/munge" && chmod 755 "$SLURM_DIR/run"; }; then
		_slurm_fail "cannot prepare $SLURM_DIR"
		return 1
	fi
	t=$SLURM_DIR
	while [ "$t" != / ]; do
		t=$(dirname "$t")
		if [ "$(($(stat -c %#a "$t") & 1))" -eq 0 ]; then
			_slurm_fail "munged needs every directory above its socket searchable by all; $t is not (chmod o+x it, or use a DIR under /tmp)"
			return 1
		fi
	done

	host=$(hostname -s 2>/dev/null || hostname)
	# shellcheck disable=SC2034 # for the caller
	SLURM_NODE=$host
	cpus=${SLURM_NODE_CPUS:-$(nproc)}
	mem=$(free -m | awk '/^Mem:/ { print $2 }')
	if ! { cport=$(_slurm_free_port) && dport=$(_slurm_free_port "$cport"); }; then
		_slurm_fail "found no free TCP port"
		return 1
	fi

	# The munge key: 1024 random bytes, readable by root only (munged checks).
	(umask 077 && head -c 1024 /dev/urandom >"$SLURM_DIR/munge/munge.key") || {
		_slurm_fail "cannot write the munge key"
		return 1
	}
	: >"$SLURM_DIR/plugstack.conf" # no SPANK plugins (not /etc/slurm/plugstack.conf's)

	# The optional settings (see the top of this file); unset, they leave today's lines.
	local jobcomp='JobCompType=jobcomp/none' overrides='' partitions
	partitions="PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO"
	if [ -n "${SLURM_NODE_CPUS:-}" ]; then
		case "$SLURM_NODE_CPUS" in
		'' | *[!0-9]* | 0)
			_slurm_fail "SLURM_NODE_CPUS='$SLURM_NODE_CPUS' is not a positive number"
			return 1
			;;
		esac
		overrides='SlurmdParameters=config_overrides'
	fi
	[ -n "${SLURM_PARTITIONS_CONF:-}" ] && partitions=${SLURM_PARTITIONS_CONF//@NODE@/$host}
	if [ -n "${SLURM_JOBCOMP_FILE:-}" ]; then
		case "$SLURM_JOBCOMP_FILE" in
		/*) ;;
		*)
			_slurm_fail "SLURM_JOBCOMP_FILE='$SLURM_JOBCOMP_FILE' is not an absolute path"
			return 1
			;;
		esac
		if ! { [ -e "$SLURM_JOBCOMP_FILE" ] || : >"$SLURM_JOBCOMP_FILE"; }; then
			_slurm_fail "cannot create SLURM_JOBCOMP_FILE $SLURM_JOBCOMP_FILE"
			return 1
		fi
		jobcomp="JobCompType=jobcomp/filetxt
JobCompLoc=$SLURM_JOBCOMP_FILE"
	fi

	cat >"$SLURM_DIR/slurm.conf" <<EOF
# Private single-node test cluster, generated by tests/sweep/slurm_lib.sh.
ClusterName=sweeptest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$cport
SlurmdPort=$dport
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SLURM_DIR/run/munge.socket
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/run/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/run/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/log/slurmctld.log
SlurmdLogFile=$SLURM_DIR/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$SLURM_DIR/plugstack.conf
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
$jobcomp
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=batch_sched_delay=0
MinJobAge=4
ReturnToService=2
MessageTimeout=5
KillWait=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
$partitions${overrides:+
$overrides}
${SLURM_CONF_EXTRA:-}
EOF
	export SLURM_CONF=$SLURM_DIR/slurm.conf

	_slurm_spawn munged "$SLURM_DIR/log/munged.out" munged --foreground \
		--socket="$SLURM_DIR/run/munge.socket" --key-file="$SLURM_DIR/munge/munge.key" \
		--pid-file="$SLURM_DIR/run/munged.pid" --log-file="$SLURM_DIR/log/munged.log" \
		--seed-file="$SLURM_DIR/munge/munged.seed"
	for t in $(seq 50); do
		[ -S "$SLURM_DIR/run/munge.socket" ] && break
		_slurm_alive "${SLURM_PIDS[0]%%:*}" || break
		sleep 0.1
	done
	if ! [ -S "$SLURM_DIR/run/munge.socket" ] || ! _slurm_alive "${SLURM_PIDS[0]%%:*}"; then
		_slurm_fail "munged did not start: $(_slurm_log_tail "$SLURM_DIR/log/munged.log")"
		return 1
	fi

	_slurm_spawn slurmctld "$SLURM_DIR/log/slurmctld.out" slurmctld -D -c -f "$SLURM_CONF"
	_slurm_spawn slurmd "$SLURM_DIR/log/slurmd.out" slurmd -D -N "$host" -f "$SLURM_CONF"

	# Up when sinfo shows the node idle; give up after 30 s or as soon as a daemon dies.
	local state='' deadline=$((SECONDS + 30))
	while [ $SECONDS -lt $deadline ]; do
		for p in "${SLURM_PIDS[@]}"; do
			if ! _slurm_alive "${p%%:*}"; then
				t=$SLURM_DIR/log/${p#*:}.log
				[ -s "$t" ] || t=$SLURM_DIR/log/${p#*:}.out # fatal before it opened its log
				_slurm_fail "${p#*:} did not start: $(_slurm_log_tail "$t")"
				return 1
			fi
		done
		# one line per partition the node is in: the same state on each
		state=$(sinfo -h -N -n "$host" -o %t 2>/dev/null | sort -u)
		[ "$state" = idle ] && return 0
		sleep 0.2
	done
	_slurm_fail "node $host not idle after 30 s (state '${state:-no answer}'): slurmctld: $(_slurm_log_tail "$SLURM_DIR/log/slurmctld.log") slurmd: $(_slurm_log_tail "$SLURM_DIR/log/slurmd.log")"
	return 1
}

slurm_stop() {
	local p pid name i jobs
	[ ${#SLURM_PIDS[@]} -gt 0 ] || return 0
	# Jobs still queued or running: cancel them while slurmctld and slurmd are up, so that no
	# slurmstepd (which outlives a stopped slurmd by design) is left behind.
	if [ -n "${SLURM_CONF:-}" ] && _slurm_alive "$(slurm_pid slurmctld)"; then
		jobs=$(squeue -h -o %A 2>/dev/null)
		if [ -n "$jobs" ]; then
			# shellcheck disable=SC2086 # one job id per word
			scancel $jobs 2>/dev/null
			for i in $(seq 50); do
				[ -z "$(squeue -h -o %A 2>/dev/null)" ] && break
				sleep 0.1
			done
		fi
	fi
	# Stop in reverse start order: slurmd, slurmctld, then munged which they talk to.
	for ((i = ${#SLURM_PIDS[@]} - 1; i >= 0; i--)); do
		p=${SLURM_PIDS[i]}
		pid=${p%%:*} name=${p#*:}
		if _slurm_alive "$pid" && _slurm_ours "$pid" "$name"; then
			kill -TERM "$pid" 2>/dev/null
			for _ in $(seq 100); do
				_slurm_alive "$pid" || break
				sleep 0.05
			done
			if _slurm_alive "$pid" && _slurm_ours "$pid" "$name"; then
				echo "slurm: $name ($pid) ignored SIGTERM for 5 s; SIGKILL" >&2
				kill -KILL "$pid" 2>/dev/null
			fi
		fi
		wait "$pid" 2>/dev/null # reap it (ours, started by this shell)
	done
	SLURM_PIDS=()
	return 0
}

# slurm_pid NAME: the PID of our daemon NAME (munged, slurmctld, slurmd), if started.
slurm_pid() {
	local p
	for p in "${SLURM_PIDS[@]}"; do
		[ "${p#*:}" = "$1" ] && echo "${p%%:*}" && return 0
	done
	return 1
}

# slurm_stop_leftovers: stop the cluster and print what of it is still alive after slurm_stop
# (nothing, if all is well): the daemons it started, and any slurmstepd of this cluster (found by
# the SLURM_CONF in its environment: slurmd passes its own on).
slurm_stop_leftovers() {
	local pids pid f left=''
	pids=$(for p in munged slurmctld slurmd; do slurm_pid "$p"; done)
	slurm_stop
	for pid in $pids; do
		_slurm_alive "$pid" && left="$left $(cat "/proc/$pid/comm")($pid)"
	done
	for f in /proc/[0-9]*/environ; do
		pid=${f#/proc/}
		pid=${pid%/environ}
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = slurmstepd ] && _slurm_alive "$pid" &&
			tr '\0' '\n' <"$f" 2>/dev/null | grep -qx "SLURM_CONF=$SLURM_CONF" && left="$left slurmstepd($pid)"
	done
	printf '%s' "$left"
}
