/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run's figures from its reads, every one of fig[] here, in figures.h's
 * order: the job's times and rusage, its CPU% (its cgroup counts what
 * wait4 cannot: orphans it left running), Wait% and its memory and io
 * siblings, the load's LCPU% and Load%, the pids cap, the host's steal;
 * each NaN, with the reason, where it was not measured.
 */
#include "config.h"

#include <math.h>
#include <unistd.h>

#include "cgroup.h"
#include "derive.h"
#include "util.h"

_Static_assert(FIG_MEM_WAIT == FIG_WAIT + PSI_MEM && FIG_IO_WAIT == FIG_WAIT + PSI_IO,
    "Wait%'s figures are in psi.h's order");

void
figures_derive(const struct session *s, struct run_record *r)
{
	const struct loadspec *ls = &s->cfg.slots[r->slot];
	double *f = r->fig, wall = r->wall;
	int any = 0;

	f[FIG_WALL] = wall;
	f[FIG_USR] = tv_seconds(r->ru.ru_utime);
	f[FIG_SYS] = tv_seconds(r->ru.ru_stime);
	double jcpu = r->job_cpu >= 0 ? r->job_cpu : f[FIG_USR] + f[FIG_SYS];
	f[FIG_CPU] = wall > 0 ? jcpu / wall * 100 : 0;
	f[FIG_MINFLT] = (double)r->ru.ru_minflt;
	f[FIG_MAJFLT] = (double)r->ru.ru_majflt;
	f[FIG_NVCSW] = (double)r->ru.ru_nvcsw;
	f[FIG_NIVCSW] = (double)r->ru.ru_nivcsw;
	f[FIG_MIGRATIONS] = r->timed && r->migrations >= 0 ? (double)r->migrations : NAN;
	r->fig_why[FIG_MIGRATIONS] = !r->timed ? "the job did not run to its end" :
	    r->migrations < 0 ? r->migr_why : NULL;
	f[FIG_MAXRSS] = (double)r->ru.ru_maxrss;
	f[FIG_DRIVER_CPU] = r->driver_cpu;
	f[FIG_OOM_KILLS] = r->oom_kills;
	f[FIG_LOAD_WORKERS] = r->nworkers;
	f[FIG_LOAD_CPU] = r->load_cpu;
	f[FIG_LCPU] = wall > 0 ? r->load_cpu / wall * 100 : 0;
	/* Wait%: the share of the job's wall time in which some of its
	 * runnable tasks waited for a CPU (its cgroup's cpu.pressure
	 * "some"), and the same for memory and io */
	for (int i = 0; i < PSI_N; i++) {
		int have = r->job_cgroup && r->job_psi.have[i] && wall > 0;
		f[FIG_WAIT + i] = have ? (double)r->job_psi.some_us[i] / 1e4 / wall : NAN;
		any |= have;
	}
	r->fig_why[FIG_IO_WAIT] = any ? NULL : r->wait_why[0] ? r->wait_why :
	    "not measured";
	/* the load's cgroup cap, where one is ours, and how near it came */
	f[FIG_PIDS_MAX] = r->nworkers && r->pids_max > 0 ? (double)r->pids_max : NAN;
	r->fig_why[FIG_PIDS_MAX] = r->nworkers == 0 ? "no load processes" :
	    !r->cgroup ? "no cgroup for the load" : cg_pids_none() ?
	    cg_pids_none() : "pids.max could not be written";
	f[FIG_PIDS_PEAK] = r->nworkers && r->pids_peak >= 0 ? (double)r->pids_peak : NAN;
	f[FIG_LOAD_CPU_TOTAL] = r->load_cpu_total;
	f[FIG_LOAD_LIFE] = r->load_life;
	f[FIG_SOLO_RATE] = r->solo_rate;
	f[FIG_SOLO_UNITS] = r->solo_units;
	f[FIG_SOLO_S] = r->solo_s;
	/* Load%: the headline's rate beside the job over its rate alone in
	 * the lead, over whole units of its work */
	double solo = f[FIG_SOLO_RATE];
	double beside = wall > 0 ?
	    (double)r->counter[ls->headline] / wall : 0;
	f[FIG_LOADP] = solo > 0 ? beside / solo * 100 : NAN;
	r->fig_why[FIG_LOADP] = isnan(solo) && r->solo_why[0] ? r->solo_why : NULL;
	/* of all the machine's CPU time while the job ran, the host's share */
	long tck = sysconf(_SC_CLK_TCK);
	f[FIG_STEAL] = !r->timed ? 0 : r->steal_ticks >= 0 && tck > 0 && wall > 0 ?
	    (double)r->steal_ticks / (double)tck / (wall * (double)s->si.cpus_online) *
	    100 : NAN;
}
