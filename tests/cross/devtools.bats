#!/usr/bin/env bats
# micro/bin/devtools' macOS reader, linked for both Mac architectures with
# zig cc (make test-cross): it asks libSystem alone for what it needs, and
# reaches the Objective-C runtime and ExecutionPolicy through dlopen
# (docs/macos.md §13), so a Mac without Xcode's frameworks still runs it.

load ../test_helper/common-setup

setup() {
	_common_setup
}

# Mach-O LC_LOAD_DYLIB names of FILE, one a line.
dylibs() {
	python3 - "$1" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
magic, _, _, _, ncmds, _, _, _ = struct.unpack_from("<8I", data, 0)
assert magic == 0xFEEDFACF, hex(magic)
off = 32
for _ in range(ncmds):
    cmd, size = struct.unpack_from("<2I", data, off)
    if cmd in (0xC, 0x80000018):  # LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB
        name_off = struct.unpack_from("<I", data, off + 8)[0]
        print(data[off + name_off:off + size].split(b"\0")[0].decode())
    off += size
EOF
}

@test "the macOS reader links for aarch64-macos and x86_64-macos against libSystem alone" {
	local zig target
	zig=$(zig_path) || skip "no zig (set ZIG, or run make cross once)"
	export ZIG_GLOBAL_CACHE_DIR="$ROOT/.cache/zig-cache" ZIG_LOCAL_CACHE_DIR="$ROOT/.cache/zig-cache"
	for target in aarch64-macos x86_64-macos; do
		run "$zig" cc -target "$target" -std=c11 -Wall -Wextra -Wno-unused-parameter -Werror -O2 -I"$ROOT/micro/lib" -I"$ROOT/micro/plat" \
			-o "$BATS_TEST_TMPDIR/devtools-$target" "$ROOT/micro/prog/devtools.c" \
			"$ROOT/micro/plat/devtoolsauth_darwin.c" "$ROOT/micro/plat/devtoolsauth_objc.c" \
			"$ROOT/micro/plat/responsible_dl.c" "$ROOT/micro/plat/responsible_darwin.c" "$ROOT"/micro/lib/*.c
		assert_success
		run dylibs "$BATS_TEST_TMPDIR/devtools-$target"
		assert_success
		assert_output /usr/lib/libSystem.B.dylib
	done
}
