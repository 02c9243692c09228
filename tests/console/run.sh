#!/usr/bin/env bash
# Every scripted console session (tests/console/*.txt) against the host twin
# and each board under QEMU, then the bit-identical replay check. TEST lines.
set -u
B=${BUILD:-build}
targets="host $(make -s --no-print-directory print-ports)"
if ! command -v qemu-system-arm >/dev/null 2>&1; then
	echo "TEST console.qemu_available FAIL qemu-system-arm is not installed (make test installs it as root: apt-get install qemu-system-arm)"
	targets=host
fi
for script in tests/console/*.txt; do
	for t in $targets; do
		tests/console/drive.sh "$t" "$script" 2>/dev/null
	done
done
tests/console/table.sh $targets
tests/console/refused.sh # host only: a store file to compare, and restarts
tests/console/hash.sh
# tools/board.sh, the README's way to run commands on a board: its replies on each board are the
# host twin's for the same file (the banner and version differ by design: port=, arena=), and
# quit CODE is its exit status.
printf 'submit 1 16 3600\nsubmit 2 128 600\n\n# a comment line is skipped\nadvance 100\nstatus\nqueue\ndigest\nhelp submit\n' >"$B/board_cmds.txt"
grep -v "^#" "$B/board_cmds.txt" | "$B/san/console" 2>&1 | tail -n +2 >"$B/board_host.txt"
for t in $targets; do
	[ "$t" = host ] && continue
	tools/board.sh --port "$t" --timeout 30 "$B/board_cmds.txt" 2>&1 | tail -n +2 >"$B/board_$t.txt"
	st=${PIPESTATUS[0]}
	d=$(diff "$B/board_host.txt" "$B/board_$t.txt" | head -3 | tr '\n' '|')
	if [ "$st" = 0 ] && [ -z "$d" ] && [ -s "$B/board_host.txt" ]; then echo "TEST console.board_sh_$t PASS"; else echo "TEST console.board_sh_$t FAIL exit $st, differs from the host twin: $d"; fi
	printf 'quit 7\n' | tools/board.sh --port "$t" --timeout 30 >/dev/null 2>&1
	st=$?
	if [ "$st" = 7 ]; then echo "TEST console.board_sh_exit_$t PASS"; else echo "TEST console.board_sh_exit_$t FAIL exit $st, expected 7"; fi
done
