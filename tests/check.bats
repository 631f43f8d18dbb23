#!/usr/bin/env bats
# scripts/check (make check): what it says of a run, pattern by pattern.

load test_helper/common-setup
load test_helper/quickrun

setup_file() {
	local root="$BATS_TEST_DIRNAME/.."
	make -C "$root" -s micro/bin/analyze micro/bin/runfield >/dev/null
	# plain Linux, no penalty anywhere: exe, exe-hardlink, exe-copy,
	# exe-rewrite; analyzed once, each test a copy
	cp -R "$root/tests/fixtures/analyze/key-nopenalty" "$BATS_FILE_TMPDIR/run"
	"$root/micro/bin/analyze" --run "$BATS_FILE_TMPDIR/run" --quiet
	cp "$BATS_FILE_TMPDIR/run/run.json" "$BATS_FILE_TMPDIR/run/run.json.orig"
	# The two checks several tests read, made once (a check is seconds of
	# bats): "as-is", the run as analyzed, and "slowdown", with exe-copy's
	# verdict a wrong definite one; both without jq on PATH (the jq here
	# notes that it ran in jq-ran, which the no-jq test reads).
	local F=$BATS_FILE_TMPDIR
	mkdir -p "$F/nojq"
	printf '#!/bin/sh\necho "$*" >>"%s"\nexit 127\n' "$F/jq-ran" >"$F/nojq/jq"
	chmod +x "$F/nojq/jq"
	cp -R "$F/run" "$F/slowdown"
	jq '(.cases[] | select(.name == "exe-copy") | .verdict) = "slowdown"' "$F/run/run.json" >"$F/slowdown/run.json"
	# "odd", one check for two tests (each checked a run of its own): exe-copy
	# and exe-rewrite inconclusive, and exe-hardlink's numbers those of the
	# number format (its verdict unchanged: P3 reads verdicts, so it holds
	# as with the two alone); checked with jq on PATH, as those tests did
	cp -R "$F/run" "$F/odd"
	jq '(.cases[] | select(.name == "exe-copy" or .name == "exe-rewrite") | .verdict) = "inconclusive"
		| (.cases[] | select(.name == "exe-hardlink")) |= (.penalty_ms.median = -0.004 | .penalty_ms.ci_low = -0.1 | .penalty_ms.ci_high = 20.6 | .ratio = 1.1)' \
		"$F/run/run.json" >"$F/odd/run.json"
	local c rc
	for c in run slowdown odd; do
		rc=0
		if [ "$c" = odd ]; then
			sh "$root/scripts/check" --run "$F/$c" >"$F/check-$c.out" 2>&1 || rc=$?
		else
			PATH="$F/nojq:$PATH" sh "$root/scripts/check" --run "$F/$c" >"$F/check-$c.out" 2>&1 || rc=$?
		fi
		echo "$rc" >"$F/check-$c.status"
	done
}

# checked RUN: status, output and lines as "run sh scripts/check --run" sets
# them, from setup_file's check of RUN (run: as analyzed; slowdown; odd)
checked() {
	# (read by the shell, as test_helper/quickrun reads an output: no cat)
	output="" status=0
	[ -r "$BATS_FILE_TMPDIR/check-$1.out" ] || status=1
	IFS= read -r -d '' output <"$BATS_FILE_TMPDIR/check-$1.out" || true
	while [ "${output%$'\n'}" != "$output" ]; do output=${output%$'\n'}; done
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
	assert_success
	read -r status <"$BATS_FILE_TMPDIR/check-$1.status"
}

setup() {
	_common_setup
	D="$BATS_TEST_TMPDIR"
	cp -R "$BATS_FILE_TMPDIR/run" "$D/run"
}

# with_verdict CASE VERDICT: the run's run.json with one case's verdict changed
with_verdict() {
	jq --arg c "$1" --arg v "$2" '(.cases[] | select(.name == $c) | .verdict) = $v' \
		"$D/run/run.json" >"$D/run/run.json.new" && mv "$D/run/run.json.new" "$D/run/run.json"
}

