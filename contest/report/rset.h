/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stored results read back for report and compare: runs grouped into
 * rows (one kernel label on one host with one command) and blocks (one
 * load spec), and each row x block cell summarised.  Reading never runs
 * anything.
 */
#ifndef CONTEST_RSET_H
#define CONTEST_RSET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "figures.h"
#include "hist.h"
#include "jsonl.h"
#include "keys.h"
#include "stats.h"
#include "suspect.h"

#define RSET_NOISY_CV	0.05	/* a cell above this CoV is flagged */
#define RSET_MIN_RUNS	3	/* and one with fewer runs */

struct run_counter {
	const char	*name, *unit, *label;	/* label: the name if not recorded */
	double		 val, rate;	/* rate NaN for a gauge */
	int		 shown;		/* means something for the load's options */
};

/* The job's own figures (--job-metric) a report tells apart, by name in
 * the order first read; a run's and a cell's are by this index. */
#define RSET_JM	16
struct rmetric {
	const char	*name, *unit;	/* unit NULL: none said */
	int		 higher;	/* higher is better */
};

/* Per-run telemetry the report compares when runs disagree. */
#define RSET_NTEL (VMSTAT_NTEL + 4)
extern const char *const rset_telemetry[RSET_NTEL];

/* One CPU's probe in a run (--probe-cpus), us. */
struct run_pcpu {
	int		 cpu;
	double		 p99, max;
};

/* The same over a cell's runs: the p99s' and the maxima's statistics. */
struct cell_pcpu {
	int		 cpu;
	struct stats	 p99, max;
	double		 m2[2];
};

/* A run's latency histogram: hist.h buckets of sub per power of two, as
 * [floor, count] pairs; min and max exact, or 0 where not recorded. */
struct run_lat {
	const char	*what;		/* NULL: none */
	unsigned	 sub;
	unsigned long long *pair, min, max;
	size_t		 n;
};

/* The same over a cell's runs, merged in the coarsest layout among them. */
struct cell_lat {
	const char	*what;		/* NULL: none */
	struct hist	 h;
	unsigned long long *count;
};

/* A run's per-second samples (--series), read when the filter asks. */
struct rseries {
	size_t		 n;
	double		*t, *cpu, *wait, *rate, *p99;	/* NaN: not measured */
	int		 gauge;		/* rate is a level */
	int		 have_cpu, have_wait, have_rate, have_p99;
};

struct rrun {
	const char	*label, *host, *command, *block, *load, *timestamp;
	const char	*kernel, *cpu_model, *version, *signal, *headline, *sched;
	const char	*governor, *clocksource;
	/* provenance (NULL, -1: not recorded), and the steal time's share */
	const char	*cmdline, *sched_ext, *preempt, *config_sha256, *mitigations;
	const char	*thp, *git_head, *cc, *ld;
	long		 hz, autogroup, git_dirty;
	double		 steal_pct;
	const char	*session, *prepare;	/* prepare NULL: none */
	const char	*boot;		/* its boot_id; NULL: not recorded */
	double		 lead_s;	/* the session's --lead; NaN: not recorded */
	const char	*variant;	/* --variant's name; NULL: none */
	long		 round;		/* its session's round; -1: not recorded */
	const char	*sweep;		/* "j=2": the sweep's values; NULL: none */
	const char	*job;		/* the job's identity; NULL: not recorded */
	/* the kernel build and scheduler that ran it: uname -v, the config's
	 * hash and sched_ext's state (a tuple's number); and the GNU build
	 * ID, which tells apart builds those cannot (NULL: not recorded,
	 * a row of its own) */
	uint32_t	 build;
	const char	*build_id;
	int		 scx_changed;	/* sched_ext changed during the run */
	int		 prepare_inferred;	/* -1: not recorded */
	/* "config": the session's options as given, name/value pairs
	 * (value NULL: a flag); nconfig pairs; NULL: not recorded.  Read
	 * for a row's first run alone */
	const char	**config;
	size_t		 nconfig;
	struct sflag	 suspect;	/* may have done no work */
	long		 cpus_online, runno;
	long long	 freq_max_khz;
	int		 smt;		/* -1 unknown */
	const char	*file;
	unsigned long	 line;
	long		 nproc;
	long long	 mem_kb;
	int		 ok, exit_code;
	/* the pooled figures (figures.h), by fig_pool(): NaN where not
	 * measured (older results, no job cgroup, no lead) */
	double		 fig[FIG_NPOOL];
	double		 loads;		/* NaN: none */
	double		 rate;		/* the headline per second (a gauge: its level) */
	double		 probe_p99, met_pct;	/* this run's own; NaN: no probe */
	double		 probe_p999, probe_max;	/* the same, ns */
	struct run_counter	*c;
	size_t		 nc;
	size_t		 row, blk;
	long		 position;	/* in its round; -1: not recorded */
	struct run_lat	 lat;		/* the load's latency */
	struct run_lat	 probe;		/* the latency probe's wake-up lateness */
	struct rseries	*series;	/* NULL: none, or not asked for */
	/* the probe's wake-ups, deadlines met, and deadlines that passed */
	unsigned long long probe_periods, probe_met, probe_deadlines;
	long long	 probe_skipped;	/* -1: not recorded */
	double		 jm[RSET_JM];	/* by rset.jm's index; NaN: none */
	int		 has_jm;
	/* --probe-cpus: each CPU's probe p99 and max, us (NULL: one task) */
	struct run_pcpu	*pcpu;
	size_t		 npcpu;
};

