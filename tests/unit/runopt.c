/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The argv that asks for a session again (the systemd-run re-exec):
 * contest's own parse takes it back whole, with "--" before a command
 * and none where the built-in job was asked for. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "runopt.h"
#include "tap.h"

/* words joined by spaces */
static const char *
joined(char **av)
{
	static char out[512];
	size_t off = 0;

	out[0] = '\0';
	for (size_t i = 0; av[i]; i++)
		off += (size_t)snprintf(out + off, sizeof out - off, "%s%s",
		    i ? " " : "", av[i]);
	return out;
}

/* argv parsed, asked again with cmd, parsed again: the words of the
 * second parse's COMMAND (or "(none)") and whether "--" ended it */
static const char *
again(char **argv, int argc, char **cmd, int ncmd, const char *want_opts)
{
	static struct run_config c, c2;
	static char out[512];
	char *av[64] = { (char *)"run" };
	int bad = 0;

	memset(&c, 0, sizeof c);
	if (runopt_parse(argc, argv, &c, &bad) != argc) {
		snprintf(out, sizeof out, "parse failed");
		return out;
	}
	size_t owned = runopt_rerun_argv(&c, cmd, ncmd, av + 1);
	char opts[256];
	snprintf(opts, sizeof opts, "%s", joined(av + 1));
	is_str(opts, want_opts, "asked again as: %s", want_opts);
	int n = 1;
	while (av[n])
		n++;
	memset(&c2, 0, sizeof c2);
	int first = runopt_parse(n, av, &c2, &bad);
	snprintf(out, sizeof out, "%s%s", c2.dashdash ? "-- " : "",
	    first < n ? joined(av + first) : "(none)");
	for (size_t i = 0; i < owned; i++)
		free(av[1 + i]);
	return out;
}

int
main(void)
{
	char *opts[] = { (char *)"run", (char *)"-n", (char *)"2", (char *)"--lead",
	    (char *)"0.5", (char *)"--job-nice", (char *)"3" };
	char *cmd[] = { (char *)"make", (char *)"-l", (char *)"fork_load", (char *)"-j2" };

	is_str(again(opts, 7, NULL, 0, "--runs=2 --lead=0.5 --job-nice=3"), "(none)",
	    "no command: no \"--\", the built-in job asked for again");
	is_str(again(opts, 7, cmd, 4, "--runs=2 --lead=0.5 --job-nice=3 -- make -l "
	    "fork_load -j2"), "-- make -l fork_load -j2",
	    "a command: after \"--\", its words its own");
	is_str(again(opts, 1, cmd, 1, "-- make"), "-- make", "no option, a command");
	is_str(again(opts, 1, NULL, 0, ""), "(none)", "nothing at all");
	return tap_done();
}
