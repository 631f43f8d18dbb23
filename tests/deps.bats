#!/usr/bin/env bats
# scripts/tool/deps without a package manager: a Mac as it comes (Xcode's command
# line tools, no Homebrew) and Linux without root or sudo.  jansson is built
# from its pinned source with cc alone, and bats is unpacked, into the cache;
# the download is checked against the pin.  No network: a fake curl serves
# Debian's copy of the same bytes (scripts/tool/debian-orig), and a fake uname
# says Darwin.

load test_helper/common-setup
# run_both and run_sep: bats' run and run --separate-stderr, cheaper
load test_helper/quickrun

JANSSON_URL=https://github.com/akheron/jansson/archive/refs/tags/v2.14.tar.gz

# The names the tests hide from PATH (path_without), one set or another.
FARM_HIDE="brew pkg-config pkgconf sudo apt-get bats shellcheck hyperfine jq autoreconf automake libtoolize parallel"

# farm_keep SET SRC-PATH HIDDEN...: $FARM/SET, a link to each name of
# FARM_HIDE (and of bats' libexec folder) but HIDDEN, to the first of that
# name on SRC-PATH (as path_without links it), one ln for them all.
# SET before $FARM/base on PATH is path_without's folder of SRC-PATH
# without HIDDEN, name for name: base has every other name, the first of it
# on PATH (the names of bats' libexec folder, which SRC-PATH may lack, are
# all here, none there).
farm_keep() {
	local set=$1 src=$2 n d seen=" " targets=()
	shift 2
	for n in $FARM_HIDE $FARM_LIBEXEC; do
		case "$seen$* " in *" $n "*) continue ;; esac
		seen="$seen$n "
		local IFS=:
		for d in $src; do
			[ -d "$d" ] || continue
			if [ -e "$d/$n" ] || [ -L "$d/$n" ]; then
				targets+=("$d/$n")
				break
			fi
		done
		IFS=$' \t\n'
	done
	[ "${#targets[@]}" = 0 ] || ln -s "${targets[@]}" "$FARM/$set/"
}

# make_farm: setup_file's farm (FARM): base, without FARM_HIDE's names nor
# those of bats' libexec folder, and each test's set of them (their
# folders, and setup_file's fakeuname, made by one mkdir)
make_farm() {
	local d f nolibexec=""
	FARM="$BATS_FILE_TMPDIR/farm" FARM_LIBEXEC=""
	local IFS=:
	# (and PATH without that folder, as path_without_bats_libexec gives it,
	# by the shell)
	for d in $PATH; do
		case $d in */libexec/bats-core)
			for f in "$d"/*; do FARM_LIBEXEC="$FARM_LIBEXEC ${f##*/}"; done
			continue ;;
		esac
		nolibexec="$nolibexec${nolibexec:+:}$d"
	done
	IFS=$' \t\n'
	# shellcheck disable=SC2086 # names
	mkdir -p "$FARM/base" "$FARM/mac" "$FARM/mac-shellcheck" "$FARM/linux" "$FARM/brew" \
		"$FARM/jq" "$FARM/live" "$FARM/fakeuname"
	path_without "$FARM/base" $FARM_HIDE $FARM_LIBEXEC
	farm_keep mac "$PATH" brew pkg-config pkgconf sudo apt-get bats
	farm_keep mac-shellcheck "$PATH" brew pkg-config pkgconf sudo apt-get bats shellcheck parallel
	farm_keep linux "$PATH" pkg-config pkgconf sudo
	farm_keep brew "$PATH" brew pkg-config pkgconf sudo apt-get shellcheck hyperfine
	farm_keep jq "$nolibexec" brew pkg-config pkgconf sudo apt-get jq shellcheck parallel
	farm_keep live "$PATH" apt-get sudo autoreconf automake libtoolize
}

