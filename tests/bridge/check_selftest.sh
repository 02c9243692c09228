#!/usr/bin/env bash
# Self-test of bridge_check: a checker that never fails proves nothing. Builds
# it (ASan/UBSan), writes a valid state directory by hand (it passes), then one
# copy per kind of violation (each must exit 1 and name exactly that kind),
# plus usage errors (exit 2). Prints TEST bridge.check.<case> PASS|FAIL lines.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CC=${CC:-gcc}
CFLAGS="-std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -D_POSIX_C_SOURCE=200809L -fsanitize=address,undefined"

pass() { echo "TEST bridge.check.$1 PASS"; }
fail() { echo "TEST bridge.check.$1 FAIL $2"; }

# shellcheck disable=SC2086
if ! $CC $CFLAGS "$here/bridge_check.c" -o "$tmp/bridge_check" 2>"$tmp/cc.err"; then
	fail build "$(head -3 "$tmp/cc.err" | tr '\n' ' ')"
	exit 1
fi
pass build
CHECK=$tmp/bridge_check
# A sanitizer finding must not pass for exit 1 ("violations"): stop at the
# first one with a status of its own (the output is also searched for it).
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=97
export ASAN_OPTIONS=exitcode=97

# ---------- the valid state directory ----------
E=1700000000  # epoch (s)
M=$((E * 1000)) # epoch in ms: controller time T is M + 1000*T
N=3           # processors

# rec DIR ID NAME WORDS...: write one record, as the bridge does (whole line).
rec() {
	local d=$1/jobs/$2
	mkdir -p "$d"
	shift 2
	local name=$1
	shift
	printf '%s\n' "$*" >"$d/$name"
}

make_valid() { # DIR
	local d=$1
	mkdir -p "$d/jobs"
	echo "epoch=$E" >"$d/epoch"
	# 1: guaranteed start 0, ran 5 s, finished.
	rec "$d" 1 spec id=1 procs=2 limit=10 name=a submit=$((M - 100))
	rec "$d" 1 accepted time=$((M - 90)) ctrl=0 start=0
	rec "$d" 1 started time=$((M + 50)) ctrl=0 pid=101 pgid=101 starttime=7 supervisor=100 late_ms=50
	rec "$d" 1 ended time=$((M + 5050)) status=exit:0 killed=no by=supervisor
	rec "$d" 1 closed time=$((M + 5060)) how=finish ctrl=5
	# 2: no guarantee; starts in the very ms job 1 ended (2+2 > N: valid only by
	# the end-before-start rule at equal times); killed at its 10 s limit.
	rec "$d" 2 spec id=2 procs=2 limit=10 name=b submit=$((M - 80))
	rec "$d" 2 accepted time=$((M - 70)) ctrl=0 start=-
	rec "$d" 2 started time=$((M + 5050)) ctrl=5 pid=201 pgid=201 starttime=9 supervisor=200 late_ms=50
	rec "$d" 2 kill time=$((M + 15000)) ctrl=15 reason=limit
	rec "$d" 2 ended time=$((M + 15100)) status=signal:15 killed=limit by=supervisor
	rec "$d" 2 closed time=$((M + 15000)) how=kill ctrl=15
	# 3: refused.
	rec "$d" 3 spec id=3 procs=9 limit=10 name=c submit=$((M - 65))
	rec "$d" 3 refused time=$((M - 60)) reason=6e6f
	# 4: cancelled before it started.
	rec "$d" 4 spec id=4 procs=1 limit=5 name=d submit=$((M - 55))
	rec "$d" 4 accepted time=$((M - 50)) ctrl=0 start=20
	rec "$d" 4 cancel time=$((M + 1000))
	rec "$d" 4 closed time=$((M + 1000)) how=cancel ctrl=1
	# 5: cancelled while running (alongside job 2: 2+1 = N).
	rec "$d" 5 spec id=5 procs=1 limit=30 name=e submit=$((M - 45))
	rec "$d" 5 accepted time=$((M - 40)) ctrl=0 start=-
	rec "$d" 5 started time=$((M + 6000)) ctrl=6 pid=501 pgid=501 starttime=11 supervisor=500 late_ms=0
	rec "$d" 5 cancel time=$((M + 9000))
	rec "$d" 5 kill time=$((M + 9000)) ctrl=9 reason=cancel
	rec "$d" 5 ended time=$((M + 9050)) status=signal:15 killed=cancel by=supervisor
	rec "$d" 5 closed time=$((M + 9000)) how=cancel ctrl=9
	# 6: spec only, never acknowledged.
	rec "$d" 6 spec id=6 procs=1 limit=5 name=f submit=$((M - 30))
	# 7: all N processors for a zero-length run, exactly at its guarantee.
	rec "$d" 7 spec id=7 procs=3 limit=1 name=g submit=$((M - 20))
	rec "$d" 7 accepted time=$((M - 10)) ctrl=0 start=20
	rec "$d" 7 started time=$((M + 20000)) ctrl=20 pid=701 pgid=701 starttime=13 supervisor=700 late_ms=0
	rec "$d" 7 ended time=$((M + 20000)) status=exit:0 killed=no by=supervisor
	rec "$d" 7 closed time=$((M + 20001)) how=finish ctrl=20
	printf 'run 1\nrun 2\nrun 5\nrun 7\n' >"$d/runs"
}
STATS='ok submitted=5 refused=1 started=4 backfilled=1 finished=2 killed=1 cancelled=2 compressions=0 moved=0 peak_jobs=3 peak_segments=4'