@test "the expected key with inconclusive cases: P3 holds, said plainly; a wrong definite verdict does not" {
	# (was: "the expected key with inconclusive cases: P3 holds, with N inconclusive cases, said plainly")
	checked run
	assert_equal "$status" 0
	assert_line --regexp "^P3 cache key +holds$"
	# exe-copy and exe-rewrite inconclusive: setup_file's "odd" run
	checked odd
	assert_equal "$status" 0
	assert_line --regexp "^P3 cache key +holds, with 2 inconclusive cases$"
	assert_output --partial "exe-copy: penalty"
	assert_output --partial "inconclusive: run again on a quieter machine"
	assert_line "1 hold, 0 do not hold, 6 not applicable"
	# (was: "a wrong definite verdict still does not hold")
	checked slowdown
	assert_equal "$status" 1
	assert_line --regexp "^P3 cache key +DOES NOT HOLD$"
}

# refused RUN-JSON-CONTENT REASON: check refuses that run.json with one line
# naming the file and why, exit 2, and runs no pattern
refused() {
	printf '%s' "$1" >"$D/run/run.json"
	run_sep sh "$ROOT/scripts/check" --run "$D/run"
	assert_equal "$status" 2
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" == *"$D/run/run.json"* ]] || fail "stderr: $stderr"
	[[ "$stderr" == *"$2"* ]] || fail "stderr: $stderr"
	refute_output --partial "not applicable"
}

@test "what is not a run is refused with one line naming the file and why, exit 2" {
	refused '' "empty"
	refused '   
	 ' "empty"
	refused '{"schema":"execlag-run"' "not valid JSON"
	refused '[1,2]' "not an object"
	refused '{"schema":"other"}' 'schema is not "execlag-run"'
	refused '{"schema":"execlag-run"}' "schema_version"
	refused '{"schema":"execlag-run","schema_version":"1"}' "schema_version is missing or not a whole number"
	refused '{"schema":"execlag-run","schema_version":2}' "schema_version 2 is not the version"
	# the run broken one way each, a line each from one jq (a jq is 30 ms)
	local bad=()
	IFS=$'\n' read -d '' -r -a bad < <(jq -c '(.cases = null), (.cases = []), del(.run_id), (.conditions = null), .' \
		"$D/run/run.json.orig") || true
	assert_equal "${#bad[@]}" 5
	refused "${bad[0]}" "cases"
	refused "${bad[1]}" "cases"
	refused "${bad[2]}" "run_id"
	refused "${bad[3]}" "conditions"
	refused "${bad[4]}${bad[4]}" "more than one"
}


@test "one number format, two decimals, no sign on a zero; a pattern not holding is a finding, make check 0" {
	# (was: "one number format: two decimals everywhere (penalty, interval, ratio), no sign on a zero")
	# exe-hardlink's numbers: setup_file's "odd" run
	checked odd
	assert_output --partial "exe-hardlink: penalty 0.00 ms [-0.10, 20.60], 1.10x, "
	refute_output --regexp '[^0-9.][0-9]+\.[0-9][] ,x]|-0\.00'
	# (was: "a pattern that does not hold: the last line calls it a finding about the machine; make check exits 0")
	# scripts/check itself exits 1
	checked slowdown
	assert_equal "$status" 1
	assert_equal "${lines[${#lines[@]} - 1]}" "A pattern that does not hold is a finding about this machine, not an error of the kit (exit status 1 here; make check exits 0)."
	assert_line "0 hold, 1 do not hold, 6 not applicable"
	with_verdict exe-copy slowdown
	run_sep make -s --no-print-directory -C "$ROOT" check RUN="$D/run" \
		PATH="$(path_without_bats_libexec)"
	assert_equal "$status" 0
	assert_equal "${lines[${#lines[@]} - 1]}" "A pattern that does not hold is a finding about this machine, not an error of the kit (exit status 1 here; make check exits 0)."
	assert_equal "$stderr" ""
	# every pattern holding or not applying: no such line
	checked run
	assert_equal "$status" 0
	refute_output --partial "a finding about this machine"
	# bad input stays 2, through make too
	run_sep make -s --no-print-directory -C "$ROOT" check RUN="$D/nowhere"
	assert_equal "$status" 2
}

