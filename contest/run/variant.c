/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Variants (variant.h): parsed from --variant, ordered within rounds by a
 * Williams design, and switched to before each run: a command run as the
 * prepare step is, or a program kept running during the variant's runs,
 * contained as a load is (its own process group on the watchdog's list,
 * a cgroup of its own, killed with the driver), and a sched_ext scheduler
 * waited for until sched_ext says it is in force.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "num.h"
#include "proc.h"
#include "provenance.h"
#include "util.h"
#include "variant.h"
#include "waitfor.h"

/* How long a scheduler may take to attach, and a program to go. */
#define VARIANT_READY_S	30
#define VARIANT_STOP_S	10
#define VARIANT_POLL_S	0.02	/* sched_ext's state has no event to sleep on */

static int
name_ok(const char *s, size_t n)
{
	if (n == 0 || n > VARIANT_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') || strchr("._+-", s[i])))
			return 0;
	return 1;
}

/* One key of "NAME:key=val,...": its value runs to ',' or '=' (then the
 * command); *p moves past it.  0, or -1 with why. */
static int
variant_key(const char **p, struct variant *v, char *err, size_t len)
{
	const char *k = *p;
	size_t kl = strcspn(k, "=,");
	const char *val = k[kl] == '=' ? k + kl + 1 : NULL;
	char buf[32];

	if (kl == 4 && strncmp(k, "keep", 4) == 0)
		v->kind = v->kind == VK_SCHED_EXT ? VK_SCHED_EXT : VK_PROGRAM;
	else if (kl == 9 && strncmp(k, "sched-ext", 9) == 0)
		v->kind = VK_SCHED_EXT;
	else if ((kl == 9 && strncmp(k, "load-nice", 9) == 0) ||
	    (kl == 11 && strncmp(k, "load-policy", 11) == 0)) {
		size_t vl = val ? strcspn(val, "=,") : 0;
		struct sched_set pol;
		const char *why;
		if (val == NULL || vl == 0 || vl >= sizeof buf) {
			snprintf(err, len, "--variant %s: %.*s needs a value", v->name,
			    (int)kl, k);
			return -1;
		}
		snprintf(buf, sizeof buf, "%.*s", (int)vl, val);
		if (kl == 9) {
			v->nice = (int)num_parse(buf, -20, 19, &why);
			if (why) {
				snprintf(err, len, "--variant %s: load-nice '%s' is %s "
				    "(allowed -20..19)", v->name, buf, why);
				return -1;
			}
			v->has_nice = 1;
		} else if (sched_policy_parse(buf, 0, &pol) < 0) {
			snprintf(err, len, "--variant %s: load-policy '%s' is not other, "
			    "batch or idle", v->name, buf);
			return -1;
		} else {
			v->has_policy = 1;
			v->policy = pol.policy;
		}
		*p = val + vl;
		return 0;
	} else {
		snprintf(err, len, "--variant %s: unknown key '%.*s' (load-nice, "
		    "load-policy, keep, sched-ext)", v->name, (int)kl, k);
		return -1;
	}
	*p = k + kl;
	return 0;
}

int
variant_parse(const char *spec, struct variant *v, char *err, size_t len)
{
	size_t n = strcspn(spec, ":=");
	const char *p = spec + n;

	memset(v, 0, sizeof *v);
	v->pgid = -1;
	v->cg.procs_fd = v->cg.pids_fd = v->cg.dir_fd = -1;
	if (!name_ok(spec, n)) {
		snprintf(err, len, "--variant '%s': a NAME of 1..%d letters, digits, "
		    "'.', '_', '+' or '-' first", spec, VARIANT_NAME_MAX);
		return -1;
	}
	memcpy(v->name, spec, n);
	if (*p == ':') {
		do {
			p++;
			if (variant_key(&p, v, err, len) < 0)
				return -1;
		} while (*p == ',');
	}
	if (*p == '=') {
		if (p[1] == '\0') {
			snprintf(err, len, "--variant %s: an empty command", v->name);
			return -1;
		}
		v->cmd = p + 1;
		if (v->kind == VK_NONE)
			v->kind = VK_COMMAND;
	} else if (*p) {
		snprintf(err, len, "--variant %s: '%s' is not NAME[:key=val,...][=CMD]",
		    v->name, spec);
		return -1;
	}
	if ((v->kind == VK_PROGRAM || v->kind == VK_SCHED_EXT) && v->cmd == NULL) {
		snprintf(err, len, "--variant %s: %s needs a command to keep running "
		    "(NAME:%s=CMD)", v->name, v->kind == VK_PROGRAM ? "keep" : "sched-ext",
		    v->kind == VK_PROGRAM ? "keep" : "sched-ext");
		return -1;
	}
	return 0;
}

int
variant_sched(struct variant *v, const struct sched_opts *session, char *err,
    size_t len)
{
	v->sched = *session;
	if (v->has_nice) {
		v->sched.load.has_nice = 1;
		v->sched.load.nice = v->nice;
	}
	if (v->has_policy) {
		v->sched.load.has_policy = 1;
		v->sched.load.policy = v->policy;
	}
	if (sched_check(&v->sched.load, err, len) < 0)
		return -1;
	sched_describe(&v->sched, v->sched_text, sizeof v->sched_text);
	return 0;
}

size_t
variant_rows(size_t n)
{
	return n % 2 ? 2 * n : n;
}

void
variant_order(size_t n, unsigned row, size_t *out)
{
	size_t rows = variant_rows(n), r = row % rows, shift = r % n;

	/* Williams' first row, 0 1 n-1 2 n-2 ..., shifted by the row; an odd
	 * n's second n rows are the first n reversed */
	for (size_t j = 0; j < n; j++) {
		size_t a = j == 0 ? 0 : j % 2 ? (j + 1) / 2 : n - j / 2;
		size_t at = r < n ? j : n - 1 - j;
		out[at] = (a + shift) % n;
	}
}

/* Whether the kept program's leader still runs (its zombie not yet reaped
 * counts as gone; reaped elsewhere, ECHILD, too). */
static int
alive(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof si);
	if (pid <= 0 || waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0)
		return 0;
	return si.si_pid == 0;
}

