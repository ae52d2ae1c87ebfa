#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# contest report on hand-written results (tests/data/report): the classic
# block, statistics checked against an independent computation, every
# format parsed, the chart, filters, damaged input.

load helpers

D="$TOP_SRCDIR/tests/data/report"

# wall_s of one label's runs of one load in a fixture, one per line.
walls() {
	jq -r --arg k "$2" --arg l "$3" \
	    'select(.label == $k and .load_spec == $l and .warmup == false and .status == "ok") | .wall_s' "$1"
}

@test "report: the classic block, one row per kernel, Ratio over its own no_load" {
	run --separate-stderr contest report "$D/classic.jsonl"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == "no_load:"* ]]
	grep -qx 'Kernel  *\[runs\]  *Time  *CPU%  *Wait%  *Loads  *Load%  *LCPU%  *Ratio' <<<"$output"
	# 97.12 = mean of 97.0 96.5 97.8 98.1 96.2; 32750 children on average;
	# 1.33 = 97.12 / 73.20 (2.4.19's own no_load), ± its CI95: 0.05 (the
	# csv's ratio_ci95, computed independently below)
	[[ "$(block_row fork_load 2.4.19 "$output")" =~ ^2\.4\.19\ +5\ +97\.12±0\.82\ +67%\ +-\ +32750\ +-\ +33%\ +1\.33±0\.05$ ]]
	[[ "$(block_row fork_load 2.5.38 "$output")" =~ ^2\.5\.38\ +5\ +75\.32±0\.15\ +67%\ +-\ +5545\ +-\ +33%\ +1\.03±0\.00$ ]]
	[[ "$(block_row no_load 2.5.38 "$output")" =~ ^2\.5\.38\ +3\ +73\.03±0\.15\ +67%\ +-\ +-\ +-\ +-\ +1\.00$ ]]
	# the counters per row: the mean count, and the mean rate per second
	grep -qx 'fork_load: 2.4.19: Loads = children_forked: 32750 (337/s)' <<<"$output"
	grep -qx 'fork_load: 2.5.38: Loads = children_forked: 5545 (73.62/s)' <<<"$output"
	csv=$(contest report --format csv "$D/classic.jsonl")
	[ "$(csv_get "$csv" fork_load 2.4.19 ratio_ci95 | awk '{ printf "%.2f", $1 }')" = 0.05 ]
}

@test "report: Time, sd, CI95 and Ratio with its sd and CI95 equal an independent computation" {
	run --separate-stderr contest report --format csv "$D/compare.jsonl" "$D/classic.jsonl"
	[ "$status" -eq 0 ]
	local csv=$output checked=0
	for f in classic compare; do
		for k in $(jq -r .label "$D/$f.jsonl" | sort -u); do
			read -r bm bsd _ bn < <(walls "$D/$f.jsonl" "$k" no_load | awk_stats)
			for l in $(jq -r 'select(.label == "'"$k"'") | .load_spec' "$D/$f.jsonl" | sort -u); do
				read -r m sd ci n < <(walls "$D/$f.jsonl" "$k" "$l" | awk_stats)
				awk -v a="$(csv_get "$csv" "$l" "$k" time_mean)" -v b="$m" 'BEGIN { exit !((a - b) ^ 2 < 1e-10) }'
				awk -v a="$(csv_get "$csv" "$l" "$k" time_sd)" -v b="$sd" 'BEGIN { exit !((a - b) ^ 2 < 1e-10) }'
				awk -v a="$(csv_get "$csv" "$l" "$k" time_ci95)" -v b="$ci" 'BEGIN { exit !((a - b) ^ 2 < 1e-10) }'
				[ "$(csv_get "$csv" "$l" "$k" runs)" -eq "$n" ]
				if [ "$l" = no_load ]; then continue; fi
				# ratio of means, sd by propagation, CI95 from the standard
				# errors at the Welch-Satterthwaite df (rounded down)
				read -r r rsd rci < <(awk -v m="$m" -v s="$sd" -v n="$n" \
				    -v bm="$bm" -v bs="$bsd" -v bn="$bn" 'BEGIN {
					split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120", t, " ")
					r = m / bm
					ua = s * s / (n * m * m); ub = bs * bs / (bn * bm * bm)
					df = (ua + ub) ^ 2 / (ua * ua / (n - 1) + ub * ub / (bn - 1))
					printf "%.6f %.6f %.6f\n", r, r * sqrt((s / m) ^ 2 + (bs / bm) ^ 2), t[int(df)] * r * sqrt(ua + ub)
				    }')
				awk -v a="$(csv_get "$csv" "$l" "$k" ratio)" -v b="$r" 'BEGIN { exit !((a - b) ^ 2 < 1e-10) }'
				awk -v a="$(csv_get "$csv" "$l" "$k" ratio_sd)" -v b="$rsd" 'BEGIN { exit !((a - b) ^ 2 < 1e-10) }'
				awk -v a="$(csv_get "$csv" "$l" "$k" ratio_ci95)" -v b="$rci" 'BEGIN { exit !((a - b) ^ 2 < 1e-10) }'
				checked=$((checked + 1))
			done
		done
	done
	[ "$checked" -eq 8 ]
}

