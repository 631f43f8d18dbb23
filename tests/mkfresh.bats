#!/usr/bin/env bats
# micro/mkfresh: fresh artifacts, the manifest contract (docs/formats.md),
# refusal of bad input, and cleanup on failure and on interrupt.

# bats file_tags=heavy
load test_helper/common-setup
load test_helper/mkfresh
# run_both and run_sep: bats' run and run --separate-stderr, cheaper
load test_helper/quickrun

# The file's compiled runs that several tests read (made once: a compile
# is the cost here): exe 6 (--jobs 3), dylib 5 (--jobs 2), and exe and
# dylib 2 padded 64k, each in $BATS_FILE_TMPDIR/NAME with NAME.manifest;
# each must succeed, saying nothing on stderr.  The tests only read them.
setup_file() {
	local F="$BATS_FILE_TMPDIR" bin="$BATS_TEST_DIRNAME/../micro/bin/mkfresh" name
	make -C "$BATS_TEST_DIRNAME/.." -s micro/bin/mkfresh >/dev/null
	unset EXECLAG_TEMPLATES
	for name in exe dylib exe-s64k dylib-s64k; do
		mkdir "$F/$name"
		case $name in
		exe) set -- --kind exe --count 6 --jobs 3 ;;
		dylib) set -- --kind dylib --count 5 --jobs 2 ;;
		*) set -- --kind "${name%-s64k}" --count 2 --size 64k ;;
		esac
		"$bin" "$@" --dir "$F/$name" --prefix p --manifest "$F/$name.manifest" 2>"$F/$name.err" ||
			{ cat "$F/$name.err" >&3; return 1; }
		[ ! -s "$F/$name.err" ] || { cat "$F/$name.err" >&3; return 1; }
	done
}

# shared NAME: W and M, the file's run NAME (setup_file): read, never changed
shared() {
	W="$BATS_FILE_TMPDIR/$1"
	M="$BATS_FILE_TMPDIR/$1.manifest"
}

setup() {
	mkfresh_setup
}

# ---- helpers ----

# The checks of a run are tests/test_helper/mkfresh-check's (chk), in one
# sh: what each asserts is said there.
# check_manifest KIND N [CASE]: the manifest has exactly the documented shape
check_manifest() { chk "manifest=$1:$2${3:+:$3}"; }
# Every artifact's object has its own bytes.
check_all_differ() { chk differ; }
# The nonce of artifact i is inside its object, and no two objects carry
# the same nonce.
check_nonces() { chk nonces; }
# Run every artifact's ARGV; each must exit with status $1 (default 0).
check_runs() { chk "runs=${1:-0}"; }

# What WORKDIR holds, one name a line, sorted.
contents() { (cd "$W" && ls -A | LC_ALL=C sort); }

# host_prints_nonce I EXT: the dylib's host, given library p-I, prints what
# the library returns: that library's own nonce
host_prints_nonce() {
	local lib
	lib="$W/p-$(printf %04d "$1")$2"
	run_both -0 "$W/p-host" "$lib"
	assert_output "$(grep -a -o "execlag:p-$(printf %04d "$1"):[0-9:]*" "$lib" | head -n 1)"
}

names() { # names EXT N: p-0000EXT ... p-(N-1)EXT
	local i
	for ((i = 0; i < $2; i++)); do printf 'p-%04d%s\n' "$i" "$1"; done
}

# For bad input: exit 2, one line on stderr ("mkfresh: ..."), nothing on
# stdout, no manifest, WORKDIR untouched (mkfresh-check's refused).
expect_usage_error() { chk refused "$BIN/mkfresh" "$@"; }
# expect_usage_error_saying LINE ARGS...: that, and the line is LINE
expect_usage_error_saying() {
	local line=$1
	shift
	chk refused "says=$line" "$BIN/mkfresh" "$@"
}
# refuse ARGS... and refuse_saying LINE ARGS...: expect_usage_error's and
# expect_usage_error_saying's checks, queued; refused_all makes them all in
# one sh (mkfresh-check's refused=K each), every failure said
REFUSE=()
refuse() { REFUSE+=("refused=$(($# + 1))" "$BIN/mkfresh" "$@"); }
refuse_saying() {
	local line=$1
	shift
	REFUSE+=("refused=$(($# + 2))" "says=$line" "$BIN/mkfresh" "$@")
}
refused_all() {
	chk "${REFUSE[@]}"
	REFUSE=()
}

