#!/usr/bin/env bash
# Run each libFuzzer target for FUZZ_SECONDS (default 20: make test's three
# targets take 60 s of its 10-minute CPU budget; make fuzz gives each 60) from
# the seed corpus (the corrupt-fixture corpus, the hand-made fixtures and
# traces; for the console, the commands of tests/console/*.txt, and a
# dictionary and seeds of the names it takes); any crash, leak or
# sanitizer report fails. Prints TEST lines and each target's runs.
set -u
B=${BUILD:-build}/fuzz
secs=${FUZZ_SECONDS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/seed_fixture" "$tmp/seed_swf" "$tmp/seed_console" "$tmp/work_fixture" "$tmp/work_swf" "$tmp/work_console"
cp tests/data/corrupt/*.fix fixtures/peek.fix "$tmp/seed_fixture/"
cp tests/data/*.swf "$tmp/seed_swf/"
zcat fixtures/KTH-SP2-1996-2.1-cln.swf.gz | head -60 >"$tmp/seed_swf/kth_head.swf"
zcat fixtures/SDSC-SP2-1998-4.2-cln.swf.gz | head -60 >"$tmp/seed_swf/sdsc_head.swf"
# One seed per console session: the lines it sends ("> "), with drive.sh's \xHH escapes decoded.
for script in tests/console/*.txt; do
	sed -n 's/^> //p' "$script" | while IFS= read -r line; do printf '%b\n' "$line"; done \
		>"$tmp/seed_console/$(basename "$script" .txt)"
done
# Its dictionary: the words of those sessions, and the names the console takes, with seeds that
# use each of them (policies, parameters, fixtures), both from the target itself.
mkdir "$tmp/export"
if ! FUZZ_CONSOLE_EXPORT="$tmp/export" "$B/fuzz_console" >/dev/null 2>&1; then
	echo "TEST fuzz.console_names FAIL $B/fuzz_console did not write its dictionary and seeds"
	: >"$tmp/export/console.dict"
fi
mv "$tmp"/export/seed-* "$tmp/seed_console/" 2>/dev/null
for script in tests/console/*.txt; do sed -n 's/^> //p' "$script"; done | tr ' \t' '\n\n' |
	grep -E '^[A-Za-z][A-Za-z0-9_.-]*$' | sed 's/.*/"&"/' | sort -u - "$tmp/export/console.dict" >"$tmp/console.dict"

for target in fixture swf console; do
	log=$tmp/$target.log
	dict=()
	[ -f "$tmp/$target.dict" ] && dict=(-dict="$tmp/$target.dict")
	"$B/fuzz_$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" \
		-artifact_prefix="$tmp/$target-" "$tmp/work_$target" "$tmp/seed_$target" >"$log" 2>&1
	st=$?
	runs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | head -1)
	if [ $st -eq 0 ] && [ -n "$runs" ] && ! grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error' "$log"; then
		echo "TEST fuzz.$target PASS"
		echo "note: fuzz_$target: $runs(s)"
	else
		echo "TEST fuzz.$target FAIL exit $st: $(grep -aE '^fuzz_console:|ERROR|runtime error|SUMMARY' "$log" | head -2 | tr '\n' ' ')"
		grep -a -A2 '^fuzz_console:' "$log" | cut -c1-400 # the console's broken rule, the line and the output
		tail -30 "$log"
		for a in "$tmp/$target"-crash-* "$tmp/$target"-leak-* "$tmp/$target"-timeout-*; do
			[ -f "$a" ] && echo "reproducer $(basename "$a"): $(base64 -w0 "$a" | head -c 400)"
		done
	fi
done
