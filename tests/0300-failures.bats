#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Commands that fail, die, or cannot run: recorded, flagged, never averaged.

load helpers

@test "a failing command: runs recorded as failed, flagged, exit 1" {
	run --separate-stderr contest --warmup 0 -n 2 --lead 0 -l fork_load -- false
	[ "$status" -eq 1 ]
	[ "$(wc -l <"$R")" -eq 4 ]
	[ "$(rq 'map("\(.status)/\(.exit_code)") | unique | join(" ")')" = "failed/1" ]
	row=$(table_row fork_load "$output")
	[[ "$row" =~ ^[^\ ]+\ +0!\ +-\ +-\ +-\ +-\ +-\ +-\ +-$ ]]
	grep -q '^fork_load: ! 2 runs failed (last exit status 1), left out of the means$' <<<"$output"
	grep -q '^contest: no_load run 1: false exited with status 1$' <<<"$stderr"
}

@test "failed runs are left out of the means" {
	# Fails on every run but the first.
	run contest --warmup 0 -n 3 --lead 0 -- sh -c 'if [ -e once ]; then exit 3; fi; touch once; sleep 0.3'
	[ "$status" -eq 1 ]
	[ "$(rq 'map(.status) | join(" ")')" = "ok failed failed" ]
	row=$(table_row no_load "$output")
	[[ "$row" =~ ^[^\ ]+\ +1!\ +([0-9.]+)\?\  ]]
	# the Time is the one ok run's (to the table's two decimals)
	ok=$(rq '.[] | select(.status == "ok") | .wall_s')
	awk -v t="${BASH_REMATCH[1]}" -v w="$ok" 'BEGIN { exit !(t - w <= 0.00501 && w - t <= 0.00501 && w >= 0.3) }'
	grep -q 'no_load: ! 2 runs failed (last exit status 3)' <<<"$output"
}

@test "a command killed by a signal is 128+sig in its record" {
	run contest --warmup 0 -n 1 --lead 0 -- sh -c 'kill -9 $$'
	[ "$status" -eq 1 ]
	[ "$(rq '.[0] | "\(.status) \(.exit_code) \(.error)"')" = "failed 137 sh killed by signal 9 (SIGKILL)" ]
}

@test "a command that does not exist: 127, one clear line, before any run" {
	run --separate-stderr contest --warmup 0 -n 3 --lead 0 -l fork_load -- no-such-command-xyz
	[ "$status" -eq 127 ]
	[ -z "$output" ]
	[ "$stderr" = "contest: no-such-command-xyz: command not found" ]
	[ ! -e "$R" ]
}

@test "a command that is a directory or not executable: 126, before any run" {
	mkdir adir
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- ./adir
	[ "$status" -eq 126 ]
	[ "$stderr" = "contest: ./adir: Is a directory" ]
	printf 'echo hi\n' > noexec
	chmod 644 noexec
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- ./noexec
	[ "$status" -eq 126 ]
	[ "$stderr" = "contest: ./noexec: Permission denied" ]
	[ ! -e "$R" ]
}

