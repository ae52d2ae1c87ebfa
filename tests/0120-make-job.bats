#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# A make job is cleaned before every run, by its own make and options,
# unless --prepare says otherwise; a job whose later runs do no work is
# called out, never averaged into a ratio.

load helpers

@test "make -j2 bzImage: every run builds, cleaned by the inferred 'make clean'" {
	standin
	run --separate-stderr contest --warmup 0 -n 2 --lead 0 -l cpu_load:n=1 -- make -j2 bzImage
	[ "$status" -eq 0 ]
	[ "$stderr" = "contest: each run is prepared with 'make clean' (a make job; --prepare '' for none)" ]
	[ "$(rq 'length')" -eq 4 ]
	rq 'all(.wall_s >= 1)' | grep -qx true
	rq 'all(.prepare == "make clean" and .prepare_inferred == true)' | grep -qx true
	[ "$(wc -l <cleaned)" -eq 4 ]
	[[ "$output" != *"no work: does the job"* ]]
	# the table's ratio is the builds' beside the spinner over those alone
	# (about one for two sleeps of a second, as a busy host lets it be)
	ratio=$(table_row cpu_load:n=1 "$output" | awk '{print $NF}')
	want=$(rq '(map(select(.load == "cpu_load").wall_s) | add / length) / (map(select(.load == "no_load").wall_s) | add / length)')
	awk -v r="${ratio%%±*}" -v w="$want" 'BEGIN { exit !(r - w <= 0.00501 && w - r <= 0.00501) }'
	run contest report "$CONTEST_RESULTS"
	[ "$status" -eq 0 ]
	grep -qx 'prepare: make clean (inferred: a make job)' <<<"$output"
}

@test "--prepare '' turns the inference off, and the runs that did nothing are called out and left out" {
	standin
	# --warmup 0: the first measured run builds, the rest do nothing
	run --separate-stderr contest --warmup 0 -n 2 --lead 0 -l cpu_load:n=1 --prepare '' -- make -j2 bzImage
	[ "$status" -eq 0 ]
	[ ! -e cleaned ]
	rq 'all(.prepare == null and .prepare_inferred == false)' | grep -qx true
	rq '.[0].wall_s >= 1' | grep -qx true
	# make ran the recipe in the first run alone (its log says so: a
	# time would be the machine's to say)
	[ "$(grep -c '^sleep 1; touch bzImage$' "$CONTEST_RESULTS"/logs/*.log)" -eq 1 ]
	[ "$(grep -Ec "^make(\[[0-9]+\])?: 'bzImage' is up to date\.$" "$CONTEST_RESULTS"/logs/*.log)" -eq 3 ]
	[ "$stderr" = "contest: no_load run 2, cpu_load:n=1 runs 1 2 may have done no work, left out of the means (the notes under the table say why): give the job a --prepare step that undoes its work" ]
	# each cell counts only the run that built; ~ marks what was left out
	[[ "$(table_row no_load "$output")" =~ ^[^\ ]+\ +1~\ +1\.[0-9][0-9]\? ]]
	[[ "$(table_row cpu_load:n=1 "$output")" =~ ^[^\ ]+\ +0~\ +-\  ]]
	grep -q "^no_load: .*: run 2 (0\.[0-9][0-9] s, after a first run of .*) may have done no work, left out of the means: " <<<"$output"
	grep -q "^cpu_load:n=1: .*: run 1 (.*), run 2 (.*) may have done no work, left out of the means: does the job need a --prepare step that undoes it?$" <<<"$output"
	grep -q '^~ after \[runs\]: runs that may have done no work' <<<"$output"
	# the report finds and leaves out the same runs in the stored results
	run contest report "$CONTEST_RESULTS"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'may have done no work, left out of the means: does the job need' <<<"$output")" -eq 2 ]
	grep -qx 'prepare: none' <<<"$output"
	run contest report --format json "$CONTEST_RESULTS"
	[ "$status" -eq 0 ]
	[ "$(jq -c '[.loads[].rows[] | [.runs, .suspect_runs, .suspect_kept]]' <<<"$output")" = '[[1,[2],false],[0,[1,2],false]]' ]
	# --keep-suspect averages them in, as before, and says so
	run -0 contest report --keep-suspect --format json "$CONTEST_RESULTS"
	[ "$(jq -c '[.loads[].rows[] | [.runs, .suspect_runs, .suspect_kept, .noisy]]' <<<"$output")" = '[[2,[2],true,true],[2,[1,2],true,true]]' ]
	want=$(rq '[.[] | select(.load == "no_load") | .wall_s] | add / length')
	[ "$(jq -r --argjson w "$want" '.loads[0].rows[0].time_s.mean - $w | fabs < 1e-5' <<<"$output")" = true ]
	run -0 contest report --keep-suspect "$CONTEST_RESULTS"
	[ "$(grep -c 'may have done no work, kept in the means (--keep-suspect)' <<<"$output")" -eq 2 ]
}

