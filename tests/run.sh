#!/usr/bin/env bash
# Run every test (unit tests under ASan/UBSan, property tests with the
# independent checker, command-line tests, the freestanding symbol check)
# and end with one line the CI reads: "N passed, N failed".
set -u
B=${BUILD:-build}
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# run NAME CMD...: keep its TEST lines; a crash (sanitizer abort) is a failure of its own.
run() {
	local name=$1
	shift
	local out
	out=$("$@" 2>&1)
	local st=$?
	printf '%s\n' "$out" | grep -E '^(TEST |note:)' | tee -a "$log"
	if ! printf '%s\n' "$out" | grep -q '^TEST '; then
		echo "TEST $name FAIL printed no results (exit $st)" | tee -a "$log"
		printf '%s\n' "$out" | tail -20
	elif [ $st -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^TEST .* FAIL'; then
		echo "TEST $name.exit FAIL exit status $st" | tee -a "$log"
		printf '%s\n' "$out" | tail -20
	fi
}

for t in "$B"/san/test_*; do
	run "$(basename "$t")" "$t"
done
run props tests/prop/props.sh
run oracle tests/oracle/oracle.sh --check --quick
run cli tests/cli/cli.sh
run pictures tests/pictures.sh
run fixtures tests/cli/fixtures.sh
run stats_as tests/cli/stats_as.sh
run report tests/cli/report.sh
run nodes tests/cli/nodes.sh
run sweep tests/sweep/sweep.sh
run sweep_slurm tests/sweep/slurm.sh
run fuzz tests/fuzz/fuzz.sh
run freestanding tests/freestanding.sh "$B/arm/libsched.a" "$B/arm/libfixture.a"
run firmware tests/firmware.sh
run console tests/console/run.sh
run console_nodes tests/console/nodes_hash.sh
run store tests/store/store.sh
run store_board tests/store/board.sh
run bridge_check tests/bridge/check_selftest.sh
run bridge tests/bridge/bridge.sh
run slurm_check tests/bridge/slurm_check_selftest.sh
run bridge_slurm tests/bridge/slurm.sh
run verdicts tests/tools/verdicts.sh
run progress tests/tools/progress.sh
run lint tests/lint.sh

passed=$(grep -c '^TEST .* PASS$' "$log")
failed=$(grep -c '^TEST .* FAIL' "$log")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
