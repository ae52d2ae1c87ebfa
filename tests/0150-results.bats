#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# results.jsonl: whole lines, every field, appended, never elsewhere.

load helpers

FIELDS='schema contest_version session timestamp host kernel kernel_version
label arch nproc cpu_model mem_total_kb command argv prepare prepare_inferred lead_s load
load_spec load_options round run warmup status exit_code wall_s usr_s sys_s
cpu_pct minflt majflt nvcsw nivcsw maxrss_kb driver_cpu_s load_workers load_cpu_s lcpu_pct
lcpu_source load_cpu_total_s load_life_s counters counters_total psi_some_s
cpus_online cpufreq_governor cpufreq_cur_khz cpufreq_min_khz cpufreq_max_khz
smt clocksource vmstat sched load_nice load_policy load_cpus job_cpus
kernel_build_id sched_ext_changed'

@test "every line is one JSON object with every field" {
	run contest --warmup 0 -n 2 --lead 0 -l fork_load -- true
	[ "$status" -eq 0 ]
	[ "$(result_lines | wc -l)" -eq 4 ]
	[ "$(wc -l <"$R")" -eq 4 ]
	[ "$(tail -c1 "$R" | od -An -c | tr -d ' ')" = '\n' ]
	for f in $FIELDS; do
		[ "$(rq --arg f "$f" 'map(has($f)) | all')" = true ] || {
			echo "# missing field $f" >&3; false; }
	done
	[ "$(rq 'map(.schema) | unique | .[]')" = 3 ]
	[ "$(rq 'map(.status) | unique | .[]')" = ok ]
	rq 'all(.timestamp | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z$"))' | grep -qx true
	rq 'all(.nproc >= 1 and .mem_total_kb > 0 and (.cpu_model | length) > 0)' | grep -qx true
	[ "$(rq '.[1].load_options | "\(.procs) \(.method)"')" = "1 fork" ]
	[ "$(rq 'map(.session) | unique | length')" -eq 1 ]
}

@test "a second session appends and leaves the first lines intact" {
	run contest --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	first=$(cat "$R")
	run contest --warmup 0 -n 2 --lead 0 -- true
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$R")" -eq 3 ]
	[ "$(head -n1 "$R")" = "$first" ]
	[ "$(rq 'map(.session) | unique | length')" -eq 2 ]
}

@test "a command line that is not UTF-8 still gives valid JSON" {
	run contest --warmup 0 -n 1 --lead 0 -- echo $'a\xffb' $'tab\there' 'quo"te'
	[ "$status" -eq 0 ]
	[ "$(rq '.[0].argv[1:] | join(" ")')" = $'a\ufffdb tab\there quo"te' ]
}

@test "an unwritable results dir is an error before any run" {
	touch notadir
	run --separate-stderr contest -o notadir/sub --warmup 0 -n 1 --lead 0 -- touch ran
	[ "$status" -eq 2 ]
	[[ "$stderr" == "contest: results dir notadir/sub: notadir: Not a directory" ]]
	[ ! -e ran ]
}

@test "a results dir without write permission is an error before any run" {
	user_results
	chmod 755 "$USER_DIR"	# root's, not writable by the uid below
	run --separate-stderr contest_as 64992 - --warmup 0 -n 1 --lead 0 -- touch "$USER_DIR/ran"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "contest: results dir $USER_DIR/results: Permission denied" ]]
	[ -z "$output" ]
	[ ! -e "$USER_DIR/ran" ]
}

@test "a results file behind a symlink is refused, not followed" {
	mkdir -p "$CONTEST_RESULTS"
	ln -s "$BATS_TEST_TMPDIR/victim" "$R"
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- touch ran
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest: $R is a symlink: contest does not follow it; remove it, or give -o DIR" ]
	[ ! -e victim ]
	[ ! -e ran ]
}

@test "the job's output goes to the session log, not to the report" {
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- sh -c 'echo hello-from-$((6 * 7))'
	[ "$status" -eq 0 ]
	[[ "$output" != *hello-from-42* ]]
	log=$(sed -n 's/^results: .*  log: //p' <<<"$output")
	grep -q '^hello-from-42$' "$log"
	grep -q '=== contest: round 1, no_load, measured run 1 ===' "$log"
}

@test "CPU pressure during the job is stored, and a CPU load raises it" {
	[ -r /proc/pressure/cpu ] || skip "no PSI on this kernel"
	# Two forkers and a spinning job: three runnable tasks on at most 2 CPUs.
	[ "$(nproc)" -le 2 ] || skip "needs 2 CPUs or fewer to be sure of a stall"
	run contest --warmup 0 -n 1 --lead 0 -l fork_load:procs=2 -- sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'
	[ "$status" -eq 0 ]
	# some stall, and a time, not more than the window of the driver's
	# reads: the job's time and what a busy host delays the reads by
	# (a second is far above that; a unit slip, ms read as us, a
	# thousand times over).  How much a load makes a job wait is a
	# share: scripts/bench/shares's Wait%.
	rq '.[1].psi_some_s.cpu > 0' | grep -qx true
	rq '.[1].psi_some_s.cpu <= .[1].wall_s + 1' | grep -qx true
	rq '.[0].psi_some_s | has("cpu") and has("memory") and has("io")' | grep -qx true
}