/* What sched_ext should say during a run of v. */
static const char *
scx_expected(const struct variant *v, const char *scx0)
{
	return v->kind == VK_SCHED_EXT ? v->scx : scx0;
}

/* Wait, asleep, until sched_ext says what want says (prefix: "enabled "
 * and any scheduler) or the program is gone; 0, 1 if interrupted, -1
 * when the deadline passed or the program went. */
static int
await_scx(const struct variant *v, const char *want, int prefix, double secs,
    char *now, size_t len)
{
	double deadline = mono_now() + secs;

	for (;;) {
		provenance_sched_ext(now, len);
		if (prefix ? strncmp(now, want, strlen(want)) == 0 && now[strlen(want)] :
		    strcmp(now, want) == 0)
			return 0;
		if (proc_signal)
			return 1;
		if (mono_now() >= deadline || (v && !alive(v->pgid)))
			return -1;
		waitfor(-1, WAITFOR_READ, mono_now() + VARIANT_POLL_S);
	}
}

/* The command run to its end, as --prepare is: 0, 1 if interrupted, -1. */
static int
run_command(struct variant *v, int log_fd, char *why, size_t len)
{
	char *argv[] = { "/bin/sh", "-c", (char *)v->cmd, NULL };
	struct exec_fail f;
	struct rusage ru;
	int st;

	/* what the command may read: which variant it switches to */
	setenv("CONTEST_VARIANT", v->name, 1);
	pid_t pid = proc_exec(argv, log_fd, -1, NULL, &f, NULL);
	unsetenv("CONTEST_VARIANT");
	if (pid < 0) {
		snprintf(why, len, "--variant %s: cannot run its "
		    "command: %s", v->name, f.why[0] ? f.why : strerror(f.err));
		return -1;
	}
	int w = proc_wait(pid, &st, &ru);
	int we = errno;
	proc_kill_group(pid, NULL, 0, NULL);
	if (w < 0 && !proc_signal)
		fatal(1, "waiting for --variant %s's command: %s", v->name, strerror(we));
	if (w < 0)
		return 1;
	if (st != 0) {
		snprintf(why, len, "--variant %s: '%.300s' exited with "
		    "status %d", v->name, v->cmd, proc_exit_code(st));
		return -1;
	}
	return 0;
}

/* The program started, in a cgroup of its own under the session's, and
 * (a scheduler) waited for: 0, 1 if interrupted, -1. */
