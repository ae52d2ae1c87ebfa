#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The folders are the architecture: contest/lib depends on nothing else,
# report/ never on run/, loads/ and the two programs only on lib (and
# forkbomb on loads' forkbomb_actions), and no two files depend on each other in a
# loop, by includes or by calls (tests/layout.sh).

load helpers
PLAIN_ONLY=1	# helpers.bash: skipped under the sanitizers

LAYOUT="$TOP_SRCDIR/tests/layout.sh"

@test "layout: every folder depends only on those below it, and no files in a loop" {
	run sh "$LAYOUT" "$TOP_SRCDIR" "$TOP_BUILDDIR"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# and the objects were there to be read, of every folder
	for d in contest/lib contest/record contest/run contest/report loads forkbomb forktime; do
		[ "$(find "$TOP_BUILDDIR/$d" -maxdepth 1 -name '*.o' | wc -l)" -ge 1 ]
	done
}

@test "layout: each library is compiled with only the folders it may use on its include path" {
	command -v make >/dev/null || skip "needs make"
	cd "$TOP_BUILDDIR"
	var() { make -s --no-print-directory --eval='print-%: ; @echo $($*)' "print-$1"; }
	cc=$(var CC)
	[ -n "$cc" ]
	printf '#include "config.h"\n#include "rset.h"\n' >"$BATS_TEST_TMPDIR/ok.c"
	run -0 $cc $(var libreport_a_CPPFLAGS) -fsyntax-only "$BATS_TEST_TMPDIR/ok.c"
	# a header of a folder above it, by name or from the top of the tree
	for pair in libcore_a:figures.h librecord_a:session.h librecord_a:rset.h \
	    libreport_a:session.h libreport_a:contest/run/session.h librun_a:rset.h \
	    libloads_a:keys.h forktime_forktime:load.h; do
		printf '#include "%s"\n' "${pair#*:}" >"$BATS_TEST_TMPDIR/bad.c"
		run ! $cc $(var "${pair%%:*}_CPPFLAGS") -fsyntax-only "$BATS_TEST_TMPDIR/bad.c"
		[[ "$output" == *"${pair#*:}"* ]]
	done
}

@test "layout: the check finds a loop by includes, by calls, and report including run" {
	command -v cc >/dev/null || skip "needs cc"
	mkdir -p t/contest/lib t/contest/run t/contest/report o
	printf '#include "b.h"\nint a(void) { return 1; }\n' >t/contest/lib/a.c
	printf 'int a(void);\n' >t/contest/lib/a.h
	printf '#include "a.h"\nint b(void);\n' >t/contest/lib/b.h
	printf 'int b(void) { return 2; }\n' >t/contest/lib/b.c
	run sh "$LAYOUT" t
	[ "$status" -eq 1 ]
	[[ "$output" == *"a loop"* ]]
	# calls only: c calls d, d calls c, no header in sight
	rm t/contest/lib/a.* t/contest/lib/b.*
	printf 'int d(void);\nint c(void) { return d(); }\n' >t/contest/run/c.c
	printf 'int c(void);\nint d(void) { return c(); }\n' >t/contest/run/d.c
	mkdir -p o/contest/run
	cc -c -o o/contest/run/c.o t/contest/run/c.c
	cc -c -o o/contest/run/d.o t/contest/run/d.c
	run sh "$LAYOUT" t
	[ "$status" -eq 0 ]
	run sh "$LAYOUT" t o
	[ "$status" -eq 1 ]
	[[ "$output" == *"a loop"* ]]
	rm -r o t/contest/run/*
	printf 'struct session;\n' >t/contest/run/run.h
	printf '#include "run.h"\n' >t/contest/report/rset.c
	run sh "$LAYOUT" t
	[ "$status" -eq 1 ]
	[ "$output" = "layout: t/contest/report/rset.c includes contest/run/'s run.h" ]
	# the same include in angle brackets, as the include path lets it compile
	printf '#include <stdio.h>\n#  include <run.h>\n' >t/contest/report/rset.c
	run sh "$LAYOUT" t
	[ "$status" -eq 1 ]
	[ "$output" = "layout: t/contest/report/rset.c includes contest/run/'s run.h" ]
	# and written with its folder, from contest/ or beside the file
	for inc in '"run/run.h"' '"../run/run.h"' '<run/run.h>'; do
		printf '#include <sys/types.h>\n#include %s\n' "$inc" >t/contest/report/rset.c
		run sh "$LAYOUT" t
		[ "$status" -eq 1 ]
		[ "$output" = "layout: t/contest/report/rset.c includes contest/run/'s run.h" ]
	done
	# the record knows lib alone: report and run may include it, not it them
	rm t/contest/report/rset.c
	mkdir -p t/contest/record
	printf 'struct figure;\n' >t/contest/record/figures.h
	printf '#include "figures.h"\n' >t/contest/report/rset.c
	run sh "$LAYOUT" t
	[ "$status" -eq 0 ]
	printf '#include "run.h"\n' >t/contest/record/figures.c
	run sh "$LAYOUT" t
	[ "$status" -eq 1 ]
	[ "$output" = "layout: t/contest/record/figures.c includes contest/run/'s run.h" ]
}

@test "layout: the check finds lib, loads and the programs reaching above them" {
	command -v cc >/dev/null || skip "needs cc"
	mkdir -p t/contest/lib t/contest/run t/loads t/forktime o/contest/lib o/contest/run
	printf 'struct session;\nint run_it(void);\n' >t/contest/run/session.h
	printf 'int run_it(void) { return 1; }\n' >t/contest/run/session.c
	printf 'int num(void);\n' >t/contest/lib/num.h
	printf '#include "num.h"\nint num(void) { return 0; }\n' >t/contest/lib/num.c
	run sh "$LAYOUT" t
	[ "$status" -eq 0 ]
	# a planted include of run/ in lib/
	printf '#include "num.h"\n#include "session.h"\nint num(void) { return 0; }\n' >t/contest/lib/num.c
	run sh "$LAYOUT" t
	[ "$status" -eq 1 ]
	[ "$output" = "layout: t/contest/lib/num.c includes contest/run/'s session.h" ]
	# a call with no include: lib's object calls a name only run/ defines
	printf 'int run_it(void);\nint num(void) { return run_it(); }\n' >t/contest/lib/num.c
	cc -c -o o/contest/lib/num.o t/contest/lib/num.c
	cc -c -o o/contest/run/session.o t/contest/run/session.c
	run sh "$LAYOUT" t
	[ "$status" -eq 0 ]
	run sh "$LAYOUT" t o
	[ "$status" -eq 1 ]
	[ "$output" = "layout: contest/lib/num calls contest/run/'s run_it" ]
	# loads and forktime reach into the driver
	rm -r o
	printf '#include "num.h"\nint num(void) { return 0; }\n' >t/contest/lib/num.c
	printf '#include "session.h"\n' >t/loads/fork_load.c
	printf '#include "num.h"\n#include "load.h"\n' >t/forktime/methods.c
	printf 'struct load;\n' >t/loads/load.h
	run sh "$LAYOUT" t
	[ "$status" -eq 1 ]
	[[ "$output" == *"layout: t/loads/fork_load.c includes contest/run/'s session.h"* ]]
	[[ "$output" == *"layout: t/forktime/methods.c includes loads/'s load.h"* ]]
	[[ "$output" != *"num.h"* ]]
}
