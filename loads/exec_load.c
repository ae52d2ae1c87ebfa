/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exec_load: any command as a load, run by /bin/sh in a loop: how tar,
 * dbench or hackbench loads are made.  Each completion is counted and
 * timed.  A command that fails the first time fails the run (a typo must
 * not look like a light load); later failures are counted, with a pause
 * of 1 ms doubling to 1 s after each.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "load.h"

enum { OPT_CMD };
enum { C_DONE, C_FAILED };

static const struct load_opt opts[] = {
	[OPT_CMD] = { .key = "cmd", .type = LOAD_OPT_STR,
	    .flags = LOAD_OPT_REST | LOAD_OPT_REQUIRED,
	    .help = "shell command run over and over" },
	{ .key = NULL },
};

static const struct load_counter counters[] = {
	[C_DONE] = { "completions", "Completions", "runs",
	    "runs of the command that exited 0", LOAD_SUM },
	[C_FAILED] = { "failures", "Failures", "runs",
	    "runs that exited non-zero or were killed (after the first success)",
	    LOAD_SUM },
	{ .id = NULL },
};

/* Run cmd once; its wait status, or -1 with errno. */
static int
run_once(struct load_ctx *c, const char *cmd)
{
	int st;
	pid_t pid = load_fork(c);

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

static int
exec_load_run(struct load_ctx *c)
{
	const char *cmd = c->str[OPT_CMD];
	unsigned step = 0;

	/* The first run proves the command works before the job starts. */
	unsigned long long t0 = mono_ns();
	int st = run_once(c, cmd);
	if (st < 0)
		return load_fail(c, "cannot run '%s': %s", cmd, strerror(errno));
	if (st != 0)
		return load_fail(c, "'%s' %s %d on its first run", cmd,
		    WIFSIGNALED(st) ? "was killed by signal" : "exited with status",
		    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	load_latency(c, mono_ns() - t0);
	load_count(c, C_DONE, 1);
	load_unit(c);
	load_ready(c);
	for (;;) {
		t0 = mono_ns();
		st = run_once(c, cmd);
		if (st < 0) {
			if (errno != EAGAIN && errno != ENOMEM)
				return load_fail(c, "fork: %s", strerror(errno));
			load_count(c, C_FAILED, 1);
			load_backoff(&step);
			continue;
		}
		if (st != 0) {
			/* a command that keeps failing is not respawned in a
			 * tight loop: 1 ms doubling to 1 s between tries */
			load_count(c, C_FAILED, 1);
			load_backoff_to(&step, 10);
			continue;
		}
		step = 0;
		load_latency(c, mono_ns() - t0);
		load_count(c, C_DONE, 1);
		load_unit(c);
	}
}

const struct load load_exec_load = {
	.name = "exec_load",
	.summary = "run a shell command over and over (tar, dbench, hackbench...)",
	.opts = opts,
	.counters = counters,
	.latency = "Command duration",
	.run = exec_load_run,
};
