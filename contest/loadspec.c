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

static int
parse_value(const struct load *l, size_t i, const char *val, long long *out,
    char *err, size_t errlen)
{
	const struct load_opt *o = &l->opts[i];

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

int
loadspec_parse(const char *arg, struct loadspec *ls, char *err, size_t errlen)
{
	char name[64], list[256];
	const char *colon = strchr(arg, ':');
	size_t nlen = colon ? (size_t)(colon - arg) : strlen(arg);

	memset(ls, 0, sizeof *ls);
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
	const struct load *l = ls->load;
	size_t nopts = load_nopts(l);
	for (size_t i = 0; i < nopts; i++)
		ls->opt[i] = l->opts[i].def;

	if (colon) {
		char *dup = strdup(colon + 1), *save = NULL, *kv;
		if (dup == NULL) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (*dup == '\0') {
			snprintf(err, errlen, "%s: empty option list after ':'", l->name);
			goto fail;
		}
		/* strtok_r would merge ",," silently; walk by hand instead. */
		for (kv = dup; kv; kv = save) {
			char *comma = strchr(kv, ',');
			save = comma ? comma + 1 : NULL;
			if (comma)
				*comma = '\0';
			char *eq = strchr(kv, '=');
			if (*kv == '\0' || eq == kv) {
				snprintf(err, errlen, "%s: empty option name", l->name);
				goto fail;
			}
			if (eq)
				*eq = '\0';
			int i = load_opt_index(l, kv);
			if (i < 0) {
				known_keys(l, list, sizeof list);
				snprintf(err, errlen, "%s: unknown option '%s' (options: %s)",
				    l->name, kv, list);
				goto fail;
			}
			if (eq == NULL || eq[1] == '\0') {
				snprintf(err, errlen, "%s: option '%s' needs a value",
				    l->name, kv);
				goto fail;
			}
			if (ls->set & (1u << i)) {
				snprintf(err, errlen, "%s: option '%s' given twice",
				    l->name, kv);
				goto fail;
			}
			if (parse_value(l, (size_t)i, eq + 1, &ls->opt[i], err, errlen) < 0)
				goto fail;
			ls->set |= 1u << i;
		}
		free(dup);
		goto named;
fail:
		free(dup);
		return -1;
	}
named:;
	size_t off = (size_t)snprintf(ls->name, sizeof ls->name, "%s", l->name);
	char sepc = ':', vbuf[32];
	for (size_t i = 0; i < nopts && off < sizeof ls->name; i++) {
		if (!(ls->set & (1u << i)))
			continue;
		int n = snprintf(ls->name + off, sizeof ls->name - off, "%c%s=%s",
		    sepc, l->opts[i].key, loadspec_value(ls, i, vbuf, sizeof vbuf));
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

const char *
loadspec_value(const struct loadspec *ls, size_t i, char *buf, size_t len)
{
	const struct load_opt *o = &ls->load->opts[i];

	if (o->type == LOAD_OPT_ENUM)
		snprintf(buf, len, "%s", o->choices[ls->opt[i]]);
	else
		snprintf(buf, len, "%lld", ls->opt[i]);
	return buf;
}
