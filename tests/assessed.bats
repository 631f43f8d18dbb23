#!/usr/bin/env bats
# Assessed first (issue 42, item 1): what exe-assessed's assessments before
# its launch cost, read back from MANIFEST.assessed (docs/formats.md,
# "Assessments beside the manifest") by its one reader, and shown per tool
# in run.json (assessed_first), report.md's case section and the terminal's
# case lines.  Fixtures (tests/fixtures/assessed/README.md) beside a
# simulated run's manifests (a simulated run assesses nothing and writes
# none: it shows nothing new), and one real exe-assessed run on Linux,
# whose counts and statuses are asserted, never its times.

load test_helper/common-setup
load test_helper/quickrun

setup_file() {
	_common_setup
	schema_validator_keep
	make -C "$ROOT" -s micro/bin/mkfresh micro/bin/launch micro/bin/analyze >/dev/null
	# one simulated exe-assessed run at T=1 and T=2: the run folder the
	# fixtures are put into
	local F="$BATS_FILE_TMPDIR"
	mkdir -p "$F/tmp" "$F/results"
	TMPDIR="$F/tmp" RESULTS="$F/results" LAUNCHER='sim:latency=20 seed=1' \
		sh "$ROOT/scripts/repro" --cases exe-assessed --threads 1,2 --count 8 \
		>"$F/repro.out" 2>&1 3>&- || { cat "$F/repro.out" >&3; return 1; }
	ls -d "$F"/results/*/ >"$F/run"
}

setup() {
	_common_setup
	IFS= read -r SIMRUN <"$BATS_FILE_TMPDIR/run"
	A="$FIXTURES/assessed"
	R="$BATS_TEST_TMPDIR/run"
	cp -R "$SIMRUN" "$R"
}

# with FIXTURE [T...]: the fixture as the assessments of the exe-assessed
# config at each T (1 when none given), and the run analyzed: its terminal
# lines in $output
with() {
	local fixture=$1 t
	shift
	for t in "${@:-1}"; do
		cp "$A/$fixture" "$R/raw/exe-assessed-t$t-all.manifest.assessed"
	done
	run_both -0 "$BIN/analyze" --run "$R"
}

# line_of: the lines of the output that start "exe-assessed: assessed
# first", in _lo (what grep gave in a $( ), read by the shell)
line_of() {
	local l
	_lo=""
	for l in "${lines[@]}"; do
		case $l in "exe-assessed: assessed first"*) _lo=${_lo:+$_lo$'\n'}$l ;; esac
	done
}

@test "assessments read back: none simulated; macOS with, without gktool, at the bound; Linux; schema" {
	# (was: "a simulated run assesses nothing, writes none and shows nothing new")
	run_both find "$SIMRUN/raw" -name '*.assessed'
	kit_untraced assert_output ''
	assert_equal "$(jq -c '[.cases[] | has("assessed_first")]' "$SIMRUN/run.json")" '[false]'
	run_both -0 "$BIN/analyze" --run "$R"
	kit_untraced refute_output --partial 'assessed first'
	run_both grep -c 'Assessed first' "$R/report.md"
	kit_untraced assert_output 0
	# (was: "macOS with gktool: spctl and gktool each counted and timed, apart from the launch")
	with mac-gktool.assessed
	kit_untraced line_of
	assert_equal "$_lo" "exe-assessed: assessed first, apart from the launch: spctl ran 4 of 4 (0 ended 0, 4 with another status), median 386.7 ms (max 410.0 ms); gktool ran 4 of 4 (4 ended 0), median 13.8 ms (max 20.0 ms)"
	assert_equal "$(jq -c '.cases[0].assessed_first' "$R/run.json")" \
		'[{"tool":"spctl","steps":4,"median_ms":386.684,"max_ms":410,"ok":0,"other":4,"bound":0,"absent":0},{"tool":"gktool","steps":4,"median_ms":13.8,"max_ms":20,"ok":4,"other":0,"bound":0,"absent":0}]'
	assert_equal "$(grep '^  Assessed first' "$R/report.md")" \
		"  Assessed first, apart from the launch (its time not in a launch's): spctl ran 4 of 4 (0 ended 0, 4 with another status), median 386.7 ms (max 410.0 ms); gktool ran 4 of 4 (4 ended 0), median 13.8 ms (max 20.0 ms)."
	# (was: "macOS without gktool: its steps absent (-1), not run, not timed")
	with mac-nogktool.assessed
	kit_untraced line_of
	assert_equal "$_lo" "exe-assessed: assessed first, apart from the launch: spctl ran 4 of 4 (4 ended 0), median 110.8 ms (max 143.7 ms); gktool absent (4 not run)"
	assert_equal "$(jq -c '.cases[0].assessed_first[1]' "$R/run.json")" \
		'{"tool":"gktool","steps":4,"median_ms":null,"max_ms":null,"ok":0,"other":0,"bound":0,"absent":4}'
	# (was: "run.json with assessed_first validates against docs/run.schema.json; a wrong one does not")
	# (the same analysis of mac-nogktool.assessed as that test's)
	why=$(schema_skip_reason)
	if [ -z "$why" ] && [ "$(schema_validator)" = python ]; then
		jq '.cases[0].assessed_first[0].ok = "4"' "$R/run.json" >"$BATS_TEST_TMPDIR/bad1.json"
		jq 'del(.cases[0].assessed_first[0].bound)' "$R/run.json" >"$BATS_TEST_TMPDIR/bad2.json"
		# one validator for the three (a python start each was most of
		# the test): the good file is named by no error, each bad one is
		run validate_run_json "$R/run.json" "$BATS_TEST_TMPDIR/bad1.json" "$BATS_TEST_TMPDIR/bad2.json"
		assert_equal "$status" 3
		kit_untraced refute_output --partial "$R/run.json: "
		kit_untraced assert_output --partial "$BATS_TEST_TMPDIR/bad1.json: "
		kit_untraced assert_output --partial "$BATS_TEST_TMPDIR/bad2.json: "
	elif [ -z "$why" ]; then
		run validate_run_json "$R/run.json"
		assert_success
		jq '.cases[0].assessed_first[0].ok = "4"' "$R/run.json" >"$BATS_TEST_TMPDIR/bad.json"
		run validate_run_json "$BATS_TEST_TMPDIR/bad.json"
		assert_equal "$status" 3
		jq 'del(.cases[0].assessed_first[0].bound)' "$R/run.json" >"$BATS_TEST_TMPDIR/bad.json"
		run validate_run_json "$BATS_TEST_TMPDIR/bad.json"
		assert_equal "$status" 3
	else
		echo "# not validated: $why" >&3
	fi
	# (was: "a spctl killed at its bound (124) is counted apart, and its time is in the max")
	with mac-bound.assessed
	kit_untraced line_of
	assert_equal "$_lo" "exe-assessed: assessed first, apart from the launch: spctl ran 4 of 4 (1 ended 0, 3 with another status, 1 of them killed at the bound), median 395.0 ms (max 30001.2 ms); gktool absent (4 not run)"
	assert_equal "$(jq -c '.cases[0].assessed_first[0] | [.ok, .other, .bound, .absent]' "$R/run.json")" '[1,3,1,0]'
	# (was: "Linux: the whole file read; the case's configs summed (T=1 and T=2)")
	with linux-read.assessed 1 2
	kit_untraced line_of
	assert_equal "$_lo" "exe-assessed: assessed first, apart from the launch: read whole ran 40 of 40 (40 ended 0), median 0.1 ms (max 0.3 ms)"
	assert_equal "$(jq -c '.cases[0].assessed_first' "$R/run.json")" \
		'[{"tool":"read","steps":40,"median_ms":0.061,"max_ms":0.31,"ok":40,"other":0,"bound":0,"absent":0}]'
}

# refused LINE WHY: an assessments file whose second line is LINE is
# refused by analyze in the reader's words, exit 2, and nothing is written
refused() {
	local f="$R/raw/exe-assessed-t1-all.manifest.assessed"
	printf '0\tspctl\t372.118\t3\n%s\n' "$1" >"$f"
	# (a process only where they are there: the first call's run)
	if [ -e "$R/run.json" ] || [ -e "$R/report.md" ]; then rm -f "$R/run.json" "$R/report.md"; fi
	run_sep "$BIN/analyze" --run "$R"
	assert_equal "$status" 2
	assert_equal "$stderr" "analyze: $f:2: not an assessment (INDEX, TOOL, MS, STATUS): $2"
	kit_untraced assert_output ''
	[ ! -e "$R/run.json" ]
	[ ! -e "$R/report.md" ]
}

@test "a bad assessments file is refused in its one reader's words, exit 2" {
	# (each LINE as $'...' writes it: what printf made in a $( ), a process each)
	refused $'1\tspctl\t372.118' "want 4 tab-separated fields"
	refused $'1\tspctl\t372.118\t3\t9' "want 4 tab-separated fields"
	refused $'1\t372.118\tspctl\t3' "TOOL is not a tool's name (spctl, gktool, read)"
	refused $'-1\tspctl\t372.118\t3' "INDEX is not a whole number from 0"
	refused $'1\tspctl\tfast\t3' "MS is not a time in ms"
	refused $'1\tspctl\t-2.5\t3' "MS is not a time in ms"
	refused $'1\tspctl\t372.118\t-2' "STATUS is not a status (-1: the tool is absent)"
	refused "" "want 4 tab-separated fields"
	# a folder in its place
	local f="$R/raw/exe-assessed-t1-all.manifest.assessed"
	rm -f "$f"
	mkdir "$f"
	run_sep "$BIN/analyze" --run "$R"
	assert_equal "$status" 2
	assert_equal "$stderr" "analyze: assessments $f is a folder, not a file"
}

@test "Linux: a real exe-assessed run (scripts/repro) reads each artifact whole, counted in every writer" {
	[ "$(uname -s)" = Linux ] || skip "the whole-file read is elsewhere's; macOS runs spctl (make test-live)"
	_run_folders_setup
	run_both -0 sh "$ROOT/scripts/repro" --cases exe-assessed --threads 1 --count 8 --sequential 0
	local dir
	dir=$(ls -d "$RESULTS"/*/)
	# one step an artifact launched first: the whole file read, ended 0
	assert_equal "$(cut -f 1,2,4 "$dir/raw/exe-assessed-t1-all.manifest.assessed" | tr '\t\n' ', ')" \
		"0,read,0 1,read,0 2,read,0 3,read,0 4,read,0 5,read,0 6,read,0 7,read,0 "
	assert_equal "$(jq -c '.cases[0].assessed_first[] | [.tool, .steps, .ok, .other, .bound, .absent]' "$dir/run.json")" \
		'["read",8,8,0,0,0]'
	kit_untraced assert_line --regexp '^exe-assessed: assessed first, apart from the launch: read whole ran 8 of 8 \(8 ended 0\), median [0-9]+\.[0-9] ms \(max [0-9]+\.[0-9] ms\)$'
	run_both grep -c '^  Assessed first, apart from the launch (its time not in a launch.s): read whole ran 8 of 8 (8 ended 0)' "$dir/report.md"
	kit_untraced assert_output 1
}
