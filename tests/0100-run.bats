#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# A run: baseline always measured, interleaved rounds, prepare untimed,
# the table and its Ratio recomputed from results.jsonl.

load helpers

@test "no_load is measured even when only a load is asked for" {
	run --separate-stderr contest --warmup 0 -n 2 --lead 0 -l fork_load -- sleep 0.2
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$R")" -eq 4 ]
	[ "$(rq '[.[] | select(.load == "no_load")] | length')" -eq 2 ]
	[ "$(rq '[.[] | select(.load == "fork_load")] | length')" -eq 2 ]
}

@test "rounds interleave the loads, each round starting one load further on" {
	run contest --warmup 0 -n 3 --lead 0 -l fork_load -l fork_load:procs=2 -- true
	[ "$status" -eq 0 ]
	[ "$(rq 'map(.load_spec) | join(" ")')" = \
	    "no_load fork_load fork_load:procs=2 fork_load fork_load:procs=2 no_load fork_load:procs=2 no_load fork_load" ]
	[ "$(rq 'map(.round) | join(" ")' )" = "0 0 0 1 1 1 2 2 2" ]
	[ "$(rq 'map(.run) | join(" ")' )" = "1 1 1 2 2 2 3 3 3" ]
	[ "$(rq 'map(.round_position) | join(" ")' )" = "0 1 2 0 1 2 0 1 2" ]
}

@test "the table has the classic columns, one block per load" {
	run --separate-stderr contest --warmup 0 -n 2 --lead 0 -l fork_load -- sleep 0.1
	[ "$status" -eq 0 ]
	[ "$(grep -c '^Kernel  *\[runs\]  *Time  *CPU%  *Wait%  *Loads  *Load%  *LCPU%  *Ratio$' <<<"$output")" -eq 2 ]
	grep -q '^no_load:$' <<<"$output"
	grep -q '^fork_load:$' <<<"$output"
	row=$(table_row no_load "$output")
	# two runs are fewer than three: the ? after Time says so
	[[ "$row" =~ ^$(uname -r | sed 's/[.+]/\\&/g')\ +2\ +0\.[0-9]{2}±0\.[0-9]{2}\?\ +[0-9]+%\ +([0-9]+%|-)\ +-\ +-\ +-\ +1\.00$ ]]
}