# run_check DIR [STATS] [extra args...]: the full check, output in $tmp/out.
run_check() {
	local d=$1 stats=$2
	shift 2
	"$CHECK" --state "$d" --procs $N --tolerance 1000 --kill-wait 2000 --runs "$d/runs" \
		--stats "$stats" --expect-all-ended "$@" >"$tmp/out" 2>&1
}

# expect_kind CASE KIND STATUS: exit 1, KIND reported, no other kind, no
# sanitizer report, and the summary line printed.
expect_kind() {
	local name=$1 kind=$2 st=$3 others
	others=$(grep -o 'VIOLATION [a-z-]*' "$tmp/out" | sort -u | grep -v "^VIOLATION $kind\$" | tr '\n' ' ')
	if grep -q -e 'runtime error' -e 'Sanitizer' "$tmp/out"; then
		fail "$name" "sanitizer: $(grep -m1 -e 'runtime error' -e 'Sanitizer' "$tmp/out")"
	elif [ "$st" -ne 1 ]; then
		fail "$name" "exit $st, wanted 1: $(head -3 "$tmp/out" | tr '\n' ' ')"
	elif ! grep -q "^bridge_check: VIOLATION $kind job " "$tmp/out"; then
		fail "$name" "no VIOLATION $kind: $(head -3 "$tmp/out" | tr '\n' ' ')"
	elif [ -n "$others" ]; then
		fail "$name" "also reported $others"
	elif ! grep -q '^bridge_check: .* violations; max busy' "$tmp/out"; then
		fail "$name" "no summary line"
	else
		pass "$name"
	fi
}

# new_case NAME: a fresh copy of the valid directory in $tmp/NAME.
new_case() {
	make_valid "$tmp/$1"
	echo "$tmp/$1"
}

# ---------- valid ----------
d=$(new_case valid)
run_check "$d" "$STATS"
st=$?
if [ $st -eq 0 ] && ! grep -q Sanitizer "$tmp/out" && grep -q '^bridge_check: 7 jobs, 5 accepted, 4 started, 1 killed, 0 violations; max busy 3 of 3; worst lateness 50 ms (job 1)$' "$tmp/out"; then
	pass valid
else
	fail valid "exit $st: $(head -4 "$tmp/out" | tr '\n' ' ')"
fi

# ---------- one case per kind ----------
d=$(new_case run_twice)
echo 'run 2' >>"$d/runs"
run_check "$d" "$STATS"
expect_kind run_twice run-twice $?

d=$(new_case run_missing)
sed -i '/^run 5$/d' "$d/runs"
run_check "$d" "$STATS"
expect_kind run_missing run-missing $?

d=$(new_case run_unstarted)
echo 'run 4' >>"$d/runs"
run_check "$d" "$STATS"
expect_kind run_unstarted run-unstarted $?

