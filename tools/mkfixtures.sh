#!/usr/bin/env bash
# make fixtures: regenerate every binary fixture from its source with
# build/swf2fix, and fixtures/README.md with their sizes and checksums.
set -eu
B=${BUILD:-build}
srcs="KTH-SP2-1996-2.1-cln CTC-SP2-1996-3.1-cln SDSC-SP2-1998-4.2-cln SDSC-Par-1996-3.1-cln lublin_256"
declare -A machine=(
	[KTH-SP2-1996-2.1-cln]="IBM SP2, KTH Stockholm, Sep 1996 - Aug 1997"
	[CTC-SP2-1996-3.1-cln]="IBM SP2, Cornell Theory Center, Jun 1996 - May 1997"
	[SDSC-SP2-1998-4.2-cln]="IBM SP2, San Diego Supercomputer Center, Apr 1998 - Apr 2000"
	[SDSC-Par-1996-3.1-cln]="Intel Paragon, SDSC, 1996"
	[lublin_256]="synthetic, Lublin-Feitelson model"
)
for s in $srcs; do
	"$B/swf2fix" "fixtures/$s.swf.gz" "fixtures/$s.fix" 2>/dev/null
done
"$B/swf2fix" tests/data/peek.swf fixtures/peek.fix 2>/dev/null
sha() { sha256sum "$1" | cut -c1-64; }
{
	cat <<'TXT'
# Fixtures

Workload traces from the Parallel Workloads Archive
(https://www.cs.huji.ac.il/labs/parallel/workload/; Feitelson, Tsafrir and
Krakov 2014, [docs/references.md](../docs/references.md)) in the Standard
Workload Format (gzip'd; the sha256 sums below identify each file, and
[docs/traces.md](../docs/traces.md) each trace's version), and the compact binary fixtures made from them by
`build/swf2fix` (format: [docs/fixture-format.md](../docs/fixture-format.md)).
`make run` replays the KTH SP2 fixture; the tests, `make bench` and the
firmware use the others. `make fixtures` regenerates every fixture and this
file; a test checks that the committed fixtures are what the tools make today.

## Sources

| file | machine | job lines | sha256 |
|---|---|---:|---|
TXT
	for s in $srcs; do
		n=$(zcat "fixtures/$s.swf.gz" | grep -vc '^;')
		echo "| \`$s.swf.gz\` | ${machine[$s]} | $n | \`$(sha "fixtures/$s.swf.gz")\` |"
	done
	cat <<'TXT'

## Binary fixtures

The SWF text is about 80 bytes per job; the fixture format targets at most 8
bytes per job for KTH SP2.

| fixture | source | jobs | bytes | bytes per job | sha256 |
|---|---|---:|---:|---:|---|
TXT
	for s in $srcs peek; do
		f=fixtures/$s.fix
		src=$s.swf.gz
		[ "$s" = peek ] && src=tests/data/peek.swf
		n=$("$B/fixinfo" --csv "$f" | awk -F, '$1 == "number of jobs" {print $2}')
		b=$(wc -c <"$f")
		echo "| \`$s.fix\` | \`$src\` | $n | $b | $(awk -v b="$b" -v n="$n" 'BEGIN { printf "%.2f", b / n }') | \`$(sha "$f")\` |"
	done
	cat <<'TXT'

`peek.fix` is hand-made (from `tests/data/peek.swf`): three jobs whose run
times are far from their estimates, so that a scheduler that peeked at run
times would start job 3 at once.

Facts worth knowing: header counts (MaxJobs, MaxRecords) describe the
original logs, not the cleaned files; KTH has one job with -1 in both
processor fields (skipped by the replayer) and 475 jobs that ran longer than
they requested (killed at their estimate); SDSC SP2 has 5,671 jobs with run
time -1 (cancelled before running; skipped); lublin_256 and SDSC Paragon have
no requested times, so estimates default to run times.
TXT
} >fixtures/README.md
echo "wrote fixtures/*.fix and fixtures/README.md" >&2
