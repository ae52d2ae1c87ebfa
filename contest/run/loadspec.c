/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadspec.h"
#include "num.h"

static void
known_loads(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; load_registry[i] && off < len; i++) {
		int n = snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
		    load_registry[i]->name);
		if (n < 0)
			break;
		off += (size_t)n;
	}
}

static void
known_keys(const struct load *l, char *buf, size_t len)
{
	size_t off = 0;

	snprintf(buf, len, "none");
	for (size_t i = 0; l->opts && l->opts[i].key && off < len; i++) {
		int n = snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
		    l->opts[i].key);
		if (n < 0)
			break;
		off += (size_t)n;
	}
}

/* Append a STR value to ls->strbuf; its offset, or -1 if it does not fit. */
static long long
store_str(struct loadspec *ls, size_t *used, const char *val)
{
	size_t n = strlen(val) + 1;

	if (*used + n > sizeof ls->strbuf)
		return -1;
	memcpy(ls->strbuf + *used, val, n);
	*used += n;
	return (long long)(*used - n);
}

static int
parse_value(struct loadspec *ls, size_t i, const char *val, size_t *used,
    char *err, size_t errlen)
{
	const struct load *l = ls->load;
	const struct load_opt *o = &l->opts[i];
	long long *out = &ls->opt[i];

	if (o->type == LOAD_OPT_STR) {
		for (const char *p = val; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f) {
				snprintf(err, errlen, "%s: %s: control character in value",
				    l->name, o->key);
				return -1;
			}
		if ((*out = store_str(ls, used, val)) < 0) {
			snprintf(err, errlen, "%s: %s: value too long (at most %d bytes)",
			    l->name, o->key, LOAD_STR_MAX - 1);
			return -1;
		}
		return 0;
	}
	if (o->type == LOAD_OPT_ENUM) {
		for (size_t c = 0; o->choices[c]; c++)
			if (strcmp(o->choices[c], val) == 0) {
				*out = (long long)c;
				return 0;
			}
		char list[160] = "";
		size_t off = 0;
		for (size_t c = 0; o->choices[c] && off < sizeof list; c++) {
			int n = snprintf(list + off, sizeof list - off, "%s%s",
			    c ? "|" : "", o->choices[c]);
			if (n < 0)
				break;
			off += (size_t)n;
		}
		snprintf(err, errlen, "%s: %s=%s: not one of %s", l->name,
		    o->key, val, list);
		return -1;
	}
	const char *why;
	*out = num_parse(val, o->min, o->max, &why);
	if (why) {
		snprintf(err, errlen, "%s: %s=%s: %s (allowed %lld..%lld)",
		    l->name, o->key, val, why, o->min, o->max);
		return -1;
	}
	return 0;
}

/* Each option at its default (a per-CPU default scaled to this machine). */
static void
set_defaults(struct loadspec *ls, size_t *used)
{
	const struct load *l = ls->load;

	for (size_t i = 0; i < load_nopts(l); i++) {
		const struct load_opt *o = &l->opts[i];
		ls->opt[i] = o->def;
		if (o->type == LOAD_OPT_STR)
			ls->opt[i] = o->sdef ? store_str(ls, used, o->sdef) : -1;
		else if (o->ncpu_def) {
			long long v = (long long)o->ncpu_def * load_ncpu();
			ls->opt[i] = v < o->min ? o->min : v > o->max ? o->max : v;
		}
	}
}

/* One "key=val" of the list, at kv (cut at its end); 0, or -1 and why. */
static int
set_option(struct loadspec *ls, char *kv, char *eq, size_t *used, char *err,
    size_t errlen)
{
	const struct load *l = ls->load;
	char list[256];

	if (*kv == '\0' || eq == kv) {
		snprintf(err, errlen, "%s: empty option name", l->name);
		return -1;
	}
	if (eq)
		*eq = '\0';
	int i = load_opt_index(l, kv);
	if (i < 0) {
		known_keys(l, list, sizeof list);
		snprintf(err, errlen, "%s: unknown option '%s' (options: %s)", l->name, kv,
		    list);
		return -1;
	}
	if (eq == NULL || eq[1] == '\0') {
		snprintf(err, errlen, "%s: option '%s' needs a value", l->name, kv);
		return -1;
	}
	if (ls->set & (1u << i)) {
		snprintf(err, errlen, "%s: option '%s' given twice", l->name, kv);
		return -1;
	}
	if (parse_value(ls, (size_t)i, eq + 1, used, err, errlen) < 0)
		return -1;
	ls->set |= 1u << i;
	return 0;
}

