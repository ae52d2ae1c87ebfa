#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# contest history: the labels as nights in time order, a point each, and
# the change points, over tests/data/report/nights.jsonl (synthetic: 24
# nights of no_load and fork_load, 3 runs each, 0.5% noise, fork_load
# 8% slower from night-16 on); every figure checked against jq.

load helpers

N="$TOP_SRCDIR/tests/data/report/nights.jsonl"

@test "history: the step is found where it is, a regression, and nowhere else" {
	# it ends worse than it was: exit 1, the nightly gate
	run -1 contest history -f "$N"
	[[ "${lines[${#lines[@]} - 1]}" == "3 series, 2 change points, 2 regressions, 2 ending worse than before "* ]]
	run -0 grep -c '^  regression: night-15 -> night-16: +[78]\.[0-9]*% (CI95 ' <<<"$output"
	[ "$output" = 2 ]
	run -0 contest history -f "$N" -l no_load
	[[ "$output" == *"1 series, 0 change points, 0 regressions, 0 ending worse "* ]]
}

@test "history: each point is its label's mean in time order, and the change is the segments' means' (jq)" {
	run -1 contest history -f "$N" -l fork_load --figure time --format json
	echo "$output" >h.json
	run -0 jq -r '.series | length' h.json
	[ "$output" = 1 ]
	# the points: every label's mean wall_s, in the order its runs began
	jq -s -r 'map(select(.load == "fork_load")) | group_by(.label) |
	    map({l: .[0].label, t: (map(.timestamp) | min), m: (map(.wall_s) | add / length)}) |
	    sort_by(.t) | .[] | "\(.l) \(.m)"' "$N" >want
	jq -r '.series[0].points[] | "\(.label) \(.mean)"' h.json >got
	[ "$(wc -l <got)" -eq 24 ]
	run -0 awk 'NR == FNR { w[FNR] = $0; next }
	    { split(w[FNR], a, " "); if (a[1] != $1 || (a[2] - $2) ^ 2 > 1e-10) { print FNR ": " w[FNR] " / " $0; bad = 1 } }
	    END { exit bad }' want got
	# the change: after the means of the points either side of it
	run -0 jq -r '.series[0] | .change_points as $c | ($c | length), $c[0].index,
	    $c[0].before, $c[0].after, $c[0].verdict,
	    ((.points[$c[0].index:] | map(.mean) | add / length) as $a |
	     (.points[:$c[0].index] | map(.mean) | add / length) as $b |
	     (100 * ($a - $b) / $b - $c[0].change_pct | fabs < 0.001)),
	    ($c[0].ci95_lo_pct < $c[0].change_pct and $c[0].change_pct < $c[0].ci95_hi_pct),
	    ($c[0].p < 0.001)' h.json
	[ "${lines[0]}" = 1 ]
	[ "${lines[1]}" = 15 ]
	[ "${lines[2]}" = night-15 ]
	[ "${lines[3]}" = night-16 ]
	[ "${lines[4]}" = regression ]
	[ "${lines[5]}" = true ]
	[ "${lines[6]}" = true ]
	[ "${lines[7]}" = true ]
}

@test "history: csv has a row per point, the change on the first point after it; md a table" {
	run -1 contest history -f "$N" --format csv
	[ "${lines[0]}" = "host,command,load,figure,index,label,timestamp,runs,mean,ci95,change_pct,change_lo_pct,change_hi_pct,p,verdict" ]
	[ "${#lines[@]}" -eq $((1 + 3 * 24)) ]
	run -0 awk -F, 'NR > 1 && $15 != "" { print $3, $4, $5, $6, $15 }' <<<"$output"
	[ "${lines[0]}" = "fork_load time_amean 15 night-16 regression" ]
	[ "${lines[1]}" = "fork_load ratio 15 night-16 regression" ]
	[ "${#lines[@]}" -eq 2 ]
	run -1 contest history -f "$N" --figure ratio --format md
	[ "${lines[0]}" = "### fork_load, Ratio on box, make -j2 bzImage:" ]
	run -0 grep -c '^| night-[0-9]* | 2026-11-[0-9T:.]*Z | 3 | 1\.[0-9][0-9] | ±0\.[0-9][0-9] |$' <<<"$output"
	[ "$output" = 24 ]
}

@test "history: the filters choose the nights, and a threshold above the step makes it can't tell or no change" {
	# nights before the step: nothing changed (and no Ratio without no_load)
	run -0 contest history -f "$N" -l fork_load -k night-01 -k night-02 -k night-03 \
	    -k night-04 -k night-05 -k night-06 -k night-07 -k night-08
	[[ "$output" == *"1 series, 0 change points, 0 regressions, 0 ending worse "* ]]
	[ "$(grep -c '^  night-0' <<<"$output")" -eq 8 ]
	run -1 contest history -f "$N" -l fork_load --figure time --since 2026-11-10 --format json
	run -0 jq -r '.series[0] | (.points | length), .change_points[0].before' <<<"$output"
	[ "${lines[0]}" = 15 ]
	[ "${lines[1]}" = night-15 ]
	# a threshold of 20%: the step is real, but within it
	run -0 contest history -f "$N" -l fork_load --figure time --threshold 20
	[[ "$output" == *"  no change: night-15 -> night-16: +"* ]]
	[[ "$output" == *"1 series, 1 change point, 0 regressions, 0 ending worse "* ]]
}

