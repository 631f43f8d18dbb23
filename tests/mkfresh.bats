#!/usr/bin/env bats
# micro/mkfresh: fresh artifacts, the manifest contract (docs/formats.md),
# refusal of bad input, and cleanup on failure and on interrupt.

# bats file_tags=heavy
load test_helper/common-setup
load test_helper/mkfresh
# run_both and run_sep: bats' run and run --separate-stderr, cheaper
load test_helper/quickrun

# The file's compiled runs that several tests read (made once: a compile
# is the cost here): exe 4 (--jobs 3), dylib 3 (--jobs 2), and exe and
# dylib 2 padded 64k (counts as small as the jobs and the tests need), each in $BATS_FILE_TMPDIR/NAME with NAME.manifest;
# each must succeed, saying nothing on stderr.  The tests only read them.
setup_file() {
	local F="$BATS_FILE_TMPDIR" bin="$BATS_TEST_DIRNAME/../micro/bin/mkfresh" name
	make -C "$BATS_TEST_DIRNAME/.." -s micro/bin/mkfresh >/dev/null
	unset EXECLAG_TEMPLATES
	# the system's name, once for the file (uname -s)
	MKF_OS=$(uname -s)
	export MKF_OS
	mkdir "$F/exe" "$F/dylib" "$F/exe-s64k" "$F/dylib-s64k"
	for name in exe dylib exe-s64k dylib-s64k; do
		case $name in
		exe) set -- --kind exe --count 4 --jobs 3 ;;
		dylib) set -- --kind dylib --count 3 --jobs 2 ;;
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

# (W is made by the tests that use it, with their other folders where they
# make some: a mkdir a test fewer)
setup() {
	mkfresh_setup_unmade
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

# contents_of VAR: what WORKDIR holds, one name a line, sorted (ls -A |
# LC_ALL=C sort), by the shell's globs (byte order; the names starting
# with a dot first, as sort puts them before letters and digits)
contents_of() {
	local LC_ALL=C _f _out=""
	for _f in "$W"/.[!.]* "$W"/..?* "$W"/*; do
		[ -e "$_f" ] || [ -L "$_f" ] || continue
		_out+="${_f##*/}"$'\n'
	done
	printf -v "$1" '%s' "${_out%$'\n'}"
}

# host_prints_nonce I EXT: the dylib's host, given library p-I, prints what
# the library returns: that library's own nonce
host_prints_nonce() {
	local lib i want
	printf -v i %04d "$1"
	lib="$W/p-$i$2"
	run_both -0 "$W/p-host" "$lib"
	# (grep's first match of its first matching line: the first one)
	want=$(grep -m 1 -a -o "execlag:p-$i:[0-9:]*" "$lib")
	assert_output "${want%%$'\n'*}"
}

# names_of VAR EXT N: p-0000EXT ... p-(N-1)EXT, one a line, into VAR
names_of() {
	local _i _out=""
	for ((_i = 0; _i < $3; _i++)); do printf -v _out '%sp-%04d%s\n' "$_out" "$_i" "$2"; done
	printf -v "$1" '%s' "${_out%$'\n'}"
}

# For bad input: exit 2, one line on stderr ("mkfresh: ..."), nothing on
# stdout, no manifest, WORKDIR untouched (mkfresh-check's refused).
# refuse ARGS... and refuse_saying LINE ARGS... (and the line is LINE):
# those checks, queued; refused_all makes them all in
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

# (the two script kinds, each its own run, in one test: a bats test's
# processes each)
@test "script, script-via-sh: distinct bytes, exact manifest (script-via-sh: /bin/sh OBJECT), runs exit 0" {
	# (was: "script: N executable scripts with distinct bytes, exact manifest, each exits 0")
	local first
	mkdir "$W" "$BATS_TEST_TMPDIR/work-sv"
	mk script 7
	chk manifest=script:7 names=.sh:7 differ nonces runs=0
	IFS= read -r first <"$W/p-0003.sh"
	assert_equal "$first" '#!/bin/sh'
	[ -x "$W/p-0003.sh" ]
	# (was: "script-via-sh: argv is /bin/sh OBJECT; runs exit 0")
	W="$BATS_TEST_TMPDIR/work-sv" M="$BATS_TEST_TMPDIR/sv.manifest"
	mk script-via-sh 4
	chk manifest=script-via-sh:4 differ runs=0
}

@test "exe: distinct binaries, nonce inside each, nothing else left, each exits 0" {
	shared exe
	chk manifest=exe:4 names=:4 differ nonces runs=0
}

