/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results reader: whole objects in, damaged lines skipped by name. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "jsonl.h"
#include "tap.h"

static int
count(const struct jnode *obj, unsigned long lineno, void *arg)
{
	unsigned long *seen = arg;

	seen[seen[0]++ + 1] = lineno;
	seen[7] += (unsigned long)jget_num(obj, "run", 0);
	return 0;
}

/* Every line's run, summed; the lines counted. */
static int
count_all(const struct jnode *obj, unsigned long lineno, void *arg)
{
	unsigned long *seen = arg;

	(void)lineno;
	seen[0]++;
	seen[7] += (unsigned long)jget_num(obj, "run", 0);
	return 0;
}

/* The key set's six slots, read by id. */
static int
slots_of(const struct jnode *obj, unsigned long lineno, void *arg)
{
	double *got = arg;

	(void)lineno;
	for (unsigned id = 0; id < 6; id++)
		got[id] = jnode_num(jslot(obj, id), -1);
	return 0;
}

/* What a reader asking for "run" and "o" alone sees of each line. */
static int
keyed(const struct jnode *obj, unsigned long lineno, void *arg)
{
	unsigned long *seen = arg;

	seen[seen[0]++ + 1] = lineno;
	seen[6] += jget(obj, "skip") != NULL || jget(obj, "big") != NULL;
	seen[7] += (unsigned long)jget_num(obj, "run", 0) +
	    (unsigned long)jget_num(jget(obj, "o"), "k", 0);
	return 0;
}

/* What the reader told of the lines it skipped; it prints nothing itself. */
static char said[512];

static void
told(const char *path, unsigned long lineno, const char *why, void *arg)
{
	size_t len = strlen(said);

	(void)arg;
	snprintf(said + len, sizeof said - len, "%s:%lu: %s\n", path, lineno, why);
}

static int
valid(const char *s)
{
	return jsonl_is_object(s, strlen(s));
}

