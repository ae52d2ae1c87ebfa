#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# contest compare: N labels side by side in mmtests' layout, significance
# marks checked against a hand computation, the threshold gate's exit
# status, Holm, every format, bad labels; and end to end.

load helpers

D="$TOP_SRCDIR/tests/data/report"

# The text of one label's column (0: the baseline) in the row
# "STAT WHAT" of a load's block: fixed width, 18 columns of row names,
# then W+1 per label (W: the widest label, 20 at least), a change of up
# to 999.99% keeping its column.
cmp_cell() {
	awk -v load="$1" -v stat="$2" -v what="$3" -v k="$4" '
		$1 == load && !inblk { inblk = 1; w = 20
			for (i = 2; i <= NF; i++) if (length($i) > w) w = length($i)
			next }
		inblk && $0 == "" { exit }
		inblk && $1 == stat && $2 == what {
			s = substr($0, 19 + k * (w + 1), w + 1)
			gsub(/^ +| +$/, "", s); print s; exit }' <<<"$5"
}

# jq: a run's probe p99 in us, by the histogram's documented rule and
# not by contest's code: the first bucket whose running count reaches
# 99% of the samples, its midpoint (floor + (width - 1) / 2, width 1
# below 2 x hist_sub ns, else 2^(e - log2 hist_sub) for a value in
# [2^e, 2^(e+1)), the floor a multiple of it: the hand-made fixtures'
# "floors" are values), within the run's exact min and max.
P99='def p99: . as $p | ($p.hist_ns | map(.[1]) | add) as $t |
	([foreach $p.hist_ns[] as $b (0; . + $b[1]; [., $b[0]])] |
	    map(select(.[0] >= 0.99 * $t)) | first | .[1]) as $f |
	($p.hist_sub | log2 | round) as $s |
	(if $f < 2 * $p.hist_sub then 1 else pow(2; ($f | log2 | floor) - $s) end) as $w |
	($f - $f % $w + ($w - 1) / 2) | [., $p.min_us * 1000] | max | [., $p.max_us * 1000] | min | . / 1000;'

