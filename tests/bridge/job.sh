#!/bin/sh
# A test job for tests/bridge/bridge.sh: record that it ran (the checker's witness, independent of the
# bridge's own records), then sleep. Usage: job.sh RUNS_FILE SECONDS
echo "run $SCHED_JOB_ID" >>"$1"
exec sleep "$2"
