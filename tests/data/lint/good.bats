#!/usr/bin/env bats
# Nothing here may be flagged: each check can fail its test.

@test "an and-list at the end" {
	true
	[ 1 -eq 1 ] && [ 2 -eq 2 ]
}

@test "explicit, conditions, quoted, heredoc" {
	[ 1 -eq 1 ] && [ 2 -eq 2 ] || false
	[ -e /nonexistent ] || skip "not here"
	if [ 1 -eq 1 ] && true; then :; fi
	while false && true; do :; done
	sh -c 'true && true'
	x=$(true && echo y)
	cat <<EOT
a && b
! c
EOT
	run -1 false
	run ! true
	run true
	[ "$status" -eq 0 ]
	! false
}

@test "ifs that check both ways, or end the test" {
	if [ -r /nonexistent ]; then
		[ "$(cat /nonexistent)" = 1 ]
	else
		[ ! -e /nonexistent ]
	fi
	if command -v no-such-tool >/dev/null; then no-such-tool --check; else true; fi
	if [ -r /nonexistent ] ||
	    [ -r /nonexistent/either ]; then
		skip "it is there"
	fi
	bad=0
	if [ -r /nonexistent ]; then
		[ -s /nonexistent ]
		bad=$((bad + 1))
	fi
	[ "$bad" -eq 0 ]
}

@test "a wait for the pid started" {
	sleep 0 &
	pid=$!
	wait "$pid"
}
