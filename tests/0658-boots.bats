#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The boot as the unit of a kernel's samples (report/cmp_boots.c): two
# labels in boots of their own are compared in one two-level model (runs
# within boots, R nlme's lme by REML) whatever their counts; a label in
# one boot takes the other's boot-to-boot spread; one boot each, a third
# label's, else never claims "no change"; older results without boot
# ids are one boot.  The results are planted: five rounds (RUNS) of
# no_load and fork_load a boot, a boot's level as given, the runs within
# it 0.45% either side of it.

load helpers

# plant LABEL SESSION BOOT MEAN SEED [RUNS]: a session of five rounds
# (or RUNS) in boot BOOT (-: none recorded) whose no_load runs take about
# MEAN seconds
plant() {
	# (no rand(): mawk's and gawk's differ; a fixed pattern of SEED's)
	awk -v l="$1" -v s="$2" -v b="$3" -v m="$4" -v seed="$5" -v nr="${6:-5}" 'BEGIN {
	    for (r = 0; r < nr; r++)
		for (k = 0; k < 2; k++) {
			w = (k ? m * 1.2 : m) * (1 + ((r * 7 + k * 3 + seed * 11) % 10 - 4.5) * 0.001)
			printf "{\"schema\":2,\"contest_version\":\"0.3.0\",\"session\":\"%s\",\"timestamp\":\"2026-12-01T02:00:00.000Z\",\"host\":\"box\",\"kernel\":\"6.18\",\"nproc\":2,\"cpu_model\":\"Test CPU\",\"mem_total_kb\":24684084,\"label\":\"%s\",%s\"command\":\"job\",\"load\":\"%s\",\"load_spec\":\"%s\",\"round\":%d,\"run\":%d,\"warmup\":false,\"status\":\"ok\",\"exit_code\":0,\"wall_s\":%.4f,\"cpu_pct\":190.0,\"wait_pct\":1.0,\"lcpu_pct\":0.0}\n",
			    s, l, b == "-" ? "" : "\"boot_id\":\"" b "\",", k ? "fork_load" : "no_load",
			    k ? "fork_load" : "no_load", r, r + 1, w
		}
	}'
}

@test "boots: two boots a side are the samples, so a boot effect the runs call a regression is can't tell over 2 and 2 boots" {
	# A's boots 6% apart, B's as far apart and 6.7% above A's
	{ plant A a1 ba1 10.0 1; plant A a2 ba2 10.6 2; plant B b1 bb1 10.7 3; plant B b2 bb2 11.3 4; } >two.jsonl
	run -0 contest compare -f two.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired, over 2 and 2 boots): undecided: no_load Time +6.7% (CI95 "* ]]
	# the environment notes say how many boots each label spans
	[ "$(grep -cx "boots: A 2, B 2" <<<"$output")" -eq 1 ]
	run -0 contest report -f two.jsonl -k A
	[ "$(grep -cx "boots: A 2" <<<"$output")" -eq 1 ]
	# the same runs with no boot recorded: the runs were the samples
	sed 's/"boot_id":"[a-z0-9]*",//' two.jsonl >runs.jsonl
	run -1 contest compare -f runs.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: regression (unpaired): 2 of 2 loads regressed beyond 5%: no_load Time +6.7% (CI95 +3.8..+9.6%, p=0.00013)"* ]]
	# the boots' test in JSON: its kind, each side's boots, and the
	# interval of the boot means (Student's on two means a side: df 2)
	run -0 --separate-stderr contest compare -f two.jsonl --gate time --format json A B
	echo "$output" >compare.json
	v=$(jq -c '.loads[] | select(.load == "no_load") | .figures[] | select(.figure == "time_amean") | .values[1]' compare.json)
	[ "$(jq -r .test <<<"$v")" = boots ]
	[ "$(jq -c .boots <<<"$v")" = "[2,2]" ]
	[ "$(jq -r .boot_note <<<"$v")" = null ]
	# by hand: the boot means' logs, their mean difference and its CI95
	lo=$(jq -r .ci_lo_pct <<<"$v")
	want=$(jq -r '[.[] | select(.load == "no_load")] | group_by(.session) |
	    map({l: .[0].label, m: (map(.wall_s) | add / length | log)}) | group_by(.l) |
	    map(map(.m)) | . as [$a, $b] |
	    ([$a, $b] | map((add / length) as $m | {m: $m, v: (map(. - $m | . * .) | add)})) as [$x, $y] |
	    {d: ($y.m - $x.m), se: (($x.v + $y.v) / 2 * (1 / 2 + 1 / 2) | sqrt)}' -s two.jsonl)
	d=$(jq -r .d <<<"$want")
	se=$(jq -r .se <<<"$want")
	# as many boots a side: one pooled variance, 2 + 2 - 2 df, t(0.975, 2)
	# = 4.3027 (Welch's df, just under 2, would widen it)
	awk -v d="$d" -v se="$se" -v lo="$lo" 'BEGIN { want = (exp(d - 4.3027 * se) - 1) * 100
	    exit !(lo - want < 0.01 && want - lo < 0.01) }'
}

