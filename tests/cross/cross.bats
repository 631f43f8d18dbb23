#!/usr/bin/env bats
# make cross: every program the Makefile builds on a Mac is linked, with the
# Makefile's own rules and flags, for aarch64-macos and x86_64-macos (zig cc),
# the jansson users against jansson built from the pinned source; every
# program Linux builds is linked for aarch64-linux.  The quick profile of
# that build under qemu-user is make test-live's (tests/live/cross.bats).
# make test-cross runs this file (CI's cross tier), not make test: zig
# (353 MB) and its libc for three targets, fetched and built once, are
# not for the README's second command to wait on.

load ../test_helper/common-setup

# both tests run make cross into the same .cache/cross: one at a time
setup_file() {
	export BATS_NO_PARALLELIZE_WITHIN_FILE=true
}

setup() {
	_common_setup
	D=$BATS_TEST_TMPDIR
	need_zig
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
	# the seventeen: mkfresh launch analyze spawnloop tiny suite devtools compare fbtext
	# aggregate redact simrate advise execwatch measure mcompare runfield
	assert_equal "$n" 17
	# the programs that read and write run.json carry jansson's parser inside
	for a in aarch64-macos x86_64-macos; do
		for p in analyze compare fbtext aggregate advise measure mcompare runfield; do
			grep -q 'maximum parsing depth reached' "$ROOT/.cache/cross/$a/bin/$p" || fail "$a $p has no jansson in it"
		done
		# the Makefile's -DEXECLAG_VERSION reached them
		grep -q "$(sed -n 's/^VERSION *= *//p' "$ROOT/Makefile")" "$ROOT/.cache/cross/$a/bin/analyze"
	done
}

@test "make cross links every Linux program for aarch64-linux (Asahi, arm64 servers)" {
	run make -s -C "$ROOT" cross
	assert_success
	assert_line --regexp '^cross: programs linked: 17 for aarch64-macos, 17 for x86_64-macos, [0-9]+ for aarch64-linux$'
	progs=$(make -s -C "$ROOT" --no-print-directory PLAT=linux print-progs)
	for p in $progs; do
		p=${p##*/}
		run file -b "$ROOT/.cache/cross/aarch64-linux/bin/$p"
		[[ "$output" == "ELF 64-bit LSB "*"ARM aarch64"* ]] || fail "aarch64-linux $p: $output"
	done
	grep -q 'maximum parsing depth reached' "$ROOT/.cache/cross/aarch64-linux/bin/analyze" || fail "no jansson in analyze"
}
