#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Every line of tests/data/bad-args: the status it names (2 for bad input,
# 126/127 for a command that cannot run), exactly one line on stderr
# (naming the subcommand that says it),
# nothing on stdout, no results written, no process left.

load helpers

# The line names who says it: "contest: " for a run, "contest SUBCOMMAND: "
# for another subcommand.
who_ok() {
	case $1 in
	report | compare | history | bisect | plan | list | help | version) [[ "$2" == "contest $1: "* ]] ;;
	*) [[ "$2" == "contest: "* ]] ;;
	esac
}

@test "every bad-args case: its status, one stderr line, empty stdout, no run" {
	local n=0 bad=0
	while read -r want rest; do
		case $want in '#'* | '') continue ;; esac
		n=$((n + 1))
		eval "set -- $rest"
		export CONTEST_RESULTS="$BATS_TEST_TMPDIR/r$n"
		run --separate-stderr contest "$@"
		who=ok
		who_ok "$1" "$stderr" || who=wrong
		if [ "$status" -ne "$want" ] || [ -n "$output" ] ||
		    [ "$(printf '%s\n' "$stderr" | wc -l)" -ne 1 ] ||
		    [ "$who" != ok ] || [ -e "$CONTEST_RESULTS" ]; then
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
