/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

void
json_init(struct json *j)
{
	memset(j, 0, sizeof *j);
}

void
json_free(struct json *j)
{
	free(j->buf);
	json_init(j);
}

void
json_reset(struct json *j)
{
	char *b = j->buf;
	size_t cap = j->cap;

	json_init(j);
	j->buf = b;
	j->cap = cap;
	if (b)
		b[0] = '\0';
}

static void
put(struct json *j, const char *s, size_t n)
{
	if (j->failed)
		return;
	if (grow(&j->buf, &j->cap, j->len + n + 1, 1, 256) < 0) {
		j->failed = 1;
		return;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void
putf(struct json *j, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof tmp)
		j->failed = 1;
	else
		put(j, tmp, (size_t)n);
}

/* Comma before every value or key but the first of its container. */
static void
sep(struct json *j)
{
	if (j->after_key) {
		j->after_key = 0;
		return;
	}
	if (j->depth > 0) {
		if (!j->first[j->depth - 1])
			put(j, ",", 1);
		j->first[j->depth - 1] = 0;
	}
}

static void
open_(struct json *j, char c)
{
	sep(j);
	if (j->depth >= JSON_MAX_DEPTH) {
		j->failed = 1;
		return;
	}
	put(j, &c, 1);
	j->first[j->depth++] = 1;
}

static void
close_(struct json *j, char c)
{
	if (j->depth == 0 || j->after_key) {
		j->failed = 1;
		return;
	}
	j->depth--;
	put(j, &c, 1);
}

void json_obj_begin(struct json *j) { open_(j, '{'); }
void json_obj_end(struct json *j) { close_(j, '}'); }
void json_arr_begin(struct json *j) { open_(j, '['); }
void json_arr_end(struct json *j) { close_(j, ']'); }

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static size_t
utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	else if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and out-of-range code points. */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) ||
	    (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static void
put_string(struct json *j, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	put(j, "\"", 1);
	while (*s) {
		size_t n;
		if (*s == '"' || *s == '\\') {
			char esc[2] = { '\\', (char)*s };
			put(j, esc, 2);
			s++;
		} else if (*s == '\n' || *s == '\t' || *s == '\r') {
			char esc[2] = { '\\', *s == '\n' ? 'n' : *s == '\t' ? 't' : 'r' };
			put(j, esc, 2);
			s++;
		} else if (*s < 0x20 || *s == 0x7f) {
			putf(j, "\\u%04x", *s);
			s++;
		} else if ((n = utf8_len(s)) > 0) {
			put(j, (const char *)s, n);
			s += n;
		} else {
			/* Arguments are bytes, JSON is text: mark what is lost. */
			put(j, "\\ufffd", 6);
			s++;
		}
	}
	put(j, "\"", 1);
}

void
json_key(struct json *j, const char *k)
{
	if (j->depth == 0 || j->after_key) {
		j->failed = 1;
		return;
	}
	sep(j);
	put_string(j, k);
	put(j, ":", 1);
	j->after_key = 1;
}

void json_str(struct json *j, const char *s) { sep(j); put_string(j, s); }
void json_int(struct json *j, long long v) { sep(j); putf(j, "%lld", v); }
void json_uint(struct json *j, unsigned long long v) { sep(j); putf(j, "%llu", v); }
void json_bool(struct json *j, int v) { sep(j); put(j, v ? "true" : "false", v ? 4 : 5); }
void json_null(struct json *j) { sep(j); put(j, "null", 4); }

void
json_num(struct json *j, double v, int decimals)
{
	sep(j);
	if (!isfinite(v) || fabs(v) > 1e15) {
		put(j, "null", 4);
		return;
	}
	if (decimals < 0 || decimals > 9)
		decimals = 6;
	putf(j, "%.*f", decimals, v);
}

void
json_gnum(struct json *j, double v, int sig)
{
	sep(j);
	if (!isfinite(v)) {
		put(j, "null", 4);
		return;
	}
	if (sig < 1 || sig > 17)
		sig = 6;
	putf(j, "%.*g", sig, v == 0 ? 0.0 : v);	/* never "-0" */
}

void json_kgnum(struct json *j, const char *k, double v, int s) { json_key(j, k); json_gnum(j, v, s); }
void json_kstr(struct json *j, const char *k, const char *v) { json_key(j, k); json_str(j, v); }
void json_kint(struct json *j, const char *k, long long v) { json_key(j, k); json_int(j, v); }
void json_kuint(struct json *j, const char *k, unsigned long long v) { json_key(j, k); json_uint(j, v); }
void json_knum(struct json *j, const char *k, double v, int d) { json_key(j, k); json_num(j, v, d); }
void json_kbool(struct json *j, const char *k, int v) { json_key(j, k); json_bool(j, v); }

const char *
json_text(struct json *j)
{
	if (j->failed || j->depth != 0 || j->after_key)
		return NULL;
	return j->buf ? j->buf : "";
}

void
json_kint_or_null(struct json *j, const char *k, long long v)
{
	json_key(j, k);
	if (v < 0)
		json_null(j);
	else
		json_int(j, v);
}

void
json_kstr_or_null(struct json *j, const char *k, const char *v)
{
	json_key(j, k);
	if (v && *v)
		json_str(j, v);
	else
		json_null(j);
}
