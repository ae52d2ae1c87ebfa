#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Verdicts at the edges, each on small results written here: a load
# whose runs failed fails the gate; suspects are judged per load; the
# change shown is the change tested; a line read twice counts once
# and the report is the file's once;
# bisect's step is decided once; history names a newest night it cannot
# place; the gate's power is a size; history keeps a step through a
# noise change and an outlier night.

load helpers

# Result lines from "SESSION LABEL LOAD RUN WALL STATUS [ROUND [VARIANT]]"
# on stdin, one per line: the fields contest reads and nothing else.
results() {
	awk '{
		printf "{\"schema\":2,\"contest_version\":\"0.3.0\",\"session\":\"%s\",", $1
		printf "\"timestamp\":\"2026-11-%02dT03:00:00.000Z\",\"host\":\"box\",", $9 ? $9 : 2
		printf "\"kernel\":\"%s\",\"label\":\"%s\",\"nproc\":2,\"cpu_model\":\"Test CPU\",", $2, $2
		printf "\"mem_total_kb\":24684084,\"command\":\"make -j2 bzImage\","
		printf "\"load\":\"%s\",\"load_spec\":\"%s\",\"run\":%d,", $3, $3, $4
		if ($7 != "" && $7 != "-") printf "\"round\":%d,", $7
		if ($8 != "" && $8 != "-") printf "\"variant\":\"%s\",", $8
		printf "\"warmup\":false,\"status\":\"%s\",\"exit_code\":%d,", $6, $6 == "ok" ? 0 : 1
		printf "\"wall_s\":%s,\"cpu_pct\":150.0,\"lcpu_pct\":0.0,\"counters\":{},\"headline\":\"\"}\n", $5
	}'
}

# base and cand: no_load 10 s and fork_load 15 s, three runs each; the
# status of cand's fork_load runs, of its no_load runs, and of base's
# fork_load runs as given.
two_kernels() {
	local i
	for i in 1 2 3; do
		echo "sb base no_load $i 10.$i ok"
		echo "sb base fork_load $((i + 3)) 15.$i ${3:-ok}"
		echo "sc cand no_load $i 10.$i ${2:-ok}"
		echo "sc cand fork_load $((i + 3)) 15.$i $1"
	done | results
}

@test "compare: a candidate whose load's runs all failed fails the gate, --strict or not" {
	two_kernels failed > "$BATS_TEST_TMPDIR/r.jsonl"
	run --separate-stderr contest compare -f "$BATS_TEST_TMPDIR/r.jsonl" base cand
	[ "$status" -eq 1 ]
	[[ "$(tail -1 <<<"$output")" == "cand against base: failed "*": 3 of 3 runs failed under it: fork_load 3 of 3; "* ]]
	run --separate-stderr contest compare --strict -f "$BATS_TEST_TMPDIR/r.jsonl" base cand
	[ "$status" -eq 1 ]
	run --separate-stderr contest compare --format json -f "$BATS_TEST_TMPDIR/r.jsonl" base cand
	[ "$status" -eq 1 ]
	jq -e '.failed == 1 and .regressed == 0' <<<"$output"
	jq -e '.candidates[0] | .verdict == "failed" and .failed == [{"name": "fork_load", "failed": 3, "runs": 3}]' <<<"$output"
	run --separate-stderr contest compare --format junit -f "$BATS_TEST_TMPDIR/r.jsonl" base cand
	[ "$status" -eq 1 ]
	grep -qF '<testcase classname="contest.cand" name="fork_load runs">' <<<"$output"
	grep -qF '<failure type="failed" message="3 of 3 runs failed"/>' <<<"$output"
	grep -qF 'failures="1"' <<<"$output"
	run --separate-stderr contest compare --format lava -f "$BATS_TEST_TMPDIR/r.jsonl" base cand
	[ "$status" -eq 1 ]
	grep -qx 'cand-fork_load-runs fail 3 failed' <<<"$output"
	[ "$(tail -1 <<<"$output")" = "cand-verdict fail" ]
}

