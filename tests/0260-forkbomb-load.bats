#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The forkbomb load: realloc cycles, bounded bombs and zombies, CPU.

load helpers

@test "forkbomb: mode=realloc grows to the limit by inc pages, again and again" {
	run contest --warmup 0 -n 1 --lead 0 -l forkbomb:mode=realloc,touch=1,limit=8,inc=256 -- sh -c "$(load_cpu_job 50)"
	[ "$status" -eq 0 ]
	# 256 pages of 4 KiB: one MB per realloc, eight per cycle.
	rq '.[1].counters_total | .reallocs > 8 and (.mb_grown - .reallocs | fabs) <= 1 and .mb_touched <= .mb_grown' | grep -qx true
	rq '.[1] | .headline == "reallocs" and .counters.reallocs > 0' | grep -qx true
	grep -Eq '^forkbomb:mode=realloc,touch=1,limit=8,inc=256: Loads = Reallocs: [1-9]' <<<"$output"
	grep -q '^forkbomb:mode=realloc,touch=1,limit=8,inc=256: MB grown: ' <<<"$output"
	! grep -q 'Processes forked' <<<"$output"
}

@test "forkbomb: touch=0 grows without touching (-m)" {
	run contest --warmup 0 -n 1 --lead 0 -l forkbomb:touch=0,limit=8 -- sh -c "$(load_cpu_job 5)"
	[ "$status" -eq 0 ]
	rq '.[1].counters_total | .mb_grown > 0 and .mb_touched == 0' | grep -qx true
}

@test "forkbomb: mode=bomb never passes max processes, and leaves none" {
	# The job finds the load's group (the driver's child that asked to be
	# the OOM killer's first choice), freezes
	# it (SIGSTOP to a group is atomic against fork) and counts it.
	# Beside no_load (the first run) it has nothing to find, and ends.
	contest --warmup 0 -n 1 --lead 0 -l forkbomb:mode=bomb,max=20 -- sh -c '
	    [ -e ran-once ] || { touch ran-once; exit 0; }
	    for try in $(seq 600); do
		pg=
		for p in $(ps -o pid= --ppid $PPID); do
			[ "$(cat /proc/$p/oom_score_adj)" = 1000 ] && pg=$(ps -o pgid= -p $p | tr -d " ")
		done
		[ -z "$pg" ] || break
		sleep 0.02
	    done
	    echo run > counts.txt
	    [ -n "$pg" ] || exit 1
	    for i in 1 2 3 4 5; do
		kill -STOP -"$pg"
		ps -o pgid= -e | grep -cx " *$pg" >> counts.txt
		kill -CONT -"$pg"
		sleep 0.05
	    done' 3>&-
	rq '.[1] | .headline == "procs_forked" and .counters.procs_forked > 0' | grep -qx true
	rq '.[1].counters | .procs_peak <= 20 and .procs_peak > 2' | grep -qx true
	[ "$(wc -l < counts.txt)" -eq 6 ]
	echo "# bomb group sizes seen: $(tr '\n' ' ' < counts.txt)" >&3
	[ "$(sed 1d counts.txt | sort -n | tail -1)" -le 20 ]
	[ "$(sed 1d counts.txt | sort -n | tail -1)" -gt 2 ]
}

@test "forkbomb: mode=zombie holds up to max unreaped children, then reaps them" {
	run contest --warmup 0 -n 1 --lead 0 -l forkbomb:mode=zombie,max=30 -- sh -c "$(load_cpu_job 10)"
	[ "$status" -eq 0 ]
	rq '.[1].counters | .procs_forked > 30 and .procs_peak == 30' | grep -qx true
}

@test "forkbomb: mode=cpu spins, or rewrites its block with touch=1" {
	run contest --warmup 0 -n 1 --lead 0 -l forkbomb:mode=cpu,touch=0 -l forkbomb:mode=cpu,limit=8 -- sh -c "$(load_cpu_job 30)"
	[ "$status" -eq 0 ]
	rq '.[1] | .headline == "cpu_loops" and .counters.cpu_loops > 0' | grep -qx true
	rq '.[2] | .headline == "mb_touched" and .counters.mb_touched > 8' | grep -qx true
}

@test "forkbomb: a bomb under RLIMIT_NPROC counts its failures and goes on" {
	user_results
	run contest_as 64994 12 --warmup 0 -n 1 --lead 0 -l forkbomb:mode=bomb,max=100 -- sleep 0.5
	[ "$status" -eq 0 ]
	rq '.[1].counters | .fork_failures > 0 and .procs_peak < 100' | grep -qx true
}

@test "forkbomb: bad options give exit 2" {
	for spec in forkbomb:mode=nuke forkbomb:max=1 forkbomb:limit=0 forkbomb:inc=0 forkbomb:touch=2 forkbomb:max=10001; do
		run --separate-stderr contest -n 1 -l "$spec" -- true
		[ "$status" -eq 2 ]
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
		[[ "$stderr" == "contest: forkbomb: "* ]]
	done
}
