/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forkbomb: the descendant of Radim Kolar's forkbomb 1.4 (FreeBSD
 * benchmarks port, 2004), a realloc benchmark as much as a bomb, with its
 * command line kept so old recipes still work.  What is new: bombs are
 * capped by --maxprocs even as root, the program times itself, and a
 * small supervisor ends everything it started, on the safety alarm, on
 * SIGINT/SIGTERM/SIGHUP, and (through parent-death signals) if it is
 * killed itself.  The actions live in loads/forkbomb_actions.c, shared with
 * contest's forkbomb load.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "forkbomb_actions.h"
#include "num.h"
#include "sys.h"
#include "waitfor.h"
#include "buildver.h"

#define DEF_LIMIT_MB	2047
#define DEF_INCPAGES	1024
#define DEF_MAXTIME	300
#define DEF_MAXPROCS	1000
#define MAX_MAXPROCS	100000
#define MAX_MAXTIME	(365L * 24 * 3600)

struct fbopts {
	int		 alloc, touch, bomb, zombie, cpuhang, quit, runasroot;
	int		 alarm_on;
	long long	 limit_mb, incpages, maxtime, maxprocs;
};

static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
	if (sig != SIGCHLD)	/* SIGCHLD only ends the supervisor's sleep */
		got_signal = sig;
}

