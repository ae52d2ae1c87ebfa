#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The classic loads and sleepers: each really runs beside the job, counts
# plausibly into the shared page, leaves nothing behind, refuses bad
# options with exit 2 and fails the run loudly when it cannot start.

load helpers

# Size of the load's process group, from a ps snapshot the job takes at
# half time.  The load is the driver's child that asked to be the OOM
# killer's first choice (the watchdog is a child too).  Other tests' loads
# may run at the same time: never guess by size.
load_group_size() {
	awk 'NR == 1 {pg = $1; next} {n[$1]++} END {print pg == "" ? 0 : n[pg]}' procs.txt
}

# The job: once the load's group has $WANT processes (an event, waited for
# up to 30 s), its pgid, then every process's pgid, into procs.txt.
snapshot_job='pg=
for p in $(ps -o pid= --ppid $PPID); do
	if [ "$(cat /proc/$p/oom_score_adj)" = 1000 ]; then pg=$(ps -o pgid= -p $p | tr -d " "); fi
done
if [ -n "$pg" ]; then
	for i in $(seq 600); do
		if [ "$(ps -o pgid= -e | grep -cx " *$pg")" -ge "$WANT" ]; then break; fi
		sleep 0.05
	done
fi
{ echo "${pg:-none}"; ps -o pgid= -e; } > procs.txt'

# bad_opt SPEC PATTERN: exit 2, one line on stderr matching PATTERN, no stdout.
bad_opt() {
	run --separate-stderr contest -o "$BATS_TEST_TMPDIR/bad" -n 1 -l "$1" -- true
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
	[[ "$stderr" == $2 ]]
	[ ! -e "$BATS_TEST_TMPDIR/bad" ]
}

@test "every counter has a unit, and a rate per second when it grows" {
	run contest --warmup 0 -n 1 --lead 0 -l sleepers:n=20,wake=5 -l cpu_load:n=1 -- sleep 0.5
	[ "$status" -eq 0 ]
	rq '.[1:] | all((.counters | keys) == (.counter_units | keys))' | grep -qx true
	# Gauges (sleepers alive, spawn ms, pool kB) have no rate.
	rq '.[1] | .counter_rates_per_s | keys == ["wakeups"]' | grep -qx true
	rq '.[2] | (.counter_rates_per_s.loops - .counters.loops / .wall_s) | fabs < 0.01' | grep -qx true
	rq '.[2].counter_units.loops' | grep -qx loops
}

@test "cpu_load: one spinner per CPU by default, each really spinning" {
	run contest --warmup 0 -n 1 --lead 0 -l cpu_load -- sleep 1
	[ "$status" -eq 0 ]
	rq '.[1].load_workers' | grep -qx "$(nproc)"
	rq '.[1].counters.loops > 0' | grep -qx true
	grep -Eqx "cpu_load: Loads = Loops: $(count_text "$(rq '.[1].counters.loops')") \($COUNT/s\)" <<<"$output"
	# n spinners beside a sleeping job: their CPU measured (how much of
	# each CPU they get is a share, held to its goal in scripts/bench/shares)
	rq '.[1].lcpu_pct > 0' | grep -qx true
}

@test "cpu_load: n=1 and bad options" {
	run contest --warmup 0 -n 1 --lead 0 -l cpu_load:n=1 -- sleep 0.5
	[ "$status" -eq 0 ]
	rq '.[1] | .load_workers == 1 and .load_options.n == 1' | grep -qx true
	bad_opt cpu_load:n=0 '*cpu_load: n=0: too small*'
	bad_opt cpu_load:n=1025 '*cpu_load: n=1025: too large*'
	bad_opt cpu_load:spin=1 "*cpu_load: unknown option 'spin' (options: n)*"
	rq '.[1].lcpu_pct > 0' | grep -qx true
}

@test "process_load: a ring of n processes passes messages, all of them measured" {
	WANT=5 contest --warmup 0 -n 1 --lead 0 -l process_load:n=5,tokens=2 -- sh -c "$snapshot_job" 3>&-
	[ "$(load_group_size)" -eq 5 ]
	rq '.[1] | .counters.messages > 1000 and .load_workers == 1' | grep -qx true
	bad_opt process_load:n=1 '*process_load: n=1: too small*'
	bad_opt process_load:tokens=0 '*process_load: tokens=0: too small*'
	# The ring's CPU is in its members, not in the one worker the driver
	# forked.  Without a cgroup it is read from /proc in clock ticks
	# (10 ms): too coarse to see in this 20 ms job.
	[ "$(rq -r '.[1].lcpu_source')" = cgroup ] ||
	    skip "no cgroup for the load: its CPU is read in 10 ms ticks, too coarse for this job"
	rq '.[1].lcpu_pct > 0' | grep -qx true
}