@test "boots: one boot a side claims neither no change nor a regression (exit 0, a change possibly the boot, how to tell); an A/A label's boots widen it" {
	{ plant A a1 ba1 10.0 1; plant B b1 bb1 10.02 3; } >same.jsonl
	run -0 contest compare -f same.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired; one boot each: a boot-to-boot difference reads the same): undecided: no_load Time -0.0% (CI95 -0.5..+0.5%)"* ]]
	# what it could have seen is not claimed: how to tell instead
	[[ "${lines[${#lines[@]} - 1]}" == *"; to tell, boot one kernel twice for this host's boot spread (contest plan sizes the boots)" ]]
	[[ "${lines[${#lines[@]} - 1]}" != *"would be caught"* ]]
	# the same with the boots unrecorded: no change, as before
	sed 's/"boot_id":"[a-z0-9]*",//' same.jsonl >runs.jsonl
	run -0 contest compare -f runs.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: no change (unpaired): 2 of 2 gated figures within ±5% (CI95)"* ]]
	# +7.8% the runs call significant: can't tell, not exit 1 (an A/A
	# of two boots at a 3% boot spread read "regression" one time in nine)
	{ plant A a1 ba1 10.0 1; plant B b1 bb1 10.8 3; } >worse.jsonl
	run -0 contest compare -f worse.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired; one boot each: a boot-to-boot difference reads the same): undecided: no_load Time +7.8% (CI95 +7.3..+8.3%, p=4.5e-10, possibly the boot)"* ]]
	run -3 contest compare --strict -f worse.jsonl --gate time A B
	run -0 --separate-stderr contest compare -f worse.jsonl --gate time --format json A B
	jq -e '.regressed == 0 and .candidates[0].verdict == "can'"'"'t tell" and .candidates[0].one_boot_tests >= 2' <<<"$output"
	# C, an A/A: the same kernel in two boots 6% apart
	{ cat worse.jsonl; plant C c1 bc1 10.0 5; plant C c2 bc2 10.6 6; } >aa.jsonl
	run -0 contest compare -f aa.jsonl --gate time A B C
	# C's two boots in the model beside A's and B's one: 4 boots less 3
	# labels, 1 df (nlme: -47.9..+123.1; the rule before, -64.6..+80.1)
	[[ "${lines[${#lines[@]} - 2]}" == "B against A: can't tell (unpaired; a label in one boot widened by the boot-to-boot spread of C's 2 boots): undecided: no_load Time +7.8% (CI95 -47.9..+123.1%)"* ]]
	run -0 --separate-stderr contest compare -f aa.jsonl --gate time --format json A B C
	echo "$output" >compare.json
	v=$(jq -c '.loads[0].figures[] | select(.figure == "time_amean") | .values[1]' compare.json)
	[ "$(jq -r .boot_note <<<"$v")" = widened ]
	[ "$(jq -r .boot_spread_from <<<"$v")" = C ]
	[ "$(jq -c .boots <<<"$v")" = "[1,1]" ]
	[ "$(jq -r '.candidates[0].widened_tests' compare.json)" -ge 2 ]
	# C need not be compared: a stored A/A of the same host, command and
	# load is found
	run -0 contest compare -f aa.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired; a label in one boot widened by the boot-to-boot spread of C's 2 boots): undecided: no_load Time +7.8% (CI95 -47.9..+123.1%)"* ]]
	# and not one of another command
	sed '/"label":"C"/s/"command":"job"/"command":"other"/' aa.jsonl >other.jsonl
	run -0 contest compare -f other.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == *"(unpaired; one boot each: a boot-to-boot difference reads the same)"* ]]
}