struct rrow {
	const char	*label, *host, *command, *job, *sweep;
	uint32_t	 build;		/* rrun.build */
	const char	*build_id;	/* its runs' build ID; NULL: they say none */
	char		*name;		/* label, with @host / #n when ambiguous */
	const struct rrun *env;		/* the first run: kernel, CPU, memory */
	/* the boots its runs say they ran in (interned; at most
	 * RSET_BOOTS told apart, nboots counting on past them) */
	const char	**boots;
	size_t		 nboots;
};
#define RSET_BOOTS	1024

struct rblock {
	const char	*name, *load;
};

/* An ok run as a paired test sees it: its session and round, and the
 * figures compare tests. */
enum { PV_RATE = FIG_NPOOL, PV_P99, PV_MET, PV_P999, PV_PMAX, PV_N };
struct rpair {
	const char	*session;	/* interned: one session, one pointer */
	const char	*boot;		/* interned too; NULL: not recorded */
	long		 round;
	/* the pooled figures at fig_pool(), then the run's own: the
	 * headline's rate, the probe's p99 and Met%; NaN: not measured */
	double		 v[PV_N];
	double		*jm;		/* RSET_JM of them; NULL: none */
};

/* A paired run's value at col_pv()'s index: the figures, then the job
 * metrics. */
static inline double
rpair_v(const struct rpair *p, int pv)
{
	if (pv < PV_N)
		return p->v[pv];
	return p->jm ? p->jm[pv - PV_N] : NAN;
}

/* A counter over a cell's runs: the mean count per run, and the mean of
 * the runs' rates per second of job time (the one rate every output
 * prints and compare tests: runs of different length make counts
 * incomparable). */
struct cell_counter {
	const char	*name, *unit, *label;
	double		 mean, rate;	/* over the runs that had it */
	size_t		 n;
	int		 shown;
};

/* A cell's ok runs of one boot: how many, and their Time summed. */
struct rboot {
	const char	*boot;		/* interned */
	size_t		 n;
	double		 wall;
};

struct rcell {
	size_t		 ok, failed;
	/* its ok runs by boot, where the lines say theirs (nboot 0: none) */
	struct rboot	*boot;
	size_t		 nboot;
	double		*wall;		/* the ok runs' times, in file order */
	/* the pooled figures (figures.h; rcell_fig()): Time and CPU% over
	 * every ok run, the rest over the runs that have them */
	struct stats	 fig[FIG_NPOOL];
	struct stats	 loads;
	/* per run: the headline rate (or level), the probe's p99 (ns) and
	 * Met%; the tests compare these, the tables print the merged figures */
	struct stats	 rate, p99, met;
	struct stats	 p999, pmax;	/* the probe's per run: p99.9, max (ns) */
	double		 bamean;	/* mmtests' BAmean-50 of Time: the mean of the
					 * int(n/2) fastest runs, at least 1 */
	double		 ratio, ratio_sd, ratio_ci95, ratio_se, ratio_df;
	int		 noisy;		/* '?': noisy, thin, or suspect runs kept */
	struct suspect	*suspect;	/* runs that may have done no work, */
	size_t		 nsuspect;	/* left out of every figure unless kept */
	size_t		 scx_changed;	/* runs during which sched_ext changed */
	int		 last_exit;
	const char	*last_signal, *headline;
	struct cell_counter	*c;
	size_t		 nc;
	struct cell_lat	 lat, probe;	/* the runs' histograms merged */
	double		 met_pct;	/* the probe's deadlines met; NaN: none */
	/* deadlines the probe skipped, mean per run of the runs that say */
	double		 skipped;	/* NaN: none recorded */
	/* its ok runs by session and round (sorted so), for paired tests */
	struct rpair	*pair;
	size_t		 npair;
	/* the job's own figures over the runs that have them, by rset.jm's
	 * index; NULL: no run had any */
	struct stats	*jm;
	/* --probe-cpus: each CPU's probe over the runs, by CPU */
	struct cell_pcpu *pcpu;
	size_t		 npcpu;
};

