#!/usr/bin/env bash
# Static analysis: cppcheck over every C file. Prints a TEST line.
set -u
out=$(cppcheck --enable=warning,style,performance,portability --std=c11 --inline-suppr \
	--suppress=missingIncludeSystem -q -Icore/include -Iport -Itrace -Isim_host -Itests/harness \
	core trace sim_host port tests tools bridge 2>&1)
if [ -z "$out" ]; then
	echo "TEST lint.cppcheck PASS"
else
	echo "TEST lint.cppcheck FAIL $(printf '%s' "$out" | head -1)"
	printf '%s\n' "$out" | head -20
fi

# The state boundary (docs/design.md): outside core/, nothing includes the core's private
# headers, so no caller can read a field of the scheduler's state (the public headers declare
# struct sched, struct sched_job and struct sched_gang without their fields). Unit tests may,
# where a module has no public face (list, pool, profile, soft float, slack internals), to
# inject faults (or, the harness's self-test, to leak and break on purpose), or to check each
# policy's hooks against what the registry states of it (test_registry, the NULL-hook rule); they
# are listed here by name so that a new one is a decision, not an accident.
allowed='tests/unit/test_(list|pool|profile|num|priorities|dynp|gang|sched|failk|harness|registry)\.c'
leaks=$(grep -rlE '#include "(sched_priv|gang_priv|slack|num|list|pool|profile|util|failpoint)\.h"' \
	--include='*.c' --include='*.h' sim_host firmware tools tests port 2>/dev/null |
	grep -vE "^($allowed|tools/probe/sizes\.c)$")
if [ -z "$leaks" ]; then
	echo "TEST lint.state_boundary PASS"
else
	echo "TEST lint.state_boundary FAIL private core headers included by: $(echo $leaks)"
fi
# And the public headers define none of the state's structures.
defs=$(grep -nE '^struct (sched|sched_job|sched_seg|sched_gang|sched_gang_job|sched_pool|sched_profile|sched_list) \{' \
	core/include/sched/*.h)
if [ -z "$defs" ]; then
	echo "TEST lint.state_opaque PASS"
else
	echo "TEST lint.state_opaque FAIL $(echo $defs | head -c 200)"
fi
