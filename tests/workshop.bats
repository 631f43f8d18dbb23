#!/usr/bin/env bats
# docs/workshop.md, the checks that need no gate: the guide's lines that
# stop before anything is measured, make check's refusals, and each
# exercise's check on fixture runs (a Mac's, for the macOS attendees).
# The exercises followed under the calibration gate are make test-live's
# (tests/live/workshop.bats).

# bats file_tags=heavy
load test_helper/common-setup
load test_helper/quickrun

# guide_line TEXT: the first line of the guide that starts with TEXT,
# without a trailing "   # comment" and without "sudo" (the tests run as
# root wherever the gate runs at all).
guide_line() {
	local line
	line=$(awk -v t="$1" 'index($0, t) == 1 { print; exit }' "$ROOT/docs/workshop.md")
	[ -n "$line" ] || { echo "docs/workshop.md has no line starting with: $1" >&2; return 1; }
	printf '%s\n' "$line" | sed 's/[[:space:]][[:space:]]*#[^!].*$//; s/^sudo //; s/\([;&|] *\)sudo /\1/g'
}

setup_file() {
	export R="$BATS_FILE_TMPDIR/results"
	mkdir -p "$R"
	# exercise 6 on the Mac fixtures, checked once for two tests (a check is
	# seconds of bats here): the plain run, the exempt one, and a newer
	# plain run made with other cases, which E6 passes over for the run
	# that differs only in the exemption
	local M="$BATS_FILE_TMPDIR/mac-results" F="$BATS_TEST_DIRNAME/fixtures"
	mkdir -p "$M/20250301T090000Z-a1b2c3" "$M/20250301T091500Z-d4e5f6" "$M/20250301T093000Z-0ca5e5"
	cp "$F/aggregate/mac-m1pro/run.json" "$M/20250301T090000Z-a1b2c3/"
	cp "$F/aggregate/mac-m1pro-devtools/run.json" "$M/20250301T091500Z-d4e5f6/"
	jq '.conditions["run.cases"] = "exe,script" | (.cases[] | select(.name == "exe") | .verdict) = "none"' \
		"$F/aggregate/mac-m1pro/run.json" >"$M/20250301T093000Z-0ca5e5/run.json"
	local rc=0
	sh "$BATS_TEST_DIRNAME/../scripts/check" --exercise 6 --run "$M/20250301T091500Z-d4e5f6" \
		>"$BATS_FILE_TMPDIR/ex6.out" 2>&1 3>&- || rc=$?
	echo "$rc" >"$BATS_FILE_TMPDIR/ex6.status"
}

# ex6_checked: status and output as "run sh scripts/check --exercise 6"
# sets them, from setup_file's check
ex6_checked() {
	# (read by the shell, as test_helper/quickrun reads an output: no cat)
	output="" status=0
	[ -r "$BATS_FILE_TMPDIR/ex6.out" ] || status=1
	IFS= read -r -d '' output <"$BATS_FILE_TMPDIR/ex6.out" || true
	while [ "${output%$'\n'}" != "$output" ]; do output=${output%$'\n'}; done
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
	read -r status <"$BATS_FILE_TMPDIR/ex6.status"
}

setup() {
	_common_setup
	PATH=$(path_without_bats_libexec) # the nested make check finds the outer bats
}

@test "exercise 5 on one core class stops with the quoted line, the guide says what instead; exercise 8: 2" {
	# (was: "exercise 5 on one core class: it stops with the quoted line, and the guide says what to do instead")
	# stops at once, with the line the guide quotes
	local e5 quoted before flat
	e5=$(awk '/^## Exercise 5 /,/^## Exercise 6 /' "$ROOT/docs/workshop.md" | tr '\n' ' ')
	quoted=$(printf '%s\n' "$e5" | grep -o "stops at once with \`[^\`]*\`" | sed 's/^[^`]*`//; s/`$//')
	[ -n "$quoted" ] || fail "exercise 5 does not quote what the command prints on one core class"
	# what to do instead, and how long the alternative it warns off takes
	[[ "$e5" == *'Do not start `make repro-full` instead'* ]] || fail "exercise 5 does not warn off repro-full"
	printf '%s\n' "$e5" | grep -Eq 'took (about )?[0-9]+ (s|min)' || fail "exercise 5 gives no duration for repro-full"
	[[ "$e5" == *'start exercise 6 early'* ]] || fail "exercise 5 does not say what to do instead"
	# a machine with one core class (no hybrid or capacity files): the
	# guide's command, as written, refuses with that line and makes no run
	flat="$BATS_TEST_TMPDIR/flat"
	mkdir -p "$flat"
	before=$(ls "$R" | wc -l)
	run_sep env EXECLAG_SYSROOT="$flat" bash -c "cd '$ROOT' && $(guide_line "make repro CASES=exe,script CLASSES=P,E") -s --no-print-directory RESULTS='$R'" 3>&-
	assert_failure
	[[ "$stderr" == *"$quoted"* ]] || fail "the guide quotes '$quoted', the command printed: $stderr"
	assert_equal "$(ls "$R" | wc -l)" "$before"
	# (was: "an exercise number outside 1 to 7 is refused with one line, exit 2")
	run_sep sh "$ROOT/scripts/check" --exercise 8
	assert_failure 2
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "check: exercise '8' is not one of 1 to 7"* ]] || fail "stderr: $stderr"
}

