#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/lava: the test definition's run script, run locally against a
# fake lava-test-case that records its arguments; contest report
# --format lava's lines.

load helpers

setup_lava() {
	mkdir -p bin
	# the fake: one line per call, its arguments as given
	printf '#!/bin/sh\nprintf "%%s\\n" "$*" >> "%s/calls"\n' "$BATS_TEST_TMPDIR" > bin/lava-test-case
	# contest with the test's marker, so that teardown sees what it started
	# (a program lava-test-case runs, not a call of marked: the mark in it)
	printf '#!/bin/sh\nexec env CONTEST_TEST_MARK=%s %s "$@"\n' "$MARK" "$CONTEST" > bin/contest
	chmod +x bin/lava-test-case bin/contest
	export OUTPUT=$BATS_TEST_TMPDIR/out CONTEST=$BATS_TEST_TMPDIR/bin/contest
}

@test "lava: the run script writes result.txt and reports each line through lava-test-case" {
	setup_lava
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TOP_SRCDIR/scripts/lava/contest.sh" \
	    -l "sleepers:n=5 cpu_load:n=1" -n 2 -j "sleep 0.05" -k lab-6.18 -a "--warmup 0 --lead 0.1" -s true
	[ "$status" -eq 0 ]
	f=$OUTPUT/result.txt
	[ -s "$f" ]
	# one line per figure: time, cpu and wait of no_load; time, ratio, cpu,
	# loads, wait, load-pct of each load where recorded
	for id in no_load-time no_load-cpu sleepers_n_5-time sleepers_n_5-ratio sleepers_n_5-loads \
	    cpu_load_n_1-time cpu_load_n_1-ratio cpu_load_n_1-loads; do
		grep -qE "^$id pass [0-9.]+ [a-z_]+$" "$f"
	done
	[ -z "$(awk 'NF != 4 || $2 != "pass"' "$f")" ]
	grep -qE '^no_load-time pass 0\.[0-9]{3} s$' "$f"
	grep -qE '^cpu_load_n_1-ratio pass [0-9]+\.[0-9]{3} ratio$' "$f"
	grep -qE '^cpu_load_n_1-loads pass [0-9]+\.[0-9]{2} per_s$' "$f"
	# the measurements are the report's, from the results kept beside
	[ "$(contest report --format lava -f "$OUTPUT/results")" = "$(cat "$f")" ]
	awk '$1 == "no_load-time" { t = $3 } END { exit !(t >= 0.05 && t < 1) }' "$f"
	# every line went through lava-test-case, with its measurement and units
	[ "$(wc -l < calls)" -eq "$(wc -l < "$f")" ]
	while read -r id result m u; do
		grep -qxF -- "$id --result $result --measurement $m --units $u" calls
	done < "$f"
	jq -se 'length == 6 and all(.label == "lab-6.18")' "$OUTPUT/results/results.jsonl"
}

# real_lava_test_case: lava-dispatcher's own lava-test-case into bin/, or
# skip.  It is a fragment the test shell gives an interpreter line, and it
# sources lava-common-functions from PATH.  Found where lava-dispatcher
# is installed, in scripts/lava/run-job's worker root, or where .ci/run
# unpacks the package (apt-get download, no install).
real_lava_test_case() {
	local d
	for d in "${LAVA_TEST_SHELL_DIR:-}" \
	    /usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell \
	    /var/cache/contest/lava-root/usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell \
	    /var/cache/contest/lava-dispatcher/usr/lib/python3/dist-packages/lava_dispatcher/lava_test_shell; do
		[ -n "$d" ] && [ -f "$d/lava-test-case" ] && break
		d=
	done
	[ -n "$d" ] || skip "no lava-dispatcher's lava-test-case here"
	{ echo '#!/bin/sh'; cat "$d/lava-test-case"; } > bin/lava-test-case
	cp "$d/lava-common-functions" bin/
	chmod +x bin/lava-test-case
}