# Each exercise is checked once (a check is seconds of bats here), for two
# things: make check needs no jq (run.json is read by runfield), and an
# exercise expecting the gate's penalty, on a plain Linux run, has a note
# naming the guide's Linux line (none for exercise 5, a gate run or a full
# check).  A real run is still accepted after the refusals' checks.
@test "make check needs no jq; on a plain Linux run a note names the guide's gated line" {
	mkdir -p "$D/nojq"
	printf '#!/bin/sh\necho "$*" >>"%s"\nexit 127\n' "$D/jq-ran" >"$D/nojq/jq"
	chmod +x "$D/nojq/jq"
	local e line
	[ "$(jq -r '.conditions.os' "$D/run/run.json")" = Linux ]
	line=$(grep -m 1 "^sudo make repro GATE=.* TAG=ex2" "$ROOT/docs/workshop.md" | sed 's/[[:space:]]*#.*$//')
	[ -n "$line" ]
	# the run as analyzed, checked without jq by setup_file
	checked run
	assert_equal "$status" 0
	assert_line "1 hold, 0 do not hold, 6 not applicable"
	refute_output --partial 'note:'
	for e in 1 2 3 4 5 6 7; do
		PATH="$D/nojq:$PATH" run_both sh "$ROOT/scripts/check" --run "$D/run" --exercise "$e"
		[ "$status" -le 1 ] || fail "exercise $e: status $status: $output"
		case $e in
		2 | 3 | 4)
			assert_success
			assert_output --partial 'note: this run was made on Linux without the calibration gate: no penalty is expected and none is judged.'
			assert_output --partial "      $line"
			assert_output --partial "(docs/workshop.md, exercise 2), then make check EXERCISE=$e again." ;;
		1) assert_output --partial "CASES=script THREADS=1" ;;
		6) assert_output --partial "exempt=1' TAG=ex6" ;;
		5) refute_output --partial 'calibration gate' ;;
		esac
		# and the numbers are the kit's one format, as before
		[ "$e" != 2 ] ||
			assert_line --regexp '^    exe: penalty -?[0-9]+\.[0-9][0-9] ms \[-?[0-9]+\.[0-9][0-9], -?[0-9]+\.[0-9][0-9]\], [0-9]+\.[0-9][0-9]x, (none|inconclusive|slowdown)'
	done
	cp -R "$FIXTURES/simulated/mac-sim" "$D/sim"
	"$BIN/analyze" --run "$D/sim" --quiet
	PATH="$D/nojq:$PATH" run_both -0 sh "$ROOT/scripts/check" --run "$D/sim"
	assert_line "3 hold, 0 do not hold, 4 not applicable (simulated run: not evidence)"
	[ ! -e "$D/jq-ran" ] || fail "jq ran: $(cat "$D/jq-ran")"
	[ ! -e "$BATS_FILE_TMPDIR/jq-ran" ] || fail "jq ran: $(cat "$BATS_FILE_TMPDIR/jq-ran")"
	# a gate run: no note
	jq '.conditions["gate.active"] = "1" | .conditions["gate.latency_ms"] = "20"' "$D/run/run.json" >"$D/run/run.json.new"
	mv "$D/run/run.json.new" "$D/run/run.json"
	run_both sh "$ROOT/scripts/check" --run "$D/run" --exercise 2
	refute_output --partial 'note:'
}

