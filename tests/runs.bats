#!/usr/bin/env bats
# Workshop usability: a run's name (make repro TAG=, make runs, the tag in
# place of a folder for make check RUN=, compare A= B= and feedback RUN=),
# the check that names the run to use, and make setup.

load test_helper/common-setup
load test_helper/quickrun

# The runs the tests read are made once for the file by make repro, in
# this order:
#   1 before (T=1, simulated), 2 after (T=1, simulated),
#   3 before (T=1,2, real launches), 4 untagged (T=1, simulated)
# Run 3, the newest 'before', launches for real: make feedback refuses a
# simulated run, and make runs shows a real run's OS and gate as they are.
# The others are simulated (LAUNCHER=sim:...): what the tests read of them
# is their tag, threads and order, and a simulated run's programs come from
# the suite's compiled templates (EXECLAG_TEMPLATES, common-setup), where a
# real run compiles each of its seven (28 compiles for the four, 7 now).
# Run folders sort by the second their run started (then by their random
# id): each run starts a second after the one before, as any two runs a
# person makes do; a run takes longer than a second, so that is waited for
# only when it did not.  Make's status and output for run N are kept in
# $RUNS/N.status, N.out and N.err, its folder's name in N.name; a test
# copies the runs it reads into its own results folder (runs_made), since
# the readers write into a run (make feedback).  hyperfine is left off PATH
# for these runs: its cross-check compiles eight programs more a run, and
# no test here reads it (tests/hyperfine.bats does).
setup_file() {
	local root="$BATS_TEST_DIRNAME/.." n=0 spec tag threads kind before last names
	# (EXECLAG_TEMPLATES: the suite's templates, for the simulated runs)
	_common_setup
	shopt -s nullglob
	make -C "$root" -s build >/dev/null
	RUNS="$BATS_FILE_TMPDIR/runs"
	export RUNS
	mkdir -p "$RUNS/results" "$RUNS/tmp"
	path_without "$RUNS/bin" hyperfine
	for spec in before:1:sim after:1:sim before:1,2:real -:1:sim; do
		n=$((n + 1))
		tag=${spec%%:*} threads=${spec#*:} kind=${spec##*:}
		threads=${threads%:*}
		# (the newest folder before and after, the last of a glob: sorted
		# as ls | sort sorts them, no process)
		names=("$RUNS/results"/*)
		before=""
		[ ${#names[@]} = 0 ] || before=${names[${#names[@]} - 1]##*/}
		set -- CASES=exe THREADS="$threads" COUNT=6
		[ "$tag" = - ] || set -- TAG="$tag" "$@"
		[ "$kind" = real ] || set -- "$@" LAUNCHER="sim:latency=20 workers=1 key=inode"
		if PATH="$RUNS/bin" RESULTS="$RUNS/results" TMPDIR="$RUNS/tmp" \
			make -s --no-print-directory -C "$root" repro "$@" >"$RUNS/$n.out" 2>"$RUNS/$n.err" 3>&-; then
			echo 0 >"$RUNS/$n.status"
		else
			echo "$?" >"$RUNS/$n.status"
		fi
		names=("$RUNS/results"/*)
		last=""
		[ ${#names[@]} = 0 ] || last=${names[${#names[@]} - 1]##*/}
		[ "$last" = "$before" ] && last=""
		printf '%s\n' "$last" >"$RUNS/$n.name"
		[ -z "$last" ] || [ "$(date -u +%Y%m%dT%H%M%SZ)" != "${last%%-*}" ] || sleep 1
	done
	shopt -u nullglob
}

setup() {
	_common_setup
	_run_folders_setup
}

# runs_made N...: the file's runs N (1 to 4, above) copied into this test's
# results folder, each one that make repro made, with exit 0 and nothing
# left in the work folder.
# (each file read by the shell: a $(cat) is two processes, and a test
# copies up to four runs)
runs_made() {
	local n name st
	for n in "$@"; do
		read -r st <"$RUNS/$n.status" || :
		[ "$st" = 0 ] || fail "make repro (run $n) exit $st: $(cat "$RUNS/$n.err")"
		read -r name <"$RUNS/$n.name" || :
		[ -n "$name" ] && [ -f "$RUNS/results/$name/run.json" ] || fail "make repro (run $n) made no run: $(cat "$RUNS/$n.err")"
		cp -R "$RUNS/results/$name" "$D/results/"
	done
	# nothing left in the work folder (what is there, by a glob: no find)
	local left
	shopt -s dotglob nullglob
	left=("$RUNS/tmp"/*)
	shopt -u dotglob nullglob
	assert_equal "${left[*]}" ""
}

@test "TAG names the run: its folder ends in -TAG, conditions say it, make runs lists it with its settings" {
	local r c
	runs_made 1 2 3
	# (the folders named -after, by a glob: no find)
	set -- "$D/results"/*-after
	r=$1
	[ -d "$r" ] || fail "no folder named -after: $(ls "$D/results")"
	[ $# = 1 ] || fail "more than one folder named -after: $*"
	[[ "${r##*/}" =~ ^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}-after$ ]] || fail "folder ${r##*/}"
	# (conditions.txt read and matched by the shell: no grep)
	c=""
	IFS= read -r -d '' c <"$r/conditions.txt" || :
	[[ $'\n'"$c"$'\n' == *$'\n'run.tag=after$'\n'* ]] || fail "no line run.tag=after in $r/conditions.txt"
	run_sep make -s --no-print-directory -C "$ROOT" runs
	assert_success
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 --regexp '^tag +started +os +gate +cases +threads +folder$'
	# run 1 simulated: its model where the gate would be; run 3 real, no gate
	assert_line --index 1 --regexp "^before +[0-9-]+ [0-9:]+Z +Linux \(simulated\) +sim 20 ms, 1 worker, inode +exe +1 +$D/results/[^ ]+-before\$"
	assert_line --index 2 --regexp '^after '
	assert_line --index 3 --regexp "^before +[0-9-]+ [0-9:]+Z +Linux +none +exe +1,2 +$D/results/[^ ]+-before\$"
	# an untagged run shows '-'
	runs_made 4
	run_both make -s --no-print-directory -C "$ROOT" runs
	assert_line --index 4 --regexp '^- +'
}

@test "a tag stands for the newest run so named in make check, make compare and make feedback" {
	local newest
	runs_made 1 2 3
	# (the newest folder named -before: the last of a glob, sorted as
	# ls | sort sorts them; no find, sort or tail)
	set -- "$D/results"/*-before
	newest=${!#}
	[ -d "$newest" ] || fail "no folder named -before"
	run_sep make -s --no-print-directory -C "$ROOT" compare A=before B=after
	assert_success
	assert_line --index 1 --partial "${newest##*/}"
	assert_line --index 2 --partial "-after"
	# the run's id, as compare's hint prints it, names it too
	run_sep make -s --no-print-directory -C "$ROOT" compare A="${newest##*/}" B=after
	assert_success
	command -v jq >/dev/null || skip "no jq for make check"
	run_sep sh "$ROOT/scripts/check" --run after
	assert_success
	# (run 2, simulated: the first line says so after the run's folder)
	assert_line --index 0 --regexp '^execlag check: .*/results/[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}-after — simulated run \(launcher sim:latency=20 workers=1 key=inode [^)]*\): nothing was launched; a test of the kit, not evidence$'
	run_sep sh "$ROOT/scripts/feedback" --run before
	assert_success
	[ -s "$newest/feedback/feedback.txt" ] || fail "feedback not in the newest 'before' run: $stderr"
}

@test "a tag no run carries is refused as no such run, by each reader" {
	runs_made 2
	run_sep make -s --no-print-directory -C "$ROOT" compare A=two B=after
	assert_failure
	[[ "$stderr" == *"A: two: no such run"* ]] || fail "$stderr"
	run_sep sh "$ROOT/scripts/feedback" --run two
	assert_equal "$status" 2
	[[ "$stderr" == *"no such run folder 'two'"* ]] || fail "$stderr"
	run_sep sh "$ROOT/scripts/check" --run two
	assert_equal "$status" 2
	[[ "$stderr" == *"no run.json at 'two'"* ]] || fail "$stderr"
}

@test "a bad TAG is one line and exit 2, nothing made" {
	local t long left
	# (33 a's by the shell; what is left, a glob of both folders: no process)
	printf -v long '%33s' ''
	long=${long// /a}
	for t in "-x" ".hidden" "a/b" "a b" "x'; touch $D/canary; '" "é" "\$(id)" "$long"; do
		run_sep sh "$ROOT/scripts/repro" --tag "$t" --cases exe --threads 1 --count 6
		assert_equal "$status" 2
		assert_equal "${#stderr_lines[@]}" 1
		[[ "$stderr" == "execlag: TAG "* ]] || fail "TAG '$t': $stderr"
		shopt -s dotglob nullglob
		left=("$D/results"/* "$D/tmp"/*)
		shopt -u dotglob nullglob
		assert_equal "${left[*]}" ""
	done
	# through make too, a value make would expand
	run_sep make -s --no-print-directory -C "$ROOT" repro TAG="x\$(shell touch $D/canary)" CASES=exe
	assert_equal "$status" 2
	[[ "$stderr" == "execlag: TAG 'x\$(shell touch $D/canary)' may hold only"* ]] || fail "$stderr"
	[ ! -e "$D/canary" ]
}

@test "make runs with no run, or no results folder: one line and exit 2" {
	run_sep sh "$ROOT/scripts/runs"
	assert_equal "$status" 2
	assert_equal "$stderr" "runs: no finished run in '$D/results': run 'make repro' first"
	run_sep sh "$ROOT/scripts/runs" --results "$D/none"
	assert_equal "$status" 2
	assert_equal "$stderr" "runs: no results folder '$D/none': run 'make repro' first"
}

@test "make check EXERCISE=4 on a one-thread run names the run with several thread counts to check" {
	command -v jq >/dev/null || skip "no jq for make check"
	# the newest run (4) measured one thread count; the newest 'before' (3) two
	runs_made 1 2 3 4
	run_sep sh "$ROOT/scripts/check" --exercise 4
	assert_line --regexp '^P4 serialisation +not applicable — the run measured only one thread count; check a run with several: make check EXERCISE=4 RUN=before$'
	# and the command it names is one that works
	run_sep sh "$ROOT/scripts/check" --exercise 4 --run before
	refute_line --partial "only one thread count"
}

@test "make setup installs what make repro and make check use, then builds; the guide's setup is it" {
	run_both make -n -s --no-print-directory -C "$ROOT" setup
	assert_success
	assert_line --index 0 "sh scripts/tool/deps run"
	assert_line --index 1 "sh scripts/tool/deps check"
	assert_line --regexp 'make.* build$'
	# and it does so here, saying it is ready
	run_both make -s --no-print-directory -C "$ROOT" setup
	assert_success
	assert_line --partial "execlag: ready for make repro and make check"
	[ -x "$ROOT/micro/bin/launch" ]
	[ -x "$ROOT/micro/bin/analyze" ]
	# the guide's first command block is make setup, with nothing to fill in
	run_both awk '/^## Setup/ { s = 1 } s && /^```sh$/ { getline; print; exit }' "$ROOT/docs/workshop.md"
	assert_output --regexp '^make setup( |$)'
	# no command of the guide holds a placeholder to fill in (comments may)
	run_both awk '/^```sh$/ { c = 1; next } /^```$/ { c = 0 } c { sub(/[ \t]+#.*$/, ""); print }' "$ROOT/docs/workshop.md"
	assert_success
	refute_output --regexp '<[a-z][a-z ]*>'
}
