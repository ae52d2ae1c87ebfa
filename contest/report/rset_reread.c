/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A second look at lines by number, for the few runs a report names:
 * only from a file that is still the one first read.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rset_impl.h"
#include "util.h"

/*
 * File number i opened again for a second look at lines by number: only
 * while it is the file first read (device, inode, size), never a pipe.
 * NULL if it cannot be, said once a file, with what is left out.
 */
static FILE *
reopen(const struct rset *rs, uint32_t i, const char *lost)
{
	struct rfid *id = &rs->fid[i];
	const char *why = NULL;
	struct stat st;
	char buf[128];

	if (rs->fmem[i])
		return rs->fmemlen[i] ? fmemopen((void *)rs->fmem[i], rs->fmemlen[i],
		    "r") : NULL;
	/* never blocking: a FIFO named again must not hang the report */
	int fd = id->regular ? open(rs->fname[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	if (!id->regular)
		why = "not a regular file: what it gives a second time is other lines";
	else if (fd < 0)
		why = strerror(errno);
	else if (fstat(fd, &st) < 0 || st.st_dev != id->dev || st.st_ino != id->ino)
		why = "replaced since it was read";
	else if (st.st_size != id->size) {
		snprintf(buf, sizeof buf, "%s since it was read (%lld bytes, now %lld)",
		    st.st_size > id->size ? "appended to" : "cut",
		    (long long)id->size, (long long)st.st_size);
		why = buf;
	}
	FILE *f = why == NULL && fcntl(fd, F_SETFL, 0) == 0 ? fdopen(fd, "re") : NULL;
	if (f)
		return f;
	if (fd >= 0)
		close(fd);
	if (!id->warned)
		warnmsg("%s: %s; %s", rs->fname[i], why ? why : strerror(errno), lost);
	id->warned = 1;
	return NULL;
}

/* Structures that begin with a struct place, in the order read. */
int
rs_place_order(const void *pa, const void *pb)
{
	const struct place *a = pa, *b = pb;

	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

/*
 * The lines w[0..nw) name, read a second time (a file in one pass, its
 * lines in order) and handed to fn with a struct reread.  A file changed
 * since cannot say more: what it no longer holds is passed over.
 */
void
rs_read_again(const struct rset *rs, struct want *w, size_t nw,
    const struct jkeys *keys, jsonl_fn fn, const char *lost)
{
	if (nw > 1)
		qsort(w, nw, sizeof *w, rs_place_order);
	unsigned long *lines = xcalloc(nw + 1, sizeof *lines);
	for (size_t i = 0, j; i < nw; i = j) {
		size_t n = 0;
		for (j = i; j < nw && w[j].at.file == w[i].at.file; j++)
			if (n == 0 || lines[n - 1] != w[j].at.line)
				lines[n++] = w[j].at.line;
		struct reread x = { rs, w + i, j - i, 0 };
		FILE *in = reopen(rs, w[i].at.file, lost);
		if (in == NULL)
			continue;
		(void)jsonl_read_only_stream(in, keys, lines, n, fn, &x,
		    &rs->fid[w[i].at.file].marks);
		fclose(in);
	}
	free(lines);
}

int
rs_reread_line(const struct jnode *o, unsigned long lineno, void *arg)
{
	struct reread *x = arg;

	while (x->k < x->n && x->w[x->k].at.line < lineno)
		x->k++;
	for (; x->k < x->n && x->w[x->k].at.line == lineno; x->k++) {
		struct cell_acc *a = &x->rs->acc[x->w[x->k].acc];
		xgrow(&a->tel, &a->captel, a->ntel + 1, sizeof *a->tel, 8);
		rs_run_tel(&a->tel[a->ntel++], o, x->w[x->k].at.file, (uint32_t)lineno);
	}
	return 0;
}