@test "exe: --case names the case, and WORKDIR is written resolved" {
	mkdir "$W"
	ln -s "$W" "$BATS_TEST_TMPDIR/link"
	# (one artifact: what is looked at is the manifest's case and workdir,
	# not the compile: the logging compiler's, no real one)
	make_logging_cc
	run_sep "$BIN/mkfresh" --kind exe --count 1 --case my-exe --cc "$FAKECC" \
		--dir "$BATS_TEST_TMPDIR/link/" --prefix p --manifest "$M"
	assert_success
	check_manifest exe 1 my-exe
}

@test "dylib: distinct libraries with their nonce; the host loads each" {
	shared dylib
	objs_read
	ext=.${OBJS[0]##*.}
	case $MKF_OS in
	Darwin) assert_equal "$ext" .dylib ;;
	*) assert_equal "$ext" .so ;;
	esac
	chk manifest=dylib:3 "names=$ext:3:p-host" differ nonces runs=0
	# the host prints what the library returns: that library's own nonce
	host_prints_nonce 2 "$ext"
	# a library that cannot be loaded: exit 3, dlerror on stderr
	run_sep "$W/p-host" "$W/nonexistent$ext"
	assert_equal "$status" 3
	[ -n "$stderr" ]
}

# (the placements from a base, each kind its own run, by the logging
# compiler: what is looked at is where each artifact comes from (inodes,
# bytes, launches), not the compile; a real base's copies run in --size's
# exe-copy test)
@test "exe-hardlink, exe-copy: one inode; the base's bytes in new inodes; the base launched before, alone" {
	# (was: "exe-hardlink, exe-copy, exe-rewrite: one inode; the base's bytes in new inodes; new slots")
	# (was: "exe-copy, exe-hardlink: the base was launched before the artifacts were made from it")
	make_logging_cc
	local kind log base wd o
	mkdir "$W-exe-copy" "$W-exe-hardlink"
	for kind in exe-hardlink exe-copy; do
		W="$BATS_TEST_TMPDIR/work-$kind" M="$BATS_TEST_TMPDIR/$kind.manifest"
		: >"$EXECLAG_TEST_LOG"
		mk "$kind" 3 --cc "$FAKECC"
		# (inodes=: the base and the 3: one inode (hard links); copies: one
		# content, four inodes)
		if [ "$kind" = exe-hardlink ]; then
			chk manifest=exe-hardlink:3 names=:3:p-base inodes=1:p-base
		else
			chk manifest=exe-copy:3 names=:3:p-base "onecontent=$W/p-base" inodes=4:p-base
		fi
		# launched exactly once, the base itself
		slurp log "$EXECLAG_TEST_LOG"
		inode_of base "$W/p-base"
		phys wd "$W"
		assert_equal "$log" "$base $wd/p-base"
		# the hard links all the launched inode (the base's, as the log
		# says); the copies none of them
		objs_read
		for o in "${OBJS[@]}"; do
			if [ "$kind" = exe-hardlink ]; then
				[ "$o" -ef "$W/p-base" ] || fail "$o is not the launched inode"
			else
				[ ! "$o" -ef "$W/p-base" ] || fail "$o is the launched inode"
			fi
		done
		[ "${#OBJS[@]}" = 3 ] || fail "${#OBJS[@]} objects, not 3"
		# each runs (after the log's look: a run logs its launch)
		chk runs=0
	done
}

@test "exe-rewrite: the base, then each slot as a link to it, is launched; then each slot is a new inode" {
	# (and was: "exe-hardlink, exe-copy, exe-rewrite: one inode; the base's bytes in new inodes; new slots")
	make_logging_cc
	local base wd paths inodes o
	mkdir "$W"
	mk exe-rewrite 4 --cc "$FAKECC"
	inode_of base "$W/p-base"
	# the base first, then one launch per slot at its path, of the base's
	# inode (known to an inode or content key: no check while making)
	phys wd "$W"
	objs_read
	field_of paths 2 "$EXECLAG_TEST_LOG"
	printf -v o '%s\n' "${OBJS[@]}"
	o=${o%$'\n'}
	assert_equal "$paths" "$wd/p-base"$'\n'"$o"
	# (every launch's inode the base's: sort -u's one line)
	field_of inodes 1 "$EXECLAG_TEST_LOG"
	[ -n "$inodes" ] || fail "nothing launched"
	for o in $inodes; do assert_equal "$o" "$base"; done
	# no slot is still the launched inode; each has the base's bytes
	for o in "${OBJS[@]}"; do [ ! "$o" -ef "$W/p-base" ] || fail "$o still is the launched inode"; done
	# (onecontent=, inodes=: the base and the 4: one content, five inodes;
	# each runs, after the log's look)
	chk "onecontent=$W/p-base" manifest=exe-rewrite:4 names=:4:p-base inodes=5:p-base runs=0
}

