/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pressure stall information (Linux 4.20+, CONFIG_PSI): the time during
 * which some task waited for a CPU, for memory, for I/O, machine-wide.
 * Read at both ends of the job, it says how much waiting a load caused.
 */
#ifndef CONTEST_PSI_H
#define CONTEST_PSI_H

#include "keys.h"	/* PSI_CPU, PSI_MEM, PSI_IO, PSI_N; psi_keys[] */

struct psi {
	unsigned long long some_us[PSI_N];
	int	have[PSI_N];
};

/* Fill *p from /proc/pressure; have[i] is 0 where it is not readable. */
void	psi_read(struct psi *p);
/*
 * The same for the tasks of one cgroup v2 (NULL: the machine), from its
 * cpu.pressure, memory.pressure and io.pressure: "some" is the time in
 * which some of its runnable tasks waited, aggregated over CPUs as PSI
 * does (with n tasks on m CPUs, waiting while any could have run).
 */
void	psi_read_at(struct psi *p, const char *cgroup);	/* "": none */

#endif
