/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Validated numbers: the one parser every numeric argument goes through. */
#ifndef CONTEST_NUM_H
#define CONTEST_NUM_H

/*
 * strtonum(3) contract: returns the value of s when it is a whole decimal
 * number in [min, max] and sets *errstr to NULL; otherwise returns 0 and
 * sets *errstr to "invalid", "too small" or "too large".  Stricter than
 * strtonum: no leading blanks or '+', no trailing bytes, no empty string.
 */
long long num_parse(const char *s, long long min, long long max,
    const char **errstr);

/*
 * Non-negative decimal seconds with at most three decimals ("3", "0.5",
 * "2.125"), returned in milliseconds; same errstr contract.  Exponents,
 * hex, "inf" and "nan" are invalid: a benchmark option has no use for them.
 */
long long num_parse_ms(const char *s, long long max_ms, const char **errstr);

#endif