@test "history: named in contest --help, its own --help, and bad input is exit 2 with one line" {
	run -0 contest --help
	[[ "$output" == *"  history  the labels as a series of nights"* ]]
	run -0 contest history --help
	[[ "${lines[0]}" == "usage: contest history "* ]]
	for bad in "--figure bogus" "--format svg" "--stats" "--threshold -1" \
	    "--gate time" "extra" "--last 5" "--last x" "--report --format junit"; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr contest history -f "$N" $bad
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" -eq 1 ]
	done
	run -1 contest history -f "$N" -k nobody
	[[ "$output" == *"no results match the filters"* ]]
}

@test "history: doc/reports.md's examples are what contest prints" {
	run -1 --separate-stderr contest history -f "$N" -l fork_load --figure time
	local n=0
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		grep -qxF "    $line" "$TOP_SRCDIR/doc/reports.md" ||
		    { echo "# not in doc/reports.md: $line" >&3; return 1; }
		n=$((n + 1))
	done <<<"$output"
	[ "$n" -eq 28 ]
	run -1 --separate-stderr contest history -f "$N" --report
	n=0
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		grep -qxF "    $line" "$TOP_SRCDIR/doc/reports.md" ||
		    { echo "# not in doc/reports.md: $line" >&3; return 1; }
		n=$((n + 1))
	done <<<"$output"
	[ "$n" -eq 11 ]
}

# tests/data/report/steps.jsonl (synthetic): 20 hosts of 30 nights, one
# run each, 1% noise; s01-s07 without a step, s08-s15 one step of 4 to 6
# sigma, s16-s20 a rise and a fall (a bump), as the generator placed them.
S="$TOP_SRCDIR/tests/data/report/steps.jsonl"

@test "history: change points where the steps were put, and where R's strucchange puts the same number" {
	run -1 --separate-stderr contest history -f "$S" --figure time --format json
	# a label on 20 hosts is the rule here (a series per host), no warning
	[ -z "$stderr" ]
	echo "$output" >h.json
	jq -r '.series[] | "\(.host) \([.change_points[].index] | join(","))"' h.json >ours
	printf '%s\n' s01 s02 s03 s04 s05 s06 s07 "s08 13" "s09 14" "s10 18" "s11 24" \
	    "s12 23" "s13 5" "s14 23" "s15 23" "s16 10,22" "s17 7,20" "s18 8,15" \
	    "s19 10,17" "s20 11,20" >truth
	run diff <(sed 's/ *$//' ours) truth
	[ "$status" -eq 0 ]
	command -v Rscript >/dev/null || skip "no Rscript: the cross-check against R is left out (scripts/bootstrap --cross-checks installs r-cran-strucchange)"
	Rscript -e 'library(strucchange)' >/dev/null 2>&1 || skip "no R strucchange: the cross-check against R is left out (scripts/bootstrap --cross-checks installs r-cran-strucchange)"
	jq -r '.series[] | "\(.host) \(.change_points | length) \([.points[].mean] | join(","))"' h.json >values
	# strucchange's least-squares partition into as many segments as
	# contest found, and its sup-F test of one break against none
	cat >bp.R <<'R'
suppressPackageStartupMessages(library(strucchange))
for (l in readLines("values")) {
	f <- strsplit(l, " ")[[1]]
	k <- as.integer(f[2])
	y <- as.numeric(strsplit(f[3], ",")[[1]])
	p <- sctest(Fstats(y ~ 1, from = 3))$p.value
	bp <- if (k > 0) paste(breakpoints(y ~ 1, h = 3, breaks = k)$breakpoints, collapse = ",") else ""
	cat(f[1], k, p, bp, "\n")
}
R
	Rscript bp.R >theirs
	[ "$(wc -l <theirs)" -eq 20 ]
	# the same places wherever contest found a change
	run diff <(awk '$2 > 0 { print $1, $4 }' theirs) <(awk 'NF > 1' ours)
	[ "$status" -eq 0 ]
	# no single break by the sup-F test where contest found none, and
	# one, strongly, where contest found one
	run awk '($2 == 0 && $3 < 0.01) || ($2 == 1 && $3 >= 0.001) { print; bad = 1 } END { exit bad }' theirs
	[ "$status" -eq 0 ]
}

