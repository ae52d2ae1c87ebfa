/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run path: the only code that forks loads or the foreground.  The
 * driver sleeps in waitfor() while a run goes on; it never polls.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "derive.h"
#include "probe.h"
#include "proc.h"
#include "results.h"
#include "run.h"
#include "schedopt.h"
#include "series.h"
#include "vmstat.h"
#include "util.h"
#include "waitfor.h"

/* A load that is not ready this long after its fork is broken. */
#define READY_TIMEOUT_S	30

struct active_load {
	const struct loadspec *spec;
	struct load_shm	*shm;
	int		 shm_fd;	/* the page's, until the workers have it */
	pid_t		 pgid;
	pid_t		*pids;
	unsigned	 n;
	double		 started;
	long long	 oom0;		/* oom_kill count when it started */
	struct cgroup	 cg;		/* cg.procs_fd < 0: none */
};

static void
logline(struct session *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
logline(struct session *s, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > 0 && s->log_fd >= 0) {
		ssize_t w = write(s->log_fd, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
		(void)w;	/* the log is a courtesy; results are what count */
	}
}

/* In a forked worker: exec the worker program with the load's values;
 * it calls the load's run().  A child with nothing to exec says why in
 * the shared page and exits 127. */
static void __attribute__((noreturn))
load_child(const struct loadspec *spec, const char *workdir, int dirfd,
    const struct sched_set *sched, struct load_shm *shm, int shm_fd,
    unsigned worker, int wfd)
{
	const struct load *l = spec->load;
	size_t n = load_nopts(l);
	char num[LOAD_MAX_OPTS][24], sval[LOAD_MAX_OPTS][LOAD_STR_MAX + 2];
	char wbuf[16], pbuf[24], path[4200];
	char *argv[5 + LOAD_MAX_OPTS + 1];
	struct load_ctx ctx = { .shm = shm, .worker = worker, .ready_fd = -1 };
	char why[160];

	argv[0] = LOAD_WORKER;
	argv[1] = LOAD_WORKER_ABI;
	argv[2] = (char *)l->name;
	snprintf(wbuf, sizeof wbuf, "%u", worker);
	snprintf(pbuf, sizeof pbuf, "%ld", (long)getppid());
	argv[3] = wbuf;
	argv[4] = pbuf;
	for (size_t i = 0; i < n; i++) {
		const char *v = loadspec_str(spec, i);
		if (l->opts[i].type != LOAD_OPT_STR) {
			snprintf(num[i], sizeof num[i], "%lld", spec->opt[i]);
			argv[5 + i] = num[i];
			continue;
		}
		if (v == NULL && (l->opts[i].flags & LOAD_OPT_WORKDIR)) {
			/* the results dir as it was checked, not its path
			 * again (a path could have been swapped since) */
			v = workdir;
			if (dirfd >= 0 && fchdir(dirfd) == 0)
				v = ".";
		}
		snprintf(sval[i], sizeof sval[i], "s%s", v ? v : "");
		argv[5 + i] = v ? sval[i] : "-";
	}
	argv[5 + n] = NULL;

	/* A load holds nothing of ours: not the results file, not the log,
	 * not what contest's caller passed down; only its page and the ready
	 * pipe, on the descriptors the worker expects them. */
	int s = fcntl(shm_fd, F_DUPFD, 10), r = fcntl(wfd, F_DUPFD, 10);
	if (s < 0 || r < 0 || dup2(s, LOAD_SHM_FD) < 0 || dup2(r, LOAD_READY_FD) < 0) {
		load_fail(&ctx, "%s: worker %u: %s", l->name, worker, strerror(errno));
		_exit(127);
	}
	close_fds(LOAD_READY_FD + 1, -1, -1);
	oom_first();
	if (sched_apply(sched, why, sizeof why) < 0) {
		load_fail(&ctx, "%s: %s", l->name, why);
		_exit(1);
	}
	if (helper_path(LOAD_WORKER, PKGLIBEXECDIR, path, sizeof path) == 0)
		execv(path, argv);
	else {
		snprintf(path, sizeof path, "%s/%s", PKGLIBEXECDIR, LOAD_WORKER);
		errno = ENAMETOOLONG;
	}
	load_fail(&ctx, "%s: cannot run the load worker %s: %s", l->name,
	    path, strerror(errno));
	_exit(127);
}

static void
close_shm_fd(struct active_load *al)
{
	if (al->shm_fd >= 0)
		close(al->shm_fd);
	al->shm_fd = -1;
}

static int
start_load(const struct loadspec *spec, const char *workdir, int dirfd,
    const struct sched_set *sched, long long pids_max, struct active_load *al,
    char *why, size_t whylen)
{
	const struct load *l = spec->load;
	int fds[2];

	memset(al, 0, sizeof *al);
	al->spec = spec;
	al->shm_fd = -1;
	al->cg.procs_fd = al->cg.pids_fd = al->cg.dir_fd = -1;
	al->cg.pids_max = -1;
	al->oom0 = vmstat_read("oom_kill");
	al->n = l->nworkers ? l->nworkers(spec->opt) : 1;
	if (al->n == 0 || l->run == NULL)
		return 0;

	/* A page that survives the workers' exec. */
	if ((al->shm_fd = anon_shm(sizeof *al->shm)) < 0) {
		snprintf(why, whylen, "%s: shared memory: %s", l->name, strerror(errno));
		return -1;
	}
	al->shm = mmap(NULL, sizeof *al->shm, PROT_READ | PROT_WRITE,
	    MAP_SHARED, al->shm_fd, 0);
	if (al->shm == MAP_FAILED) {
		al->shm = NULL;
		snprintf(why, whylen, "%s: mmap: %s", l->name, strerror(errno));
		close_shm_fd(al);
		return -1;
	}
	hist_shared_restart(&al->shm->lat);
	al->pids = xcalloc(al->n, sizeof *al->pids);
	if (cg_session_path()) {
		static unsigned serial;
		char name[64];
		snprintf(name, sizeof name, "load-%u", ++serial);
		if (cg_create(&al->cg, name, pids_max) < 0) {
			snprintf(why, whylen, "%s: cannot make its cgroup: %s",
			    l->name, strerror(errno));
			close_shm_fd(al);
			return -1;
		}
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(why, whylen, "%s: pipe: %s", l->name, strerror(errno));
		close_shm_fd(al);
		return -1;
	}
	al->started = mono_now();
	proc_cgroup_next(&al->cg);
	for (unsigned i = 0; i < al->n; i++) {
		pid_t pid = proc_fork(al->pgid, -1);
		if (pid == 0)
			load_child(spec, workdir, dirfd, sched, al->shm, al->shm_fd, i,
			    fds[1]);
		if (pid < 0) {
			proc_cgroup_next(NULL);
			snprintf(why, whylen, "%s: cannot fork worker %u: %s",
			    l->name, i, strerror(errno));
			close(fds[0]);
			close(fds[1]);
			close_shm_fd(al);
			return -1;
		}
		if (i == 0)
			al->pgid = pid;
		al->pids[i] = pid;
	}
	proc_cgroup_next(NULL);
	close(fds[1]);
	close_shm_fd(al);

	/* Pipe barrier: one byte per worker; EOF early means one died. */
	unsigned ready = 0;
	char buf[64];
	double deadline = mono_now() + READY_TIMEOUT_S;
	enum waitfor_result w = WAITFOR_SIGNAL;
	int eof = 0, werr = 0;
	while (ready < al->n && !proc_signal && !eof) {
		w = waitfor(fds[0], WAITFOR_READ, deadline);
		if (w == WAITFOR_TIMEOUT)
			break;
		if (w == WAITFOR_ERROR) {
			werr = errno;
			break;
		}
		if (w != WAITFOR_READY)
			continue;	/* a signal: the loop checks the flag */
		ssize_t r = read(fds[0], buf, sizeof buf);
		if (r > 0)
			ready += (unsigned)r;
		else
			eof = 1;
	}
	close(fds[0]);
	if (ready >= al->n || proc_signal)
		return 0;
	if (werr)
		snprintf(why, whylen, "%.200s: waiting for its workers: %s",
		    spec->name, strerror(werr));
	else if (atomic_load(&al->shm->failed))
		snprintf(why, whylen, "%.200s did not start: %s", spec->name, al->shm->why);
	else if (w == WAITFOR_TIMEOUT)
		snprintf(why, whylen, "%.200s did not start: %u of %u workers not ready after %d s",
		    spec->name, al->n - ready, al->n, READY_TIMEOUT_S);
	else
		snprintf(why, whylen, "%.200s did not start: %u of %u workers exited before ready",
		    spec->name, al->n - ready, al->n);
	return -1;
}

/*
 * usr+sys of every process in the load's group, living or reaped by a
 * member (cutime/cstime), from /proc: loads such as sleepers and
 * process_load run most of their work in children the driver never forked.
 * -1 if /proc is not there (not Linux).  A child reaped between two reads
 * may be counted twice or not at all: a few ticks at most.
 */
static double
load_cpu_now(const struct active_load *al)
{
	static long tck;
	double sum = 0;
	DIR *d;
	struct dirent *de;

	if (al->cg.procs_fd >= 0)
		return cg_cpu_seconds(&al->cg);	/* exact, the dead included */
	if (tck == 0)
		tck = sysconf(_SC_CLK_TCK);
	if (tck <= 0 || (d = opendir("/proc")) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		char path[300], buf[1024];
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
		if (read_small(path, buf, sizeof buf) < 0)
			continue;	/* gone since readdir */
		/* The command name may hold anything; fields follow the last ')'. */
		char *p = strrchr(buf, ')');
		long pgrp;
		unsigned long long v[4];
		if (p == NULL || sscanf(p + 2,
		    "%*c %*d %ld %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
		    &pgrp, &v[0], &v[1], &v[2], &v[3]) != 5)
			continue;
		if (pgrp == (long)al->pgid)
			sum += (double)(v[0] + v[1] + v[2] + v[3]) / (double)tck;
	}
	closedir(d);
	return sum;
}

struct snap {
	unsigned long long counter[LOAD_MAX_COUNTERS];
	unsigned long long hist[LOAD_HIST_BUCKETS];
	unsigned long long lat_min, lat_max;
};

/* The load's counters now; start: and begin its latency extremes anew. */
static void
snapshot(const struct active_load *al, struct snap *sn, int start)
{
	memset(sn, 0, sizeof *sn);
	if (al->shm == NULL)
		return;
	if (start)
		hist_shared_restart(&al->shm->lat);
	for (size_t i = 0; i < LOAD_MAX_COUNTERS; i++)
		sn->counter[i] = atomic_load(&al->shm->counter[i]);
	hist_shared_read(&al->shm->lat, sn->hist, &sn->lat_min, &sn->lat_max);
}

/* Stop the load, reap all of it, and note whether it had died early. */
static void
stop_load(struct active_load *al, struct run_record *rec)
{
	struct rusage ru, r;
	int st;
	/* Read before the kill: members of a dying load may see their pipes
	 * break and report it in the moment before SIGKILL reaches them. */
	int failed = al->shm && atomic_load(&al->shm->failed);

	memset(&ru, 0, sizeof ru);
	for (unsigned i = 0; rec && al->pgid > 0 && i < al->n; i++) {
		if (wait4(al->pids[i], &st, WNOHANG, &r) != al->pids[i])
			continue;
		/* A load worker never exits by itself while the job runs. */
		if (rec->status == RUN_OK && !failed) {
			rec->status = RUN_LOAD_FAILED;
			snprintf(rec->why, sizeof rec->why,
			    "%.200s worker %u died during the run (status %d)",
			    al->spec->name, i, proc_exit_code(st));
		}
		timeradd(&ru.ru_utime, &r.ru_utime, &ru.ru_utime);
		timeradd(&ru.ru_stime, &r.ru_stime, &ru.ru_stime);
	}
	if (rec) {	/* what capped it, and how near it came (v2 only) */
		rec->pids_max = al->cg.pids_max;
		rec->pids_peak = cg_pids_peak(&al->cg);
	}
	if (al->pgid > 0)
		proc_kill_group(al->pgid, al->pids, al->n, &ru);
	if (rec && al->cg.procs_fd >= 0)
		rec->cgroup = 1;
	/* And whatever left the group (setsid): the cgroup holds it. */
	cg_destroy(&al->cg);
	if (rec && al->shm) {
		struct snap end;
		rec->fig[FIG_LOAD_CPU_TOTAL] = tv_seconds(ru.ru_utime) + tv_seconds(ru.ru_stime);
		rec->fig[FIG_LOAD_LIFE] = mono_now() - al->started;
		snapshot(al, &end, 0);
		memcpy(rec->counter_total, end.counter, sizeof end.counter);
		if (rec->status == RUN_OK && failed) {
			rec->status = RUN_LOAD_FAILED;
			snprintf(rec->why, sizeof rec->why, "%.200s failed during the run: %s",
			    al->spec->name, al->shm->why);
		}
	}
	if (rec) {
		long long oom1 = vmstat_read("oom_kill");
		long long oom = al->oom0 >= 0 && oom1 >= 0 ? oom1 - al->oom0 : -1;
		rec->fig[FIG_OOM_KILLS] = oom >= 0 ? (double)oom : NAN;
		/* Loads asked to be its first choice: a dead load and an OOM
		 * kill in the same run are most likely one event. */
		size_t len = strlen(rec->why);
		if (rec->status == RUN_LOAD_FAILED && oom > 0)
			snprintf(rec->why + len, sizeof rec->why - len,
			    " (the OOM killer ran %lld time%s during the run)",
			    oom, oom == 1 ? "" : "s");
	}
	if (al->shm)
		munmap(al->shm, sizeof *al->shm);
	al->shm = NULL;
	free(al->pids);
	al->pids = NULL;
	al->pgid = 0;
}

/* The lead time: asleep until the deadline or a signal flag is set. */
static void
sleep_until(double deadline)
{
	while (!proc_signal && waitfor(-1, WAITFOR_READ, deadline) == WAITFOR_SIGNAL)
		;
}

static void
sleep_ms(long long ms)
{
	sleep_until(mono_now() + (double)ms / 1000);
}

/* A point on a load's curves where a unit of its work ended. */
struct mark {
	unsigned long long ns, head, units;
};

/* The earliest first mark and the latest last one of the load's workers;
 * 0 when it has no first one yet. */
static int
marks(const struct active_load *al, struct mark *first, struct mark *last)
{
	unsigned n = al->n < LOAD_MARKS ? al->n : LOAD_MARKS;

	memset(first, 0, sizeof *first);
	memset(last, 0, sizeof *last);
	for (unsigned i = 0; i < n; i++) {
		struct load_mark *m = &al->shm->mark[i];
		unsigned long long f = atomic_load_explicit(&m->first_ns,
		    memory_order_acquire);
		if (f && (first->ns == 0 || f < first->ns)) {
			first->ns = f;
			first->head = atomic_load_explicit(&m->first[0], memory_order_relaxed);
			first->units = atomic_load_explicit(&m->first[1], memory_order_relaxed);
		}
		struct mark l;
		unsigned long long s1, s2;
		int tries = 0;
		do {	/* the worker may be writing it: a consistent copy */
			s1 = atomic_load_explicit(&m->seq, memory_order_acquire);
			l.ns = atomic_load_explicit(&m->last[0], memory_order_relaxed);
			l.head = atomic_load_explicit(&m->last[1], memory_order_relaxed);
			l.units = atomic_load_explicit(&m->last[2], memory_order_relaxed);
			atomic_thread_fence(memory_order_acquire);
			s2 = atomic_load_explicit(&m->seq, memory_order_relaxed);
		} while ((s1 != s2 || (s1 & 1)) && ++tries < 1000);
		/* a worker killed while writing leaves it odd: passed over,
		 * never waited for */
		if (s1 == s2 && !(s1 & 1) && l.ns > last->ns)
			*last = l;
	}
	return first->ns != 0;
}

/*
 * The lead time, asleep.  The load runs alone in it, so it gives the
 * headline's solo rate, which Load% sets the rate beside the job against:
 * did the job win because the load starved?  Measured over whole units
 * of the load's work (load_unit()), from the first one to end after the
 * first third of the lead (start-up) to the last one before the lead's
 * end, SOLO_UNITS of them a worker at least: a window of seconds could
 * fall inside an io_load pass's fdatasync and read 0, or catch two of
 * its bursts and read high.  A slow load gets a longer lead, up to
 * s->lead_max_ms; one that cannot do that many units in it gets no solo
 * rate, and rec->solo_why says so.  rec->lead_ms: the lead as waited.
 */
#define SOLO_UNITS	10
static void
solo_rate(const struct session *s, const struct active_load *al,
    const struct loadspec *spec, struct run_record *rec)
{
	unsigned h = load_ncounters(spec->load) ?
	    load_headline(spec->load, spec->opt) : 0;
	double t0 = mono_now(), end = t0 + (double)s->lead_ms / 1000;
	double bound = t0 + (double)(s->lead_ms > s->lead_max_ms ? s->lead_ms :
	    s->lead_max_ms) / 1000;
	unsigned long long need = SOLO_UNITS * (unsigned long long)(al->n ? al->n : 1);
	struct mark first, last;

	rec->fig[FIG_SOLO_RATE] = rec->fig[FIG_SOLO_UNITS] = rec->fig[FIG_SOLO_S] = NAN;
	rec->lead_ms = s->lead_ms;
	if (al->shm == NULL || load_ncounters(spec->load) == 0) {
		sleep_ms(s->lead_ms);
		return;
	}
	if (spec->load->counters[h].kind != LOAD_SUM) {
		snprintf(rec->solo_why, sizeof rec->solo_why, "its headline is a level, "
		    "not a rate");
		sleep_ms(s->lead_ms);
		return;
	}
	if (s->lead_ms == 0) {
		snprintf(rec->solo_why, sizeof rec->solo_why, "no lead time (--lead 0) "
		    "to measure it alone in");
		return;
	}
	sleep_ms(s->lead_ms / 3);
	atomic_store_explicit(&al->shm->solo_from, mono_ns(), memory_order_release);
	for (double wake = end;;) {
		sleep_until(wake);
		if (proc_signal)
			return;
		double now = mono_now();
		int any = marks(al, &first, &last);
		unsigned long long units = any && last.ns > first.ns ?
		    last.units - first.units : 0;
		if (units >= need) {
			rec->fig[FIG_SOLO_RATE] = (double)(last.head - first.head) /
			    ((double)(last.ns - first.ns) / 1e9);
			rec->fig[FIG_SOLO_UNITS] = (double)units;
			rec->fig[FIG_SOLO_S] = (double)(last.ns - first.ns) / 1e9;
			break;
		}
		if (now >= bound) {
			snprintf(rec->solo_why, sizeof rec->solo_why, "%llu whole unit%s "
			    "of its work done alone in a lead of %.3g s (--lead-max), "
			    "%llu needed", units, units == 1 ? "" : "s", now - t0, need);
			break;
		}
		/* the rest at the pace so far, or a while for a first unit */
		double pace = units ? (double)(last.ns - first.ns) / 1e9 / (double)units :
		    0.25 * (now - t0 + 1);
		wake = now + pace * (double)(need - units) * 1.1;
		if (wake > bound)
			wake = bound;
		if (wake < now + 0.01)
			wake = now + 0.01;
	}
	rec->lead_ms = (long long)((mono_now() - t0) * 1000);
}

/* Our own CPU time: the proof that the driver stays out of the way. */
static double
self_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return tv_seconds(ru.ru_utime) + tv_seconds(ru.ru_stime);
}

