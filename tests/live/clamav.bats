#!/usr/bin/env bats
# The kit against a real on-access scanner: ClamAV's clamd and clamonacc
# (Linux, root, fanotify), started by this file on a folder of its own and
# stopped by PID when it ends, also when a test fails.  The kit's work
# folder (TMPDIR) is that watched folder; its results, with the reference
# program of every-launch cost, are outside it.  It must report what ClamAV
# does: a first-launch penalty for a new binary and for a script only read by
# sh (clamonacc scans on open), none for a hard link, a copy or a rewrite
# with the same bytes (clamd caches clean results by MD5 and size), so the
# key content; clamonacc among the conditions; and a cost on every launch in
# the watched folder.  The penalties must agree with a hand timing.
# Skips, with one line saying why, where ClamAV is not installed, this is
# not root or fanotify permission events are unavailable.
#
# No freshclam (no network): the database is this file's own, two lines.
#   - an MD5 signature (.hdb: md5:size:name) of a harmless marker file, so
#     that the setup is proved first: the marker is refused (Operation not
#     permitted) and clamd logs FOUND;
#   - a logical signature (.ldb) that never matches (its regex ends in
#     (*FAIL)) but whose regex backtracks until clamd's PCREMatchLimit stops
#     it, on any ELF binary or #! script: a full scan then costs a fixed
#     ~15 ms (one regex run per binary, two per script: raw and normalised
#     text), as a real database's would cost something.  With the marker
#     alone a scan is almost free (a first launch cost under 1 ms more than a
#     cached one: inconclusive, nothing to test), and every cached scan
#     still costs the MD5 of the file and the round trip to clamd, the
#     every-launch cost.
# clamd runs as the clamav user the package made, as a system's clamd does,
# and that user is excluded (OnAccessExcludeUname: clamonacc requires an
# exclusion, against scanning clamd's own reads); it is given each file as a
# descriptor (--fdpass), so it needs no access to the work folders (0700).

load ../test_helper/common-setup
load ../test_helper/clamav

# The kit's cases run under ClamAV (exe and script-via-sh pay, the rest not).
KIT_CASES=exe,exe-hardlink,exe-copy,exe-rewrite,script-via-sh
# The regex's work limit: a full scan costs ~15 ms on a 2-core VM.
PCRE_LIMIT=150000

# noisy RUN: the cases whose penalty or every-launch verdict came out
# inconclusive (a busy machine: run again once); a definite verdict,
# right or wrong, is never a reason to run again.
noisy() {
	jq -r '[.cases[] | select(.verdict == "inconclusive" or .every_launch.verdict == "inconclusive") | .name] | join(",")' "$1/run.json" 2>/dev/null || true
}

setup_file() {
	_common_setup
	clamav_skip
	[ -z "$CLAMAV_SKIP" ] || return 0
	make -C "$ROOT" -s build >/dev/null
	# outside /tmp: clamonacc leaves its temporary folder alone
	CLAM=$(mktemp -d /var/tmp/execlag-clamav.XXXXXX)
	W="$CLAM/watch"
	export CLAM W
	start_clamav || return 0
	local r n
	r=$(kit_run main "$KIT_CASES")
	n=$(noisy "$r")
	if [ -n "$r" ] && [ -n "$n" ]; then
		echo "# inconclusive ($n) on a busy machine; running the kit again once, with twice the launches" >&3
		rm -rf "${CLAM:?}/results/main"
		r=$(kit_run main "$KIT_CASES" --count 60)
	fi
	KIT_RUN=$r
	export KIT_RUN
}

teardown_file() {
	stop_clamav
}

setup() {
	_common_setup
	[ -z "$CLAMAV_SKIP" ] || skip "$CLAMAV_SKIP"
	[ ! -s "$CLAM/setup.err" ] || fail "ClamAV setup: $(cat "$CLAM/setup.err")"
}

