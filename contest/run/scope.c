/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "scope.h"

static char why[256];

const char *
scope_why(void)
{
	return why[0] ? why : NULL;
}

const char *
scope_unit(void)
{
	const char *u = getenv("CONTEST_SCOPE");

	return u && strcmp(u, "0") != 0 && u[0] ? u : NULL;
}

/* The last path component of self that ends in suffix, into out. */
static int
unit_of(const char *self, const char *suffix, char *out, size_t len)
{
	const char *best = NULL, *p = self;
	size_t bestlen = 0, sl = strlen(suffix);

	while (*p) {
		size_t n = strcspn(p, "/");
		if (n > sl && strncmp(p + n - sl, suffix, sl) == 0)
			best = p, bestlen = n;
		p += n;
		p += strspn(p, "/");
	}
	if (best == NULL || bestlen >= len)
		return -1;
	snprintf(out, len, "%.*s", (int)bestlen, best);
	return 0;
}

/* An executable systemd-run on PATH, into out. */
static int
find_systemd_run(char *out, size_t len)
{
	const char *path = getenv("PATH");
	char dir[1024];

	if (path == NULL || *path == '\0')
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		if (n && n < sizeof dir) {
			snprintf(dir, sizeof dir, "%.*s", (int)n, path);
			if ((size_t)snprintf(out, len, "%s/systemd-run", dir) < len &&
			    access(out, X_OK) == 0)
				return 0;
		}
		path += n;
		path += *path == ':';
	}
	return -1;
}

/* systemd-run --scope ... -- exe run OPTIONS -- COMMAND: returns only
 * when it could not exec, with why set. */
static void
scope_exec(char *sdrun, char *exe, const char *self,
    const struct run_config *c, char *const cmd[], int ncmd)
{
	char unit[256], slice[256], name[64], desc[96], bind[300], slicearg[300];

	/* what was asked, from the config: parsing permuted argv */
	char **nargv = calloc(2 * c->ngiven + (size_t)ncmd + 16, sizeof *nargv);
	if (nargv == NULL)
		return;
	size_t i = 0;
	snprintf(name, sizeof name, "contest-%ld.scope", (long)getpid());
	snprintf(desc, sizeof desc, "--description=contest session %ld",
	    (long)getpid());
	nargv[i++] = sdrun;
	nargv[i++] = (char *)"--scope";
	nargv[i++] = (char *)"--quiet";
	nargv[i++] = (char *)"--collect";
	nargv[i++] = (char *)"--property=Delegate=yes";
	nargv[i++] = (char *)"--unit";
	nargv[i++] = name;
	nargv[i++] = desc;
	/* the scope ends with the unit we came from: a stopped nightly
	 * service or a closed login session takes contest with it.  No
	 * After=: a oneshot service is still starting while it runs us. */
	if (unit_of(self, ".service", unit, sizeof unit) == 0 ||
	    unit_of(self, ".scope", unit, sizeof unit) == 0) {
		snprintf(bind, sizeof bind, "--property=BindsTo=%s", unit);
		nargv[i++] = bind;
	}
	if (unit_of(self, ".slice", slice, sizeof slice) == 0) {
		snprintf(slicearg, sizeof slicearg, "--slice=%s", slice);
		nargv[i++] = slicearg;
	}
	nargv[i++] = (char *)"--";
	nargv[i++] = exe;
	nargv[i++] = (char *)"run";
	size_t o = i, owned = runopt_rerun_argv(c, cmd, ncmd, nargv + i);
	if (setenv("CONTEST_SCOPE", name, 1) == 0) {
		fflush(NULL);
		execv(sdrun, nargv);
	}
	snprintf(why, sizeof why, "no scope of its own: %.120s: %s", sdrun,
	    strerror(errno));
	unsetenv("CONTEST_SCOPE");
	for (size_t k = 0; k < owned; k++)
		free(nargv[o + k]);
	free(nargv);
}

void
scope_enter(const struct run_config *c, char *const cmd[], int ncmd)
{
	char self[1024], exe[4096], sdrun[1100];
	const char *cg = getenv("CONTEST_CGROUP"), *sc = getenv("CONTEST_SCOPE");
	struct stat st;
	ssize_t n;

	if ((cg && strcmp(cg, "0") == 0) || sc) {
		if (sc && strcmp(sc, "0") == 0)
			snprintf(why, sizeof why, "no scope of its own: CONTEST_SCOPE=0");
		return;
	}
	/* only where systemd runs the cgroups and ours keeps pids from us */
	if (stat("/run/systemd/system", &st) < 0 || !cg_pids_needs_scope(self,
	    sizeof self))
		return;
	if (geteuid() != 0) {
		snprintf(why, sizeof why, "no scope of its own: not root (run it "
		    "under systemd-run --user --scope -p Delegate=yes)");
		return;
	}
	if (find_systemd_run(sdrun, sizeof sdrun) < 0) {
		snprintf(why, sizeof why, "no scope of its own: no systemd-run");
		return;
	}
	if ((n = readlink("/proc/self/exe", exe, sizeof exe - 1)) < 0) {
		snprintf(why, sizeof why, "no scope of its own: /proc/self/exe: %s",
		    strerror(errno));
		return;
	}
	exe[n] = '\0';

	scope_exec(sdrun, exe, self, c, cmd, ncmd);
}