d=$(new_case notrun_valid) # job 8: started by the controller, killed at its limit before its processors were free
rec "$d" 8 spec id=8 procs=1 limit=1 name=n submit=$((M - 50))
rec "$d" 8 accepted time=$((M + 10)) ctrl=0 start=20
rec "$d" 8 kill time=$((M + 21000)) ctrl=21 reason=limit
rec "$d" 8 ended time=$((M + 21000)) status=notrun killed=limit by=bridge
rec "$d" 8 closed time=$((M + 21001)) how=kill ctrl=21
run_check "$d" "$(echo "$STATS" | sed 's/submitted=5/submitted=6/; s/started=4/started=5/; s/killed=1/killed=2/')"
st=$?
if [ $st -eq 0 ] && grep -q '; 1 not run (killed or cancelled before their processors were free)$' "$tmp/out"; then
	pass notrun_valid
else
	fail notrun_valid "exit $st: $(head -4 "$tmp/out" | tr '\n' ' ')"
fi

d=$(new_case notrun_started) # the same job with a started record: it ran, so it is not "notrun"
rec "$d" 8 spec id=8 procs=1 limit=1 name=n submit=$((M - 50))
rec "$d" 8 accepted time=$((M + 10)) ctrl=0 start=30
rec "$d" 8 started time=$((M + 30000)) ctrl=30 pid=801 pgid=801 starttime=15 supervisor=800 late_ms=0
rec "$d" 8 kill time=$((M + 31000)) ctrl=31 reason=limit
rec "$d" 8 ended time=$((M + 31000)) status=notrun killed=limit by=bridge
rec "$d" 8 closed time=$((M + 31001)) how=kill ctrl=31
echo 'run 8' >>"$d/runs"
run_check "$d" "$(echo "$STATS" | sed 's/submitted=5/submitted=6/; s/started=4/started=5/; s/killed=1/killed=2/')"
expect_kind notrun_started notrun-started $?

d=$(new_case notrun_no_kill) # killed at its limit before it ran, with no kill record (the bridge wrote none before 2026-11-27)
rec "$d" 8 spec id=8 procs=1 limit=1 name=n submit=$((M - 50))
rec "$d" 8 accepted time=$((M + 10)) ctrl=0 start=20
rec "$d" 8 ended time=$((M + 21000)) status=notrun killed=limit by=bridge
rec "$d" 8 closed time=$((M + 21001)) how=kill ctrl=21
run_check "$d" "$(echo "$STATS" | sed 's/submitted=5/submitted=6/; s/started=4/started=5/; s/killed=1/killed=2/')"
expect_kind notrun_no_kill kill-mismatch $?

d=$(new_case notrun_by_supervisor) # only the bridge writes notrun
rec "$d" 8 spec id=8 procs=1 limit=1 name=n submit=$((M - 50))
rec "$d" 8 accepted time=$((M + 10)) ctrl=0 start=20
rec "$d" 8 kill time=$((M + 21000)) ctrl=21 reason=limit
rec "$d" 8 ended time=$((M + 21000)) status=notrun killed=limit by=supervisor
rec "$d" 8 closed time=$((M + 21001)) how=kill ctrl=21
run_check "$d" "$(echo "$STATS" | sed 's/submitted=5/submitted=6/; s/started=4/started=5/; s/killed=1/killed=2/')"
expect_kind notrun_by_supervisor malformed $?

d=$(new_case started_unaccepted) # job 6, never acknowledged, ran anyway
rec "$d" 6 started time=$((M + 21000)) ctrl=21 pid=601 pgid=601 starttime=15 supervisor=600 late_ms=0
rec "$d" 6 ended time=$((M + 21500)) status=exit:0 killed=no by=supervisor
echo 'run 6' >>"$d/runs"
run_check "$d" "$(echo "$STATS" | sed 's/started=4/started=5/; s/finished=2/finished=3/')"
expect_kind started_unaccepted started-unaccepted $?

d=$(new_case started_refused) # job 3, refused, ran anyway
rec "$d" 3 spec id=3 procs=1 limit=10 name=c submit=$((M - 65))
rec "$d" 3 started time=$((M + 21000)) ctrl=21 pid=301 pgid=301 starttime=15 supervisor=300 late_ms=0
rec "$d" 3 ended time=$((M + 21500)) status=exit:0 killed=no by=supervisor
echo 'run 3' >>"$d/runs"
run_check "$d" "$(echo "$STATS" | sed 's/started=4/started=5/; s/finished=2/finished=3/')"
expect_kind started_refused started-refused $?