# A results folder of fixture runs (tests/fixtures/aggregate), named as
# repro names runs, for the checks macOS attendees would get.
mac_results() {
	M="$BATS_TEST_TMPDIR/mac-results"
	# (a test may make it more than once: these two runs only)
	[ ! -e "$M" ] || rm -rf "$M"
	mkdir -p "$M/20250301T090000Z-a1b2c3" "$M/20250301T091500Z-d4e5f6"
	cp "$FIXTURES/aggregate/mac-m1pro/run.json" "$M/20250301T090000Z-a1b2c3/"
	cp "$FIXTURES/aggregate/mac-m1pro-devtools/run.json" "$M/20250301T091500Z-d4e5f6/"
}

@test "exercise 6 on a Mac (fixtures): P7 and E6 hold; an online and an offline run compared, not judged" {
	# (was: "exercise 6 on a Mac (fixtures): Developer Tools denied, then authorized — P7 and E6 hold")
	# setup_file's check (the two runs, and a newer plain one E6 passes over)
	ex6_checked
	assert_success
	assert_output --regexp 'P7 exemption +holds'
	assert_output --regexp 'E6 exemption compared +holds'
	assert_output --partial 'exe: 150.00 ms, slowdown without → 0.00 ms, none with'
	# (was: "exercise 6 on a Mac (fixtures): an online and an offline run are compared but not judged")
	mac_results
	rm -r "$M/20250301T091500Z-d4e5f6"
	mkdir -p "$M/20250301T100000Z-0ff1ce"
	jq '.conditions.network = "offline"' "$FIXTURES/aggregate/mac-m1pro/run.json" |
		jq '(.cases[] | select(.name == "exe") | .penalty_ms.median) = 80' >"$M/20250301T100000Z-0ff1ce/run.json"
	run_both sh "$ROOT/scripts/check" --exercise 6 --run "$M/20250301T100000Z-0ff1ce"
	assert_success
	assert_output --regexp 'E6 exemption compared +not applicable — this run and 20250301T090000Z-a1b2c3 differ in network \(offline vs online\), exe 80.00 ms, slowdown vs 150.00 ms, slowdown; no source gives an expectation'
}

@test "exercise 5 on a Mac, P and E (fixture): judged per class; the guide: zsh's 'total', enable-terminal" {
	# (was: "exercise 5 on a Mac with P and E measured (fixture): the penalty in each class is shown and judged")
	mac_results
	local r="$M/20250301T090000Z-a1b2c3"
	jq '(.cases[] | select(.name == "exe") | .configs) |= [(.[0] | .class = "P"), (.[0] | .class = "E" | .penalty_ms.median = 160)]' \
		"$FIXTURES/aggregate/mac-m1pro/run.json" >"$r/run.json"
	run_both sh "$ROOT/scripts/check" --exercise 5 --run "$r"
	assert_success
	assert_output --regexp 'E5 core classes +holds'
	assert_output --partial 'exe in P at T=1: penalty 150.00 ms'
	assert_output --partial 'exe in E at T=1: penalty 160.00 ms'
	# a class without the expected penalty does not hold
	jq '(.cases[] | select(.name == "exe") | .configs[] | select(.class == "E") | .verdict) = "none"' "$r/run.json" >"$r/x" && mv "$r/x" "$r/run.json"
	run_both sh "$ROOT/scripts/check" --exercise 5 --run "$r"
	assert_failure 1
	assert_output --regexp 'E5 core classes +DOES NOT HOLD'
	# (was: "the guide on a Mac: exercise 1 names zsh's 'total', exercise 6 runs enable-terminal first")
	# exercise 1 names zsh's total beside bash's real; exercise 6 runs enable-terminal before the Developer Tools pane
	local g="$ROOT/docs/workshop.md" e1 e6 spctl pane
	e1=$(awk '/^## Exercise 1 /,/^## Exercise 2 /' "$g")
	[[ "$e1" == *'`… 0.003 total`'* ]] || fail "exercise 1 does not show zsh's total"
	[[ "$e1" == *'the `real` line'* ]] || fail "exercise 1 does not name bash's real"
	e6=$(awk '/^## Exercise 6 /,/^## Exercise 7 /' "$g")
	# the first numbered step is the command that makes the pane list Terminal
	spctl=$(printf '%s\n' "$e6" | grep -n 'spctl developer-mode enable-terminal' | head -n 1 | cut -d: -f1)
	pane=$(printf '%s\n' "$e6" | grep -n 'Privacy & Security › Developer Tools, switch' | head -n 1 | cut -d: -f1)
	[ -n "$spctl" ] && [ -n "$pane" ] || fail "exercise 6 lacks the command or the pane step"
	[ "$spctl" -lt "$pane" ] || fail "exercise 6 sends people to the pane before enable-terminal"
	[[ "$(printf '%s\n' "$e6" | grep -m 1 '^1\. ')" == *'spctl developer-mode enable-terminal'* ]] || fail "exercise 6's first step is not enable-terminal"
}

