#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
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
		grep -qF -- "${opt//-/\\-}" "$TOP_BUILDDIR/contest/contest.1" || {
			echo "# $opt missing from contest.1" >&3; false; }
	done
}

# The options named in text on stdin, one a line, sorted.
opts() { grep -oE -- '(^|[[ ])--?[a-zA-Z][a-z-]*' | sed 's/^[[ ]//' | sort -u; }

@test "each subcommand's usage names the options of its man synopsis, and its help describes no other" {
	local s start bad=0 line
	for s in run report compare list plan; do
		run contest "$s" --help
		[ "$status" -eq 0 ]
		usage=$(sed '/^$/q' <<<"$output" | sed 's/^usage: contest \[\{0,1\}[a-z]*\]\{0,1\}//' | opts)
		case $s in run) start='^\.RB \[ run \]' ;; *) start="^\\.B contest $s\$" ;; esac
		man=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' "$TOP_SRCDIR/contest/contest.1.in" |
		    sed -n "/$start/,/^\.br/p" | sed 's/\\-/-/g' | opts)
		if [ "$usage" != "$man" ]; then
			echo "# $s: usage and man synopsis differ:" >&3
			diff <(echo "$usage") <(echo "$man") | sed 's/^/# /' >&3
			bad=$((bad + 1))
		fi
		# each described option (-x, --long: either form) is in the usage
		while read -r line; do
			[ "$(opts <<<"$line" | grep -cxF -f - <(echo "$usage"; echo -h; echo --help))" -gt 0 ] || {
				echo "# $s: '$line' is described but not in the usage" >&3; bad=$((bad + 1)); }
		done < <(sed '1,/^$/d' <<<"$output" | grep -E '^ +-' | sed -E 's/^ +(-[^ ]+(, --?[a-z-]+)?).*/\1/')
	done
	[ "$bad" -eq 0 ]
}

