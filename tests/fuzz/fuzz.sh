#!/usr/bin/env bash
# Run each libFuzzer target for FUZZ_SECONDS (default 60) from the seed
# corpus (the corrupt-fixture corpus, the hand-made fixtures and traces);
# any crash, leak or sanitizer report fails. Prints TEST lines.
set -u
B=${BUILD:-build}/fuzz
secs=${FUZZ_SECONDS:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/seed_fixture" "$tmp/seed_swf" "$tmp/work_fixture" "$tmp/work_swf"
cp tests/data/corrupt/*.fix fixtures/peek.fix "$tmp/seed_fixture/"
cp tests/data/*.swf "$tmp/seed_swf/"
zcat fixtures/KTH-SP2-1996-2.1-cln.swf.gz | head -60 >"$tmp/seed_swf/kth_head.swf"
zcat fixtures/SDSC-SP2-1998-4.2-cln.swf.gz | head -60 >"$tmp/seed_swf/sdsc_head.swf"

for target in fixture swf; do
	log=$tmp/$target.log
	"$B/fuzz_$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$tmp/" "$tmp/work_$target" "$tmp/seed_$target" >"$log" 2>&1
	st=$?
	runs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | head -1)
	if [ $st -eq 0 ] && [ -n "$runs" ] && ! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error' "$log"; then
		echo "TEST fuzz.$target PASS"
		echo "note: fuzz_$target: $runs(s)"
	else
		echo "TEST fuzz.$target FAIL exit $st: $(grep -E 'ERROR|runtime error|SUMMARY' "$log" | head -2 | tr '\n' ' ')"
		tail -30 "$log"
		for a in "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-*; do
			[ -f "$a" ] && echo "reproducer $(basename "$a"): $(base64 -w0 "$a" | head -c 400)"
		done
	fi
done
