#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/bench: its options, its verdicts and their looks, its stored
# runs and the docs rendered from them; a bench or two in --quick mode
# (every one, through bench/all, is tests/0871's).  The figures are not
# checked against goals here: timing claims live in the benchmarks, not
# in tests.

load helpers

@test "bench scripts refuse unknown options with exit 2" {
	for b in overhead repeat sleepers probe series migrations shares report-scale changepoints sessions faults drift classics quickstart soak all render; do
		run "$TOP_SRCDIR/scripts/bench/$b" --bogus
		[ "$status" -eq 2 ]
	done
}

@test "bench verdicts: met, NOT met, or can't tell, from the CI95 of the rounds' own ratios" {
	. "$TOP_SRCDIR/scripts/bench/verdict.sh"
	# mean 0.910, CI95 0.885..0.935 (t 4.303 over 3 rounds): below the goal
	[ "$(printf '0.91\n0.92\n0.90\n' | interval)" = "0.910 (CI95 0.885..0.935, 3 rounds)" ]
	[ "$(printf '0.91\n0.92\n0.90\n' | decide ge 0.97 0.95)" = "NOT met" ]
	[ "$(printf '0.97\n0.99\n0.98\n' | decide ge 0.97 0.95)" = "met" ]
	# the mean reaches the goal, the interval's lower end does not clear the floor
	[ "$(printf '0.96\n0.99\n0.98\n' | decide ge 0.97 0.95)" = "can't tell at this noise" ]
	[ "$(printf '1.00\n1.01\n1.02\n' | decide le 1.1)" = "met" ]
	[ "$(printf '1.30\n1.31\n1.29\n' | decide le 1.1)" = "NOT met" ]
	[ "$(printf '1.0\n1.05\n' | decide le 1.1)" = "can't tell at this noise" ]
	[ "$(printf '0.5\n' | decide le 1.1)" = "can't tell at this noise" ]
	[ "$(printf '0.5\n' | interval)" = "0.500 (1 round: no interval)" ]
	# a loop's looks: the verdict's interval is wider, and said
	[ "$(printf '0.97\n0.99\n0.98\n' | LOOKS=1 decide ge 0.97 0.95)" = "met" ]
	[ "$(printf '0.97\n0.99\n0.98\n' | LOOKS=11 decide ge 0.97 0.95)" = "can't tell at this noise" ]
	[ "$(printf '0.97\n0.99\n0.98\n' | LOOKS=11 interval)" = "0.980 (CI95 0.955..1.005; at 0.05/11 looks 0.895..1.065, 3 rounds)" ]
}

@test "bench verdicts that run until decided hold their error: a ratio at its goal is met at most 2.5% of the time over rounds 5..15" {
	. "$TOP_SRCDIR/scripts/bench/verdict.sh"
	# met: the share of 4000 loops, each deciding after every round from
	# the 5th to the 15th, stopping once decided, of ratios drawn around
	# TRUTH (sd 0.03), that end "met" on GOAL (with FLOOR), with the
	# error spent over LOOKS looks (verdict.sh's own awk)
	met() {
		awk -v looks="$1" -v truth="$2" -v goal="$3" -v floor="${4:-}" "$VERDICT_AWK"'
		function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
		BEGIN {
			srand(11)
			for (k = 0; k < 4000; k++) {
				for (n = 1; n <= 15; n++) {
					v[n] = truth + 0.03 * gauss()
					if (n < 5) continue
					ci(v, n, 0.05 / looks)
					d = verdict("ge", goal, floor, n)
					if (d != "can\047t tell at this noise") break
				}
				hits += d == "met"
			}
			printf "%.4f\n", hits / 4000
		}'
	}
	# a 95% interval at every look says met far too often (the bench's
	# old rule): the test can tell
	p=$(met 1 0.97 0.97)
	awk -v p="$p" 'BEGIN { exit !(p > 0.05) }' || { echo "# one look's interval at every look: $p" >&3; false; }
	# spent over the 11 looks: at most 2.5%
	p=$(met 11 0.97 0.97)
	awk -v p="$p" 'BEGIN { exit !(p <= 0.025) }' || { echo "# spent over 11 looks: $p" >&3; false; }
	# a goal with a floor (the mean at 0.97, the interval above 0.95): at
	# the floor, met at most 2.5% of the time too
	p=$(met 11 0.95 0.97 0.95)
	awk -v p="$p" 'BEGIN { exit !(p <= 0.025) }' || { echo "# at the floor: $p" >&3; false; }
}