static double
real_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run --prepare; 0 when it succeeded, 1 if interrupted, -1 on failure. */
static int
prepare(struct session *s, struct run_record *rec)
{
	struct rusage ru;
	struct exec_fail f;
	int st;

	if (s->prepare == NULL)
		return 0;
	pid_t pid = proc_exec(s->prepare, s->log_fd, s->job_dirfd, NULL, &f, NULL);
	if (pid < 0) {
		snprintf(rec->why, sizeof rec->why, "--prepare: cannot %s %s: %s",
		    pid == -2 ? "fork for" : "execute", s->prepare[0],
		    f.why[0] ? f.why : strerror(f.err));
		return -1;
	}
	int w = proc_wait(pid, &st, &ru);
	int we = errno;
	proc_kill_group(pid, NULL, 0, NULL);
	if (w < 0 && !proc_signal)
		fatal(1, "waiting for --prepare: %s", strerror(we));
	if (w < 0)
		return 1;
	if (st != 0) {
		snprintf(rec->why, sizeof rec->why, "--prepare '%s' exited with status %d",
		    s->prepare_str, proc_exit_code(st));
		return -1;
	}
	return 0;
}

/*
 * The job's own cgroup, a sibling of the load's under the session's, with
 * no controller of its own: its cpu.stat and pressure files are the job's
 * alone, orphans included.  Without one, rec->wait_why says why.
 */
