#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/nightly: a first night with nothing to compare, a second
# compared with the first, a regression that fails the gate.

load helpers

nightly() {
	env CONTEST_TEST_MARK="$MARK" "$TOP_SRCDIR/scripts/nightly" --contest "$CONTEST" \
	    -o "$BATS_TEST_TMPDIR/n" --warmup 0 --until-ci 0 -n 2 --lead 0.1 -l sleepers:n=5 "$@"
}

@test "nightly: first night reports, second compares with it; files next to the results" {
	run nightly -k night1 -- sleep 0.05
	[ "$status" -eq 0 ]
	N=$BATS_TEST_TMPDIR/n
	[ -s "$N/nightly-night1.md" ]
	[ -s "$N/nightly-night1.svg" ]
	[ ! -e "$N/nightly-night1.junit.xml" ]
	grep -q 'First night for this host: nothing to compare with yet' "$N/nightly-night1.md"
	grep -qx '### sleepers:n=5' "$N/nightly-night1.md"
	run nightly -k night2 --threshold 900 -- sleep 0.05
	[ "$status" -eq 0 ]
	grep -qx '## night2 against night1' "$N/nightly-night2.md"
	[[ "$(tail -1 "$N/nightly-night2.md")" == "night2 against night1: no significant regression beyond 900% in 2 loads; none larger than "*"% could have been missed (80% power; "*")" ]]
	# junit: a case per load and gated figure: no_load Time; sleepers Time and Ratio
	grep -q 'tests="3" failures="0"' "$N/nightly-night2.junit.xml"
	if command -v xmllint >/dev/null; then
		xmllint --noout "$N/nightly-night2.junit.xml" "$N/nightly-night2.svg"
	fi
	[ "$(grep -c 'class="bar"' "$N/nightly-night2.svg")" -eq 2 ]
	[ -z "$(ls "$N" | grep '\.tmp')" ]
}

@test "nightly: a job six times slower than the baseline fails the gate with exit 1" {
	run nightly -k fast -- sleep 0.05
	[ "$status" -eq 0 ]
	run nightly -k slow -- sleep 0.3
	[ "$status" -eq 1 ]
	N=$BATS_TEST_TMPDIR/n
	grep -q '^slow against fast: 2 of 2 loads regressed beyond 5%: no_load Time +' "$N/nightly-slow.md"
	grep -q 'failures="2"' "$N/nightly-slow.junit.xml"
	# a named baseline wins over the last label
	run nightly -k slow2 -b slow --prepare 'touch prepared' -- sleep 0.3
	[ "$status" -eq 0 ]
	grep -qx '## slow2 against slow' "$N/nightly-slow2.md"
	[ -e prepared ]
	jq -se 'map(select(.label == "slow2")) | length == 4 and all(.prepare == "touch prepared")' "$N/results.jsonl"
}

@test "nightly: bad options and labels are refused with exit 2 before any run" {
	run nightly --bogus
	[ "$status" -eq 2 ]
	[[ "$output" == "nightly: unknown option '--bogus'"* ]]
	run nightly -k ../escape -- true
	[ "$status" -eq 2 ]
	run nightly -n 0 -k x -- true
	[ "$status" -eq 2 ]
	[ ! -e "$BATS_TEST_TMPDIR/n/results.jsonl" ]
}

@test "nightly: --prepare '' reaches contest, so a make job runs unprepared" {
	printf 'all:\n\ttrue\nclean:\n\ttouch cleaned\n' >Makefile
	run --separate-stderr nightly -k bare --prepare '' -- make all
	[ "$status" -eq 0 ]
	[ ! -e cleaned ]
	[[ "$stderr" != *"each run is prepared"* ]]
	jq -se 'length == 4 and all(.prepare == null and .prepare_inferred == false)' "$BATS_TEST_TMPDIR/n/results.jsonl"
}

@test "nightly: --until-ci by default: rounds are added until the intervals are narrow, 3 at least, -n at most" {
	run env CONTEST_TEST_MARK="$MARK" "$TOP_SRCDIR/scripts/nightly" --contest "$CONTEST" \
	    -o "$BATS_TEST_TMPDIR/n" --warmup 0 -n 4 --lead 0 -l sleepers:n=2 -k ci -- sleep 0.05
	[ "$status" -eq 0 ]
	R=$BATS_TEST_TMPDIR/n/results.jsonl
	rq 'all(.until_ci_pct == 3)' | grep -qx true
	rounds=$(rq '[.[].round] | max + 1')
	[ "$rounds" -ge 3 ]
	[ "$rounds" -le 4 ]
	run env CONTEST_TEST_MARK="$MARK" "$TOP_SRCDIR/scripts/nightly" --contest "$CONTEST" \
	    -o "$BATS_TEST_TMPDIR/n" --warmup 0 --until-ci 0 -n 2 --lead 0 -l sleepers:n=2 -k fixed -- sleep 0.05
	[ "$status" -eq 0 ]
	rq '[.[] | select(.label == "fixed")] | length == 4 and all(has("until_ci_pct") | not)' | grep -qx true
}
