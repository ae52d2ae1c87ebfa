/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Feed files to a fuzz target, as libFuzzer would: one input per file.
 * A crash, a sanitizer report or a hang is the failure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

int
main(int argc, char **argv)
{
	/* whole paths first: a target may change directory */
	for (int i = 1; i < argc; i++)
		if ((argv[i] = realpath(argv[i], NULL)) == NULL) {
			perror("realpath");
			return 2;
		}
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (f == NULL) {
			perror(argv[i]);
			return 2;
		}
		unsigned char *buf = NULL;
		size_t n = 0, cap = 0, r;
		do {
			if (n == cap && (buf = realloc(buf, cap = cap * 2 + 4096)) == NULL)
				abort();
			r = fread(buf + n, 1, cap - n, f);
			n += r;
		} while (r > 0);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		free(buf);
	}
	printf("replayed %d input%s\n", argc - 1, argc == 2 ? "" : "s");
	return 0;
}