@test "boots: one boot against three takes the three's boot means' spread for both, with their df, by hand" {
	{ plant A a1 ba1 10.0 1; plant B b1 bb1 10.7 3; plant B b2 bb2 11.3 4; plant B b3 bb3 10.5 5; } >mixed.jsonl
	run -0 contest compare -f mixed.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired, over 1 and 3 boots; a label in one boot widened by the boot-to-boot spread of B's 3 boots): undecided: "* ]]
	run -0 --separate-stderr contest compare -f mixed.jsonl --gate time --format json A B
	echo "$output" >compare.json
	v=$(jq -c '.loads[] | select(.load == "no_load") | .figures[] | select(.figure == "time_amean") | .values[1]' compare.json)
	[ "$(jq -c .boots <<<"$v")" = "[1,3]" ]
	[ "$(jq -r .boot_note <<<"$v")" = widened ]
	[ "$(jq -r .boot_spread_from <<<"$v")" = B ]
	# by hand: each boot's mean log Time; B's three spread s2, which is
	# A's boot's variance too (as many runs a boot): the change's
	# variance s2 (1 + 1/3), at 3 - 1 df (t(0.975, 2) = 4.3027; the rule
	# before handed Welch-Satterthwaite some 3.2 df)
	want=$(jq -rs '[.[] | select(.load == "no_load")] | group_by(.session) |
	    map({l: .[0].label, m: (map(.wall_s | log) | add / length)}) | group_by(.l) |
	    map(map(.m)) | . as [$a, $b] | ($b | add / length) as $mb |
	    ($b | map(. - $mb | . * .) | add / 2) as $s2 |
	    "\($mb - $a[0]) \($s2 * (1 + 1 / 3) | sqrt)"' mixed.jsonl)
	read -r d se <<<"$want"
	awk -v d="$d" -v se="$se" -v lo="$(jq -r .ci_lo_pct <<<"$v")" -v hi="$(jq -r .ci_hi_pct <<<"$v")" \
	    -v p="$(jq -r .p <<<"$v")" 'BEGIN {
	    wl = (exp(d - 4.3027 * se) - 1) * 100; wh = (exp(d + 4.3027 * se) - 1) * 100
	    t = d / se; wp = 1 - (t < 0 ? -t : t) / sqrt(t * t + 2)	# t with 2 df
	    exit !(lo - wl < 0.01 && wl - lo < 0.01 && hi - wh < 0.01 && wh - hi < 0.01 &&
	        p / wp < 1.001 && wp / p < 1.001) }'
}

@test "boots: one run a boot against one boot is the model's, nlme's interval, never a 'widened' that was not" {
	# A: four boots of one run; B: one boot of five.  The rule before
	# could not split A's boot spread from its runs', widened nothing and
	# printed the runs' interval, -3.6..+6.6%, as widened
	{ plant A a1 ba1 10.0 1 1; plant A a2 ba2 10.6 2 1; plant A a3 ba3 10.2 7 1
	  plant A a4 ba4 9.8 8 1; plant B b1 bb1 10.3 3; } >onerun.jsonl
	run -0 contest compare -f onerun.jsonl --gate time A B
	# nlme's (the cross-check below fits it where R is there): +1.4%,
	# CI95 -9.5..+13.5%, p 0.728 at 5 boots less 2 labels
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired, over 4 and 1 boots; a label in one boot widened by the boot-to-boot spread of A's 4 boots): undecided: no_load Time +1.4% (CI95 -9.5..+13.5%)"* ]]
	run -0 --separate-stderr contest compare -f onerun.jsonl --gate time --format json A B
	echo "$output" >compare.json
	[ "$(jq -r '.loads[] | select(.load == "no_load") | .figures[] | select(.figure == "time_amean") | .values[1].p | . * 1000 | round' compare.json)" -eq 728 ]
}

@test "boots: two boots against four: the model's and Welch's on the boot means, the more cautious stands" {
	# A's two boots 3% apart, B's four within 4%: the model's one spread
	# for both is mostly B's, and narrow; Welch's takes A's own
	{ plant A a1 ba1 10.0 1; plant A a2 ba2 10.3 2
	  plant B b1 bb1 10.5 3; plant B b2 bb2 10.9 4; plant B b3 bb3 10.6 5; plant B b4 bb4 10.8 6; } >two4.jsonl
	# the model (nlme): +5.4%, CI95 +0.9..+10.0%, p 0.029, which called
	# it a regression; Welch's (R's t.test on the boot means' logs, the
	# cross-check below): -2.8..+14.2%, p 0.102, about 1.6 df
	run -0 contest compare -f two4.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired, over 2 and 4 boots; Welch's on boot means): undecided: no_load Time +5.4% (CI95 -2.8..+14.2%)"* ]]
	# the legend says the tests that ran
	[ "$(grep -cx "Test: B against A: unpaired, over 2 and 4 boots; Welch's on boot means (no rounds of one session in common: over boots, the two-level model, or at unequal counts Welch's t on the boot means where the more cautious)." <<<"$output")" -eq 1 ]
	[ "$(grep -c '^Boots: .*lme(y ~ label, random = ~1 | boot) by REML.*the larger p stands' <<<"$output")" -eq 1 ]
	run -0 --separate-stderr contest compare -f two4.jsonl --gate time --format json A B
	v=$(jq -c '.loads[] | select(.load == "no_load") | .figures[] | select(.figure == "time_amean") | .values[1]' <<<"$output")
	[ "$(jq -r .boot_note <<<"$v")" = welch ]
	[ "$(jq -r '.p * 1000 | round' <<<"$v")" -eq 102 ]
	# B's four boots the wider: the model's interval is the wider, and
	# stands (nlme: +7.6%, CI95 -0.2..+16.0%)
	{ plant A a1 ba1 10.0 1; plant A a2 ba2 10.1 2
	  plant B b1 bb1 10.4 3; plant B b2 bb2 11.2 4; plant B b3 bb3 10.6 5; plant B b4 bb4 11.1 6; } >wide4.jsonl
	run -0 --separate-stderr contest compare -f wide4.jsonl --gate time --format json A B
	v=$(jq -c '.loads[] | select(.load == "no_load") | .figures[] | select(.figure == "time_amean") | .values[1]' <<<"$output")
	[ "$(jq -r .boot_note <<<"$v")" = null ]
	[ "$(jq -r '[.ci_lo_pct, .ci_hi_pct] | map(. * 10 | round) | @tsv' <<<"$v")" = "$(printf -- '-2\t160')" ]
	# as many boots a side: the model alone (Student's t holds its level
	# whatever the two spreads at equal counts)
	{ plant A a1 ba1 10.0 1; plant A a2 ba2 10.3 2; plant B b1 bb1 10.5 3; plant B b2 bb2 10.9 4; } >two2.jsonl
	run -0 --separate-stderr contest compare -f two2.jsonl --gate time --format json A B
	[ "$(jq -r '[.loads[].figures[].values[1].boot_note] | map(select(. == "welch")) | length' <<<"$output")" -eq 0 ]
}