@test "compare: one failed run of three fails the candidate; none passes as before" {
	{ for i in 1 2 3; do
		echo "sb base no_load $i 10.$i ok"
		echo "sb base fork_load $((i + 3)) 15.$i ok"
		echo "sc cand no_load $i 10.$i ok"
		echo "sc cand fork_load $((i + 3)) 15.$i $([ "$i" -eq 2 ] && echo failed || echo ok)"
	done; } | results > "$BATS_TEST_TMPDIR/r.jsonl"
	run --separate-stderr contest compare -f "$BATS_TEST_TMPDIR/r.jsonl" base cand
	[ "$status" -eq 1 ]
	[[ "$(tail -1 <<<"$output")" == "cand against base: failed "*": 1 of 3 runs failed under it: fork_load 1 of 3; "* ]]
	two_kernels ok > "$BATS_TEST_TMPDIR/ok.jsonl"
	run --separate-stderr contest compare --strict -f "$BATS_TEST_TMPDIR/ok.jsonl" base cand
	[ "$status" -eq 0 ]
	[[ "$(tail -1 <<<"$output")" == "cand against base: no change "* ]]
}

@test "compare: a candidate every run of which failed is failed, not can't tell, and --strict is not 0" {
	two_kernels failed failed > "$BATS_TEST_TMPDIR/r.jsonl"
	run --separate-stderr contest compare -f "$BATS_TEST_TMPDIR/r.jsonl" base cand
	[ "$status" -eq 1 ]
	[[ "$(tail -1 <<<"$output")" == "cand against base: failed "*": 6 of 6 runs failed under it: no_load 3 of 3, fork_load 3 of 3"* ]]
	run --separate-stderr contest compare --strict -f "$BATS_TEST_TMPDIR/r.jsonl" base cand
	[ "$status" -eq 1 ]
}

@test "compare: a load the candidate never ran, or ran only in a failed warmup, can't tell: named, --strict exits 3, JUnit and LAVA fail it" {
	# a kernel that panics under fork_load writes no line of it
	two_kernels ok | grep -v '"label":"cand".*"load":"fork_load"' > r.jsonl
	[ "$(grep -c '"label":"cand"' r.jsonl)" -eq 3 ]
	run -0 --separate-stderr contest compare -f r.jsonl --gate time base cand
	[[ "$(tail -1 <<<"$output")" == "cand against base: can't tell "*"undecided: fork_load (no measured run under cand: not run, or only its warmup); 1 of 2 gated figures within "* ]]
	run -3 --separate-stderr contest compare --strict -f r.jsonl --gate time base cand
	run -0 --separate-stderr contest compare --format json -f r.jsonl --gate time base cand
	jq -e '.candidates[0] | .verdict == "can'"'"'t tell" and .not_run == 1 and .baseline_failed == 0 and .failed == []' <<<"$output"
	run -0 --separate-stderr contest compare --format junit -f r.jsonl --gate time base cand
	grep -qF '<testcase classname="contest.cand" name="fork_load runs">' <<<"$output"
	grep -qF '<failure type="not run" message="no measured run: not run, or only its warmup"/>' <<<"$output"
	grep -qF 'failures="1"' <<<"$output"
	run -0 --separate-stderr contest compare --format lava -f r.jsonl --gate time base cand
	grep -qx 'cand-fork_load-runs fail 0 runs' <<<"$output"
	[ "$(tail -1 <<<"$output")" = "cand-verdict unknown" ]
	# its one run a warmup that failed: no measured run either
	{ cat r.jsonl; echo "sc cand fork_load 4 15.1 failed" | results |
	    sed 's/"warmup":false/"warmup":true/'; } > w.jsonl
	run -3 --separate-stderr contest compare --strict -f w.jsonl --gate time base cand
	[[ "$(tail -1 <<<"$output")" == *"fork_load (no measured run under cand: not run, or only its warmup)"* ]]
	# the baseline's load alone missing is as before: no verdict on it
	two_kernels ok | grep -v '"label":"base".*"load":"fork_load"' > b.jsonl
	run -0 --separate-stderr contest compare --strict -f b.jsonl --gate time base cand
	[[ "$(tail -1 <<<"$output")" == "cand against base: no change "* ]]
}