static void
job_cgroup(struct cgroup *jc, struct run_record *rec)
{
	static unsigned serial;
	char name[32];

	snprintf(name, sizeof name, "job-%u", ++serial);
	rec->job_cpu = -1;
	if (!cg_session_path()) {
		jc->procs_fd = jc->pids_fd = jc->dir_fd = -1;
		snprintf(rec->wait_why, sizeof rec->wait_why,
		    "no cgroup for the job (process-group mode)");
	} else if (cg_create(jc, name, -1) < 0)
		snprintf(rec->wait_why, sizeof rec->wait_why,
		    "cannot make the job's cgroup: %s", strerror(errno));
	else
		rec->job_cgroup = 1;
}

/* A sweep's cell becomes the job, its prepare step with it. */
static void
use_cell(struct session *s, size_t cell)
{
	const struct sweep_cell *c;

	if (s->cells == NULL)
		return;
	c = &s->cells[cell];
	s->argv = c->argv;
	s->command = c->command;
	s->prepare = c->prepare;
	s->prepare_str = c->prepare_str;
	s->prepare_inferred = c->prepare_inferred;
}

/* "fork_load" or "fork_load j=2": what the messages call a unit. */
static const char *
unit_name(const struct session *s, const struct run_record *rec, char *buf,
    size_t len)
{
	snprintf(buf, len, "%s%s%s", s->slots[rec->slot].name, s->cells ? " " : "",
	    s->cells ? s->cells[rec->cell].key : "");
	return buf;
}

