/* SPDX-License-Identifier: MIT */
/* Objects whose sizes make size reads with nm -S, compiled for the target. It measures the
 * core's private state, so it alone outside core/ includes the private headers (tests/lint.sh). */
#include "sched_priv.h"
#include "gang_priv.h"
#include "replay_priv.h"
#include "sched/sched.h"
#include "sched/replay.h"
#include "fixture/fixture.h"
#include "sched/gang.h"
const struct sched_job probe_job;
const struct sched_seg probe_seg;
const struct sched_replay_slot probe_slot;
const struct sched_replay probe_replay;
const struct sched_replay_pending probe_pending;
const struct sched probe_sched;
const struct fix_dec probe_dec;
const struct sched_gang_job probe_gang_job;
const struct sched_gang probe_gang;
const struct sched_slice_run probe_gang_run;
