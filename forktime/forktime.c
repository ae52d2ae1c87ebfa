/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * forktime: how long creating a process or a thread takes, method by
 * method, with every sample kept.  Reaps as it goes (or after each
 * batch), so nothing piles up; usable as contest's foreground.
 */
#include "config.h"

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "json.h"
#include "methods.h"
#include "sys.h"
#include "waitfor.h"
#include "num.h"
#include "stats.h"
#include "buildver.h"

#define MAX_SAMPLES	10000000LL
#define MAX_BATCH	100000LL
#define MAX_KEEP_MS	60000LL

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };

struct result {
	const struct ft_method *m;
	const char	*skipped;	/* why it did not run, or NULL */
	double		*us;		/* the successful samples, in order */
	size_t		 ok, failed;
	int		 first_errno;
	double		 mean, min, max, p50, p90, p99, p999;
};

static void
on_signal(int sig)
{
	ft_stop = sig;
}

static void
on_child(int sig)
{
	(void)sig;	/* only here so that waitfor() returns */
}

static void
usage(FILE *f)
{
	fputs("usage: forktime [-n SAMPLES] [--warmup N] [--batch K] [--keep-alive MS]\n"
	    "                [--time create|roundtrip] [--reap wait|ignore]\n"
	    "                [--subtract-overhead] [--format text|csv|json] [--raw FILE]\n"
	    "                [METHOD]...\n"
	    "       forktime --help | --version\n\n"
	    "Time process and thread creation, method by method (default: all).\n"
	    "Times are microseconds, CLOCK_MONOTONIC around each sample.\n\n"
	    "  -n SAMPLES           samples per method (default 10000)\n"
	    "  --warmup N           unrecorded samples first (default 100)\n"
	    "  --batch K            create K before reaping any (needs --time create)\n"
	    "  --keep-alive MS      children and threads sleep MS before exiting\n"
	    "  --time create        time only the creating call, as the 2004 test did\n"
	    "  --time roundtrip     time create to reaped or joined (default)\n"
	    "  --reap ignore        SIGCHLD ignored: the kernel reaps (needs --time create)\n"
	    "  --subtract-overhead  take the cost of two clock reads off each sample\n"
	    "  --format FMT         text (default), csv or json\n"
	    "  --raw FILE           every sample as CSV: method,index,us\n\nmethods:\n", f);
	for (const struct ft_method *m = ft_methods; m->name; m++)
		fprintf(f, "  %-16s %s\n", m->name, m->summary);
	fputs("\nExit status: 0 every sample succeeded, 1 some creation failed or a\n"
	    "named method cannot run here, 2 bad usage, 128+N killed by signal N.\n", f);
}

static long long
number(const char *opt, const char *v, long long min, long long max)
{
	const char *why;
	long long n = num_parse(v, min, max, &why);

	if (why)
		errx(2, "%s: '%s' is %s (allowed %lld..%lld)", opt, v, why, min, max);
	return n;
}

/* The do-nothing helpers: $FORKTIME_HELPERS, next to us, or installed. */
static char *
helper(const char *name)
{
	char path[4200];
	const char *env = getenv("FORKTIME_HELPERS");

	if (env && *env)
		snprintf(path, sizeof path, "%s/%s", env, name);
	else if (helper_path(name, PKGLIBEXECDIR, path, sizeof path) < 0)
		errx(2, "%s: path too long", name);
	return strdup(path);
}

/* The cost of the two clock reads around a sample: their median. */
static double
clock_overhead(void)
{
	enum { N = 2001 };
	double *d = malloc(N * sizeof *d), m;

	if (d == NULL)
		return 0;
	for (int i = 0; i < N; i++) {
		double t0 = (mono_ns() / 1e3);
		d[i] = (mono_ns() / 1e3) - t0;
	}
	stats_sort(d, N);
	m = stats_percentile(d, N, 0.5);
	free(d);
	return m;
}

/*
 * Memory the parent writes between creations, kept out of the children
 * (MADV_DONTFORK): otherwise each fork write-protects it and the next
 * sample pays a copy-on-write fault that is the tool's, not the kernel's.
 */
static void *
private_alloc(size_t size)
{
	void *p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fputs("forktime: out of memory\n", stderr);
		exit(1);
	}
