#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# What the job lived through: Wait% from its own cgroup's cpu.pressure,
# Load% (the load's rate beside the job over its rate alone), and the
# latency probe's wake-up lateness and deadlines met.

load helpers

# A CPU-bound job of about a second: a shell loop, one task.
SPIN='i=0; while [ $i -lt 150000 ]; do i=$((i+1)); done'

job_cgroup_here() {
	contest --warmup 0 -n 1 --lead 0 -- true >/dev/null 2>&1
	[ "$(rq '.[0].job_cgroup')" = true ] || skip "no cgroup v2 for the job here: $(rq '.[0].wait_why')"
	rm -rf "$CONTEST_RESULTS"
}

@test "Wait%: a job pinned beside a spinner on its CPU waits a good part of its time, alone it is measured too; the spinner's Load% is measured" {
	[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
	job_cgroup_here
	run --separate-stderr contest --warmup 0 -n 2 --lead 1 --job-cpus 0 --load-cpus 0 -l cpu_load:n=1 -- sh -c "$SPIN"
	[ "$status" -eq 0 ]
	echo "# $(rq -c 'map([.load, .wait_pct, .load_pct, .cpu_source])')" >&3
	rq 'map(select(.load == "no_load")) | all(.cpu_source == "cgroup" and .load_pct == null)' | grep -qx true
	# alone: measured; beside a spinner that is always runnable on its
	# one CPU, a job waits a fair share at least (a busy machine only adds
	# to it).  How near 5%, 50% and the spinner's share they come are
	# shares, held to their goals in scripts/bench/shares.
	rq 'map(select(.load == "no_load")) | all(.wait_pct >= 0 and .wait_pct < 100)' | grep -qx true
	rq 'map(select(.load == "cpu_load")) | all(.wait_pct >= 25)' | grep -qx true
	rq 'map(select(.load == "cpu_load")) | all(.load_pct > 0 and .load_solo_rate_per_s > 0)' | grep -qx true
	rq 'all(.controllers.job | test("cpu") | not)' | grep -qx true
	# the columns, from the same numbers
	grep -qx 'Kernel  *\[runs\]  *Time  *CPU%  *Wait%  *Loads  *Load%  *LCPU%  *Ratio' <<<"$output"
	wait=$(table_row cpu_load:n=1 "$output" | awk '{ print $5 }')
	want=$(rq -r 'map(select(.load == "cpu_load").wait_pct) | add / length | round')
	[ "$wait" = "$want%" ]
	load=$(table_row cpu_load:n=1 "$output" | awk '{ print $7 }')
	want=$(rq -r 'map(select(.load == "cpu_load").load_pct) | add / length | round')
	[ "$load" = "$want%" ]
}

@test "Wait% needs the job's own cgroup: in process-group mode it is null, says why, and the table shows -" {
	CONTEST_CGROUP=0 run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	rq '.[0] | .wait_pct == null and .mem_wait_pct == null and .job_cgroup == false and .cpu_source == "rusage"' | grep -qx true
	[ "$(rq -r '.[0].wait_why')" = "no cgroup for the job (process-group mode)" ]
	[ "$(table_row no_load "$output" | awk '{ print $5 }')" = - ]
	# no lead: no solo rate, no Load%, and why
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -l cpu_load:n=1 -- true
	[ "$status" -eq 0 ]
	rq '[.[] | select(.load == "cpu_load")][-1] | .load_pct == null and .load_solo_rate_per_s == null and .load_pct_why == "no lead time (--lead 0) to measure it alone in"' | grep -qx true
}

@test "--latency: the probe runs in every run, its columns and results are there" {
	run --separate-stderr contest --warmup 0 -n 1 --lead 0.5 --latency --probe-nice 19 -l cpu_load:n=4 -- sleep 1
	[ "$status" -eq 0 ]
	rq 'all(.probe | .period_ms == 10 and .nice == 19 and .periods > 0 and .met <= .periods and (.samples - .periods | fabs) <= 2 and (.hist_ns | map(.[1]) | add) == .samples)' | grep -qx true
	# by default a pure wake-up, whose own CPU is measured, and small
	rq 'all(.probe | .work_pct == 0 and .work_loops == 0 and .cpu_pct >= 0 and .cpu_pct < 5)' | grep -qx true
	# (that four spinners make it late is scripts/bench/shares's to say)
	grep -qx 'Kernel  *\[runs\]  *Time  *CPU%  *Wait%  *Loads  *Load%  *LCPU%  *Ratio  *Lat p99  *Met%' <<<"$output"
	[[ "$(table_row cpu_load:n=4 "$output")" =~ [0-9.]+\ [mu]?s\ +[0-9]+%$ ]]
	grep -Eq '^cpu_load:n=4: Probe wake-up lateness: p50 .*, p99 .*, max .* \([0-9]+ samples; percentiles within 1\.6%\), deadlines skipped with no wake-up: [0-9.]+ a run$' <<<"$output"
	# without --latency, no probe and no columns
	rm -rf "$CONTEST_RESULTS"
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	rq '.[0].probe == null' | grep -qx true
	[[ "$output" != *"Lat p99"* ]]
}

@test "--latency: a starved probe's skipped deadlines count as missed: met + missed + skipped = wall / period, Met% over that" {
	# interbench's load (5% of a CPU each period) at nice 19, pinned
	# with four spinners on one CPU at nice 0 (the suite's own nice where
	# that is 0; from a niced suite, root puts them back): it wakes a few
	# times a second
	if [ "$(own_sched | cut -d' ' -f1)" -gt 0 ] && [ "$(id -u)" -ne 0 ]; then
		skip "a suite at nice $(own_sched | cut -d' ' -f1) needs root to run the spinners at nice 0, above the probe"
	fi
	run --separate-stderr contest --warmup 0 -n 1 --lead 0.5 --latency --probe-nice 19 \
	    --probe-work 5 --job-cpus 0 --load-cpus 0 --load-nice 0 -l cpu_load:n=4 -- sleep 1
	[ "$status" -eq 0 ]
	# every run: each deadline met, missed or skipped, and Met% over
	# them all; as many deadlines as the job's wall time holds periods,
	# to two periods or 5% (a busy host's start and end of the probe's
	# window against the job's are not this test's)
	rq 'all(.[]; .probe as $p | (.wall_s * 1000 / $p.period_ms | floor) as $passed |
	    ($p.met + ($p.periods - $p.met) + $p.skipped - $p.deadlines | fabs) <= 1 and
	    ($p.deadlines - $passed | fabs) <= ([2, $passed * 0.05] | max) and
	    ($p.met_pct - $p.met / $p.deadlines * 100 | fabs) < 0.006 and $p.work_pct == 5)' | grep -qx true ||
	    { rq -c '.[] | [.wall_s, .probe]' | sed 's/^/# /' >&3; false; }
	# starved, it skipped most of them: Met% is not the share of its few wake-ups
	rq 'all(.[] | select(.load == "cpu_load").probe; .skipped > .periods)' | grep -qx true
	want=$(rq '[.[] | select(.load == "cpu_load").probe] | (map(.met) | add) / (map(.deadlines) | add) * 100 | round')
	[[ "$(table_row cpu_load:n=4 "$output")" =~ \ $want%$ ]]
	want=$(rq '[.[] | select(.load == "cpu_load").probe.skipped] | add / length')
	got=$(sed -n 's/^cpu_load:n=4: Probe wake-up lateness: .*, deadlines skipped with no wake-up: \([0-9.]*\) a run$/\1/p' <<<"$output")
	awk -v a="$got" -v b="$want" 'BEGIN { exit !(a != "" && a - b <= 0.5 && b - a <= 0.5) }'
	grep -q '^Lat p99: the probe.s wake-up lateness, pooled over the wake-ups it had' <<<"$output"
}

