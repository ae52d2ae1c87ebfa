/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One run: the prepare step, the load and the probe started and the lead
 * waited, the job forked and waited for between the reads that time it,
 * everything given back in one place, and what the reads measured.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "jobperf.h"
#include "loadrun.h"
#include "onerun.h"
#include "probe.h"
#include "schedstat.h"
#include "proc.h"
#include "series.h"
#include "util.h"
#include "vmstat.h"

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

/* "fork_load", "fork_load j=2" or "fork_load variant v2": what the
 * messages call a unit. */
const char *
unit_name(const struct session *s, const struct run_record *rec, char *buf,
    size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s", s->cfg.slots[rec->slot].name, s->cells ? " " : "",
	    s->cells ? s->cells[rec->cell].key : "", s->cfg.nvariants ? " variant " : "",
	    s->cfg.nvariants ? s->cfg.variants[rec->variant].name : "");
	return buf;
}

static void
series_tick(void *arg)
{
	series_sample(arg, mono_now());
}

/* What a run holds while it goes, given back in one place: end_run(). */
struct inflight {
	struct active_load al;
	struct probe	 pb;
	struct cgroup	 jc;
	struct jobperf	 jp;		/* counting the job's cgroup to its end */
	int		 probing, job_cg;	/* pb, jc to give back */
	struct series_src ss;
};

/* The machine, the load and the job read at either end of the job: the
 * outer reads, outside the window the load's counters count. */
struct ends {
	double		 load_cpu;	/* < 0: none */
	long long	 steal;
	long long	 vm[VMSTAT_NTEL];
	struct psi	 psi, job_psi;
	struct schedstat ss;
	double		 self;
};

/* Stop and reap what the run started: the probe, the load (rec: note
 * whether it died early; NULL when the run is given up), and the job's
 * cgroup after the load: the cgroup's drain reaps any child, and
 * stop_load must see a worker that died. */
static void
end_run(struct inflight *x, struct run_record *rec)
{
	if (x->probing)
		probe_stop(&x->pb);
	stop_load(&x->al, rec);
	if (x->job_cg)
		cg_destroy(&x->jc);
	/* the job's migrations, its orphans' to their drain */
	if (rec) {
		rec->migrations = jobperf_take(&x->jp);
		snprintf(rec->migr_why, sizeof rec->migr_why, "%s", x->jp.why);
	}
	jobperf_close(&x->jp);
}

/* The load and the probe started, and the lead waited: 0, or 1 if
 * interrupted; rec->status set where either cannot start. */
static int
begin_run(struct session *s, struct run_record *rec, struct inflight *x)
{
	const struct loadspec *spec = &s->cfg.slots[rec->slot];

	if (start_load(spec, s->dir, s->dir_fd, &run_sched(s, rec)->load, s->cfg.pids_max, &x->al,
	    rec->why, sizeof rec->why) < 0) {
		rec->status = RUN_LOAD_FAILED;
		return 0;
	}
	if (probe_start(&x->pb, &s->cfg.probe, &s->cfg.sched.job, rec->why, sizeof rec->why) < 0) {
		rec->status = RUN_LOAD_FAILED;
		return 0;
	}
	x->probing = 1;
	rec->nworkers = x->al.pgid > 0 ? x->al.n : 0;
	/* Lead time is for a load to get going; no_load waits it too, idle,
	 * so that every run starts as long after its prepare step (a slow
	 * load's may be longer: see solo_rate()). */
	solo_rate(s, &x->al, spec, rec);
	return proc_signal ? 1 : 0;
}

