#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The scheduler's counters: /proc/schedstat's per-CPU deltas over the job
# (time running, time waiting on the run queue, timeslices) and the job's
# own tasks' migrations summed (perf counters on the job's cgroup) in
# results, with the reason where the kernel keeps none, and a run that
# stands out explained by its run queues' wait or its migrations.  This machine's kernel has no
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

@test "a run that stands out is explained by its run queues' wait, or its job's migrations, where the others' differ" {
	run -0 contest -k q --warmup 0 -n 5 --lead 0 -- sleep 0.2
	# run 3 half as long again, its run queues' wait three times the
	# others'; the rest of the telemetry (machine-wide, what a busy
	# machine did beside) the same in every run
	jq -c '.vmstat |= map_values(0) | .majflt = 0 | .nivcsw = 0 | .migrations = 0 |
	    if .run == 3 then .wall_s *= 1.5 | .schedstat.wait_s = 3 else .schedstat.wait_s = 1 end' "$R" >waits.jsonl
	run -0 contest report waits.jsonl
	grep -q '^no_load: q: run 3 (0\.[0-9]* s, median 0\.[0-9]* s) stands out: run-queue wait ms 3000 against 1000; more runs or --warmup would tell$' <<<"$output"
	# and by the job's own migrations, where they are what differs
	jq -c '.vmstat |= map_values(0) | .majflt = 0 | .nivcsw = 0 | .schedstat.wait_s = 1 |
	    if .run == 3 then .wall_s *= 1.5 | .migrations = 900 else .migrations = 30 end' "$R" >migr.jsonl
	run -0 contest report migr.jsonl
	grep -q '^no_load: q: run 3 (0\.[0-9]* s, median 0\.[0-9]* s) stands out: job migrations 900 against 30; more runs or --warmup would tell$' <<<"$output"
}

# A python that flips its own CPU 200 times, and says its task's
# se.nr_migrations (the kernel's count since its fork) before and after;
# then exits at once (no interpreter teardown a busy machine could
# migrate it in).
flip='import os
def mig():
    return next(int(l.split(":")[1]) for l in open("/proc/self/sched") if l.startswith("se.nr_migrations"))
b = mig()
for i in range(200):
    os.sched_setaffinity(0, {i % 2})
print("mig", b, mig(), flush=True)
os._exit(0)'

@test "migrations: the job's tasks' own, summed: one task's as its kernel count says, two tasks' both" {
	[ "$(id -u)" -eq 0 ] || skip "perf_event_paranoid keeps the kernel's counters from a user"
	[ -r /proc/self/sched ] || skip "no /proc/PID/sched (CONFIG_SCHED_DEBUG) to check against"
	[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
	[ "$(nproc)" -ge 2 ] || skip "one CPU: nothing to migrate to"
	run -0 contest -k one --warmup 0 -n 1 --lead 0 --job-migrations -- /usr/bin/python3 -c "$flip"
	# counted in the job's own cgroup: none, none counted (the next test
	# holds the reason)
	[ "$(rq -r '.[0].job_cgroup')" = true ] ||
	    skip "no cgroup for the job here: its migrations are not counted ($(rq -r '.[0].migrations_why'))"
	read -r _ before after < <(grep '^mig ' "$CONTEST_RESULTS"/logs/*.log)
	m=$(rq -r '.[0].migrations')
	# at least the flips between its two reads; at most its count from
	# its fork (the counter starts at exec) and what its exit may add
	[ $((after - before)) -ge 199 ]
	[ "$m" -ge $((after - before)) ]
	[ "$m" -le $((after + 2)) ]
	[ "$(rq -r '.[0].migrations_why')" = null ]
	# two at once under a shell: both tasks' flips are in the sum
	rm -rf "$CONTEST_RESULTS"
	run -0 contest -k two --warmup 0 -n 1 --lead 0 --job-migrations -- sh -c \
	    '/usr/bin/python3 -c "$0" & /usr/bin/python3 -c "$0"; wait' "$flip"
	[ "$(grep -c '^mig ' "$CONTEST_RESULTS"/logs/*.log)" -eq 2 ]
	sum=$(awk '/^mig / { s += $3 - $2 } END { print s }' "$CONTEST_RESULTS"/logs/*.log)
	[ "$sum" -ge 398 ]
	[ "$(rq -r '.[0].migrations')" -ge "$sum" ]
}

@test "migrations: null with the reason where not counted: not asked for, a job without a cgroup, a user the kernel refuses" {
	run -0 contest --warmup 0 -n 1 --lead 0 -- true
	[ "$(rq -r '.[0] | [.migrations, .migrations_why] | map(tostring) | join("|")')" = "null|not counted (no --job-migrations)" ]
	user_results
	run -0 contest_as 64996 - --warmup 0 -n 1 --lead 0 --job-migrations -- true
	p=$(cat /proc/sys/kernel/perf_event_paranoid)
	# a user's job has no cgroup here; where it has, a counter on every
	# CPU is the kernel's to refuse a user above perf_event_paranoid 0
	if [ "$(rq -r '.[0].job_cgroup')" = false ]; then
		[ "$(rq -r '.[0] | [.migrations, .migrations_why] | map(tostring) | join("|")')" = "null|the job has no cgroup of its own to count" ]
	elif [ "$p" -ge 1 ]; then
		[ "$(rq -r '.[0] | [.migrations, .migrations_why] | map(tostring) | join("|")')" = "null|perf_event_paranoid $p: no CPU-wide counter for a user without CAP_PERFMON (Permission denied)" ]
	else
		[ "$(rq -r '.[0] | .migrations >= 0 and .migrations_why == null')" = true ]
	fi
}
