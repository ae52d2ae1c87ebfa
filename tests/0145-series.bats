#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --series: the driver samples once a second while the job runs (woken by
# a deadline in its one wait, never polling): the job's CPU and Wait%,
# the load's rate or level, the probe's p99; report --svg --series draws
# the median run of each label on one time axis.

load helpers

# A job that keeps one CPU busy for about 2.2 s and succeeds.
BUSY='timeout 2.2 sh -c "while :; do :; done"; exit 0'

@test "series: a sample per second on deadlines, each figure where it is measured, adding up to the run's own counters" {
	run --separate-stderr contest --warmup 0 -n 1 --lead 0.2 --series --latency -l fork_load -l sleepers:n=7 -- sh -c "$BUSY"
	[ "$status" -eq 0 ]
	[ "$(rq 'length')" -eq 3 ]
	# every run: samples at 1 s, 2 s, then the job's end; never early
	rq -e 'all(.[]; .series.period_s == 1 and (.series.t_s | length) >= 3)' >/dev/null
	rq -e 'all(.[]; .series.t_s as $t | [range(0; ($t | length) - 1)] | all(. as $k | $t[$k] >= $k + 1))' >/dev/null
	rq -e 'all(.[]; (.series.t_s | last) - .wall_s | fabs < 0.01)' >/dev/null
	# the probe ran in every run; a rate for fork_load, a level for sleepers
	rq -e 'all(.[]; (.series.probe_p99_us | length) == (.series.t_s | length))' >/dev/null
	rq -e '.[] | select(.load == "no_load") | .series | (has("load_rate") or has("load_level")) | not' >/dev/null
	rq -e '.[] | select(.load == "sleepers") | .series.load_level | all(. == 7)' >/dev/null
	# fork_load: the samples add up to what the run counted over the job
	rq -e '.[] | select(.load == "fork_load") | .series as $s | .counters.children_forked as $c
	    | [range(0; $s.t_s | length) | $s.load_rate[.] * ($s.t_s[.] - (if . == 0 then 0 else $s.t_s[. - 1] end))] | add
	    | (. - $c) | fabs < 0.02 * $c + 5' >/dev/null
	# a session without --series stores none
	cp "$R" with-series.jsonl
	run contest --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	[ "$(rq -c '[.[] | has("series")] | unique')" = '[false,true]' ]
	# the job's CPU, where it has a cgroup: some while it spun, one
	# thread's at most (how near one CPU a busy machine leaves it is a
	# share, not a fact)
	if [ "$(jq -rs '.[0].job_cgroup' with-series.jsonl)" != true ]; then
		jq -se 'all(.[]; .series | has("cpu_pct") | not)' with-series.jsonl >/dev/null
		skip "no cgroup for the job: its CPU and Wait% are not sampled"
	fi
	jq -se 'all(.[]; .series.cpu_pct[0:2] | all(. > 0 and . < 120))' with-series.jsonl >/dev/null
	jq -se 'all(.[]; (.series.wait_pct | length) == (.series.t_s | length))' with-series.jsonl >/dev/null
}

@test "series: report --svg --series draws each label's median run per load on one time axis" {
	run contest -k first --warmup 0 -n 2 --lead 0.2 --series -l fork_load -- sh -c "$BUSY"
	[ "$status" -eq 0 ]
	run contest -k second --warmup 0 -n 1 --lead 0.2 --series -l fork_load -- sh -c "$BUSY"
	[ "$status" -eq 0 ]
	run --separate-stderr contest report --svg chart.svg --series
	[ "$status" -eq 0 ]
	grep -q '<svg xmlns="http://www.w3.org/2000/svg"' chart.svg
	# a line per label in each plot, named by its label and run
	[ "$(grep -c '<polyline.*<title>fork_load, first: run [12]: per second</title>' chart.svg)" -eq 1 ]
	[ "$(grep -c '<polyline.*<title>fork_load, second: run 1: per second</title>' chart.svg)" -eq 1 ]
	# the job's CPU% plot, where a job cgroup measured it; none without
	if [ "$(rq -r '.[0].job_cgroup')" = true ]; then
		grep -q '<title>no_load, first: run [12], [0-9.]* s: CPU%</title>' chart.svg
	else
		run ! grep -q ': CPU%</title>' chart.svg
	fi
	grep -q 'class="title">fork_load: the load&apos;s headline per second</text>\|class="title">fork_load: the load.s headline per second</text>' chart.svg
	# the time axis: ticks in seconds from 0 past 2
	grep -q '<text x="64.0" y="[0-9]*" class="group">0</text>' chart.svg
	grep -q 'class="group">2</text>' chart.svg
	run --separate-stderr contest report --series
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest report: --series: a chart of the runs' samples needs --svg FILE" ]
	need xmllint libxml2-utils
	xmllint --noout chart.svg
}
