/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "cgroup_find.h"
#include "util.h"
#include "waitfor.h"

static char session[4096];
static pid_t owner;
/* Where a load's pids.max is written: the v2 session itself when the pids
 * controller could be enabled in it, else a v1 pids hierarchy's. */
static int pids_where;		/* 2, 1, or 0: none */
static char pids_session[4096];	/* the v1 directory */
static char pids_none[256];
static char self_dir[4096];	/* our own cgroup, the session's parent */
static const char *where;

const char *
cg_session_path(void)
{
	return session[0] ? session : NULL;
}

/* Every directory below path, then path: what the runs left, emptied. */
static void
remove_tree(const char *path)
{
	char sub[4200];
	DIR *d;
	struct dirent *de;

	if ((d = opendir(path)) != NULL) {
		while ((de = readdir(d)) != NULL)
			if (de->d_name[0] != '.' &&
			    (size_t)snprintf(sub, sizeof sub, "%s/%s", path,
			    de->d_name) < sizeof sub)
				rmdir(sub);	/* the run cgroups; files refuse */
		closedir(d);
	}
	rmdir(path);
}

static void
session_remove(void)
{
	if (getpid() != owner)
		return;
	if (session[0])
		rmdir(session);
	if (pids_session[0])
		remove_tree(pids_session);
}

/*
 * A cgroup cg_delegated to us (systemd's Delegate=yes) that holds no one
 * but us can give the session pids.  We move into a leaf of our own
 * first: a cgroup with processes in it that enables a controller below
 * it becomes a thread root, and threaded children have no cgroup.kill.
 */
static int
pids_from_delegated(void)
{
	char leaf[4200];

	if (!cg_delegated(self_dir) || !cg_has_word(self_dir, "cgroup.controllers", "pids") ||
	    (size_t)snprintf(leaf, sizeof leaf, "%s/driver", self_dir) >= sizeof leaf ||
	    cg_move_ours(self_dir, leaf) < 0 ||
	    cg_write_file(self_dir, "cgroup.subtree_control", "+pids") < 0)
		return -1;
	return cg_write_file(session, "cgroup.subtree_control", "+pids");
}

/*
 * pids.max for every load: enabled in the session's own subtree where
 * the v2 hierarchy offers the controller, or in our cg_delegated cgroup,
 * else in a v1 pids hierarchy (as on machines where pids is bound to
 * v1).
 */
static void
pids_init(void)
{
	char mnt[1024], self[1024];

	where = "our own cgroup";
	if (cg_write_file(session, "cgroup.subtree_control", "+pids") == 0) {
		pids_where = 2;
		return;
	}
	if (pids_from_delegated() == 0) {
		pids_where = 2;
		where = "a cgroup cg_delegated to us";
		return;
	}
	if (cg_find_line("/proc/self/mountinfo", cg_v1_pids_mount, mnt, sizeof mnt) < 0 ||
	    cg_find_line("/proc/self/cgroup", cg_v1_pids_self, self, sizeof self) < 0) {
		snprintf(pids_none, sizeof pids_none, "no pids controller: not "
		    "enabled for us in cgroup v2, no v1 pids hierarchy");
		return;
	}
	snprintf(pids_session, sizeof pids_session, "%s%s%scontest-%ld", mnt, self,
	    self[strlen(self) - 1] == '/' ? "" : "/", (long)getpid());
	if (mkdir(pids_session, 0755) < 0) {
		snprintf(pids_none, sizeof pids_none, "no pids controller: cannot "
		    "make a cgroup in the v1 pids hierarchy %.60s: %.60s", mnt, strerror(errno));
		pids_session[0] = '\0';
		return;
	}
	pids_where = 1;
}

int
cg_controllers(char *job, size_t jlen, char *loads, size_t llen)
{
	char path[4200], buf[512];

	if (session[0] == '\0')
		return -1;
	snprintf(path, sizeof path, "%s/cgroup.subtree_control", session);
	if (read_small(path, buf, sizeof buf) < 0)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	snprintf(job, jlen, "%s", buf);
	snprintf(loads, llen, "%s%s%s", buf, buf[0] && pids_where == 1 ? " " : "",
	    pids_where == 1 ? "pids (v1)" : "");
	return 0;
}