@test "the man page's results schema is the one contest writes, and each --format list is what the command accepts" {
	run -0 contest --warmup 0 -n 1 --lead 0 -- true
	n=$(rq -r '.[0].schema')
	[ "$(grep -c "^One JSON object per run (schema $n: its JSON schema is$" "$TOP_SRCDIR/contest/contest.1.in")" -eq 1 ]
	for s in report compare history plan; do
		# what it accepts, as its refusal of a format lists them
		run -2 --separate-stderr contest "$s" --format nosuch
		took=$(sed -n "s/.*'nosuch' is not //p" <<<"$stderr" | sed 's/,\{0,1\} or /, /' | tr -d ' ' | tr , '\n' | sort)
		[ -n "$took" ]
		# what its man paragraph names, in bold
		said=$(sed -n "/^\.\\\\\" the formats of $s /,/^\.\(TP\|PP\|\\\\\"\)/p" "$TOP_SRCDIR/contest/contest.1.in" |
		    sed -n 's/^\.BR\{0,1\} \([a-z]*\)\( ,\)\{0,1\}$/\1/p' | sort -u)
		if [ "$took" != "$said" ]; then
			echo "# $s accepts $(echo $took), its man page names $(echo $said)" >&3
			return 1
		fi
	done
}

@test "the man page renders without warnings" {
	command -v groff >/dev/null || skip "no groff"
	run sh -c 'groff -man -Tutf8 -ww -z "$1" 2>&1' _ "$TOP_BUILDDIR/contest/contest.1"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# whatever the prefix: one as long as a clone's deep distcheck path
	long=/home/someone/src/a-directory-of-forty-characters-1234/contest-9.9/_build/sub/../_inst/libexec/contest
	for page in contest/contest.1 forktime/forktime.1; do
		make -s -C "$TOP_BUILDDIR" man-sed pkglibexecdir="$long" docdir="$long/doc" <"$TOP_SRCDIR/$page.in" >page.1
		grep -qF 'libexec/\:contest' page.1
		[ "$page" != contest/contest.1 ] || grep -qF 'contest/\:doc/doc/report.schema.json' page.1
		run sh -c 'groff -m"$1" -Tutf8 -ww -z page.1 2>&1' _ "$([ "$page" = contest/contest.1 ] && echo an || echo doc)"
		[ "$status" -eq 0 ]
		[ -z "$output" ]
	done
}

# A PATH of everything here but the commands named, and no apt-get.
fake_path() {
	fake="$BATS_TEST_TMPDIR/bin"
	mkdir -p "$fake"
	# a directory at a time, the first of a name kept (ln refuses the
	# rest): a process a program took seconds on a busy host
	for d in /usr/local/bin /usr/bin /bin; do
		ln -s "$d"/* "$fake"/ 2>/dev/null || :
	done
	for c in apt-get "$@"; do
		rm -f "$fake/$c"
	done
}

@test "bootstrap names the missing packages and stops when it cannot install" {
	fake_path make
	run --separate-stderr env PATH="$fake" sh "$TOP_SRCDIR/scripts/bootstrap"
	[ "$status" -eq 1 ]
	[ "$stderr" = "bootstrap: missing packages: make
bootstrap: install them as root (apt-get install make) and run me again" ]
	[ -z "$output" ]
}

# hold_lock FILE: a process of the test's holding a POSIX write lock on
# FILE, as apt holds its own, until FILE.release appears; FILE.held says
# it holds it, $LOCK_PID is its pid.
hold_lock() {
	marked_bg python3 -c 'import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.lockf(fd, fcntl.LOCK_EX)
open(sys.argv[1] + ".held", "w").close()
while not os.path.exists(sys.argv[1] + ".release"):
    time.sleep(0.05)' "$1"
	LOCK_PID=$!
	wait_until 600 test -e "$1.held"
}

@test "aptwait: apt-get runs once no other apt holds its locks, said once and for whom; after APT_LOCK_WAIT it runs and fails as apt does" {
	fake_path
	# apt-get as it fails where a lock is held, else records its arguments
	cat >"$fake/apt-get" <<'EOF'
#!/bin/sh
[ ! -e "$HELD" ] || { echo "E: Could not get lock $HELD. It is held by process 1 (apt-get)" >&2; exit 100; }
echo "$*" >>"$CALLS"
EOF
	chmod +x "$fake/apt-get"
	export APTWAIT_LOCKS="$PWD/lists-lock $PWD/dpkg-lock" CALLS=$PWD/calls HELD=$PWD/dpkg-lock.held
	run -2 --separate-stderr env PATH="$fake" APT_LOCK_WAIT=soon sh "$TOP_SRCDIR/scripts/aptwait" bootstrap update
	[ "$stderr" = "bootstrap: APT_LOCK_WAIT='soon' is not a number of seconds" ]
	# a lock holder: python3's fcntl, as apt's own
	need python3 python3
	hold_lock dpkg-lock
	marked_bg env PATH="$fake" sh "$TOP_SRCDIR/scripts/aptwait" bootstrap install -y jq 2>err
	pid=$!
	wait_until 600 grep -q waiting err
	# it waits, and apt-get has not run (it would have failed)
	[ "$(cat err)" = "bootstrap: waiting for another apt, pid $LOCK_PID (python3), which holds $PWD/dpkg-lock (at most 300 s)" ]
	[ ! -e calls ]
	running "$pid"
	rm dpkg-lock.held
	touch dpkg-lock.release
	wait "$LOCK_PID"
	wait "$pid"
	[ "$(wc -l <err)" -eq 1 ]
	# with what is left of the 300 s as apt's own wait
	[[ "$(cat calls)" =~ ^-o\ DPkg::Lock::Timeout=([0-9]+)\ install\ -y\ jq$ ]]
	[ "${BASH_REMATCH[1]}" -gt 0 ]
	[ "${BASH_REMATCH[1]}" -le 300 ]
	# a lock held past APT_LOCK_WAIT: apt-get runs with no time left, and
	# its own failure is the result
	rm -f calls dpkg-lock.release
	hold_lock dpkg-lock
	run --separate-stderr env PATH="$fake" APT_LOCK_WAIT=1 sh "$TOP_SRCDIR/scripts/aptwait" bootstrap update -qq
	[ "$status" -eq 100 ]
	[ "${stderr_lines[0]}" = "bootstrap: waiting for another apt, pid $LOCK_PID (python3), which holds $PWD/dpkg-lock (at most 1 s)" ]
	[ "${stderr_lines[1]}" = "E: Could not get lock $PWD/dpkg-lock.held. It is held by process 1 (apt-get)" ]
	[ ! -e calls ]
	touch dpkg-lock.release
	wait "$LOCK_PID"
}

@test "bootstrap --tests: the suite's tools, apart from the build's; without bats it stops, without another the tests skip" {
	# a test tool missing is not the build's business
	fake_path jq make
	run -1 --separate-stderr env PATH="$fake" sh "$TOP_SRCDIR/scripts/bootstrap"
	[ "$stderr" = "bootstrap: missing packages: make
bootstrap: install them as root (apt-get install make) and run me again" ]
	# --tests: jq named, and the suite goes on; it configures nothing
	run -0 --separate-stderr env PATH="$fake" sh "$TOP_SRCDIR/scripts/bootstrap" --tests
	[[ "${stderr%%$'\n'*}" == "bootstrap: missing packages:"*" jq"* ]]
	[ "${stderr##*$'\n'}" = "bootstrap: the tests that need them skip, saying so" ]
	[ -z "$output" ]
	# without bats there is no suite
	rm -r "$fake"
	fake_path jq make bats
	run -1 --separate-stderr env PATH="$fake" sh "$TOP_SRCDIR/scripts/bootstrap" --tests
	[[ "${stderr%%$'\n'*}" == "bootstrap: missing packages: bats"* ]]
	[[ "${stderr##*$'\n'}" == "bootstrap: install them as root (apt-get install bats"*") and run me again" ]]
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

# The files git tracks, or a skip where the tree is not a clone (distcheck)
# or there is no git: call it once outside a pipe first, so that it can skip.
tracked() {
	command -v git >/dev/null || skip "no git"
	# (distcheck's tree sits inside the clone, untracked: not a clone's top)
	[ "$(git -C "$TOP_SRCDIR" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$TOP_SRCDIR" && pwd -P)" ] ||
		skip "not a git clone"
	git -C "$TOP_SRCDIR" ls-files
}

@test "every tracked source, script, test and man page opens with its SPDX line" {
	tracked >/dev/null
	local n=0 bad=0 f
	while read -r f; do
		case $f in
		tests/data/* | tests/fuzz/regress/* | build-aux/* | *.jsonl | *.json | *.svg | *.md | \
		    README | COPYING | .gitignore | debian/changelog | debian/copyright | debian/control | \
		    debian/source/format | debian/*.lintian-overrides) continue ;;
		esac
		n=$((n + 1))
		head -n 2 "$TOP_SRCDIR/$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-or-later' || {
			echo "# $f: no SPDX line in its first two lines" >&3; bad=$((bad + 1)); }
	done < <(tracked)
	echo "# $n files checked" >&3
	[ "$n" -ge 150 ]
	[ "$bad" -eq 0 ]
	cmp -s "$TOP_SRCDIR/COPYING" /usr/share/common-licenses/GPL-2 ||
		[ ! -e /usr/share/common-licenses/GPL-2 ]
	grep -q 'GNU GENERAL PUBLIC LICENSE' "$TOP_SRCDIR/COPYING"
	grep -q 'Version 2, June 1991' "$TOP_SRCDIR/COPYING"
}

@test "the tarball holds every tracked file but .gitignore and build-aux/.keep" {
	tracked >/dev/null
	make -s -C "$TOP_BUILDDIR" distdir distdir="$BATS_TEST_TMPDIR/d" >/dev/null
	find "$BATS_TEST_TMPDIR/d" -type f | sed "s|^$BATS_TEST_TMPDIR/d/||" | sort >dist
	# (its results files are fixtures, one wrong on purpose: not this test's)
	rm -rf "$BATS_TEST_TMPDIR/d"
	tracked | grep -vxE '\.gitignore|build-aux/\.keep' | sort >git
	[ "$(wc -l <dist)" -ge 300 ]
	run -0 comm -23 git dist
	[ -z "$output" ]
	# a file left out is seen
	grep -v '^scripts/bench/changepoints$' dist >dist2
	run -0 comm -23 git dist2
	[ "$output" = scripts/bench/changepoints ]
}

@test "the top level tracks only its short list: no scratch output, no fuzzer artefacts" {
	local f bad=0
	tracked >/dev/null
	while read -r f; do
		case ${f%%/*} in
		.ci | .gitignore | COPYING | Makefile.am | README | build-aux | configure.ac | contest | \
		    debian | doc | forkbomb | forktime | loads | scripts | tests) ;;
		*) echo "# $f is tracked at the top level" >&3; bad=$((bad + 1)) ;;
		esac
	done < <(tracked)
	[ "$bad" -eq 0 ]
	# and what a fuzzer, a core dump or a session leaves is ignored anywhere
	for f in crash-1 leak-1 timeout-1 oom-1 core tests/contest-results/results.jsonl; do
		git -C "$TOP_SRCDIR" check-ignore -q --no-index "$f" || {
			echo "# $f is not ignored" >&3; bad=$((bad + 1)); }
	done
	[ "$bad" -eq 0 ]
}
