#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# contest bisect: a candidate's runs called good (0), bad (1) or neither
# (125, git bisect's skip) against the step between two labels, over
# tests/data/report/nights.jsonl (synthetic: fork_load 8% slower from
# night-16 on, 0.5% noise); each call checked with the tests it names.

load helpers

N="$TOP_SRCDIR/tests/data/report/nights.jsonl"

@test "bisect: before the step is good (0), after it bad (1), each load of the step said on one figure" {
	run -0 contest bisect -f "$N" night-10 night-20 night-05
	[ "${#lines[@]}" -eq 2 ]
	# no_load did not move in the step: fork_load is judged on its Ratio
	[[ "${lines[0]}" == "fork_load Ratio: night-05 at -0.00 of the step from night-10 (1.20) to night-20 (1.30), against night-10 p=0.96, against night-20 p="*": good" ]]
	[[ "${lines[1]}" == "night-05 looks good (0 of the step's 1 load bad, 1 good, 0 can't tell; "* ]]
	run -1 contest bisect -f "$N" night-10 night-20 night-18
	[[ "${lines[0]}" == "fork_load Ratio: night-18 at 0.93 of the step "*": bad" ]]
	[[ "${lines[1]}" == "night-18 looks bad (1 of the step's 1 load bad, "* ]]
	# the first night after the step, and the last before it
	run -1 contest bisect -f "$N" night-01 night-24 night-16
	run -0 contest bisect -f "$N" night-01 night-24 night-15
}

@test "bisect: a candidate half way, or without results, is neither: 125, never a guess" {
	# "mid": night-20's lines with fork_load half the step back
	jq -c 'select(.label == "night-20") | .label = "mid" | .session = "s-mid" |
	    if .load == "fork_load" then .wall_s = (.wall_s - 0.47) else . end' "$N" >mid.jsonl
	cat "$N" mid.jsonl >all.jsonl
	run -125 contest bisect -f all.jsonl night-10 night-20 mid
	# worse than GOOD and better than BAD, each significantly: in between
	[[ "${lines[0]}" == "fork_load Ratio: mid at 0.52 of the step "*", against night-10 p=0.00095, against night-20 p=0.0003: can't tell" ]]
	[[ "${lines[1]}" == "mid looks like neither: skip (0 of the step's 1 load bad, 0 good, 1 can't tell; "* ]]
	run -125 --separate-stderr contest bisect -f "$N" night-10 night-20 nobody
	[ -z "$output" ]
	[ "$stderr" = "contest bisect: no results for label 'nobody' (the 10 nearest of 24 labels: night-01, night-02, night-03, night-04, night-05, night-06, night-07, night-08, night-09, night-10)" ]
	# the nearest by edits (a change, an insertion, a deletion, a swap),
	# the first read of those as near
	run -125 --separate-stderr contest bisect -f "$N" night-10 night-20 night-2
	[ "$stderr" = "contest bisect: no results for label 'night-2' (the 10 nearest of 24 labels: night-02, night-12, night-20, night-21, night-22, night-23, night-24, night-01, night-03, night-04)" ]
}

@test "bisect: no step, and bad input: exit 2 with one line" {
	run -2 --separate-stderr contest bisect -f "$N" night-01 night-05 night-03
	[ -z "$output" ]
	[ "$stderr" = "contest bisect: night-05 is no regression beyond 5% against night-01 in any gated figure: no step to bisect" ]
	# the 8% step (fork_load's Time CI95 +6.6..+10.4%) may or may not be
	# beyond 10%: no step, and never said to be no regression
	run -2 --separate-stderr contest bisect -f "$N" --threshold 10 night-10 night-20 night-18
	[ "$stderr" = "contest bisect: can't tell whether night-20 is a regression beyond 10% against night-10: 1 gated figure undecided (contest compare says why); no step to bisect" ]
	run -2 --separate-stderr contest bisect -f "$N" --threshold 20 night-10 night-20 night-18
	[ "$stderr" = "contest bisect: night-20 is no regression beyond 20% against night-10 in any gated figure: no step to bisect" ]
	for bad in "a b" "a a b" "--format json a b c" "--threshold x a b c" "--alpha 2 a b c" \
	    "--gate bogus a b c"; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr contest bisect -f "$N" $bad
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" -eq 1 ]
	done
	run -2 --separate-stderr contest bisect -f "$N" --format json a b c
	[ "$stderr" = "contest bisect: no option '--format' (see 'contest bisect --help')" ]
	run -0 contest bisect --help
	[[ "${lines[0]}" == "usage: contest bisect "* ]]
	run -0 contest --help
	[[ "$output" == *"  bisect   for git bisect run: "* ]]
}