@test "Ratio is mean(load time) / mean(no_load time) from results.jsonl" {
	run --separate-stderr contest --warmup 0 -n 3 --lead 0 -l fork_load -- sleep 0.3
	[ "$status" -eq 0 ]
	want=$(rq '(map(select(.load=="fork_load").wall_s) | add/length) /
	    (map(select(.load=="no_load").wall_s) | add/length)')
	row=$(table_row fork_load "$output")
	got=$(awk '{print $NF}' <<<"$row")
	echo "# table ratio $got, recomputed $want" >&3
	# The table prints it to two decimals: within half a hundredth.
	[ "$(awk -v g="${got%%±*}" -v w="$want" 'BEGIN {print (g - w <= 0.00501 && w - g <= 0.00501)}')" -eq 1 ]
	# Time column is the mean of wall_s too.
	tw=$(rq 'map(select(.load=="fork_load").wall_s) | add/length')
	gt=$(awk '{print $3}' <<<"$row")
	[ "$(awk -v g="${gt%%±*}" -v w="$tw" 'BEGIN {print (g - w <= 0.00501 && w - g <= 0.00501)}')" -eq 1 ]
}

@test "time and CPU come from the job: wall covers the sleep and lies within the session, a spin's CPU is far above a sleep's" {
	t0=$(date +%s.%N)
	run contest --warmup 0 -n 1 --lead 0 -- sleep 0.5
	t1=$(date +%s.%N)
	[ "$status" -eq 0 ]
	rq '.[0].wall_s >= 0.5' | grep -qx true
	# no more than the session around it took, however busy the machine
	rq --argjson s "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" '.[0].wall_s <= $s' | grep -qx true
	sleep_cpu=$(rq '.[0] | .usr_s + .sys_s')
	sleep_pct=$(rq '.[0].cpu_pct')
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 -- sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'
	[ "$status" -eq 0 ]
	rq '(.[0].usr_s + .[0].sys_s) > 0.1' | grep -qx true
	# CPU time, not a share of the wall: a busy machine stretches the
	# spin's wall, not the work it does.  (How much of a CPU a spin gets
	# is a share: scripts/bench/shares.)
	rq --argjson c "$sleep_cpu" '(.[0].usr_s + .[0].sys_s) > 10 * $c' | grep -qx true
	rq --argjson p "$sleep_pct" '.[0].cpu_pct > $p' | grep -qx true
}

@test "CPU% includes the job's waited-for descendants" {
	run contest --warmup 0 -n 1 --lead 0 -- sh -c 'sh -c "i=0; while [ \$i -lt 300000 ]; do i=\$((i+1)); done"'
	[ "$status" -eq 0 ]
	rq '.[0].usr_s > 0.1' | grep -qx true
}

@test "--prepare runs before every run and is not timed" {
	# each prepare step notes when it ended, in ms since the epoch
	run contest --warmup 0 -n 2 --lead 0 -l fork_load --prepare "sleep 0.2; date +%s%3N >> $BATS_TEST_TMPDIR/prep" -- true
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$BATS_TEST_TMPDIR/prep")" -eq 4 ]
	# every run's clock (its timestamp, when the job started) started
	# after its own prepare step had ended, and before the next one's
	run -0 rq -r '.[].timestamp | sub("\\.(?<ms>[0-9]+)Z$"; "Z \(.ms)") | split(" ") |
	    "\(.[0] | fromdateiso8601)\(.[1])"'
	paste -d' ' "$BATS_TEST_TMPDIR/prep" <(printf '%s\n' "${lines[@]}") <(sed 1d "$BATS_TEST_TMPDIR/prep"; echo 99999999999999) |
	    awk '{ print } !($1 <= $2 && $2 <= $3) { bad++ } END { exit bad > 0 || NR != 4 }'
	rq '.[0].prepare' | grep -q 'sleep 0.2'
}

@test "--warmup rounds are run, stored as warmup, and left out of the table" {
	run contest -n 1 --warmup 2 --lead 0 -l fork_load -- true
	[ "$status" -eq 0 ]
	[ "$(rq 'map(.warmup) | join(" ")')" = "true true true true false false" ]
	row=$(table_row fork_load "$output")
	[[ "$row" =~ ^[^\ ]+\ +1\  ]]
	grep -qx '4 warmup runs not counted.' <<<"$output"
}

@test "every job gets one warmup round by default; --warmup 0 measures the first run" {
	run contest -n 1 --lead 0 -l fork_load -- true
	[ "$status" -eq 0 ]
	[ "$(rq 'map(.warmup) | join(" ")')" = "true true false false" ]
	grep -qx '2 warmup runs not counted.' <<<"$output"
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 -l fork_load -- true
	[ "$status" -eq 0 ]
	[ "$(rq 'map(.warmup) | join(" ")')" = "false false" ]
	run ! grep -q 'warmup run' <<<"$output"
}

# A job whose first run in a session is cold: 1.5 s the first time (a
# marker file in the session's own directory), 0.5 s after; it says
# which it was in the session's log.
cold_job() {
	mkdir -p "$BATS_TEST_TMPDIR/cold"
	cat > "$BATS_TEST_TMPDIR/cold/job" <<-EOF
	#!/bin/sh
	if [ -e "$BATS_TEST_TMPDIR/cold/warm" ]; then echo warm; sleep 0.5; else touch "$BATS_TEST_TMPDIR/cold/warm"; echo cold; sleep 1.5; fi
	EOF
	chmod +x "$BATS_TEST_TMPDIR/cold/job"
}