@test "report --stats: CoV, min, median, max and CI95 columns with the right values" {
	run contest report --stats -l fork_load "$D/classic.jsonl"
	[ "$status" -eq 0 ]
	grep -qx 'Kernel  *\[runs\]  *Time  *CPU%  *Wait%  *Loads  *Load%  *LCPU%  *Ratio  *CoV%  *Min  *Median  *Max  *CI95' <<<"$output"
	read -r m sd ci _ < <(walls "$D/classic.jsonl" 2.4.19 fork_load | awk_stats)
	want=$(awk -v m="$m" -v sd="$sd" -v ci="$ci" 'BEGIN { printf "%.1f 96.20 97.00 98.10 %.2f", sd / m * 100, ci }')
	row=$(block_row fork_load 2.4.19 "$output")
	[ "$(awk '{ print $10, $11, $12, $13, $14 }' <<<"$row")" = "$want" ]
}

@test "report: a cell with CoV above 5% or fewer than 3 runs is flagged and explained" {
	run contest report "$D/compare.jsonl"
	[ "$status" -eq 0 ]
	[[ "$(block_row sleepers:n=100 base "$output")" == *"?"* ]]
	[[ "$(block_row fork_load base "$output")" != *"?"* ]]
	grep -qx '? CoV of Time above 5% or fewer than 3 runs: read with care (more runs, --warmup, or --prepare).' <<<"$output"
	head -2 "$D/classic.jsonl" > two.jsonl
	run contest report two.jsonl
	[ "$status" -eq 0 ]
	[[ "$(block_row no_load 2.4.19 "$output")" =~ ^2\.4\.19\ +2\ +72\.75±1\.06\? ]]
	run contest report -l fork_load "$D/classic.jsonl"
	[ "$status" -eq 0 ]
	run ! grep -q '^?' <<<"$output"
}

@test "report: csv has one header and a line per kernel and load, all of the same width" {
	run --separate-stderr contest report --format csv "$D/compare.jsonl"
	[ "$status" -eq 0 ]
	[ "$(wc -l <<<"$output")" -eq 10 ]	# header + 3 loads x 3 kernels
	[ "$(csv_columns <<<"$output" | sort -u)" = "$(head -1 <<<"$output" | csv_columns)" ]
	[ "$(head -1 <<<"$output" | csv_columns)" -eq 37 ]
	[ "$(csv_get "$output" fork_load worse counters)" = "children_forked=2500" ]
	[ "$(csv_get "$output" fork_load worse sched)" = "" ]
}