@test "lava: lava-dispatcher's own lava-test-case gets every line, as a LAVA test shell would" {
	setup_lava
	real_lava_test_case
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" LAVA_RESULT_DIR="$BATS_TEST_TMPDIR/lava" \
	    "$TOP_SRCDIR/scripts/lava/contest.sh" -l "sleepers:n=5" -n 2 -j "sleep 0.05" \
	    -a "--warmup 0 --lead 0.1" -s true
	[ "$status" -eq 0 ]
	f=$OUTPUT/result.txt
	[ "$(wc -l < "$f")" -ge 5 ]
	# each line: the test shell's signal on stdout, and its result files
	while read -r id result m u; do
		grep -qxF "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=$id RESULT=$result UNITS=$u MEASUREMENT=$m>" <<<"$output"
		[ "$(cat "lava/results/$id/result")" = "$result" ]
		[ "$(cat "lava/results/$id/measurement")" = "$m" ]
		[ "$(cat "lava/results/$id/units")" = "$u" ]
	done < "$f"
	[ "$(grep -c '^<LAVA_SIGNAL_TESTCASE ' <<<"$output")" -eq "$(wc -l < "$f")" ]
}

@test "lava: fail only for a cell with failed runs; no lava-test-case, only the file" {
	setup_lava
	rm bin/lava-test-case
	# the job's second run, sleepers' first, exits 3
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TOP_SRCDIR/scripts/lava/contest.sh" \
	    -l "sleepers:n=5" -n 2 -a "--warmup 0 --lead 0" -s true \
	    -j 'n=$(cat c 2>/dev/null || echo 0); echo $((n + 1)) > c; sleep 0.05; [ "$n" -ne 1 ]'
	[ "$status" -eq 0 ]
	f=$OUTPUT/result.txt
	[ -z "$(awk '$1 ~ /^no_load-/ && $2 != "pass"' "$f")" ]
	[ -z "$(awk '$1 ~ /^sleepers_n_5-/ && $2 != "fail"' "$f")" ]
	# (a time to the millisecond: over a second where a busy host says so)
	grep -qE '^sleepers_n_5-time fail [0-9]+\.[0-9]{3} s$' "$f"
	[ ! -e calls ]
	# a job that never succeeds has nothing to measure: "fail" alone
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" OUTPUT="$BATS_TEST_TMPDIR/out2" \
	    "$TOP_SRCDIR/scripts/lava/contest.sh" -l "sleepers:n=5" -n 1 -a "--warmup 0 --lead 0" -s true -j 'exit 3'
	[ "$status" -eq 0 ]
	[ "$(cat "$BATS_TEST_TMPDIR/out2/result.txt")" = "$(printf 'no_load-time fail\nsleepers_n_5-time fail')" ]
}

@test "lava: JOB runs as words, so a make job gets its inferred clean as on the command line" {
	setup_lava
	standin tree
	run --separate-stderr env PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TOP_SRCDIR/scripts/lava/contest.sh" \
	    -l "sleepers:n=2" -n 2 -j "make -C tree -j2 bzImage" -a "--warmup 0 --lead 0" -s true
	[ "$status" -eq 0 ]
	R=$OUTPUT/results/results.jsonl
	# every run built: cleaned before each of the four, never timed up to date
	[ "$(wc -l <tree/cleaned)" -eq 4 ]
	rq -e 'length == 4 and all(.prepare == "make -C tree clean" and .prepare_inferred and .wall_s >= 1)' >/dev/null
	[ "$(rq -c '.[0].argv')" = '["make","-C","tree","-j2","bzImage"]' ]
	# a line that needs a shell still gets one
	run --separate-stderr env PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TOP_SRCDIR/scripts/lava/contest.sh" \
	    -l "sleepers:n=2" -n 1 -j "sleep 0.05 && echo done >>log" -a "--warmup 0 --lead 0" -s true
	[ "$status" -eq 0 ]
	[ "$(rq -c '.[-1].argv')" = '["/bin/sh","-c","sleep 0.05 && echo done >>log"]' ]
}

