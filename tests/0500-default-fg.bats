#!/usr/bin/env bats
# The built-in default foreground: a real compile of a generated tree.

load helpers

@test "no COMMAND: the generated tree is compiled with make -jNCPU, and cached" {
	command -v cc >/dev/null || skip "needs cc"
	command -v make >/dev/null || skip "needs make"
	run --separate-stderr contest -n 1 --lead 0
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"generated the default job in $CONTEST_RESULTS/cctree-v1"* ]]
	tree="$CONTEST_RESULTS/cctree-v1"
	[ "$(ls "$tree"/unit*.c | wc -l)" -eq 64 ]
	[ -x "$tree/prog" ]
	[ "$(rq '.[0].argv | join(" ")')" = "make -s -C $tree -j$(nproc)" ]
	[[ "$(rq '.[0].command')" == "builtin:cctree-v1 make -j$(nproc)" ]]
	# A real compile: seconds of CPU, spread over the job's children.
	rq '.[0] | .status == "ok" and .usr_s > 3 and .wall_s > 2' | grep -qx true
	stamp=$(stat -c %Y "$tree/.complete")
	"$tree/prog" >/dev/null

	# The second session reuses the tree and cleans it before its run.
	run --separate-stderr contest -n 1 --lead 0 --warmup 0
	[ "$status" -eq 0 ]
	[[ "$stderr" != *generated* ]]
	[ "$(stat -c %Y "$tree/.complete")" = "$stamp" ]
	rq '.[1] | .status == "ok" and .usr_s > 3' | grep -qx true
}
