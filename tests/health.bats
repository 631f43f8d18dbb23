#!/usr/bin/env bats
# scripts/probe/health: the checker's health before any launch, on the fake
# states of tests/fakes (mkstates: m1-online well, health-busy,
# health-storm, health-exhausted, health-wedged, each from its public
# source), the record it writes (docs/formats.md) and the state
# micro/stats/checkerstate.c decides from it (the unit test, whose own
# checks take each threshold at its edge).

load test_helper/common-setup
load test_helper/shellread
load test_helper/quickrun

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s build micro/bin/unit-checkerstate >/dev/null
}

setup() {
	_common_setup
	D=$BATS_TEST_TMPDIR
	FAKES="$ROOT/tests/fakes"
	export EXECLAG_LOG="$FAKES/bin/log"
}

# health_on STATE [ARGS...]: the probe on STATE's fakes, its record in
# $D/STATE.health (the state a path: a folder of the test's own)
health_on() {
	local state=$1 dir
	shift
	case $state in /*) dir=$state ;; *) dir=$FAKES/states/$state ;; esac
	REC="$D/${state##*/}.health"
	run_sep env PATH="$FAKES/bin:$PATH" FAKE_STATE="$dir" \
		sh "$ROOT/scripts/probe/health" --out "$REC" "$@"
}

