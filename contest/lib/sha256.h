/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SHA-256 (FIPS 180-4), for the identity of the built-in job. */
#ifndef CONTEST_SHA256_H
#define CONTEST_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t	 h[8];
	uint64_t	 len;		/* bytes so far */
	unsigned char	 buf[64];
	size_t		 fill;
};

void	sha256_init(struct sha256 *);
void	sha256_update(struct sha256 *, const void *, size_t);
/* The digest as 64 lowercase hex digits and a NUL. */
void	sha256_hex(struct sha256 *, char out[65]);
/* The digest of a file at dirfd's path into out: 0, or -1 with errno
 * (out then ""). */
int	sha256_file(int dirfd, const char *path, char out[65]);

#endif