@test "each run's exec finds the command as execvp does: PATH's first runnable entry, a script without #! run by sh, one made unrunnable refused with 126" {
	mkdir a b
	printf 'echo from-a\n' > a/tool
	chmod 644 a/tool	# first on PATH, not runnable: passed over
	printf 'echo "ran $0 with $1"\n' > b/tool
	chmod 755 b/tool	# no #!: the kernel says ENOEXEC, sh runs it
	PATH="$PWD/a:$PWD/b:$PATH" run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- tool arg1
	[ "$status" -eq 0 ]
	grep -qx "ran $PWD/b/tool with arg1" "$CONTEST_RESULTS"/logs/*.log
	# unrunnable by the time its run comes: the exec's own errno, 126
	rm -rf "$CONTEST_RESULTS"
	PATH="$PWD/a:$PWD/b:$PATH" run --separate-stderr contest --warmup 0 -n 2 --lead 0 \
	    --prepare "chmod 644 $PWD/b/tool" -- tool
	[ "$status" -eq 126 ]
	[ "$stderr" = "contest: no_load run 1: tool: Permission denied" ]
	[ "$(rq '.[0] | "\(.status) \(.exit_code)"')" = "exec_failed 126" ]
}

@test "a command gone by the time it runs: 127, recorded as exec_failed" {
	printf '#!/bin/sh\nexit 0\n' > tool
	chmod 755 tool
	run --separate-stderr contest --warmup 0 -n 2 --lead 0 --prepare 'rm -f tool' -- ./tool
	[ "$status" -eq 127 ]
	[ "$stderr" = "contest: no_load run 1: ./tool: command not found" ]
	[ "$(rq '.[0] | "\(.status) \(.exit_code)"')" = "exec_failed 127" ]
	[ "$(wc -l <"$R")" -eq 1 ]
}

@test "a failing --prepare stops the session with exit 1" {
	run --separate-stderr contest --warmup 0 -n 2 --lead 0 --prepare 'exit 4' -- touch ran
	[ "$status" -eq 1 ]
	[ "$stderr" = "contest: no_load run 1: --prepare 'exit 4' exited with status 4" ]
	[ "$(rq '.[0].status')" = prepare_failed ]
	[ ! -e ran ]
}

@test "a job that leaves a process behind in its group does not outlive contest" {
	run contest --warmup 0 -n 1 --lead 0 -- sh -c 'sleep 30 & echo started'
	[ "$status" -eq 0 ]
	no_leftovers 0
}

# victim: a load worker of the driver $pid once no_load is recorded and
# fork_load's job runs (it made ./beside): a child of the driver running
# contest-load and asked to be the OOM killer's first choice (not the
# watchdog, not the job).
worker_beside_job() {
	local p
	victim=
	[ -s "$R" ] && [ -e beside ] || return 1
	# contest's children, from one read of every stat file: a grep per
	# process (marked_pids) takes seconds on a slow host beside fork_load
	for p in $(cat /proc/[0-9]*/stat 2>/dev/null | awk -v pp="$pid" '$4 == pp { print $1 }'); do
		if [ "$(cat /proc/$p/comm 2>/dev/null)" = contest-load ] &&
		    [ "$(cat /proc/$p/oom_score_adj 2>/dev/null)" = 1000 ]; then
			victim=$p
		fi
	done
	[ -n "$victim" ]
}

@test "a load worker that dies during the run fails the run, loudly" {
	# the job: done at once beside no_load (the first run), then beside
	# the load until the test has killed a worker (an event, not a time:
	# a busy host's look for the worker took longer than a sleep of 4 s)
	marked_bg "$CONTEST" --warmup 0 -n 1 --lead 0.5 -l fork_load:procs=2 \
	    -- sh -c '[ -e ran-once ] || { touch ran-once; exit 0; }; touch beside; until [ -e killed ]; do sleep 0.05; done' >out 2>err 3>&-
	pid=$!
	wait_until 600 worker_beside_job
	kill -9 "$victim"
	# dead (a zombie until the driver reaps it) before the job ends
	wait_until 600 eval '! running "$victim"'
	touch killed
	st=0
	wait "$pid" || st=$?
	[ "$st" -eq 3 ]
	[ "$(rq '.[1].status')" = load_failed ]
	[[ "$(rq '.[1].error')" =~ ^fork_load:procs=2\ worker\ [01]\ died\ during\ the\ run\ \(status\ 137\)$ ]]
	grep -q 'fork_load:procs=2 run 1: fork_load:procs=2 worker . died during the run' err
	grep -q '^fork_load:procs=2: ! 1 run failed' out
}

@test "a load that cannot start fails its runs: the session goes on with the others and exits 3, naming it" {
	run --separate-stderr contest --warmup 1 -n 2 --lead 0 -l fork_load \
	    -l io_load:dir=/nonexistent -l sleepers:n=2 -- sleep 0.2
	[ "$status" -eq 3 ]
	# every cell of the first and third loads, in full; each of the
	# second's runs recorded as failed, with why
	[ "$(rq -r '[.[] | "\(.load)=\(.status)"] | group_by(.) | map("\(.[0])x\(length)") | join(" ")')" = \
	    "fork_load=okx3 io_load=load_failedx3 no_load=okx3 sleepers=okx3" ]
	rq -e 'map(select(.load == "io_load") | .error == "io_load:dir=/nonexistent did not start: /nonexistent: No such file or directory") | all' >/dev/null
	[ "$(tail -n 1 <<<"$stderr")" = "contest: io_load:dir=/nonexistent: 3 runs failed by the load, not the job (load_failed; the last: io_load:dir=/nonexistent did not start: /nonexistent: No such file or directory); the other loads ran" ]
	[ -n "$(table_row sleepers:n=2 "$output")" ]
	grep -q '^io_load:dir=/nonexistent: ! 2 runs failed' <<<"$output"
}