static void
series_tick(void *arg)
{
	series_sample(arg, mono_now());
}

/* One run of one slot.  Returns 0 with *rec filled, or 1 if interrupted
 * (nothing recorded: an interrupted run is no measurement). */
static int
do_run(struct session *s, struct run_record *rec)
{
	const struct loadspec *spec = &s->slots[rec->slot];
	struct active_load al;
	struct snap c0, c1;
	struct psi psi0, psi1;
	struct rusage ru;
	struct exec_fail f;
	int st, pr;

	char name[1536];
	provenance_sched_ext(rec->scx, sizeof rec->scx);
	logline(s, "=== contest: round %u, %s, %s run %u ===\n", rec->round + 1,
	    unit_name(s, rec, name, sizeof name), rec->warmup ? "warmup" : "measured",
	    rec->index);
	if ((pr = prepare(s, rec)) != 0) {
		if (pr > 0)
			return 1;
		rec->status = RUN_PREPARE_FAILED;
		return 0;
	}
	if (start_load(spec, s->dir, s->dir_fd, &s->sched.load, s->pids_max, &al, rec->why,
	    sizeof rec->why) < 0) {
		rec->status = RUN_LOAD_FAILED;
		stop_load(&al, NULL);
		return 0;
	}
	struct probe pb;
	struct probe_rec p0, p1;
	if (probe_start(&pb, &s->probe, &s->sched.job, rec->why, sizeof rec->why) < 0) {
		rec->status = RUN_LOAD_FAILED;
		stop_load(&al, NULL);
		return 0;
	}
	rec->nworkers = al.pgid > 0 ? al.n : 0;
	/* Lead time is for a load to get going; no_load waits it too, idle,
	 * so that every run starts as long after its prepare step (a slow
	 * load's may be longer: see solo_rate()). */
	solo_rate(s, &al, spec, rec);
	if (proc_signal) {
		probe_stop(&pb);
		stop_load(&al, NULL);
		return 1;
	}

	/* The load's counters are the innermost reads, next to the job's
	 * fork and its wait4: everything else the driver reads (the /proc
	 * walk for LCPU% above all) sits outside the window they count. */
	struct cgroup jc;
	struct psi jp0, jp1;
	job_cgroup(&jc, rec);
	double cpu0 = al.pgid > 0 ? load_cpu_now(&al) : 0;
	long long steal0 = steal_ticks();
	long long vm0[VMSTAT_NTEL], vm1[VMSTAT_NTEL];
	vmstat_snap(vmstat_telemetry, VMSTAT_NTEL, vm0);
	psi_read(&psi0);
	double self0 = self_cpu();
	rec->started = real_now();
	double t0;
	psi_read_at(&jp0, rec->job_cgroup ? jc.path : "");
	proc_cgroup_next(rec->job_cgroup ? &jc : NULL);
	probe_snap(&pb, &p0, 1);
	snapshot(&al, &c0, 1);
	pid_t pid = proc_exec(s->argv, s->log_fd, s->job_dirfd, &s->sched.job, &f, &t0);
	rec->job_spawn = proc_spawned_how();
	proc_cgroup_next(NULL);
	if (pid == -2) {
		rec->status = RUN_SPAWN_FAILED;
		snprintf(rec->why, sizeof rec->why, "cannot fork the job: %s",
		    strerror(f.err));
		cg_destroy(&jc);
		probe_stop(&pb);
		stop_load(&al, NULL);
		return 0;
	}
	if (pid < 0) {
		/* a step before the exec (the policy, the directory) would
		 * fail the same way next time: as an exec does, it ends it */
		rec->status = RUN_EXEC_FAILED;
		rec->exit_code = f.err == ENOENT && !f.why[0] ? 127 : 126;
		if (f.why[0])
			snprintf(rec->why, sizeof rec->why, "%s", f.why);
		else
			snprintf(rec->why, sizeof rec->why, "%s: %s", s->argv[0],
			    f.err == ENOENT ? "command not found" : strerror(f.err));
		cg_destroy(&jc);
		probe_stop(&pb);
		stop_load(&al, NULL);
		return 0;
	}
	struct series_src ss;
	memset(&ss, 0, sizeof ss);
	if (s->series) {
		unsigned h = al.shm && load_ncounters(spec->load) ?
		    load_headline(spec->load, spec->opt) : 0;
		ss.job = rec->job_cgroup ? &jc : NULL;
		ss.counter = al.shm && load_ncounters(spec->load) ?
		    &al.shm->counter[h] : NULL;
		ss.gauge = ss.counter && spec->load->counters[h].kind == LOAD_GAUGE;
		ss.probe = s->probe.period_ms ? &pb : NULL;
		series_begin(&ss, &rec->series, t0, rec->job_cgroup && jp0.have[PSI_CPU],
		    jp0.some_us[PSI_CPU], c0.counter[h], &p0);
	}
	if (proc_wait_ticking(pid, &st, &ru, s->series ? t0 + SERIES_PERIOD_S : -1,
	    SERIES_PERIOD_S, s->series ? series_tick : NULL, &ss) < 0) {
		int we = errno;
		series_end(&ss);
		series_free(&rec->series);	/* an interrupted run is not kept */
		proc_kill_group(pid, NULL, 0, NULL);
		cg_destroy(&jc);
		probe_stop(&pb);
		stop_load(&al, NULL);
		if (!proc_signal)	/* the session ends, and says why */
			fatal(1, "waiting for the job: %s", strerror(we));
		return 1;
	}
	double t1 = mono_now();
	snapshot(&al, &c1, 0);
	probe_snap(&pb, &p1, 0);
	if (s->series) {
		/* the last interval, to the job's end */
		series_sample(&ss, t1);
		series_end(&ss);
	}
	/* the job's cgroup: its CPU and stalls, orphans included */
	rec->job_cpu = rec->job_cgroup ? cg_cpu_seconds(&jc) : -1;
	psi_read_at(&jp1, rec->job_cgroup ? jc.path : "");
	rec->fig[FIG_DRIVER_CPU] = self_cpu() - self0;
	psi_read(&psi1);
	vmstat_snap(vmstat_telemetry, VMSTAT_NTEL, vm1);
	for (int i = 0; i < VMSTAT_NTEL; i++)
		rec->vm[i] = vm0[i] >= 0 && vm1[i] >= 0 ? vm1[i] - vm0[i] : -1;
	double cpu1 = al.pgid > 0 ? load_cpu_now(&al) : 0;
	long long steal1 = steal_ticks();
	char scx[sizeof rec->scx];
	provenance_sched_ext(scx, sizeof scx);
	if (strcmp(scx, rec->scx) != 0)
		memcpy(rec->scx_after, scx, sizeof scx);

	/* Whatever the job left behind in its group goes now; what left its
	 * group goes with its cgroup, after the load: the cgroup's drain
	 * reaps any child, and stop_load must see a worker that died. */
	proc_kill_group(pid, NULL, 0, NULL);
	rec->status = RUN_OK;
	probe_stop(&pb);
	stop_load(&al, rec);
	cg_destroy(&jc);

	double wall = rec->fig[FIG_WALL] = t1 - t0;
	/* of all the machine's CPU time while the job ran, the host's share */
	long tck = sysconf(_SC_CLK_TCK);
	rec->fig[FIG_STEAL] = steal0 >= 0 && steal1 >= steal0 && tck > 0 && wall > 0 ?
	    (double)(steal1 - steal0) / (double)tck /
	    (wall * (double)s->si.cpus_online) * 100 : NAN;
	rec->fig[FIG_USR] = tv_seconds(ru.ru_utime);
	rec->fig[FIG_SYS] = tv_seconds(ru.ru_stime);
	rec->fig[FIG_MINFLT] = (double)ru.ru_minflt;
	rec->fig[FIG_MAJFLT] = (double)ru.ru_majflt;
	rec->fig[FIG_NVCSW] = (double)ru.ru_nvcsw;
	rec->fig[FIG_NIVCSW] = (double)ru.ru_nivcsw;
	rec->fig[FIG_MAXRSS] = (double)ru.ru_maxrss;
	rec->exit_code = proc_exit_code(st);
	for (size_t i = 0; i < load_ncounters(spec->load); i++)
		rec->counter[i] = spec->load->counters[i].kind == LOAD_GAUGE ?
		    c1.counter[i] : c1.counter[i] - c0.counter[i];
	for (size_t i = 0; i < LOAD_HIST_BUCKETS; i++)
		rec->hist[i] = c1.hist[i] - c0.hist[i];
	probe_delta(&p0, &p1, &rec->probe);
	rec->lat_min = c1.lat_max ? c1.lat_min : 0;
	rec->lat_max = c1.lat_max;
	for (int i = 0; i < PSI_N; i++) {
		rec->psi.have[i] = psi0.have[i] && psi1.have[i];
		rec->psi.some_us[i] = psi1.some_us[i] - psi0.some_us[i];
		rec->job_psi.have[i] = jp0.have[i] && jp1.have[i];
		rec->job_psi.some_us[i] = jp1.some_us[i] - jp0.some_us[i];
	}
	if (rec->job_cgroup && !rec->job_psi.have[PSI_CPU])
		snprintf(rec->wait_why, sizeof rec->wait_why,
		    "no cpu.pressure in the job's cgroup (PSI off?)");
	if (cpu0 >= 0 && cpu1 >= 0) {
		rec->load_cpu = cpu1 - cpu0;
		rec->load_cpu_exact = al.cg.procs_fd >= 0 || rec->cgroup ? 2 : 1;
	} else if (rec->fig[FIG_LOAD_LIFE] > 0) {
		/* No /proc: the load's average share over its whole life. */
		rec->load_cpu = rec->fig[FIG_LOAD_CPU_TOTAL] * wall /
		    rec->fig[FIG_LOAD_LIFE];
	}
	if (st != 0 && rec->status == RUN_OK) {
		rec->status = RUN_FAILED;
		if (WIFSIGNALED(st)) {
			rec->signal = WTERMSIG(st);
			snprintf(rec->why, sizeof rec->why, "%s killed by signal %d (%s)",
			    s->argv[0], WTERMSIG(st), signal_name(WTERMSIG(st)));
		}
		else
			snprintf(rec->why, sizeof rec->why, "%s exited with status %d",
			    s->argv[0], rec->exit_code);
	}
	return 0;
}

