#!/usr/bin/env bash
# Self-test of slurm_check: a checker that never fails proves nothing. Builds it (ASan/UBSan) in
# a temp dir, writes a valid jobcomp file by hand (it passes), then one copy per kind of violation
# (each must exit 1 and name exactly that kind), plus usage errors (exit 2). The hand-made lines
# follow, field for field, what Slurm 22.05's jobcomp/filetxt wrote on a test cluster
# (tests/bridge/slurm_cluster.sh): a COMPLETED, a TIMEOUT (TimeLimit=1, killed 87 s after its
# start: slurmctld looks for jobs over their limit every 30 s), a FAILED one, a job cancelled
# while pending (StartTime == EndTime, NodeList=(null) NodeCnt=0 ProcCnt=0) and one cancelled
# while running. Prints TEST bridge.slurm_check.<case> PASS|FAIL lines.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CC=${CC:-gcc}
CFLAGS="-std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -D_GNU_SOURCE -fsanitize=address,undefined"

pass() { echo "TEST bridge.slurm_check.$1 PASS"; }
fail() { echo "TEST bridge.slurm_check.$1 FAIL $2"; }

# shellcheck disable=SC2086
if ! $CC $CFLAGS "$here/slurm_check.c" -o "$tmp/slurm_check" 2>"$tmp/cc.err"; then
	fail build "$(head -3 "$tmp/cc.err" | tr '\n' ' ')"
	exit 1
fi
pass build
CHECK=$tmp/slurm_check
# A sanitizer finding must not pass for exit 1 ("violations"): a status of its own.
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=97
export ASAN_OPTIONS=exitcode=97
# Slurm writes slurmctld's local time; the checker reads it in its own TZ. UTC here, except in
# the local_time cases.
export TZ=UTC

T0=1795777160 # 2026-11-27T10:59:20 UTC
N=16          # CPUs

# t UNIX: the time as jobcomp writes it, in $TZ.
t() { date -d "@$1" +%Y-%m-%dT%H:%M:%S; }

# jc ID STATE PARTITION LIMIT START END PROCS [NAME] [EXIT]: one jobcomp line, as observed.
# PROCS 0 makes the line of a job that never started (NodeList=(null) NodeCnt=0 ProcCnt=0).
jc() {
	local id=$1 state=$2 part=$3 limit=$4 s=$5 e=$6 procs=$7 name=${8:-wrap} ex=${9:-0:0}
	local nodes=vm ncnt=1 pcnt=$procs tres=$procs
	if [ "$procs" -eq 0 ]; then
		nodes='(null)' ncnt=0 pcnt=0 tres=1
	fi
	printf 'JobId=%s UserId=root(0) GroupId=root(0) Name=%s JobState=%s Partition=%s TimeLimit=%s StartTime=%s EndTime=%s NodeList=%s NodeCnt=%s ProcCnt=%s WorkDir=/tmp/sl_e1.akZGwY ReservationName= Tres=cpu=%s,mem=24105M,node=1,billing=%s Account= QOS= WcKey= Cluster=unknown SubmitTime=%s EligibleTime=%s DerivedExitCode=0:0 ExitCode=%s \n' \
		"$id" "$name" "$state" "$part" "$limit" "$(t "$s")" "$(t "$e")" "$nodes" "$ncnt" "$pcnt" \
		"$tres" "$tres" "$(t $((T0 - 3)))" "$(t $((T0 - 3)))" "$ex"
}

