/* The results reader: whole objects in, damaged lines skipped by name. */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "json.h"
#include "jsonl.h"
#include "tap.h"

static int
count(const char *line, size_t len, unsigned long lineno, void *arg)
{
	unsigned long *seen = arg;

	(void)line, (void)len;
	seen[seen[0]++ + 1] = lineno;
	return 0;
}

static int
valid(const char *s)
{
	return jsonl_is_object(s, strlen(s));
}

int
main(void)
{
	const char *good[] = {
		"{}", " { } ", "{\"a\":1}", "{\"a\":-0.5e+3,\"b\":[1,2,{\"c\":null}]}",
		"{\"s\":\"tab\\t quote\\\" u\\u00e9 slash\\/\"}", "{\"t\":true,\"f\":false}",
		"{\"a\":[]}", "{\"k\":\"\xc3\xa9\"}",
	};
	const char *bad[] = {
		"", "{", "{\"a\":1", "{\"a\":1}}", "{\"a\":1} x", "[1,2]", "\"s\"",
		"{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":tru}", "{a:1}",
		"{\"a\":\"\\x\"}", "{\"a\":\"\\u12g4\"}", "{\"a\":\"ctl\x01\"}",
		"{\"a\":1,}", "{\"a\" 1}", "{\"a\":[1,]}", "{\"a\":\"unterminated}",
	};

	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		ok(valid(good[i]), "valid: %s", good[i]);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ok(!valid(bad[i]), "refused: %s", bad[i]);

	/* What the writer makes, the reader takes. */
	struct json j;
	json_init(&j);
	json_obj_begin(&j);
	json_kstr(&j, "cmd", "a\tb\n\"c\" \x01 \xff");
	json_knum(&j, "x", 1.0 / 3.0, 6);
	json_key(&j, "n");
	json_null(&j);
	json_obj_end(&j);
	ok(valid(json_text(&j)), "the writer's output reads back: %s", json_text(&j));
	json_free(&j);

	/* A file with a damaged middle line and a cut-short last line. */
	char path[] = "/tmp/jsonl-test-XXXXXX";
	int fd = mkstemp(path);
	const char *text = "{\"run\":1}\n{\"run\":2,\"cut\n{\"run\":3}\n\n{\"run\":4,\"x\":";
	ok(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text),
	    "test file written");
	close(fd);
	char errpath[] = "/tmp/jsonl-err-XXXXXX";
	int efd = mkstemp(errpath);
	fflush(stderr);
	int saved = dup(2);
	dup2(efd, 2);
	unsigned long seen[8] = { 0 }, skipped = 99;
	long n = jsonl_read(path, count, seen, &skipped);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ok(n == 2 && skipped == 2, "two lines read, two skipped (got %ld, %lu)", n, skipped);
	ok(seen[0] == 2 && seen[1] == 1 && seen[2] == 3, "the whole lines are 1 and 3");
	char err[512] = "";
	FILE *ef = fdopen(efd, "r");
	rewind(ef);
	size_t got = fread(err, 1, sizeof err - 1, ef);
	err[got] = '\0';
	fclose(ef);
	char want[256];
	snprintf(want, sizeof want, "contest: %s:2: not one JSON object, skipped\n"
	    "contest: %s:5: incomplete last line, skipped\n", path, path);
	is_str(err, want, "each skipped line is named by file and line");
	ok(jsonl_read("/nonexistent/x", count, seen, &skipped) == -1,
	    "a file that cannot be opened is -1");
	unlink(path);
	unlink(errpath);
	return tap_done();
}
