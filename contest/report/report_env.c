/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What report and compare say under their tables about the rows: the
 * environment they ran in or what of it differed, what else differed
 * between two rows besides the label, and what a '?' means.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "report.h"

/* The fields of a row's environment, each with its name where the
 * rows differ. */
#define ENV_FIELDS_X(X) \
X(HOST, "host") \
X(KERNEL, "kernel") \
X(CPU, "cpu") \
X(NPROC, "nproc") \
X(MEMORY, "memory") \
X(CONTEST, "contest") \
X(SCHED, "sched") \
X(COMMAND, "command") \
X(CPUFREQ, "cpufreq") \
X(SMT, "smt") \
X(CLOCK, "clock") \
X(PREPARE, "prepare")
enum env_field {
#define ENV_ENUM(id, name) ENV_##id,
	ENV_FIELDS_X(ENV_ENUM)
#undef ENV_ENUM
	ENV_FIELDS
};
static const char *const env_names[ENV_FIELDS] = {
#define ENV_NAME(id, name) [ENV_##id] = name,
	ENV_FIELDS_X(ENV_NAME)
#undef ENV_NAME
};

/* Field w of a row's environment, as the report prints it. */
static const char *
env_value(char *buf, size_t len, const struct rrun *e, enum env_field w)
{
	switch (w) {
	case ENV_HOST: snprintf(buf, len, "%s", e->host); break;
	case ENV_KERNEL: snprintf(buf, len, "%s", e->kernel ? e->kernel : "?"); break;
	case ENV_CPU: snprintf(buf, len, "%s", e->cpu_model ? e->cpu_model : "?"); break;
	case ENV_NPROC: snprintf(buf, len, "%ld CPUs", e->nproc); break;
	case ENV_MEMORY: snprintf(buf, len, "%.1f GiB", (double)e->mem_kb / 1048576); break;
	case ENV_CONTEST: snprintf(buf, len, "contest %s", e->version ? e->version : "?"); break;
	case ENV_SCHED: snprintf(buf, len, "%s", e->sched && *e->sched ? e->sched :
	    "default scheduling"); break;
	case ENV_COMMAND: snprintf(buf, len, "%s", e->command); break;
	case ENV_CPUFREQ:
		if (e->governor && e->freq_max_khz > 0)
			snprintf(buf, len, "cpufreq %s, max %lld MHz", e->governor,
			    e->freq_max_khz / 1000);
		else if (e->governor)
			snprintf(buf, len, "cpufreq %s", e->governor);
		else
			snprintf(buf, len, "no cpufreq");
		break;
	case ENV_SMT: snprintf(buf, len, "SMT %s", e->smt < 0 ? "unknown" : e->smt ? "on" : "off"); break;
	case ENV_PREPARE:
		snprintf(buf, len, "%s%s", e->prepare ? e->prepare : "none",
		    e->prepare_inferred > 0 ? " (inferred: a make job)" : "");
		break;
	case ENV_CLOCK:
	default: snprintf(buf, len, "clocksource %s", e->clocksource ? e->clocksource : "unknown"); break;
	}
	return buf;
}

/* "HZ 250 vs 1000" into the list when a and b differ (NULL and -1: not
 * recorded, so nothing to tell). */
static void
differ_str(char *buf, size_t len, const char *name, const char *a,
    const char *b, int show)
{
	size_t used = strlen(buf);

	if (a == NULL || b == NULL || a == b || used >= len)
		return;		/* interned: the same text is the same pointer */
	if (show)
		snprintf(buf + used, len - used, "%s%s %s vs %s", used ? ", " : "",
		    name, a, b);
	else
		snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
}

static void
differ_num(char *buf, size_t len, const char *name, long a, long b)
{
	char x[32], y[32];

	if (a < 0 || b < 0 || a == b)
		return;
	snprintf(x, sizeof x, "%ld", a);
	snprintf(y, sizeof y, "%ld", b);
	size_t used = strlen(buf);
	if (used < len)
		snprintf(buf + used, len - used, "%s%s %s vs %s", used ? ", " : "",
		    name, x, y);
}

/*
 * Per pair of rows, what differed besides the label, so that a table
 * never silently compares two things at once: "6.1 vs 6.18: kernel, HZ
 * 250 vs 1000, sched_ext none vs enabled scx_lavd".
 */
