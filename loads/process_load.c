/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * process_load: contest's ring of processes passing small messages
 * through pipes.  Every message is a wakeup of a sleeping task on some
 * CPU, so the load is the scheduler's wakeup and context-switch paths
 * rather than raw CPU.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "load.h"

enum { OPT_N, OPT_TOKENS };
enum { C_MESSAGES };

#define MSG	64	/* bytes per message */

static const struct load_opt opts[] = {
	[OPT_N] = { .key = "n", .type = LOAD_OPT_INT, .min = 2, .max = 4096,
	    .ncpu_def = 4, .help = "processes in the ring" },
	[OPT_TOKENS] = { .key = "tokens", .type = LOAD_OPT_INT, .min = 1,
	    .max = 4096, .ncpu_def = 1,
	    .help = "messages circulating at once (at most n)" },
	{ .key = NULL },
};

static const struct load_counter counters[] = {
	[C_MESSAGES] = { "messages", "Messages passed", "messages",
	    "messages read from one pipe and written to the next", LOAD_SUM },
	{ .id = NULL },
};

static int
full_io(int fd, char *buf, int wr)
{
	size_t done = 0;

	while (done < MSG) {
		ssize_t r = wr ? write(fd, buf + done, MSG - done) :
		    read(fd, buf + done, MSG - done);
		if (r > 0)
			done += (size_t)r;
		else if (r == 0 || errno != EINTR)
			return -1;
	}
	return 0;
}

/* Forward messages from in to out for ever; returns when the ring broke. */
static int
member(struct load_ctx *c, int in, int out)
{
	char buf[MSG];

	for (;;) {
		if (full_io(in, buf, 0) < 0 || full_io(out, buf, 1) < 0)
			return -1;
		load_count(c, C_MESSAGES, 1);
		load_unit(c);	/* the worker's own hops: its children's marks are no-ops */
	}
}

static int
process_load_run(struct load_ctx *c)
{
	unsigned n = (unsigned)c->opt[OPT_N];
	unsigned tokens = (unsigned)c->opt[OPT_TOKENS];
	int first[2], last[2], next[2], prev_r;

	if (tokens > n)
		tokens = n;
	/* A broken ring shows as EPIPE, not as a silent death. */
	signal(SIGPIPE, SIG_IGN);
	if (pipe(first) < 0 || pipe(last) < 0)
		return load_fail(c, "pipe: %s", strerror(errno));
	/* Process 0 (this one) writes first[1] and reads last[0]; process i
	 * reads what i-1 wrote; the last one writes last[1]. */
	prev_r = first[0];
	for (unsigned i = 1; i < n; i++) {
		int is_last = i == n - 1;
		if (!is_last && pipe(next) < 0)
			return load_fail(c, "pipe for member %u: %s", i, strerror(errno));
		int out = is_last ? last[1] : next[1];
		pid_t pid = load_fork(c);
		if (pid < 0)
			return load_fail(c, "fork of ring member %u of %u: %s", i, n,
			    strerror(errno));
		if (pid == 0) {
			close(first[1]);
			close(last[0]);
			if (!is_last) {
				close(next[0]);
				close(last[1]);
			}
			member(c, prev_r, out);
			_exit(1);
		}
		close(prev_r);
		if (!is_last) {
			close(next[1]);
			prev_r = next[0];
		}
	}
	close(last[1]);
	char buf[MSG];
	memset(buf, 'm', sizeof buf);
	for (unsigned i = 0; i < tokens; i++)
		if (full_io(first[1], buf, 1) < 0)
			return load_fail(c, "injecting message %u: %s", i, strerror(errno));
	load_ready(c);
	member(c, last[0], first[1]);
	return load_fail(c, "the ring broke: a member died (%s)", strerror(errno));
}

const struct load load_process_load = {
	.name = "process_load",
	.summary = "a ring of processes passing small messages through pipes (contest)",
	.opts = opts,
	.counters = counters,
	.run = process_load_run,
};