@test "compare: a load whose every baseline run failed can't tell, and --strict exits 3" {
	two_kernels ok ok failed > "$BATS_TEST_TMPDIR/r.jsonl"
	run --separate-stderr contest compare -f "$BATS_TEST_TMPDIR/r.jsonl" base cand
	[ "$status" -eq 0 ]
	[[ "$(tail -1 <<<"$output")" == "cand against base: can't tell "*"fork_load (every run of base failed: nothing to compare)"* ]]
	run --separate-stderr contest compare --strict -f "$BATS_TEST_TMPDIR/r.jsonl" base cand
	[ "$status" -eq 3 ]
	run -0 --separate-stderr contest compare --format json -f "$BATS_TEST_TMPDIR/r.jsonl" base cand
	jq -e '.candidates[0] | .verdict == "can'"'"'t tell" and .baseline_failed == 1 and .failed == []' <<<"$output"
}

@test "report: a session that began with a load seven times no_load keeps its runs: suspects are judged per load" {
	# six rounds, rotated: round 1 begins with io_load (the classic
	# io_load and mem_load ratios are five and more)
	local i
	for i in 1 2 3 4 5 6; do
		if [ $((i % 2)) -eq 1 ]; then
			echo "s1 k io_load $((2 * i - 1)) 7$i.0 ok $i"
			echo "s1 k no_load $((2 * i)) 10.$i ok $i"
		else
			echo "s1 k no_load $((2 * i - 1)) 10.$i ok $i"
			echo "s1 k io_load $((2 * i)) 7$i.0 ok $i"
		fi
	done | results > "$BATS_TEST_TMPDIR/r.jsonl"
	run --separate-stderr contest report --format json "$BATS_TEST_TMPDIR/r.jsonl"
	[ "$status" -eq 0 ]
	jq -e '[.loads[] | {(.load): .rows[0].runs}] | add == {"no_load": 6, "io_load": 6}' <<<"$output"
	run --separate-stderr contest report "$BATS_TEST_TMPDIR/r.jsonl"
	[ "$status" -eq 0 ]
	[[ "$output" != *"may have done no work"* ]]
	[[ "$stderr" != *"may have done no work"* ]]
	# a job whose first run built and whose others did nothing is still
	# caught, in every load
	for i in 1 2 3; do
		echo "s2 k no_load $((2 * i - 1)) $([ "$i" -eq 1 ] && echo 70.0 || echo 0.3) ok $i"
		echo "s2 k io_load $((2 * i)) 0.3 ok $i"
	done | results > "$BATS_TEST_TMPDIR/r.jsonl"
	run --separate-stderr contest report --format json "$BATS_TEST_TMPDIR/r.jsonl"
	[ "$status" -eq 0 ]
	jq -e '[.loads[] | {(.load): .rows[0].runs}] | add == {"no_load": 1, "io_load": 0}' <<<"$output"
}

@test "compare: the change shown is the change tested, over the rounds the paired test used" {
	# one session of five rounds, A then B; the machine was slow in
	# round 5, and the session stopped before B's run of it: the means
	# over every run say -24%, the rounds both ran +6%
	local a=(10.0 10.01 9.99 10.0 30.0) b=(10.6 10.62 10.58 10.61) i
	for i in 1 2 3 4 5; do
		echo "s1 k no_load $((2 * i - 1)) ${a[i - 1]} ok $i A"
		[ "$i" -gt 4 ] || echo "s1 k no_load $((2 * i)) ${b[i - 1]} ok $i B"
	done | results > "$BATS_TEST_TMPDIR/v.jsonl"
	run --separate-stderr contest compare -f "$BATS_TEST_TMPDIR/v.jsonl" k/A k/B
	[ "$status" -eq 1 ]
	[[ "$(grep '^Amean     Time' <<<"$output")" == *"*   +6.02%*" ]]
	[ "$(tail -1 <<<"$output")" = "k/B against k/A: regression (paired over 4 rounds): 1 of 1 load regressed beyond 5%: no_load Time +6.0% (CI95 +5.9..+6.2%, p=8.9e-07)" ]
	run --separate-stderr contest compare --format json -f "$BATS_TEST_TMPDIR/v.jsonl" k/A k/B
	[ "$status" -eq 1 ]
	jq -e '.loads[0].figures[] | select(.figure == "time_amean") | .values[1] |
	    .change_pct == .estimate_pct and .pairs == 4 and .test == "paired" and (.change_pct - 6.02 | fabs) < 0.01' <<<"$output"
	jq -e '.loads[0].figures[] | select(.figure == "time_amean") | .values[1].p | . > 8.8e-07 and . < 9e-07' <<<"$output"
	run -1 --separate-stderr contest compare --format csv -f "$BATS_TEST_TMPDIR/v.jsonl" k/A k/B
	[ "$(awk -F, '$3 == "time_amean" && $4 == "k/B" { print ($9 == $18) }' <<<"$output")" = 1 ]
}

