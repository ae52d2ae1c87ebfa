/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * contest report --html: the site's nights (site_nights.c), a night's
 * page (site_night.c), the index and the change points (site_index.c),
 * and what every page shares (site_page.c).  A night is a label on a host: its page is the report of
 * its lines alone and its comparison with the host's night before.
 */
#ifndef CONTEST_SITE_H
#define CONTEST_SITE_H

#include <stdio.h>
#include <sys/types.h>

#include "report.h"

/* A results line of a night: its file (rset.fname) and bytes. */
struct sline {
	uint32_t	 file;
	uint32_t	 len;
	off_t		 off;
};

struct night {
	const char	*label, *host;	/* label: LABEL or LABEL/VARIANT */
	const char	*when;		/* its first run's timestamp */
	char		*file;		/* its page, in the site's dir */
	size_t		 prev;		/* the host's night before; SIZE_MAX: none */
	size_t		*row, nrow, caprow;	/* its rows in the report's rset */
	struct sline	*ln;
	size_t		 nln, capln;
};

struct site {
	const char	*dir;
	const struct rset *rs;
	const struct history *h;
	const struct rfilter *f;	/* the report's: its loads and --since */
	const struct cmpopt *o;
	enum rsort	 sort;
	struct night	*n;
	size_t		 nn;
	size_t		*night_of;	/* each row's night */
	int		*fd;		/* each file's, open (-1: in memory) */
};

/* The nights of s->rs, ordered by host and time, their lines found in
 * the files read; 0, or -1 after a message. */
int	site_nights(struct site *);
void	site_nights_free(struct site *);
/* Night k's page; 0, or -1 after a message. */
int	site_night_page(const struct site *, size_t k);
/* The top of a page and its end. */
void	site_head(FILE *, const char *title);
void	site_foot(FILE *);
/* Text into a <pre>, escaped. */
void	site_pre(FILE *, const char *text, size_t len);

#endif
