#!/usr/bin/env bats
# The assessment services' CPU and the unified log's assessments per case:
# what analyze makes of raw/*.services.tsv and raw/*.log.* (run.json,
# report.md, the terminal), and repro taking them around each case with the
# fake ps and log. Hand-worked numbers: tests/fixtures/services-log/README.md.

load test_helper/common-setup
load test_helper/quickrun
load test_helper/jqbatch

# The mac and steps fixtures analyzed once for the file (the tests that
# only read them share it; those that change a fixture analyze their own
# copy): each analyze's status, stdout and stderr kept beside it.
setup_file() {
	schema_validator_keep
	local root="$BATS_TEST_DIRNAME/.." f rc
	for f in mac steps; do
		cp -R "$root/tests/fixtures/services-log/$f" "$BATS_FILE_TMPDIR/$f"
		rc=0
		"$root/micro/bin/analyze" --run "$BATS_FILE_TMPDIR/$f" >"$BATS_FILE_TMPDIR/$f.out" \
			2>"$BATS_FILE_TMPDIR/$f.err" || rc=$?
		echo "$rc" >"$BATS_FILE_TMPDIR/$f.status"
	done
}
teardown() { jq_flush; }

setup() {
	_common_setup
	[ -x "$BIN/analyze" ] || fail "$BIN/analyze is missing: run 'make micro/bin/analyze'"
	FAKES="$ROOT/tests/fakes"
}

# analyze_mac [SHELL]: the mac fixture analyzed; JSON is run.json.  With
# SHELL, a scratch copy changed by it first, then analyzed; without, the
# file's one analyze of it (setup_file), which the test only reads.
analyze_mac() {
	if [ -z "${1:-}" ]; then
		analyzed mac
		return
	fi
	jq_flush
	RUN="$BATS_TEST_TMPDIR/mac"
	rm -rf "$RUN"
	cp -R "$FIXTURES/services-log/mac" "$RUN"
	eval "$1"
	JSON="$RUN/run.json"
	run_sep "$BIN/analyze" --run "$RUN"
	assert_success
	assert_equal "$stderr" ""
}

# analyzed NAME: RUN, JSON, status, output, lines, stderr as analyze_mac's
# run --separate-stderr set them, from setup_file's analyze of NAME (read by
# the shell: no cat); then its assertions
analyzed() {
	jq_flush
	local F=$BATS_FILE_TMPDIR
	RUN="$F/$1"
	JSON="$RUN/run.json"
	output="" stderr="" status=""
	read -r status <"$F/$1.status" || :
	IFS= read -r -d '' output <"$F/$1.out" || :
	while [ "${output%$'\n'}" != "$output" ]; do output=${output%$'\n'}; done
	lines=()
	[ -z "$output" ] || IFS=$'\n' read -d '' -r -a lines <<<"$output" || :
	IFS= read -r -d '' stderr <"$F/$1.err" || :
	while [ "${stderr%$'\n'}" != "$stderr" ]; do stderr=${stderr%$'\n'}; done
	assert_success
	assert_equal "$stderr" ""
}

# jq_is FILTER WANT: the compact jq result (jq -c) equals WANT, asked with
# the test's others by one jq (test_helper/jqbatch.bash: tojson gives what
# -c prints).  In FILTER, kase("CASE") is that case and delta("CASE";
# "SERVICE") the cpu_s_delta of SERVICE in CASE (jq functions: no process
# to spell them).
jq_is() {
	jq_queue is 'def kase($n): .cases[] | select(.name == $n);
		def delta($c; $s): kase($c) | .services.deltas[] | select(.name == $s) | .cpu_s_delta;
		('"$1"') | tojson' "$2"
}

# ---- analyze ----------------------------------------------------------------------------