@test "bisect --looks N: one of a loop's looks, the candidate's tests at alpha / N, the step at alpha; --run counts its own" {
	# "c": night-20 with fork_load 0.1 s back and 3% either side, run by
	# run: past BAD's end, against night-10 p=0.044
	jq -c 'select(.label == "night-20") | .label = "c" | .session = "s-c" |
	    if .load == "fork_load" then .wall_s = (.wall_s * (1 + 0.03 * ((.run % 2) * 2 - 1)) - 0.1) else . end' "$N" >c.jsonl
	cat "$N" c.jsonl >all.jsonl
	run -1 contest bisect -f all.jsonl night-10 night-20 c
	[[ "${lines[0]}" == *", against night-10 p=0.044, against night-20 p=0.92: bad" ]]
	run -125 contest bisect -f all.jsonl --looks 8 night-10 night-20 c
	[[ "${lines[0]}" == *", against night-10 p=0.044, against night-20 p=0.92: can't tell" ]]
	[[ "${lines[1]}" == *"tested against the other at alpha 0.00625; the step at alpha 0.05 and 5%)" ]]
	run -2 --separate-stderr contest bisect --run --looks 8 night-10 night-20 -- true
	[ "$stderr" = "contest bisect: --looks is a plain bisect's: --run counts its own" ]
	run -2 --separate-stderr contest bisect -f all.jsonl --looks 0 night-10 night-20 c
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "bisect: a step in a job metric alone is judged on that metric, not on a Time that did not move" {
	# five runs each of good (m 11..15), bad and cand (m 21..25), Time the
	# same 0.201..0.205 s throughout: the default gate's step is m's
	for l in good bad cand; do
		for i in 1 2 3 4 5; do
			jq -nc --arg l "$l" --argjson i "$i" --argjson m "$([ "$l" = good ] && echo 10 || echo 20)" '{schema: 2,
			    contest_version: "0.2.0", session: ("s-" + $l), timestamp: "2026-11-02T03:00:00.000Z", host: "box",
			    kernel: "k", label: $l, nproc: 2, cpu_model: "Test CPU", mem_total_kb: 1, command: "sh job.sh",
			    load: "no_load", load_spec: "no_load", run: $i, warmup: false, status: "ok", exit_code: 0,
			    wall_s: (0.2 + $i / 1000), cpu_pct: 1, job_metrics: {m: ($m + $i)},
			    job_metric_defs: {m: {regex: "m=([0-9]+)", better: "lower", of: "last", unit: null, preset: null}}}'
		done
	done >m.jsonl
	run -1 contest bisect -f m.jsonl good bad cand
	[ "${lines[0]}" = "no_load m: cand at 1.00 of the step from good (13.0) to bad (23.0), against good p=8.5e-06, against bad p=1: bad" ]
	[[ "${lines[1]}" == "cand looks bad (1 of the step's 1 load bad, 0 good, 0 can't tell; "* ]]
	# and good's own runs, as a candidate, look good
	jq -c 'select(.label == "good") | .label = "c0" | .session = "s-c0"' m.jsonl >>m.jsonl
	run -0 contest bisect -f m.jsonl good bad c0
	[[ "${lines[0]}" == "no_load m: c0 at 0.00 of the step "*": good" ]]
	# good's first run 1.5 s, seven times the rest: the four after it
	# may have done no work and are left out, and one run a side cannot
	# tell a step, which is not "no regression"; --keep-suspect keeps them
	jq -c 'if .label == "good" and .run == 1 then .wall_s = 1.5 else . end' m.jsonl >slow.jsonl
	run -2 --separate-stderr contest bisect -f slow.jsonl good bad cand
	[ "$stderr" = "contest bisect: can't tell whether bad is a regression beyond 5% against good: 2 gated figures undecided (contest compare says why); no step to bisect" ]
	run -1 contest bisect --keep-suspect -f slow.jsonl good bad cand
	[[ "${lines[1]}" == "cand looks bad (1 of the step's 1 load bad, "* ]]
}