@test "report: csv and lava give the table's columns, in its order, with its figures" {
	f=$TOP_SRCDIR/scripts/bench/newest.jsonl
	run -0 --separate-stderr contest report --format csv "$f"
	csv=$output
	# the shared columns in the text table's order: Time CPU% Wait% Loads Load% LCPU% Ratio Lat p99 Met%
	[ "$(head -1 <<<"$csv" | tr , '\n' | grep -xE 'time_mean|cpu_pct|wait_pct|loads_mean|load_pct|lcpu_pct|ratio|lat_p99_us|met_pct' | paste -sd' ')" = "time_mean cpu_pct wait_pct loads_mean load_pct lcpu_pct ratio lat_p99_us met_pct" ]
	run -0 --separate-stderr contest report --format json "$f"
	json=$output
	# the probe's pooled p99 and Met%, as the table and the JSON have them
	[ "$(csv_get "$csv" fork_load 6.18.44-fc-v657 lat_p99_us)" = "$(jq -r '.loads[] | select(.load == "fork_load") | .rows[0].probe.p99_us' <<<"$json" | awk '{ printf "%.3f", $1 }')" ]
	[ "$(csv_get "$csv" fork_load 6.18.44-fc-v657 met_pct)" = "$(jq -r '.loads[] | select(.load == "fork_load") | .rows[0].probe_met_pct' <<<"$json" | awk '{ printf "%.2f", $1 }')" ]
	# the no_load row has no load: nothing under Load% and LCPU%, as in the table
	[ "$(csv_get "$csv" no_load 6.18.44-fc-v657 lcpu_pct)" = "" ]
	[ "$(csv_get "$csv" no_load 6.18.44-fc-v657 load_pct)" = "" ]
	run -0 --separate-stderr contest report --format lava "$f"
	[ "$(grep '^fork_load-' <<<"$output" | cut -d' ' -f1 | paste -sd' ')" = "fork_load-time fork_load-cpu fork_load-wait fork_load-loads fork_load-load-pct fork_load-ratio fork_load-lat-p99 fork_load-met" ]
	[ "$(grep -c '^no_load-ratio' <<<"$output")" -eq 0 ]	# 1 by definition: not sent
	[ "$(grep '^fork_load-loads ' <<<"$output" | cut -d' ' -f3)" = "$(csv_get "$csv" fork_load 6.18.44-fc-v657 loads_per_s | awk '{ printf "%.2f", $1 }')" ]
}

@test "report: json is one strict document carrying every statistic and every run" {
	run --separate-stderr contest report --format json "$D/classic.jsonl"
	[ "$status" -eq 0 ]
	jq -e . <<<"$output" >/dev/null
	[ "$(jq '.loads | length' <<<"$output")" -eq 2 ]
	[ "$(jq -r '.loads[1].rows[0].time_runs_s | length' <<<"$output")" -eq 5 ]
	[ "$(jq -r '.loads[1].rows[0].loads.mean' <<<"$output")" = 32750 ]
	[ "$(jq -r '.loads[1].rows[0].counters.children_forked.unit' <<<"$output")" = children ]
	jq -e '.loads[1].rows[0] | .time_s.ci95 > 0 and .ratio.ci95 > 0 and .time_s.median == 97' <<<"$output"
	jq -e '.kernels[0].env | .host == "box" and .nproc == 2' <<<"$output"
	need python3 python3
	python3 -m json.tool <<<"$output" >/dev/null
}

@test "report: md is Markdown tables whose rows have as many cells as the header" {
	run --separate-stderr contest report --format md --stats "$D/classic.jsonl"
	[ "$status" -eq 0 ]
	grep -qx '### fork_load' <<<"$output"
	grep -q '^| 2.4.19 | 5 | 97.12 ± 0.82 | 67% | - | 32750 | - | 33% | 1.33 ± 0.05 |' <<<"$output"
	[ "$(grep '^|' <<<"$output" | awk -F'|' '{ print NF }' | sort -u)" = 16 ]
}

@test "report --svg: well-formed SVG, one bar per load per kernel, one dot per run" {
	command -v xmllint >/dev/null || skip "no xmllint (libxml2-utils)"
	run --separate-stderr contest report --svg chart.svg "$D/compare.jsonl"
	[ "$status" -eq 0 ]
	xmllint --noout chart.svg
	# 2 loads besides no_load, 3 kernels; 36 runs in all
	[ "$(grep -c 'class="bar"' chart.svg)" -eq 6 ]
	[ "$(grep -c 'class="run"' chart.svg)" -eq 36 ]
	[ "$(grep -c 'class="err"' chart.svg)" -eq 6 ]
	grep -q '<title>fork_load, worse: ratio 1.400' chart.svg
	[ ! -e chart.svg.tmp* ]
	[ "$(stat -c %a chart.svg)" = "$(printf '%o' $((0666 & ~$(umask))))" ]
	run contest report --svg /nonexistent/dir/c.svg "$D/compare.jsonl"
	[ "$status" -eq 1 ]
}

@test "report --svg: a symlink planted where a temporary name could be is never followed" {
	echo precious >victim
	# the name a pid-named temporary file would have: contest's pid is
	# this shell's, which execs it
	run sh -c 'ln -s victim "chart.svg.tmp$$" && exec "$0" report --svg chart.svg "$1"' \
	    "$CONTEST" "$D/compare.jsonl"
	[ "$status" -eq 0 ]
	[ "$(cat victim)" = precious ]
	[ -f chart.svg ]
	[ ! -L chart.svg ]
	grep -q '</svg>' chart.svg
	[ -z "$(find . -name '.chart.svg.*')" ]
}

