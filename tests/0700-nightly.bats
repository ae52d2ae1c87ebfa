#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/nightly: a first night with nothing to compare, a second
# compared with the first, a regression that fails the gate.

load helpers

nightly() {
	marked "$TOP_SRCDIR/scripts/nightly" --contest "$CONTEST" \
	    -o "$BATS_TEST_TMPDIR/n" --warmup 0 --fixed -n 2 --lead 0.1 -l sleepers:n=5 "$@"
}

# A job that sleeps $1 s and prints its work, $2 give or take 2 (0 +1 +2
# in turn, by ./c), for --job-metric: the gate's calls on that figure are
# known answers, where a busy host moves a sleep's Time as much as a
# change.  (The Time rows go as the host makes them.)
WORKJOB='sleep "$1"; n=$(cat c 2>/dev/null || echo 0); echo $((n + 1)) > c; echo work=$(($2 + n % 3))'
WORK=(--job-metric 'work=work=([0-9]+)')

@test "nightly: first night reports, second compares with it; files next to the results" {
	run nightly -k night1 -- sleep 0.05
	[ "$status" -eq 0 ]
	N=$BATS_TEST_TMPDIR/n
	[ -s "$N/nightly-night1.md" ]
	[ -s "$N/nightly-night1.svg" ]
	[ ! -e "$N/nightly-night1.junit.xml" ]
	grep -q 'First night for this host: nothing to compare with yet' "$N/nightly-night1.md"
	grep -qx '### sleepers:n=5' "$N/nightly-night1.md"
	# the version and the date on one line, the licence left to --version
	grep -Eqx "contest $(contest --version | sed -n '1s/^contest //p'), [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z" "$N/nightly-night1.md"
	run ! grep -q Licence "$N/nightly-night1.md"
	run nightly -k night2 --threshold 900 -- sleep 0.05
	[ "$status" -eq 0 ]
	said=$output
	grep -qx '## night2 against night1' "$N/nightly-night2.md"
	# (run: a line that is not this one is printed on failure)
	run -0 tail -1 "$N/nightly-night2.md"
	# (both nights in this one boot, a session each: the session is the
	# unit, and one a side can't tell)
	[[ "$output" == "night2 against night1: can't tell (unpaired; two sessions of one boot: a session-to-session difference reads the same): "*"; to tell, run both in one session's rounds (--variant), or one label over two sessions" ]]
	output=$said
	# junit: a case per load and gated figure: no_load Time; sleepers Time and Ratio
	grep -q 'tests="3" failures="0"' "$N/nightly-night2.junit.xml"
	[ "$(grep -c 'class="bar"' "$N/nightly-night2.svg")" -eq 2 ]
	[ -z "$(ls "$N" | grep '\.tmp')" ]
	# the site is kept current: both nights have their page, the second
	# its comparison with the first
	[[ "$output" == *"nightly: $N/site/index.html"* ]]
	grep -q '<a href="night-night1.html">night1</a>' "$N/site/index.html"
	grep -q '<a href="night-night2.html">night2</a>' "$N/site/index.html"
	grep -q '<h2 id="compare">Against night1, the night before</h2>' "$N/site/night-night2.html"
	need xmllint libxml2-utils
	xmllint --noout "$N/nightly-night2.junit.xml" "$N/nightly-night2.svg"
}

