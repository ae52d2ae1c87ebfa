#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# forkbomb(1): forkbomb 1.4's command line, capped bombs, self-timing,
# and nothing left behind.

load helpers

fb() {
	local ra=
	[ "$(id -u)" -ne 0 ] || ra=--runasroot
	marked "$FORKBOMB" $ra "$@"
}

# fb_bg ARGS: forkbomb in the background, its own pid in FBPID (the
# marker's env execs it).  A background command ignores SIGINT in a
# non-interactive shell: forkbomb must install its handler regardless.
fb_bg() {
	local ra=
	[ "$(id -u)" -ne 0 ] || ra=--runasroot
	marked_bg "$FORKBOMB" $ra "$@"
	FBPID=$!
}

# field NAME: the value on the report line "NAME: value".
field() {
	awk -v k="$1" -F': *' '$1 == k {print $2; exit}' <<<"$output"
}

# How many forkbomb processes there are now.
bombs() {
	ps -e -o comm= | grep -cx forkbomb || true
}

@test "-l 8 -i 256 -M --quit grows to 8 MB in 8 steps of 1 MiB and says so" {
	run fb -l 8 -i 256 -M --quit
	[ "$status" -eq 0 ]
	[ "$(field 'Realloc calls')" = 8 ]
	[ "$(field 'MB grown')" = 8.0 ]
	[ "$(field 'MB touched')" = 8.0 ]
	[ "$(field 'Ended by')" = "--quit (actions done)" ]
	[[ "$(field 'Wall time')" =~ ^[0-9]+\.[0-9]{3}\ s$ ]]
	[[ "$(field 'System time')" =~ ^[0-9]+\.[0-9]{3}\ s$ ]]
}

@test "-M faults in every new page, -m does not" {
	run fb -l 32 -i 256 -M --quit
	[ "$status" -eq 0 ]
	touched=$(field 'Minor faults')
	run fb -l 32 -i 256 -m --quit
	[ "$status" -eq 0 ]
	untouched=$(field 'Minor faults')
	[ "$(field 'MB touched')" = 0.0 ]
	echo "# minor faults: -M $touched, -m $untouched" >&3
	# 32 MB is 8192 pages of 4 KiB.
	[ "$touched" -ge 8192 ]
	# glibc grows a large block with mremap and touches nothing; ASan's
	# realloc copies the block each time, so there -m faults as much.
	if ldd "$FORKBOMB" 2>/dev/null | grep -q libasan; then
		skip "-m faults like -M under ASan's allocator (-M: $touched, -m: $untouched)"
	fi
	[ "$untouched" -lt 2048 ]
}

@test "limits past the 1.4 overflow at 2048 MB work; what cannot fit is refused" {
	run fb -l 4096 -i 262144 -m --quit
	[ "$status" -eq 0 ]
	[ "$(field 'MB grown')" = 4096.0 ]
	[ "$(field 'Realloc calls')" = 4 ]
	run --separate-stderr fb -l 99999999999999999 -m
	[ "$status" -eq 2 ]
	[[ "$stderr" == "forkbomb: -l '99999999999999999': too large (allowed 1.."* ]]
}

@test "-f --maxprocs 50 never passes 50 processes and leaves none" {
	fb_bg -f --maxprocs 50 -t 2 > out.txt
	pid=$FBPID
	# seen from outside once it has spread: at the cap, not past it
	wait_until 600 eval '[ "$(bombs)" -ge 40 ] || ! kill -0 $pid 2>/dev/null'
	now=$(bombs)
	echo "# forkbomb processes once spread: $now" >&3
	[ "$now" -le 50 ]
	wait "$pid"
	output=$(cat out.txt)
	[ "$(field 'Ended by')" = "safety alarm" ]
	[ "$(field 'Processes reached')" -le 50 ]
	[ "$(field 'Processes forked')" -eq 48 ]
	[ "$(ps -e -o comm= | grep -cx forkbomb || true)" -eq 0 ]
}

@test "-z makes unreaped zombies up to the cap and reaps them at the end" {
	run fb -z --maxprocs 40 --quit
	[ "$status" -eq 0 ]
	[ "$(field 'Processes forked')" = 38 ]
	[ "$(field 'Processes reached')" = 40 ]
}

@test "-f under RLIMIT_NPROC stops at the limit, counting the refusal" {
	user_results
	run marked setpriv --reuid=$((64995 + UID_SHIFT)) --regid=$((64995 + UID_SHIFT)) --clear-groups \
	    bash -c 'ulimit -u 15 && exec "$1" -f --quit --maxprocs 500' _ "$UFORKBOMB"
	[ "$status" -eq 0 ]
	[ "$(field 'Fork failures')" -gt 0 ]
	[ "$(field 'Processes reached')" -le 15 ]
}

@test "SIGINT and SIGTERM end everything, report, and exit 128+sig" {
	for sig in INT TERM; do
		fb_bg -f --maxprocs 30 --infinite > out.txt
		pid=$FBPID
		wait_until 600 eval '[ "$(bombs)" -ge 20 ]'
		kill -s $sig $pid
		st=0
		wait $pid || st=$?
		[ "$st" -eq $((128 + $(kill -l $sig))) ]
		output=$(cat out.txt)
		[ "$(field 'Ended by')" = signal ]
		no_leftovers 5
	done
}

@test "kill -9 of forkbomb takes the whole bomb down" {
	fb_bg -f --maxprocs 30 --infinite > /dev/null
	pid=$FBPID
	wait_until 600 eval '[ "$(bombs)" -gt 10 ]'
	kill -9 $pid
	no_leftovers 20
}

@test "bad arguments: exit 2, one line; no action: exit 1" {
	for args in "-f -z" "-l 0 -m" "-l abc -m" "-l 8x -m" "-i 0 -m" "-t 0 -m" \
	    "--maxprocs 1 -f" "-m extra" "--bogus" "-l"; do
		run --separate-stderr fb $args
		[ "$status" -eq 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
		[[ "$stderr" == "forkbomb: "* ]]
	done
	run --separate-stderr fb
	[ "$status" -eq 1 ]
	[ "$stderr" = "Nothing to do!" ]
}

@test "root without --runasroot is refused" {
	[ "$(id -u)" -eq 0 ] || skip "not root"
	run --separate-stderr marked "$FORKBOMB" -m --quit
	[ "$status" -eq 1 ]
	[ "$stderr" = "forkbomb: refusing to run as root without --runasroot" ]
}

@test "-V and -h" {
	run fb -V
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "forkbomb (contest) "*"after forkbomb 1.4 by Radim Kolar" ]]
	run fb -h
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: forkbomb "* ]]
	# Every long option of the help is in the man page.
	for o in $(grep -o -- '--[a-z]*' <<<"$output" | sort -u); do
		grep -q -- "${o#--}" "$TOP_BUILDDIR/forkbomb/forkbomb.1"
	done
}

@test "forkbomb as contest's foreground" {
	ra=
	[ "$(id -u)" -ne 0 ] || ra=--runasroot
	run contest --warmup 0 -n 1 --lead 0 -l fork_load -- "$FORKBOMB" $ra -l 8 -i 256 -M --quit
	[ "$status" -eq 0 ]
	rq 'map(.status) | join(" ")' | grep -qx "ok ok"
}
