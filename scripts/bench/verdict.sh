# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by scripts/bench/*: a goal decided from the rounds' own ratios,
# with the confidence interval that says whether it can be.  A bench that
# adds rounds until decided looks again after every round, and a 95%
# interval at every look would say "met" of a ratio exactly at its goal
# far more often than 2.5% of the time: LOOKS (the looks its loop can
# make, from its first to its most rounds) spends the error over them,
# each look at 0.05 / LOOKS (Bonferroni), so the loop's holds whatever
# look it stops at.  tests/0870-bench.bats simulates a ratio at its goal.
# shellcheck shell=sh

LOOKS=${LOOKS:-1}

# The awk functions, shared with the tests' simulation of the loop:
# tq(p, df), the two-sided t quantile (bisection on the t density
# integrated by Simpson's rule, cos(th)^(df-1) with T = sqrt(df) tan(th),
# cached); ci(v, n, alpha), the mean of v[1..n] and its two-sided 1 - alpha
# interval into M, LO, HI; verdict(sense, goal, floor, n), from them.
VERDICT_AWK='
function simpson(a, b, df,   k, h, s, i) {
	k = 400; h = (b - a) / k; s = 0
	for (i = 0; i <= k; i++)
		# (cos past pi/2 by a rounding is a hair below 0: no power of it)
		s += (i == 0 || i == k ? 1 : i % 2 ? 4 : 2) * (cos(a + i * h) > 0 ? cos(a + i * h) ^ (df - 1) : 0)
	return s * h / 3
}
function tq(p, df,   key, lo, hi, mid, i, whole) {
	key = p SUBSEP df
	if (key in TQ) return TQ[key]
	whole = simpson(0, 1.5707963267948966, df); lo = 0; hi = 1000
	for (i = 0; i < 50; i++) {
		mid = (lo + hi) / 2
		if (simpson(atan2(mid, sqrt(df)), 1.5707963267948966, df) / whole > p) lo = mid
		else hi = mid
	}
	return TQ[key] = (lo + hi) / 2
}
function ci(v, n, alpha,   i, s, ss, h) {
	s = 0; ss = 0
	for (i = 1; i <= n; i++) s += v[i]
	M = n ? s / n : 0
	for (i = 1; i <= n; i++) ss += (v[i] - M) ^ 2
	h = n < 2 ? 0 : tq(alpha, n - 1) * sqrt(ss / (n - 1)) / sqrt(n)
	LO = M - h; HI = M + h
}
function verdict(sense, goal, floor, n,   met, not) {
	if (sense == "ge") {
		met = floor == "" ? LO >= goal : M >= goal && LO > floor
		not = HI < goal
	} else {
		met = HI <= goal
		not = LO > goal
	}
	return n < 2 ? "can\047t tell at this noise" : met ? "met" : not ? "NOT met" : \
	    "can\047t tell at this noise"
}'

# ci ALPHA < ratios, one a line: "n mean lo hi", the mean and its
# two-sided 1 - ALPHA interval by Student's t over the rounds (lo = hi =
# mean for n 1)
ci() {
	awk -v alpha="$1" "$VERDICT_AWK"'
	{ v[NR] = $1 }
	END { ci(v, NR, alpha); printf "%d %.6f %.6f %.6f\n", NR, M, LO, HI }'
}

ci95() {
	ci 0.05
}

# decide SENSE GOAL [FLOOR] < ratios: "met", "NOT met" or "can't tell at
# this noise", from the interval at 1 - 0.05 / LOOKS.  ge: met when the
# interval lies at or above GOAL (with a FLOOR: when the mean reaches
# GOAL and the interval's lower end is above FLOOR), NOT met when it lies
# below GOAL; le: the mirror.  Otherwise the interval straddles the goal,
# and more rounds may decide it.
decide() {
	awk -v sense="$1" -v goal="$2" -v floor="${3:-}" -v looks="$LOOKS" "$VERDICT_AWK"'
	{ v[NR] = $1 }
	END { ci(v, NR, 0.05 / looks); print verdict(sense, goal, floor, NR) }'
}

# interval < ratios: "M (CI95 LO..HI, N rounds)", and with LOOKS over 1
# the interval the verdict is taken from; one round has none
interval() {
	awk -v looks="$LOOKS" "$VERDICT_AWK"'
	{ v[NR] = $1 }
	END {
		if (NR < 2) { printf "%.3f (1 round: no interval)", v[1]; exit }
		ci(v, NR, 0.05)
		printf "%.3f (CI95 %.3f..%.3f", M, LO, HI
		if (looks > 1) {
			ci(v, NR, 0.05 / looks)
			printf "; at 0.05/%d looks %.3f..%.3f", looks, LO, HI
		}
		printf ", %d rounds)", NR
	}'
}