@test "sleepers: n processes alive, spawned and measured, none left" {
	WANT=151 contest --warmup 0 -n 1 --lead 0 -l sleepers:n=150 -- sh -c "$snapshot_job" 3>&-
	# The pool and the process that keeps it.
	[ "$(load_group_size)" -eq 151 ]
	rq '.[1].counters | .sleepers_alive == 150 and .wakeups == 0 and .spawn_ms >= 0 and .pool_kb > 0' | grep -qx true
	# (--keep-suspect: a busy host's slow no_load made this run of true
	# look like no work, left out of the means and its line with them)
	run contest --warmup 0 -n 1 --lead 0 --keep-suspect -l sleepers:n=150 -- true
	[ "$status" -eq 0 ]
	grep -qx 'sleepers:n=150: Loads = Sleepers: 150' <<<"$output"
}

@test "sleepers: wake=MS makes each sleeper wake and work" {
	run contest --warmup 0 -n 1 --lead 0 -l sleepers:n=20,wake=10 -- sleep 1
	[ "$status" -eq 0 ]
	# 20 sleepers waking every 10 ms on absolute times: some wakeups, and
	# never more than 2000 a second of the job, one batch of 20 at either
	# end aside, however busy the machine (a late one starts afresh).
	# How near 2000 they keep is a pace: scripts/bench/shares.
	rq '.[1].counters | .sleepers_alive == 20 and .wakeups > 0' | grep -qx true
	rq '.[1] | .counters.wakeups <= 2000 * .wall_s + 40' | grep -qx true
}

@test "sleepers: bad options, and a pool the process limit refuses fails loudly" {
	bad_opt sleepers:n=0 '*sleepers: n=0: too small*'
	bad_opt sleepers:n=10001 '*sleepers: n=10001: too large*'
	bad_opt sleepers:wake=-1 '*sleepers: wake=-1: *'
	user_results
	run --separate-stderr contest_as 64993 30 --warmup 0 -n 1 --lead 0 -l sleepers:n=100 -- true
	[ "$status" -eq 3 ]
	[ "$(rq '.[1].status')" = load_failed ]
	[[ "$stderr" == *"sleepers:n=100 did not start: only "*" of 100 sleepers: fork: Resource temporarily unavailable"* ]]
}

@test "io_load: writes and syncs a file that is gone afterwards" {
	mkdir io
	run contest --warmup 0 -n 1 --lead 0 -l "io_load:dir=$PWD/io,size=4" -- sleep 0.5
	[ "$status" -eq 0 ]
	rq '.[1].counters.mb_written > 0' | grep -qx true
	rq '.[1].counters_total | .mb_written >= 4 * .passes and .mb_written <= 4 * (.passes + 1)' | grep -qx true
	rq ".[1].load_options.dir == \"$PWD/io\"" | grep -qx true
	[ -z "$(ls -A io)" ]
}

@test "Load% over whole units: io_load beside a sleep gets a Load%, its rate alone over 10 synced passes at least" {
	run --separate-stderr contest --warmup 0 -n 2 --lead 0.5 -l io_load:size=4 -- sleep 0.5
	[ "$status" -eq 0 ]
	echo "# $(rq -c '[.[] | select(.load == "io_load") | [.load_pct, .load_solo_units, .load_solo_s, .lead_s]]')" >&3
	# each rate alone spans whole passes, from one fdatasync's end to
	# another's (how near 100% a sleep leaves it is a share, held to its
	# goal in scripts/bench/shares: another's writes would set its pace)
	rq 'all(.[] | select(.load == "io_load"); .load_solo_units >= 10 and .load_solo_s > 0 and
	    .load_pct > 0)' | grep -qx true
	# the table's Load% is their mean
	want=$(rq '[.[] | select(.load == "io_load").load_pct] | add / length | round')
	[ "$(table_row io_load:size=4 "$output" | awk '{ print $7 }')" = "$want%" ]
}