@test "a load the process limit refuses fails its runs, and exits 3" {
	user_results
	# Three processes allowed: driver, watchdog and the job for no_load;
	# the second forker of fork_load never gets a slot (contest waits
	# 10 s for one).
	run --separate-stderr contest_as 64991 3 --warmup 0 -n 1 --lead 0 -l fork_load:procs=2 -- true
	[ "$status" -eq 3 ]
	[ "$(rq 'map(.status) | join(" ")')" = "ok load_failed" ]
	[[ "$stderr" == *"fork_load: cannot fork worker 1: Resource temporarily unavailable"* ]]
}

@test "a job killed by a signal is recorded with the signal's name and left out of the means" {
	run --separate-stderr contest --warmup 0 -n 2 --lead 0 -l fork_load -- \
	    sh -c '[ -e once ] || { touch once; kill -9 $$; }; sleep 0.2'
	[ "$status" -eq 1 ]
	rq '.[0] | .status == "failed" and .exit_code == 137 and .signal == "SIGKILL" and .error == "sh killed by signal 9 (SIGKILL)"' | grep -qx true
	rq '.[1:] | all(.status == "ok" and .signal == null)' | grep -qx true
	grep -qx 'no_load: ! 1 run failed (last exit status 137, SIGKILL), left out of the means' <<<"$output"
	# The mean is the one good no_load run's time alone.
	good=$(rq 'map(select(.load == "no_load" and .status == "ok").wall_s) | .[0] * 100 | round / 100')
	row=$(table_row no_load "$output")
	[ "$(awk '{print $2}' <<<"$row")" = "1!" ]
	[ "$(awk '{printf "%.2f", $3}' <<<"$row")" = "$(printf '%.2f' "$good")" ]
}

@test "a job the kernel will not move into its cgroup: exec_failed with the child's reason, exit 126, nothing left" {
	need_faults
	# forked, then moved by itself (CONTEST_CLONE3=0): the move is the
	# child's, before its exec, and it formats nothing; the parent words it
	run --separate-stderr marked env CONTEST_CLONE3=0 CONTEST_FAULT=cgenter \
	    "${FAULTS_ENV[@]}" "$CONTEST" -n 2 --lead 0 --warmup 0 -- true
	if [ "$(jq -r '.job_cgroup' "$R")" != true ]; then
		skip "no job cgroup here: nothing to move into"
	else
		[ "$status" -eq 126 ]
	fi
	[ "$(jq -r '.status' "$R")" = exec_failed ]
	[ "$(jq -r '.exit_code' "$R")" = 126 ]
	[ "$(jq -r '.error' "$R")" = "cannot move the job into its cgroup: Device or resource busy" ]
	# the session stops at once: every later run would fail the same way
	[ "$(wc -l <"$R")" -eq 1 ]
}

@test "a job that cannot have its output where it goes: exec_failed with the reason, exit 126, nothing of it on contest's stdout" {
	need_faults
	# the job's child (sharing the driver's memory where it can) has
	# /dev/null for stdout refused: it must not run writing to ours
	for clone3 in 1 0; do
		rm -f "$R"
		run --separate-stderr marked env CONTEST_CLONE3=$clone3 CONTEST_FAULT=dup2 \
		    "${FAULTS_ENV[@]}" "$CONTEST" -n 2 --lead 0 --warmup 0 -- echo job-output
		[ "$status" -eq 126 ]
		run ! grep -qx job-output <<<"$output"
		[ "$(jq -r '.status' "$R")" = exec_failed ]
		[ "$(jq -r '.error' "$R")" = "cannot give the job its stdin, stdout and stderr: Bad file descriptor" ]
		[ "$(wc -l <"$R")" -eq 1 ]
	done
}

@test "a driver started with stdout closed writes its table nowhere, never into the results file" {
	run -0 --separate-stderr marked bash -c '"$0" -n 2 --lead 0 --warmup 0 -- true >&-' "$CONTEST"
	[ "$(wc -l <"$R")" -eq 2 ]
	# every line a result, none of the table's
	jq -e -s 'length == 2 and all(.status == "ok")' "$R"
	run -1 grep -q 'Kernel' "$R"
}