@test "--first: a second run makes the next artifacts beside the first ones; the manifest lists all" {
	# the first run of exe and dylib: a copy of the file's (setup_file: 4
	# and 3 artifacts, compiled), as mkfresh finds a WORKDIR a run left
	# (it reads no manifest: what is there is the first run's); of
	# script-via-sh, made here (no compile)
	local kind n before T=$BATS_TEST_TMPDIR
	# (each kind's work folder its own; the first runs' artifacts as they
	# were: the file's runs, and script-via-sh's first run, kept in $T/sv)
	mkdir "$T/w-exe" "$T/w-script-via-sh" "$T/w-dylib" "$T/sv"
	W="$T/sv" M="$T/sv.manifest"
	mk script-via-sh 3 --jobs 2
	for kind in exe script-via-sh dylib; do
		W="$T/w-$kind" M="$T/$kind.manifest"
		case $kind in
		script-via-sh) n=3 before="$T/sv" ;;
		exe) n=4 before="$BATS_FILE_TMPDIR/exe" ;;
		dylib) n=3 before="$BATS_FILE_TMPDIR/dylib" ;;
		esac
		cp -Rp "$before/." "$W/"
		# the host as it is now: a link to it aside (-ef: the same inode)
		[ "$kind" != dylib ] || ln "$W/p-host" "$T/host"
		mk "$kind" 2 --jobs 2 --first "$n"
		# the first ones untouched (before=: the bytes they were, in
		# order), the new ones with bytes and a nonce of their own, the
		# host the one made first
		chk "before=$before" "manifest=$kind:$((n + 2))" differ nonces runs=0
		[ "$kind" != dylib ] || [ "$W/p-host" -ef "$T/host" ] || fail "the host was made again"
	done
	# the base or host of the first run is used as it is: not made again,
	# not launched again (exe-rewrite launches each new slot, a link to it)
	make_logging_cc
	local base now log f o
	mkdir "$T/l-exe-hardlink" "$T/l-exe-rewrite" "$T/l-dylib"
	for kind in exe-hardlink exe-rewrite dylib; do
		W="$T/l-$kind" M="$T/l-$kind.manifest"
		: >"$EXECLAG_TEST_LOG"
		mk "$kind" 3 --cc "$FAKECC"
		if [ "$kind" = dylib ]; then inode_of base "$W/p-host"; else inode_of base "$W/p-base"; fi
		: >"$EXECLAG_TEST_LOG"
		mk "$kind" 2 --cc "$FAKECC" --first 3
		chk "manifest=$kind:5"
		slurp log "$EXECLAG_TEST_LOG"
		case $kind in
		exe-rewrite)
			# (every launch's inode the base's: sort -u's one line)
			field_of f 1 "$EXECLAG_TEST_LOG"
			[ -n "$f" ] || fail "nothing launched"
			for o in $f; do assert_equal "$o" "$base"; done
			field_of f 2 "$EXECLAG_TEST_LOG"
			objs_read
			printf -v o '%s\n' "${OBJS[@]:3}"
			assert_equal "$f" "${o%$'\n'}" ;;
		exe-hardlink)
			assert_equal "$log" ""
			inode_of now "$W/p-0004"
			assert_equal "$now" "$base" ;;
		dylib)
			assert_equal "$log" ""
			inode_of now "$W/p-host"
			assert_equal "$now" "$base" ;;
		esac
	done
}

@test "--first: refused without the first run's base or host, past the last slot, or over an artifact" {
	mkdir "$W"
	run_sep "$BIN/mkfresh" --kind exe-copy --count 2 --first 3 --dir "$W" \
		--prefix p --manifest "$M"
	assert_equal "$status" 2
	[[ "$stderr" == "mkfresh: --first 3: no "*"/p-base: the run that made artifact 0 makes it"* ]] || fail "$stderr"
	local c want
	contents_of c
	[ ! -e "$M" ]
	assert_equal "$c" ""
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
	contents_of c
	names_of want .sh 4
	assert_equal "$c" "$want"
}