void
differ_lines(FILE *f, const struct rset *rs, const size_t *rows, size_t nrows,
    int md)
{
	for (size_t i = 1; i < nrows; i++) {
		const struct rrun *a = rs->row[rows[i - 1]].env, *b = rs->row[rows[i]].env;
		char what[1024] = "";
		differ_str(what, sizeof what, "kernel", a->kernel, b->kernel, 0);
		size_t kernel_only = strlen(what);	/* the environment lines say it */
		differ_str(what, sizeof what, "build", rs->row[rows[i - 1]].build_id,
		    rs->row[rows[i]].build_id, 1);
		differ_num(what, sizeof what, "HZ", a->hz, b->hz);
		differ_str(what, sizeof what, "sched_ext", a->sched_ext, b->sched_ext, 1);
		differ_str(what, sizeof what, "preempt", a->preempt, b->preempt, 1);
		differ_num(what, sizeof what, "autogroup", a->autogroup, b->autogroup);
		differ_str(what, sizeof what, "config", a->config_sha256,
		    b->config_sha256, 0);
		differ_str(what, sizeof what, "cmdline", a->cmdline, b->cmdline, 0);
		differ_str(what, sizeof what, "mitigations", a->mitigations,
		    b->mitigations, 1);
		differ_str(what, sizeof what, "THP", a->thp, b->thp, 1);
		differ_str(what, sizeof what, "git HEAD", a->git_head, b->git_head, 0);
		differ_num(what, sizeof what, "tree dirty", a->git_dirty, b->git_dirty);
		differ_str(what, sizeof what, "cc", a->cc, b->cc, 0);
		differ_str(what, sizeof what, "ld", a->ld, b->ld, 0);
		if (strlen(what) > kernel_only)
			fprintf(f, "%s%s vs %s: %s\n", md ? "- " : "",
			    rs->row[rows[i - 1]].name, rs->row[rows[i]].name, what);
	}
}

/* How many boots each row's runs span, where they say: "boots: 6.18 3,
 * 6.19 1" (a row in one boot is one sample of its kernel); nothing for
 * a row alone in one boot. */
static void
boots_line(FILE *f, const struct rset *rs, const size_t *rows, size_t nrows,
    int md)
{
	const char *sep = "", *one = NULL;
	int apart = 0;

	/* rows of one boot (variants of a session, labels measured in it)
	 * are no news */
	for (size_t i = 0; i < nrows; i++) {
		const struct rrow *r = &rs->row[rows[i]];
		if (r->nboots > 1)
			apart = 1;
		else if (r->nboots == 1) {
			apart |= one && one != r->boots[0];
			one = r->boots[0];
		}
	}
	if (!apart)
		return;

	for (size_t i = 0; i < nrows; i++) {
		const struct rrow *r = &rs->row[rows[i]];
		if (r->nboots == 0)
			continue;
		fprintf(f, "%s%s %zu", *sep ? sep : md ? "- boots: " : "boots: ",
		    r->name, r->nboots);
		sep = ", ";
	}
	if (*sep)
		fputc('\n', f);
}

/*
 * What differed between the rows shown: host, kernel, CPU, nproc,
 * memory, contest version; or, when nothing did, the one environment.
 */
void
env_lines(FILE *f, const struct rset *rs, const size_t *rows, size_t nrows, int md)
{
	char first[ENV_FIELDS][128], v[128];
	int varies[ENV_FIELDS] = { 0 }, any = 0;

	if (nrows == 0)
		return;
	for (int w = 0; w < ENV_FIELDS; w++) {
		env_value(first[w], sizeof first[w], rs->row[rows[0]].env, w);
		for (size_t i = 1; i < nrows; i++)
			if (strcmp(env_value(v, sizeof v, rs->row[rows[i]].env, w),
			    first[w]) != 0)
				varies[w] = any = 1;
	}
	if (!any) {
		fprintf(f, "%senvironment: %s, %s, %s, %s, %s, %s, %s, %s, %s, %s\n"
		    "%scommand: %s\n%sprepare: %s\n", md ? "- " : "",
		    first[ENV_HOST], first[ENV_KERNEL], first[ENV_CPU],
		    first[ENV_NPROC], first[ENV_MEMORY], first[ENV_CPUFREQ],
		    first[ENV_SMT], first[ENV_CLOCK], first[ENV_CONTEST],
		    first[ENV_SCHED], md ? "- " : "", first[ENV_COMMAND],
		    md ? "- " : "", first[ENV_PREPARE]);
		boots_line(f, rs, rows, nrows, md);
		return;
	}
	fprintf(f, "%senvironment differs between the rows compared:\n", md ? "- " : "");
	for (int w = 0; w < ENV_FIELDS; w++) {
		if (!varies[w])
			continue;
		fprintf(f, "%s%-8s", md ? "  - " : "  ", env_names[w]);
		for (size_t i = 0; i < nrows; i++)
			fprintf(f, "%s %s: %s", i ? "," : "", rs->row[rows[i]].name,
			    env_value(v, sizeof v, rs->row[rows[i]].env, w));
		fputc('\n', f);
	}
	boots_line(f, rs, rows, nrows, md);
}

/* What a ? after Time means, naming only the reasons this table can have. */
void
noisy_legend(FILE *f, const struct rset *rs, const char *li, const char *advice)
{
	const char *why[4];
	char cv[64], thin[64];
	int n = 0, scx = 0;

	for (size_t k = 0; k < rs->nrow * rs->nblk; k++)
		scx |= rs->cell[k].scx_changed > 0;
	snprintf(cv, sizeof cv, "CoV of Time above %.0f%%", RSET_NOISY_CV * 100);
	snprintf(thin, sizeof thin, "fewer than %d runs", RSET_MIN_RUNS);
	why[n++] = cv;
	why[n++] = thin;
	if (rs->keep_suspect)
		why[n++] = "runs that may have done no work kept in";
	if (scx)
		why[n++] = "sched_ext changed during a run";
	fprintf(f, "%s?", li);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s", i == 0 ? " " : i == n - 1 ? n > 2 ? ", or " : " or " :
		    ", ", why[i]);
	fprintf(f, ": read with care%s.\n", advice);
}