static void
check_syntax(void)
{
	const char *good[] = {
		"{}", " { } ", "{\"a\":1}", "{\"a\":-0.5e+3,\"b\":[1,2,{\"c\":null}]}",
		"{\"s\":\"tab\\t quote\\\" u\\u00e9 slash\\/\"}", "{\"t\":true,\"f\":false}",
		"{\"a\":[]}", "{\"k\":\"\xc3\xa9\"}",
		" {\t\"a\" : [ 1 , \"x\" , { } ] ,\r\"b\" :null } \r",
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
	/* a NUL inside a line ends no scan early: it is damage wherever it is */
	static const char nul[][12] = { "{\"a\":\"x\0\"}", "{\"a\":1\0}",
	    "{\"a\0\":1}", "{}\0" };
	static const size_t nlen[] = { 10, 8, 9, 3 };
	int none = 1;
	for (size_t i = 0; i < sizeof nul / sizeof nul[0]; i++)
		none &= !jsonl_is_object(nul[i], nlen[i]);
	ok(none, "a NUL in a string, a number, a key or after the object: refused");
}

/* Strings are scanned sixteen bytes at a time: a quote, a backslash or a
 * control character at every place of a word is still found. */
static void
check_scan(void)
{
	struct jarena a = { NULL };
	int right = 1;

	for (int at = 0; at < 40 && right; at++) {
		char doc[256], want[64];
		memset(want, 'x', (size_t)at);
		want[at] = '\0';
		snprintf(doc, sizeof doc, "{\"s\":\"%s\\\"y\",\"k%s\":%d}", want, want, at);
		const struct jnode *o = jsonl_parse(doc, strlen(doc), &a);
		char key[80], str[80];
		snprintf(str, sizeof str, "%s\"y", want);
		snprintf(key, sizeof key, "k%s", want);
		right = o && jget_str(o, "s") && strcmp(jget_str(o, "s"), str) == 0 &&
		    jget_num(o, key, -1) == at;
		snprintf(doc, sizeof doc, "{\"s\":\"%s\x01\"}", want);
		right &= !valid(doc);
		jarena_reset(&a);
	}
	ok(right, "an escape, a closing quote and a control character at each "
	    "of 40 places");
	jarena_free(&a);
}

/* A key set tells a key by its length and its first and last eight
 * bytes, and the bytes between them past sixteen. */
static void
check_keyset(void)
{
	static const char *const names[] = { "a", "run", "exactly8", "sixteen_bytes_ok",
	    "seventeen_bytes_a", "long_key_with_middle_one", NULL };
	struct jkeys k;
	struct jarena a = { NULL };
	ok(jkeys_init(&k, names) == 0, "a key set of six");
	/* each wanted key once, then near misses that share its ends */
	const char *doc = "{\"long_key_WITH_middle_one\":1,\"seventeen_bytes_b\":2,"
	    "\"r\\u0075n\":3,\"a\":4,\"exactly8\":5,\"sixteen_bytes_ok\":6,"
	    "\"seventeen_bytes_a\":7,\"long_key_with_middle_one\":8,\"ab\":9,"
	    "\"exactly9x\":10}";
	char path[] = "/tmp/jsonl-set-XXXXXX";
	int fd = mkstemp(path);
	ok(fd >= 0 && write(fd, doc, strlen(doc)) == (ssize_t)strlen(doc) &&
	    write(fd, "\n", 1) == 1, "key-set file written");
	close(fd);
	FILE *f = fopen(path, "r");
	static double got[6];
	unsigned long skipped;
	long n = f ? jsonl_read_stream_keys(f, path, &k, slots_of, NULL, got, &skipped) : -1;
	if (f)
		fclose(f);
	unlink(path);
	ok(n == 1 && got[0] == 4 && got[1] == 3 && got[2] == 5 && got[3] == 6 &&
	    got[4] == 7 && got[5] == 8, "each key by its slot, an escaped one too, "
	    "none by a key that shares its ends (%g %g %g %g %g %g)", got[0],
	    got[1], got[2], got[3], got[4], got[5]);
	jarena_free(&a);
}

/* Lines are read a megabyte at a time: one across each block's end and
 * one longer than a block read whole. */
static void
check_blocks(void)
{
	char path[] = "/tmp/jsonl-blocks-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	size_t total = 0;
	unsigned long lines = 0;
	for (int i = 0; f && total < (5u << 20); i++, lines++) {
		/* 997-byte lines, and a 2.5 MB one in the middle */
		size_t pad = i == 1500 ? (5u << 19) : 960;
		int n = fprintf(f, "{\"run\":%d,\"p\":\"", i);
		for (size_t j = 0; j < pad; j++)
			putc('x', f);
		n += fprintf(f, "\"}\n");
		total += (size_t)n + pad;
	}
	ok(f && fclose(f) == 0, "a file of %lu lines, %zu bytes", lines, total);
	unsigned long seen[8] = { 0 }, skipped = 99;
	long n = jsonl_read(path, count_all, NULL, seen, &skipped);
	unlink(path);
	ok(n == (long)lines && skipped == 0 && seen[7] == lines * (lines - 1) / 2,
	    "every line read once, whole, across blocks (%ld of %lu)", n, lines);
}

static void
check_tree(void)
{
	struct jarena a = { NULL };
	/* The tree: types, decoded strings, nesting, lookups. */
	const char *doc = "{\"s\":\"tab\\t q\\\" \\u00e9 \\ud83d\\ude00 \\/\",\"n\":-2.5e2,"
	    "\"t\":true,\"z\":null,\"o\":{\"k\":[1,\"x\",{}]},\"e\":\"\"}";
	const struct jnode *root = jsonl_parse(doc, strlen(doc), &a);
	ok(root && root->type == J_OBJ, "parsed: %s", doc);
	is_str(jget_str(root, "s"), "tab\t q\" \xc3\xa9 \xf0\x9f\x98\x80 /",
	    "escapes, \\u and a surrogate pair decode to UTF-8");
	is_num(jget_num(root, "n", 0), -250, 0, "a number with an exponent");
	is_num(jget_num(root, "t", 0), 1, 0, "true reads as 1");
	ok(jget(root, "z") && jget(root, "z")->type == J_NULL, "null is a node");
	is_num(jget_num(root, "missing", 7), 7, 0, "an absent key gives the default");
	ok(jget_str(root, "n") == NULL, "a number is not a string");
	is_str(jget_str(root, "e"), "", "an empty string");
	const struct jnode *arr = jget(jget(root, "o"), "k");
	ok(arr && arr->type == J_ARR && arr->child && arr->child->num == 1 &&
	    arr->child->next->type == J_STR && arr->child->next->next->type == J_OBJ &&
	    arr->child->next->next->next == NULL, "an array keeps its order");
	jarena_reset(&a);
	char big[200000];
	memset(big, 'a', sizeof big);
	memcpy(big, "{\"s\":\"", 6);
	memcpy(big + sizeof big - 3, "\"}", 2);
	big[sizeof big - 1] = '\0';
	root = jsonl_parse(big, strlen(big), &a);
	ok(root && strlen(jget_str(root, "s")) == sizeof big - 9,
	    "a string larger than an arena chunk");
	ok(jsonl_parse("{\"a\":1", 6, &a) == NULL, "a cut-short object gives no tree");
	jarena_free(&a);
}

static void
check_writer(void)
{
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
}

static void
check_damaged_file(void)
{
	/* A file with a damaged middle line and a cut-short last line. */
	char path[] = "/tmp/jsonl-test-XXXXXX";
	int fd = mkstemp(path);
	const char *text = "{\"run\":1}\n{\"run\":2,\"cut\n{\"run\":3}\n\n{\"run\":4,\"x\":";
	ok(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text),
	    "test file written");
	close(fd);
	unsigned long seen[8] = { 0 }, skipped = 99;
	fflush(stdout);
	long n = jsonl_read(path, count, told, seen, &skipped);
	ok(n == 2 && skipped == 2, "two lines read, two skipped (got %ld, %lu)", n, skipped);
	ok(seen[0] == 2 && seen[1] == 1 && seen[2] == 3, "the whole lines are 1 and 3");
	ok(seen[7] == 4, "their trees carry run 1 and run 3 (sum %lu)", seen[7]);
	char want[256];
	snprintf(want, sizeof want, "%s:2: not one JSON object\n"
	    "%s:5: incomplete last line\n", path, path);
	is_str(said, want, "each skipped line is told to the caller, by file and line");
	ok(jsonl_read("/nonexistent/x", count, told, seen, &skipped) == -1,
	    "a file that cannot be opened is -1");
	unlink(path);
}

