#!/usr/bin/env bats
# micro/launch: passes, threads, samples, signals, and refusing bad input.
# Its real timings (threads starting together, sequential stopping on
# sleeping scripts) are make test-live's (tests/live/launch.bats).

load test_helper/common-setup
# run_both and run_sep: bats' run and run --separate-stderr, cheaper
load test_helper/quickrun
# meta_of, joined, nlines, distinct, not_twice: the shell's reading
load test_helper/shellread

# rows COND FILE: how many lines of the tab-separated FILE the awk COND
# matches (one awk, not awk, wc and tr)
rows() { awk -F '\t' "$1"' { n++ } END { print n + 0 }' "$2"; }

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s micro/bin/launch >/dev/null
}

setup() {
	_common_setup
	D="$BATS_TEST_TMPDIR"
}

# manifest FILE N PROGRAM: N artifacts, all launching PROGRAM (its loop
# without bats' debug trap: kit_untraced)
manifest() { kit_untraced _manifest "$@"; }
_manifest() {
	{
		printf 'execlag-manifest\t1\ncase\tt\nkind\texe\nn\t%s\nworkdir\t%s\n' "$2" "$D"
		i=0
		while [ "$i" -lt "$2" ]; do
			printf 'artifact\t%s\t%s\t%s\n' "$i" "$3" "$3"
			i=$((i + 1))
		done
	} >"$1"
}

script() { # script PATH BODY
	printf '#!/bin/sh\n%s\n' "$2" >"$1"
	chmod 755 "$1"
}

@test "every artifact is launched once per pass, the samples file as documented; --passes first: one pass" {
	# (was: "every artifact is launched once per pass and the samples file has the documented shape")
	script "$D/ok.sh" 'exit 0'
	manifest "$D/m" 6 "$D/ok.sh"
	run_both -0 "$BIN/launch" --quiet --manifest "$D/m" --out "$D/s.tsv"
	# (one awk for all that is counted, a line each: the first line; the
	# first and repeat samples; every launch exited 0, no signal, no spawn
	# error, positive duration (the samples that did not); the passes)
	assert_equal "$(awk -F '\t' 'NR == 1 { head = $0 }
		$1=="sample" && $2=="first" { f++ }
		$1=="sample" && $2=="repeat" { r++ }
		$1=="sample" && ($6!=0 || $7!=0 || $8!=0 || $5<=0) { bad++ }
		$1=="pass" { p++ }
		END { print head; print f + 0; print r + 0; print bad + 0; print p + 0 }' "$D/s.tsv")" \
		$'execlag-samples\t1\n6\n6\n0\n2'
	# (was: "--passes first runs only the first pass", on 2 of the same artifacts)
	manifest "$D/m" 2 "$D/ok.sh"
	run_both -0 "$BIN/launch" --quiet --passes first --manifest "$D/m" --out "$D/s.tsv"
	assert_equal "$(rows '$1=="sample" && $2=="repeat"' "$D/s.tsv")" 0
}

@test "with T threads, thread t launches the artifacts whose index is t modulo T" {
	script "$D/ok.sh" 'exit 0'
	manifest "$D/m" 9 "$D/ok.sh"
	run_both -0 "$BIN/launch" --quiet --manifest "$D/m" --threads 3 --out "$D/s.tsv"
	meta_of v "$D/s.tsv" threads
	assert_equal "$v" 3
	assert_equal "$(rows '$1=="sample" && $3 != $4 % 3' "$D/s.tsv")" 0
}

@test "a child killed by SIGKILL is a sample with its signal, not a crash" {
	script "$D/kill.sh" 'kill -9 $$'
	manifest "$D/m" 3 "$D/kill.sh"
	run_both -0 "$BIN/launch" --quiet --manifest "$D/m" --out "$D/s.tsv"
	assert_equal "$(rows '$1=="sample" && $6==-1 && $7==9' "$D/s.tsv")" 6
}

@test "a program that cannot be spawned is a sample with its errno" {
	manifest "$D/m" 2 "$D/does-not-exist"
	run_both -0 "$BIN/launch" --quiet --manifest "$D/m" --out "$D/s.tsv"
	assert_equal "$(rows '$1=="sample" && $6==-1 && $8==2' "$D/s.tsv")" 4
}