@test "system-copy: byte copies of echo, each exits 0" {
	mkdir "$W"
	mk system-copy 3
	echo_bin=/bin/echo
	[ -x "$echo_bin" ] || echo_bin=/usr/bin/echo
	# (onecontent=: echo and the 3: one content)
	chk manifest=system-copy:3 names=:3 runs=0 "onecontent=$echo_bin"
}

# ---- payloads ----

# ---- padding (--size) ----

@test "--size: every exe carries its own random bytes, and still runs" {
	# (two: "every" is each of them; each is a compile)
	mkdir "$W"
	mk exe 2 --size 1m
	# the padding's source is gone with the compiler's input (names)
	chk manifest=exe:2 pad=1048576 differ nonces runs=0 names=:2
	# not only the nonce differs: nearly every byte of the padding does
	diff=$(cmp -l "$W/p-0000" "$W/p-0001" | wc -l)
	[ "$diff" -gt 1000000 ] || fail "only $diff bytes differ"
}

# (the quoted folder's test merged in: its padded compile is exe-copy's
# base, a compile fewer)
@test "--size: dylib's libraries padded, not its host; copies keep the base's bytes, in a folder of quotes" {
	shared dylib-s64k
	# (under=: the host is not padded: under 64k)
	chk manifest=dylib:2 pad=65536 runs=0 "under=65536:$W/p-host"
	# (was: "--size: a work folder whose name holds quotes, a backslash and a space")
	W="$BATS_TEST_TMPDIR/a\"b\\c d'e" M="$BATS_TEST_TMPDIR/out.manifest"
	mkdir -p "$W"
	mk exe-copy 2 --size 16k
	# (onecontent=: p-0000, and the other copy too, the base's bytes)
	chk manifest=exe-copy:2 pad=16384 runs=0 "onecontent=$W/p-base"
	# 0 is no padding: no pad line (the manifest looked at, not the
	# compile: the logging compiler's)
	W="$BATS_TEST_TMPDIR/work0" M="$BATS_TEST_TMPDIR/out0.manifest"
	mkdir "$W"
	make_logging_cc
	mk exe 1 --size 0 --cc "$FAKECC"
	check_manifest exe 1
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
	local kind size ext want own compiles T=$BATS_TEST_TMPDIR
	# (each run's work folder its own, made at once)
	mkdir "$T/w-exe-0" "$T/w-exe-64k" "$T/w-dylib-0" "$T/w-dylib-64k" "$T/w-kill"
	for kind in exe dylib; do
		for size in 0 64k; do
			W="$T/w-$kind-$size" M="$T/$kind-$size.manifest"
			: >"$CC_LOG"
			mk "$kind" 5 --size "$size" --cc "$COUNTCC" --simulated
			# one compile: the template (and the dylib's host); on macOS each
			want=1
			[ "$MKF_OS" != Darwin ] || want=5
			[ "$kind" != dylib ] || want=$((want + 1))
			lines_of compiles "$CC_LOG"
			assert_equal "$compiles" "$want"
			ext="" more=""
			if [ "$kind" = dylib ]; then
				objs_read
				ext=.${OBJS[0]##*.} more=:p-host
			fi
			pad="" differs=()
			# (bytesdiffer: the padding is not the same in two artifacts)
			[ "$size" = 0 ] || pad=pad=65536 differs=(bytesdiffer 60000 "$W/p-0000$ext" "$W/p-0001$ext")
			# (near: artifacts of the same names' length, compiled each (the
			# file's runs of the kind and size): the same size)
			own="$BATS_FILE_TMPDIR/$kind"
			[ "$size" = 0 ] || own="$own-s$size"
			chk "manifest=$kind:5" ${pad:+"$pad"} "names=$ext:5$more" differ nonces runs=0 \
				near "$W/p-0000$ext" "$own/p-0000$ext" near "$W/p-0004$ext" "$own/p-0001$ext" \
				${differs[@]+"${differs[@]}"}
		done
	done
	# the dylib's host prints the library's own nonce
	host_prints_nonce 3 "$ext"
	# payloads are the template's too
	W="$T/w-kill" M="$T/kill.manifest"
	mk exe 2 --payload kill --simulated
	check_runs $((128 + 9))
	# --first: the next ones, from a template of their own
	mk exe 2 --first 2 --simulated
	chk manifest=exe:4 nonces
}

@test "--simulated: nothing launched while making; a template without the nonce: each compiled" {
	make_logging_cc
	local kind log compiles want=4 T=$BATS_TEST_TMPDIR
	mkdir "$T/w-exe-copy" "$T/w-exe-hardlink" "$T/w-exe-rewrite" "$T/w-dylib" "$T/w-exe" "$T/w-last"
	for kind in exe-copy exe-hardlink exe-rewrite dylib exe; do
		W="$T/w-$kind" M="$T/$kind.manifest"
		mk "$kind" 3 --cc "$FAKECC" --simulated
		slurp log "$EXECLAG_TEST_LOG"
		assert_equal "$log" ""
	done
	# the logging compiler's programs hold no nonce: each artifact is
	# compiled then (3 and the template; on macOS the 3), and still its own
	make_counting_cc
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$CC_LOG" "$FAKECC" >"$COUNTCC"
	W="$T/w-last" M="$T/last.manifest"
	mk exe 3 --cc "$COUNTCC" --simulated
	[ "$MKF_OS" != Darwin ] || want=3
	lines_of compiles "$CC_LOG"
	assert_equal "$compiles" "$want"
	chk manifest=exe:3 names=:3
}

# EXECLAG_TEMPLATES: the templates a maker compiled serve the next makers
# of the same shape, who compile nothing; each artifact still its own
@test "--simulated with EXECLAG_TEMPLATES: the next maker compiles nothing; a bad entry is compiled" {
	[ "$MKF_OS" != Darwin ] || skip "on macOS each simulated artifact is compiled (signed programs)"
	make_counting_cc
	export EXECLAG_TEMPLATES="$BATS_TEST_TMPDIR/templates"
	local kind want ext compiles T=$BATS_TEST_TMPDIR
	# (each maker's work folder its own, made at once; the first maker's
	# artifact 0 kept where it was made)
	mkdir "$T/a-exe" "$T/b-exe" "$T/a-dylib" "$T/b-dylib" "$T/a-exe-copy" "$T/b-exe-copy" \
		"$T/w-host" "$T/w-cut" "$T/w-none"
	for kind in exe dylib exe-copy; do
		: >"$CC_LOG"
		W="$T/a-$kind" M="$T/a-$kind.manifest"
		mk "$kind" 3 --cc "$COUNTCC" --simulated
		# the first: the template (the dylib's host and library each one;
		# exe-copy's base is an exe like the first kind's: none)
		case $kind in exe) want=1 ;; dylib) want=2 ;; exe-copy) want=0 ;; esac
		lines_of compiles "$CC_LOG"
		assert_equal "$compiles" "$want"
		objs_read
		first=${OBJS[0]}
		W="$T/b-$kind" M="$T/b-$kind.manifest"
		mk "$kind" 3 --cc "$COUNTCC" --simulated
		lines_of compiles "$CC_LOG"
		assert_equal "$compiles" "$want"
		# (near0: artifact 0 as long as the first maker's)
		if [ "$kind" = exe-copy ]; then
			chk "manifest=$kind:3" runs=0 near0 "$first"
		else
			chk "manifest=$kind:3" differ nonces runs=0 near0 "$first"
		fi
	done
	# the dylib's host (from its template) prints the library's own nonce
	W="$T/w-host" M="$T/host.manifest"
	mk dylib 2 --cc "$COUNTCC" --simulated
	objs_read
	ext=.${OBJS[0]##*.}
	host_prints_nonce 1 "$ext"
	# an entry cut short is not used: compiled again, and kept whole again
	for f in "$EXECLAG_TEMPLATES"/*.tmpl; do head -c 100 "$f" >"$f.cut" && mv "$f.cut" "$f"; done
	: >"$CC_LOG"
	W="$T/w-cut" M="$T/cut.manifest"
	mk exe 3 --cc "$COUNTCC" --simulated
	lines_of compiles "$CC_LOG"
	assert_equal "$compiles" 1
	chk nonces runs=0
	# a folder that cannot be made: each maker compiles its own, and works
	export EXECLAG_TEMPLATES="$BATS_TEST_TMPDIR/none/templates"
	: >"$BATS_TEST_TMPDIR/none"
	: >"$CC_LOG"
	W="$T/w-none" M="$T/none.manifest"
	mk exe 3 --cc "$COUNTCC" --simulated
	lines_of compiles "$CC_LOG"
	assert_equal "$compiles" 1
	check_manifest exe 3
}

# --template: a real run's (make doctor's probe on Linux) compiled units
# from one compile, the template kept in EXECLAG_TEMPLATES for the calls
# with --first, each artifact a new file of its own bytes that runs.  On
# macOS each is compiled (a signed program whose bytes change is killed at
# its launch).
@test "--template: one compile for all looks; each artifact its own nonce, padding and build ID" {
	make_counting_cc
	local kind size ext mac=0 want compiles T=$BATS_TEST_TMPDIR
	[ "$MKF_OS" != Darwin ] || mac=1
	# (each run's work folder its own, made at once)
	mkdir "$T/w-exe-0" "$T/w-exe-64k" "$T/w-dylib-0" "$T/w-dylib-64k"
	for kind in exe dylib; do
		for size in 0 64k; do
			# a run's own folder of templates (scripts/repro's scratch)
			export EXECLAG_TEMPLATES="$BATS_TEST_TMPDIR/templates-$kind-$size"
			W="$T/w-$kind-$size" M="$T/$kind-$size.manifest"
			: >"$CC_LOG"
			mk "$kind" 4 --size "$size" --cc "$COUNTCC" --template
			ext=""
			if [ "$kind" = dylib ]; then
				objs_read
				ext=.${OBJS[0]##*.}
			fi
			# the next looks' artifacts, as launch asks for them
			mk "$kind" 2 --size "$size" --cc "$COUNTCC" --template --first 4
			mk "$kind" 2 --size "$size" --cc "$COUNTCC" --template --first 6
			# one compile (and the dylib's host); on macOS each of the 8
			want=1
			[ "$mac" = 0 ] || want=8
			[ "$kind" != dylib ] || want=$((want + 1))
			lines_of compiles "$CC_LOG"
			assert_equal "$compiles" "$want"
			# the work folder holds the artifacts (and the host), nothing else
			more=""
			[ "$kind" != dylib ] || more=:p-host
			pad="" differs=()
			# (bytesdiffer: the padding is not the same in two artifacts)
			[ "$size" = 0 ] || pad=pad=65536 differs=(bytesdiffer 60000 "$W/p-0000$ext" "$W/p-0007$ext")
			# (buildids=8: no two share a build ID (a link of their own
			# gives each its own), where readelf sees one)
			chk "manifest=$kind:8" ${pad:+"$pad"} "names=$ext:8$more" differ nonces runs=0 buildids=8 \
				${differs[@]+"${differs[@]}"}
		done
	done
	host_prints_nonce 6 "$ext"
	# a call with --first and no template kept compiles one of its own
	export EXECLAG_TEMPLATES="$BATS_TEST_TMPDIR/templates-none"
	: >"$CC_LOG"
	mk dylib 2 --cc "$COUNTCC" --template --first 8
	lines_of compiles "$CC_LOG"
	want=1
	[ "$mac" = 0 ] || want=2
	assert_equal "$compiles" "$want"
	chk manifest=dylib:10 nonces
}

@test "--template: a failed call removes what it made, and nothing made before it" {
	[ "$MKF_OS" != Darwin ] || skip "on macOS each artifact is compiled: no template"
	export EXECLAG_TEMPLATES="$BATS_TEST_TMPDIR/templates"
	mkdir "$W"
	# artifact 2 is there already: refused after the template is made
	: >"$W/p-0002"
	run_sep "$BIN/mkfresh" --kind exe --count 3 --dir "$W" --prefix p --manifest "$M" --template
	assert_failure 1
	[[ "$stderr" == *"p-0002 already exists"* ]] || fail "$stderr"
	local c
	contents_of c
	assert_equal "$c" "p-0002"
	[ ! -e "$M" ]
	# a later look's call that fails leaves the earlier artifacts
	rm "$W/p-0002"
	mk exe 2 --template
	: >"$W/p-0003"
	run_sep "$BIN/mkfresh" --kind exe --count 2 --first 2 --dir "$W" --prefix p --manifest "$M" --template
	assert_failure 1
	contents_of c
	assert_equal "$c" $'p-0000\np-0001\np-0003'
	check_manifest exe 2
}

# (both payloads, each kind its own run, in one test)
@test "payloads: kill's script, script-via-sh and exe die by SIGKILL; fail's script and exe exit 3" {
	# (one exe: each is a compile, and what is looked at is each one's end)
	local kind n
	# (each kind's work folder its own, made at once)
	mkdir "$W-script" "$W-script-via-sh" "$W-exe" "$W-fail-script" "$W-fail-exe"
	# (was: "payload kill: script, script-via-sh and exe artifacts die by SIGKILL")
	for kind in script script-via-sh exe; do
		W="$BATS_TEST_TMPDIR/work-$kind" M="$BATS_TEST_TMPDIR/$kind.manifest"
		n=2
		[ "$kind" != exe ] || n=1
		mk "$kind" "$n" --payload kill
		chk runs=137
	done
	# (was: "payload fail: script and exe artifacts exit 3")
	for kind in script exe; do
		W="$BATS_TEST_TMPDIR/work-fail-$kind" M="$BATS_TEST_TMPDIR/fail-$kind.manifest"
		n=2
		[ "$kind" != exe ] || n=1
		mk "$kind" "$n" --payload fail
		chk runs=3
	done
}

# ---- bad input: exit 2, one line, nothing made ----

# empty_dir DIR: DIR holds no name (ls -A's nothing, by the shell's globs)
empty_dir() {
	local f
	for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		if [ -e "$f" ] || [ -L "$f" ]; then fail "$1 holds ${f##*/}"; fi
	done
}