static void
outer_reads(const struct inflight *x, const struct run_record *rec, struct ends *e,
    int before)
{
	const char *jpath = rec->job_cgroup ? x->jc.path : "";

	if (before) {
		e->load_cpu = x->al.pgid > 0 ? load_cpu_now(&x->al) : 0;
		e->steal = steal_ticks();
		vmstat_snap(vmstat_keys, VMSTAT_NTEL, e->vm);
		psi_read(&e->psi);
		schedstat_read(&e->ss, getenv("CONTEST_SCHEDSTAT"));
		e->self = self_cpu();
		psi_read_at(&e->job_psi, jpath);
		return;
	}
	psi_read_at(&e->job_psi, jpath);
	e->self = self_cpu();
	schedstat_read(&e->ss, getenv("CONTEST_SCHEDSTAT"));
	psi_read(&e->psi);
	vmstat_snap(vmstat_keys, VMSTAT_NTEL, e->vm);
	e->load_cpu = x->al.pgid > 0 ? load_cpu_now(&x->al) : 0;
	e->steal = steal_ticks();
}

/* The job could not be started: why, in rec. */
static void
job_not_started(const struct session *s, struct run_record *rec, pid_t pid,
    const struct exec_fail *f)
{
	if (pid == -2) {
		rec->status = RUN_SPAWN_FAILED;
		snprintf(rec->why, sizeof rec->why, "cannot fork the job: %s",
		    strerror(f->err));
		return;
	}
	/* a step before the exec (the policy, the directory) would fail the
	 * same way next time: as an exec does, it ends it */
	rec->status = RUN_EXEC_FAILED;
	rec->exit_code = f->err == ENOENT && !f->why[0] ? 127 : 126;
	if (f->why[0])
		snprintf(rec->why, sizeof rec->why, "%s", f->why);
	else
		snprintf(rec->why, sizeof rec->why, "%s: %s", s->argv[0],
		    f->err == ENOENT ? "command not found" : strerror(f->err));
}

/* --series: sampling begins with the job. */
static void
series_start(const struct session *s, struct run_record *rec, struct inflight *x,
    double t0, const struct ends *e0, const struct snap *c0,
    const struct probe_rec *p0)
{
	const struct loadspec *spec = &s->cfg.slots[rec->slot];
	struct series_src *ss = &x->ss;
	unsigned h = spec->headline;

	memset(ss, 0, sizeof *ss);
	if (!s->cfg.series)
		return;
	ss->job = rec->job_cgroup ? &x->jc : NULL;
	ss->counter = x->al.shm && spec->ncounters ?
	    &x->al.shm->counter[h] : NULL;
	ss->gauge = ss->counter && spec->load->counters[h].kind == LOAD_GAUGE;
	ss->probe = s->cfg.probe.period_ms ? &x->pb : NULL;
	series_begin(ss, &rec->series, t0, rec->job_cgroup && e0->job_psi.have[PSI_CPU],
	    e0->job_psi.some_us[PSI_CPU], c0->counter[h], p0);
}

/* The reads around the job, as figures_derive() works from them. */
static void
take_figures(struct run_record *rec, const struct ends *e0, const struct ends *e1,
    const struct rusage *ru, double wall)
{
	rec->timed = 1;
	rec->wall = wall;
	rec->ru = *ru;
	rec->steal_ticks = e0->steal >= 0 && e1->steal >= e0->steal ?
	    e1->steal - e0->steal : -1;
	rec->driver_cpu = e1->self - e0->self;
	for (int i = 0; i < VMSTAT_NTEL; i++)
		rec->vm[i] = e0->vm[i] >= 0 && e1->vm[i] >= 0 ? e1->vm[i] - e0->vm[i] : -1;
	for (int i = 0; i < PSI_N; i++) {
		rec->psi.have[i] = e0->psi.have[i] && e1->psi.have[i];
		rec->psi.some_us[i] = e1->psi.some_us[i] - e0->psi.some_us[i];
		rec->job_psi.have[i] = e0->job_psi.have[i] && e1->job_psi.have[i];
		rec->job_psi.some_us[i] = e1->job_psi.some_us[i] - e0->job_psi.some_us[i];
	}
	schedstat_delta(&e0->ss, &e1->ss, &rec->ss);
	if (rec->job_cgroup && !rec->job_psi.have[PSI_CPU])
		snprintf(rec->wait_why, sizeof rec->wait_why,
		    "no cpu.pressure in the job's cgroup (PSI off?)");
	if (e0->load_cpu >= 0 && e1->load_cpu >= 0) {
		rec->load_cpu = e1->load_cpu - e0->load_cpu;
		/* the load's cgroup, gone by now (stop_load), said so in rec->cgroup */
		rec->load_cpu_exact = rec->cgroup ? 2 : 1;
	} else if (rec->load_life > 0) {
		/* No /proc: the load's average share over its whole life. */
		rec->load_cpu = rec->load_cpu_total * wall / rec->load_life;
	}
}

