#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# seeds.sh SRCDIR OUT: seed corpora for the fuzz targets, one directory a
# target, made from the test data: result files, the bad-args corpus's
# argument lists and load specs, numbers at and past their bounds.
set -eu
src=$1 out=$2
rm -rf "$out"
mkdir -p "$out/reader" "$out/loadspec" "$out/num" "$out/args"

n=0
for f in "$src"/tests/data/report/*.jsonl "$src"/doc/example-nice.jsonl; do
	n=$((n + 1))
	cp "$f" "$out/reader/file$n"
	head -3 "$f" > "$out/reader/head$n"
done

# each bad-args line: its words NUL-separated, after the byte that picks
# the subcommand ('r' run, 'a' report, 'b' compare)
n=0
grep -v '^#' "$src/tests/data/bad-args" | while IFS= read -r line; do
	n=$((n + 1))
	eval "set -- ${line#* }"
	pick=r
	case ${1:-} in
	report) pick=a; shift ;;
	compare) pick=b; shift ;;
	run) shift ;;
	esac
	{ printf '%s' "$pick"; for w in "$@"; do printf '%s\0' "$w"; done; } > "$out/args/bad$n"
	for w in "$@"; do
		case $w in *_load* | forkbomb* | sleepers*) printf '%s' "$w" > "$out/loadspec/bad$n-$(printf '%s' "$w" | cksum | cut -d' ' -f1)" ;; esac
	done
done
printf 'r-n\0002\0--lead\0000.5\0-l\0fork_load:procs=2\0-l\0sleepers:n=10,wake=5\0--\0true\0' > "$out/args/good-run"
printf 'a--stats\0--format\0json\0-l\0fork_load\0' > "$out/args/good-report"
printf 'b--threshold\0002.5\0a\0b\0' > "$out/args/good-compare"
printf 'b--alpha\0000.01\0--holm\0--gate\0time,wait,lat\0a\0b\0c\0' > "$out/args/good-compare-n"
for spec in fork_load fork_load:procs=3,method=vfork forkbomb:mode=bomb,max=20 \
    sleepers:n=100,wake=10 cpu_load:n=1 'exec_load:cmd=echo a,b' io_load:size=4,dir=/tmp \
    mem_load:size=16,refault=1 process_load:n=4,tokens=2 list_load:dir=/usr no_load; do
	printf '%s' "$spec" > "$out/loadspec/$(printf '%s' "$spec" | cksum | cut -d' ' -f1)"
done
for v in 0 1 3 -1 19 -20 1000 1001 3600 3600.000 3600.001 0.5 1e3 0x10 ' 3' +3 '' \
    99999999999999999999 -9223372036854775808 9223372036854775807 00 1. .5; do
	printf '%s' "$v" > "$out/num/$(printf '%s' "$v" | cksum | cut -d' ' -f1)"
done
