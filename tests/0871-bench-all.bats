#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/bench/all in --quick mode, so the benchmarks cannot rot: each
# runs for about a second and prints its table.  The figures are not
# checked against goals here: timing claims live in the benchmarks, not
# in tests.  The suite's longest file, three minutes of a two-core
# machine's CPU: make check skips it, saying so, and CI runs it in the
# sanitizers' suite (.ci/run); CONTEST_BENCH_ALL=1 runs it in make check.

load helpers

@test "bench/all --quick: every benchmark runs and prints its table" {
	[ -n "${CONTEST_BENCH_ALL:-}" ] ||
	    skip "bench/all --quick runs in CI's sanitizer stage (.ci/run); CONTEST_BENCH_ALL=1 runs it here"
	command -v cc >/dev/null || skip "no cc"
	run marked CONTEST="$CONTEST" FORKTIME="$FORKTIME" \
	    FORKBOMB="$FORKBOMB" "$TOP_SRCDIR/scripts/bench/all" --quick
	if [ "$status" -ne 0 ]; then
		printf '%s\n' "$output" | sed 's/^/# /' >&3
		return 1
	fi
	for b in overhead repeat loads sleepers forktime probe cyclictest series migrations shares report-scale changepoints bisect drift; do
		grep -qx "== scripts/bench/$b.*" <<<"$output"
	done
	v="(met|NOT met|can't tell at this noise)"
	grep -Eq "^goals: 3-sigma found in [0-9.]+% \(Wilson CI95 [0-9.]+\.\.[0-9.]+; at least 95: $v\); false in [0-9.]+% \([0-9.]+\.\.[0-9.]+; at most 5: $v\); speed [0-9.]+ s " <<<"$output"
	grep -Eq "^over 2000 lines: report [0-9.]+ s, [0-9]+ MB; history [0-9.]+ s, [0-9]+ MB: " <<<"$output"
	grep -Eq "^under the load alone \(Ratio\) +50 +[0-9.]+% +[0-9.]+% +[0-9.]+% +[0-9.]+%\$" <<<"$output"
	grep -Eq "^  goals: called [0-9.]+% \(Wilson CI95 [0-9.]+\.\.[0-9.]+; at least 85: $v\); wrong [0-9.]+% \([0-9.]+\.\.[0-9.]+; at most 2.5: $v\)\$" <<<"$output"
	grep -Eq '^contest \((clone3|fork\+move|fork)\) +[0-9.]+ +[0-9.]+ +[0-9.]+% +[-+][0-9.]+% +[0-9.]+ +[0-9.]+$' <<<"$output"
	# the job moved into its cgroup, where there is one (else a plain fork)
	grep -Eq '^contest-move \((fork\+move|fork)\) +[0-9.]+ ' <<<"$output"
	grep -Eq '^contest / /usr/bin/time: [0-9.]+, CI95 ' <<<"$output"
	grep -Eq '^  fork_load / dynamic bare loop: +[0-9.]+$' <<<"$output"
	grep -Eq "^  (fork_load / static bare loop: +[0-9.]+ .*goal >= 0.97, lower end above 0.95: $v|static bare loop: this toolchain cannot link static)\$" <<<"$output"
	grep -Eq '^ +200 +[0-9.]+ +[0-9.]+ +[0-9.]+ ' <<<"$output"
	# the pool's and the bare children's Pss, page tables and faults, each read
	grep -Eq '^ +200 .* [0-9.]+/[0-9.]+ +[0-9.]+/[0-9.]+ +[0-9.]+/[0-9.]+$' <<<"$output"
	grep -Eq "^       goals: rate >= 0.95: $v; memory <= 1.1: $v\$" <<<"$output"
	grep -Eq '^fork +[0-9.]+ +[0-9.]+ +[0-9.]+$' <<<"$output"
	grep -Eq "^goal: forktime at most 5% above the bare loop \(one-sided\): fork $v, exec-static $v, thread $v$" <<<"$output"
	grep -Eq '^ {13}[0-9.]+ \((1 round: no interval|CI95 [0-9.]+\.\.[0-9.]+, [0-9]+ rounds)\)$' <<<"$output"
	grep -Eq "^  job with it / alone: [0-9.]+, CI95 [0-9.]+; goals: at most 1.01: $v; its CPU at most 1%: $v\$" <<<"$output"
	grep -Eq "^sampling cost: -?[0-9.]+% of the job.s CPUs, CI95 [0-9.]+; goal under 0.2%: $v\$" <<<"$output"
	# the migrations counter's cost: a row per job, its count and verdict
	grep -Eq "^fork +fork\+exit\+reap p50 us +[0-9.]+ +[0-9.]+ +[0-9]+  [0-9.]+ \(CI95 -?[0-9.]+\.\.[0-9.]+, 2 rounds\): $v\$" <<<"$output"
	grep -Eq "^pieces +wall s +[0-9.]+ +[0-9.]+ +[0-9]+  [0-9.]+ \(CI95 -?[0-9.]+\.\.[0-9.]+, 2 rounds\): $v\$" <<<"$output"
	grep -Eq '^contest report over 2000 lines .*: [0-9.]+ s, peak [0-9]+ MB' <<<"$output"
	grep -Eq '^  interleaved variants \(paired\) +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+% +[0-9.]+%$' <<<"$output"
	grep -Eq "^goals: interleaved false alarms [0-9]+ of 2, at most 1 in 20: (met|NOT met); paired MinDetect [0-9.]+% against [0-9.]+%, at most half: (met|NOT met)$" <<<"$output"
	grep -Eq "^       by the A/A spread: paired [0-9.]+% against [0-9.]+%, at most half: (met|NOT met)$" <<<"$output"
	grep -Eq "^  io_load's Load% beside a sleep +[0-9.]+% \(CI95 [0-9.]+\.\.[0-9.]+, 1 round\); goal 85\.\.115: $v\$" <<<"$output"
	grep -Eq "^  SIGINT to the driver's exit +[0-9.]+ ms \(CI95 [0-9.]+\.\.[0-9.]+, 1 round\); goal at most 2000 ms: $v\$" <<<"$output"
	# (null where the starved probe woke not once in the quick run)
	grep -Eq "^  log2 probe p99 beside 4 spinners / alone +(-?[0-9.]+ \(CI95 -?[0-9.]+\.\.-?[0-9.]+, 1 round\); goal at least 1: $v|not measured \(null in a run\); goal at least 1)\$" <<<"$output"
	grep -Eq "^  20 sleepers' wakeups, % of 2000 a second +[0-9.]+% \(CI95 [0-9.]+\.\.[0-9.]+, 1 round\); goal at least 90: $v\$" <<<"$output"
	# (null where the refaulting one made no whole pass in the quick run)
	grep -Eq "^  log2 mem_load passes kept / refaulted +(-?[0-9.]+ \(CI95 -?[0-9.]+\.\.-?[0-9.]+, 1 round\); goal at least 1: $v|not measured \(null in a run\); goal at least 1)\$" <<<"$output"
	grep -Eq "^(goal: each CPU's p99 and max within each other's run-to-run spread \(means apart by at most twice the larger sd\): can't tell with one round|\(cyclictest is not installed \(rt-tests\): skipped\)|\(no /dev/cpu_dma_latency to hold: run as root; skipped\))\$" <<<"$output"
	grep -q '^bench/all: [0-9]* s$' <<<"$output"
	run ! grep -q 'failed)' <<<"$output"
}