# (one test, one mkfresh-check for every refusal queued: each was a test of
# its own, a bats test's processes and a check's sh each)
@test "bad input refused, nothing made: kinds, counts, options, paths, sizes, payloads, no C compiler" {
	local kind n z a
	# (was: "quarantined: refused off macOS"; macOS makes this case)
	if [ "$MKF_OS" != Darwin ]; then
		refuse_saying "mkfresh: quarantined is a macOS-only case" \
			--kind quarantined --count 2 --dir "$W" --prefix p --manifest "$M"
	fi
	# (was: "--size: refused for scripts and system-copy, and when no size from 0 to 64m")
	for kind in script script-via-sh system-copy; do
		refuse --kind "$kind" --count 1 --dir "$W" --prefix p --manifest "$M" --size 1m
	done
	for z in 65m 1g -1 abc 1.5m "" k 99999999999; do
		refuse --kind exe --count 1 --dir "$W" --prefix p --manifest "$M" --size "$z"
	done
	# (was: "payload kill|fail is refused for the other kinds")
	for kind in exe-copy exe-hardlink exe-rewrite system-copy dylib; do
		refuse --kind "$kind" --count 2 --dir "$W" --prefix p --manifest "$M" --payload kill
	done
	refuse --kind exe --count 2 --dir "$W" --prefix p --manifest "$M" --payload maybe
	# (was: "count 0, -1, abc, 1e9, 100001, empty: refused")
	for n in 0 -1 abc 1e9 100001 ""; do
		refuse --kind exe --count "$n" --dir "$W" --prefix p --manifest "$M"
	done
	# (was: "unknown kind, unknown option, missing options: refused")
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
	# (was: "missing or unwritable WORKDIR: refused, and not created")
	refuse --kind script --count 2 --dir "$BATS_TEST_TMPDIR/nope" --prefix p --manifest "$M"
	# root may write anywhere, but not below a regular file
	refuse --kind script --count 2 --dir "$BATS_TEST_TMPDIR/file/sub" --prefix p --manifest "$M"
	refuse --kind script --count 2 --dir "$BATS_TEST_TMPDIR/file" --prefix p --manifest "$M"
	: >"$BATS_TEST_TMPDIR/file"
	# (was: "a tab or newline in a path, a slash in the prefix: refused")
	mkdir "$W" "$BATS_TEST_TMPDIR/a	b" "$BATS_TEST_TMPDIR/c
d" "$BATS_TEST_TMPDIR/empty"
	refuse --kind script --count 2 --dir "$BATS_TEST_TMPDIR/a	b" --prefix p --manifest "$M"
	refuse --kind script --count 2 --dir "$BATS_TEST_TMPDIR/c
d" --prefix p --manifest "$M"
	refuse --kind script --count 2 --dir "$W" --prefix p --manifest "$BATS_TEST_TMPDIR/m	x"
	refuse --kind script --count 2 --dir "$W" --prefix a/b --manifest "$M"
	refuse --kind script --count 2 --dir "$W" --prefix "" --manifest "$M"
	# (was: "no C compiler: CC=/nonexistent/cc, --cc, and cc missing from PATH"; CC
	# through env, in the check's sh)
	a=(--kind exe --count 2 --dir "$W" --prefix p --manifest "$M")
	REFUSE+=("refused=$((${#a[@]} + 4))" "says=mkfresh: no C compiler: /nonexistent/cc not found (install one, or set CC)"
		env CC=/nonexistent/cc "$BIN/mkfresh" "${a[@]}")
	refuse --kind dylib --count 2 --dir "$W" --prefix p --manifest "$M" --cc /nonexistent/cc
	refused_all
	[ ! -e "$BATS_TEST_TMPDIR/nope" ]
	empty_dir "$BATS_TEST_TMPDIR/a	b"
	run_sep env -u CC PATH="$BATS_TEST_TMPDIR/empty" "$BIN/mkfresh" \
		--kind exe-copy --count 2 --dir "$W" --prefix p --manifest "$M"
	assert_equal "$status" 2
	assert_equal "$stderr" "mkfresh: no C compiler: cc not found (install one, or set CC)"
	empty_dir "$W"
	# kinds that compile nothing need no compiler
	CC=/nonexistent/cc mk script 2
}

