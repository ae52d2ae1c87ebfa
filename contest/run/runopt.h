/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest run's settings: struct run_config, what the user asked for,
 * and the one table (runopt_table.c) whose rows give each option's spelling,
 * kind, range, help, results key and replay.  Parsing, --help, the range
 * checks, the results line's "config" and the argv a session is run
 * again with (bisect --run, the systemd-run re-exec) all walk it.
 */
#ifndef CONTEST_RUNOPT_H
#define CONTEST_RUNOPT_H

#include <stddef.h>
#include <stdio.h>

/* A label's most characters: run's -k, bisect --run's, one bound. */
#define RUN_LABEL_MAX	200

#include "jobmetric.h"
#include "loadspec.h"
#include "probe.h"
#include "schedopt.h"
#include "sweep.h"
#include "variant.h"

#define RUN_LOADS_MAX	32
#define RUN_GIVEN_MAX	128

struct json;
struct run_opt;

/* One option as given: its row and its text (NULL: a flag). */
struct run_given {
	const struct run_opt *opt;
	const char	*val;
};

struct run_config {
	const char	*label;		/* -k; NULL: the kernel's release */
	const char	*outdir;	/* -o; NULL: results_dir()'s */
	const char	*prepare;	/* --prepare; NULL: none given */
	int		 no_prepare;	/* --prepare '': none, even for make */
	unsigned	 runs, warmup;
	int		 runs_given;
	long long	 lead_ms, lead_max_ms;
	double		 until_ci_pct;	/* 0: run every round */
	int		 series;	/* sample once a second during the job */
	int		 migrations;	/* --job-migrations: count the job's */
	int		 keep_suspect;	/* the table averages in runs that may
					 * have done no work */
	long long	 pids_max;	/* asked of every load's cgroup */
	struct sched_opts sched;	/* nice, policy, CPUs of loads and job */
	struct probe_cfg probe;		/* period_ms 0: no probe */
	int		 probe_work;	/* --probe-work given */
	struct loadspec	*slots;		/* [0] is no_load */
	size_t		 nslots;
	/* --variant: measured in turns within each round; NULL: none */
	struct variant	*variants;
	size_t		 nvariants;
	struct sweep	 sweep;
	/* --job-metric: JM_MAX of them, a static store, so that an exit
	 * mid-parse leaks nothing */
	struct job_metric *jm;
	size_t		 njm;
	/* every option as given, in order, a later one replacing an
	 * earlier of the same row unless the row repeats */
	struct run_given given[RUN_GIVEN_MAX];
	size_t		 ngiven;
	int		 dashdash;	/* COMMAND came after "--" */
};

/* Which options an argv carries: every one, or those bisect --run
 * replays (not the session's shape: its runs, warmup, label, output,
 * stopping rule, sweep and variants). */
enum { RUNOPT_ALL, RUNOPT_REPLAY };

/*
 * Parse argv's options into c (set to its defaults first) and return
 * the index of COMMAND's first word.  Bad values end in usage_fail();
 * an option the table lacks returns -1 with *bad set to getopt's code,
 * for getopt_fail(); --help returns -2.
 */
int	runopt_parse(int argc, char **argv, struct run_config *c, int *bad);
/*
 * COMMAND's words, given without "--": exit 2 on one that cannot be the
 * command's own (a contest load after -l or --load, or a long option
 * of contest's no command takes), saying how to write it.
 */
void	runopt_tail_check(int argc, char *const *argv);
/* The usage text: the synopsis, about, and each option with its range. */
void	runopt_usage(FILE *, const char *about);
/* The results line's "config": each option given, by its long name. */
void	runopt_json(struct json *, const struct run_config *);
/*
 * The argv that asks for c again (which: RUNOPT_ALL or _REPLAY), from
 * name/value pairs as "config" holds them (pairs[2k] a long name,
 * pairs[2k+1] its text, NULL for a flag; n pairs); unknown names are
 * skipped.  Fills av (room for n) with words of the caller's to free,
 * each "--name=value" or "--flag", and returns how many it wrote.
 */
size_t	runopt_argv(const char *const *pairs, size_t n, int which, char **av);
/* c's own pairs, for runopt_argv(): 2 * c->ngiven of them in out. */
size_t	runopt_pairs(const struct run_config *c, const char **out);
/*
 * What asks for c and COMMAND again, after "contest run": c's options,
 * then "--" and cmd's ncmd words where there are any (none: the built-in
 * job, asked for by no "--").  av has room for 2 * c->ngiven + ncmd + 2
 * words and ends with NULL; returns how many of its first words are the
 * caller's to free.
 */
size_t	runopt_rerun_argv(const struct run_config *c, char *const cmd[],
	    int ncmd, char **av);

/* A label as -k takes it (1..RUN_LABEL_MAX characters, no control
 * character), or exit 2 naming what is wrong. */
void	run_label_check(const char *label);

#endif