assert_refused() { # the last run: exit 2, one line on stderr, no output file
	local f
	assert_equal "$status" 2
	assert_equal "${#stderr_lines[@]}" 1
	[ ! -e "$D/s.tsv" ]
	# nor its temporary file, beside it (a glob: no find, wc and tr a call)
	for f in "$D"/s.tsv.tmp.*; do
		[ ! -e "$f" ] || fail "left: $f"
	done
}

# corrupt_manifests GOOD: beside GOOD, m1 to m4: GOOD's lines with the
# wrong magic (sed '1s/.*/execlag-manifest\t9/'), one artifact line missing
# (sed '$d'), indexes out of order (artifact 1's index 2) and a relative
# program path (each artifact's ARGV ok.sh)
corrupt_manifests() { kit_untraced _corrupt_manifests "$@"; }
_corrupt_manifests() {
	local l a b c d n=0 m1="" m2="" m3="" m4="" last=""
	while IFS= read -r l; do
		n=$((n + 1))
		if [ "$n" = 1 ]; then m1+=$'execlag-manifest\t9\n'; else m1+="$l"$'\n'; fi
		m2+=$last
		last="$l"$'\n'
		IFS=$'\t' read -r a b c d <<<"$l"
		if [ "$a" = artifact ] && [ "$b" = 1 ]; then m3+="$a"$'\t'2$'\t'"$c"$'\t'"$d"$'\n'; else m3+="$l"$'\n'; fi
		if [ "$a" = artifact ]; then m4+="$a"$'\t'"$b"$'\t'"$c"$'\tok.sh\n'; else m4+="$l"$'\n'; fi
	done <"$1"
	printf '%s' "$m1" >"${1%/*}/m1"
	printf '%s' "$m2" >"${1%/*}/m2"
	printf '%s' "$m3" >"${1%/*}/m3"
	printf '%s' "$m4" >"${1%/*}/m4"
}

@test "a corrupt manifest is refused with one line and exit 2" {
	script "$D/ok.sh" 'exit 0'
	manifest "$D/good" 3 "$D/ok.sh"
	# m1 to m4 from its lines, by the shell (what sed and awk made of it)
	corrupt_manifests "$D/good"
	: >"$D/m5"
	printf 'garbage\n' >"$D/m6"
	for m in m1 m2 m3 m4 m5 m6; do
		run_sep "$BIN/launch" --quiet --manifest "$D/$m" --out "$D/s.tsv"
		assert_refused
		assert_output ''
		[[ "$stderr" == *"corrupt manifest"* ]]
	done
	run_sep "$BIN/launch" --quiet --manifest "$D/nope" --out "$D/s.tsv"
	assert_refused
}

@test "bad thread counts and classes are refused with one line and exit 2; --help explains the options" {
	script "$D/ok.sh" 'exit 0'
	manifest "$D/m" 3 "$D/ok.sh"
	for t in 0 -1 abc 1e9 4; do
		run_sep "$BIN/launch" --quiet --manifest "$D/m" --threads "$t" --out "$D/s.tsv"
		assert_refused
	done
	run_sep "$BIN/launch" --quiet --manifest "$D/m" --class X --out "$D/s.tsv"
	assert_refused
	run_sep "$BIN/launch" --quiet --manifest "$D/m" --passes again --out "$D/s.tsv"
	assert_refused
	# (was: "--help explains the options and exits 0")
	run_both -0 "$BIN/launch" --help
	assert_output --partial "--threads"
	assert_output --partial "--class"
}