@test "Load%: a load too slow for 10 whole units within --lead-max gets - and the reason, and its lead says how long it waited" {
	run --separate-stderr contest --warmup 0 -n 1 --lead 0.3 --lead-max 1.5 -l 'exec_load:cmd=sleep 0.4' -- sleep 0.2
	[ "$status" -eq 0 ]
	rq '.[1] | .load_pct == null and .load_solo_rate_per_s == null' | grep -qx true
	[[ "$(rq -r '.[1].load_pct_why')" =~ ^[0-9]\ whole\ units?\ of\ its\ work\ done\ alone\ in\ a\ lead\ of\ 1\.[0-9]+\ s\ \(--lead-max\),\ 10\ needed$ ]]
	# the lead grew to the bound and stopped there, short of the 10 units
	# (4 s of them) it was waiting for: the reason's lead is the run's
	rq '.[1].lead_s >= 1.5 and .[0].lead_s == 0.3' | grep -qx true
	rq '.[1] | .lead_s - (.load_pct_why | capture("lead of (?<s>[0-9.]+) s").s | tonumber) | fabs <= 0.0051' | grep -qx true
	[ "$(table_row 'exec_load:cmd=sleep 0.4' "$output" | awk '{ print $7 }')" = - ]
	# a level has no rate, and --lead 0 no time to take one in: said why
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 -l sleepers:n=2 -l cpu_load:n=1 -- true
	[ "$status" -eq 0 ]
	[ "$(rq -r '[.[] | select(.load != "no_load") | .load_pct_why] | join("; ")')" = "its headline is a level, not a rate; no lead time (--lead 0) to measure it alone in" ]
	for v in -1 x 3601 0.0001; do
		run --separate-stderr contest --lead-max "$v" -- true
		[ "$status" -eq 2 ]
		[[ "$stderr" == "contest: --lead-max: '$v' is "* ]]
	done
}

@test "io_load and read_load default to the results dir and leave no file there" {
	run contest --warmup 0 -n 1 --lead 0 -l io_load:size=2 -l read_load:size=2 -- sleep 0.3
	[ "$status" -eq 0 ]
	rq ".[1].load_options.dir == \"$CONTEST_RESULTS\"" | grep -qx true
	[ -z "$(find "$CONTEST_RESULTS" -name '.contest-load*')" ]
}

@test "io_load: a missing dir fails the run loudly" {
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -l io_load:dir=/nonexistent/x -- true
	[ "$status" -eq 3 ]
	[ "$(rq '.[1].status')" = load_failed ]
	[[ "$stderr" == *"io_load:dir=/nonexistent/x did not start: /nonexistent/x: No such file or directory"* ]]
	bad_opt io_load:size=0 '*io_load: size=0: too small*'
	bad_opt io_load:dir= "*io_load: option 'dir' needs a value*"
}

@test "read_load: reads its file over and over, cache dropped or kept" {
	run contest --warmup 0 -n 1 --lead 0 -l read_load:size=4 -l read_load:size=4,cache=keep -- sleep 0.5
	[ "$status" -eq 0 ]
	rq '.[1:] | all(.counters.mb_read > 0)' | grep -qx true
	rq '.[1:] | all(.counters_total | .mb_read >= 4 * .passes and .mb_read <= 4 * (.passes + 1))' | grep -qx true
	rq '.[2].load_options.cache' | grep -qx keep
	touch afile
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -l "read_load:dir=$PWD/afile" -- true
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"$PWD/afile: not a directory"* ]]
	bad_opt read_load:cache=maybe '*read_load: cache=maybe: not one of drop|keep*'
}