@test "report: filters by label, load, host and date; sorts by label and by time" {
	run contest report -k 2.5.38 "$D/classic.jsonl"
	[ "$status" -eq 0 ]
	[ -z "$(block_row no_load 2.4.19 "$output")" ]
	[ -n "$(block_row no_load 2.5.38 "$output")" ]
	run contest report -l fork_load "$D/classic.jsonl"
	[ "$status" -eq 0 ]
	[[ "$output" == "fork_load:"* ]]
	[ "$(grep -cx 'no_load:' <<<"$output")" -eq 0 ]
	run contest report --host beta "$D/hosts.jsonl"
	[ "$status" -eq 0 ]
	[ "$(grep -c '^same' <<<"$output")" -eq 1 ]
	run contest report --since 2026-11-03 "$D/compare.jsonl"
	[ "$status" -eq 0 ]
	[ -z "$(block_row no_load base "$output")" ]
	[ -n "$(block_row no_load worse "$output")" ]
	run contest report --since 2026-11-03T03:00:01 "$D/compare.jsonl"
	[ "$status" -eq 0 ]
	[ -z "$(block_row no_load worse "$output")" ]
	run contest report --sort time -l fork_load "$D/compare.jsonl"
	[ "$status" -eq 0 ]
	[ "$(awk '/^(base|worse|better) / { printf "%s ", $1 }' <<<"$output")" = "better base worse " ]
	run contest report --sort label "$D/compare.jsonl" "$D/classic.jsonl"
	[ "$status" -eq 0 ]
	[ "$(awk '/^fork_load:$/ { f = 1; next } f && /^[^ ]+:$/ { exit } f && /^[0-9a-z.]+ +[0-9]/ { printf "%s ", $1 }' <<<"$output")" = "2.4.19 2.5.38 base better worse " ]
	run --separate-stderr contest report -k nothing "$D/classic.jsonl"
	[ "$status" -eq 1 ]
	[ "$stderr" = "contest report: no results match the filters" ]
}

@test "report: damaged lines and non-results are named and skipped; failed and warmup runs kept out" {
	run --separate-stderr contest report "$D/damaged.jsonl"
	[ "$status" -eq 0 ]
	[ "$(grep -c . <<<"$stderr")" -eq 3 ]
	grep -q 'damaged.jsonl:2: not one JSON object, skipped' <<<"$stderr"
	grep -q 'damaged.jsonl:3: not a contest result, skipped' <<<"$stderr"
	grep -q 'damaged.jsonl:8: incomplete last line, skipped' <<<"$stderr"
	[[ "$(block_row no_load k1 "$output")" =~ ^k1\ +3!\ +5\.00±0\.20 ]]
	grep -qx 'no_load: ! 1 run failed (last exit status 2, SIGKILL), left out of the means' <<<"$output"
	grep -q '^1 warmup run not counted' <<<"$output"
}

@test "report: one label on two hosts or with two commands is split, named and warned about" {
	run --separate-stderr contest report "$D/hosts.jsonl"
	[ "$status" -eq 0 ]
	[[ "$(block_row no_load same@alpha "$output")" =~ \ 5\.10± ]]
	[[ "$(block_row no_load same@beta "$output")" =~ \ 6\.10± ]]
	[[ "$(block_row no_load 'two#2' "$output")" =~ \ 4\.10± ]]
	grep -q "label 'same' was measured on 2 hosts" <<<"$stderr"
	grep -q "label 'two' was measured with 2 different commands" <<<"$stderr"
	grep -q '^  command  .*two#1: make -j1, two#2: make -j2' <<<"$output"
}

