#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Every load worker is the contest-load program, exec'd by the driver
# into the leanest image the toolchain links: what a fork load measures
# includes the image each fork copies.  The driver hands it the load's
# values, the shared page and the ready pipe; a worker that cannot run
# is a load that did not start.

load helpers

# contest copied alone into bin/, with WORKER (a file) beside it as
# contest-load, or nothing beside it when WORKER is empty.
lone_contest() {
	mkdir -p bin
	cp "$CONTEST" bin/contest
	[ -z "$1" ] || install -m 755 "$1" bin/contest-load
}

@test "each worker runs contest-load: static where configure could link it, no libm, holding only stdio" {
	run contest --warmup 0 -n 1 --lead 0 -l fork_load:procs=2 -- sh -c '
	    for p in $(pgrep -x contest-load); do
		grep -q "CONTEST_TEST_MARK='"$MARK"'" /proc/$p/environ 2>/dev/null || continue
		[ "$(cat /proc/$p/oom_score_adj)" = 1000 ] || continue
		echo "$p $(awk "{print \$4}" /proc/$p/stat) $(tr "\0" " " < /proc/$p/cmdline)" >> workers.txt
		awk "{print \$6}" /proc/$p/maps | sort -u > maps.$p
		ls /proc/$p/fd | sort -n | tr "\n" " " > fds.$p
	    done'
	[ "$status" -eq 0 ]
	[ "$(wc -l < workers.txt)" -eq 2 ]
	while read -r p ppid name abi load worker parent procs method; do
		[ "$name" = contest-load ]
		# the driver forked it, and it knows its parent
		[ "$parent" = "$ppid" ]
		[ "$load" = fork_load ]
		[ "$procs $method" = "2 0" ]
		[[ "$abi" == */1 ]]
		[ "$(cat "fds.$p")" = "0 1 2 " ]
		# static: nothing mapped but itself (a sanitizer build is
		# dynamic, and its runtime brings libm along)
		if grep -qx 'WORKER_LDFLAGS = -static' "$TOP_BUILDDIR/Makefile"; then
			run ! grep -q 'ld-linux\|libc\.so\|libm\.so' "maps.$p"
		else
			grep -q 'ld-linux' "maps.$p"
		fi
		echo "$worker" >> indexes
	done < workers.txt
	[ "$(sort indexes | tr '\n' ' ')" = "0 1 " ]
	# and libm is none of what it links
	command -v readelf >/dev/null || skip "no readelf"
	run readelf -d "$(dirname "$CONTEST")/contest-load"
	[ "$status" -eq 0 ]
	run ! grep -q 'NEEDED.*libm\.' <<<"$output"
}

@test "without its worker program a load does not start, and says where it looked" {
	lone_contest ""
	run --separate-stderr marked bin/contest --warmup 0 -n 1 --lead 0 -l fork_load -- true
	[ "$status" -eq 3 ]
	[ "$(rq -r '.[1].status')" = load_failed ]
	[[ "$stderr" == *"fork_load did not start: fork_load: cannot run the load worker /"*"/contest-load: No such file or directory"* ]]
	no_leftovers 50
}

@test "the driver passes the load's values, the page on 3 and the ready pipe on 4" {
	cat > fake <<EOF2
#!/bin/sh
echo "\$@" > "$PWD/args"
ls -l /proc/self/fd/ | awk '\$9 ~ /^[34]\$/ {print \$9, \$11}' > "$PWD/fds"
EOF2
	lone_contest fake
	run --separate-stderr marked bin/contest --warmup 0 -n 1 --lead 0 \
	    -l "exec_load:cmd=echo a,b" -- true
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"exec_load:cmd=echo a,b did not start: 1 of 1 workers exited before ready"* ]]
	read -r abi load worker parent cmd < args
	[[ "$abi" == */1 ]]
	[ "$load $worker" = "exec_load 0" ]
	[ "$cmd" = "secho a,b" ]
	[ "$parent" -gt 1 ]
	grep -q '^3 /memfd:' fds
	grep -q '^4 pipe:' fds
}

@test "contest-load run by hand does nothing and exits 1" {
	worker=$(dirname "$CONTEST")/contest-load
	run "$worker" fork_load
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	run "$worker" 3</dev/null
	[ "$status" -eq 1 ]
}
