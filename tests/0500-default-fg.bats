#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The built-in default foreground: a real compile of a generated tree.
# The tree is generated and built once for the file (setup_file: one
# measured run, no warmup: every job's default warmup round is
# tests/0100's), then reused, checked and mended by the tests in turn:
# three compiles of seconds each, not one for every check.

load helpers

setup_file() {
	command -v cc >/dev/null || skip "needs cc"
	command -v make >/dev/null || skip "needs make"
	file_setup
	export SHARED="$BATS_FILE_TMPDIR/results"
	CONTEST_RESULTS=$SHARED file_marked "$CONTEST" -n 1 --lead 0 --warmup 0 \
	    >"$BATS_FILE_TMPDIR/first.out" 2>"$BATS_FILE_TMPDIR/first.err" 3>&-
	echo $? >"$BATS_FILE_TMPDIR/first.status"
}

teardown_file() {
	file_teardown
}

# The tests below work on the file's results and tree.
shared() {
	export CONTEST_RESULTS=$SHARED
	R="$CONTEST_RESULTS/results.jsonl"
	tree="$CONTEST_RESULTS/cctree-v1"
}

@test "no COMMAND: the generated tree is compiled with make -jNCPU" {
	shared
	[ "$(cat "$BATS_FILE_TMPDIR/first.status")" -eq 0 ]
	stderr=$(cat "$BATS_FILE_TMPDIR/first.err")
	output=$(cat "$BATS_FILE_TMPDIR/first.out")
	# its first line says what it is about to do, and how to stop it
	[ "$(head -n 1 <<<"$stderr")" = "contest: no COMMAND: timing the built-in job (a C tree it generates, built with make -jNCPU) in 0 warmup and 1 measured round, alone; Ctrl-C stops it, leaving nothing running" ]
	[[ "$stderr" == *"generated the default job in $tree"* ]]
	[ "$(ls "$tree"/unit*.c | wc -l)" -eq 64 ]
	[ -x "$tree/prog" ]
	# run in the tree it checked, by descriptor: no path to swap
	[ "$(rq '.[0].argv | join(" ")')" = "make -s -f Makefile -j$(nproc)" ]
	[ "$(rq '.[0].job_sha256 | length')" -eq 64 ]
	[[ "$(rq '.[0].command')" == "builtin:cctree-v1 make -j$(nproc)" ]]
	# A real compile: seconds of CPU, spread over the job's children.
	rq '.[0] | .status == "ok" and .usr_s > 3 and .wall_s > 2' | grep -qx true
	# its one round measured: the first compile, of a cold cache
	[ "$(rq 'map(.warmup) | join(" ")')" = "false" ]
	"$tree/prog" >/dev/null
}

@test "no COMMAND again: the tree is reused, cleaned before its run, not written again" {
	shared
	stamp=$(stat -c %Y "$tree/.complete")
	before=$(lines_of "$R")
	run --separate-stderr contest -n 1 --lead 0 --warmup 0
	[ "$status" -eq 0 ]
	# neither generated nor written again: the announcement alone
	[ "$stderr" = "contest: no COMMAND: timing the built-in job (a C tree it generates, built with make -jNCPU) in 0 warmup and 1 measured round, alone; Ctrl-C stops it, leaving nothing running" ]
	[ "$(stat -c %Y "$tree/.complete")" = "$stamp" ]
	[ "$(rq 'map(.job_sha256) | unique | length')" -eq 1 ]
	[ "$(rq 'length')" -eq $((before + 1)) ]
	rq '.[-1] | .status == "ok" and .usr_s > 3' | grep -qx true
}

@test "trust: a tree swapped in after the built-in job's check is never run" {
	need_faults
	shared
	[ -e "$tree/.complete" ]
	# its link undone, so that only a make in the checked tree remakes it
	rm -f "$tree/prog"
	mkdir planted
	printf 'prog clean:\n\ttouch %s\n' "$BATS_TEST_TMPDIR/marker" >planted/GNUmakefile
	cp planted/GNUmakefile planted/Makefile
	# swapped after contest checked the tree, just before make runs: by
	# the prepare step, when it opens a file called swapnow
	touch swapnow
	CONTEST_FAULT_AT=swapnow \
	    CONTEST_FAULT_RUN="mv '$tree' '$CONTEST_RESULTS/checked' && mv '$BATS_TEST_TMPDIR/planted' '$tree'" \
	    run --separate-stderr contest_faulty -n 1 --lead 0 --warmup 0 \
	    --prepare "cat '$BATS_TEST_TMPDIR/swapnow'"
	[ "$status" -eq 0 ]
	[ ! -e "$BATS_TEST_TMPDIR/marker" ]
	[ -e "$tree/GNUmakefile" ]
	[ ! -e "$tree/prog" ]
	# make ran in the tree that was checked, wherever it went
	[ -x "$CONTEST_RESULTS/checked/prog" ]
	[ "$(rq -r '.[-1].status')" = ok ]
	# the checked tree back where it was, for the tests after this one
	rm -rf "$tree"
	mv "$CONTEST_RESULTS/checked" "$tree"
}

@test "the built-in job is checked before it runs: a planted Makefile is never executed" {
	shared
	before=$(lines_of "$R")
	sum=$(md5sum <"$tree/Makefile")
	# what someone with write access to the tree could leave for root
	printf 'prog clean:\n\ttouch %s\n' "$BATS_TEST_TMPDIR/marker" >"$tree/Makefile"
	cp "$tree/Makefile" "$tree/GNUmakefile"
	run --separate-stderr contest -n 1 --lead 0 --warmup 0
	[ "$status" -eq 0 ]
	[ ! -e "$BATS_TEST_TMPDIR/marker" ]
	[[ "$(sed -n 2p <<<"$stderr")" == "contest: the default job in $tree was not what contest generates ("*"GNUmakefile unknown"*"Makefile changed"*"): written again" ]]
	[ "$(md5sum <"$tree/Makefile")" = "$sum" ]
	[ ! -e "$tree/GNUmakefile" ]
	rq '.[-1] | .status == "ok" and .usr_s > 3' | grep -qx true
	[ "$(rq 'map(.job_sha256) | unique | length')" -eq 1 ]
	# a tree that is not ours to mend is refused, and nothing runs
	[ "$(id -u)" -eq 0 ] || skip "needs root to give the tree away"
	printf 'prog clean:\n\ttouch %s\n' "$BATS_TEST_TMPDIR/marker" >"$tree/Makefile"
	chown -R 64984 "$tree"
	run --separate-stderr contest -n 1 --lead 0
	[ "$status" -eq 2 ]
	[[ "$stderr" == "contest: the default job: $tree is owned by uid 64984, not by you (uid 0) or root"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/marker" ]
	[ "$(wc -l <"$R")" -eq $((before + 1)) ]
}