@test "services: deltas summed over a case's windows, new processes whole, ended ones apart" {
	analyze_mac
	jq_is "kase(\"exe\") | .services | [.fresh_launches, .repeat_launches, .windows]" '[5,5,2]'
	jq_is "delta(\"exe\"; \"syspolicyd\")" 0.41
	jq_is "delta(\"exe\"; \"XprotectService\")" 4.78
	jq_is "delta(\"exe\"; \"amfid\")" 0
	jq_is "delta(\"exe\"; \"trustd\")" 0.02
	jq_is "delta(\"exe\"; \"mdworker_shared\")" 0.2
	jq_is "kase(\"exe\") | .services.deltas | map([.name, .instances, .ended])" \
		'[["syspolicyd",1,0],["XprotectService",2,0],["amfid",1,0],["trustd",1,0],["mdworker_shared",2,1]]'
	jq_is "kase(\"exe\") | .services_reason" null
}

@test "services: a time that did not parse makes that delta null, the others still count" {
	analyze_mac
	jq_is "delta(\"exe-copy\"; \"syspolicyd\")" null
	jq_is "delta(\"exe-copy\"; \"XprotectService\")" 0.75
	jq_is "kase(\"exe-copy\") | .services.deltas[1].instances" 2
}

@test "assessments: GK performScan events against fresh launches, the other counts beside" {
	analyze_mac
	jq_is "kase(\"exe\") | .assessments | del(.steps, .checks_timed, .check_median_ms, .check_max_ms, .checks)" \
		'{"fresh_launches":5,"repeat_launches":5,"windows":2,"observed":5,"scan_complete":3,"process_assessment":3,"amfid":4,"xprotect":0,"events":18,"unreadable":0,"cut_windows":1}'
	jq_is "kase(\"exe-copy\") | .assessments | [.observed, .xprotect, .events, .unreadable]" '[1,1,2,1]'
	jq_is "kase(\"exe-copy\") | .assessments_reason" null
}

@test "an excerpt cut at the size limit makes the counts lower bounds, and says so" {
	analyze_mac
	jq_is "kase(\"exe\") | .assessments_reason" \
		'"the excerpt of 1 window(s) reached the size limit: the counts are lower bounds"'
	grep -q 'the excerpt of 1 window reached the size limit: the counts are lower bounds' "$RUN/report.md"
}

@test "a failed ps and a refused log: null, with the reason" {
	analyze_mac
	jq_is "kase(\"script\") | .services" null
	jq_is "kase(\"script\") | .services_reason" \
		'"ps could not be read after the case (script-t1-all): ps -axo pid=,time=,command= failed (exit 127): sh: ps: command not found"'
	jq_is "kase(\"script\") | .assessments" null
	jq_is "kase(\"script\") | .assessments_reason" \
		"\"log show refused: log: Must be admin to run 'show' command\""
	grep -qF -- "- **script** — log show refused: log: Must be admin to run 'show' command." "$RUN/report.md"
}

@test "a Mac run without the files: null, and the reason says none were taken" {
	analyze_mac
	jq_is "kase(\"dylib\") | [.services, .assessments]" '[null,null]'
	jq_is "kase(\"dylib\") | .services_reason" '"not sampled: the run has no raw/*.services.tsv"'
	jq_is "kase(\"dylib\") | .assessments_reason" '"no log read: the run has no raw/*.log.status"'
}

@test "one window without files: the case counts the others and says which part is missing" {
	analyze_mac 'rm "$RUN/raw/exe-t2-all.services.tsv" "$RUN/raw/exe-t2-all.log.status"'
	jq_is "kase(\"exe\") | .services | [.fresh_launches, .windows]" '[3,1]'
	jq_is "delta(\"exe\"; \"XprotectService\")" 3.78
	jq_is "kase(\"exe\") | .services_reason" '"1 of 2 windows read; the others have no file"'
	jq_is "kase(\"exe\") | .assessments.observed" 3
}

@test "a corrupt services file does not stop analyze: that case's services are null, naming the line" {
	analyze_mac 'printf "service\tafter\tamfid\t1.00\t1\t342=x\n" >>"$RUN/raw/exe-copy-t1-all.services.tsv"'
	jq_is "kase(\"exe-copy\") | .services" null
	jq_is "kase(\"exe-copy\") | .services_reason" \
		"\"exe-copy-t1-all.services.tsv:14: bad process list '342=x'\""
}