@test "bisect: doc/reports.md's example is what contest prints" {
	run -1 contest bisect -f "$N" night-10 night-20 night-18
	[ "${#lines[@]}" -eq 2 ]
	for line in "${lines[@]}"; do
		grep -qxF "    $line" "$TOP_SRCDIR/doc/reports.md"
	done
}

# metric_job FILE WORK: a job, sh FILE, that prints m=WORK give or take a
# planted spread (0 +2 -1 +1 -2 in turn, by ./count beside FILE): a
# figure whose calls no busy host moves, as a sleep's Time is moved.
# The runs' mechanics are bisect --run's own whatever the job does; how
# small a step a sleep's Time shows on a machine is the benches' to say.
metric_job() {
	cat > "$1" <<EOF
n=0; [ -f "\$(dirname "\$0")/count" ] && read -r n < "\$(dirname "\$0")/count"
echo \$((n + 1)) > "\$(dirname "\$0")/count"
set -- 0 2 -1 1 -2; shift \$((n % 5)); echo "m=\$(($2 + \$1))"
EOF
}
M=(--job-metric 'm=m=([0-9]+)')
# The --run tests' calls read with --keep-suspect: a busy host's slow
# first run (CI, under ASan) leaves the runs after it out as having done
# no work, and their point is the calls on the metric, not that rule
# (tested on planted runs above).

# A git repository of 9 commits, c0 to c8, each one's job printing the
# work its file names: 200 until c5, 300 (50% more) from c6 on; c4's job
# cannot build (it exits 1).  The bisect's mechanics are the test's, not
# how small a step it finds (compare's power is tested on its own).
bisect_repo() {
	git init -q repo
	cd repo
	git config user.email t@example.org
	git config user.name t
	for c in 0 1 2 3 4 5 6 7 8; do
		w=200
		[ "$c" -lt 6 ] || w=300
		echo "$w" >work
		if [ "$c" -eq 4 ]; then
			printf 'echo "c4: does not build" >&2\nexit 1\n' >job.sh
		else
			metric_job job.sh '$(cat work)'
		fi
		git add work job.sh
		git commit -q --allow-empty -m "c$c"
		git tag "c$c"
	done
}

@test "bisect --run under git bisect run: the 50% commit named in log2(n) steps, the one that cannot build skipped" {
	command -v git >/dev/null || skip "no git"
	bisect_repo
	R="$BATS_TEST_TMPDIR/r"
	git checkout -q c0
	run -0 contest -o "$R" -k good -n 5 --lead 0 -l no_load "${M[@]}" -- sh job.sh
	git checkout -q c8
	run -0 contest -o "$R" -k bad -n 5 --lead 0 -l no_load "${M[@]}" -- sh job.sh
	git bisect start c8 c0 >/dev/null
	# each step labelled with its commit; the session's table and the
	# call go to the log; the step's figure the job's own
	marked git bisect run sh -c "\"\$CONTEST\" bisect --run --keep-suspect --gate m -f '$R' -k \"\$(git describe --tags)\" good bad -- sh job.sh" >log 2>&1 ||
	    { sed 's/^/# /' log >&3; false; }
	git bisect log >blog
	git bisect reset >/dev/null 2>&1
	cat blog
	grep -q "^$(git rev-parse c6) is the first bad commit" log
	# c4 was tried and skipped; log2(8) = 3 calls besides, and one more
	# where git's way around the skipped commit (its own pseudo-random
	# pick) costs one
	grep -q "^# skip: \[$(git rev-parse c4)\] c4" blog
	[ "$(grep -c '^git bisect \(good\|bad\) ' blog)" -le 4 ]
	# every call was made on the commit's own runs, and said so
	grep -q '^c6 looks bad (1 of the step'"'"'s 1 load bad' log
	run -0 contest report -f "$R" --format csv -l no_load
	run -0 grep -c '^no_load,no_load,c[0-9],' <<<"$output"
	[ "$output" -ge 3 ]
}