static int
start_program(struct variant *v, int log_fd, const char *scx0, char *why,
    size_t len)
{
	char *argv[] = { "/bin/sh", "-c", (char *)v->cmd, NULL };
	struct exec_fail f;
	char now[160];

	if (cg_session_path()) {
		char name[VARIANT_NAME_MAX + 16];
		snprintf(name, sizeof name, "variant-%s", v->name);
		if (cg_create(&v->cg, name, -1) < 0) {
			snprintf(why, len, "--variant %s: cannot make its "
			    "cgroup: %s", v->name, strerror(errno));
			return -1;
		}
	}
	setenv("CONTEST_VARIANT", v->name, 1);
	proc_cgroup_next(v->cg.procs_fd >= 0 ? &v->cg : NULL);
	pid_t pid = proc_exec(argv, log_fd, -1, NULL, &f, NULL);
	proc_cgroup_next(NULL);
	unsetenv("CONTEST_VARIANT");
	if (pid < 0) {
		cg_destroy(&v->cg);
		snprintf(why, len, "--variant %s: cannot start its "
		    "program: %s", v->name, f.why[0] ? f.why : strerror(f.err));
		return -1;
	}
	v->pgid = pid;
	if (v->kind != VK_SCHED_EXT)
		return 0;
	/* from what was in force (scx0) to a scheduler of its own */
	int r = await_scx(v, "enabled ", 1, VARIANT_READY_S, now, sizeof now);
	if (r > 0)
		return 1;
	if (r < 0 || strcmp(now, scx0) == 0) {
		snprintf(why, len, "--variant %s: sched_ext %s (it says "
		    "'%s')", v->name, alive(v->pgid) ? "not enabled within 30 s of its "
		    "start" : "not enabled: its program exited", now);
		return -1;
	}
	snprintf(v->scx, sizeof v->scx, "%s", now);
	return 0;
}

int
variant_enter(struct variant *v, int log_fd, const char *scx0, char *why,
    size_t len)
{
	char now[160];
	int r = 0;

	if (v->kind == VK_COMMAND)
		r = run_command(v, log_fd, why, len);
	else if (v->kind != VK_NONE && v->pgid <= 0)
		r = start_program(v, log_fd, scx0, why, len);
	if (r != 0)
		return r;
	if (v->kind != VK_NONE && v->kind != VK_COMMAND && !alive(v->pgid)) {
		snprintf(why, len, "--variant %s: its program exited before the run",
		    v->name);
		return -1;
	}
	provenance_sched_ext(now, sizeof now);
	if (strcmp(now, scx_expected(v, scx0)) != 0) {
		snprintf(why, len, "--variant %s: sched_ext says '%.120s' before the "
		    "run, not the variant's '%.120s'", v->name, now,
		    scx_expected(v, scx0));
		return -1;
	}
	return 0;
}

int
variant_check(const struct variant *v, const char *scx0, const char *before,
    const char *after, char *why, size_t len)
{
	const char *want = scx_expected(v, scx0);

	if (strcmp(before, want) != 0 || strcmp(after, want) != 0) {
		snprintf(why, len, "--variant %s: the run saw sched_ext '%.120s' then "
		    "'%.120s', not the variant's '%.120s'", v->name, before, after, want);
		return -1;
	}
	if (v->kind != VK_NONE && v->kind != VK_COMMAND && !alive(v->pgid)) {
		snprintf(why, len, "--variant %s: its program exited during the run",
		    v->name);
		return -1;
	}
	return 0;
}

void
variant_leave(struct variant *v, const char *scx0)
{
	char now[160];

	if (v->pgid <= 0)
		return;
	/* asked to go (a scheduler detaches on TERM), every process of its
	 * group seen gone (each comes back to us to be reaped), then made to */
	kill(-v->pgid, SIGTERM);
	double deadline = mono_now() + VARIANT_STOP_S;
	for (;;) {
		pid_t r;
		while ((r = waitpid(-v->pgid, NULL, WNOHANG)) > 0)
			;
		if (r < 0 || proc_signal || mono_now() >= deadline)
			break;
		waitfor(-1, WAITFOR_READ, deadline);
	}
	proc_kill_group(v->pgid, NULL, 0, NULL);
	cg_destroy(&v->cg);
	v->pgid = -1;
	/* the kernel ends a scheduler whose program is gone, a moment later */
	if (v->kind == VK_SCHED_EXT && !proc_signal &&
	    await_scx(NULL, scx0, 0, VARIANT_STOP_S, now, sizeof now) < 0)
		warnmsg("--variant %s: sched_ext still says '%s' after its program "
		    "ended", v->name, now);
}