@test "an interrupted launch writes no samples" {
	need_sigint
	script "$D/slow.sh" 'sleep 0.2'
	manifest "$D/m" 50 "$D/slow.sh"
	"$BIN/launch" --quiet --manifest "$D/m" --out "$D/s.tsv" 2>"$D/err" &
	pid=$!
	# once it has a child it is launching, its handlers set: interrupt then
	# (a state to wait for, not a time; seen once is enough: asked again, a
	# child of 0.2 s may have ended and the next not begun on a busy machine)
	i=0 started=0
	while [ $i -lt 200 ]; do
		if pgrep -P "$pid" >/dev/null; then started=1; break; fi
		sleep 0.05
		i=$((i + 1))
	done
	[ "$started" = 1 ] || fail "launch started no program within 10 s"
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 130
	[ ! -e "$D/s.tsv" ]
	# (nor its temporary file beside it: the shell's glob of $D, which has no
	# folder, not a find, wc and tr)
	for f in "$D"/s.tsv* "$D"/*/; do
		[ ! -e "$f" ] || fail "left: $f"
	done
}

# blocks_manifest FILE N: N scripts a0..aN-1, each appending its index to
# $D/order (without bats' debug trap; one chmod for them all)
blocks_manifest() { kit_untraced _blocks_manifest "$@"; }
_blocks_manifest() {
	local i=0
	{
		printf 'execlag-manifest\t1\ncase\tt\nkind\tscript\nn\t%s\nworkdir\t%s\n' "$2" "$D"
		while [ "$i" -lt "$2" ]; do
			printf '#!/bin/sh\n%s\n' "echo $i >>'$D/order'" >"$D/a$i.sh"
			printf 'artifact\t%s\t%s\t%s\n' "$i" "$D/a$i.sh" "$D/a$i.sh"
			i=$((i + 1))
		done
	} >"$1"
	chmod 755 "$D"/a[0-9]*.sh
}

@test "blocks: an artifact's repeat comes within a few launches of its first, not after the whole pass" {
	blocks_manifest "$D/m" 7
	# default: blocks of 2 launches per thread, first launches then repeats
	run_both -0 "$BIN/launch" --quiet --manifest "$D/m" --out "$D/s.tsv"
	joined v "$D/order"
	assert_equal "$v" "0 1 0 1 2 3 2 3 4 5 4 5 6 6 "
	meta_of v "$D/s.tsv" block
	assert_equal "$v" 2
	# pass wall times are summed over the blocks: one line per pass
	assert_equal "$(rows '$1=="pass"' "$D/s.tsv")" 2
	rm "$D/order"
	run_both -0 "$BIN/launch" --quiet --block 3 --manifest "$D/m" --out "$D/s.tsv"
	joined v "$D/order"
	assert_equal "$v" "0 1 2 0 1 2 3 4 5 3 4 5 6 6 "
	rm "$D/order"
	# --block 0: every first launch, then every repeat
	run_both -0 "$BIN/launch" --quiet --block 0 --manifest "$D/m" --out "$D/s.tsv"
	joined v "$D/order"
	assert_equal "$v" "0 1 2 3 4 5 6 0 1 2 3 4 5 6 "
	meta_of v "$D/s.tsv" block
	assert_equal "$v" 7
	run_both -2 "$BIN/launch" --quiet --block x --manifest "$D/m" --out "$D/s.tsv"
}

@test "blocks with T threads: one round per block by default, first launches before repeats" {
	# each block's first launches precede its repeats; every artifact is launched twice
	blocks_manifest "$D/m" 10
	# by default at T > 1, one launch per thread and block: each block is one
	# round of T launches started together, first, then its repeats
	run_both -0 "$BIN/launch" --quiet --threads 2 --manifest "$D/m" --out "$D/s.tsv"
	meta_of v "$D/s.tsv" block
	assert_equal "$v" 2
	# line pairs (1,2) (3,4) hold the block [0,2), (5,6) (7,8) the block [2,4) …
	run_both -0 awk '{ if (int($1 / 2) != int((NR - 1) / 4)) bad = 1 } END { exit bad }' "$D/order"
	not_twice v "$D/order"
	assert_equal "$v" 0
	nlines v "$D/order"
	assert_equal "$v" 20
	# --block 2: two launches per thread, blocks of 4: [0,4), [4,8), [8,10)
	rm "$D/order"
	run_both -0 "$BIN/launch" --quiet --threads 2 --block 2 --manifest "$D/m" --out "$D/s.tsv"
	meta_of v "$D/s.tsv" block
	assert_equal "$v" 4
	run_both -0 awk '{ if (int($1 / 4) != int((NR - 1) / 8)) bad = 1 } END { exit bad }' "$D/order"
	nlines v "$D/order"
	assert_equal "$v" 20
}

@test "--reference: launched once untimed, then once per artifact after each block's repeats" {
	blocks_manifest "$D/m" 5
	mkdir "$D/out"
	script "$D/out/ref.sh" "echo r >>'$D/order'"
	printf 'execlag-manifest\t1\ncase\tt\nkind\tscript\nn\t1\nworkdir\t%s\nartifact\t0\t%s\t%s\n' \
		"$D/out" "$D/out/ref.sh" "$D/out/ref.sh" >"$D/ref"
	run_both -0 "$BIN/launch" --quiet --reference "$D/ref" --manifest "$D/m" --out "$D/s.tsv"
	# blocks of 2: [0,2), [2,4), [4,5)
	joined v "$D/order"
	assert_equal "$v" "r 0 1 0 1 r r 2 3 2 3 r r 4 4 r "
	assert_equal "$(rows '$1=="sample" && $2=="reference"' "$D/s.tsv")" 5
	# (one awk, its values each followed by a space: no tr)
	assert_equal "$(awk -F '\t' '$1=="sample" && $2=="reference" && $6 == 0 { printf "%s ", $4 }' "$D/s.tsv")" "0 1 2 3 4 "
	assert_equal "$(awk -F '\t' '$1=="pass" { printf "%s ", $2 }' "$D/s.tsv")" "first repeat reference "
	# a reference that does not run: a warning, and the run goes on without it
	rm "$D/order"
	script "$D/out/ref.sh" 'exit 3'
	run_sep -0 "$BIN/launch" --quiet --reference "$D/ref" --manifest "$D/m" --out "$D/s.tsv"
	[[ "$stderr" == *"warning: the reference $D/out/ref.sh did not run (it failed): no reference pass"* ]]
	assert_equal "$(rows '$2=="reference"' "$D/s.tsv")" 0
	nlines v "$D/order"
	assert_equal "$v" 10
	# refused: a reference pass without a reference; a reference of two artifacts
	run_sep -2 "$BIN/launch" --quiet --passes first,repeat,reference --manifest "$D/m" --out "$D/s.tsv"
	[[ "$stderr" == *"the reference pass needs --reference MANIFEST"* ]]
	run_sep -2 "$BIN/launch" --quiet --reference "$D/m" --manifest "$D/m" --out "$D/s.tsv"
	[[ "$stderr" == *"want 1 artifact, not 5"* ]]
}

# sysfs_caps ROOT CAP...: a sysfs tree whose cpuN/cpu_capacity is the Nth CAP
sysfs_caps() {
	local root=$1 i=0 c
	shift
	for c in "$@"; do
		mkdir -p "$root/sys/devices/system/cpu/cpu$i"
		echo "$c" >"$root/sys/devices/system/cpu/cpu$i/cpu_capacity"
		i=$((i + 1))
	done
}

@test "core classes from cpu_capacity (Asahi, big.LITTLE): P runs on the highest capacity, E on the rest" {
	[ "$(uname -s)" = Linux ] || skip "CPU affinity from sysfs is Linux's"
	[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || skip "needs two CPUs"
	# (the shell's read of its own status: no grep)
	local l has=0
	while IFS= read -r l; do [[ "$l" != Cpus_allowed_list:* ]] || has=1; done </proc/$$/status
	[ "$has" = 1 ] || skip "no Cpus_allowed_list in /proc"
	# cpu0 an efficiency core (capacity 485), cpu1 a performance core (1024)
	sysfs_caps "$D/root" 485 1024
	script "$D/aff.sh" "awk '/^Cpus_allowed_list:/ { print \$2 }' /proc/\$\$/status >>\"$D/aff\""
	manifest "$D/m" 6 "$D/aff.sh"
	for cls in P E; do
		: >"$D/aff"
		run_both -0 env EXECLAG_SYSROOT="$D/root" "$BIN/launch" --quiet --manifest "$D/m" --class "$cls" --out "$D/s-$cls.tsv"
		want=1
		[ "$cls" = E ] && want=0
		distinct v "$D/aff"
		assert_equal "$v" "$want "
	done
	# all CPUs of one capacity (a uniform arm64 server): no classes
	sysfs_caps "$D/flat" 1024 1024
	run_sep env EXECLAG_SYSROOT="$D/flat" "$BIN/launch" --quiet --manifest "$D/m" --class P --out "$D/s.tsv"
	assert_refused
	# (its one line names it: grep -c's 1)
	[[ "${stderr_lines[0]}" == *'different cpu_capacity'* ]] || fail "stderr: $stderr"
}

# scripts DIR N BODY: N scripts DIR/a-I.sh with BODY, and a manifest DIR/m
# of them (without bats' debug trap; one chmod for them all)
scripts() { kit_untraced _scripts "$@"; }
_scripts() {
	mkdir -p "$1"
	{
		printf 'execlag-manifest\t1\ncase\tt\nkind\tscript\nn\t%s\nworkdir\t%s\n' "$2" "$1"
		i=0
		while [ "$i" -lt "$2" ]; do
			printf '#!/bin/sh\n%s\n' "$3" >"$1/a-$i.sh"
			printf 'artifact\t%s\t%s\t%s\n' "$i" "$1/a-$i.sh" "$1/a-$i.sh"
			i=$((i + 1))
		done
	} >"$1/m"
	chmod 755 "$1"/a-*.sh
}


# maker DIR BODY: a stand-in for mkfresh --first I --count K (launch's
# --planned): makes DIR/a-I.sh ... with BODY, rewrites DIR/m to list all,
# and logs "I K R" to DIR/made, R the artifacts that had run by then
maker() {
	local text
	# (read and printf, the shell's own: no cat)
	IFS= read -r -d '' text <<'MAKER' || :
#!/bin/sh
dir=$1 body=$2 first=$4 count=$6
ran=$(ls "$dir" | grep -c '\.ran$')
echo "$first $count $ran" >>"$dir/made"
n=$((first + count))
{
	printf 'execlag-manifest\t1\ncase\tt\nkind\tscript\nn\t%s\nworkdir\t%s\n' "$n" "$dir"
	i=0
	while [ "$i" -lt "$n" ]; do
		[ "$i" -lt "$first" ] || printf '#!/bin/sh\n%s\n' "$body" >"$dir/a-$i.sh"
		chmod 755 "$dir/a-$i.sh"
		printf 'artifact\t%s\t%s\t%s\n' "$i" "$dir/a-$i.sh" "$dir/a-$i.sh"
		i=$((i + 1))
	done
} >"$dir/m.new" && mv "$dir/m.new" "$dir/m"
MAKER
	printf '%s' "$text" >"$1/maker"
	chmod 755 "$1/maker"
}

@test "--planned: refused without --sequential or a maker; a failing maker ends the run with no samples" {
	scripts "$D/a" 8 'exit 0'
	maker "$D/a"
	run_sep "$BIN/launch" --manifest "$D/a/m" --out "$D/x.tsv" --planned 20 -- "$D/a/maker"
	assert_equal "$status" 2
	assert_equal "$stderr" "launch: --planned needs --sequential"
	run_sep "$BIN/launch" --sequential --manifest "$D/a/m" --out "$D/x.tsv" --planned 20
	assert_equal "$status" 2
	assert_equal "$stderr" "launch: --planned N and a maker after -- go together (see --help)"
	run_sep "$BIN/launch" --sequential --manifest "$D/a/m" --out "$D/x.tsv" --planned 6 -- "$D/a/maker"
	assert_equal "$status" 2
	assert_equal "$stderr" "launch: --planned 6 is below the 8 artifacts of $D/a/m"
	run_sep "$BIN/launch" --sequential --manifest "$D/a/m" --out "$D/x.tsv" --planned 20 -- a/maker
	assert_equal "$status" 2
	assert_equal "$stderr" "launch: the maker 'a/maker' is not an absolute path"
	[ ! -e "$D/x.tsv" ]
	# a maker that fails (the noisy scripts reach it): exit 1, no samples
	body='i=${0%.sh}; i=${i##*-}
if [ -e "$0.ran" ]; then [ $((i % 2)) = 1 ] && sleep 0.02; exit 0; fi
: >"$0.ran"; [ $((i % 2)) = 0 ] && sleep 0.02; exit 0'
	scripts "$D/b" 8 "$body"
	printf '#!/bin/sh\necho "mkfresh: no space" >&2\nexit 1\n' >"$D/b/maker"
	chmod 755 "$D/b/maker"
	run_sep "$BIN/launch" --quiet --sequential --manifest "$D/b/m" --out "$D/x.tsv" \
		--planned 20 -- "$D/b/maker"
	assert_equal "$status" 1
	assert_equal "$stderr" "mkfresh: no space"$'\n'"launch: the maker $D/b/maker failed (exit 1) making artifacts 8 to 11; no samples written"
	[ ! -e "$D/x.tsv" ]
	# one that leaves the manifest short
	printf '#!/bin/sh\nexit 0\n' >"$D/b/maker"
	rm -f "$D"/b/*.ran
	run_sep "$BIN/launch" --quiet --sequential --manifest "$D/b/m" --out "$D/x.tsv" \
		--planned 20 -- "$D/b/maker"
	assert_equal "$status" 1
	assert_equal "$stderr" "launch: the maker $D/b/maker left 8 artifacts in $D/b/m, not 12"
	[ ! -e "$D/x.tsv" ]
}