/* Job metric k of cell c over the same row's no_load cell base, as Ratio
 * is Time's; NaN where either has none (base NULL: c is no_load). */
static inline double
rcell_jm_ratio(const struct rcell *c, const struct rcell *base, size_t k)
{
	if (c->jm == NULL || c->jm[k].n == 0 || base == NULL || base->jm == NULL ||
	    base->jm[k].n == 0 || base->jm[k].mean == 0)
		return NAN;
	return c->jm[k].mean / base->jm[k].mean;
}

/* A pooled figure of a run. */
static inline double
rrun_fig(const struct rrun *r, enum fig_id id)
{
	return r->fig[fig_pool(id)];
}

/* A pooled figure of a cell (figures.h's A_EVERY, A_SOME). */
static inline const struct stats *
rcell_fig(const struct rcell *c, enum fig_id id)
{
	return &c->fig[fig_pool(id)];
}

/* Whether a row ran a load at all: its runs ok, failed, or left out. */
static inline int
rcell_ran(const struct rcell *c)
{
	return c->ok + c->failed + c->nsuspect > 0;
}

struct rfilter {
	const char	**labels, **loads;
	size_t		 nlabels, nloads;
	const char	*host, *since;
	int		 series;	/* keep the runs' per-second samples */
	int		 keep_suspect;	/* average in runs that may have done no work */
	int		 per_host;	/* history: a series per host, so a label
					 * on many hosts is the rule, not news */
	int		 pairs;		/* keep each session's rounds, for compare's
					 * paired tests (a report has no use for
					 * them: a million runs' would be 100 MB) */
};

/* Every timed ok run, warmups and runs of filtered-out loads included,
 * for finding the runs that may have done no work. */
/* A run of a session, ok or failed, as the no-work check and the check
 * for lines read twice see it. */
struct timed_run {
	const char	*session;
	/* cell: its load, sweep values and kernel build; sweep: the same but
	 * the load (tuples' numbers) */
	uint32_t	 cell, sweep;
	double		 wall;
	uint32_t	 file, line;	/* file: index in rset.fname */
	uint32_t	 acc;		/* its cell's runs as read; UINT32_MAX: none */
	/* runno: its session's count of runs of its cell (warmups apart);
	 * out: taken out of its cell (may have done no work, or read twice);
	 * dup: the same run read before, from this file or another */
	uint32_t	 runno : 28, measured : 1, failed : 1, out : 1, dup : 1;
};

struct cell_acc;	/* a cell's runs as they are read (rset_impl.h) */
struct rdedup;		/* runs read twice, found as read (rset_dedup.c) */
struct rindex;
struct rtuples;

/*
 * What a report keeps of the runs it reads: each cell's figures and
 * merged histograms as the lines go by, the first run of each row (its
 * environment), and where each run is, so that the few a report names
 * are read again rather than kept.  Memory grows by about a hundred
 * bytes a run.
 */