@test "nightly: a job doing six times the work of the baseline fails the gate with exit 1" {
	# the baseline over two nights (sessions) of this one boot: their
	# spread is the session-to-session spread that widens tonight's one
	run nightly -k fast "${WORK[@]}" -- sh -c "$WORKJOB" _ 0.05 100
	[ "$status" -eq 0 ]
	run nightly -k fast "${WORK[@]}" -- sh -c "$WORKJOB" _ 0.05 100
	[ "$status" -eq 0 ]
	rm c
	run nightly -k slow "${WORK[@]}" -- sh -c "$WORKJOB" _ 0.3 600
	[ "$status" -eq 1 ]
	N=$BATS_TEST_TMPDIR/n
	# the job metric, gated beside Time and Ratio by default, is each
	# load's regression; the Time rows go as the host makes them
	grep -q "^slow against fast: regression (unpaired, over 2 and 1 sessions of one boot; a label in one session widened by the session-to-session spread of fast's 2 sessions): 2 of 2 loads regressed beyond 5%: .*no_load work +.*sleepers:n=5 work +" "$N/nightly-slow.md"
	[ "$(jq -sc 'map(select(.label == "slow") | .job_metrics.work)' "$N/results.jsonl")" = "[600,601,602,600]" ]
	# junit as the line: a case per load and gated figure, each load's work
	# failed; the Time and Ratio cases may go either way
	grep -q 'tests="5" failures="[2345]"' "$N/nightly-slow.junit.xml"
	grep -A1 'name="no_load work"' "$N/nightly-slow.junit.xml" | grep -q '<failure type="regression"'
	grep -A1 'name="sleepers:n=5 work"' "$N/nightly-slow.junit.xml" | grep -q '<failure type="regression"'
	# a named baseline wins over the last label (the same job: a threshold
	# no noise of a busy host reaches)
	run nightly -k slow2 -b slow --threshold 900 --prepare 'touch prepared' "${WORK[@]}" -- sh -c "$WORKJOB" _ 0.3 600
	[ "$status" -eq 0 ]
	grep -qx '## slow2 against slow' "$N/nightly-slow2.md"
	[ -e prepared ]
	jq -se 'map(select(.label == "slow2")) | length == 4 and all(.prepare == "touch prepared")' "$N/results.jsonl"
}

@test "nightly: bad options and labels are refused with exit 2 before any run" {
	run nightly --bogus
	[ "$status" -eq 2 ]
	[[ "$output" == "contest-nightly: unknown option '--bogus'"* ]]
	run nightly -k ../escape -- true
	[ "$status" -eq 2 ]
	run nightly -n 0 -k x -- true
	[ "$status" -eq 2 ]
	run --separate-stderr nightly --min-runs 1 -k x -- true
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest-nightly: --min-runs: at least 2 (an interval needs two runs)" ]
	run --separate-stderr nightly --min-runs two -k x -- true
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest-nightly: --min-runs: 'two' is not a number of rounds" ]
	run nightly -n x -k x -- true
	[ "$status" -eq 2 ]
	# a metric contest refuses, and one with no value
	run --separate-stderr nightly --job-metric 'w=work=[0-9]+' -k x -- true
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest: --job-metric: w: 'work=[0-9]+' has 0 capture groups, not one (the number)" ]
	run --separate-stderr nightly -k x --job-metric
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest-nightly: --job-metric needs a value" ]
	[ ! -e "$BATS_TEST_TMPDIR/n/results.jsonl" ]
}

@test "nightly with no command asks contest for its built-in job: no '--' with nothing after it" {
	# a contest that keeps its words and stops the night at once (exit
	# 2, bad input, as the real one says to an empty command after --)
	printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s/calls"\nexit 2\n' "$PWD" >fake
	chmod +x fake
	run -2 "$TOP_SRCDIR/scripts/nightly" --contest "$PWD/fake" -o "$BATS_TEST_TMPDIR/n" -k night --job-metric 'm=m=([0-9]+)'
	[ "$(wc -l <calls)" -eq 1 ]
	[[ "$(cat calls)" == "run -k night "*" --job-metric m=m=([0-9]+)" ]]
	# and with one, "--" before it
	: >calls
	run -2 "$TOP_SRCDIR/scripts/nightly" --contest "$PWD/fake" -o "$BATS_TEST_TMPDIR/n" -k night -- make -l fork_load
	[[ "$(cat calls)" == "run -k night "*" -- make -l fork_load" ]]
}

@test "nightly: --prepare '' reaches contest, so a make job runs unprepared" {
	printf 'all:\n\ttrue\nclean:\n\ttouch cleaned\n' >Makefile
	run --separate-stderr nightly -k bare --prepare '' -- make all
	[ "$status" -eq 0 ]
	[ ! -e cleaned ]
	[[ "$stderr" != *"each run is prepared"* ]]
	jq -se 'length == 4 and all(.prepare == null and .prepare_inferred == false)' "$BATS_TEST_TMPDIR/n/results.jsonl"
}

