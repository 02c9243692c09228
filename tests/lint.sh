#!/usr/bin/env bash
# Static analysis: cppcheck over every C file. Prints a TEST line.
set -u
out=$(cppcheck --enable=warning,style,performance,portability --std=c11 --inline-suppr \
	--suppress=missingIncludeSystem -q -Icore/include -Ifixture/include -Iport -Itrace -Icommon -Isim_host \
	-Itests/harness core fixture trace common sim_host port tests tools bridge 2>&1)
if [ -z "$out" ]; then
	echo "TEST lint.cppcheck PASS"
else
	echo "TEST lint.cppcheck FAIL $(printf '%s' "$out" | head -1)"
	printf '%s\n' "$out" | head -20
fi

# The state boundary (docs/design.md): outside core/, nothing includes the core's private
# headers, so no caller can read a field of the scheduler's state or the replay engine's (the
# public headers declare struct sched, struct sched_job, struct sched_gang and struct
# sched_replay without their fields). Unit tests may, where a module has no public face (list,
# pool, profile, soft float, slack internals), to inject faults (or, the harness's self-test, to
# leak and break on purpose), or to check each policy's hooks against what the registry states of
# it (test_registry, the NULL-hook rule); they are listed here by name so that a new one is a
# decision, not an accident.
allowed='tests/unit/test_(list|pool|profile|num|priorities|dynp|gang|sched|failk|harness|registry)\.c'
leaks=$(grep -rlE '#include "(sched_priv|gang_priv|replay_priv|slack|num|list|pool|profile|util|failpoint)\.h"' \
	--include='*.c' --include='*.h' sim_host firmware tools tests port 2>/dev/null |
	grep -vE "^($allowed|tools/probe/sizes\.c)$")
if [ -z "$leaks" ]; then
	echo "TEST lint.state_boundary PASS"
else
	echo "TEST lint.state_boundary FAIL private core headers included by: $(echo $leaks)"
fi
# And the public headers define none of the state's structures.
defs=$(grep -nE '^struct (sched|sched_job|sched_seg|sched_gang|sched_gang_job|sched_pool|sched_profile|sched_list|sched_replay|sched_replay_slot|sched_replay_tslot|sched_replay_pending) \{' \
	core/include/sched/*.h)
if [ -z "$defs" ]; then
	echo "TEST lint.state_opaque PASS"
else
	echo "TEST lint.state_opaque FAIL $(echo $defs | head -c 200)"
fi

# The tools share the replayer's helpers through common/ (fields, progress), never its own headers:
# a tool that includes one of sim_host/'s headers links the replayer's internals.
hdrs=$(cd sim_host && ls *.h | sed 's/\./\\./' | paste -sd'|')
uses=$(grep -lE "#include \"($hdrs)\"" tools/*.c tools/*.h 2>/dev/null)
if [ -z "$uses" ]; then
	echo "TEST lint.tools_not_replayer PASS"
else
	echo "TEST lint.tools_not_replayer FAIL the replayer's headers included by: $(echo $uses)"
fi
