#!/usr/bin/env bats
# SIGINT and SIGTERM: stop everything, keep completed runs, exit 128+sig.

load helpers

# interrupt SIG: start a long session, let two runs finish, send SIG.
interrupt() {
	env CONTEST_TEST_MARK="$MARK" "$CONTEST" -n 5 --lead 0.2 -l fork_load:procs=2 \
	    -- sleep 1 >out 2>err 3>&- &
	pid=$!
	for _ in $(seq 100); do
		[ -s "$R" ] && [ "$(wc -l <"$R")" -ge 2 ] && break
		sleep 0.1
	done
	[ "$(wc -l <"$R")" -ge 2 ]
	sleep 0.5	# now inside a run, load and job alive
	[ -n "$(marked_pids)" ]
	kill -"$1" "$pid"
	st=0
	wait "$pid" || st=$?
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

@test "no zombies pile up while a fork load runs" {
	env CONTEST_TEST_MARK="$MARK" "$CONTEST" -n 1 --lead 0.5 -l fork_load:procs=2 \
	    -- sleep 2 >out 2>err 3>&- &
	pid=$!
	sleep 1.5
	z=0
	for p in $(marked_pids); do
		[ "$(awk '{print $3}' /proc/$p/stat 2>/dev/null)" = Z ] && z=$((z + 1))
	done
	wait "$pid"
	# A child between its exit and its reaping is a zombie for a moment;
	# at most one per forker may be caught in that state.
	[ "$z" -le 2 ]
}

@test "SIGINT during a long job ends the session at once, job and load included" {
	env CONTEST_TEST_MARK="$MARK" "$CONTEST" -n 1 --lead 0 -l fork_load \
	    -- sleep 60 >out 2>err 3>&- &
	pid=$!
	sleep 1.5	# no_load's job is running
	kill -INT "$pid"
	start=$SECONDS
	st=0
	wait "$pid" || st=$?
	[ "$st" -eq 130 ]
	[ $((SECONDS - start)) -le 3 ]
	no_leftovers 20
	[ ! -s "$R" ]	# the interrupted run is not recorded
	grep -q 'interrupted by signal 2: 0 completed runs kept' err
}
