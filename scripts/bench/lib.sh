# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by scripts/bench/*: where the programs are, --quick, the peers.
# shellcheck shell=sh
# shellcheck disable=SC2034 # quick and the rest are for the scripts that source it

top=$(cd "$(dirname "$0")/../.." && pwd)
CONTEST=${CONTEST:-$top/contest/contest}
FORKTIME=${FORKTIME:-$top/forktime/forktime}
# the helper sits next to forktime (an out-of-tree build keeps both there)
NOP=${NOP:-$(dirname "$FORKTIME")/nop-static}
me=bench/$(basename "$0")
quick=0
for arg in "$@"; do
	case $arg in
	--quick) quick=1 ;;
	-h | --help) sed -n '/SPDX-License-Identifier/d; s/^# \{0,1\}//; 2,/^$/p' "$0" | sed '/^$/q'; exit 0 ;;
	*) echo "$me: unknown option '$arg' (--quick or --help)" >&2; exit 2 ;;
	esac
done
for p in "$CONTEST" "$FORKTIME"; do
	[ -x "$p" ] || { echo "$me: $p is not built (run make)" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/contest-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
. "$(dirname "$0")/record.sh"
record_start "$work" "$([ "$quick" -eq 0 ] || echo --quick)"

# have PEER: whether a peer tool is there (scripts/bench/all installs them)
have() {
	command -v "$1" >/dev/null 2>&1 || { echo "($1 is not installed: its column is skipped)"; return 1; }
}

# n mean sd cov median min max of the numbers on stdin
summary() {
	sort -g | awk '{ v[NR] = $1; s += $1 } END {
		n = NR; m = s / n
		for (i = 1; i <= n; i++) ss += (v[i] - m) ^ 2
		sd = (n > 1 ? sqrt(ss / (n - 1)) : 0)
		med = (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2)
		printf "%d %.6f %.6f %.4f %.6f %.6f %.6f\n", n, m, sd, (m ? sd / m : 0), med, v[1], v[n]
	}'
}

# pieces_job N: a shell command keeping every CPU busy with N pieces of about
# 40 ms each, handed out to the next free CPU as make -jN does (the job
# the probe, series and migrations benches time)
pieces_job() {
	echo "seq $1 | xargs -P $(nproc) -n 1 sh -c 'i=0; while [ \$i -lt 50000 ]; do i=\$((i+1)); done'"
}

# wall-clock seconds with nanoseconds (GNU date)
now() {
	date +%s.%N
}

# nice_lines N: N results lines, the runs of doc/example-nice.jsonl
# relabelled and repeated (20 labels, 5 load specs), each copy of the
# file a session of its own, as a lab's sessions are: copies that kept
# the session id would be one run read many times, which report counts
# once (9,640 of every 10,000 lines, the reader's duplicate path)
nice_lines() {
	awk -v want="$1" '
	    { line[NR] = $0 }
	    END {
		for (i = 0; i < want; i++) {
			l = line[i % NR + 1]
			if (match(l, /"session":"[^"]*"/))
				l = substr(l, 1, RSTART + RLENGTH - 2) "-c" int(i / NR) \
				    substr(l, RSTART + RLENGTH - 1)
			sub(/"label":"[^"]*"/, "\"label\":\"k" (int(i / NR) % 20) "\"", l)
			sub(/"load_spec":"[^"]*"/, "\"load_spec\":\"L" (i % 5) "\"", l)
			print l
		}
	    }' "$top/doc/example-nice.jsonl"
}
