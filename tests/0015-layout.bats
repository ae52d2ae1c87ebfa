#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# contest/'s folders are its architecture: lib/ depends on nothing else,
# report/ never includes run/, and no two files depend on each other in
# a loop, by includes or by calls (tests/layout.sh).

load helpers

LAYOUT="$TOP_SRCDIR/tests/layout.sh"

@test "layout: no loop among contest's files, report never includes run" {
	run sh "$LAYOUT" "$TOP_SRCDIR" "$TOP_BUILDDIR/contest"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# and the objects were there to be read
	[ "$(find "$TOP_BUILDDIR/contest" -name '*.o' | wc -l)" -ge 30 ]
	run grep -l 'run\.h' "$TOP_SRCDIR"/contest/report/*
	[ "$status" -eq 1 ]
	# lib/ includes nothing of the folders above it
	run grep -l '#include "\(run\|proc\|cgroup\|results\|session\|rset\|report\)\.h"' "$TOP_SRCDIR"/contest/lib/*
	[ "$status" -eq 1 ]
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
	cc -c -o o/c.o t/contest/run/c.c
	cc -c -o o/d.o t/contest/run/d.c
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
	[ "$output" = "layout: t/contest/report/rset.c includes run/'s run.h" ]
}