@test "bisect --run: good and bad calls and their rounds; no step stops git bisect (255); bad input is exit 2 with one line" {
	R="$BATS_TEST_TMPDIR/r"
	# jobs printing their work, 200 and 300 give or take 2: a step of 50%
	metric_job good.sh 200
	metric_job bad.sh 300
	run -0 contest -o "$R" -k good -n 5 --lead 0 -l no_load "${M[@]}" -- sh good.sh
	run -0 contest -o "$R" -k bad -n 5 --lead 0 -l no_load "${M[@]}" -- sh bad.sh
	# a label as long as run takes (200), whole in the results
	c1=c1$(printf '%0198d' 0)
	run -1 --separate-stderr contest bisect --run --keep-suspect --gate m -f "$R" -k "$c1" good bad -- sh bad.sh
	[[ "${lines[${#lines[@]} - 2]}" == "$c1 looks bad (1 of the step's 1 load bad, "*"; each within 0.4 of the way from its side and tested against the other at alpha 0.00625; the step at alpha 0.05 and 5%)" ]]
	# decided at the first look, after three rounds
	[ "${lines[${#lines[@]} - 1]}" = "$c1: 3 rounds (at most 10), 1 look of 8" ]
	[ "$(jq -s --arg l "$c1" 'map(select(.label == $l and (.warmup | not))) | length' "$R/results.jsonl")" -eq 3 ]
	run -2 --separate-stderr contest bisect --run -f "$R" -k "${c1}x" good bad -- true
	[ "$stderr" = "contest bisect: -k: label must be 1..200 characters" ]
	run -0 contest bisect --run --keep-suspect --gate m -f "$R" -k c2 -n 4 --min-runs 2 good bad -- sh good.sh
	[[ "${lines[${#lines[@]} - 2]}" == "c2 looks good (0 of the step's 1 load bad, 1 good, 0 can't tell; each within 0.4 of the way from its side and tested against the other at alpha 0.0166667; the step at alpha 0.05 and 5%)" ]]
	[ "${lines[${#lines[@]} - 1]}" = "c2: 2 rounds (at most 4), 1 look of 3" ]
	# the runs are stored under the candidate's label, beside GOOD's and BAD's
	[ "$(jq -s 'map(select(.label == "c2" and (.warmup | not))) | length' "$R/results.jsonl")" -ge 2 ]
	# good against its like: no step, and git bisect run must stop, before
	# any run
	n=$(wc -l <"$R/results.jsonl")
	run -255 --separate-stderr contest bisect --run --keep-suspect --gate m -f "$R" good c2 -- sh good.sh
	[ "$stderr" = "contest bisect: c2 is no regression beyond 5% against good in any gated figure: no step to bisect" ]
	[ "$(wc -l <"$R/results.jsonl")" -eq "$n" ]
	for args in "-n 1" "-n 3 --min-runs 4" "-k a -k b" "-n x"; do
		eval "run -2 --separate-stderr contest bisect --run -f \"\$R\" $args good bad -- true"
		[ "${#stderr_lines[@]}" -eq 1 ]
	done
	run -2 --separate-stderr contest bisect --run -f "$R" good bad
	[ "$stderr" = "contest bisect: --run needs GOOD, BAD and a COMMAND after them" ]
	run -2 --separate-stderr contest bisect -f "$R" -k c9 good bad c1
	[ "$stderr" = "contest bisect: -k is --run's" ]
	run -2 --separate-stderr contest bisect --run -f "$R/results.jsonl" good bad -- true
	[ "$stderr" = "contest bisect: --run: -f names one results directory, where the session is written" ]
}