@test "--probe-work: bad values and no probe are bad input" {
	for v in -1 51 x 1.2345; do
		run --separate-stderr contest --latency --probe-work "$v" -- true
		[ "$status" -eq 2 ]
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
	done
	run --separate-stderr contest --probe-work 1 -- true
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest: --probe-work: there is no probe without --latency" ]
}

@test "the job is born in its cgroup by clone3: its first look at /proc/self/cgroup is there; CONTEST_CLONE3=0 and no cgroup say otherwise" {
	job_cgroup_here
	# the job's first command reads where it is: in its own job-N cgroup
	run --separate-stderr contest --warmup 0 -n 2 --lead 0 -l sleepers:n=2 -- cat /proc/self/cgroup
	[ "$status" -eq 0 ]
	rq 'all(.job_spawn == "clone3" and .job_cgroup)' | grep -qx true
	[ "$(grep -c '^0::/contest-[0-9]*/job-[0-9]*$' "$CONTEST_RESULTS"/logs/*.log)" -eq 4 ]
	# a kernel without clone3 (or told not to use it): the job moves itself
	rm -rf "$CONTEST_RESULTS"
	CONTEST_CLONE3=0 run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- cat /proc/self/cgroup
	[ "$status" -eq 0 ]
	rq 'all(.job_spawn == "fork+move" and .job_cgroup)' | grep -qx true
	[ "$(grep -c '^0::/contest-[0-9]*/job-[0-9]*$' "$CONTEST_RESULTS"/logs/*.log)" -eq 1 ]
	rm -rf "$CONTEST_RESULTS"
	CONTEST_CGROUP=0 run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_spawn')" = fork ]
	# an exec that fails in the child is still said, with 126 or 127
	rm -rf "$CONTEST_RESULTS"
	printf '#!/bin/sh\ntrue\n' > tool
	chmod +x tool
	run -127 --separate-stderr contest --warmup 0 -n 1 --lead 0 --prepare 'rm -f tool' -- ./tool
	[ "$status" -eq 127 ]
	[ "$(rq -r '.[0].status')" = exec_failed ]
}

