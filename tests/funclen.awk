# SPDX-License-Identifier: GPL-2.0-or-later
# funclen.awk FILE...: each C function longer than max lines (default 80),
# as "FILE:LINE: NAME is N lines", unless the comment just above its type
# line says why ("long: ..."); exit 1 if any.  A function is a line
# "name(" at column 0 after its type line, to the first "}" at column 0.
BEGIN { if (max == "") max = 80; bad = 0 }
FNR == 1 { infn = 0; why = 0 }
/^[a-zA-Z_][a-zA-Z_0-9]*\(/ && !infn {
	name = $0; sub(/\(.*/, "", name)
	start = FNR; infn = 1; excused = why
	next
}
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
