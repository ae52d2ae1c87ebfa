#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT, SIGTERM and SIGHUP: stop everything, keep completed runs, exit
# 128+sig, wherever the driver was waiting; no zombies; a wait that fails
# ends the session loudly.

load helpers

# start ARGS...: contest in the background with the marker; $pid.
start() {
	marked_bg "$CONTEST" "$@" >out 2>err 3>&-
	pid=$!
}

# stop SIG: send SIG to the driver and wait; $st its status, $took the
# seconds it took to exit.
stop() {
	local t0
	t0=$(date +%s.%N)
	kill -"$1" "$pid"
	st=0
	wait "$pid" || st=$?
	took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
	echo "# $1: exit $st after $took s" >&3
}

# The driver is in a run whose job (named JOB) is alive.
job_running() {
	[ -n "$(marked_named "$1")" ]
}

# interrupt SIG: a long session, two runs finished, a later one's job
# and load alive, then SIG.  Rounds enough that the session outlasts any
# wait for a job alive: on a machine busy enough a walk of /proc took
# longer than the ten runs of -n 5, and the wait gave up.
interrupt() {
	start --warmup 0 -n 100 --lead 0.2 -l fork_load:procs=2 -- sleep 1
	wait_until 600 eval '[ "$(lines_of "$R")" -ge 2 ]'
	wait_until 600 job_running sleep
	stop "$1"
}

@test "SIGINT: exit 130, completed runs kept whole, table of what finished, nothing left" {
	interrupt INT
	[ "$st" -eq 130 ]
	no_leftovers 20
	n=$(wc -l <"$R")
	[ "$(jq -c . "$R" | wc -l)" -eq "$n" ]
	rq 'map(.status) | unique | .[]' | grep -qx ok
	grep -q '^no_load:$' out
	nl=$(rq '[.[] | select(.load=="no_load")] | length')
	[[ "$(table_row no_load "$(cat out)")" =~ ^[^\ ]+\ +$nl\  ]]
	grep -q "interrupted by signal 2: $n completed runs kept" err
}

@test "SIGTERM: exit 143 and nothing left" {
	interrupt TERM
	[ "$st" -eq 143 ]
	no_leftovers 20
	[ "$(jq -c . "$R" | wc -l)" -eq "$(wc -l <"$R")" ]
}

@test "SIGHUP: exit 129 and nothing left" {
	interrupt HUP
	[ "$st" -eq 129 ]
	no_leftovers 20
}

# Zombies below the driver, found through /proc/PID/stat's state and
# parent (a zombie's environ is empty, so the marker cannot find it).
zombies() {
	descendants "$pid" | awk '$2 == "Z"' | wc -l
}

@test "the zombie count finds a zombie planted on purpose" {
	# the job's shell forks a child it never reaps, then becomes sleep
	start --warmup 0 -n 1 --lead 0 -- sh -c 'sleep 0 & exec sleep 30'
	wait_until 600 eval '[ "$(zombies)" -ge 1 ]'
	stop INT
	[ "$st" -eq 130 ]
	no_leftovers 20
}

@test "no zombies pile up while a fork load runs" {
	# the job: done at once beside no_load (the first run), then asleep
	start --warmup 0 -n 1 --lead 0.5 -l fork_load:procs=2 -- \
	    sh -c '[ -e ran-once ] || { touch ran-once; exit 0; }; exec sleep 30'
	wait_until 600 eval '[ "$(lines_of "$R")" -ge 1 ]'	# no_load done
	wait_until 600 job_running sleep	# fork_load's job: the load is forking
	max=0
	for _ in 1 2 3 4 5; do
		z=$(zombies)
		[ "$z" -le "$max" ] || max=$z
	done
	stop INT
	# A child between its exit and its reaping is a zombie for a moment;
	# at most one per forker may be caught in that state.
	[ "$max" -le 2 ]
	no_leftovers 20
}

@test "SIGINT during a long job ends the session at once, job and load included" {
	start --warmup 0 -n 1 --lead 0 -l fork_load -- sleep 60
	wait_until 600 job_running sleep	# no_load's job is running
	stop INT
	[ "$st" -eq 130 ]
	# at once: not after the job's 60 s (how soon is a latency, held to
	# its goal in scripts/bench/shares)
	[ "$(awk -v t="$took" 'BEGIN {print (t < 30)}')" -eq 1 ]
	no_leftovers 20
	[ ! -s "$R" ]	# the interrupted run is not recorded
	grep -q 'interrupted by signal 2: 0 completed runs kept' err
}

# Each signal in each long wait of the driver (600 s) ends it at once:
# within a tenth of the wait it cut short (how soon is a latency, held to
# its goal in scripts/bench/shares).
signal_in() {
	local sig=$1 code=$2
	stop "$sig"
	[ "$st" -eq "$code" ]
	[ "$(awk -v t="$took" 'BEGIN {print (t < 60)}')" -eq 1 ]
	no_leftovers 20
}

no_load_lead() {	# no_load's round begun: it waits the lead, idle
	grep -q '=== contest: round 1, no_load, measured run 1 ===' "$CONTEST_RESULTS"/logs/*.log 2>/dev/null
}

sleepers_starting() {	# no_load recorded, the sleepers being forked
	[ "$(lines_of "$R")" -ge 1 ] && [ "$(marked_pids | wc -l)" -ge 20 ]
}

prepare_running() {	# the prepare step's sleep is up
	job_running sleep
}

# each_signal READY ARGS...: for INT, TERM and HUP, a session of ARGS,
# the signal once READY holds, and contest gone at once with 128+sig.
each_signal() {
	local ready=$1 s
	shift
	for s in INT:130 TERM:143 HUP:129; do
		rm -rf "$CONTEST_RESULTS"
		start "$@"
		wait_until 600 "$ready"
		signal_in "${s%:*}" "${s#*:}"
	done
}

@test "a signal during a 600 s lead time ends contest at once: INT, TERM, HUP" {
	# round 1 begins with no_load, which waits the lead as the loads do
	each_signal no_load_lead --warmup 0 -n 1 --lead 600 -l cpu_load:n=1 -- true
}

@test "a signal while 5000 sleepers start up ends contest at once: INT, TERM, HUP" {
	# no_load's run (round 1's first) is quick; the job beside the
	# sleepers would wait, so the session is surely still on
	each_signal sleepers_starting --warmup 0 -n 1 --lead 0 -l sleepers:n=5000 -- \
	    sh -c 'if [ -e "$0" ]; then sleep 600; fi; : >"$0"' "$CONTEST_RESULTS/once"
}

@test "a signal during the prepare step ends contest at once: INT, TERM, HUP" {
	each_signal prepare_running --warmup 0 -n 1 --lead 0 --prepare 'exec sleep 600' -- true
	[ ! -s "$R" ]	# nothing was timed
}

@test "a wait that fails ends the session with status 1 and says why" {
	need_faults
	CONTEST_FAULT=pselect run --separate-stderr contest_faulty --warmup 0 -n 2 --lead 0 -- sleep 1
	[ "$status" -eq 1 ]
	[ "$stderr" = "contest: waiting for the job: Invalid argument" ]
	[ ! -s "$R" ]
	no_leftovers 20
}