/* The options after the colon, "key=val,..."; 0, or -1 and why. */
static int
set_options(struct loadspec *ls, const char *text, size_t *used, char *err,
    size_t errlen)
{
	const struct load *l = ls->load;
	char *dup = strdup(text), *save = NULL, *kv;
	int rc = 0;

	if (dup == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (*dup == '\0') {
		snprintf(err, errlen, "%s: empty option list after ':'", l->name);
		free(dup);
		return -1;
	}
	/* strtok_r would merge ",," silently; walk by hand instead. */
	for (kv = dup; kv && rc == 0; kv = save) {
		char *comma = strchr(kv, ',');
		char *eq = strchr(kv, '=');
		if (eq && (!comma || eq < comma)) {
			*eq = '\0';
			int r = load_opt_index(l, kv);
			*eq = '=';
			/* A command keeps its commas. */
			if (r >= 0 && (l->opts[r].flags & LOAD_OPT_REST))
				comma = NULL;
		}
		save = comma ? comma + 1 : NULL;
		if (comma)
			*comma = '\0';
		rc = set_option(ls, kv, eq, used, err, errlen);
	}
	free(dup);
	return rc;
}

/* Every required option given, and the spec's canonical name: the load
 * and the options set, in the load's order; 0, or -1 and why. */
static int
name_spec(struct loadspec *ls, char *err, size_t errlen)
{
	const struct load *l = ls->load;
	size_t nopts = load_nopts(l);

	for (size_t i = 0; i < nopts; i++)
		if ((l->opts[i].flags & LOAD_OPT_REQUIRED) && !(ls->set & (1u << i))) {
			snprintf(err, errlen, "%s: option '%s' is required (e.g. -l %s:%s=...)",
			    l->name, l->opts[i].key, l->name, l->opts[i].key);
			return -1;
		}
	size_t off = (size_t)snprintf(ls->name, sizeof ls->name, "%s", l->name);
	char sepc = ':', vbuf[LOAD_STR_MAX];
	for (size_t i = 0; i < nopts && off < sizeof ls->name; i++) {
		if (!(ls->set & (1u << i)))
			continue;
		int n = snprintf(ls->name + off, sizeof ls->name - off, "%c%s=%s",
		    sepc, l->opts[i].key, loadspec_value(ls, i, "", vbuf, sizeof vbuf));
		if (n < 0)
			break;
		off += (size_t)n;
		sepc = ',';
	}
	if (off >= sizeof ls->name) {
		snprintf(err, errlen, "%s: option list too long", l->name);
		return -1;
	}
	return 0;
}

int
loadspec_parse(const char *arg, struct loadspec *ls, char *err, size_t errlen)
{
	char name[64], list[256];
	const char *colon = strchr(arg, ':');
	size_t nlen = colon ? (size_t)(colon - arg) : strlen(arg), used = 0;

	memset(ls, 0, sizeof *ls);
	/* it is echoed in errors and printed as a table's heading: one line */
	for (const char *p = arg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			snprintf(err, errlen, "-l: the load spec holds a control character "
			    "(0x%02x at byte %zu); put a multi-line command in a script",
			    (unsigned char)*p, (size_t)(p - arg) + 1);
			return -1;
		}
	if (nlen == 0 || nlen >= sizeof name) {
		snprintf(err, errlen, "-l '%s': expected LOAD[:key=val,...]", arg);
		return -1;
	}
	memcpy(name, arg, nlen);
	name[nlen] = '\0';
	if ((ls->load = load_find(name)) == NULL) {
		known_loads(list, sizeof list);
		snprintf(err, errlen, "unknown load '%s' (loads: %s)", name, list);
		return -1;
	}
	set_defaults(ls, &used);
	if (colon && set_options(ls, colon + 1, &used, err, errlen) < 0)
		return -1;
	ls->ncounters = load_ncounters(ls->load);
	ls->headline = ls->ncounters ? load_headline(ls->load, ls->opt) : 0;
	for (size_t i = 0; i < ls->ncounters && i < 64; i++)
		if (load_shows(ls->load, ls->opt, (unsigned)i))
			ls->shown |= 1ull << i;
	return name_spec(ls, err, errlen);
}

const char *
loadspec_str(const struct loadspec *ls, size_t i)
{
	if (ls->load->opts[i].type != LOAD_OPT_STR || ls->opt[i] < 0)
		return NULL;
	return ls->strbuf + ls->opt[i];
}

const char *
loadspec_value(const struct loadspec *ls, size_t i, const char *workdir,
    char *buf, size_t len)
{
	const struct load_opt *o = &ls->load->opts[i];

	if (o->type == LOAD_OPT_STR) {
		const char *v = loadspec_str(ls, i);
		snprintf(buf, len, "%s", v ? v : workdir);
	} else if (o->type == LOAD_OPT_ENUM)
		snprintf(buf, len, "%s", o->choices[ls->opt[i]]);
	else
		snprintf(buf, len, "%lld", ls->opt[i]);
	return buf;
}