need_run() {
	if [ -z "$KIT_RUN" ] || [ ! -f "$KIT_RUN/run.json" ]; then
		fail "the kit's run under ClamAV did not finish: $(tail -n 5 "$CLAM/results/main.out")"
	fi
}

# field RUN CASE JQ: one value from a case of a run
field() { jq -r --arg c "$2" ".cases[] | select(.name == \$c) | $3" "$1/run.json"; }

@test "ClamAV on access is up: the marker in the watched folder is refused and clamd logs it FOUND" {
	run cat "$CLAM/refused.txt"
	assert_output --partial 'Operation not permitted'
	run grep 'Execlag.Test.Marker' "$CLAM/clamd.log"
	assert_output --partial 'FOUND'
	echo "# $("$(clamav_bin clamd)" --version); a full scan held by a regex of $PCRE_LIMIT steps" >&3
}

@test "under ClamAV: exe and script-via-sh slow down, hardlink, copy and rewrite do not, key content" {
	need_run
	local c v want bad="" soft=""
	for c in $(echo "$KIT_CASES" | tr ',' ' '); do
		case $c in exe | script-via-sh) want=slowdown ;; *) want=none ;; esac
		v=$(field "$KIT_RUN" "$c" .verdict)
		echo "# $c: penalty $(field "$KIT_RUN" "$c" '"\(.penalty_ms.median) ms [\(.penalty_ms.ci_low), \(.penalty_ms.ci_high)]"'), first $(field "$KIT_RUN" "$c" .first_median_ms) ms, repeat $(field "$KIT_RUN" "$c" .repeat_median_ms) ms: $v" >&3
		# A case whose truth is none may stay inconclusive after the one
		# run again (setup_file): under a scanner that costs every launch,
		# and more so sanitized, an interval near zero can still reach past
		# the 1 ms floor.  Logged; never a slowdown.
		if [ "$want" = none ] && [ "$v" = inconclusive ]; then
			echo "# $c still inconclusive after the run again (accepted: never a wrong verdict)" >&3
			soft=1
			continue
		fi
		[ "$v" = "$want" ] || bad="$bad $c=$v (want $want: $(field "$KIT_RUN" "$c" .reason))"
	done
	echo "# cache key: $(jq -r '"\(.inferred.cache_key) — \(.inferred.reason)"' "$KIT_RUN/run.json")" >&3
	[ -z "$bad" ] || fail "wrong verdicts:$bad"
	if [ -n "$soft" ]; then
		# an inconclusive leg leaves the key undetermined, never another key
		[[ "$(jq -r '.inferred.cache_key' "$KIT_RUN/run.json")" =~ ^(content|undetermined)$ ]]
	else
		assert_equal "$(jq -r '.inferred.cache_key' "$KIT_RUN/run.json")" content
	fi
}

@test "under ClamAV: the conditions name clamonacc as a fanotify listener and ClamAV as an agent" {
	need_run
	local l a
	l=$(jq -r '.conditions.fanotify_listeners' "$KIT_RUN/run.json")
	a=$(jq -r '.conditions.agents' "$KIT_RUN/run.json")
	echo "# fanotify_listeners: $l; agents: $a" >&3
	assert_regex "$l" '(^|, )clamonacc \([0-9]+\)'
	assert_regex "$a" 'ClamAV on-access scanning \(clamonacc\)'
	assert_regex "$a" 'ClamAV daemon \(clamd\)'
	run grep -i 'clamonacc' "$KIT_RUN/report.md"
	assert_success
}

