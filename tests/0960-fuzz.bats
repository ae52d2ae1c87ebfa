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