/* The probe over the job: its worst CPU's where it has a task a CPU,
 * and how it ran. */
static void
take_probe(const struct inflight *x, struct run_record *rec,
    const struct probe_rec *p0, const struct probe_rec *p1)
{
	rec->probe_worst = probe_take(&x->pb, p0, p1, &rec->probe, rec->pcpu,
	    &rec->npcpu);
	rec->probe_locked = probe_locked(&x->pb);
	rec->probe_dma = x->pb.dma_fd >= 0;
	snprintf(rec->probe_dma_why, sizeof rec->probe_dma_why, "%s", x->pb.dma_why);
}

/* The load's counters and latency over the job. */
static void
take_counters(const struct loadspec *spec, struct run_record *rec,
    const struct snap *c0, const struct snap *c1)
{
	for (size_t i = 0; i < spec->ncounters; i++)
		rec->counter[i] = spec->load->counters[i].kind == LOAD_GAUGE ?
		    c1->counter[i] : c1->counter[i] - c0->counter[i];
	for (size_t i = 0; i < LOAD_HIST_BUCKETS; i++)
		rec->hist[i] = c1->hist[i] - c0->hist[i];
	rec->lat_min = c1->lat_max ? c1->lat_min : 0;
	rec->lat_max = c1->lat_max;
}

/* The job's end: its status, and why it failed. */
static void
job_status(const struct session *s, struct run_record *rec, int st)
{
	rec->exit_code = proc_exit_code(st);
	if (st == 0 || rec->status != RUN_OK)
		return;
	rec->status = RUN_FAILED;
	if (WIFSIGNALED(st)) {
		rec->signal = WTERMSIG(st);
		snprintf(rec->why, sizeof rec->why, "%s killed by signal %d (%s)",
		    s->argv[0], WTERMSIG(st), signal_name(WTERMSIG(st)));
	} else
		snprintf(rec->why, sizeof rec->why, "%s exited with status %d",
		    s->argv[0], rec->exit_code);
}

/* --job-metric: the figures in what the job printed (logged now, after
 * the timed part); one missing fails the run as a failed job does. */
static void
job_metrics(const struct session *s, struct run_record *rec)
{
	char why[sizeof rec->why];
	size_t len;

	if (s->cfg.njm == 0)
		return;
	char *text = jm_take(s->cap_fd, s->log_fd, &len, why, sizeof why);
	if (rec->status == RUN_OK && (text == NULL ||
	    jm_scan(s->cfg.jm, s->cfg.njm, text, len, rec->jm, rec->jm_why, why,
	    sizeof why) < 0 || jm_json(s->cfg.jm, s->cfg.njm, s->argv, s->job_dirfd,
	    rec->started, text, rec->jm, rec->jm_why, why, sizeof why) < 0)) {
		rec->status = RUN_FAILED;
		for (size_t i = 0; i < JM_MAX; i++)
			rec->jm[i] = NAN;
		snprintf(rec->why, sizeof rec->why, "%s", why);
	}
	free(text);
}

/*
 * The timed part: the job forked and waited for between the innermost
 * reads (the load's counters next to the job's fork and its wait4:
 * everything else the driver reads, the /proc walk for LCPU% above all,
 * sits outside the window they count).  Returns 0 with rec filled (or
 * failed), or 1 if interrupted.
 */
