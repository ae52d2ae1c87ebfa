/*
 * One block per load, one row per kernel label, as contest printed in
 * 2002, with the spread added: Time and Ratio carry "±" and the sample
 * standard deviation of the successful measured runs.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "suspect.h"
#include "table.h"
#include "util.h"

struct slot_sum {
	size_t		 ok, failed;
	struct stats	 wall;
	double		 cpu_pct, lcpu_pct;
	double		 counter[LOAD_MAX_COUNTERS];
	unsigned long long hist[LOAD_HIST_BUCKETS];	/* merged over runs */
	int		 last_exit, last_signal;
	size_t		 nsuspect;
	struct suspect	*suspect;	/* measured runs that may have done no work */
};

/*
 * The session's timed runs, in the order they ran, through
 * suspect_mark(): flags[i] for s->rec[i].
 */
static void
mark_suspects(const struct session *s, struct sflag *flags)
{
	struct srun *sr = xcalloc(s->nrec + 1, sizeof *sr);
	struct sflag *sf = xcalloc(s->nrec + 1, sizeof *sf);
	size_t n = 0;

	for (size_t i = 0; i < s->nrec; i++)
		if (s->rec[i].status == RUN_OK)
			sr[n++] = (struct srun){ s->rec[i].slot, s->rec[i].wall,
			    !s->rec[i].warmup };
	suspect_mark(sr, n, sf);
	n = 0;
	for (size_t i = 0; i < s->nrec; i++)
		flags[i] = s->rec[i].status == RUN_OK ? sf[n++] : (struct sflag){ 0, 0 };
	free(sr);
	free(sf);
}

static void
summarise(const struct session *s, const struct sflag *flags, size_t slot,
    struct slot_sum *o)
{
	double *w = calloc(s->nrec ? s->nrec : 1, sizeof *w);

	memset(o, 0, sizeof *o);
	o->suspect = xcalloc(s->nrec + 1, sizeof *o->suspect);
	for (size_t i = 0; i < s->nrec; i++) {
		const struct run_record *r = &s->rec[i];
		if (r->slot != slot || r->warmup)
			continue;
		if (flags[i].why)
			o->suspect[o->nsuspect++] = (struct suspect){ r->index, r->wall,
			    flags[i] };
		if (r->status != RUN_OK) {
			o->failed++;
			o->last_exit = r->exit_code;
			o->last_signal = r->signal;
			continue;
		}
		if (w)
			w[o->ok] = r->wall;
		o->cpu_pct += (r->usr + r->sys) / r->wall * 100;
		o->lcpu_pct += r->load_cpu / r->wall * 100;
		for (size_t c = 0; c < LOAD_MAX_COUNTERS; c++)
			o->counter[c] += (double)r->counter[c];
		for (size_t b = 0; b < LOAD_HIST_BUCKETS; b++)
			o->hist[b] += r->hist[b];
		o->ok++;
	}
	if (o->ok) {
		o->cpu_pct /= (double)o->ok;
		o->lcpu_pct /= (double)o->ok;
		for (size_t c = 0; c < LOAD_MAX_COUNTERS; c++)
			o->counter[c] /= (double)o->ok;
	}
	stats_compute(w, w ? o->ok : 0, &o->wall);
	free(w);
}

static void
latency_line(FILE *f, const struct loadspec *ls, const unsigned long long *h)
{
	unsigned long long floors[LOAD_HIST_BUCKETS];
	struct hist_summary hs;

	load_hist_floors(floors);
	stats_hist_summary(h, floors, LOAD_HIST_BUCKETS, &hs);
	if (hs.n == 0)
		return;
	fprintf(f, "%s: %s: p50 %.0f us, p99 %.0f us (%llu samples)\n", ls->name,
	    ls->load->latency, hs.p50 / 1e3, hs.p99 / 1e3, hs.n);
}

/* "no_load run 2, cpu_load runs 1 2" into buf. */
static void
name_suspects(char *buf, size_t len, const char *load, const struct slot_sum *c)
{
	size_t used = strlen(buf);

	if (c->nsuspect == 0 || used >= len)
		return;
	used += (size_t)snprintf(buf + used, len - used, "%s%s run%s", used ? ", " : "",
	    load, c->nsuspect > 1 ? "s" : "");
	for (size_t i = 0; i < c->nsuspect && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, " %ld",
		    c->suspect[i].runno);
}

int
table_print(FILE *f, const struct session *s)
{
	struct slot_sum base, cur;
	struct sflag *flags = xcalloc(s->nrec + 1, sizeof *flags);
	char named[400] = "";
	int nsuspect = 0;

	mark_suspects(s, flags);
	summarise(s, flags, 0, &base);
	for (size_t slot = 0; slot < s->nslots; slot++) {
		const struct loadspec *ls = &s->slots[slot];
		int is_base = slot == 0;

		if (is_base)
			cur = base;
		else
			summarise(s, flags, slot, &cur);
		struct trow tr = {
			.name = s->label, .ok = cur.ok, .failed = cur.failed,
			.time = &cur.wall, .cpu_pct = cur.cpu_pct,
			.loads = NAN, .lcpu_pct = NAN, .ratio = NAN, .ratio_sd = NAN,
			.ratio_ci95 = NAN, .mark = cur.nsuspect ? '?' : ' ',
		};
		if (!is_base && load_ncounters(ls->load) > 0) {
			tr.loads = cur.counter[load_headline(ls->load, ls->opt)];
			tr.lcpu_pct = cur.lcpu_pct;
		}
		if (is_base)
			tr.ratio = 1;
		else if (base.ok > 0 && cur.ok > 0) {
			tr.ratio = stats_ratio(&cur.wall, &base.wall, &tr.ratio_sd);
			if (cur.ok < 2 && base.ok < 2)
				tr.ratio_sd = NAN;
		}
		fprintf(f, "%s:\n", ls->name);
		table_head(f, 0);
		table_line(f, &tr, 0);
		for (size_t c = 0; c < load_ncounters(ls->load) && cur.ok; c++) {
			const struct load_counter *lc = &ls->load->counters[c];
			if (!load_shows(ls->load, ls->opt, (unsigned)c))
				continue;
			fprintf(f, "%s: %s: %.0f", ls->name, lc->label, cur.counter[c]);
			if (lc->kind == LOAD_SUM && cur.wall.mean > 0)
				fprintf(f, " (%.4g/s)", cur.counter[c] / cur.wall.mean);
			fputc('\n', f);
		}
		if (ls->load->latency && cur.ok)
			latency_line(f, ls, cur.hist);
		if (cur.failed)
			fprintf(f, "%s: ! %zu run%s failed (last exit status %d%s%s), "
			    "left out of the means\n", ls->name, cur.failed,
			    cur.failed == 1 ? "" : "s", cur.last_exit,
			    cur.last_signal ? ", " : "",
			    cur.last_signal ? signal_name(cur.last_signal) : "");
		suspect_note(f, ls->name, s->label, cur.suspect, cur.nsuspect);
		nsuspect += (int)cur.nsuspect;
		name_suspects(named, sizeof named, ls->name, &cur);
		if (!is_base)
			free(cur.suspect);
	}
	free(base.suspect);
	free(flags);
	if (nsuspect)
		warnmsg("%s may have done no work (the notes under the table say "
		    "why): give the job a --prepare step that undoes its work",
		    named);
	return nsuspect;
}
