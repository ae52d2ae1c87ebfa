#!/usr/bin/env bats
# The project's promises about itself: Quick start, CI, man page.

load helpers

@test "README Quick start is exactly two command lines, the second is what CI runs" {
	block=$(awk '/^## Quick start/ {f=1; next} /^## / {f=0} f && /^    [^ ]/' "$TOP_SRCDIR/README")
	[ "$(wc -l <<<"$block")" -eq 2 ]
	second=$(sed -n 2p <<<"$block" | sed 's/^    //')
	[ "$second" = "scripts/bootstrap && make check" ]
	grep -qF "$second" "$TOP_SRCDIR/.ci/run"
	grep -q 'fsanitize=address,undefined' "$TOP_SRCDIR/.ci/run"
}

@test "every run option in --help is in the man page" {
	run contest run --help
	[ "$status" -eq 0 ]
	for opt in $(grep -o -- '--[a-z][a-z-]*' <<<"$output" | sort -u); do
		# as troff writes it: every hyphen escaped
		grep -qF -- "${opt//-/\\-}" "$TOP_SRCDIR/contest/contest.1" || {
			echo "# $opt missing from contest.1" >&3; false; }
	done
}

@test "the man page renders without warnings" {
	command -v groff >/dev/null || skip "no groff"
	run sh -c 'groff -man -Tutf8 -ww -z "$1" 2>&1' _ "$TOP_SRCDIR/contest/contest.1"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

# A PATH of everything here but the commands named, and no apt-get.
fake_path() {
	fake="$BATS_TEST_TMPDIR/bin"
	mkdir -p "$fake"
	for p in /usr/local/bin/* /usr/bin/* /bin/*; do
		c=${p##*/}
		case " apt-get $* " in *" $c "*) continue ;; esac
		[ -e "$fake/$c" ] || ln -s "$p" "$fake/$c"
	done
}

@test "bootstrap names the missing packages and stops when it cannot install" {
	fake_path jq
	run --separate-stderr env PATH="$fake" sh "$TOP_SRCDIR/scripts/bootstrap"
	[ "$status" -eq 1 ]
	[ "$stderr" = "bootstrap: missing packages: jq
bootstrap: install them as root (apt-get install jq) and run me again" ]
	[ -z "$output" ]
}

@test "bootstrap tries the compiler: a cc that cannot link means gcc and libc6-dev" {
	fake_path cc
	# a compiler driver without the C library, as gcc without libc6-dev
	printf '#!/bin/sh\necho "cannot find crt1.o" >&2\nexit 1\n' >"$fake/cc"
	chmod +x "$fake/cc"
	run --separate-stderr env PATH="$fake" CC=cc sh "$TOP_SRCDIR/scripts/bootstrap"
	[ "$status" -eq 1 ]
	[[ "$stderr" == "bootstrap: missing packages: gcc libc6-dev"* ]]
}