@test "compare: a line read twice, from one file given twice or a copy in the directory, is one run, with one warning naming the files" {
	local a=(10.0 10.2 9.9 10.1 10.0 9.8) i
	for i in 1 2 3 4 5 6; do
		echo "s1 k no_load $i ${a[i - 1]} ok $i A"
		echo "s1 k no_load $i 10.$((60 + i)) ok $i B"
	done | results > "$BATS_TEST_TMPDIR/v.jsonl"
	run --separate-stderr contest compare --format json -f "$BATS_TEST_TMPDIR/v.jsonl" k/A k/B
	[ "$status" -eq 1 ]
	[ -z "$stderr" ]
	once=$(jq -c '.loads[0].figures[] | select(.figure == "time_amean") | .values[1] | [.runs, .pairs, .ci_lo_pct, .ci_hi_pct]' <<<"$output")
	[[ "$once" == "[6,6,"* ]]
	run --separate-stderr contest compare --format json -f "$BATS_TEST_TMPDIR/v.jsonl" -f "$BATS_TEST_TMPDIR/v.jsonl" k/A k/B
	[ "$status" -eq 1 ]
	[ "$(jq -c '.loads[0].figures[] | select(.figure == "time_amean") | .values[1] | [.runs, .pairs, .ci_lo_pct, .ci_hi_pct]' <<<"$output")" = "$once" ]
	[ "$stderr" = "contest compare: 12 runs read twice, counted once (the same session, run, load, variant and sweep cell): $BATS_TEST_TMPDIR/v.jsonl read twice" ]
	# a copy beside it in the results directory
	mkdir "$BATS_TEST_TMPDIR/dir"
	cp "$BATS_TEST_TMPDIR/v.jsonl" "$BATS_TEST_TMPDIR/dir/a.jsonl"
	cp "$BATS_TEST_TMPDIR/v.jsonl" "$BATS_TEST_TMPDIR/dir/b.jsonl"
	run --separate-stderr contest compare --format json -f "$BATS_TEST_TMPDIR/dir" k/A k/B
	[ "$status" -eq 1 ]
	[ "$(jq -c '.loads[0].figures[] | select(.figure == "time_amean") | .values[1] | [.runs, .pairs, .ci_lo_pct, .ci_hi_pct]' <<<"$output")" = "$once" ]
	[ "$stderr" = "contest compare: 12 runs read twice, counted once (the same session, run, load, variant and sweep cell): $BATS_TEST_TMPDIR/dir/a.jsonl and $BATS_TEST_TMPDIR/dir/b.jsonl" ]
	# failed runs too: three, not six
	two_kernels failed > "$BATS_TEST_TMPDIR/f.jsonl"
	run --separate-stderr contest compare --format json -f "$BATS_TEST_TMPDIR/f.jsonl" -f "$BATS_TEST_TMPDIR/f.jsonl" base cand
	[ "$status" -eq 1 ]
	jq -e '.candidates[0].failed == [{"name": "fork_load", "failed": 3, "runs": 3}]' <<<"$output"
	[[ "$stderr" == "contest compare: 12 runs read twice, counted once "* ]]
	# the report's runs
	run --separate-stderr contest report --format json "$BATS_TEST_TMPDIR/v.jsonl" "$BATS_TEST_TMPDIR/v.jsonl"
	[ "$status" -eq 0 ]
	jq -e '[.loads[0].rows[].runs] == [6, 6]' <<<"$output"
	# a report over a file given twice, or over a directory of two
	# copies, is its report over the file once, its notes on the runs
	# that stand out too (each copy was added, then taken out by reading
	# it again, up to 0192d8a: the notes went with them)
	ex=$TOP_SRCDIR/doc/example-nice.jsonl
	run -0 --separate-stderr contest report "$ex"
	local one=$output
	[ "$(grep -c 'stands out' <<<"$one")" -ge 1 ]
	run -0 --separate-stderr contest report "$ex" "$ex"
	[ "$output" = "$one" ]
	mkdir "$BATS_TEST_TMPDIR/ex"
	cp "$ex" "$BATS_TEST_TMPDIR/ex/a.jsonl"
	cp "$ex" "$BATS_TEST_TMPDIR/ex/b.jsonl"
	run -0 --separate-stderr contest report "$BATS_TEST_TMPDIR/ex"
	[ "$output" = "$one" ]
	[[ "$stderr" == "contest report: "*" runs read twice, counted once "* ]]
}

