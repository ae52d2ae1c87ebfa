#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --variant: variants of one boot measured in turns within every round,
# in a balanced order, and compared paired over the rounds; their known
# answers against a job that drifts; a command that fails its variant;
# the loads' knobs per variant; and a program kept running during its
# variant's runs, a sched_ext scheduler's stand-in, stopped on every path.

load helpers

# A job whose work, 500000 units, grows 3% with every execution, counted
# in ./count, and by ./extra percent more, which a variant's command sets:
# drift that a sequential comparison takes for a change.  It prints its
# work (work=N) for --job-metric, and the verdicts are called on that
# figure: a known answer no busy host moves, where a sleep's Time is one
# that four test files at a time under ASan move as much as a change.
# Its arithmetic is the shell's own.
drifting_job() {
	cat > job.sh <<'EOF'
n=0; x=0
[ -f count ] && read -r n < count
echo $((n + 1)) > count
[ -f extra ] && read -r x < extra
us=500000; i=0
while [ "$i" -lt "$n" ]; do us=$((us * 103 / 100)); i=$((i + 1)); done
echo "work=$((us * (100 + x) / 100))"
EOF
}

# the figure the known answers are called on
WORK=(--job-metric 'work=work=([0-9]+)')

@test "variants in one session against drift: identical ones never regress, a quarter more work does, two sessions of one boot can't tell it from the drift" {
	drifting_job
	# two identical variants, interleaved: no change (six rounds: each
	# variant goes first in three, and the drift cancels)
	run -0 contest -k same --warmup 1 -n 6 --lead 0 "${WORK[@]}" --variant a='echo 0 > extra' --variant b='echo 0 > extra' -- sh job.sh
	[ "$(cat count)" -eq 14 ]
	# the table's verdict line is compare's (on Time as well: whatever a
	# busy host made of it)
	line=$(grep '^same/b against' <<<"$output")
	[[ "$line" =~ ^same/b\ against\ same/a:\ .*\ \(paired\ over\ 6\ rounds\): ]]
	run --separate-stderr contest compare same/a same/b
	[ "$status" -le 1 ]
	[ "$(tail -1 <<<"$output")" = "$line" ]
	# on the work itself the answer is known to the digit: no change
	run -0 contest compare --gate work --format json same/a same/b
	jq -e '.candidates[0] | .verdict == "no change" and .pairs == [6, 6]' <<<"$output"
	run -0 contest compare --gate work same/a same/b
	[ "$(tail -1 <<<"$output")" = "same/b against same/a: no change (paired over 6 rounds): 1 of 1 gated figure within ±5% (CI95); a regression of 6.2% would be caught with 80% power (no_load work)" ]
	# one doing a quarter more work: a regression, paired over its rounds
	rm -f count
	run -0 contest -k more --warmup 1 -n 6 --lead 0 "${WORK[@]}" --variant a='echo 0 > extra' --variant b='echo 25 > extra' -- sh job.sh
	run -1 contest compare --gate work more/a more/b
	[ "$(tail -1 <<<"$output")" = "more/b against more/a: regression (paired over 6 rounds): 1 of 1 load regressed beyond 5%: no_load work +24.9% (CI95 +20.8..+29.0%, p=1.9e-05)" ]
	grep -qx 'Test: more/b against more/a: paired over 6 rounds of one session.' <<<"$output"
	# the same job as two sessions, one after the other: the drift alone
	# (1.03^6, 19%) is what the runs call a regression; a session a side
	# in one boot, the session is the unit, and nothing tells the two
	# apart: can't tell, the runs' call marked, and how to tell
	rm -f count
	run -0 contest -k first --warmup 1 -n 5 --lead 0 "${WORK[@]}" -- sh job.sh
	run -0 contest -k second --warmup 1 -n 5 --lead 0 "${WORK[@]}" -- sh job.sh
	run -0 contest compare --gate work first second
	[ "$(tail -1 <<<"$output")" = "second against first: can't tell (unpaired; two sessions of one boot: a session-to-session difference reads the same): undecided: no_load work +19.4% (CI95 +11.9..+27.0%, p=0.00038, possibly the session); to tell, run both in one session's rounds (--variant), or one label over two sessions" ]
	run -0 --separate-stderr contest compare --gate work --format json first second
	[ "$(jq -r '.loads[0].figures[] | select(.figure == "job_work") | .values[1] | [.boot_unit, .boot_note] | @tsv' <<<"$output")" = "$(printf 'session\tone_boot')" ]
}

