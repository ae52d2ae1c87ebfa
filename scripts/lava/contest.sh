#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The run step of scripts/lava/contest.yaml: build contest if needed, run
# a session, and write output/result.txt, one "TEST_CASE_ID RESULT
# MEASUREMENT UNITS" line per figure (contest report --format lava).
# Where lava-test-case is on PATH (inside a LAVA test shell) each line is
# reported through it; elsewhere the file is all.  The results file itself
# is kept in output/results/ for the lab to merge with contest report.
# With -p (the lab's earlier results of this host, a file or directory),
# the night is judged in their series too: a line per series of the last
# -K labels (contest history --format lava), fail where it ends worse.
set -u

usage() {
	echo "usage: $0 [-l LOADS] [-n RUNS] [-j JOB] [-k LABEL] [-a CONTEST_ARGS] [-s true|false]" >&2
	echo "       [-p PRIOR_RESULTS] [-K NIGHTS]" >&2
	exit 2
}

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
OUTPUT=${OUTPUT:-$here/output}
RESULT_FILE=$OUTPUT/result.txt
loads="fork_load cpu_load"
runs=3
job=
label=
extra=
skip_install=false
prior=
nights=30

while getopts "l:n:j:k:a:s:p:K:h" o; do
	case $o in
	l) loads=$OPTARG ;;
	n) runs=$OPTARG ;;
	j) job=$OPTARG ;;
	k) label=$OPTARG ;;
	a) extra=$OPTARG ;;
	s) skip_install=$OPTARG ;;
	p) prior=$OPTARG ;;
	K) nights=$OPTARG ;;
	*) usage ;;
	esac
done
case $skip_install in true | false) ;; *) usage ;; esac
case $nights in *[!0-9]* | '') usage ;; esac
[ -z "$prior" ] || [ -e "$prior" ] || { echo "contest.sh: -p $prior: no such file or directory" >&2; exit 2; }

contest=${CONTEST:-$top/contest/contest}
# an image with contest installed (scripts/vm's) runs that one
if [ ! -x "$contest" ] && [ -z "${CONTEST:-}" ] && command -v contest >/dev/null 2>&1; then
	contest=$(command -v contest)
fi
if [ ! -x "$contest" ]; then
	if [ "$skip_install" = true ]; then
		echo "contest.sh: $contest is not built and SKIP_INSTALL is true" >&2
		exit 1
	fi
	(cd "$top" && scripts/bootstrap && make) || {
		echo "contest.sh: building contest failed" >&2
		exit 1
	}
fi

mkdir -p "$OUTPUT" || exit 1
rm -f "$RESULT_FILE"
set -- -o "$OUTPUT/results" -n "$runs"
[ -n "$label" ] && set -- "$@" -k "$label"
for l in $loads; do
	set -- "$@" -l "$l"
done
# shellcheck disable=SC2086 # $extra is options, split on purpose
set -- "$@" $extra
# JOB as words, as on contest's own command line, so that a make job
# ("make -j2 bzImage") is seen as one and cleaned before every run; a
# shell only for a line that needs one (a pipe, a redirection, quotes,
# globs, a VAR=value prefix, several commands, a shell builtin)
if [ -n "$job" ]; then
	case $job in
	*[\|\&\;\<\>\(\)\$\`\\\"\'\*\?\[\#\~]* | *"
"*)
		set -- "$@" -- /bin/sh -c "$job" ;;
	*)
		# a program, not a builtin ("exit 3") nor a VAR=value prefix
		first=${job#"${job%%[! 	]*}"}
		first=${first%%[ 	]*}
		case $first in
		*=*) program= ;;
		*/*) program=$first ;;
		*) program=$(command -v "$first" 2>/dev/null) ;;
		esac
		case $program in
		/* | */*)
			set -f
			# shellcheck disable=SC2086 # $job is its words
			set -- "$@" -- $job
			set +f ;;
		*) set -- "$@" -- /bin/sh -c "$job" ;;
		esac ;;
	esac
fi
"$contest" "$@"
rc=$?
# a session that ran nothing has nothing to report: say so and fail
if ! "$contest" report --format lava -f "$OUTPUT/results" > "$RESULT_FILE.tmp"; then
	rm -f "$RESULT_FILE.tmp"
	echo "contest.sh: no results (contest exited $rc)" >&2
	exit 1
fi
# the series of this host's last nights, the lab's earlier results and
# tonight's: history exits 1 where one ends worse (its lines say fail)
if [ -n "$prior" ]; then
	"$contest" history -f "$prior" -f "$OUTPUT/results" --host "$(uname -n)" \
	    --last "$nights" --format lava >> "$RESULT_FILE.tmp"
	[ $? -le 1 ] || { rm -f "$RESULT_FILE.tmp"; echo "contest.sh: history failed" >&2; exit 1; }
fi
mv "$RESULT_FILE.tmp" "$RESULT_FILE"

if command -v lava-test-case >/dev/null 2>&1; then
	while read -r id result measurement units; do
		if [ -n "$measurement" ]; then
			lava-test-case "$id" --result "$result" --measurement "$measurement" \
			    --units "$units"
		else
			lava-test-case "$id" --result "$result"
		fi
	done < "$RESULT_FILE"
fi
echo "contest.sh: $RESULT_FILE (contest exited $rc)"
exit 0
