#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# contest list: loads with summaries, options, defaults and counters.

load helpers

@test "list shows every load with options, defaults and counters" {
	run --separate-stderr contest list
	[ "$status" -eq 0 ]
	grep -q '^no_load$' <<<"$output"
	grep -q '^fork_load$' <<<"$output"
	grep -q 'procs=N .*(default 1, 1..256)' <<<"$output"
	grep -q 'method=fork|vfork .*(default fork)' <<<"$output"
	grep -q 'children_forked .*Children forked.*(headline)' <<<"$output"
	grep -q 'fork_failures' <<<"$output"
	[ -z "$stderr" ]
}

@test "list LOAD shows only that load" {
	run contest list fork_load
	[ "$status" -eq 0 ]
	grep -q '^fork_load$' <<<"$output"
	! grep -q '^no_load$' <<<"$output"
}

@test "list of an unknown load is exit 2" {
	run --separate-stderr contest list nosuch
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest list: unknown load 'nosuch'" ]
	[ -z "$output" ]
}

@test "every load option that list shows is accepted by -l" {
	run contest list
	[ "$status" -eq 0 ]
	while read -r kv; do
		key=${kv%%=*}
		val=${kv#*=}
		case $val in N) val=1 ;; *\|*) val=${val%%|*} ;; esac
		run contest --warmup 0 -n 1 --lead 0 -l "fork_load:$key=$val" -- true
		[ "$status" -eq 0 ]
	done < <(sed -n '/^fork_load$/,/^[a-z]/s/^      \([a-z]*=[^ ]*\) .*/\1/p' <<<"$output")
}