@test "runfield: paths, cases by name, elements by KEY=VALUE, --f2 and --or; bad input: one line, exit 2" {
	# paths: fields by path, such as conditions/os
	local j="$D/run/run.json" want=() f2
	# what jq says of them, by one jq: exe's verdict, its median, then
	# every case's name, a line each
	IFS=$'\n' read -d '' -r -a want < <(jq -r '(.cases[] | select(.name == "exe") | .verdict, .penalty_ms.median),
		.cases[].name' "$j") || :
	[ "${#want[@]}" -gt 2 ] || fail "jq gave: ${want[*]}"
	run_both -0 "$BIN/runfield" --run "$D/run" conditions/os cases/exe/verdict
	assert_output "Linux
${want[0]}"
	run_both -0 "$BIN/runfield" --run "$j" 'cases/*/name'
	assert_output "$(printf '%s\n' "${want[@]:2}")"
	run_both -0 "$BIN/runfield" --run "$j" --f2 cases/exe/penalty_ms/median
	printf -v f2 '%.2f' "${want[1]}"
	[ "$f2" != -0.00 ] || f2=0.00
	assert_output "$f2"
	run_both -0 "$BIN/runfield" --run "$j" 'cases/exe/configs/class=all,threads=1/threads'
	assert_output 1
	run_both -1 "$BIN/runfield" --run "$j" cases/nosuchcase/verdict
	assert_output ""
	run_both -0 "$BIN/runfield" --run "$j" --or unknown cases/nosuchcase/verdict conditions/nosuchkey
	assert_output "unknown
unknown"
	run_both -0 "$BIN/runfield" --run "$j" --check
	assert_output ""
	run_sep "$BIN/runfield" --run "$j"
	assert_equal "$status" 2
	assert_equal "${#stderr_lines[@]}" 1
	run_sep "$BIN/runfield" --frob
	assert_equal "$status" 2
	assert_equal "$stderr" "runfield: unknown option '--frob' (try --help)"
	printf '{}' >"$D/notarun.json"
	run_sep "$BIN/runfield" --run "$D/notarun.json" --check
	assert_equal "$status" 2
	assert_equal "$stderr" "runfield: $D/notarun.json: not an execlag run.json (schema is not \"execlag-run\")"
}

# make check runs its pattern files with checks/tap.bash, not bats: on a
# file of every way a test ends (passes; fails mid-way, by its last
# command, by return, by exit 0 before its end, in a function under set -e;
# skips with a reason, without, from setup; a skip inside $( ) that ends
# only that subshell), its plan, its ok / not ok / skip lines and what the
# tests say on fd 3 are bats' own.
@test "checks/tap.bash ends each test as bats does: pass, fail, skip, what it says on fd 3" {
	local f="$BATS_TEST_TMPDIR/ways.bats"
	# (each line after a "|": bats would read an @test line of this file as its own)
	sed 's/^|//' >"$f" <<'BATS'
|setup() { [ "$BATS_TEST_DESCRIPTION" != "skips from setup" ] || skip "from setup"; }
|g() { false; echo no; }
|@test "passes" {
|	echo "# says P1 first" >&3
|	[ 1 = 1 ]
|}
|@test "fails mid-way" {
|	false
|	echo "# not said" >&3
|}
|@test "fails by its last command" {
|	echo "#   a detail" >&3
|	[ 1 = 2 ]
|}
|@test "returns 1" {
|	return 1
|}
|@test "exits 0 before its end" {
|	exit 0
|}
|@test "fails in a function under set -e" {
|	g
|}
|@test "skips" {
|	skip "not applicable: why"
|}
|@test "skips without a reason" {
|	skip
|}
|@test "skips from setup" {
|	echo "# not said" >&3
|}
|@test "a skip in a subshell ends it alone" {
|	x=$(skip "inner"; echo after)
|	[ -z "$x" ]
|	echo "# said after" >&3
|}
|@test 'quoted with single quotes' {
|	:
|}
BATS
	PATH=$(path_without_bats_libexec) run_both bats --tap "$f"
	local want="" got="" l
	for l in "${lines[@]}"; do
		case $l in 'ok '* | 'not ok '* | 1..* | '# says '* | '# not said' | '#   a detail' | '# said after') want="$want$l"$'\n' ;; esac
	done
	run_both bash "$ROOT/checks/tap.bash" "$f"
	assert_equal "$status" 1
	for l in "${lines[@]}"; do
		case $l in 'ok '* | 'not ok '* | 1..* | '# says '* | '# not said' | '#   a detail' | '# said after') got="$got$l"$'\n' ;; esac
	done
	assert_equal "$got" "$want"
	# (and it is what bats says of them)
	assert_line "ok 10 a skip in a subshell ends it alone"
	assert_line "not ok 5 exits 0 before its end"
	assert_line "ok 9 skips from setup # skip from setup"
}
