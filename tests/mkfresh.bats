#!/usr/bin/env bats
# micro/mkfresh: fresh artifacts, the manifest contract (docs/formats.md),
# refusal of bad input, and cleanup on failure and on interrupt.

# bats file_tags=heavy
load test_helper/common-setup
load test_helper/mkfresh

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s micro/bin/mkfresh >/dev/null
}

setup() {
	mkfresh_setup
}

# ---- helpers ----

sha() { # sha FILE...: one hash a line
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$@" | awk '{ print $1 }'
	else
		shasum -a 256 "$@" | awk '{ print $1 }'
	fi
}

# The manifest has exactly the documented shape for KIND with N artifacts:
# magic line, case/kind/n/workdir, then artifact 0..N-1 in order, each with
# an absolute OBJECT inside workdir and the ARGV the kind prescribes.
check_manifest() {
	local kind=$1 n=$2 case_name=${3:-$1}
	local wd
	wd=$(cd "$W" && pwd -P)
	# bytes: the size of artifact 0's object, before the first artifact
	local b0
	b0=$(wc -c <"$(awk -F'\t' '$1 == "artifact" { print $3; exit }' "$M")")
	assert_equal "$(grep '^bytes	' "$M")" "$(printf 'bytes\t%s' "${b0// /}")"
	awk '/^bytes\t/ && !b { b = NR } /^artifact\t/ && !a { a = NR } END { exit !(b && b < a) }' "$M" ||
		fail "the bytes line is not before the first artifact"
	grep -v '^bytes	' "$M" >"$M.nobytes"
	local M="$M.nobytes" lines
	lines=$(wc -l <"$M")
	assert_equal "${lines// /}" "$((n + 5))"
	# the work folder through the environment: awk -v would take a
	# backslash in its name as an escape (the BWK awk of a Mac drops it);
	# so the case's name, which the caller gives
	WD="$wd" CASE="$case_name" awk -F'\t' -v n="$n" -v kind="$kind" '
		BEGIN { wd = ENVIRON["WD"]; c = ENVIRON["CASE"] }
		NR == 1 && $0 != "execlag-manifest\t1" { print "line 1: " $0; bad = 1 }
		NR == 2 && $0 != "case\t" c { print "line 2: " $0; bad = 1 }
		NR == 3 && $0 != "kind\t" kind { print "line 3: " $0; bad = 1 }
		NR == 4 && $0 != "n\t" n { print "line 4: " $0; bad = 1 }
		NR == 5 && $0 != "workdir\t" wd { print "line 5: " $0; bad = 1 }
		NR <= 5 { next }
		$1 != "artifact" { print "line " NR ": not an artifact"; bad = 1; next }
		{ na++ }
		$2 != i++ { print "line " NR ": index " $2; bad = 1 }
		index($3, wd "/p-") != 1 { print "line " NR ": object " $3; bad = 1 }
		kind == "script-via-sh" && !(NF == 5 && $4 == "/bin/sh" && $5 == $3) { print "line " NR ": argv"; bad = 1 }
		kind == "dylib" && !(NF == 5 && $4 == wd "/p-host" && $5 == $3) { print "line " NR ": argv"; bad = 1 }
		kind != "script-via-sh" && kind != "dylib" && !(NF == 4 && $4 == $3) { print "line " NR ": argv"; bad = 1 }
		END {
			if (NR < 5) { print "only " NR " lines"; bad = 1 }
			if (na != n) { print na + 0 " artifacts, not " n; bad = 1 }
			exit bad
		}' "$M"
}

# Every artifact's object has its own bytes.
check_all_differ() {
	local dups
	# shellcheck disable=SC2046
	dups=$(sha $(objects) | sort | uniq -d)
	assert_equal "$dups" ""
}

# The nonce of artifact i ("execlag:p-NNNN:...") is inside its object, and
# no two objects carry the same nonce.
check_nonces() {
	local bad
	# one grep over all objects ("OBJECT:NONCE" a line, in each object's
	# order), one awk: each object's first nonce of its own index i (its
	# place in the manifest); none missing, none twice
	# shellcheck disable=SC2046 # the objects: paths without blanks
	bad=$({ grep -a -o -H -E 'execlag:p-[0-9][0-9][0-9][0-9]:[0-9:]*' $(objects) </dev/null || :; } | awk -F'\t' '
		FNR == NR { if ($1 == "artifact") { idx[$3] = sprintf("%04d", i++); order[n++] = $3 }; next }
		{
			p = index($0, ":execlag:p-"); f = substr($0, 1, p - 1); m = substr($0, p + 1)
			if (!(f in first) && (f in idx) && substr(m, 11, 4) == idx[f]) first[f] = m
		}
		END {
			for (k = 0; k < n; k++) {
				o = order[k]
				if (!(o in first)) { print "no nonce in " o; continue }
				if (seen[first[o]]++) print "the nonce " first[o] " twice"
			}
		}' "$M" -)
	[ -z "$bad" ] || fail "$bad"
}

# Run every artifact's ARGV; each must exit with status $1 (default 0).
# sh runs it, so a death by signal N shows as 128+N.
check_runs() {
	local want=${1:-0} st n=0
	# one sh runs them all, each status a line (not a run and a sh each)
	for st in $(awk -F'\t' '$1 == "artifact"' "$M" | sh -c '
		tab=$(printf "\t")
		while IFS= read -r line; do
			set -f; IFS=$tab; set -- $line; IFS=" "; set +f
			shift 3
			"$@" >/dev/null 2>&1 </dev/null
			echo $?
		done'); do
		assert_equal "$st" "$want"
		n=$((n + 1))
	done
	assert_equal "$n" "$(grep -c '^artifact	' "$M")"
}

# What WORKDIR holds, one name a line, sorted.
contents() { (cd "$W" && ls -A | LC_ALL=C sort); }

# host_prints_nonce I EXT: the dylib's host, given library p-I, prints what
# the library returns: that library's own nonce
host_prints_nonce() {
	local lib
	lib="$W/p-$(printf %04d "$1")$2"
	run -0 "$W/p-host" "$lib"
	assert_output "$(grep -a -o "execlag:p-$(printf %04d "$1"):[0-9:]*" "$lib" | head -n 1)"
}

names() { # names EXT N: p-0000EXT ... p-(N-1)EXT
	local i
	for ((i = 0; i < $2; i++)); do printf 'p-%04d%s\n' "$i" "$1"; done
}

# For bad input: exit 2, one line on stderr, nothing on stdout, no
# manifest, WORKDIR untouched.
expect_usage_error() {
	run --separate-stderr "$BIN/mkfresh" "$@"
	assert_equal "$status" 2
	# shellcheck disable=SC2154 # stderr_lines: set by run --separate-stderr
	assert_equal "${#stderr_lines[@]}" 1
	[[ "${stderr_lines[0]}" == "mkfresh: "* ]] || fail "stderr: $stderr"
	assert_equal "$output" ""
	[ ! -e "$M" ] || fail "a manifest was written"
	assert_equal "$(contents)" ""
	assert_equal "$(compgen -G "$BATS_TEST_TMPDIR/*manifest*")" ""
}

# ---- the kinds ----

@test "script: N executable scripts with distinct bytes, exact manifest, each exits 0" {
	mk script 7
	check_manifest script 7
	assert_equal "$(contents)" "$(names .sh 7)"
	check_all_differ
	check_nonces
	run head -n 1 "$W/p-0003.sh"
	assert_output '#!/bin/sh'
	[ -x "$W/p-0003.sh" ]
	check_runs 0
}

@test "script-via-sh: argv is /bin/sh OBJECT; runs exit 0" {
	mk script-via-sh 4
	check_manifest script-via-sh 4
	check_all_differ
	check_runs 0
}

@test "exe: distinct binaries, nonce inside each, nothing else left, each exits 0" {
	mk exe 6 --jobs 3
	check_manifest exe 6
	assert_equal "$(contents)" "$(names "" 6)"
	check_all_differ
	check_nonces
	check_runs 0
}

@test "exe: --case names the case, and WORKDIR is written resolved" {
	ln -s "$W" "$BATS_TEST_TMPDIR/link"
	run --separate-stderr "$BIN/mkfresh" --kind exe --count 2 --case my-exe \
		--dir "$BATS_TEST_TMPDIR/link/" --prefix p --manifest "$M"
	assert_success
	check_manifest exe 2 my-exe
}

@test "dylib: distinct libraries with their nonce; the host loads each" {
	mk dylib 5 --jobs 2
	check_manifest dylib 5
	ext=$(awk -F'\t' '$1 == "artifact" { print $3; exit }' "$M")
	ext=.${ext##*.}
	case $(uname -s) in
	Darwin) assert_equal "$ext" .dylib ;;
	*) assert_equal "$ext" .so ;;
	esac
	assert_equal "$(contents)" "$( (names "$ext" 5; echo p-host) | LC_ALL=C sort)"
	check_all_differ
	check_nonces
	check_runs 0
	# the host prints what the library returns: that library's own nonce
	host_prints_nonce 2 "$ext"
	# a library that cannot be loaded: exit 3, dlerror on stderr
	run --separate-stderr "$W/p-host" "$W/nonexistent$ext"
	assert_equal "$status" 3
	[ -n "$stderr" ]
}

@test "exe-hardlink: every artifact is the base's inode" {
	mk exe-hardlink 5
	check_manifest exe-hardlink 5
	assert_equal "$(contents)" "$( (names "" 5; echo p-base) | LC_ALL=C sort)"
	base=$(inode "$W/p-base")
	while read -r obj; do
		assert_equal "$(inode "$obj")" "$base"
	done < <(objects)
	check_runs 0
}

@test "exe-copy: same bytes as the base, every artifact a new inode" {
	mk exe-copy 5
	check_manifest exe-copy 5
	assert_equal "$(contents)" "$( (names "" 5; echo p-base) | LC_ALL=C sort)"
	inodes=$(inode "$W/p-base")
	while read -r obj; do
		cmp "$W/p-base" "$obj"
		inodes="$inodes"$'\n'"$(inode "$obj")"
	done < <(objects)
	assert_equal "$(printf '%s\n' "$inodes" | sort | uniq -d)" ""
	assert_equal "$(printf '%s\n' "$inodes" | grep -c .)" 6
	check_runs 0
}

@test "exe-rewrite: each slot is a new inode with the base's bytes, none of them the base's" {
	mk exe-rewrite 4
	check_manifest exe-rewrite 4
	assert_equal "$(contents)" "$( (names "" 4; echo p-base) | LC_ALL=C sort)"
	inodes=$(inode "$W/p-base")
	while read -r obj; do
		cmp "$W/p-base" "$obj"
		inodes="$inodes"$'\n'"$(inode "$obj")"
	done < <(objects)
	assert_equal "$(printf '%s\n' "$inodes" | sort | uniq -d)" ""
	assert_equal "$(printf '%s\n' "$inodes" | grep -c .)" 5
	check_runs 0
}

@test "exe-copy, exe-hardlink: the base was launched before the artifacts were made from it" {
	make_logging_cc
	for kind in exe-copy exe-hardlink; do
		rm -rf "$W" "$M" && mkdir "$W" && : >"$EXECLAG_TEST_LOG"
		mk "$kind" 3 --cc "$FAKECC"
		# launched exactly once, the base itself
		assert_equal "$(cat "$EXECLAG_TEST_LOG")" "$(inode "$W/p-base") $(cd "$W" && pwd -P)/p-base"
		launched=$(awk '{ print $1 }' "$EXECLAG_TEST_LOG")
		while read -r obj; do
			if [ "$kind" = exe-hardlink ]; then
				assert_equal "$(inode "$obj")" "$launched"
			else
				[ "$(inode "$obj")" != "$launched" ] || fail "$obj is the launched inode"
			fi
		done < <(objects)
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
	while read -r obj; do
		[ "$(inode "$obj")" != "$base" ] || fail "$obj still is the launched inode $base"
		cmp "$W/p-base" "$obj"
	done < <(objects)
}

@test "--first: a second run makes the next artifacts beside the first ones; the manifest lists all" {
	for kind in exe script-via-sh dylib; do
		rm -rf "$W" "$M" && mkdir "$W"
		mk "$kind" 3 --jobs 2
		before=$(sha $(objects))
		host=""
		[ "$kind" != dylib ] || host=$(inode "$W/p-host")
		mk "$kind" 2 --jobs 2 --first 3
		check_manifest "$kind" 5
		# the first three untouched, the new ones with bytes and a nonce
		# of their own, the host the one made first
		assert_equal "$(sha $(objects) | head -n 3)" "$before"
		check_all_differ
		check_nonces
		[ -z "$host" ] || assert_equal "$(inode "$W/p-host")" "$host"
		check_runs 0
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
		check_manifest "$kind" 5
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
	run --separate-stderr "$BIN/mkfresh" --kind exe-copy --count 2 --first 3 --dir "$W" \
		--prefix p --manifest "$M"
	assert_equal "$status" 2
	[[ "$stderr" == "mkfresh: --first 3: no "*"/p-base: the run that made artifact 0 makes it"* ]] || fail "$stderr"
	[ ! -e "$M" ] && assert_equal "$(contents)" ""
	run --separate-stderr "$BIN/mkfresh" --kind dylib --count 2 --first 3 --dir "$W" \
		--prefix p --manifest "$M"
	assert_equal "$status" 2
	[[ "$stderr" == *"/p-host: the run that made artifact 0 makes it"* ]] || fail "$stderr"
	for bad in -1 x 99999; do
		run --separate-stderr "$BIN/mkfresh" --kind script --count 2 --first "$bad" --dir "$W" \
			--prefix p --manifest "$M"
		assert_equal "$status" 2
		assert_equal "$stderr" "mkfresh: --first: '$bad' is not a whole number in 0..99998 (with --count 2)"
	done
	# the slots from --first on must be new: an artifact in the way is kept,
	# and the manifest of the run before stays as it was
	mk script 4
	cp "$M" "$BATS_TEST_TMPDIR/m4"
	run --separate-stderr "$BIN/mkfresh" --kind script --count 2 --first 3 --dir "$W" \
		--prefix p --manifest "$M"
	assert_equal "$status" 1
	cmp "$M" "$BATS_TEST_TMPDIR/m4"
	assert_equal "$(contents)" "$(names .sh 4)"
}

@test "system-copy: byte copies of echo, each exits 0" {
	mk system-copy 3
	check_manifest system-copy 3
	assert_equal "$(contents)" "$(names "" 3)"
	echo_bin=/bin/echo
	[ -x "$echo_bin" ] || echo_bin=/usr/bin/echo
	while read -r obj; do
		cmp "$echo_bin" "$obj"
	done < <(objects)
	check_runs 0
}

@test "quarantined: refused off macOS" {
	[ "$(uname -s)" != Darwin ] || skip "macOS makes this case"
	expect_usage_error --kind quarantined --count 2 --dir "$W" --prefix p --manifest "$M"
	assert_equal "${stderr_lines[0]}" "mkfresh: quarantined is a macOS-only case"
}

# ---- payloads ----

# ---- padding (--size) ----

# check_padded KIND N BYTES: the manifest says the padding, and is otherwise
# the documented one; every object is BYTES larger than an unpadded one
# would be (the program itself: under 256 KiB)
check_padded() {
	local kind=$1 n=$2 bytes=$3 obj size
	assert_equal "$(grep '^pad	' "$M")" "$(printf 'pad\t%s' "$bytes")"
	assert_equal "$(sed -n 6p "$M" | cut -f 1)" pad
	grep -v '^pad	' "$M" >"$M.plain"
	M="$M.plain" check_manifest "$kind" "$n"
	while read -r obj; do
		size=$(wc -c <"$obj" | tr -d ' ')
		[ "$size" -ge "$bytes" ] && [ "$size" -lt $((bytes + 262144)) ] ||
			fail "$obj: $size bytes, want $bytes + under 256 KiB"
	done < <(objects)
}

@test "--size: every exe carries its own random bytes, and still runs" {
	mk exe 3 --size 1m
	check_padded exe 3 1048576
	check_all_differ
	check_nonces
	check_runs 0
	# not only the nonce differs: nearly every byte of the padding does
	diff=$(cmp -l "$W/p-0000" "$W/p-0001" | wc -l | tr -d ' ')
	[ "$diff" -gt 1000000 ] || fail "only $diff bytes differ"
	# the padding's source is gone with the compiler's input
	assert_equal "$(contents)" "$(names "" 3)"
}

@test "--size: the dylib's libraries are padded, the host is not; copies keep the base's bytes" {
	mk dylib 2 --size 64k
	check_padded dylib 2 65536
	[ "$(wc -c <"$W/p-host" | tr -d ' ')" -lt 65536 ] || fail "the host was padded"
	check_runs 0
	rm -rf "$W" "$M" "$M.plain" && mkdir "$W"
	mk exe-copy 2 --size 16k
	check_padded exe-copy 2 16384
	assert_equal "$(sha "$W/p-0000")" "$(sha "$W/p-base")"
	check_runs 0
	# 0 is no padding: no pad line
	rm -rf "$W" "$M" && mkdir "$W"
	mk exe 1 --size 0
	check_manifest exe 1
}

@test "--size: a work folder whose name holds quotes, a backslash and a space" {
	W="$BATS_TEST_TMPDIR/a\"b\\c d'e"
	mkdir -p "$W"
	mk exe 1 --size 4k
	check_padded exe 1 4096
	check_runs 0
}

@test "--size: refused for scripts and system-copy, and when no size from 0 to 64m" {
	for kind in script script-via-sh system-copy; do
		expect_usage_error --kind "$kind" --count 1 --dir "$W" --prefix p --manifest "$M" --size 1m
	done
	for z in 65m 1g -1 abc 1.5m "" k 99999999999; do
		expect_usage_error --kind exe --count 1 --dir "$W" --prefix p --manifest "$M" --size "$z"
	done
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

# near_size A B: the files' sizes differ by at most 64 bytes (a nonce of
# another length; the simulated ones are as long as their longest)
near_size() {
	local a b
	a=$(wc -c <"$1" | tr -d ' ') b=$(wc -c <"$2" | tr -d ' ')
	[ $((a - b)) -le 64 ] && [ $((b - a)) -le 64 ] || fail "$1: $a bytes, $2: $b"
}

# each artifact its own nonce and padding, the size of its own build, and it
# runs.  On macOS each is compiled (a signed program whose bytes change is
# killed at its launch there).
@test "--simulated: exe and dylib from one compile each, each artifact its own, of its own size" {
	make_counting_cc
	local kind size ext want
	for kind in exe dylib; do
		for size in 0 64k; do
			rm -rf "$W" "$M" "$W.own" && mkdir "$W" "$W.own" && : >"$CC_LOG"
			mk "$kind" 5 --size "$size" --cc "$COUNTCC" --simulated
			# one compile: the template (and the dylib's host); on macOS each
			want=1
			[ "$(uname -s)" != Darwin ] || want=5
			[ "$kind" != dylib ] || want=$((want + 1))
			assert_equal "$(grep -c . "$CC_LOG")" "$want"
			if [ "$size" = 0 ]; then check_manifest "$kind" 5; else check_padded "$kind" 5 65536; fi
			ext=""
			[ "$kind" != dylib ] || ext=$(awk -F'\t' '$1 == "artifact" { print $3; exit }' "$M") ext=.${ext##*.}
			assert_equal "$(contents)" "$( (names "$ext" 5; [ "$kind" != dylib ] || echo p-host) | LC_ALL=C sort)"
			check_all_differ
			check_nonces
			check_runs 0
			# artifacts of the same names' length, compiled each: the same size
			run "$BIN/mkfresh" --kind "$kind" --count 2 --size "$size" --dir "$W.own" --prefix p \
				--manifest "$M.own"
			assert_success
			near_size "$W/p-0000$ext" "$W.own/p-0000$ext"
			near_size "$W/p-0004$ext" "$W.own/p-0001$ext"
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
	check_manifest exe 4
	check_nonces
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
	check_manifest exe 3
	assert_equal "$(contents)" "$(names "" 3)"
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
		check_manifest "$kind" 3
		[ "$kind" = exe-copy ] || check_all_differ
		[ "$kind" = exe-copy ] || check_nonces
		check_runs 0
		near_size "$(objects | sed -n 1p)" "$BATS_TEST_TMPDIR/first"
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
	check_nonces
	check_runs 0
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
			if [ "$size" = 0 ]; then check_manifest "$kind" 8; else check_padded "$kind" 8 65536; fi
			# the work folder holds the artifacts (and the host), nothing else
			assert_equal "$(contents)" "$( (names "$ext" 8; [ "$kind" != dylib ] || echo p-host) | LC_ALL=C sort)"
			check_all_differ
			check_nonces
			check_runs 0
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
	check_manifest dylib 10
	check_nonces
}

@test "--template: a failed call removes what it made, and nothing made before it" {
	[ "$(uname -s)" != Darwin ] || skip "on macOS each artifact is compiled: no template"
	export EXECLAG_TEMPLATES="$BATS_TEST_TMPDIR/templates"
	# artifact 2 is there already: refused after the template is made
	: >"$W/p-0002"
	run --separate-stderr "$BIN/mkfresh" --kind exe --count 3 --dir "$W" --prefix p --manifest "$M" --template
	assert_failure 1
	[[ "$stderr" == *"p-0002 already exists"* ]] || fail "$stderr"
	assert_equal "$(contents)" "p-0002"
	[ ! -e "$M" ]
	# a later look's call that fails leaves the earlier artifacts
	rm "$W/p-0002"
	mk exe 2 --template
	: >"$W/p-0003"
	run --separate-stderr "$BIN/mkfresh" --kind exe --count 2 --first 2 --dir "$W" --prefix p --manifest "$M" --template
	assert_failure 1
	assert_equal "$(contents)" "$(printf 'p-0000\np-0001\np-0003')"
	check_manifest exe 2
}

@test "payload kill: script, script-via-sh and exe artifacts die by SIGKILL" {
	for kind in script script-via-sh exe; do
		rm -rf "$W" "$M" && mkdir "$W"
		mk "$kind" 2 --payload kill
		check_runs 137
	done
}

@test "payload fail: script and exe artifacts exit 3" {
	for kind in script exe; do
		rm -rf "$W" "$M" && mkdir "$W"
		mk "$kind" 2 --payload fail
		check_runs 3
	done
}

@test "payload kill|fail is refused for the other kinds" {
	for kind in exe-copy exe-hardlink exe-rewrite system-copy dylib; do
		expect_usage_error --kind "$kind" --count 2 --dir "$W" --prefix p --manifest "$M" --payload kill
	done
	expect_usage_error --kind exe --count 2 --dir "$W" --prefix p --manifest "$M" --payload maybe
}

# ---- bad input: exit 2, one line, nothing made ----

@test "count 0, -1, abc, 1e9, 100001, empty: refused" {
	for n in 0 -1 abc 1e9 100001 ""; do
		expect_usage_error --kind exe --count "$n" --dir "$W" --prefix p --manifest "$M"
	done
}

@test "unknown kind, unknown option, missing options: refused" {
	expect_usage_error --kind exe-teleport --count 2 --dir "$W" --prefix p --manifest "$M"
	expect_usage_error --kind exe --count 2 --dir "$W" --prefix p --manifest "$M" --fast
	assert_equal "$stderr" "mkfresh: unknown option '--fast' (try --help)"
	expect_usage_error --count 2 --dir "$W" --prefix p --manifest "$M"
	expect_usage_error --kind exe --dir "$W" --prefix p --manifest "$M"
	expect_usage_error --kind exe --count 2 --prefix p --manifest "$M"
	expect_usage_error --kind exe --count 2 --dir "$W" --manifest "$M"
	expect_usage_error --kind exe --count 2 --dir "$W" --prefix p
	expect_usage_error --kind exe --count 2 --dir "$W" --prefix p --manifest
	assert_equal "$stderr" "mkfresh: --manifest needs a value (try --help)"
	expect_usage_error --kind exe --count 2 --dir "$W" --prefix p --manifest "$M" --jobs 0
}

@test "missing or unwritable WORKDIR: refused, and not created" {
	expect_usage_error --kind script --count 2 --dir "$BATS_TEST_TMPDIR/nope" --prefix p --manifest "$M"
	[ ! -e "$BATS_TEST_TMPDIR/nope" ]
	# root may write anywhere, but not below a regular file
	: >"$BATS_TEST_TMPDIR/file"
	expect_usage_error --kind script --count 2 --dir "$BATS_TEST_TMPDIR/file/sub" --prefix p --manifest "$M"
	expect_usage_error --kind script --count 2 --dir "$BATS_TEST_TMPDIR/file" --prefix p --manifest "$M"
}

@test "a tab or newline in a path, a slash in the prefix: refused" {
	mkdir "$BATS_TEST_TMPDIR/a	b" "$BATS_TEST_TMPDIR/c
d"
	expect_usage_error --kind script --count 2 --dir "$BATS_TEST_TMPDIR/a	b" --prefix p --manifest "$M"
	expect_usage_error --kind script --count 2 --dir "$BATS_TEST_TMPDIR/c
d" --prefix p --manifest "$M"
	expect_usage_error --kind script --count 2 --dir "$W" --prefix p --manifest "$BATS_TEST_TMPDIR/m	x"
	expect_usage_error --kind script --count 2 --dir "$W" --prefix a/b --manifest "$M"
	expect_usage_error --kind script --count 2 --dir "$W" --prefix "" --manifest "$M"
	assert_equal "$(ls -A "$BATS_TEST_TMPDIR/a	b")" ""
}

@test "no C compiler: CC=/nonexistent/cc, --cc, and cc missing from PATH" {
	CC=/nonexistent/cc expect_usage_error --kind exe --count 2 --dir "$W" --prefix p --manifest "$M"
	assert_equal "${stderr_lines[0]}" "mkfresh: no C compiler: /nonexistent/cc not found (install one, or set CC)"
	expect_usage_error --kind dylib --count 2 --dir "$W" --prefix p --manifest "$M" --cc /nonexistent/cc
	mkdir "$BATS_TEST_TMPDIR/empty"
	run --separate-stderr env -u CC PATH="$BATS_TEST_TMPDIR/empty" "$BIN/mkfresh" \
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
	*-0004.c) echo "$a:1:1: error: no good" >&2; echo "second line" >&2; exit 1 ;;
	esac
done
exec cc "$@"
CC
	chmod 755 "$badcc"
	run --separate-stderr "$BIN/mkfresh" --kind exe --count 8 --jobs 2 --dir "$W" \
		--prefix p --manifest "$M" --cc "$badcc"
	assert_equal "$status" 1
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" == *"p-0004.c:1:1: error: no good" ]] || fail "stderr: $stderr"
	[ ! -e "$M" ]
	assert_equal "$(contents)" ""
}

@test "an existing file in the way: exit 1, it is kept, the rest removed" {
	echo precious >"$W/p-0002"
	run --separate-stderr "$BIN/mkfresh" --kind exe-copy --count 5 --dir "$W" \
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
	run --separate-stderr "$BIN/mkfresh" --help
	assert_success
	assert_output --partial "usage: mkfresh --kind KIND"
	assert_equal "$stderr" ""
}
