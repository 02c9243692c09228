/* SPDX-License-Identifier: MIT */
/* Site files: the parser's values and errors, and how trace jobs are mapped to queues and partitions. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "site.h"

static const char good[] =
	"# a comment line\n"
	"partition front 16   # trailing comment\n"
	"partition back  48\n"
	"queue quick  priority=7 procs=1-8 time=-30m per-user=2 partitions=front up=0.25\n"
	"queue big    priority=5 procs=16- time=1h-12:00 cap=40 partitions=back pp=0.5\n"
	"queue normal priority=5 default\n"
	"queue idle   priority=1 background time=-4h pp=over\n"
	"map queue 3 big\n"
	"map queue -1 normal\n"
	"map partition 2 back\n"
	"route quick procs=-8 time=-1800\n"
	"route idle time=-90s\n"
	"user 42 up=1 pp=1\n"
	"user 7 pp=over\n";

static void parses_values(void)
{
	static struct site s;
	char err[256];
	CHECK_EQ(site_parse(good, "good", &s, err, sizeof err), 0);
	CHECK_EQ(s.cfg.n_partitions, 2);
	CHECK_EQ(s.cfg.partition_procs[1], 48);
	CHECK(strcmp(s.part_name[0], "front") == 0);
	CHECK_EQ(site_procs(&s), 64);
	CHECK_EQ(s.cfg.n_queues, 4);
	const struct sched_queue_cfg *q = &s.cfg.queues[0];
	CHECK_EQ(q->priority, 7);
	CHECK_EQ(q->min_procs, 1);
	CHECK_EQ(q->max_procs, 8);
	CHECK_EQ(q->min_time, 0);
	CHECK_EQ(q->max_time, 1800);
	CHECK_EQ(q->max_running_per_user, 2);
	CHECK_EQ(q->partitions, 1);
	q = &s.cfg.queues[1];
	CHECK_EQ(q->min_procs, 16);
	CHECK_EQ(q->max_procs, 0); /* no upper bound */
	CHECK_EQ(q->min_time, 3600);
	CHECK_EQ(q->max_time, 12 * 3600);
	CHECK_EQ(q->proc_cap, 40);
	CHECK_EQ(q->partitions, 2);
	CHECK(s.cfg.queues[3].background);
	CHECK_EQ(s.cfg.queues[3].max_time, 4 * 3600);
	CHECK_EQ(s.default_queue, 2);
	CHECK_EQ(s.queue_prio[0].up, 250);
	CHECK_EQ(s.queue_prio[1].pp, 500);
	CHECK_EQ(s.queue_prio[3].pp, SCHED_PP_OVER_QUOTA);
	CHECK_EQ(s.n_users, 2);
	CHECK_EQ(s.users[0].user, 7); /* sorted */
	CHECK_EQ(site_queue_index(&s, "idle"), 3);
	CHECK_EQ(site_queue_index(&s, "nope"), -1);
	CHECK_EQ(site_resize(&s, "back", 80), 0);
	CHECK_EQ(site_procs(&s), 96);
	CHECK_EQ(site_resize(&s, "nope", 80), SCHED_E_NOENT);
	CHECK_EQ(site_resize(&s, NULL, 80), SCHED_E_NOENT); /* two partitions: a name is needed */
	site_free(&s);
}

static void assigns_jobs(void)
{
	static struct site s;
	char err[256];
	struct site_job j;
	CHECK_EQ(site_parse(good, "good", &s, err, sizeof err), 0);
	/* The queue number wins over the routes: SWF queue 3 is big, whatever the size. */
	CHECK_EQ(site_assign(&s, 3, -1, 1, 20, 7200, &j), TRACE_SKIP_NONE);
	CHECK_EQ(j.queue, 1);
	CHECK_EQ(j.partition, SCHED_PART_ANY);
	CHECK_EQ(j.pp, 500);
	/* Its partition field names back, which big may use. */
	CHECK_EQ(site_assign(&s, 3, 2, 1, 20, 7200, &j), TRACE_SKIP_NONE);
	CHECK_EQ(j.partition, 1);
	/* A partition the queue may not use is ignored. */
	CHECK_EQ(site_assign(&s, 5, 2, 1, 4, 60, &j), TRACE_SKIP_NONE);
	CHECK_EQ(j.queue, 0); /* routed: quick */
	CHECK_EQ(j.partition, SCHED_PART_ANY);
	CHECK_EQ(j.up, 250);
	/* -1 is a queue number like any other. */
	CHECK_EQ(site_assign(&s, -1, -1, 1, 4, 60, &j), TRACE_SKIP_NONE);
	CHECK_EQ(j.queue, 2);
	/* Routes in order: 9 processors miss quick; 60 s matches idle. */
	CHECK_EQ(site_assign(&s, 5, -1, 1, 9, 60, &j), TRACE_SKIP_NONE);
	CHECK_EQ(j.queue, 3);
	CHECK_EQ(j.pp, SCHED_PP_OVER_QUOTA);
	/* Nothing matches: the default queue. */
	CHECK_EQ(site_assign(&s, 5, -1, 1, 9, 600, &j), TRACE_SKIP_NONE);
	CHECK_EQ(j.queue, 2);
	/* The user's line overrides the queue's priorities, field by field. */
	CHECK_EQ(site_assign(&s, 5, -1, 42, 4, 60, &j), TRACE_SKIP_NONE);
	CHECK_EQ(j.up, 1000);
	CHECK_EQ(j.pp, 1000);
	CHECK_EQ(site_assign(&s, 5, -1, 7, 4, 60, &j), TRACE_SKIP_NONE);
	CHECK_EQ(j.up, 250);
	CHECK_EQ(j.pp, SCHED_PP_OVER_QUOTA);
	/* Wider than every partition quick may use (front, 16). */
	CHECK_EQ(site_assign(&s, 5, -1, 1, 17, 7200, &j), TRACE_SKIP_NONE); /* normal: any partition, 48 */
	CHECK_EQ(site_assign(&s, 3, -1, 1, 49, 7200, &j), TRACE_SKIP_WIDE);
	site_free(&s);

	/* No default and no match: no queue. */
	CHECK_EQ(site_parse("queue only procs=1-4\nroute only procs=1-4\n", "t", &s, err, sizeof err), 0);
	CHECK_EQ(site_assign(&s, 0, -1, 1, 8, 60, &j), TRACE_SKIP_NO_QUEUE);
	CHECK_EQ(site_assign(&s, 0, -1, 1, 2, 60, &j), TRACE_SKIP_NONE);
	site_free(&s);
}