static void
check_keys(void)
{
	/* A reader of some keys: the others are passed over, yet checked
	 * (line 2's damage is in a member nobody asked for), escapes and
	 * all; a second look reads only the lines it names. */
	static const char *const want_keys[] = { "run", "o", NULL };
	struct jkeys keys;
	ok(jkeys_init(&keys, want_keys) == 0, "a key set of two");
	const char *kt = "{\"skip\":\"a\\\"b\",\"run\":1,\"o\":{\"k\":10,\"skip\":1}}\n"
	    "{\"run\":2,\"skip\":[1,tru]}\n"
	    "{\"big\":{\"x\":[\"}\",\"]\"]},\"run\":4,\"o\":{\"k\":20}}\n"
	    "{\"run\":8,\"skip\":\"\\u00e9\\\\\"}\n";
	char kpath[] = "/tmp/jsonl-keys-XXXXXX";
	int fd = mkstemp(kpath);
	ok(fd >= 0 && write(fd, kt, strlen(kt)) == (ssize_t)strlen(kt), "keyed file written");
	close(fd);
	unsigned long ks[8] = { 0 }, skipped = 99;
	long n = jsonl_read_keys(kpath, &keys, keyed, NULL, ks, &skipped);
	ok(n == 3 && skipped == 1 && ks[1] == 1 && ks[2] == 3 && ks[3] == 4,
	    "damage in an unasked member still skips its line (lines %lu %lu %lu)",
	    ks[1], ks[2], ks[3]);
	ok(ks[7] == 1 + 10 + 4 + 20 + 8 && ks[6] == 0,
	    "the asked members are built, nested ones whole; the others are not");
	unsigned long only[] = { 3, 4 }, ko[8] = { 0 };
	ok(jsonl_read_only(kpath, &keys, only, 2, keyed, ko) == 2 && ko[1] == 3 &&
	    ko[2] == 4 && ko[7] == 4 + 20 + 8, "a second look reads lines 3 and 4 alone");
	unlink(kpath);
}

