/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <stdint.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include "num.h"
#include "schedopt.h"

#define BITS (8 * sizeof(unsigned long))

const char *const sched_policy_names[] = { "other", "batch", "idle", "fifo", "rr",
    "deadline", NULL };

/* "R/D/P" in microseconds, each 1..10^9 (1000 s), R <= D <= P. */
static int
deadline_parse(const char *s, unsigned long long *dl)
{
	char buf[64], *save = NULL, *w;
	const char *why;
	int n = 0;

	if (strlen(s) >= sizeof buf)
		return -1;
	snprintf(buf, sizeof buf, "%s", s);
	for (w = strtok_r(buf, "/", &save); w && n < 3; w = strtok_r(NULL, "/", &save)) {
		dl[n++] = (unsigned long long)num_parse(w, 1, 1000000000, &why);
		if (why)
			return -1;
	}
	if (n != 3 || w || s[0] == '/' || strstr(s, "//") || s[strlen(s) - 1] == '/')
		return -1;
	return dl[0] <= dl[1] && dl[1] <= dl[2] ? 0 : -1;
}

int
sched_policy_parse(const char *s, int rt, struct sched_set *set)
{
	const char *why;

	set->prio = 0;
	memset(set->dl, 0, sizeof set->dl);
	for (int i = 0; sched_policy_names[i]; i++) {
		size_t n = strlen(sched_policy_names[i]);
		if (strncmp(s, sched_policy_names[i], n) != 0)
			continue;
		if (i < SCHED_POL_FIFO)
			return s[n] == '\0' ? (set->policy = i) : -1;
		/* a real-time policy has no default priority: chrt asks too */
		if (!rt || s[n] != ':')
			return -1;
		if (i == SCHED_POL_DEADLINE)
			return deadline_parse(s + n + 1, set->dl) < 0 ? -1 : (set->policy = i);
		set->prio = (int)num_parse(s + n + 1, 1, 99, &why);
		return why ? -1 : (set->policy = i);
	}
	return -1;
}

void
sched_policy_text(const struct sched_set *s, char *buf, size_t len)
{
	if (s->policy == SCHED_POL_DEADLINE)
		snprintf(buf, len, "deadline:%llu/%llu/%llu", s->dl[0], s->dl[1], s->dl[2]);
	else if (s->policy >= SCHED_POL_FIFO)
		snprintf(buf, len, "%s:%d", sched_policy_names[s->policy], s->prio);
	else
		snprintf(buf, len, "%s", sched_policy_names[s->policy]);
}

int
sched_cpu_isset(const struct sched_set *s, unsigned cpu)
{
	return cpu < SCHED_CPUS_MAX && (s->cpus[cpu / BITS] >> (cpu % BITS) & 1);
}