# ---- the kinds ----

@test "script: N executable scripts with distinct bytes, exact manifest, each exits 0" {
	local first
	mk script 7
	chk manifest=script:7 names=.sh:7 differ nonces runs=0
	IFS= read -r first <"$W/p-0003.sh"
	assert_equal "$first" '#!/bin/sh'
	[ -x "$W/p-0003.sh" ]
}

@test "script-via-sh: argv is /bin/sh OBJECT; runs exit 0" {
	mk script-via-sh 4
	chk manifest=script-via-sh:4 differ runs=0
}

@test "exe: distinct binaries, nonce inside each, nothing else left, each exits 0" {
	shared exe
	chk manifest=exe:6 names=:6 differ nonces runs=0
}

@test "exe: --case names the case, and WORKDIR is written resolved" {
	ln -s "$W" "$BATS_TEST_TMPDIR/link"
	run_sep "$BIN/mkfresh" --kind exe --count 2 --case my-exe \
		--dir "$BATS_TEST_TMPDIR/link/" --prefix p --manifest "$M"
	assert_success
	check_manifest exe 2 my-exe
}

@test "dylib: distinct libraries with their nonce; the host loads each" {
	shared dylib
	ext=$(awk -F'\t' '$1 == "artifact" { print $3; exit }' "$M")
	ext=.${ext##*.}
	case $(uname -s) in
	Darwin) assert_equal "$ext" .dylib ;;
	*) assert_equal "$ext" .so ;;
	esac
	chk manifest=dylib:5 "names=$ext:5:p-host" differ nonces runs=0
	# the host prints what the library returns: that library's own nonce
	host_prints_nonce 2 "$ext"
	# a library that cannot be loaded: exit 3, dlerror on stderr
	run_sep "$W/p-host" "$W/nonexistent$ext"
	assert_equal "$status" 3
	[ -n "$stderr" ]
}

@test "exe-hardlink: every artifact is the base's inode" {
	mk exe-hardlink 5
	# (inodes=: the base and the 5: one inode)
	chk manifest=exe-hardlink:5 names=:5:p-base runs=0 inodes=1:p-base
}

@test "exe-copy: same bytes as the base, every artifact a new inode" {
	mk exe-copy 5
	# (onecontent=, inodes=: the base and the 5: one content, six inodes)
	chk manifest=exe-copy:5 names=:5:p-base runs=0 "onecontent=$W/p-base" inodes=6:p-base
}

@test "exe-rewrite: each slot is a new inode with the base's bytes, none of them the base's" {
	mk exe-rewrite 4
	# (onecontent=, inodes=: the base and the 4: one content, five inodes)
	chk manifest=exe-rewrite:4 names=:4:p-base runs=0 "onecontent=$W/p-base" inodes=5:p-base
}

@test "exe-copy, exe-hardlink: the base was launched before the artifacts were made from it" {
	make_logging_cc
	for kind in exe-copy exe-hardlink; do
		rm -rf "$W" "$M" && mkdir "$W" && : >"$EXECLAG_TEST_LOG"
		mk "$kind" 3 --cc "$FAKECC"
		# launched exactly once, the base itself
		assert_equal "$(cat "$EXECLAG_TEST_LOG")" "$(inode "$W/p-base") $(cd "$W" && pwd -P)/p-base"
		launched=$(awk '{ print $1 }' "$EXECLAG_TEST_LOG")
		# the hard links all the launched inode; the copies none of them
		if [ "$kind" = exe-hardlink ]; then
			assert_equal "$(ls -i $(objects) | awk -v l="$launched" '$1 != l { print $2 }')" ""
		else
			assert_equal "$(ls -i $(objects) | awk -v l="$launched" '$1 == l { print $2 " is the launched inode" }')" ""
		fi
	done
}

@test "exe-rewrite: the base, then each slot as a link to it, is launched; then each slot is a new inode" {
	make_logging_cc
	mk exe-rewrite 4 --cc "$FAKECC"
	base=$(inode "$W/p-base")
	# the base first, then one launch per slot at its path, of the base's
	# inode (known to an inode or content key: no check while making)
	assert_equal "$(awk '{ print $2 }' "$EXECLAG_TEST_LOG")" "$(cd "$W" && pwd -P)/p-base"$'\n'"$(objects)"
	assert_equal "$(awk '{ print $1 }' "$EXECLAG_TEST_LOG" | sort -u)" "$base"
	# no slot is still the launched inode; each has the base's bytes
	assert_equal "$(ls -i $(objects) | awk -v b="$base" '$1 == b { print $2 " still is the launched inode" }')" ""
	chk "onecontent=$W/p-base"
}

