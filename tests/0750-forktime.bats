#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# forktime: every method, ordered percentiles, formats, raw samples,
# counted failures, bounded children, nothing left behind, and use as
# contest's foreground.

load helpers

ft() {
	marked "$FORKTIME" "$@"
}

# A field of forktime's CSV for a method.
ftf() {
	awk -F, -v m="$2" -v f="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $1 == m { print $c[f]; exit }' <<<"$1"
}

@test "forktime: every method runs and prints every field" {
	run --separate-stderr ft -n 30 --warmup 2
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	grep -qx 'method  *ok  *fail  *mean  *p50  *p90  *p99  *p99.9  *min  *max  */thread' <<<"$output"
	for m in fork vfork clone spawn exec-static exec-dynamic thread thread-detached; do
		row=$(awk -v m="$m" '$1 == m' <<<"$output")
		[[ "$row" =~ ^$m\ +30\ +0(\ +[0-9]+\.[0-9]+){8}$ ]] || { echo "# $row" >&3; return 1; }
	done
	grep -q '^clock overhead [0-9.]* us per sample (two clock reads), not subtracted' <<<"$output"
	grep -q 'each reaped or joined before the next' <<<"$output"
	# thread against itself is 1
	[ "$(awk '$1 == "thread" { print $NF }' <<<"$output")" = 1.00 ]
}

@test "forktime: min <= p50 <= p90 <= p99 <= p99.9 <= max, mean inside, in both timing modes" {
	for t in roundtrip create; do
		run --separate-stderr ft --time "$t" -n 200 --format csv
		[ "$status" -eq 0 ]
		[ "$(wc -l <<<"$output")" -eq 9 ]
		[ "$(awk -F, '{ print NF }' <<<"$output" | sort -u)" = 17 ]
		awk -F, 'NR > 1 {
			if (!($9 <= $5 && $5 <= $6 && $6 <= $7 && $7 <= $8 && $8 <= $10 && $9 <= $4 && $4 <= $10 && $2 == 200)) bad++
			n++
		} END { exit !(n == 8 && bad == 0) }' <<<"$output"
		[ "$(ftf "$output" fork time)" = "$t" ]
	done
}

@test "forktime: json parses; --raw keeps every sample, and their mean is the mean" {
	run --separate-stderr ft -n 150 --format json --raw raw.csv fork thread
	[ "$status" -eq 0 ]
	jq -e '.samples == 150 and (.methods | length) == 2 and .methods[1].ratio_to_thread == 1' <<<"$output"
	jq -e '.methods[0] | .ok == 150 and .failed == 0 and .p999_us >= .p99_us and .overhead_us == null' <<<"$output"
	[ "$(head -1 raw.csv)" = "method,index,us" ]
	[ "$(grep -c '^fork,' raw.csv)" -eq 150 ]
	[ "$(grep -c '^thread,' raw.csv)" -eq 150 ]
	mean=$(jq '.methods[0].mean_us' <<<"$output")
	awk -F, -v want="$mean" '$1 == "fork" { s += $3; n++ } END { m = s / n; exit !(m - want < 0.01 && want - m < 0.01) }' raw.csv
}

@test "forktime: --subtract-overhead is said, and no sample goes below zero" {
	run --separate-stderr ft -n 100 --subtract-overhead --format json --raw raw.csv thread
	[ "$status" -eq 0 ]
	jq -e '.overhead_subtracted == true and .overhead_us > 0 and .overhead_us < 10' <<<"$output"
	[ "$(awk -F, 'NR > 1 && $3 < 0' raw.csv | wc -l)" -eq 0 ]
	run ft -n 10 --subtract-overhead thread
	[ "$status" -eq 0 ]
	grep -q ', subtracted$' <<<"$output"
}

@test "forktime: refused creations are counted, not fatal; exit 1" {
	user_results
	run --separate-stderr marked setpriv --reuid=$((64997 + UID_SHIFT)) --regid=$((64997 + UID_SHIFT)) --clear-groups \
	    bash -c 'ulimit -u 6 && exec "$0" --time create --batch 20 --keep-alive 200 --warmup 0 -n 20 --format csv fork thread' "$UFORKTIME"
	[ "$status" -eq 1 ]
	fails=$(ftf "$output" fork failed)
	oks=$(ftf "$output" fork ok)
	[ "$fails" -gt 0 ]
	[ "$oks" -gt 0 ]
	[ $((fails + oks)) -eq 20 ]
	[ "$(ftf "$output" thread failed)" -gt 0 ]
}

