#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The run's table is the report: contest run hands the lines it wrote to
# the report code, so `contest report` on the same file prints the same
# table byte for byte, ? marks and notes included.

load helpers

# Nine runs in the order they run: run 4 fails, run 7 takes four times
# as long as the others.
JOB='n=$(($(cat "$0" 2>/dev/null || echo 0) + 1)); echo $n >"$0"
case $n in 4) exit 3 ;; 7) sleep 1.2 ;; *) sleep 0.3 ;; esac'

@test "run table and report: byte for byte the same, with a failed run and a stand-out run" {
	# no telemetry budget: the run's table reads its lines as a stream,
	# which keeps them whatever the budget; the report reads them again
	CONTEST_REPORT_TEL_KB=0 run --separate-stderr contest --warmup 0 -n 3 --lead 0 \
	    -l cpu_load:n=1 -l sleepers:n=5 -- sh -c "$JOB" "$BATS_TEST_TMPDIR/count"
	[ "$status" -eq 1 ]	# a run failed
	[ "$(rq 'map(.status) | join(" ")')" = "ok ok ok failed ok ok ok ok ok" ]
	# the run's own table, without its closing lines
	table=$(sed '/^containment: /,$d' <<<"$output")
	[ "$(tail -2 <<<"$output" | cut -d: -f1 | tr '\n' ' ')" = "containment results " ]
	run --separate-stderr contest report "$R"
	[ "$status" -eq 0 ]
	[ "$output" = "$table" ]
	CONTEST_REPORT_TEL_KB=0 run --separate-stderr contest report "$R"
	[ "$status" -eq 0 ]
	[ "$output" = "$table" ]
	# and it holds what the issue is about: the failure, the stand-out run
	# named, ? marks, ratios with their CI95
	grep -qx 'cpu_load:n=1: ! 1 run failed (last exit status 3), left out of the means' <<<"$table"
	# (run 3 slept 1.2 s, the others 0.3 s: at least that, however busy)
	[[ "$(grep '^sleepers:n=5: .*: run 3 (' <<<"$table")" =~ ^sleepers:n=5:\ [^\ ]+:\ run\ 3\ \(([0-9.]+)\ s,\ median\ ([0-9.]+)\ s\)\ stands\ out ]]
	awk -v s="${BASH_REMATCH[1]}" -v m="${BASH_REMATCH[2]}" 'BEGIN { exit !(s >= 1.2 && m >= 0.3) }'
	[[ "$(table_row sleepers:n=5 "$table")" == *"?"* ]]
	[[ "$(table_row cpu_load:n=1 "$table")" =~ [0-9]\.[0-9]{2}±[0-9.]+$ ]]
	grep -q '^? CoV of Time above 5%' <<<"$table"
}
