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
	declare -A name=([time]=Time [rate]=Loads [wait]=Wait% [loadp]=Load% [met]=Met%/run [ratio]=Ratio [lat]=p99/run)
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
	    "Amean     Wait%" "Amean     p99/run" "Amean     Met%/run" "Amean     Load%"; do
		grep -q "^$row " <<<"$output"
	done
	[ "$(cmp_cell fork_load Amean Time 0 "$output")" = "12.00 (    0.00%)" ]
	[ "$(cmp_cell fork_load Amean Time 2 "$output")" = "13.40 *  +11.67%*" ]
	[ "$(cmp_cell fork_load Amean Time 1 "$output")" = "12.30 *   +2.50%*" ]
	# BAmean-50, as mmtests: the int(5/2) = 2 fastest of 13.4 13.6 13.2 13.5 13.3
	[ "$(cmp_cell fork_load BAmean-50 Time 2 "$output")" = "13.25 (  +11.81%)" ]
	# p99/run: shown and tested as the mean of the runs' own p99, named
	# apart from the report's pooled Lat p99
	want=$(jq -s "$P99"'[.[] | select(.label == "6.19" and .load == "fork_load") | .probe | p99] | add / length' "$D/three.jsonl")
	[[ "$(cmp_cell fork_load Amean p99/run 2 "$output")" == "$(printf %.0f "$want") us "* ]]
	run -1 contest compare --format csv -f "$D/three.jsonl" 6.17 6.18 6.19
	got=$(awk -F, '$1 == "fork_load" && $3 == "p99_run_us" && $4 == "6.19" { print $8 }' <<<"$output")
	awk -v a="$got" -v b="$want" 'BEGIN { exit !(a - b < 1e-3 && b - a < 1e-3) }'
	run -1 contest compare -f "$D/three.jsonl" 6.17 6.18 6.19
	grep -q "p99/run: the mean of the runs' own p99s of the probe's wake-up lateness" <<<"$output"
	[[ "$(grep '^Amean' <<<"$output")" != *"Lat p99"* ]]
	declare -A COL=([6.17]=0 [6.18]=1 [6.19]=2)
	hand_marks "$D/three.jsonl" 6.17 > "$BATS_TEST_TMPDIR/hand"
	check_marks "$output" < "$BATS_TEST_TMPDIR/hand"
	# loads of one label only are named, not dropped
	grep -qx 'cpu_load:n=1: successful runs only under 6.17, 6.18 (not compared where it is missing)' <<<"$output"
	grep -qx 'cpu_load:n=4: successful runs only under 6.19 (not compared where it is missing)' <<<"$output"
	[ "$(cmp_cell cpu_load:n=4 Amean Time 0 "$output")" = "-" ]
	# one verdict per candidate, each naming what regressed, with the
	# change's interval, and what the other gated figures came to
	[ "$(tail -2 <<<"$output" | head -1)" = "6.18 against 6.17: regression (unpaired): 1 of 3 loads regressed beyond 5%: cpu_load:n=1 Time +11.5% (CI95 +8.5..+14.5%, p=8.8e-05), cpu_load:n=1 Ratio +11.5% (CI95 +8.2..+14.8%, p=1.2e-05); 3 of 5 gated figures within ±5% (CI95)" ]
	[ "$(tail -1 <<<"$output")" = "6.19 against 6.17: regression (unpaired): 1 of 2 loads regressed beyond 5%: fork_load Time +11.7% (CI95 +9.7..+13.6%, p=6.6e-07), fork_load Ratio +11.7% (CI95 +9.6..+13.8%, p=1.9e-08); undecided: cpu_load:n=1 (no measured run under 6.19: not run, or only its warmup); 1 of 4 gated figures within ±5% (CI95)" ]
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