@test "bisect --run: the step is decided once, at alpha, from GOOD and BAD alone; the looks never make it vanish (no 255)" {
	# BAD +20%, p = 0.041: a step at alpha 0.05, and none at the 0.025 of
	# each of -n 4 --min-runs 3's two looks.  The figure is a job metric,
	# m, that the candidate's job prints from a planted list: the call is
	# made on numbers no busy host moves (a sleep's Time is not one)
	local g=(0.200 0.201 0.199 0.200 0.202 0.198 0.200 0.201 0.199 0.200)
	local b=(0.18 0.30 0.19 0.29 0.20 0.28 0.24 0.24 0.17 0.31) i
	mkdir "$BATS_TEST_TMPDIR/r"
	for i in 1 2 3 4 5 6 7 8 9 10; do
		echo "sg good no_load $i ${g[i - 1]} ok"
		echo "sb bad no_load $i ${b[i - 1]} ok"
	done | results | jq -c '.command = "sh job.sh" | .lead_s = 0 | .job_metrics = {m: .wall_s} |
	    .job_metric_defs = {m: {regex: "m=([0-9.]+)", better: "lower", of: "last", unit: null, preset: null}} |
	    .config = {runs: "10", warmup: "0", lead: "0", label: .label, "job-metric": ["m=m=([0-9.]+)"]}' \
	    > "$BATS_TEST_TMPDIR/r/results.jsonl"
	run -1 contest compare -f "$BATS_TEST_TMPDIR/r" --gate m good bad
	[[ "$(tail -1 <<<"$output")" == *"no_load m +20.0% (CI95 +1.1..+38.9%, p=0.041)" ]]
	# the candidate's job prints GOOD's numbers in turn: good against BAD
	# needs p < 0.025, which BAD's spread does not give: a skip, never
	# the stop of 255
	cat > job.sh <<-EOF
	n=0; [ -f count ] && read -r n < count; echo \$((n + 1)) > count
	set -- ${g[*]}; shift \$((n % 10)); echo "m=\$1"
	EOF
	run -125 --separate-stderr contest bisect --run --keep-suspect -f "$BATS_TEST_TMPDIR/r" --gate m -k cand -n 4 --min-runs 3 good bad -- sh job.sh
	[ "${stderr_lines[0]}" = "contest bisect: --run: GOOD's settings replayed: --lead=0 --job-metric=m=m=([0-9.]+)" ]
	[ "${lines[${#lines[@]} - 3]}" = "no_load m: cand at 0.01 of the step from good (0.200) to bad (0.240), against good p=0.53, against bad p=0.043: can't tell" ]
	[[ "${lines[${#lines[@]} - 2]}" == "cand looks like neither: skip (0 of the step's 1 load bad, 0 good, 1 can't tell; each within 0.4 of the way from its side and tested against the other at alpha 0.025; the step at alpha 0.05 and 5%)" ]]
	[ "${lines[${#lines[@]} - 1]}" = "cand: 4 rounds (at most 4), 2 looks of 2" ]
	[[ "$stderr" != *"no step to bisect"* ]]
	# the call was made on the candidate's four measured runs of GOOD's numbers
	[ "$(jq -sc '[.[] | select(.label == "cand" and (.warmup | not)) | .job_metrics.m]' "$BATS_TEST_TMPDIR/r/results.jsonl")" = "$(IFS=,; jq -c . <<<"[${g[*]:1:4}]")" ]
}

