#!/usr/bin/env bash
# tools/bench_bridge.sh: what the bridge (docs/bridge.md) costs, with the release builds build/bridge
# and build/console (the host twin, the controller a child over pipes) and the Netduino Plus 2 firmware
# under QEMU (the board, over a socket serial line, as tests/bridge/bridge.sh runs it):
#   1. the latency from the controller's start decision to the job's exec;
#   2. the latency from a job's exit to the controller's finish;
#   3. the submissions per second the bridge sustains (1 and 4 concurrent submitters);
#   4. the cost of a reset (the controller or the board killed, the bridge killed) with 10, 100 and
#      800 jobs in the system.
# Writes docs/bridge-bench.md whole (regenerated each run); progress on stderr. Every process started
# here is stopped by its PID, every job by the PIDs in its started record.
# Environment (defaults): LAT_JOBS (200), LAT_JOBS_BOARD (100), SUBMITS (500), SUBMITS_BOARD (200),
# RESET_SIZES ("10 100 800"), RESET_SIZES_BOARD ("10 100 800"), RESET_REPS (3), BOARD (1; 0 skips QEMU),
# BUILD (build), OUT (docs/bridge-bench.md).
set -u
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 1
ROOT=$(pwd)
B=${BUILD:-build}
BRIDGE=$ROOT/$B/bridge
CONSOLE=$ROOT/$B/console
ELF=$ROOT/$B/fw/netduinoplus2/firmware.elf
OUT=${OUT:-$ROOT/docs/bridge-bench.md}
LAT_JOBS=${LAT_JOBS:-200}
LAT_JOBS_BOARD=${LAT_JOBS_BOARD:-100}
SUBMITS=${SUBMITS:-500}
SUBMITS_BOARD=${SUBMITS_BOARD:-200}
RESET_SIZES=${RESET_SIZES-10 100 800} # empty: none
RESET_SIZES_BOARD=${RESET_SIZES_BOARD-10 100 800}
RESET_REPS=${RESET_REPS:-3}
BOARD=${BOARD:-1}
SHM=${SHM:-1}
N=8 # --procs

say() { printf 'bench_bridge: %s\n' "$*" >&2; }
us() { echo "${EPOCHREALTIME/./}"; } # Unix time in microseconds
ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }

for f in "$BRIDGE" "$CONSOLE"; do
	[ -x "$f" ] || { say "$f is missing: make build/bridge build/console"; exit 1; }
done
if [ "$BOARD" = 1 ]; then
	command -v qemu-system-arm >/dev/null 2>&1 || { say "qemu-system-arm is not installed: BOARD=0 to skip the board"; exit 1; }
	[ -f "$ELF" ] || { say "$ELF is missing: make -j2 firmware"; exit 1; }
fi

# Unix socket paths are limited to 108 bytes: short temporary directories. /tmp is the disk (the
# console's store and the bridge's records are fsync'ed there); /dev/shm, a tmpfs, shows the same runs
# without the disk.
tmp=$(mktemp -d /tmp/bb.XXXXXX)
shm=$(mktemp -d /dev/shm/bb.XXXXXX) || shm=
[ -n "$shm" ] || SHM=0
base() { if [ "$1" = shm ]; then echo "$shm"; else echo "$tmp"; fi; }
declare -A live=()  # PID -> what: every background process started here, until stopped
dirs=()             # the state directories whose jobs are stopped at the end
BRIDGE_PID=
QEMU_PID=
T_START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)