@test "variants take turns in a balanced order; results carry variant and round; rows are LABEL/NAME everywhere" {
	run -0 contest -k k --warmup 0 -n 6 --lead 0 -l cpu_load:n=1 --variant a --variant b='true' --variant c:keep='exec sleep 600' -- sleep 0.02
	# three variants: a Williams design of six rows, each variant first,
	# and last, in two of the six rounds of each unit
	for v in a b c; do
		first=$(rq --arg v "$v" '[group_by([.round, .load]) | .[] | sort_by(.round_position) | select(.[0].variant == $v)] | length')
		last=$(rq --arg v "$v" '[group_by([.round, .load]) | .[] | sort_by(.round_position) | select(.[-1].variant == $v)] | length')
		[ "$first" -eq 4 ] || { echo "# $v first $first times" >&3; false; }
		[ "$last" -eq 4 ] || { echo "# $v last $last times" >&3; false; }
	done
	# each variant once in each unit of each round, next to the others
	[ "$(rq -c '[group_by([.round, .load]) | .[] | map(.variant) | sort] | unique')" = '[["a","b","c"]]' ]
	rq -e '[group_by([.round, .load]) | .[] | map(.round_position) | sort | (.[2] - .[0])] | all(. == 2)'
	rq -e 'map([.variant, .variant_kind, .variant_command]) | unique == [["a","none",null],["b","command","true"],["c","program","exec sleep 600"]]'
	[ -n "$(block_row cpu_load:n=1 k/c "$output")" ]
	# the kept program ran during c's runs, and is gone
	[ -z "$(marked_named sleep)" ]
	# the table ends with each variant against the first, as compare says it
	[ "$(grep -c '^k/[bc] against k/a: .* (paired over 6 rounds)' <<<"$output")" -eq 2 ]
	grep '^k/[bc] against k/a: ' <<<"$output" > table-verdicts
	run -0 --separate-stderr contest report -k k
	[ -n "$(block_row no_load k/b "$output")" ]
	# (a verdict is what it is: 0 or 1, a regression by chance of a job of
	# 20 ms, is not what this test is about)
	run --separate-stderr contest compare k/a k/b k/c
	[ "$status" -le 1 ]
	[ "$(tail -2 <<<"$output")" = "$(cat table-verdicts)" ]
	run --separate-stderr contest compare --format csv k/a k/b
	[ "$status" -le 1 ]
	[ "$(awk -F, '$3 == "time_amean" && $4 == "k/b" { print $16, $17 }' <<<"$output" | sort -u)" = "paired 6" ]
}