# The session log's runs, one "LOAD KIND cold|warm" a line, in order.
cold_log() {
	awk '/^=== contest: round / { l = $5; sub(/,$/, "", l); k = $6; next } /^(cold|warm)$/ { print l, k, $1 }' \
	    "$CONTEST_RESULTS"/logs/*.log
}

@test "the first, cold run is a warmup by default: left out of the Ratio, its runs and its notes" {
	cold_job
	run --separate-stderr contest -n 3 --lead 0 -l sleepers:n=1 -- "$BATS_TEST_TMPDIR/cold/job"
	[ "$status" -eq 0 ]
	# the warmup took the cold run: no_load's first one
	[ "$(rq '[.[] | select(.warmup)] | .[0] | [.load, (.wall_s >= 1.5)] | @tsv')" = "no_load	true" ]
	[ "$(cold_log | sed -n 1p)" = "no_load warmup cold" ]
	[ "$(cold_log | sed 1d | awk '{ print $NF }' | sort -u)" = warm ]
	[ "$(cold_log | wc -l)" -eq 8 ]
	# the Ratio is the measured runs' alone, as the table prints it, and
	# each row counts them alone.  (Whether 1 is inside its CI95 is a
	# coin that lands wrong one time in twenty by design: no test's.)
	row=$(table_row sleepers:n=1 "$output")
	ratio=$(sed -E 's/.* ([0-9.]+)±[0-9.]+ *$/\1/' <<<"$row")
	[[ "$row" =~ ^[^\ ]+\ +3\  ]]
	[[ "$(table_row no_load "$output")" =~ ^[^\ ]+\ +3\  ]]
	want=$(rq '[.[] | select(.warmup | not)] | (map(select(.load == "sleepers").wall_s) | add / length) /
	    (map(select(.load == "no_load").wall_s) | add / length)')
	awk -v r="$ratio" -v w="$want" 'BEGIN { exit !(r - w <= 0.00501 && w - r <= 0.00501) }'
	# its notes: a measured run may stand out (on a busy host one will),
	# the cold warmup never: each note names a measured run of its load,
	# by number and time (the warmup shares run 1's number, not its 1.5 s)
	while IFS='|' read -r spec n t; do
		rq -e --arg l "$spec" --argjson n "$n" --argjson t "$t" \
		    'any(.[]; .load_spec == $l and .run == $n and (.warmup | not) and (.wall_s - $t | fabs) <= 0.00501)' ||
		    { echo "# a note names no measured run: $spec run $n ($t s)" >&3; false; }
	done < <(sed -nE 's/^([^ ]+): [^ ]+: run ([0-9]+) \(([0-9.]+) s, median [0-9.]+ s\) stands out.*/\1|\2|\3/p' <<<"$output")
	[ "$(grep -c 'stands out' <<<"$output")" -eq "$(grep -cE '^[^ ]+: [^ ]+: run [0-9]+ \([0-9.]+ s, median [0-9.]+ s\) stands out' <<<"$output")" ]
}

