#!/usr/bin/env bats
# The make entry points take every value as data: names holding quotes,
# $(…) (make's and the shell's), backticks, ';', spaces, a newline, a
# leading '-' or unicode reach the program unchanged and never run as a
# command.  Each is driven through make, on the fixture runs and on the
# cheap failure paths (a value refused before anything is measured).

# bats file_tags=heavy
load test_helper/common-setup
load test_helper/quickrun

setup_file() {
	# the open-file limit, read once a file (mk)
	FD_N=$(ulimit -n)
	export FD_N
}

setup() {
	_common_setup
	for p in compare aggregate fbtext; do
		[ -x "$BIN/$p" ] || fail "$BIN/$p is missing: run 'make build'"
	done
	T="$BATS_TEST_TMPDIR"
	CANARY="$T/canary"
	mk_deps_done=""
	CF="$FIXTURES/compare"
	# Each a folder name (the tests' awkward names); those that would run a
	# command touch $CANARY.
	NAMES=(
		"Bob's runs"
		'say "hi" twice'
		"\$(shell touch $CANARY)"
		"\$(touch $CANARY)"
		"\`touch $CANARY\`"
		"x; touch $CANARY; y"
		"'; touch $CANARY; '"
		"\"; touch $CANARY; \""
		$'line one\nline two'
		"ünïcødé € ✓"
		'a#b back\slash $HOME ${HOME} $$ %'
		"two  spaces  "
	)
	# ALL: every name at once, one folder in the other (the last, with its
	# trailing spaces, at the end): a make given ALL (or a folder of it)
	# takes every awkward name in one value, which reaches the program
	# unchanged only when each of them does, and runs none (the canary).
	# Where the program reads the whole value, one make of ALL asserts
	# what a make of each name did; where it reads only the first word
	# (repro's GATE, THREADS, CASES), each name keeps its make.
	local IFS=/
	ALL="${NAMES[*]}"
}

# mk ARGS...: make in the kit, quietly, stdout and stderr apart (run_sep:
# what run --separate-stderr sets, at a third of its cost; a test here
# makes 25 to 60 of them).  A test's first make runs the entry's
# dependency step as ever (deps, deps-check or deps-test: what is missing,
# installed; some 50 ms of processes); the test's other makes take it as
# done (make -o): the step reads none of these values, and the entry's
# recipe, which takes them, runs as ever.
#
# Each make is told the open-file limit (ulimit -n, the shell's builtin,
# read once in setup) as an entry point's own make tells the make it runs:
# EXECLAG_FD_N on its command line, MAKELEVEL 1 in its environment
# (Makefile, "Open files allowed"), so it does not start a shell to ask
# again.  The limit is no value of these tests' and reaches no recipe (a
# limit too low is tests/badinput.bats' test, make's own refusal).
mk() {
	[ -z "$mk_deps_done" ] || set -- -o deps -o deps-check -o deps-test "$@"
	mk_deps_done=1
	# (run_sep without bats' DEBUG trap: some 25 commands of this shell a make)
	MAKELEVEL=1 kit_untraced run_sep make -s --no-print-directory -C "$ROOT" EXECLAG_FD_N="$FD_N" "$@"
}

no_canary() {
	[ ! -e "$CANARY" ] || fail "a value ran as a command: $1"
}

@test "make compare: runs A and B with awkward names are found; a leading '-' is a run, not an option" {
	# make compare: runs A and B with awkward names are found; one named with a leading '-' is a run, not an option
	# awkward names: ALL (setup), every name of NAMES at once, with quotes, $(…), backticks, ';', spaces, a newline, unicode
	# one make: A the folder of ALL, B a folder in it (the online and
	# offline fixtures, which the table's A and B lines tell apart)
	local d="$T/$ALL"
	mkdir -p "$d/b"
	cp "$CF/online/run.json" "$d/"
	cp "$CF/offline/run.json" "$d/b/"
	mk compare A="$d" B="$d/b"
	no_canary "$ALL"
	[ "$status" -eq 0 ] || fail "A and B='$ALL': $stderr"
	assert_line --index 0 "execlag compare"
	[[ "${lines[1]}" == "A  "*", network online" ]] || fail "A='$ALL': ${lines[1]}"
	[[ "${lines[2]}" == "B  "*", network offline" ]] || fail "B='$ALL': ${lines[2]}"
	# a run named with a leading '-' is a run, not an option (in this test:
	# a bats test costs some 0.2 s of CPU here before it does anything)
	mk compare A="-x; touch $CANARY" B="$CF/offline"
	no_canary A
	assert_equal "${stderr_lines[0]}" "compare: A: -x; touch $CANARY: no such run (neither a run folder nor a run.json)"
	mk compare A="$CF/offline" B=--help
	assert_equal "${stderr_lines[0]}" "compare: B: --help: no such run (neither a run folder nor a run.json)"
}