struct rset {
	size_t		 nrun;		/* runs read, past the filters */
	struct timed_run	*timed;
	size_t		 ntimed, captimed;
	struct rdedup	*dedup;
	struct rrow	*row;
	size_t		 nrow, caprow;
	struct rblock	*blk;
	size_t		 nblk, capblk;
	struct rcell	*cell;		/* nrow x nblk, after rset_summarise */
	size_t		*order;		/* per block, the rows in display order */
	size_t		 base;		/* the no_load block, or nblk */
	unsigned long	 skipped, warmups, files;
	struct rpool	*pool;
	struct cell_acc	*acc;
	size_t		 nacc, capacc;
	struct rrun	*srun;		/* runs with per-second samples, when asked */
	size_t		 nsrun, capsrun;
	struct rindex	*ix;		/* rows and cells by key, as read */
	struct rtuples	*tup;		/* keys of several parts, numbered */
	const char	**labs;		/* every label read, filtered or not,
					 * each once, in the order read */
	size_t		 nlabs, caplabs;
	const char	**fname;	/* files read, by number */
	const char	**fmem;		/* a file's text held in memory, or NULL */
	size_t		*fmemlen;
	struct rfid	*fid;		/* what each file was when first read */
	size_t		 nfname, capfname;
	int		 keep_suspect;	/* a filter asked for it */
	int		 pairs;		/* and for pairs */
	int		 per_host;	/* and for series per host (no warning) */
	struct rwarmup	*warm;		/* sessions shown whose warmup dwarfed them */
	size_t		 nwarm, capwarm;
	struct rmetric	 jm[RSET_JM];	/* the job metrics its runs have */
	size_t		 njm;
	int		 jm_dropped;	/* names past RSET_JM, left out */
	/* compare's and history's rows for these results (columns.h's
	 * cmp_fig()), from rset_summarise on */
	struct cmpfigs	*figs;
};

/* compare's rows for rs (columns.c), into old or a new table. */
struct cmpfigs *cmp_figs_make(struct cmpfigs *old, const struct rset *rs);

/* A file as first read: its lines are read again by number only while
 * it is still that file, whole and unchanged (a regular file). */
struct rfid {
	dev_t		 dev;
	ino_t		 ino;
	off_t		 size;
	int		 regular;
	int		 warned;	/* said once that it cannot be read again */
	struct jmarks	 marks;		/* where its lines begin, for a second look */
};

/* A session whose warmup took over five times its measured runs'
 * median (suspect_warmup()): said under the table, never held against
 * the runs. */
struct rwarmup {
	const char	*session;
	double		 wall, median;
};

enum rsort { RSORT_FIRST, RSORT_LABEL, RSORT_TIME };

/* A run whose time stands out from its cell, and what differed in it. */
struct routlier {
	long		 runno;
	double		 wall;
	double		 value[RSET_NTEL];	/* its telemetry; NaN: not recorded */
	double		 median;	/* of the cell's times */
	int		 ntel;
	int		 tel[2];	/* rset_telemetry indices, biggest difference first */
	double		 others[2];	/* the other runs' median of that figure */
};

/*
 * The runs of a noisy cell (CoV above RSET_NOISY_CV, 3 runs or more)
 * more than 5% from its median, each with up to two telemetry figures
 * that differ from the other runs' by a factor of 2 or more.  Returns
 * how many were put in out[0..max).
 */
size_t	rset_outliers(const struct rset *, size_t row, size_t blk,
	    struct routlier *out, size_t max);

/*
 * Add a results file, or every *.jsonl file of a directory.  Returns 0,
 * or -1 after a message when the path cannot be read.
 */
int	rset_add(struct rset *, const char *path, const struct rfilter *);

/* Add the lines held in buf[0..len) (kept, not copied, until
 * rset_free), named name in warnings. */
int	rset_add_mem(struct rset *, const char *name, const char *buf, size_t len,
	    const struct rfilter *);

/* Group, summarise and order (after the last rset_add). */
void	rset_summarise(struct rset *, enum rsort);

struct rcell *rset_cell(const struct rset *, size_t row, size_t blk);

/* The run of a cell whose Time is the median (the lower of the middle
 * two) among its runs with per-second samples; NULL: none has any. */
const struct rrun *rset_median_series(const struct rset *, size_t row, size_t blk);

/*
 * The rows of a label (or of a row's name), one per sweep value, into
 * out[0..max); how many, or -1 after a message: none, or two rows of one
 * sweep value (several hosts or commands).
 */
long	rset_label_rows(const struct rset *, const char *label, size_t *out,
	    size_t max);

/* Natural order of labels: "5.9" < "5.10". */
int	rset_labelcmp(const char *, const char *);

void	rset_free(struct rset *);

#endif