@test "with --warmup 0 the cold first run is measured on no_load, and the stand-out note names it" {
	cold_job
	run --separate-stderr contest --warmup 0 -n 3 --lead 0 -l sleepers:n=1 -- "$BATS_TEST_TMPDIR/cold/job"
	[ "$status" -eq 0 ]
	[ "$(rq '.[0] | [.load, .run, (.wall_s >= 1.5)] | @tsv')" = "no_load	1	true" ]
	[ "$(cold_log | sed -n 1p)" = "no_load measured cold" ]
	grep -q '^no_load: .*: run 1 ([0-9.]* s, median [0-9.]* s) stands out' <<<"$output"
	# and the cold run is in no_load's mean, so in every Ratio: the
	# table's is the measured runs' means over it, as stored (not how
	# low a busy host lets a Ratio come out)
	[[ "$(table_row no_load "$output")" =~ ^[^\ ]+\ +3\  ]]
	row=$(table_row sleepers:n=1 "$output")
	ratio=$(sed -E 's/.* ([0-9.]+)±[0-9.]+ *$/\1/' <<<"$row")
	[ "$(rq '[.[] | select(.warmup)] | length')" -eq 0 ]
	want=$(rq '(map(select(.load == "sleepers").wall_s) | add / length) /
	    (map(select(.load == "no_load").wall_s) | add / length)')
	awk -v r="$ratio" -v w="$want" 'BEGIN { exit !(r - w <= 0.00501 && w - r <= 0.00501) }'
}

@test "-k labels the rows and the results; -o picks the dir" {
	run contest --warmup 0 -n 1 --lead 0 -k my-kernel -o "$BATS_TEST_TMPDIR/elsewhere" -- true
	[ "$status" -eq 0 ]
	[ ! -e "$R" ]
	R="$BATS_TEST_TMPDIR/elsewhere/results.jsonl"
	[ "$(rq '.[0].label')" = my-kernel ]
	[ "$(rq '.[0].kernel')" = "$(uname -r)" ]
	[[ "$(table_row no_load "$output")" == "my-kernel "* ]]
}

@test "the default results dir is ./contest-results without \$CONTEST_RESULTS" {
	unset CONTEST_RESULTS
	run contest --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	[ "$(wc -l <contest-results/results.jsonl)" -eq 1 ]
}

@test "the load runs for the lead time before the job starts" {
	run contest --warmup 0 -n 1 --lead 1 -l fork_load -- sleep 0.3
	[ "$status" -eq 0 ]
	rq '.[1] | .load_life_s >= 1.3 and .counters_total.children_forked > .counters.children_forked' | grep -qx true
	# never shorter than asked; longer (up to --lead-max) where a slow
	# load needs it to do ten whole units alone, as on a busy machine
	rq '.[1] | .lead_s >= 1 and .load_life_s >= .lead_s + .wall_s' | grep -qx true
	# no_load waits as long, idle: every run starts as long after its prepare
	rq '.[0].lead_s' | grep -qx '1'
}

@test "the progress line appears only when stderr is a terminal" {
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	[[ "$stderr" != *"elapsed"* ]]
	command -v script >/dev/null || skip "no script(1)"
	run marked script -qec "$CONTEST --warmup 0 -n 1 --lead 0 -l fork_load -- sleep 0.2 >/dev/null" /dev/null
	[ "$status" -eq 0 ]
	[[ "$output" == *"round 1/1"*"fork_load"*"elapsed 0:0"*"left ~"* ]]
}

# The load's counters are read next to the job's fork and its wait4, with
# every other read (the /proc walk for LCPU% in process-group mode above
# all) outside: 100 sleepers waking every 10 ms on absolute times tick
# 10000 times a second, and the job's half second must show that rate.
@test "Loads/s is the load's rate over the job's own time, in cgroup and process-group mode" {
	# The rate's definition, and bounds no busy machine breaks: 100
	# sleepers waking every 10 ms on absolute times cannot wake more than
	# 10,000 times a second of the job, one batch of 100 at either end
	# aside; late ones are still counted.  How near 10,000 they keep is
	# a pace, which a busy machine moves: no test's claim.
	for cg in 1 0; do
		rm -rf "$CONTEST_RESULTS"
		CONTEST_CGROUP=$cg run --separate-stderr contest --warmup 0 -n 2 --lead 0.3 -l sleepers:n=100,wake=10 -- sleep 0.5
		[ "$status" -eq 0 ]
		run -0 rq -r 'map(select(.load == "sleepers")) | .[] |
		    "\(.counter_rates_per_s.wakeups) \(.counters.wakeups) \(.wall_s)"'
		[ "${#lines[@]}" -eq 2 ]
		for l in "${lines[@]}"; do
			echo "# CONTEST_CGROUP=$cg: rate, wakeups, job s: $l" >&3
			# rate = wakeups / the job's wall time, to its three decimals
			# and what wall_s's six decimals move it (a part in 10^6 of
			# a half second: 0.01 of 10,000/s)
			# (at most the 10,000 a second they keep to, and some: how
			# near it they come is a share, scripts/bench/shares's)
			awk -v r="${l%% *}" -v n="$(cut -d' ' -f2 <<<"$l")" -v t="${l##* }" \
			    'BEGIN { e = r * 1e-6 / t + 0.001
				exit !((r - n / t) ^ 2 < e * e && n <= 10000 * t + 200 && n > 0) }'
		done
		run -0 contest report
		grep -Eqx 'sleepers:n=100,wake=10: Wakeups: [0-9]+ \([0-9]+/s\)' <<<"$output"
	done
}