# alive_as PID TICKS: PID is the process that started at TICKS (field 22 of /proc/PID/stat).
alive_as() {
	[ -n "$1" ] && [ -n "$2" ] && [ -r "/proc/$1/stat" ] &&
		[ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20)" = "$2" ]
}
# kv KEY LINE: the value of KEY=... in a record line.
kv() {
	local w
	for w in $2; do [ "${w%%=*}" = "$1" ] && { echo "${w#*=}"; return 0; }; done
	return 1
}
# kill_jobs DIR: every job still running under DIR, by the supervisor and process group its started
# record names (each checked against its recorded start time: never a reused PID).
kill_jobs() {
	local f rec sup sst pid pst
	for f in "$1"/jobs/*/started; do
		[ -f "$f" ] || continue
		rec=$(cat "$f")
		sup=$(kv supervisor "$rec") sst=$(kv super_starttime "$rec")
		pid=$(kv pid "$rec") pst=$(kv starttime "$rec")
		alive_as "$sup" "$sst" && kill -9 "$sup" 2>/dev/null
		alive_as "$pid" "$pst" && kill -9 -- "-$pid" 2>/dev/null
	done
}
stop_pid() { # PID [SIGNAL]: stop one process started here and reap it (SIGKILL after 5 s)
	[ -n "$1" ] && [ -n "${live[$1]:-}" ] || return 0
	kill "-${2:-9}" "$1" 2>/dev/null
	if [ "${2:-9}" != 9 ]; then
		local i
		for i in $(seq 100); do kill -0 "$1" 2>/dev/null || break; sleep 0.05; done
		kill -9 "$1" 2>/dev/null
	fi
	wait "$1" 2>/dev/null
	unset "live[$1]"
}
cleanup() {
	local p d
	for p in "${!live[@]}"; do kill -9 "$p" 2>/dev/null; done
	for p in "${!live[@]}"; do wait "$p" 2>/dev/null; done
	for d in "${dirs[@]}"; do kill_jobs "$d"; done
	rm -rf "$tmp"
	[ -n "$shm" ] && rm -rf "$shm"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_until SECONDS INTERVAL CMD...: poll CMD until it succeeds (0), or SECONDS pass (1).
wait_until() {
	local t=${EPOCHREALTIME/./} iv=$2
	local limit=$((t + $1 * 1000000))
	shift 2
	while :; do
		"$@" && return 0
		t=${EPOCHREALTIME/./}
		[ "$t" -ge "$limit" ] && return 1
		sleep "$iv"
	done
}

# ---- the two sides -------------------------------------------------------------------------------------

# start_qemu STORE SOCK: the board, its console on SOCK (QEMU the server), its store on the host by
# semihosting: tests/bridge/bridge.sh's command line.
qemu_args() { # STORE SOCK: QEMU_ARGS
	# shellcheck disable=SC2054 # the commas are QEMU's
	QEMU_ARGS=(qemu-system-arm -M netduinoplus2 -display none
		-chardev "socket,id=ser,path=$2,server=on,wait=off" -serial chardev:ser -monitor none
		-semihosting-config enable=on,target=native -icount shift=0,align=off,sleep=off
		-semihosting-config "arg=firmware,arg=--store,arg=$1" -kernel "$ELF")
}
qemu_cmd() { qemu_args "$@"; echo "${QEMU_ARGS[*]}"; }
start_qemu() {
	rm -f "$2"
	qemu_args "$1" "$2"
	"${QEMU_ARGS[@]}" </dev/null >>"$tmp/qemu.out" 2>&1 &
	QEMU_PID=$!
	live[$QEMU_PID]=qemu
	wait_until 10 0.02 test -S "$2"
}
stop_qemu() { stop_pid "$QEMU_PID" 9; QEMU_PID=; }

# spawn_bridge DIR MODE [SOCK]: the daemon in the background (BRIDGE_PID); host or shm: the twin as its
# child; board: the board at SOCK.
spawn_bridge() {
	local dir=$1 mode=$2
	if [ "$mode" != board ]; then
		"$BRIDGE" run --state "$dir" --procs $N --controller "$CONSOLE --store $dir.store" --policy cons \
			2>>"$dir.stderr" &
	else
		"$BRIDGE" run --state "$dir" --procs $N --serial "$3" --policy cons 2>>"$dir.stderr" &
	fi
	BRIDGE_PID=$!
	live[$BRIDGE_PID]=bridge
}
answers() { "$BRIDGE" status --state "$1" --timeout 5 >/dev/null 2>&1; }
start_bridge() { # DIR MODE [SOCK]: and wait until it answers
	dirs+=("$1")
	spawn_bridge "$@"
	wait_until 60 0.05 answers "$1"
}
stop_bridge() { stop_pid "$BRIDGE_PID" TERM; BRIDGE_PID=; }

# submit DIR ARGS...: one client; retried while no bridge answers (nothing was sent). Its status.
submit() {
	local dir=$1 st i
	shift
	for i in $(seq 100); do
		"$BRIDGE" submit --state "$dir" "$@" >/dev/null 2>>"$dir.suberr"
		st=$?
		[ $st -ne 3 ] && return $st
		sleep 0.1
	done
	return $st
}
count() { local n=0 f; for f in "$1"/jobs/*/"$2"; do [ -f "$f" ] && n=$((n + 1)); done; echo $n; }
count_ge() { [ "$(count "$1" "$2")" -ge "$3" ]; }

# ---- numbers -------------------------------------------------------------------------------------------

# stats FILE: "n median p99 max" of the numbers in FILE, nearest-rank percentiles (the ceil(p/100*n)-th
# smallest value).
stats() {
	sort -n "$1" | awk '
		function rank(p,  r) { r = int(p * NR / 100); if (r < p * NR / 100) r++; return r < 1 ? 1 : r }
		{ v[NR] = $1 }
		END { if (!NR) { print "0 - - -"; exit } print NR, v[rank(50)], v[rank(99)], v[NR] }'
}
median3() { printf '%s\n' "$@" | grep -v '^-$' | sort -n | awk '{ v[NR] = $1 } END { if (!NR) print "-"; else { r = int(NR / 2); if (r < NR / 2) r++; print v[r < 1 ? 1 : r] } }'; }

