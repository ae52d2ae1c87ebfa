#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --job-metric: numbers read from the job's output become figures of its
# runs (results, the table, report, compare, history), a run without the
# match fails, and the presets read the real programs (rt-tests'
# hackbench and cyclictest, perf bench) and stored samples of the others.

load helpers

DATA="$TOP_SRCDIR/tests/data/jobmetric"

@test "a metric is the last match of its group, on stdout or stderr; its definition is kept; the log keeps the output" {
	run contest --warmup 0 -n 2 --lead 0 --job-metric 'score:higher=result: ([0-9.]+)' \
	    --job-metric 'delay=lat=([0-9]+)us' \
	    -- sh -c 'echo "result: 1"; echo "result: 42.5" >&2; echo "lat=7us"; echo done'
	[ "$status" -eq 0 ]
	[ "$(rq -r 'map(.job_metrics.score) | join(" ")')" = "42.5 42.5" ]
	[ "$(rq -r 'map(.job_metrics.delay) | join(" ")')" = "7 7" ]
	[ "$(rq -c '.[0].job_metric_defs.score')" = '{"regex":"result: ([0-9.]+)","better":"higher","of":"last","unit":null,"preset":null}' ]
	[ "$(rq -r '.[0].job_metric_defs.delay.better')" = lower ]
	[ "$(grep -c '^result: 42.5$' "$CONTEST_RESULTS"/logs/*.log)" -eq 2 ]
	[ "$(grep -c '^done$' "$CONTEST_RESULTS"/logs/*.log)" -eq 2 ]
	# the capture file is gone from the start: only the log is left
	[ "$(ls "$CONTEST_RESULTS"/logs | wc -l)" -eq 1 ]
	grep -q '^no_load: Job metrics: score 42.5±0.0 (higher is better), delay 7.00±0.00 (lower is better)$' <<<"$output"
}

@test "a run whose output lacks a metric fails with the reason, as a failed job does" {
	run --separate-stderr contest --warmup 0 -n 2 --lead 0 \
	    --job-metric 'score=result: ([0-9]+)' -- sh -c 'echo no result here'
	[ "$status" -eq 1 ]
	[ "$(rq -r 'map(.status) | join(" ")')" = "failed failed" ]
	[ "$(rq -r '.[0].error')" = "job metric score: no match for 'result: ([0-9]+)' in the job's output" ]
	[ "$(rq -r '.[0].job_metrics.score')" = null ]
	[[ "$stderr" == *"no_load run 1: job metric score: no match for 'result: ([0-9]+)' in the job's output"* ]]
	# a capture that is no number fails it too
	rm -rf "$CONTEST_RESULTS"
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 \
	    --job-metric 'score=result: (.*)' -- sh -c 'echo result: many'
	[ "$status" -eq 1 ]
	[ "$(rq -r '.[0].error')" = "job metric score: 'many' is not a number" ]
	# a job that fails keeps its own reason
	rm -rf "$CONTEST_RESULTS"
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 \
	    --job-metric 'score=result: ([0-9]+)' -- sh -c 'exit 3'
	[ "$status" -eq 1 ]
	[ "$(rq -r '.[0].error')" = "sh exited with status 3" ]
}

@test "an expression 1024 long with its repeats written out is taken, 1025 is bad input" {
	# x, (, [0-9] once a copy, the interval's node, ): 1 + 1 + 1020 + 1 + 1
	run contest --warmup 0 -n 1 --lead 0 --job-metric 'n=x([0-9]{1,1020})' \
	    -- echo x42
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_metrics.n')" = 42 ]
	rm -rf "$CONTEST_RESULTS"
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 \
	    --job-metric 'n=x([0-9]{1,1021})' -- echo x42
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest: --job-metric: n: the expression is longer than 1024 characters with its repeated parts written out" ]
	[ ! -e "$CONTEST_RESULTS" ]
}

