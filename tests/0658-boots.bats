#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The boot as the unit of a kernel's samples (report/cmp_boots.c): a
# label over two or more boots is compared on its boot means; a label in
# one boot borrows the boot-to-boot spread of a label that has boots, or
# never claims "no change"; results without boot ids are tested over
# runs, and said to be.  The results are planted: five rounds of no_load
# and fork_load a boot, a boot's level as given, the runs within it
# 0.45% either side of it.

load helpers

# plant LABEL SESSION BOOT MEAN SEED: a session of five rounds in boot
# BOOT (-: none recorded) whose no_load runs take about MEAN seconds
plant() {
	# (no rand(): mawk's and gawk's differ; a fixed pattern of SEED's)
	awk -v l="$1" -v s="$2" -v b="$3" -v m="$4" -v seed="$5" 'BEGIN {
	    for (r = 0; r < 5; r++)
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

@test "boots: one boot a side claims no change never and calls a regression possibly the boot; an A/A label's boots widen it" {
	{ plant A a1 ba1 10.0 1; plant B b1 bb1 10.02 3; } >same.jsonl
	run -0 contest compare -f same.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired; one boot each: a boot-to-boot difference reads the same): undecided: no_load Time -0.0% (CI95 -0.5..+0.5%)"* ]]
	# the same with the boots unrecorded: no change, as before
	sed 's/"boot_id":"[a-z0-9]*",//' same.jsonl >runs.jsonl
	run -0 contest compare -f runs.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: no change (unpaired): 2 of 2 gated figures within ±5% (CI95)"* ]]
	{ plant A a1 ba1 10.0 1; plant B b1 bb1 10.8 3; } >worse.jsonl
	run -1 contest compare -f worse.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == *"no_load Time +7.8% (CI95 +7.3..+8.3%, p=4.5e-10, possibly the boot)"* ]]
	# C, an A/A: the same kernel in two boots 6% apart
	{ cat worse.jsonl; plant C c1 bc1 10.0 5; plant C c2 bc2 10.6 6; } >aa.jsonl
	run -0 contest compare -f aa.jsonl --gate time A B C
	[[ "${lines[${#lines[@]} - 2]}" == "B against A: can't tell (unpaired; one boot a side widened by the boot-to-boot spread of C's 2 boots): undecided: no_load Time +7.8% (CI95 -"* ]]
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
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired; one boot a side widened by the boot-to-boot spread of C's 2 boots): "* ]]
	# and not one of another command
	sed '/"label":"C"/s/"command":"job"/"command":"other"/' aa.jsonl >other.jsonl
	run -1 contest compare -f other.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == *"(unpaired; one boot each: a boot-to-boot difference reads the same)"* ]]
}

@test "boots: a side over boots against one in one is tested on its boot means and widens the other by its spread" {
	{ plant A a1 ba1 10.0 1; plant A a2 ba2 10.6 2; plant B b1 bb1 10.7 3; } >mixed.jsonl
	run -0 contest compare -f mixed.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: can't tell (unpaired; one boot a side widened by the boot-to-boot spread of A's 2 boots): undecided: "* ]]
}

@test "boots: one side's runs without a boot id (older results) are tested over runs, and the line says so" {
	{ plant A a1 ba1 10.0 1; plant B b1 - 10.02 3; } >older.jsonl
	run -0 contest compare -f older.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == "B against A: no change (unpaired; one label's runs record no boot (older results): tested over runs): "* ]]
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
	run -0 --separate-stderr contest plan -f aa.jsonl --target 3 --boot-cost 60 --format json
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
	# boots: the normal approximation's count, and at most three more
	# where t's quantiles at 2n - 2 df are wider
	n=$(jq -r .boots_per_kernel <<<"$got")
	awk -v t1="$t1" -v t2="$t2" -v r="$r" -v n="$n" 'BEGIN {
	    d = log(1.03); z = 1.959964 + 0.841621
	    nz = 2 * z * z * (t2 + t1 / r) / (d * d); nz = nz == int(nz) ? nz : int(nz) + 1
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
	for args in "--target 0" "--target 100" "--target -1" "--target x" "--boot-cost 0" "--boot-cost -5" "--format csv" "--gate time"; do
		eval "run -2 --separate-stderr contest plan -f one.jsonl $args"
		[ "${#stderr_lines[@]}" -eq 1 ]
		[ -z "$output" ]
	done
}

@test "boots: compare's boot test and plan's two spreads are R nlme's mixed model's, runs within boots (REML)" {
	command -v Rscript >/dev/null || skip "no Rscript: the cross-check against R is left out (scripts/bootstrap --cross-checks installs r-cran-nlme)"
	Rscript -e 'library(nlme)' >/dev/null 2>&1 || skip "no R nlme: the cross-check against R is left out (scripts/bootstrap --cross-checks installs r-cran-nlme)"
	{ plant A a1 ba1 10.0 1; plant A a2 ba2 10.6 2; plant A a3 ba3 10.2 7
	  plant B b1 bb1 10.7 3; plant B b2 bb2 11.3 4; plant B b3 bb3 10.9 8; } >three.jsonl
	jq -r 'select(.load == "no_load") | [.label, .boot_id, .wall_s] | @csv' three.jsonl >three.csv
	cat >fit.R <<'R'
suppressMessages(library(nlme))
d <- read.csv("three.csv", header = FALSE, col.names = c("label", "boot", "wall"))
d$y <- log(d$wall)
m <- lme(y ~ label, random = ~1 | boot, data = d, method = "REML")
ci <- intervals(m, which = "fixed")$fixed
cat(sprintf("%.1f %.1f %.1f\n", (exp(ci[2, 2]) - 1) * 100, (exp(ci[2, 1]) - 1) * 100, (exp(ci[2, 3]) - 1) * 100))
a <- lme(y ~ 1, random = ~1 | boot, data = subset(d, label == "A"), method = "REML")
sd <- as.numeric(VarCorr(a)[, "StdDev"]) * 100
cat(sprintf("%.2f %.2f\n", sd[2], sd[1]))
R
	run -0 Rscript fit.R
	read -r est lo hi <<<"${lines[0]}"
	read -r within between <<<"${lines[1]}"
	run -1 contest compare -f three.jsonl --gate time A B
	[[ "${lines[${#lines[@]} - 1]}" == *"over 3 and 3 boots"*"no_load Time $(printf '%+.1f' "$est")% (CI95 $(printf '%+.1f' "$lo")..$(printf '%+.1f' "$hi")%"* ]]
	run -0 contest plan -f three.jsonl -k A
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
	[ "${lines[0]}" = "no_load Time: cand at 0.96 of the step from good (10.10) to bad (11.09), against good p=0.00025, against bad p=0.66: bad" ]
	sed 's/"boot_id":"[a-z0-9]*",//' three.jsonl >runs.jsonl
	run -1 contest bisect -f runs.jsonl --gate time -l no_load good bad cand
	[ "${lines[0]}" = "no_load Time: cand at 0.96 of the step from good (10.10) to bad (11.09), against good p=6.8e-23, against bad p=0.25: bad" ]
	# two boots a side, 6% apart within each kernel: no step to bisect
	{ plant good g1 bg1 10.0 1; plant good g2 bg2 10.6 2; plant bad b1 bb1 11.0 3
	  plant bad b2 bb2 11.6 4; plant cand c1 bc1 10.9 5; } >two.jsonl
	run -2 --separate-stderr contest bisect -f two.jsonl --gate time good bad cand
	[ "$stderr" = "contest bisect: bad is no regression beyond 5% against good in any gated figure: no step to bisect" ]
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