# has KEY VALUE...: the record holds each "KEY<TAB>VALUE" line (as a
# whole line: grep -qxF's, the record read once by the shell, no process
# a key)
has() {
	local rec nl=$'\n'
	IFS= read -r -d '' rec <"$REC" || :
	rec=$nl$rec
	[[ "$rec" == *"$nl" ]] || rec=$rec$nl
	while [ $# -gt 1 ]; do
		[[ "$rec" == *"$nl$1	$2$nl"* ]] || fail "no '$1	$2' in ${rec#"$nl"}"
		shift 2
	done
}

# state_is STATE DRIVER: what the model decides from the record
state_is() {
	run_both -0 "$BIN/unit-checkerstate" "$REC"
	assert_output "$1	$2"
}

@test "the model's thresholds at their edges, the order of the states and the relief as data" {
	run -0 "$BIN/unit-checkerstate"
	refute_output --partial "not ok"
	assert_line --regexp '^1\.\.[0-9]+$'
}

@test "well (m1-online): syspolicyd idle, Calculator accepted, a quiet minute" {
	health_on m1-online --bound 20
	assert_success
	assert_equal "$stderr" ""
	has system Darwin checker syspolicyd ps ok \
		syspolicyd_count 1 syspolicyd_cpu_pct 0.0 syspolicyd_rss_kb 139264 \
		syspolicyd_etime 03-04:04:58 syspolicyd_etime_s 273898 syspolicyd_time 9:15.14 syspolicyd_time_s 555.14 \
		trustd_count 1 trustd_rss_kb 20480 \
		assess accepted assess_exit 0 assess_line "/System/Applications/Calculator.app: accepted" \
		log.result ok log.last 1m log.syspolicyd_lines 2 log.own_lines 0 log.emfile_lines 0 log.asp_lines 0
	grep_ere "$REC" '^log.top_program'
	assert_equal "${#lines[@]}" 0
	state_is well -
}

@test "busy (openai/codex#25243): 143% CPU and 2.6 GB after 14 minutes, still answering" {
	health_on health-busy --bound 20
	assert_success
	has syspolicyd_cpu_pct 143.0 syspolicyd_rss_kb 2726298 syspolicyd_etime 14:00 syspolicyd_etime_s 840 \
		syspolicyd_time_s 1201.20 assess accepted log.syspolicyd_lines 0
	state_is busy -
}

@test "storm (openai/codex#25882): 440 lines a second, the driver named by the kernel's denials" {
	health_on health-storm --bound 20
	assert_success
	has assess accepted log.syspolicyd_lines 26400 log.own_lines 0 log.asp_lines 660 \
		log.top_program /Applications/Codex.app/Contents/MacOS/Codex log.top_program_lines 660
	grep_ere "$REC" '^quote	.*ASP: Security policy would not allow process: 30001, /Applications/Codex.app/Contents/MacOS/Codex$'
	assert_equal "${#lines[@]}" 1
	state_is storm /Applications/Codex.app/Contents/MacOS/Codex
}

@test "exhausted (openai/codex#29796, #27662): Too many open files, error 24 in the log, quoted once each" {
	health_on health-exhausted --bound 20
	assert_success
	has syspolicyd_cpu_pct 59.0 syspolicyd_rss_kb 1035888 syspolicyd_etime_s 1513 \
		assess too-many-open-files assess_exit 1 \
		assess_line "/System/Applications/Calculator.app: Too many open files" \
		log.syspolicyd_lines 20760 log.emfile_lines 20760
	grep_ere "$REC" '^quote'
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 --partial 'Failed to generate SecStaticCode for <private> error: 100024'
	assert_line --index 1 --partial '[com.apple.securityd:security_exception] UNIX error exception: 24'
	state_is exhausted -
}

@test "wedged: an assessment that never answers is killed at its bound, and the checker is hung" {
	local t0 t1
	# (the shell's clock in whole seconds: no date, a process)
	t0=$SECONDS
	# (the log's minute its own wide bound: only the assessment is to hang)
	health_on health-wedged --bound 1 --log-bound 120
	t1=$SECONDS
	assert_success
	has assess timeout assess_exit 124 assess_bound_s 1 syspolicyd_etime 42-03:12:45 syspolicyd_etime_s 3640365 log.result ok
	grep_ere "$REC" '^assess_line'
	assert_equal "${#lines[@]}" 0
	# the bound (1 s) and the watchdog's look once a second, not the hour
	# the fake would wait (a wide margin: a loaded machine is slow)
	[ $((t1 - t0)) -le 60 ] || fail "took $((t1 - t0)) s"
	state_is hung -
}

@test "off macOS the record says so in one key, and nothing is run" {
	health_on linux-hybrid
	assert_success
	local rec=
	IFS= read -r -d '' rec <"$REC" || :
	assert_equal "$rec" $'execlag-health\t1\nsystem\tLinux\nchecker\tnone\n'
	state_is unknown -
}

@test "nothing readable (no ps, no spctl, no log) and a refused log: recorded, unknown" {
	health_on missing --bound 20
	assert_success
	has ps failed assess missing assess_exit 127 log.result refused
	state_is unknown -
	health_on log-refused --bound 20
	assert_success
	has log.result refused log.message "log: Must be admin to run 'show' command"
	grep_ere "$REC" '^log.syspolicyd_lines'
	assert_equal "${#lines[@]}" 0
	state_is unknown -
}

# a state of the test's own: m1-online's ps and assessment, and a minute
# of OWN lines naming a program in the work folder and OTHERS that name
# nothing
state_with_lines() {
	local own=$1 others=$2 dir="$D/own-$1-$2"
	mkdir -p "$dir"
	cp "$FAKES/states/m1-online/"* "$dir/"
	rm -f "$dir/log-last.out"
	printf '%s\t%s\n' \
		"$own" "2026-06-05 10:14:31.118 Df syspolicyd[489:1a2b3c] [com.apple.syspolicy.exec:default] GK process assessment: /var/folders/zz/T/execlag.x/work.noindex/exe-0001 <-- (/bin/sh, /usr/bin/make)" \
		"$others" "2026-06-05 10:14:31.119 Df syspolicyd[489:1a2b3c] [com.apple.syspolicy.exec:default] Recording cache miss for <private>" \
		>"$dir/log-last.runs"
	STATE_DIR=$dir
}

@test "the kit's own lines (naming its work folder, /private/var as /var) are counted apart as the baseline" {
	# the kit's 15 a second: others' lines are a storm from 150 a second
	state_with_lines 900 8999
	health_on "$STATE_DIR" --bound 20 --work /private/var/folders/zz/T/execlag.x/work.noindex
	assert_success
	has log.syspolicyd_lines 9899 log.own_lines 900
	state_is well -
	state_with_lines 900 9000
	health_on "$STATE_DIR" --bound 20 --work /private/var/folders/zz/T/execlag.x/work.noindex
	has log.syspolicyd_lines 9900 log.own_lines 900
	state_is storm -
	# without --work the same lines are others' and the kit's own driver
	health_on "$STATE_DIR" --bound 20
	has log.own_lines 0 log.top_program /var/folders/zz/T/execlag.x/work.noindex/exe-0001 log.top_program_lines 900
}

@test "the record is written whole: only it is left in its folder" {
	mkdir -p "$D/out"
	run -0 env PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/health-storm" \
		sh "$ROOT/scripts/probe/health" --out "$D/out/h.tsv" --bound 20
	# (ls -A and head -n 1, in the shell)
	local names=("$D/out"/* "$D/out"/.[!.]* "$D/out"/..?*) n left=
	for n in "${names[@]}"; do [ ! -e "$n" ] || left+=" ${n##*/}"; done
	assert_equal "$left" " h.tsv"
	file_lines "$D/out/h.tsv"
	assert_equal "${flines[0]}" "execlag-health	1"
}

@test "bad usage: one line on stderr, exit 2" {
	local h="$ROOT/scripts/probe/health"
	run_sep sh "$h"
	assert_failure 2
	assert_equal "$stderr" "health: --out FILE is required (try --help)"
	run_sep sh "$h" --out "$D/x" --bound 0
	assert_failure 2
	assert_equal "$stderr" "health: --bound '0' is not a whole number of seconds from 1 to 60"
	run_sep sh "$h" --out "$D/x" --log-bound 181
	assert_failure 2
	assert_equal "$stderr" "health: --log-bound '181' is not a whole number of seconds from 1 to 180"
	run_sep sh "$h" --out "$D/x" --work relative/dir
	assert_failure 2
	assert_equal "$stderr" "health: --work 'relative/dir' is not an absolute path"
	run_sep sh "$h" --out "$D/no/such/x"
	assert_failure 2
	assert_equal "$stderr" "health: no folder for --out '$D/no/such/x'"
	run_sep sh "$h" --out "$D/x" --what
	assert_failure 2
	assert_equal "$stderr" "health: unknown option '--what' (try --help)"
	[ ! -e "$D/x" ]
	run -0 sh "$h" --help
	assert_line --index 0 "usage: health --out FILE [--work DIR]... [--bound S] [--log-bound S]"
}

# ---- the record in make repro's run (issue 43, item 3) -----------------------------------

@test "make repro keeps the record (health.tsv), the state and its figures in conditions and run.json" {
	local d
	run -0 sh "$ROOT/scripts/repro" --profile doctor --results "$D/results" \
		--launcher 'sim:latency=150 workers=1 key=inode seed=7 storm=300'
	one_dir "$D/results"
	d=$dir
	file_lines "$d/health.tsv"
	lines=("${flines[@]:0:4}")
	assert_line --index 0 "execlag-health	1"
	assert_line --index 3 --regexp '^simulated	sim:latency=150 .* storm=300$'
	grep_ere "$d/conditions.txt" '^checker\.'
	assert_equal "$status" 0
	assert_line --index 0 "checker.state=storm"
	assert_line "checker.record=simulated"
	assert_line "checker.rate=300.0"
	assert_line "checker.driver=/Applications/Simulated Driver.app/Contents/MacOS/Simulated Driver"
	run -0 jq -r '.conditions["checker.state"] + " " + .conditions["checker.driver_lines"]' "$d/run.json"
	assert_output "storm 18000"
	# the plain lines make repro ends with: the checker, not Developer Tools
	run -0 "$BIN/advise" --run "$d" --brief
	assert_line --regexp '^cause: the checker is sick, not slow: syspolicyd is flooded with checks'
	assert_line --regexp "^do: first quit the program driving the checker.*: /Applications/Simulated Driver\.app/Contents/MacOS/Simulated Driver \(no administrator's password, no reboot; make doctor lists the rest"
}

@test "off macOS make repro's record says checker none, and the state is unknown" {
	local d
	run -0 env EXECLAG_LOG= sh "$ROOT/scripts/repro" --profile doctor --results "$D/results" \
		--launcher 'sim:latency=0 workers=1 key=inode seed=7'
	one_dir "$D/results"
	d=$dir
	# the simulator's record on this Linux: said simulated, well
	grep_ere "$d/conditions.txt" '^checker\.state=well$'
	assert_equal "$status" 0
	# a real run here reads the record of this system: checker none
	run -0 sh "$ROOT/scripts/probe/health" --out "$D/h.tsv"
	run -0 "$BIN/advise" --health "$D/h.tsv"
	assert_output $'checker.state=unknown\nchecker.record=none'
}

# The calibration gate's record (issue 43, item 4; the real gate's refusal
# is tests/live/doctor.bats): here no gate holds the folder, so the new copy
# runs and the gate's assessment is accepted; the two options go together.
@test "--gate-dir: the gate's record, its assessment a new copy of a program run in that folder" {
	[ "$(uname -s)" != Darwin ] || skip "the gate's record is Linux's (a Mac's is syspolicyd's)"
	mkdir -p "$D/held"
	run -0 sh "$ROOT/scripts/probe/health" --out "$D/g.tsv" --gate-dir "$D/held" --exec "$BIN/tiny" --bound 20
	file_lines "$D/g.tsv"
	lines=("${flines[@]}")
	assert_line --index 2 "checker	gate"
	assert_line "assess	accepted"
	assert_line "assess_exit	0"
	local held=("$D/held"/* "$D/held"/.[!.]* "$D/held"/..?*) n left=
	for n in "${held[@]}"; do [ ! -e "$n" ] || left+=" ${n##*/}"; done
	assert_equal "$left" ""
	run -0 "$BIN/advise" --health "$D/g.tsv"
	assert_line --index 0 "checker.state=well"
	assert_line "checker.record=gate"
	run_sep sh "$ROOT/scripts/probe/health" --out "$D/g.tsv" --gate-dir "$D/held"
	assert_failure 2
	assert_equal "$stderr" "health: --gate-dir and --exec go together (try --help)"
}

# a log show that never ends (here a fake log that sleeps): killed at its
# bound, the record says so, nothing of it left running; the assessment has
# a wide bound, or none to race (no spctl), so load cannot change the record
@test "a log show that does not end is killed at --log-bound, else 3 x --bound; the record is written" {
	local state="$D/log-hangs"
	mkdir -p "$state" "$D/bin"
	cp "$FAKES/states/m1-online/"* "$state/"
	# (a duration of this test's own, $$: another make test beside this one
	# runs the same test, and pgrep sees the whole machine)
	printf '#!/bin/sh\nexec sleep 296.%s\n' "$$" >"$D/bin/log"
	chmod +x "$D/bin/log"
	EXECLAG_LOG="$D/bin/log" health_on "$state" --bound 20 --log-bound 1
	assert_success
	has assess accepted log.result failed log.message "log show did not end within 1 s (killed)"
	run -1 pgrep -f "^sleep 296\.$$\$"
	state_is well -
	# without --log-bound: three times the assessment's (no spctl here)
	EXECLAG_LOG="$D/bin/log" health_on missing --bound 1
	assert_success
	has assess missing log.result failed log.message "log show did not end within 3 s (killed)"
	run -1 pgrep -f "^sleep 296\.$$\$"
}
