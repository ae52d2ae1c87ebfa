# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by every bats file.  Each test gets its own results dir, and a
# marker in the environment of everything contest starts, so teardown can
# prove that nothing it started is left behind.

bats_require_minimum_version 1.5.0

# The tests' make jobs are the user's, not the suite's: 'make -s check'
# would hand them its -s (no recipe echoed) and its jobserver.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

setup() {
	MARK="ct$$x${BATS_TEST_NUMBER}x${RANDOM}"
	export CONTEST_RESULTS="$BATS_TEST_TMPDIR/results"
	R="$CONTEST_RESULTS/results.jsonl"
	cd "$BATS_TEST_TMPDIR" || return 1
	# a file that runs nothing of contest's own code (lint, layout, the
	# VM's boots: PLAIN_ONLY=1) is skipped under the sanitizers' build,
	# where CI sets CONTEST_SANITIZED: the plain suite has run it
	if [ -n "${PLAIN_ONLY:-}" ] && [ -n "${CONTEST_SANITIZED:-}" ]; then
		skip "no sanitized code runs in this file: the plain suite runs it"
	fi
}

teardown() {
	[ -z "${USER_DIR:-}" ] || rm -rf "$USER_DIR"
	said_last_run
	left_behind "$BATS_TEST_TMPDIR"
}

# said_last_run: where the test failed, what its last run said (its
# status, and the ends of its stderr and output), so that a failure on a
# busy host that no one can make again still says why
said_last_run() {
	[ -z "${BATS_TEST_COMPLETED:-}" ] || return 0
	{
		echo "the last run: status ${status:-none}"
		[ -z "${stderr:-}" ] || { echo "its stderr, last lines:"; tail -n 15 <<<"$stderr"; }
		[ -z "${output:-}" ] || { echo "its output, last lines:"; tail -n 5 <<<"$output"; }
	} | sed 's/^/# /' >&3
}

# left_behind DIR: nothing of $MARK still runs, and what was stored under
# DIR is kept for the file's schema check (a test's own DIR), or checked
# against the schemas (the file's).  A test that failed half way (a
# session it started still running) must not leave its processes to the
# tests after it: the failure stands, and they go.
left_behind() {
	local rc=0
	no_leftovers 0 || rc=$?
	if [ "$rc" -eq 0 ] && [ "$1" = "$BATS_FILE_TMPDIR" ]; then
		schema_check "$1" || rc=$?
	elif [ "$rc" -eq 0 ]; then
		schema_keep "$1" || rc=$?
	fi
	# shellcheck disable=SC2046
	[ "$rc" -eq 0 ] || kill -KILL $(marked_pids) 2>/dev/null || :
	return "$rc"
}

# schema_keep DIR: a copy of what the test stored (its *.jsonl files and
# the JSON it printed) under the file's tmpdir, in .schema/TEST_NUMBER,
# for teardown_file's one schema check: the validator's start (python
# and jsonschema, about half a CPU second here) once a file, not once
# each of some 800 tests.
schema_keep() {
	local to="$BATS_FILE_TMPDIR/.schema/$BATS_TEST_NUMBER" f
	while IFS= read -r -d '' f; do
		mkdir -p "$to/${f%/*}" && cp "$1/$f" "$to/$f" || return 1
	done < <(cd "$1" && find . \( -name '*.jsonl' -o -path '*/.json-out/*' \) -type f -print0 2>/dev/null)
}

# The file's end: what its tests kept, and what its setup_file stored,
# against the schemas.  A file with a teardown_file of its own calls
# file_teardown, which checks the same (tests/0010 holds it to that).
teardown_file() {
	schema_check "$BATS_FILE_TMPDIR"
}

# A file whose tests share what a session made once (setup_file calls
# file_setup, then runs it with file_marked): the file's own mark, so that
# teardown_file (file_teardown) finds whatever of it is left, and the
# schema check over what it stored.
file_setup() {
	export FILE_MARK="ctf$$x${RANDOM}"
}
file_marked() {
	env CONTEST_TEST_MARK="$FILE_MARK" "$@"
}
file_teardown() {
	local MARK=$FILE_MARK
	left_behind "$BATS_FILE_TMPDIR"
}

