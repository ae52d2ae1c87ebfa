#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The built-in default foreground: a real compile of a generated tree.

load helpers

@test "no COMMAND: the generated tree is compiled with make -jNCPU, and cached" {
	command -v cc >/dev/null || skip "needs cc"
	command -v make >/dev/null || skip "needs make"
	run --separate-stderr contest -n 1 --lead 0
	[ "$status" -eq 0 ]
	# its first line says what it is about to do, and how to stop it
	[ "$(head -n 1 <<<"$stderr")" = "contest: no COMMAND: timing the built-in job (a C tree it generates, built with make -jNCPU) in 1 warmup and 1 measured round, alone; Ctrl-C stops it, leaving nothing running" ]
	[[ "$stderr" == *"generated the default job in $CONTEST_RESULTS/cctree-v1"* ]]
	tree="$CONTEST_RESULTS/cctree-v1"
	[ "$(ls "$tree"/unit*.c | wc -l)" -eq 64 ]
	[ -x "$tree/prog" ]
	# run in the tree it checked, by descriptor: no path to swap
	[ "$(rq '.[0].argv | join(" ")')" = "make -s -f Makefile -j$(nproc)" ]
	[ "$(rq '.[0].job_sha256 | length')" -eq 64 ]
	[[ "$(rq '.[0].command')" == "builtin:cctree-v1 make -j$(nproc)" ]]
	# A real compile: seconds of CPU, spread over the job's children.
	rq '.[0] | .status == "ok" and .usr_s > 3 and .wall_s > 2' | grep -qx true
	# its first round is a warmup by default: the cold cache is no measurement
	[ "$(rq 'map(.warmup) | join(" ")')" = "true false" ]
	grep -q '^1 warmup run not counted\.$' <<<"$output"
	stamp=$(stat -c %Y "$tree/.complete")
	"$tree/prog" >/dev/null

	# The second session reuses the tree and cleans it before its run.
	run --separate-stderr contest -n 1 --lead 0 --warmup 0
	[ "$status" -eq 0 ]
	# neither generated nor written again: the announcement alone
	[ "$stderr" = "contest: no COMMAND: timing the built-in job (a C tree it generates, built with make -jNCPU) in 0 warmup and 1 measured round, alone; Ctrl-C stops it, leaving nothing running" ]
	[ "$(stat -c %Y "$tree/.complete")" = "$stamp" ]
	[ "$(rq 'map(.job_sha256) | unique | length')" -eq 1 ]
	[ "$(rq 'length')" -eq 3 ]
	rq '.[2] | .status == "ok" and .usr_s > 3' | grep -qx true
}

@test "the built-in job is checked before it runs: a planted Makefile is never executed" {
	command -v cc >/dev/null || skip "needs cc"
	command -v make >/dev/null || skip "needs make"
	run --separate-stderr contest -n 1 --lead 0 --warmup 0
	[ "$status" -eq 0 ]
	tree="$CONTEST_RESULTS/cctree-v1"
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
	rq '.[1] | .status == "ok" and .usr_s > 3' | grep -qx true
	[ "$(rq 'map(.job_sha256) | unique | length')" -eq 1 ]
	# a tree that is not ours to mend is refused, and nothing runs
	[ "$(id -u)" -eq 0 ] || skip "needs root to give the tree away"
	printf 'prog clean:\n\ttouch %s\n' "$BATS_TEST_TMPDIR/marker" >"$tree/Makefile"
	chown -R 64984 "$tree"
	run --separate-stderr contest -n 1 --lead 0
	[ "$status" -eq 2 ]
	[[ "$stderr" == "contest: the default job: $tree is owned by uid 64984, not by you (uid 0) or root"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/marker" ]
	[ "$(wc -l <"$R")" -eq 2 ]
}