@test "compare: the power the gate states is a size, a fall where lower is worse, and the largest is chosen by size" {
	run -0 contest compare --gate load -f "$TOP_SRCDIR/doc/example-compare.jsonl" loads/nice0 loads/nice19
	[[ "$(tail -1 <<<"$output")" == *"; a regression of 39.7% (a fall) would be caught with 80% power (fork_load Loads)" ]]
	# beside Time's 8.0%, Loads' 39.7% is the larger
	run -0 contest compare --gate time,load -f "$TOP_SRCDIR/doc/example-compare.jsonl" loads/nice0 loads/nice19
	[[ "$(tail -1 <<<"$output")" == *"; a regression of 39.7% (a fall) would be caught with 80% power (fork_load Loads)" ]]
	run -0 contest compare --gate time,load --format json -f "$TOP_SRCDIR/doc/example-compare.jsonl" loads/nice0 loads/nice19
	jq -e '.candidates[0].gate_detect_pct > 39.7 and .candidates[0].gate_detect_pct < 39.8' <<<"$output"
	jq -e '[.loads[].figures[].values[1] | select(.gated) | .gate_detect_pct] | max == 39.745' <<<"$output"
}

@test "bisect: a candidate within 0.4 of BAD's side in one load, the other load on its side of the half way, is bad though a night's drift leaves it better than BAD" {
	# the job itself 8% slower; CAND's night 1.5% under BAD's: the old
	# rule, past the half way and no better than BAD in every load, skipped
	for r in 1 2 3; do
		d=$((r - 2))
		for w in "sg good no_load $r 10.0" "sg good fork_load $((r + 3)) 15.0" \
		    "sb bad no_load $r 10.8" "sb bad fork_load $((r + 3)) 16.2" \
		    "sc cand no_load $r 10.65" "sc cand fork_load $((r + 3)) 15.66"; do
			set -- $w
			echo "$1 $2 $3 $4 $(awk -v w="$5" -v d="$d" 'BEGIN { print w + d * 0.02 }') ok"
		done
	done | results > drift.jsonl
	run -1 contest bisect -f drift.jsonl good bad cand
	[ "${lines[0]}" = "no_load Time: cand at 0.81 of the step from good (10.00) to bad (10.80), against good p=2.4e-06, against bad p=0.00078: bad" ]
	[[ "${lines[1]}" == "fork_load Time: cand at 0.55 of the step "*": can't tell" ]]
	[[ "${lines[2]}" == "cand looks bad (1 of the step's 2 loads bad, 0 good, 1 can't tell; each within 0.4 of the way from its side"* ]]
	# the other load on GOOD's side of the half way: neither
	sed '/"label":"cand".*"load":"fork_load"/s/"wall_s":15\.6[0-9]*/"wall_s":15.4/' drift.jsonl > lean.jsonl
	run -125 contest bisect -f lean.jsonl good bad cand
}

# Thirty nights of one run each, 1% noise; the newest at 11.5 s.
NIGHTS=(10.0199 9.8783 9.9707 10.0859 9.9581 10.0387 10.0429 10.0178 10.1275 9.7931
	10.1607 10.0724 9.9100 9.9543 9.8816 10.2125 10.2337 10.0339 10.1283 9.9825
	10.0813 9.9841 9.9808 10.0370 10.0047 10.0526 9.9313 10.0957 10.1460 11.5092)

# The nights, each from night $1 on 15% slower (the newest alone: 30).
nights() {
	local n w
	for n in $(seq 1 30); do
		w=${NIGHTS[n - 1]}
		[ "$n" -lt "$1" ] || [ "$n" -eq 30 ] || w=$(awk -v w="$w" 'BEGIN { printf "%.4f", w * 1.15 }')
		printf 's%02d n%02d no_load 1 %s ok - - %d\n' "$n" "$n" "$w" "$n"
	done | results
}

