/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
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

static void __attribute__((noreturn))
probe_main(struct probe_shm *m, const struct probe_cfg *cfg,
    const struct sched_set *job, int ready_fd)
{
	unsigned long long period = (unsigned long long)cfg->period_ms * 1000000ULL;
	struct sched_set s = *job;

	/* the job's affinity and policy; the probe's own nice */
	s.has_nice = cfg->has_nice;
	s.nice = cfg->nice;
	if (!cfg->has_nice)
		s.has_nice = job->has_nice, s.nice = job->nice;
	if (sched_apply(&s, m->why, sizeof m->why) < 0) {
		atomic_store(&m->failed, 1);
		_exit(1);
	}
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

int
probe_start(struct probe *p, const struct probe_cfg *cfg,
    const struct sched_set *job, char *why, size_t whylen)
{
	p->pid = 0;
	p->shm = NULL;
	p->period = (unsigned long long)cfg->period_ms * 1000000ULL;
	if (cfg->period_ms == 0)
		return 0;
	p->shm = mmap(NULL, sizeof *p->shm, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p->shm == MAP_FAILED) {
		p->shm = NULL;
		snprintf(why, whylen, "latency probe: mmap: %s", strerror(errno));
		return -1;
	}
	hist_shared_restart(&p->shm->late);
	int fds[2];
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		snprintf(why, whylen, "latency probe: pipe: %s", strerror(errno));
		probe_stop(p);
		return -1;
	}
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
		probe_main(p->shm, cfg, job, fds[1]);
	}
	p->pid = pid;
	close(fds[1]);
	/* its byte once its knobs are set; end of file if it failed */
	double deadline = mono_now() + 5;
	char c;
	while (!proc_signal && waitfor(fds[0], WAITFOR_READ, deadline) == WAITFOR_SIGNAL)
		;
	if (!proc_signal && read(fds[0], &c, 1) != 1)
		atomic_store(&p->shm->ready, 0);
	close(fds[0]);
	if (!atomic_load(&p->shm->ready)) {
		snprintf(why, whylen, "latency probe did not start: %s",
		    atomic_load(&p->shm->failed) ? p->shm->why : "not ready after 5 s");
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

void
probe_snap(const struct probe *p, struct probe_rec *r, int start)
{
	memset(r, 0, sizeof *r);
	if (p->shm == NULL)
		return;
	if (start)
		hist_shared_restart(&p->shm->late);
	r->ran = 1;
	r->cpu_ns = cpu_ns(p->pid);
	r->at = mono_ns();
	hist_shared_read(&p->shm->late, r->hist, &r->lat_min, &r->lat_max);
	r->periods = atomic_load(&p->shm->periods);
	r->met = atomic_load(&p->shm->met);
	r->origin = p->shm->origin;
	r->period = p->period;
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

void
probe_stop(struct probe *p)
{
	if (p->pid > 0)
		proc_kill_group(p->pid, NULL, 0, NULL);
	p->pid = 0;
	if (p->shm)
		munmap(p->shm, sizeof *p->shm);
	p->shm = NULL;
}