@test "boots: MinDetect is the model's, one variance at its df: as a paired test's of the same standard error and df" {
	# one boot against three (2 df) and three rounds paired in one
	# session (2 df), their change and standard error the same: the same
	# MinDetect.  The rule before gave the one boot and the three their
	# own parts and dfs, the shared spread counted twice
	{ plant A a1 ba1 10.0 1; plant B b1 bb1 10.7 3; plant B b2 bb2 11.3 4; plant B b3 bb3 10.5 5; } >mixed.jsonl
	run -0 --separate-stderr contest compare -f mixed.jsonl --gate time --format json A B
	v=$(jq -c '.loads[] | select(.load == "no_load") | .figures[] | select(.figure == "time_amean") | .values[1]' <<<"$output")
	read -r est se mde < <(jq -r '[((.estimate_pct / 100 + 1) | log), (((.ci_hi_pct / 100 + 1) | log) - ((.ci_lo_pct / 100 + 1) | log)) / (2 * 4.302653), .gate_detect_pct] | @tsv' <<<"$v")
	# three rounds whose log differences are est - s, est, est + s: their
	# standard error s / sqrt(3) = se
	awk -v e="$est" -v se="$se" 'BEGIN { s = se * sqrt(3)
	    for (r = 0; r < 3; r++) {
		d = e + (r - 1) * s
		for (k = 0; k < 2; k++)
			printf "{\"schema\":2,\"contest_version\":\"0.3.0\",\"session\":\"p\",\"timestamp\":\"2026-12-01T02:00:00.000Z\",\"host\":\"box\",\"kernel\":\"6.18\",\"nproc\":2,\"cpu_model\":\"Test CPU\",\"mem_total_kb\":24684084,\"label\":\"%s\",\"boot_id\":\"bp\",\"command\":\"job\",\"load\":\"no_load\",\"load_spec\":\"no_load\",\"round\":%d,\"run\":%d,\"warmup\":false,\"status\":\"ok\",\"exit_code\":0,\"wall_s\":%.9f,\"cpu_pct\":190.0}\n",
			    k ? "B" : "A", r, r + 1, k ? 10 * exp(d) : 10
	    } }' >paired.jsonl
	run -0 --separate-stderr contest compare -f paired.jsonl --gate time --format json A B
	w=$(jq -c '.loads[] | select(.load == "no_load") | .figures[] | select(.figure == "time_amean") | .values[1]' <<<"$output")
	[ "$(jq -r .test <<<"$w")" = paired ]
	awk -v a="$mde" -v b="$(jq -r .gate_detect_pct <<<"$w")" 'BEGIN { exit !(a - b < 0.02 && b - a < 0.02) }'
}