# sim_power FILE BASE CAND PCT THR: the share of 20,000 simulated
# comparisons, each of n runs a side drawn from normals with the two
# labels' own means and sds (no_load Time), CAND's mean moved to BASE's
# times 1 + PCT/100, in which Welch's test at 0.05 finds CAND slower and
# its change is beyond THR%: the power contest claims, found by
# simulation (t quantiles by bisection on Simpson's integral of the t
# density, cos(th)^(df-1) with T = sqrt(df) tan(th), tabulated over df).
sim_power() {
	jq -r '[.label, .wall_s] | @tsv' "$1" | awk -v base="$2" -v cand="$3" -v pct="$4" -v thr="$5" '
	    function simpson(a, b, df,   n, h, s, i) {
		n = 1000; h = (b - a) / n; s = 0
		for (i = 0; i <= n; i++)
			s += (i == 0 || i == n ? 1 : i % 2 ? 4 : 2) * (cos(a + i * h) > 0 ? cos(a + i * h) ^ (df - 1) : 0)
		return s * h / 3
	    }
	    function pval(t, df) {	# two-sided
		return simpson(atan2(t, sqrt(df)), 1.5707963267948966, df) / simpson(0, 1.5707963267948966, df)
	    }
	    function tinv(p, df,   lo, hi, mid, k) {
		lo = 0; hi = 100
		for (k = 0; k < 40; k++) { mid = (lo + hi) / 2; if (pval(mid, df) > p) lo = mid; else hi = mid }
		return (lo + hi) / 2
	    }
	    function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
	    { n[$1]++; s[$1] += $2; q[$1] += $2 * $2 }
	    END {
		na = n[base]; nb = n[cand]; ma = s[base] / na
		sa = sqrt((q[base] - s[base] ^ 2 / na) / (na - 1))
		sb = sqrt((q[cand] - s[cand] ^ 2 / nb) / (nb - 1))
		lo = na < nb ? na - 1 : nb - 1; hi = na + nb - 2
		for (k = 0; k <= 40; k++) tq[k] = tinv(0.05, lo + (hi - lo) * k / 40)
		srand(7); hit = 0
		for (d = 0; d < 20000; d++) {
			x = 0; xx = 0; y = 0; yy = 0
			for (i = 0; i < na; i++) { v = ma + sa * gauss(); x += v; xx += v * v }
			for (i = 0; i < nb; i++) { v = ma * (1 + pct / 100) + sb * gauss(); y += v; yy += v * v }
			mx = x / na; my = y / nb
			vx = (xx - x * x / na) / (na - 1) / na; vy = (yy - y * y / nb) / (nb - 1) / nb
			df = (vx + vy) ^ 2 / (vx ^ 2 / (na - 1) + vy ^ 2 / (nb - 1))
			f = (df - lo) / (hi - lo) * 40; k = int(f); if (k >= 40) k = 39; if (k < 0) k = 0
			c = tq[k] + (tq[k + 1] - tq[k]) * (f - k)
			hit += (my - mx) / sqrt(vx + vy) > c && (my / mx - 1) * 100 > thr
		}
		printf "%.4f\n", hit / 20000
	    }'
}

