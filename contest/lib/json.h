/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small JSON writer into a growing buffer: one results line at a time. */
#ifndef CONTEST_JSON_H
#define CONTEST_JSON_H

#include <stddef.h>

#define JSON_MAX_DEPTH 16

struct json {
	char	*buf;
	size_t	 len, cap;
	int	 depth;
	int	 after_key;
	int	 failed;		/* out of memory or misuse: output unusable */
	unsigned char first[JSON_MAX_DEPTH];
};

void	json_init(struct json *);
void	json_free(struct json *);
void	json_reset(struct json *);

void	json_obj_begin(struct json *);
void	json_obj_end(struct json *);
void	json_arr_begin(struct json *);
void	json_arr_end(struct json *);
void	json_key(struct json *, const char *);

void	json_str(struct json *, const char *);
void	json_int(struct json *, long long);
void	json_uint(struct json *, unsigned long long);
/* Fixed decimals; NaN and infinities become null (JSON has neither). */
void	json_num(struct json *, double, int decimals);
void	json_bool(struct json *, int);
void	json_null(struct json *);

/* Key-and-value shorthands. */
void	json_kstr(struct json *, const char *, const char *);
void	json_kint(struct json *, const char *, long long);
void	json_kuint(struct json *, const char *, unsigned long long);
void	json_knum(struct json *, const char *, double, int);
/* A number to sig significant digits (%g): a p-value of 1e-26 is not 0. */
void	json_gnum(struct json *, double, int sig);
void	json_kgnum(struct json *, const char *, double, int sig);
void	json_kbool(struct json *, const char *, int);

/* NUL-terminated text, or NULL when failed. */
const char *json_text(struct json *);

/* A key with a value, or null where the system did not say (a negative
 * number, an empty string). */
void	json_kint_or_null(struct json *, const char *key, long long);
void	json_kstr_or_null(struct json *, const char *key, const char *);

#endif
