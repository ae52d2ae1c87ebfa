#!/usr/bin/env bats
# contest compare: significance marks, the threshold gate's exit status,
# every format, bad labels; and end to end, two labelled runs compared.

load helpers

D="$TOP_SRCDIR/tests/data/report"

# The text line of a load in compare's table.
cmp_line() {
	awk -v l="$1" '$1 == l { print; exit }' <<<"$2"
}

@test "compare: a real slowdown is marked significant, overlapping noise is not; exit 1" {
	run --separate-stderr contest compare base worse "$D/compare.jsonl"
	[ "$status" -eq 1 ]
	[ -z "$stderr" ]
	# fork_load: 12.00 -> 14.00 over 4 runs each with sd 0.08; the same
	# 2500 children in a longer time are a lower rate: Loads compare rates
	[[ "$(cmp_line fork_load "$output")" =~ ^fork_load\ +12\.00\ +14\.00\ +\+16\.67%\*\ +1\.20\ +1\.40\ +\+16\.67%\*\ +209/s\ +179/s\ +-14\.30%$ ]]
	# sleepers: 11.25 -> 11.38, sd about 1.7 on both sides
	[[ "$(cmp_line sleepers:n=100 "$output")" =~ \+1\.11%\ + ]]
	[[ "$(cmp_line sleepers:n=100 "$output")" != *"*"* ]]
	[ "$(tail -1 <<<"$output")" = "worse against base: 1 of 3 loads regressed beyond 5%: fork_load Time +16.7% (p=3.9e-08) Ratio +16.7% (p=2e-06)" ]
}

@test "compare: an improvement is significant but no regression; exit 0" {
	run contest compare base better "$D/compare.jsonl"
	[ "$status" -eq 0 ]
	[[ "$(cmp_line fork_load "$output")" == *"-8.33%*"* ]]
	[ "$(tail -1 <<<"$output")" = "better against base: no significant regression beyond 5% in 3 loads" ]
}

@test "compare --threshold: the gate opens above the change and closes below it" {
	run contest compare --threshold 20 base worse "$D/compare.jsonl"
	[ "$status" -eq 0 ]
	run contest compare --threshold 16.5 base worse "$D/compare.jsonl"
	[ "$status" -eq 1 ]
	run contest compare --threshold 16.7 base worse "$D/compare.jsonl"
	[ "$status" -eq 0 ]
	# options may follow the labels
	run contest compare base worse "$D/compare.jsonl" --threshold 20
	[ "$status" -eq 0 ]
}

@test "compare --stats: p-values, and Welch's p agrees with the fixture's spread" {
	run contest compare --stats --format csv base worse "$D/compare.jsonl"
	[ "$status" -eq 1 ]
	awk -F, '$1 == "fork_load" { ok = $11 < 0.0001 && $12 == 1 && $21 == 1 } END { exit !ok }' <<<"$output"
	awk -F, '$1 == "sleepers:n=100" { ok = $11 > 0.5 && $12 == 0 && $21 == 0 } END { exit !ok }' <<<"$output"
	run contest compare --stats base worse "$D/compare.jsonl"
	[ "$status" -eq 1 ]
	grep -q 'p(Time)  p(Ratio)  Runs' <<<"$output"
	[[ "$(cmp_line sleepers:n=100 "$output")" =~ \ 0\.92[0-9][0-9]\ +0\.93[0-9][0-9]\ +4/4$ ]]
}

@test "compare: csv, json, md and junit all parse, one entry per load" {
	run --separate-stderr contest compare --format csv base worse "$D/compare.jsonl"
	[ "$status" -eq 1 ]
	[ "$(wc -l <<<"$output")" -eq 4 ]
	[ "$(csv_columns <<<"$output" | sort -u)" = 22 ]
	run --separate-stderr contest compare --format json base worse "$D/compare.jsonl"
	[ "$status" -eq 1 ]
	jq -e '.loads | length == 3' <<<"$output"
	jq -e '.regressed == 1 and .baseline == "base" and .threshold_pct == 5' <<<"$output"
	jq -e '.loads[1] | .load == "fork_load" and .regressed and .time_significant' <<<"$output"
	if command -v python3 >/dev/null; then python3 -m json.tool <<<"$output" >/dev/null; fi
	run --separate-stderr contest compare --format md base worse "$D/compare.jsonl"
	[ "$status" -eq 1 ]
	[ "$(grep '^|' <<<"$output" | awk -F'|' '{ print NF }' | sort -u)" = 12 ]
	grep -q '^| fork_load | 12.00 | 14.00 | +16.67%\* |' <<<"$output"
	run --separate-stderr contest compare --format junit base worse "$D/compare.jsonl"
	[ "$status" -eq 1 ]
	if command -v xmllint >/dev/null; then xmllint --noout - <<<"$output"; fi
	[ "$(grep -c '<testcase ' <<<"$output")" -eq 3 ]
	[ "$(grep -c '<failure ' <<<"$output")" -eq 1 ]
	grep -q 'tests="3" failures="1"' <<<"$output"
	grep -q 'failure type="regression" message="Time +16.7% (p=3.9e-08), Ratio +16.7% (p=2e-06) beyond 5%"' <<<"$output"
}

@test "compare: unknown, equal, ambiguous labels and a missing second label are bad input" {
	run --separate-stderr contest compare base nosuch "$D/compare.jsonl"
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest: no results for label 'nosuch'" ]
	run --separate-stderr contest compare base base "$D/compare.jsonl"
	[ "$status" -eq 2 ]
	run --separate-stderr contest compare same two "$D/hosts.jsonl"
	[ "$status" -eq 2 ]
	grep -q "label 'same' was measured on more than one host" <<<"$stderr"
	run --separate-stderr contest compare base
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	# a row named as the report names it works
	run contest compare same@alpha same@beta "$D/hosts.jsonl"
	[ "$status" -eq 1 ]
	[[ "$(cmp_line no_load "$output")" == *"+19.61%*"* ]]
}

@test "compare end to end: two labelled runs of a tiny job, then report, chart and gate" {
	run contest -k first -n 2 --lead 0.1 -l sleepers:n=5 -- sleep 0.05
	[ "$status" -eq 0 ]
	run contest -k second -n 2 --lead 0.1 -l sleepers:n=5 -- sleep 0.05
	[ "$status" -eq 0 ]
	run contest report --svg "$BATS_TEST_TMPDIR/c.svg"
	[ "$status" -eq 0 ]
	# each row: two runs of a sleep 0.05 (and contest's start of it)
	for k in first second; do
		row=$(block_row sleepers:n=5 "$k" "$output")
		awk -v k="$k" '$1 == k && $2 == 2 { t = $3; sub(/±.*/, "", t); ok = t >= 0.05 && t < 1 } END { exit !ok }' <<<"$row"
	done
	[ "$(grep -c 'class="bar"' "$BATS_TEST_TMPDIR/c.svg")" -eq 2 ]
	# a 10x slowdown of sleep is not what noise does: the gate must pass
	run contest compare --threshold 900 first second
	[ "$status" -eq 0 ]
	[[ "$(tail -1 <<<"$output")" == "second against first: no significant regression beyond 900% in 2 loads" ]]
}