@test "sessions: two labels in one boot, a session each, can't tell whatever the runs say; a label over sessions of that boot lends their spread" {
	# A and B each a session of boot bx, B's runs 6.7% above A's: the runs
	# alone called it a regression, which a session's drift also does
	{ plant A a1 bx 10.0 1; plant B b1 bx 10.7 3; } >one.jsonl
	run -0 contest compare -f one.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired; two sessions of one boot: a session-to-session difference reads the same): undecided: no_load Time +6.8% (CI95 +6.3..+7.3%, p=1.3e-09, possibly the session), "*"; to tell, run both in one session's rounds (--variant), or one label over two sessions" ]]
	run -3 contest compare -f one.jsonl --gate time --strict A B
	run -0 --separate-stderr contest compare -f one.jsonl --gate time --format json A B
	v=$(jq -c '.loads[] | select(.load == "no_load") | .figures[] | select(.figure == "time_amean") | .values[1]' <<<"$output")
	[ "$(jq -r '[.boot_unit, .boot_note, .verdict] | @tsv' <<<"$v")" = "$(printf "session\tone_boot\tcan't tell")" ]
	# a session in common: its rounds, paired, as before (variants)
	{ plant A s1 bx 10.0 1; plant B s1 bx 10.7 3; } >shared.jsonl
	run -1 contest compare -f shared.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: regression (paired over 5 rounds): "* ]]
	# A over three sessions of the boot, within 1.5%: the model over
	# sessions, B's one widened by A's session-to-session spread, with its
	# 2 df, and B's 15% a regression beyond it
	{ plant A a1 bx 10.0 1; plant A a2 bx 10.1 2; plant A a3 bx 9.95 5; plant B b1 bx 11.5 3; } >three.jsonl
	run -1 contest compare -f three.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: regression (unpaired, over 3 and 1 sessions of one boot; a label in one session widened by the session-to-session spread of A's 3 sessions): 2 of 2 loads regressed beyond 5%: no_load Time +14.6% (CI95 +10.7..+18.7%, p=0.0036)"* ]]
	run -1 --separate-stderr contest compare -f three.jsonl --gate time --format json A B
	v=$(jq -c '.loads[] | select(.load == "no_load") | .figures[] | select(.figure == "time_amean") | .values[1]' <<<"$output")
	[ "$(jq -r '[.test, .boot_unit, .boot_note, (.boots | @csv)] | @tsv' <<<"$v")" = "$(printf 'boots\tsession\twidened\t3,1')" ]
	# a third label's two sessions of one boot (an A/A) lend their spread
	# to a session each
	{ cat one.jsonl; plant C c1 bx 10.0 5; plant C c2 bx 10.4 6; } >lent.jsonl
	run -0 contest compare -f lent.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired; a label in one session widened by the session-to-session spread of C's 2 sessions): undecided: no_load Time +6.8% (CI95 -34.3..+73.5%)"* ]]
	# bisect keeps the runs between labels of one boot: its rule places a
	# candidate between GOOD and BAD, each drifted alike (bench/bisect)
	{ plant G g1 bx 10.0 1; plant D d1 bx 11.0 3; plant K k1 bx 11.0 4; } >bis.jsonl
	run -1 contest bisect -f bis.jsonl G D K
}

@test "boots: runs that record no boot (older results) are one boot: never no change from runs alone, and in the model beside boots" {
	{ plant A a1 ba1 10.0 1; plant B b1 - 10.02 3; } >older.jsonl
	# one boot each, nothing to give them a spread: what one boot a side
	# cannot show (the rule before: "no change" over the runs)
	run -0 contest compare -f older.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired; one label's runs record no boot (older results): one boot; one boot each: a boot-to-boot difference reads the same): undecided: no_load Time -0.0% (CI95 -0.5..+0.5%)"* ]]
	# A over two boots, B's older runs one boot of the model's
	{ plant A a1 ba1 10.0 1; plant A a2 ba2 10.6 2; plant B b1 - 10.3 3; } >older2.jsonl
	run -0 --separate-stderr contest compare -f older2.jsonl --gate time --format json A B
	v=$(jq -c '.loads[] | select(.load == "no_load") | .figures[] | select(.figure == "time_amean") | .values[1]' <<<"$output")
	[ "$(jq -r .test <<<"$v")" = boots ]
	[ "$(jq -c .boots <<<"$v")" = "[2,1]" ]
	[ "$(jq -r .boot_note <<<"$v")" = unrecorded ]
	[ "$(jq -r .boot_spread_from <<<"$v")" = A ]
	[ "$(jq -r .verdict <<<"$v")" = "can't tell" ]
}

@test "boots: every results line says its boot, as /proc does; rows of one boot are no news" {
	run -0 contest --warmup 0 -n 1 --lead 0 -- true
	[ "$(rq -r '.[0].boot_id')" = "$(cat /proc/sys/kernel/random/boot_id)" ]
	# two variants of one session: one boot, no boots line
	run -0 contest --warmup 0 -n 1 --lead 0 --variant a --variant b -- true
	[ "$(grep -c '^boots:' <<<"$output")" -eq 0 ]
	# labels in a boot each: said
	{ plant A a1 ba1 10.0 1; plant B b1 bb1 10.0 2; } >apart.jsonl
	run -0 contest report -f apart.jsonl
	[ "$(grep -cx 'boots: A 1, B 1' <<<"$output")" -eq 1 ]
}

@test "plan: the spreads within and between boots, the runs a boot and the boots a kernel, against a hand computation" {
	{ plant A a1 ba1 10.0 1; plant A a2 ba2 10.6 2; plant A a3 ba3 10.2 7; } >aa.jsonl
	run -0 --separate-stderr contest plan -f aa.jsonl --target 8 --boot-cost 60 --format json
	echo "$output" >plan.json
	got=$(jq -c '.rows[] | select(.load == "no_load")' plan.json)
	# by hand: each boot's mean, the relative variance of that mean from
	# its runs, and the variance of the boots' log means
	want=$(jq -s '[.[] | select(.load == "no_load")] | group_by(.session) |
	    map(map(.wall_s) | (add / length) as $m | (length) as $n |
	        {l: ($m | log), v: ((map(. - $m | . * .) | add) / ($n - 1) / $n / ($m * $m)), n: $n}) |
	    (map(.l) | add / length) as $g | (map(.v) | add / length) as $w |
	    ((map(.l - $g | . * .) | add) / (length - 1)) as $s2 |
	    {t1: ($w * (map(.n) | add) / length), t2: ([0, $s2 - $w] | max)}' aa.jsonl)
	t1=$(jq -r .t1 <<<"$want")
	t2=$(jq -r .t2 <<<"$want")
	run_s=$(jq -s '[.[] | select(.load == "no_load") | .wall_s] | add / length' aa.jsonl)
	awk -v t1="$t1" -v t2="$t2" -v w="$(jq -r .within_pct <<<"$got")" \
	    -v b="$(jq -r .between_pct <<<"$got")" 'BEGIN {
	    exit !(sqrt(t1) * 100 - w < 0.001 && w - sqrt(t1) * 100 < 0.001 &&
	        sqrt(t2) * 100 - b < 0.001 && b - sqrt(t2) * 100 < 0.001) }'
	# Kalibera and Jones: sqrt(60 s / run x T1 / T2), rounded
	r=$(awk -v t1="$t1" -v t2="$t2" -v c="$run_s" 'BEGIN { r = sqrt(60 / c * t1 / t2); printf "%d\n", r < 1 ? 1 : r + 0.5 }')
	[ "$(jq -r .runs_per_boot <<<"$got")" -eq "$r" ]
	# boots for compare's rule, significant and beyond the threshold: the
	# normal approximation's count (z(power) SE + max(thr, z(alpha) SE)
	# within the target), and at most three more where t's quantiles at
	# 2n - 2 df are wider
	n=$(jq -r .boots_per_kernel <<<"$got")
	[ "$(jq -r .threshold_pct plan.json)" = 5 ]
	awk -v t1="$t1" -v t2="$t2" -v r="$r" -v n="$n" 'BEGIN {
	    d = log(1.08); thr = log(1.05); za = 1.959964; zp = 0.841621
	    se = (d - thr) / zp; if (d / (za + zp) < se) se = d / (za + zp)
	    nz = 2 * (t2 + t1 / r) / (se * se); nz = nz == int(nz) ? nz : int(nz) + 1
	    exit !(n >= nz && n <= nz + 3) }'
	[ "$(jq -r .cost_s <<<"$got" | cut -d. -f1)" -eq "$(awk -v n="$n" -v r="$r" -v c="$run_s" 'BEGIN { printf "%d\n", n * (60 + r * c) }')" ]
	# the text says what the boot cost is, given or assumed
	run -0 contest plan -f aa.jsonl
	[[ "${lines[0]}" == *"a boot costing 120 s (assumed: give --boot-cost)"* ]]
	[ "$(grep -c '^A  *no_load  *Time ' <<<"$output")" -eq 1 ]
}

