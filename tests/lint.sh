#!/usr/bin/env bash
# Static analysis: cppcheck over every C file. Prints a TEST line.
set -u
out=$(cppcheck --enable=warning,style,performance,portability --std=c11 --inline-suppr \
	--suppress=missingIncludeSystem -q -Icore/include -Iport -Itrace -Isim_host -Itests/harness \
	core trace sim_host port tests tools 2>&1)
if [ -z "$out" ]; then
	echo "TEST lint.cppcheck PASS"
else
	echo "TEST lint.cppcheck FAIL $(printf '%s' "$out" | head -1)"
	printf '%s\n' "$out" | head -20
fi