@test "--first: a second run makes the next artifacts beside the first ones; the manifest lists all" {
	# the first run of exe and dylib: a copy of the file's (setup_file: 6
	# and 5 artifacts, compiled), as mkfresh finds a WORKDIR a run left
	# (it reads no manifest: what is there is the first run's); of
	# script-via-sh, made here (no compile)
	local kind n
	for kind in exe script-via-sh dylib; do
		rm -rf "$W" "$M" && mkdir "$W"
		case $kind in
		script-via-sh) n=3; mk "$kind" 3 --jobs 2 ;;
		exe) n=6; cp -Rp "$BATS_FILE_TMPDIR/exe/." "$W/" ;;
		dylib) n=5; cp -Rp "$BATS_FILE_TMPDIR/dylib/." "$W/" ;;
		esac
		before=$(cd "$W" && sha p-000*)
		host=""
		[ "$kind" != dylib ] || host=$(inode "$W/p-host")
		mk "$kind" 2 --jobs 2 --first "$n"
		# the first ones untouched, the new ones with bytes and a nonce
		# of their own, the host the one made first
		assert_equal "$(sha $(objects) | head -n "$n")" "$before"
		chk "manifest=$kind:$((n + 2))" differ nonces runs=0
		[ -z "$host" ] || assert_equal "$(inode "$W/p-host")" "$host"
	done
	# the base or host of the first run is used as it is: not made again,
	# not launched again (exe-rewrite launches each new slot, a link to it)
	make_logging_cc
	for kind in exe-hardlink exe-rewrite dylib; do
		rm -rf "$W" "$M" && mkdir "$W" && : >"$EXECLAG_TEST_LOG"
		mk "$kind" 3 --cc "$FAKECC"
		if [ "$kind" = dylib ]; then base=$(inode "$W/p-host"); else base=$(inode "$W/p-base"); fi
		: >"$EXECLAG_TEST_LOG"
		mk "$kind" 2 --cc "$FAKECC" --first 3
		chk "manifest=$kind:5"
		case $kind in
		exe-rewrite)
			assert_equal "$(awk '{ print $1 }' "$EXECLAG_TEST_LOG" | sort -u)" "$base"
			assert_equal "$(awk '{ print $2 }' "$EXECLAG_TEST_LOG")" "$(objects | sed -n '4,$p')" ;;
		exe-hardlink)
			assert_equal "$(cat "$EXECLAG_TEST_LOG")" ""
			assert_equal "$(inode "$W/p-0004")" "$base" ;;
		dylib)
			assert_equal "$(cat "$EXECLAG_TEST_LOG")" ""
			assert_equal "$(inode "$W/p-host")" "$base" ;;
		esac
	done
}

@test "--first: refused without the first run's base or host, past the last slot, or over an artifact" {
	run_sep "$BIN/mkfresh" --kind exe-copy --count 2 --first 3 --dir "$W" \
		--prefix p --manifest "$M"
	assert_equal "$status" 2
	[[ "$stderr" == "mkfresh: --first 3: no "*"/p-base: the run that made artifact 0 makes it"* ]] || fail "$stderr"
	[ ! -e "$M" ] && assert_equal "$(contents)" ""
	run_sep "$BIN/mkfresh" --kind dylib --count 2 --first 3 --dir "$W" \
		--prefix p --manifest "$M"
	assert_equal "$status" 2
	[[ "$stderr" == *"/p-host: the run that made artifact 0 makes it"* ]] || fail "$stderr"
	for bad in -1 x 99999; do
		run_sep "$BIN/mkfresh" --kind script --count 2 --first "$bad" --dir "$W" \
			--prefix p --manifest "$M"
		assert_equal "$status" 2
		assert_equal "$stderr" "mkfresh: --first: '$bad' is not a whole number in 0..99998 (with --count 2)"
	done
	# the slots from --first on must be new: an artifact in the way is kept,
	# and the manifest of the run before stays as it was
	mk script 4
	cp "$M" "$BATS_TEST_TMPDIR/m4"
	run_sep "$BIN/mkfresh" --kind script --count 2 --first 3 --dir "$W" \
		--prefix p --manifest "$M"
	assert_equal "$status" 1
	cmp "$M" "$BATS_TEST_TMPDIR/m4"
	assert_equal "$(contents)" "$(names .sh 4)"
}

