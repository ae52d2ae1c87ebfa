/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sha256.h"
#include "tap.h"

static const char *
hash(const char *s, size_t n, unsigned split)
{
	static char out[65];
	struct sha256 h;

	sha256_init(&h);
	/* fed in pieces of split bytes: blocks must not care */
	for (size_t i = 0; i < n; i += split)
		sha256_update(&h, s + i, n - i < split ? n - i : split);
	sha256_hex(&h, out);
	return out;
}

int
main(void)
{
	/* FIPS 180-4 examples and the empty string */
	is_str(hash("", 0, 1), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "empty");
	is_str(hash("abc", 3, 1), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "abc");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	is_str(hash(two, strlen(two), 64), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "448 bits");
	is_str(hash(two, strlen(two), 7), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", "448 bits, 7 at a time");
	static char million[1000000];
	memset(million, 'a', sizeof million);
	is_str(hash(million, sizeof million, 4096), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", "a million a's");
	/* a file's digest: what is read is what is hashed, in pieces */
	char path[] = "/tmp/sha256-test-XXXXXX", out[65];
	int fd = mkstemp(path);
	static char big[100000];
	memset(big, 'x', sizeof big);
	ok(fd >= 0 && write(fd, big, sizeof big) == (ssize_t)sizeof big, "file written");
	close(fd);
	ok(sha256_file(AT_FDCWD, path, out) == 0, "sha256_file reads it");
	is_str(out, hash(big, sizeof big, 1), "a file of 100000 bytes: its bytes' digest");
	unlink(path);
	ok(sha256_file(AT_FDCWD, path, out) == -1 && errno == ENOENT && out[0] == '\0',
	    "a file that is not there: -1, ENOENT, no digest");
	return tap_done();
}
