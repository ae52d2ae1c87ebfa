#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The installed tree (tests/installcheck sets INSTALLED_*): every program,
# helper, man page and script where the package puts it, and the scripts
# using the contest installed beside them.

load helpers

setup_file() {
	[ -n "${INSTALLED_BIN:-}" ] || skip "run by tests/installcheck against an installed tree"
}

@test "installed: the programs, the helpers, the LAVA definition and the man pages" {
	for p in contest forkbomb forktime contest-nightly contest-kernel-tree; do
		[ -x "$INSTALLED_BIN/$p" ]
		[ -s "$INSTALLED_MAN/man1/$p.1" ] || [ -s "$INSTALLED_MAN/man1/$p.1.gz" ]
	done
	[ -x "$INSTALLED_LIBEXEC/contest-load" ]
	[ -x "$INSTALLED_LIBEXEC/nop-dynamic" ]
	[ -s "$INSTALLED_DATA/lava/contest.yaml" ]
	[ -x "$INSTALLED_DATA/lava/contest.sh" ]
	# the man page names where the helpers are, not a placeholder
	run sh -c 'zcat -f "$1"/man1/contest.1* | sed "s/\\\\://g" | grep -c "^\.I $2/contest-load$"' _ "$INSTALLED_MAN" "$INSTALLED_LIBEXEC"
	[ "$status" -eq 0 ]
	[ "$output" = 1 ]
}

@test "installed: the README and doc/ as the tree lays them out, every relative link working, the schemas where the man page says" {
	[ -s "$INSTALLED_DOC/README" ]
	for f in running loads tools classics kernel results reports safety performance testing hacking; do
		[ -s "$INSTALLED_DOC/doc/$f.md" ]
	done
	local n=0 bad=0 f l target
	for f in "$INSTALLED_DOC/README" "$INSTALLED_DOC"/doc/*.md; do
		while read -r l; do
			target=${l%%#*}
			[ -n "$target" ] || continue
			n=$((n + 1))
			[ -e "$(dirname "$f")/$target" ] || {
				echo "# ${f#"$INSTALLED_DOC"/}: no $target" >&3; bad=$((bad + 1)); }
		done < <(grep -o '](\([^)]*\))' "$f" | sed 's/^](//; s/)$//' | grep -v '^[a-z]*:')
	done
	echo "# $n relative links followed" >&3
	[ "$n" -ge 20 ]
	[ "$bad" -eq 0 ]
	# the man page names each schema at its installed path
	for s in results report compare; do
		p=$(zcat -f "$INSTALLED_MAN"/man1/contest.1* | sed 's/\\://g' |
		    sed -n "s|^\.IR* \([^ ]*/doc/$s\.schema\.json\).*|\1|p" | head -n 1)
		[ -n "$p" ]
		[[ "$INSTALLED_DOC/doc/$s.schema.json" == *"$p" ]]
		jq -e .properties "$INSTALLED_DOC/doc/$s.schema.json" >/dev/null
	done
}

@test "installed: forktime finds its helpers where they were installed" {
	run --separate-stderr forktime -n 20 --warmup 2 exec-dynamic
	[ "$status" -eq 0 ]
	[ -n "$output" ]
}

@test "installed: contest-nightly runs the contest installed beside it" {
	# PATH without the install's bindir (unless it is /bin or /usr/bin,
	# which a merged /usr makes one): only "beside it" can find contest
	run --separate-stderr marked PATH=/usr/local/sbin:/usr/sbin:/sbin:/bin \
	    "$INSTALLED_BIN/contest-nightly" -o "$BATS_TEST_TMPDIR/n" -k night1 --warmup 0 --fixed \
	    -n 2 --lead 0.1 -l sleepers:n=5 -- sleep 0.05
	[ "$status" -eq 0 ]
	[ -s "$BATS_TEST_TMPDIR/n/nightly-night1.md" ]
	[ "$(jq -s 'length' "$BATS_TEST_TMPDIR/n/results.jsonl")" -eq 4 ]
	run --separate-stderr "$INSTALLED_BIN/contest-nightly" --bogus
	[ "$status" -eq 2 ]
	[ "$stderr" = "contest-nightly: unknown option '--bogus' (see contest-nightly --help)" ]
}

@test "installed: contest-kernel-tree and contest-nightly call themselves by their installed names" {
	run --separate-stderr "$INSTALLED_BIN/contest-kernel-tree" --help
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: contest-kernel-tree [--config "* ]]
	[ -z "$stderr" ]
	run --separate-stderr "$INSTALLED_BIN/contest-nightly" --help
	[ "$status" -eq 0 ]
	[[ "$output" == "usage: contest-nightly [-o DIR] "* ]]
}
