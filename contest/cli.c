/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every subcommand shares: stdout's last check, getopt's errors,
 * the version line. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "buildver.h"

int
finish_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		warnmsg("stdout: %s", strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}

void
getopt_fail(const char *cmd, int ch, char **argv)
{
	if (ch == ':')
		usage_fail("option '%s' needs a value (see 'contest %s --help')",
		    argv[optind - 1], cmd);
	/* a long option that takes no value, given one (--series=1): getopt
	 * says so with the option's code, which is no short option */
	const char *arg = argv[optind - 1];
	if (optopt && strncmp(arg, "--", 2) == 0 && strchr(arg, '='))
		usage_fail("option '%.*s' takes no value (see 'contest %s --help')",
		    (int)(strchr(arg, '=') - arg), arg, cmd);
	if (optopt)
		usage_fail("unknown option '-%c' (see 'contest %s --help')", optopt, cmd);
	usage_fail("unknown option '%s' (see 'contest %s --help')", argv[optind - 1],
	    cmd);
}

int
print_version(void)
{
	printf("contest %s\n%s\n", contest_build, CONTEST_LICENCE);
	return finish_stdout();
}