@test "report.md and the terminal say how much CPU each service used during how many fresh launches" {
	analyze_mac
	local md="$RUN/report.md"
	grep -q '^## Assessment services$' "$md"
	grep -qx '  - XprotectService used 4.78 s of CPU during 5 fresh launches (2 processes)' "$md"
	grep -qx '  - mdworker_shared used 0.20 s of CPU during 5 fresh launches (2 processes, 1 ended between the samples)' "$md"
	grep -q '^## Assessments in the unified log$' "$md"
	grep -q '^- \*\*exe\*\* — 5 assessments observed (`GK performScan`) for 5 fresh launches; 3 `GK scan complete`' "$md"
	assert_line 'exe: XprotectService used 4.78 s of CPU during 5 fresh launches (syspolicyd 0.41 s, mdworker_shared 0.20 s, trustd 0.02 s, amfid 0.00 s)'
	assert_line 'exe: 5 assessments logged (GK performScan) for 5 fresh launches (at least: an excerpt reached the size limit)'
}

@test "run.json with services and assessments validates against the schema" {
	local why
	why=$(schema_skip_reason)
	[ -z "$why" ] || skip "$why"
	analyze_mac
	run validate_run_json "$JSON"
	assert_success
	# and the schema refuses a wrong service name or a negative delta
	jq '.cases[1].services.deltas[0].name = "launchd"' "$JSON" >"$BATS_TEST_TMPDIR/bad.json"
	run validate_run_json "$BATS_TEST_TMPDIR/bad.json"
	assert_equal "$status" 3
	jq '.cases[1].services.deltas[1].cpu_s_delta = -1' "$JSON" >"$BATS_TEST_TMPDIR/bad.json"
	run validate_run_json "$BATS_TEST_TMPDIR/bad.json"
	assert_equal "$status" 3
}

# analyze_steps: the steps fixture (README.md) analyzed: the file's one
# analyze of it (setup_file), which the test only reads.
analyze_steps() {
	analyzed steps
}

@test "steps: each documented line of an assessment counted, syspolicyd's only" {
	analyze_steps
	jq_is "kase(\"exe\") | .assessments.steps" \
		'{"process_assessment":2,"perform_scan":3,"legacy_notarization":2,"ticket_lookup":2,"network_reachability":1,"xprotect_results":3,"scan_finished":3,"scan_complete":3,"evaluate_scan_result":2}'
	jq_is "kase(\"exe\") | [.assessments.observed, .assessments.events]" '[3,21]'
	# the mac fixture's m1-watch log: amfid's lines are no step
	analyze_mac
	jq_is "kase(\"exe\") | .assessments.steps | [.process_assessment, .perform_scan, .scan_finished, .scan_complete]" \
		'[3,5,3,3]'
}

@test "checks: the lines of one path timed from first to last; a PST hash apart from the path it hides" {
	analyze_steps
	jq_is "kase(\"exe\") | .assessments | [.checks_timed, .check_median_ms, .check_max_ms]" '[4,140.55,181.5]'
	jq_is "kase(\"exe\") | .assessments.checks | map([(.path | split(\"/\") | last), .lines, .ms])" \
		'[["exe-t1-all-0000",5,181.5],["exe-t1-all-0001",2,140],["40b87848f627f51a",3,141.1],["Antigravity Tools.app",3,61]]'
	jq_is "kase(\"exe\") | .assessments.checks[3].path" '"/Applications/Antigravity Tools.app"'
	jq_is "kase(\"exe\") | .assessments.checks[0].first" '"2024-01-15 10:30:00.100000-0800"'
}

