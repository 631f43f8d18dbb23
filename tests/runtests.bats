#!/usr/bin/env bats
# scripts/tool/runtests, make test's runner: the files side by side, those
# marked heavy first, so that none of them is left to run alone at the end;
# and checks/kit.bash's kit_untraced, a test helper's way out of bats' DEBUG trap.

load test_helper/common-setup

setup() {
	_common_setup
	T="$BATS_TEST_TMPDIR"
}

# read_started: $T/started's lines into started
read_started() {
	local l
	started=()
	while IFS= read -r l; do started+=("$l"); done <"$T/started"
}

@test "runtests: two at a time, a file marked heavy starts with the first, whatever its name" {
	local v=""
	# (its first line read by the shell: no head, no grep)
	v=$(parallel --version 2>/dev/null) || :
	[[ $v == "GNU parallel"* ]] ||
		skip "GNU parallel is missing (make deps-test installs it): runtests runs one file at a time"
	mkdir -p "$T/t"
	# three files, each noting when its test starts; the heavy one comes
	# last by name (its tag the first line: printf's first argument, no cat)
	for f in a b z; do
		local tag=""
		[ "$f" != z ] || tag='# bats file_tags=heavy\n'
		# shellcheck disable=SC2059 # tag: a format of no %
		printf "$tag"'@test "%s" {\n\techo %s >>"%s"\n\tsleep 0.3\n}\n' "$f" "$f" "$T/started" >"$T/t/$f.bats"
	done
	run sh "$ROOT/scripts/tool/runtests" --jobs 2 "$T/t"
	assert_success
	assert_line "3 passed, 0 failed, 0 skipped"
	# a and z start together; b waits for one of them to end
	# (the third line, as sed -n 3p: read by the shell)
	local started=()
	kit_untraced read_started
	assert_equal "${started[2]-}" b
	# no test's time on its line unless asked (--timing)
	assert_line --regexp '^ok [0-9] b$'
	refute_line --regexp '^ok .* in [0-9]+ms$'
	# one at a time, the files' order is their names'; --timing: each
	# test's time on its line
	rm "$T/started"
	run sh "$ROOT/scripts/tool/runtests" --jobs 1 --timing "$T/t"
	assert_success
	# (the lines joined by spaces, as tr '\n' ' ': by the shell)
	kit_untraced read_started
	local joined
	printf -v joined '%s ' "${started[@]}"
	assert_equal "$joined" "a b z "
	assert_line --regexp '^ok 2 b in [0-9]+ms$'
	# by default one file more at once than there are CPUs (a file that
	# waits leaves its CPU idle): one file is enough to say so (its line
	# counts the files; two bats files fewer to run), and a file without
	# a test as well as one with (bats and its runner started for no test:
	# some 36 processes and 3 s fewer than a.bats here)
	: >"$T/e.bats"
	run sh "$ROOT/scripts/tool/runtests" "$T/e.bats"
	assert_success
	assert_line "# runtests: 1 files, $(($(getconf _NPROCESSORS_ONLN) + 1)) at once"
}

@test "kit_untraced: a helper runs without bats' DEBUG trap, set again after; status and failures its own" {
	local at=@
	mkdir -p "$T/k"
	# the inner file (its tests' "@" through $at: bats reads this file's
	# lines for tests, heredocs too): each test notes the trap inside and after; the third
	# fails inside an untraced helper, reported at the line calling it
	cat >"$T/k/k.bats" <<-INNER
	. "$ROOT/checks/kit.bash"
	setup() { kit_setup; }
	note() { trap -p DEBUG >"\$1"; return "\${2:-0}"; }
	nested() { kit_untraced note "\$1"; note "\$2"; }
	${at}test "in and after" {
		trap -p DEBUG >"$T/before"
		kit_untraced note "$T/inside"
		kit_untraced nested "$T/inside1" "$T/inside2"
		trap -p DEBUG >"$T/after"
	}
	${at}test "status" {
		kit_untraced note "$T/inside3" 3 || echo "\$?" >"$T/status"
	}
	${at}test "asserts untraced" {
		local i
		lines=()
		for ((i = 0; i < 500; i++)); do lines+=("l\$i"); done
		# a trap that counts the commands it sees, set as kit_setup's
		KIT_DEBUG_TRAP="trap -- 'cnt=\\\$((cnt + 1))' DEBUG"
		cnt=0
		eval "\$KIT_DEBUG_TRAP"
		assert_line l499
		refute_line l500
		trap - DEBUG
		echo "\$cnt" >"$T/count"
	}
	${at}test "a failure" {
		:
		kit_untraced note "$T/inside4" 1
		echo reached >"$T/reached"
	}
	INNER
	local root=$ROOT bats
	. "$ROOT/scripts/tool/batsenv"
	run --separate-stderr "$bats" --tap "$T/k/k.bats"
	[ "$status" = 1 ]
	assert_line --index 1 'ok 1 in and after'
	assert_line --index 2 'ok 2 status'
	assert_line --index 3 'ok 3 asserts untraced'
	assert_line --index 4 'not ok 4 a failure'
	# (the line of the failing call in the inner file)
	local n=0 l
	while IFS= read -r l; do
		n=$((n + 1))
		[[ $l != *'inside4" 1' ]] || break
	done <"$T/k/k.bats"
	assert_line --partial "in test file $T/k/k.bats, line $n)"
	[ -s "$T/before" ]
	[ ! -s "$T/inside" ]
	[ ! -s "$T/inside1" ]
	[ ! -s "$T/inside2" ]
	[ ! -s "$T/inside3" ]
	[ ! -s "$T/inside4" ]
	[ "$(<"$T/after")" = "$(<"$T/before")" ]
	[ "$(<"$T/status")" = 3 ]
	# bats-assert's assert_line and refute_line, each a loop over 500
	# lines, ran untraced: the trap saw a few commands, not thousands
	[ "$(<"$T/count")" -lt 20 ]
	[ ! -e "$T/reached" ]
}
