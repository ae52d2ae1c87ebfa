#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The suite's own checks can fail: no mid-test `! cmd`, no `A && B`
# before a test's end, no `run` whose status goes unread, no check in an
# `if` with no `else`, no bare `wait` (tests/lint-bats.awk); and the lint
# itself catches each pattern.

load helpers
PLAIN_ONLY=1	# helpers.bash: skipped under the sanitizers

LINT="$TOP_SRCDIR/tests/lint-bats.awk"

@test "lint: every bats file of the suite passes" {
	run awk -f "$LINT" "$TOP_SRCDIR"/tests/*.bats
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "lint: each pattern that cannot fail is caught, and where" {
	run awk -f "$LINT" "$TOP_SRCDIR/tests/data/lint/bad.bats"
	[ "$status" -eq 1 ]
	f=$TOP_SRCDIR/tests/data/lint/bad.bats
	[ "${lines[0]}" = "$f:5: '! cmd' before a test's end never fails it: use 'run !' or '|| false'" ]
	[ "${lines[1]}" = "$f:10: the left side of '&&' before a test's end never fails it: one check a line, or '|| false'" ]
	[ "${lines[2]}" = "$f:15: the left side of '&&' before a test's end never fails it: one check a line, or '|| false'" ]
	[ "${lines[3]}" = "$f:20: 'run' whose \$status is never checked: check it, or use 'run -N' or 'run !'" ]
	[ "${lines[4]}" = "$f:25: the left side of '&&' before a test's end never fails it: one check a line, or '|| false'" ]
	[ "${lines[5]}" = "$f:31: a check inside an 'if' with no 'else' passes in silence when the condition is false: check that case in an else, or skip saying why" ]
	[ "${lines[6]}" = "$f:36: a check inside an 'if' with no 'else' passes in silence when the condition is false: check that case in an else, or skip saying why" ]
	[ "${lines[7]}" = "$f:46: a bare 'wait' waits for bats's timeout (BATS_TEST_TIMEOUT) too: wait for the pids the test started" ]
	[ "${lines[8]}" = "$f:49: a teardown_file of the file's own without file_teardown: what its tests started is never looked for, nor what they stored checked" ]
	[ "${#lines[@]}" -eq 9 ]
}

@test "lint: the idioms that can fail a test pass" {
	run awk -f "$LINT" "$TOP_SRCDIR/tests/data/lint/good.bats"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "lint: the fixtures really behave as the lint says (bats runs them)" {
	# (with no timer of bats's own: the bare wait there would wait for
	# it, and a timer's sleep orphaned on a busy host holds the output
	# pipe open for all of BATS_TEST_TIMEOUT)
	run env -u BATS_TEST_TIMEOUT bats --tap "$TOP_SRCDIR/tests/data/lint/bad.bats"
	[ "$status" -eq 0 ]	# every test there passes: its checks cannot fail
	run env -u BATS_TEST_TIMEOUT bats --tap "$TOP_SRCDIR/tests/data/lint/good.bats"
	[ "$status" -eq 0 ]
}

@test "lint: no file in contest/ is over 500 lines, and cmd_run.c, the run's grammar and life, no more than 300" {
	run -0 wc -l "$TOP_SRCDIR"/contest/*.[ch] "$TOP_SRCDIR"/contest/*/*.[ch]
	big=$(awk '$2 != "total" && $1 > 500 { print $2 " " $1 }' <<<"$output")
	[ -z "$big" ]
	[ "$(wc -l <"$TOP_SRCDIR/contest/cmd_run.c")" -le 300 ]
}

