#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# layout.sh SRCDIR [OBJDIR]: the architecture the tree's folders claim.
# Each folder may depend only on the folders listed for it below, by
# including their headers or (with OBJDIR, the build tree) by calling a
# name only they define; and no files depend on each other in a loop
# (foo.c and foo.h are one node).  Prints each breach and exits 1.
#
#   contest/lib      itself: numbers, JSON, clocks; it knows nothing above
#   contest/record   lib: what a results line is (its figures, its dir)
#   contest/run      lib, record, loads (the registry it starts loads from)
#   contest/report   lib, record: it reads results, it never runs anything
#   contest          everything in contest/ and loads: the subcommands
#   loads            lib (the worker is a program of its own)
#   forkbomb         lib, loads (forkbomb_actions, what it shares)
#   forktime         lib
#
# A dozen processes whatever the tree's size, each reading every file
# at once: a process a file, or an include, took minutes on a busy host
# (four test files at a time beside two spinners at a better nice).
set -u
top=$1 obj=${2:-}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/breach"

# may: the rule above, for awk: from-folder to-folder is allowed
MAY='function may(a, b) {
	if (a == b) return 1
	if (a == "contest/record") return b == "contest/lib"
	if (a == "contest/run") return b == "contest/lib" || b == "contest/record" || b == "loads"
	if (a == "contest/report") return b == "contest/lib" || b == "contest/record"
	if (a == "contest") return b ~ /^contest\// || b == "loads"
	if (a == "loads" || a == "forktime") return b == "contest/lib"
	if (a == "forkbomb") return b == "contest/lib" || b == "loads"
	return 0
}
function dir(p) { return sub(/\/[^\/]*$/, "", p) ? p : "." }'

# realpath -m of each line of $1, one a line ('' for none)
realpaths() {
	[ -s "$1" ] || return 0
	tr '\n' '\0' < "$1" | xargs -0 realpath -m --
}

for d in contest loads forkbomb forktime; do
	[ -d "$top/$d" ] && find "$top/$d" -name '*.[ch]'
done | sort > "$tmp/files"
[ -s "$tmp/files" ] || exit 0
# a file's node: its path below top, without extension
awk -v top="$top/" '{ p = substr($0, length(top) + 1); sub(/\.[^.\/]*$/, "", p); print $0, p }' \
    "$tmp/files" > "$tmp/nodes"
# a header's real path, for an include written with a folder
grep '\.h$' "$tmp/files" > "$tmp/hfiles" || :
realpaths "$tmp/hfiles" > "$tmp/hreal"

# Every include of every file, in order: FILE NAME.  Both spellings:
# every folder is on the include path, so a tree header named in angle
# brackets is found as well as in quotes.
# shellcheck disable=SC2016 # an awk program: its $0 is awk's
tr '\n' '\0' < "$tmp/files" | xargs -0 awk '
    /^#[[:space:]]*include[[:space:]]*["<][^">]*[">]/ {
	h = $0
	sub(/^#[[:space:]]*include[[:space:]]*["<]/, "", h)
	sub(/[">].*/, "", h)
	print FILENAME, h
    }' > "$tmp/incs"
# "run/session.h" or "../run/session.h" as the compiler may find it,
# beside the file or below contest/ or the top: the three places, whose
# real paths come back in the same order
awk -v top="$top" "$MAY"'
    $2 ~ /\// { print dir($1) "/" $2; print top "/contest/" $2; print top "/" $2 }' \
    "$tmp/incs" > "$tmp/cands"
realpaths "$tmp/cands" > "$tmp/creal"

# The node each include names (a header's name is unique in the tree;
# none: config.h, or the system's), an edge, and a breach said.
awk -v EDGES="$tmp/edges" -v BREACH="$tmp/breach" "$MAY"'
    FILENAME == ARGV[1] { node[$1] = $2; next }
    FILENAME == ARGV[2] { hf[++nh] = $0; next }
    FILENAME == ARGV[3] { real[$0] = node[hf[++rh]]; n = hf[rh]; sub(/.*\//, "", n); byname[n] = node[hf[rh]]; next }
    FILENAME == ARGV[4] { cand[++nc] = $0; next }
    {
	from = node[$1]
	to = ""
	if ($2 ~ /\//) {
		for (i = 0; i < 3; i++) {
			r = cand[++used]
			if (to == "" && (r in real)) to = real[r]
		}
	} else if ($2 in byname)
		to = byname[$2]
	if (to == "") next
	if (to != from) print from, to > EDGES
	if (!may(dir(from), dir(to))) {
		n = $2; sub(/.*\//, "", n)
		printf "layout: %s includes %s/'"'"'s %s\n", $1, dir(to), n > "/dev/stderr"
		print "x" > BREACH
	}
    }' "$tmp/nodes" "$tmp/hfiles" "$tmp/hreal" "$tmp/creal" "$tmp/incs"
touch "$tmp/edges"

if [ -n "$obj" ]; then
	for d in contest loads forkbomb forktime; do
		[ -d "$obj/$d" ] && find "$obj/$d" -name '*.o'
	done | sort > "$tmp/objs"
	if [ -s "$tmp/objs" ]; then
		# POSIX format with each line's object: "OBJ.o: NAME TYPE ..."
		tr '\n' '\0' < "$tmp/objs" | xargs -0 nm -A -P -g --defined-only > "$tmp/defs"
		tr '\n' '\0' < "$tmp/objs" | xargs -0 nm -A -P -u > "$tmp/uses"
		# an object's node: its folder below OBJDIR and its name without
		# the per-target prefix; a name defined in one place only is that
		# node's (forkbomb's main and the worker's are each their
		# program's own)
		awk -v obj="$obj/" '
		    function onode(o) {
			sub(/:$/, "", o)
			o = substr(o, length(obj) + 1)
			d = o; sub(/\/[^\/]*$/, "", d)
			n = o; sub(/.*\//, "", n); sub(/\.o$/, "", n); sub(/^[^-]*-/, "", n)
			return d "/" n
		    }
		    FILENAME == ARGV[1] { c[$2]++; owner[$2] = onode($1); next }
		    ($2 in c) && c[$2] == 1 && owner[$2] != onode($1) { print onode($1), owner[$2], $2 }' \
		    "$tmp/defs" "$tmp/uses" | sort -u > "$tmp/calls"
		awk -v EDGES="$tmp/cedges" -v BREACH="$tmp/breach" "$MAY"'
		    { print $1, $2 > EDGES }
		    !may(dir($1), dir($2)) {
			printf "layout: %s calls %s/'"'"'s %s\n", $1, dir($2), $3 > "/dev/stderr"
			print "x" > BREACH
		    }' "$tmp/calls"
		[ ! -e "$tmp/cedges" ] || cat "$tmp/cedges" >> "$tmp/edges"
	fi
fi

sort -u "$tmp/edges" > "$tmp/e"
if ! tsort "$tmp/e" > /dev/null 2> "$tmp/loops"; then
	sed "s|^tsort: $tmp/e: input contains a loop:|layout: a loop:|; s/^tsort: /layout:   /" "$tmp/loops" >&2
	echo x >> "$tmp/breach"
fi
[ -s "$tmp/breach" ] && exit 1
exit 0