@test "report and compare: a kernel rebuilt with the same release is two rows, by build ID, else by uname -v and config" {
	# two sessions' lines of one label and release: the second as if a
	# patched build of the same uname -r ran it, twice as slow (times
	# planted, 0.101 to 0.103 s: a busy host's sleeps are no known answer)
	run contest -k same --warmup 0 -n 3 --lead 0 -l sleepers:n=1 -- sleep 0.1
	[ "$status" -eq 0 ]
	# (each build in a boot of its own, as a rebuilt kernel is)
	jq -c '.kernel_build_id = "aaaa" | .boot_id = "b1" | .session = "s1" | .wall_s = 0.1 + .run / 1000' "$R" > builds.jsonl
	jq -c '.kernel_build_id = "bbbb" | .boot_id = "b2" | .session = "s2" | .wall_s = 2 * (0.1 + .run / 1000)' "$R" >> builds.jsonl
	run --separate-stderr contest report builds.jsonl
	[ "$status" -eq 0 ]
	[ "$stderr" = "contest report: warning: label 'same' was measured on 2 different kernel builds or schedulers (kernel_build_id, else kernel_version and the config's hash; sched_ext); its rows are named LABEL#N" ]
	[[ "$(block_row no_load 'same#1' "$output")" =~ ^same#1\ +3\ +0\.1[0-9]± ]]
	[[ "$(block_row no_load 'same#2' "$output")" =~ ^same#2\ +3\ +0\.2[0-9]± ]]
	grep -qx 'same#1 vs same#2: build aaaa vs bbbb' <<<"$output"
	# compare takes the two builds as its columns; a boot each, no boot
	# spread known: the runs' change shown, can't tell (exit 0), marked
	run --separate-stderr contest compare -f builds.jsonl 'same#1' 'same#2'
	[ "$status" -eq 0 ]
	[[ "$(grep '^Amean     Time' <<<"$output" | head -1)" == *"* +100.00%*" ]]
	[[ "${lines[${#lines[@]} - 1]}" == "same#2 against same#1: can't tell (unpaired; one boot each: "*"no_load Time +100.0% (CI95 "*", possibly the boot)"* ]]
	# without build IDs, uname -v (its build number and time) tells them apart
	jq -c 'del(.kernel_build_id) | .schema = 2 | .kernel_version = "#1 SMP PREEMPT_DYNAMIC Mon" | .session = "s1"' "$R" > versions.jsonl
	jq -c 'del(.kernel_build_id) | .schema = 2 | .kernel_version = "#2 SMP PREEMPT_DYNAMIC Tue" | .session = "s2"' "$R" >> versions.jsonl
	run --separate-stderr contest report versions.jsonl
	[ "$status" -eq 0 ]
	[ -n "$(block_row no_load 'same#2' "$output")" ]
	# one build's runs stay one row (its times planted too: a busy host's
	# first sleep, ten times the others', marks the runs after it)
	jq -c '.wall_s = 0.1 + .run / 1000' "$R" > one.jsonl
	run -0 --separate-stderr contest report one.jsonl
	[ -z "$stderr" ]
	[[ "$(block_row no_load same "$output")" =~ ^same\ +3\  ]]
	# lines that say no build ID (written before build IDs) never join a
	# build's row, even where uname -v and the config agree: build aa,
	# build bb, and none, the last two 1.5 times slower
	jq -c '.kernel_build_id = "aaaa" | .session = "s1"' one.jsonl > mixed.jsonl
	jq -c '.kernel_build_id = "bbbb" | .session = "s2" | .wall_s *= 1.5' one.jsonl >> mixed.jsonl
	jq -c 'del(.kernel_build_id) | .schema = 2 | .session = "s0" | .wall_s *= 1.5' one.jsonl >> mixed.jsonl
	run -0 --separate-stderr contest report mixed.jsonl
	[ "$(sed -n 2p <<<"$stderr")" = "contest report: warning: label 'same' has runs that say no kernel build ID beside runs that say one: they may be another build, and are a row of their own, LABEL#?" ]
	want=$(jq -s '[.[] | select(.load == "no_load" and .kernel_build_id == "aaaa") | .wall_s] | add / length' mixed.jsonl)
	[[ "$(block_row no_load 'same#1' "$output")" =~ ^same#1\ +3\ +$(printf %.2f "$want")± ]]
	[[ "$(block_row no_load 'same#2' "$output")" =~ ^same#2\ +3\  ]]
	[[ "$(block_row no_load 'same#?' "$output")" =~ ^same#\?\ +3\  ]]
	run -0 contest compare -f mixed.jsonl 'same#2' 'same#?'
}

@test "report: the runs that may have done no work are judged on the session's measured runs, whatever the filters" {
	# sleep 0.3 as a job: a warmup, then three rounds of no_load and a load
	line() {	# session run warmup load wall second
		printf '{"label":"k","load":"%s","status":"ok","wall_s":%s,"run":%d,"session":"%s","host":"h","command":"c","warmup":%s,"timestamp":"2026-01-01T00:00:%02d"}\n' \
		    "$4" "$5" "$2" "$1" "$3" "$6"
	}
	# a cold first warmup, six times the warm runs: a cold start, which
	# is what the warmup takes; every measured run is kept
	{ line s1 1 true no_load 1.8 0; line s1 1 true cpu_load 0.35 1
	  t=2; for i in 1 2 3; do line s1 "$i" false no_load 0.3 $t; line s1 "$i" false cpu_load 0.36 $((t + 1)); t=$((t + 2)); done
	} > cold.jsonl
	run -0 --separate-stderr contest report cold.jsonl
	[[ "$(block_row no_load k "$output")" =~ ^k\ +3\ +0\.30± ]]
	[[ "$(block_row cpu_load k "$output")" =~ ^k\ +3\ +0\.36± ]]
	grep -qx "session s1: its warmup took 1.80 s, over 5 times its measured runs' median 0.33 s: a cold start, or the job's work done once before them (a --prepare step undoes it); the runs are kept." <<<"$output"
	# a first measured run that did the work: every run after it is
	# suspect, with the report's filters as without them
	{ line s2 1 true no_load 0.3 0; line s2 1 true cpu_load 0.35 1
	  line s2 1 false no_load 2.0 2; line s2 1 false cpu_load 0.03 3
	  t=4; for i in 2 3; do line s2 "$i" false no_load 0.02 $t; line s2 "$i" false cpu_load 0.03 $((t + 1)); t=$((t + 2)); done
	} > once.jsonl
	for filter in "" "--since 2026-01-01T00:00:03" "-l cpu_load" "-k k" "--host h"; do
		# shellcheck disable=SC2086 # a filter is its words
		run -0 --separate-stderr contest report $filter --format json once.jsonl
		[ "$(jq -c '[.loads[] | select(.load == "cpu_load") | .rows[0] | .runs, .suspect_runs]' <<<"$output")" = '[0,[1,2,3]]' ] ||
		    { echo "# with '$filter'" >&3; false; }
	done
}

@test "report: memory stays flat over a million damaged lines" {
	[ -x /usr/bin/time ] || skip "no /usr/bin/time (scripts/bootstrap installs it)"
	awk 'BEGIN { for (i = 0; i < 1000000; i++)
		print "{\"label\":\"x\",\"load\":\"no_load\",\"wall_s\":1,\"oops" }' >damaged.jsonl
	# (its 60 MB of warnings to a file: bats's run would hold them in a
	# variable, which took nine seconds to the report's one)
	rc=0
	/usr/bin/time -f '%M' -o rss "$CONTEST" report damaged.jsonl >report.txt 2>warnings || rc=$?
	[ "$rc" -eq 1 ]
	[ "$(grep -c 'not one JSON object, skipped' warnings)" -eq 1000000 ]
	kb=$(tail -1 rss)
	echo "# peak RSS $kb kB over 1,000,000 damaged lines" >&3
	# a parse's memory kept per damaged line would be gigabytes
	[ "$kb" -le 65536 ]
}

@test "report: a directory is every *.jsonl in it; the default is the results dir" {
	mkdir -p hosts
	cp "$D/classic.jsonl" hosts/a.jsonl
	cp "$D/hosts.jsonl" hosts/b.jsonl
	echo junk > hosts/notes.txt
	run --separate-stderr contest report hosts
	[ "$status" -eq 0 ]
	[ -n "$(block_row fork_load 2.4.19 "$output")" ]
	[ -n "$(block_row no_load same@beta "$output")" ]
	mkdir -p "$CONTEST_RESULTS"
	cp "$D/classic.jsonl" "$R"
	run contest report
	[ "$status" -eq 0 ]
	[ -n "$(block_row fork_load 2.5.38 "$output")" ]
	run --separate-stderr contest report nowhere.jsonl
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest report: nowhere.jsonl: No such file or directory" ]
}

@test "report and compare where no results exist yet: what to do, in one line" {
	mkdir fresh
	cd fresh
	for cmd in report "compare a b"; do
		# shellcheck disable=SC2086
		run --separate-stderr env -u CONTEST_RESULTS "$CONTEST" $cmd
		[ "$status" -eq 2 ]
		[ -z "$output" ]
		[ "$stderr" = "contest ${cmd%% *}: no results in ./contest-results yet: run contest here first, or name a results file or directory with -f" ]
		# shellcheck disable=SC2086
		run --separate-stderr "$CONTEST" $cmd
		[ "$status" -eq 2 ]
		[ "$stderr" = "contest ${cmd%% *}: no results in $CONTEST_RESULTS (\$CONTEST_RESULTS) yet: run contest first, or name a results file or directory with -f" ]
	done
	[ ! -e contest-results ]
}

@test "report: doc/reports.md's example is what contest prints from doc/example-nice.jsonl" {
	doc=$TOP_SRCDIR/doc/reports.md
	run --separate-stderr contest report "$TOP_SRCDIR/doc/example-nice.jsonl"
	[ "$status" -eq 0 ]
	local n=0
	while IFS= read -r line; do
		grep -qxF "    $line" "$doc" || { echo "# not in $doc: $line" >&3; return 1; }
		n=$((n + 1))
	done <<<"$output"
	[ "$n" -eq 24 ]
	run contest compare -f "$TOP_SRCDIR/doc/example-nice.jsonl" loads-nice0 loads-nice19
	[ "$status" -eq 1 ]
	n=0
	while IFS= read -r line; do
		[ -n "$line" ] || continue	# the blank lines between blocks
		grep -qxF "    ${line%"${line##*[! ]}"}" "$doc" || { echo "# not in $doc: $line" >&3; return 1; }
		n=$((n + 1))
	done <<<"$output"
	[ "$n" -eq 39 ]
}

@test "compare: doc/reports.md's worked example is what contest prints from doc/example-compare.jsonl" {
	run --separate-stderr contest compare -f "$TOP_SRCDIR/doc/example-compare.jsonl" loads/nice0 loads/nice10 loads/nice19
	[ "$status" -eq 0 ]
	block=$(awk '/^## Comparing kernels: a worked example/ { f = 1; next } /^## / { f = 0 } f' "$TOP_SRCDIR/doc/reports.md" |
	    awk '/^    no_load / { f = 1 } f && /^    loads\/nice19 against/ { print substr($0, 5); exit } f { print (length($0) ? substr($0, 5) : "") }')
	[ "$block" = "$(sed 's/ *$//' <<<"$output")" ]
	[ "$(wc -l <<<"$block")" -eq 35 ]
	run contest report -f "$TOP_SRCDIR/doc/example-compare.jsonl" --svg "$BATS_TEST_TMPDIR/s.svg" --series
	[ "$status" -eq 0 ]
	cmp "$BATS_TEST_TMPDIR/s.svg" "$TOP_SRCDIR/doc/example-series.svg"
	need xmllint libxml2-utils
	xmllint --noout "$TOP_SRCDIR/doc/example-series.svg"
}

@test "report: the README's table is what contest prints from that run's results, doc/example-quickstart.jsonl" {
	run --separate-stderr contest report "$TOP_SRCDIR/doc/example-quickstart.jsonl"
	[ "$status" -eq 0 ]
	block=$(awk '/^## Reading the table/ { f = 1; next } /^## / { f = 0 } f && /^    / { print substr($0, 5) }' "$TOP_SRCDIR/README")
	# the README's block is the run's stdout: the report, then the
	# session's containment and results lines
	[ "$(sed '/^containment: /,$d' <<<"$block")" = "$output" ]
	[ "$(tail -1 <<<"$block" | cut -d' ' -f1)" = "results:" ]
}

@test "report: doc/running.md's probe examples are what contest prints from doc/example-probe.jsonl" {
	doc=$TOP_SRCDIR/doc/running.md
	for k in "-k pinned" "-k nice19 -k nice19-work5"; do
		# shellcheck disable=SC2086 # the labels' options, split on purpose
		run --separate-stderr contest report $k "$TOP_SRCDIR/doc/example-probe.jsonl"
		[ "$status" -eq 0 ]
		n=0
		while IFS= read -r line; do
			grep -qxF "      $line" "$doc" || { echo "# not in $doc: $line" >&3; return 1; }
			n=$((n + 1))
		done <<<"$output"
		[ "$n" -ge 15 ]
	done
	# the prose's figures are the results': 80 of 601 deadlines, 521 skipped
	jq -se '[.[] | select(.label == "nice19-work5" and .load == "cpu_load" and (.warmup | not)).probe] |
	    (map(.periods) | add) == 80 and (map(.deadlines) | add) == 601 and (map(.skipped) | add) == 521' \
	    "$TOP_SRCDIR/doc/example-probe.jsonl"
}

@test "report: a file replaced or appended to between its two reads is not read again by line number" {
	need_faults
	cp "$D/refault.jsonl" b.jsonl
	# the same length, other telemetry: only the inode tells
	sed 's/"workingset_refault_file":91000/"workingset_refault_file":77000/' b.jsonl > b2.jsonl
	[ "$(stat -c %s b.jsonl)" -eq "$(stat -c %s b2.jsonl)" ]
	CONTEST_REPORT_TEL_KB=0 CONTEST_FAULT_AT=b.jsonl@2 CONTEST_FAULT_RUN='mv b2.jsonl b.jsonl' \
	    run --separate-stderr contest_faulty report b.jsonl
	[ "$status" -eq 0 ]
	[ ! -e b2.jsonl ]
	[ "$(grep -c 'stands out' <<<"$output")" -eq 0 ]
	[ "$stderr" = "contest report: b.jsonl: replaced since it was read; the notes on its runs that stand out are left out" ]
	# a line appended: the lines by number would still be there, but the
	# file is not the one read
	CONTEST_REPORT_TEL_KB=0 CONTEST_FAULT_AT=b.jsonl@2 CONTEST_FAULT_RUN="sed -n 1p b.jsonl >> b.jsonl" \
	    run --separate-stderr contest_faulty report b.jsonl
	[ "$status" -eq 0 ]
	[ "$(grep -c 'stands out' <<<"$output")" -eq 0 ]
	[[ "$stderr" == "contest report: b.jsonl: appended to since it was read ("*" bytes, now "*"); the notes on its runs that stand out are left out" ]]
	# unchanged, the second read is made and the note is there
	cp "$D/refault.jsonl" b.jsonl
	CONTEST_REPORT_TEL_KB=0 run --separate-stderr contest report b.jsonl
	[ -z "$stderr" ]
	grep -q 'workingset_refault_file 91000 against 48' <<<"$output"
}

@test "report: a run that stands out is named with the telemetry that differed; machine differences are listed" {
	run --separate-stderr contest report "$D/refault.jsonl"
	[ "$status" -eq 0 ]
	grep -qx 'no_load: cold: run 3 (309.80 s, median 201.00 s) stands out: workingset_refault_file 91000 against 48, job majflt 2400 against 2; more runs or --warmup would tell' <<<"$output"
	# the steady kernel gets no such line
	[ "$(grep -c '^no_load: warm:' <<<"$output")" -eq 0 ]
	grep -qx '  cpufreq  cold: no cpufreq, warm: cpufreq performance' <<<"$output"
	grep -qx '  smt      cold: SMT off, warm: SMT on' <<<"$output"
	grep -qx '  clock    cold: clocksource tsc, warm: clocksource hpet' <<<"$output"
	run contest report --format json "$D/refault.jsonl"
	[ "$status" -eq 0 ]
	jq -e '.kernels[1].env | .clocksource == "hpet" and .smt == true and .cpufreq_governor == "performance" and .cpus_online == 2' <<<"$output"
}

@test "report: past its telemetry budget a report reads the stand-out runs' lines again, and says the same" {
	cp "$D/compare.jsonl" a.jsonl
	cp "$D/refault.jsonl" b.jsonl
	run --separate-stderr contest report a.jsonl b.jsonl
	[ "$status" -eq 0 ]
	kept=$output
	[ "$(grep -c 'stands out' <<<"$kept")" -eq 9 ]
	grep -q 'workingset_refault_file 91000 against 48' <<<"$kept"
	# a budget of 0 kB: every file's telemetry is dropped and read again
	CONTEST_REPORT_TEL_KB=0 run --separate-stderr contest report a.jsonl b.jsonl
	[ "$status" -eq 0 ]
	[ "$output" = "$kept" ]
	# a pipe is never read a second time: what it would give then is not
	# what was read first, so its notes are left out, and stderr says so
	mkfifo f.jsonl
	cat b.jsonl > f.jsonl &
	writer=$!
	CONTEST_REPORT_TEL_KB=0 run --separate-stderr contest report f.jsonl
	# (its own pid: a bare wait would wait for bats's timeout as well)
	wait "$writer"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'stands out' <<<"$output")" -eq 0 ]
	[ "$stderr" = "contest report: f.jsonl: not a regular file: what it gives a second time is other lines; the notes on its runs that stand out are left out" ]
	# and with the stand-out runs' files listed the other way round
	CONTEST_REPORT_TEL_KB=0 run --separate-stderr contest report b.jsonl a.jsonl
	[ "$status" -eq 0 ]
	[ "$(grep -c 'stands out' <<<"$output")" -eq 9 ]
	grep -q 'workingset_refault_file 91000 against 48' <<<"$output"
}
