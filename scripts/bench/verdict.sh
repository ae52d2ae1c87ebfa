# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by scripts/bench/*: a goal decided from the rounds' own ratios,
# with the confidence interval that says whether it can be.
# shellcheck shell=sh

# ci95 < ratios, one a line: "n mean lo hi", the mean and its two-sided
# 95% interval by Student's t over the rounds (lo = hi = mean for n 1)
ci95() {
	awk 'BEGIN { split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 " \
	    "2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 " \
	    "2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ") }
	{ v[NR] = $1; s += $1 }
	END {
		n = NR; m = (n ? s / n : 0)
		for (i = 1; i <= n; i++) ss += (v[i] - m) ^ 2
		df = n - 1
		q = df < 1 ? 0 : df <= 30 ? t[df] : 1.96 + 2.4 / df
		h = df < 1 ? 0 : q * sqrt(ss / df) / sqrt(n)
		printf "%d %.6f %.6f %.6f\n", n, m, m - h, m + h
	}'
}

# decide SENSE GOAL [FLOOR] < ratios: "met", "NOT met" or "can't tell at
# this noise".  ge: met when the interval lies at or above GOAL (with a
# FLOOR: when the mean reaches GOAL and the interval's lower end is above
# FLOOR), NOT met when it lies below GOAL; le: the mirror.  Otherwise the
# interval straddles the goal, and more rounds may decide it.
decide() {
	ci95 | awk -v sense="$1" -v goal="$2" -v floor="${3:-}" '{
		n = $1; m = $2; lo = $3; hi = $4
		if (sense == "ge") {
			met = floor == "" ? lo >= goal : m >= goal && lo > floor
			not = hi < goal
		} else {
			met = hi <= goal
			not = lo > goal
		}
		print (n < 2 ? "can\x27t tell at this noise" : met ? "met" : not ? "NOT met" : \
		    "can\x27t tell at this noise")
	}'
}

# interval < ratios: "M (CI95 LO..HI, N rounds)"; one round has none
interval() {
	ci95 | awk '{ if ($1 < 2) printf "%.3f (1 round: no interval)", $2
		else printf "%.3f (CI95 %.3f..%.3f, %d rounds)", $2, $3, $4, $1 }'
}
