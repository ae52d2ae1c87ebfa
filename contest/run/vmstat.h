/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Machine-wide event counters from /proc/vmstat (Linux). */
#ifndef CONTEST_VMSTAT_H
#define CONTEST_VMSTAT_H

#include <stddef.h>

/* The value of counter key ("oom_kill"), or -1 where it is not readable. */
long long vmstat_read(const char *key);

/* keys[0..n) in one read of the file; -1 for each one missing.  Returns
 * how many were found. */
int	vmstat_snap(const char *const *keys, size_t n, long long *vals);

/* What every run records of it: keys.h's vmstat_keys[VMSTAT_NTEL]. */
#include "keys.h"

#endif
