/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer targets: each defines LLVMFuzzerTestOneInput.  Built with
 * clang by `make fuzz`; built with the ordinary compiler against
 * replay.c by `make check`, which feeds it the seeds and every finding
 * kept as a regression case.  An exit of contest's (usage_fail, fatal)
 * comes back to the target (fuzz_catch_exit()) instead of ending the
 * process.
 */
#ifndef CONTEST_FUZZ_H
#define CONTEST_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Between these two, an exit of contest's longjmps to jb with its
 * status plus one. */
#include <setjmp.h>
void	fuzz_catch_exit(jmp_buf *jb);
void	fuzz_release_exit(void);

/* data as a NUL-terminated string, at most max bytes of it (free it). */
char	*fuzz_string(const uint8_t *, size_t, size_t max);

#endif
