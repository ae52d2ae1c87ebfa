#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/kernel-tree on a stand-in kernel: a tarball whose Makefile has
# the config targets, so no real kernel is needed.

load helpers

KT="$TOP_SRCDIR/scripts/kernel-tree"

fake_tarball() {
	mkdir -p fake/linux-9.9
	cat > fake/linux-9.9/Makefile <<'MK'
tinyconfig defconfig allnoconfig:
	@echo "CONFIG_$@=y" > .config
	@echo ran $@ >> configs.log
olddefconfig:
	@echo "CONFIG_FROM_FILE=y" >> .config
	@echo ran $@ >> configs.log
clean:
	@rm -f image
bzImage all:
	@echo built > image
MK
	tar -czf linux-9.9.tar.gz -C fake linux-9.9
}

@test "kernel-tree: unpacks, configures, prints the contest command" {
	fake_tarball
	export HOME=$BATS_TEST_TMPDIR/home
	run --separate-stderr "$KT" --from linux-9.9.tar.gz tree
	[ "$status" -eq 0 ]
	[ "$(cat tree/.config)" = "CONFIG_tinyconfig=y" ]
	[ "$(wc -l < tree/configs.log)" -eq 1 ]
	# the results outside the tree
	[[ "$output" == "cd $PWD/tree && contest -o $HOME/contest-results -l fork_load -- make -j"[0-9]* ]]
	R=$HOME/contest-results/results.jsonl
	# the printed command works as printed (one quick run), and the
	# tree is cleaned by the inferred step before it
	cmd=${output/ -l fork_load / --warmup 0 -n 1 --lead 0 -l fork_load }
	[ "$cmd" != "$output" ]
	run --separate-stderr eval "$cmd"
	[ "$status" -eq 0 ]
	[ "$(rq 'length')" -eq 2 ]
	[[ "$stderr" == *"each run is prepared with 'make clean'"* ]]
	[ -f tree/image ]
	[ "$(rq 'map(.prepare) | unique | .[0]')" = "make clean" ]
}

@test "kernel-tree: the same call again reuses the tree; another config reconfigures it" {
	fake_tarball
	"$KT" --from linux-9.9.tar.gz tree >/dev/null 2>&1
	echo marker > tree/kept
	run --separate-stderr "$KT" --from linux-9.9.tar.gz tree
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"ready already (tinyconfig)"* ]]
	[ -f tree/kept ]
	[ "$(wc -l < tree/configs.log)" -eq 1 ]
	run "$KT" --config defconfig --from linux-9.9.tar.gz tree
	[ "$status" -eq 0 ]
	[ "$(cat tree/.config)" = "CONFIG_defconfig=y" ]
	[ -f tree/kept ]
	printf 'CONFIG_MINE=y\n' > my.config
	run "$KT" --config my.config --from linux-9.9.tar.gz tree
	[ "$status" -eq 0 ]
	[ "$(cat tree/.config)" = "$(printf 'CONFIG_MINE=y\nCONFIG_FROM_FILE=y')" ]
	run "$KT" --config my.config --from linux-9.9.tar.gz tree
	[ "$status" -eq 0 ]
	[ "$(grep -c olddefconfig tree/configs.log)" -eq 1 ]
}

@test "kernel-tree: a tree given as a directory is copied" {
	fake_tarball
	run "$KT" --from fake/linux-9.9 t2
	[ "$status" -eq 0 ]
	[ -f t2/Makefile ]
	[ -f t2/.config ]
	[ ! -e fake/linux-9.9/.config ]
}

@test "kernel-tree: bad arguments give exit 2 and one line" {
	fake_tarball
	for args in "" "--bogus t" "--config nosuchconfig t" "--from /nonexistent t" \
	    "--from linux-9.9.tar.gz a b" "--config" "--from"; do
		eval "set -- $args"
		run --separate-stderr "$KT" "$@"
		[ "$status" -eq 2 ] || { echo "# '$args': $status" >&3; return 1; }
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
		[[ "$stderr" == contest-kernel-tree:* ]]
	done
	[ ! -e t ]
}

@test "kernel-tree: a source that is no kernel, a used DIR, another source: clear errors" {
	fake_tarball
	echo hello > notes.txt
	run --separate-stderr "$KT" --from notes.txt t
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"not a tarball I know"* ]]
	[ ! -e t ]
	mkdir -p empty
	tar -czf empty.tar.gz -C empty .
	run --separate-stderr "$KT" --from empty.tar.gz t
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"holds no Makefile at its top: not a kernel tree"* ]]
	mkdir full
	touch full/x
	run --separate-stderr "$KT" --from linux-9.9.tar.gz full
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"exists and is not empty"* ]]
	"$KT" --from linux-9.9.tar.gz tree >/dev/null 2>&1
	run --separate-stderr "$KT" --from fake/linux-9.9 tree
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"holds a tree from $PWD/linux-9.9.tar.gz; use another DIR"* ]]
}
