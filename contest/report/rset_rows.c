/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What rows are called: the label, with "@host" or "#n" where one label
 * covers several hosts, commands, jobs or kernel builds; the natural
 * order of labels; and the rows of one label.
 */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "rset_impl.h"
#include "util.h"

/* Natural order: runs of digits compare by value, the rest bytewise. */
int
rset_labelcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0')
				a++;
			while (*b == '0')
				b++;
			size_t la = 0, lb = 0;
			while (isdigit((unsigned char)a[la]))
				la++;
			while (isdigit((unsigned char)b[lb]))
				lb++;
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = strncmp(a, b, la);
			if (c)
				return c;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return (*a != 0) - (*b != 0);
}

/* Whether rows[0..i) of label w's sweep value hold one like row i by f. */
static int
seen_before(const struct rset *rs, size_t i, int (*same)(const struct rrow *,
    const struct rrow *), int host_too)
{
	const struct rrow *w = &rs->row[i];

	for (size_t j = 0; j < i; j++) {
		const struct rrow *o = &rs->row[j];
		if (o->label == w->label && o->sweep == w->sweep &&
		    (!host_too || o->host == w->host) && same(o, w))
			return 1;
	}
	return 0;
}

static int
same_host(const struct rrow *a, const struct rrow *b)
{
	return a->host == b->host;
}

static int
same_job(const struct rrow *a, const struct rrow *b)
{
	return a->command == b->command && a->job == b->job;
}

static int
same_build(const struct rrow *a, const struct rrow *b)
{
	return a->build == b->build && a->build_id == b->build_id;
}

/* Whether row i's runs say no build ID where another row of its label,
 * sweep value and host says one: that row is "#?". */
static int
unidentified(const struct rset *rs, size_t i)
{
	const struct rrow *w = &rs->row[i];

	if (w->build_id)
		return 0;
	for (size_t j = 0; j < rs->nrow; j++) {
		const struct rrow *o = &rs->row[j];
		if (o->label == w->label && o->sweep == w->sweep &&
		    o->host == w->host && o->build_id)
			return 1;
	}
	return 0;
}

/*
 * Names: the label, then "@host" where one label was measured on
 * several hosts, and "#n" where one host ran it with several commands or
 * jobs, or on several kernel builds (a patched kernel rebuilt with the
 * same release, or another sched_ext scheduler): never one average.
 * Runs that say no build ID beside runs that say one are "#?".
 */
void
rs_name_rows(struct rset *rs)
{
	for (size_t i = 0; i < rs->nrow; i++) {
		struct rrow *w = &rs->row[i];
		size_t hosts = 0, rows = 0, rowno = 0, jobs = 0, builds = 0;
		int first = 1, unid = unidentified(rs, i), firstunid = 1;
		for (size_t j = 0; j < rs->nrow; j++) {
			const struct rrow *o = &rs->row[j];
			/* one sweep's values are one command's rows, not several */
			if (o->label != w->label || o->sweep != w->sweep)
				continue;
			first &= j >= i;
			hosts += !seen_before(rs, j, same_host, 0);
			if (o->host != w->host)
				continue;
			rows++;
			if (unidentified(rs, j)) {
				firstunid &= j >= i;
				continue;
			}
			rowno += j <= i;
			jobs += !seen_before(rs, j, same_job, 1);
			builds += !seen_before(rs, j, same_build, 1);
		}
		if (unid && firstunid)
			warnmsg("warning: label '%s'%s%s has runs that say no kernel "
			    "build ID beside runs that say one: they may be another "
			    "build, and are a row of their own, LABEL#?", w->label,
			    hosts > 1 ? " on " : "", hosts > 1 ? w->host : "");
		if (first && hosts > 1 && !rs->per_host)
			warnmsg("warning: label '%s' was measured on %zu hosts; its rows "
			    "are named LABEL@HOST", w->label, hosts);
		if (first && jobs > 1)
			warnmsg("warning: label '%s' was measured with %zu different "
			    "commands or jobs (command, job_sha256, job_identity); its "
			    "rows are named LABEL#N", w->label, jobs);
		if (first && builds > 1)
			warnmsg("warning: label '%s' was measured on %zu different kernel "
			    "builds or schedulers (kernel_build_id, else kernel_version "
			    "and the config's hash; sched_ext); its rows are named "
			    "LABEL#N", w->label, builds);
		size_t len = strlen(w->label) + strlen(w->host) +
		    (w->sweep ? strlen(w->sweep) : 0) + 34;
		w->name = xcalloc(len, 1);
		snprintf(w->name, len, "%s%s%s", w->label, hosts > 1 ? "@" : "",
		    hosts > 1 ? w->host : "");
		if (unid)
			snprintf(w->name + strlen(w->name), 32, "#?");
		else if (rows > 1)
			snprintf(w->name + strlen(w->name), 32, "#%zu", rowno);
		if (w->sweep)
			snprintf(w->name + strlen(w->name), strlen(w->sweep) + 2, " %s",
			    w->sweep);
	}
}

#define NEAREST	10	/* labels named when one is not there */

/* The labels read (filtered or not), into buf: all of them, or the
 * NEAREST nearest to label (fewest edits, then first read) where there
 * are more. */
static void
labels_there(const struct rset *rs, const char *label, char *buf, size_t len)
{
	size_t n = rs->nlabs, *pick = xcalloc(n + 1, sizeof *pick);
	size_t *dist = xcalloc(n + 1, sizeof *dist);

	for (size_t i = 0; i < n; i++) {
		pick[i] = i;
		dist[i] = n > NEAREST ? str_edits(label, rs->labs[i]) : 0;
	}
	/* the nearest first, by insertion: the earlier read wins a tie */
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && dist[k] < dist[k - 1]; k--) {
			size_t t = dist[k];
			dist[k] = dist[k - 1], dist[k - 1] = t;
			t = pick[k];
			pick[k] = pick[k - 1], pick[k - 1] = t;
		}
	size_t show = n < NEAREST ? n : NEAREST;
	size_t off = (size_t)snprintf(buf, len, n > NEAREST ? "the %zu nearest of "
	    "%zu labels: " : "labels: ", show, n);
	for (size_t i = 0; i < show && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
		    rs->labs[pick[i]]);
	if (n == 0)
		snprintf(buf, len, "none read");
	free(pick);
	free(dist);
}

long
rset_label_rows(const struct rset *rs, const char *label, size_t *out,
    size_t max)
{
	size_t n = 0;

	for (size_t r = 0; r < rs->nrow; r++) {
		const struct rrow *w = &rs->row[r];
		size_t len = strlen(w->name) - (w->sweep ? strlen(w->sweep) + 1 : 0);
		if (strcmp(w->label, label) != 0 && strcmp(w->name, label) != 0 &&
		    !(strncmp(w->name, label, len) == 0 && label[len] == '\0'))
			continue;
		for (size_t k = 0; k < n; k++)
			if (rs->row[out[k]].sweep == w->sweep) {
				warnmsg("label '%s' was measured on more than one host, "
				    "with more than one command, or on more than one kernel "
				    "build or scheduler; name one row as the report does "
				    "(LABEL@HOST, LABEL#N)", label);
				return -1;
			}
		if (n == max) {
			warnmsg("label '%s' has more than %zu sweep values", label, max);
			return -1;
		}
		out[n++] = r;
	}
	if (n == 0) {
		char there[512];
		labels_there(rs, label, there, sizeof there);
		warnmsg("no results for label '%s' (%s)", label, there);
	}
	return n ? (long)n : -1;
}
