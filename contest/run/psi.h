/*
 * Pressure stall information (Linux 4.20+, CONFIG_PSI): the time during
 * which some task waited for a CPU, for memory, for I/O, machine-wide.
 * Read at both ends of the job, it says how much waiting a load caused.
 */
#ifndef CONTEST_PSI_H
#define CONTEST_PSI_H

enum { PSI_CPU, PSI_MEM, PSI_IO, PSI_N };

struct psi {
	unsigned long long some_us[PSI_N];
	int	have[PSI_N];
};

extern const char *const psi_name[PSI_N];

/* Fill *p from /proc/pressure; have[i] is 0 where it is not readable. */
void	psi_read(struct psi *p);

#endif