@test "plan: no label over two boots, and bad targets and boot costs: one line, exit 2" {
	{ plant A a1 ba1 10.0 1; plant B b1 bb1 10.0 2; } >one.jsonl
	run -2 --separate-stderr contest plan -f one.jsonl
	[[ "$stderr" == "contest plan: no label here has runs over two or more boots"* ]]
	[ -z "$output" ]
	for args in "--target 0" "--target 100" "--target -1" "--target x" "--boot-cost 0" "--boot-cost -5" "--format csv" "--gate time" "--target 5" "--target 8 --threshold 8"; do
		eval "run -2 --separate-stderr contest plan -f one.jsonl $args"
		[ "${#stderr_lines[@]}" -eq 1 ]
		[ -z "$output" ]
	done
}

@test "boots: compare's boot test and plan's two spreads are R nlme's mixed model's, runs within boots (REML), at every count" {
	command -v Rscript >/dev/null || skip "no Rscript: the cross-check against R is left out (scripts/bootstrap --cross-checks installs r-cran-nlme)"
	Rscript -e 'library(nlme)' >/dev/null 2>&1 || skip "no R nlme: the cross-check against R is left out (scripts/bootstrap --cross-checks installs r-cran-nlme)"
	cat >fit.R <<'R'
suppressMessages(library(nlme))
d <- read.csv("fit.csv", header = FALSE, col.names = c("label", "boot", "wall"))
d$y <- log(d$wall)
d$label <- relevel(factor(d$label), ref = "A")
m <- lme(y ~ label, random = ~1 | boot, data = d, method = "REML")
ci <- intervals(m, which = "fixed")$fixed
cat(sprintf("%+.1f %+.1f %+.1f\n", (exp(ci["labelB", 2]) - 1) * 100, (exp(ci["labelB", 1]) - 1) * 100, (exp(ci["labelB", 3]) - 1) * 100))
if (length(unique(d$boot[d$label == "A"])) > 2) {
	a <- lme(y ~ 1, random = ~1 | boot, data = subset(d, label == "A"), method = "REML")
	sd <- as.numeric(VarCorr(a)[, "StdDev"]) * 100
	cat(sprintf("%.2f %.2f\n", sd[2], sd[1]))
}
R
	# 3 and 3 boots; 1 and 3; 4 boots of one run and 1 of five; 2 and 4,
	# the four the wider (the model the more cautious); a boot each
	# beside C's 2 (in the model, as nlme has all three)
	{ plant A a1 ba1 10.0 1; plant A a2 ba2 10.6 2; plant A a3 ba3 10.2 7
	  plant B b1 bb1 10.7 3; plant B b2 bb2 11.3 4; plant B b3 bb3 10.9 8; } >f1.jsonl
	{ plant A a1 ba1 10.0 1; plant B b1 bb1 10.7 3; plant B b2 bb2 11.3 4; plant B b3 bb3 10.5 5; } >f2.jsonl
	{ plant A a1 ba1 10.0 1 1; plant A a2 ba2 10.6 2 1; plant A a3 ba3 10.2 7 1
	  plant A a4 ba4 9.8 8 1; plant B b1 bb1 10.3 3; } >f3.jsonl
	{ plant A a1 ba1 10.0 1; plant A a2 ba2 10.1 2
	  plant B b1 bb1 10.4 3; plant B b2 bb2 11.2 4; plant B b3 bb3 10.6 5; plant B b4 bb4 11.1 6; } >f4.jsonl
	{ plant A a1 ba1 10.0 1; plant B b1 bb1 10.8 3; plant C c1 bc1 10.0 5; plant C c2 bc2 10.6 6; } >f5.jsonl
	for f in f1 f2 f3 f4 f5; do
		jq -r 'select(.load == "no_load") | [.label, .boot_id, .wall_s] | @csv' $f.jsonl >fit.csv
		run -0 Rscript fit.R
		read -r est lo hi <<<"${lines[0]}"
		run contest compare -f $f.jsonl --gate time A B
		[ "$status" -le 1 ]
		echo "$f: nlme $est ($lo..$hi)"
		[[ "${lines[${#lines[@]} - 1]}" == *"no_load Time $est% (CI95 $lo..$hi%"* ]]
	done
	# 2 and 4, the two the wider: Welch's t on the boot means stands,
	# as R's t.test has it
	cat >welch.R <<'R'
d <- read.csv("fit.csv", header = FALSE, col.names = c("label", "boot", "wall"))
m <- aggregate(log(wall) ~ label + boot, data = d, FUN = mean)
names(m)[3] <- "y"
w <- t.test(m$y[m$label == "B"], m$y[m$label == "A"], var.equal = FALSE)
cat(sprintf("%+.1f %+.1f %+.1f %.3f\n", (exp(w$estimate[1] - w$estimate[2]) - 1) * 100,
    (exp(w$conf.int[1]) - 1) * 100, (exp(w$conf.int[2]) - 1) * 100, w$p.value))
R
	{ plant A a1 ba1 10.0 1; plant A a2 ba2 10.3 2
	  plant B b1 bb1 10.5 3; plant B b2 bb2 10.9 4; plant B b3 bb3 10.6 5; plant B b4 bb4 10.8 6; } >w4.jsonl
	jq -r 'select(.load == "no_load") | [.label, .boot_id, .wall_s] | @csv' w4.jsonl >fit.csv
	run -0 Rscript welch.R
	read -r est lo hi p <<<"${lines[0]}"
	run -0 contest compare -f w4.jsonl --gate time A B
	echo "w4: t.test $est ($lo..$hi), p $p"
	[[ "${lines[${#lines[@]} - 1]}" == *"no_load Time $est% (CI95 $lo..$hi%"* ]]
	run -0 --separate-stderr contest compare -f w4.jsonl --gate time --format json A B
	[ "$(jq -r '.loads[] | select(.load == "no_load") | .figures[] | select(.figure == "time_amean") | .values[1].p * 1000 | round / 1000' <<<"$output")" = "$p" ]
	jq -r 'select(.load == "no_load") | [.label, .boot_id, .wall_s] | @csv' f1.jsonl >fit.csv
	run -0 Rscript fit.R
	read -r within between <<<"${lines[1]}"
	run -0 contest plan -f f1.jsonl -k A
	[ "$(grep -c "^A  *no_load  *Time  *3  *15  *${within}%  *${between}% " <<<"$output")" -eq 1 ]
}

