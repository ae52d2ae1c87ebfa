#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/bench in --quick mode, so the benchmarks cannot rot: each runs
# for about a second and prints its table.  The figures are not checked
# against goals here: timing claims live in the benchmarks, not in tests.

load helpers

@test "bench/all --quick: every benchmark runs and prints its table" {
	command -v cc >/dev/null || skip "no cc"
	run env CONTEST_TEST_MARK="$MARK" CONTEST="$CONTEST" FORKTIME="$FORKTIME" \
	    FORKBOMB="$FORKBOMB" "$TOP_SRCDIR/scripts/bench/all" --quick
	if [ "$status" -ne 0 ]; then
		printf '%s\n' "$output" | sed 's/^/# /' >&3
		return 1
	fi
	for b in overhead repeat loads sleepers forktime probe series report-scale; do
		grep -qx "== scripts/bench/$b.*" <<<"$output"
	done
	grep -Eq '^contest \((clone3|fork\+move|fork)\) +[0-9.]+ +[0-9.]+ +[0-9.]+% +[-+][0-9.]+% +[0-9.]+ +[0-9.]+$' <<<"$output"
	# the job moved into its cgroup, where there is one (else a plain fork)
	grep -Eq '^contest-move \((fork\+move|fork)\) +[0-9.]+ ' <<<"$output"
	grep -Eq '^contest / /usr/bin/time: [0-9.]+, CI95 ' <<<"$output"
	grep -Eq '^  fork_load / dynamic bare loop: +[0-9.]+$' <<<"$output"
	grep -Eq '^  (fork_load / static bare loop: +[0-9.]+ .*goal >= 0.97: (met|NOT met)\)|static bare loop: this toolchain cannot link static)$' <<<"$output"
	grep -Eq '^ +200 +[0-9.]+ +[0-9.]+ +[0-9.]+ ' <<<"$output"
	grep -Eq '^       goals: rate >= 0.95: (met|NOT met); memory <= 1.1: (met|NOT met)$' <<<"$output"
	grep -Eq '^fork +[0-9.]+ +[0-9.]+ +[0-9.]+$' <<<"$output"
	grep -Eq '^goal: forktime within 5% of the bare loop: fork (met|NOT met), exec-static (met|NOT met), thread (met|NOT met)$' <<<"$output"
	grep -Eq '^  job with it / alone: [0-9.]+, CI95 [0-9.]+; goals: at most 1.01: (met|not met); its CPU at most 1%: (met|not met)$' <<<"$output"
	grep -Eq '^sampling cost: -?[0-9.]+% of the job.s CPUs; goal under 0.2%: (met|not met)$' <<<"$output"
	grep -Eq '^contest report over 2000 lines .*: [0-9.]+ s, peak [0-9]+ MB' <<<"$output"
	grep -q '^bench/all: [0-9]* s$' <<<"$output"
	! grep -q 'failed)' <<<"$output"
}

@test "bench scripts refuse unknown options with exit 2" {
	for b in overhead repeat sleepers probe series report-scale all; do
		run "$TOP_SRCDIR/scripts/bench/$b" --bogus
		[ "$status" -eq 2 ]
	done
}