d=$(new_case accepted_refused)
rec "$d" 6 accepted time=$((M - 25)) ctrl=0 start=-
rec "$d" 6 refused time=$((M - 24)) reason=
rec "$d" 6 closed time=$((M - 24)) how=refused ctrl=0
run_check "$d" "${STATS/submitted=5/submitted=6}"
expect_kind accepted_refused accepted-refused $?

d=$(new_case capacity_overlap) # job 2 starts 1 ms before job 1 ends: 4 > 3
rec "$d" 2 started time=$((M + 5049)) ctrl=5 pid=201 pgid=201 starttime=9 supervisor=200 late_ms=49
run_check "$d" "$STATS"
expect_kind capacity_overlap capacity $?
if grep -q 'VIOLATION capacity job 2: at 1700000005049 ms 4 of 3 procs busy, held by jobs 1(2) 2(2)$' "$tmp/out"; then
	pass capacity_overlap_details
else
	fail capacity_overlap_details "$(grep capacity "$tmp/out")"
fi

d=$(new_case capacity_instant) # a 1-proc job starting at job 7's zero-length instant
rec "$d" 8 spec id=8 procs=1 limit=5 name=h submit=$((M - 5))
rec "$d" 8 accepted time=$((M - 4)) ctrl=0 start=-
rec "$d" 8 started time=$((M + 20000)) ctrl=20 pid=801 pgid=801 starttime=17 supervisor=800 late_ms=0
rec "$d" 8 ended time=$((M + 21000)) status=exit:0 killed=no by=supervisor
rec "$d" 8 closed time=$((M + 21000)) how=finish ctrl=21
echo 'run 8' >>"$d/runs"
run_check "$d" "$(echo "$STATS" | sed 's/submitted=5/submitted=6/; s/started=4/started=5/; s/finished=2/finished=3/')"
expect_kind capacity_instant capacity $?

d=$(new_case capacity_running) # a job without ended holds its procs forever
rm "$d/jobs/2/ended"
"$CHECK" --state "$d" --procs $N --runs "$d/runs" --stats "${STATS/killed=1/killed=0}" >"$tmp/out" 2>&1
expect_kind capacity_running capacity $?

d=$(new_case late) # job 1 guaranteed at 0, started 1001 ms after (tolerance 1000)
rec "$d" 1 started time=$((M + 1001)) ctrl=0 pid=101 pgid=101 starttime=7 supervisor=100 late_ms=1001
run_check "$d" "$STATS"
expect_kind late late $?

d=$(new_case late_decided) # the controller decided job 7's start after its guarantee
rec "$d" 7 accepted time=$((M - 10)) ctrl=0 start=19
run_check "$d" "$STATS" --tolerance 5000
expect_kind late_decided late $?

d=$(new_case limit_short) # job 2 killed at its 10 s limit after 8.999 s
rec "$d" 2 ended time=$((M + 5050 + 8999)) status=signal:15 killed=limit by=supervisor
run_check "$d" "$STATS"
expect_kind limit_short limit-short $?

d=$(new_case limit_long_killed) # killed after 10 s + 2 s kill wait + 1 s tolerance + 1 ms
rec "$d" 2 ended time=$((M + 5050 + 13001)) status=signal:9 killed=limit by=supervisor
run_check "$d" "$STATS"
expect_kind limit_long_killed limit-long $?

d=$(new_case limit_long_unkilled) # job 7 (limit 1 s) ran 2.001 s and was never killed
rec "$d" 7 ended time=$((M + 20000 + 2001)) status=exit:0 killed=no by=supervisor
run_check "$d" "$STATS"
expect_kind limit_long_unkilled limit-long $?

d=$(new_case kill_mismatch) # ended killed=limit but the bridge was never told to kill
rm "$d/jobs/2/kill"
run_check "$d" "$STATS"
expect_kind kill_mismatch kill-mismatch $?

d=$(new_case order)
rec "$d" 5 ended time=$((M + 5999)) status=signal:15 killed=cancel by=supervisor
run_check "$d" "$STATS"
expect_kind order order $?

d=$(new_case ended_unstarted)
rec "$d" 4 ended time=$((M + 1001)) status=unknown killed=cancel by=bridge
run_check "$d" "$STATS"
expect_kind ended_unstarted ended-unstarted $?

