# SPDX-License-Identifier: GPL-2.0-or-later
# lint-bats.awk: checks in bats tests that can never fail.  Under bats a
# test fails on a command's failure (set -e) or on its last command's
# status, so, anywhere but at a test's end:
#   - `! cmd` never fails the test (set -e ignores a negated command);
#   - in `A && B`, a failing A never fails the test;
# and `run CMD` swallows CMD's status unless the test looks at $status
# (or asks with `run -N` / `run !`) before the next run; and a check
# inside an `if` with no `else` (`if command -v xmllint ...; then xmllint
# ...; fi`) passes in silence whenever the condition is false: the else
# checks that case, or the test skips saying why.  A bare `wait` is
# reported too: under BATS_TEST_TIMEOUT it waits for bats's own timer,
# and so is a teardown or teardown_file of a file's own that does not
# call left_behind or file_teardown.
# Prints FILE:LINE: why, one a finding.  Lines ending in `|| false` (or
# `|| return 1`, `|| exit 1`, `|| fail`, `|| skip ...`) are explicit and
# pass.

function report(i, why) {
	printf "%s:%d: %s\n", FILENAME, lineno[i], why
	found++
}

# The code of line s with quoted text and $(...) emptied; quoting state
# carries over from line to line in q ("" none, "'" or "\"").
function code_of(s,    out, i, c, n) {
	out = ""
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (q == "'") {
			if (c == "'")
				q = ""
			continue
		}
		if (c == "\\") {
			i++
			continue
		}
		if (q == "\"") {
			if (c == "\"")
				q = ""
			continue
		}
		if (c == "'" || c == "\"") {
			q = c
			out = out c c
			continue
		}
		if (c == "#" && (i == 1 || substr(s, i - 1, 1) ~ /[ \t]/))
			break	# a comment
		out = out c
	}
	while (out ~ /\$\([^()]*\)/)
		gsub(/\$\([^()]*\)/, "x", out)
	return out
}

# The ifs of a test's code: one with no else whose body checks something
# and never ends the test (skip, return, exit, false...) is reported.
# Each line is cut at ';' (quotes are emptied already).
function scan_ifs(    i, k, nseg, seg, w, d) {
	d = 0
	for (i = 1; i <= n; i++) {
		if (skip[i])
			continue
		nseg = split(code[i], seg, ";")
		for (k = 1; k <= nseg; k++) {
			w = seg[k]
			sub(/^[ \t]+/, "", w)
			sub(/[ \t]+$/, "", w)
			if (w ~ /^if[ \t]/) {
				d++
				ifline[d] = i
				ifelse[d] = ifcheck[d] = ifends[d] = 0
				ifcond[d] = 1
				continue
			}
			if (d == 0)
				continue
			if (w ~ /^(then|do|else)([ \t]|$)/) {
				if (w ~ /^else/)
					ifelse[d] = 1
				if (w ~ /^then/)
					ifcond[d] = 0
				sub(/^(then|do|else)[ \t]*/, "", w)
			}
			if (ifcond[d])
				continue	# the condition, over lines ending in || or &&
			if (w == "fi" || w ~ /^fi[ \t|&>]/) {
				if (!ifelse[d] && ifcheck[d] && !ifends[d])
					report(ifline[d], "a check inside an 'if' with no 'else' passes in silence when the condition is false: check that case in an else, or skip saying why")
				d--
				continue
			}
			# (or counts a failure that the test checks at its end)
			if (w ~ /(^|[ \t|&])(skip|return|exit|false|fail|continue|break)([ \t]|$)/ ||
			    w ~ /^bad=/)
				ifends[d] = 1
			# a command whose status fails the test: anything but an
			# assignment, a note (echo, printf) or a no-op
			if (w != "" && w !~ /^[A-Za-z_][A-Za-z_0-9]*=/ && w !~ /^(echo|printf|:|local|export|cd)([ \t]|$)/)
				ifcheck[d] = 1
		}
	}
}

