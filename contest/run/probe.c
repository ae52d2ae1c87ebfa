/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_SYS_PRCTL_H
#include <sys/prctl.h>
#endif

#include "probe.h"
#include "proc.h"
#include "sys.h"
#include "util.h"
#include "waitfor.h"

/* The work of one period: a dependent chain the compiler cannot fold. */
static unsigned long long
work(unsigned long long n)
{
	volatile unsigned long long x = 88172645463325252ULL;

	for (unsigned long long i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

unsigned long long
probe_calibrate(unsigned period_ms, double frac)
{
	unsigned long long n = 1 << 16;
	double best = 0;

	/* the fastest of a few tries: the machine's speed, not its noise */
	for (int i = 0; i < 5; i++) {
		double t0 = mono_now();
		work(n);
		double t = mono_now() - t0;
		if (t > 0 && (best == 0 || t < best))
			best = t;
	}
	if (best <= 0)
		return n;
	return (unsigned long long)((double)n * (period_ms / 1e3 * frac) / best);
}

/* Whether the probe is cyclictest's: a task a CPU, or a policy of its own. */
static int
cyclictest_grade(const struct probe_cfg *cfg)
{
	return cfg->cpus.has_cpus || cfg->all_cpus || cfg->policy.has_policy;
}

/* One task's knobs: the job's CPUs and policy, or its own CPU (cpu >= 0)
 * and --probe-policy's; its own nice, else the job's. */
static void
task_sched(struct sched_set *s, const struct probe_cfg *cfg,
    const struct sched_set *job, int cpu)
{
	*s = *job;
	s->has_nice = cfg->has_nice ? 1 : job->has_nice;
	s->nice = cfg->has_nice ? cfg->nice : job->nice;
	if (cpu >= 0) {
		memset(s->cpus, 0, sizeof s->cpus);
		s->cpus[(unsigned)cpu / (8 * sizeof(unsigned long))] |=
		    1UL << ((unsigned)cpu % (8 * sizeof(unsigned long)));
		s->has_cpus = 1;
		snprintf(s->cpus_text, sizeof s->cpus_text, "%d", cpu);
	}
	if (cfg->policy.has_policy) {
		s->has_policy = 1;
		s->policy = cfg->policy.policy;
		s->prio = cfg->policy.prio;
	}
}

/* Whether the kernel says this task's memory is locked (VmLck): a
 * sanitizer's mlockall returns 0 and locks nothing.  Where there is no
 * /proc to ask, the call's word is taken. */
static int
locked_now(void)
{
	char line[128];
	long kb = 1;
	FILE *f = fopen("/proc/self/status", "re");

	if (f == NULL)
		return 1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmLck: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb > 0;
}

static void __attribute__((noreturn))
probe_main(struct probe_shm *m, const struct probe_cfg *cfg,
    const struct sched_set *job, int cpu, int ready_fd)
{
	unsigned long long period = (unsigned long long)cfg->period_ms * 1000000ULL;
	struct sched_set s;

	task_sched(&s, cfg, job, cpu);
	if (sched_apply(&s, m->why, sizeof m->why) < 0) {
		atomic_store(&m->failed, 1);
		_exit(1);
	}
	/* as cyclictest -m: no page fault inside a measured wake-up (where
	 * RLIMIT_MEMLOCK allows; results say whether it did) */
	if (cyclictest_grade(cfg) && mlockall(MCL_CURRENT | MCL_FUTURE) == 0 &&
	    locked_now())
		atomic_store(&m->locked, 1);
#if defined(HAVE_SYS_PRCTL_H) && defined(PR_SET_TIMERSLACK)
	prctl(PR_SET_TIMERSLACK, 1UL);	/* woken when asked, not 50 us after */
#endif
	unsigned long long next = mono_ns() + period;
	m->origin = next;
	atomic_store(&m->ready, 1);
	if (write(ready_fd, "r", 1) != 1)
		_exit(1);
	close(ready_fd);
	for (;;) {
		struct timespec ts = { (time_t)(next / 1000000000ULL),
		    (long)(next % 1000000000ULL) };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		unsigned long long now = mono_ns();
		hist_shared_add(&m->late, now > next ? now - next : 0);
		work(cfg->work);
		now = mono_ns();
		next += period;
		atomic_fetch_add_explicit(&m->periods, 1, memory_order_relaxed);
		if (now <= next) {
			atomic_fetch_add_explicit(&m->met, 1, memory_order_relaxed);
			continue;
		}
		/* Missed.  No burst to catch up: the next wake-up is the first
		 * grid point after now, and the deadlines up to it go by with
		 * no wake-up to serve their periods (the driver counts them off
		 * the clock: a starved probe could not count them in time). */
		next += ((now - next) / period + 1) * period;
	}
}

/* The CPUs a task each: --probe-cpus's, or every one we may use. */
static size_t
probe_cpus(const struct probe_cfg *cfg, int *cpu)
{
	size_t n = 0;

	if (!cfg->cpus.has_cpus && !cfg->all_cpus) {
		cpu[0] = -1;
		return 1;
	}
#ifdef HAVE_SCHED_SETAFFINITY
	cpu_set_t mine;
	if (cfg->all_cpus && sched_getaffinity(0, sizeof mine, &mine) != 0)
		CPU_ZERO(&mine);
	for (int c = 0; c < SCHED_CPUS_MAX && n < PROBE_CPUS_MAX; c++)
		if (cfg->all_cpus ? c < CPU_SETSIZE && CPU_ISSET(c, &mine) :
		    sched_cpu_isset(&cfg->cpus, (unsigned)c))
			cpu[n++] = c;
#endif
	return n;
}

/* /dev/cpu_dma_latency held at 0 while the probe runs, as cyclictest
 * holds it: no deep idle state to wake from (said where it cannot). */
static void
hold_dma_latency(struct probe *p)
{
	int32_t zero = 0;

	p->dma_fd = open("/dev/cpu_dma_latency", O_WRONLY | O_CLOEXEC);
	if (p->dma_fd < 0 || write(p->dma_fd, &zero, sizeof zero) != sizeof zero) {
		snprintf(p->dma_why, sizeof p->dma_why, "/dev/cpu_dma_latency: %s",
		    strerror(errno));
		if (p->dma_fd >= 0)
			close(p->dma_fd);
		p->dma_fd = -1;
	}
}

/* Each task's byte once its knobs are set (end of file once all that
 * will write have): 0 when all n came within 5 s. */
static int
wait_ready(int fd, size_t n)
{
	double deadline = mono_now() + 5;
	size_t got = 0;
	char c[64];

	while (got < n && !proc_signal) {
		int w = waitfor(fd, WAITFOR_READ, deadline);
		if (w == WAITFOR_SIGNAL)
			continue;
		ssize_t r = read(fd, c, n - got < sizeof c ? n - got : sizeof c);
		if (r <= 0 && !(r < 0 && errno == EAGAIN))
			break;
		if (r > 0)
			got += (size_t)r;
		else if (mono_now() >= deadline)
			break;
	}
	return got == n ? 0 : -1;
}

/* The first task's reason for not starting, or a timeout's. */
static void
start_failed(const struct probe *p, char *why, size_t whylen)
{
	for (size_t i = 0; i < p->n; i++)
		if (atomic_load(&p->shm[i].failed)) {
			if (p->cpu[i] >= 0)
				snprintf(why, whylen, "latency probe did not start on CPU %d: %s",
				    p->cpu[i], p->shm[i].why);
			else
				snprintf(why, whylen, "latency probe did not start: %s",
				    p->shm[i].why);
			return;
		}
	snprintf(why, whylen, "latency probe did not start: not ready after 5 s");
}

int
probe_start(struct probe *p, const struct probe_cfg *cfg,
    const struct sched_set *job, char *why, size_t whylen)
{
	int cpu[PROBE_CPUS_MAX];
	size_t want;

	memset(p, 0, sizeof *p);
	p->dma_fd = -1;
	p->period = (unsigned long long)cfg->period_ms * 1000000ULL;
	if (cfg->period_ms == 0)
		return 0;
	if ((want = probe_cpus(cfg, cpu)) == 0) {
		snprintf(why, whylen, "latency probe: no CPU to run on");
		return -1;
	}
	p->shm = mmap(NULL, want * sizeof *p->shm, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p->shm == MAP_FAILED) {
		p->shm = NULL;
		snprintf(why, whylen, "latency probe: mmap: %s", strerror(errno));
		return -1;
	}
	p->nmap = want;
	p->pid = xcalloc(want, sizeof *p->pid);
	p->cpu = xcalloc(want, sizeof *p->cpu);
	p->per_cpu = cfg->cpus.has_cpus || cfg->all_cpus;
	if (p->per_cpu) {
		p->at[0] = xcalloc(want, sizeof *p->at[0]);
		p->at[1] = xcalloc(want, sizeof *p->at[1]);
	}
	if (cyclictest_grade(cfg))
		hold_dma_latency(p);
	int fds[2];
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(why, whylen, "latency probe: pipe: %s", strerror(errno));
		probe_stop(p);
		return -1;
	}
	for (size_t i = 0; i < want; i++) {
		hist_shared_restart(&p->shm[i].late);
		p->cpu[i] = cpu[i];
		pid_t pid = proc_fork(0, -1);
		if (pid < 0) {
			snprintf(why, whylen, "latency probe: fork: %s", strerror(errno));
			close(fds[0]);
			close(fds[1]);
			probe_stop(p);
			return -1;
		}
		if (pid == 0) {
			close(fds[0]);
			probe_main(&p->shm[i], cfg, job, cpu[i], fds[1]);
		}
		p->pid[p->n++] = pid;
	}
	close(fds[1]);
	int ok = wait_ready(fds[0], want) == 0;
	close(fds[0]);
	for (size_t i = 0; ok && i < p->n; i++)
		ok = atomic_load(&p->shm[i].ready);
	if (!ok && !proc_signal) {
		start_failed(p, why, whylen);
		probe_stop(p);
		return -1;
	}
	return 0;
}

/* The probe's CPU time so far, in ns, from its process CPU clock;
 * -1 where the system will not say. */
static long long
cpu_ns(pid_t pid)
{
	clockid_t c;
	struct timespec ts;

	if (pid <= 0 || clock_getcpuclockid(pid, &c) != 0 || clock_gettime(c, &ts) != 0)
		return -1;
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* One task's counters now. */
static void
snap_one(struct probe_shm *m, pid_t pid, unsigned long long period,
    struct probe_rec *r, int start)
{
	memset(r, 0, sizeof *r);
	if (start)
		hist_shared_restart(&m->late);
	r->ran = 1;
	r->cpu_ns = cpu_ns(pid);
	r->at = mono_ns();
	hist_shared_read(&m->late, r->hist, &r->lat_min, &r->lat_max);
	r->periods = atomic_load(&m->periods);
	r->met = atomic_load(&m->met);
	r->origin = m->origin;
	r->period = period;
}

void
probe_snap(struct probe *p, struct probe_rec *r, int start)
{
	memset(r, 0, sizeof *r);
	if (p->shm == NULL || p->n == 0)
		return;
	if (!p->per_cpu) {
		snap_one(&p->shm[0], p->pid[0], p->period, r, start);
		return;
	}
	/* a task a CPU: each kept, and summed (the per-second samples are
	 * over every CPU's wake-ups) */
	struct probe_rec *at = p->at[start ? 0 : 1];
	for (size_t i = 0; i < p->n; i++) {
		struct probe_rec *a = &at[i];
		snap_one(&p->shm[i], p->pid[i], p->period, a, start);
		for (size_t b = 0; b < HIST_BUCKETS; b++)
			r->hist[b] += a->hist[b];
		if (a->lat_max && (r->lat_max == 0 || a->lat_min < r->lat_min))
			r->lat_min = a->lat_min;
		if (a->lat_max > r->lat_max)
			r->lat_max = a->lat_max;
		r->periods += a->periods;
		r->met += a->met;
		r->cpu_ns = r->cpu_ns < 0 || a->cpu_ns < 0 ? -1 : r->cpu_ns + a->cpu_ns;
	}
	r->ran = 1;
	r->at = at[0].at;
	r->origin = at[0].origin;
	r->period = p->period;
}

void
probe_window(struct probe *p, struct probe_rec *r, int start, double t)
{
	unsigned long long ns = (unsigned long long)(t * 1e9);

	if (!r->ran || !(t > 0))
		return;
	r->at = ns;
	for (size_t i = 0; p->per_cpu && i < p->n; i++)
		p->at[start ? 0 : 1][i].at = ns;
}

/* Grid points origin + k x period at or before t (none before origin). */
static unsigned long long
grid_upto(unsigned long long t, unsigned long long origin,
    unsigned long long period)
{
	return t < origin || period == 0 ? 0 : (t - origin) / period + 1;
}

void
probe_delta(const struct probe_rec *a, const struct probe_rec *b,
    struct probe_rec *out)
{
	memset(out, 0, sizeof *out);
	if (!a->ran || !b->ran)
		return;
	out->ran = 1;
	for (size_t i = 0; i < HIST_BUCKETS; i++)
		out->hist[i] = b->hist[i] - a->hist[i];
	out->lat_max = b->lat_max;
	out->lat_min = b->lat_max ? b->lat_min : 0;
	out->periods = b->periods - a->periods;
	out->met = b->met - a->met;
	out->cpu_ns = a->cpu_ns >= 0 && b->cpu_ns >= a->cpu_ns ? b->cpu_ns - a->cpu_ns : -1;
	out->deadlines = grid_upto(b->at, b->origin, b->period) -
	    grid_upto(a->at, a->origin, a->period);
	/* a period whose work ended inside the window but whose deadline
	 * is past its end belongs to the next window */
	if (out->met > out->deadlines)
		out->met = out->deadlines;
	out->skipped = out->deadlines > out->periods ? out->deadlines - out->periods : 0;
}

int
probe_take(const struct probe *p, const struct probe_rec *a,
    const struct probe_rec *b, struct probe_rec *out, struct probe_cpu *pc,
    size_t *npc)
{
	size_t worst = 0;

	*npc = 0;
	if (!p->per_cpu) {
		probe_delta(a, b, out);
		return -1;
	}
	for (size_t i = 0; i < p->n; i++) {
		probe_delta(&p->at[0][i], &p->at[1][i], out);
		struct hist h = { HIST_SUB, out->hist, out->lat_min, out->lat_max, 0, 0 };
		pc[i] = (struct probe_cpu){ p->cpu[i], hist_total(&h) ?
		    hist_quantile(&h, 0.99) : NAN, out->lat_max, hist_total(&h),
		    out->met, out->deadlines };
		if (!isnan(pc[i].p99) && (isnan(pc[worst].p99) || pc[i].p99 > pc[worst].p99 ||
		    (pc[i].p99 == pc[worst].p99 && pc[i].max > pc[worst].max)))
			worst = i;
	}
	*npc = p->n;
	probe_delta(&p->at[0][worst], &p->at[1][worst], out);
	return p->cpu[worst];
}

int
probe_locked(const struct probe *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (!atomic_load(&p->shm[i].locked))
			return 0;
	return p->n > 0;
}

void
probe_stop(struct probe *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->pid[i] > 0)
			proc_kill_group(p->pid[i], NULL, 0, NULL);
	if (p->shm)
		munmap(p->shm, p->nmap * sizeof *p->shm);
	if (p->dma_fd >= 0)
		close(p->dma_fd);	/* the latency the system had comes back */
	free(p->pid);
	free(p->cpu);
	free(p->at[0]);
	free(p->at[1]);
	memset(p, 0, sizeof *p);
	p->dma_fd = -1;
}