#ifdef MADV_DONTFORK
	madvise(p, size ? size : 1, MADV_DONTFORK);
#elif defined(INHERIT_NONE)
	minherit(p, size ? size : 1, INHERIT_NONE);
#endif
	return p;
}

static void
run_method(struct result *r, const struct ft_opts *o, size_t n, size_t warmup,
    double overhead)
{
	size_t kids_size = o->batch * sizeof(struct ft_child);
	struct ft_child *kids = private_alloc(kids_size);
	double *us = private_alloc(n * sizeof *us);
	size_t ok = 0, failed = 0;
	int first_errno = 0;

	for (size_t done = 0; done < warmup + n && !ft_stop;) {
		size_t k = 0;
		for (; k < o->batch && done < warmup + n && !ft_stop; k++, done++) {
			double t;
			kids[k] = (struct ft_child){ .pid = 0, .joinable = -1 };
			int e = r->m->one(o, &t, &kids[k]);
			if (done < warmup)
				continue;
			if (e) {
				if (failed++ == 0)
					first_errno = e;
				continue;
			}
			us[ok++] = overhead > 0 && t > overhead ? t - overhead : t;
		}
		ft_reap(o, kids, k);
		waitfor_poll();	/* a signal is seen here, between batches */
	}
	munmap(kids, kids_size ? kids_size : 1);
	if (o->reap == FT_REAP_IGNORE)
		/* with SIGCHLD ignored, wait returns ECHILD once all are gone;
		 * when stopping, kept-alive children die with us (PDEATHSIG) */
		while (!ft_stop && waitpid(-1, NULL, WNOHANG) == 0 &&
		    waitfor(-1, WAITFOR_READ, -1) != WAITFOR_ERROR)
			;
	r->ok = ok;
	r->failed = failed;
	r->first_errno = first_errno;
	r->us = malloc((ok ? ok : 1) * sizeof *r->us);
	if (r->us == NULL) {
		fputs("forktime: out of memory\n", stderr);
		exit(1);
	}
	memcpy(r->us, us, ok * sizeof *us);
	munmap(us, n ? n * sizeof *us : 1);

	double *sorted = malloc((r->ok ? r->ok : 1) * sizeof *sorted);
	if (sorted == NULL) {
		fputs("forktime: out of memory\n", stderr);
		exit(1);
	}
	memcpy(sorted, r->us, r->ok * sizeof *sorted);
	stats_sort(sorted, r->ok);
	r->mean = stats_mean(sorted, r->ok);
	r->min = r->ok ? sorted[0] : 0;
	r->max = r->ok ? sorted[r->ok - 1] : 0;
	r->p50 = stats_percentile(sorted, r->ok, 0.50);
	r->p90 = stats_percentile(sorted, r->ok, 0.90);
	r->p99 = stats_percentile(sorted, r->ok, 0.99);
	r->p999 = stats_percentile(sorted, r->ok, 0.999);
	free(sorted);
}

static double
thread_mean(const struct result *res, size_t nres)
{
	for (size_t i = 0; i < nres; i++)
		if (strcmp(res[i].m->name, "thread") == 0 && res[i].ok)
			return res[i].mean;
	return NAN;
}

static const char *
how_reaped(const struct ft_opts *o)
{
	if (o->reap == FT_REAP_IGNORE)
		return "SIGCHLD ignored: the kernel reaps each child as it exits";
	if (o->time == FT_ROUNDTRIP)
		return "each reaped or joined before the next";
	if (o->batch > 1)
		return "reaped after each batch";
	return "each reaped or joined right after its sample";
}