/* Every error names the file and line, and says what is wrong. */
static void reports_errors(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"frobnicate 3\n", "t:1: unknown keyword 'frobnicate'"},
		{"partition a\n", "t:1: expected: partition NAME PROCESSORS"},
		{"partition a 0\n", "t:1: bad processor count '0'"},
		{"partition a 4\npartition a 8\n", "t:2: partition 'a' defined twice"},
		{"partition a/b 4\n", "t:1: bad partition name 'a/b'"},
		{"queue q\npartition a 4\n", "t:2: partitions come before the queues"},
		{"queue q procs=5-2\n", "t:1: procs takes A-B"},
		{"queue q time=10x\n", "t:1: time takes a range of durations"},
		{"queue q time=1:75\n", "t:1: time takes a range of durations"},
		{"queue q per-user=0\n", "t:1: per-user takes 1..65535"},
		{"queue q priority=70000\n", "t:1: priority takes 0..65535"},
		{"queue q partitions=x\n", "t:1: unknown partition 'x'"},
		{"queue q up=2\n", "t:1: up takes a number in [0, 1]"},
		{"queue q pp=high\n", "t:1: pp takes a number in [0, 1] or 'over'"},
		{"queue q colour=red\n", "t:1: unknown queue key 'colour'"},
		{"queue q fast\n", "t:1: unknown word 'fast'"},
		{"queue q default\nqueue r default\n", "t:2: two default queues"},
		{"queue q\nqueue q\n", "t:2: queue 'q' defined twice"},
		{"queue q\nmap queue 1 r\n", "t:2: unknown queue 'r'"},
		{"queue q\nmap queue 1 q\nmap queue 1 q\n", "t:3: SWF queue 1 mapped twice"},
		{"queue q\nmap queue x q\n", "t:2: bad SWF number 'x'"},
		{"queue q\nmap node 1 q\n", "t:2: expected: map queue|partition"},
		{"queue q\nroute q size=4\n", "t:2: unknown route condition 'size=4'"},
		{"queue q\nuser 5 up=1\nuser 5 up=0\n", "t:3: user 5 listed twice"},
		{"queue q\nuser x up=1\n", "t:2: bad user number 'x'"},
		{"# nothing\n", "t: no queue defined"},
		{"partition a 4\nqueue q procs=8-\n", "t: queue q: minimum processors above its widest partition"},
		{"queue q procs=8- cap=4\n", "t: queue q: minimum processors above its cap"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		static struct site s;
		char err[256] = "";
		CHECK_EQ(site_parse(cases[i].text, "t", &s, err, sizeof err), SCHED_E_FORMAT);
		if (strstr(err, cases[i].want) != err) {
			test_fail(__FILE__, __LINE__, err);
			return;
		}
	}
	/* Seventeen queues: one too many. */
	char many[1024] = "";
	for (int q = 0; q <= (int)SCHED_MAX_QUEUES; q++)
		snprintf(many + strlen(many), sizeof many - strlen(many), "queue q%d\n", q);
	static struct site s;
	char err[256];
	CHECK_EQ(site_parse(many, "t", &s, err, sizeof err), SCHED_E_FORMAT);
	CHECK(strstr(err, "t:17: more than 16 queues") == err);
}

/* The committed site files parse. */
static void committed_sites_load(void)
{
	static struct site s;
	char err[256];
	CHECK_EQ(site_load("fixtures/nccs-palm.site", &s, err, sizeof err), 0);
	CHECK_EQ(site_procs(&s), 128 + 512 + 256 + 256);
	CHECK_EQ(s.cfg.n_queues, 8);
	int bg = site_queue_index(&s, "background");
	CHECK(bg >= 0 && s.cfg.queues[bg].background);
	site_free(&s);
	CHECK_EQ(site_load("fixtures/sdsc-sp2.site", &s, err, sizeof err), 0);
	CHECK_EQ(site_procs(&s), 128);
	site_free(&s);
	CHECK_EQ(site_load("fixtures/no-such.site", &s, err, sizeof err), SCHED_E_NOENT);
	CHECK(strstr(err, "No such file") != NULL);
}

static const struct test tests[] = {
	{"parses_values", parses_values},
	{"assigns_jobs", assigns_jobs},
	{"reports_errors", reports_errors},
	{"committed_sites_load", committed_sites_load},
	{NULL, NULL},
};

int main(int argc, char **argv)
{
	return test_main("site", tests, argc, argv);
}
