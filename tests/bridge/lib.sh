# shellcheck shell=bash
# What tests/bridge/bridge.sh and tests/bridge/slurm.sh share. Set TEST_PREFIX (bridge, bridge.slurm)
# before using pass and fail.

pass() { echo "TEST $TEST_PREFIX.$1 PASS"; }
# fail NAME WHY [LOG]: a failure, with the end of LOG if there is one.
fail() {
	echo "TEST $TEST_PREFIX.$1 FAIL $2"
	[ -n "${3:-}" ] && [ -f "$3" ] && tail -15 "$3"
}
rnd() { echo $((RANDOM % ($2 - $1 + 1) + $1)); } # an integer in [$1, $2]

# keep_records DIR: with BRIDGE_KEEP=PATH set, a copy of DIR (records, logs, stores) there, for a look
# after a failure; the caller removes DIR.
keep_records() {
	if [ -n "${BRIDGE_KEEP:-}" ]; then
		rm -rf "$BRIDGE_KEEP" && cp -a "$1" "$BRIDGE_KEEP" 2>/dev/null
	fi
}

# kill_controller DIR: SIGKILL the controller the bridge BRIDGE_PID runs as its child (DIR/controller.pid,
# checked to be that bridge's child, so no other process is hit), and wait until the bridge has started
# another in its place. 0 if both happened, 1 if not.
kill_controller() {
	local cpid
	cpid=$(cat "$1/controller.pid" 2>/dev/null)
	[ -n "$cpid" ] && [ "$(cut -d' ' -f4 "/proc/$cpid/stat" 2>/dev/null)" = "$BRIDGE_PID" ] && kill -9 "$cpid" ||
		return 1
	for _ in $(seq 100); do
		[ "$(cat "$1/controller.pid" 2>/dev/null)" != "$cpid" ] && return 0
		sleep 0.05
	done
	return 1
}