@test "under ClamAV: every launch in the watched folder costs more than the reference outside it" {
	need_run
	local c v bad=""
	for c in $(echo "$KIT_CASES" | tr ',' ' '); do
		v=$(field "$KIT_RUN" "$c" .every_launch.verdict)
		echo "# $c: every launch costs $(field "$KIT_RUN" "$c" '"\(.every_launch.cost_ms.median) ms [\(.every_launch.cost_ms.ci_low), \(.every_launch.cost_ms.ci_high)] (repeat \(.every_launch.repeat_median_ms) ms, reference \(.every_launch.reference_median_ms) ms)"'): $v" >&3
		[ "$v" = slowdown ] || bad="$bad $c=$v ($(field "$KIT_RUN" "$c" .every_launch.reason))"
	done
	[ -z "$bad" ] || fail "every-launch cost not seen:$bad"
	run grep -E '^exe: every launch in the work folder costs [0-9.]+ ms more than outside' "$CLAM/results/main.out"
	assert_success
}

@test "under ClamAV: the run is valid and leaves nothing in the watched folder" {
	need_run
	assert_equal "$(find "$W" -mindepth 1 | wc -l | tr -d ' ')" 0
	local why
	why=$(schema_skip_reason)
	if [ -n "$why" ]; then
		echo "# schema not checked: $why" >&3
	else
		run validate_run_json "$KIT_RUN/run.json"
		assert_success
	fi
}

# hand_pairs KIND N: N fresh artifacts made in the watched folder as mkfresh
# makes them (a binary: cc -O0 to NAME.tmp, renamed in; a script: written in
# place), nothing opening them before their launch, each launched twice in a
# row by spawnloop (posix_spawn + waitpid, not the kit's launcher); prints
# one "first second" pair in ms per artifact.
hand_pairs() {
	local kind=$1 n=$2 dir="$W/hand.$1" i stem nonce
	mkdir -p "$dir"
	for i in $(seq 1 "$n"); do
		stem=$(printf 'hand-%s-t1-all-%04d' "$kind" "$i")
		nonce="execlag:$stem:$$:$(date +%s):$(date +%s)$((RANDOM * 32768 + RANDOM)):$i"
		case $kind in
		exe)
			printf 'static const char nonce[] = "%s";\nint main(int argc, char **argv){ (void)argv; return argc > 99 ? nonce[argc %% (int)sizeof nonce] : 0; }\n' \
				"$nonce" >"$CLAM/hand/$stem.c"
			cc -O0 -o "$dir/$stem.tmp" "$CLAM/hand/$stem.c" || return 1
			mv "$dir/$stem.tmp" "$dir/$stem"
			set -- "$dir/$stem"
			;;
		*)
			printf '#!/bin/sh\n# execlag nonce %s\nexit 0\n' "$nonce" >"$dir/$stem.sh"
			chmod 755 "$dir/$stem.sh"
			set -- /bin/sh "$dir/$stem.sh"
			;;
		esac
		"$BIN/spawnloop" 2 "$@" | awk 'NR == 1 { f = $1 } NR == 2 { printf "%.3f %.3f\n", f / 1e6, $1 / 1e6 }'
	done
	rm -rf "$dir" "${CLAM:?}/hand/"*
}

# median: of the numbers on stdin, one a line (nan for none)
. "$BATS_TEST_DIRNAME/../../scripts/lib/median"

# agree KIT HAND: the kit's penalty at most max(30% of hand, 2 ms) below
# the hand timing's, and at most twice it.  Below is the direction of the
# failures this test is for: an open before the first launch (the scanner
# caches the file: the kit sees less) or a scan the kit's launcher misses.
# Above, up to twice, is logged (the caller), not failed: no such failure
# puts the kit above, and on a loaded machine the kit and the hand timing,
# taken minutes apart, meet different load.
agree() {
	awk -v k="$1" -v h="$2" -v t="$(tolerance "$2")" 'BEGIN { exit !(k >= h - t && k <= 2 * h) }'
}

# tolerance HAND: max(30% of HAND, 2) ms
tolerance() {
	awk -v h="$1" 'BEGIN { t = 0.3 * h; if (t < 2) t = 2; print t }'
}