@test "history: a newest night that differs is said, not pinned on a night that did not change, and exits 3" {
	nights 30 > "$BATS_TEST_TMPDIR/h.jsonl"
	run -3 --separate-stderr contest history -f "$BATS_TEST_TMPDIR/h.jsonl"
	# the minimum of 3 nights a side put the change at n27 -> n28, on
	# nights that did not change
	[[ "$output" != *"n27 -> n28"* ]]
	[ "$(grep -c -- ' -> ' <<<"$output")" -eq 0 ]
	grep -qx '  the newest night differs: n30 +14.77% (CI95 +12.67..+16.86%) against n01..n29, p=1.7e-14, worse beyond 5%: can'"'"'t place it yet (a change needs 3 nights after it)' <<<"$output"
	grep -qx '1 series whose newest nights differ, not yet placed, 1 of them worse beyond 5% (exit 3 where none ends worse)' <<<"$output"
	run -3 --separate-stderr contest history --format json -f "$BATS_TEST_TMPDIR/h.jsonl"
	jq -e '.series[0] | .change_points == [] and .newest.index == 29 and .newest.nights == 1 and .newest.verdict == "regression"' <<<"$output"
	jq -e '.newest_worse == 1 and .ending_worse == 0' <<<"$output"
	# p-values in JSON to six significant digits, not six decimals
	jq -e '.series[0].newest.p > 1.6e-14 and .series[0].newest.p < 1.8e-14' <<<"$output"
	# a step three nights before the end is a change point, placed
	nights 28 > "$BATS_TEST_TMPDIR/h.jsonl"
	run -1 --separate-stderr contest history -f "$BATS_TEST_TMPDIR/h.jsonl"
	grep -q '^  regression: n27 -> n28: +' <<<"$output"
	p=$(sed -n 's/^  regression: n27 -> n28: .*, p=\(.*\)$/\1/p' <<<"$output")
	run -1 --separate-stderr contest history --format json -f "$BATS_TEST_TMPDIR/h.jsonl"
	jq -e --argjson p "$p" '.series[0].change_points[0].p | . > 0 and (. / $p - 1 | fabs) < 0.05' <<<"$output"
	[[ "$output" != *"the newest night"* ]]
	# two newest nights: not placed either
	nights 29 > "$BATS_TEST_TMPDIR/h.jsonl"
	run -3 --separate-stderr contest history -f "$BATS_TEST_TMPDIR/h.jsonl"
	grep -q '^  the newest nights differ: n29..n30 +' <<<"$output"
	# none: 0
	nights 31 | sed '$d' > "$BATS_TEST_TMPDIR/h.jsonl"
	run -0 --separate-stderr contest history -f "$BATS_TEST_TMPDIR/h.jsonl"
	[[ "$output" != *"the newest night"* ]]
}

# Thirty nights of one run each from the values given, as results.
series() {
	local n=0 w
	for w in "$@"; do
		n=$((n + 1))
		printf 's%02d n%02d no_load 1 %s ok - - %d\n' "$n" "$n" "$w" "$n"
	done | results
}

@test "history: a change the newest night drags past the threshold is judged without it; the newest night is said on its own" {
	# 29 nights at 1% noise, n27 to n29 1.8% above n26 (enough at 0.05,
	# not at 0.001), n30 15% up: the search pinned n26 -> n27, and with
	# n30 in it read as a regression of 5.77% (2.2% of 400 such series;
	# none of 1,000 now)
	series 97.90 100.38 100.71 98.68 101.29 99.14 100.31 100.28 100.74 101.10 \
	    101.24 98.79 100.22 98.35 100.69 100.91 99.27 100.35 99.80 98.30 \
	    99.50 101.02 98.95 98.74 99.70 98.43 101.80 101.03 101.69 115.49 > h.jsonl
	run -3 --separate-stderr contest history -f h.jsonl
	[ "$(grep -c -- ' -> ' <<<"$output")" -eq 0 ]
	grep -q '^  the newest night differs: n30 +15\.[0-9]*% (CI95 +[0-9.]*..+[0-9.]*%) against n01..n29, p=' <<<"$output"
	grep -qx '1 series, 0 change points, 0 regressions, 0 ending worse than before '"(.*)" <<<"$output"
	# a change the nights between hold without the newest stays, sized
	# without it: n28 on +3%, n30 +12%
	series 97.90 100.38 100.71 98.68 101.29 99.14 100.31 100.28 100.74 101.10 \
	    101.24 98.79 100.22 98.35 100.69 100.91 99.27 100.35 99.80 98.30 \
	    99.50 101.02 98.95 98.74 99.70 98.43 99.90 103.00 103.10 112.50 > h2.jsonl
	run -3 --separate-stderr contest history -f h2.jsonl
	grep -q '^  no change: n27 -> n28: +3\.[0-9]*% ' <<<"$output"
	grep -q '^  the newest night differs: n30 +' <<<"$output"
}