@test "make aggregate: DIR and OUT with awkward names are used" {
	# awkward names: ALL (setup), every name of NAMES at once, with quotes, $(…), backticks, ';', spaces, a newline, unicode
	local d="$T/$ALL"
	mkdir -p "$d/runs/r1"
	cp "$FIXTURES/aggregate/linux-control/run.json" "$d/runs/r1/"
	mk aggregate DIR="$d/runs" OUT="$d/agg"
	no_canary "$ALL"
	[ "$status" -eq 0 ] || fail "DIR='$ALL': $stderr"
	[ -s "$d/agg.md" ] && [ -s "$d/agg.csv" ] && [ -s "$d/agg.svg" ] || fail "OUT='$ALL': no files"
	mk aggregate DIR="$d/runs"
	no_canary "$ALL"
	[ "$status" -eq 0 ] || fail "DIR='$ALL' without OUT: $stderr"
	[ -s "$d/runs/aggregate.md" ] || fail "DIR='$ALL': no aggregate.md in it"
	# a leading '-' is a folder, not an option
	mk aggregate DIR="-x; touch $CANARY"
	no_canary DIR
	assert_equal "${stderr_lines[0]}" "aggregate: -x; touch $CANARY: no such folder of runs: No such file or directory"
}

@test "make check: RUN, RESULTS and EXERCISE with awkward names reach the check" {
	# awkward names: ALL (setup), every name of NAMES at once, with quotes, $(…), backticks, ';', spaces, a newline, unicode
	local name d
	for name in "$ALL" "-x; touch $CANARY"; do
		mk check EXERCISE="$name"
		no_canary "$name"
		[[ "$stderr" == "check: exercise '$name' is not one of 1 to 7"* ]] || fail "EXERCISE='$name': $stderr"
	done
	# a folder that is found holds a run.json that is not a run
	d="$T/$ALL"
	mkdir -p "$d/results"
	printf '{}\n' >"$d/run.json"
	mk check RUN="$d"
	no_canary "$ALL"
	assert_equal "$status" 2
	[[ "$stderr" == "check: "*"$d/run.json"* ]] || fail "RUN='$ALL': $stderr"
	mk check RESULTS="$d/results"
	no_canary "$ALL"
	[[ "$stderr" == "check: no run in $d/results"* ]] || fail "RESULTS='$ALL': $stderr"
}

@test "make feedback: RUN and RESULTS with awkward names reach feedback" {
	# awkward names: ALL (setup), every name of NAMES at once, with quotes, $(…), backticks, ';', spaces, a newline, unicode
	local d="$T/$ALL"
	mkdir -p "$d"
	mk feedback RUN="$d"
	no_canary "$ALL"
	assert_equal "$status" 2
	[[ "$stderr" == "feedback: '$d' has no run.json (not a finished run)"* ]] || fail "RUN='$ALL': $stderr"
	mk feedback RESULTS="$d"
	no_canary "$ALL"
	[[ "$stderr" == "feedback: no finished run in '$d'"* ]] || fail "RESULTS='$ALL': $stderr"
	mk feedback RUN="-x; touch $CANARY"
	no_canary RUN
	[[ "$stderr" == "feedback: no such run folder '-x; touch $CANARY'"* ]] || fail "RUN=-x: $stderr"
}

@test "make repro and repro-full: GATE, COUNT, THREADS, CASES with awkward names are refused before any run" {
	# awkward names: NAMES (setup), with quotes, $(…), backticks, ';', a newline, unicode; refused as data
	# repro-full with two names only: its recipe is repro's but for the
	# profile's word; GATE reaches scripts/repro the same way (kept verbatim
	# and exported by the Makefile for every target, read from the
	# environment), and gate_parse reads it alike under either profile
	# (the profile sets only defaults: threads, counts, the launch bound).
	# make's own expansion ($(shell …)) and the shell's (backticks) are the
	# two ways a recipe of its own could run it; repro takes every name.
	# GATE, THREADS and CASES are refused naming their first word: a make
	# each name; COUNT is refused naming the whole value: one make of ALL
	# (every name at once) and one of the leading '-'.
	local name w target targets
	for name in "${NAMES[@]}" "-x; touch $CANARY"; do
		read -r w _ <<<"$name"
		case $name in
		'$(shell '* | '`'*) targets="repro repro-full" ;;
		*) targets=repro ;;
		esac
		for target in $targets; do
			mk "$target" GATE="key=$name" RESULTS="$T/results"
			no_canary "$name"
			assert_equal "$status" 2
			[[ "$stderr" == "execlag: GATE key '$w' is not one of inode, path, content, inode-mtime"* ]] ||
				fail "$target GATE='key=$name': $stderr"
		done
		mk repro THREADS="$name" RESULTS="$T/results"
		no_canary "$name"
		[[ "$stderr" == "execlag: THREADS '$w' is not a whole number from 1 to 1024"* ]] ||
			fail "THREADS='$name': $stderr"
		mk repro CASES="$name" RESULTS="$T/results"
		no_canary "$name"
		[[ "$stderr" == "execlag: unknown case '$w'"* ]] || fail "CASES='$name': $stderr"
	done
	for name in "$ALL" "-x; touch $CANARY"; do
		mk repro COUNT="$name" RESULTS="$T/results"
		no_canary "$name"
		[[ "$stderr" == "execlag: COUNT '$name' is not a whole number from 1 to 100000"* ]] ||
			fail "COUNT='$name': $stderr"
	done
	assert_empty "$T/results"
}