@test "nightly: rounds are added until the gate is decided, --min-runs at least, -n at most, each look at alpha over the looks" {
	nightly_until() {
		marked "$TOP_SRCDIR/scripts/nightly" --contest "$CONTEST" \
		    -o "$BATS_TEST_TMPDIR/n" --warmup 0 -n 4 --min-runs 2 --lead 0 -l sleepers:n=2 "$@"
	}
	R=$BATS_TEST_TMPDIR/n/results.jsonl
	rounds() { rq --arg l "$1" 'map(select(.label == $l and .load == "no_load")) | length'; }
	# a first night has nothing to decide: every round of -n
	run -0 --separate-stderr nightly_until -k base "${WORK[@]}" -- sh -c "$WORKJOB" _ 0.05 100
	[ "$(rounds base)" -eq 4 ]
	# six times the work: not at the first look, after --min-runs (a
	# session a side in one boot can't tell), at the second, whose round
	# is a session of its own: tonight's two sessions give their spread
	run -1 --separate-stderr nightly_until -k slow "${WORK[@]}" -- sh -c "$WORKJOB" _ 0.3 600
	[ "$(rounds slow)" -eq 3 ]
	[ "$stderr" = "contest-nightly: 2 rounds and the gate can't tell yet: one more" ]
	# each look at 0.05 over the 3 there can be
	grep -q 'alpha 0.0166667 (one of the loop.s looks)' "$BATS_TEST_TMPDIR/n/nightly-slow.md"
	grep -q 'Looks: this is one of at most 3 looks of a loop that stops once decided' "$BATS_TEST_TMPDIR/n/nightly-slow.md"
	# the same job: a round more after each look that cannot tell (its
	# Time's, on a busy host), -n at most
	run --separate-stderr nightly_until -k same -b base "${WORK[@]}" -- sh -c "$WORKJOB" _ 0.05 100
	[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
	n=$(rounds same)
	[ "$n" -ge 2 ]
	[ "$n" -le 4 ]
	[ "$(grep -c "can't tell yet: one more" <<<"$stderr")" -eq $((n - 2)) ]
	# --fixed: exactly -n, one look
	run marked "$TOP_SRCDIR/scripts/nightly" --contest "$CONTEST" \
	    -o "$BATS_TEST_TMPDIR/n" --warmup 0 --fixed -n 2 --lead 0 -l sleepers:n=2 -k fixed -b base -- sleep 0.05
	[ "$(rounds fixed)" -eq 2 ]
	run ! grep -q 'Looks:' "$BATS_TEST_TMPDIR/n/nightly-fixed.md"
}

@test "nightly: a series of the last nights that ends worse fails the night, whatever the night before says" {
	# 24 earlier nights of this host (tests/data/report/nights.jsonl: a
	# step of +8% at night-16), then tonight's session of its own command
	mkdir -p "$BATS_TEST_TMPDIR/n"
	sed "s/\"host\":\"box\"/\"host\":\"$(uname -n)\"/" "$TOP_SRCDIR/tests/data/report/nights.jsonl" \
	    >"$BATS_TEST_TMPDIR/n/results.jsonl"
	run nightly -k tonight -- sleep 0.05
	[ "$status" -eq 1 ]
	N=$BATS_TEST_TMPDIR/n
	grep -qx "## The last 30 nights on $(uname -n)" "$N/nightly-tonight.md"
	grep -q '^- regression: night-15 -> night-16: +7\.[0-9]*% (CI95 ' "$N/nightly-tonight.md"
	# against the night before, nothing failed: the series did
	run ! grep -q '^tonight against night-24: regression' "$N/nightly-tonight.md"
	grep -q '<testsuite name="contest history" tests="[0-9]*" failures="2" ' "$N/nightly-tonight.series.junit.xml"
	# the site has the step, its robot's block, and tonight
	grep -q 'regression</span> of fork_load Time at night-16 (from night-15)' "$N/site/index.html"
	grep -q '+7.9% regression of fork_load Time at night-16' "$N/site/changes.html"
	[ -s "$N/site/night-tonight.html" ]
	# the last 8 nights only: after the step, nothing changed: it passes
	run nightly -k tonight2 --nights 8 -b tonight --threshold 900 -- sleep 0.05
	[ "$status" -eq 0 ]
	grep -qx "## The last 8 nights on $(uname -n)" "$N/nightly-tonight2.md"
	run -2 nightly -k x --nights 5 -- true
	run -2 nightly -k x --nights many -- true
	need xmllint libxml2-utils
	xmllint --noout "$N/nightly-tonight.series.junit.xml"
}
