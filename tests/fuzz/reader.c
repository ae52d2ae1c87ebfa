/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results reader and everything report, compare, history and bisect
 * compute from what it hands on: a file of any bytes is read, grouped,
 * summarised and printed in every format, its nights' change points
 * found, the first two rows compared and the third bisected.
 */
#include "config.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz.h"
#include "report.h"
#include "rset.h"
#include "util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static char path[64], svg[64];
	static FILE *null;
	jmp_buf jb;

	if (null == NULL) {
		snprintf(path, sizeof path, "/tmp/contest-fuzz-%ld.jsonl", (long)getpid());
		snprintf(svg, sizeof svg, "/tmp/contest-fuzz-%ld.svg", (long)getpid());
		if ((null = fopen("/dev/null", "w")) == NULL)
			abort();
	}
	FILE *f = fopen(path, "wb");
	if (f == NULL || fwrite(d, 1, n, f) != n || fclose(f) != 0)
		abort();

	struct rset rs = { 0 };
	struct rfilter filt = { 0 };
	filt.series = 1;
	fuzz_catch_exit(&jb);
	if (setjmp(jb) == 0 && rset_add(&rs, path, &filt) == 0) {
		rset_summarise(&rs, RSORT_TIME);
		report_text(null, &rs, 1, 0);
		report_text(null, &rs, 0, 1);
		report_csv(null, &rs);
		report_json(null, &rs);
		report_svg(svg, &rs, 0);
		report_svg(svg, &rs, 1);
		/* history: every figure, all nights and the newest few */
		for (size_t last = 0; last <= 6; last += 6) {
			struct history h;
			history_build(&h, &rs, ~0u, 5.0, last);
			history_text(null, &h, 0);
			history_text(null, &h, 1);
			history_csv(null, &h);
			history_json(null, &h);
			history_junit(null, &h);
			history_lava(null, &h);
			history_robot(null, &h, 0);
			history_robot(null, &h, 1);
			history_svg(svg, &h);
			history_free(&h);
		}
		if (rs.nrow >= 3) {
			struct cmpopt o = { .threshold = 5.0, .alpha = CMP_ALPHA,
			    .gate = CMP_GATE_DEFAULT, .looks = 1 };
			bisect_decide(null, &rs, rs.row[0].name, rs.row[1].name,
			    rs.row[2].name, &o);
		}
		if (rs.nrow >= 2) {
			struct cmp m;
			struct cmpopt o = { .threshold = 5.0, .alpha = CMP_ALPHA,
			    .holm = rs.nrow > 2, .gate = ~0u, .looks = 1, .gate_set = 1 };
			char *labels[3] = { rs.row[0].name, rs.row[1].name,
			    rs.nrow > 2 ? rs.row[2].name : NULL };
			if (cmp_build(&m, &rs, labels, rs.nrow > 2 ? 3 : 2, &o) == 0) {
				compare_text(null, &m, 1, 0);
				compare_text(null, &m, 1, 1);
				compare_csv(null, &m);
				compare_json(null, &m);
				compare_junit(null, &m);
				cmp_free(&m);
			}
		}
	}
	fuzz_release_exit();
	rset_free(&rs);
	unlink(path);
	unlink(svg);
	return 0;
}
