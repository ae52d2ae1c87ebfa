/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The figures a run works out from what it read (figures.h's T_DERIVED
 * and the nulls with their reasons). */
#ifndef CONTEST_DERIVE_H
#define CONTEST_DERIVE_H

#include "session.h"

/* Fill r->fig[] and r->fig_why[] from the raw reads; every run, done or
 * failed, before results_append() writes it. */
void	figures_derive(const struct session *, struct run_record *);

#endif
