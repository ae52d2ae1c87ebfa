#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/soak: its command line.  The soak itself (minutes of sessions
# sent signals at random) runs in .ci/run as `scripts/soak 3`, and for an
# hour by hand (doc/safety.md).

load helpers

@test "soak: bad arguments get usage and exit 2, and start nothing" {
	for a in "" 0 1441 x "3 4" "--seed" "--seed x 3" "--bogus 3"; do
		# shellcheck disable=SC2086
		run --separate-stderr env CONTEST="$CONTEST" "$TOP_SRCDIR/scripts/soak" $a
		[ "$status" -eq 2 ]
		[ -z "$output" ]
		[[ "$stderr" == *"usage: scripts/soak [--dir DIR] [--seed N] [--keep] MINUTES"* ]]
	done
	run --separate-stderr env CONTEST=/nonexistent "$TOP_SRCDIR/scripts/soak" 1
	[ "$status" -eq 2 ]
	[ "$stderr" = "soak: no /nonexistent: build it first (make)" ]
}