@test "lava: bad options are refused; SKIP_INSTALL true with no contest fails" {
	run "$TOP_SRCDIR/scripts/lava/contest.sh" -s maybe
	[ "$status" -eq 2 ]
	run "$TOP_SRCDIR/scripts/lava/contest.sh" -x
	[ "$status" -eq 2 ]
	run env CONTEST=/nonexistent/contest OUTPUT="$BATS_TEST_TMPDIR/o" "$TOP_SRCDIR/scripts/lava/contest.sh" -s true
	[ "$status" -eq 1 ]
	[[ "$output" == *"is not built and SKIP_INSTALL is true"* ]]
}

@test "report and compare --format lava: ids are safe, rows prefixed when there are several" {
	run --separate-stderr contest report --format lava "$TOP_SRCDIR/tests/data/report/three.jsonl"
	[ "$status" -eq 0 ]
	[ -z "$(grep -vE '^[A-Za-z0-9._-]+ (pass|fail)( [0-9.]+ [a-z_]+)?$' <<<"$output")" ]
	grep -qx '6.19-fork_load-ratio pass 1.340 ratio' <<<"$output"
	grep -qx '6.19-cpu_load_n_4-lat-p99 pass 925.7 us' <<<"$output"
	grep -qx '6.17-fork_load-met pass 99.50 percent' <<<"$output"
	# compare's: a verdict per candidate, load and gated figure, safe ids too
	run --separate-stderr contest compare --format lava -f "$TOP_SRCDIR/tests/data/report/three.jsonl" 6.17 6.18
	[ "$status" -eq 1 ]
	[ -z "$(grep -vE '^[A-Za-z0-9._-]+ (pass|fail|unknown)( -?[0-9.]+ percent)?$' <<<"$output")" ]
	grep -qx '6.18-cpu_load_n_1-time_amean-change fail 11.54 percent' <<<"$output"
	[ "$(tail -1 <<<"$output")" = "6.18-verdict fail" ]
	run --separate-stderr contest report --format junit "$TOP_SRCDIR/tests/data/report/three.jsonl"
	[ "$status" -eq 2 ]
}

@test "lava: with the lab's earlier results the night is judged in their series: fail where one ends worse" {
	setup_lava
	# 24 earlier nights of this host (tests/data/report/nights.jsonl: a
	# step of +8% at night-16 in fork_load)
	sed "s/\"host\":\"box\"/\"host\":\"$(uname -n)\"/" "$TOP_SRCDIR/tests/data/report/nights.jsonl" >prior.jsonl
	host=$(uname -n | tr -c 'A-Za-z0-9.\n-' _)
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TOP_SRCDIR/scripts/lava/contest.sh" \
	    -l "sleepers:n=5" -n 1 -j "sleep 0.05" -a "--warmup 0 --lead 0.1" -s true -p prior.jsonl
	[ "$status" -eq 0 ]
	f=$OUTPUT/result.txt
	grep -qx "history-$host-fork_load-time_amean fail 7\.9[0-9] percent" "$f"
	grep -qx "history-$host-fork_load-ratio fail 7\.9[0-9] percent" "$f"
	grep -qx "history-$host-no_load-time_amean pass" "$f"
	grep -q "^history-$host-fork_load-time_amean --result fail --measurement 7\.9[0-9] --units percent$" calls
	# the last 8 nights only: after the step, all pass
	run env PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TOP_SRCDIR/scripts/lava/contest.sh" \
	    -l "sleepers:n=5" -n 1 -j "sleep 0.05" -a "--warmup 0 --lead 0.1" -s true -p prior.jsonl -K 8
	[ "$status" -eq 0 ]
	run ! grep -q '^history-.* fail' "$f"
	grep -qx "history-$host-fork_load-time_amean pass" "$f"
	run -2 env PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TOP_SRCDIR/scripts/lava/contest.sh" -s true -p nowhere.jsonl
}

@test "doc/reports.md's LAVA lines are what --format lava prints from the README's run, doc/example-quickstart.jsonl" {
	run -0 --separate-stderr contest report --format lava "$TOP_SRCDIR/doc/example-quickstart.jsonl"
	block=$(awk '/line per figure \(of the README/ { f = 1; next } f && /^    / { print substr($0, 5); g = 1; next } g { exit }' "$TOP_SRCDIR/doc/reports.md")
	[ -n "$block" ]
	[ "$block" = "$output" ]
}
