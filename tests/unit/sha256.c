/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <string.h>

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
	return tap_done();
}