function analyze(    i, last, c, j, checked, heredoc) {
	scan_ifs()
	last = 0
	for (i = 1; i <= n; i++)
		if (code[i] !~ /^[ \t]*$/)
			last = i
	for (i = 1; i <= n; i++) {
		c = code[i]
		sub(/^[ \t]+/, "", c)
		if (c == "" || skip[i])
			continue
		explicit = c ~ /\|\|[ \t]*(false|return 1|exit 1|fail)[ \t;]*$/ ||
		    c ~ /\|\|[ \t]*skip([ \t]|$)/ ||
		    c ~ /\|\|[ \t]*\{.*(false|return 1|exit 1)[ \t;]*\}[ \t;]*$/
		if (i != last && c ~ /^![ \t]/ && !explicit)
			report(i, "'! cmd' before a test's end never fails it: use 'run !' or '|| false'")
		if (i != last && c ~ /&&/ && c !~ /^(if|elif|while|until)[ \t]/ &&
		    c !~ /^(for|case)[ \t]/ && !explicit)
			report(i, "the left side of '&&' before a test's end never fails it: one check a line, or '|| false'")
		if (c ~ /^wait[ \t]*(;|\|\||&&|$)/)
			report(i, "a bare 'wait' waits for bats's timeout (BATS_TEST_TIMEOUT) too: wait for the pids the test started")
		if (c ~ /^run([ \t]|$)/ && c !~ /^run[ \t]+(-[0-9]+|!)([ \t]|$)/) {
			checked = 0
			for (j = i + 1; j <= n; j++) {
				if (code[j] ~ /^[ \t]*run([ \t]|$)/)
					break
				if (body[j] ~ /\$\{?status/) {
					checked = 1
					break
				}
			}
			if (!checked)
				report(i, "'run' whose $status is never checked: check it, or use 'run -N' or 'run !'")
		}
	}
}

FNR == 1 {
	intest = 0
	inteardown = ""
}

# A file's own teardown or teardown_file stands in for helpers.bash's:
# without left_behind (or file_teardown) what its tests started is never
# looked for, and what they stored never meets the schemas.
/^teardown(_file)?\(\)[ \t]*\{[ \t]*$/ {
	inteardown = $0
	sub(/\(.*/, "", inteardown)
	tdline = FNR
	tdok = 0
	next
}
inteardown != "" && /(^|[ \t])(left_behind|file_teardown)([ \t]|$)/ {
	tdok = 1
}
inteardown != "" && /^}[ \t]*$/ {
	if (!tdok) {
		printf "%s:%d: a %s of the file's own without %s: what its tests started is never looked for, nor what they stored checked\n",
		    FILENAME, tdline, inteardown, inteardown == "teardown" ? "left_behind" : "file_teardown"
		found++
	}
	inteardown = ""
	next
}

intest && /^}[ \t]*$/ {
	analyze()
	intest = 0
	next
}

intest {
	# a heredoc's text is not code
	if (hd != "") {
		if ($0 ~ "^[ \t]*" hd "$")
			hd = ""
		skip[++n] = 1
		body[n] = $0
		code[n] = ""
		lineno[n] = FNR
		next
	}
	body[++n] = $0
	lineno[n] = FNR
	skip[n] = 0
	line = $0
	# a command continued with '\' is one line, reported at its start
	if (cont) {
		code[start] = code[start] " " code_of(line)
		code[n] = ""
	} else {
		code[n] = code_of(line)
		start = n
	}
	cont = line ~ /\\$/ && q == ""
	if (match(line, /<<-?[ \t]*['"]?[A-Za-z_]+['"]?/)) {
		hd = substr(line, RSTART, RLENGTH)
		sub(/^<<-?[ \t]*['"]?/, "", hd)
		sub(/['"]?$/, "", hd)
	}
	next
}

/^@test .*\{[ \t]*$/ {
	intest = 1
	n = 0
	q = ""
	hd = ""
	cont = 0
	split("", body)
	split("", code)
	split("", lineno)
	split("", skip)
}

END {
	exit found > 0
}