const char *
cg_where(void)
{
	return session[0] ? where : NULL;
}

/* Our own cgroup v2 directory into dir, its path in the hierarchy into
 * self: 0, or -1 where no cgroup v2 is mounted for us. */
static int
v2_own(char *dir, size_t dlen, char *self, size_t slen)
{
	char mnt[1024];

	if (cg_find_line("/proc/self/mountinfo", cg_v2_mount, mnt, sizeof mnt) < 0 ||
	    cg_find_line("/proc/self/cgroup", cg_v2_self, self, slen) < 0)
		return -1;
	snprintf(dir, dlen, "%s%s", mnt, strcmp(self, "/") ? self : "");
	return 0;
}

int
cg_pids_needs_scope(char *self, size_t len)
{
	char mnt[1024], dir[2100];

	if (v2_own(dir, sizeof dir, self, len) < 0)
		return 0;
	long pids[64];
	if (cg_has_word(dir, "cgroup.subtree_control", "pids") || access(dir, W_OK) < 0 ||
	    (cg_delegated(dir) && cg_only_ours(dir, pids, 64) >= 0))
		return 0;
	return cg_find_line("/proc/self/mountinfo", cg_v1_pids_mount, mnt, sizeof mnt) < 0;
}

const char *
cg_pids_where(void)
{
	return pids_where == 2 ? "cgroup v2" : pids_where == 1 ?
	    "cgroup v1 pids hierarchy" : NULL;
}

const char *
cg_pids_none(void)
{
	return pids_where ? NULL : pids_none[0] ? pids_none :
	    "no pids controller: no cgroup";
}

const char *
cg_pids_session(void)
{
	return pids_session[0] ? pids_session : NULL;
}

int
cg_session_init(char *why, size_t whylen)
{
	char self[1024];

	if (v2_own(self_dir, sizeof self_dir, self, sizeof self) < 0) {
		snprintf(why, whylen, "no cgroup v2 hierarchy");
		return -1;
	}
	if ((size_t)snprintf(session, sizeof session, "%.4000s/contest-%ld",
	    self_dir, (long)getpid()) >= sizeof session || mkdir(session, 0755) < 0) {
		snprintf(why, whylen, "cannot make a cgroup in %s%s: %s", self_dir,
		    strcmp(self, "/") ? "" : "/", strerror(errno));
		session[0] = '\0';
		return -1;
	}
	char probe[4200];
	snprintf(probe, sizeof probe, "%s/cgroup.kill", session);
	if (access(probe, W_OK) < 0) {
		snprintf(why, whylen, "no cgroup.kill (Linux 5.14+)");
		rmdir(session);
		session[0] = '\0';
		return -1;
	}
	owner = getpid();
	atexit(session_remove);
	pids_init();
	return 0;
}

/* pids.max for the run's cgroup cg named name: in its own directory
 * (v2), or in a group of the same name in the v1 pids hierarchy, which
 * each process of the load joins beside its v2 cgroup. */
