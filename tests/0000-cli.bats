#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The command line: help, version, and every bad input gives exit 2 with
# exactly one clear line on stderr and nothing on stdout.

load helpers

@test "--help lists the subcommands from the table" {
	run --separate-stderr contest --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: contest [run]"* ]]
	grep -q '^  run ' <<<"$output"
	grep -q '^  list ' <<<"$output"
	[ -z "$stderr" ]
}

# The version a build of this tree says, as an extended regex: the
# release in configure.ac, with the commit's hash and "-dirty" where the
# tree is a git clone and git is here to say so (the tests run against
# the tree they were built from), the release alone otherwise.  Without
# git here (a fresh root testing an installed package built elsewhere)
# nothing can say which commit: the release, or the form of one.
built_version() {
	local rel top
	rel=$(sed -n 's/^AC_INIT(\[contest\], \[\([^]]*\)\].*/\1/p' "$TOP_SRCDIR/configure.ac")
	rel=${rel//./\\.}
	g() { git -c safe.directory='*' -C "$TOP_SRCDIR" "$@" 2>/dev/null; }
	if ! command -v git >/dev/null; then
		echo "$rel(-g[0-9a-f]{12}(-dirty)?)?"
		return
	fi
	top=$(g rev-parse --show-toplevel) || top=
	if [ -z "$top" ] || [ "$top" != "$(cd "$TOP_SRCDIR" && pwd -P)" ] ||
	    g describe --tags --match 'v[0-9]*' >/dev/null; then
		echo "$rel"
		return
	fi
	echo "$rel-g$(g rev-parse --short=12 HEAD)$(g diff --quiet HEAD || echo -dirty)"
}

@test "--version and every results line say which code ran: the commit, -dirty, or the release" {
	want=$(built_version)
	[ -n "$want" ]
	run --separate-stderr contest --version
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" =~ ^contest\ $want$ ]]
	[ "${lines[1]}" = "Licence GPL-2.0-or-later: GNU GPL version 2 or later; no warranty (see COPYING)" ]
	# -V says the same, as forkbomb's does
	long=$output
	run -0 --separate-stderr contest -V
	[ "$output" = "$long" ]
	[ -z "$stderr" ]
	v=${lines[0]#contest }
	run -0 --separate-stderr "$FORKBOMB" --version
	[ "${lines[0]}" = "forkbomb (contest) $v, after forkbomb 1.4 by Radim Kolar" ]
	[ "${lines[1]}" = "Licence GPL-2.0-or-later: GNU GPL version 2 or later; no warranty (see COPYING)" ]
	run -0 --separate-stderr "$FORKTIME" --version
	[ "${lines[0]}" = "forktime (contest) $v" ]
	[ "${lines[1]}" = "Licence GPL-2.0-or-later: GNU GPL version 2 or later; no warranty (see COPYING)" ]
	# each run's line, and the environment line of its table
	run -0 contest -k v -n 1 --warmup 0 --lead 0 -- true
	grep -qF ", contest $v, " <<<"$output"
	[ "$(rq -c 'map(.contest_version) | unique')" = "[\"$v\"]" ]
}

@test "scripts/buildver: a tree's commit, -dirty after an edit, the release in a tarball's tree even inside a clone, a copy's own word, and without git" {
	command -v git >/dev/null || skip "no git"
	b=$TOP_SRCDIR/scripts/buildver
	git init -q t
	echo a > t/f
	git -C t add f
	git -C t -c user.name=t -c user.email=t@t commit -qm one
	h=$(git -C t rev-parse --short=12 HEAD)
	run -0 "$b" t 9.8.7
	[ "$output" = "9.8.7-g$h" ]
	echo b > t/f
	run -0 "$b" t 9.8.7
	[ "$output" = "9.8.7-g$h-dirty" ]
	# a file git does not track is not the build's code
	git -C t checkout -q f
	echo c > t/new
	run -0 "$b" t 9.8.7
	[ "$output" = "9.8.7-g$h" ]
	# a release tag: git's own description
	git -C t -c user.name=t -c user.email=t@t tag -a v9.8.7 -m r
	run -0 "$b" t 9.8.7
	[ "$output" = "9.8.7" ]
	echo d > t/f
	run -0 "$b" t 9.8.7
	[ "$output" = "9.8.7-dirty" ]
	# a tarball's tree unpacked in a clone (distcheck's _build): the release
	mkdir t/contest-9.8.7
	run -0 "$b" t/contest-9.8.7 9.8.7
	[ "$output" = "9.8.7" ]
	mkdir plain
	run -0 "$b" plain 9.8.7
	[ "$output" = "9.8.7" ]
	# a copy that says which tree it was (scripts/vm's image): its word,
	# where the word is this release's and a word at all
	echo "9.8.7-g$h-dirty" > plain/.buildver
	run -0 "$b" plain 9.8.7
	[ "$output" = "9.8.7-g$h-dirty" ]
	for bad in "9.8.6-g$h" "9.8.7-g$h x" "9.8.7-" '9.8.7-$(id)' ""; do
		printf '%s\n' "$bad" > plain/.buildver
		run -0 "$b" plain 9.8.7
		[ "$output" = "9.8.7" ]
	done
	# a git tree's own word wins over a stray file
	echo "9.8.7-gffffffffffff" > t/.buildver
	run -0 "$b" t 9.8.7
	[ "$output" = "9.8.7-dirty" ]
	# without git on PATH: the release, nothing it cannot tell
	mkdir bin
	ln -s "$(command -v sed)" bin/sed
	run -0 env PATH="$BATS_TEST_TMPDIR/bin" /bin/sh "$b" t 9.8.7
	[ "$output" = "9.8.7" ]
	run -2 "$b"
	[ "$output" = "usage: scripts/buildver SRCDIR [RELEASE]" ]
	run -2 "$b" t 9.8.7 extra
	[ "$output" = "usage: scripts/buildver SRCDIR [RELEASE]" ]
	# no RELEASE: the tree's configure.ac's, where it has one
	run -2 "$b" plain
	[ "$output" = "buildver: no RELEASE given and none in plain/configure.ac" ]
	echo 'AC_INIT([contest], [9.8.7], [], [contest])' > plain/configure.ac
	run -0 "$b" plain
	[ "$output" = "9.8.7" ]
	# (a copy's word is taken only where it is that release's)
	echo "9.8.7-gabc" > plain/.buildver
	run -0 "$b" plain
	[ "$output" = "9.8.7-gabc" ]
}

@test "help and version as subcommands: help SUBCOMMAND is its --help; bad uses exit 2 with one line" {
	run -0 --separate-stderr contest help
	[ "$output" = "$(contest --help)" ]
	grep -q '^  help ' <<<"$output"
	grep -q '^  version ' <<<"$output"
	for s in run report compare history bisect list; do
		run -0 --separate-stderr contest help "$s"
		[ "$output" = "$(contest "$s" --help)" ]
		[ -z "$stderr" ]
	done
	run -0 --separate-stderr contest version
	[ "$output" = "$(contest --version)" ]
	run -2 --separate-stderr contest help reprot
	[ "$stderr" = "contest help: 'reprot' is not a contest subcommand; did you mean 'report'?" ]
	[ -z "$output" ]
	run -2 --separate-stderr contest help run list
	[ "$stderr" = "contest help: one subcommand at most (see 'contest help')" ]
	run -2 --separate-stderr contest version 2
	[ "$stderr" = "contest version: no arguments" ]
	run -2 --separate-stderr contest help xyzzy
	[ "$stderr" = "contest help: 'xyzzy' is not a contest subcommand (see 'contest help')" ]
}

@test "a slip of a subcommand's name: did you mean, exit 2, nothing run; a program by that name runs" {
	for slip in reprot:report comapre:compare hsitory:history bisetc:bisect lsit:list rnu:run hlep:help verison:version; do
		run -2 --separate-stderr contest "${slip%%:*}" -n 1
		[ "$stderr" = "contest: '${slip%%:*}' is not a contest subcommand; did you mean '${slip#*:}'?" ]
		[ -z "$output" ]
		[ ! -e "$CONTEST_RESULTS" ]
	done
	# far from every name: a command, not found (127), as before
	run -127 --separate-stderr contest xyzzy
	[ "$stderr" = "contest: xyzzy: command not found" ]
	# a program on PATH whose name is a slip of one is the job (what
	# follows its name is its own: contest's defaults, 4 runs of it)
	mkdir bin
	printf '#!/bin/sh\necho ran\n' >bin/reprot
	chmod +x bin/reprot
	PATH=$PWD/bin:$PATH run -0 contest reprot
	[ "$(rq -r 'map(.command) | unique | join(" ")')" = "reprot" ]
	[ "$(grep -c '^ran$' "$CONTEST_RESULTS"/logs/*.log)" -eq 4 ]
}

@test "each subcommand has its own --help, on stdout; the installed scripts' too" {
	run contest run --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--prepare CMD"* ]]
	[[ "$output" == *"--lead SECONDS"* ]]
	run contest list --help
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: contest list"* ]]
	run contest --help
	[ "$status" -eq 0 ]
	[[ "$output" != *"--prepare CMD"* ]]
	for sub in run report compare history bisect plan list help version; do
		run -0 --separate-stderr contest "$sub" --help
		[[ "$output" == "usage: contest"* ]]
		[ -z "$stderr" ]
	done
	for s in nightly kernel-tree; do
		run -0 --separate-stderr "$TOP_SRCDIR/scripts/$s" --help
		[[ "$output" == "usage: scripts/$s "* ]]
		[ -z "$stderr" ]
	done
	# the tree's own scripts too: asked for, the usage is an answer
	for s in aptwait bootstrap buildver deb-check fresh-root-check minbase same-output soak \
	    vm vm-check lava/boots-jobs lava/run-job; do
		run -0 --separate-stderr "$TOP_SRCDIR/scripts/$s" --help
		[[ "$output" == "usage: scripts/$s "* ]]
		[ -z "$stderr" ]
	done
}

@test "errors name who says them: contest for a run, contest SUBCOMMAND for the others, the scripts by their installed names" {
	run -2 --separate-stderr contest run -n 0 true
	[ "$stderr" = "contest: -n: '0' is too small (allowed 1..1000)" ]
	run -2 --separate-stderr contest report --bogus
	[ "$stderr" = "contest report: unknown option '--bogus' (see 'contest report --help')" ]
	run -2 --separate-stderr contest compare --series a b
	[ "$stderr" = "contest compare: no option '--series' (see 'contest compare --help')" ]
	run -2 --separate-stderr contest list --bogus
	[ "$stderr" = "contest list: unknown option '--bogus' (see 'contest list --help')" ]
	run -2 --separate-stderr "$TOP_SRCDIR/scripts/nightly" --bogus
	[ "$stderr" = "contest-nightly: unknown option '--bogus' (see scripts/nightly --help)" ]
	run -2 --separate-stderr "$TOP_SRCDIR/scripts/kernel-tree" --bogus
	[ "$stderr" = "contest-kernel-tree: unknown option '--bogus' (see --help)" ]
}

@test "help to a full disk fails instead of claiming success" {
	[ -w /dev/full ] || skip "no /dev/full"
	run contest --help
	[ "$status" -eq 0 ]
	run bash -c '"$1" --help >/dev/full' _ "$CONTEST"
	[ "$status" -ne 0 ]
	[[ "$output" == *"contest: stdout:"* ]]
}

# bad ARGS... NEEDLE: exit 2, one stderr line holding NEEDLE, empty stdout,
# and no run started (no results file).
bad() {
	local needle=${!#}
	local args=("${@:1:$#-1}")
	run --separate-stderr contest "${args[@]}"
	echo "# args: ${args[*]} -> status $status, stderr: $stderr" >&3
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == contest:* ]]
	[[ "$stderr" == *"$needle"* ]]
	[ ! -e "$R" ]
}

@test "runs: zero, negative, exponent, overflow, garbage, empty" {
	bad -n 0 true "-n: '0' is too small (allowed 1..1000)"
	bad -n -1 true "'-1' is too small"
	bad -n 1e3 true "'1e3' is invalid"
	bad -n 99999999999999999999 true "is too large"
	bad -n 1001 true "is too large"
	bad -n 3x true "invalid"
	bad -n '' true "invalid"
	bad --runs ' 3' true "invalid"
}

@test "warmup and lead are validated the same way" {
	bad --warmup -1 true "--warmup: '-1' is too small"
	bad --warmup 101 true "too large"
	bad --warmup two true "invalid"
	bad --lead -1 true "--lead: '-1' is too small"
	bad --lead 1e3 true "invalid"
	bad --lead inf true "invalid"
	bad --lead 0.0001 true "invalid"
	bad --lead 3601 true "too large"
}

@test "an unknown load is named and the loads are listed" {
	bad -l nosuch true "unknown load 'nosuch' (loads: no_load, fork_load, forkbomb, sleepers, cpu_load, process_load, io_load, read_load, mem_load, list_load, exec_load)"
	bad -l '' true "expected LOAD"
}

@test "load options: malformed, unknown, duplicated, missing values" {
	bad -l fork_load:procs=abc true "fork_load: procs=abc: invalid"
	bad -l fork_load:procs=0 true "procs=0: too small (allowed 1..256)"
	bad -l fork_load:procs=99999999999999999999 true "too large"
	bad -l fork_load:bogus=1 true "unknown option 'bogus' (options: procs, method)"
	bad -l fork_load:procs=1,procs=2 true "option 'procs' given twice"
	bad -l fork_load:procs true "option 'procs' needs a value"
	bad -l fork_load:procs= true "needs a value"
	bad -l fork_load: true "empty option list"
	bad -l fork_load:method=spoon true "not one of fork|vfork"
	bad -l fork_load -l fork_load true "load 'fork_load' given twice"
}

@test "options: unknown, missing value, empty strings" {
	bad --bogus true "unknown option '--bogus'"
	bad -x true "unknown option '-x'"
	bad -n "option '-n' needs a value"
	bad -k '' true "-k: label must be"
	bad -o '' true "-o: empty directory name"
	bad -- '' "empty command name"
	bad --series=1 true "option '--series' takes no value"
	bad --keep-suspect=yes true "option '--keep-suspect' takes no value"
}

@test "a bad option after a good one still stops before any run" {
	bad -n 2 -l fork_load -l fork_load:procs=x true "procs=x: invalid"
}

@test "options after -- belong to the command" {
	run contest --warmup 0 -n 1 --lead 0 -- echo -n 5
	[ "$status" -eq 0 ]
	[ "$(rq '.[0].argv | join(" ")')" = "echo -n 5" ]
}

@test "options after the command: a contest load after -l or --load, or a long option no command takes, is refused with how to write it" {
	bad -n 1 --warmup 0 sh -c 'sleep 0.5' -l fork_load \
	    "contest: '-l fork_load' after the command would go to sh: put contest's options before the command, or '--' before it to hand sh those words on purpose"
	[ "$stderr" = "contest: '-l fork_load' after the command would go to sh: put contest's options before the command, or '--' before it to hand sh those words on purpose" ]
	bad true --load fork_load:n=2 "'--load fork_load:n=2' after the command would go to true"
	bad true --load=sleepers "'--load=sleepers' after the command would go to true"
	bad true -lexec_load:cmd=true "'-lexec_load:cmd=true' after the command would go to true"
	# every long option of the table that no command takes, bare and with
	# a value
	for o in warmup lead lead-max load-nice load-policy load-cpus job-cpus \
	    job-nice job-policy job-metric job-migrations load-pids-max probe-nice \
	    probe-work probe-cpus probe-policy sweep keep-suspect until-ci variant; do
		bad sleep 1 "--$o" "'--$o' after the command would go to sleep"
		bad sleep 1 "--$o=1" "'--$o' after the command would go to sleep"
	done
}

@test "options after the command: the command's own words are its own, make's letters and hyperfine's long options too; after -- nothing is looked at" {
	mkdir dir
	printf 'bzImage:\n\ttrue\nclean:\n\ttrue\n' >dir/Makefile
	# make's -k -n -o -l -C -f share contest's letters; -l 4 is no load
	run -0 contest --warmup 0 -n 1 --lead 0 make -k -n -o x -C dir -f Makefile -j2 -l 4 bzImage
	[ "$(rq -r '.[0].argv | join(" ")')" = "make -k -n -o x -C dir -f Makefile -j2 -l 4 bzImage" ]
	rm -f "$R"
	# a -l whose value is no load, and the long options a command may share
	run -0 contest --warmup 0 -n 1 --lead 0 echo -l nosuch --load 4 --runs 3 --prepare x --output o --label k --latency --series
	[ "$(rq -r '.[0].argv | join(" ")')" = "echo -l nosuch --load 4 --runs 3 --prepare x --output o --label k --latency --series" ]
	rm -f "$R"
	# after --, a load and contest's own options are the command's
	run -0 contest --warmup 0 -n 1 --lead 0 -- echo -l fork_load --warmup 2 --variant=a
	[ "$(rq -r '.[0].argv | join(" ")')" = "echo -l fork_load --warmup 2 --variant=a" ]
	# "--" as -k's value ends nothing
	rm -f "$R"
	run -0 contest --warmup 0 -n 1 --lead 0 -k -- echo -l 4
	[ "$(rq -r '.[0].label')" = "--" ]
	[ "$(rq -r '.[0].argv | join(" ")')" = "echo -l 4" ]
}

@test "an empty command after -- is bad input, not the built-in job; -- as a value is no end of the options" {
	bad -k A -l fork_load -- "contest: no command after '--': name the command to time, or leave '--' out for the built-in job"
	bad -- "no command after '--'"
	[ ! -e "$CONTEST_RESULTS" ]
	# -k's value "--" ends nothing: the -n after it is contest's
	run -2 --separate-stderr contest -k -- -n 0
	[ "$stderr" = "contest: -n: '0' is too small (allowed 1..1000)" ]
}

@test "'run' may be named; -l no_load is accepted (it is always measured)" {
	run contest run --warmup 0 -n 1 --lead 0 -l no_load -- true
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$R")" -eq 1 ]
	[ "$(grep -c '^no_load:$' <<<"$output")" -eq 1 ]
}
