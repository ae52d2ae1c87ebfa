#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# contest report --html: the nights of tests/data/report/nights.jsonl
# (synthetic: 24 nights, fork_load 8% slower from night-16 on) as a
# static site: each page checked against the command that prints the
# same thing, every link followed, the HTML checked by xmllint and tidy,
# and the index loaded in a real browser (Debian's chromium, headless).

load helpers

N="$TOP_SRCDIR/tests/data/report/nights.jsonl"

# The text of the PAGE's Kth <pre>, unescaped (xmllint reads the page as
# the XML it also is, and ends what it prints with a newline of its own).
pre_text() {
	xmllint --xpath "string((//*[local-name()='pre'])[$2])" "$1" | sed '$d'
}

@test "report --html: a page per night, the index and the change points; every link and anchor is there" {
	run -0 contest report --html site -f "$N"
	[ "$output" = "" ]
	[ "$(find site -name 'night-*.html' | wc -l)" -eq 24 ]
	[ -s site/index.html ]
	[ -s site/changes.html ]
	# the index: three series charts, the step's two change points linked
	# from each chart and from its caption
	[ "$(grep -c '<figure id="s-' site/index.html)" -eq 3 ]
	[ "$(grep -o 'xlink:href="changes.html#cp-[0-9]*-0"' site/index.html | sort -u | wc -l)" -eq 2 ]
	grep -q '<a href="changes.html#cp-1-0"><span class="regression">regression</span> of fork_load Time at night-16 (from night-15), +7.9%' site/index.html
	grep -q '<a href="night-night-16.html">night-16</a>' site/index.html
	# every link of every page names a page there, and an anchor in it
	for page in site/*.html; do
		for href in $(grep -o 'href="[^"]*"' "$page" | sed 's/^[a-z:]*href="//; s/"$//' | sort -u); do
			file=${href%%#*}
			[ -n "$file" ] || file=${page#site/}
			[ -f "site/$file" ] || { echo "$page: $href: no such page"; false; }
			case $href in *'#'*)
				grep -q "id=\"${href#*#}\"" "site/$file" ||
				    { echo "$page: $href: no such anchor"; false; } ;;
			esac
		done
	done
	# a second run rewrites the pages in place, and leaves no temporary file
	run -0 contest report --html site -f "$N"
	[ "$(find site -type f | wc -l)" -eq 26 ]
}

@test "report --html: each night's page holds what report and compare print for it, the change points holds history --report's" {
	run -0 contest report --html site -f "$N"
	contest report -f "$N" -k night-16 >want
	pre_text site/night-night-16.html 1 >got
	diff want got
	contest compare -f "$N" night-15 night-16 >want || :
	pre_text site/night-night-16.html 2 >got
	diff want got
	# the first night has nothing before it: a report and no comparison
	[ "$(grep -c '<pre>' site/night-night-01.html)" -eq 1 ]
	run -1 grep -c 'id="compare"' site/night-night-01.html
	[ "$output" = 0 ]
	# night-16's page names the change points it began
	grep -q '<a href="changes.html#cp-1-0">regression of fork_load Time, +7.9%</a>' site/night-night-16.html
	# the one regressed night's block is history --report's, once
	contest history --report -f "$N" >want || :
	pre_text site/changes.html 1 >got
	diff want got
	[ "$(grep -c '<pre>' site/changes.html)" -eq 1 ]
	grep -q 'The same regression of this load at this night: <a href="#cp-1-0">' site/changes.html
}

@test "report --html: every page is well-formed XML and valid HTML to tidy" {
	command -v tidy >/dev/null || skip "no tidy (Debian's tidy; scripts/bootstrap installs it)"
	run -0 contest report --html site -f "$N"
	xmllint --noout site/*.html
	for page in site/*.html; do
		# tidy 5.6 knows no SVG <a> (HTML5 allows it in an inline <svg>)
		tidy -q -e "$page" 2>&1 | grep -v '<a> proprietary attribute "xlink:href"$' >msgs || :
		[ ! -s msgs ] || { echo "$page:"; cat msgs; false; }
	done
}

@test "report --html: the filters choose the nights, and a threshold above the step leaves no regression" {
	run -0 contest report --html site -f "$N" -l fork_load --since 2026-11-10 --threshold 20
	[ "$(find site -name 'night-*.html' | wc -l)" -eq 15 ]
	# fork_load's Time alone: its Ratio needs no_load, filtered out
	grep -q '<p>15 nights; 1 series, 1 change point, <a href="changes.html">0 regressions</a> beyond 20%' site/index.html
	# +7.9% with its CI95 within 20%: no change, and no robot's block
	grep -q '<span class="no-change">no change</span> of fork_load Time at night-16' site/changes.html
	run -1 grep -c '<pre>' site/changes.html
	[ "$output" = 0 ]
}

@test "report --html: bad input is exit 2 with one line; a directory it cannot write is exit 1" {
	for args in "--html ''" "--html site --svg x.svg" "--html site --format md" \
	    "--html site --stats" "--threshold 3" "--figure time"; do
		eval "run -2 --separate-stderr contest report -f \"\$N\" $args"
		[ "$output" = "" ]
		[ "${#stderr_lines[@]}" -eq 1 ]
	done
	[[ "$stderr" == "contest report: --figure: the site's (--html DIR)" ]]
	touch file
	run -1 --separate-stderr contest report -f "$N" --html file
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "contest report: file/"*": Not a directory" ]]
	run -1 --separate-stderr contest report -f "$N" --html no/such/dir
	[ "$stderr" = "contest report: no/such/dir: No such file or directory" ]
	run -0 contest report --help
	[[ "$output" == *"--html DIR"* ]]
}

@test "report --html in chromium: every page loads with no console error, the index's DOM holds the change point; a screenshot" {
	command -v chromium >/dev/null || skip "no chromium: the pages are not loaded in a browser (scripts/bootstrap --cross-checks installs Debian's chromium)"
	# 12 nights, the step in the middle: 14 pages, a browser's start each
	jq -c 'select(.label >= "night-10" and .label <= "night-21")' "$N" >twelve.jsonl
	run -0 contest report --html site -f twelve.jsonl
	[ "$(find site -name '*.html' | wc -l)" -eq 14 ]
	for page in site/*.html; do
		marked timeout -k 5 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
		    --user-data-dir="$BATS_TEST_TMPDIR/chromium" --enable-logging=stderr --v=1 \
		    --dump-dom "file://$PWD/$page" >dom 2>log
		grep 'CONSOLE' log >console || :
		[ ! -s console ] || { echo "$page:"; cat console; false; }
		grep -q '</html>' dom
		[ "$page" != site/index.html ] || cp dom index.dom
	done
	# the browser's DOM of the index: the chart's change point, a link
	# into the change points, and its caption
	grep -q '<a xlink:href="changes.html#cp-1-0"><line [^>]*class="hit"' index.dom
	grep -q 'regression</span> of fork_load Time at night-16 (from night-15)' index.dom
	shot=${CONTEST_ARTEFACTS:-$BATS_TEST_TMPDIR}/site-index.png
	mkdir -p "${shot%/*}"
	marked timeout -k 5 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
	    --user-data-dir="$BATS_TEST_TMPDIR/chromium" --window-size=1200,1800 \
	    --screenshot="$shot" "file://$PWD/site/index.html" 2>/dev/null
	# a PNG, 1200 pixels wide
	[ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	[ "$(od -An -j16 -N4 -tu1 "$shot" | awk '{ print $3 * 256 + $4 }')" -eq 1200 ]
	echo "# the index's screenshot: $shot" >&3
}

@test "doc/reports.md's nightly example: each command's output is what contest prints now" {
	# each "    $ contest ..." of the section and the indented lines after it
	awk '/^## Nightly: a worked example/ { on = 1; next } /^## / { on = 0 }
	    on && /^    \$ contest / { n++; sub(/^    \$ contest /, ""); print > ("cmd" n); inblock = 1; next }
	    on && inblock && /^(    |$)/ { sub(/^    /, ""); print > ("out" n); next }
	    { inblock = 0 }' "$TOP_SRCDIR/doc/reports.md"
	[ -s cmd1 ]
	[ -s cmd2 ]
	[ ! -e cmd3 ]
	for k in 1 2; do
		# the blank line that ends a block is the text's, not the output's
		sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "out$k"
		read -ra args <"cmd$k"
		cd "$TOP_SRCDIR"
		"$CONTEST" "${args[@]}" >"$BATS_TEST_TMPDIR/got" || :
		cd "$BATS_TEST_TMPDIR"
		diff "out$k" got
	done
}
