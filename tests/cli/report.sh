#!/usr/bin/env bash
# The report's tail and its table of jobs (issue 29, items 4-6): --jobs-csv read by Python's csv
# module, the percentiles and fairness recomputed from it independently, skipped jobs by reason on
# hand-made traces, and the header warnings. Prints TEST lines.
set -u
R=${BUILD:-build}/san/replay
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
KTH=fixtures/KTH-SP2-1996-2.1-cln.swf.gz
R120=tests/data/rand120.swf

result() {
	if [ "$2" -eq 0 ]; then echo "TEST report.$1 PASS"; else echo "TEST report.$1 FAIL $3"; fi
}

# check_jobs NAME JOBS_CSV REPORT_CSV [gang]: Python's csv module reads the table as it is; every
# row agrees with itself; and the report's percentiles, maximum, users, worst user and Jain's index
# are what Python computes from the table (nearest rank: the value of rank ceil(p n / 100)). The
# table has six decimals, truncated as the core's millionths; the report five, rounded: 1e-5 apart.
check_jobs() {
	local name=$1
	python3 - "$2" "$3" "${4:-}" >"$tmp/py.out" 2>&1 <<'PY'
import csv, sys
from fractions import Fraction
jobs_path, report_path, gang = sys.argv[1], sys.argv[2], sys.argv[3] == "gang"
want = "id,user,queue,submit,start,end,wait,run,procs,estimate,killed,backfilled,bsld,slowdown,refused".split(",")
if gang:
    want.append("share")
with open(jobs_path, newline="") as f:
    rows = list(csv.DictReader(f))
    header = list(rows[0].keys()) if rows else []
with open(report_path, newline="") as f:
    rep = list(csv.DictReader(f))[0]
bad = []
if header != want:
    bad.append("header %s" % header)
ran = [r for r in rows if r["refused"] == "0"]
refused = [r for r in rows if r["refused"] == "1"]
if len(ran) != int(rep["jobs"]) or len(refused) != int(rep["refused"]) or len(ran) + len(refused) != len(rows):
    bad.append("%d ran, %d refused of %d rows; report %s, %s" % (len(ran), len(refused), len(rows), rep["jobs"], rep["refused"]))
for r in refused:
    if r["start"] or r["end"] or r["bsld"]:
        bad.append("refused job %s has times" % r["id"])
waits, bslds, by_user = [], [], {}
for r in ran:
    sub, st, en, w, run = (int(r[k]) for k in ("submit", "start", "end", "wait", "run"))
    if w + run != en - sub or st < sub or (not gang and run != en - st):
        bad.append("job %s: submit %d start %d end %d wait %d run %d" % (r["id"], sub, st, en, w, run))
    b = Fraction(en - sub, max(run, 10))
    if abs(float(b) - float(r["bsld"])) > 1.5e-6:
        bad.append("job %s: bsld %s, expected %.6f" % (r["id"], r["bsld"], float(b)))
    if (run > 0) == (r["slowdown"] == "") or (run > 0 and abs(float(Fraction(en - sub, run)) - float(r["slowdown"])) > 1.5e-6):
        bad.append("job %s: slowdown '%s'" % (r["id"], r["slowdown"]))
    if gang and en > st and abs(run / (en - st) - float(r["share"])) > 1.5e-6:
        bad.append("job %s: share %s" % (r["id"], r["share"]))
    waits.append(w)
    bslds.append(b)
    by_user.setdefault(r["user"], []).append(b)
def pct(v, p):
    v = sorted(v)
    return v[-(-p * len(v) // 100) - 1]
for p in (50, 95, 99):
    if pct(waits, p) != int(rep["wait_p%d" % p]):
        bad.append("wait_p%d %s, expected %d" % (p, rep["wait_p%d" % p], pct(waits, p)))
    if abs(float(pct(bslds, p)) - float(rep["bsld_p%d" % p])) > 1e-5:
        bad.append("bsld_p%d %s, expected %.6f" % (p, rep["bsld_p%d" % p], float(pct(bslds, p))))
if abs(float(max(bslds)) - float(rep["bsld_max"])) > 1e-5:
    bad.append("bsld_max %s, expected %.6f" % (rep["bsld_max"], float(max(bslds))))
means = [sum(v) / len(v) for v in by_user.values()]
jain = float(sum(means) ** 2 / (len(means) * sum(m * m for m in means)))
if len(means) != int(rep["users"]) or abs(float(max(means)) - float(rep["worst_user_bsld"])) > 2e-5 \
        or abs(jain - float(rep["jain_users_bsld"])) > 1e-6:
    bad.append("users %s worst %s jain %s, expected %d %.6f %.7f" % (rep["users"], rep["worst_user_bsld"],
               rep["jain_users_bsld"], len(means), float(max(means)), jain))
print("; ".join(bad[:5]) if bad else "ok %d" % len(ran))
PY
	local got
	got=$(cat "$tmp/py.out")
	result "$name" "$([[ "$got" == ok\ * ]] && [ "${got#ok }" -gt 0 ] && echo 0 || echo 1)" "$got"
}

"$R" --policy easy --quiet --format csv --jobs-csv "$tmp/kth.csv" "$KTH" >"$tmp/kth.rep"
check_jobs jobs_csv_kth_easy "$tmp/kth.csv" "$tmp/kth.rep"
# Refused arrivals are rows too, their times empty.
"$R" --policy fcfs --capacity 5 --format csv --jobs-csv "$tmp/cap.csv" "$R120" >"$tmp/cap.rep"
check_jobs jobs_csv_refused "$tmp/cap.csv" "$tmp/cap.rep"
# Gang: the run is the dedicated time (what the metrics count), the share what of its time it ran.
"$R" --policy gang --procs 64 --format csv --jobs-csv "$tmp/gang.csv" "$R120" >"$tmp/gang.rep" 2>/dev/null
check_jobs jobs_csv_gang "$tmp/gang.csv" "$tmp/gang.rep" gang
# One policy column only; a path that cannot be written fails with its option and name before any work (no report).
"$R" --policy fcfs,easy --jobs-csv "$tmp/x.csv" "$R120" >"$tmp/two.out" 2>"$tmp/two.err"
st=$?
result jobs_csv_one_column "$([ $st -eq 2 ] && [ ! -s "$tmp/two.out" ] && grep -q 'need exactly one policy column' "$tmp/two.err" &&
	echo 0 || echo 1)" "exit $st: $(head -1 "$tmp/two.err")"
"$R" --policy fcfs --jobs-csv "$tmp/no/such/dir.csv" "$R120" >"$tmp/nodir.out" 2>"$tmp/nodir.err"
st=$?
result jobs_csv_bad_path "$([ $st -eq 1 ] && [ ! -s "$tmp/nodir.out" ] &&
	grep -q "^replay: --jobs-csv $tmp/no/such/dir.csv: cannot be written: No such file" "$tmp/nodir.err" && echo 0 || echo 1)" \
	"exit $st: $(head -1 "$tmp/nodir.err")"

# Skipped jobs by reason, one of each made by hand: job 2 has no processors (-1 in fields 5 and 8),
# job 3 no run time, job 4 asks for 8 of the 4 processors, job 5 was submitted at -5.
printf '; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n2 1 0 10 -1 -1 -1 -1 20 -1 1 2 1 -1 1 -1 -1 -1
3 2 0 -1 1 -1 -1 1 20 -1 0 1 1 -1 1 -1 -1 -1\n4 3 0 10 8 -1 -1 8 20 -1 1 3 1 -1 1 -1 -1 -1
5 -5 0 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n6 4 0 10 2 -1 -1 2 20 -1 1 2 1 -1 1 -1 -1 -1\n' >"$tmp/skips.swf"
want='{"procs":1,"run":1,"wide":1,"submit":1,"no_queue":0}'
got=$("$R" --policy fcfs --format json "$tmp/skips.swf" 2>/dev/null | jq -c '[.skipped, .skipped_by, .runs[0].skipped, .runs[0].skipped_by]')
result skipped_by_json "$([ "$got" = "[4,$want,4,$want]" ] && echo 0 || echo 1)" "got $got"
got=$("$R" --policy fcfs --format csv "$tmp/skips.swf" 2>/dev/null | python3 -c '
import csv, sys
r = list(csv.DictReader(sys.stdin))[0]
print(" ".join(r[k] for k in ("skipped", "skipped_procs", "skipped_run", "skipped_wide", "skipped_submit", "skipped_no_queue")))')
result skipped_by_csv "$([ "$got" = "4 1 1 1 1 0" ] && echo 0 || echo 1)" "got '$got'"
"$R" --policy fcfs "$tmp/skips.swf" >"$tmp/skips.tab" 2>/dev/null
head=$(head -1 "$tmp/skips.tab")
lines=$(awk '/^  skip: / { n++ } END { print n + 0 }' "$tmp/skips.tab")
result skipped_by_table "$([[ "$head" == *"; 4 jobs skipped by the cleaning conventions (processors < 1: 1, run time < 0: 1, wider than machine: 1, bad submit time: 1)" ]] &&
	[ "$lines" = 4 ] && grep -q '^  skip: wider than machine  *1$' "$tmp/skips.tab" && echo 0 || echo 1)" "header '$head', $lines lines"
# Per month (tests/data/slice_skips.swf says which job is skipped why): each row's reasons sum to its count.
got=$("$R" --policy fcfs --by-month --format json tests/data/slice_skips.swf 2>/dev/null |
	jq -rc '.runs[] | "\(.period):\(.skipped)=\([.skipped_by[]] | add):\(.skipped_by | to_entries | map(select(.value > 0) | "\(.key)\(.value)") | join("+"))"' | tr '\n' ' ')
result skipped_by_month "$([ "$got" = "2024-01:1=1:procs1 2024-02:2=2:run1+wide1 2024-03:1=1:procs1 2024-04:0=0: " ] && echo 0 || echo 1)" "got '$got'"

# The header's warnings: on stderr, the report still printed; none for an honest header.
"$R" --policy fcfs "$tmp/skips.swf" >"$tmp/w1.out" 2>"$tmp/w1.err"
st=$?
result warn_maxprocs_narrower "$([ $st -eq 0 ] && [ -s "$tmp/w1.out" ] && [ "$(wc -l <"$tmp/w1.err")" = 1 ] &&
	grep -q "^replay: $tmp/skips.swf: warning: the header's MaxProcs 4 is narrower than 1 job of the trace (the widest has 8 processors); on 4 processors the wider ones are skipped (give --procs 8 to replay them)$" "$tmp/w1.err" &&
	echo 0 || echo 1)" "exit $st: $(cat "$tmp/w1.err")"
"$R" --policy fcfs --procs 8 "$tmp/skips.swf" >/dev/null 2>"$tmp/w2.err"
result warn_procs_differs "$(grep -q "^replay: $tmp/skips.swf: warning: --procs 8 differs from the header's MaxProcs 4$" "$tmp/w2.err" &&
	grep -q "they are replayed on 8 processors$" "$tmp/w2.err" && echo 0 || echo 1)" "$(tr '\n' ' ' <"$tmp/w2.err")"
"$R" --policy fcfs --procs 100 "$KTH" >/dev/null 2>"$tmp/w3.err"
result no_warning_honest_header "$([ ! -s "$tmp/w3.err" ] && echo 0 || echo 1)" "$(head -2 "$tmp/w3.err")"

# --by-month's table gets the 95th percentile of bsld beside the mean.
"$R" --policy easy --by-month tests/data/slice_skips.swf >"$tmp/m.tab" 2>/dev/null
result by_month_bsld95 "$(awk 'NR == 3' "$tmp/m.tab" | grep -q 'bsld95' && echo 0 || echo 1)" "$(sed -n 3p "$tmp/m.tab")"
