#!/usr/bin/env bash
# --node-size K (docs/replay.md#nodes): whole nodes against a case worked by hand, against the same
# trace rounded by awk, against the jobs-out schedule read by Python's csv module; the header's hint;
# the errors; a sweep varying it. Prints TEST lines.
set -u
B=${BUILD:-build}
R=$B/san/replay
S=$B/san/sweep
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
KTH=fixtures/KTH-SP2-1996-2.1-cln.swf.gz

result() {
	if [ "$2" -eq 0 ]; then echo "TEST nodes.$1 PASS"; else echo "TEST nodes.$1 FAIL $3"; fi
}

# A machine of 4 nodes of 8 processors (the header says so), and four jobs (id submit run procs).
{
	printf '; MaxNodes: 4\n; MaxProcs: 32\n'
	for j in "1 0 100 3" "2 0 100 9" "3 10 50 16" "4 20 10 8"; do
		set -- $j
		echo "$1 $2 -1 $3 $4 -1 -1 $4 $3 -1 1 1 1 -1 1 -1 -1 -1"
	done
} >"$tmp/blue.swf"

# By hand, FCFS in nodes of 8: jobs 1 and 2 take 8 + 16 processors at 0 until 100; job 3 (16) waits
# for them, and job 4 (8), though 8 are free, waits behind it under FCFS; both start at 100. Waits 0,
# 0, 90, 80; makespan 150; asked 3x100 + 9x100 + 16x50 + 8x10 = 2080 processor-seconds, given
# 8x100 + 16x100 + 16x50 + 8x10 = 3280; over 32 x 150: 43.33% and 68.33%.
"$R" --policy fcfs --node-size 8 --format csv "$tmp/blue.swf" >"$tmp/hand.csv" 2>"$tmp/hand.err"
st=$?
got=$(python3 - "$tmp/hand.csv" <<'EOF'
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
keys = ["avg_wait", "max_wait", "makespan", "requested_proc_seconds", "allocated_proc_seconds",
        "utilization_requested_pct", "utilization_allocated_pct", "utilization_pct", "run_node_size", "run_procs"]
print(" ".join("%g" % round(float(row[k]), 2) if k in row else "?" for k in keys))
EOF
)
want="42.5 90 150 2080 3280 43.33 68.33 68.33 8 32" # 130/3 and 205/3 to two decimals
result hand_case "$([ $st -eq 0 ] && [ "$got" = "$want" ] && echo 0 || echo 1)" "exit $st, got '$got', want '$want'"
result hand_case_no_hint "$([ ! -s "$tmp/hand.err" ] && echo 0 || echo 1)" "stderr: $(head -1 "$tmp/hand.err")"

# Without the knob the header's nodes are pointed out on stderr, and the schedule is the processors'
# own (job 3 starts at 10 beside jobs 1 and 2: 3 + 9 + 16 <= 32).
"$R" --policy fcfs --format csv "$tmp/blue.swf" >"$tmp/plain.csv" 2>"$tmp/plain.err"
st=$?
hint='^replay: .*blue\.swf: the header gives 4 nodes of 8 processors \(MaxNodes 4, MaxProcs 32\); --node-size 8 allocates them whole$'
result hint_on_stderr "$([ $st -eq 0 ] && [ "$(wc -l <"$tmp/plain.err")" -eq 1 ] && grep -Eq "$hint" "$tmp/plain.err" &&
	! grep -q requested_proc_seconds "$tmp/plain.csv" && echo 0 || echo 1)" "exit $st, stderr '$(head -1 "$tmp/plain.err")'"
"$R" --quiet --policy fcfs "$KTH" >/dev/null 2>"$tmp/kth.err"
result no_hint_when_nodes_are_processors "$([ ! -s "$tmp/kth.err" ] && echo 0 || echo 1)" "stderr: $(head -1 "$tmp/kth.err")"

