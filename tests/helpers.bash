# Shared by every bats file.  Each test gets its own results dir, and a
# marker in the environment of everything contest starts, so teardown can
# prove that nothing it started is left behind.

bats_require_minimum_version 1.5.0

setup() {
	MARK="ct$$x${BATS_TEST_NUMBER}x${RANDOM}"
	export CONTEST_RESULTS="$BATS_TEST_TMPDIR/results"
	R="$CONTEST_RESULTS/results.jsonl"
	cd "$BATS_TEST_TMPDIR" || return 1
}

teardown() {
	no_leftovers 0
}

# contest with the marker in its environment (env execs, so the marker is
# on contest itself and inherited by all it forks).
contest() {
	env CONTEST_TEST_MARK="$MARK" "$CONTEST" "$@"
}

marked_pids() {
	local d
	for d in /proc/[0-9]*; do
		if grep -qsz "^CONTEST_TEST_MARK=$MARK\$" "$d/environ" 2>/dev/null; then
			echo "${d#/proc/}"
		fi
	done
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

# Lines of results.jsonl, each checked to be one JSON object.
result_lines() {
	jq -c . "$R"
}

# jq over the whole results file as an array.
rq() {
	jq -s -r "$@" "$R"
}

# The data row of a block in the table printed on stdout: "block" "text".
table_row() {
	awk -v blk="$1:" '$0 == blk {getline; getline; print; exit}' <<<"$2"
}