setup_file() {
	local root="$BATS_TEST_DIRNAME/.."
	ORIG="$root/.cache/debian-orig"
	ORIG_SKIP=""
	sh "$root/scripts/tool/debian-orig" "$ORIG" jansson bats-support 2>"$BATS_FILE_TMPDIR/orig.err" ||
		ORIG_SKIP="Debian's orig tarballs cannot be fetched here: $(head -n 1 "$BATS_FILE_TMPDIR/orig.err")"
	[ -n "$ORIG_SKIP" ] || [ -f "$ORIG/jansson_2.14.orig.tar.gz" ] ||
		ORIG_SKIP="Debian's archive here has no jansson_2.14.orig.tar.gz"
	export ORIG ORIG_SKIP
	[ -z "$ORIG_SKIP" ] || return 0
	# The PATHs without some programs (path_without's, some 1700 links a
	# folder, a second of CPU each time here), made once for the file: the
	# links to all but FARM_HIDE's names in $FARM/base, and each test's set
	# (farm_keep) in a small folder before it.  The tests only read them.
	# (Made by kit_untraced: without bats' trace of each command, some 0.3
	# ms each, a few thousand here; kit_setup finds the trace for it.)
	kit_setup
	kit_untraced make_farm
	export FARM
	# jansson is built from the same bytes in four tests, and here: this
	# build, by scripts/tool/jansson with the real compiler, is the one
	# compile of it; the tests put MEMO on PATH first: its cc
	# (tests/test_helper/memo-cc) copies the objects of that build, for a
	# compile of the same flags, source and headers (anything else, or a
	# build here that failed, runs the compiler).
	# Every compile and link it runs is unoptimised and without debugging
	# information (MEMO_CC_LAST="-O0 -g0" after the caller's flags: a third
	# of -O2 -g's CPU; nothing runs a debugger), this build's and the
	# kit's in the test of the kit built against it: what the tests look
	# at is how jansson is fetched, found, compiled against and linked.
	MEMO="$BATS_FILE_TMPDIR/memo"
	MEMO_CC_REAL=$(command -v cc) MEMO_CC_DIR="$BATS_FILE_TMPDIR/memo-objects" MEMO_CC_LAST="-O0 -g0"
	export MEMO MEMO_CC_REAL MEMO_CC_DIR MEMO_CC_LAST
	mkdir -p "$MEMO" "$BATS_FILE_TMPDIR/served"
	ln -s "$root/tests/test_helper/memo-cc" "$MEMO/cc"
	cp "$ORIG/jansson_2.14.orig.tar.gz" "$BATS_FILE_TMPDIR/served/${JANSSON_URL//[\/:]/_}"
	# the fake uname (Darwin, FAKE_STATE's) in a folder of its own, for
	# the tests that put it on PATH (fake_uname_dir)
	# (its folder: make_farm's)
	ln -s "$root/tests/fakes/bin/uname" "$FARM/fakeuname/uname"
	EXECLAG_CACHE="$BATS_FILE_TMPDIR/cache" FAKE_CURL_DIR="$BATS_FILE_TMPDIR/served" \
		PATH="$MEMO:$root/tests/fakes/net:$PATH" sh "$root/scripts/tool/jansson" >/dev/null 2>&1 || true
}

setup() {
	_common_setup
	[ -z "$ORIG_SKIP" ] || skip "$ORIG_SKIP"
	D="$BATS_TEST_TMPDIR"
	# (no fake uname unless a test asks for it: a folder that is not there)
	FAKEUNAME="$D/fakeuname"
	export EXECLAG_CACHE="$D/cache"
	export FAKE_CURL_DIR="$D/served"
	mkdir -p "$FAKE_CURL_DIR" "$D/state"
	printf 'Darwin\n' >"$D/state/uname_s"
}

# sum256 VAR FILE: FILE's SHA-256 into VAR (sha256sum where there is
# one: shasum is perl, some 40 ms of CPU a start; one process, its first
# field taken by the shell)
sum256() {
	local _s
	if command -v sha256sum >/dev/null 2>&1; then
		_s=$(sha256sum "$2")
	else
		_s=$(shasum -a 256 "$2")
	fi
	printf -v "$1" '%s' "${_s%% *}"
}

# serve URL FILE: the fake curl answers URL with FILE's bytes (its name:
# the URL with every / and : made _, as tr '/:' '__')
serve() {
	cp "$2" "$FAKE_CURL_DIR/${1//[\/:]/_}"
}

# A Mac without Homebrew: fake uname (Darwin) and curl first, and no brew,
# pkg-config, sudo, apt-get or system bats on PATH (mac_path shellcheck:
# and no shellcheck, nor GNU parallel, which only Homebrew gives a Mac:
# scripts/tool/runtests runs one test at a time there, with no perl start).  What was path_without "$D/bin" NAMES: the file's
# farm (setup_file).
mac_path() {
	printf '%s:%s:%s:%s' "$ROOT/tests/fakes/net" "$FAKEUNAME" "$FARM/mac${1:+-$1}" "$FARM/base"
}

# fake_uname_dir: FAKEUNAME, the folder of the fake uname (the file's,
# setup_file: no process a test)
fake_uname_dir() {
	FAKEUNAME="$FARM/fakeuname"
}

# lines_with VAR TEXT PATTERN: how many lines of TEXT match the glob
# PATTERN (grep -c, by the shell)
lines_with() {
	local _l _k=0
	while IFS= read -r _l; do
		[[ $_l != $3 ]] || _k=$((_k + 1))
	done <<<"$2"
	printf -v "$1" '%s' "$_k"
}