@test "exercise 6 (fixtures): E6 prefers the run differing only in the exemption; A= B= judge that pair" {
	# (was: "exercise 6 (fixtures): without A and B, E6 prefers the run that differs only in the exemption")
	# over a newer run made with other cases: setup_file's check
	ex6_checked
	assert_success
	assert_output --regexp 'E6 exemption compared +holds'
	assert_output --partial 'without: 20250301T090000Z-a1b2c3, with: 20250301T091500Z-d4e5f6'
	refute_output --partial 'differ in more than the exemption'
	# with only the newer one to compare with, it is used, and the check says how the two differ
	mac_results
	rm -r "$M/20250301T090000Z-a1b2c3"
	mkdir -p "$M/20250301T093000Z-0ca5e5"
	cp "$BATS_FILE_TMPDIR/mac-results/20250301T093000Z-0ca5e5/run.json" "$M/20250301T093000Z-0ca5e5/"
	run_both sh "$ROOT/scripts/check" --exercise 6 --run "$M/20250301T091500Z-d4e5f6"
	assert_output --partial 'without: 20250301T093000Z-0ca5e5, with: 20250301T091500Z-d4e5f6'
	assert_output --partial 'the two runs differ in more than the exemption: exe,script'
	assert_output --regexp 'E6 exemption compared +DOES NOT HOLD'
	# (was: "exercise 6 (fixtures): EXERCISE=6 A= B= judges the named pair, not the newest; bad pairs are said")
	# make check EXERCISE=6 A= B=, whatever run is newest
	mac_results
	mkdir -p "$M/20250301T100000Z-0ca5e5-late"
	# the newest run: exempt, but its exe still pays (would not hold if judged)
	jq '.conditions.devtools = "authorized"' "$FIXTURES/aggregate/mac-m1pro/run.json" >"$M/20250301T100000Z-0ca5e5-late/run.json"
	run_both env RESULTS="$M" A=20250301T090000Z-a1b2c3 B="$M/20250301T091500Z-d4e5f6" make -C "$ROOT" -s --no-print-directory check EXERCISE=6
	assert_success
	assert_output --regexp 'P7 exemption +holds'
	assert_output --regexp 'E6 exemption compared +holds'
	assert_output --partial 'without: 20250301T090000Z-a1b2c3, with: 20250301T091500Z-d4e5f6'
	# a tag names a run too; A and B both exempt: not applicable, said why
	run_both env RESULTS="$M" A=late B=20250301T091500Z-d4e5f6 make -C "$ROOT" -s --no-print-directory check EXERCISE=6
	assert_output --regexp 'E6 exemption compared +not applicable — A and B are both exempt'
	# A without B, or A and B for another exercise: one line, exit 2
	run_sep env RESULTS="$M" A=late sh "$ROOT/scripts/check" --exercise 6
	assert_failure 2
	assert_equal "$stderr" "check: A and B go together: A=<run without the switch> B=<run with it>"
	run_sep env RESULTS="$M" A=late B=late sh "$ROOT/scripts/check" --exercise 2
	assert_failure 2
	assert_equal "${#stderr_lines[@]}" 1
	run_sep env RESULTS="$M" A=late B=no-such-run sh "$ROOT/scripts/check" --exercise 6
	assert_failure 2
	assert_equal "$stderr" "check: no run.json at 'no-such-run'"
}

