# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by scripts/bench/*: what a run measured, kept as JSON lines in
# doc/bench/BENCH.jsonl (CONTEST_BENCH_DIR elsewhere), so that every
# figure the docs quote is re-derivable and says which code measured it
# (the commit, and where the tree was dirty the hash of its diff):
# scripts/bench/render writes the docs' tables and quoted outputs from
# these files alone, and the suite
# renders them again and fails on any difference.  A run is stored whole
# or not at all: its figures and its output are appended under one lock
# when it ends well, and a run that fails or is interrupted leaves
# nothing.  A --quick run is no measurement and is stored only where
# CONTEST_BENCH_DIR asks for it (the suite's own checks of this file).
#
#   record_start WORK ARGS   after the options: ARGS as the run took them
#   record NAME GOAL VERDICT [UNIT] < values
#                            one figure: the rounds' values, one a line,
#                            their mean and Student's CI95 kept with them
#                            (a line "ci95 LO HI" gives the interval where
#                            the bench takes it otherwise, as for a ratio
#                            of means); GOAL as the verdict reads it
#                            ("<= 1.05 (one-sided)"), VERDICT the bench's own
#   record_end               the figures and the whole output, stored
# shellcheck shell=sh

. "$(dirname "$0")/verdict.sh"

# json_str: stdin as one JSON string (a file's lines joined by \n)
json_str() {
	awk 'BEGIN { ORS = "" } {
		gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); gsub(/\t/, "\\t"); gsub(/\r/, "\\r")
		gsub(/[\001-\037]/, "?")
		s = s (NR > 1 ? "\\n" : "") $0
	} END { print "\"" s "\"" }'
}

record_start() {
	rec_work=$1
	rec_args=$2
	rec_dir=${CONTEST_BENCH_DIR:-}
	rec_top=$(cd "$(dirname "$0")/../.." && pwd)
	case " $rec_args " in
	*" --quick "*) ;;
	*) [ -n "$rec_dir" ] || rec_dir=$rec_top/doc/bench ;;
	esac
	[ -n "$rec_dir" ] || return 0
	rec_t0=$(date +%s)
	rec_bench=$(basename "$0")
	# a dirty tree's code is its commit and a diff: the diff's hash says
	# which (the same uncommitted change, the same hash).  doc/bench is
	# the store, not code: a run before this one, not yet committed, does
	# not make the tree dirty
	rec_git=$(git -C "$rec_top" describe --always 2>/dev/null || echo unknown)
	rec_diff=
	if [ "$rec_git" != unknown ] && ! git -C "$rec_top" diff --quiet HEAD -- . ':(exclude)doc/bench'; then
		rec_git=$rec_git-dirty
		rec_diff=$(git -C "$rec_top" diff HEAD --binary -- . ':(exclude)doc/bench' | sha256sum | cut -d ' ' -f 1)
		rec_diff=",\"diff_sha256\":\"$rec_diff\""
	fi
	rec_cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
	[ -n "$rec_cpu" ] || rec_cpu=$(uname -m)
	rec_version=$("${CONTEST:-$rec_top/contest/contest}" --version 2>/dev/null | head -n 1)
	rec_head=$(printf '"bench":"%s","date":"%s","host":%s,"cpus":%d,"kernel":%s,"contest":%s,"git":%s,"args":%s' \
	    "$rec_bench" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$(echo "$rec_cpu" | json_str)" "$(nproc)" \
	    "$(uname -r | json_str)" "$(echo "${rec_version:-unknown}" | json_str)" "$(echo "$rec_git" | json_str)" \
	    "$(echo "$rec_args" | json_str)")$rec_diff
	: > "$rec_work/record.figures"
	# the output as it is printed, and a copy of it to be kept
	mkfifo "$rec_work/record.fifo"
	tee "$rec_work/record.out" < "$rec_work/record.fifo" &
	rec_tee=$!
	exec 8>&1 > "$rec_work/record.fifo"
}

record() {
	[ -n "${rec_dir:-}" ] || { cat > /dev/null; return 0; }
	awk -v name="$1" -v goal="$2" -v vd="$3" -v unit="${4:-}" -v looks="${LOOKS:-1}" \
	    -v head="$rec_head" "$VERDICT_AWK"'
	function str(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
	$1 == "ci95" { xlo = $2; xhi = $3; x = 1; next }
	NF { v[++n] = $1 + 0 }
	END {
		ci(v, n, 0.05)
		if (x) { LO = xlo; HI = xhi }
		printf "{%s,\"figure\":%s,\"unit\":%s,\"goal\":%s,\"verdict\":%s,\"looks\":%d,\"n\":%d", \
		    head, str(name), str(unit), str(goal), str(vd), looks, n
		if (n) printf ",\"mean\":%.6g", M; else printf ",\"mean\":null"
		if (n > 1 || x) printf ",\"ci95\":[%.6g,%.6g]", LO, HI; else printf ",\"ci95\":null"
		printf ",\"values\":["
		for (i = 1; i <= n; i++) printf "%s%.6g", (i > 1 ? "," : ""), v[i]
		print "]}"
	}' >> "$rec_work/record.figures"
}

record_end() {
	[ -n "${rec_dir:-}" ] || return 0
	exec 1>&8 8>&-
	wait "$rec_tee"
	mkdir -p "$rec_dir"
	{
		cat "$rec_work/record.figures"
		printf '{%s,"seconds":%d,"output":%s}\n' "$rec_head" $(($(date +%s) - rec_t0)) \
		    "$(json_str < "$rec_work/record.out")"
	} > "$rec_work/record.lines"
	# one append under a lock: two benches at once interleave no lines
	if command -v flock > /dev/null; then
		# shellcheck disable=SC2016 # the inner shell's own arguments
		flock "$rec_dir/$rec_bench.jsonl" sh -c 'cat "$1" >> "$2"' sh "$rec_work/record.lines" "$rec_dir/$rec_bench.jsonl"
	else
		cat "$rec_work/record.lines" >> "$rec_dir/$rec_bench.jsonl"
	fi
	echo "(stored in $rec_dir/$rec_bench.jsonl)"
}
