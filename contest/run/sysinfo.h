/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What machine and kernel a run happened on: stored with every result. */
#ifndef CONTEST_SYSINFO_H
#define CONTEST_SYSINFO_H

struct sysinfo {
	char	host[256];
	char	kernel[256];		/* uname -r */
	char	kversion[256];		/* uname -v */
	char	build_id[2 * 64 + 1];	/* the kernel's GNU build ID, hex; "" */
	char	boot_id[40];		/* this boot's random id; "" */
	char	machine[64];		/* uname -m */
	char	cpu_model[256];
	long	nproc;			/* CPUs this process may use (nproc(1)) */
	long	cpus_online;
	long long mem_total_kb;
	/* "" or -1 where the system does not say (no cpufreq in a VM) */
	char	governor[64];
	long long freq_cur_khz, freq_min_khz, freq_max_khz;
	int	smt;			/* 1 on, 0 off, -1 unknown */
	char	clocksource[64];
};

void	sysinfo_collect(struct sysinfo *);

#endif