static void
print_text(const struct result *res, size_t nres, const struct ft_opts *o,
    size_t n, size_t warmup, double overhead, int subtract)
{
	double tm = thread_mean(res, nres);

	printf("forktime: %zu samples per method after %zu warmup, timing %s; "
	    "batches of %u, keep-alive %u ms; %s\n", n, warmup,
	    o->time == FT_CREATE ? "the creating call (create)" :
	    "create to reaped or joined (roundtrip)", o->batch, o->keep_ms,
	    how_reaped(o));
	printf("clock overhead %.3f us per sample (two clock reads), %s\n\n",
	    overhead, subtract ? "subtracted" : "not subtracted");
	printf("%-16s %7s %6s %9s %9s %9s %9s %9s %9s %9s %8s\n", "method", "ok",
	    "fail", "mean", "p50", "p90", "p99", "p99.9", "min", "max", "/thread");
	for (size_t i = 0; i < nres; i++) {
		const struct result *r = &res[i];
		if (r->skipped) {
			printf("%-16s skipped: %s\n", r->m->name, r->skipped);
			continue;
		}
		printf("%-16s %7zu %6zu", r->m->name, r->ok, r->failed);
		if (r->ok == 0) {
			printf(" %9s %9s %9s %9s %9s %9s %9s %8s\n", "-", "-", "-", "-",
			    "-", "-", "-", "-");
			continue;
		}
		printf(" %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f", r->mean, r->p50,
		    r->p90, r->p99, r->p999, r->min, r->max);
		if (isnan(tm))
			printf(" %8s\n", "-");
		else
			printf(" %8.2f\n", r->mean / tm);
	}
	printf("\nmicroseconds; /thread: the method's mean over thread's mean\n");
	for (size_t i = 0; i < nres; i++)
		if (res[i].failed)
			printf("%s: %zu creation%s failed, the first with %s\n",
			    res[i].m->name, res[i].failed, res[i].failed == 1 ? "" : "s",
			    strerror(res[i].first_errno));
}

static void
print_csv(const struct result *res, size_t nres, const struct ft_opts *o,
    double overhead, int subtract)
{
	double tm = thread_mean(res, nres);

	printf("method,ok,failed,mean_us,p50_us,p90_us,p99_us,p999_us,min_us,max_us,"
	    "ratio_to_thread,overhead_us,overhead_subtracted,time,batch,keep_alive_ms,"
	    "skipped\n");
	for (size_t i = 0; i < nres; i++) {
		const struct result *r = &res[i];
		printf("%s,%zu,%zu,", r->m->name, r->ok, r->failed);
		if (r->ok)
			printf("%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,", r->mean, r->p50,
			    r->p90, r->p99, r->p999, r->min, r->max);
		else
			fputs(",,,,,,,", stdout);
		if (r->ok && !isnan(tm))
			printf("%.4f", r->mean / tm);
		printf(",%.4f,%d,%s,%u,%u,", overhead, subtract,
		    o->time == FT_CREATE ? "create" : "roundtrip", o->batch, o->keep_ms);
		if (r->skipped)
			printf("\"%s\"", r->skipped);
		putchar('\n');
	}
}

