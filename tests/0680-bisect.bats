#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# contest bisect: a candidate's runs called good (0), bad (1) or neither
# (125, git bisect's skip) against the step between two labels, over
# tests/data/report/nights.jsonl (synthetic: fork_load 8% slower from
# night-16 on, 0.5% noise); each call checked with the tests it names.

load helpers

N="$TOP_SRCDIR/tests/data/report/nights.jsonl"

@test "bisect: before the step is good (0), after it bad (1), each figure of the step said" {
	run -0 contest bisect -f "$N" night-10 night-20 night-05
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == "fork_load Time: night-05 against night-10 "*" (p="*"), against night-20 -7."*": good" ]]
	[[ "${lines[1]}" == "fork_load Ratio: night-05 against night-10 "*": good" ]]
	[[ "${lines[2]}" == "night-05 looks good (0 of the step's 2 figures bad, 2 good, 0 can't tell; "* ]]
	run -1 contest bisect -f "$N" night-10 night-20 night-18
	[[ "${lines[0]}" == "fork_load Time: night-18 against night-10 +7."*": bad" ]]
	[[ "${lines[2]}" == "night-18 looks bad (2 of the step's 2 figures bad, "* ]]
	# the first night after the step, and the last before it
	run -1 contest bisect -f "$N" night-01 night-24 night-16
	run -0 contest bisect -f "$N" night-01 night-24 night-15
}

@test "bisect: a candidate half way, or without results, is neither: 125, never a guess" {
	# "mid": night-20's lines with fork_load half the step back
	jq -c 'select(.label == "night-20") | .label = "mid" | .session = "s-mid" |
	    if .load == "fork_load" then .wall_s = (.wall_s - 0.47) else . end' "$N" >mid.jsonl
	cat "$N" mid.jsonl >all.jsonl
	run -125 contest bisect -f all.jsonl night-10 night-20 mid
	[[ "${lines[0]}" == "fork_load Time: mid against night-10 +"*" (p="*"), against night-20 -"*": can't tell" ]]
	[[ "${lines[2]}" == "mid looks like neither: skip (0 of the step's 2 figures bad, 0 good, 2 can't tell; "* ]]
	run -125 --separate-stderr contest bisect -f "$N" night-10 night-20 nobody
	[ -z "$output" ]
	[ "$stderr" = "contest: no results for label 'nobody'" ]
}

@test "bisect: no step, and bad input: exit 2 with one line" {
	run -2 --separate-stderr contest bisect -f "$N" night-01 night-05 night-03
	[ -z "$output" ]
	[ "$stderr" = "contest: bisect: night-05 is not significantly worse than night-01 in any gated figure: no step to bisect" ]
	for bad in "a b" "a a b" "--format json a b c" "--threshold 5 a b c" "--alpha 2 a b c" \
	    "--gate bogus a b c"; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr contest bisect -f "$N" $bad
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" -eq 1 ]
	done
	run -2 --separate-stderr contest bisect -f "$N" --format json a b c
	[ "$stderr" = "contest: contest bisect has no option '--format' (see 'contest bisect --help')" ]
	run -0 contest bisect --help
	[[ "${lines[0]}" == "usage: contest bisect "* ]]
	run -0 contest --help
	[[ "$output" == *"  bisect   for git bisect run: "* ]]
}

@test "bisect: doc/reports.md's example is what contest prints" {
	run -1 contest bisect -f "$N" night-10 night-20 night-18
	[ "${#lines[@]}" -eq 3 ]
	for line in "${lines[@]}"; do
		grep -qxF "    $line" "$TOP_SRCDIR/doc/reports.md"
	done
}
