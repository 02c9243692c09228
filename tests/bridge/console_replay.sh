#!/usr/bin/env bash
# console_replay.sh CONSOLE DIR PROCS POLICY [INPUTS_FILE]: the inputs a bridge gave its controller, rebuilt from the
# bridge's records (DIR/jobs/ID/{spec,accepted,closed}) in the order it sent them, fed to a fresh
# controller (CONSOLE, no store, never killed); prints its decided starts as "ID CTRL_SECOND", sorted.
#
# Why not build/replay alone: the replayer's instant has one order (ends, then arrivals, then one pass),
# and a live controller receives a second's submits and finishes in the order they happen. When a
# finish follows a submit within a second, conservative backfilling's compression differs, and the
# difference moves every later start (seen: a 2-CPU job decided at 18 s where the replay says 6 s).
# Fed the same lines in the same order, a controller must decide exactly what the live one decided,
# whatever resets it went through: no tolerance.
#
# The records give each input's wall-clock millisecond and controller second:
#   accepted: "submit ID PROCS LIMIT" (the controller's ok came then);
#   closed how=finish: "finish ID", one line for the jobs of one command (the bridge sends a second's
#     ends as one "finish A B ..." for one pass; the closed records share its group=);
#   closed how=cancel: "cancel ID"; closed how=kill: nothing (the controller's own decision).
# Each record carries the time the bridge sent its command (its write-ahead record's, after a reset).
# Between inputs the clock moves as the bridge moves it: "advance" through every decision the
# controller announces (next=), so that each start and kill happens at its own second.
# INPUTS_FILE, if given, receives the input lines ("CTRL_SECOND COMMAND ARGS...") in the order sent.
set -u
CONSOLE=$1 DIR=$2 PROCS=$3 POLICY=$4 INPUTS=${5:-/dev/null}

inputs() {
	local f id ms ctrl how group procs limit
	for f in "$DIR"/jobs/*/accepted; do
		[ -f "$f" ] || continue
		id=$(basename "$(dirname "$f")")
		read -r ms ctrl < <(sed -n 's/^time=\([0-9]*\) ctrl=\([0-9]*\).*/\1 \2/p' "$f")
		procs=$(sed -n 's/.* procs=\([0-9]*\).*/\1/p' "$DIR/jobs/$id/spec")
		limit=$(sed -n 's/.* limit=\([0-9]*\).*/\1/p' "$DIR/jobs/$id/spec")
		echo "$ms $ctrl submit $id $procs $limit"
	done
	for f in "$DIR"/jobs/*/closed; do
		[ -f "$f" ] || continue
		id=$(basename "$(dirname "$f")")
		read -r ms how ctrl group < <(sed -n 's/^time=\([0-9]*\) how=\([a-z]*\) ctrl=\([0-9]*\) group=\([^ ]*\).*/\1 \2 \3 \4/p' "$f")
		case $how in
		finish) echo "$ms $ctrl finish $id $group" ;;
		cancel) echo "$ms $ctrl cancel $id" ;;
		esac
	done
}

# One "finish" line per command: consecutive finish records of one group (field 5).
group() {
	awk '{
		if ($3 == "finish" && last == "finish" && $5 == lgroup) {
			line = line " " $4
		} else {
			if (line != "") print line
			line = $2 " " $3 " " $4
			if ($3 == "submit") line = line " " $5 " " $6
		}
		last = $3; lgroup = $5
	} END { if (line != "") print line }'
}

coproc CON { "$CONSOLE" 2>&1; }
# Subshells (the pipeline below) do not see a coprocess's descriptors; copies of them they do.
exec {TO}>&"${CON[1]}" {FROM}<&"${CON[0]}"
now=0 next=-1
# say LINE: send it, read up to its ok/err line; keeps evt start lines on stdout and next= in $next.
say() {
	local l
	echo "$1" >&"$TO"
	while IFS= read -r l <&"$FROM"; do
		case $l in
		"evt start "*) set -- $l; echo "$3 $4" ;;
		ok*|err*)
			case $l in *" next="*) next=${l##* next=}; next=${next%% *}; [ "$next" = - ] && next=-1 ;; esac
			case $l in "ok now="*) now=${l#ok now=}; now=${now%% *} ;; esac
			return 0 ;;
		esac
	done
	return 1
}
# advance_to T: step through the controller's next decisions up to T.
advance_to() {
	local t=$1 step
	while :; do
		step=$t
		if [ "$next" -gt "$now" ] && [ "$next" -lt "$t" ]; then step=$next; fi
		[ "$step" -le "$now" ] && [ "$step" -ge "$t" ] && return
		say "advance $step" || return
		[ "$step" -ge "$t" ] && return
	done
}

{
	say "config procs $PROCS" >/dev/null
	say "policy $POLICY" >/dev/null
	inputs | sort -n | group | tee "$INPUTS" | while read -r ctrl cmd rest; do
		advance_to "$ctrl"
		say "$cmd $rest"
		say "time"
	done
	# The tail: every start still to come (the loop above ran in a subshell: ask the clock afresh).
	say "time"
	for _ in $(seq 1000); do
		[ "$next" -ge 0 ] || break
		say "advance $next"
	done
	echo "quit" >&"$TO"
} | sort -n