# above KIT HAND: whether the kit is above the hand timing by more than
# max(30%, 2 ms), to be said
above() {
	awk -v k="$1" -v h="$2" -v t="$(tolerance "$2")" 'BEGIN { exit !(k > h + t) }'
}

@test "under ClamAV: the kit's penalties agree with a hand timing of freshly made binaries and scripts" {
	# agree: not below the hand timing by 30% or 2 ms, not above 2x
	need_run
	local r="$KIT_RUN" try c kind pairs hand kit first second bad
	for try in 1 2; do
		bad=""
		for c in exe script-via-sh; do
			case $c in exe) kind=exe ;; *) kind=script ;; esac
			pairs=$(hand_pairs "$kind" 9) || fail "hand timing: cannot make a $kind"
			hand=$(printf '%s\n' "$pairs" | awk '{ print $1 - $2 }' | median)
			first=$(printf '%s\n' "$pairs" | awk '{ print $1 }' | median)
			second=$(printf '%s\n' "$pairs" | awk '{ print $2 }' | median)
			kit=$(field "$r" "$c" .penalty_ms.median)
			echo "# $c: kit penalty $kit ms; by hand $hand ms (first $first, second $second; pairs: $(printf '%s' "$pairs" | tr '\n' ',' ))" >&3
			# the hand timing sees the scan too, or there is nothing to compare
			awk -v h="$hand" 'BEGIN { exit !(h > 2) }' || bad="$bad $c: by hand only $hand ms;"
			agree "$kit" "$hand" || bad="$bad $c: kit $kit ms, by hand $hand ms;"
			! above "$kit" "$hand" || echo "# $c: the kit is above the hand timing by more than 30% (accepted up to 2x: an open before launch or a missed scan would put it below)" >&3
		done
		[ -n "$bad" ] || return 0
		[ "$try" = 1 ] || fail "the kit and the hand timing disagree:$bad"
		# a busy machine: both once more, the kit with these two cases only
		echo "# disagree ($bad); timing both again once" >&3
		r=$(kit_run again exe,script-via-sh)
		[ -f "$r/run.json" ] || fail "the kit's second run did not finish: $(tail -n 5 "$CLAM/results/again.out")"
		assert_equal "$(field "$r" exe .verdict)" slowdown
		assert_equal "$(field "$r" script-via-sh .verdict)" slowdown
	done
}

