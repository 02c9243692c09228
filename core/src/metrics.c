/* SPDX-License-Identifier: MIT */
/* Integer metric accumulators (seed 000 section 3.1, seed 001 Exhibit 11, seed 004 section 5.1). */
#include "sched/metrics.h"
#include "util.h"

void sched_metrics_init(struct sched_metrics *m)
{
	sched_zero(m, sizeof *m);
	m->first_submit = SCHED_TIME_MAX;
	m->min_wait = SCHED_TIME_MAX;
	m->min_run = SCHED_TIME_MAX;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return (a != 0 && b > UINT64_MAX / a) ? UINT64_MAX : a * b;
}

uint64_t sched_ratio_micro(uint64_t num, uint64_t den)
{
	if (den == 0)
		return 0;
	uint64_t whole = num / den;
	uint64_t rest = num % den;
	if (whole > UINT64_MAX / SCHED_MICRO)
		return UINT64_MAX;
	/* rest < den; only for a den beyond 2^44 (never a real schedule) is the fraction approximated. */
	uint64_t frac = rest <= UINT64_MAX / SCHED_MICRO ? rest * SCHED_MICRO / den
							  : rest / (den / SCHED_MICRO);
	return sat_add(whole * SCHED_MICRO, frac);
}

unsigned sched_metrics_class(sched_procs_t procs)
{
	if (procs <= 32)
		return 0;
	if (procs <= 64)
		return 1;
	if (procs <= 120)
		return 2;
	return 3;
}

static sched_time_t max_t(sched_time_t a, sched_time_t b)
{
	return a > b ? a : b;
}

void sched_metrics_add(struct sched_metrics *m, sched_time_t submit, sched_time_t start,
		       sched_time_t end, sched_procs_t procs, bool killed)
{
	SCHED_ASSERT(submit <= start && start <= end);
	sched_time_t wait = start - submit;
	sched_time_t run = end - start;
	sched_time_t response = end - submit;

	m->jobs++;
	if (killed)
		m->killed++;
	if (submit < m->first_submit)
		m->first_submit = submit;
	if (end > m->last_end)
		m->last_end = end;
	if (wait > m->max_wait)
		m->max_wait = wait;
	if (wait < m->min_wait)
		m->min_wait = wait;
	if (run > m->max_run)
		m->max_run = run;
	if (run < m->min_run)
		m->min_run = run;
	m->sum_wait = sat_add(m->sum_wait, wait);
	m->sum_run = sat_add(m->sum_run, run);
	m->sum_response = sat_add(m->sum_response, response);
	/* Seed 000 section 3.1: T_l / T_d if T_d > 10 s, else T_l / 10. */
	m->sum_bsld_micro = sat_add(m->sum_bsld_micro, sched_ratio_micro(response, run > 10 ? run : 10));
	m->area = sat_add(m->area, (uint64_t)procs * run);
	m->sum_procs = sat_add(m->sum_procs, procs);
	m->sum_procs_response = sat_add(m->sum_procs_response, (uint64_t)procs * response);
	uint64_t sld60 = sched_ratio_micro(max_t(response, 60), max_t(run, 60));
	uint64_t sld300 = sched_ratio_micro(max_t(response, 300), max_t(run, 300));
	m->sum_procs_sld60_micro = sat_add(m->sum_procs_sld60_micro, sat_mul(sld60, procs));
	m->sum_procs_sld300_micro = sat_add(m->sum_procs_sld300_micro, sat_mul(sld300, procs));
	unsigned c = sched_metrics_class(procs);
	m->class_jobs[c]++;
	m->class_wait[c] = sat_add(m->class_wait[c], wait);
	m->class_run[c] = sat_add(m->class_run[c], run);
}

void sched_metrics_summarize(const struct sched_metrics *m, sched_procs_t procs,
			     struct sched_metrics_summary *out)
{
	sched_zero(out, sizeof *out);
	out->jobs = m->jobs;
	out->killed = m->killed;
	out->total_run = m->sum_run;
	out->ef_micro = sched_ratio_micro(sat_add(m->sum_wait, m->sum_run), m->sum_run);
	for (unsigned k = 0; k < SCHED_METRIC_CLASSES; k++) {
		out->class_jobs[k] = m->class_jobs[k];
		out->ef_class_micro[k] = sched_ratio_micro(sat_add(m->class_wait[k], m->class_run[k]), m->class_run[k]);
	}
	if (m->jobs == 0)
		return; /* the minima still hold SCHED_TIME_MAX, and there is no span */
	out->avg_wait_micro = sched_ratio_micro(m->sum_wait, m->jobs);
	out->max_wait = m->max_wait;
	out->min_wait = m->min_wait;
	out->avg_run_micro = sched_ratio_micro(m->sum_run, m->jobs);
	out->max_run = m->max_run;
	out->min_run = m->min_run;
	/* The sum is in millionths already: divide by the count alone, as sched_ratio_micro(sum, jobs x 1e6) would. */
	out->avg_bsld_micro = m->sum_bsld_micro / m->jobs;
	out->avg_response_micro = sched_ratio_micro(m->sum_response, m->jobs);
	out->makespan = m->last_end - m->first_submit;
	out->util_pct_micro = sched_ratio_micro(sat_mul(m->area, 100u), sat_mul(procs, out->makespan));
	out->artww_micro = sched_ratio_micro(m->sum_procs_response, m->sum_procs);
	out->sldww60_micro = m->sum_procs ? m->sum_procs_sld60_micro / m->sum_procs : 0;
	out->sldww300_micro = m->sum_procs ? m->sum_procs_sld300_micro / m->sum_procs : 0;
}