@test "compare: a real 6% change that three noisy runs cannot show: can't tell, and what it could have found, by simulation" {
	printf '{"label":"%s","load":"no_load","status":"ok","wall_s":%s,"run":%d,"session":"%s","host":"h","command":"c"}\n' \
	    b 10.0 1 s1  b 10.5 2 s1  b 9.6 3 s1  c 10.6 1 s2  c 11.1 2 s2  c 10.2 3 s2 > six.jsonl
	run -0 --separate-stderr contest compare --format csv -f six.jsonl b c
	IFS=, read -r p mde gate verdict lo hi <<<"$(awk -F, '$3 == "time_amean" && $4 == "c" { print $10 "," $15 "," $21 "," $22 "," $19 "," $20 }' <<<"$output")"
	# not significant: no regression, and its interval straddles 5%
	awk -v p="$p" 'BEGIN { exit !(p > 0.05) }'
	[ "$verdict" = "can't tell" ]
	awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo < 0 && hi > 5) }'
	# MinDetect: the change Welch's test finds 80% of the time, by
	# simulation from the runs' own means and spreads
	got=$(sim_power six.jsonl b c "$mde" 0)
	awk -v g="$got" 'BEGIN { exit !(g > 0.785 && g < 0.815) }' ||
	    { echo "# MinDetect $mde%: simulated power $got" >&3; false; }
	# the gate's: that change found and beyond the 5% threshold
	got=$(sim_power six.jsonl b c "$gate" 5)
	awk -v g="$got" 'BEGIN { exit !(g > 0.785 && g < 0.815) }' ||
	    { echo "# the gate's $gate%: simulated power $got" >&3; false; }
	# the threshold counts: a gate whose threshold is MinDetect itself
	# catches that change about half the time, not 80%
	got=$(sim_power six.jsonl b c "$mde" "$mde")
	awk -v g="$got" 'BEGIN { exit !(g > 0.4 && g < 0.6) }'
	# a 6% change it could not see: the verdict says what it could
	run -0 --separate-stderr contest compare -f six.jsonl b c
	[[ "$(grep '^MinDetect Time' <<<"$output")" =~ \ $(printf %.2f "$mde")%$ ]]
	[ "$(tail -1 <<<"$output")" = "c against b: can't tell (unpaired): undecided: no_load Time +6.0% (CI95 $(printf %+.1f "$lo")..$(printf %+.1f "$hi")%); a regression of $(printf %.1f "$gate")% would be caught with 80% power (no_load Time)" ]
	awk -v m="$mde" -v g="$gate" 'BEGIN { exit !(m > 6 && g > m) }'
	run -0 contest compare --format json -f six.jsonl b c
	jq -e --argjson g "$gate" '.candidates[0] | .verdict == "can'"'"'t tell" and (.gate_detect_pct - $g | fabs < 1e-3)' <<<"$output"
	# --strict: a gate that can't tell is not a pass
	run -3 contest compare --strict -f six.jsonl b c
}

@test "compare --alpha and --holm: the marks follow the level and the correction, and the legend says which" {
	run contest compare -f "$D/three.jsonl" --alpha 0.001 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	declare -A COL=([6.17]=0 [6.18]=1 [6.19]=2)
	hand_marks "$D/three.jsonl" 6.17 0.001 > "$BATS_TEST_TMPDIR/hand"
	check_marks "$output" < "$BATS_TEST_TMPDIR/hand"
	# at 0.001 the 6.18 cpu_load:n=1 Time (p 8.8e-05) stays, Wait% of 6.19 in no_load too
	grep -q "alpha 0.001" <<<"$output"
	grep -q "no correction for the table's 8 gated tests (of 31; --holm applies Holm-Bonferroni to them)" <<<"$output"
	run contest compare -f "$D/three.jsonl" --holm --stats 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	# the family is the gate's: Time and Ratio, 8 of the 31 tests
	grep -q "Holm-Bonferroni over the table's 8 gated tests (its other 23 uncorrected)" <<<"$output"
	grep -q '^  p(Holm) Time ' <<<"$output"
	grep -q '^  p       Wait% ' <<<"$output"
	grep -q "at alpha 0.00625 (Holm's strictest step)" <<<"$output"
	# Holm: the smallest gated p times 8, then never below the one before;
	# an ungated test is not corrected
	run -1 contest compare -f "$D/three.jsonl" --holm --format csv 6.17 6.18 6.19
	awk -F, 'NR > 1 && $10 != "" && $13 == 1 { print $10, $11 }' <<<"$output" | sort -g | awk '
	    { k = NR - 1; adj = $1 * (8 - k); if (adj > 1) adj = 1; if (adj < prev) adj = prev
	      prev = adj; if ($2 < adj * 0.9999 || $2 > adj * 1.0001 + 1e-12) bad++; n++ }
	    END { exit !(n == 8 && bad == 0) }'
	[ "$(awk -F, 'NR > 1 && $10 != "" && $13 == 0 && $11 != ""' <<<"$output" | wc -l)" -eq 0 ]
	# 6.18's fork_load Time, +2.5% at p about 0.02: significant alone,
	# not among 8 tests
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
	[[ "$(tail -1 <<<"$output")" == "6.19 against 6.17: regression (unpaired): 1 of 1 load regressed beyond 5%: no_load Wait% +200.0% (CI95 "*", p="* ]]
	run contest compare -f "$D/three.jsonl" -l fork_load --gate lat,load 6.17 6.19
	[ "$status" -eq 1 ]
	[[ "$(tail -1 <<<"$output")" =~ fork_load\ Loads\ -25\.0%\ .*fork_load\ p99/run\ \+349\.1% ]]
	run contest compare -f "$D/three.jsonl" -l fork_load --gate lat,load --threshold 400 6.17 6.19
	[ "$status" -eq 0 ]
	# a name that could be a job metric is looked for in the results
	run --separate-stderr contest compare -f "$D/three.jsonl" --gate time,speed 6.17 6.19
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest compare: --gate: 'speed' is neither one of contest's figures nor a job metric of these results" ]
	run --separate-stderr contest compare -f "$D/three.jsonl" --gate time,Speed 6.17 6.19
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest compare: --gate: 'time,Speed' is not a list of time,ratio,load,wait,lat,lat-p999,lat-max or job metrics' names" ]
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
	# faster, and sleepers' noise leaves its figures undecided: can't tell,
	# with what the gate would have caught
	[[ "$(tail -1 <<<"$output")" == "better against base: can't tell (unpaired): undecided: sleepers:n=100 Time +0.0% (CI95 "*"); improved beyond 5%: fork_load Time -8.3% (CI95 -9.5..-7.2%, p=2.4e-06), fork_load Ratio -8.3% "*"; a regression of "*"% would be caught with 80% power (sleepers:n=100 Time)" ]]
	run -3 contest compare --strict -f "$D/compare.jsonl" base better
	run -0 contest compare --strict --threshold 40 -f "$D/compare.jsonl" base better
	[[ "$(tail -1 <<<"$output")" == "better against base: no change (unpaired): 5 of 5 gated figures within ±40% (CI95); a regression of "* ]]
}

