/* What machine and kernel a run happened on: stored with every result. */
#ifndef CONTEST_SYSINFO_H
#define CONTEST_SYSINFO_H

struct sysinfo {
	char	host[256];
	char	kernel[256];		/* uname -r */
	char	kversion[256];		/* uname -v */
	char	machine[64];		/* uname -m */
	char	cpu_model[256];
	long	nproc;			/* online CPUs */
	long long mem_total_kb;
};

void	sysinfo_collect(struct sysinfo *);

#endif