@test "history: a step is kept through a change of noise after it (Welch's test, not Student's pooled one)" {
	# +6% from n07 at 0.5% noise, then 5% noise from n15: Student's pooled
	# test found none
	series 10.0742 9.9979 9.9778 9.9704 9.988 10.0447 10.5669 10.5644 10.6801 10.6703 \
	    10.621 10.6766 10.5729 10.5871 10.37 10.939 11.4846 11.186 10.9964 10.0001 \
	    10.7653 10.6456 10.0168 10.422 10.7452 11.1842 9.7645 10.375 11.3458 12.1485 > "$BATS_TEST_TMPDIR/h.jsonl"
	run -1 --separate-stderr contest history -f "$BATS_TEST_TMPDIR/h.jsonl"
	grep -qx '  regression: n06 -> n07: +7.13% (CI95 +4.96..+9.29%), p=4.9e-07' <<<"$output"
	[ "$(grep -c -- ' -> ' <<<"$output")" -eq 1 ]
	grep -q "Welch's t p < 0.001" <<<"$output"
}

@test "history: one night 20% off does not hide a 6% step: it is left out of the test, and named" {
	series 9.8491 10.0524 10.0713 10.0103 9.9239 9.9214 9.9051 12.2559 9.971 9.9568 \
	    10.0008 10.0181 9.9526 10.0409 10.0733 10.6675 10.5584 10.4507 10.7218 10.6118 \
	    10.6162 10.6832 10.5481 10.7681 10.6383 10.711 10.5641 10.4703 10.6383 10.7082 > "$BATS_TEST_TMPDIR/h.jsonl"
	run -1 --separate-stderr contest history -f "$BATS_TEST_TMPDIR/h.jsonl"
	grep -qx "  regression: n15 -> n16: +6.43% (CI95 +5.81..+7.04%), p=6.2e-18; n08 left out of its test (over 5 robust SDs off its side's median)" <<<"$output"
	[ "$(grep -c -- ' -> ' <<<"$output")" -eq 1 ]
	run -1 --separate-stderr contest history --format json -f "$BATS_TEST_TMPDIR/h.jsonl"
	jq -e '.series[0].change_points[0] | .index == 15 and .outliers == 1 and .first_outlier == "n08"' <<<"$output"
	# and a step-free stretch of the same nights keeps its outlier night
	# without a change point: left out or not, there is nothing to find
	series 9.8491 10.0524 10.0713 10.0103 9.9239 9.9214 9.9051 12.2559 9.971 9.9568 \
	    10.0008 10.0181 9.9526 10.0409 10.0733 > "$BATS_TEST_TMPDIR/h.jsonl"
	run -0 --separate-stderr contest history -f "$BATS_TEST_TMPDIR/h.jsonl"
	[ "$(grep -c -- ' -> ' <<<"$output")" -eq 0 ]
}

@test "bisect: a commit of a real 8% step is called, on one figure a load, where each side's verdicts skipped it" {
	# two trials of scripts/bench/bisect's nights: 5 runs a night, 2%
	# noise, up to 3% drift a night, fork_load 8% slower from BAD on;
	# c1 is BAD's commit, c2 GOOD's.  Each side's compare verdicts asked
	# c1 for no change against b1 (an interval within 5%) and skipped it,
	# and c2's Time and Ratio disagreed
	F="$TOP_SRCDIR/tests/data/report/bisect-sim.jsonl"
	run -1 contest bisect -f "$F" g1 b1 c1
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "fork_load Ratio: c1 at 0.97 of the step from g1 (1.47) to b1 (1.62), against g1 p=0.0038, against b1 p=0.9: bad" ]
	run -0 contest bisect -f "$F" g2 b2 c2
	[ "${lines[0]}" = "fork_load Ratio: c2 at 0.17 of the step from g2 (1.48) to b2 (1.62), against g2 p=0.44, against b2 p=0.0018: good" ]
	# where the step moved no_load too, the load is judged on Time
	jq -c 'if .label == "b1" or .label == "c1" then .wall_s *= (if .load == "no_load" then 1.08 else 1 end) else . end' "$F" > "$BATS_TEST_TMPDIR/j.jsonl"
	run -1 contest bisect -f "$BATS_TEST_TMPDIR/j.jsonl" g1 b1 c1
	[[ "${lines[0]}" == "no_load Time: c1 at "*": bad" ]]
	[[ "${lines[1]}" == "fork_load Time: c1 at "*": bad" ]]
}