# contest with the marker in its environment (env execs, so the marker is
# on contest itself and inherited by all it forks).  A report or compare
# in JSON keeps a copy of what it printed, for schema_check.
contest() {
	local kind='' a prev='' out rc=0
	case ${1:-} in report | compare | plan)
		for a in "$@"; do
			if [ "$a" = --format=json ] || { [ "$prev" = --format ] && [ "$a" = json ]; }; then
				kind=$1
			fi
			prev=$a
		done ;;
	esac
	if [ -z "$kind" ]; then
		marked "$CONTEST" "$@"
		return
	fi
	mkdir -p "$BATS_TEST_TMPDIR/.json-out"
	out=$(mktemp "$BATS_TEST_TMPDIR/.json-out/$kind.XXXXXX")
	marked "$CONTEST" "$@" >"$out" || rc=$?
	cat "$out"
	# a document only where one was printed (compare's 1 is a verdict)
	{ [ "$rc" -le 1 ] && [ -s "$out" ]; } || rm -f "$out"
	return "$rc"
}

# Debian's python3 (where python3-jsonschema is), else the one on PATH.
schema_python() {
	if [ -x /usr/bin/python3 ]; then
		echo /usr/bin/python3
	else
		command -v python3
	fi
}

# Every results line stored under DIR (each *.jsonl that holds results)
# and every JSON report, comparison and plan printed there, against the
# schemas in doc/.  Without a validator it checks nothing here, and
# tests/0990-schema.bats says so with a skip.
schema_check() {
	local py files=() f k rc=0 dir=${1:-$BATS_TEST_TMPDIR}
	set --	# the validator's arguments, gathered below
	py=$(schema_python) || return 0
	while IFS= read -r -d '' f; do
		files+=("$f")
	done < <(find "$dir" -name '*.jsonl' -type f -print0 2>/dev/null)
	[ "${#files[@]}" -eq 0 ] || set -- results "${files[@]}"
	while IFS= read -r -d '' f; do
		case ${f##*/} in
		report.* | compare.* | plan.*) k=${f##*/} && set -- "$@" "${k%%.*}" "$f" ;;
		esac
	done < <(find "$dir" -path '*/.json-out/*' -type f -print0 2>/dev/null)
	[ $# -gt 0 ] || return 0
	"$py" "$TOP_SRCDIR/tests/validate-json" "$@" >"$dir/.schema-check" 2>&1 || rc=$?
	[ "$rc" -ne 0 ] || return 0
	# no validator: tests/0990-schema.bats skips, saying so
	[ "$rc" -ne 2 ] || ! grep -q '^validate-json: no python3-jsonschema$' "$dir/.schema-check" || return 0
	echo "# what was stored does not match doc/*.schema.json (.schema/N: test N's):" >&3
	sed 's/^/# /' "$dir/.schema-check" | head -n 20 >&3
	return 1
}

# One grep over every environ: a grep a process took seconds beside a
# load of thousands, and forked as fast as the load it was looking for.
marked_pids() {
	grep -lsxzF "CONTEST_TEST_MARK=$MARK" /proc/[0-9]*/environ 2>/dev/null |
	    sed 's|^/proc/\([0-9]*\)/environ$|\1|'
	return 0
}

# load_cpu_job TICKS: a job (sh -c's script) that ends once the load
# beside it (the driver's children the OOM killer takes first) has had
# TICKS clock ticks of CPU: its own work, counted, where a sleep would
# count the host's business (a sanitized load on a busy host got under
# nine reallocs in half a second).  Beside no_load, the first run
# (ran-once marks it), it ends at once; after 60 s without them it fails.
load_cpu_job() {
	printf '%s' '
	    [ -e ran-once ] || { touch ran-once; exit 0; }
	    for try in $(seq 1200); do
		for p in $(ps -o pid= --ppid $PPID); do
			[ "$(cat /proc/$p/oom_score_adj 2>/dev/null)" = 1000 ] || continue
			t=$(sed "s/.*) //" /proc/$p/stat 2>/dev/null | cut -d" " -f12,13 | tr " " +)
			[ -n "$t" ] && [ $(($t)) -ge '"$1"' ] && exit 0
		done
		sleep 0.05
	    done
	    exit 1'
}

# no_leftovers GRACE_TENTHS: fail if a marked process outlives the grace.
no_leftovers() {
	local left tries=${1:-0}
	while :; do
		left=$(marked_pids)
		[ -z "$left" ] && return 0
		[ "$tries" -le 0 ] && break
		tries=$((tries - 1))
		sleep 0.1
	done
	echo "# processes left behind:" >&3
	# shellcheck disable=SC2086
	ps -o pid,ppid,pgid,stat,args -p "$(echo $left | tr ' ' ,)" | sed 's/^/# /' >&3
	return 1
}

# own_sched: the suite's own nice and scheduling policy, "NICE POLICY",
# as the kernel says them (stat fields 19 and 41) of a process this shell
# starts: what contest and all it starts inherit where no knob says
# otherwise, so the zero point of every test that reads them (under
# `nice -n 10 make check` a load with no knob runs at nice 10).
own_sched() {
	sed 's/.*) //' /proc/self/stat | cut -d' ' -f17,39
}

# count_text V: a count or a rate as the table's notes print it (a whole
# number from 100 up or where it is one, two places from 1, four below);
# COUNT, an ERE of any such text.
count_text() {
	awk -v v="$1" 'BEGIN { d = (v >= 100 || v == int(v)) ? 0 : v >= 1 ? 2 : 4; printf("%." d "f\n", v) }'
}
COUNT='([0-9]+|[0-9]+\.[0-9]{2}|0\.[0-9]{4})'

# Lines of results.jsonl, each checked to be one JSON object.
result_lines() {
	jq -c . "$R"
}

# jq over the whole results file as an array.
# marked [VAR=value...] CMD [ARGS...]: CMD with the suite's mark in its
# environment (env(1)'s words), which is how no_leftovers knows all that
# a test started; whatever CMD execs keeps it.  marked_bg starts it in the
# background, so that $! is CMD itself; marked_exec becomes it (in a
# background subshell).
marked() {
	env CONTEST_TEST_MARK="$MARK" "$@"
}
marked_bg() {
	env CONTEST_TEST_MARK="$MARK" "$@" &
}
marked_exec() {
	exec env CONTEST_TEST_MARK="$MARK" "$@"
}

rq() {
	jq -s -r "$@" "$R"
}

# The data row of a block in the table printed on stdout: "block" "text".
table_row() {
	awk -v blk="$1:" '$0 == blk {getline; getline; print; exit}' <<<"$2"
}

# For contest_as: results in a dir another uid can write (the bats tmpdir's
# parents may not even be reachable).  Call outside `run`: it sets R.
# The programs are copied there too: the build tree may sit where another
# uid cannot reach (a clone in root's home, mode 0700).
user_results() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run as another user"
	command -v setpriv >/dev/null || skip "no setpriv"
	USER_DIR=$(mktemp -d /tmp/contest-user.XXXXXX)
	chmod 1777 "$USER_DIR"	# sticky, as /tmp: contest refuses a results dir under an unsticky world-writable parent
	mkdir "$USER_DIR/bin"
	# contest execs its load worker from beside itself
	cp "$CONTEST" "$(dirname "$CONTEST")/contest-load" "$FORKBOMB" "$FORKTIME" "$USER_DIR/bin/"
	chmod 755 "$USER_DIR/bin" "$USER_DIR"/bin/*
	UCONTEST=$USER_DIR/bin/contest
	UFORKBOMB=$USER_DIR/bin/forkbomb
	UFORKTIME=$USER_DIR/bin/forktime
	# RLIMIT_NPROC counts every process of a uid on the machine: a second
	# suite running beside this one must not share the test's uid
	UID_SHIFT=$(( (($$ * 131 + RANDOM) % 9000) * 100 + 100000 ))
	export CONTEST_RESULTS="$USER_DIR/results"
	R="$CONTEST_RESULTS/results.jsonl"
}

# contest_as UID NPROC ARGS...: contest as another uid, limited to NPROC
# processes ("-": the limit as it is).  Give each test its own uid: RLIMIT_NPROC counts every process
# of the uid, and test files may run in parallel.
contest_as() {
	local uid=$(($1 + UID_SHIFT)) nproc=$2
	shift 2
	marked setpriv --reuid="$uid" --regid="$uid" --clear-groups \
	    bash -c '{ [ "$1" = - ] || ulimit -u "$1"; } && shift && exec "$@"' _ "$nproc" "$UCONTEST" "$@"
}

# The row of LABEL in block BLOCK of a report or run table.
block_row() {
	awk -v blk="$1:" -v lab="$2" '
	    $0 == blk { inb = 1; next }
	    /^[^ ]+:$/ { inb = 0 }
	    inb && $1 == lab { print; exit }' <<<"$3"
}

# Fields per line of CSV on stdin (quoted fields may hold commas), one
# count per line.
csv_columns() {
	awk '{
		n = 1; q = 0
		for (i = 1; i <= length($0); i++) {
			c = substr($0, i, 1)
			if (c == "\"") q = !q
			else if (c == "," && !q) n++
		}
		print n
	}'
}

# Field NAME of the CSV line whose first fields match: csv_get CSV LOAD KERNEL NAME
# (no quoted commas in the fixtures' fields before NAME).
csv_get() {
	awk -F, -v load="$2" -v k="$3" -v name="$4" '
	    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	    $1 == load && $3 == k { print $col[name]; exit }' <<<"$1"
}

# mean, sd and CI95 half-width (Student's t, two-sided 95%) of the
# numbers on stdin, computed here independently of contest.
awk_stats() {
	awk '
	    function t95(df) {
		split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228", t, " ")
		return t[df]
	    }
	    { v[++n] = $1; s += $1 }
	    END {
		m = s / n
		for (i = 1; i <= n; i++) ss += (v[i] - m) ^ 2
		sd = (n > 1 ? sqrt(ss / (n - 1)) : 0)
		printf "%.6f %.6f %.6f %d\n", m, sd, (n > 1 ? t95(n - 1) * sd / sqrt(n) : 0), n
	    }'
}

# wait_until TENTHS CMD...: run CMD every tenth of a second until it
# succeeds; fail after TENTHS tries.  Tests wait for events, with a cap
# generous enough for a busy machine.
# running PID: PID has not exited (a background job's pid stays a zombie,
# and kill -0 true, until the shell waits for it).
running() {
	case $(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) in
	'' | Z) return 1 ;;
	esac
}

wait_until() {
	local n=$1
	shift
	until "$@"; do
		n=$((n - 1))
		[ "$n" -gt 0 ] || { echo "# gave up waiting for: $*" >&3; return 1; }
		sleep 0.1
	done
}

# Marked processes named COMM (the kernel's comm), one pid a line.
marked_named() {
	local p
	for p in $(marked_pids); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$1" ] && echo "$p"
	done
	return 0
}

# How many lines FILE has (0 when it does not exist yet).
lines_of() {
	if [ -e "$1" ]; then wc -l <"$1"; else echo 0; fi
}

# The processes below PID (any depth, zombies included: a zombie keeps
# its parent until reaped), one "pid state" a line, from /proc/PID/stat.
descendants() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v top="$1" '
	    {
		pid = $1
		line = $0
		sub(/.*\) /, "", line)	# the fields after the command name
		split(line, f, " ")
		state[pid] = f[1]; parent[pid] = f[2]
	    }
	    END {
		for (p in parent) {
			q = parent[p]
			for (d = 0; q != "" && q != 0 && d < 64; d++) {
				if (q == top) { print p, state[p]; break }
				q = parent[q]
			}
		}
	    }'
}

# need CMD PACKAGE: the rest of the test is skipped, saying why, where
# CMD is missing (scripts/bootstrap --tests installs PACKAGE); a check
# that needs a tool goes last in its test, after the ones that do not.
need() {
	command -v "$1" >/dev/null 2>&1 || skip "no $1 (Debian's $2): the checks that need it are skipped"
}

# contest with tests/faults.so preloaded: CONTEST_FAULT=... before the
# call picks the fault.  need_faults skips where make check did not build it.
need_faults() {
	[ -e "${FAULTS:-/nonexistent}" ] || skip "no tests/faults.so (make check builds it)"
}
# the environment faults.so needs, as env(1)'s words (ASan would refuse a
# preload that comes before it)
FAULTS_ENV=(LD_PRELOAD="${FAULTS:-}" "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
contest_faulty() {
	marked "${FAULTS_ENV[@]}" "$CONTEST" "$@"
}

# A stand-in kernel tree in DIR (default .): bzImage takes a second to
# build and is then up to date; clean removes it and says with which
# variables it ran.
standin() {
	mkdir -p "${1:-.}"
	printf '%s\n' \
	    'bzImage:' '	sleep 1; touch bzImage' \
	    'clean:' '	rm -f bzImage; echo "O=$(O) ARCH=$(ARCH)" >> cleaned' \
	    '.PHONY: clean' >"${1:-.}/${2:-Makefile}"
}