# Off by default, and K = 1 is the identity: the schedules' hashes are those without the knob.
"$R" --quiet --hash "$KTH" | grep '^hash' >"$tmp/h0"
"$R" --quiet --hash --node-size 1 "$KTH" | grep '^hash' >"$tmp/h1"
result node_size_1_same_schedules "$([ -s "$tmp/h0" ] && cmp -s "$tmp/h0" "$tmp/h1" && echo 0 || echo 1)" "$(diff "$tmp/h0" "$tmp/h1" | head -2)"

# The model against an independent one: awk rounds every job's processors (field 5, else 8) up to
# a multiple of K, and --procs gives the machine rounded down; replaying that trace without the knob
# must give the same schedules (hashes) and the same figures (the rows both reports have). In nodes
# of 8 KTH's load passes 1 (a job of 1 processor takes 8) and conservative's backlog grows: FCFS and
# EASY only there.
for kp in 3:fcfs,easy,cons 8:fcfs,easy; do
	k=${kp%%:*} pol=${kp#*:}
	zcat "$KTH" | awk -v k="$k" '/^;/ { print; next }
		{ p = $5 > 0 ? $5 : $8; if (p > 0) { p = int((p + k - 1) / k) * k; if ($5 > 0) $5 = p; else $8 = p } print }' >"$tmp/r$k.swf"
	m=$((100 - 100 % k))
	"$R" --quiet --hash --policy "$pol" --node-size "$k" "$KTH" >"$tmp/n$k.out" 2>&1
	st=$?
	# (its stderr warns that --procs overrules the header, and of the jobs rounded past it: not compared)
	"$R" --quiet --hash --policy "$pol" --procs "$m" "$tmp/r$k.swf" >"$tmp/a$k.out" 2>/dev/null
	strip() { grep -Ev 'proc-seconds|utilization requested|utilization allocated|processors;' "$1"; }
	ok=$([ $st -eq 0 ] && grep -q "on $m processors" "$tmp/n$k.out" && cmp -s <(strip "$tmp/n$k.out") <(strip "$tmp/a$k.out") && echo 0 || echo 1)
	result "same_as_trace_rounded_by_awk_k$k" "$ok" "exit $st; $(diff <(strip "$tmp/n$k.out") <(strip "$tmp/a$k.out") | head -3 | tr '\n' ' ')"
done

# Requested and allocated processor-seconds against the schedule itself: --jobs-out (field 4 the
# time held, 5 the processors given) read by Python, each job's asked processors from the trace.
"$R" --quiet --policy easy --node-size 8 --format csv --jobs-out "$tmp/sim.swf" "$KTH" >"$tmp/easy.csv"
st=$?
zcat "$KTH" >"$tmp/kth.swf"
got=$(python3 - "$tmp/kth.swf" "$tmp/sim.swf" "$tmp/easy.csv" <<'EOF'
import csv, sys
def jobs(path):
    for line in open(path):
        f = line.split()
        if f and not f[0].startswith(";"):
            yield [int(float(x)) for x in f]
asked = {j[0]: (j[4] if j[4] > 0 else j[7]) for j in jobs(sys.argv[1])}
req = alloc = 0
bad = 0
for j in jobs(sys.argv[2]):
    req += asked[j[0]] * j[3]
    alloc += j[4] * j[3]
    bad += j[4] % 8 != 0 or j[4] < asked[j[0]] or j[4] - asked[j[0]] >= 8
row = next(csv.DictReader(open(sys.argv[3])))
ok = (int(row["requested_proc_seconds"]) == req and int(row["allocated_proc_seconds"]) == alloc and bad == 0
      and row["utilization_allocated_pct"] == row["utilization_pct"] and req < alloc)
print("ok" if ok else "req %d alloc %d bad %d row %s %s" % (req, alloc, bad, row["requested_proc_seconds"],
                                                              row["allocated_proc_seconds"]))
EOF
)
result proc_seconds_from_jobs_out "$([ $st -eq 0 ] && [ "$got" = ok ] && echo 0 || echo 1)" "exit $st: $got"

# The schedule written back describes the machine's nodes: replaying it points at the knob again.
grep -q '^; MaxNodes: 12$' "$tmp/sim.swf" && grep -q '^; MaxProcs: 96$' "$tmp/sim.swf" &&
	"$R" --quiet --policy easy "$tmp/sim.swf" 2>&1 >/dev/null | grep -q 'the header gives 12 nodes of 8 processors'
result jobs_out_header_nodes "$?" "$(grep -E '^; Max(Nodes|Procs)' "$tmp/sim.swf" | tr '\n' ' ')"

# A job wider than the machine in whole nodes is skipped: 30 processors fit 32 but not 24 (--procs 30
# in nodes of 8); job 3 (16) still fits.
printf '; MaxProcs: 32\n1 0 -1 10 30 -1 -1 30 10 -1 1 1 1 -1 1 -1 -1 -1\n2 0 -1 10 16 -1 -1 16 10 -1 1 1 1 -1 1 -1 -1 -1\n' >"$tmp/wide.swf"
got=$("$R" --policy fcfs --procs 30 --node-size 8 --format csv "$tmp/wide.swf" 2>/dev/null |
	python3 -c 'import csv, sys; r = next(csv.DictReader(sys.stdin)); print(r["jobs"], r["skipped"], r["run_procs"])')
result wide_in_nodes_skipped "$([ "$got" = "1 1 24" ] && echo 0 || echo 1)" "got '$got'"

# Errors: status 2, one message naming the option, nothing on stdout.
expect_error() {
	local name=$1 pat=$2
	shift 2
	"$R" "$@" >"$tmp/out" 2>"$tmp/err"
	local st=$?
	result "error_$name" "$([ $st -eq 2 ] && [ ! -s "$tmp/out" ] && grep -Eq -- "$pat" "$tmp/err" && echo 0 || echo 1)" \
		"exit $st, stderr '$(head -1 "$tmp/err")'"
}
expect_error zero '^replay: --node-size takes a whole number in 1\.\.2147483647: 0$' --node-size 0 "$tmp/blue.swf"
expect_error not_a_number '^replay: --node-size takes a whole number in 1\.\.2147483647: 8x$' --node-size 8x "$tmp/blue.swf"
expect_error wider_than_machine "blue\.swf: --node-size 33 is more than the machine's 32 processors \(it takes 1 to 32\)" \
	--node-size 33 "$tmp/blue.swf"
expect_error gang 'node-size does not apply to --policy gang or with --site' --policy gang --node-size 8 "$tmp/blue.swf"
expect_error site 'node-size does not apply to --policy gang or with --site' --site fixtures/sdsc-sp2.site --node-size 8 \
	fixtures/SDSC-SP2-1998-4.2-cln.fix
"$R" --help | grep -q -- '--node-size K'
result help "$?" "--help does not list --node-size"

# The sweep passes it on: an axis over node sizes, one row each, with the replayer's own figures.
printf 'trace %s\npolicy fcfs\nvary --node-size 1 8\n' "$tmp/blue.swf" >"$tmp/n.exp"
"$S" "$tmp/n.exp" --replay "$B/replay" -o "$tmp/n.csv" >/dev/null 2>"$tmp/sweep.err"
st=$?
got=$(python3 - "$tmp/n.csv" <<'EOF'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(r["sweep_node-size"], r["run_node_size"], "%g %.2f" % (float(r["avg_wait"]), float(r["utilization_requested_pct"])),
          end=";")
EOF
)
want="1 1 10 65.00;8 8 42.5 43.33;" # K = 1: 2080 over 32 x 100 (job 3 starts at 10, beside 1 and 2)
result sweep_axis "$([ $st -eq 0 ] && [ "$got" = "$want" ] && echo 0 || echo 1)" "exit $st, got '$got', want '$want' $(head -1 "$tmp/sweep.err")"
