#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --load-nice, --load-policy, --load-cpus, --job-cpus, --job-nice and
# --job-policy: what the kernel reports for the load's processes and the
# job, what results record, and a knob the kernel refuses failing the
# start.

load helpers

# The job: print, for each load process of this test (oom_score_adj 1000
# and our marker), its nice (stat field 19), policy (field 41) and
# allowed CPUs; then its own allowed CPUs.  Output goes to the log.
probe='for d in /proc/[0-9]*; do
	[ "$(cat $d/oom_score_adj 2>/dev/null)" = 1000 ] || continue
	grep -qsz "^CONTEST_TEST_MARK=$CONTEST_TEST_MARK\$" $d/environ || continue
	f=$(sed "s/.*) //" $d/stat)
	echo "load $(echo $f | cut -d" " -f17) $(echo $f | cut -d" " -f39) $(awk "/^Cpus_allowed_list/ {print \$2}" $d/status)"
done
echo "job $(awk "/^Cpus_allowed_list/ {print \$2}" /proc/self/status)"'

# The job's own nice (stat field 19), real-time priority (40) and policy
# (41), as the kernel says them of the job's process.
jobsched='f=$(sed "s/.*) //" /proc/$$/stat); echo "jobsched $(echo $f | cut -d" " -f17,38,39)"'

