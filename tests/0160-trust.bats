#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# contest run trusts a results directory only as ssh's StrictModes would,
# and runs the built-in job only as its generator wrote it: as root in a
# shared directory, nothing someone else planted is written to or run.

load helpers

# refused DIR WHAT: contest run -o DIR refuses with exit 2, one line
# naming WHAT, and writes nothing.
refused() {
	local before
	before=$(find "$1" -L 2>/dev/null | sort | md5sum)
	run --separate-stderr contest -o "$1" --warmup 0 -n 1 --lead 0 -- touch "$BATS_TEST_TMPDIR/ran"
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
	[[ "$stderr" == "contest: "*"$2"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[ "$(find "$1" -L 2>/dev/null | sort | md5sum)" = "$before" ]
}

@test "trust: a results dir that is a symlink planted by another uid is refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to plant as another uid"
	mkdir elsewhere
	ln -s elsewhere planted
	chown -h 64980 planted
	refused planted "planted is a symlink owned by uid 64980: contest does not follow it"
	[ -z "$(ls elsewhere)" ]
}

@test "trust: a group-writable results dir is refused, with the fix" {
	mkdir shared
	chmod 775 shared
	refused shared "shared is writable by its group (mode 0775): chmod go-w 'shared', or give -o DIR"
	chmod 757 shared
	refused shared "shared is writable by others (mode 0757)"
}

@test "trust: a results dir owned by another uid is refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to give a directory away"
	mkdir theirs
	chown 64981 theirs
	refused theirs "theirs is owned by uid 64981, not by you (uid 0) or root: chown 0 'theirs', or give -o DIR"
}

@test "trust: a results file or logs dir planted inside is refused too" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to plant as another uid"
	mkdir r1 r2
	touch r1/results.jsonl
	chown 64982 r1/results.jsonl
	refused r1 "r1/results.jsonl is owned by uid 64982"
	mkdir r2/logs
	chmod 777 r2/logs
	refused r2 "r2/logs is writable by others (mode 0777)"
}

@test "trust: a new results dir under a parent others may write without the sticky bit is refused before it is made" {
	mkdir open
	chmod 777 open
	refused open/results "open, a parent of the results dir, is writable by others without the sticky bit"
	[ ! -e open/results ]
	# with the sticky bit, as /tmp has it, the parent is fine
	chmod 1777 open
	run contest -o open/results --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	[ -s open/results/results.jsonl ]
}

@test "trust: a parent owned by another uid, or writable by its group, is refused" {
	mkdir grp
	chmod 775 grp
	refused grp/results "grp, a parent of the results dir, is writable by its group without the sticky bit: chmod g-w 'grp' (or +t), or give -o DIR under directories only you and root can write"
	[ ! -e grp/results ]
	mkdir -p deep/er
	chmod 770 deep
	refused deep/er/results "deep, a parent of the results dir, is writable by its group"
	# sticky, as /tmp: nobody else can rename what is in it
	chmod 1775 grp
	run contest -o grp/results --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	[ -s grp/results/results.jsonl ]
	[ "$(id -u)" -eq 0 ] || skip "needs root to give a parent away"
	mkdir -p alice/results
	chown 64985 alice
	refused alice/results "alice, a parent of the results dir, is owned by uid 64985, not by you (uid 0) or root"
	# and every parent of a relative path counts, up from /
	cd alice
	run --separate-stderr contest -o results --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 2 ]
	[[ "$stderr" == "contest: $BATS_TEST_TMPDIR/alice, a parent of the results dir, is owned by uid 64985"* ]]
}

@test "trust: a results dir swapped for a symlink after its check is never written through" {
	need_faults
	mkdir -p base/results elsewhere
	# the moment after the walk: contest opens results.jsonl in what it checked
	CONTEST_FAULT_AT=results.jsonl \
	    CONTEST_FAULT_RUN="mv base/results base/away && ln -s ../elsewhere base/results" \
	    run --separate-stderr contest_faulty -o base/results --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	[ -L base/results ]
	[ -z "$(ls -A elsewhere)" ]
	[ "$(jq -r .status base/away/results.jsonl)" = ok ]
	[ -n "$(ls base/away/logs)" ]
}

# (a tree swapped in after the built-in job's check: tests/0500, on the
# tree it builds once)

@test "trust: report and compare still read other users' files" {
	mkdir lab
	cp "$TOP_SRCDIR/tests/data/report/classic.jsonl" lab/
	chmod 666 lab/classic.jsonl
	chmod 777 lab
	[ "$(id -u)" -ne 0 ] || chown -R 64983 lab
	run contest report lab
	[ "$status" -eq 0 ]
	grep -q '^fork_load:$' <<<"$output"
}

@test "a result names its job: the resolved command with its size and mtime" {
	run contest --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	path=$(type -P true)
	rq ".[0].job_identity.path == \"$path\" and .[0].job_identity.size == $(stat -c %s "$path") and .[0].job_identity.mtime == $(stat -c %Y "$path") and .[0].job_sha256 == null" | grep -qx true
}

@test "report: runs of one label with two different jobs are never one cell without a word" {
	run contest -k same --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	cp "$(type -P true)" mytrue
	run contest -k same --warmup 0 -n 1 --lead 0 -- ./mytrue
	[ "$status" -eq 0 ]
	run --separate-stderr contest report "$CONTEST_RESULTS"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"label 'same' was measured with 2 different commands or jobs"* ]]
	[ -n "$(block_row no_load 'same#1' "$output")" ]
	[ -n "$(block_row no_load 'same#2' "$output")" ]
}