@test "bench/faults --quick: faults a fork costs, the forker's and a child's, for the three loops" {
	command -v cc >/dev/null || skip "no cc"
	run marked CONTEST="$CONTEST" FORKTIME="$FORKTIME" \
	    "$TOP_SRCDIR/scripts/bench/faults" --quick
	[ "$status" -eq 0 ]
	grep -Eq '^  bare static fork\(\) loop +[0-9]+ +[0-9.]+ +[0-9.]+$' <<<"$output"
	grep -Eq '^  bare static clone loop +[0-9]+ +[0-9.]+ +[0-9.]+$' <<<"$output"
	grep -Eq '^  fork_load \(contest-load\) +[1-9][0-9]* +[0-9.]+ +[0-9.]+$' <<<"$output"
}

@test "bench/report-scale times an older contest beside this one when given one" {
	run marked CONTEST="$CONTEST" OLD_CONTEST="$CONTEST" "$TOP_SRCDIR/scripts/bench/report-scale" --quick
	[ "$status" -eq 0 ]
	v="(met|NOT met|can't tell at this noise)"
	grep -Eq "^this contest report / .*/contest over the same file: [0-9.]+ \((CI95 -?[0-9.]+\.\.[0-9.]+, 2 rounds|1 round: no interval)\) \(goal at most 1: $v\)\$" <<<"$output"
	run --separate-stderr env OLD_CONTEST=/nonexistent "$TOP_SRCDIR/scripts/bench/report-scale" --quick
	[ "$status" -eq 2 ]
	[ "$stderr" = "bench/report-scale: OLD_CONTEST=/nonexistent is not an executable" ]
}