# stats_case NAME SED: the valid directory against a doctored stats line.
stats_case() {
	d=$(new_case "stats_$1")
	run_check "$d" "$(echo "$STATS" | sed "$2")"
	expect_kind "stats_$1" stats $?
}
stats_case submitted 's/submitted=5/submitted=4/'
stats_case started 's/started=4/started=5/'
stats_case killed 's/killed=1/killed=0/'
stats_case finished 's/finished=2/finished=3/'
stats_case cancelled 's/cancelled=2/cancelled=1/'
stats_case missing_key 's/cancelled=2 //'
stats_case not_a_number 's/killed=1/killed=one/'
stats_case not_ok 's/^ok/err/'

d=$(new_case not_ended) # job 7 (the last one) lost its ended
rm "$d/jobs/7/ended"
run_check "$d" "${STATS/finished=2/finished=1}"
expect_kind not_ended not-ended $?
"$CHECK" --state "$d" --procs $N --runs "$d/runs" --stats "${STATS/finished=2/finished=1}" >"$tmp/out" 2>&1 &&
	pass not_ended_only_at_end || fail not_ended_only_at_end "flagged without --expect-all-ended"

d=$(new_case not_started) # accepted, never cancelled, never ran
rec "$d" 8 spec id=8 procs=1 limit=5 name=h submit=$((M - 5))
rec "$d" 8 accepted time=$((M - 4)) ctrl=0 start=-
rec "$d" 8 closed time=$((M + 30000)) how=finish ctrl=30
run_check "$d" "${STATS/submitted=5/submitted=6}"
expect_kind not_started not-started $?

d=$(new_case not_closed)
rm "$d/jobs/1/closed"
run_check "$d" "$STATS"
expect_kind not_closed not-closed $?

# malformed: each way a record can be ill-formed; never a crash.
malformed() { # CASE SETUP-COMMAND...
	local name=$1
	shift
	d=$(new_case "malformed_$name")
	(cd "$d" && eval "$*")
	run_check "$d" "$STATS"
	expect_kind "malformed_$name" malformed $?
}
malformed value "echo 'time=abc how=finish ctrl=5' >jobs/1/closed"
malformed no_newline "printf 'time=%s how=finish ctrl=5' $((M + 5060)) >jobs/1/closed"
malformed two_lines "printf 'time=%s how=finish ctrl=5\nx=1\n' $((M + 5060)) >jobs/1/closed"
malformed empty ": >jobs/1/closed"
malformed binary "head -c 3000 /dev/urandom >jobs/1/closed; printf '\0\n' >>jobs/1/closed"
malformed not_key_value "echo 'time=$((M + 5060)) finish ctrl=5' >jobs/1/closed"
malformed double_space "echo 'time=$((M + 5060))  how=finish ctrl=5' >jobs/1/closed"
malformed repeated_key "echo 'time=1 time=$((M + 5060)) how=finish ctrl=5' >jobs/1/closed"
malformed missing_key "echo 'time=$((M + 5060)) ctrl=5' >jobs/1/closed"
malformed bad_enum "echo 'time=$((M + 5060)) how=done ctrl=5' >jobs/1/closed"
malformed bad_status "echo 'time=$((M + 5050)) status=exit:256 killed=no by=supervisor' >jobs/1/ended"
malformed bad_kill "echo 'time=$((M + 15000)) ctrl=15 reason=timeout' >jobs/2/kill"
malformed bad_cancel_ended "echo 'time=$((M + 9050)) status=signal:15 killed=maybe by=supervisor' >jobs/5/ended"
malformed huge_number "echo 'time=99999999999999999999999 ctrl=0 start=0' >jobs/1/accepted"
malformed spec_id "sed -i 's/^id=1 /id=11 /' jobs/1/spec"
malformed record_is_dir "rm jobs/1/closed; mkdir jobs/1/closed"
malformed dir_name "mkdir jobs/x7 && echo 'id=7' >jobs/x7/spec"
malformed leading_zero "mkdir jobs/08 && echo 'id=8 procs=1 limit=1 name=z submit=1' >jobs/08/spec"
malformed no_spec "rm jobs/6/spec; echo 'time=1 reason=00' >jobs/6/refused"
malformed epoch "echo 'epoch=soon' >epoch"
malformed runs_line "echo 'ran 1' >>runs"

# A started record that is malformed is still a start: no cascade of other kinds.
malformed started "echo 'time=$((M + 50)) ctrl=0 pid=x pgid=101 starttime=7 supervisor=100 late_ms=50' >jobs/1/started"

