#!/usr/bin/env bats
# Every check here can never fail: tests/0010-lint.bats expects each flagged.

@test "a mid-test negation" {
	! grep -q x /dev/null
	true
}

@test "a mid-test and-list" {
	[ 1 -eq 2 ] && [ 2 -eq 2 ]
	true
}

@test "a mid-test and-list of commands" {
	false && true
	true
}

@test "a run whose status nobody reads" {
	run false
	[ -z "$output" ]
}

@test "a continued and-list" {
	[ 1 -eq 2 ] && \
	    [ 2 -eq 2 ]
	true
}

@test "a check inside an if with no else" {
	if command -v no-such-tool >/dev/null; then no-such-tool --check; fi
	true
}

@test "a check inside a longer if with no else" {
	if [ -r /nonexistent ] ||
	    [ -r /nonexistent/either ]; then
		echo "# it is there" >&3
		[ "$(cat /nonexistent)" = 1 ]
	fi
	true
}

@test "a bare wait" {
	sleep 0 &
	wait
}

teardown_file() {
	rm -f /nonexistent
}
