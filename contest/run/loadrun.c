/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A load's life in one run: its workers forked (each execs contest-load)
 * into their own process group and cgroup, the ready barrier, its
 * counters and CPU time read, its rate alone in the lead, and its stop,
 * with how it ended.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loadrun.h"
#include "proc.h"
#include "schedopt.h"
#include "util.h"
#include "vmstat.h"
#include "waitfor.h"

/* A load that is not ready this long after its fork is broken. */
#define READY_TIMEOUT_S	30

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

/* The ready barrier: one byte a worker down the pipe; EOF early means one
 * died.  0 when all are ready (or a signal came), else -1 and why. */
static int
await_ready(struct active_load *al, int fd, char *why, size_t whylen)
{
	const struct loadspec *spec = al->spec;
	const char *said;
	unsigned ready = 0;
	char buf[64];
	double deadline = mono_now() + READY_TIMEOUT_S;
	enum waitfor_result w = WAITFOR_SIGNAL;
	int eof = 0, werr = 0;

	while (ready < al->n && !proc_signal && !eof) {
		w = waitfor(fd, WAITFOR_READ, deadline);
		if (w == WAITFOR_TIMEOUT)
			break;
		if (w == WAITFOR_ERROR) {
			werr = errno;
			break;
		}
		if (w != WAITFOR_READY)
			continue;	/* a signal: the loop checks the flag */
		ssize_t r = read(fd, buf, sizeof buf);
		if (r > 0)
			ready += (unsigned)r;
		else
			eof = 1;
	}
	close(fd);
	if (ready >= al->n || proc_signal)
		return 0;
	if (werr)
		snprintf(why, whylen, "%.200s: waiting for its workers: %s",
		    spec->name, strerror(werr));
	else if ((said = load_failed_why(al->shm)) != NULL)
		snprintf(why, whylen, "%.200s did not start: %s", spec->name, said);
	else if (w == WAITFOR_TIMEOUT)
		snprintf(why, whylen, "%.200s did not start: %u of %u workers not ready after %d s",
		    spec->name, al->n - ready, al->n, READY_TIMEOUT_S);
	else
		snprintf(why, whylen, "%.200s did not start: %u of %u workers exited before ready",
		    spec->name, al->n - ready, al->n);
	return -1;
}

int
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

	return await_ready(al, fds[0], why, whylen);
}

/*
 * usr+sys of every process in the load's group, living or reaped by a
 * member (cutime/cstime), from /proc: loads such as sleepers and
 * process_load run most of their work in children the driver never forked.
 * -1 if /proc is not there (not Linux).  A child reaped between two reads
 * may be counted twice or not at all: a few ticks at most.
 */
double
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

/* The load's counters now; start: and begin its latency extremes anew. */
void
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
void
stop_load(struct active_load *al, struct run_record *rec)
{
	struct rusage ru, r;
	int st;
	/* Read before the kill: members of a dying load may see their pipes
	 * break and report it in the moment before SIGKILL reaches them. */
	int failed = al->shm && load_failed_why(al->shm) != NULL;

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
		rec->load_cpu_total = tv_seconds(ru.ru_utime) + tv_seconds(ru.ru_stime);
		rec->load_life = mono_now() - al->started;
		snapshot(al, &end, 0);
		memcpy(rec->counter_total, end.counter, sizeof end.counter);
		if (rec->status == RUN_OK && failed) {
			rec->status = RUN_LOAD_FAILED;
			snprintf(rec->why, sizeof rec->why, "%.200s failed during the run: %s",
			    al->spec->name, load_failed_why(al->shm));
		}
	}
	if (rec) {
		long long oom1 = vmstat_read("oom_kill");
		long long oom = al->oom0 >= 0 && oom1 >= 0 ? oom1 - al->oom0 : -1;
		rec->oom_kills = oom >= 0 ? (double)oom : NAN;
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
 * s->cfg.lead_max_ms; one that cannot do that many units in it gets no solo
 * rate, and rec->solo_why says so.  rec->lead_ms: the lead as waited.
 */
#define SOLO_UNITS	10
void
solo_rate(const struct session *s, const struct active_load *al,
    const struct loadspec *spec, struct run_record *rec)
{
	unsigned h = spec->headline;
	double t0 = mono_now(), end = t0 + (double)s->cfg.lead_ms / 1000;
	double bound = t0 + (double)(s->cfg.lead_ms > s->cfg.lead_max_ms ? s->cfg.lead_ms :
	    s->cfg.lead_max_ms) / 1000;
	unsigned long long need = SOLO_UNITS * (unsigned long long)(al->n ? al->n : 1);
	struct mark first, last;

	rec->solo_rate = rec->solo_units = rec->solo_s = NAN;
	rec->lead_ms = s->cfg.lead_ms;
	if (al->shm == NULL || spec->ncounters == 0) {
		sleep_ms(s->cfg.lead_ms);
		return;
	}
	if (spec->load->counters[h].kind != LOAD_SUM) {
		snprintf(rec->solo_why, sizeof rec->solo_why, "its headline is a level, "
		    "not a rate");
		sleep_ms(s->cfg.lead_ms);
		return;
	}
	if (s->cfg.lead_ms == 0) {
		snprintf(rec->solo_why, sizeof rec->solo_why, "no lead time (--lead 0) "
		    "to measure it alone in");
		return;
	}
	sleep_ms(s->cfg.lead_ms / 3);
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
			rec->solo_rate = (double)(last.head - first.head) /
			    ((double)(last.ns - first.ns) / 1e9);
			rec->solo_units = (double)units;
			rec->solo_s = (double)(last.ns - first.ns) / 1e9;
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

