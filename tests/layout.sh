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
set -u
top=$1 obj=${2:-}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/breach"

may() { # from-folder to-folder: 0 when allowed
	[ "$1" = "$2" ] && return 0
	case $1:$2 in
	contest/record:contest/lib) return 0 ;;
	contest/run:contest/lib | contest/run:contest/record | contest/run:loads) return 0 ;;
	contest/report:contest/lib | contest/report:contest/record) return 0 ;;
	contest:contest/* | contest:loads) return 0 ;;
	loads:contest/lib) return 0 ;;
	forkbomb:contest/lib | forkbomb:loads) return 0 ;;
	forktime:contest/lib) return 0 ;;
	esac
	return 1
}

node() { # path below top -> node, without extension
	p=${1#"$top"/}
	echo "${p%.*}"
}

for d in contest loads forkbomb forktime; do
	[ -d "$top/$d" ] && find "$top/$d" -name '*.[ch]'
done | sort > "$tmp/files"
# header name -> its node (a header's name is unique in the tree), and
# its real path -> its node, for an include written with a folder
while read -r f; do
	case $f in *.h)
		echo "$(basename "$f") $(node "$f")" >> "$tmp/headers"
		echo "$(realpath -m "$f") $(node "$f")" >> "$tmp/real" ;;
	esac
done < "$tmp/files"
touch "$tmp/headers" "$tmp/real"

# the node an include names from file $1: a bare name by the header
# names; "run/session.h" or "../run/session.h" as the compiler may find
# it, beside the file or below contest/ or the top
included() {
	case $2 in
	*/*)
		for c in "$(dirname "$1")/$2" "$top/contest/$2" "$top/$2"; do
			r=$(realpath -m "$c")
			awk -v r="$r" '$1 == r { print $2; exit }' "$tmp/real"
		done | head -n 1 ;;
	*) awk -v h="$2" '$1 == h { print $2 }' "$tmp/headers" ;;
	esac
}

: > "$tmp/edges"
while read -r f; do
	from=$(node "$f")
	# both spellings: every folder is on the include path, so a tree
	# header named in angle brackets is found as well as in quotes
	sed -n 's/^#[[:space:]]*include[[:space:]]*["<]\([^">]*\)[">].*/\1/p' "$f" | while read -r h; do
		to=$(included "$f" "$h")
		[ -n "$to" ] || continue	# config.h, or the system's
		[ "$to" != "$from" ] && echo "$from $to" >> "$tmp/edges"
		if ! may "$(dirname "$from")" "$(dirname "$to")"; then
			echo "layout: $f includes $(dirname "$to")/'s ${h##*/}" >&2
			echo x >> "$tmp/breach"
		fi
	done
done < "$tmp/files"

if [ -n "$obj" ]; then
	for d in contest loads forkbomb forktime; do
		[ -d "$obj/$d" ] && find "$obj/$d" -name '*.o'
	done | sort > "$tmp/objs"
	: > "$tmp/defs"; : > "$tmp/uses"
	while read -r o; do
		n=$(basename "$o" .o)
		n=${n#*-}	# per-target object prefix
		d=$(dirname "$o"); d=${d#"$obj"}; d=${d#/}
		nm -g --defined-only "$o" | awk -v n="$d/$n" 'NF == 3 { print $3, n }' >> "$tmp/defs"
		nm -u "$o" | awk -v n="$d/$n" '{ print $NF, n }' >> "$tmp/uses"
	done < "$tmp/objs"
	# a name defined in one place only is that node's (forkbomb's main and
	# the worker's are each their program's own)
	awk '{ c[$1]++; d[$1] = $2 } END { for (k in c) if (c[k] == 1) print k, d[k] }' \
	    "$tmp/defs" > "$tmp/owner"
	awk 'NR == FNR { d[$1] = $2; next } ($1 in d) && d[$1] != $2 { print $2, d[$1], $1 }' \
	    "$tmp/owner" "$tmp/uses" | sort -u > "$tmp/calls"
	while read -r from to name; do
		echo "$from $to" >> "$tmp/edges"
		if ! may "$(dirname "$from")" "$(dirname "$to")"; then
			echo "layout: $from calls $(dirname "$to")/'s $name" >&2
			echo x >> "$tmp/breach"
		fi
	done < "$tmp/calls"
fi

sort -u "$tmp/edges" > "$tmp/e"
if ! tsort "$tmp/e" > /dev/null 2> "$tmp/loops"; then
	sed "s|^tsort: $tmp/e: input contains a loop:|layout: a loop:|; s/^tsort: /layout:   /" "$tmp/loops" >&2
	echo x >> "$tmp/breach"
fi
[ -s "$tmp/breach" ] && exit 1
exit 0