@test "two contest processes appending at once lose nothing and interleave no bytes" {
	contest --warmup 0 -n 60 --lead 0 -k one -- true > one.out 2>&1 &
	a=$!
	contest --warmup 0 -n 60 --lead 0 -k two -- true > two.out 2>&1 &
	b=$!
	wait $a
	wait $b
	[ "$(wc -l < "$R")" -eq 120 ]
	# Every line is one whole JSON object.
	[ "$(jq -c . "$R" | wc -l)" -eq 120 ]
	rq 'group_by(.label) | map("\(.[0].label) \(length) \(map(.run) | unique | length)") | join(",")' |
	    grep -qx 'one 60 60,two 60 60'
	[ "$(rq 'map(.session) | unique | length')" -eq 2 ]
}

@test "four sessions on one results file, one killed in its writes again and again: every finished line whole" {
	need_faults
	pids=()
	for k in one two three; do
		contest --warmup 0 -n 50 --lead 0 -k "$k" -- true >"$k.out" 2>&1 &
		pids+=($!)
	done
	# the fourth: killed half way through its Nth line, eight times over
	# (N-1 lines finished each time, and half of one)
	finished=0
	for n in 1 2 3 4 5 1 2 3; do
		CONTEST_FAULT=killwrite:$n run contest_faulty --warmup 0 -n 10 --lead 0 -k killed -- true
		[ "$status" -eq 137 ]
		finished=$((finished + n - 1))
	done
	# (their own pids: a bare wait would wait for bats's timeout as well)
	wait "${pids[@]}"
	# every finished line parses; the eight halves are lines of their own
	[ "$(grep -c . "$R")" -eq $((150 + finished + 8)) ]
	[ "$(jq -R 'fromjson? // empty | .label' "$R" | wc -l)" -eq $((150 + finished)) ]
	[ "$(jq -R 'fromjson? // empty | select(.label == "killed")' "$R" | jq -s length)" -eq "$finished" ]
	run --separate-stderr contest report --format json "$CONTEST_RESULTS"
	[ "$status" -eq 0 ]
	[ "$(jq .results <<<"$output")" -eq $((150 + finished)) ]
	[ "$(jq .skipped_lines <<<"$output")" -eq 8 ]
	[ "$(jq -r '[.loads[0].rows[] | "\(.kernel)=\(.runs)"] | sort | join(" ")' <<<"$output")" = \
	    "killed=$finished one=50 three=50 two=50" ]
	no_leftovers 20
}

@test "a results file whose last line was cut short: named, closed, and new lines stay whole" {
	mkdir -p "$CONTEST_RESULTS"
	# a whole line of an earlier session, then one cut short
	first=$(head -n 1 "$TOP_SRCDIR/doc/example-quickstart.jsonl")
	{ echo "$first"; printf '{"schema":1,"cut'; } > "$R"
	run --separate-stderr contest --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"contest: $R: line 2 is incomplete (a run cut short); readers skip it, new lines follow it"* ]]
	[ "$(sed -n 1p "$R")" = "$first" ]
	[ "$(sed -n 2p "$R")" = '{"schema":1,"cut' ]
	# The run's line is whole JSON, on a line of its own.
	sed -n 3p "$R" | jq -e '.load == "no_load" and .status == "ok"'
	[ "$(wc -l < "$R")" -eq 3 ]
}

# small_fs SIZE: a tmpfs of SIZE at ./small (root only), unmounted by teardown.
small_fs() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small tmpfs"
	mkdir small
	mount -t tmpfs -o "size=$1" tmpfs small 2>/dev/null || skip "cannot mount tmpfs here"
	SMALL="$PWD/small"
}

teardown_small() {
	[ -z "${SMALL:-}" ] || umount "$SMALL" 2>/dev/null || true
}

@test "a full results disk is an error before any run" {
	small_fs 64k
	dd if=/dev/zero of=small/fill bs=4k count=16 2>/dev/null || true
	run --separate-stderr contest -o small/results --warmup 0 -n 1 --lead 0 -- true
	teardown_small
	[ "$status" -eq 2 ]
	[[ "$stderr" == "contest: results dir small/results: no space left ("*" bytes free)" ]]
	[ -z "$output" ]
}

@test "a disk that fills during the session: clear error, exit 1, earlier lines intact" {
	small_fs 64k
	# Leave about 24 KB: past the 16 KB check, short of 60 runs' lines.
	dd if=/dev/zero of=small/fill bs=4k count=10 2>/dev/null
	run --separate-stderr contest -o small/results --warmup 0 -n 60 --lead 0 -- true
	lines=$(cat small/results/results.jsonl | wc -l)
	whole=$(jq -c . small/results/results.jsonl | wc -l)
	teardown_small
	echo "# $lines lines written before the disk filled" >&3
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"cannot append a result: No space left on device (earlier lines are intact)"* ]]
	[ "$lines" -gt 0 ]
	[ "$lines" -lt 60 ]
	[ "$whole" -eq "$lines" ]
}