# The valid session, in the order Slurm writes the lines (by end):
#   1 COMPLETED  4 CPUs [T0, T0+5)        2 COMPLETED 12 CPUs [T0+1, T0+6), no limit
#   4 CANCELLED while pending at T0+7     5 CANCELLED while running, 8 CPUs [T0+6, T0+8)
#   6 FAILED at once (StartTime == EndTime: occupies nothing), 1 CPU, a name with a space
#     and a "JobState=" in it
#   7 COMPLETED  8 CPUs [T0+8, T0+20)     3 TIMEOUT 8 CPUs [T0+6, T0+93), limit 1 min
# so 16 of 16 CPUs are busy over [T0+1, T0+5) and from T0+6 on, and jobs 2 -> 3, 5 and
# 5 -> 7 meet at a second's boundary.
make_jobcomp() { # FILE
	{
		jc 1 COMPLETED run 1 "$T0" $((T0 + 5)) 4
		jc 2 COMPLETED run UNLIMITED $((T0 + 1)) $((T0 + 6)) 12
		jc 4 CANCELLED hold 1 $((T0 + 7)) $((T0 + 7)) 0
		jc 5 CANCELLED run 5 $((T0 + 6)) $((T0 + 8)) 8
		jc 6 FAILED run 150 $((T0 + 9)) $((T0 + 9)) 1 'na me JobState=X' 3:0
		jc 7 COMPLETED run 1 $((T0 + 8)) $((T0 + 20)) 8
		jc 3 TIMEOUT run 1 $((T0 + 6)) $((T0 + 93)) 8
	} >"$1"
}
# when the controller decided each start (ID UNIX_SECONDS[.FRACTION]); job 4 was never decided
make_decisions() { # FILE
	printf '%s\n' "1 $((T0 - 1)).500" "2 $T0.200" "3 $((T0 + 5)).1" "5 $((T0 + 5))" \
		"6 $((T0 + 8)).300" "7 $((T0 + 7))" >"$1"
}
make_expect() { printf '%s\n' 1 2 3 5 6 7 >"$1"; }
SUMMARY="^slurm_check: 7 lines, 7 jobs, 6 ran, 0 violations; max busy 16 of 16 CPUs; worst start delay 1000 ms (job 5)\$"

# new_case NAME: a fresh copy of the valid files in $tmp/NAME; prints the directory.
new_case() {
	local d=$tmp/$1
	mkdir -p "$d"
	make_jobcomp "$d/jobcomp"
	make_decisions "$d/decisions"
	make_expect "$d/expect"
	echo "$d"
}

# run_check DIR [extra args...]: the full check, output in $tmp/out.
run_check() {
	local d=$1
	shift
	"$CHECK" --jobcomp "$d/jobcomp" --cpus $N --decisions "$d/decisions" --expect-ids "$d/expect" \
		"$@" >"$tmp/out" 2>&1
}

# expect_pass CASE STATUS [SUMMARY_REGEX]
expect_pass() {
	if [ "$2" -eq 0 ] && ! grep -q -e Sanitizer -e 'runtime error' -e VIOLATION "$tmp/out" &&
		grep -q "${3:-^slurm_check: .* 0 violations;}" "$tmp/out"; then
		pass "$1"
	else
		fail "$1" "exit $2: $(head -4 "$tmp/out" | tr '\n' ' ')"
	fi
}

# expect_kind CASE KIND STATUS: exit 1, KIND reported, no other kind, no sanitizer report, and
# the summary line printed.
expect_kind() {
	local name=$1 kind=$2 st=$3 others
	others=$(grep -o 'VIOLATION [a-z_]*' "$tmp/out" | sort -u | grep -v "^VIOLATION $kind\$" | tr '\n' ' ')
	if grep -q -e 'runtime error' -e 'Sanitizer' "$tmp/out"; then
		fail "$name" "sanitizer: $(grep -m1 -e 'runtime error' -e 'Sanitizer' "$tmp/out")"
	elif [ "$st" -ne 1 ]; then
		fail "$name" "exit $st, wanted 1: $(head -3 "$tmp/out" | tr '\n' ' ')"
	elif ! grep -q "^slurm_check: VIOLATION $kind job " "$tmp/out"; then
		fail "$name" "no VIOLATION $kind: $(head -3 "$tmp/out" | tr '\n' ' ')"
	elif [ -n "$others" ]; then
		fail "$name" "also reported $others"
	elif ! grep -q '^slurm_check: .* violations; max busy' "$tmp/out"; then
		fail "$name" "no summary line"
	else
		pass "$name"
	fi
}