@test "load nice, policy and CPUs apply to every load process; job CPUs to the job" {
	[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
	run contest -k knobs --warmup 0 -n 1 --lead 0.3 --load-nice 19 --load-policy batch \
	    --load-cpus 0 --job-cpus 1 -l sleepers:n=3 -- sh -c "$probe"
	[ "$status" -eq 0 ]
	grep -q '^environment: .*, loads nice 19, policy batch, cpus 0; job cpus 1$' <<<"$output"
	log=$(ls "$CONTEST_RESULTS"/logs/*.log)
	# SCHED_BATCH is policy 3; three sleepers and their parent
	[ "$(grep -c '^load 19 3 0$' "$log")" -ge 4 ]
	[ -z "$(grep '^load ' "$log" | grep -vx 'load 19 3 0')" ]
	[ "$(grep -c '^job 1$' "$log")" -eq 2 ]
	rq '.[1] | .load_nice == 19 and .load_policy == "batch" and .load_cpus == "0" and .job_cpus == "1" and .sched == "loads nice 19, policy batch, cpus 0; job cpus 1"' | grep -qx true
	rq '.[0] | .load_nice == 19' | grep -qx true
}

@test "SCHED_IDLE loads; and with no knob the loads keep the suite's own nice and policy" {
	# the suite's own (nice 0 and SCHED_OTHER, policy 0, unless it runs
	# under nice or chrt): what a load with no knob inherits
	read -r ni pol < <(own_sched)
	run contest --warmup 0 -n 1 --lead 0.3 --load-policy idle -l sleepers:n=2 -- sh -c "$probe"
	[ "$status" -eq 0 ]
	log=$(ls "$CONTEST_RESULTS"/logs/*.log)
	[ "$(grep -c "^load $ni 5 " "$log")" -ge 3 ]	# SCHED_IDLE is policy 5
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0.3 -l sleepers:n=2 -- sh -c "$probe"
	[ "$status" -eq 0 ]
	grep -q '^environment: .*, default scheduling$' <<<"$output"
	log=$(ls "$CONTEST_RESULTS"/logs/*.log)
	[ "$(grep -c "^load $ni $pol " "$log")" -ge 3 ]
	[ -z "$(grep '^load ' "$log" | grep -v "^load $ni $pol ")" ]
	rq '.[1] | .load_nice == null and .load_policy == null and .load_cpus == null and .sched == ""' | grep -qx true
}

@test "a nice the kernel refuses (below 0 as a user) fails the load's start, not silently" {
	user_results
	run --separate-stderr contest_as 64996 - --warmup 0 -n 1 --lead 0 --load-nice -5 -l sleepers:n=2 -- true
	[ "$status" -eq 3 ]
	[ "$(rq 'map(.status) | join(" ")')" = "ok load_failed" ]
	[[ "$stderr" == *"did not start: sleepers: nice -5: Permission denied"* ]]
}

@test "the job's nice and policy: batch at nice 5, SCHED_FIFO and SCHED_RR with their priority" {
	[ "$(id -u)" -eq 0 ] || skip "a real-time policy needs root"
	run contest -k jobknobs --warmup 0 -n 1 --lead 0 --job-nice 5 --job-policy batch \
	    -- sh -c "$jobsched"
	[ "$status" -eq 0 ]
	grep -q '^environment: .*, job nice 5, policy batch$' <<<"$output"
	# SCHED_BATCH is policy 3, with no real-time priority
	[ "$(grep -c '^jobsched 5 0 3$' "$CONTEST_RESULTS"/logs/*.log)" -eq 1 ]
	rq '.[0] | .job_nice == 5 and .job_policy == "batch" and .load_nice == null and .sched == "job nice 5, policy batch"' | grep -qx true
	rm -rf "$CONTEST_RESULTS"
	# a real-time policy leaves the nice as it was: the suite's own
	read -r ni _ < <(own_sched)
	run contest --warmup 0 -n 1 --lead 0 --job-policy fifo:10 -l sleepers:n=2 -- sh -c "$jobsched"
	[ "$status" -eq 0 ]
	# SCHED_FIFO is policy 1
	[ "$(grep -c "^jobsched $ni 10 1\$" "$CONTEST_RESULTS"/logs/*.log)" -eq 2 ]
	[ "$(rq -r 'map(.job_policy) | join(" ")')" = "fifo:10 fifo:10" ]
	rm -rf "$CONTEST_RESULTS"
	run contest --warmup 0 -n 1 --lead 0 --job-policy rr:3 -- sh -c "$jobsched"
	[ "$status" -eq 0 ]
	[ "$(grep -c "^jobsched $ni 3 2\$" "$CONTEST_RESULTS"/logs/*.log)" -eq 1 ]
	[ "$(rq -r '.[0].job_policy')" = "rr:3" ]
}

@test "SCHED_DEADLINE for the job, reset on fork: the job runs under it, what it forks under SCHED_OTHER" {
	[ "$(id -u)" -eq 0 ] || skip "a real-time policy needs root"
	run contest --warmup 0 -n 1 --lead 0 --job-policy deadline:2000/10000/20000 \
	    -- sh -c "$jobsched; sh -c 'echo child \$(sed \"s/.*) //\" /proc/\$\$/stat | cut -d\" \" -f39)'"
	[ "$status" -eq 0 ]
	grep -q '^environment: .*, job policy deadline:2000/10000/20000$' <<<"$output"
	# SCHED_DEADLINE is policy 6, with no real-time priority, and the
	# nice the suite runs at (the policy leaves it as it was)
	read -r ni _ < <(own_sched)
	[ "$(grep -c "^jobsched $ni 0 6\$" "$CONTEST_RESULTS"/logs/*.log)" -eq 1 ]
	[ "$(grep -c '^child 0$' "$CONTEST_RESULTS"/logs/*.log)" -eq 1 ]
	[ "$(rq -r '.[0].job_policy')" = deadline:2000/10000/20000 ]
}

@test "a real-time job policy the kernel refuses (as a user) fails the run with the kernel's reason" {
	user_results
	run --separate-stderr contest_as 64996 - --warmup 0 -n 1 --lead 0 --job-policy fifo:10 -- true
	[ "$status" -eq 126 ]
	[ "$stderr" = "contest: no_load run 1: cannot set the job's policy: policy fifo:10: Operation not permitted" ]
	[ "$(rq -r '.[0] | [.status, .error, .exit_code, .job_policy] | join("|")')" = "exec_failed|cannot set the job's policy: policy fifo:10: Operation not permitted|126|fifo:10" ]
	rm -rf "$USER_DIR"/results
	run --separate-stderr contest_as 64996 - --warmup 0 -n 1 --lead 0 --job-policy deadline:1000/5000/5000 -- true
	[ "$status" -eq 126 ]
	[ "$stderr" = "contest: no_load run 1: cannot set the job's policy: policy deadline:1000/5000/5000: Operation not permitted" ]
}

@test "bad knobs are refused before any run" {
	for args in "--load-nice 20" "--load-nice x" "--load-policy fifo" \
	    "--load-cpus 1-0" "--load-cpus ''" "--job-cpus 4096" "--load-cpus 1023" \
	    "--load-policy fifo:1" "--load-policy rr:5" "--job-policy fifo" \
	    "--job-policy fifo:0" "--job-policy fifo:100" "--job-policy rr:x" \
	    "--job-policy other:1" "--job-policy deadline" "--job-nice 20" \
	    "--job-nice -21" "--job-nice ''" "--variant a:load-policy=fifo:1 --variant b" \
	    "--job-policy deadline:3/2/1" "--job-policy deadline:1/2" "--load-policy deadline:1/2/3"; do
		eval "set -- $args"
		run --separate-stderr contest -n 1 "$@" true
		[ "$status" -eq 2 ]
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
		[ ! -e "$R" ]
	done
}

@test "a job policy the kernel refuses in the job's child says so: not an exec failure of the command" {
	need_faults
	# as a cpuset would refuse it: the check before the session passes,
	# the child's sched_setaffinity fails
	CONTEST_FAULT=sched_setaffinity run --separate-stderr contest_faulty \
	    --job-cpus 0 --warmup 0 -n 2 --lead 0 -- true
	[ "$status" -eq 126 ]
	[ "$stderr" = "contest: no_load run 1: cannot set the job's policy: CPUs 0: Invalid argument" ]
	[ "$(wc -l <"$R")" -eq 1 ]
	[ "$(rq -r '.[0] | [.status, .error, .exit_code] | join("|")')" = "exec_failed|cannot set the job's policy: CPUs 0: Invalid argument|126" ]
}