@test "bisect --run replays GOOD's settings from its config (--job-cpus, --latency, --job-metric), not the session's shape; older results replay what they can and say so" {
	R="$BATS_TEST_TMPDIR/r"
	set -- --lead 0.1 --job-cpus 0 --latency=5 --job-metric 'm=v=([0-9]+)' -l no_load \
	    --prepare '' --series --load-nice 5
	# the jobs sleep 0.2 and 0.3 s and print v=10..12 and v=20..22 in
	# turn: the step is called on the job's own figure, whatever a busy
	# host does to the sleeps
	v='sleep 0.$(($0 + 1)); n=$(cat c 2>/dev/null || echo 0); echo $((n + 1)) > c; echo v=$0$((n % 3))'
	run -0 contest -o "$R" -k good -n 5 "$@" -- sh -c "$v" 1
	run -0 contest -o "$R" -k bad -n 5 "$@" -- sh -c "$v" 2
	run -1 --separate-stderr contest bisect --run --keep-suspect --gate m -n 4 -f "$R" -k c1 good bad -- sh -c "$v" 2
	[ "${stderr_lines[0]}" = "contest bisect: --run: GOOD's settings replayed: --prepare= --lead=0.1 --load-nice=5 --job-cpus=0 --job-metric=m=v=([0-9]+) --latency=5 --series" ]
	# the candidate's runs were asked for what GOOD's were, bar the shape
	good=$(jq -sc 'map(select(.label == "good"))[0].config | del(.runs, .label, .output)' "$R/results.jsonl")
	[ "$good" = '{"prepare":"","lead":"0.1","load-nice":"5","job-cpus":"0","job-metric":["m=v=([0-9]+)"],"latency":"5","series":true}' ]
	cand=$(jq -sc 'map(select(.label == "c1"))' "$R/results.jsonl")
	[ "$(jq -c '.[0].config | del(.runs, .warmup, .label, .output)' <<<"$cand")" = "$good" ]
	[ "$(jq -r '.[-1].job_cpus' <<<"$cand")" = 0 ]
	[ "$(jq -r '.[-1].probe.period_ms' <<<"$cand")" = 5 ]
	[ "$(jq -r '.[-1].job_metrics.m / 10 | floor' <<<"$cand")" = 2 ]
	[ "$(jq -r '.[-1].load_nice' <<<"$cand")" = 5 ]
	[ "$(jq -r '.[-1].prepare' <<<"$cand")" = null ]
	[ "$(jq -r '.[-1].series.period_s' <<<"$cand")" != null ]
	# results from before "config": loads, lead and prepare step alone
	mkdir "$BATS_TEST_TMPDIR/old"
	jq -c 'select(.label == "good" or .label == "bad") | del(.config)' "$R/results.jsonl" >"$BATS_TEST_TMPDIR/old/results.jsonl"
	# (the metric is not replayed, so the candidate has none to be
	# called on: neither, 125; what matters here is what was replayed)
	run -125 --separate-stderr contest bisect --run --keep-suspect --gate m -n 3 -f "$BATS_TEST_TMPDIR/old" -k c2 good bad -- sh -c "$v" 2
	[ "${stderr_lines[0]}" = "contest bisect: --run: GOOD's results say no config (an older contest): replaying its loads, lead and prepare step alone" ]
	[ "$(jq -sc 'map(select(.label == "c2"))[0].config' "$BATS_TEST_TMPDIR/old/results.jsonl")" = '{"runs":"3","lead":"0.100","label":"c2","output":"'"$BATS_TEST_TMPDIR/old"'"}' ]
	[ "$(jq -sr 'map(select(.label == "c2"))[-1].job_cpus' "$BATS_TEST_TMPDIR/old/results.jsonl")" = null ]
	[ "$(jq -sr 'map(select(.label == "c2"))[-1].job_metrics.m' "$BATS_TEST_TMPDIR/old/results.jsonl")" = null ]
}

# job_or_end PID: the job (a sleep 37) runs, or PID has ended.
job_or_end() {
	pgrep -f '^sleep 37$' >/dev/null || ! running "$1"
}

@test "bisect --run: Ctrl-C reaches the session and its job, kill -9 takes them with it; nothing is left" {
	R="$BATS_TEST_TMPDIR/r"
	metric_job good.sh 200
	metric_job bad.sh 300
	run -0 contest -o "$R" -k good -n 3 --lead 0 -l no_load "${M[@]}" -- sh good.sh
	run -0 contest -o "$R" -k bad -n 3 --lead 0 -l no_load "${M[@]}" -- sh bad.sh
	# the job is a sleep the suite can find by its length
	for sig in INT KILL; do
		marked_bg "$CONTEST" bisect --run --gate m -f "$R" -k "c$sig" good bad -- sleep 37 2>err
		pid=$!
		# a busy host may take minutes to reach the job; a bisect that
		# ends before it says why
		wait_until 3000 job_or_end "$pid"
		pgrep -f '^sleep 37$' >/dev/null || { sed 's/^/# /' err >&3; false; }
		kill -"$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		if [ "$sig" = INT ]; then
			[ "$rc" -eq 130 ]
		else
			[ "$rc" -eq 137 ]
		fi
		# the session, its watchdog and its job go with the bisect
		no_leftovers 50
	done
}