@test "mem_load: touches at most size MB a pass, refuses a size the machine lacks" {
	# Each job ends on the load's own 100 ms of CPU, passes enough on a
	# busy host too (a refaulting pass of 4 MB is a few ms of one)
	run contest --warmup 0 -n 1 --lead 0 -l mem_load:size=4 -l mem_load:size=4,refault=0 -- sh -c "$(load_cpu_job 10)"
	[ "$status" -eq 0 ]
	rq '.[1:] | all(.counters.mb_touched > 0)' | grep -qx true
	rq '.[1:] | all(.counters_total | .mb_touched >= 4 * .passes and .mb_touched <= 4 * (.passes + 1))' | grep -qx true
	# refault=1 faults every page of every pass; refault=0 its first pass's,
	# and after it no more than the kernel takes back on its own (NUMA
	# balancing, compaction): under half its pages a pass (the passes
	# refaulting costs are a share of the machine: scripts/bench/shares)
	pages=$((4 * 1048576 / $(getconf PAGESIZE)))
	rq -c '.[1:] | map(.counters_total)'
	rq -e --argjson p "$pages" '.[1].counters_total | .passes >= 1 and .faults >= $p * .passes'
	rq -e --argjson p "$pages" '.[2].counters_total | .passes >= 2 and .faults >= $p and .faults < $p + $p * (.passes - 1) / 2'
	[ "$(rq -r '.[1].counter_units.faults')" = faults ]
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -l mem_load:size=16000000 -- true
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"mem_load:size=16000000 did not start: size=16000000 MB would leave less than"*"refused"* ]]
	bad_opt mem_load:size=0 '*mem_load: size=0: too small*'
	bad_opt mem_load:refault=2 '*mem_load: refault=2: too large*'
}

@test "list_load: every walk lstat()s every entry of the tree" {
	mkdir -p tree/a/b tree/c
	for i in $(seq 1 40); do touch "tree/a/f$i" "tree/c/g$i"; done
	ln -s /nonexistent tree/dangling
	n=$(find tree | wc -l)
	run contest --warmup 0 -n 1 --lead 0 -l "list_load:dir=$PWD/tree" -- sleep 0.5
	[ "$status" -eq 0 ]
	rq ".[1].counters_total | .walks > 0 and .entries >= .walks * $n and .entries <= (.walks + 1) * $n" | grep -qx true
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -l list_load:dir=/nonexistent -- true
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"/nonexistent: No such file or directory"* ]]
}

@test "exec_load: each completion is a real run of the command, commas kept" {
	run contest --warmup 0 -n 1 --lead 0 -l "exec_load:cmd=echo a,b >> $PWD/runs" -- sleep 0.5
	[ "$status" -eq 0 ]
	rq ".[1].load_options.cmd == \"echo a,b >> $PWD/runs\"" | grep -qx true
	done_total=$(rq '.[1].counters_total.completions')
	lines=$(grep -cx 'a,b' runs)
	# Killed mid-run, the last echo may have written without being counted.
	[ "$lines" -ge "$done_total" ]
	[ "$lines" -le $((done_total + 1)) ]
	rq '.[1] | .counters.completions > 0 and .latency.samples == .counters.completions' | grep -qx true
}

@test "exec_load: a command that starts failing is retried with a backoff, each failure counted" {
	# succeeds once (the ready run), then fails every time: each try
	# appends a line, so the file counts them all
	run contest --warmup 0 -n 1 --lead 0 -l "exec_load:cmd=echo >> $PWD/tries; [ ! -e $PWD/once ] && touch $PWD/once" -- sleep 2
	[ "$status" -eq 0 ]
	failures=$(rq '.[1].counters_total.failures')
	tries=$(wc -l <tries)
	echo "# $failures failures, $tries tries in about 2 s" >&3
	[ "$failures" -ge 1 ]
	[ "$tries" -ge "$failures" ]
	# 1 ms doubling to 1 s: about a dozen tries in 2 s, where a tight
	# loop would make hundreds
	[ "$tries" -le 20 ]
	rq '.[1].counters_total.completions' | grep -qx 1
}

@test "exec_load: a failing command fails the run; cmd is required" {
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -l 'exec_load:cmd=exit 3' -- true
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"'exit 3' exited with status 3 on its first run"* ]]
	bad_opt exec_load "*exec_load: option 'cmd' is required*"
	bad_opt exec_load:cmd= "*exec_load: option 'cmd' needs a value*"
}

@test "a load holds none of contest's descriptors: not the results file, not the log" {
	exec 7>/dev/null	# as a caller's descriptor would be
	contest --warmup 0 -n 1 --lead 0 -l cpu_load:n=1 -- sh -c \
	    'for p in $(ps -o pid= --ppid $PPID); do [ "$(cat /proc/$p/oom_score_adj)" = 1000 ] && ls /proc/$p/fd > fds.$p; done; true' 3>&-
	exec 7>&-
	set -- fds.*
	[ "$#" -eq 1 ]
	[ -f "$1" ]
	[ "$(sort -n "$1" | tr '\n' ' ')" = "0 1 2 " ]
}