static void
cap(struct cgroup *cg, const char *name, long long pids_max)
{
	char v[32], path[4200];

	snprintf(v, sizeof v, "%lld", pids_max);
	if (pids_max <= 0 || pids_where == 0)
		return;
	if (pids_where == 2)
		snprintf(cg->pids_path, sizeof cg->pids_path, "%s", cg->path);
	else if ((size_t)snprintf(cg->pids_path, sizeof cg->pids_path, "%s/%s",
	    pids_session, name) >= sizeof cg->pids_path ||
	    mkdir(cg->pids_path, 0755) < 0) {
		cg->pids_path[0] = '\0';
		return;
	}
	snprintf(path, sizeof path, "%s/cgroup.procs", cg->pids_path);
	if (cg_write_file(cg->pids_path, "pids.max", v) < 0 || (pids_where == 1 &&
	    (cg->pids_fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)) {
		if (pids_where == 1)
			rmdir(cg->pids_path);
		cg->pids_path[0] = '\0';
		return;
	}
	cg->pids_max = pids_max;
}

int
cg_create(struct cgroup *cg, const char *name, long long pids_max)
{
	char path[4200];

	cg->procs_fd = cg->pids_fd = cg->dir_fd = -1;
	cg->pids_max = -1;
	cg->pids_path[0] = '\0';
	if (session[0] == '\0')
		return -1;
	if ((size_t)snprintf(cg->path, sizeof cg->path, "%s/%s", session, name)
	    >= sizeof cg->path || mkdir(cg->path, 0755) < 0)
		return -1;
	cap(cg, name, pids_max);
	snprintf(path, sizeof path, "%s/cgroup.procs", cg->path);
	if ((cg->procs_fd = open(path, O_WRONLY | O_CLOEXEC)) < 0 ||
	    (cg->dir_fd = open(cg->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		if (cg->procs_fd >= 0)
			close(cg->procs_fd);
		cg->procs_fd = -1;
		rmdir(cg->path);
		if (cg->pids_fd >= 0) {
			close(cg->pids_fd);
			cg->pids_fd = -1;
			rmdir(cg->pids_path);
		}
		return -1;
	}
	return 0;
}

long long
cg_pids_peak(const struct cgroup *cg)
{
	char path[4200], buf[64];

	if (cg->pids_path[0] == '\0')
		return -1;
	snprintf(path, sizeof path, "%s/pids.peak", cg->pids_path);
	if (read_small(path, buf, sizeof buf) < 0)
		return -1;
	return strtoll(buf, NULL, 10);
}

int
cg_enter(int procs_fd, int pids_fd)
{
	/* "0" is the writer itself, in v1's cgroup.procs as in v2's */
	if (pids_fd >= 0 && write(pids_fd, "0", 1) != 1)
		return -1;
	if (procs_fd >= 0 && write(procs_fd, "0", 1) != 1)
		return -1;
	return 0;
}

double
cg_cpu_seconds(const struct cgroup *cg)
{
	char path[4200], buf[1024];
	unsigned long long usec;

	snprintf(path, sizeof path, "%s/cpu.stat", cg->path);
	if (read_small(path, buf, sizeof buf) < 0 ||
	    sscanf(buf, "usage_usec %llu", &usec) != 1)
		return -1;
	return (double)usec / 1e6;
}

/* 1 while a process is left in the cgroup at path; 0 when empty or gone. */
static int
populated(int events_fd)
{
	char buf[256];
	ssize_t n;

	if (events_fd < 0 || (n = pread(events_fd, buf, sizeof buf - 1, 0)) < 0)
		return 0;
	buf[n] = '\0';
	return strstr(buf, "populated 1") != NULL;
}

/*
 * Wait, asleep, until the cgroup at path is empty: a change of
 * cgroup.events wakes us, and so does SIGCHLD when the dead come back to
 * us (subreaper) to be reaped.  Gives up after a few seconds.
 */
static void
drain(const char *path, int reap)
{
	char ev[4200];
	double deadline = mono_now() + 5;

	snprintf(ev, sizeof ev, "%s/cgroup.events", path);
	int fd = open(ev, O_RDONLY | O_CLOEXEC);
	for (;;) {
		if (reap)
			reap_orphans();
		if (!populated(fd))
			break;
		enum waitfor_result r = waitfor(fd, WAITFOR_EVENT, deadline);
		if (r == WAITFOR_TIMEOUT || r == WAITFOR_ERROR)
			break;
	}
	if (fd >= 0)
		close(fd);
	if (reap)
		reap_orphans();
}

void
cg_destroy(struct cgroup *cg)
{
	if (cg->procs_fd < 0)
		return;
	close(cg->procs_fd);
	close(cg->dir_fd);
	cg->procs_fd = cg->dir_fd = -1;
	cg_write_file(cg->path, "cgroup.kill", "1");
	drain(cg->path, 1);
	if (rmdir(cg->path) < 0)
		warnmsg("cannot remove %s: %s", cg->path, strerror(errno));
	if (cg->pids_fd >= 0) {
		close(cg->pids_fd);
		cg->pids_fd = -1;
		/* the same processes, gone with the v2 group's */
		if (rmdir(cg->pids_path) < 0)
			warnmsg("cannot remove %s: %s", cg->pids_path, strerror(errno));
	}
}

void
cg_session_kill(const char *path, const char *pids_path)
{
	cg_write_file(path, "cgroup.kill", "1");
	/* Not our children: init reaps them; just wait for them to go. */
	drain(path, 0);
	remove_tree(path);
	if (pids_path && pids_path[0])
		remove_tree(pids_path);
}