static void
print_json(const struct result *res, size_t nres, const struct ft_opts *o,
    size_t n, size_t warmup, double overhead, int subtract)
{
	double tm = thread_mean(res, nres);
	struct json j;

	json_init(&j);
	json_obj_begin(&j);
	json_kstr(&j, "forktime", contest_build);
	json_kuint(&j, "samples", n);
	json_kuint(&j, "warmup", warmup);
	json_kstr(&j, "time", o->time == FT_CREATE ? "create" : "roundtrip");
	json_kstr(&j, "reap", o->reap == FT_REAP_IGNORE ? "ignore" : "wait");
	json_kuint(&j, "batch", o->batch);
	json_kuint(&j, "keep_alive_ms", o->keep_ms);
	json_knum(&j, "overhead_us", overhead, 4);
	json_kbool(&j, "overhead_subtracted", subtract);
	json_key(&j, "methods");
	json_arr_begin(&j);
	for (size_t i = 0; i < nres; i++) {
		const struct result *r = &res[i];
		json_obj_begin(&j);
		json_kstr(&j, "method", r->m->name);
		if (r->skipped)
			json_kstr(&j, "skipped", r->skipped);
		json_kuint(&j, "ok", r->ok);
		json_kuint(&j, "failed", r->failed);
		if (r->failed)
			json_kstr(&j, "first_error", strerror(r->first_errno));
		double v[] = { r->mean, r->p50, r->p90, r->p99, r->p999, r->min, r->max };
		const char *k[] = { "mean_us", "p50_us", "p90_us", "p99_us", "p999_us",
		    "min_us", "max_us" };
		for (int f = 0; f < 7; f++)
			json_knum(&j, k[f], r->ok ? v[f] : NAN, 3);
		json_knum(&j, "ratio_to_thread", r->ok ? r->mean / tm : NAN, 4);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	if (json_text(&j) == NULL) {
		fputs("forktime: out of memory\n", stderr);
		exit(1);
	}
	puts(json_text(&j));
	json_free(&j);
}

static int
write_raw(const char *path, const struct result *res, size_t nres)
{
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		fprintf(stderr, "forktime: %s: %s\n", path, strerror(errno));
		return -1;
	}
	fputs("method,index,us\n", f);
	for (size_t i = 0; i < nres; i++)
		for (size_t s = 0; s < res[i].ok; s++)
			fprintf(f, "%s,%zu,%.3f\n", res[i].m->name, s, res[i].us[s]);
	if (fflush(f) != 0 || ferror(f) || fclose(f) != 0) {
		fprintf(stderr, "forktime: %s: %s\n", path, strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

/* What the command line asks for beside the methods. */
struct cli {
	struct ft_opts	 o;
	size_t		 n, warmup;
	int		 subtract;
	enum fmt	 fmt;
	const char	*raw;
};

/* Long options with no letter of their own. */
enum {
	OPT_WARMUP = 256, OPT_BATCH, OPT_KEEP, OPT_TIME, OPT_REAP, OPT_SUBTRACT,
	OPT_FORMAT, OPT_RAW, OPT_VERSION,
};

static const struct option longopts[] = {
	{ "warmup", required_argument, NULL, OPT_WARMUP },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "keep-alive", required_argument, NULL, OPT_KEEP },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "reap", required_argument, NULL, OPT_REAP },
	{ "subtract-overhead", no_argument, NULL, OPT_SUBTRACT },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "raw", required_argument, NULL, OPT_RAW },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* One word of a closed set: its index in words[], or exit 2 naming them. */
static int
choice(const char *opt, const char *arg, const char *const *words, const char *said)
{
	for (int i = 0; words[i]; i++)
		if (strcmp(arg, words[i]) == 0)
			return i;
	errx(2, "%s: '%s' is not %s", opt, arg, said);
}

/* The options, each checked (bad input: one line, exit 2); --help and
 * --version answered here.  Returns optind. */
static int
parse_args(int argc, char **argv, struct cli *c)
{
	static const char *const times[] = { "create", "roundtrip", NULL };
	static const char *const reaps[] = { "wait", "ignore", NULL };
	static const char *const fmts[] = { "text", "csv", "json", NULL };
	int ch, batch_set = 0;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":n:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'n':
			c->n = (size_t)number("-n", optarg, 1, MAX_SAMPLES);
			break;
		case OPT_WARMUP:
			c->warmup = (size_t)number("--warmup", optarg, 0, MAX_SAMPLES);
			break;
		case OPT_BATCH:
			c->o.batch = (unsigned)number("--batch", optarg, 1, MAX_BATCH);
			batch_set = 1;
			break;
		case OPT_KEEP:
			c->o.keep_ms = (unsigned)number("--keep-alive", optarg, 0, MAX_KEEP_MS);
			break;
		case OPT_TIME:
			c->o.time = choice("--time", optarg, times, "create or roundtrip") ?
			    FT_ROUNDTRIP : FT_CREATE;
			break;
		case OPT_REAP:
			c->o.reap = choice("--reap", optarg, reaps, "wait or ignore") ?
			    FT_REAP_IGNORE : FT_REAP_WAIT;
			break;
		case OPT_SUBTRACT:
			c->subtract = 1;
			break;
		case OPT_FORMAT:
			c->fmt = (enum fmt)choice("--format", optarg, fmts,
			    "text, csv or json");
			break;
		case OPT_RAW:
			if (*optarg == '\0')
				errx(2, "--raw: empty file name");
			c->raw = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(fflush(stdout) != 0 || ferror(stdout));
		case OPT_VERSION:
			printf("forktime (contest) %s\n%s\n", contest_build, CONTEST_LICENCE);
			exit(fflush(stdout) != 0 || ferror(stdout));
		case ':':
			errx(2, "option '%s' needs a value (see forktime --help)",
			    argv[optind - 1]);
		default:
			errx(2, "unknown option '%s' (see forktime --help)",
			    optopt > 0 && optopt < OPT_WARMUP ?
			    (char[]){ '-', (char)optopt, '\0' } : argv[optind - 1]);
		}
	}
	if (c->o.time == FT_ROUNDTRIP && batch_set && c->o.batch > 1)
		errx(2, "--batch needs --time create: a batch has no per-sample round trip");
	if (c->o.time == FT_ROUNDTRIP && c->o.reap == FT_REAP_IGNORE)
		errx(2, "--reap ignore needs --time create: nothing waits for the child");
	return optind;
}

