# SPDX-License-Identifier: GPL-2.0-or-later
# childcalls.awk -v funcs="NAME..." -v calls="NAME..." FILE...: what the
# functions named in funcs call, where each call must be one of calls or
# of funcs.  They are what the job's child runs before its exec, on the
# driver's memory where spawn_shared made it (proc.c): a system call's
# error goes back as a step and errno down the pipe, or as the exit
# status; an snprintf, malloc or stdio call there would change the
# driver's own state.  Prints "FILE:LINE: FUNC calls NAME" for each
# other call, and "NAME: not found" for a function of funcs no FILE
# defines; exit 1 if any.  A function starts at a column-0 "name(" line
# (as funclen.awk finds them) and ends at the first "}" at column 0.
BEGIN {
	n = split(funcs, f)
	for (i = 1; i <= n; i++)
		want[f[i]] = 1
	m = split(calls, c)
	for (i = 1; i <= m; i++)
		ok[c[i]] = 1
	split("if for while switch return sizeof defined", k)
	for (i in k)
		kw[k[i]] = 1
	bad = 0
}
FNR == 1 { cur = ""; incomment = 0 }
{ l = $0 }
# comments and strings name no call
incomment { if (!sub(/.*\*\//, "", l)) next; incomment = 0 }
{
	gsub(/\/\*([^*]|\*[^\/])*\*\//, "", l)
	if (sub(/\/\*.*/, "", l))
		incomment = 1
	gsub(/"([^"\\]|\\.)*"/, "\"\"", l)
	gsub(/__attribute__ *\(\([^)]*\)\)/, "", l)
}
cur == "" && l ~ /^[a-zA-Z_][a-zA-Z_0-9]*\(/ && l !~ /;[ \t]*$/ {
	name = l
	sub(/\(.*/, "", name)
	if (name in want) {
		cur = name
		seen[name] = 1
	}
	next
}
cur != "" && /^}/ { cur = ""; next }
cur != "" && l !~ /^#/ {
	s = l
	while (match(s, /[a-zA-Z_][a-zA-Z_0-9]*[ \t]*\(/)) {
		callee = substr(s, RSTART, RLENGTH)
		sub(/[ \t]*\($/, "", callee)
		if (!(callee in kw) && !(callee in ok) && !(callee in want)) {
			printf "%s:%d: %s calls %s\n", FILENAME, FNR, cur, callee
			bad = 1
		}
		s = substr(s, RSTART + RLENGTH)
	}
}
END {
	for (i = 1; i <= n; i++)
		if (!(f[i] in seen)) {
			printf "%s: not found\n", f[i]
			bad = 1
		}
	exit bad
}