@test "checks: lines logged at one instant time a check at 0 ms; one line alone is no check" {
	analyze_mac
	# m1-watch: every line of an artifact at the same time; the two PST
	# lines of a hash are a check, the one line naming the path is none
	jq_is "kase(\"exe\") | .assessments | [.checks_timed, .check_median_ms, .check_max_ms]" '[3,0,0]'
	jq_is "kase(\"exe\") | .assessments.checks | map([.path, .lines])" \
		'[["40b87848f627f510",2],["40b87848f627f511",2],["40b87848f627f512",2]]'
	jq_is "kase(\"exe-copy\") | .assessments | [.checks_timed, .check_median_ms, .checks]" '[0,null,[]]'
}

@test "report.md and the terminal give the steps and the checks' times" {
	analyze_steps
	run_both -0 grep -F '  - steps: 2 `GK process assessment`, 3 `GK performScan`, 2 `Checking legacy notarization`, 2 `looking up ticket`, 1 `CKTicketStore network reachability`, 3 `GK Xprotect results`, 3 `scan finished, waking up any waiters`, 3 `GK scan complete`, 2 `GK evaluateScanResult`' "$RUN/report.md"
	run_both -0 grep -F "  - from a check's first line to its last (lines carrying the same path): median 140.6 ms, longest 181.5 ms, over 4 checks" "$RUN/report.md"
	run_both -0 "$BIN/analyze" --run "$RUN"
	assert_line "exe: a check took 140.6 ms from its first log line to its last (median of 4; longest 181.5 ms)"
}

@test "run.json with steps and checks validates; the schema refuses a check of one line" {
	local why
	why=$(schema_skip_reason)
	[ -z "$why" ] || skip "$why"
	analyze_steps
	run validate_run_json "$JSON"
	assert_success
	jq '.cases[0].assessments.checks[0].lines = 1' "$JSON" >"$BATS_TEST_TMPDIR/bad.json"
	run validate_run_json "$BATS_TEST_TMPDIR/bad.json"
	assert_equal "$status" 3
	# older runs have none of the new fields
	jq 'del(.cases[0].assessments | .steps, .checks, .checks_timed, .check_median_ms, .check_max_ms)' \
		"$JSON" >"$BATS_TEST_TMPDIR/old.json"
	run validate_run_json "$BATS_TEST_TMPDIR/old.json"
	assert_success
}

@test "off macOS with nothing watched: null with a reason naming the OS, and report.md stays silent" {
	RUN="$BATS_TEST_TMPDIR/verdicts"
	cp -R "$FIXTURES/analyze/verdicts" "$RUN"
	JSON="$RUN/run.json"
	run_sep "$BIN/analyze" --run "$RUN"
	assert_success
	refute_output --partial 'assessment'
	jq_is '[.cases[] | .services, .assessments] | unique' '[null]'
	jq_is '.cases[0].services_reason' '"not sampled: the assessment services are watched on macOS (this run: os=Linux)"'
	jq_is '.cases[0].assessments_reason' "\"no log read: the unified log is macOS's (this run: os=Linux)\""
	! grep -q 'Assessment' "$RUN/report.md" || fail "report.md has an Assessment section"
}

# ---- repro, with the fake ps and log -----------------------------------------------------

