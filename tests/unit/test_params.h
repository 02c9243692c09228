/* SPDX-License-Identifier: MIT */
/* Policy parameters by name, for the tests: a configuration's parameter area is opaque (sched_param_set/get). */
#ifndef TEST_PARAMS_H
#define TEST_PARAMS_H

#include "harness.h"
#include "sched/sched.h"

/* @p c with parameter @p name set to @p v through the registry; a failed set fails the test. O(parameters). */
static inline struct sched_config tp_set(struct sched_config c, const char *name, uint32_t v)
{
	const struct sched_param *p = sched_param_find(name, NULL);
	if (p == NULL || sched_param_set(&c, p, v) != SCHED_OK)
		test_fail(__FILE__, __LINE__, name);
	return c;
}

/* Set parameter @p name of *@p c in place; SCHED_OK or sched_param_set's error (SCHED_E_RANGE). */
static inline int tp_put(struct sched_config *c, const char *name, uint32_t v)
{
	const struct sched_param *p = sched_param_find(name, NULL);
	return p == NULL ? SCHED_E_INVAL : sched_param_set(c, p, v);
}

/* The value of parameter @p name in @p c (its default if its block was not given). O(parameters). */
static inline uint32_t tp_get(const struct sched_config *c, const char *name)
{
	const struct sched_param *p = sched_param_find(name, NULL);
	if (p == NULL)
		test_fail(__FILE__, __LINE__, name);
	return p == NULL ? 0 : sched_param_get(c, p);
}

#endif /* TEST_PARAMS_H */