/* The methods named (each once), else all; 1 when one named cannot run
 * here (not running what was asked for is a failure). */
static int
pick_methods(char **names, int nnames, const struct ft_opts *o,
    struct result *res, size_t *nres)
{
	int rc = 0;

	memset(res, 0, FT_NMETHODS * sizeof *res);
	*nres = 0;
	for (int i = 0; i < nnames; i++) {
		const struct ft_method *m = ft_method_find(names[i]);
		if (m == NULL)
			errx(2, "unknown method '%s' (see forktime --help)", names[i]);
		for (size_t k = 0; k < *nres; k++)
			if (res[k].m == m)
				errx(2, "method '%s' named twice", names[i]);
		res[(*nres)++].m = m;
	}
	if (nnames == 0)
		for (const struct ft_method *m = ft_methods; m->name; m++)
			res[(*nres)++].m = m;
	for (size_t i = 0; i < *nres; i++) {
		res[i].skipped = res[i].m->unavailable(o);
		if (res[i].skipped && nnames) {
			fprintf(stderr, "forktime: %s: %s\n", res[i].m->name, res[i].skipped);
			rc = 1;
		}
	}
	return rc;
}

/* The results in the format asked for, and the raw samples; 1 on a
 * failed method or a failed write. */
static int
print_results(const struct result *res, size_t nres, const struct cli *c,
    double overhead)
{
	int rc = 0;

	for (size_t i = 0; i < nres; i++)
		if (res[i].failed)
			rc = 1;
	if (c->fmt == FMT_CSV)
		print_csv(res, nres, &c->o, overhead, c->subtract);
	else if (c->fmt == FMT_JSON)
		print_json(res, nres, &c->o, c->n, c->warmup, overhead, c->subtract);
	else
		print_text(res, nres, &c->o, c->n, c->warmup, overhead, c->subtract);
	if (c->raw && write_raw(c->raw, res, nres) < 0)
		rc = 1;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "forktime: stdout: %s\n", strerror(errno ? errno : EIO));
		rc = 1;
	}
	return rc;
}

int
main(int argc, char **argv)
{
	struct cli c = { { FT_ROUNDTRIP, FT_REAP_WAIT, 0, 1, NULL, NULL }, 10000, 100,
	    0, FMT_TEXT, NULL };
	struct result res[FT_NMETHODS];
	size_t nres;

	int first = parse_args(argc, argv, &c);
	c.o.nop_static = helper("nop-static");
	c.o.nop_dynamic = helper("nop-dynamic");
	int rc = pick_methods(argv + first, argc - first, &c.o, res, &nres);
	/* flag-only handlers, the signals let in only inside waitfor();
	 * SIGCHLD wakes a wait, and with --reap ignore the kernel reaps */
	waitfor_catch(on_signal, on_child,
	    c.o.reap == FT_REAP_IGNORE ? SA_NOCLDWAIT : 0);
	double overhead = clock_overhead();
	for (size_t i = 0; i < nres && !ft_stop; i++)
		if (!res[i].skipped)
			run_method(&res[i], &c.o, c.n, c.warmup, c.subtract ? overhead : 0);
	if (ft_stop) {
		fprintf(stderr, "forktime: interrupted by signal %d\n", (int)ft_stop);
		rc = 128 + ft_stop;
	} else if (print_results(res, nres, &c, overhead))
		rc = 1;
	for (size_t i = 0; i < nres; i++)
		free(res[i].us);
	free((char *)c.o.nop_static);
	free((char *)c.o.nop_dynamic);
	return rc;
}
