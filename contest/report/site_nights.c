/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The site's nights: a label on a host, its lines found again in the
 * files the report read, so that its page is the report of those lines
 * alone (what 'contest report -k LABEL --host HOST' prints) without a
 * read of every file per night.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jarena.h"
#include "jsonl.h"
#include "keys.h"
#include "site.h"
#include "util.h"

/* By host, then by the first run's time (ISO 8601 sorts as text). */
static int
by_host_time(const void *a, const void *b)
{
	const struct night *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	return c ? c : strcmp(x->when, y->when);
}

static size_t
find_night(const struct site *s, const char *label, const char *host)
{
	for (size_t k = 0; k < s->nn; k++)
		if (strcmp(s->n[k].label, label) == 0 && strcmp(s->n[k].host, host) == 0)
			return k;
	return SIZE_MAX;
}

/* Whether nights a and b ran a command in common (their comparison
 * means something). */
static int
same_job(const struct site *s, size_t a, size_t b)
{
	const struct rset *rs = s->rs;

	for (size_t i = 0; i < s->n[a].nrow; i++)
		for (size_t j = 0; j < s->n[b].nrow; j++)
			if (rs->row[s->n[a].row[i]].command == rs->row[s->n[b].row[j]].command)
				return 1;
	return 0;
}

/* "night-LABEL.html", "@HOST" in it where there are hosts; a byte of
 * neither name's safe set a '_', and "-K" where that made two alike. */
