/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU lists as taskset -c takes them, and the policy names. */
#include "config.h"

#include "schedopt.h"
#include "tap.h"

static const char *
cpus(const char *list)
{
	static char out[256];
	struct sched_set s = { 0 };
	char err[128];
	size_t off = 0;

	if (sched_cpus_parse(list, &s, err, sizeof err) < 0)
		return "error";
	out[0] = '\0';
	for (unsigned c = 0; c < SCHED_CPUS_MAX; c++)
		if (sched_cpu_isset(&s, c))
			off += (size_t)snprintf(out + off, sizeof out - off, "%s%u",
			    off ? " " : "", c);
	return out;
}

int
main(void)
{
	is_str(cpus("0"), "0", "one CPU");
	is_str(cpus("0,2"), "0 2", "a list");
	is_str(cpus("1-3"), "1 2 3", "a range");
	is_str(cpus("0-7:2"), "0 2 4 6", "a range with a stride");
	is_str(cpus("5,0-1"), "0 1 5", "mixed, any order");
	is_str(cpus("3-3"), "3", "a range of one");
	is_str(cpus("1023"), "1023", "the last CPU we can name");
	const char *bad[] = { "", ",", "1,", ",1", "a", "1-", "-1", "3-1", "0-4:0",
	    "1:2", "1024", "0-1024", "+1", " 1", "1 ", "0x1", "1-2-3", "99999999999999999999" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		is_str(cpus(bad[i]), "error", "refused: '%s'", bad[i]);

	struct sched_set s = { 0 };
	char err[128];
	ok(sched_cpus_parse("9-2", &s, err, sizeof err) < 0 &&
	    strstr(err, "backwards") != NULL, "the reason says why: %s", err);

	struct sched_set p = { 0 };
	ok(sched_policy_parse("other", 0, &p) == 0 && p.prio == 0 &&
	    sched_policy_parse("batch", 0, &p) == 1 &&
	    sched_policy_parse("idle", 1, &p) == 2 && p.policy == 2, "the three policies");
	ok(sched_policy_parse("fifo:1", 0, &p) < 0 &&
	    sched_policy_parse("rr:5", 0, &p) < 0 &&
	    sched_policy_parse("deadline:1/2/3", 0, &p) < 0,
	    "real-time policies are not offered to the loads");
	ok(sched_policy_parse("fifo:1", 1, &p) == SCHED_POL_FIFO && p.prio == 1,
	    "fifo:1 for the job");
	ok(sched_policy_parse("rr:99", 1, &p) == SCHED_POL_RR && p.prio == 99,
	    "rr:99 for the job");
	ok(sched_policy_parse("deadline:2000/10000/20000", 1, &p) == SCHED_POL_DEADLINE &&
	    p.dl[0] == 2000 && p.dl[1] == 10000 && p.dl[2] == 20000,
	    "deadline:2000/10000/20000 for the job");
	char t[SCHED_POLICY_TEXT];
	sched_policy_text(&p, t, sizeof t);
	is_str(t, "deadline:2000/10000/20000", "said as it was given");
	const char *badpol[] = { "fifo", "fifo:", "fifo:0", "fifo:100", "rr:1x",
	    "fifo:-1", "other:1", "batchy", "", "FIFO:1", "fifo:1:2", "deadline",
	    "deadline:", "deadline:1/2", "deadline:1/2/3/4", "deadline:3/2/1",
	    "deadline:1/3/2", "deadline:0/1/2", "deadline:1//2", "deadline:1/2/",
	    "deadline:1/2/3000000000", "deadline:a/b/c" };
	for (size_t i = 0; i < sizeof badpol / sizeof badpol[0]; i++)
		ok(sched_policy_parse(badpol[i], 1, &p) < 0, "refused: '%s'",
		    badpol[i]);

	struct sched_opts o = { 0 };
	char d[200];
	sched_describe(&o, d, sizeof d);
	is_str(d, "", "nothing set: no description");
	o.load.has_nice = 1;
	o.load.nice = 19;
	o.load.has_policy = 1;
	o.load.policy = 2;
	sched_cpus_parse("0", &o.load, err, sizeof err);
	sched_cpus_parse("1", &o.job, err, sizeof err);
	sched_describe(&o, d, sizeof d);
	is_str(d, "loads nice 19, policy idle, cpus 0; job cpus 1", "both described");
	struct sched_opts j = { 0 };
	sched_cpus_parse("1", &j.job, err, sizeof err);
	sched_describe(&j, d, sizeof d);
	is_str(d, "job cpus 1", "the job alone");
	j.job.has_nice = 1;
	j.job.nice = -5;
	j.job.has_policy = 1;
	sched_policy_parse("rr:7", 1, &j.job);
	sched_describe(&j, d, sizeof d);
	is_str(d, "job nice -5, policy rr:7, cpus 1", "a real-time job");
	return tap_done();
}
