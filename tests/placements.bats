#!/usr/bin/env bats
# Every way a build puts a program in place is a case (issue 42, item 1;
# docs/remedies.md): what mkfresh makes of each placement, read from the
# files themselves and from a compiler whose programs log which file (which
# inode) was launched -- a clone, a hard link made at the launch, new bytes
# or the same bytes written into a launched file, a touched file, and a new
# program assessed before its launch.

load test_helper/common-setup
load test_helper/mkfresh
# run_both and run_sep: bats' run and run --separate-stderr, cheaper
load test_helper/quickrun

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s micro/bin/mkfresh micro/bin/launch >/dev/null
}

setup() {
	mkfresh_setup
}

@test "overwrite, samebytes, touch: each slot launched at its path, then changed in place (its inode)" {
	make_logging_cc
	local kind paths wd o T=$BATS_TEST_TMPDIR
	# (each kind's work folder its own, made at once: no rm and mkdir a kind)
	mkdir "$T/w-exe-overwrite" "$T/w-exe-samebytes" "$T/w-exe-touch"
	for kind in exe-overwrite exe-samebytes exe-touch; do
		W="$T/w-$kind" M="$T/$kind.manifest"
		: >"$EXECLAG_TEST_LOG"
		mk "$kind" 3 --cc "$FAKECC"
		# the base, then every slot at its own path (the log's paths, the
		# work folder resolved and the objects by the shell: no awk, no cd)
		field_of paths 2 "$EXECLAG_TEST_LOG"
		phys wd "$W"
		objs_read
		printf -v o '%s\n' "${OBJS[@]}"
		assert_equal "$paths" "$wd/p-base"$'\n'"${o%$'\n'}"
		# each slot is still the inode that was launched there, not the
		# base's (one ls, one awk: the log's inode at each path, and now)
		ls -i "$W/p-base" "${OBJS[@]}" >"$T/ls"
		awk -v base="$W/p-base" '
			FNR == NR { at[$2] = $1; next }
			$2 == base { b = $1; next }
			{ now[$2] = $1; order[n++] = $2 }
			END {
				for (k = 0; k < n; k++) {
					o = order[k]
					if (now[o] != at[o]) print o ": inode " now[o] ", launched " at[o]
					if (now[o] == b) print o ": the base inode"
				}
			}' "$EXECLAG_TEST_LOG" "$T/ls" >"$T/inodes"
		slurp o "$T/inodes"
		assert_equal "$o" ""
		# nothing beside the artifacts and the base (mkfresh-check's names=)
		chk names=:3:p-base
	done
}

@test "overwrite writes each slot new bytes of its own; samebytes and touch keep the base's bytes" {
	mk exe-overwrite 3
	# each runs; none has the base's bytes; not all the same bytes (one sha)
	chk runs=0
	objs_read
	assert_equal "$(sha "$W/p-base" "${OBJS[@]}" | awk 'NR == 1 { b = $1; next }
		$1 == b { print "slot " NR - 1 " has the base bytes" } !s[$1]++ { n++ } END { if (n < 2) print "the slots share their bytes" }')" ""
	mkdir "$W-exe-samebytes" "$W-exe-touch"
	for kind in exe-samebytes exe-touch; do
		W="$BATS_TEST_TMPDIR/work-$kind" M="$BATS_TEST_TMPDIR/$kind.manifest"
		mk "$kind" 2
		# the base and the slots: one content (mkfresh-check's onecontent=)
		chk "onecontent=$W/p-base"
	done
}