@test "history --report: one robot's block per regressed night and load, its figures checked with jq" {
	run -1 contest history -f "$N" --report
	[ "${lines[0]}" = "+7.9% regression of fork_load Time at night-16 (from night-15), box, make -j2 bzImage" ]
	# Ratio regressed at the same night: the same block, not a second one
	[ "$(grep -c ' regression of ' <<<"$output")" -eq 1 ]
	[[ "${lines[1]}" == "  base: night-01..night-15 (15 labels), new: night-16..night-24 (9); change CI95 +"* ]]
	# base and new: the mean of the label means either side, to the digit shown
	want=$(jq -s -r 'map(select(.load == "fork_load")) | group_by(.label) |
	    map({l: .[0].label, m: (map(.wall_s) | add / length)}) |
	    [(map(select(.l < "night-16") | .m) | add / length),
	     (map(select(.l >= "night-16") | .m) | add / length)] |
	    "\(.[0]) \(.[1])"' "$N" | awk '{ printf "%.2f %.2f", $1, $2 }')
	run -0 awk '$NF == "Time" && $(NF - 1) == "*" { printf "%s %s", $1, $5 }' <<<"$output"
	[ "$output" = "$want" ]
	run -1 contest history -f "$N" --report
	grep -Eq '^ +1\.20 ± +[0-9.]+% +\+7\.9% +1\.30 ± +[0-9.]+% +\* Ratio$' <<<"$output"
	# Wait% did not move: no star
	grep -Eq '^ +1\.6 ± +0\.0% +\+0\.0% +1\.6 ± +0\.0% +Wait%$' <<<"$output"
	grep -qx '  kernel   night-15: 6.18.0-night-15, night-16: 6.18.0-night-16' <<<"$output"
	run -1 contest history -f "$N" --report --format md
	[ "${lines[0]}" = "### +7.9% regression of fork_load Time at night-16 (from night-15), box, make -j2 bzImage" ]
	grep -Eqx '\| 12\.[0-9]{2} \| ± [0-9.]+% \| \+7\.9% \| 12\.[0-9]{2} \| ± [0-9.]+% \| \* Time \|' <<<"$output"
	# none to report; and not as json
	run -0 contest history -f "$N" -k night-01 -k night-02 -k night-03 --report
	[ "$output" = "no regression beyond 5% in 3 series (0 change points)" ]
	run -2 --separate-stderr contest history -f "$N" --report --format json
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "history --last and junit: the newest nights decide; a series that ends worse fails" {
	# the last 12 nights: the step at night-16 still inside them
	run -1 contest history -f "$N" -l fork_load --figure time --last 12 --format json
	run -0 jq -r '.series[0] | (.points | length), .points[0].label, .change_points[0].after, .ending_worse' <<<"$output"
	[ "${lines[0]}" = 12 ]
	[ "${lines[1]}" = night-13 ]
	[ "${lines[2]}" = night-16 ]
	# the last 8: all after the step, nothing changed: the gate passes
	run -0 contest history -f "$N" -l fork_load --figure time --last 8
	[[ "$output" == *"1 series, 0 change points, 0 regressions, 0 ending worse "* ]]
	run -1 contest history -f "$N" --format junit
	echo "$output" >h.xml
	grep -q '<testsuite name="contest history" tests="3" failures="2" errors="0" skipped="0">' h.xml
	[ "$(grep -c '<failure type="regression" message="night-16: +7.9% (CI +7\.[0-9]..+8\.[0-9]%, p=[0-9.e-]*) beyond 5%, since night-15"/>' h.xml)" -eq 2 ]
	grep -q '<testcase classname="contest.history.box" name="no_load Time">' h.xml
	need xmllint libxml2-utils
	xmllint --noout h.xml
}

@test "history --svg: a panel per series, a point per label, the change marked red" {
	run -1 contest history -f "$N" --svg h.svg
	[ "$(grep -c '<circle ' h.svg)" -eq $((3 * 24)) ]
	[ "$(grep -c 'class="title"' h.svg)" -eq 3 ]
	[ "$(grep -c '<line [^>]* class="cp bad"><title>regression: night-15 -&gt; night-16 +7\.[0-9]*% (CI95 ' h.svg)" -eq 2 ]
	grep -q '<title>night-16: 12\.9[0-9]*, 3 runs</title>' h.svg
	# before the step alone: no change, no line
	run -0 contest history -f "$N" -k night-01 -k night-02 -k night-03 --svg h2.svg
	run ! grep -q 'class="cp' h2.svg
	need xmllint libxml2-utils
	xmllint --noout h.svg
}

@test "history --format lava: a line per series, fail with its change where it ends worse" {
	run -1 contest history -f "$N" --format lava
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = "history-box-no_load-time_amean pass" ]
	[ "${lines[1]}" = "history-box-fork_load-time_amean fail 7.93 percent" ]
	[ "${lines[2]}" = "history-box-fork_load-ratio fail 7.95 percent" ]
}