static void
usage(FILE *f)
{
	fputs("usage: forkbomb [-mMfzc] [-l MB] [-i PAGES] [-t SEC] [--maxprocs N]\n"
	    "                [--quit] [--nosafetyalarm | --infinite] [--runasroot]\n"
	    "       forkbomb -V | -h\n\n"
	    "  -m, --allocmemory     grow one block with realloc up to the limit\n"
	    "  -M, --touchmemory     the same, writing one byte per page of each new piece\n"
	    "  -l, --memorylimit MB  block limit (default 2047)\n"
	    "  -i, --incpages N      pages added per realloc (default 1024)\n"
	    "  -f, --forkbomb        every process forks until fork fails or --maxprocs\n"
	    "  -z, --zombie          children exit at once, unreaped until the end\n"
	    "  -c, --cpuhang         burn CPU after the other actions (with -M: rewrite the block)\n"
	    "  -t, --maxtime SEC     safety alarm ending everything (default 300)\n"
	    "      --nosafetyalarm, --infinite   no safety alarm\n"
	    "      --quit            exit when the actions are done, not at the alarm\n"
	    "      --maxprocs N      processes at most, forkbomb included (default 1000)\n"
	    "      --runasroot       allow running as root\n"
	    "  -V, --version         print the version\n"
	    "  -h, --help            print this help\n", f);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
bad(const char *fmt, ...)
{
	va_list ap;

	fputs("forkbomb: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see forkbomb -h)\n", stderr);
	exit(2);
}

static long long
number(const char *opt, const char *arg, long long min, long long max)
{
	const char *why;
	long long v = num_parse(arg, min, max, &why);

	if (why)
		bad("%s '%s': %s (allowed %lld..%lld)", opt, arg, why, min, max);
	return v;
}

static void
parse(int argc, char **argv, struct fbopts *o)
{
	enum { O_NOALARM = 256, O_QUIT, O_ROOT, O_MAXPROCS };
	static const struct option longopts[] = {
		{ "allocmemory", no_argument, NULL, 'm' },
		{ "touchmemory", no_argument, NULL, 'M' },
		{ "memorylimit", required_argument, NULL, 'l' },
		{ "incpages", required_argument, NULL, 'i' },
		{ "forkbomb", no_argument, NULL, 'f' },
		{ "zombie", no_argument, NULL, 'z' },
		{ "cpuhang", no_argument, NULL, 'c' },
		{ "maxtime", required_argument, NULL, 't' },
		{ "nosafetyalarm", no_argument, NULL, O_NOALARM },
		{ "infinite", no_argument, NULL, O_NOALARM },
		{ "quit", no_argument, NULL, O_QUIT },
		{ "runasroot", no_argument, NULL, O_ROOT },
		{ "maxprocs", required_argument, NULL, O_MAXPROCS },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long pg = sysconf(_SC_PAGESIZE);
	int ch;

	memset(o, 0, sizeof *o);
	o->limit_mb = DEF_LIMIT_MB;
	o->incpages = DEF_INCPAGES;
	o->maxtime = DEF_MAXTIME;
	o->maxprocs = DEF_MAXPROCS;
	o->alarm_on = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":mMl:i:fzct:Vh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'm': o->alloc = 1; break;
		case 'M': o->alloc = o->touch = 1; break;
		case 'f': o->bomb = 1; break;
		case 'z': o->zombie = 1; break;
		case 'c': o->cpuhang = 1; break;
		case O_QUIT: o->quit = 1; break;
		case O_ROOT: o->runasroot = 1; break;
		case O_NOALARM: o->alarm_on = 0; break;
		/* A block must fit in ptrdiff_t: the 1.4 code overflowed at 2048. */
		case 'l':
			o->limit_mb = number("-l", optarg, 1, PTRDIFF_MAX >> 20);
			break;
		case 'i':
			o->incpages = number("-i", optarg, 1, PTRDIFF_MAX / pg);
			break;
		case 't':
			o->maxtime = number("-t", optarg, 1, MAX_MAXTIME);
			break;
		case O_MAXPROCS:
			o->maxprocs = number("--maxprocs", optarg, 2, MAX_MAXPROCS);
			break;
		case 'V':
			printf("forkbomb (%s) %s, after forkbomb 1.4 by Radim Kolar\n%s\n",
			    PACKAGE_NAME, contest_build, CONTEST_LICENCE);
			exit(fflush(stdout) || ferror(stdout) ? 1 : 0);
		case 'h':
			usage(stdout);
			exit(fflush(stdout) || ferror(stdout) ? 1 : 0);
		case ':':
			bad("option '%s' needs a value", argv[optind - 1]);
		default:
			bad("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		bad("unexpected argument '%s'", argv[optind]);
	if (o->bomb && o->zombie)
		bad("-f and -z cannot be combined (zombies cannot fork)");
}

/* The actions, in the bomb's own process group; never returns. */
static void __attribute__((noreturn))
bomb_root(struct load_ctx *c, const struct fbopts *o)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *blk = NULL;
	size_t len = 0;

	oom_first();
	if (o->bomb)
		fb_bomb(c, o->maxprocs);
	if (o->zombie)
		fb_zombies(c, o->maxprocs);
	if (o->alloc && fb_grow(c, (size_t)o->limit_mb << 20,
	    (size_t)o->incpages * pg, o->touch, &blk, &len))
		atomic_fetch_add(&c->shm->scratch[FB_REFUSED], 1);
	if (o->cpuhang)
		fb_cpuhang(c, o->touch ? blk : NULL, len);
	if (!o->quit)
		for (;;)
			pause();	/* until the supervisor ends the group */
	fb_reap(c);
	_exit(0);
}

static double
tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

static void
report(const struct load_shm *shm, double wall, const char *ended)
{
	struct rusage ru;
	unsigned long long peak = atomic_load(&shm->counter[FB_PEAK]);

	getrusage(RUSAGE_CHILDREN, &ru);
	printf("Wall time:         %.3f s\n", wall);
	printf("User time:         %.3f s\n", tv(ru.ru_utime));
	printf("System time:       %.3f s\n", tv(ru.ru_stime));
	printf("Realloc calls:     %llu\n", atomic_load(&shm->counter[FB_REALLOCS]));
	printf("MB grown:          %.1f\n",
	    (double)atomic_load(&shm->scratch[FB_BYTES_GROWN]) / 1048576.0);
	printf("MB touched:        %.1f\n",
	    (double)atomic_load(&shm->scratch[FB_BYTES_TOUCHED]) / 1048576.0);
	printf("Realloc refused:   %lld\n", atomic_load(&shm->scratch[FB_REFUSED]));
	printf("Minor faults:      %ld\n", ru.ru_minflt);
	printf("Major faults:      %ld\n", ru.ru_majflt);
	printf("Processes reached: %llu\n", peak);
	printf("Processes forked:  %llu\n", atomic_load(&shm->counter[FB_FORKED]));
	printf("Fork failures:     %llu\n", atomic_load(&shm->counter[FB_FAILURES]));
	printf("Ended by:          %s\n", ended);
}

/* The bomb's root, in a process group of its own that dies with us. */
static pid_t
start_bomb(struct load_shm *shm, const struct fbopts *o)
{
	pid_t super = getpid();
	pid_t pid = fork();

	if (pid != 0) {
		if (pid > 0)
			setpgid(pid, pid);	/* no race with the child's own call */
		return pid;
	}
	struct load_ctx ctx = { .shm = shm, .ready_fd = -1 };
	sigset_t none;
	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (die_with_parent(super) < 0)
		_exit(1);
	bomb_root(&ctx, o);
}

/*
 * Asleep in waitfor() until the bomb's root ends (its status in *st),
 * reaping the orphans its dead hand back to us, or until a signal or the
 * safety timeout (*timed_out).  Returns why it ended; *failed: errno of a
 * wait that failed, or 0.
 */
static const char *
supervise(pid_t pid, double deadline, int *st, int *timed_out, int *failed)
{
	int st2;

	*st = *timed_out = *failed = 0;
	for (;;) {
		pid_t w;
		while ((w = waitpid(-1, &st2, WNOHANG)) > 0)
			if (w == pid) {
				*st = st2;
				return "--quit (actions done)";
			}
		if (w < 0 && errno != ECHILD) {
			*failed = errno;
			return "error";
		}
		if (got_signal)
			return "signal";
		enum waitfor_result r = waitfor(-1, WAITFOR_READ, deadline);
		if (r == WAITFOR_TIMEOUT) {
			*timed_out = 1;
			return "safety alarm";
		}
		if (r == WAITFOR_ERROR) {
			*failed = errno;
			return "error";
		}
	}
}

int
main(int argc, char **argv)
{
	struct fbopts o;
	struct load_shm *shm;
	int st, timed_out, failed;

	parse(argc, argv, &o);
	if (!(o.alloc || o.bomb || o.zombie || o.cpuhang)) {
		fputs("Nothing to do!\n", stderr);
		return 1;
	}
	if (geteuid() == 0 && !o.runasroot) {
		fputs("forkbomb: refusing to run as root without --runasroot\n", stderr);
		return 1;
	}
	shm = mmap(NULL, sizeof *shm, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED) {
		fprintf(stderr, "forkbomb: mmap: %s\n", strerror(errno));
		return 1;
	}
	/* The supervisor and the bomb's first process count against the cap. */
	atomic_store(&shm->scratch[FB_POP], 2);
	atomic_store(&shm->scratch[FB_LIVE], 2);
	atomic_store(&shm->counter[FB_PEAK], 2);
	(void)subreaper_acquire();	/* orphans come back to us */
	/* flag-only handlers; the signals arrive only inside waitfor() */
	waitfor_catch(on_signal, on_signal, 0);
	fflush(stdout);

	double t0 = mono_now();
	pid_t pid = start_bomb(shm, &o);
	if (pid < 0) {
		fprintf(stderr, "forkbomb: fork: %s\n", strerror(errno));
		return 1;
	}
	double deadline = o.alarm_on ? mono_now() + (double)o.maxtime : -1;
	const char *ended = supervise(pid, deadline, &st, &timed_out, &failed);
	if (failed)
		fprintf(stderr, "forkbomb: waiting for the bomb: %s\n", strerror(failed));
	/* Whatever is left of the bomb goes, then every orphan is reaped. */
	kill(-pid, SIGKILL);
	while (wait(NULL) > 0 || errno == EINTR)
		;
	report(shm, mono_now() - t0, ended);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "forkbomb: writing the report: %s\n", strerror(errno));
		return 1;
	}
	if (got_signal)
		return 128 + got_signal;
	if (failed)
		return 1;
	if (!timed_out && (WIFSIGNALED(st) || WEXITSTATUS(st) != 0)) {
		fprintf(stderr, "forkbomb: the bomb ended with status %d\n",
		    WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st));
		return 1;
	}
	return 0;
}
