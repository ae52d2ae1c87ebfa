/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <math.h>

#include "json.h"
#include "tap.h"

int
main(void)
{
	struct json j;

	json_init(&j);
	json_obj_begin(&j);
	json_kint(&j, "a", -3);
	json_kstr(&j, "s", "q\"b\\n\n\t\x01");
	json_key(&j, "arr");
	json_arr_begin(&j);
	json_uint(&j, 18446744073709551615ULL);
	json_num(&j, 1.5, 3);
	json_num(&j, NAN, 3);
	json_num(&j, INFINITY, 3);
	json_bool(&j, 1);
	json_null(&j);
	json_arr_end(&j);
	json_key(&j, "o");
	json_obj_begin(&j);
	json_obj_end(&j);
	json_obj_end(&j);
	is_str(json_text(&j),
	    "{\"a\":-3,\"s\":\"q\\\"b\\\\n\\n\\t\\u0001\","
	    "\"arr\":[18446744073709551615,1.500,null,null,true,null],\"o\":{}}",
	    "nested object, escapes, non-finite numbers");

	json_reset(&j);
	json_arr_begin(&j);
	json_gnum(&j, 1e-26, 6);
	json_gnum(&j, 0.0123456789, 6);
	json_gnum(&j, -0.0, 6);
	json_gnum(&j, NAN, 6);
	json_arr_end(&j);
	is_str(json_text(&j), "[1e-26,0.0123457,0,null]",
	    "significant digits: a p-value of 1e-26 is not 0");

	json_reset(&j);
	json_obj_begin(&j);
	json_kstr(&j, "u", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	json_kstr(&j, "bad", "a\xff" "b\xc3(" "\xed\xa0\x80");
	json_obj_end(&j);
	is_str(json_text(&j),
	    "{\"u\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\","
	    "\"bad\":\"a\\ufffdb\\ufffd(\\ufffd\\ufffd\\ufffd\"}",
	    "valid UTF-8 kept, invalid bytes replaced");

	json_reset(&j);
	json_obj_begin(&j);
	ok(json_text(&j) == NULL, "unclosed object is not text");
	json_reset(&j);
	json_obj_begin(&j);
	json_key(&j, "k");
	json_obj_end(&j);
	ok(json_text(&j) == NULL, "key without value is misuse");
	json_reset(&j);
	for (int i = 0; i < JSON_MAX_DEPTH + 1; i++)
		json_arr_begin(&j);
	ok(json_text(&j) == NULL, "too deep fails instead of overflowing");

	json_reset(&j);
	json_obj_begin(&j);
	for (int i = 0; i < 2000; i++)
		json_kint(&j, "k", i);
	json_obj_end(&j);
	const char *t = json_text(&j);
	ok(t && strlen(t) > 2000 * 6 && t[strlen(t) - 1] == '}', "buffer grows");
	json_free(&j);
	return tap_done();
}
