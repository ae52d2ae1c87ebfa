# SPDX-License-Identifier: GPL-2.0-or-later
# figures.awk: every figure a doc quotes outside a render block names
# where it comes from, or it is reported (scripts/bench/render runs it
# on README and doc/*.md, and fails on what it prints).  A figure is what
# reads as measured: a number with a fraction and a unit (115.5 us,
# 0.55 s, 7.8%), minutes (3 min 10 s), a range of percents (12-14%),
# "-fold", "twice as fast", an hour, a time something "took", or a
# table's row of three numbers or more.
# A line
#   <!-- figures: SOURCE -->
# on its own (indented as the text it stands in) covers what follows it
# to the next blank line, or the indented or fenced block it stands
# before, and an indented or fenced block straight after that (an
# example and the sentence that brings it).  SOURCE is one of
#   FILE, TEST     a file in the tree holding the figures, and the test
#                  that holds the quote to it (it names FILE)
#   test TEST: TEXT  an output's form a test asserts (TEST contains TEXT)
#   historic: WHO, WHERE, WHEN   a cited post's figures
#   defined: FILE  a definition, default or parameter, set in FILE
# and each is checked: the files exist, the test names the file or holds
# the text.  Run as: awk -v top=TREE -v doc=NAME -f figures.awk TREE/NAME
function figure(l) {
	return l ~ /[0-9]+\.[0-9]+ ?(ns|us|µs|ms|s|min|%)([^A-Za-z0-9]|$)/ ||
	    l ~ /[0-9]+ min([^a-z]|$)/ ||
	    l ~ /[0-9]+(\.[0-9]+)?(-| to )[0-9]+(\.[0-9]+)? ?%/ ||
	    l ~ /-fold|(twice|half) as (fast|slow|long|many|much)|half an hour|an hour|[0-9]+ hours?/ ||
	    l ~ /(took|takes|take|taking|about|under|over) [0-9]+(\.[0-9]+)? ?(s|ms|seconds|minutes)([^A-Za-z0-9]|$)/ ||
	    l ~ /(several|many) times (faster|slower|longer)/ || numrow(l)
}
# a table's row of three numbers or more: a table of readings
function numrow(l,   c, n, i, k) {
	if (l !~ /^\|/) return 0
	n = split(l, c, /\|/)
	for (i = 2; i < n; i++)
		if (c[i] ~ /^ *[-+]?[0-9][0-9,]*(\.[0-9]+)? *%? *$/) k++
	return k >= 3
}
function bad(why) {
	printf "%s:%d: %s\n", doc, FNR, why
	nbad++
}
function readable(f,   x, r) {
	r = (getline x < (top "/" f)) >= 0
	close(top "/" f)
	return r
}
function holds(f, text,   x, r) {
	r = 0
	while ((getline x < (top "/" f)) > 0)
		if (index(x, text)) { r = 1; break }
	close(top "/" f)
	return r
}
function source(s,   a, n, t, f) {
	if (s ~ /^historic: [^,]+, [^,]+, .+$/)
		return
	if (s ~ /^defined: /) {
		f = substr(s, 10)
		if (!readable(f)) bad("figures: defined in " f ", which is not in the tree")
		return
	}
	if (s ~ /^test [^:]+: ./) {
		t = s; sub(/^test /, "", t); f = t; sub(/:.*/, "", f); sub(/^[^:]+: /, "", t)
		if (!readable(f)) bad("figures: " f " is not in the tree")
		else if (!holds(f, t)) bad("figures: " f " does not hold '" t "'")
		return
	}
	n = split(s, a, /, /)
	if (n == 2) {
		if (!readable(a[1])) bad("figures: " a[1] " is not in the tree")
		else if (!readable(a[2])) bad("figures: " a[2] " is not in the tree")
		else {
			f = a[1]; sub(/.*\//, "", f)
			if (!holds(a[2], f)) bad("figures: " a[2] " does not name " f)
		}
		return
	}
	bad("figures: '" s "' is none of FILE, TEST; test TEST: TEXT; historic: ...; defined: FILE")
}
function indented(l) { return l ~ /^(    |\t)/ }
/^<!-- render: / { inrender = 1; next }
/^<!-- end render -->/ { inrender = 0; next }
inrender { next }
/^[[:space:]]*<!-- figures: .* -->$/ {
	s = $0; sub(/^[[:space:]]*<!-- figures: /, "", s); sub(/ -->$/, "", s)
	source(s)
	pending = 1; cover = 0
	next
}
/^```/ {
	fence = !fence
	if (fence) { if (pending || after) { cover = 1; pending = 0 } }
	else if (cover) { cover = 0; after = 0 }
	next
}
fence { if (!cover && figure($0)) bad("a figure with no source: " $0); next }
/^[[:space:]]*$/ {
	# a blank ends a paragraph; an indented block goes on past it
	if (cover && !inblock) { cover = 0; after = 1 }
	blank = 1
	next
}
{
	if (blank && inblock && !indented($0)) { cover = 0; inblock = 0; after = 0 }
	if (pending) {
		cover = 1; pending = 0; inblock = blank && indented($0); after = 0
	} else if (blank && !cover) {
		if (after && indented($0)) { cover = 1; inblock = 1 }
		after = 0
	}
	blank = 0
	if (!cover && figure($0)) bad("a figure with no source: " $0)
}
END { exit nbad > 0 }