@test "the presets read their programs' stored output: hackbench, perf bench messaging, cyclictest -q, schbench" {
	run contest --warmup 0 -n 1 --lead 0 --job-metric hackbench -- cat "$DATA/hackbench.out"
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_metrics.hackbench')" = 0.054 ]
	[ "$(rq -r '.[0].job_metric_defs.hackbench | [.unit, .preset, .better] | join(" ")')" = "s hackbench lower" ]
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 --job-metric perf-messaging -- cat "$DATA/perf-messaging.out"
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_metrics.messaging')" = 0.023 ]
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 --job-metric perf-pipe -- cat "$DATA/perf-pipe.out"
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_metrics | [.pipe_usecs, .pipe_ops] | join(" ")')" = "4.01085 249323" ]
	[ "$(rq -r '.[0].job_metric_defs.pipe_ops.better')" = higher ]
	rm -rf "$CONTEST_RESULTS"
	# two threads: the worst Max (302, 2087) and the mean Avg (58, 115)
	run contest --warmup 0 -n 1 --lead 0 --job-metric cyclictest -- cat "$DATA/cyclictest.out"
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_metrics | [.ct_max, .ct_avg] | join(" ")')" = "2087 86.5" ]
	rm -rf "$CONTEST_RESULTS"
	# the final report's, not the interval's before it (captured, as the
	# file's first line says); -p's figure absent, why said, the run ok
	run contest --warmup 0 -n 1 --lead 0 --job-metric schbench -- cat "$DATA/schbench.out"
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_metrics | [.wakeup_p99, .request_p99, .rps] | join(" ")')" = "51 6472 391.4" ]
	[ "$(rq -r '.[0].job_metric_defs.rps.better')" = higher ]
	[ "$(rq -r '.[0].job_metrics.transfer')" = null ]
	[ "$(rq -r '.[0].job_metrics_why | keys | join(" ")')" = transfer ]
}

@test "cyclictest without -q, its screen redrawn each refresh, and hackbench's pipe and thread modes, as captured" {
	# the last drawing's two threads: the worst Max (9057, 6566) and the
	# mean of their Avg (379, 176), not the mean over every refresh
	run contest --warmup 0 -n 1 --lead 0 --job-metric cyclictest -- cat "$DATA/cyclictest-default.out"
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_metrics | [.ct_max, .ct_avg] | join(" ")')" = "9057 277.5" ]
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 --job-metric hackbench -- cat "$DATA/hackbench-pipe.out"
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_metrics.hackbench')" = 0.045 ]
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 --job-metric hackbench -- cat "$DATA/hackbench-thread.out"
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_metrics.hackbench')" = 0.052 ]
}

@test "cyclictest without -q as the job: the last drawing's figures, the program's own" {
	command -v cyclictest >/dev/null || skip "no cyclictest (rt-tests)"
	run contest --warmup 0 -n 1 --lead 0 --job-metric cyclictest -- cyclictest -t 2 -i 1000 -l 200
	[ "$status" -eq 0 ]
	# after the last cursor-up escape: a T: line a thread
	awk 'BEGIN { RS = "\033\\[" } { last = $0 } END { print last }' "$CONTEST_RESULTS"/logs/*.log >last
	max=$(awk '/^T:/ { v = $NF; if (v > m) m = v } END { print m }' last)
	[ -n "$max" ]
	[ "$(rq -r '.[0].job_metrics.ct_max')" = "$max" ]
}

@test "schbench's modes, as captured: -p's wakeups and transfer rate with no requests or rps, and a block of no samples null, each with why" {
	run contest --warmup 0 -n 1 --lead 0 --job-metric schbench -- cat "$DATA/schbench-p64.out"
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].status')" = ok ]
	[ "$(rq -r '.[0].job_metrics | [.wakeup_p99, .request_p99, .rps, .transfer] | map(tostring) | join(" ")')" = "15 null null 110509.38" ]
	[ "$(rq -r '.[0].job_metrics_why.request_p99')" = "no request latency samples in schbench's output (its -p mode has none)" ]
	[ "$(rq -r '.[0].job_metric_defs.transfer | [.unit, .better] | join(" ")')" = "ops/s higher" ]
	rm -rf "$CONTEST_RESULTS"
	# -R's final wakeup block of no samples: every percentile printed 0,
	# which is no figure
	run contest --warmup 0 -n 1 --lead 0 --job-metric schbench -- cat "$DATA/schbench-R-nosamples.out"
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_metrics | [.wakeup_p99, .request_p99, .rps] | map(tostring) | join(" ")')" = "null 77184 129" ]
	[ "$(rq -r '.[0].job_metrics_why.wakeup_p99')" = "no wakeup latency samples in schbench's output" ]
	rm -rf "$CONTEST_RESULTS"
	# a job that printed no report at all fails, as before
	run contest --warmup 0 -n 1 --lead 0 --job-metric schbench -- echo nothing
	[ "$status" -eq 1 ]
	[ "$(rq -r '.[0].error')" = "job metric wakeup_p99: none of the schbench preset's figures in the job's output" ]
}

@test "the real schbench as the job, built from ../shared/peers: default and -p, each figure the program's own" {
	src=$TOP_SRCDIR/../shared/peers/schbench/src/schbench.c
	[ -r "$src" ] || skip "no schbench source at ../shared/peers/schbench/src"
	command -v cc >/dev/null || skip "no cc to build schbench"
	cc -O2 -o schbench "$src" -lpthread -lm 2>build.err || skip "schbench does not build here: $(tail -n 1 build.err)"
	run contest --warmup 0 -n 1 --lead 0 --job-metric schbench -- ./schbench -r 1
	[ "$status" -eq 0 ]
	want=$(awk '/^Request Latencies percentiles/ { r = 1 } /^RPS/ { r = 0 } r && /\* 99.0th:/ { v = $3 } END { print v }' "$CONTEST_RESULTS"/logs/*.log)
	[ -n "$want" ]
	[ "$(rq -r '.[0].job_metrics.request_p99')" = "$want" ]
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 --job-metric schbench -- ./schbench -r 1 -p 64
	[ "$status" -eq 0 ]
	want=$(sed -n 's/^avg worker transfer: \([0-9.]*\) ops\/sec.*/\1/p' "$CONTEST_RESULTS"/logs/*.log | awk '{ print $1 + 0 }')
	[ -n "$want" ]
	[ "$(rq -r '.[0].job_metrics.transfer' | awk '{ print $1 + 0 }')" = "$want" ]
	[ "$(rq -r '.[0].job_metrics.request_p99')" = null ]
	# -R (a rate of requests) and -A (its rate found by itself): the
	# final report's figures, a block of no samples null
	for mode in "-R 100" "-A 50"; do
		rm -rf "$CONTEST_RESULTS"
		# shellcheck disable=SC2086 # mode: two words
		run contest --warmup 0 -n 1 --lead 0 --job-metric schbench -- ./schbench -r 1 $mode
		[ "$status" -eq 0 ]
		awk '/^Wakeup Latencies/ { b = "w"; n = $8; sub(/\(/, "", n) } /^Request Latencies/ { b = "r" } /^RPS/ { b = "" }
		    /\* 99\.0th:/ && b == "w" { w = n + 0 > 0 ? $3 : "null" } /\* 99\.0th:/ && b == "r" { q = $3 }
		    END { print w, q }' "$CONTEST_RESULTS"/logs/*.log >want
		[ "$(rq -r '.[0].job_metrics | [.wakeup_p99, .request_p99] | map(tostring) | join(" ")')" = "$(cat want)" ]
	done
}