# ---------- valid ----------
d=$(new_case valid)
run_check "$d"
expect_pass valid $? "$SUMMARY"
# the jobcomp file alone (no decisions, no expected ids)
"$CHECK" --jobcomp "$d/jobcomp" --cpus $N >"$tmp/out" 2>&1
expect_pass jobcomp_only $? '^slurm_check: 7 lines, 7 jobs, 6 ran, 0 violations; max busy 16 of 16 CPUs$'
# a decision in the second the job started, after it by the fraction: not early
d=$(new_case same_second)
sed -i "s/^2 .*/2 $((T0 + 1)).900/" "$d/decisions"
run_check "$d"
expect_pass same_second $?
# a start exactly --tolerance after the decision passes, a millisecond more is late
d=$(new_case late_boundary)
sed -i "s/^2 .*/2 $((T0 - 1)).000/" "$d/decisions"
run_check "$d"
expect_pass late_boundary_ok $?
sed -i "s/^2 .*/2 $((T0 - 2)).999/" "$d/decisions"
run_check "$d"
expect_kind late_boundary late $?
# TIMEOUT bounds: a run of limit - tolerance, and of limit + slack + tolerance, pass
d=$(new_case timeout_bounds)
sed -i "/^JobId=3 /d" "$d/jobcomp"
jc 3 TIMEOUT run 1 $((T0 + 6)) $((T0 + 6 + 58)) 8 >>"$d/jobcomp"
run_check "$d"
expect_pass timeout_bounds_low $?
sed -i "/^JobId=3 /d" "$d/jobcomp"
jc 3 TIMEOUT run 1 $((T0 + 6)) $((T0 + 6 + 92)) 8 >>"$d/jobcomp"
run_check "$d"
expect_pass timeout_bounds_high $?
# slurmctld in another time zone: the checker reads the times in its own TZ, which must match
d=$tmp/local_time
mkdir -p "$d"
TZ=Asia/Kolkata make_jobcomp "$d/jobcomp"
make_decisions "$d/decisions"
make_expect "$d/expect"
TZ=Asia/Kolkata run_check "$d"
expect_pass local_time $? "$SUMMARY"
run_check "$d" # read as UTC: every start 5.5 h after its decision
expect_kind local_time_mismatch late $?

# ---------- one case per kind ----------
# A malformed line loses its job (the id may be unreadable), so the malformed cases check the
# jobcomp file alone: with the side files, that job would also be missing.
d=$(new_case malformed)
jc 8 COMPLETED run 1 "$T0" $((T0 + 1)) 1 | head -c 120 >>"$d/jobcomp" # cut short, as by a crash
echo >>"$d/jobcomp"
"$CHECK" --jobcomp "$d/jobcomp" --cpus $N >"$tmp/out" 2>&1
expect_kind malformed malformed $?

d=$(new_case malformed_time)
sed -i "s/^\(JobId=7 .*StartTime=\)[^ ]*/\1$(t $((T0 + 8)) | tr T ' ')/" "$d/jobcomp"
"$CHECK" --jobcomp "$d/jobcomp" --cpus $N >"$tmp/out" 2>&1
expect_kind malformed_time malformed $?

d=$(new_case end_before_start)
sed -i "/^JobId=6 /d" "$d/jobcomp"
jc 6 FAILED run 150 $((T0 + 9)) $((T0 + 8)) 1 >>"$d/jobcomp"
"$CHECK" --jobcomp "$d/jobcomp" --cpus $N >"$tmp/out" 2>&1
expect_kind end_before_start malformed $?

d=$(new_case twice)
jc 1 COMPLETED run 1 $((T0 + 30)) $((T0 + 35)) 4 >>"$d/jobcomp" # ran again later
run_check "$d"
expect_kind twice twice $?

d=$(new_case requeued)
sed -i "s/^\(JobId=7 .*\)JobState=COMPLETED/\1JobState=PENDING/" "$d/jobcomp"
run_check "$d"
expect_kind requeued requeued $?

d=$(new_case missing)
echo 99 >>"$d/expect"
run_check "$d"
expect_kind missing missing $?

d=$(new_case missing_decided)
echo "98 $((T0 + 40))" >>"$d/decisions"
run_check "$d"
expect_kind missing_decided missing $?

d=$(new_case not_run)
echo 4 >>"$d/expect" # cancelled while pending
run_check "$d"
expect_kind not_run not_run $?

d=$(new_case unexpected)
sed -i '/^7$/d' "$d/expect"
run_check "$d"
expect_kind unexpected unexpected $?

d=$(new_case capacity)
sed -i "/^JobId=7 /d" "$d/jobcomp"
jc 7 COMPLETED run 1 $((T0 + 8)) $((T0 + 20)) 9 >>"$d/jobcomp" # 9 + 8 > 16
run_check "$d"
expect_kind capacity capacity $?

d=$(new_case capacity_one_second)
sed -i "/^JobId=7 /d" "$d/jobcomp"
jc 7 COMPLETED run 1 $((T0 + 7)) $((T0 + 20)) 8 >>"$d/jobcomp" # starts a second before 5 ends
run_check "$d"
expect_kind capacity_one_second capacity $?

d=$(new_case timeout_short)
sed -i "/^JobId=3 /d" "$d/jobcomp"
jc 3 TIMEOUT run 1 $((T0 + 6)) $((T0 + 6 + 57)) 8 >>"$d/jobcomp"
run_check "$d"
expect_kind timeout_short timeout $?

