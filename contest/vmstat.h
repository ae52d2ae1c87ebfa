/* Machine-wide event counters from /proc/vmstat (Linux). */
#ifndef CONTEST_VMSTAT_H
#define CONTEST_VMSTAT_H

/* The value of counter key ("oom_kill"), or -1 where it is not readable. */
long long vmstat_read(const char *key);

#endif
