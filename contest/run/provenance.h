/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What differed between two machines or kernels besides the kernel: read
 * once per session, never by mounting or changing anything; what cannot
 * be read is left empty (null in results).
 */
#ifndef CONTEST_PROVENANCE_H
#define CONTEST_PROVENANCE_H

#include <stddef.h>

struct json;

struct provenance {
	char	 cmdline[2048];		/* /proc/cmdline */
	int	 autogroup;		/* kernel.sched_autogroup_enabled; -1 */
	char	 sched_ext[160];	/* "none", or "enabled scx_lavd" */
	char	 preempt[96];		/* from uname -v, and debugfs's mode */
	int	 hz;			/* CONFIG_HZ; -1 */
	char	 config_sha256[65];	/* of the whole config */
	char	 config[1536];		/* the scheduler's options, "K=V ..." */
	char	 mitigations[512];	/* a summary of the vulnerabilities */
	char	 thp[32];		/* transparent hugepage mode */
	char	 cpufreq_driver[64];
	/* the job's tree: git HEAD and dirtiness, its .config, cc and ld */
	char	 git_head[48];
	int	 git_dirty;		/* -1 unknown */
	char	 tree_config_sha256[65];
	char	 cc[160], ld[160];
};

/* Read it all; dir is where the job runs (its make -C, else "."). */
void	provenance_read(struct provenance *, const char *dir);

/* sched_ext's state and the scheduler loaded ("enabled scx_lavd",
 * "disabled"), "none" without sched_ext, "" where /sys is not there:
 * read before every run, since a BPF scheduler comes and goes. */
void	provenance_sched_ext(char *buf, size_t len);

/* Members of a JSON object for it: the machine and kernel's (sched_ext
 * as the run saw it), and the job tree's (git_head, git_dirty,
 * config_sha256, cc, ld). */
void	provenance_json(struct json *, const struct provenance *,
	    const char *sched_ext);
void	provenance_job_json(struct json *, const struct provenance *);

/* The machine's steal time so far (ticks of every CPU), or -1. */
long long steal_ticks(void);

#endif