d=$(new_case timeout_long)
sed -i "/^JobId=3 /d" "$d/jobcomp"
jc 3 TIMEOUT run 1 $((T0 + 6)) $((T0 + 6 + 93)) 8 >>"$d/jobcomp"
run_check "$d"
expect_kind timeout_long timeout $?

d=$(new_case overlimit)
sed -i "/^JobId=7 /d" "$d/jobcomp"
jc 7 COMPLETED run 1 $((T0 + 8)) $((T0 + 8 + 100)) 8 >>"$d/jobcomp"
run_check "$d"
expect_kind overlimit overlimit $?

d=$(new_case undecided)
sed -i '/^6 /d' "$d/decisions"
run_check "$d"
expect_kind undecided undecided $?

d=$(new_case early)
sed -i "s/^2 .*/2 $((T0 + 2))/" "$d/decisions" # started at T0+1
run_check "$d"
expect_kind early early $?

d=$(new_case late)
sed -i "s/^2 .*/2 $((T0 - 2))/" "$d/decisions" # started 3 s after
run_check "$d"
expect_kind late late $?

# ---------- usage errors: exit 2 ----------
usage_case() {
	local name=$1
	shift
	"$CHECK" "$@" >"$tmp/out" 2>&1
	local st=$?
	if [ $st -eq 2 ] && grep -q 'slurm_check:' "$tmp/out" && ! grep -q Sanitizer "$tmp/out"; then
		pass "usage_$name"
	else
		fail "usage_$name" "exit $st: $(head -2 "$tmp/out" | tr '\n' ' ')"
	fi
}
v=$tmp/valid
usage_case no_args
usage_case no_cpus --jobcomp "$v/jobcomp"
usage_case no_jobcomp --cpus 16
usage_case zero_cpus --jobcomp "$v/jobcomp" --cpus 0
usage_case bad_tolerance --jobcomp "$v/jobcomp" --cpus 16 --tolerance -5
usage_case missing_value --jobcomp "$v/jobcomp" --cpus
usage_case unknown_option --jobcomp "$v/jobcomp" --cpus 16 --frobnicate 1
usage_case missing_file --jobcomp "$tmp/nonexistent" --cpus 16
usage_case unreadable_decisions --jobcomp "$v/jobcomp" --cpus 16 --decisions "$tmp/nonexistent"
printf '1 %s\n2 soon\n' "$T0" >"$tmp/bad_decisions"
usage_case bad_decisions --jobcomp "$v/jobcomp" --cpus 16 --decisions "$tmp/bad_decisions"
printf '1\n2 3\n' >"$tmp/bad_expect"
usage_case bad_expect_ids --jobcomp "$v/jobcomp" --cpus 16 --expect-ids "$tmp/bad_expect"

# ---------- scale: 1,000 jobs of 16 CPUs one after the other, then one overlap ----------
d=$tmp/scale
mkdir -p "$d"
for i in $(seq 1 1000); do echo "@$((T0 + 10 * i))"; done | date -f - +%Y-%m-%dT%H:%M:%S >"$d/times"
awk '{ t[NR] = $1 } END {
	for (i = 1; i <= NR; i++) {
		e = (i < NR) ? t[i + 1] : "2026-11-27T13:46:10"
		printf "JobId=%d UserId=root(0) GroupId=root(0) Name=j%d JobState=COMPLETED Partition=run TimeLimit=1 StartTime=%s EndTime=%s NodeList=vm NodeCnt=1 ProcCnt=16 WorkDir=/tmp ReservationName= Tres=cpu=16,mem=24105M,node=1,billing=16 Account= QOS= WcKey= Cluster=unknown SubmitTime=%s EligibleTime=%s DerivedExitCode=0:0 ExitCode=0:0 \n", i, i, t[i], e, t[1], t[1]
	}
}' "$d/times" >"$d/jobcomp"
awk '{ print NR " " (1795777160 + 10 * NR - 1) ".5" }' "$d/times" >"$d/decisions"
seq 1 1000 >"$d/expect"
run_check "$d"
expect_pass scale_valid $? '^slurm_check: 1000 lines, 1000 jobs, 1000 ran, 0 violations; max busy 16 of 16 CPUs; worst start delay 500 ms'
sed -i "s/^\(JobId=500 .*EndTime=\)[^ ]*/\1$(t $((T0 + 5011)))/" "$d/jobcomp" # 1 s into job 501
run_check "$d"
expect_kind scale_overlap capacity $?
exit 0