static long long
cpu_number(const char *s, size_t len, char *err, size_t errlen)
{
	char buf[16];
	const char *why;

	if (len == 0 || len >= sizeof buf) {
		snprintf(err, errlen, "'%.*s' is not a CPU number", (int)len, s);
		return -1;
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	long long v = num_parse(buf, 0, SCHED_CPUS_MAX - 1, &why);
	if (why) {
		snprintf(err, errlen, "CPU '%s' is %s (0..%d)", buf, why,
		    SCHED_CPUS_MAX - 1);
		return -1;
	}
	return v;
}

int
sched_cpus_parse(const char *list, struct sched_set *s, char *err, size_t errlen)
{
	const char *p = list;

	memset(s->cpus, 0, sizeof s->cpus);
	if (*list == '\0') {
		snprintf(err, errlen, "empty CPU list");
		return -1;
	}
	for (;;) {
		size_t len = strcspn(p, ",");
		const char *dash = memchr(p, '-', len), *colon = memchr(p, ':', len);
		long long lo, hi, step = 1;

		if (colon && !dash) {
			snprintf(err, errlen, "'%.*s': a stride needs a range (N-M:S)",
			    (int)len, p);
			return -1;
		}
		if ((lo = cpu_number(p, dash ? (size_t)(dash - p) : len, err, errlen)) < 0)
			return -1;
		hi = lo;
		if (dash) {
			const char *end = colon ? colon : p + len;
			if ((hi = cpu_number(dash + 1, (size_t)(end - dash - 1), err,
			    errlen)) < 0)
				return -1;
			if (colon && (step = cpu_number(colon + 1,
			    (size_t)(p + len - colon - 1), err, errlen)) < 1) {
				if (step == 0)
					snprintf(err, errlen, "stride 0 in '%.*s'", (int)len, p);
				return -1;
			}
			if (hi < lo) {
				snprintf(err, errlen, "'%.*s': range runs backwards",
				    (int)len, p);
				return -1;
			}
		}
		for (long long c = lo; c <= hi; c += step)
			s->cpus[c / (long long)BITS] |= 1UL << (c % (long long)BITS);
		if (p[len] == '\0')
			break;
		p += len + 1;
	}
	s->has_cpus = 1;
	snprintf(s->cpus_text, sizeof s->cpus_text, "%s", list);
	return 0;
}

#ifdef HAVE_SCHED_SETAFFINITY
static void
to_cpuset(const struct sched_set *s, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (unsigned c = 0; c < SCHED_CPUS_MAX && c < CPU_SETSIZE; c++)
		if (sched_cpu_isset(s, c))
			CPU_SET(c, set);
}
#endif

static int
policy_value(int i)
{
	switch (i) {
#ifdef SCHED_BATCH
	case 1:
		return SCHED_BATCH;
#endif
#ifdef SCHED_IDLE
	case 2:
		return SCHED_IDLE;
#endif
	case SCHED_POL_FIFO:
		return SCHED_FIFO;
	case SCHED_POL_RR:
		return SCHED_RR;
#if defined(__linux__) && defined(SYS_sched_setattr)
	case SCHED_POL_DEADLINE:
		return 6;	/* SCHED_DEADLINE: glibc's sched.h has no name for it */
#endif
	case 0:
		return SCHED_OTHER;
	default:
		return -1;
	}
}

int
sched_check(const struct sched_set *s, char *err, size_t errlen)
{
	if (s->has_policy && policy_value(s->policy) < 0) {
		snprintf(err, errlen, "policy '%s' does not exist on this system",
		    sched_policy_names[s->policy]);
		return -1;
	}
	if (s->has_policy && (s->policy == SCHED_POL_FIFO || s->policy == SCHED_POL_RR)) {
		int pol = policy_value(s->policy);
		int lo = sched_get_priority_min(pol), hi = sched_get_priority_max(pol);
		if (s->prio < lo || s->prio > hi) {
			snprintf(err, errlen, "policy %s: priority %d is outside this "
			    "system's %d..%d", sched_policy_names[s->policy], s->prio,
			    lo, hi);
			return -1;
		}
	}
	if (!s->has_cpus)
		return 0;
#ifdef HAVE_SCHED_SETAFFINITY
	cpu_set_t mine;
	if (sched_getaffinity(0, sizeof mine, &mine) != 0) {
		snprintf(err, errlen, "sched_getaffinity: %s", strerror(errno));
		return -1;
	}
	for (unsigned c = 0; c < SCHED_CPUS_MAX; c++)
		if (sched_cpu_isset(s, c) && (c >= CPU_SETSIZE || !CPU_ISSET(c, &mine))) {
			snprintf(err, errlen, "CPU %u is not available to this process "
			    "(it may use %d CPUs)", c, CPU_COUNT(&mine));
			return -1;
		}
	return 0;
#else
	snprintf(err, errlen, "CPU affinity is not supported on this system");
	return -1;
#endif
}

/* SCHED_DEADLINE by sched_setattr(2), reset on fork: a deadline task
 * cannot fork otherwise, and what the job forks runs as SCHED_OTHER. */
static int
set_deadline(const struct sched_set *s)
{
#if defined(__linux__) && defined(SYS_sched_setattr)
	struct {
		uint32_t size, policy;
		uint64_t flags;
		int32_t nice;
		uint32_t priority;
		uint64_t runtime, deadline, period;
	} a = { .size = sizeof a, .policy = 6, .flags = 1 /* RESET_ON_FORK */,
	    .runtime = s->dl[0] * 1000, .deadline = s->dl[1] * 1000,
	    .period = s->dl[2] * 1000 };

	return (int)syscall(SYS_sched_setattr, 0, &a, 0);
#else
	(void)s;
	errno = ENOSYS;
	return -1;
#endif
}

int
sched_apply_step(const struct sched_set *s)
{
	if (s->has_policy && s->policy == SCHED_POL_DEADLINE) {
		if (set_deadline(s) != 0)
			return SCHED_STEP_POLICY;
	} else if (s->has_policy) {
		struct sched_param sp = { .sched_priority = s->prio };
		if (sched_setscheduler(0, policy_value(s->policy), &sp) != 0)
			return SCHED_STEP_POLICY;
	}
	/* after the policy: SCHED_IDLE ignores nice, the others keep it */
	if (s->has_nice && setpriority(PRIO_PROCESS, 0, s->nice) != 0)
		return SCHED_STEP_NICE;
#ifdef HAVE_SCHED_SETAFFINITY
	if (s->has_cpus) {
		cpu_set_t set;
		to_cpuset(s, &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0)
			return SCHED_STEP_CPUS;
	}
#endif
	return 0;
}

void
sched_step_text(const struct sched_set *s, int step, int err, char *buf, size_t len)
{
	char pol[SCHED_POLICY_TEXT];

	if (step == SCHED_STEP_POLICY) {
		sched_policy_text(s, pol, sizeof pol);
		snprintf(buf, len, "policy %s: %s", pol, strerror(err));
	} else if (step == SCHED_STEP_NICE)
		snprintf(buf, len, "nice %d: %s", s->nice, strerror(err));
	else
		snprintf(buf, len, "CPUs %s: %s", s->cpus_text, strerror(err));
}

int
sched_apply(const struct sched_set *s, char *err, size_t errlen)
{
	int step = sched_apply_step(s);

	if (step == 0)
		return 0;
	sched_step_text(s, step, errno, err, errlen);
	return -1;
}

static size_t
describe_set(const char *who, const struct sched_set *s, char *buf, size_t len)
{
	size_t off = 0;
	char pol[SCHED_POLICY_TEXT];

	if (!s->has_nice && !s->has_policy && !s->has_cpus)
		return 0;
	sched_policy_text(s, pol, sizeof pol);
#define ADD(...) do { if (off < len) off += (size_t)snprintf(buf + off, len - off, __VA_ARGS__); } while (0)
	ADD("%s", who);
	if (s->has_nice)
		ADD(" nice %d", s->nice);
	if (s->has_policy)
		ADD("%s policy %s", s->has_nice ? "," : "", pol);
	if (s->has_cpus)
		ADD("%s cpus %s", s->has_nice || s->has_policy ? "," : "", s->cpus_text);
#undef ADD
	return off < len ? off : len;
}

void
sched_describe(const struct sched_opts *o, char *buf, size_t len)
{
	size_t off;

	buf[0] = '\0';
	off = describe_set("loads", &o->load, buf, len);
	if (off && off < len - 2 && (o->job.has_cpus || o->job.has_nice ||
	    o->job.has_policy)) {
		memcpy(buf + off, "; ", 3);
		off += 2;
	}
	describe_set("job", &o->job, buf + off, len - off);
}