@test "overwrite, samebytes, touch: each slot's modification time later than when it was launched" {
	# each program, when launched, leaves a stamp with its own modification
	# time (touch -r) in another folder; the slot is newer than its stamp
	# (the placement sets the time itself, to the nanosecond, so a coarse
	# file-system clock cannot hide the change); a copy is not
	make_logging_cc
	local kind obj T=$BATS_TEST_TMPDIR
	# (each kind's work and stamps folders their own, made at once: no rm
	# and mkdir a kind)
	mkdir "$T/w-exe-overwrite" "$T/w-exe-samebytes" "$T/w-exe-touch" "$T/w-exe-copy" \
		"$T/stamps-exe-overwrite" "$T/stamps-exe-samebytes" "$T/stamps-exe-touch" "$T/stamps-exe-copy"
	for kind in exe-overwrite exe-samebytes exe-touch exe-copy; do
		W="$T/w-$kind" M="$T/$kind.manifest"
		export EXECLAG_TEST_STAMPS="$T/stamps-$kind"
		mk "$kind" 2 --cc "$FAKECC"
		[ "$kind" != exe-copy ] || "$BIN/launch" --manifest "$M" --out "$BATS_TEST_TMPDIR/s.tsv" --quiet --passes first
		# (the objects by the shell: no awk)
		objs_read
		for obj in "${OBJS[@]}"; do
			[ -e "$EXECLAG_TEST_STAMPS/${obj##*/}" ] || fail "$kind: $obj was not launched"
			if [ "$kind" = exe-copy ]; then
				[ -z "$(find "$obj" -newer "$EXECLAG_TEST_STAMPS/${obj##*/}")" ] || fail "$obj changed after its launch"
			else
				[ -n "$(find "$obj" -newer "$EXECLAG_TEST_STAMPS/${obj##*/}")" ] || fail "$kind: $obj is not newer than at its launch"
			fi
		done
		[ "${#OBJS[@]}" = 2 ] || fail "$kind: ${#OBJS[@]} objects, not 2"
	done
}

@test "exe-freshlink: no object until launch links it to the base, just before its first launch" {
	mk exe-freshlink 3
	local wd base a b lf="" obj bad n
	phys wd "$W"
	base=$wd/p-base
	# (the manifest's link_from lines' paths, and the objects, by the shell)
	while IFS=$'\t' read -r a b; do
		[ "$a" != link_from ] || lf=$lf$b$'\n'
	done <"$M"
	assert_equal "${lf%$'\n'}" "$base"
	objs_read
	for obj in "${OBJS[@]}"; do [ ! -e "$obj" ] || fail "$obj exists before its launch"; done
	run_both -0 "$BIN/launch" --manifest "$M" --out "$BATS_TEST_TMPDIR/s.tsv" --quiet
	# the base and every object: one inode (mkfresh-check's inodes=)
	chk inodes=1:p-base
	# every launch ran: the links made before the first pass's, the repeats through them
	# (one awk: the samples that did not, then how many samples)
	awk -F'\t' '$1 == "sample" { n++; if ($6 != 0 || $7 != 0 || $8 != 0) print } END { print n + 0 }' \
		"$BATS_TEST_TMPDIR/s.tsv" >"$BATS_TEST_TMPDIR/ran"
	slurp bad "$BATS_TEST_TMPDIR/ran"
	n=${bad##*$'\n'}
	if [[ $bad == *$'\n'* ]]; then bad=${bad%$'\n'*}; else bad=""; fi
	assert_equal "$bad" ""
	assert_equal "$n" 6
}

@test "a manifest's link_from is one absolute path, else it is refused in one line" {
	mk exe-freshlink 1
	sed 's/^link_from	.*/link_from	relative\/p-base/' "$M" >"$M.bad"
	run_sep -2 "$BIN/launch" --manifest "$M.bad" --out "$BATS_TEST_TMPDIR/s.tsv" --quiet
	assert_equal "$stderr" "launch: $M.bad:6: corrupt manifest: link_from is not one absolute path"
	# a base that is gone: the launch fails with its errno, the run goes on
	rm "$W/p-base"
	run_both -0 "$BIN/launch" --manifest "$M" --out "$BATS_TEST_TMPDIR/s.tsv" --quiet --passes first
	assert_equal "$(awk -F'\t' '$1 == "sample" { print $6, $8 }' "$BATS_TEST_TMPDIR/s.tsv")" "-1 2"
}

@test "exe-clone: a new inode with the base's bytes, or n/a with the call's reason and nothing left" {
	run_sep "$BIN/mkfresh" --kind exe-clone --count 2 --dir "$W" --prefix p --manifest "$M"
	if [ "$status" = 5 ]; then
		# this machine's file system has no clones (ext4, tmpfs: EOPNOTSUPP)
		[[ $stderr == "mkfresh: n/a: exe-clone cannot be made here: "*": "?* ]] || fail "$stderr"
		assert_equal "${#stderr_lines[@]}" 1
		[ ! -e "$M" ] || fail "a manifest was written"
		# (WORKDIR empty: ls -A's nothing, by the shell's globs)
		assert_empty "$W"
		return 0
	fi
	assert_equal "$status" 0
	local obj a b
	inode_of b "$W/p-base"
	objs_read
	for obj in "${OBJS[@]}"; do
		cmp "$W/p-base" "$obj"
		inode_of a "$obj"
		[ "$a" != "$b" ] || fail "$obj is the base's inode"
	done
}

@test "exe-assessed: each artifact assessed before its launch, each step timed; none when simulated" {
	mk exe-assessed 3
	local os want got i
	os=$(uname -s)
	# INDEX TOOL MS STATUS: macOS spctl then gktool (-1: absent), else the read
	if [ "$os" = Darwin ]; then want="spctl gktool"; else want="read"; fi
	# (one awk: each index's tools, "I: TOOL... " a line, then the
	# statuses, each once in the order first seen: sort -u's one line where
	# all are the same)
	awk -F'\t' '{ t[$1] = t[$1] $2 " "; if (!($4 in s)) { s[$4] = 1; st = st (st == "" ? "" : "\n") $4 } }
		END { for (i = 0; i <= 2; i++) print i ": " t[i]; print st }' "$M.assessed" >"$BATS_TEST_TMPDIR/tools"
	slurp got "$BATS_TEST_TMPDIR/tools"
	for i in 0 1 2; do
		[[ $got == "$i: "* ]] || fail "no line of index $i: $got"
		assert_equal "${got%%$'\n'*}" "$i: $want "
		got=${got#*$'\n'}
	done
	awk -F'\t' 'NF != 4 || $3 !~ /^[0-9]+\.[0-9][0-9][0-9]$/ || $4 !~ /^-?[0-9]+$/ { print; bad = 1 } END { exit bad }' "$M.assessed"
	[ "$os" = Darwin ] || assert_equal "$got" 0
	W="$BATS_TEST_TMPDIR/work-sim" M="$BATS_TEST_TMPDIR/sim.manifest"
	mkdir "$W"
	mk exe-assessed 2 --simulated
	[ ! -e "$M.assessed" ] || fail "a simulated run assessed its artifacts"
}

# ---- known truth: which placement pays under which key (issue 42, item 6) ----

# The table docs/remedies.md ("The calibration gate") and docs/method.md
# ("The simulator") give: for each placement, whether its first launch pays
# a check under a cache keyed by inode, path, content, or inode and
# modification time (as fapolicyd's object cache).  "pays": every first
# launch is held; "-": none is.  An overwrite that an inode key lets
# through is changed code never checked.
TRUTH='
exe            pays pays pays pays
exe-copy       pays pays -    pays
exe-clone      pays pays -    pays
exe-hardlink   -    pays -    -
exe-freshlink  -    pays -    -
exe-rewrite    pays -    -    pays
exe-overwrite  -    -    pays pays
exe-samebytes  -    -    -    pays
exe-touch      -    -    -    pays
exe-assessed   pays pays pays pays
'
KEYS="inode path content inode-mtime"

# sim_manifest KIND [N]: $BATS_TEST_TMPDIR/sim/KIND-N.m, a manifest of N
# (20) artifacts of KIND that the simulator never runs (made once, by the
# shell's printf, without bats' debug trap; its folder made once: no awk,
# no mkdir a manifest)
sim_manifest() { kit_untraced _sim_manifest "$@"; }
_sim_manifest() {
	local d="$BATS_TEST_TMPDIR/sim" n=${2:-20} i=0 text
	SIM_M="$d/$1-$n.m"
	[ ! -f "$SIM_M" ] || return 0
	[ -d "$d" ] || mkdir -p "$d"
	printf -v text 'execlag-manifest\t1\ncase\t%s\nkind\t%s\nn\t%s\nworkdir\t%s\n' "$1" "$1" "$n" "$d"
	while [ "$i" -lt "$n" ]; do
		printf -v text '%sartifact\t%s\t%s/a%s\t%s/a%s\n' "$text" "$i" "$d" "$i" "$d" "$i"
		i=$((i + 1))
	done
	printf '%s' "$text" >"$SIM_M"
}

# sim_launch KIND SPEC OUT [N]: the manifest of N (20) artifacts of KIND
# launched by the simulator with SPEC, first and repeat, into OUT
sim_launch() {
	sim_manifest "$1" "${4:-}"
	"$BIN/launch" --manifest "$SIM_M" --out "$3" --launcher "sim:latency=40 $2" --quiet --passes first,repeat
}

# held_killed FILE...: for each samples FILE, how many first launches
# were held (took the latency, 40 ms, or more) and how many were killed
# (SIGKILL), "HELD KILLED" a line (one awk for them all)
held_killed() {
	awk -F'\t' 'FNR == 1 && NR > 1 { printf "%d %d\n", h, k; h = k = 0 }
		$1 == "sample" && $2 == "first" { if ($7 == 9) k++; else if ($5 >= 40000000) h++ }
		END { printf "%d %d\n", h, k }' "$@"
}

@test "the simulator: each placement pays under each key as the table says, 20 of 20 or 0 of 20" {
	local kind cells key want="" runs=() files=() n=0
	# each placement under each key launched (a samples file each), then
	# one awk counts them all: a line each, in the table's order
	while read -r kind cells; do
		[ -n "$kind" ] || continue
		set -- $cells
		for key in $KEYS; do
			if [ "$1" = pays ]; then want="$want$kind key=$key: 20 0"$'\n'; else want="$want$kind key=$key: 0 0"$'\n'; fi
			n=$((n + 1))
			sim_launch "$kind" "key=$key seed=7" "$BATS_TEST_TMPDIR/sim/s$n"
			runs+=("$kind key=$key: ") files+=("$BATS_TEST_TMPDIR/sim/s$n")
			shift
		done
	done <<<"$TRUTH"
	local got="" i=0 line
	while IFS= read -r line; do
		got="$got${runs[$i]}$line"$'\n'
		i=$((i + 1))
	done < <(held_killed "${files[@]}")
	# held, killed against the table
	assert_equal "$got" "$want"
}

@test "the simulator: a program read whole first is not checked again by a checker of opens" {
	# exe-assessed's read happens while making: a checker of execs still
	# checks the launch, one of opens (on=open) saw the file at the read
	# (the three launched, then one awk for them all: HELD KILLED a line)
	local S="$BATS_TEST_TMPDIR/sim" got
	sim_launch exe-assessed 'key=inode on=exec seed=7' "$S/s1"
	sim_launch exe-assessed 'key=inode on=open seed=7' "$S/s2"
	sim_launch exe 'key=inode on=open seed=7' "$S/s3"
	held_killed "$S/s1" "$S/s2" "$S/s3" >"$S/hk"
	slurp got "$S/hk"
	assert_equal "$got" "20 0
0 0
20 0"
}

@test "the simulator's kill=R refuses exactly floor(N R) of N held checks, only checks, any seed" {
	local seed S="$BATS_TEST_TMPDIR/sim" files=() want="" got
	# (each launched into a samples file of its own, then one awk for them
	# all: HELD KILLED a line, in this order)
	for seed in 1 2 3; do
		# 20 held first launches: 5 killed, the other 15 held
		sim_launch exe "key=inode kill=0.25 seed=$seed" "$S/k$seed-exe"
		sim_launch exe-copy "key=inode kill=0.1 seed=$seed" "$S/k$seed-copy"
		# nothing held, nothing killed
		sim_launch exe-hardlink "key=inode kill=0.5 seed=$seed" "$S/k$seed-hardlink"
		files+=("$S/k$seed-exe" "$S/k$seed-copy" "$S/k$seed-hardlink")
		want="$want"$'15 5\n18 2\n0 0\n'
	done
	# 3,840 launches at 5 in 3,840 (mr-boxington's rate): exactly 5 (its
	# samples in sim/s, read below)
	sim_launch exe "key=inode kill=0.0013021 seed=1" "$S/s" 3840
	held_killed "${files[@]}" "$S/s" >"$S/hk"
	slurp got "$S/hk"
	# (the 3,840's line: killed 5, held what it held)
	assert_equal "${got%$'\n'*}" "${want%$'\n'}"
	assert_equal "${got##*[$'\n' ]}" 5
	# the repeat of a killed launch passes: its object is remembered
	assert_equal "$(awk -F'\t' '$1 == "sample" && $2 == "repeat" && $7 != 0' "$BATS_TEST_TMPDIR/sim/s")" ""
	# the setting is said where set, and refused out of its range
	run_both -0 "$BIN/launch" --launcher 'sim:kill=0.5 key=inode-mtime' --describe
	assert_output --partial "key=inode-mtime "
	assert_output --partial " kill=0.5"
	run_sep -2 "$BIN/launch" --launcher 'sim:kill=1.5' --describe
	assert_equal "$stderr" "launch: sim kill '1.5' is not a share from 0 to 1"
}