@test "compare: csv, json, md and junit carry the same table" {
	run --separate-stderr contest compare --format csv -f "$D/three.jsonl" 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	[ "$(csv_columns <<<"$output" | sort -u)" = 22 ]
	# the same marks as the text, figure by figure
	awk -F, '$3 == "time_amean" && $4 == "6.19" && $1 == "fork_load" { ok = $12 == 1 && $14 == 1 } END { exit !ok }' <<<"$output"
	awk -F, '$3 == "time_amean" && $4 == "6.18" && $1 == "fork_load" { ok = $12 == 1 && $14 == 0 } END { exit !ok }' <<<"$output"
	[ "$(awk -F, '$14 == 1' <<<"$output" | wc -l)" -eq 4 ]
	run --separate-stderr contest compare --format json -f "$D/three.jsonl" 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	jq -e '.labels == ["6.17","6.18","6.19"] and .baseline == "6.17" and .regressed == 2' <<<"$output"
	jq -e '.gate == ["time","ratio"] and .tests == 31 and .family == 8 and (.holm | not)' <<<"$output"
	jq -e '[.candidates[] | .verdict] == ["regression", "regression"]' <<<"$output"
	jq -e '.candidates[1].figures == {"regression": 2, "can'"'"'t tell": 1, "improvement": 0, "no change": 1}' <<<"$output"
	jq -e '[.loads[] | select(.load == "cpu_load:n=4")][0].ran_under == ["6.19"]' <<<"$output"
	jq -e '[.loads[] | select(.load == "fork_load")][0].figures[] | select(.figure == "p99_run_us") | .values[2] | .value > 890 and .pooled > 920' <<<"$output"
	echo "$output" >three.json
	run --separate-stderr contest compare --format md -f "$D/three.jsonl" 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	[ "$(grep '^|' <<<"$output" | awk -F'|' '{ print NF }' | sort -u)" = 6 ]
	grep -qF '| Amean Time | 12.00 (0.00%) | 12.30 \*+2.50%\* | 13.40 \*+11.67%\* |' <<<"$output"
	run --separate-stderr contest compare --format junit -f "$D/three.jsonl" 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	echo "$output" >three.xml
	# per candidate, load and gated figure: 6.18 no_load Time, fork_load
	# Time Ratio, cpu_load:n=1 Time Ratio; 6.19 no_load Time, fork_load Time
	# Ratio, and the cpu_load:n=1 it never ran (a failed case)
	[ "$(grep -c '<testcase ' <<<"$output")" -eq 9 ]
	grep -q 'tests="9" failures="5" errors="0" skipped="0"' <<<"$output"
	grep -A1 'classname="contest.6.19" name="cpu_load:n=1 runs"' <<<"$output" | grep -qF '<failure type="not run" '
	grep -q 'classname="contest.6.19" name="fork_load Ratio"' <<<"$output"
	grep -q 'failure type="regression" message="Time +11.7% (CI +9.7..+13.6%, p=6.6e-07) beyond 5%"' <<<"$output"
	# can't tell is a skipped case, with its reason
	run -0 contest compare --format junit -f "$D/compare.jsonl" base better
	grep -q 'skipped="2"' <<<"$output"
	grep -q '<skipped message="can'"'"'t tell: +0.0%, its interval -23.6..+23.6% neither beyond nor within 5%"/>' <<<"$output"
	# and unknown to LAVA, with each candidate's verdict last
	run -0 contest compare --format lava -f "$D/compare.jsonl" base better
	grep -qx 'better-sleepers_n_100-ratio-change unknown 0.00 percent' <<<"$output"
	grep -qx 'better-fork_load-time_amean-change pass -8.33 percent' <<<"$output"
	[ "$(tail -1 <<<"$output")" = "better-verdict unknown" ]
	run -1 contest compare --format lava -f "$D/three.jsonl" 6.17 6.19
	grep -qx '6.19-fork_load-ratio-change fail 11.67 percent' <<<"$output"
	[ "$(tail -1 <<<"$output")" = "6.19-verdict fail" ]
	need python3 python3
	python3 -m json.tool three.json >/dev/null
	need xmllint libxml2-utils
	xmllint --noout three.xml
}

