#!/usr/bin/env bats
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

# Per load, candidate and figure, whether Welch's t-test on the runs'
# values (Ratio: the t-test on the two ratios' delta-method standard
# errors with Welch-Satterthwaite df) gives p < alpha: "load fig label 0|1".
# The p-value is integrated by hand: with T = sqrt(df) tan(th), th has
# density proportional to cos(th)^(df-1) on (-pi/2, pi/2).
hand_marks() {
	jq -r '[.label, .load_spec, .wall_s, (if (.headline // "") != "" then .counter_rates_per_s[.headline] else "-" end),
	    (.wait_pct // "-"), (.load_pct // "-"),
	    (if .probe then .probe.met / .probe.periods * 100 else "-" end)] | @tsv' "$1" |
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
		add($1 SUBSEP $2 SUBSEP "met", $7)
	}
	END {
		split("time rate wait loadp met", figs, " ")
		for (c in lab) for (l in load) {
			if (c == base || !((base SUBSEP l SUBSEP "time") in n) ||
			    !((c SUBSEP l SUBSEP "time") in n)) continue
			for (i = 1; i <= 5; i++) {
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
	declare -A stat=([time]=Amean [rate]=Amean [wait]=Amean [loadp]=Amean [met]=Amean [ratio]=Amean)
	declare -A name=([time]=Time [rate]=Loads [wait]=Wait% [loadp]=Load% [met]=Met% [ratio]=Ratio)
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
	    "Amean     Wait%" "p99       Lat" "Amean     Met%" "Amean     Load%"; do
		grep -q "^$row " <<<"$output"
	done
	[ "$(cmp_cell fork_load Amean Time 0 "$output")" = "12.00 (    0.00%)" ]
	[ "$(cmp_cell fork_load Amean Time 2 "$output")" = "13.40 *  +11.67%*" ]
	[ "$(cmp_cell fork_load Amean Time 1 "$output")" = "12.30 *   +2.50%*" ]
	# BAmean-50: the faster half, rounded up, of 13.4 13.6 13.2 13.5 13.3
	[ "$(cmp_cell fork_load BAmean-50 Time 2 "$output")" = "13.30 (  +11.76%)" ]
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
	[[ "$(tail -1 <<<"$output")" =~ fork_load\ Loads\ -25\.0%\ .*Lat\ p99\ \+347\.5% ]]
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
	[ "$(tail -1 <<<"$output")" = "better against base: no significant regression beyond 5% in 3 loads" ]
}

@test "compare: csv, json, md and junit carry the same table" {
	run --separate-stderr contest compare --format csv -f "$D/three.jsonl" 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	[ "$(csv_columns <<<"$output" | sort -u)" = 14 ]
	# the same marks as the text, figure by figure
	awk -F, '$3 == "time_amean" && $4 == "6.19" && $1 == "fork_load" { ok = $12 == 1 && $14 == 1 } END { exit !ok }' <<<"$output"
	awk -F, '$3 == "time_amean" && $4 == "6.18" && $1 == "fork_load" { ok = $12 == 1 && $14 == 0 } END { exit !ok }' <<<"$output"
	[ "$(awk -F, '$14 == 1' <<<"$output" | wc -l)" -eq 4 ]
	run --separate-stderr contest compare --format json -f "$D/three.jsonl" 6.17 6.18 6.19
	[ "$status" -eq 1 ]
	jq -e '.labels == ["6.17","6.18","6.19"] and .baseline == "6.17" and .regressed == 2' <<<"$output"
	jq -e '.gate == ["time","ratio"] and .tests == 25 and (.holm | not)' <<<"$output"
	jq -e '[.loads[] | select(.load == "cpu_load:n=4")][0].ran_under == ["6.19"]' <<<"$output"
	jq -e '[.loads[] | select(.load == "fork_load")][0].figures[] | select(.figure == "lat_p99_us") | .values[2].value > 900' <<<"$output"
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
	run contest -k first -n 2 --lead 0.1 -l sleepers:n=5 -- sleep 0.05
	[ "$status" -eq 0 ]
	run contest -k second -n 2 --lead 0.1 -l sleepers:n=5 -- sleep 0.05
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
	[[ "$(tail -1 <<<"$output")" == "second against first: no significant regression beyond 900% in 2 loads" ]]
}