notes=() # what went wrong, for the report
note() { notes+=("$*"); say "NOTE: $*"; }
check_log() { # DIR WHAT: BUG lines in the bridge's log are noted
	local n
	n=$(grep -c 'BUG' "$1/bridge.log" 2>/dev/null)
	[ "${n:-0}" -gt 0 ] && note "$2: the bridge logged $n BUG line(s), e.g. \`$(grep -m1 'BUG' "$1/bridge.log")\`"
}

# ---- 1 and 2: latencies --------------------------------------------------------------------------------

# The job: its own start as its first action, its end as its last (Unix ns, from date(1)).
cat >"$tmp/lat.sh" <<'EOF'
#!/bin/sh
echo "start $(date +%s%N)"
echo "end $(date +%s%N)"
EOF
chmod +x "$tmp/lat.sh"

# lat_rows DIR: per job "id a b c d status how": a = started.time - evt_ms, b = own start - evt_ms,
# c = closed.time - own end (how=finish), d = ended.time - own end; own times truncated to ms like the
# records'; "-" where a record or line is missing.
lat_rows() {
	awk '
		FNR == 1 { n = split(FILENAME, p, "/"); id = p[n - 1]; f = p[n]; ids[id] = 1 }
		f == "out" { if ($1 == "start") os[id] = substr($2, 1, length($2) - 6); else if ($1 == "end") oe[id] = substr($2, 1, length($2) - 6); next }
		{ for (i = 1; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); r[id "," f "," k] = v } }
		function d(x, y) { return (x == "" || y == "") ? "-" : sprintf("%.0f", x - y) }
		END {
			for (id in ids) {
				ev = r[id ",started,evt_ms"]
				c = r[id ",closed,how"] == "finish" ? d(r[id ",closed,time"], oe[id]) : "-"
				st = r[id ",ended,status"]; how = r[id ",closed,how"]
				print id, d(r[id ",started,time"], ev), d(os[id], ev), c, d(r[id ",ended,time"], oe[id]), \
					(st == "" ? "-" : st), (how == "" ? "-" : how)
			}
		}' "$1"/jobs/*/started "$1"/jobs/*/ended "$1"/jobs/*/closed "$1"/jobs/*/out
}