@test "bench runs are stored whole in CONTEST_BENCH_DIR: each figure's rounds, mean, CI95, goal and verdict, and the run's output, with host and version" {
	command -v jq >/dev/null || skip "no jq"
	before=$(cat "$TOP_SRCDIR"/doc/bench/*.jsonl | wc -l)
	run marked env CONTEST="$CONTEST" CONTEST_BENCH_DIR="$BATS_TEST_TMPDIR/b" \
	    "$TOP_SRCDIR/scripts/bench/shares" --quick
	[ "$status" -eq 0 ]
	f=$BATS_TEST_TMPDIR/b/shares.jsonl
	[ "$(tail -n 1 <<<"$output")" = "(stored in $f)" ]
	# one run: its figures, then its output, every line of it under one date
	[ "$(jq -r .date "$f" | sort -u | wc -l)" -eq 1 ]
	[ "$(jq -c 'select(.output)' "$f" | wc -l)" -eq 1 ]
	[ "$(jq -r 'select(.output) | .output' "$f")" = "$(sed '$d' <<<"$output")" ]
	[ "$(jq -r 'select(.output) | [.bench, .args, .cpus == (.cpus | floor), (.contest | startswith("contest "))] | @tsv' "$f")" = "$(printf 'shares\t--quick\ttrue\ttrue')" ]
	# SIGINT's row: the round's value, its mean, the printed verdict
	row=$(grep "^  SIGINT to the driver's exit" <<<"$output")
	jq -s -e --arg row "$row" 'map(select(.figure == "SIGINT to the driver'"'"'s exit")) | .[0] |
	    .n == 1 and .values == [.mean] and .unit == "ms" and .ci95 == null and
	    .goal == "at most 2000 ms (one-sided)" and (.verdict as $v | $row | endswith(": " + $v))' "$f"
	# a failed run stores nothing, and a --quick run without the variable
	# stores nothing in the tree
	run env CONTEST=/bin/false CONTEST_BENCH_DIR="$BATS_TEST_TMPDIR/c" "$TOP_SRCDIR/scripts/bench/probe" --quick
	[ "$status" -ne 0 ]
	[ ! -e "$BATS_TEST_TMPDIR/c/probe.jsonl" ]
	[ "$(cat "$TOP_SRCDIR"/doc/bench/*.jsonl | wc -l)" -eq "$before" ]
}

@test "a bench run from a dirty tree records the commit, -dirty and its diff's hash; a clean one, or one beside stored runs, neither" {
	command -v jq >/dev/null || skip "no jq"
	command -v git >/dev/null || skip "no git"
	[ -e "$TOP_SRCDIR/.git" ] || skip "not a git clone"
	command -v cc >/dev/null || skip "no cc"
	git clone -q "$TOP_SRCDIR" t
	# (changepoints --quick: a bench of a second or two; every bench stores
	# its run through scripts/bench/record.sh)
	run -0 env CONTEST="$CONTEST" CONTEST_BENCH_DIR="$BATS_TEST_TMPDIR/clean" t/scripts/bench/changepoints --quick
	run -0 jq -r 'select(.output) | [.git, .diff_sha256 // "none"] | @tsv' clean/changepoints.jsonl
	[ "$output" = "$(git -C t rev-parse --short HEAD)	none" ]
	# runs stored in the tree and not yet committed are no change of code
	cat clean/changepoints.jsonl >> t/doc/bench/changepoints.jsonl
	run -0 env CONTEST="$CONTEST" CONTEST_BENCH_DIR="$BATS_TEST_TMPDIR/stored" t/scripts/bench/changepoints --quick
	run -0 jq -r 'select(.output) | [.git, .diff_sha256 // "none"] | @tsv' stored/changepoints.jsonl
	[ "$output" = "$(git -C t rev-parse --short HEAD)	none" ]
	echo '<!-- an edit -->' >> t/doc/hacking.md
	run -0 env CONTEST="$CONTEST" CONTEST_BENCH_DIR="$BATS_TEST_TMPDIR/dirty" t/scripts/bench/changepoints --quick
	# every line of the run carries them, figures and output alike
	[ "$(jq -r '[.git, .diff_sha256] | @tsv' dirty/changepoints.jsonl | sort -u)" = "$(git -C t rev-parse --short HEAD)-dirty	$(git -C t diff HEAD --binary -- . ':(exclude)doc/bench' | sha256sum | cut -d ' ' -f 1)" ]
	rm -rf t	# its test data is not this test's results
}

@test "render: the docs' benchmark tables and outputs are what doc/bench's stored runs say, and a changed figure is caught" {
	command -v jq >/dev/null || skip "no jq"
	run "$TOP_SRCDIR/scripts/bench/render" --check "$TOP_SRCDIR"
	if [ "$status" -ne 0 ]; then
		printf '%s\n' "$output" | sed 's/^/# /' >&3
		return 1
	fi
	# every stored figure with a goal is in the summary, with its verdict
	n=$(cat "$TOP_SRCDIR"/doc/bench/*.jsonl | jq -s '[group_by(.bench)[] | (map(select(.output)) | max_by(.date).date) as $d
	    | .[] | select(.date == $d and .figure and .goal != "")] | length')
	[ "$n" -ge 20 ]
	# plant a changed figure in a copy: the check fails and names the doc
	mkdir "$BATS_TEST_TMPDIR/t"
	# the docs, and what their figures name as sources
	cp -R "$TOP_SRCDIR/doc" "$TOP_SRCDIR/README" "$TOP_SRCDIR/tests" "$TOP_SRCDIR/contest" \
	    "$TOP_SRCDIR/scripts" "$BATS_TEST_TMPDIR/t/"
	awk 'f == 1 && /^[|] / { sub(/^[|] /, "| x"); f = 2 } /^[|]---[|]/ && !f { f = 1 } { print }' \
	    "$TOP_SRCDIR/doc/performance.md" > "$BATS_TEST_TMPDIR/t/doc/performance.md"
	run "$TOP_SRCDIR/scripts/bench/render" --check "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ]
	grep -q '^bench/render: doc/performance.md differs from what doc/bench/ holds' <<<"$output"
	# rendering mends it
	run "$TOP_SRCDIR/scripts/bench/render" "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 0 ]
	run "$TOP_SRCDIR/scripts/bench/render" --check "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 0 ]
	rm -rf "$BATS_TEST_TMPDIR/t"	# its test data is not this test's results
}

@test "render --check: a figure quoted outside a rendered block names its source, and the source is checked" {
	command -v jq >/dev/null || skip "no jq"
	mkdir t
	cp -R "$TOP_SRCDIR/doc" "$TOP_SRCDIR/README" "$TOP_SRCDIR/tests" "$TOP_SRCDIR/contest" "$TOP_SRCDIR/scripts" t/
	run -0 "$TOP_SRCDIR/scripts/bench/render" --check t
	# a time measured by hand, in a paragraph of its own
	printf '\nThe suite took 3 min 10 s here.\n' >> t/doc/loads.md
	n=$(wc -l < t/doc/loads.md)
	run -1 "$TOP_SRCDIR/scripts/bench/render" --check t
	[ "${lines[0]}" = "doc/loads.md:$n: a figure with no source: The suite took 3 min 10 s here." ]
	[ "${lines[1]}" = "bench/render: doc/loads.md quotes a figure no stored run or named source holds (scripts/bench/figures.awk)" ]
	[ "${#lines[@]}" -eq 2 ]
	# the rest is figures.awk's, which render ran there: each case run by
	# it alone on the one doc (render's whole check is seconds a run)
	figures() {
		run -1 awk -v top=t -v doc=doc/loads.md -f "$TOP_SRCDIR/scripts/bench/figures.awk" t/doc/loads.md
	}
	# a table's row of readings, a range of percents, a fraction with its unit
	for planted in '| 1 | 12 | 2520 |' 'It was 12-14% slower.' 'forked in 115.5 us'; do
		cp "$TOP_SRCDIR/doc/loads.md" t/doc/loads.md
		printf '\n%s\n' "$planted" >> t/doc/loads.md
		figures
		[ "${lines[0]}" = "doc/loads.md:$n: a figure with no source: $planted" ]
	done
	# a source that names a file not there, or a test that does not hold it
	cp "$TOP_SRCDIR/doc/loads.md" t/doc/loads.md
	printf '\n<!-- figures: doc/nope.jsonl, tests/0600-report.bats -->\nThe suite took 3 min 10 s here.\n' >> t/doc/loads.md
	figures
	[ "${lines[0]}" = "doc/loads.md:$n: figures: doc/nope.jsonl is not in the tree" ]
	cp "$TOP_SRCDIR/doc/loads.md" t/doc/loads.md
	printf '\n<!-- figures: doc/example-nice.jsonl, tests/0000-cli.bats -->\nThe suite took 3 min 10 s here.\n' >> t/doc/loads.md
	figures
	[ "${lines[0]}" = "doc/loads.md:$n: figures: tests/0000-cli.bats does not name example-nice.jsonl" ]
	cp "$TOP_SRCDIR/doc/loads.md" t/doc/loads.md
	printf '\n<!-- figures: test tests/0000-cli.bats: 3 min 10 s -->\nThe suite took 3 min 10 s here.\n' >> t/doc/loads.md
	figures
	[ "${lines[0]}" = "doc/loads.md:$n: figures: tests/0000-cli.bats does not hold '3 min 10 s'" ]
	cp "$TOP_SRCDIR/doc/loads.md" t/doc/loads.md
	printf '\n<!-- figures: measured by me -->\nThe suite took 3 min 10 s here.\n' >> t/doc/loads.md
	figures
	[ "${lines[0]}" = "doc/loads.md:$n: figures: 'measured by me' is none of FILE, TEST; test TEST: TEXT; historic: ...; defined: FILE" ]
	# one that holds: the paragraph, and the example block after it, pass;
	# the paragraph after that is on its own again
	cp "$TOP_SRCDIR/doc/loads.md" t/doc/loads.md
	printf '\n<!-- figures: doc/example-nice.jsonl, tests/0600-report.bats -->\nThe run took 13.42 s:\n\n    run 2 (13.42 s, median 14.80 s)\n\n    run 1 (16.18 s)\n' >> t/doc/loads.md
	run -0 "$TOP_SRCDIR/scripts/bench/render" --check t
	printf '\nAnd 16.18 s.\n' >> t/doc/loads.md
	run -1 "$TOP_SRCDIR/scripts/bench/render" --check t
	[ "${lines[0]}" = "doc/loads.md:$(wc -l < t/doc/loads.md): a figure with no source: And 16.18 s." ]
	rm -rf t	# its test data is not this test's results
}
