#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# fork_load: really forks, counts into shared memory, reports as in 2002.

load helpers

@test "children forked is > 0 and matches the table and the report line" {
	run --separate-stderr contest --warmup 0 -n 2 --lead 0 -l fork_load -- sleep 0.5
	[ "$status" -eq 0 ]
	mean=$(rq 'map(select(.load=="fork_load").counters.children_forked) | add/length | floor')
	echo "# mean children forked $mean" >&3
	[ "$mean" -gt 0 ]
	rq 'map(select(.load=="fork_load").counters.children_forked > 0) | all' | grep -qx true
	row=$(table_row fork_load "$output")
	# The table rounds the mean; allow for .5 either way.
	got=$(awk '{print $6}' <<<"$row")
	[ "$got" -eq "$mean" ] || [ "$got" -eq $((mean + 1)) ]
	# the line says the mean as the report says a count: whole from 100 up
	# (a busy host's forker may do fewer), else to two places
	want=$(count_text "$(rq 'map(select(.load=="fork_load").counters.children_forked) | add/length')")
	grep -Eqx "fork_load: Loads = Children forked: $want \($COUNT/s\)" <<<"$output"
	grep -qx "fork_load: Fork failures: 0 (0/s)" <<<"$output"
}

@test "the load's CPU is measured over the job's wall (LCPU%)" {
	run contest --warmup 0 -n 1 --lead 0 -l fork_load -- sleep 1
	[ "$status" -eq 0 ]
	rq '.[1] | (.lcpu_source == "proc" or .lcpu_source == "cgroup") and .load_cpu_s > 0' | grep -qx true
	row=$(table_row fork_load "$output")
	[[ "$(awk '{print $8}' <<<"$row")" =~ ^[0-9]+%$ ]]
	# its CPU over the job's wall, as stored (how much of a CPU a forker
	# gets beside a sleep is a share: scripts/bench/shares)
	rq '.[1] | .lcpu_pct - .load_cpu_s / .wall_s * 100 | fabs < 0.5' | grep -qx true
	rq '.[0] | .lcpu_source == "none" and .load_workers == 0' | grep -qx true
}

@test "procs=N starts N forkers, method=vfork works" {
	run contest --warmup 0 -n 1 --lead 0 -l fork_load:procs=3,method=vfork -- sleep 0.5
	[ "$status" -eq 0 ]
	rq '.[1] | .load_workers == 3 and .load_options.method == "vfork" and .counters.children_forked > 0' | grep -qx true
	grep -q '^fork_load:procs=3,method=vfork:$' <<<"$output"
}

@test "the load really runs beside the job: its processes exist during the run" {
	contest --warmup 0 -n 1 --lead 0 -l fork_load:procs=2 -- sh -c 'sleep 0.5; ps -o pid=,pgid=,args= -e > procs.txt' 3>&-
	# Two forkers, running the worker program, in one group that is
	# neither ours nor the job's.
	job_pgid=$(awk '$3 ~ /^ps / {print $2}' procs.txt)
	n=$(awk -v me="$job_pgid" '$3 == "contest-load" && $2 != me {print $2}' procs.txt | sort | uniq -c | awk '$1 >= 2' | wc -l)
	[ "$n" -ge 1 ]
}

@test "fork refused by RLIMIT_NPROC is counted and backed off, not fatal" {
	user_results
	# driver + watchdog + worker + job = 4 processes: the worker cannot
	# fork during the job.
	run contest_as 64990 4 --warmup 0 -n 1 --lead 0 -l fork_load -- sleep 0.5
	# (all it said where it failed: once, beside stress-ng, exit 3 and no
	# table, its why cut from the last lines)
	[ "$status" -eq 0 ] || { sed 's/^/# /' <<<"$output" >&3; false; }
	rq '.[1].counters.fork_failures > 0' | grep -qx true
}

@test "per-fork latency: one sample per child, ordered percentiles, raw histogram kept" {
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -l fork_load:procs=2 -- sleep 0.5
	[ "$status" -eq 0 ]
	rq '.[1] | .latency.samples - .counters.children_forked | fabs <= 2' | grep -qx true
	rq '.[1].latency | .p50_us > 0 and .p50_us <= .p90_us and .p90_us <= .p99_us and .p99_us <= .max_us' | grep -qx true
	rq '.[1].latency | (.hist_ns | map(.[1]) | add) == .samples' | grep -qx true
	# three significant digits: the histogram's buckets are 1/32 of an octave
	grep -Eq '^fork_load:procs=2: Fork\+exit\+reap latency: p50 ([0-9]{3}|[0-9]{2}\.[0-9]|[0-9]\.[0-9]{2}) [mu]s, p99 ([0-9]{3}|[0-9]{2}\.[0-9]|[0-9]\.[0-9]{2}) [mu]s, max [0-9.]+ [mu]?s \([0-9]+ samples; percentiles within 1\.6%\)$' <<<"$output"
	rq '.[1].latency | .hist_sub == 32 and .precision_pct == 1.56 and .min_us > 0 and .min_us <= .p50_us' | grep -qx true
	rq '.[0] | has("latency") | not' | grep -qx true
}

@test "the driver sleeps while the job runs beside a fork load: no polling" {
	# What the driver spends on a job of 0.3 s and on one of 3.3 s: a
	# driver polling wait4 every millisecond spends 18 to 30 ms more a
	# second of job; one that sleeps in wait4 spends the same on both
	# (the fork of the job: about 1 ms, 2 ms under ASan, 9 ms under ASan
	# on a slow host).  CPU time, not a share: a busy machine stretches
	# the wait, not the work.
	R="$BATS_TEST_TMPDIR/short/results.jsonl"
	run -0 contest -o "$BATS_TEST_TMPDIR/short" --warmup 0 -n 1 --lead 0 -l fork_load:procs=2 -- sleep 0.3
	R="$BATS_TEST_TMPDIR/long/results.jsonl"
	run -0 contest -o "$BATS_TEST_TMPDIR/long" --warmup 0 -n 1 --lead 0 -l fork_load:procs=2 -- sleep 3.3
	jq -n -r --slurpfile s "$BATS_TEST_TMPDIR/short/results.jsonl" \
	    --slurpfile l "$BATS_TEST_TMPDIR/long/results.jsonl" \
	    '[$s, $l] | transpose[] | "# \(.[0].load): driver CPU \(.[0].driver_cpu_s) s (0.3 s job), \(.[1].driver_cpu_s) s (3.3 s job)"' >&3
	[ "$(rq length)" -eq 2 ]
	jq -n -e --slurpfile s "$BATS_TEST_TMPDIR/short/results.jsonl" \
	    --slurpfile l "$BATS_TEST_TMPDIR/long/results.jsonl" \
	    '[$s, $l] | transpose | length == 2 and all(.[1].driver_cpu_s - .[0].driver_cpu_s < 0.02)'
}
