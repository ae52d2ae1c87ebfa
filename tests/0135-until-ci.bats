#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --until-ci PCT: rounds are added (3 at least, -n at most) until every
# load's Ratio CI95 is within PCT% of it; the table says how it ended.

load helpers

@test "until-ci: a steady job stops early, and says after how many rounds" {
	[ "$(nproc)" -ge 2 ] || skip "the job and the spinner need a CPU each"
	# the job on CPU 0, the spinner on CPU 1: nothing between them.  A
	# sleep's time within 50%: what stops a session early is the rule,
	# not a quiet machine (10 rounds would need a CoV near 45% to miss it;
	# how soon 5% is reached is the machine's to say)
	run --separate-stderr contest --until-ci 50 --warmup 0 -n 10 --lead 0.1 --job-cpus 0 --load-cpus 1 \
	    -l cpu_load:n=1 -- sleep 0.3
	[ "$status" -eq 0 ]
	line=$(grep '^until-ci ' <<<"$output")
	[[ "$line" =~ ^until-ci\ 50%:\ stopped\ after\ ([0-9]+)\ of\ at\ most\ 10\ rounds:\ every\ Ratio\'s\ CI95\ within\ 50%\ of\ it$ ]]
	n=${BASH_REMATCH[1]}
	[ "$n" -ge 3 ]
	[ "$n" -lt 10 ]
	# every round ran whole: n runs of each, each result saying why it may stop
	[ "$(rq '[.[] | select(.load == "no_load")] | length')" -eq "$n" ]
	[ "$(rq '[.[] | select(.load == "cpu_load")] | length')" -eq "$n" ]
	[ "$(rq -c '[.[] | .until_ci_pct] | unique')" = "[50]" ]
	# the table's own interval is what stopped it (as printed: to two
	# decimals, so within half a hundredth of 50%)
	row=$(block_row cpu_load:n=1 "$(uname -r)" "$output")
	echo "# $row" >&3
	awk -v n="$n" '$2 == n { split($NF, a, "±"); ok = a[2] != "" && a[2] <= 0.5 * a[1] + 0.005 } END { exit !ok }' <<<"$row"
}

@test "until-ci: a noisy job runs to -n and names the cell that never got there" {
	# the job alternates 0.1 s and 0.4 s: no interval gets within 5%
	run --separate-stderr contest --until-ci 5 --warmup 0 -n 5 --lead 0 -l sleepers:n=2 -- \
	    sh -c 'n=$(cat c 2>/dev/null || echo 0); echo $((n + 1)) > c; sleep 0.$(( (n % 2) * 3 + 1))'
	[ "$status" -eq 0 ]
	[[ "$(grep '^until-ci ' <<<"$output")" =~ ^until-ci\ 5%:\ ran\ 5\ rounds,\ -n\'s\ most\;\ not\ within\ 5%:\ sleepers:n=2\ \(±[0-9.]+%\)$ ]]
	[ "$(rq 'length')" -eq 10 ]
}

@test "until-ci: too few rounds and a bad percentage are bad input" {
	run --separate-stderr contest --until-ci 5 -n 2 -- true
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest: --until-ci: -n 2 is too few (at least 3 rounds)" ]
	for v in 0 -1 101 5% x; do
		run --separate-stderr contest --until-ci "$v" -- true
		[ "$status" -eq 2 ]
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
	done
	[ ! -e "$R" ]
}
