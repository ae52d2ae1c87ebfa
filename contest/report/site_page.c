/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every page of the site shares: its head, with the style the
 * charts need too, its foot, and text shown as it was printed.
 */
#include "config.h"

#include <stdio.h>

#include "site.h"
#include "buildver.h"

static const char css[] =
    "body{font-family:sans-serif;max-width:80em;margin:1em auto;padding:0 1em;"
    "color:#222}pre{font-size:12px;overflow-x:auto;background:#f6f6f6;"
    "padding:.5em}table{border-collapse:collapse}td,th{padding:.15em .6em;"
    "text-align:left;border-bottom:1px solid #ddd}figure{margin:1em 0}"
    "figcaption{font-size:90%}.regression{color:#c00}"
    ".hit{stroke:#fff;stroke-opacity:0;stroke-width:10}"
    "a:target,section:target{background:#ffc}";

void
site_head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" "
	    "lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>", f);
	xml_text(f, title);
	fprintf(f, "</title>\n<style>%s%s</style>\n</head>\n<body>\n", css,
	    history_svg_css);
}

void
site_foot(FILE *f)
{
	fprintf(f, "<footer><p>Written by contest %s (contest report "
	    "--html).</p></footer>\n</body>\n</html>\n", contest_build);
}

void
site_pre(FILE *f, const char *text, size_t len)
{
	fputs("<pre>", f);
	for (size_t i = 0; i < len; i++) {
		char one[2] = { text[i], '\0' };
		xml_text(f, one);
	}
	fputs("</pre>\n", f);
}

