#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --sweep: one session at several job sizes, each value a cell with its
# own no_load, interleaved like loads, in the row key of report and
# compare; {NAME} substituted in COMMAND and --prepare.

load helpers

# The row "LABEL KEY" of a block in a table on stdin's $3.
sweep_row() {
	awk -v blk="$1:" -v lab="$2" -v key="$3" '
	    $0 == blk { inb = 1; next }
	    /^[^ ]+:$/ { inb = 0 }
	    inb && $1 == lab && $2 == key { print; exit }' <<<"$4"
}

@test "sweep: two values are two cells per load, each over its own no_load, stored with the substituted command" {
	run --separate-stderr contest -k k --warmup 0 -n 2 --lead 0.1 --sweep t=0.1,0.4 -l sleepers:n=5 -- sleep '{t}'
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(rq 'length')" -eq 8 ]
	[ "$(rq -c '[.[] | select(.sweep.t == "0.4")] | map(.command) | unique')" = '["sleep 0.4"]' ]
	[ "$(rq -c '[.[] | .command_template] | unique')" = '["sleep {t}"]' ]
	[ "$(rq -c '[.[] | select(.sweep.t == "0.1") | .load_spec] | sort')" = '["no_load","no_load","sleepers:n=5","sleepers:n=5"]' ]
	# each value's job took at least its own time: no_load 0.1 s and 0.4 s
	rq -e '[.[] | select(.load == "no_load" and .sweep.t == "0.4") | .wall_s] | min >= 0.4' >/dev/null
	rq -e '[.[] | select(.load == "no_load" and .sweep.t == "0.1") | .wall_s] | min >= 0.1' >/dev/null
	for t in 0.1 0.4; do
		row=$(sweep_row no_load k "t=$t" "$output")
		[ -n "$row" ]
		row=$(sweep_row sleepers:n=5 k "t=$t" "$output")
		# over its own no_load, whatever a busy host made of the sleeps
		# (the other cell's would give 4 or 1/4 of it)
		want=$(rq -r --arg t "$t" '[.[] | select(.sweep.t == $t)] |
		    (map(select(.load == "sleepers").wall_s) | add / length) / (map(select(.load == "no_load").wall_s) | add / length)')
		awk -v w="$want" '{ r = $NF; sub(/±.*/, "", r); ok = $3 == 2 && r - w <= 0.00501 && w - r <= 0.00501 } END { exit !ok }' <<<"$row"
	done
	# the report reads the same rows back
	run --separate-stderr contest report
	[ "$status" -eq 0 ]
	[ -n "$(sweep_row sleepers:n=5 k t=0.4 "$output")" ]
	[ -n "$(sweep_row sleepers:n=5 k t=0.1 "$output")" ]
}

@test "sweep: cells 8x apart in time are never held against each other: no ? but a cell's own, no warning, in the table, report and compare" {
	run --separate-stderr contest -k k --warmup 0 -n 3 --lead 0 --sweep t=0.2,1.6 -l sleepers:n=2 -- sleep '{t}'
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" != *"no work"* ]]
	# the ? after Time is the cell's own CoV above 5%, computed here from
	# its three runs (a busy machine may give one; the two cells held
	# together would give one always: their CoV is near 100%)
	for load in no_load sleepers:n=2; do
		for t in 0.2 1.6; do
			row=$(sweep_row "$load" k "t=$t" "$output")
			mark=$(rq -r --arg l "$load" --arg t "$t" '[.[] | select(.load_spec == $l and .sweep.t == $t) | .wall_s] |
			    (add / length) as $m | (map((. - $m) * (. - $m)) | add / (length - 1) | sqrt) / $m |
			    if . > 0.05 then "[?]" else "" end')
			[[ "$row" =~ ^k\ t=$t\ +3\ +[0-9.]+±[0-9.]+$mark\  ]]
		done
	done
	run --separate-stderr contest report --format json
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "$(jq -c '[.loads[].rows[] | [.runs, (.suspect_runs | length)]] | unique' <<<"$output")" = '[[3,0]]' ]
	# each row's runs are one cell's: no sleep of 0.2 s took 0.8 s, and
	# its noisy is its own CoV's
	jq -e 'all(.loads[].rows[]; (.time_runs_s | max) < 4 * (.time_runs_s | min))' <<<"$output" >/dev/null
	jq -e 'all(.loads[].rows[]; .noisy == (.time_s.cv > 0.05))' <<<"$output" >/dev/null
	# two labels: compare marks nothing and gates nothing on a noisy ?
	# (k2 is k's runs again, as another session: no change, whatever a
	# busy host made of k's sleeps)
	jq -c '.label = "k2" | .session = "s-k2"' "$R" > "$BATS_TEST_TMPDIR/k2.jsonl"
	run -0 --separate-stderr contest compare -f "$R" -f "$BATS_TEST_TMPDIR/k2.jsonl" k k2
	[ -z "$stderr" ]
	[[ "$output" != *"no work"* ]]
}

@test "sweep: cells are interleaved like loads, each round one unit further on" {
	run contest --warmup 0 -n 2 --lead 0 --sweep t=0.01,0.02 -l sleepers:n=2 -- sleep '{t}'
	[ "$status" -eq 0 ]
	# round 1: t=0.01 no_load, t=0.01 sleepers, t=0.02 no_load, t=0.02
	# sleepers; round 2 starts at the second of those
	[ "$(rq -r '.[] | "\(.round):\(.sweep.t):\(.load)"' | tr '\n' ' ')" = "0:0.01:no_load 0:0.01:sleepers 0:0.02:no_load 0:0.02:sleepers 1:0.01:sleepers 1:0.02:no_load 1:0.02:sleepers 1:0.01:no_load " ]
}

@test "sweep: every combination of two names, {NAME} in --prepare too" {
	run contest --warmup 0 -n 1 --lead 0 --sweep a=1,2 --sweep b=x,y --prepare 'echo {a}{b} >> prep.log' -- sh -c 'echo {a} {b} >> job.log'
	[ "$status" -eq 0 ]
	[ "$(sort prep.log | tr '\n' ' ')" = "1x 1y 2x 2y " ]
	[ "$(sort job.log | tr '\n' ' ')" = "1 x 1 y 2 x 2 y " ]
	[ "$(rq -c '[.[] | .sweep] | unique')" = '[{"a":"1","b":"x"},{"a":"1","b":"y"},{"a":"2","b":"x"},{"a":"2","b":"y"}]' ]
	[ "$(rq -r '[.[] | .prepare] | unique | .[]' | tr '\n' ' ')" = "echo 1x >> prep.log echo 1y >> prep.log echo 2x >> prep.log echo 2y >> prep.log " ]
	grep -q '^no_load:$' <<<"$output"
	[ "$(grep -c 'a=[12] b=[xy]' <<<"$output")" -ge 4 ]
}

@test "sweep: the documented make -j{j} example cleans each cell with its own make clean" {
	mkdir tree
	printf 'all:\n\t@touch built\nclean:\n\t@rm -f built; echo cleaned >> cleans\n' > tree/Makefile
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 --sweep j=1,2 -l sleepers:n=2 -- make -C tree -j'{j}' all
	[ "$status" -eq 0 ]
	[ "$(rq -c '[.[] | .command] | unique')" = '["make -C tree -j1 all","make -C tree -j2 all"]' ]
	[ "$(rq -c '[.[] | .prepare_inferred] | unique')" = '[true]' ]
	[ "$(wc -l < tree/cleans)" -eq 4 ]
	# compare: two cells per load, as "load j=N" blocks
	run contest -k other --warmup 0 -n 1 --lead 0 --sweep j=1,2 -l sleepers:n=2 -- make -C tree -j'{j}' all
	[ "$status" -eq 0 ]
	run contest compare "$(uname -r)" other
	[ "$status" -le 1 ]
	[ "$(grep -cE '^(no_load|sleepers:n=2) j=[12] ' <<<"$output")" -eq 4 ]
}

@test "sweep: bad sweeps are refused with one line and exit 2 before any run" {
	for args in "--sweep j -- sleep {j}" "--sweep j= -- sleep {j}" "--sweep j=1,,2 -- sleep {j}" \
	    "--sweep j=1,1 -- sleep {j}" "--sweep 1j=2 -- sleep {1j}" "--sweep j=1 -- sleep 1" \
	    "--sweep j=1 --sweep j=2 -- sleep {j}" "--sweep j=1 -- {j}sleep 1" \
	    "--sweep j=a{b} -- sleep {j}"; do
		# shellcheck disable=SC2086
		run --separate-stderr contest $args
		[ "$status" -eq 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
		[[ "$stderr" == "contest: --sweep: "* ]]
	done
	[ ! -e "$R" ]
}
