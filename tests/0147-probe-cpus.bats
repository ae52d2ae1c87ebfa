#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The probe to cyclictest's grade: --probe-cpus (a task pinned to each
# CPU, the worst CPU's figures the probe's), --probe-policy (its own
# policy, as cyclictest -p), its memory locked and /dev/cpu_dma_latency
# held at 0 while it runs; what the kernel says of the tasks, what
# results keep, and report --stats's per-CPU line.

load helpers

# The job: for each probe task of this test (our marker, a real-time
# policy: stat field 41, priority field 40), its allowed CPUs and locked
# memory; and /dev/cpu_dma_latency as the system holds it.
look='for d in /proc/[0-9]*; do
	grep -qsz "^CONTEST_TEST_MARK=$CONTEST_TEST_MARK\$" $d/environ || continue
	f=$(sed "s/.*) //" $d/stat 2>/dev/null) || continue
	[ "$(echo $f | cut -d" " -f39)" = 1 ] || continue
	echo "probe $(echo $f | cut -d" " -f38) $(awk "/^Cpus_allowed_list/ {print \$2}" $d/status) $(awk "/^VmLck/ {print (\$2 > 0)}" $d/status)"
done
echo "dma $(od -An -td4 /dev/cpu_dma_latency | tr -d " ")"'

@test "--probe-cpus all --probe-policy fifo:80: a SCHED_FIFO task pinned to each CPU, memory locked, DMA latency held at 0; the worst CPU's figures are the probe's" {
	[ "$(id -u)" -eq 0 ] || skip "a real-time policy needs root"
	[ -w /dev/cpu_dma_latency ] || skip "no /dev/cpu_dma_latency to hold"
	run contest --warmup 0 -n 2 --lead 0.3 --latency=1 --probe-cpus all \
	    --probe-policy fifo:80 -l cpu_load:n=1 -- sh -c "$look"
	[ "$status" -eq 0 ]
	log=$(ls "$CONTEST_RESULTS"/logs/*.log)
	n=$(nproc)
	# each run: one task a CPU, priority 80, on that CPU alone, locked
	# (a sanitizer's mlockall locks nothing, and results say so)
	lck=$(grep -q __asan_init "$CONTEST" && echo 0 || echo 1)
	rq -e "all(.probe.mlock == ($lck == 1))"
	for c in $(seq 0 $((n - 1))); do
		[ "$(grep -c "^probe 80 $c $lck$" "$log")" -eq 4 ]
	done
	[ "$(grep -c '^probe ' "$log")" -eq $((4 * n)) ]
	[ "$(grep -c '^dma 0$' "$log")" -eq 4 ]
	rq -e "all(.probe | .policy == \"fifo:80\" and .mlock == ($lck == 1) and .dma_latency_us == 0 and .dma_why == null and (.per_cpu | length) == $n and (.per_cpu | map(.cpu) | sort) == [range($n)])"
	# the probe's own figures are its worst CPU's: the highest p99, and
	# of CPUs whose p99 fall in one bucket, the highest max
	rq -e 'all(.probe | .cpu == (.per_cpu | max_by([.p99_us, .max_us]) | .cpu) and .p99_us == (.per_cpu | max_by(.p99_us) | .p99_us))'
	rq -e 'all(.probe | (.per_cpu | map(.deadlines) | min) > 0 and all(.per_cpu[]; .met <= .deadlines and .samples > 0))'
	grep -q '^Lat p99: .*, its worst CPU.s in each run with a probe a CPU (--stats: each CPU.s) ' <<<"$output"
	# once the probe is gone, the system's own latency again
	[ "$(od -An -td4 /dev/cpu_dma_latency | tr -d ' ')" != 0 ]
}

@test "report --stats: each CPU's p99 (the runs' mean) and max (the worst run's), as results say them" {
	run contest --warmup 0 -n 2 --lead 0 --latency=2 --probe-cpus 0 -- sleep 0.3
	[ "$status" -eq 0 ]
	rq -e 'all(.probe | .cpu == 0 and (.per_cpu | length) == 1 and .policy == null)'
	p99=$(rq -r 'map(.probe.per_cpu[0].p99_us) | add / length')
	max=$(rq -r 'map(.probe.per_cpu[0].max_us) | max')
	run -0 contest report --format json
	read -r cpu mean worst < <(jq -r '.loads[0].rows[0].probe_per_cpu[0] | [.cpu, .p99_us.mean, .max_us.max] | join(" ")' <<<"$output")
	[ "$cpu" = 0 ]
	# to the report's three decimals
	awk -v a="$mean" -v b="$p99" 'BEGIN { exit !(a - b < 0.0006 && b - a < 0.0006) }'
	[ "$worst" = "$max" ]
	run -0 contest report --stats
	grep -q '^no_load: Probe per CPU (p99 the runs. mean, max the worst run.s): cpu0 [0-9.]* [mu]s / [0-9.]* [mu]s$' <<<"$output"
	run -0 contest report
	[[ "$output" != *"Probe per CPU"* ]]
}

@test "without --probe-cpus or --probe-policy the probe is as it was: one task, no lock, no DMA latency held" {
	run contest --warmup 0 -n 1 --lead 0 --latency -- true
	[ "$status" -eq 0 ]
	rq -e 'all(.probe | .cpu == null and .per_cpu == null and .policy == null and .mlock == false and .dma_latency_us == null and .dma_why == null)'
}

@test "a probe policy the kernel refuses (real time as a user) fails the run's start with the kernel's reason" {
	user_results
	run --separate-stderr contest_as 64996 - --warmup 0 -n 1 --lead 0 --latency \
	    --probe-policy fifo:80 -- true
	[ "$status" -eq 3 ]
	[ "$(rq -r '.[0].status')" = load_failed ]
	[ "$(rq -r '.[0].error')" = "latency probe did not start: policy fifo:80: Operation not permitted" ]
}

@test "bad --probe-cpus and --probe-policy are refused before any run" {
	for args in "--latency --probe-cpus ''" "--latency --probe-cpus 1-0" \
	    "--latency --probe-cpus 1023" "--latency --probe-cpus x" \
	    "--probe-cpus 0" "--probe-policy fifo:1" "--latency --probe-policy fifo" \
	    "--latency --probe-policy fifo:100" "--latency --probe-policy deadline"; do
		eval "set -- $args"
		run --separate-stderr contest -n 1 "$@" true
		[ "$status" -eq 2 ]
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
		[ ! -e "$R" ]
	done
	run -2 --separate-stderr contest -n 1 --probe-cpus all true
	[ "$stderr" = "contest: --probe-cpus: there is no probe without --latency" ]
}