@test "lint: no function of contest, the loads, the programs, the unit tests, fuzzers or benches is over 80 lines without its reason" {
	run awk -f "$TOP_SRCDIR/tests/funclen.awk" "$TOP_SRCDIR"/contest/*.c \
	    "$TOP_SRCDIR"/contest/*/*.c "$TOP_SRCDIR"/loads/*.c \
	    "$TOP_SRCDIR"/forkbomb/*.c "$TOP_SRCDIR"/forktime/*.c \
	    "$TOP_SRCDIR"/tests/*.c "$TOP_SRCDIR"/tests/unit/*.c \
	    "$TOP_SRCDIR"/tests/fuzz/*.c "$TOP_SRCDIR"/scripts/bench/*.c
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# and one is seen, by name and line, unless a comment says why
	{ printf 'int\nf(void)\n{\n'; for i in $(seq 85); do printf '\tg();\n'; done; printf '}\n'; } >long.c
	run awk -f "$TOP_SRCDIR/tests/funclen.awk" long.c
	[ "$status" -eq 1 ]
	[ "$output" = "long.c:2: f is 88 lines" ]
	{ printf '/* long: one case an option */\n'; cat long.c; } >excused.c
	run awk -f "$TOP_SRCDIR/tests/funclen.awk" excused.c
	[ "$status" -eq 0 ]
	# its type on the same line, the brace there too or below, an
	# attribute in the way; a prototype over two lines is no function
	{ printf 'static int g(int a,\n    int b);\n'
	  printf 'int main(void) {\n'; for i in $(seq 85); do printf '\tg(1, 2);\n'; done; printf '}\n'
	  printf 'static void __attribute__((noreturn)) h(void)\n{\n'; for i in $(seq 81); do printf '\tg(1, 2);\n'; done; printf '}\n'
	} >oneline.c
	run awk -f "$TOP_SRCDIR/tests/funclen.awk" oneline.c
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "oneline.c:3: main is 87 lines" ]
	[ "${lines[1]}" = "oneline.c:90: h is 84 lines" ]
	[ "${#lines[@]}" -eq 2 ]
}

# What the job's child runs before its exec, on the driver's memory where
# spawn_shared made it, and the system calls it may make there.
CHILD_FUNCS="child_setup exec_child cg_enter die_with_parent sched_apply_step set_deadline to_cpuset policy_value sched_cpu_isset"
CHILD_CALLS="setpgid write signal sigemptyset sigprocmask prctl procctl getppid open dup2 close fchdir execve _exit syscall sched_setscheduler setpriority sched_setaffinity CPU_ZERO CPU_SET"
child_calls() {
	awk -v funcs="$CHILD_FUNCS" -v calls="$CHILD_CALLS" -f "$TOP_SRCDIR/tests/childcalls.awk" "$@"
}

@test "lint: the job's child makes system calls only, their errors its step and errno; an snprintf there is caught" {
	C=$TOP_SRCDIR/contest
	run -0 child_calls "$C/run/proc.c" "$C/run/cgroup.c" "$C/lib/sys.c" "$C/run/schedopt.c"
	[ -z "$output" ]
	# planted: a message formatted in the child, and a helper gone
	sed '/^exec_child(/,/^}/s/^\(\t*\)execve(sp->path/\1snprintf(f.why, 8, "%d", 1);\n&/' \
	    "$C/run/proc.c" >proc.c
	run -1 child_calls proc.c "$C/run/cgroup.c" "$C/lib/sys.c" "$C/run/schedopt.c"
	[ "$(grep -c . <<<"$output")" -eq 1 ]
	[[ "$output" =~ ^proc\.c:[0-9]+:\ exec_child\ calls\ snprintf$ ]]
	run -1 child_calls "$C/run/proc.c" "$C/lib/sys.c" "$C/run/schedopt.c"
	[ "$output" = "cg_enter: not found" ]
}

# Every shell script of scripts/, CI's and the suite's own: by its #! line,
# or a sourced library's "shellcheck shell=" line.
shell_scripts() {
	local f
	for f in "$TOP_SRCDIR"/scripts/* "$TOP_SRCDIR"/scripts/*/* "$TOP_SRCDIR"/.ci/run \
	    "$TOP_SRCDIR"/tests/layout.sh "$TOP_SRCDIR"/tests/fuzz/seeds.sh; do
		[ -f "$f" ] || continue
		if head -n 1 "$f" | grep -q '^#!.*sh$' || grep -q '^# shellcheck shell=' "$f"; then
			echo "$f"
		fi
	done
}

@test "lint: shellcheck finds nothing in the shell scripts, each exception with its reason" {
	command -v shellcheck >/dev/null || skip "no shellcheck (scripts/bootstrap installs it)"
	shell_scripts >list
	[ "$(wc -l <list)" -ge 30 ]
	# SC2015 (A && B || C is not if-then-else): 'A && B || die' is this
	# tree's idiom, C meant to run when either fails
	run xargs shellcheck -x -P SCRIPTDIR -e SC2015 -f gcc <list
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	# every directive that turns one off says why, after a '#'
	run sh -c 'xargs grep -Hn "shellcheck disable=" <list | grep -v "disable=[A-Z0-9,]*[[:space:]]*# [^ ]"'
	[ "$status" -eq 1 ]
	[ -z "$output" ]
	# and it is seen: a script with a planted fault
	printf '#!/bin/sh\ncd /nonexistent\necho $1\n' >planted
	run shellcheck -x -e SC2015 -f gcc planted
	[ "$status" -ne 0 ]
	[[ "$output" == *SC2164* ]]
}
