/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which code this build is: scripts/buildver's word for the tree it was
 * built from (a git description, "-dirty" where the tree differed from
 * its commit), or the release; what --version and every results line
 * say, so that a figure names the code that measured it. */
#ifndef CONTEST_BUILDVER_H
#define CONTEST_BUILDVER_H

extern const char contest_build[];

#endif
