/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of the results reader (rset*.c) share and the formats
 * never see: a cell's runs as read, the row index, where a run's line
 * is, and the functions they call in each other.
 */
#ifndef CONTEST_RSET_IMPL_H
#define CONTEST_RSET_IMPL_H

#include <stdint.h>
#include <stdio.h>

#include "jsonl.h"
#include "histrec.h"
#include "keys.h"
#include "rset.h"

/* A line's member by its id (keys.h: RK_LABEL, RK_FIG(WALL)): the key
 * sets a report reads with (rs_keys_for) build only the members they
 * want, and put each in its slot. */
#define LGET(o, id)		jslot((o), (id))
#define LSTR(o, id)		jnode_str(jslot((o), (id)))
#define LNUM(o, id, def)	jnode_num(jslot((o), (id)), (def))
#define LINT(o, id, def, lo, hi) jnode_int(jslot((o), (id)), (def), (lo), (hi))

/* The figures of a cell, one value per ok run that has it: the pooled
 * figures (figures.h, by fig_pool()) and the headline's count. */
enum { F_LOADS = FIG_NPOOL, NFIG };
/* Figures only tested and averaged, never shown by their median: kept as
 * running sums, not per run (rate, the probe's p99, Met%). */
enum { S_RATE, S_P99, S_MET, S_P999, S_PMAX, NSUM };

struct dvec {
	double	*v;
	size_t	 n, cap;
};

/* Where a run's line is: a file's number in rs->fname, and the line. */
struct place {
	uint32_t file, line;
};

/* An ok run the report may name as an outlier: read back on demand. */
struct run_tel {
	struct place at;	/* first: rs_place_order() sorts these */
	long	 runno;
	double	 wall, tel[RSET_NTEL];
};

struct cell_acc {
	size_t		 row, blk;
	struct dvec	 fig[NFIG];
	struct stats	 sum[NSUM];
	double		 m2[NSUM];
	size_t		 failed;
	int		 last_exit;
	const char	*last_signal, *headline;
	struct cell_counter	*c;
	size_t		 nc, capc;
	struct cell_lat	 lat, probe;
	int		 lat_inexact, probe_inexact;
	unsigned long long deadlines, met;	/* the deadlines passed, and met */
	unsigned long long skipped, nskipped;	/* and the runs that say */
	size_t		 scx_changed;
	/* ok runs of a session's rounds, for paired tests */
	struct rpair	*pair;
	size_t		 npair, cappair;
	/* the job's own figures, as sums (RSET_JM; NULL: none yet) */
	struct stats	*jm;
	double		*jm2;
	struct cell_pcpu *pcpu;		/* --probe-cpus's, by CPU */
	size_t		 npcpu, cappcpu;
	/* ok runs with no session (no timed entry): where they are */
	struct place	*loc;
	size_t		 nloc, caploc;
	/* telemetry: the runs' as read, or after a spill when first asked */
	struct run_tel	*tel;
	size_t		 ntel, captel;
	int		 tel_read;
	/* ok runs' Time by the boot they ran in (rset.h's rboot) */
	struct rboot	*boot;
	size_t		 nboot, capboot;
};

/*
 * Rows by their key (interned, so compared by pointer) in an open hash
 * table, and each row's cells by block: a year of a lab's nightly runs
 * has thousands of rows, and each line finds its own.
 */
struct rindex {
	size_t	*slot;		/* row + 1; 0: empty */
	size_t	 cap;
	struct { uint32_t *acc; size_t n, cap; } *cells;	/* per row, by block */
	size_t	 capcells;
	/* Every ok run's telemetry is kept as read while it fits in
	 * TEL_BUDGET bytes; past that the files' are dropped, and read again
	 * for the cells a report names runs of. */
	size_t	 tel_bytes;
	int	 spilled;
};

#define TEL_BUDGET	(24u << 20)	/* some 300,000 runs */

/* A run to read again, and the cell it goes to. */
struct want {
	struct place	 at;
	uint32_t	 acc;
};

struct reread {
	const struct rset *rs;
	const struct want *w;	/* this file's, in line order */
	size_t		 n, k;
};

/* rset_accum.c */
void	rs_dpush(struct dvec *d, double x);
uint32_t	rs_acc_for(struct rset *rs, size_t row, size_t blk);
void	rs_run_tel(struct run_tel *t, const struct jnode *o, uint32_t file, uint32_t line);
void	rs_dremove(struct dvec *d, double x);
void	rs_accumulate(struct rset *rs, struct cell_acc *a, const struct rrun *r,
	    const struct jnode *o, uint32_t file, int timed, int sign);

/* rset_decode.c */
/* The row's label: "label", or "label/variant" for a variant's run. */
const char *rs_label(struct rset *rs, const struct jnode *o);
const char *rs_sweep_key(struct rset *rs, const struct jnode *sw);
void	rs_series(struct rrun *r, const struct jnode *o);
const struct jkeys *rs_keys_for(const struct rfilter *f);
void	rs_environment(struct rset *rs, struct rrun *r, const struct jnode *o);
uint32_t	rs_build_key(struct rset *rs, const struct jnode *o);
/* A line's run in two steps, each member read once: which run it is (0,
 * or -1 for no contest result), then the rest; or both at once. */
int	rs_parse_id(struct rset *rs, const struct jnode *o, struct rrun *r);
void	rs_parse_rest(struct rset *rs, const struct jnode *o, unsigned long lineno,
	    const char *file, struct rrun *r, uint32_t build);
int	rs_parse_run(struct rset *rs, const struct jnode *o, unsigned long lineno,
	    const char *file, struct rrun *r, uint32_t build);
void	rs_free_run(struct rrun *r);
/* the members a second look at a run reads (its telemetry) */
const struct jkeys *rs_tel_keys(void);

/* rset_intern.c */
const char *rs_intern(struct rset *rs, const char *s);
uint32_t	rs_tuple(struct rset *rs, const void *a, const void *b, const void *c);
/* rset_dedup.c: a file's reading begins; timed run i read (1: a copy
 * sorting after its first, marked dup, never to be added); done. */
void	rs_dedup_file(struct rset *);
int	rs_dedup_run(struct rset *, size_t i);
void	rs_dedup_free(struct rset *);
/* label (interned) read in a line, kept or left out by a filter: into
 * rs->labs, each once */
void	rs_label_seen(struct rset *rs, const char *label);
void	rs_intern_free(struct rset *rs);

/* rset_reread.c */
int	rs_place_order(const void *pa, const void *pb);
void	rs_read_again(const struct rset *rs, struct want *w, size_t nw,
	    const struct jkeys *keys, jsonl_fn fn, const char *lost);
int	rs_reread_line(const struct jnode *o, unsigned long lineno, void *arg);

/* rset_rows.c */
void	rs_name_rows(struct rset *rs);

#endif