# nothing_left: the cache holds no file at all (folders may stay, empty).
nothing_left() {
	local left
	[ -d "$EXECLAG_CACHE" ] || return 0
	left=$(find "$EXECLAG_CACHE" -mindepth 1 ! -type d; find "$EXECLAG_CACHE" -mindepth 2 -type d)
	[ -z "$left" ] || fail "left behind: $left"
}

@test "the pinned jansson and bats-support are byte for byte Debian's orig tarballs, as the .dsc files say" {
	# (one awk for the pins and both .dsc files, one sha256sum for both
	# tarballs: each tarball's "PINNED DSC" a line, and "SUM FILE" a line,
	# read by the shell; were two awks and a sha256sum a tarball)
	local sums want got pinned dsc
	want=$(awk -v n1=jansson -v f1=jansson_2.14.orig.tar.gz \
		-v n2=bats-support -v f2=bats-support_0.3.0.orig.tar.gz '
		FNR == 1 { file++; on = 0 }
		file == 1 && $1 == n1 { p1 = p1 $4 }
		file == 1 && $1 == n2 { p2 = p2 $4 }
		file == 1 { next }
		/^Checksums-Sha256:/ { on = 1; next }
		/^[^ ]/ { on = 0 }
		on && file == 2 && $3 == f1 { d1 = d1 $1 }
		on && file == 3 && $3 == f2 { d2 = d2 $1 }
		END { print p1 " " d1; print p2 " " d2 }' \
		"$ROOT/scripts/tool/pins" "$ORIG/jansson_2.14-2.dsc" "$ORIG/bats-support_0.3.0-3.dsc")
	if command -v sha256sum >/dev/null 2>&1; then
		sums=$(sha256sum "$ORIG/jansson_2.14.orig.tar.gz" "$ORIG/bats-support_0.3.0.orig.tar.gz")
	else
		sums=$(shasum -a 256 "$ORIG/jansson_2.14.orig.tar.gz" "$ORIG/bats-support_0.3.0.orig.tar.gz")
	fi
	local i
	for i in 1 2; do
		got=${sums%%$'\n'*} sums=${sums#*$'\n'}
		got=${got%% *}
		pinned=${want%%$'\n'*} want=${want#*$'\n'}
		dsc=${pinned#* } pinned=${pinned%% *}
		assert_equal "$got" "$pinned"
		assert_equal "$dsc" "$pinned"
	done
}

@test "a Mac without Homebrew: the dependency step builds jansson 2.14 with cc alone, from the pinned URL" {
	fake_uname_dir
	serve "$JANSSON_URL" "$ORIG/jansson_2.14.orig.tar.gz"
	# cc, as for the other tests, is MEMO's: the build is compiled once, in
	# setup_file, by the same script
	FAKE_STATE="$D/state" PATH="$MEMO:$(mac_path)" run_both sh "$ROOT/scripts/tool/deps" run
	assert_success
	assert_output --partial "building jansson 2.14 from source into $EXECLAG_CACHE/jansson"
	local asked left n=0
	IFS= read -r asked <"$FAKE_CURL_DIR/asked"
	assert_equal "$asked" "$JANSSON_URL"
	[ -f "$EXECLAG_CACHE/jansson/lib/libjansson.a" ]
	nm "$EXECLAG_CACHE/jansson/lib/libjansson.a" | grep -q ' T json_loads$'
	grep -q '#define JSON_INTEGER_IS_LONG_LONG 1' "$EXECLAG_CACHE/jansson/include/jansson_config.h"
	# no temporary folder of the build or the download is left
	# (none found: find's output empty, was its wc -l 0)
	left=$(find "$EXECLAG_CACHE" -maxdepth 2 -name '.*' ! -name .execlag-unpacked)
	assert_equal "$left" ""
	# a second run finds it and downloads nothing
	FAKE_STATE="$D/state" PATH="$MEMO:$(mac_path)" run_both sh "$ROOT/scripts/tool/deps" run
	assert_success
	assert_output ""
	# (wc -l: the lines ended by a newline)
	while IFS= read -r asked; do n=$((n + 1)); done <"$FAKE_CURL_DIR/asked"
	assert_equal "$n" 1
}

@test "the kit built against that jansson, without pkg-config, links it statically and passes a quick run" {
	K="$D/kit"
	mkdir -p "$K"
	# the kit, with its files' times (-p), and of its own build (make test
	# builds it first; micro/bin/obj) the objects that do not include
	# jansson.h, current here as there: what is looked at is how jansson
	# is found, compiled against and linked, so the units that include it,
	# directly or through a header of the kit (a third), are compiled again
	# here, and the archive and programs made again; the others would be
	# the same bytes again (half of this test's CPU)
	cp -Rp "$ROOT/Makefile" "$ROOT"/*.mk "$ROOT/micro" "$ROOT/scripts" "$ROOT/cases" "$K/"
	find "$K/micro/bin" -maxdepth 1 -type f ! -name '.flags*' -exec rm -f {} +
	if [ -d "$K/micro/bin/obj" ]; then
		# each object whose .d (the kit's headers it included) names a file
		# of the kit that includes jansson.h, and that .d
		(cd "$K" && find micro/bin/obj -name '*.d' -exec awk -v jh=" $(grep -l '#include <jansson.h>' micro/*/*.[ch] | tr '\n' ' ')" '
			FNR == 1 { if (hit) print obj "\n" d; obj = $1; sub(/:$/, "", obj); d = FILENAME; hit = 0 }
			{ for (i = 1; i <= NF; i++) { w = $i; sub(/:$/, "", w); if (index(jh, " " w " ")) hit = 1 } }
			END { if (hit) print obj "\n" d }' {} + | xargs rm -f)
	fi
	# that jansson in the kit's cache: setup_file's build, by the same
	# script from the same source as the test above's (was: the kit's
	# scripts/tool/jansson run again here, its objects MEMO's copies of it)
	[ -f "$BATS_FILE_TMPDIR/cache/jansson/lib/libjansson.a" ] || fail "setup_file's build of jansson failed"
	mkdir "$K/.cache"
	cp -R "$BATS_FILE_TMPDIR/cache/jansson" "$K/.cache/"
	# the programs the quick run needs, through make, two of them linking
	# jansson (analyze, advise: the Makefile's one PROGLIBS line links every
	# program that reads JSON, compare, fbtext and aggregate alike), with an
	# archive of the units they use (LIBSRC, tests/test_helper/libsrc,
	# read off the kit's own build: where it cannot be read, all): the
	# units only other programs use (the gate's, measure's, feedback's)
	# would be compiled against it too, but link into nothing run here
	local libsrc
	libsrc=$(cd "$ROOT" && sh "$ROOT/tests/test_helper/libsrc" analyze advise mkfresh launch) || libsrc=""
	# (cc MEMO's: the compiles unoptimised, setup_file; make's CC and CFLAGS
	# as they were, so the objects kept are current)
	PATH="$MEMO:$PATH" run_both make -C "$K" -s PKG_CONFIG=/nonexistent/pkg-config ${libsrc:+LIBSRC="$libsrc"} \
		micro/bin/analyze micro/bin/advise micro/bin/mkfresh micro/bin/launch
	assert_success
	# compiled against the cache's jansson.h (the compiler's list of what
	# analyze's main included), linked with its libjansson.a
	grep -q '^ *\.cache/jansson/include/jansson\.h' "$K/micro/bin/obj/micro/prog/analyze.d" ||
		fail "analyze was not compiled against .cache/jansson/include: $(cat "$K/micro/bin/obj/micro/prog/analyze.d")"
	for p in analyze advise; do
		[ -x "$K/micro/bin/$p" ] || fail "$p was not built"
		if command -v readelf >/dev/null; then
			! readelf -d "$K/micro/bin/$p" | grep -q 'libjansson' || fail "$p is linked to a shared libjansson"
		fi
	done
	# a quick run on the seeded simulator: what it asks of that jansson
	# (run.json written and read back, the report) is a real run's; only
	# the launches are the model's
	mkdir -p "$D/tmp" "$D/results"
	TMPDIR="$D/tmp" RESULTS="$D/results" CASES=exe,script COUNT=8 THREADS=1 \
		LAUNCHER='sim:latency=20 workers=1 key=inode seed=7' run_both sh "$K/scripts/repro" --profile quick
	assert_success
	# (the one run's run.json: the glob, no ls)
	local js=("$D"/results/*/run.json)
	assert_equal "${#js[@]}" 1
	j=${js[0]}
	[ -f "$j" ]
	assert_equal "$(jq -r '[.cases[] | .name] | sort | unique | join(",")' "$j")" "exe,script"
	jq -e '[.cases[] | .verdict] | all(. == "none" or . == "inconclusive" or . == "slowdown")' "$j"
	grep -q '^## ' "${j%/*}/report.md"
}

@test "a corrupted download is refused in one line, exit 1, and leaves nothing behind" {
	fake_uname_dir
	cp "$ORIG/jansson_2.14.orig.tar.gz" "$D/bad.tar.gz"
	printf 'X' | dd of="$D/bad.tar.gz" bs=1 seek=5000 conv=notrunc 2>/dev/null
	serve "$JANSSON_URL" "$D/bad.tar.gz"
	FAKE_STATE="$D/state" PATH="$(mac_path)" run_sep sh "$ROOT/scripts/tool/deps" run
	assert_equal "$status" 1
	local k
	lines_with k "$stderr" '*not the pinned c739578bf6b764aa0752db9a2fdadcfe921c78f1228c7ec0bb47fa804c55d17b*'
	assert_equal "$k" 1
	[[ "$stderr" == *"deleted it"* ]]
	nothing_left
}

@test "no network: one line with the URL, the checksum and where to put the file; a file put there is used" {
	fake_uname_dir
	FAKE_STATE="$D/state" PATH="$(mac_path)" run_sep sh "$ROOT/scripts/tool/deps" run
	assert_equal "$status" 1
	# (the lines starting fetch:, by the shell: one)
	local l k=0 line=""
	while IFS= read -r l; do
		[[ $l != fetch:* ]] || { line=$l k=$((k + 1)); }
	done <<<"$stderr"
	assert_equal "$k" 1
	# curl's own message is not shown: that one line says what to do
	[[ "$stderr" != *"curl: ("* ]] || fail "curl's message shown: $stderr"
	[[ "$line" == *"$JANSSON_URL"* ]]
	[[ "$line" == *"c739578bf6b764aa0752db9a2fdadcfe921c78f1228c7ec0bb47fa804c55d17b"* ]]
	[[ "$line" == *"$EXECLAG_CACHE/dl/jansson-2.14.tar.gz"* ]]
	nothing_left
	# put there by hand: checked and used, no download
	mkdir -p "$EXECLAG_CACHE/dl"
	cp "$ORIG/jansson_2.14.orig.tar.gz" "$EXECLAG_CACHE/dl/jansson-2.14.tar.gz"
	rm -f "$FAKE_CURL_DIR/asked"
	FAKE_STATE="$D/state" PATH="$MEMO:$(mac_path)" run_both sh "$ROOT/scripts/tool/deps" run
	assert_success
	[ -f "$EXECLAG_CACHE/jansson/lib/libjansson.a" ]
	[ ! -e "$FAKE_CURL_DIR/asked" ]
}

@test "Linux, not root and no sudo: the same local jansson build, nothing to install by hand" {
	[ "$(uname -s)" = Linux ] || skip "a Linux case"
	serve "$JANSSON_URL" "$ORIG/jansson_2.14.orig.tar.gz"
	mkdir -p "$D/fakeid"
	printf '#!/bin/sh\ncase "$*" in -u) echo 1000 ;; *) exec %s "$@" ;; esac\n' "$(command -v id)" >"$D/fakeid/id"
	chmod +x "$D/fakeid/id"
	# (PATH without pkg-config, pkgconf and sudo: the file's farm)
	PATH="$MEMO:$ROOT/tests/fakes/net:$D/fakeid:$FARM/linux:$FARM/base" run_both sh "$ROOT/scripts/tool/deps" run
	assert_success
	assert_output --partial "building jansson 2.14 from source"
	[ -f "$EXECLAG_CACHE/jansson/lib/libjansson.a" ]
}

# fake_brew: a brew in $D/brew that only logs its arguments to $D/brew.log
fake_brew() {
	mkdir -p "$D/brew"
	printf '#!/bin/sh\necho "$*" >>"%s"\n' "$D/brew.log" >"$D/brew/brew"
	chmod +x "$D/brew/brew"
}

@test "with Homebrew present, brew is never run: it names what brew would give and builds jansson itself" {
	fake_uname_dir
	serve "$JANSSON_URL" "$ORIG/jansson_2.14.orig.tar.gz"
	fake_brew
	FAKE_STATE="$D/state" PATH="$MEMO:$D/brew:$(mac_path)" run_both sh "$ROOT/scripts/tool/deps" run
	assert_success
	# brew was not run at all (so never with install)
	[ ! -e "$D/brew.log" ] || fail "brew was called: $(cat "$D/brew.log")"
	assert_output --partial "Homebrew is here, but the kit installs nothing with it without asking; it would use: jansson."
	assert_output --partial "To use Homebrew's, run: brew install jansson (then run this again)"
	assert_output --partial "building jansson 2.14 from source"
	[ -f "$EXECLAG_CACHE/jansson/lib/libjansson.a" ]
}

@test "with Homebrew present, make test's step names the brew packages it would use and calls brew for none" {
	fake_uname_dir
	mkdir -p "$EXECLAG_CACHE/jansson/lib"
	: >"$EXECLAG_CACHE/jansson/lib/libjansson.a"
	fake_brew
	# the system's bats and jq stay; shellcheck and hyperfine are absent: brew would give them
	# (without brew, pkg-config, pkgconf, sudo, apt-get, shellcheck and
	# hyperfine: the file's farm; $D/bin before it holds the parallel of
	# each case below, where the farm's was)
	mkdir -p "$D/bin"
	local p="$D/brew:$ROOT/tests/fakes/net:$FAKEUNAME:$D/bin:$FARM/brew:$FARM/base"
	FAKE_STATE="$D/state" PATH="$p" run_both sh "$ROOT/scripts/tool/deps" test
	assert_success
	[ ! -e "$D/brew.log" ] || fail "brew was called: $(cat "$D/brew.log")"
	assert_output --regexp 'it would use:.* shellcheck.* hyperfine'
	assert_output --regexp 'run: brew install.* shellcheck.* hyperfine.*going on with what is here'
	refute_output --partial "installing with Homebrew"
	# GNU parallel is known by its own name in its script; moreutils'
	# parallel, another program, is not it: brew would give GNU's
	printf '#!/bin/sh\n# moreutils: run programs in parallel\nexit 0\n' >"$D/bin/parallel"
	chmod +x "$D/bin/parallel"
	FAKE_STATE="$D/state" PATH="$p" run_both sh "$ROOT/scripts/tool/deps" test
	assert_output --regexp 'it would use:.* parallel'
	printf '#!/usr/bin/perl\n# GNU parallel - build and execute shell command lines in parallel\n' >"$D/bin/parallel"
	FAKE_STATE="$D/state" PATH="$p" run_both sh "$ROOT/scripts/tool/deps" test
	refute_output --regexp 'it would use:.* parallel'
}

@test "a Mac without Homebrew or bats: make test unpacks bats, and scripts/tool/runtests runs with it" {
	command -v npm >/dev/null || skip "npm is missing: it gives this test a bats-core 1.10.0 to serve"
	[ -f /usr/lib/bats/bats-assert/load.bash ] || skip "Debian's bats-assert is missing: it gives this test a bats-assert to serve"
	# bats-support: Debian's copy of the pinned bytes.  bats-core 1.10.0 (npm's
	# package of the release) and bats-assert 2.1.0 (Debian's installed files)
	# are not to be had here as upstream's tarballs, so they are served under
	# pins of their own, in a pins file of the test's.
	local npmdir="$ROOT/.cache/npm-bats"
	if [ ! -f "$npmdir/bats-1.10.0.tgz" ]; then
		mkdir -p "$npmdir"
		(cd "$npmdir" && npm pack --silent bats@1.10.0 >/dev/null 2>&1) || skip "npm pack bats@1.10.0 failed"
	fi
	mkdir -p "$D/pack/core" "$D/pack/assert/bats-assert-2.1.0"
	tar -xzf "$npmdir/bats-1.10.0.tgz" -C "$D/pack/core"
	mv "$D/pack/core/package" "$D/pack/core/bats-core-1.10.0"
	(cd "$D/pack/core" && tar -czf "$D/core.tar.gz" bats-core-1.10.0)
	cp -R /usr/lib/bats/bats-assert/. "$D/pack/assert/bats-assert-2.1.0/"
	(cd "$D/pack/assert" && tar -czf "$D/assert.tar.gz" bats-assert-2.1.0)
	{
		grep -v -e '^bats-core ' -e '^bats-assert ' "$ROOT/scripts/tool/pins"
		sum256 s1 "$D/core.tar.gz"
		sum256 s2 "$D/assert.tar.gz"
		echo "bats-core 1.10.0 https://example.invalid/bats-core-1.10.0.tar.gz $s1"
		echo "bats-assert 2.1.0 https://example.invalid/bats-assert-2.1.0.tar.gz $s2"
	} >"$D/pins"
	serve https://example.invalid/bats-core-1.10.0.tar.gz "$D/core.tar.gz"
	serve https://example.invalid/bats-assert-2.1.0.tar.gz "$D/assert.tar.gz"
	serve https://github.com/bats-core/bats-support/archive/refs/tags/v0.3.0.tar.gz "$ORIG/bats-support_0.3.0.orig.tar.gz"
	# jansson there already (its build is the other tests'): bats is looked at
	mkdir -p "$EXECLAG_CACHE/jansson/lib" "$EXECLAG_CACHE/jansson/include"
	: >"$EXECLAG_CACHE/jansson/lib/libjansson.a"
	: >"$EXECLAG_CACHE/jansson/include/jansson.h"
	fake_uname_dir
	P="$MEMO:$(mac_path shellcheck)"
	# make check's step: bats and jq only, nothing said of the test tools
	EXECLAG_PINS="$D/pins" FAKE_STATE="$D/state" PATH="$P" run_both sh "$ROOT/scripts/tool/deps" check
	assert_success
	assert_output --partial "unpacking bats-core, bats-support and bats-assert into $EXECLAG_CACHE/bats"
	refute_output --partial "optional"
	# make test's step: the bats is there; the tools only Homebrew gives are optional
	EXECLAG_PINS="$D/pins" FAKE_STATE="$D/state" PATH="$P" run_both sh "$ROOT/scripts/tool/deps" test
	assert_success
	refute_output --partial "unpacking"
	assert_output --partial "optional, not installed: shellcheck"
	assert_output --partial "brew install shellcheck"
	[ -x "$EXECLAG_CACHE/bats/bin/bats" ]
	# a test that loads both libraries, run by scripts/tool/runtests with that bats
	# (printf, not a here-document: bats would take its @test lines as its own)
	printf '%s\n' 'load_libs() { bats_load_library bats-support; bats_load_library bats-assert; }' \
		"@test \"assert_output from the unpacked bats-assert\" { load_libs; run echo hi; assert_output hi; }" \
		"@test \"and it can fail\" { load_libs; run echo hi; run -1 assert_output nope; }" >"$D/t.bats"
	PATH="$P" BATS_LIB_PATH= run_both sh "$ROOT/scripts/tool/runtests" "$D/t.bats"
	assert_success
	assert_line "2 passed, 0 failed, 0 skipped"
}

@test "Debian, upstream unreachable: fetch takes Debian's copy of the same source, checked against the pin" {
	[ "$(uname -s)" = Linux ] && command -v apt-get >/dev/null || skip "needs Debian's apt-get"
	# Debian's copy as scripts/tool/debian-orig leaves it (setup_file's, the
	# same script's): fetched once, not by apt-get again (an update of the
	# archive's lists, seconds of CPU); what is looked at is fetch taking it
	mkdir -p "$EXECLAG_CACHE/debian-orig"
	cp "$ORIG"/jansson_2.14*.dsc "$ORIG/jansson_2.14.orig.tar.gz" "$EXECLAG_CACHE/debian-orig/"
	PATH="$ROOT/tests/fakes/net:$PATH" run_sep sh "$ROOT/scripts/tool/fetch" jansson
	assert_success
	assert_equal "$output" "$EXECLAG_CACHE/src/jansson-2.14"
	[[ "$stderr" == *"using Debian's copy of the same source (jansson_2.14.orig.tar.gz)"* ]]
	local got
	sum256 got "$EXECLAG_CACHE/dl/jansson-2.14.tar.gz"
	assert_equal "$got" c739578bf6b764aa0752db9a2fdadcfe921c78f1228c7ec0bb47fa804c55d17b
	[ -f "$EXECLAG_CACHE/src/jansson-2.14/src/jansson.h" ]
}

@test "a Mac without Homebrew or jq: make check's step asks for no jq, make test's builds it from its pin" {
	# make test's step builds jq with configure and make, and the tests find it
	# A stand-in for jq's release tarball under a pin of the test's: its
	# configure records how it was called and writes a Makefile that makes a
	# jq (this machine's, by its path).  What is checked: the kit's steps.
	local real src="$D/pack/jq-1.7.1"
	real=$(command -v jq) || skip "no jq here to stand in for the built one"
	mkdir -p "$src"
	printf '#!/bin/sh\nexec %s "$@"\n' "$real" >"$src/jq.in"
	printf '%s\n' '#!/bin/sh' \
		"printf '%s\\n' \"\$@\" >\"$D/configure.args\"" \
		'printf "jq:\n\tcp %s/jq.in jq && chmod +x jq\n" "$(cd "$(dirname "$0")" && pwd)" >Makefile' \
		>"$src/configure"
	chmod +x "$src/configure"
	(cd "$D/pack" && tar -czf "$D/jq.tar.gz" jq-1.7.1)
	{
		grep -v '^jq ' "$ROOT/scripts/tool/pins"
		sum256 s1 "$D/jq.tar.gz"
		echo "jq 1.7.1 https://example.invalid/jq-1.7.1.tar.gz $s1"
	} >"$D/pins"
	serve https://example.invalid/jq-1.7.1.tar.gz "$D/jq.tar.gz"
	# jansson there already; bats the system's; no brew, no jq
	mkdir -p "$EXECLAG_CACHE/jansson/lib" "$EXECLAG_CACHE/jansson/include"
	: >"$EXECLAG_CACHE/jansson/lib/libjansson.a"
	: >"$EXECLAG_CACHE/jansson/include/jansson.h"
	fake_uname_dir
	# (PATH without bats' libexec folder, brew, pkg-config, pkgconf, sudo,
	# apt-get, jq and shellcheck: the file's farm; and without GNU parallel,
	# which only Homebrew gives a Mac: scripts/tool/runtests runs one test at
	# a time there, with no perl start)
	P="$ROOT/tests/fakes/net:$FAKEUNAME:$FARM/jq:$FARM/base"
	EXECLAG_PINS="$D/pins" FAKE_STATE="$D/state" PATH="$P" run_both sh "$ROOT/scripts/tool/deps" check
	assert_success
	refute_output --partial jq
	[ ! -e "$D/configure.args" ]
	EXECLAG_PINS="$D/pins" FAKE_STATE="$D/state" PATH="$P" run_both sh "$ROOT/scripts/tool/deps" test
	assert_success
	assert_output --partial "building jq from source into $EXECLAG_CACHE/jq"
	run_both -0 cat "$D/configure.args"
	assert_line --regexp '^--disable-shared$'
	assert_line --regexp '^--with-oniguruma=builtin$'
	assert_line --regexp '^--disable-docs$'
	[ -x "$EXECLAG_CACHE/jq/bin/jq" ]
	! find "$EXECLAG_CACHE" -name '.jq-build.*' | grep -q . || fail "a jq build folder was left in the cache"
	# the second time: nothing to do
	EXECLAG_PINS="$D/pins" FAKE_STATE="$D/state" PATH="$P" run_both sh "$ROOT/scripts/tool/deps" test
	assert_success
	refute_output --partial "building jq"
	# scripts/tool/runtests puts the cache's jq on PATH for the tests
	printf '%s\n' "@test \"jq reads JSON\" { [ \"\$(echo '{\"a\":7}' | jq -r .a)\" = 7 ]; }" >"$D/t.bats"
	PATH="$P" run_both sh "$ROOT/scripts/tool/runtests" "$D/t.bats"
	assert_success
	assert_line "1 passed, 0 failed, 0 skipped"
}

@test "deps live (make test-live's set-up): autotools, Debian's cargo, rustc, crates; ClamAV under CI alone" {
	[ "$(uname -s)" = Linux ] || skip "a Linux case"
	serve "$JANSSON_URL" "$ORIG/jansson_2.14.orig.tar.gz"
	mkdir -p "$D/fakeid" "$D/apt" "$D/sysroot"
	printf '#!/bin/sh\ncase "$*" in -u) echo 0 ;; *) exec %s "$@" ;; esac\n' "$(command -v id)" >"$D/fakeid/id"
	printf '#!/bin/sh\necho "$*" >>"%s"\n' "$D/apt.log" >"$D/apt/apt-get"
	chmod +x "$D/fakeid/id" "$D/apt/apt-get"
	# (PATH without apt-get, sudo, autoreconf, automake and libtoolize: the file's farm)
	P="$ROOT/tests/fakes/net:$D/fakeid:$D/apt:$FARM/live:$FARM/base"
	# none of them there (an empty system root), not under CI
	CI= EXECLAG_SYSROOT="$D/sysroot" PATH="$P" run_both sh "$ROOT/scripts/tool/deps" live
	assert_success
	assert_output --partial "installing make test-live's real tools with apt-get: autoconf automake libtool cargo rustc librust-tempfile-dev librust-doc-comment-dev"
	# (no line of the log holds clamav, was grep -c's 0: the log read by the shell)
	local log=""
	[ -f "$D/apt.log" ] || fail "apt-get was not run"
	IFS= read -r -d '' log <"$D/apt.log" || :
	[[ $log != *clamav* ]] || fail "clamav installed, not under CI: $log"
	grep -qx 'install -y -qq autoconf automake libtool cargo rustc librust-tempfile-dev librust-doc-comment-dev' "$D/apt.log"
	[ -f "$EXECLAG_CACHE/src/jansson-2.14/.execlag-unpacked" ]
	# under CI a real scanner too
	: >"$D/apt.log"
	CI=true EXECLAG_SYSROOT="$D/sysroot" PATH="$P" run_both sh "$ROOT/scripts/tool/deps" live
	assert_success
	grep -q ' librust-doc-comment-dev clamav-daemon clamav clamdscan$' "$D/apt.log"
	# all there: nothing to install
	mkdir -p "$D/sysroot/usr/bin" "$D/sysroot/usr/sbin" "$D/sysroot/usr/share/cargo/registry/tempfile-3.3.0" \
		"$D/sysroot/usr/share/cargo/registry/doc-comment-0.3.3" "$D/tools"
	# (one chmod for them all)
	local made=()
	for t in sysroot/usr/bin/cargo sysroot/usr/bin/rustc sysroot/usr/bin/rustdoc sysroot/usr/sbin/clamonacc \
		tools/autoreconf tools/automake tools/libtoolize; do
		printf '#!/bin/sh\n' >"$D/$t"
		made+=("$D/$t")
	done
	chmod +x "${made[@]}"
	: >"$D/apt.log"
	CI=true EXECLAG_SYSROOT="$D/sysroot" PATH="$P:$D/tools" run_both sh "$ROOT/scripts/tool/deps" live
	assert_success
	refute_output --partial "real tools"
	# (was grep -c 'librust\|autoconf\|clamav': 0, the log read by the shell)
	IFS= read -r -d '' log <"$D/apt.log" || :
	[[ $log != *librust* ]] || fail "apt-get asked for: $log"
	[[ $log != *autoconf* ]] || fail "apt-get asked for: $log"
	[[ $log != *clamav* ]] || fail "apt-get asked for: $log"
}