# ---------- edge directories ----------
# edge_case NAME WANT-EXIT DIR ARGS...: exit status as wanted, and nothing on
# stderr (a sanitizer report is a failure even with the right status).
edge_case() {
	local name=$1 want=$2 dir=$3
	shift 3
	"$CHECK" --state "$dir" --procs $N "$@" >"$tmp/out" 2>"$tmp/err"
	local st=$?
	if [ $st -eq "$want" ] && [ ! -s "$tmp/err" ]; then pass "$name"; else
		fail "$name" "exit $st (want $want): $(head -3 "$tmp/err" "$tmp/out" | tr '\n' ' ')"
	fi
}
mkdir -p "$tmp/empty"
echo "epoch=$E" >"$tmp/empty/epoch"
edge_case empty_no_jobs_dir 0 "$tmp/empty" --runs "$tmp/empty/none" --stats 'ok submitted=0 started=0 killed=0 finished=0 cancelled=0' --expect-all-ended
mkdir -p "$tmp/empty/jobs/5" # a job directory before its spec is in: not a job yet
edge_case empty_jobs 0 "$tmp/empty" --expect-all-ended
printf 'run 9\n' >"$tmp/empty/runs"
edge_case empty_with_run 1 "$tmp/empty" --runs "$tmp/empty/runs"
mkdir -p "$tmp/odd/jobs/$(printf 'a\nb')"
echo "epoch=$E" >"$tmp/odd/epoch"
edge_case newline_in_name 1 "$tmp/odd"
if [ "$(grep -c . "$tmp/out")" -eq 2 ]; then pass newline_in_name_one_line; else fail newline_in_name_one_line "$(cat "$tmp/out")"; fi

# ---------- usage and unreadable DIR: exit 2 ----------
usage_case() { # CASE ARGS...
	local name=$1
	shift
	"$CHECK" "$@" >"$tmp/out" 2>&1
	local st=$?
	if [ $st -eq 2 ] && grep -q 'bridge_check:' "$tmp/out"; then pass "usage_$name"; else fail "usage_$name" "exit $st"; fi
}
usage_case no_args
usage_case no_procs --state "$tmp/valid"
usage_case zero_procs --state "$tmp/valid" --procs 0
usage_case bad_tolerance --state "$tmp/valid" --procs 3 --tolerance -5
usage_case unknown_option --state "$tmp/valid" --procs 3 --frobnicate 1
usage_case missing_dir --state "$tmp/nonexistent" --procs 3
mkdir "$tmp/notstate"
usage_case not_a_state_dir --state "$tmp/notstate" --procs 3
usage_case unreadable_runs --state "$tmp/valid" --procs 3 --runs "$tmp/valid/jobs"

# ---------- scale: 1,000 jobs one after the other, then one overlap ----------
d=$tmp/scale
mkdir -p "$d/jobs"
echo "epoch=$E" >"$d/epoch"
for i in $(seq 1 1000); do
	s=$((M + i * 1000))
	mkdir "$d/jobs/$i"
	echo "id=$i procs=3 limit=1 name=j$i submit=$M" >"$d/jobs/$i/spec"
	echo "time=$M ctrl=0 start=$i" >"$d/jobs/$i/accepted"
	echo "time=$s ctrl=$i pid=$((i + 1000)) pgid=$((i + 1000)) starttime=1 supervisor=2 late_ms=0" >"$d/jobs/$i/started"
	echo "time=$((s + 1000)) status=exit:0 killed=no by=supervisor" >"$d/jobs/$i/ended"
	echo "time=$((s + 1000)) how=finish ctrl=$((i + 1))" >"$d/jobs/$i/closed"
	echo "run $i"
done >"$d/runs"
run_check "$d" "ok submitted=1000 started=1000 killed=0 finished=1000 cancelled=0"
st=$?
if [ $st -eq 0 ] && grep -q '^bridge_check: 1000 jobs, 1000 accepted, 1000 started, 0 killed, 0 violations; max busy 3 of 3;' "$tmp/out"; then
	pass scale_valid
else
	fail scale_valid "exit $st: $(head -3 "$tmp/out" | tr '\n' ' ')"
fi
echo "time=$((M + 500 * 1000 + 1)) status=exit:0 killed=no by=supervisor" >"$d/jobs/499/ended"
run_check "$d" "ok submitted=1000 started=1000 killed=0 finished=1000 cancelled=0"
expect_kind scale_overlap capacity $?
