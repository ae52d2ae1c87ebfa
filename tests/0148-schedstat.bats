#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The scheduler's counters: /proc/schedstat's per-CPU deltas over the job
# (time running, time waiting on the run queue, timeslices) in results,
# with the reason where the kernel keeps none, and a run that stands out
# explained by its run queues' wait.  This machine's kernel has no
# /proc/schedstat: a file laid out as versions 15 to 17 lay it out stands
# in (CONTEST_SCHEDSTAT), rewritten by the job as the counters would move;
# scripts/vm-check reads Debian's kernels' own.

load helpers

SS='version 15
timestamp 4294967295
cpu0 0 0 100 20 50 30 %s %s %s
domain0 00000003 0 0 0 0 0 0 0 0
cpu1 0 0 100 20 50 30 %s %s %s
domain0 00000003 0 0 0 0 0 0 0 0
'

@test "schedstat: each CPU's time running, time waiting and timeslices over the job, and their sums" {
	# shellcheck disable=SC2059 # the layout is the format
	printf "$SS" 1000000000 200000000 500 2000000000 100000000 600 >before
	# shellcheck disable=SC2059 # the layout is the format
	printf "$SS" 1500000000 1200000000 800 2250000000 150000000 700 >after
	cp before now
	CONTEST_SCHEDSTAT=$PWD/now run contest --warmup 0 -n 1 --lead 0 -- cp after now
	[ "$status" -eq 0 ]
	[ "$(rq -c '.[0].schedstat')" = '{"version":15,"run_s":0.75,"wait_s":1.05,"slices":400,"per_cpu":[{"cpu":0,"run_s":0.5,"wait_s":1,"slices":300},{"cpu":1,"run_s":0.25,"wait_s":0.05,"slices":100}],"why":null}' ]
}

@test "schedstat: where the kernel keeps none, or lays it out otherwise, results say why" {
	if [ -e /proc/schedstat ]; then
		run -0 contest --warmup 0 -n 1 --lead 0 -- true
		rq -e '.[0].schedstat | .version >= 15 and .why == null and (.per_cpu | length) > 0'
	else
		run -0 contest --warmup 0 -n 1 --lead 0 -- true
		[ "$(rq -r '.[0].schedstat | [.version, .wait_s, .per_cpu, .why] | map(tostring) | join("|")')" = "null|null|null|no /proc/schedstat (a kernel without CONFIG_SCHEDSTATS)" ]
	fi
	printf 'version 14\ncpu0 1 2 3\n' >old
	rm -rf "$CONTEST_RESULTS"
	CONTEST_SCHEDSTAT=$PWD/old run -0 contest --warmup 0 -n 1 --lead 0 -- true
	[ "$(rq -r '.[0].schedstat.why')" = "/proc/schedstat version 14: a CPU line not as versions 15 to 17 lay it out" ]
}

@test "a run that stands out is explained by its run queues' wait where the others' differ" {
	run -0 contest -k q --warmup 0 -n 5 --lead 0 -- sleep 0.2
	# run 3 half as long again, its run queues' wait three times the
	# others'; the rest of the telemetry (machine-wide, what a busy
	# machine did beside) the same in every run
	jq -c '.vmstat |= map_values(0) | .majflt = 0 | .nivcsw = 0 |
	    if .run == 3 then .wall_s *= 1.5 | .schedstat.wait_s = 3 else .schedstat.wait_s = 1 end' "$R" >waits.jsonl
	run -0 contest report waits.jsonl
	grep -q '^no_load: q: run 3 (0\.[0-9]* s, median 0\.[0-9]* s) stands out: run-queue wait ms 3000 against 1000; more runs or --warmup would tell$' <<<"$output"
}