@test "hackbench and cyclictest as the job, beside a load: each run's figure is the program's own" {
	command -v hackbench >/dev/null || skip "no hackbench (rt-tests)"
	command -v cyclictest >/dev/null || skip "no cyclictest (rt-tests)"
	run contest --warmup 0 -n 2 --lead 0.3 --job-metric hackbench -l cpu_load:n=1 \
	    -- hackbench -g 2 -l 50
	[ "$status" -eq 0 ]
	# as numbers: the program prints 0.080, JSON's reader gives 0.08
	grep -o '^Time: [0-9.]*' "$CONTEST_RESULTS"/logs/*.log | awk '{ print $2 + 0 }' >printed
	[ "$(wc -l <printed)" -eq 4 ]
	rq -r '.[].job_metrics.hackbench' | awk '{ print $1 + 0 }' >recorded
	diff printed recorded
	grep -q '^cpu_load:n=1: Job metrics: hackbench .* s, [0-9.]*x no_load (lower is better)$' <<<"$output"
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 --job-metric cyclictest \
	    -- cyclictest -q -t 2 -i 1000 -l 200
	[ "$status" -eq 0 ]
	max=$(awk '/^T:/ { v = $NF; if (v > m) m = v } END { print m }' "$CONTEST_RESULTS"/logs/*.log)
	[ "$(rq -r '.[0].job_metrics.ct_max')" = "$max" ]
}

@test "perf bench sched messaging as the job: each run's figure is the program's own" {
	need perf linux-perf
	perf bench sched messaging -g 1 -l 1 >/dev/null 2>&1 ||
	    skip "perf bench sched messaging does not run here: $(perf bench sched messaging -g 1 -l 1 2>&1 | tail -n 1)"
	run contest --warmup 0 -n 1 --lead 0 --job-metric perf-messaging \
	    -- perf bench sched messaging -g 1 -l 20
	[ "$status" -eq 0 ]
	t=$(sed -n 's/^ *Total time: \([0-9.]*\) \[sec\]$/\1/p' "$CONTEST_RESULTS"/logs/*.log)
	[ -n "$t" ]
	[ "$(rq -r '.[0].job_metrics.messaging' | awk '{ print $1 + 0 }')" = "$(awk -v t="$t" 'BEGIN { print t + 0 }')" ]
}

@test "schbench -j FILE: its latencies from the JSON, the average rps from the text; a stale or foreign file fails the run with why" {
	# a stand-in that writes what schbench wrote (captured: its cmdline
	# is in the JSON) and prints another run's text report
	cat >fake-schbench <<EOF
#!/bin/sh
cp "$DATA/schbench-r3.json" out.json
cat "$DATA/schbench.out"
EOF
	chmod +x fake-schbench
	run contest --warmup 0 -n 1 --lead 0 --job-metric schbench -- ./fake-schbench -r 3 -j out.json
	[ "$status" -eq 0 ]
	# the JSON's 52 and 6680, not the text's 51 and 6472; rps the text's
	[ "$(rq -r '.[0].job_metrics | [.wakeup_p99, .request_p99, .rps] | join(" ")')" = "52 6680 391.4" ]
	rm -rf "$CONTEST_RESULTS"
	# make -j4 is no file: another preset's job's -j is no concern
	run contest --warmup 0 -n 1 --lead 0 --job-metric hackbench -- sh -c 'cat "$1"' -j4 "$DATA/hackbench.out"
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_metrics.hackbench')" = 0.054 ]
	rm -rf "$CONTEST_RESULTS"
	# a file the run did not write, and one that is not schbench's
	cp "$DATA/schbench-r3.json" old.json
	touch -d '2001-01-01' old.json
	run contest --warmup 0 -n 1 --lead 0 --job-metric schbench -- sh -c 'cat "$2"' -j old.json "$DATA/schbench.out"
	[ "$status" -eq 1 ]
	[ "$(rq -r '.[0].error')" = "schbench's -j file old.json: older than the run (not written by it)" ]
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 --job-metric schbench -- sh -c 'echo "{\"a\": 1}" >x.json; cat "$2"' -j x.json "$DATA/schbench.out"
	[ "$status" -eq 1 ]
	[ "$(rq -r '.[0].error')" = "schbench's -j file x.json: not schbench's JSON" ]
}

@test "the real schbench with -j FILE and -j -: the figures are its JSON's" {
	src=$TOP_SRCDIR/../shared/peers/schbench/src/schbench.c
	[ -r "$src" ] || skip "no schbench source at ../shared/peers/schbench/src"
	command -v cc >/dev/null || skip "no cc to build schbench"
	cc -O2 -o schbench "$src" -lpthread -lm 2>build.err || skip "schbench does not build here: $(tail -n 1 build.err)"
	run contest --warmup 0 -n 1 --lead 0 --job-metric schbench -- ./schbench -r 1 -j out.json
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_metrics.request_p99')" = "$(jq -r '.int."request_latency_pct99.0"' out.json)" ]
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 --job-metric schbench -- ./schbench -r 1 -j -
	[ "$status" -eq 0 ]
	want=$(grep -o '"request_latency_pct99.0": [0-9]*' "$CONTEST_RESULTS"/logs/*.log | awk '{ print $2 }')
	[ -n "$want" ]
	[ "$(rq -r '.[0].job_metrics.request_p99')" = "$want" ]
}

@test "perf bench sched pipe as the job: usecs/op and ops/sec, the program's own" {
	need perf linux-perf
	perf bench sched pipe -l 1000 >/dev/null 2>&1 ||
	    skip "perf bench sched pipe does not run here: $(perf bench sched pipe -l 1000 2>&1 | tail -n 1)"
	run contest --warmup 0 -n 1 --lead 0 --job-metric perf-pipe -- perf bench sched pipe -l 20000
	[ "$status" -eq 0 ]
	u=$(sed -n 's/^ *\([0-9.]*\) usecs\/op$/\1/p' "$CONTEST_RESULTS"/logs/*.log)
	[ -n "$u" ]
	[ "$(rq -r '.[0].job_metrics.pipe_usecs' | awk '{ print $1 + 0 }')" = "$(awk -v u="$u" 'BEGIN { print u + 0 }')" ]
}

@test "bad --job-metric is refused before any run, one line, exit 2" {
	for arg in 'X=(1)' '=(1)' '1a=(1)' 'a:up=(1)' 'a=' 'a=(' 'a=no group' \
	    'a=(1)(2)' 'nosuchpreset' 'time=(1)' 'ratio=(1)' \
	    'abcdefghijabcdefghijabcdefghijabc=(1)'; do
		run --separate-stderr contest -n 1 --job-metric "$arg" true
		[ "$status" -eq 2 ]
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
		[[ "$stderr" == "contest: --job-metric: "* ]]
		[ ! -e "$R" ]
	done
	run --separate-stderr contest -n 1 --job-metric 'a=(1)' --job-metric 'a=(2)' true
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest: --job-metric: 'a' is named twice" ]
	run --separate-stderr contest -n 1 --job-metric hackbench --job-metric hackbench true
	[ "$status" -eq 2 ]
	args=()
	for i in $(seq 17); do args+=(--job-metric "m$i=(1)"); done
	run --separate-stderr contest -n 1 "${args[@]}" true
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest: --job-metric: at most 16 metrics" ]
}

# Two labels whose job prints a score (lower is better: 100, 110, 120 by
# turns, and 20% more for cand) and an op count (higher is better, the
# same for both): results to compare.  Each label's six runs in three
# sessions of this one boot, two runs each, whose spread is what a
# session's drift does (one session a side can't tell).
two_labels() {
	for k in base:10 cand:12; do
		echo 0 >"$BATS_TEST_TMPDIR/turn"
		for n in 2 2 2; do
			run contest -k "${k%:*}" --warmup 0 -n $n --lead 0 \
			    --job-metric 'score=t: ([0-9.]+)' --job-metric 'ops:higher=ops ([0-9]+)' \
			    -- sh -c "n=\$(cat '$BATS_TEST_TMPDIR/turn'); echo \$((n + 1)) >'$BATS_TEST_TMPDIR/turn'; echo t: \$(((10 + n % 3) * ${k#*:})); echo ops 500"
			[ "$status" -eq 0 ]
		done
	done
}

@test "report: each row's metric as the mean of its runs' figures, in the table and in --format json" {
	two_labels
	want=$(rq -r 'map(select(.label == "cand") | .job_metrics.score) | add / length')
	# every run (a busy host's slow first run marks the rest suspect)
	run -0 contest report --keep-suspect --format json
	[ "$(jq -r '.loads[0].rows[] | select(.kernel == "cand") | .job_metrics.score.mean' <<<"$output")" = "$want" ]
	[ "$(jq -r '.loads[0].rows[] | select(.kernel == "cand") | .job_metrics.ops | [.n, .mean, .better] | join(" ")' <<<"$output")" = "6 500 higher" ]
	run -0 contest report --format csv -k cand
	[ "$(head -1 <<<"$output" | awk -F, '{ print $NF }')" = job_metrics ]
	[ "$(sed -n 2p <<<"$output" | awk -F, '{ print $NF }')" = "score=$want;ops=500" ]
	run -0 contest report -k cand
	# three digits: 129.6 is 130
	grep -q "^no_load: Job metrics: score $(printf '%.0f' "$want")±[0-9]* (lower is better), ops 500±0 (higher is better)$" <<<"$output"
}

@test "compare: a metric is a row of its own, gated by default by its direction; --gate names it; an unknown name is bad input" {
	two_labels
	run -1 contest compare base cand
	grep -q '^Amean     score  *110 (    0.00%)  *132 \*  +20.00%\*$' <<<"$output"
	grep -q '^Amean     ops  ' <<<"$output"
	grep -q '^Job metrics (--job-metric: .*): score (lower is better), ops (higher is better)\.$' <<<"$output"
	grep -q '^cand against base: regression .*no_load score +20.0%' <<<"$output"
	# ops alone: the same for both
	run -0 contest compare --gate ops base cand
	grep -q '^cand against base: no change ' <<<"$output"
	run -1 contest compare --format json base cand
	[ "$(jq -c '.gate' <<<"$output")" = '["time","ratio","score","ops"]' ]
	[ "$(jq -r '.loads[0].figures[] | select(.figure == "job_score") | [.better, .values[1].verdict] | join(" ")' <<<"$output")" = "lower regression" ]
	[ "$(jq -r '.loads[0].figures[] | select(.figure == "job_ops") | .values[1].verdict' <<<"$output")" = "no change" ]
	run --separate-stderr contest compare --gate time,nosuch base cand
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest compare: --gate: 'nosuch' is neither one of contest's figures nor a job metric of these results" ]
	run --separate-stderr contest compare --gate 'Bad!' base cand
	[ "$status" -eq 2 ]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
}

@test "history: each metric is a series of its own, by default and by --figure" {
	two_labels
	run -0 contest history
	[ "$(grep -c '^no_load, score on ' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^no_load, ops on ' <<<"$output")" -eq 2 ]
	run -0 contest history --figure score
	[ "$(grep -c '^no_load, ' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^no_load, score on ' <<<"$output")" -eq 2 ]
	run --separate-stderr contest history --figure nosuch
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest history: --figure: 'nosuch' is neither one of contest's figures nor a job metric of these results" ]
}