@test "a variant whose command fails fails its runs with the reason; the others run" {
	run --separate-stderr contest -k k --warmup 0 -n 2 --lead 0 --variant a --variant b='echo no >&2; exit 4' -- true
	[ "$status" -eq 3 ]
	[ "$(rq -c '[.[] | select(.variant == "b") | .status] | unique')" = '["variant_failed"]' ]
	[ "$(rq -c '[.[] | select(.variant == "a") | .status] | unique')" = '["ok"]' ]
	grep -qx "contest: no_load variant b run 1: --variant b: 'echo no >&2; exit 4' exited with status 4" <<<"$stderr"
	grep -q "^contest: no_load variant b: 2 runs failed by the variant, not the job (variant_failed; " <<<"$stderr"
	# what the command said is in the log
	grep -qx no "$CONTEST_RESULTS"/logs/*.log
}

@test "a variant's load-nice and load-policy are the loads' during its runs, and the results say so" {
	run -0 contest -k k --warmup 0 -n 1 --lead 0.3 -l 'exec_load:cmd=cut -d" " -f19 /proc/self/stat >> nices' \
	    --variant n0 --variant n19:load-nice=19,load-policy=batch -- sleep 0.3
	rq -e 'map(select(.variant == "n19")) | all(.load_nice == 19 and .load_policy == "batch")'
	rq -e 'map(select(.variant == "n0")) | all(.load_nice == null and .load_policy == null)'
	# n0's loads at the suite's own nice (0 unless it runs under nice)
	read -r ni _ < <(own_sched)
	[ "$(sort -un nices | tr '\n' ' ')" = "$(printf '%s\n' "$ni" 19 | sort -un | tr '\n' ' ')" ]
	grep -q '^  sched    k/n0: default scheduling, k/n19: loads nice 19, policy batch' <<<"$output"
}

# A sched_ext scheduler's stand-in, as the shim shows contest
# /sys/kernel/sched_ext/ from ./scx: "enabled NAME" while it runs, until
# TERM; with a second argument, it says disabled once that file appears
# (the job's, mid-run) while it keeps running (a scheduler the kernel
# threw out), its ops gone first: a job that waits for "disabled" ends
# with both read as they end.
scx_standin() {
	mkdir -p scx/root
	echo disabled > scx/state
	# each file written whole, as sysfs shows them: a new file renamed
	cat > standin.sh <<'EOF'
d=$CONTEST_FAKE_SCX
say() { echo "$2" > "$d/$1.new" && mv "$d/$1.new" "$d/$1"; }
trap 'say state disabled; say root/ops ""; exit 0' TERM
say root/ops "$1"; say state enabled
[ -z "${2:-}" ] || { until [ -e "$2" ]; do sleep 0.05; done; rm -f "$2"; say root/ops ""; say state disabled; }
while :; do sleep 0.05; done
EOF
}

# the same, as the background job itself (exec'd), for a signal to reach
scx_contest_bg() {
	marked_exec CONTEST_FAKE_SCX="$PWD/scx" "${FAULTS_ENV[@]}" "$CONTEST" "$@"
}

scx_contest() {
	marked CONTEST_FAKE_SCX="$PWD/scx" "${FAULTS_ENV[@]}" "$CONTEST" "$@"
}

@test "a sched_ext variant: its scheduler started, waited for, checked before and after each run, stopped after" {
	need_faults
	scx_standin
	run -0 --separate-stderr scx_contest -k k --warmup 0 -n 3 --lead 0 --variant eevdf --variant standin:sched-ext='sh standin.sh standin' -- sleep 0.05
	rq -e 'map(select(.variant == "standin")) | length == 3 and all(.status == "ok" and .provenance.sched_ext == "enabled standin" and .variant_kind == "sched_ext")'
	rq -e 'map(select(.variant == "eevdf")) | all(.status == "ok" and .provenance.sched_ext == "disabled")'
	# stopped by TERM after each turn: its trap ran
	[ "$(cat scx/state)" = disabled ]
	[ -z "$(marked_named sh)" ]
	# two variants, two rows: never one scheduler's average
	[ -z "$stderr" ]
	[ -n "$(block_row no_load k/standin "$output")" ]
}

@test "a sched_ext variant whose scheduler goes, or never comes, fails its runs with the reason" {
	need_faults
	scx_standin
	# thrown out during each run, when the job asks (an event, not a
	# time): the runs that saw it go fail, the other variant's do not
	run --separate-stderr scx_contest -k k --warmup 0 -n 3 --lead 0 --variant eevdf --variant s:sched-ext='sh standin.sh s gone' -- \
	    sh -c 'st=$CONTEST_FAKE_SCX/state; grep -q enabled "$st" || exit 0; touch gone; until grep -qx disabled "$st"; do sleep 0.05; done'
	[ "$status" -eq 3 ]
	rq -e 'map(select(.variant == "s")) | length == 3 and all(.status == "variant_failed")'
	rq -e 'map(select(.variant == "eevdf")) | all(.status == "ok")'
	[ "$(grep -m1 '^contest: no_load variant s run 1: ' <<<"$stderr")" = "contest: no_load variant s run 1: --variant s: the run saw sched_ext 'enabled s' then 'disabled', not the variant's 'enabled s'" ]
	# a program that exits before enabling anything
	rm -rf "$CONTEST_RESULTS"
	run --separate-stderr scx_contest -k k --warmup 0 -n 1 --lead 0 --variant eevdf --variant s:sched-ext='exit 0' -- true
	[ "$status" -eq 3 ]
	grep -qx "contest: no_load variant s run 1: --variant s: sched_ext not enabled: its program exited (it says 'disabled')" <<<"$stderr"
	# a kernel without sched_ext: said before anything runs
	rm -rf scx
	run --separate-stderr scx_contest -k k --variant eevdf --variant s:sched-ext='sh standin.sh s' -- true
	[ "$status" -eq 1 ]
	[ "$stderr" = "contest: --variant s: this kernel has no sched_ext (no /sys/kernel/sched_ext/state)" ]
}

@test "a kept program is gone after Ctrl-C and after kill -9 of the driver" {
	need_faults
	scx_standin
	for sig in INT KILL; do
		echo disabled > scx/state
		scx_contest_bg -k k --warmup 0 -n 50 --lead 0 --variant eevdf --variant s:sched-ext='sh standin.sh s' -- sleep 0.2 > out 2>&1 &
		pid=$!
		wait_until 600 grep -qx enabled scx/state
		kill -"$sig" "$pid"
		wait "$pid" || :
		[ "$sig" = KILL ] || grep -q '^contest: interrupted by signal 2' out
		# nothing it started outlives it: the stand-in and its sleeps
		no_leftovers 50
	done
}