# ---- failures after files were made: exit 1, everything removed ----

@test "compiler failure: exit 1 with its first stderr line, nothing left" {
	badcc="$BATS_TEST_TMPDIR/bad-cc"
	local text
	# (read and printf, the shell's own: no cat)
	IFS= read -r -d '' text <<'CC' || :
#!/bin/sh
for a; do
	case $a in
	*-0002.c) echo "$a:1:1: error: no good" >&2; echo "second line" >&2; exit 1 ;;
	esac
done
exec "$FAKECC" "$@"
CC
	printf '%s' "$text" >"$badcc"
	chmod 755 "$badcc"
	mkdir "$W"
	# (the others by the logging compiler: what is looked at is what is
	# left, not the compiles)
	make_logging_cc
	export FAKECC
	# (the third of four fails: two compiled before it, one maybe after)
	run_sep "$BIN/mkfresh" --kind exe --count 4 --jobs 2 --dir "$W" \
		--prefix p --manifest "$M" --cc "$badcc"
	assert_equal "$status" 1
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" == *"p-0002.c:1:1: error: no good" ]] || fail "stderr: $stderr"
	[ ! -e "$M" ]
	empty_dir "$W"
}

@test "an existing file in the way: exit 1, it is kept, the rest removed" {
	mkdir "$W"
	echo precious >"$W/p-0002"
	# (the base by the logging compiler: what is looked at is what is left)
	make_logging_cc
	run_sep "$BIN/mkfresh" --kind exe-copy --count 5 --dir "$W" \
		--prefix p --manifest "$M" --cc "$FAKECC"
	assert_equal "$status" 1
	assert_equal "${#stderr_lines[@]}" 1
	[ ! -e "$M" ]
	local c
	contents_of c
	assert_equal "$c" "p-0002"
	slurp c "$W/p-0002"
	assert_equal "$c" precious
}

