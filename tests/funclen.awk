# SPDX-License-Identifier: GPL-2.0-or-later
# funclen.awk FILE...: each C function longer than max lines (default 80),
# as "FILE:LINE: NAME is N lines", unless the comment just above its type
# line says why ("long: ..."); exit 1 if any.  A function starts at a
# line at column 0 that names it ("name(", its type before it on the same
# line or the one above) with no ';' or '=' on it, and runs to the first
# "}" at column 0; a start whose next ';' comes before its '{' was a
# prototype over several lines, not a function.
BEGIN { if (max == "") max = 80; bad = 0 }
FNR == 1 { infn = 0; why = 0 }
# a type line's attributes name no function
{ l = $0; gsub(/__attribute__ *\(\([^)]*\)\)/, "", l) }
!infn && l ~ /^[a-zA-Z_]([^;=]*[a-zA-Z_0-9])?\(/ && l !~ /[;=]/ {
	name = l; sub(/\(.*/, "", name); sub(/.*[ \t*]/, "", name)
	start = FNR; infn = 1; excused = why
	opened = /\{[ \t]*$/
	if (/\{.*\}[ \t]*$/)	# all on one line
		infn = 0
	next
}
infn && !opened && /^\{/ { opened = 1; next }
infn && !opened && /;/ { infn = 0; why = 0; next }
infn && /^}/ {
	len = FNR - start + 1
	if (len > max && !excused) {
		printf "%s:%d: %s is %d lines\n", FILENAME, start, name, len
		bad = 1
	}
	infn = 0; why = 0
	next
}
!infn && /long: / { why = 1 }
!infn && /^$/ { why = 0 }
END { exit bad }
