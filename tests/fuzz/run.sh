#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh SRCDIR SECONDS TARGET...: make fuzz-run's body.  Each libFuzzer
# target (built in fuzz/) for SECONDS, from the seeds (seeds.sh) and the
# findings kept in SRCDIR/tests/fuzz/regress, as many at a time as there
# are CPUs: a fuzzer is one process on one CPU, so two on two CPUs run as
# many inputs each as one after the other, in half the time.  Prints each
# target's summary; exit 1 on a finding or a target that failed.
set -u
src=$1 secs=$2
shift 2
sh "$src/tests/fuzz/seeds.sh" "$src" fuzz/seeds || exit 1
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || ncpu=1
case $ncpu in '' | *[!0-9]* | 0) ncpu=1 ;; esac

one() {
	t=$1
	regress=
	[ ! -d "$src/tests/fuzz/regress/$t" ] || regress=$src/tests/fuzz/regress/$t
	# shellcheck disable=SC2086 # $regress: no word where there is none
	fuzz/$t -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	    -close_fd_mask=3 -print_final_stats=1 \
	    -artifact_prefix="fuzz/findings/$t/" "fuzz/corpus/$t" "fuzz/seeds/$t" \
	    $regress > "fuzz/$t.log" 2>&1
	echo $? > "fuzz/$t.rc"
}

all=$*
while [ $# -gt 0 ]; do
	pids=
	i=0
	while [ $# -gt 0 ] && [ "$i" -lt "$ncpu" ]; do
		mkdir -p "fuzz/corpus/$1" "fuzz/findings/$1"
		rm -f "fuzz/$1.rc"
		one "$1" &
		pids="$pids $!"
		i=$((i + 1))
		shift
	done
	# shellcheck disable=SC2086 # the pids, one word each
	wait $pids
done

bad=0
for t in $all; do
	echo "== fuzz/$t for $secs s"
	grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss|INFO: seed corpus|==[0-9]+==ERROR|SUMMARY)' "fuzz/$t.log" | tail -6
	rc=$(cat "fuzz/$t.rc" 2>/dev/null) || rc=1
	if [ -n "$(ls "fuzz/findings/$t")" ]; then
		echo "fuzz/$t: findings in fuzz/findings/$t"
		bad=1
	elif [ "$rc" -ne 0 ]; then
		echo "fuzz/$t: exit $rc"
		tail -5 "fuzz/$t.log"
		bad=1
	fi
done
exit "$bad"