static void
progress(const struct session *s, size_t done, size_t total,
    const struct run_record *rec, double t_start)
{
	static int tty = -1;

	if (tty < 0)
		tty = isatty(2);
	if (!tty)
		return;
	if (rec == NULL) {
		fputs("\r\033[K", stderr);
		return;
	}
	double el = mono_now() - t_start;
	long left = done ? (long)(el / (double)done * (double)(total - done)) : -1;
	char eta[32] = "?";
	if (left >= 0)
		snprintf(eta, sizeof eta, "%ld:%02ld", left / 60, left % 60);
	char name[1536];
	fprintf(stderr, "\r\033[Kcontest: round %u/%u  %s  %s %u  run %zu/%zu  "
	    "elapsed %ld:%02ld  left ~%s", rec->round + 1, s->warmup + s->runs,
	    unit_name(s, rec, name, sizeof name), rec->warmup ? "warmup" : "run",
	    rec->index, done + 1, total, (long)el / 60, (long)el % 60, eta);
	fflush(stderr);
}

int
session_run(struct session *s)
{
	unsigned rounds = s->warmup + s->runs;
	size_t ncells = s->cells ? s->ncells : 1, units = ncells * s->nslots;
	size_t total = (size_t)rounds * units;
	unsigned *nth = xcalloc(units * 2, sizeof *nth);
	/* per unit: runs whose load failed, and the last one's record (the
	 * only records kept: a run's is written, then its room reused) */
	unsigned *lfail = xcalloc(units, sizeof *lfail);
	struct run_record *lfail_rec = xcalloc(units, sizeof *lfail_rec);
	struct run_record *rec = xcalloc(1, sizeof *rec);
	char name[1536];
	int stop = 0, status = 0;
	double t_start = mono_now();

	s->nrec = 0;
	for (unsigned round = 0; round < rounds && !stop; round++) {
		/* Each round starts one unit (a load of a sweep's cell) further
		 * on, so that no load always follows the same one, nor always
		 * runs first. */
		for (size_t k = 0; k < units && !stop; k++) {
			size_t unit = (round + k) % units;
			memset(rec, 0, sizeof *rec);
			rec->slot = unit % s->nslots;
			rec->cell = unit / s->nslots;
			rec->position = (unsigned)k;
			rec->round = round;
			rec->warmup = round < s->warmup;
			rec->index = ++nth[unit * 2 + (rec->warmup ? 1 : 0)];
			use_cell(s, rec->cell);

			progress(s, s->nrec, total, rec, t_start);
			if (do_run(s, rec) != 0 || proc_signal) {
				stop = 1;
				break;
			}
			reap_orphans();
			figures_derive(s, rec);
			if (results_append(s, rec) < 0) {
				progress(s, 0, 0, NULL, 0);
				fatal(1, "%s: cannot append a result: %s (earlier lines are intact)",
				    s->results_path, strerror(errno));
			}
			series_free(&rec->series);
			s->nrec++;
			if (rec->status == RUN_OK)
				continue;
			progress(s, 0, 0, NULL, 0);
			warnmsg("%s %s %u: %s", unit_name(s, rec, name, sizeof name),
			    rec->warmup ? "warmup" : "run", rec->index, rec->why);
			if (status == 0)
				status = 1;
			/* These repeat on every run: stop now rather than later. */
			if (rec->status == RUN_EXEC_FAILED) {
				status = rec->exit_code;
				stop = 1;
			} else if (rec->status == RUN_PREPARE_FAILED)
				stop = 1;
			else if (rec->status != RUN_FAILED) {
				/* one load that cannot run (or that its job cannot
				 * run beside) fails its own runs, not the night's:
				 * the other loads go on, and the end says so */
				lfail[unit]++;
				lfail_rec[unit] = *rec;
			}
		}
		if (stop || round < s->warmup)
			continue;
		s->rounds_measured = round + 1 - s->warmup;
		/* at least three rounds: an interval of two runs is no interval */
		if (s->narrow && s->rounds_measured >= 3 && round + 1 < rounds &&
		    s->narrow(s)) {
			s->stopped_early = 1;
			break;
		}
	}
	progress(s, 0, 0, NULL, 0);
	free(nth);
	free(rec);
	proc_kill_all();

	size_t nlf = 0;
	for (size_t u = 0; u < units; u++)
		if (lfail[u]) {
			const struct run_record *r = &lfail_rec[u];
			warnmsg("%s: %u run%s failed by the load, not the job (%s; the "
			    "last: %s); the other loads ran", unit_name(s, r, name,
			    sizeof name), lfail[u], lfail[u] == 1 ? "" : "s",
			    run_status_name(r->status), r->why);
			nlf++;
		}
	if (nlf && (status == 0 || status == 1))
		status = 3;
	free(lfail);
	free(lfail_rec);

	if (proc_signal) {
		warnmsg("interrupted by signal %d: %zu completed run%s kept",
		    (int)proc_signal, s->nrec, s->nrec == 1 ? "" : "s");
		status = 128 + proc_signal;
	}
	return status;
}
