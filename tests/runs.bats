#!/usr/bin/env bats
# Workshop usability: a run's name (make repro TAG=, make runs, the tag in
# place of a folder for make check RUN=, compare A= B= and feedback RUN=),
# the check that names the run to use, and make setup.

load test_helper/common-setup

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s build >/dev/null
}

setup() {
	_common_setup
	_run_folders_setup
}

# tagged_run TAG: a short plain run named TAG, made by make.  Run folders
# sort by the second their run started (then by their random id): the next
# run starts a second later, as any two runs a person makes do.  A run
# takes longer than a second, so that is waited for only when it did not.
tagged_run() {
	local last
	run --separate-stderr make -s --no-print-directory -C "$ROOT" repro TAG="$1" CASES=exe THREADS=1 COUNT=6
	assert_success
	last=$(cd "$D/results" && ls -d -- *-"$1" | sort | tail -n 1)
	[ "$(date -u +%Y%m%dT%H%M%SZ)" != "${last%%-*}" ] || sleep 1
}

@test "TAG names the run: its folder ends in -TAG, conditions say it, make runs lists it with its settings" {
	tagged_run ex2
	tagged_run ex6
	tagged_run ex2
	r=$(find "$D/results" -mindepth 1 -maxdepth 1 -type d -name '*-ex6')
	[ -n "$r" ] || fail "no folder named -ex6: $(ls "$D/results")"
	[[ "${r##*/}" =~ ^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}-ex6$ ]] || fail "folder ${r##*/}"
	grep -qx 'run.tag=ex6' "$r/conditions.txt"
	run --separate-stderr make -s --no-print-directory -C "$ROOT" runs
	assert_success
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 --regexp '^tag +started +os +gate +cases +threads +folder$'
	assert_line --index 1 --regexp "^ex2 +[0-9-]+ [0-9:]+Z +Linux +none +exe +1 +$D/results/[^ ]+-ex2\$"
	assert_line --index 2 --regexp '^ex6 '
	assert_line --index 3 --regexp '^ex2 '
	# an untagged run shows '-'
	run --separate-stderr make -s --no-print-directory -C "$ROOT" repro CASES=exe THREADS=1 COUNT=6
	run make -s --no-print-directory -C "$ROOT" runs
	assert_line --index 4 --regexp '^- +'
}

@test "a tag stands for the newest run so named in make check, make compare and make feedback" {
	tagged_run before
	tagged_run after
	tagged_run before
	newest=$(find "$D/results" -mindepth 1 -maxdepth 1 -type d -name '*-before' | sort | tail -n 1)
	run --separate-stderr make -s --no-print-directory -C "$ROOT" compare A=before B=after
	assert_success
	assert_line --index 1 --partial "${newest##*/}"
	assert_line --index 2 --partial "-after"
	# the run's id, as compare's hint prints it, names it too
	run --separate-stderr make -s --no-print-directory -C "$ROOT" compare A="${newest##*/}" B=after
	assert_success
	command -v jq >/dev/null || skip "no jq for make check"
	run --separate-stderr sh "$ROOT/scripts/check" --run after
	assert_success
	assert_line --index 0 --regexp '^execlag check: .*/results/[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}-after$'
	run --separate-stderr sh "$ROOT/scripts/feedback" --run before
	assert_success
	[ -s "$newest/feedback/feedback.txt" ] || fail "feedback not in the newest 'before' run: $stderr"
}

@test "a tag no run carries is refused as no such run, by each reader" {
	tagged_run one
	run --separate-stderr make -s --no-print-directory -C "$ROOT" compare A=two B=one
	assert_failure
	[[ "$stderr" == *"A: two: no such run"* ]] || fail "$stderr"
	run --separate-stderr sh "$ROOT/scripts/feedback" --run two
	assert_equal "$status" 2
	[[ "$stderr" == *"no such run folder 'two'"* ]] || fail "$stderr"
	run --separate-stderr sh "$ROOT/scripts/check" --run two
	assert_equal "$status" 2
	[[ "$stderr" == *"no run.json at 'two'"* ]] || fail "$stderr"
}

@test "a bad TAG is one line and exit 2, nothing made" {
	local t
	for t in "-x" ".hidden" "a/b" "a b" "x'; touch $D/canary; '" "é" "\$(id)" "$(printf 'a%.0s' $(seq 33))"; do
		run --separate-stderr sh "$ROOT/scripts/repro" --tag "$t" --cases exe --threads 1 --count 6
		assert_equal "$status" 2
		assert_equal "${#stderr_lines[@]}" 1
		[[ "$stderr" == "execlag: TAG "* ]] || fail "TAG '$t': $stderr"
		assert_equal "$(find "$D/results" "$D/tmp" -mindepth 1 | wc -l | tr -d ' ')" 0
	done
	# through make too, a value make would expand
	run --separate-stderr make -s --no-print-directory -C "$ROOT" repro TAG="x\$(shell touch $D/canary)" CASES=exe
	assert_equal "$status" 2
	[[ "$stderr" == "execlag: TAG 'x\$(shell touch $D/canary)' may hold only"* ]] || fail "$stderr"
	[ ! -e "$D/canary" ]
}

@test "make runs with no run, or no results folder: one line and exit 2" {
	run --separate-stderr sh "$ROOT/scripts/runs"
	assert_equal "$status" 2
	assert_equal "$stderr" "runs: no finished run in '$D/results': run 'make repro' first"
	run --separate-stderr sh "$ROOT/scripts/runs" --results "$D/none"
	assert_equal "$status" 2
	assert_equal "$stderr" "runs: no results folder '$D/none': run 'make repro' first"
}

@test "make check EXERCISE=4 on a one-thread run names the run with several thread counts to check" {
	command -v jq >/dev/null || skip "no jq for make check"
	run --separate-stderr make -s --no-print-directory -C "$ROOT" repro TAG=ex2 CASES=exe THREADS=1,2 COUNT=6
	assert_success
	tagged_run ex3
	run --separate-stderr sh "$ROOT/scripts/check" --exercise 4
	assert_line --regexp '^P4 serialisation +not applicable — the run measured only one thread count; check a run with several: make check EXERCISE=4 RUN=ex2$'
	# and the command it names is one that works
	run --separate-stderr sh "$ROOT/scripts/check" --exercise 4 --run ex2
	refute_line --partial "only one thread count"
}

@test "make setup installs what make repro and make check use, then builds; the guide's setup is it" {
	run make -n -s --no-print-directory -C "$ROOT" setup
	assert_success
	assert_line --index 0 "sh scripts/tool/deps run"
	assert_line --index 1 "sh scripts/tool/deps check"
	assert_line --regexp 'make.* build$'
	# and it does so here, saying it is ready
	run make -s --no-print-directory -C "$ROOT" setup
	assert_success
	assert_line --partial "execlag: ready for make repro and make check"
	[ -x "$ROOT/micro/bin/launch" ] && [ -x "$ROOT/micro/bin/analyze" ]
	# the guide's first command block is make setup, with nothing to fill in
	run awk '/^## Setup/ { s = 1 } s && /^```sh$/ { getline; print; exit }' "$ROOT/docs/workshop.md"
	assert_output --regexp '^make setup( |$)'
	# no command of the guide holds a placeholder to fill in (comments may)
	run awk '/^```sh$/ { c = 1; next } /^```$/ { c = 0 } c { sub(/[ \t]+#.*$/, ""); print }' "$ROOT/docs/workshop.md"
	assert_success
	refute_output --regexp '<[a-z][a-z ]*>'
}