# repro_services_log ARGS...: one case, on this machine, with the fake ps (alone on
# PATH, so uname stays real) and the fake log of the m1-watch state.  Beside
# it a hyperfine that gives no version: the run's cross-check is skipped
# before it makes anything (hfcheck's tests have it; for exe, 8 compiles).
repro_services_log() {
	mkdir -p "$BATS_TEST_TMPDIR/ps-only" "$BATS_TEST_TMPDIR/count" "$BATS_TEST_TMPDIR/tmp" \
		"$BATS_TEST_TMPDIR/results"
	ln -sf "$FAKES/bin/ps" "$BATS_TEST_TMPDIR/ps-only/ps"
	printf '#!/bin/sh\nexit 1\n' >"$BATS_TEST_TMPDIR/ps-only/hyperfine"
	chmod +x "$BATS_TEST_TMPDIR/ps-only/hyperfine"
	run_sep env PATH="$BATS_TEST_TMPDIR/ps-only:$PATH" \
		FAKE_STATE="$FAKES/states/m1-watch" FAKE_COUNTER_DIR="$BATS_TEST_TMPDIR/count" \
		FAKE_LOG_ARGS="$BATS_TEST_TMPDIR/log-args" TMPDIR="$BATS_TEST_TMPDIR/tmp" \
		RESULTS="$BATS_TEST_TMPDIR/results" "$@"
	# (the run's folder by a glob: no find, no head)
	local d
	RUN=""
	for d in "$BATS_TEST_TMPDIR/results"/*/; do
		[ -d "$d" ] && { RUN=${d%/}; break; }
	done
	JSON="$RUN/run.json"
}

@test "repro samples ps before and after each case and keeps its log window (stand-ins)" {
	make -C "$ROOT" -s build >/dev/null
	repro_services_log EXECLAG_WATCH_SERVICES=1 EXECLAG_LOG="$FAKES/bin/log" \
		sh "$ROOT/scripts/repro" --cases exe --threads 1 --count 6
	assert_success
	[ -f "$RUN/raw/exe-t1-all.services.tsv" ] || fail "no services file: $(ls "$RUN/raw")"
	local n=""
	read -r n <"$BATS_TEST_TMPDIR/count/ps.count" || :
	assert_equal "$n" 2
	run_both grep -c '^sample	' "$RUN/raw/exe-t1-all.services.tsv"
	assert_output 2
	[ -f "$RUN/raw/exe-t1-all.log.ndjson" ]
	run_both sed -n 's/^result	//p' "$RUN/raw/exe-t1-all.log.status"
	assert_output ok
	jq_is "delta(\"exe\"; \"XprotectService\")" 3.78
	jq_is "kase(\"exe\") | .assessments | [.observed, .fresh_launches]" '[3,6]'
	# log show was asked for a local-time window of whole seconds
	run_both sed -n '1,/^--$/p' "$BATS_TEST_TMPDIR/log-args"
	assert_line --index 0 show
	assert_line --index 1 --start
	assert_line --index 2 --regexp '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$'
	assert_line --index 3 --end
	[ -z "$(find "$BATS_TEST_TMPDIR/tmp" -mindepth 1)" ] || fail "work folder left behind"
}

@test "repro records a refusing log and goes on" {
	make -C "$ROOT" -s build >/dev/null
	repro_services_log EXECLAG_LOG="$FAKES/bin/log" FAKE_STATE="$FAKES/states/log-refused" \
		sh "$ROOT/scripts/repro" --cases script --threads 1 --count 6
	assert_success
	run_both sed -n 's/^result	//p' "$RUN/raw/script-t1-all.log.status"
	assert_output refused
	[ ! -e "$RUN/raw/script-t1-all.log.ndjson" ]
	[ ! -e "$RUN/raw/script-t1-all.services.tsv" ] # ps is only watched on request off macOS
	jq_is "kase(\"script\") | .assessments_reason" "\"log show refused: log: Must be admin to run 'show' command\""
}

@test "repro on Linux without stand-ins takes neither ps samples nor log excerpts" {
	[ "$(uname -s)" = Linux ] || skip "the skip applies off macOS"
	make -C "$ROOT" -s build >/dev/null
	# (the script case: whether ps and log are asked is the run's, not the
	# case's, and its artifacts are written, not compiled)
	repro_services_log env -u EXECLAG_LOG -u EXECLAG_WATCH_SERVICES \
		sh "$ROOT/scripts/repro" --cases script --threads 1 --count 6
	assert_success
	[ ! -e "$BATS_TEST_TMPDIR/count/ps.count" ] || fail "ps was called"
	[ ! -e "$BATS_TEST_TMPDIR/log-args" ] || fail "log was called"
	run_both find "$RUN/raw" -name '*.services.tsv' -o -name '*.log.*'
	assert_output ""
}