@test "each result carries the machine's state and the job's paging: sysfs and /proc read back" {
	run contest --warmup 0 -n 1 --lead 0 -- sh -c 'cat /proc/self/status >/dev/null'
	[ "$status" -eq 0 ]
	rq '.[0] | .cpus_online >= 1 and .nproc >= 1 and .nproc <= .cpus_online' | grep -qx true
	want=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo null)
	[ "$(rq -r '.[0].clocksource // "null"')" = "$want" ]
	if [ -r /sys/devices/system/cpu/smt/active ]; then
		[ "$(rq '.[0].smt')" = "$([ "$(cat /sys/devices/system/cpu/smt/active)" = 1 ] && echo true || echo false)" ]
	else
		[ "$(rq '.[0].smt')" = null ]
	fi
	gov=$(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo null)
	[ "$(rq -r '.[0].cpufreq_governor // "null"')" = "$gov" ]
	rq '.[0] | has("cpufreq_cur_khz") and has("cpufreq_min_khz") and has("cpufreq_max_khz")' | grep -qx true
	# paging during the job: counters that only grow, and a job that ran
	# at all faulted some pages
	rq '.[0].vmstat | (keys | sort) == ["pgfault","pgmajfault","pgpgin","pgpgout","workingset_refault_file"]' | grep -qx true
	rq '.[0].vmstat | .pgfault > 0 and ([.[] | select(. != null) | . >= 0] | all)' | grep -qx true
}

# The running kernel's GNU build ID, read from /sys/kernel/notes here
# with od and awk: each note is namesz, descsz, type (4 bytes each,
# little-endian here), then name and desc padded to 4.
notes_build_id() {
	od -An -tx1 -v /sys/kernel/notes 2>/dev/null | tr -s ' \n' '\n\n' | grep . | awk '
	    { b[n++] = $1 }
	    function hex(s,   i, v) {
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	    }
	    function u32(i) { return hex(b[i+3] b[i+2] b[i+1] b[i]) }
	    END {
		for (o = 0; o + 12 <= n; ) {
			ns = u32(o); ds = u32(o + 4); t = u32(o + 8)
			nm = o + 12; d = nm + int((ns + 3) / 4) * 4
			if (t == 3 && ns == 4 && b[nm] b[nm+1] b[nm+2] == "474e55") {
				for (i = 0; i < ds; i++) printf "%s", b[d + i]
				exit
			}
			o = d + int((ds + 3) / 4) * 4
		}
	    }'
}

@test "each result carries the running kernel's build ID from /sys/kernel/notes, and sched_ext as each run saw it" {
	run contest --warmup 0 -n 1 --lead 0 -- true
	[ "$status" -eq 0 ]
	want=$(notes_build_id)
	if [ -n "$want" ]; then
		[ "$(rq -r '.[0].kernel_build_id')" = "$want" ]
	else
		[ "$(rq -r '.[0].kernel_build_id')" = null ]
	fi
	[ "$(rq -r '.[0].sched_ext_changed')" = false ]
	[ "$(rq -r '.[0].provenance.sched_ext')" != null ]
}

@test "a BPF scheduler loaded during a run: that run is marked, and the runs on either side are two rows" {
	[ -e "${FAULTS:-/nonexistent}" ] || skip "no tests/faults.so (make check builds it)"
	mkdir -p scx/root
	echo disabled > scx/state
	: > scx/root/ops
	# the shim reads /sys/kernel/sched_ext/ from ./scx; the job loads "scx_test"
	run --separate-stderr marked CONTEST_FAKE_SCX="$PWD/scx" "${FAULTS_ENV[@]}" \
	    "$CONTEST" -k k --warmup 0 -n 2 --lead 0 -- sh -c "echo enabled > $PWD/scx/state; echo scx_test > $PWD/scx/root/ops"
	[ "$status" -eq 0 ]
	[ "$(rq -c '[.[] | [.run, .provenance.sched_ext, .sched_ext_changed, .sched_ext_after]]')" = '[[1,"disabled",true,"enabled scx_test"],[2,"enabled scx_test",false,null]]' ]
	[ "$stderr" = "contest: warning: label 'k' was measured on 2 different kernel builds or schedulers (kernel_build_id, else kernel_version and the config's hash; sched_ext); its rows are named LABEL#N" ]
	[[ "$(block_row no_load 'k#1' "$output")" =~ ^k#1\ +1\  ]]
	[[ "$(block_row no_load 'k#2' "$output")" =~ ^k#2\ +1\  ]]
	grep -qx 'no_load: k#1: sched_ext changed during 1 run (sched_ext_after in the results): they measured more than one scheduler' <<<"$output"
	grep -qx 'k#1 vs k#2: sched_ext disabled vs enabled scx_test' <<<"$output"
}