# ---- interrupt ----

interrupt_test() { # interrupt_test SIGNAL
	"$BIN/mkfresh" --kind exe --count 5000 --dir "$W" --prefix p \
		--manifest "$M" >/dev/null 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	local i c l n=0
	# wait until it is making things, then ~0.3 s more (contents_of: the
	# shell's globs, no ls a look)
	for ((i = 0; i < 500; i++)); do
		contents_of c
		[ -z "$c" ] || break
		sleep 0.01
	done
	sleep 0.3
	contents_of c
	[ -n "$c" ] || fail "mkfresh made nothing"
	kill "-$1" "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	[ ! -e "$M" ] || fail "a manifest was written"
	contents_of c
	assert_equal "$c" ""
	# (wc -l: the lines ended by a newline)
	while IFS= read -r l; do n=$((n + 1)); done <"$BATS_TEST_TMPDIR/err"
	assert_equal "$n" 1
}

# (both signals, each its own run, in one test)
@test "SIGINT, SIGTERM mid-run: exit 130, no manifest, no artifact left" {
	# (both work folders made at once)
	mkdir "$W" "$BATS_TEST_TMPDIR/work-term"
	# (was: "SIGINT mid-run: exit 130, no manifest, no artifact left")
	interrupt_test INT
	# (was: "SIGTERM mid-run: exit 130, no manifest, no artifact left")
	W="$BATS_TEST_TMPDIR/work-term" M="$BATS_TEST_TMPDIR/term.manifest"
	interrupt_test TERM
}

@test "--help prints the usage on stdout" {
	run_sep "$BIN/mkfresh" --help
	assert_success
	assert_output --partial "usage: mkfresh --kind KIND"
	assert_equal "$stderr" ""
}