/* Each line of the marks check: its number and its "run" member. */
static int
marked(const struct jnode *obj, unsigned long lineno, void *arg)
{
	unsigned long *seen = arg;

	if (seen[0] < 8) {
		seen[1 + 2 * seen[0]] = lineno;
		seen[2 + 2 * seen[0]] = (unsigned long)jget_num(obj, "run", 0);
	}
	seen[0]++;
	return 0;
}

static void
check_marks(void)
{
	/* 5000 lines, line i {"run":i}: a first read keeps a mark a 1024
	 * lines; a second look at lines far apart seeks to the mark before
	 * each.  Between the read and the look, a newline in line 1500 turns
	 * into a space: a look that read its way there would count one line
	 * fewer after it, and one that seeks counts from the marks. */
	char path[] = "/tmp/jsonl-marks-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
	long long nl1500 = 0;
	for (int i = 1; f && i <= 5000; i++) {
		fprintf(f, "{\"run\":%d,\"pad\":\"%0*d\"}\n", i, i % 97, 0);
		if (i == 1500)
			nl1500 = (long long)ftello(f) - 1;
	}
	ok(f != NULL && fflush(f) == 0, "5000 lines written");
	if (f == NULL)
		return;
	rewind(f);
	struct jmarks mk = { NULL, 0, 0 };
	unsigned long skipped, all[17] = { 0 };
	ok(jsonl_read_stream_marks(f, path, NULL, marked, NULL, all, &skipped, &mk) == 5000 &&
	    mk.n == 5, "a first read of 5000 lines keeps 5 marks (%zu)", mk.n);
	ok(fseeko(f, (off_t)nl1500, SEEK_SET) == 0 && fputc(' ', f) == ' ' &&
	    fflush(f) == 0, "line 1500's newline now a space");
	rewind(f);
	unsigned long want[] = { 1, 1024, 1025, 2049, 4097, 5000 }, got[17] = { 0 };
	long n = jsonl_read_only_stream(f, NULL, want, 6, marked, got, &mk);
	int right = n == 6;
	for (int i = 0; i < 6 && right; i++)
		right = got[1 + 2 * i] == want[i] && got[2 + 2 * i] == want[i];
	ok(right, "lines 1, 1024, then 1025 to 5000 from the marks: each its own run "
	    "(%lu: %lu, %lu: %lu, %lu: %lu)", got[5], got[6], got[7], got[8], got[11], got[12]);
	rewind(f);
	memset(got, 0, sizeof got);
	n = jsonl_read_only_stream(f, NULL, want + 3, 1, marked, got, NULL);
	ok(n == 1 && got[2] == 2050, "without marks, read to line 2049: the run "
	    "after it, one newline gone (%lu)", got[2]);
	free(mk.off);
	fclose(f);
	unlink(path);
}