@test "system-copy: byte copies of echo, each exits 0" {
	mk system-copy 3
	echo_bin=/bin/echo
	[ -x "$echo_bin" ] || echo_bin=/usr/bin/echo
	# (onecontent=: echo and the 3: one content)
	chk manifest=system-copy:3 names=:3 runs=0 "onecontent=$echo_bin"
}

@test "quarantined: refused off macOS" {
	[ "$(uname -s)" != Darwin ] || skip "macOS makes this case"
	expect_usage_error_saying "mkfresh: quarantined is a macOS-only case" \
		--kind quarantined --count 2 --dir "$W" --prefix p --manifest "$M"
}

# ---- payloads ----

# ---- padding (--size) ----

@test "--size: every exe carries its own random bytes, and still runs" {
	mk exe 3 --size 1m
	# the padding's source is gone with the compiler's input (names)
	chk manifest=exe:3 pad=1048576 differ nonces runs=0 names=:3
	# not only the nonce differs: nearly every byte of the padding does
	diff=$(cmp -l "$W/p-0000" "$W/p-0001" | wc -l)
	[ "$diff" -gt 1000000 ] || fail "only $diff bytes differ"
}

@test "--size: the dylib's libraries are padded, the host is not; copies keep the base's bytes" {
	shared dylib-s64k
	chk manifest=dylib:2 pad=65536 runs=0
	[ "$(wc -c <"$W/p-host")" -lt 65536 ] || fail "the host was padded"
	W="$BATS_TEST_TMPDIR/work" M="$BATS_TEST_TMPDIR/out.manifest"
	mk exe-copy 2 --size 16k
	# (onecontent=: p-0000, and the other copy too, the base's bytes)
	chk manifest=exe-copy:2 pad=16384 runs=0 "onecontent=$W/p-base"
	# 0 is no padding: no pad line
	rm -rf "$W" "$M" && mkdir "$W"
	mk exe 1 --size 0
	check_manifest exe 1
}

@test "--size: a work folder whose name holds quotes, a backslash and a space" {
	W="$BATS_TEST_TMPDIR/a\"b\\c d'e"
	mkdir -p "$W"
	mk exe 1 --size 4k
	chk manifest=exe:1 pad=4096 runs=0
}

@test "--size: refused for scripts and system-copy, and when no size from 0 to 64m" {
	for kind in script script-via-sh system-copy; do
		refuse --kind "$kind" --count 1 --dir "$W" --prefix p --manifest "$M" --size 1m
	done
	for z in 65m 1g -1 abc 1.5m "" k 99999999999; do
		refuse --kind exe --count 1 --dir "$W" --prefix p --manifest "$M" --size "$z"
	done
	refused_all
}

# ---- --simulated: one compile, for a run that launches nothing ----

# make_counting_cc: $COUNTCC is cc that first writes a line to $CC_LOG.
make_counting_cc() {
	CC_LOG="$BATS_TEST_TMPDIR/cc.log"
	COUNTCC="$BATS_TEST_TMPDIR/counting-cc"
	: >"$CC_LOG"
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec cc "$@"\n' "$CC_LOG" >"$COUNTCC"
	chmod 755 "$COUNTCC"
}

# (mkfresh-check's near A B: the files' sizes differ by at most 64 bytes (a
# nonce of another length; the simulated ones are as long as their longest))