@test "by default the warmup round takes the build: said, and never held against the measured runs" {
	standin
	run --separate-stderr contest -n 2 --lead 0 -l cpu_load:n=1 --prepare '' -- make -j2 bzImage
	[ "$status" -eq 0 ]
	# a warmup five times the rest is a cold start as often as a job's
	# work done once: the runs are kept, and the user is told
	[[ "$stderr" =~ ^contest:\ the\ warmup\ took\ [0-9.]+\ s,\ over\ 5\ times\ the\ measured\ runs\'\ median\ 0\.[0-9]+\ s:\ if\ it\ did\ the\ job\'s\ work,\ they\ did\ none\;\ give\ the\ job\ a\ --prepare\ step\ that\ undoes\ its\ work$ ]]
	[[ "$(table_row no_load "$output")" =~ ^[^\ ]+\ +2\  ]]
	[[ "$(table_row cpu_load:n=1 "$output")" =~ ^[^\ ]+\ +2\  ]]
	grep -q "^session .*: its warmup took .* s, over 5 times its measured runs' median .* s: a cold start, or the job's work done once before them" <<<"$output"
}

@test "the clean step keeps -C DIR, --directory=DIR, -f FILE, --file=FILE and VAR=VALUE" {
	standin tree
	standin . other.mk
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- make -C tree -j 2 O=out ARCH=x86 bzImage
	[ "$status" -eq 0 ]
	[ "$stderr" = "contest: each run is prepared with 'make -C tree O=out ARCH=x86 clean' (a make job; --prepare '' for none)" ]
	[ "$(cat tree/cleaned)" = "O=out ARCH=x86" ]
	rm -rf "$CONTEST_RESULTS"
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- make --directory=tree -k bzImage
	[ "$status" -eq 0 ]
	[ "$stderr" = "contest: each run is prepared with 'make -C tree clean' (a make job; --prepare '' for none)" ]
	[ "$(wc -l <tree/cleaned)" -eq 2 ]
	rm -rf "$CONTEST_RESULTS"
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- make -f other.mk -j2 'CROSS_COMPILE=a b-' bzImage
	[ "$status" -eq 0 ]
	[ "$stderr" = "contest: each run is prepared with 'make -f other.mk 'CROSS_COMPILE=a b-' clean' (a make job; --prepare '' for none)" ]
	[ "$(wc -l <cleaned)" -eq 1 ]
	rq '.[0].prepare' | grep -qx "make -f other.mk 'CROSS_COMPILE=a b-' clean"
	rm -rf "$CONTEST_RESULTS" cleaned
	standin tree other.mk
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- make --file=other.mk -sj2 --directory tree LLVM=1 bzImage
	[ "$status" -eq 0 ]
	[ "$stderr" = "contest: each run is prepared with 'make -f other.mk -C tree LLVM=1 clean' (a make job; --prepare '' for none)" ]
}

@test "a makefile without a clean target: a warning, and the runs go unprepared" {
	# steady runs: a job of a few ms could look as if it did no work
	printf 'all:\n\tsleep 0.3\n' >Makefile
	run --separate-stderr contest --warmup 0 -n 2 --lead 0 -- make all
	[ "$status" -eq 0 ]
	[[ "$stderr" == "contest: a make job, but 'make clean' would fail (make -n: status 2; see "*"): runs are not prepared, give --prepare CMD" ]]
	rq 'all(.prepare == null and .prepare_inferred == false)' | grep -qx true
	# what make said about it is in the session's log
	grep -q "No rule to make target 'clean'" "$CONTEST_RESULTS"/logs/*.log
}

@test "an explicit --prepare wins over the inference" {
	standin
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 --prepare 'rm -f bzImage' -- make bzImage
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	rq '.[0].prepare == "rm -f bzImage" and .[0].prepare_inferred == false' | grep -qx true
}

@test "a job that is not make and does its work only once is warned about" {
	run --separate-stderr contest --warmup 0 -n 3 --lead 0 -- sh -c '[ -e done ] || { sleep 1; touch done; }'
	[ "$status" -eq 0 ]
	[ "$stderr" = "contest: no_load runs 2 3 may have done no work, left out of the means (the notes under the table say why): give the job a --prepare step that undoes its work" ]
	# the one run that did the work is the cell's only one: thin, so ?
	[[ "$(table_row no_load "$output")" =~ ^[^\ ]+\ +1~\ +1\.[0-9][0-9]\? ]]
}

@test "a steady job is not warned about, whatever its loads do to it" {
	run --separate-stderr contest --warmup 0 -n 3 --lead 0 -l cpu_load:n=1 -- sleep 0.2
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" != *"no work: does the job"* ]]
}