static void
check_numbers(void)
{
	struct jarena a = { NULL };
	/* Numbers: the reader's own conversion gives strtod's double, bit
	 * for bit, on 20,000 random decimals of 1 to 18 digits, signs,
	 * leading zeros, exponents and edge values. */
	int exact = 1;
	srand(11);
	for (int i = 0; i < 20000 && exact; i++) {
		char num[64], ndoc[96];
		size_t nn = 0;
		if (rand() % 4 == 0)
			num[nn++] = '-';
		int ip = rand() % 10, fp = rand() % 10;
		if (rand() % 5 == 0)
			num[nn++] = '0';		/* 0 or 0.xxx */
		else
			for (int k = 0; k < ip + 1; k++)
				num[nn++] = (char)('0' + (k == 0 ? 1 + rand() % 9 : rand() % 10));
		if (fp) {
			num[nn++] = '.';
			for (int k = 0; k < fp; k++)
				num[nn++] = (char)('0' + rand() % 10);
		}
		if (rand() % 8 == 0)
			nn += (size_t)sprintf(num + nn, "e%d", rand() % 40 - 20);
		num[nn] = '\0';
		snprintf(ndoc, sizeof ndoc, "{\"v\":%s}", num);
		const struct jnode *o = jsonl_parse(ndoc, strlen(ndoc), &a);
		double sw = strtod(num, NULL), rg = jget_num(o, "v", NAN);
		if (memcmp(&sw, &rg, sizeof sw) != 0) {
			printf("# %s: strtod %.17g, reader %.17g\n", num, sw, rg);
			exact = 0;
		}
	}
	const char *edge[] = { "0", "-0", "999999999999999", "9999999999999999",
	    "0.1", "0.000000000000001", "123456789012345.6", "1e308", "4.9e-324" };
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
		char ndoc[96];
		snprintf(ndoc, sizeof ndoc, "{\"v\":%s}", edge[i]);
		double sw = strtod(edge[i], NULL);
		double rg = jget_num(jsonl_parse(ndoc, strlen(ndoc), &a), "v", NAN);
		if (memcmp(&sw, &rg, sizeof sw) != 0)
			exact = 0;
	}
	ok(exact, "every number as strtod reads it, bit for bit");

	jarena_free(&a);
}

static void
check_index(void)
{
	struct jarena a = { NULL };
	/* a key twice: the first, whether the object is searched in order
	 * or through its index (more than 8 members) */
	const char *twice[] = { "{\"a\":1,\"b\":2,\"a\":3}",
	    "{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,"
	    "\"h\":8,\"i\":9,\"a\":10}" };
	for (int i = 0; i < 2; i++) {
		const struct jnode *o = jsonl_parse(twice[i], strlen(twice[i]), &a);
		ok(jget_num(o, "b", 0) == 2 && jget_num(o, "a", 0) == 1 &&
		    jget(o, "zz") == NULL, i ? "indexed: the first of a key twice; "
		    "an absent key is absent" : "in order: the first of a key twice");
	}
	/* an index of 200 members finds each, and nothing else */
	char wide[4096];
	size_t wl = (size_t)sprintf(wide, "{");
	for (int i = 0; i < 200; i++)
		wl += (size_t)sprintf(wide + wl, "%s\"k%d\":%d", i ? "," : "", i, i);
	sprintf(wide + wl, "}");
	const struct jnode *wo = jsonl_parse(wide, strlen(wide), &a);
	int all = wo != NULL;
	for (int i = 0; i < 200 && all; i++) {
		char k[16];
		snprintf(k, sizeof k, "k%d", i);
		all = jget_num(wo, k, -1) == i;
	}
	ok(all && jget(wo, "k200") == NULL && jget(wo, "k") == NULL,
	    "200 members, each found by its key");
	jarena_free(&a);
}

int
main(void)
{
	check_syntax();
	check_scan();
	check_keyset();
	check_blocks();
	check_tree();
	check_writer();
	check_damaged_file();
	check_keys();
	check_marks();
	check_numbers();
	check_index();
	return tap_done();
}
