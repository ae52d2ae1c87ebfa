/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * history's newest nights: fewer than a change point needs after it, so
 * never placed, yet said where they differ; and a change point the
 * search pinned just before them judged with them left out.
 */
#include "config.h"

#include <stddef.h>

#include "report.h"

/* The newest j nights against every night since the change before c
 * (x[from..n - j), c's both sides): a change of their own at CPOINT_P.
 * Then c is judged without them, on mid (its test over [from, n - j)):
 * it goes where that does not pass; else it is sized so.  The newest
 * are said against the nights since it where it stays and they differ
 * from those, else against every night since from.  1 where they are a
 * change of their own. */
static int
newest_own(struct hseries *s, const double *x, struct cpoint *c,
    struct cpoint *mid, size_t from, size_t j)
{
	size_t n = s->npt;
	struct cpoint t;

	if (!(cpoint_test(x + from, n - j - from, n - from, &t) < CPOINT_P))
		return 0;
	if (!(mid->p < CPOINT_P)) {
		s->ncp--;	/* it was the newest nights' */
		t.out += from;
	} else {
		struct cpoint since;
		mid->at = c->at;
		mid->out += from;
		*c = *mid;
		if (cpoint_test(x + c->at, n - j - c->at, n - c->at, &since) < CPOINT_P) {
			since.out += c->at;
			t = since;
		} else
			t.out += from;
	}
	t.at = n - j;
	s->newest = j;
	s->nc = t;
	return 1;
}

/*
 * Whether the newest j nights (j < CPOINT_MIN, which no change point may
 * have after it) carry a difference of their own: against the segment
 * before them at CPOINT_P.  A change point the search pinned just before
 * the newest CPOINT_MIN nights, of which only the newest j differ (the
 * nights between the change and them no different from before it, at
 * 0.05), was theirs, pinned on nights that did not change: it goes, and
 * the newest nights are said to differ, not placed.  Where the nights
 * between do differ, the change stays, but if the newest j differ from
 * those nights too they are a change of their own: the change is sized
 * without them (with them in, a 15% newest night made a 2% drift read
 * as a 6% regression), and they are said to differ from it.
 */
void
history_newest_nights(struct hseries *s, const double *x)
{
	size_t n = s->npt;

	/* the newest j that pinned the change first, then the newest j that
	 * are a change of their own after one (pass 1) */
	for (int pass = 0; pass < 2; pass++)
	for (size_t j = 1; j < CPOINT_MIN; j++) {
		struct cpoint *c = s->ncp ? &s->cp[s->ncp - 1] : NULL, mid, t;
		size_t from = s->ncp > 1 ? s->cp[s->ncp - 2].at : 0;
		if (c && c->at + j < n && n - c->at <= 2 * CPOINT_MIN - 1) {
			/* the nights after the change but the newest j */
			if (!(cpoint_test(x + from, c->at - from, n - j - from, &mid) >= 0.05)) {
				if (pass == 0 || !newest_own(s, x, c, &mid, from, j))
					continue;
				return;
			}
		} else if (c)
			from = c->at;
		if (pass == 1)
			continue;	/* the rest was pass 0's */
		if (n - j < from + 2 || !(cpoint_test(x + from, n - j - from, n - from,
		    &t) < CPOINT_P))
			continue;
		if (c && c->at + j < n && n - c->at <= 2 * CPOINT_MIN - 1)
			s->ncp--;	/* it was the newest nights' */
		t.at = n - j;
		t.out += from;
		s->newest = j;
		s->nc = t;
		return;
	}
}