@test "boots in turn: LAVA jobs a boot each, A B A B, each labelled with its kernel; scripts/vm boots refuses bad counts" {
	run -0 "$TOP_SRCDIR/scripts/lava/boots-jobs" -n 2 -o jobs 6.1 6.12
	[ "${#lines[@]}" -eq 4 ]
	[ "${lines[0]}" = jobs/01-6.1-boot-1.yaml ]
	[ "${lines[1]}" = jobs/02-6.12-boot-1.yaml ]
	[ "${lines[2]}" = jobs/03-6.1-boot-2.yaml ]
	[ "${lines[3]}" = jobs/04-6.12-boot-2.yaml ]
	[ "$(grep -c 'LABEL: "6.12"' jobs/04-6.12-boot-2.yaml)" -eq 1 ]
	[ "$(grep -c '^job_name: contest on 6.12 under QEMU, boot 2 of 2$' jobs/04-6.12-boot-2.yaml)" -eq 1 ]
	[ "$(grep -c '@KERNEL@' jobs/*.yaml | grep -vc ':0$')" -eq 0 ]
	for args in "-n 0 6.1" "-n x 6.1" "-t /nonexistent 6.1" "6.1/x" ""; do
		eval "run -2 --separate-stderr \"\$TOP_SRCDIR/scripts/lava/boots-jobs\" -o bad $args"
		[ "${#stderr_lines[@]}" -eq 1 ]
	done
	run -2 --separate-stderr sh "$TOP_SRCDIR/scripts/vm" boots --boots 0 -- true
	[ "$stderr" = "vm: --boots: '0' is not a number of boots above 0" ]
	run -2 --separate-stderr sh "$TOP_SRCDIR/scripts/vm" boots --kernels 5.10 -- true
	[ "$stderr" = "vm: unknown kernel '5.10' (6.1, 6.12, 6.12-rt or 6.1-rt)" ]
}