lat_table=$tmp/t_lat
: >"$lat_table"
# lat_phase MODE JOBS ARRIVAL: ARRIVAL steady: submitted one after the other while the earlier ones
# run; queued: all submitted behind an 8-processor blocker, which is then cancelled, so they start
# $N at a time as others finish, with no submit in between.
lat_phase() {
	local mode=$1 n=$2 arr=$3 dir sock=$tmp/lat.sock i fails=0 t0 t1 blk=
	dir=$(base "$1")/lat-$1-$3
	say "1+2. latency, $mode, $arr: $n jobs of lat.sh, 1 processor each, --procs $N, policy cons"
	if [ "$mode" = board ]; then
		start_qemu "$dir.store" "$sock" || { note "latency board: QEMU did not listen"; return; }
	fi
	start_bridge "$dir" "$mode" "$sock" || { note "latency $mode: the bridge did not answer ($(tail -2 "$dir.stderr"))"; stop_bridge; stop_qemu; return; }
	if [ "$arr" = queued ]; then
		blk=$("$BRIDGE" submit --state "$dir" -n $N -t 2h -- sleep 7200 2>>"$dir.suberr" | cut -d' ' -f1)
		wait_until 20 0.05 count_ge "$dir" started 1 || note "latency $mode $arr: the blocker did not start"
	fi
	t0=$(us)
	for i in $(seq "$n"); do
		submit "$dir" -n 1 -t 60 -- "$tmp/lat.sh" || fails=$((fails + 1))
		[ $((i % 50)) -eq 0 ] && say "  $mode, $arr: $i of $n submitted"
	done
	if [ "$arr" = queued ]; then
		[ "$(count "$dir" started)" = 1 ] || note "latency $mode $arr: $(count "$dir" started) jobs started before the blocker's cancel"
		t0=$(us)
		"$BRIDGE" cancel --state "$dir" "$blk" >/dev/null 2>>"$dir.suberr" || note "latency $mode $arr: the blocker's cancel failed: $(tail -1 "$dir.suberr")"
	fi
	local want=$((n - fails + (${#blk} > 0 ? 1 : 0)))
	wait_until 120 0.05 count_ge "$dir" closed "$want" || note "latency $mode $arr: only $(count "$dir" closed) of $want jobs closed after 120 s"
	t1=$(us)
	[ $fails -gt 0 ] && note "latency $mode $arr: $fails of $n submits failed: $(head -1 "$dir.suberr")"
	lat_rows "$dir" | awk -v b="$blk" '$1 != b' >"$dir.rows"
	local bad
	bad=$(awk '$6 != "exit:0" || $7 != "finish" || $2 == "-" || $3 == "-"' "$dir.rows" | wc -l)
	[ "$bad" -gt 0 ] && note "latency $mode $arr: $bad job(s) without started/out/ended exit:0/closed how=finish, e.g. $(awk '$6 != "exit:0" || $7 != "finish" || $2 == "-" || $3 == "-"' "$dir.rows" | head -1)"
	check_log "$dir" "latency $mode $arr"
	local col
	for col in 2 3 4 5; do
		awk -v c=$col '$c != "-" { print $c }' "$dir.rows" >"$dir.c$col"
	done
	printf '%s %s %s %s %s\n' "$mode" "$arr" "$n" "$(((t1 - t0) / 1000))" "$(stats "$dir.c2") | $(stats "$dir.c3") | $(stats "$dir.c4") | $(stats "$dir.c5")" >>"$lat_table"
	stop_bridge
	stop_qemu
	kill_jobs "$dir"
}

# The same script run directly (fork + exec from bash) to its own recorded start: what (b) spends in
# the shell and date(1) rather than in the bridge.
baseline_exec() {
	local i t0 s
	: >"$tmp/base"
	for i in $(seq 50); do
		t0=$(($(us) / 1000))
		"$tmp/lat.sh" >"$tmp/base.out"
		s=$(sed -n 's/^start //p' "$tmp/base.out")
		echo $((${s:0:${#s}-6} - t0)) >>"$tmp/base"
	done
	stats "$tmp/base"
}

# ---- 3: submissions per second -------------------------------------------------------------------------

sub_table=$tmp/t_sub
: >"$sub_table"
sub_loop() { # DIR COUNT DURFILE: COUNT sequential submits of waiting jobs, each one's time (us) in DURFILE
	local i t0 t1 fails=0
	for i in $(seq "$2"); do
		t0=${EPOCHREALTIME/./}
		"$BRIDGE" submit --state "$1" -n $N -t 10m -- /bin/true >/dev/null 2>>"$1.suberr" || fails=$((fails + 1))
		t1=${EPOCHREALTIME/./}
		echo $((t1 - t0)) >>"$3"
	done
	echo "$fails" >"$3.fails"
}
sub_phase() { # MODE COUNT PAR
	local mode=$1 n=$2 par=$3 dir sock=$tmp/sub.sock k t0 t1 each fails=0 pids=()
	dir=$(base "$1")/sub-$1-$3
	say "3. submissions, $mode: $n submits by $par submitter(s), behind an 8-processor blocker"
	if [ "$mode" = board ]; then
		start_qemu "$dir.store" "$sock" || { note "submit board: QEMU did not listen"; return; }
	fi
	start_bridge "$dir" "$mode" "$sock" || { note "submit $mode: the bridge did not answer"; stop_bridge; stop_qemu; return; }
	submit "$dir" -n $N -t 2h -- sleep 7200 || note "submit $mode: the blocker was refused"
	wait_until 20 0.05 count_ge "$dir" started 1 || note "submit $mode: the blocker did not start"
	each=$((n / par))
	t0=$(us)
	for k in $(seq "$par"); do
		sub_loop "$dir" "$each" "$dir.dur$k" &
		pids+=($!)
		live[$!]=submitter
	done
	for k in "${pids[@]}"; do wait "$k"; unset "live[$k]"; done
	t1=$(us)
	for k in $(seq "$par"); do fails=$((fails + $(cat "$dir.dur$k.fails"))); done
	[ $fails -gt 0 ] && note "submit $mode x$par: $fails submits failed: $(head -1 "$dir.suberr")"
	local acc
	acc=$(count "$dir" accepted)
	[ "$acc" -ne $((each * par + 1)) ] && note "submit $mode x$par: $acc accepted records for $((each * par + 1)) submits"
	[ "$(count "$dir" started)" -ne 1 ] && note "submit $mode x$par: $(count "$dir" started) jobs started (expected only the blocker)"
	check_log "$dir" "submit $mode"
	cat "$dir".dur[0-9]* | awk '{ printf "%.1f\n", $1 / 1000 }' >"$dir.durms"
	printf '%s %s %s %s %s\n' "$mode" "$par" "$((each * par))" "$((t1 - t0))" "$(stats "$dir.durms")" >>"$sub_table"
	stop_bridge
	stop_qemu
	kill_jobs "$dir"
}
client_floor() { # the cost of starting the client process alone: 100 x bridge --help
	local i t0 t1
	t0=$(us)
	for i in $(seq 100); do "$BRIDGE" --help >/dev/null 2>&1; done
	t1=$(us)
	awk -v d=$((t1 - t0)) 'BEGIN { printf "%.2f", d / 100 / 1000 }'
}

# ---- 4: resets -----------------------------------------------------------------------------------------

reset_table=$tmp/t_reset
: >"$reset_table"
nrec() { grep -c 'controller: reconciled' "$1/bridge.log" 2>/dev/null; }
more_rec() { [ "$(nrec "$1")" -gt "$2" ]; }
# rec_line DIR K: the K-th "reconciled" line of DIR's log.
rec_line() { grep 'controller: reconciled' "$1/bridge.log" | sed -n "${2}p"; }
line_ms() { date -u -d "${1%% *}" +%s%3N; } # the log line's own time stamp, Unix ms
# expect_state DIR S WHAT: the controller holds S-8 waiting and 8 running; 8 jobs started, none ended.
expect_state() {
	local dir=$1 s=$2 what=$3 st w r
	st=$("$BRIDGE" status --state "$dir" --timeout 30 2>&1 | grep '^controller ')
	w=$(kv waiting "$st") r=$(kv running "$st")
	{ [ "$w" = $((s - N)) ] && [ "$r" = $N ]; } || note "$what: the controller holds waiting=$w running=$r, expected $((s - N)) and $N (\`$st\`)"
	[ "$(count "$dir" started)" = $N ] || note "$what: $(count "$dir" started) started records, expected $N"
	[ "$(count "$dir" ended)" = 0 ] || note "$what: $(count "$dir" ended) ended records, expected none"
}
# reset_one DIR MODE S KIND SOCK STORE: one reset; appends "mode S kind rep figure wall busy" to
# $reset_table. KIND ctrl: kill -9 the controller (host: its pid from DIR/controller.pid; board: QEMU,
# then started again), figure = "ms from connecting". KIND bridge: kill -9 the bridge, start it
# again, figure = "ms from this bridge's start". wall = from the kill to the log line's time stamp.
reset_one() {
	local dir=$1 mode=$2 s=$3 kind=$4 sock=$5 store=$6 rep=$7 before t0 line fig wall cpid ppid
	before=$(nrec "$dir")
	if [ "$kind" = ctrl ] && [ "$mode" = host ]; then
		cpid=$(cat "$dir/controller.pid")
		ppid=$(sed 's/.*) //' "/proc/$cpid/stat" 2>/dev/null | cut -d' ' -f2)
		if [ "$ppid" != "$BRIDGE_PID" ]; then
			note "reset $mode $s: controller.pid ($cpid) is not the bridge's child"
			return
		fi
		t0=$(ms)
		kill -9 "$cpid"
	elif [ "$kind" = ctrl ]; then
		t0=$(ms)
		stop_qemu
		start_qemu "$store" "$sock" || note "reset board $s: QEMU did not listen again"
	else
		t0=$(ms)
		stop_pid "$BRIDGE_PID" 9
		spawn_bridge "$dir" "$mode" "$sock"
	fi
	if ! wait_until 120 0.01 more_rec "$dir" "$before"; then
		note "reset $mode $s $kind: no \"reconciled\" line within 120 s; log: \`$(tail -1 "$dir/bridge.log")\`"
		echo "$mode $s $kind $rep - - -" >>"$reset_table"
		return
	fi
	line=$(rec_line "$dir" $((before + 1)))
	if [ "$kind" = ctrl ]; then
		fig=$(echo "$line" | sed -n 's/.* \([0-9]*\) ms from connecting.*/\1/p')
	else
		fig=$(echo "$line" | sed -n "s/.* \([0-9]*\) ms from this bridge's start.*/\1/p")
	fi
	wall=$(($(line_ms "$line") - t0))
	local busy
	busy=$(echo "$line" | sed -n 's/.*; \([0-9]*\) of [0-9]* processors busy.*/\1/p')
	[ "$busy" = $N ] || note "reset $mode $s $kind: reconciled with $busy of $N busy: \`$line\`"
	echo "$mode $s $kind $rep ${fig:--} $wall ${busy:--}" >>"$reset_table"
	wait_until 60 0.05 answers "$dir" || note "reset $mode $s $kind: the bridge does not answer after reconciling"
	expect_state "$dir" "$s" "reset $mode $s $kind #$rep"
}
reset_phase() { # MODE S
	local mode=$1 s=$2 dir=$tmp/r$2-$1 sock=$tmp/r$2.sock i k fails=0 t0 pids=()
	say "4. reset, $mode, $s jobs ($N running sleep 7200, $((s - N)) waiting): submitting"
	if [ "$mode" = board ]; then
		start_qemu "$dir.store" "$sock" || { note "reset board $s: QEMU did not listen"; return; }
	fi
	start_bridge "$dir" "$mode" "$sock" || { note "reset $mode $s: the bridge did not answer"; stop_bridge; stop_qemu; return; }
	for i in $(seq $N); do submit "$dir" -n 1 -t 2h -- sleep 7200 || fails=$((fails + 1)); done
	wait_until 30 0.05 count_ge "$dir" started $N || note "reset $mode $s: only $(count "$dir" started) of $N runners started"
	# The waiting ones by 2 submitters at once.
	for k in 1 2; do
		(for i in $(seq $(((s - N + 2 - k) / 2))); do
			submit "$dir" -n 1 -t 1h -- sleep 3600 || echo x >>"$dir.fails"
		done) &
		pids+=($!)
		live[$!]=submitter
	done
	for k in "${pids[@]}"; do wait "$k"; unset "live[$k]"; done
	[ -f "$dir.fails" ] && fails=$((fails + $(wc -l <"$dir.fails")))
	[ $fails -gt 0 ] && note "reset $mode $s: $fails submits failed: $(head -1 "$dir.suberr")"
	expect_state "$dir" "$s" "reset $mode $s (before the resets)"
	for i in $(seq "$RESET_REPS"); do
		say "  $mode, $s jobs: reset $i of $RESET_REPS: kill -9 the $([ "$mode" = host ] && echo controller || echo board)"
		reset_one "$dir" "$mode" "$s" ctrl "$sock" "$dir.store" "$i"
		say "  $mode, $s jobs: reset $i of $RESET_REPS: kill -9 the bridge, start it again"
		reset_one "$dir" "$mode" "$s" bridge "$sock" "$dir.store" "$i"
	done
	check_log "$dir" "reset $mode $s"
	stop_bridge
	stop_qemu
	kill_jobs "$dir"
}

# ---- the runs ------------------------------------------------------------------------------------------

for arr in steady queued; do
	lat_phase host "$LAT_JOBS" $arr
	[ "$SHM" = 1 ] && lat_phase shm "$LAT_JOBS" $arr
	[ "$BOARD" = 1 ] && lat_phase board "$LAT_JOBS_BOARD" $arr
done
say "1. baseline: lat.sh run directly 50 times"
base=$(baseline_exec)
floor=$(client_floor)
sub_phase host "$SUBMITS" 1
sub_phase host "$SUBMITS" 4
if [ "$SHM" = 1 ]; then
	sub_phase shm "$SUBMITS" 1
	sub_phase shm "$SUBMITS" 4
fi
if [ "$BOARD" = 1 ]; then
	sub_phase board "$SUBMITS_BOARD" 1
	sub_phase board "$SUBMITS_BOARD" 4
fi
for s in $RESET_SIZES; do reset_phase host "$s"; done
if [ "$BOARD" = 1 ]; then
	for s in $RESET_SIZES_BOARD; do reset_phase board "$s"; done
fi
T_END=$(date +%s)
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- the report ----------------------------------------------------------------------------------------

setup_name() {
	case $1 in
	host) echo "host twin" ;;
	shm) echo "host twin, tmpfs" ;;
	*) echo "board (QEMU)" ;;
	esac
}
report() {
	local head dirty
	head=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
	dirty=$(git status --porcelain -- bridge firmware core port 2>/dev/null | wc -l)
	local stale
	stale=$(find bridge firmware core port -name '*.[ch]' \( -newer "$BRIDGE" -o -newer "$CONSOLE" \) 2>/dev/null | head -1)
	cat <<EOF
# The bridge: measured

Written by \`tools/bench_bridge.sh\` (regenerated whole at each run; do not edit by hand).

- Date: $(date -u '+%Y-%m-%d %H:%M UTC'); the run took $((T_END - T_START)) s.
- Machine: $(nproc) processors, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), Linux $(uname -r); /tmp on
  $(df -T /tmp | awk 'NR == 2 { print $2 }'). Shared with other work: load average (1, 5, 15 min) $LOAD_START at the start,
  $LOAD_END at the end. Everything that fsyncs (the console's store, the bridge's records) waits for a disk
  that others use too, so the rows on /tmp vary from run to run far more than the tmpfs rows.
- Source: commit $head$([ "$dirty" -gt 0 ] && echo " with $dirty uncommitted change(s) under bridge/ firmware/ core/ port/"); \`$B/bridge\` and \`$B/console\` (release builds), \`$B/fw/netduinoplus2/firmware.elf\`; $(qemu-system-arm --version 2>/dev/null | head -1).$([ -n "$stale" ] && echo "
  **Stale build:** $stale is newer than the binaries measured (make build/bridge build/console).")
- Every setup: \`--procs $N --policy cons\` (conservative backfilling). Percentiles are nearest-rank (the
  ceil(p/100 x n)-th smallest value). Record times are whole milliseconds, so every difference has a
  resolution of 1 ms; the jobs' own times (\`date +%s%N\`) are truncated to ms the same way.

## Commands

\`\`\`sh
tools/bench_bridge.sh    # LAT_JOBS=$LAT_JOBS LAT_JOBS_BOARD=$LAT_JOBS_BOARD SUBMITS=$SUBMITS SUBMITS_BOARD=$SUBMITS_BOARD RESET_SIZES="$RESET_SIZES" RESET_SIZES_BOARD="$RESET_SIZES_BOARD" RESET_REPS=$RESET_REPS
# host twin (D: a fresh state directory per measurement, under /tmp/bb.XXXXXX)
$B/bridge run --state D --procs $N --controller "$B/console --store D.store" --policy cons
# board: QEMU first (S: a Unix socket), then the bridge as its client
$(qemu_cmd D.store S | sed "s|$ROOT/||")
$B/bridge run --state D --procs $N --serial S --policy cons
# 1 and 2: the job, LAT_JOBS times, one after the other
$B/bridge submit --state D -n 1 -t 60 -- lat.sh
#   lat.sh:  #!/bin/sh   echo "start \$(date +%s%N)"   echo "end \$(date +%s%N)"
# 3: a blocker, then the timed submits (nothing of them runs: they wait behind it)
$B/bridge submit --state D -n $N -t 2h -- sleep 7200
$B/bridge submit --state D -n $N -t 10m -- /bin/true
# 4: $N runners, then the rest waiting (2 submitters); then, $RESET_REPS times each:
$B/bridge submit --state D -n 1 -t 2h -- sleep 7200
$B/bridge submit --state D -n 1 -t 1h -- sleep 3600
kill -9 \$(cat D/controller.pid)                       # host: the controller (the bridge restarts it)
kill -9 QEMU_PID; <the QEMU command above, same store>   # board: a power cut and a restart
kill -9 BRIDGE_PID; <the bridge's command above>       # the bridge
\`\`\`

At the end every job is stopped by the supervisor PID and process group its \`started\` record names.

## 1. From the controller's start decision to the job's exec

Each job is \`lat.sh\` (above) on 1 processor. Two arrivals: **steady**, submitted one after the
other as fast as one client allows while the earlier ones run (so starts and finishes share the
bridge with the submits: the bridge handles one thing at a time, and a submit waits for the
controller's answer); **queued**, all submitted behind an 8-processor blocker that is then cancelled,
so they start $N at a time as others finish, with no submit in between (wall: from the cancel to the
last \`closed\`; steady: from the first submit). The **tmpfs** rows are the host twin with D and its
store on /dev/shm instead of the disk: the console fsyncs its store at every journaled command and
the bridge fsyncs every record, so the difference is what the disk costs on this machine.
(a) = \`started.time - started.evt_ms\`: from the moment the bridge read the controller's \`evt start\`
to the supervisor's \`started\` record just before the exec (the spawn of the supervisor, its fork of
the job). (b) = the job's own first \`date +%s%N\` - \`evt_ms\`: to the exec **plus the start of
/bin/sh (dash) and of date(1)**. All in ms.

The bridge does one thing at a time: a start decided in the answer to one job's \`finish\` is spawned
only after the other ends and requests seen in the same round of its loop, each a round trip to the
controller (and, on /tmp, the console's fsyncs). So (a) and (c) grow with the disk's latency and with
how many jobs end together (queued: $N at a time), which the tmpfs rows leave out.

| setup | arrival | jobs | wall (s) | (a) median | (a) p99 | (a) max | (b) median | (b) p99 | (b) max |
|---|---|---|---|---|---|---|---|---|---|
EOF
	local mode arr n wall r a b c d
	while read -r mode arr n wall r; do
		IFS='|' read -r a b c d <<<"$r"
		# shellcheck disable=SC2086
		set -- $a $b
		echo "| $(setup_name "$mode") | $arr | $1 of $n | $(awk -v w="$wall" 'BEGIN { printf "%.1f", w / 1000 }') | $2 | $3 | $4 | $6 | $7 | $8 |"
	done <"$lat_table"
	# shellcheck disable=SC2086
	set -- $base
	cat <<EOF

For scale, \`lat.sh\` run directly by bash (fork + exec, no bridge) 50 times: from the fork to its own
recorded start, median $2 ms, p99 $3 ms, max $4 ms. Subtract that from (b) to see what (b) spends
outside the shell and date(1).

## 2. From a job's exit to the controller's finish

The job's last action records its end (\`date +%s%N\`, then \`echo\`, then exit). (c) =
\`closed.time - own end\` for \`closed how=finish\`: the supervisor's reap, its \`ended\` record, the
bridge seeing the supervisor exit (pidfd), its \`finish\` to the controller and the answer. (d) =
\`ended.time - own end\`: the supervisor's reap and record alone. All in ms, the same jobs as in 1.

| setup | arrival | jobs | (c) median | (c) p99 | (c) max | (d) median | (d) p99 | (d) max |
|---|---|---|---|---|---|---|---|---|
EOF
	while read -r mode arr n wall r; do
		IFS='|' read -r a b c d <<<"$r"
		# shellcheck disable=SC2086
		set -- $c $d
		echo "| $(setup_name "$mode") | $arr | $1 of $n | $2 | $3 | $4 | $6 | $7 | $8 |"
	done <"$lat_table"
	cat <<EOF

## 3. Submissions per second

Each submit is one \`$B/bridge submit\` process (a fork + exec, a connection to D/bridge.sock, one
request, the controller's answer relayed): the rate includes starting the client. Starting the
client alone (\`$B/bridge --help\`, 100 times) takes $floor ms. Every job is 8 processors wide behind an
8-processor blocker, so none of them runs; the controller (conservative backfilling) gives each a
guaranteed start after all the earlier ones, so the queue grows from 0 to the count during the run.
With 4 submitters, each does a quarter of the count at once. Per-submit times in ms. The board's
store is written by semihosting, which has no fsync (port/cortex-m/store_semihost.c), while the host
twin's console fsyncs its store for every journaled command; the bridge fsyncs its own records
(spec, accepted) in every setup.

| setup | submitters | submits | wall (s) | submits/s | median | p99 | max |
|---|---|---|---|---|---|---|---|
EOF
	local par cnt us_ st
	while read -r mode par cnt us_ st; do
		# shellcheck disable=SC2086
		set -- $st
		echo "| $(setup_name "$mode") | $par | $cnt | $(awk -v u="$us_" 'BEGIN { printf "%.2f", u / 1e6 }') | $(awk -v u="$us_" -v c="$cnt" 'BEGIN { printf "%.0f", c / (u / 1e6) }') | $2 | $3 | $4 |"
	done <"$sub_table"
	cat <<EOF

## 4. What a reset costs

$N jobs run (\`sleep 7200\`, 1 processor each, all $N processors busy) and the rest wait, so the
controller holds 10, 100 or 800 jobs (the host twin's job table holds 864). Each reset is done
$RESET_REPS times in a row on the same system (controller, then bridge, then controller...); every
value is listed, then the median.

- **controller** (host: \`kill -9\` of the console, whose pid is in D/controller.pid; the bridge sees
  the end of file and starts another, which restores from its store): "from connecting" is the
  bridge log's \`X ms from connecting\` of the next \`controller: reconciled\` line (the console's
  start and restore, the version and store checks, the policy, then the reconciliation: \`queue\`
  and \`running\`, 16 jobs a page); "from the kill" is that line's time stamp minus the kill's time.
- **board** (QEMU killed by PID, started again at once on the same store): the same two figures;
  "from the kill" includes QEMU's restart, the firmware's boot and store restore, and the bridge's
  reconnection back-off (0.1 s doubling).
- **bridge** (\`kill -9\` of the daemon, started again at once; on the host twin its controller dies
  with it and is started again, restoring from its store): \`Y ms from this bridge's start\` of the
  new daemon's \`reconciled\` line (reading every record, watching the $N supervisors again,
  connecting, reconciling), and the wall time from the kill.

On the host twin, "from the kill" includes the bridge's 50 ms pause before it starts another
controller (bridge/daemon.c). Over the serial line every connection starts with fixed waits
(bridge/link.c): up to 300 ms for a booting board's banner; if none, \`version\` (sent again every
500 ms while a board just reset is silent); then 200 ms of draining whatever else is in flight. So
the board's figures carry about 500 ms before the reconciliation proper.

Times in ms.

| setup | jobs | reset | figure | values | median | from the kill: values | median |
|---|---|---|---|---|---|---|---|
EOF
	local s kind figs walls fig_name what
	for mode in host board; do
		for s in $RESET_SIZES $RESET_SIZES_BOARD; do
			for kind in ctrl bridge; do
				grep -q "^$mode $s $kind " "$reset_table" || continue
				figs=$(awk -v m="$mode" -v s="$s" -v k="$kind" '$1 == m && $2 == s && $3 == k { print $5 }' "$reset_table" | tr '\n' ' ')
				walls=$(awk -v m="$mode" -v s="$s" -v k="$kind" '$1 == m && $2 == s && $3 == k { print $6 }' "$reset_table" | tr '\n' ' ')
				if [ "$kind" = bridge ]; then
					what=bridge fig_name="from the bridge's start"
				else
					what=controller fig_name="from connecting"
					[ "$mode" = board ] && what=board
				fi
				# shellcheck disable=SC2086 # the values are words
				echo "| $(setup_name $mode) | $s | $what | $fig_name | ${figs% } | $(median3 $figs) | ${walls% } | $(median3 $walls) |"
			done
		done
	done | awk '!seen[$0]++'
	echo
	echo "## What was seen"
	echo
	if [ ${#notes[@]} -eq 0 ]; then
		echo "Nothing unexpected: every latency job has its started, ended (exit:0) and closed (finish)"
		echo "records; every submit was acknowledged and none of the waiting jobs ran; after every reset the"
		echo "controller held the same waiting and running jobs, no job was started again or ended, and the"
		echo "bridge's log has no BUG line."
	else
		local x
		for x in "${notes[@]}"; do echo "- $x"; done
	fi
}
report >"$OUT.tmp" && mv "$OUT.tmp" "$OUT"
say "wrote $OUT in $((T_END - T_START)) s"