static void
name_pages(struct site *s, int hosts)
{
	for (size_t k = 0; k < s->nn; k++) {
		struct night *n = &s->n[k];
		size_t len = strlen(n->label) + strlen(n->host) + 40;
		char *p = n->file = xcalloc(len, 1), *q;

		q = p + sprintf(p, "night-%s%s%s", n->label, hosts ? "@" : "",
		    hosts ? n->host : "");
		for (char *c = p + 6; c < q; c++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-@", *c))
				*c = '_';
		for (size_t j = 0; j < k; j++)
			if (strncmp(s->n[j].file, p, (size_t)(q - p)) == 0 &&
			    strcmp(s->n[j].file + (q - p), ".html") == 0) {
				q += sprintf(q, "-%zu", k);
				break;
			}
		strcpy(q, ".html");
	}
}

static void
add_nights(struct site *s)
{
	const struct rset *rs = s->rs;
	size_t cap = 0, hosts = 0;

	for (size_t r = 0; r < rs->nrow; r++) {
		const struct rrow *w = &rs->row[r];
		const char *host = w->host ? w->host : "?";
		const char *when = w->env && w->env->timestamp ? w->env->timestamp : "";
		size_t k = find_night(s, w->label, host);
		if (k != SIZE_MAX) {
			if (strcmp(when, s->n[k].when) < 0)
				s->n[k].when = when;
			continue;
		}
		xgrow(&s->n, &cap, s->nn + 1, sizeof *s->n, 16);
		s->n[s->nn++] = (struct night){ .label = w->label, .host = host,
		    .when = when, .prev = SIZE_MAX };
	}
	qsort(s->n, s->nn, sizeof *s->n, by_host_time);
	s->night_of = xcalloc(rs->nrow + 1, sizeof *s->night_of);
	for (size_t r = 0; r < rs->nrow; r++) {
		const struct rrow *w = &rs->row[r];
		struct night *n = &s->n[s->night_of[r] = find_night(s, w->label,
		    w->host ? w->host : "?")];
		xgrow(&n->row, &n->caprow, n->nrow + 1, sizeof *n->row, 4);
		n->row[n->nrow++] = r;
	}
	for (size_t k = 1; k < s->nn; k++)
		hosts += strcmp(s->n[k].host, s->n[0].host) != 0;
	name_pages(s, hosts > 0);
	for (size_t k = 1; k < s->nn; k++)
		if (strcmp(s->n[k].host, s->n[k - 1].host) == 0 && same_job(s, k - 1, k))
			s->n[k].prev = k - 1;
}

/* The night of one line, by its label (and variant) and host: the
 * members of keys (those three), the rest passed over. */
static size_t
line_night(const struct site *s, const char *line, size_t len, struct jarena *a,
    const struct jkeys *keys)
{
	const struct jnode *o = jsonl_parse_keys(line, len, a, keys);
	const char *label = jnode_str(jslot(o, RK_LABEL));
	const char *variant = jnode_str(jslot(o, RK_VARIANT));
	const char *host = jnode_str(jslot(o, RK_HOST));
	char buf[1024];

	if (label == NULL)
		return SIZE_MAX;
	if (variant) {
		if (snprintf(buf, sizeof buf, "%s/%s", label, variant) >= (int)sizeof buf)
			return SIZE_MAX;
		label = buf;
	}
	return find_night(s, label, host ? host : "?");
}

static int
add_lines(struct site *s, uint32_t fileno)
{
	const struct rset *rs = s->rs;
	const char *name = rs->fname[fileno];
	/* the bytes the report read, from the fd the pages read again */
	int fd = rs->fmem[fileno] ? -1 : dup(s->fd[fileno]);
	FILE *in = rs->fmem[fileno] ? fmemopen((void *)rs->fmem[fileno],
	    rs->fmemlen[fileno], "r") : fd < 0 ? NULL : fdopen(fd, "r");
	off_t end = rs->fid[fileno].regular ? (off_t)rs->fid[fileno].size : -1;
	struct jarena a = { 0 };
	struct jkeys keys;
	unsigned char want[RK_N] = { 0 };
	char *line = NULL;
	size_t cap = 0;
	off_t off = 0;
	ssize_t len;

	if (in == NULL) {
		warnmsg("%s: %s", name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	rewind(in);
	want[RK_LABEL] = want[RK_VARIANT] = want[RK_HOST] = 1;
	if (jkeys_init_ids(&keys, rkey_names, RK_N, want) != 0)
		fatal(1, "site: a key set of three keys failed");
	while ((end < 0 || off < end) && (len = getline(&line, &cap, in)) > 0) {
		/* an incomplete last line is the report's to skip and say */
		size_t k = line[len - 1] != '\n' ? SIZE_MAX :
		    line_night(s, line, (size_t)len - 1, &a, &keys);
		jarena_reset(&a);
		if (k != SIZE_MAX && len < INT32_MAX) {
			struct night *n = &s->n[k];
			xgrow(&n->ln, &n->capln, n->nln + 1, sizeof *n->ln, 64);
			n->ln[n->nln++] = (struct sline){ fileno, (uint32_t)len, off };
		}
		off += len;
	}
	int rc = ferror(in) ? -1 : 0;
	if (rc)
		warnmsg("%s: %s", name, strerror(errno));
	free(line);
	jarena_free(&a);
	fclose(in);
	return rc;
}

int
site_nights(struct site *s)
{
	const struct rset *rs = s->rs;

	add_nights(s);
	s->fd = xcalloc(rs->nfname + 1, sizeof *s->fd);
	for (size_t i = 0; i < rs->nfname; i++)
		s->fd[i] = -1;
	for (size_t i = 0; i < rs->nfname; i++) {
		if (rs->fmem[i] == NULL &&
		    (s->fd[i] = open(rs->fname[i], O_RDONLY | O_CLOEXEC)) < 0) {
			warnmsg("%s: %s", rs->fname[i], strerror(errno));
			return -1;
		}
		if (add_lines(s, (uint32_t)i) != 0)
			return -1;
	}
	return 0;
}

void
site_nights_free(struct site *s)
{
	for (size_t k = 0; k < s->nn; k++) {
		free(s->n[k].file);
		free(s->n[k].ln);
		free(s->n[k].row);
	}
	free(s->night_of);
	s->night_of = NULL;
	for (size_t i = 0; s->fd && i < s->rs->nfname; i++)
		if (s->fd[i] >= 0)
			close(s->fd[i]);
	free(s->fd);
	s->fd = NULL;
	free(s->n);
	s->n = NULL;
	s->nn = 0;
}