@test "compare: unknown, repeated, ambiguous labels and a missing candidate are bad input" {
	run --separate-stderr contest compare -f "$D/compare.jsonl" base nosuch
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest compare: no results for label 'nosuch' (labels: base, worse, better)" ]
	run --separate-stderr contest compare -f "$D/compare.jsonl" base base
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest compare: label 'base' is given twice" ]
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
	# two sessions of one boot, a session each: what a session's drift
	# does the runs cannot tell, so never exit 1 and never no change, and
	# the line says how to tell
	run contest compare --threshold 900 first second
	[ "$status" -eq 0 ]
	[[ "$(tail -1 <<<"$output")" == "second against first: can't tell (unpaired; two sessions of one boot: a session-to-session difference reads the same): "*"; to tell, run both in one session's rounds (--variant), or one label over two sessions" ]]
	run -3 contest compare --strict first second
}

@test "compare --gate lat-max and lat-p999: the runs' own worst wake-up and p99.9 can fail a candidate, each a row" {
	jq -c 'if .label == "6.18" and .probe != null then .probe.max_us = (.probe.max_us * 3) else . end' \
	    "$D/three.jsonl" >worst.jsonl
	run -1 contest compare -f worst.jsonl --gate lat-max 6.17 6.18
	[ "${lines[${#lines[@]} - 1]}" = "6.18 against 6.17: regression (unpaired): 2 of 3 loads regressed beyond 5%: fork_load max/run +200.0% (CI95 +185.5..+214.5%, p=4.3e-07), cpu_load:n=1 max/run +200.0% (CI95 +185.5..+214.5%, p=4.3e-07)" ]
	[ "$(grep -c '^Amean     max/run ' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^Amean     p999/run ' <<<"$output")" -eq 2 ]
	# the mean of the runs' own maxima, as the lines say them
	want=$(jq -s '[.[] | select(.label == "6.18" and .load == "fork_load") | .probe.max_us] | add / length' worst.jsonl)
	run -1 --separate-stderr contest compare -f worst.jsonl --gate lat-max --format json 6.17 6.18
	got=$(jq '.loads[] | select(.load == "fork_load") | .figures[] | select(.figure == "max_run_us") | .values[1].value' <<<"$output")
	awk -v a="$want" -v b="$got" 'BEGIN { exit !(a - b < 0.01 && b - a < 0.01) }'
	run -0 contest compare -f worst.jsonl --gate lat-p999 6.17 6.18
	[[ "${lines[${#lines[@]} - 1]}" == "6.18 against 6.17: can't tell (unpaired): undecided: fork_load p999/run +0.3% "* ]]
}
