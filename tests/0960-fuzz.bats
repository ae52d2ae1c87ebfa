#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The fuzz targets' inputs replayed: the seeds made from the test data and
# every finding kept in tests/fuzz/regress, fed to each target built with
# the ordinary compiler (with the sanitizers in CI's second pass).

load helpers

replay() {
	local t=$1 bin="$TOP_BUILDDIR/tests/fuzz/$1-replay"
	[ -x "$bin" ] || skip "no $bin (make check builds it)"
	sh "$TOP_SRCDIR/tests/fuzz/seeds.sh" "$TOP_SRCDIR" seeds
	mapfile -t inputs < <(find seeds/"$t" "$TOP_SRCDIR/tests/fuzz/regress/$t" -type f)
	[ "${#inputs[@]}" -ge 1 ]
	run --separate-stderr "$bin" "${inputs[@]}"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "replayed ${#inputs[@]} inputs" ]
	[[ "$stderr" != *"ERROR: AddressSanitizer"* ]]
	[[ "$stderr" != *"runtime error"* ]]
}

@test "fuzz replay: the results reader, report and compare" {
	replay reader
}

@test "fuzz replay: the load-spec parser" {
	replay loadspec
	# the finding it made: a newline in a spec gave a two-line error
	run --separate-stderr contest -l $'fork_load\nx' true
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest: -l: the load spec holds a control character (0x0a at byte 10); put a multi-line command in a script" ]
}

@test "fuzz replay: the number parser" {
	replay num
}

@test "fuzz replay: run, report and compare argument parsing" {
	replay args
}

@test "fuzz replay: one input's --figure names are gone at the next (the parse keeps them in its own query)" {
	bin="$TOP_BUILDDIR/tests/fuzz/args-replay"
	[ -x "$bin" ] || skip "no $bin (make check builds it)"
	# report --html site --figure with 420 names, 2,099 characters,
	# twice: the second alone fits, the two together would not (4,096)
	for i in 1 2; do
		{ printf '\001--html\000site\000--figure\000'; seq -f 'm%03g' 420 | paste -sd, | tr -d '\n'; } >in$i
	done
	run -0 --separate-stderr "$bin" in1 in2
	[ "${lines[-1]}" = "replayed 2 inputs" ]
	[ "$(grep -c 'no results in /nonexistent/contest-fuzz-results' <<<"$stderr")" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 2 ]
	[ ! -e site ]
}