@test "boots: bisect takes GOOD's, BAD's and the candidate's boots as their samples: the step over 2 boots a side with a 6% boot effect is none" {
	{ plant good g1 bg1 10.0 1; plant good g2 bg2 10.2 2; plant good g3 bg3 10.1 9
	  plant bad b1 bb1 11.0 3; plant bad b2 bb2 11.2 4; plant bad b3 bb3 11.1 10
	  plant cand c1 bc1 11.05 5; plant cand c2 bc2 11.15 6; plant cand c3 bc3 10.95 11; } >three.jsonl
	run -1 contest bisect -f three.jsonl --gate time -l no_load good bad cand
	# over three boots a side: each test has the boots' df, not the runs'
	[ "${lines[0]}" = "no_load Time: cand at 0.96 of the step from good (10.10) to bad (11.09), against good p=0.00026, against bad p=0.66: bad" ]
	sed 's/"boot_id":"[a-z0-9]*",//' three.jsonl >runs.jsonl
	run -1 contest bisect -f runs.jsonl --gate time -l no_load good bad cand
	[ "${lines[0]}" = "no_load Time: cand at 0.96 of the step from good (10.10) to bad (11.09), against good p=6.8e-23, against bad p=0.25: bad" ]
	# two boots a side, 6% apart within each kernel: a 10% step the
	# boots cannot tell, so no step to bisect
	{ plant good g1 bg1 10.0 1; plant good g2 bg2 10.6 2; plant bad b1 bb1 11.0 3
	  plant bad b2 bb2 11.6 4; plant cand c1 bc1 10.9 5; } >two.jsonl
	run -2 --separate-stderr contest bisect -f two.jsonl --gate time good bad cand
	[ "$stderr" = "contest bisect: can't tell whether bad is a regression beyond 5% against good: 2 gated figures undecided (contest compare says why); no step to bisect" ]
}

@test "boots: history's night over two boots has its Time's and Ratio's CI95 over its boot means, not its runs" {
	{ plant A a1 ba1 10.0 1; plant A a2 ba2 10.6 2; } >h.jsonl
	run -0 --separate-stderr contest history -f h.jsonl --format json
	got=$(jq -r '.series[] | select(.load == "no_load" and .figure == "time_amean") | .points[0] | "\(.mean) \(.ci95)"' <<<"$output")
	# two boot means: their mean, and t(0.975, 1) x |a - b| / 2
	want=$(jq -rs '[.[] | select(.load == "no_load")] | group_by(.session) | map(map(.wall_s) | add / length) |
	    "\(add / 2) \(12.7062 * ((.[0] - .[1]) | fabs) / 2)"' h.jsonl)
	read -r gm gc <<<"$got"
	read -r wm wc <<<"$want"
	awk -v a="$gm" -v b="$wm" -v c="$gc" -v d="$wc" 'BEGIN { exit !(a - b < 1e-4 && b - a < 1e-4 && c - d < 1e-3 && d - c < 1e-3) }'
	# the same runs with no boot recorded: the runs' CI95, far narrower
	sed 's/"boot_id":"[a-z0-9]*",//' h.jsonl >runs.jsonl
	run -0 --separate-stderr contest history -f runs.jsonl --format json
	narrow=$(jq -r '.series[] | select(.load == "no_load" and .figure == "time_amean") | .points[0].ci95' <<<"$output")
	awk -v a="$narrow" -v b="$gc" 'BEGIN { exit !(a * 5 < b) }'
	# Ratio: each boot's fork_load over its own no_load
	run -0 --separate-stderr contest history -f h.jsonl --format json
	[ "$(jq -r '.series[] | select(.load == "fork_load" and .figure == "ratio") | .points[0].ci95 < 0.05' <<<"$output")" = true ]
}