@test "report and compare read results with no Wait%, Load% or probe and show -" {
	run --separate-stderr contest report "$TOP_SRCDIR/tests/data/report/classic.jsonl"
	[ "$status" -eq 0 ]
	[ "$(block_row fork_load 2.4.19 "$output" | awk '{ print $5, $7 }')" = "- -" ]
	run --separate-stderr contest compare -f "$TOP_SRCDIR/tests/data/report/classic.jsonl" 2.4.19 2.5.38
	[ "$status" -le 1 ]
	[ -z "$stderr" ]
	[[ "$output" != *"Wait% rose"* ]]
}

@test "provenance: every result says what else the kernel and machine were; report and compare name what differs per pair" {
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	rq '.[0].provenance | has("cmdline") and has("autogroup") and has("sched_ext") and has("preempt") and has("hz") and has("config_sha256") and has("config") and has("mitigations") and has("thp")' | grep -qx true
	rq '.[0].job_identity | has("path") and has("git_head") and has("git_dirty") and has("config_sha256") and has("cc") and has("ld")' | grep -qx true
	[ "$(rq -r '.[0].provenance.cmdline')" = "$(cat /proc/cmdline)" ]
	if [ -r /proc/sys/kernel/sched_autogroup_enabled ]; then
		[ "$(rq -r '.[0].provenance.autogroup')" = "$(cat /proc/sys/kernel/sched_autogroup_enabled)" ]
	else
		[ "$(rq -r '.[0].provenance.autogroup')" = null ]
	fi
	rq '.[0] | .steal_pct >= 0 or .steal_pct == null' | grep -qx true
	# sched_ext is absent here: two kernels told apart on a fixture
	f=$TOP_SRCDIR/tests/data/report/provenance.jsonl
	run --separate-stderr contest report "$f"
	[ "$status" -eq 0 ]
	grep -qx '6.1 vs 6.18: kernel, HZ 250 vs 1000, sched_ext none vs enabled scx_lavd' <<<"$output"
	run --separate-stderr contest compare -f "$f" 6.1 6.18
	[ "$status" -eq 0 ]
	grep -qx '6.1 vs 6.18: kernel, HZ 250 vs 1000, sched_ext none vs enabled scx_lavd' <<<"$output"
	# results that say nothing of it: nothing said
	run --separate-stderr contest report "$TOP_SRCDIR/doc/example-nice.jsonl"
	[ "$status" -eq 0 ]
	[[ "$output" != *" vs loads-nice19:"* ]]
}

@test "a make job in a git tree: its HEAD, whether it is dirty, its .config's hash" {
	command -v git >/dev/null || skip "needs git"
	command -v make >/dev/null || skip "needs make"
	mkdir tree
	printf 'all:\n\ttrue\nclean:\n\ttrue\n' >tree/Makefile
	echo 'CONFIG_HZ=1000' >tree/.config
	git -C tree init -q
	git -C tree -c user.email=t@t -c user.name=t add Makefile
	git -C tree -c user.email=t@t -c user.name=t commit -qm one
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- make -C tree all
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_identity.git_head')" = "$(git -C tree rev-parse HEAD)" ]
	[ "$(rq -r '.[0].job_identity.git_dirty')" = false ]
	[ "$(rq -r '.[0].job_identity.config_sha256')" = "$(sha256sum <tree/.config | cut -c1-64)" ]
	echo '# a change' >>tree/Makefile
	rm -rf "$CONTEST_RESULTS"
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- make -C tree all
	[ "$status" -eq 0 ]
	[ "$(rq -r '.[0].job_identity.git_dirty')" = true ]
}
