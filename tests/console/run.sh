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
tests/console/hash.sh
