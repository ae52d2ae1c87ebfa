/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The JSON lines parser's scanners, shared by what builds a tree and
 * what only validates: each reads from p, in a line that ends in a NUL
 * followed by JSONL_PAD readable bytes (jsonl_impl.h), and returns the
 * byte after what it read, or NULL if it is not JSON.  No byte of JSON
 * outside a string is a NUL and none inside one is, so no scan tests for
 * the end.
 */
#ifndef CONTEST_JSONL_LEX_H
#define CONTEST_JSONL_LEX_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The scanners inlined where a value is read: a call for each of a
 * line's two hundred values was a fifth of the parse. */
#if defined(__GNUC__)
#define INLINE	inline __attribute__((always_inline))
#else
#define INLINE	inline
#endif

static inline uint64_t
word8(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

#define ONES	0x0101010101010101ull
#define HIGHS	0x8080808080808080ull

/* The first byte from q on that is not plain: sixteen bytes at a time
 * with SSE2 (every x86-64 has it), else eight in a word where the first
 * such byte of a word can be told exactly (little-endian: a borrow only
 * runs towards the higher bytes), else one at a time. */
static INLINE const char *
plain_run(const char *q)
{
#if defined(__SSE2__) && defined(__GNUC__)
	const __m128i quote = _mm_set1_epi8('"'), back = _mm_set1_epi8('\\');
	const __m128i ctl = _mm_set1_epi8(0x1f);

	for (;; q += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)q);
		__m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote),
		    _mm_cmpeq_epi8(x, back)), _mm_cmpeq_epi8(_mm_min_epu8(x, ctl), x));
		unsigned bits = (unsigned)_mm_movemask_epi8(m);
		if (bits)
			return q + __builtin_ctz(bits);
	}
#elif defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (;; q += 8) {
		uint64_t w = word8(q), qu = w ^ (ONES * '"'), bs = w ^ (ONES * '\\');
		uint64_t m = ((qu - ONES) & ~qu) | ((bs - ONES) & ~bs) |
		    ((w - ONES * 0x20) & ~w);
		if ((m &= HIGHS) != 0)
			return q + (__builtin_ctzll(m) >> 3);
	}
#else
	/* bytes a string holds as they are: not a quote, a backslash or a
	 * control character (nor the NUL that ends a line) */
	static const unsigned char plain[256] = {
	    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	};

	while (plain[(unsigned char)*q])
		q++;
	return q;
#endif
}

static inline const char *
blanks(const char *p)
{
	/* results are written without blanks: one test for the usual case */
	while ((unsigned char)*p <= ' ' && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* A string's rest from q, its first byte that is not plain (jsonl_lex.c). */
const char *jsonl_string_rest(const char *q, char *o, char *start, const char **out);

/* A string after its opening quote: *out the decoded string, NUL where
 * its closing quote or escapes were. */
static inline const char *
build_string(const char *p, const char **out)
{
	const char *q = plain_run(p);

	if (*q == '"') {
		*(char *)(uintptr_t)q = '\0';
		*out = p;
		return q + 1;
	}
	return jsonl_string_rest(q, (char *)(uintptr_t)q, (char *)(uintptr_t)p, out);
}

static inline const char *
skip_string(const char *p)
{
	const char *q = plain_run(p);

	return *q == '"' ? q + 1 : jsonl_string_rest(q, NULL, NULL, NULL);
}

/* A number's grammar from p: the byte after it, or NULL. */
static inline const char *
number_end(const char *p)
{
	p += *p == '-';
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*++p >= '0' && *p <= '9')
			;
	else
		return NULL;
	if (*p == '.') {
		if (*++p < '0' || *p > '9')
			return NULL;
		while (*++p >= '0' && *p <= '9')
			;
	}
	if (*p == 'e' || *p == 'E') {
		p += p[1] == '+' || p[1] == '-';
		if (*++p < '0' || *p > '9')
			return NULL;
		while (*++p >= '0' && *p <= '9')
			;
	}
	return p;
}

/*
 * A number at p, validated and its value in *out in one pass.  Up to 15
 * significant digits with no exponent, the digits as an integer (exact
 * below 2^53) over a power of ten (exact to 1e22) is one correctly
 * rounded division, the very double strtod gives, at a fraction of its
 * cost; a results line holds hundreds of numbers.  Others go to strtod.
 */
static inline const char *
number(const char *p, double *out)
{
	static const double pow10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
	    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15 };
	const char *s = p, *d;
	uint64_t v = 0;		/* wraps past 19 digits: then strtod's */
	int neg = *p == '-', frac = 0;

	p += neg;
	if (*p == '0')
		p++;	/* no other digit before the point */
	else if (*p >= '1' && *p <= '9')
		for (; *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (uint64_t)(*p - '0');
	else
		return NULL;
	/* the digits of the value: from the first that is not 0 on */
	size_t nd = (size_t)(p - s) - (size_t)neg - (v == 0);
	if (*p == '.') {
		if (*(d = ++p) < '0' || *d > '9')
			return NULL;
		for (; *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (uint64_t)(*p - '0');
		frac = (int)(p - d);
		nd += (size_t)frac;
	}
	if (*p != 'e' && *p != 'E' && nd <= 15) {
		double x = frac > 0 ? (double)v / pow10[frac] : (double)v;
		*out = neg ? -x : x;
		return p;
	}
	if ((p = number_end(s)) != NULL) {
		char buf[64];
		size_t n = (size_t)(p - s);
		if (n >= sizeof buf)
			n = sizeof buf - 1;	/* past 63 digits the value is not ours */
		memcpy(buf, s, n);
		buf[n] = '\0';
		*out = strtod(buf, NULL);
	}
	return p;
}

/* true, false or null at p: the byte after it, or NULL.  Compared a byte
 * at a time, so nothing past the NUL is read. */
static inline const char *
literal(const char *p, const char *word)
{
	for (; *word; p++, word++)
		if (*p != *word)
			return NULL;
	return p;
}

/* Past ch at p, blanks allowed before it, or NULL: a line written
 * without blanks pays one test. */
static INLINE const char *
expect(const char *p, char ch)
{
	if (*p != ch && *(p = blanks(p)) != ch)
		return NULL;
	return p + 1;
}

/* After a member or element at *pp: past a ',' (1), past the closer (0),
 * or neither (-1). */
static INLINE int
next_or_close(const char **pp, char close)
{
	const char *p = *pp;

	if (*p != ',' && *p != close)
		p = blanks(p);
	*pp = p + 1;
	return *p == ',' ? 1 : *p == close ? 0 : -1;
}

#endif
