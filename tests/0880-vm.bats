#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/vm and scripts/vm-check: bad input gets one line and exit 2,
# before anything starts; with the image built (scripts/vm build, as CI
# does first), a command's exit status comes back from the VM, and
# neither the command failing inside nor a Ctrl-C of the script leaves a
# qemu behind.

load helpers
PLAIN_ONLY=1	# helpers.bash: skipped under the sanitizers

vm() {
	marked "$TOP_SRCDIR/scripts/vm" "$@"
}

# A boot that failed says why in the log: what scripts/vm said (the
# console's last lines among it, where the command did not finish) and
# the console as it ended.
teardown() {
	if [ -z "${BATS_TEST_COMPLETED:-}" ]; then
		{ printf '%s\n' "${stderr:-}"; tail -n 30 "$BATS_TEST_TMPDIR"/out/vm-console 2>/dev/null; } |
		    sed 's/^/# /' >&3
	fi
	left_behind "$BATS_TEST_TMPDIR"
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "scripts/vm needs root"
}

# need_image: the cached image and qemu, or skip saying so
need_image() {
	need_root
	[ -s /var/cache/contest/vm/root.img ] || skip "no VM image: scripts/vm build makes it (CI does)"
	command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64"
}

@test "vm: bad input is one line on stderr and exit 2" {
	need_root
	run -2 --separate-stderr vm frob
	[ "$stderr" = "vm: unknown command 'frob' (build, run, boots, kernels or which; see --help)" ]
	run -2 --separate-stderr vm run --timeout soon -- true
	[ "$stderr" = "vm: --timeout: 'soon' is not a number of seconds" ]
	run -2 --separate-stderr vm run --accel hvf -- true
	[ "$stderr" = "vm: --accel: 'hvf' is not auto, kvm or tcg" ]
	run -2 --separate-stderr vm run --cache "$BATS_TEST_TMPDIR/none" -- true
	[ "$stderr" = "vm: no image at $BATS_TEST_TMPDIR/none/root.img: run scripts/vm build first" ]
	run -2 --separate-stderr vm run --in "$BATS_TEST_TMPDIR/missing" -- true
	[ "$stderr" = "vm: --in: no file '$BATS_TEST_TMPDIR/missing'" ]
	# refused before any work: no debootstrap, nothing made
	run -2 --separate-stderr vm build --kernels "6.1 5.10" --cache "$BATS_TEST_TMPDIR/none"
	[ "$stderr" = "vm: unknown kernel '5.10' (6.1, 6.12, 6.12-rt or 6.1-rt)" ]
	[ ! -e "$BATS_TEST_TMPDIR/none" ]
	run -2 --separate-stderr "$TOP_SRCDIR/scripts/vm-check" --kernels ''
	[ "$stderr" = "vm-check: --kernels: no kernel named" ]
	run -2 --separate-stderr "$TOP_SRCDIR/scripts/lava/run-job" --kernal 6.1
	[ "$stderr" = "run-job: unknown argument '--kernal' (see --help)" ]
	run -2 --separate-stderr "$TOP_SRCDIR/scripts/minbase" --cahce x
	[ "$stderr" = "minbase: unknown argument '--cahce' (see --help)" ]
	run -2 --separate-stderr vm run --kernel "$BATS_TEST_TMPDIR" -- true
	[ "$stderr" = "vm: $BATS_TEST_TMPDIR: no arch/x86/boot/bzImage (make bzImage modules first)" ] ||
	    [[ "$stderr" == "vm: no image at "* ]]
}

@test "vm: an unknown kernel names the ones the image has" {
	need_image
	run -2 --separate-stderr vm run --kernel 4.19 -- true
	[[ "$stderr" == "vm: no kernel '4.19' in the image (have: 6.1."* ]]
	run -2 --separate-stderr vm which 4.19
	[[ "$stderr" == "vm: no kernel '4.19' in the image (have: 6.1."* ]]
	run -0 vm which 6.1
	[[ "$output" == 6.1.*-amd64 ]]
}

@test "vm: the command's exit status, output and working directory come back" {
	need_image
	# a whole boot under TCG, minutes of a suite users run without an
	# image (so skip it) and that has to keep under seven: CI's suite
	# stage, which builds the image first, asks for it
	[ -n "${CONTEST_VM_BOOT:-}" ] || skip "a boot under TCG takes minutes: CI runs it (CONTEST_VM_BOOT=1)"
	run -3 --separate-stderr vm run --out out -- 'echo made > file; uname -r; cut -d: -f3 /proc/self/cgroup; exit 3'
	[[ "${lines[0]}" == 6.1.* ]]
	[ "${lines[1]}" = /system.slice/contest-vm-job.service ]
	[ "$(cat out/file)" = made ]
	[ "$(sed -n 1p out/vm-output)" = "${lines[0]}" ]
	[[ "$stderr" == *"vm: 6.1 (6.1."*"): exit 3 after "* ]]
	[ -z "$(pgrep -f "contest-vm\\.")" ]
}

@test "vm: Ctrl-C of the script stops the VM: no qemu is left" {
	need_image
	# job control: a background job of a script ignores SIGINT otherwise,
	# and a shell may not trap what it was started ignoring (so does a
	# suite started in the background: perl, essential in Debian, puts
	# the default back)
	set -m
	marked_bg perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die "exec: $!"' \
	    "$TOP_SRCDIR/scripts/vm" run --timeout 900 --out out -- 'echo up; sleep 600' > live 2> err
	local pid=$!
	set +m
	# qemu running, or the script gone: Ctrl-C must stop the VM wherever
	# it is, and how slowly a busy machine boots it under TCG is not
	# this test's (the job's exit status from inside is test 3's)
	until [ -n "$(marked_named qemu-system-x86)" ] || ! running "$pid"; do
		sleep 0.2
	done
	[ -n "$(marked_named qemu-system-x86)" ] || { sed 's/^/# /' err >&3; false; }
	# what a terminal's Ctrl-C does: SIGINT to the foreground group
	kill -INT -- "-$pid"
	local rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 130 ] || { cat err; false; }
	no_leftovers 50
}