@test "make install and uninstall: a DESTDIR with quotes, \$(…), ';', spaces, unicode is one folder" {
	# awkward names: ALL (setup), every name of NAMES at once
	local d="$T/dest/$ALL"
	mk install DESTDIR="$d" PREFIX=/opt/x
	no_canary "$ALL"
	[ "$status" -eq 0 ] || fail "DESTDIR='$ALL': $stderr"
	[ -x "$d/opt/x/libexec/execlag/micro/bin/compare" ] || fail "DESTDIR='$ALL': not installed there"
	[ -x "$d/opt/x/bin/execlag" ] || fail "DESTDIR='$ALL': no bin/execlag"
	mk uninstall DESTDIR="$d" PREFIX=/opt/x
	[ "$status" -eq 0 ] || fail "uninstall DESTDIR='$ALL': $stderr"
	[ ! -e "$d/opt/x/libexec/execlag" ] || fail "DESTDIR='$ALL': not uninstalled"
	[ ! -e "$d/opt/x/bin/execlag" ] || fail "DESTDIR='$ALL': bin/execlag not uninstalled"
}

@test "make bench, bench-aggregate, bench-repro, sensitivity, fuzz: a knob holding code is refused, not run" {
	# code: $(shell …), $$(…), backticks and quotes, all in one value (each
	# would touch the canary, were it run; the knob's message is the same
	# for any value that is not its number)
	local v="x\$(shell touch $CANARY)x\`touch $CANARY\`x'; touch $CANARY; 'x\$\$(touch $CANARY)" target var msg
	while IFS='|' read -r target var msg; do
		mk "$target" "$var=$v"
		no_canary "$target $var=$v"
		assert_equal "$status" 2
		assert_equal "${stderr_lines[0]}" "$msg"
	done <<'LIST'
bench|BENCH_LAUNCHES|bench: BENCH_LAUNCHES and BENCH_ROUNDS must be whole numbers >= 1
bench|BENCH_ROUNDS|bench: BENCH_LAUNCHES and BENCH_ROUNDS must be whole numbers >= 1
bench-aggregate|BENCH_COPIES|bench-aggregate: BENCH_COPIES and BENCH_ROUNDS must be whole numbers >= 1
sensitivity|SENS_RUNS|sensitivity: SENS_RUNS must be a whole number >= 1
bench-repro|BENCH_LATENCIES|bench-repro: BENCH_LATENCIES must be whole numbers of ms (e.g. '0 20 150 300')
LIST
	mk fuzz FUZZ_SECONDS="$v"
	no_canary "fuzz FUZZ_SECONDS=$v"
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "fuzz: FUZZ_SECONDS must be a whole number of seconds >= 1, not '$v'"
}

@test "make measure: DIR and RESULTS with awkward names are used; PROBE, TAG, MEASURE holding them refused" {
	# awkward names: ALL (setup), every name of NAMES at once, with quotes, $(…), backticks, ';', spaces, a newline, unicode
	local d="$T/$ALL" m
	mkdir -p "$d"
	# CMD is the user's own command line for sh -c: pwd names the folder
	mk measure PROBE=0 CMD='pwd' DIR="$d" RESULTS="$d/results"
	no_canary "$ALL"
	[ "$status" -eq 0 ] || fail "DIR='$ALL': $stderr"
	assert_equal "$output" "$(cd "$d" && pwd)"
	# RESULTS holds the one measure (a run folder's measure.json)
	m=("$d/results"/*/measure.json)
	[ "${#m[@]}" = 1 ] && [ -f "${m[0]}" ] || fail "DIR='$ALL': no measure in RESULTS"
	mk measure PROBE="$ALL" CMD=true DIR="$d" RESULTS="$d/results"
	no_canary "$ALL"
	assert_equal "$status" 2
	[[ "$stderr" == "execlag: PROBE '$ALL' is not 0 or 1"$'\n'"make"* ]] || fail "PROBE='$ALL': $stderr"
	mk measure TAG="$ALL" CMD=true DIR="$d" RESULTS="$d/results"
	no_canary "$ALL"
	assert_equal "$status" 2
	mk feedback MEASURE="$d" RESULTS="$d/results"
	no_canary "$ALL"
	assert_equal "$status" 2
	[[ "$stderr" == "feedback: '$d' has no measure.json (not a finished measure: make measure)"* ]] ||
		fail "MEASURE='$ALL': $stderr"
	mk measure PROBE=0 CMD=true DIR="-x; touch $CANARY"
	no_canary DIR
	assert_equal "${stderr_lines[0]}" "execlag: DIR '-x; touch $CANARY' is not a folder"
}