# each artifact its own nonce and padding, the size of its own build, and it
# runs.  On macOS each is compiled (a signed program whose bytes change is
# killed at its launch there).
@test "--simulated: exe and dylib from one compile each, each artifact its own, of its own size" {
	make_counting_cc
	local kind size ext want own
	for kind in exe dylib; do
		for size in 0 64k; do
			rm -rf "$W" "$M" && mkdir "$W" && : >"$CC_LOG"
			mk "$kind" 5 --size "$size" --cc "$COUNTCC" --simulated
			# one compile: the template (and the dylib's host); on macOS each
			want=1
			[ "$(uname -s)" != Darwin ] || want=5
			[ "$kind" != dylib ] || want=$((want + 1))
			assert_equal "$(grep -c . "$CC_LOG")" "$want"
			ext="" more=""
			[ "$kind" != dylib ] || ext=$(awk -F'\t' '$1 == "artifact" { print $3; exit }' "$M") ext=.${ext##*.} more=:p-host
			pad=""
			[ "$size" = 0 ] || pad=pad=65536
			# (near: artifacts of the same names' length, compiled each (the
			# file's runs of the kind and size): the same size)
			own="$BATS_FILE_TMPDIR/$kind"
			[ "$size" = 0 ] || own="$own-s$size"
			chk "manifest=$kind:5" ${pad:+"$pad"} "names=$ext:5$more" differ nonces runs=0 \
				near "$W/p-0000$ext" "$own/p-0000$ext" near "$W/p-0004$ext" "$own/p-0001$ext"
			[ "$size" = 0 ] || [ "$(cmp -l "$W/p-0000$ext" "$W/p-0001$ext" | wc -l)" -gt 60000 ] ||
				fail "$kind: the padding is the same in two artifacts"
		done
	done
	# the dylib's host prints the library's own nonce
	host_prints_nonce 3 "$ext"
	# payloads are the template's too
	rm -rf "$W" "$M" && mkdir "$W"
	mk exe 2 --payload kill --simulated
	check_runs $((128 + 9))
	# --first: the next ones, from a template of their own
	mk exe 2 --first 2 --simulated
	chk manifest=exe:4 nonces
}

@test "--simulated: nothing launched while making; a template without the nonce: each compiled" {
	make_logging_cc
	local kind
	for kind in exe-copy exe-hardlink exe-rewrite dylib exe; do
		rm -rf "$W" "$M" && mkdir "$W" && : >"$EXECLAG_TEST_LOG"
		mk "$kind" 3 --cc "$FAKECC" --simulated
		assert_equal "$(cat "$EXECLAG_TEST_LOG")" ""
	done
	# the logging compiler's programs hold no nonce: each artifact is
	# compiled then (3 and the template; on macOS the 3), and still its own
	make_counting_cc
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$CC_LOG" "$FAKECC" >"$COUNTCC"
	rm -rf "$W" "$M" && mkdir "$W"
	mk exe 3 --cc "$COUNTCC" --simulated
	assert_equal "$(grep -c . "$CC_LOG")" "$([ "$(uname -s)" = Darwin ] && echo 3 || echo 4)"
	chk manifest=exe:3 names=:3
}

# EXECLAG_TEMPLATES: the templates a maker compiled serve the next makers
# of the same shape, who compile nothing; each artifact still its own
@test "--simulated with EXECLAG_TEMPLATES: the next maker compiles nothing; a bad entry is compiled" {
	[ "$(uname -s)" != Darwin ] || skip "on macOS each simulated artifact is compiled (signed programs)"
	make_counting_cc
	export EXECLAG_TEMPLATES="$BATS_TEST_TMPDIR/templates"
	local kind want ext
	for kind in exe dylib exe-copy; do
		: >"$CC_LOG"
		rm -rf "$W" "$M" && mkdir "$W"
		mk "$kind" 3 --cc "$COUNTCC" --simulated
		# the first: the template (the dylib's host and library each one;
		# exe-copy's base is an exe like the first kind's: none)
		case $kind in exe) want=1 ;; dylib) want=2 ;; exe-copy) want=0 ;; esac
		assert_equal "$(grep -c . "$CC_LOG")" "$want"
		cp "$(objects | sed -n 1p)" "$BATS_TEST_TMPDIR/first"
		rm -rf "$W" "$M" && mkdir "$W"
		mk "$kind" 3 --cc "$COUNTCC" --simulated
		assert_equal "$(grep -c . "$CC_LOG")" "$want"
		# (near0: artifact 0 as long as the first maker's)
		if [ "$kind" = exe-copy ]; then
			chk "manifest=$kind:3" runs=0 near0 "$BATS_TEST_TMPDIR/first"
		else
			chk "manifest=$kind:3" differ nonces runs=0 near0 "$BATS_TEST_TMPDIR/first"
		fi
	done
	# the dylib's host (from its template) prints the library's own nonce
	rm -rf "$W" "$M" && mkdir "$W"
	mk dylib 2 --cc "$COUNTCC" --simulated
	ext=$(objects | sed -n 1p) ext=.${ext##*.}
	host_prints_nonce 1 "$ext"
	# an entry cut short is not used: compiled again, and kept whole again
	for f in "$EXECLAG_TEMPLATES"/*.tmpl; do head -c 100 "$f" >"$f.cut" && mv "$f.cut" "$f"; done
	: >"$CC_LOG"
	rm -rf "$W" "$M" && mkdir "$W"
	mk exe 3 --cc "$COUNTCC" --simulated
	assert_equal "$(grep -c . "$CC_LOG")" 1
	chk nonces runs=0
	# a folder that cannot be made: each maker compiles its own, and works
	export EXECLAG_TEMPLATES="$BATS_TEST_TMPDIR/none/templates"
	: >"$BATS_TEST_TMPDIR/none"
	: >"$CC_LOG"
	rm -rf "$W" "$M" && mkdir "$W"
	mk exe 3 --cc "$COUNTCC" --simulated
	assert_equal "$(grep -c . "$CC_LOG")" 1
	check_manifest exe 3
}

# build_ids: the GNU build ID of each artifact's object, one a line (none
# where readelf is missing or the object has none)
build_ids() {
	command -v readelf >/dev/null 2>&1 || return 0
	# one readelf for them all
	# shellcheck disable=SC2046 # the objects: paths without blanks
	readelf -n $(objects) 2>/dev/null | sed -n 's/^ *Build ID: //p'
}

# --template: a real run's (make doctor's probe on Linux) compiled units
# from one compile, the template kept in EXECLAG_TEMPLATES for the calls
# with --first, each artifact a new file of its own bytes that runs.  On
# macOS each is compiled (a signed program whose bytes change is killed at
# its launch).
@test "--template: one compile for all looks; each artifact its own nonce, padding and build ID" {
	make_counting_cc
	local kind size ext mac=0 want ids
	[ "$(uname -s)" != Darwin ] || mac=1
	for kind in exe dylib; do
		for size in 0 64k; do
			# a run's own folder of templates (scripts/repro's scratch)
			export EXECLAG_TEMPLATES="$BATS_TEST_TMPDIR/templates-$kind-$size"
			rm -rf "$W" "$M" && mkdir "$W" && : >"$CC_LOG"
			mk "$kind" 4 --size "$size" --cc "$COUNTCC" --template
			ext=""
			[ "$kind" != dylib ] || ext=$(awk -F'\t' '$1 == "artifact" { print $3; exit }' "$M") ext=.${ext##*.}
			# the next looks' artifacts, as launch asks for them
			mk "$kind" 2 --size "$size" --cc "$COUNTCC" --template --first 4
			mk "$kind" 2 --size "$size" --cc "$COUNTCC" --template --first 6
			# one compile (and the dylib's host); on macOS each of the 8
			want=1
			[ "$mac" = 0 ] || want=8
			[ "$kind" != dylib ] || want=$((want + 1))
			assert_equal "$(grep -c . "$CC_LOG")" "$want"
			# the work folder holds the artifacts (and the host), nothing else
			more=""
			[ "$kind" != dylib ] || more=:p-host
			pad=""
			[ "$size" = 0 ] || pad=pad=65536
			chk "manifest=$kind:8" ${pad:+"$pad"} "names=$ext:8$more" differ nonces runs=0
			# no two share a build ID (a link of their own gives each its own)
			ids=$(build_ids)
			[ -z "$ids" ] || assert_equal "$(printf '%s\n' "$ids" | sort -u | grep -c .)" 8
			[ "$size" = 0 ] || [ "$(cmp -l "$W/p-0000$ext" "$W/p-0007$ext" | wc -l)" -gt 60000 ] ||
				fail "$kind: the padding is the same in two artifacts"
		done
	done
	host_prints_nonce 6 "$ext"
	# a call with --first and no template kept compiles one of its own
	export EXECLAG_TEMPLATES="$BATS_TEST_TMPDIR/templates-none"
	: >"$CC_LOG"
	mk dylib 2 --cc "$COUNTCC" --template --first 8
	assert_equal "$(grep -c . "$CC_LOG")" "$([ "$mac" = 1 ] && echo 2 || echo 1)"
	chk manifest=dylib:10 nonces
}

@test "--template: a failed call removes what it made, and nothing made before it" {
	[ "$(uname -s)" != Darwin ] || skip "on macOS each artifact is compiled: no template"
	export EXECLAG_TEMPLATES="$BATS_TEST_TMPDIR/templates"
	# artifact 2 is there already: refused after the template is made
	: >"$W/p-0002"
	run_sep "$BIN/mkfresh" --kind exe --count 3 --dir "$W" --prefix p --manifest "$M" --template
	assert_failure 1
	[[ "$stderr" == *"p-0002 already exists"* ]] || fail "$stderr"
	assert_equal "$(contents)" "p-0002"
	[ ! -e "$M" ]
	# a later look's call that fails leaves the earlier artifacts
	rm "$W/p-0002"
	mk exe 2 --template
	: >"$W/p-0003"
	run_sep "$BIN/mkfresh" --kind exe --count 2 --first 2 --dir "$W" --prefix p --manifest "$M" --template
	assert_failure 1
	assert_equal "$(contents)" "$(printf 'p-0000\np-0001\np-0003')"
	check_manifest exe 2
}

@test "payload kill: script, script-via-sh and exe artifacts die by SIGKILL" {
	# (one exe: each is a compile, and what is looked at is each one's end)
	local kind n
	for kind in script script-via-sh exe; do
		rm -rf "$W" "$M" && mkdir "$W"
		n=2
		[ "$kind" != exe ] || n=1
		mk "$kind" "$n" --payload kill
		chk runs=137
	done
}

@test "payload fail: script and exe artifacts exit 3" {
	# (one exe: each is a compile, and what is looked at is each one's end)
	local kind n
	for kind in script exe; do
		rm -rf "$W" "$M" && mkdir "$W"
		n=2
		[ "$kind" != exe ] || n=1
		mk "$kind" "$n" --payload fail
		chk runs=3
	done
}

@test "payload kill|fail is refused for the other kinds" {
	for kind in exe-copy exe-hardlink exe-rewrite system-copy dylib; do
		refuse --kind "$kind" --count 2 --dir "$W" --prefix p --manifest "$M" --payload kill
	done
	refuse --kind exe --count 2 --dir "$W" --prefix p --manifest "$M" --payload maybe
	refused_all
}

# ---- bad input: exit 2, one line, nothing made ----

@test "count 0, -1, abc, 1e9, 100001, empty: refused" {
	for n in 0 -1 abc 1e9 100001 ""; do
		refuse --kind exe --count "$n" --dir "$W" --prefix p --manifest "$M"
	done
	refused_all
}

@test "unknown kind, unknown option, missing options: refused" {
	refuse --kind exe-teleport --count 2 --dir "$W" --prefix p --manifest "$M"
	refuse_saying "mkfresh: unknown option '--fast' (try --help)" \
		--kind exe --count 2 --dir "$W" --prefix p --manifest "$M" --fast
	refuse --count 2 --dir "$W" --prefix p --manifest "$M"
	refuse --kind exe --dir "$W" --prefix p --manifest "$M"
	refuse --kind exe --count 2 --prefix p --manifest "$M"
	refuse --kind exe --count 2 --dir "$W" --manifest "$M"
	refuse --kind exe --count 2 --dir "$W" --prefix p
	refuse_saying "mkfresh: --manifest needs a value (try --help)" \
		--kind exe --count 2 --dir "$W" --prefix p --manifest
	refuse --kind exe --count 2 --dir "$W" --prefix p --manifest "$M" --jobs 0
	refused_all
}

@test "missing or unwritable WORKDIR: refused, and not created" {
	refuse --kind script --count 2 --dir "$BATS_TEST_TMPDIR/nope" --prefix p --manifest "$M"
	# root may write anywhere, but not below a regular file
	refuse --kind script --count 2 --dir "$BATS_TEST_TMPDIR/file/sub" --prefix p --manifest "$M"
	refuse --kind script --count 2 --dir "$BATS_TEST_TMPDIR/file" --prefix p --manifest "$M"
	: >"$BATS_TEST_TMPDIR/file"
	refused_all
	[ ! -e "$BATS_TEST_TMPDIR/nope" ]
}

@test "a tab or newline in a path, a slash in the prefix: refused" {
	mkdir "$BATS_TEST_TMPDIR/a	b" "$BATS_TEST_TMPDIR/c
d"
	refuse --kind script --count 2 --dir "$BATS_TEST_TMPDIR/a	b" --prefix p --manifest "$M"
	refuse --kind script --count 2 --dir "$BATS_TEST_TMPDIR/c
d" --prefix p --manifest "$M"
	refuse --kind script --count 2 --dir "$W" --prefix p --manifest "$BATS_TEST_TMPDIR/m	x"
	refuse --kind script --count 2 --dir "$W" --prefix a/b --manifest "$M"
	refuse --kind script --count 2 --dir "$W" --prefix "" --manifest "$M"
	refused_all
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR/a	b")" ""
}

@test "no C compiler: CC=/nonexistent/cc, --cc, and cc missing from PATH" {
	CC=/nonexistent/cc expect_usage_error_saying "mkfresh: no C compiler: /nonexistent/cc not found (install one, or set CC)" \
		--kind exe --count 2 --dir "$W" --prefix p --manifest "$M"
	expect_usage_error --kind dylib --count 2 --dir "$W" --prefix p --manifest "$M" --cc /nonexistent/cc
	mkdir "$BATS_TEST_TMPDIR/empty"
	run_sep env -u CC PATH="$BATS_TEST_TMPDIR/empty" "$BIN/mkfresh" \
		--kind exe-copy --count 2 --dir "$W" --prefix p --manifest "$M"
	assert_equal "$status" 2
	assert_equal "$stderr" "mkfresh: no C compiler: cc not found (install one, or set CC)"
	assert_equal "$(contents)" ""
	# kinds that compile nothing need no compiler
	CC=/nonexistent/cc mk script 2
}

# ---- failures after files were made: exit 1, everything removed ----

@test "compiler failure: exit 1 with its first stderr line, nothing left" {
	badcc="$BATS_TEST_TMPDIR/bad-cc"
	cat >"$badcc" <<'CC'
#!/bin/sh
for a; do
	case $a in
	*-0002.c) echo "$a:1:1: error: no good" >&2; echo "second line" >&2; exit 1 ;;
	esac
done
exec cc "$@"
CC
	chmod 755 "$badcc"
	# (the third of four fails: two compiled before it, one maybe after)
	run_sep "$BIN/mkfresh" --kind exe --count 4 --jobs 2 --dir "$W" \
		--prefix p --manifest "$M" --cc "$badcc"
	assert_equal "$status" 1
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" == *"p-0002.c:1:1: error: no good" ]] || fail "stderr: $stderr"
	[ ! -e "$M" ]
	assert_equal "$(contents)" ""
}

@test "an existing file in the way: exit 1, it is kept, the rest removed" {
	echo precious >"$W/p-0002"
	run_sep "$BIN/mkfresh" --kind exe-copy --count 5 --dir "$W" \
		--prefix p --manifest "$M"
	assert_equal "$status" 1
	assert_equal "${#stderr_lines[@]}" 1
	[ ! -e "$M" ]
	assert_equal "$(contents)" "p-0002"
	assert_equal "$(cat "$W/p-0002")" precious
}

# ---- interrupt ----

interrupt_test() { # interrupt_test SIGNAL
	"$BIN/mkfresh" --kind exe --count 5000 --dir "$W" --prefix p \
		--manifest "$M" >/dev/null 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	# wait until it is making things, then ~0.3 s more
	for _ in $(seq 1 500); do
		[ -z "$(ls -A "$W")" ] || break
		sleep 0.01
	done
	sleep 0.3
	[ -n "$(ls -A "$W")" ] || fail "mkfresh made nothing"
	kill "-$1" "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	[ ! -e "$M" ] || fail "a manifest was written"
	assert_equal "$(contents)" ""
	assert_equal "$(wc -l <"$BATS_TEST_TMPDIR/err" | tr -d ' ')" 1
}

@test "SIGINT mid-run: exit 130, no manifest, no artifact left" {
	interrupt_test INT
}

@test "SIGTERM mid-run: exit 130, no manifest, no artifact left" {
	interrupt_test TERM
}

@test "--help prints the usage on stdout" {
	run_sep "$BIN/mkfresh" --help
	assert_success
	assert_output --partial "usage: mkfresh --kind KIND"
	assert_equal "$stderr" ""
}
