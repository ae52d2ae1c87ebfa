#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# layout.sh SRCDIR [OBJDIR]: the architecture contest/'s folders claim.
# Prints each breach and exits 1:
#  - a file of contest/report/ that includes a header of contest/run/;
#  - a loop among contest/'s files (foo.c and foo.h are one node), by
#    includes, or (with OBJDIR, the built objects) by one file calling a
#    name that another alone defines.
set -u
src=$1/contest obj=${2:-}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
bad=0

node() { # path -> contest-relative node name, without extension
	p=${1#"$src"/}
	echo "${p%.*}"
}

find "$src" -name '*.[ch]' | sort > "$tmp/files"
# header name -> its node (names are unique across the folders)
while read -r f; do
	case $f in *.h) echo "$(basename "$f") $(node "$f")" ;; esac
done < "$tmp/files" > "$tmp/headers"

: > "$tmp/edges"
while read -r f; do
	from=$(node "$f")
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		to=$(awk -v h="$h" '$1 == h { print $2 }' "$tmp/headers")
		[ -n "$to" ] && [ "$to" != "$from" ] && echo "$from $to"
		case $from/$to in
		report/*/run/*) echo "layout: $f includes run/'s $h" >&2; echo x >> "$tmp/breach" ;;
		esac
	done
done < "$tmp/files" >> "$tmp/edges"

if [ -n "$obj" ]; then
	find "$obj" -name '*.o' | sort > "$tmp/objs"
	while read -r o; do
		n=$(basename "$o" .o)
		n=${n#*-}	# per-target object prefix
		d=$(dirname "$o"); d=${d#"$obj"}; d=${d#/}
		echo "$d/$n" | sed 's|^contest/||; s|^/||' > "$tmp/n"
		nm -g --defined-only "$o" | awk -v n="$(cat "$tmp/n")" 'NF == 3 { print $3, n }' >> "$tmp/defs"
		nm -u "$o" | awk -v n="$(cat "$tmp/n")" '{ print $NF, n }' >> "$tmp/uses"
	done < "$tmp/objs"
	awk 'NR == FNR { d[$1] = $2; next } ($1 in d) && d[$1] != $2 { print $2, d[$1] }' \
	    "$tmp/defs" "$tmp/uses" | sort -u >> "$tmp/edges"
fi

if ! tsort "$tmp/edges" > /dev/null 2> "$tmp/loops"; then
	sed "s|^tsort: $tmp/edges: input contains a loop:|layout: a loop:|; s/^tsort: /layout:   /" "$tmp/loops" >&2
	bad=1
fi
[ -e "$tmp/breach" ] && bad=1
exit $bad
