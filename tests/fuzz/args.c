/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The argument parsing of contest run, report and compare, in-process:
 * the input's first byte picks the subcommand, the rest is its words,
 * NUL-separated.  Nothing runs: run stops after its checks; report and
 * compare would read what the words name, so an input with a word that
 * names an existing file (or holds '/'), alone or after -f or --file=,
 * is passed over, and the default
 * results directory does not exist: no file is ever read or written.
 */
#include "config.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz.h"
#include "util.h"

#define MAX_WORDS 48

/* The subcommand, with contest's exits coming back here. */
static void
dispatch(int pick, int argc, char **argv)
{
	jmp_buf jb;

	fuzz_catch_exit(&jb);
	if (setjmp(jb) == 0) {
		if (pick == 0)
			cmd_run_check(argc, argv);
		else if (pick == 1)
			cmd_report(argc, argv);
		else
			cmd_compare(argc, argv);
	}
	fuzz_release_exit();
}

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static const char *const names[] = { "run", "report", "compare" };
	static int ready;
	char *argv[MAX_WORDS + 2];
	int argc = 0;

	if (!ready) {
		setenv("CONTEST_RESULTS", "/nonexistent/contest-fuzz-results", 1);
		ready = 1;
	}
	if (n == 0)
		return 0;
	size_t len = n - 1 < 8192 ? n - 1 : 8192;
	char *buf = fuzz_string(d + 1, len, len);
	argv[argc++] = (char *)names[d[0] % 3];
	for (char *w = buf; argc < MAX_WORDS && w < buf + len; w += strlen(w) + 1) {
		struct stat st;
		/* -fPATH and --file=PATH (or a prefix of it) name a file too */
		const char *path = strncmp(w, "--fi", 4) == 0 && strchr(w, '=') ?
		    strchr(w, '=') + 1 : strncmp(w, "-f", 2) == 0 ? w + 2 : w;
		if (strchr(w, '/') || stat(w, &st) == 0 || stat(path, &st) == 0)
			goto out;
		argv[argc++] = w;
	}
	argv[argc] = NULL;
	dispatch(d[0] % 3, argc, argv);
out:
	free(buf);
	return 0;
}