static int
time_job(struct session *s, struct run_record *rec, struct inflight *x)
{
	const struct loadspec *spec = &s->cfg.slots[rec->slot];
	struct ends e0, e1;
	struct snap c0, c1;
	struct probe_rec p0, p1;
	struct exec_fail f;
	struct rusage ru;
	double t0;
	int st;

	job_cgroup(&x->jc, rec);
	x->job_cg = 1;
	outer_reads(x, rec, &e0, 1);
	rec->started = real_now();
	proc_cgroup_next(rec->job_cgroup ? &x->jc : NULL);
	jobperf_open(&x->jp, s->cfg.migrations, rec->job_cgroup ? x->jc.dir_fd : -1);
	probe_snap(&x->pb, &p0, 1);
	snapshot(&x->al, &c0, 1);
	pid_t pid = proc_exec(s->argv, s->cfg.njm ? s->cap_fd : s->log_fd, s->job_dirfd,
	    &s->cfg.sched.job, &f, &t0);
	rec->job_spawn = proc_spawned_how();
	proc_cgroup_next(NULL);
	if (pid < 0) {
		job_not_started(s, rec, pid, &f);
		job_metrics(s, rec);	/* whatever it said goes to the log */
		end_run(x, NULL);
		return 0;
	}
	series_start(s, rec, x, t0, &e0, &c0, &p0);
	if (proc_wait_ticking(pid, &st, &ru, s->cfg.series ? t0 + SERIES_PERIOD_S : -1,
	    SERIES_PERIOD_S, s->cfg.series ? series_tick : NULL, &x->ss) < 0) {
		int we = errno;
		series_end(&x->ss);
		series_free(&rec->series);	/* an interrupted run is not kept */
		proc_kill_group(pid, NULL, 0, NULL);
		end_run(x, NULL);
		if (!proc_signal)	/* the session ends, and says why */
			fatal(1, "waiting for the job: %s", strerror(we));
		return 1;
	}
	double t1 = mono_now();
	/* the probe's window ends with the job, not after the loads' reads */
	probe_snap(&x->pb, &p1, 0);
	probe_window(&x->pb, &p1, 0, t1);
	snapshot(&x->al, &c1, 0);
	take_probe(x, rec, &p0, &p1);	/* before the probe stops */
	if (s->cfg.series) {
		/* the last interval, to the job's end */
		series_sample(&x->ss, t1);
		series_end(&x->ss);
	}
	/* the job's cgroup: its CPU and stalls, orphans included */
	rec->job_cpu = rec->job_cgroup ? cg_cpu_seconds(&x->jc) : -1;
	outer_reads(x, rec, &e1, 0);
	char scx[sizeof rec->scx];
	provenance_sched_ext(scx, sizeof scx);
	if (strcmp(scx, rec->scx) != 0)
		memcpy(rec->scx_after, scx, sizeof scx);

	/* Whatever the job left behind in its group goes now; what left its
	 * group goes with its cgroup, after the load. */
	proc_kill_group(pid, NULL, 0, NULL);
	rec->status = RUN_OK;
	end_run(x, rec);
	take_figures(rec, &e0, &e1, &ru, t1 - t0);
	take_counters(spec, rec, &c0, &c1);
	job_status(s, rec, st);
	job_metrics(s, rec);
	return 0;
}

void
run_ended(const struct session *s, struct run_record *rec)
{
	struct stat st;

	rec->job_stat = s->job_path[0] && stat(s->job_path, &st) == 0;
	rec->job_size = rec->job_stat ? (long long)st.st_size : 0;
	rec->job_mtime = rec->job_stat ? (long long)st.st_mtime : 0;
	rec->ctl_ok = cg_controllers(rec->ctl_job, sizeof rec->ctl_job, rec->ctl_loads,
	    sizeof rec->ctl_loads) == 0;
}

int
run_one(struct session *s, struct run_record *rec)
{
	struct inflight x;
	char name[1536];
	int pr;

	for (size_t i = 0; i < JM_MAX; i++)
		rec->jm[i] = NAN;
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
	memset(&x, 0, sizeof x);
	if (begin_run(s, rec, &x) != 0 || rec->status != RUN_OK) {
		end_run(&x, NULL);
		return proc_signal ? 1 : 0;
	}
	return time_job(s, rec, &x);
}