@test "forktime: children are reaped after each batch, never piling up" {
	# not through ft(): $! must be forktime itself
	marked_bg "$FORKTIME" --time create --batch 10 --keep-alive 300 --warmup 0 -n 60 fork >out
	local pid=$! n most=0 looks=0
	# its children counted over its whole life, until it exits (a zombie
	# until waited for): six batches, each alive 300 ms, never more than
	# a batch's worth at once, since each batch is reaped before the next
	while running "$pid"; do
		n=$(pgrep -P "$pid" | wc -l)
		[ "$n" -le "$most" ] || most=$n
		looks=$((looks + 1))
	done
	wait "$pid"
	echo "# at most $most children at once, over $looks looks" >&3
	# a batch was seen, so the bound was tested
	[ "$most" -ge 1 ]
	[ "$most" -le 10 ]
	grep -q 'reaped after each batch' out
	grep -q '^fork  *60  *0 ' out
}

@test "forktime: kept-alive children die with it on kill -9; SIGINT reaps and exits 130" {
	marked_bg "$FORKTIME" --time create --batch 30 --keep-alive 30000 --warmup 0 -n 30 fork >/dev/null
	local pid=$! tries=0
	while [ "$(pgrep -P "$pid" | wc -l)" -lt 30 ] && [ "$tries" -lt 100 ]; do
		sleep 0.05
		tries=$((tries + 1))
	done
	[ "$(pgrep -P "$pid" | wc -l)" -eq 30 ]
	kill -9 "$pid"
	wait "$pid" || :
	no_leftovers 20
	marked_bg "$FORKTIME" --time create --batch 30 --keep-alive 30000 --warmup 0 -n 60 fork >/dev/null 2>err
	pid=$!
	tries=0
	while [ "$(pgrep -P "$pid" | wc -l)" -lt 30 ] && [ "$tries" -lt 100 ]; do
		sleep 0.05
		tries=$((tries + 1))
	done
	kill -INT "$pid"
	local st=0
	wait "$pid" || st=$?
	[ "$st" -eq 130 ]
	grep -qx 'forktime: interrupted by signal 2' err
	no_leftovers 20
}

@test "forktime: bad usage is one line and exit 2; a method it cannot run here is exit 1" {
	for args in "-n 0" "-n x" "--batch 5 fork" "--reap ignore fork" "--time later" \
	    "--format xml" "nosuch" "fork fork" "--keep-alive 60001" "--bogus" "--raw ''"; do
		eval "set -- $args"
		run --separate-stderr ft "$@"
		[ "$status" -eq 2 ] || { echo "# $args: $status" >&3; return 1; }
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
		[[ "$stderr" == forktime:* ]]
		[ -z "$output" ]
	done
	run --separate-stderr ft -n 5 --keep-alive 10 vfork
	[ "$status" -eq 1 ]
	[ "$stderr" = "forktime: vfork: a vfork child cannot be kept alive: the parent waits for it" ]
	# not named: skipped and said so, not a failure
	run ft -n 5 --keep-alive 10 --warmup 0
	[ "$status" -eq 0 ]
	grep -q '^vfork  *skipped: a vfork child cannot be kept alive' <<<"$output"
	run --separate-stderr env FORKTIME_HELPERS=/nonexistent "$FORKTIME" -n 5 exec-static
	[ "$status" -eq 1 ]
	[ "$stderr" = "forktime: exec-static: the static helper is missing" ]
}

@test "forktime as contest's foreground: beside sleepers, with an honest exit status" {
	run contest --warmup 0 -n 1 --lead 0.2 -l sleepers:n=50 -- "$FORKTIME" -n 300 fork
	[ "$status" -eq 0 ]
	[[ "$(table_row sleepers:n=50 "$output")" =~ \ 50\ +-\ +0% ]]	# Loads, Load%, LCPU%
	log=$(ls "$CONTEST_RESULTS"/logs/*.log)
	[ "$(grep -c '^fork  *300  *0 ' "$log")" -eq 2 ]
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 -- "$FORKTIME" --batch 2 fork
	[ "$status" -eq 1 ]
	[ "$(rq '.[0].status + " " + (.[0].exit_code | tostring)')" = "failed 2" ]
}