# Per load, candidate and figure, whether Welch's t-test on the runs'
# values (Ratio: the t-test on the two ratios' delta-method standard
# errors with Welch-Satterthwaite df) gives p < alpha: "load fig label 0|1".
# The p-value is integrated by hand: with T = sqrt(df) tan(th), th has
# density proportional to cos(th)^(df-1) on (-pi/2, pi/2).
hand_marks() {
	jq -r "$P99"'[.label, .load_spec, .wall_s, (if (.headline // "") != "" then .counter_rates_per_s[.headline] else "-" end),
	    (.wait_pct // "-"), (.load_pct // "-"),
	    (if .probe then .probe.met / (.probe.deadlines // .probe.periods) * 100 else "-" end),
	    (if .probe then .probe | p99 else "-" end)] | @tsv' "$1" |
	awk -v base="$2" -v alpha="${3:-0.05}" -F'\t' '
	function simpson(a, b, df,   n, h, s, i) {
		n = 4000; h = (b - a) / n; s = 0
		for (i = 0; i <= n; i++)
			s += (i == 0 || i == n ? 1 : i % 2 ? 4 : 2) * cos(a + i * h) ^ (df - 1)
		return s * h / 3
	}
	function pval(t, df,   th) {
		th = atan2(t < 0 ? -t : t, sqrt(df))
		return simpson(th, 1.5707963267948966, df) / simpson(0, 1.5707963267948966, df)
	}
	function add(k, v) {
		if (v == "-") return
		n[k]++; s[k] += v; q[k] += v * v
	}
	function mean(k) { return s[k] / n[k] }
	function var(k) { return (q[k] - s[k] * s[k] / n[k]) / (n[k] - 1) }
	function welch(a, b,   va, vb) {
		va = var(a) / n[a]; vb = var(b) / n[b]
		return pval((mean(b) - mean(a)) / sqrt(va + vb),
		    (va + vb) ^ 2 / (va ^ 2 / (n[a] - 1) + vb ^ 2 / (n[b] - 1)))
	}
	# a label and load: its ratio over the no_load, se^2 and df
	function ratio(lab, load,   c, z, uc, uz) {
		c = lab SUBSEP load SUBSEP "time"; z = lab SUBSEP "no_load" SUBSEP "time"
		uc = var(c) / (n[c] * mean(c) ^ 2); uz = var(z) / (n[z] * mean(z) ^ 2)
		R = mean(c) / mean(z); V = R * R * (uc + uz)
		DF = (uc + uz) ^ 2 / (uc ^ 2 / (n[c] - 1) + uz ^ 2 / (n[z] - 1))
	}
	{
		lab[$1] = 1; load[$2] = 1
		add($1 SUBSEP $2 SUBSEP "time", $3); add($1 SUBSEP $2 SUBSEP "rate", $4)
		add($1 SUBSEP $2 SUBSEP "wait", $5); add($1 SUBSEP $2 SUBSEP "loadp", $6)
		add($1 SUBSEP $2 SUBSEP "met", $7); add($1 SUBSEP $2 SUBSEP "lat", $8)
	}
	END {
		split("time rate wait loadp met lat", figs, " ")
		for (c in lab) for (l in load) {
			if (c == base || !((base SUBSEP l SUBSEP "time") in n) ||
			    !((c SUBSEP l SUBSEP "time") in n)) continue
			for (i = 1; i <= 6; i++) {
				a = base SUBSEP l SUBSEP figs[i]; b = c SUBSEP l SUBSEP figs[i]
				if (!(a in n) || !(b in n)) continue
				print l, figs[i], c, welch(a, b) < alpha
			}
			if (l == "no_load") continue
			ratio(base, l); ra = R; va = V; da = DF
			ratio(c, l)
			p = pval((R - ra) / sqrt(va + V), (va + V) ^ 2 / (va ^ 2 / da + V ^ 2 / DF))
			print l, "ratio", c, p < alpha
		}
	}' | sort
}

# The hand's marks against compare's text: every figure it tested.
check_marks() {
	local out=$1 load fig lab sig row what cell col n=0
	declare -A stat=([time]=Amean [rate]=Amean [wait]=Amean [loadp]=Amean [met]=Amean [ratio]=Amean [lat]=Amean)
	declare -A name=([time]=Time [rate]=Loads [wait]=Wait% [loadp]=Load% [met]=Met% [ratio]=Ratio [lat]=Lat)
	while read -r load fig lab sig; do
		col=${COL[$lab]}
		cell=$(cmp_cell "$load" "${stat[$fig]}" "${name[$fig]}" "$col" "$out")
		[ -n "$cell" ]
		if [ "$sig" -eq 1 ]; then
			[[ "$cell" == *"*"* ]] || { echo "$load $fig $lab: hand says significant: $cell"; return 1; }
		else
			[[ "$cell" != *"*"* ]] || { echo "$load $fig $lab: hand says not: $cell"; return 1; }
		fi
		n=$((n + 1))
	done
	echo "$n marks checked" >&2
	[ "$n" -ge 20 ]
}

@test "compare: three labels in mmtests' layout; * on exactly what a hand computation finds significant; exit 1" {
	run --separate-stderr contest compare -f "$D/three.jsonl" 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	[ -z "$stderr" ]
	# the header names the labels over their columns; rows as compare-kernels'
	[[ "$(grep '^fork_load ' <<<"$output")" =~ ^fork_load\ +6\.17\ +6\.18\ +6\.19$ ]]
	for row in "Min       Time" "Amean     Time" "Stddev    Time" "CoeffVar  Time" \
	    "Max       Time" "BAmean-50 Time" "Amean     Ratio" "Amean     Loads" \
	    "Amean     Wait%" "Amean     Lat p99" "Amean     Met%" "Amean     Load%"; do
		grep -q "^$row " <<<"$output"
	done
	[ "$(cmp_cell fork_load Amean Time 0 "$output")" = "12.00 (    0.00%)" ]
	[ "$(cmp_cell fork_load Amean Time 2 "$output")" = "13.40 *  +11.67%*" ]
	[ "$(cmp_cell fork_load Amean Time 1 "$output")" = "12.30 *   +2.50%*" ]
	# BAmean-50, as mmtests: the int(5/2) = 2 fastest of 13.4 13.6 13.2 13.5 13.3
	[ "$(cmp_cell fork_load BAmean-50 Time 2 "$output")" = "13.25 (  +11.81%)" ]
	# Lat p99: shown and tested as the mean of the runs' own p99
	want=$(jq -s "$P99"'[.[] | select(.label == "6.19" and .load == "fork_load") | .probe | p99] | add / length' "$D/three.jsonl")
	[[ "$(cmp_cell fork_load Amean Lat 2 "$output")" == "$(printf %.0f "$want") us "* ]]
	run -1 contest compare --format csv -f "$D/three.jsonl" 6.17 6.18 6.19
	got=$(awk -F, '$1 == "fork_load" && $3 == "lat_p99_us" && $4 == "6.19" { print $8 }' <<<"$output")
	awk -v a="$got" -v b="$want" 'BEGIN { exit !(a - b < 1e-3 && b - a < 1e-3) }'
	run -1 contest compare -f "$D/three.jsonl" 6.17 6.18 6.19
	grep -q "Lat p99: the mean of the runs' own p99s of the probe's wake-up lateness" <<<"$output"
	declare -A COL=([6.17]=0 [6.18]=1 [6.19]=2)
	hand_marks "$D/three.jsonl" 6.17 > "$BATS_TEST_TMPDIR/hand"
	check_marks "$output" < "$BATS_TEST_TMPDIR/hand"
	# loads of one label only are named, not dropped
	grep -qx 'cpu_load:n=1: successful runs only under 6.17, 6.18 (not compared where it is missing)' <<<"$output"
	grep -qx 'cpu_load:n=4: successful runs only under 6.19 (not compared where it is missing)' <<<"$output"
	[ "$(cmp_cell cpu_load:n=4 Amean Time 0 "$output")" = "-" ]
	# one verdict per candidate, each naming what regressed
	[ "$(tail -2 <<<"$output" | head -1)" = "6.18 against 6.17: 1 of 3 loads regressed beyond 5%: cpu_load:n=1 Time +11.5% (p=8.8e-05) Ratio +11.5% (p=1.2e-05)" ]
	[ "$(tail -1 <<<"$output")" = "6.19 against 6.17: 1 of 2 loads regressed beyond 5%: fork_load Time +11.7% (p=6.6e-07) Ratio +11.7% (p=1.9e-08)" ]
	# the candidate alone: 6.18 regressed, 6.19 without cpu_load:n=1 too
	run contest compare -f "$D/three.jsonl" 6.17 6.18
	[ "$status" -eq 1 ]
	run contest compare -f "$D/three.jsonl" -l no_load -l fork_load 6.17 6.18
	[ "$status" -eq 0 ]
}

@test "compare: Min, Amean, Stddev, CoeffVar, Max and BAmean-50 are mmtests' figures, by hand for 1 to 7 runs" {
	# label nN has N runs of no_load; times from a fixed scramble
	for n in 1 2 3 4 5 6 7; do
		for i in $(seq 1 "$n"); do
			t=$(awk -v n="$n" -v i="$i" 'BEGIN { printf "%.3f", 10 + ((i * 7919 + n * 104729) % 1000) / 1000 }')
			printf '{"label":"n%d","load":"no_load","status":"ok","wall_s":%s,"run":%d,"session":"s%d","host":"h","command":"c"}\n' \
			    "$n" "$t" "$i" "$n"
		done
	done > mm.jsonl
	run -0 contest compare --format csv -f mm.jsonl n1 n2 n3 n4 n5 n6 n7
	csv=$output
	# mmtests' Stat.pm by hand: Stddev over n-1 (none for one run),
	# CoeffVar 100 sd / mean (0 where there is no sd), BAmean-50 the mean
	# of the int(n x 50 / 100) fastest, at least one
	jq -r '[.label, .wall_s] | @tsv' mm.jsonl | sort -k1,1 -k2,2g | awk '
	    { v[$1, ++n[$1]] = $2 }
	    END {
		for (k = 1; k <= 7; k++) {
			l = "n" k; m = n[l]; s = 0
			for (i = 1; i <= m; i++) s += v[l, i]
			mean = s / m; ss = 0
			for (i = 1; i <= m; i++) ss += (v[l, i] - mean) ^ 2
			sd = m > 1 ? sqrt(ss / (m - 1)) : ""
			cv = m > 1 ? sd * 100 / mean : 0
			h = int(m * 50 / 100); if (h < 1) h = 1
			b = 0; for (i = 1; i <= h; i++) b += v[l, i] / h
			printf "%s time_min %.6f\n%s time_amean %.6f\n", l, v[l, 1], l, mean
			if (sd != "") printf "%s time_stddev %.6f\n", l, sd
			printf "%s time_coeffvar %.6f\n%s time_max %.6f\n%s time_bamean50 %.6f\n", l, cv, l, v[l, m], l, b
		}
	    }' > hand
	[ "$(wc -l < hand)" -eq 41 ]
	while read -r l fig want; do
		got=$(awk -F, -v l="$l" -v f="$fig" '$3 == f && $4 == l { print $8 }' <<<"$csv")
		awk -v a="$got" -v b="$want" 'BEGIN { exit !(a != "" && a - b < 1e-5 && b - a < 1e-5) }' ||
		    { echo "# $l $fig: contest $got, by hand $want" >&3; false; }
	done < hand
	# one run has no Stddev
	[ "$(awk -F, '$3 == "time_stddev" && $4 == "n1" { print $8 }' <<<"$csv")" = "" ]
}

@test "compare: a real 6% change that three noisy runs cannot show: no regression, and the smallest change it could have found, by hand" {
	printf '{"label":"%s","load":"no_load","status":"ok","wall_s":%s,"run":%d,"session":"%s","host":"h","command":"c"}\n' \
	    b 10.0 1 s1  b 10.5 2 s1  b 9.6 3 s1  c 10.6 1 s2  c 11.1 2 s2  c 10.2 3 s2 > six.jsonl
	run -0 --separate-stderr contest compare --format csv -f six.jsonl b c
	got=$(awk -F, '$3 == "time_amean" && $4 == "c" { print $10, $15 }' <<<"$output")
	read -r p mde <<<"$got"
	# not significant: the gate passes
	awk -v p="$p" 'BEGIN { exit !(p > 0.05) }'
	# by hand: (t(0.975, df) + t(0.8, df)) x Welch's se, over b's mean,
	# the t quantiles found by bisection on Simpson's integral of the
	# t density (cos(th)^(df-1) with T = sqrt(df) tan(th))
	want=$(jq -r '[.label, .wall_s] | @tsv' six.jsonl | awk '
	    function simpson(a, b, df,   n, h, s, i) {
		n = 4000; h = (b - a) / n; s = 0
		for (i = 0; i <= n; i++)
			s += (i == 0 || i == n ? 1 : i % 2 ? 4 : 2) * cos(a + i * h) ^ (df - 1)
		return s * h / 3
	    }
	    function pval(t, df) {	# two-sided
		return simpson(atan2(t, sqrt(df)), 1.5707963267948966, df) / simpson(0, 1.5707963267948966, df)
	    }
	    function tinv(p, df,   lo, hi, mid, k) {
		lo = 0; hi = 100
		for (k = 0; k < 60; k++) { mid = (lo + hi) / 2; if (pval(mid, df) > p) lo = mid; else hi = mid }
		return (lo + hi) / 2
	    }
	    { n[$1]++; s[$1] += $2; q[$1] += $2 * $2 }
	    END {
		ma = s["b"] / n["b"]; mb = s["c"] / n["c"]
		va = (q["b"] - s["b"] ^ 2 / n["b"]) / (n["b"] - 1) / n["b"]
		vb = (q["c"] - s["c"] ^ 2 / n["c"]) / (n["c"] - 1) / n["c"]
		df = (va + vb) ^ 2 / (va ^ 2 / (n["b"] - 1) + vb ^ 2 / (n["c"] - 1))
		printf "%.4f\n", (tinv(0.05, df) + tinv(0.4, df)) * sqrt(va + vb) / ma * 100
	    }')
	awk -v a="$mde" -v b="$want" 'BEGIN { exit !(a - b < 0.01 && b - a < 0.01) }' ||
	    { echo "# mde: contest $mde, by hand $want" >&3; false; }
	# a 6% change it could not see: the verdict says what it could
	run -0 --separate-stderr contest compare -f six.jsonl b c
	[[ "$(grep '^MinDetect Time' <<<"$output")" =~ \ $(printf %.2f "$mde")%$ ]]
	[ "$(tail -1 <<<"$output")" = "c against b: no significant regression beyond 5% in 1 load; none larger than $(printf %.1f "$mde")% could have been missed (80% power; no_load Time)" ]
	awk -v m="$mde" 'BEGIN { exit !(m > 6) }'
	run -0 contest compare --format json -f six.jsonl b c
	jq -e --argjson m "$mde" '.candidates[0].blind_pct - $m | fabs < 1e-3' <<<"$output"
}

@test "compare --alpha and --holm: the marks follow the level and the correction, and the legend says which" {
	run contest compare -f "$D/three.jsonl" --alpha 0.001 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	declare -A COL=([6.17]=0 [6.18]=1 [6.19]=2)
	hand_marks "$D/three.jsonl" 6.17 0.001 > "$BATS_TEST_TMPDIR/hand"
	check_marks "$output" < "$BATS_TEST_TMPDIR/hand"
	# at 0.001 the 6.18 cpu_load:n=1 Time (p 8.8e-05) stays, Wait% of 6.19 in no_load too
	grep -q "alpha 0.001" <<<"$output"
	grep -q "no correction for the table's 25 tests (--holm applies Holm-Bonferroni)" <<<"$output"
	run contest compare -f "$D/three.jsonl" --holm --stats 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	grep -q "Holm-Bonferroni applied over the table's 25 tests" <<<"$output"
	grep -q '^  p(Holm) Time ' <<<"$output"
	# Holm: the smallest p times 25, then never below the one before
	run -1 contest compare -f "$D/three.jsonl" --holm --format csv 6.17 6.18 6.19
	awk -F, 'NR > 1 && $10 != "" { print $10, $11 }' <<<"$output" | sort -g | awk '
	    { k = NR - 1; adj = $1 * (25 - k); if (adj > 1) adj = 1; if (adj < prev) adj = prev
	      prev = adj; if ($2 < adj * 0.9999 || $2 > adj * 1.0001 + 1e-12) bad++; n++ }
	    END { exit !(n == 25 && bad == 0) }'
	# 6.18's fork_load Time, +2.5% at p about 0.02: significant alone,
	# not among 25 tests
	awk -F, '$1 == "fork_load" && $3 == "time_amean" && $4 == "6.18" { ok = $10 > 0.005 && $10 < 0.05 && $11 > 0.05 && $12 == 0 } END { exit !ok }' <<<"$output"
	run -1 contest compare -f "$D/three.jsonl" --format csv 6.17 6.18 6.19
	awk -F, '$1 == "fork_load" && $3 == "time_amean" && $4 == "6.18" { ok = $12 == 1 && $14 == 0 } END { exit !ok }' <<<"$output"
}

@test "compare --gate: Wait%, Lat p99 and Loads can fail a candidate when asked" {
	# 6.19 in no_load only: Wait% rose from 2.0 to 6.0
	run contest compare -f "$D/three.jsonl" -l no_load 6.17 6.19
	[ "$status" -eq 0 ]
	run contest compare -f "$D/three.jsonl" -l no_load --gate wait 6.17 6.19
	[ "$status" -eq 1 ]
	[[ "$(tail -1 <<<"$output")" == "6.19 against 6.17: 1 of 1 load regressed beyond 5%: no_load Wait% +200.0% (p="* ]]
	run contest compare -f "$D/three.jsonl" -l fork_load --gate lat,load 6.17 6.19
	[ "$status" -eq 1 ]
	[[ "$(tail -1 <<<"$output")" =~ fork_load\ Loads\ -25\.0%\ .*Lat\ p99\ \+349\.1% ]]
	run contest compare -f "$D/three.jsonl" -l fork_load --gate lat,load --threshold 400 6.17 6.19
	[ "$status" -eq 0 ]
	run --separate-stderr contest compare -f "$D/three.jsonl" --gate time,speed 6.17 6.19
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest: --gate: 'time,speed' is not a list of time, ratio, wait, lat and load" ]
}

@test "compare --threshold: the gate opens above the change and closes below it" {
	run contest compare --threshold 20 -f "$D/compare.jsonl" base worse
	[ "$status" -eq 0 ]
	run contest compare --threshold 16.5 -f "$D/compare.jsonl" base worse
	[ "$status" -eq 1 ]
	run contest compare --threshold 16.7 -f "$D/compare.jsonl" base worse
	[ "$status" -eq 0 ]
	# options may follow the labels
	run contest compare base worse -f "$D/compare.jsonl" --threshold 20
	[ "$status" -eq 0 ]
	run contest compare -f "$D/compare.jsonl" base better
	[ "$status" -eq 0 ]
	[[ "$(cmp_cell fork_load Amean Time 1 "$output")" == *"-8.33%*" ]]
	[[ "$(tail -1 <<<"$output")" == "better against base: no significant regression beyond 5% in 3 loads; none larger than "*"% could have been missed (80% power; "*")" ]]
}

@test "compare: csv, json, md and junit carry the same table" {
	run --separate-stderr contest compare --format csv -f "$D/three.jsonl" 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	[ "$(csv_columns <<<"$output" | sort -u)" = 15 ]
	# the same marks as the text, figure by figure
	awk -F, '$3 == "time_amean" && $4 == "6.19" && $1 == "fork_load" { ok = $12 == 1 && $14 == 1 } END { exit !ok }' <<<"$output"
	awk -F, '$3 == "time_amean" && $4 == "6.18" && $1 == "fork_load" { ok = $12 == 1 && $14 == 0 } END { exit !ok }' <<<"$output"
	[ "$(awk -F, '$14 == 1' <<<"$output" | wc -l)" -eq 4 ]
	run --separate-stderr contest compare --format json -f "$D/three.jsonl" 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	jq -e '.labels == ["6.17","6.18","6.19"] and .baseline == "6.17" and .regressed == 2' <<<"$output"
	jq -e '.gate == ["time","ratio"] and .tests == 25 and (.holm | not)' <<<"$output"
	jq -e '[.loads[] | select(.load == "cpu_load:n=4")][0].ran_under == ["6.19"]' <<<"$output"
	jq -e '[.loads[] | select(.load == "fork_load")][0].figures[] | select(.figure == "lat_p99_us") | .values[2] | .value > 890 and .pooled > 920' <<<"$output"
	if command -v python3 >/dev/null; then python3 -m json.tool <<<"$output" >/dev/null; fi
	run --separate-stderr contest compare --format md -f "$D/three.jsonl" 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	[ "$(grep '^|' <<<"$output" | awk -F'|' '{ print NF }' | sort -u)" = 6 ]
	grep -qF '| Amean Time | 12.00 (0.00%) | 12.30 \*+2.50%\* | 13.40 \*+11.67%\* |' <<<"$output"
	run --separate-stderr contest compare --format junit -f "$D/three.jsonl" 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	if command -v xmllint >/dev/null; then xmllint --noout - <<<"$output"; fi
	# per candidate, load and gated figure: 6.18 no_load Time, fork_load
	# Time Ratio, cpu_load:n=1 Time Ratio; 6.19 no_load Time, fork_load Time Ratio
	[ "$(grep -c '<testcase ' <<<"$output")" -eq 8 ]
	grep -q 'tests="8" failures="4"' <<<"$output"
	grep -q 'classname="contest.6.19" name="fork_load Ratio"' <<<"$output"
	grep -q 'failure type="regression" message="Time +11.7% (p=6.6e-07) beyond 5%"' <<<"$output"
}

@test "compare: unknown, repeated, ambiguous labels and a missing candidate are bad input" {
	run --separate-stderr contest compare -f "$D/compare.jsonl" base nosuch
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest: no results for label 'nosuch'" ]
	run --separate-stderr contest compare -f "$D/compare.jsonl" base base
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest: compare: label 'base' is given twice" ]
	run --separate-stderr contest compare -f "$D/hosts.jsonl" same two
	[ "$status" -eq 2 ]
	grep -q "label 'same' was measured on more than one host" <<<"$stderr"
	run --separate-stderr contest compare -f "$D/compare.jsonl" base
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" -eq 1 ]
	run --separate-stderr contest compare --alpha 0.9 -f "$D/compare.jsonl" base worse
	[ "$status" -eq 2 ]
	# a results file is no longer a label's place: -f names it
	run --separate-stderr contest compare base worse "$D/compare.jsonl"
	[ "$status" -eq 2 ]
	# a row named as the report names it works
	run contest compare -f "$D/hosts.jsonl" same@alpha same@beta
	[ "$status" -eq 1 ]
	[[ "$(cmp_cell no_load Amean Time 1 "$output")" == *"+19.61%*" ]]
}

@test "compare end to end: two labelled runs of a tiny job, then report, chart and gate" {
	run contest -k first --warmup 0 -n 2 --lead 0.1 -l sleepers:n=5 -- sleep 0.05
	[ "$status" -eq 0 ]
	run contest -k second --warmup 0 -n 2 --lead 0.1 -l sleepers:n=5 -- sleep 0.05
	[ "$status" -eq 0 ]
	run contest report --svg "$BATS_TEST_TMPDIR/c.svg"
	[ "$status" -eq 0 ]
	# each row: two runs of a sleep 0.05 (and contest's start of it)
	for k in first second; do
		row=$(block_row sleepers:n=5 "$k" "$output")
		awk -v k="$k" '$1 == k && $2 == 2 { t = $3; sub(/±.*/, "", t); ok = t >= 0.05 && t < 1 } END { exit !ok }' <<<"$row"
	done
	[ "$(grep -c 'class="bar"' "$BATS_TEST_TMPDIR/c.svg")" -eq 2 ]
	# a 10x slowdown of sleep is not what noise does: the gate must pass
	run contest compare --threshold 900 first second
	[ "$status" -eq 0 ]
	[[ "$(tail -1 <<<"$output")" == "second against first: no significant regression beyond 900% in 2 loads; none larger than "* ]]
}
