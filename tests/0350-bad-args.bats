#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Every line of tests/data/bad-args: the status it names (2 for bad input,
# 126/127 for a command that cannot run), exactly one line on stderr,
# nothing on stdout, no results written, no process left.

load helpers

@test "every bad-args case: its status, one stderr line, empty stdout, no run" {
	local n=0 bad=0
	while read -r want rest; do
		case $want in '#'* | '') continue ;; esac
		n=$((n + 1))
		eval "set -- $rest"
		export CONTEST_RESULTS="$BATS_TEST_TMPDIR/r$n"
		run --separate-stderr contest "$@"
		if [ "$status" -ne "$want" ] || [ -n "$output" ] ||
		    [ "$(printf '%s\n' "$stderr" | wc -l)" -ne 1 ] ||
		    [[ "$stderr" != contest:* ]] || [ -e "$CONTEST_RESULTS" ]; then
			echo "# case $n ($rest): status $status (want $want), stdout '$output', stderr '$stderr'" >&3
			bad=$((bad + 1))
		fi
	done < "$TOP_SRCDIR/tests/data/bad-args"
	echo "# $n cases run" >&3
	[ "$n" -ge 50 ]
	[ "$bad" -eq 0 ]
	# doc/safety.md says how many
	grep -q "^  and starts nothing: \`tests/data/bad-args\` holds $n cases, run in the$" "$TOP_SRCDIR/doc/safety.md"
}