@test "under ClamAV, SIZE=4m: exe slows down; copy, hard link, rewrite are none or unsure, never a slowdown" {
	# SIZE=4m: programs of 4 MiB
	# every launch of a 4 MiB file is hashed, and costs tens of ms give or
	# take a third: a none is decided against an unloaded launch, and an
	# interval across the floor at 20 goes on to 60 (docs/method.md)
	need_run
	local out="$CLAM/results/big" d r c v bad=""
	mkdir -p "$out"
	TMPDIR="$W" RESULTS="$out" sh "$ROOT/scripts/repro" --cases exe,exe-hardlink,exe-copy,exe-rewrite \
		--threads 1 --sizes 4m >"$out.out" 2>&1 3>&- || fail "the 4 MiB run failed: $(tail -n 5 "$out.out")"
	for d in "$out"/*/; do r=$d; done
	for c in exe exe-hardlink exe-copy exe-rewrite; do
		v=$(field "$r" "$c" .verdict)
		echo "# 4 MiB $c: $v — $(field "$r" "$c" .reason); $(field "$r" "$c" '.configs[0].sequential | "\(.launched) launched of \(.planned) planned"')" >&3
		case $c:$v in
		exe:slowdown | exe-*:none | exe-*:inconclusive) ;;
		*) bad="$bad $c=$v" ;;
		esac
	done
	echo "# 4 MiB cache key: $(jq -r '"\(.inferred.cache_key) — \(.inferred.reason)"' "$r/run.json")" >&3
	[ -z "$bad" ] || fail "wrong definite verdicts:$bad"
	[[ "$(jq -r '.inferred.cache_key' "$r/run.json")" =~ ^(content|undetermined)$ ]]
}

# The placements under ClamAV (issue 42, item 6; docs/remedies.md): clamd
# keeps a clean result by the file's MD5 and size, and clamonacc asks at
# every open, so only new bytes pay: a new file, and new bytes written into
# a launched one.  A copy, a rename over of the same bytes, a hard link old
# or fresh, the same bytes written over, a touched file do not; and a file
# read whole before its launch (exe-assessed, on Linux) was scanned at that
# read, so its launch does not pay either -- where the gate, which holds at
# exec only, makes it pay.
CLAM_PAYS=" exe exe-overwrite "

@test "under ClamAV, make remedies: only new bytes pay (new file, overwrite); a read first pays the scan" {
	# never a wrong definite verdict (a placement that pays may stay
	# inconclusive on a busy machine, and one that does not may too), no
	# kill, and the placement to use here one that does not pay.  The
	# table and the plain lines' last two are printed.
	local out="$CLAM/results/remedies" r rows bad="" p v killed cost mark uses="" a scan
	mkdir -p "$out"
	run env TMPDIR="$W" RESULTS="$out" sh "$ROOT/scripts/remedies" 3>&-
	printf '%s\n' "$output" | sed -n '/^remedies: where/,/^$/p;/^use here: /p;/^avoid: /p;/^exe-assessed: assessed first/p' |
		sed 's/^/# /' >&3
	assert_success
	r=$(ls -d "$out"/*/ | head -n 1)
	rows=$(jq -r '.remedies.rows[] | "\(.placement) \(.verdict) \(.kills.killed) \(.cost_ms.median) \(.mark)"' "$r/run.json")
	# a scan: the new file's first-launch cost; a cached result costs the
	# hash and clamonacc's round trip, a few ms, which a changed file's
	# first launch may show above its repeat's: a slowdown under a third of
	# a scan is that, true but no scan, and is said
	scan=$(jq -r '.remedies.rows[] | select(.placement == "exe") | .cost_ms.median' "$r/run.json")
	[ "$(printf '%s\n' "$rows" | wc -l)" -ge 8 ] || fail "fewer rows than placements: $rows"
	while read -r p v killed cost mark; do
		[ "$cost" != null ] || bad="$bad
  $p: no first launch ran"
		[ "$killed" = 0 ] || bad="$bad
  $p: $killed killed (ClamAV refuses only what it finds)"
		case $CLAM_PAYS in
		*" $p "*) case $v in slowdown | inconclusive) ;; *) bad="$bad
  $p: $v where new bytes are scanned" ;; esac ;;
		*) unchecked_ok "$p" "$v" "$cost" "$(awk -v s="$scan" 'BEGIN { print s / 3 }')" "clamd's cached answer, a third of a scan" ||
			bad="$bad
  $p: $v ($cost ms) where clamd has the bytes' result (a scan: $scan ms)" ;;
		esac
		[ "$mark" != use ] || uses="$uses $p"
	done <<<"$rows"
	[ -z "$bad" ] || fail "against ClamAV's content key:$bad"
	for a in $uses; do
		case $CLAM_PAYS in *" $a "*) fail "to use here: $a, which pays a scan" ;; esac
	done
	# the read before each launch happened, and ended well: every step of
	# exe-assessed's one tool on Linux (read) ran and ended 0
	jq -e '.cases[] | select(.name == "exe-assessed") | .assessed_first[0] |
		.tool == "read" and .steps > 0 and .ok == .steps' "$r/run.json" >/dev/null ||
		fail "exe-assessed's reads: $(jq -c '.cases[] | select(.name == "exe-assessed") | .assessed_first' "$r/run.json")"
	[ "$(find "$W" -mindepth 1 | wc -l | tr -d ' ')" = 0 ] || fail "left in the watched folder: $(find "$W" -mindepth 1 | head -n 3)"
}
