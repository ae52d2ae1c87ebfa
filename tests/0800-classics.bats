#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/classics: each historic experiment in its quick mode, with the
# lines of the original layout and the historic figures beside them.

load helpers

classic() {
	marked "$TOP_SRCDIR/scripts/classics/$1" --quick
}

@test "classic 1, fork against thread: the 2004 layout at 20, 128 and 255 samples" {
	run classic fork-vs-thread
	[ "$status" -eq 0 ]
	for n in 20 128 255; do
		grep -qx "This box, $n samples:" <<<"$output"
		grep -qx "Fork failures: 0 (success: $n)" <<<"$output"
		grep -qx "Thread failures: 0 (success: $n)" <<<"$output"
	done
	[ "$(grep -c '^Average fork time: [0-9.]* msecs$' <<<"$output")" -eq 3 ]
	[ "$(grep -c '^Total fork/thread ratio: [0-9.]*$' <<<"$output")" -eq 3 ]
	# total = average x samples, as the post computed it
	awk '/^This box, 255/ { on = 1 } on && /^Average thread time/ { a = $4 } on && /^Total thread time/ { t = $4; exit }
	    END { exit !(t - a * 255 < 0.001 && a * 255 - t < 0.001) }' <<<"$output"
	grep -q 'Box B, Linux 2.6.6-mm5, P4-2.6 GHz:    9.61 / 9.38 / 9.39' <<<"$output"
}

@test "classic 2, fork+exit of sleeping children: the 2005 line, and 494 usec then" {
	run classic fork-exit
	[ "$status" -eq 0 ]
	[[ "$output" =~ Average\ per\ process\ fork\+exit\ time\ is\ [0-9]+\ usecs\ \[diff=[0-9]+,\ max=200\]\. ]]
	grep -q '2.6.11-rc4-mm1  *494 usec' <<<"$output"
}

@test "classic 3, exec static and dynamic: three figures and their ratio" {
	run classic exec-static-dynamic
	[ "$status" -eq 0 ]
	for m in fork exec-static exec-dynamic; do
		grep -Eq "^$m +[0-9]+\.[0-9] microseconds for creation and termination" <<<"$output"
	done
	grep -Eq '^dynamic/static [0-9]+\.[0-9]{2};' <<<"$output"
	grep -q 'about 110 microseconds' <<<"$output"
}

@test "classic 4, forkbomb realloc: the time(1) lines of -m and -M" {
	run classic forkbomb-realloc
	[ "$status" -eq 0 ]
	grep -Eq '^\./forkbomb -l 8 -i 256 -m --quit > /dev/null  [0-9.]+s user [0-9.]+s system [0-9]+% cpu [0-9.]+ total$' <<<"$output"
	grep -Eq '^\./forkbomb -l 8 -i 256 -M --quit > /dev/null  [0-9.]+s user [0-9.]+s system [0-9]+% cpu [0-9.]+ total$' <<<"$output"
	grep -q 'FreeBSD 5.2' <<<"$output"
}

@test "classic 5, contest fork_load: the 2002 blocks and Children forked" {
	run classic contest-fork-load
	[ "$status" -eq 0 ]
	[ "$(grep -c '^Kernel                  Time            CPU             Ratio$' <<<"$output")" -eq 4 ]
	grep -Eq "^$(uname -r | sed 's/[.]/[.]/g') +0\.[0-9]{2} +[0-9]+% +1\.00$" <<<"$output"
	grep -Eq "^$(uname -r | sed 's/[.]/[.]/g'): Children forked: [1-9][0-9]*$" <<<"$output"
	grep -q '^2.4.19: Children forked: 32750$' <<<"$output"
	[ ! -e contest-results ]
}

@test "classics: an unknown option is refused with exit 2" {
	for s in fork-vs-thread fork-exit exec-static-dynamic forkbomb-realloc contest-fork-load; do
		run "$TOP_SRCDIR/scripts/classics/$s" --bogus
		[ "$status" -eq 2 ]
	done
}
