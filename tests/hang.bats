#!/usr/bin/env bats
# When the checker hangs (docs/method.md, "When the checker hangs"): every
# launch bounded, a hung one killed and kept with its evidence, the verdict
# hang, the case stopped, the run ended after two hung cases, the doctor's
# lines and exit status 4.  On the simulator with wedge=K, on programs that
# sleep (a bound of 1 s against a sleep of minutes: no timing is asserted)
# and on fixtures; the real gate's wedge is tests/live/hang.bats.

load test_helper/common-setup
load test_helper/quickrun
load test_helper/shellread

WEDGE='sim:latency=150 workers=1 key=inode seed=7 wedge=2'

setup_file() {
	local root="$BATS_TEST_DIRNAME/.."
	make -C "$root" -s micro/bin/mkfresh micro/bin/launch micro/bin/analyze micro/bin/advise \
		micro/bin/devtools >/dev/null
	# the simulated doctor's probe on the wedged simulator, once for the
	# file: mac_hang_run reads its samples (never changes them)
	export SIM_PROBE="$BATS_FILE_TMPDIR/sim"
	mkdir -p "$SIM_PROBE" "$BATS_FILE_TMPDIR/sim-tmp"
	TMPDIR="$BATS_FILE_TMPDIR/sim-tmp" sh "$root/scripts/repro" --profile doctor --results "$SIM_PROBE" \
		--launcher "$WEDGE" >"$BATS_FILE_TMPDIR/sim.out" 2>&1 || rm -rf "$SIM_PROBE"
}

setup() {
	_common_setup
	_run_folders_setup
	FAKES="$ROOT/tests/fakes"
}

# manifest FILE N PROGRAM...: a manifest of N artifacts of kind exe, artifact
# i launching the i-th PROGRAM (the last one for the rest).
manifest() {
	local file=$1 n=$2 i p
	shift 2
	{
		printf 'execlag-manifest\t1\ncase\texe\nkind\texe\nn\t%s\nworkdir\t%s\n' "$n" "$D"
		i=0
		while [ "$i" -lt "$n" ]; do
			p=$1
			[ $# -le 1 ] || shift
			printf 'artifact\t%s\t%s\t%s\n' "$i" "$p" "$p"
			i=$((i + 1))
		done
	} >"$file"
}

# ---- launch ---------------------------------------------------------------------------

@test "launch on the wedged simulator: the launch after the wedge hangs, killed at the bound, case stops" {
	manifest "$D/m" 8 "$D/x"
	: >"$D/x"
	run --separate-stderr "$BIN/launch" --manifest "$D/m" --out "$D/s" --launcher "$WEDGE" --sequential
	assert_success
	assert_equal "$stderr" "launch: exe/all T=1 first: 2 launches in 301.6 ms (7/s)
launch: exe/all T=1 repeat: 2 launches in 30000.0 ms (0/s)
launch: exe/all T=1: 1 launch did not end within 30 s: killed, the case stops"
	# (the samples file read by the shell: grep_ere, not grep)
	grep_ere -v "$D/s" '^sample'
	assert_equal "$status" 0
	assert_line "meta	stopped	hang"
	assert_line "meta	hang_s	30"
	assert_line "meta	n	2"
	assert_line "pass	repeat	30000000000	1"
	assert_line "hang	repeat	0	0	sim	unknown	-	killed"
	grep_ere "$D/s" '^sample	repeat'
	assert_equal "$status" 0
	assert_output "sample	repeat	0	0	30000000000	-1	9	0	302662054"
}

@test "launch at T=4 on the wedged simulator: two of four first launches hang, no repeat pass goes into it" {
	manifest "$D/m" 8 "$D/x"
	: >"$D/x"
	run -0 "$BIN/launch" --manifest "$D/m" --out "$D/s" --threads 4 --launcher "$WEDGE" --hang-s 5 --quiet
	grep_ere "$D/s" '^hang	first	'
	assert_equal "${#lines[@]}" 2
	grep_ere "$D/s" '^pass	repeat'
	assert_equal "$status" 1
	grep_ere "$D/s" '^sample	first	'
	assert_equal "${#lines[@]}" 4
}

@test "a real launch past its bound: state and wait channel read, killed, services sampled, nothing left" {
	printf '#!/bin/sh\nexec sleep %s\n' "297.5$$" >"$D/slow"
	printf '#!/bin/sh\nexit 0\n' >"$D/ok"
	chmod +x "$D/slow" "$D/ok"
	manifest "$D/m" 4 "$D/ok" "$D/slow" "$D/ok"
	run --separate-stderr env EXECLAG_WATCH_SERVICES=1 "$BIN/launch" --manifest "$D/m" --out "$D/s" \
		--hang-s 1 --services-probe "$ROOT/scripts/probe/services" --services-out "$D/svc"
	assert_success
	assert_equal "${stderr##*$'\n'}" "launch: exe/all T=1: 1 launch did not end within 1 s: killed, the case stops"
	# the hung launch: its own pid, a sleeping process with no CPU to speak of, killed
	run_both -0 awk -F '\t' '$1 == "hang" { print $2, $3, ($4 > 0), $5, ($6 < 0.5), ($7 != ""), $8 }' "$D/s"
	assert_output "first 1 1 S 1 1 killed"
	grep_ere "$D/s" '^sample	first	0	1	1000000000	-1	9	0	'
	assert_equal "$status" 0
	# the services: sampled before (at half the bound) and after (at the kill)
	grep_ere "$D/svc" '^sample	'
	assert_equal "${#lines[@]}" 2
	# the case stopped: the first launches of artifacts 0 and 1, no repeat
	# pass into what hung, no artifact 2 or 3
	grep_ere "$D/s" '^sample	'
	assert_equal "${#lines[@]}" 2
	run -1 pgrep -f "sleep 297.5$$\$"
}

@test "launch --hang-s takes seconds from 0.1 to 3600, one line on a bad one" {
	manifest "$D/m" 8 "$D/x"
	run --separate-stderr "$BIN/launch" --manifest "$D/m" --out "$D/s" --hang-s 0
	assert_equal "$status" 2
	assert_equal "$stderr" "launch: --hang-s: '0' is not a number of seconds from 0.1 to 3600"
	run --separate-stderr "$BIN/launch" --manifest "$D/m" --out "$D/s" --services-out "$D/x"
	assert_equal "$status" 2
	assert_equal "$stderr" "launch: --services-probe and --services-out go together (see --help)"
	[ ! -e "$D/s" ]
}

@test "the simulator's wedge is a setting: described where set, one line on a bad value" {
	run -0 "$BIN/launch" --launcher "$WEDGE" --describe
	assert_output --regexp ' wedge=2$'
	run -0 "$BIN/launch" --launcher 'sim:latency=1' --describe
	refute_output --partial wedge
	run --separate-stderr "$BIN/launch" --launcher 'sim:wedge=x' --describe
	assert_equal "$status" 2
	assert_equal "$stderr" "launch: sim wedge 'x' is not a whole number from 0 to 1000000"
}

# ---- a run --------------------------------------------------------------------------------

@test "make repro on the wedged simulator: verdict hang, the case stops, the run ends after two hung cases" {
	run --separate-stderr sh "$ROOT/scripts/repro" --launcher "$WEDGE" --cases exe,script,exe-copy --threads 1,2
	assert_success
	local table=$output dirs=("$RESULTS"/*/) dir l n=0 re='^exe +1 +all +[0-9.]+ +- +- +- +hang$'
	dir=${dirs[0]}
	# the terminal's table: the verdict hang, no penalty (grep -E, -F and
	# -c as the shell's matches: no process each)
	for l in "${lines[@]}"; do [[ "$l" =~ $re ]] && n=$((n + 1)); done
	[ "$n" -gt 0 ] || fail "no line matching $re in: $table"
	[[ "$table" == *"exe: hang — 1 of 1 repeat launch did not end within 30 s"* ]] || fail "table: $table"
	n=0
	for l in "${stderr_lines[@]}"; do [[ "$l" == *'not run'* ]] && n=$((n + 1)); done
	assert_equal "$n" 4
	[[ "$stderr" == *"[2/6] exe T=2: not run, its case hung"* ]] || fail "stderr: $stderr"
	[[ "$stderr" == *"[6/6] exe-copy T=2: not run, the run ended after 2 hung cases"* ]] || fail "stderr: $stderr"
	run_both -0 jq -r '.cases[] | [.name, .verdict, .reason] | join(" | ")' "$dir/run.json"
	assert_output "script | hang | 1 of 1 repeat launch did not end within 30 s
exe | hang | 1 of 1 repeat launch did not end within 30 s"
	run_both -0 jq -c '.cases[0].configs[0].hang | [.bound_s, .hung, .made, .launches[0].state, .launches[0].outcome, .services_reason]' "$dir/run.json"
	assert_output '[30,{"first":0,"repeat":1},{"first":2,"repeat":1},"sim","killed","not sampled: a simulated run"]'
	grep_ere "$dir/conditions.txt" '^(run.stopped|hyperfine.status|run.hang_s)='
	assert_equal "$status" 0
	assert_output "run.hang_s=30
run.stopped=2 cases hung (the most a run feeds a wedged checker): the run ended there
hyperfine.status=skipped"
	md_section "$dir/report.md" "## Hangs" "## How the kit"
	assert_line "- **exe** T=1 class all: 1 of 1 repeat launch did not end within 30 s; the case stopped."
	assert_line "  - repeat #0: simulated: the model's checker answered nothing"
	assert_line "The run ended early: 2 cases hung (the most a run feeds a wedged checker): the run ended there."
	# the brief lines carry it
	run_both -0 "$BIN/advise" --run "$dir" --brief
	assert_line --index 0 --partial "cost (simulated, nothing was launched: the model's numbers): a new program did not start: 1 of 1 repeat launch did not end within 30 s (exe); killed"
	validate_or_skip "$dir/run.json"
}

validate_or_skip() {
	local why
	why=$(schema_skip_reason)
	[ -z "$why" ] || return 0
	run validate_run_json "$1"
	assert_success
}

@test "HANG_S and GATE wedge are checked before anything is made, one line each" {
	run --separate-stderr sh "$ROOT/scripts/repro" --launcher "$WEDGE" --hang-s 0
	assert_equal "$status" 2
	assert_equal "$stderr" "execlag: HANG_S '0' is not a whole number of seconds from 1 to 3600"
	run --separate-stderr env HANG_S=1.5 sh "$ROOT/scripts/repro" --launcher "$WEDGE"
	assert_equal "$status" 2
	run --separate-stderr sh "$ROOT/scripts/repro" --gate 'wedge=-1'
	assert_equal "$status" 2
	assert_equal "$stderr" "execlag: GATE wedge '-1' is not a whole number from 0 to 1000000"
	assert_empty "$RESULTS" "$TMPDIR"
}

# ---- the doctor -------------------------------------------------------------------------

@test "make doctor on the wedged simulator: exit 4, the hang's lines, the verdict hang last" {
	run --separate-stderr sh "$ROOT/scripts/doctor" --launcher "$WEDGE"
	assert_equal "$status" 4
	assert_equal "$stderr" ""
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: hang — 1 of 1 repeat launch did not end within 3 s"
	assert_line "probe: new programs (exe), each to be launched twice, one at a time, each launch bounded: one did not start"
	assert_line "hang: 1 of 1 repeat launch did not end within 3 s; killed, and the case stopped there (no more launches into a checker that does not answer)."
	assert_line "evidence: repeat launch 0: simulated (the model's checker answered nothing); no process to read."
	assert_line "copy: not tried (a simulated run launches nothing)."
	assert_line --regexp '^cause: a simulated run .*: the model.s checker stopped answering \(wedge\)'
	assert_line --partial "fix: none needed: the simulator's checker wedged on purpose"
	assert_empty "$TMPDIR"
}

# fake_cc BODY: a "compiler" at $D/bin/cc that writes a shell script whose
# second line is BODY to the file after -o, whatever it is asked to compile.
fake_cc() {
	mkdir -p "$D/bin"
	{
		echo '#!/bin/sh'
		echo 'out='
		echo 'while [ $# -gt 0 ]; do [ "$1" != -o ] || out=$2; shift; done'
		echo '[ -n "$out" ] || exit 0'
		printf "printf '#!/bin/sh\\\\n%%s\\\\n' '%s' >\"\$out\" && chmod 755 \"\$out\"\n" "$1"
	} >"$D/bin/cc"
	chmod +x "$D/bin/cc"
}

@test "make doctor whose programs are never made: stopped within its bound, unclear, exit 3, nothing left" {
	# a compiler that never ends: the probe cannot finish, however fast the machine
	mkdir -p "$D/bin"
	printf '#!/bin/sh\nexec sleep %s\n' "291.5$$" >"$D/bin/cc"
	chmod +x "$D/bin/cc"
	run --separate-stderr env CC="$D/bin/cc" EXECLAG_DOCTOR_PROBE_S=2 sh "$ROOT/scripts/doctor"
	assert_equal "$status" 3
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: unclear — the probe did not finish within 2 s"
	# where the bound found the probe depends on the machine's speed: making
	# the programs (the compiler never ends), or, on a machine so loaded that
	# the checker's health took the 2 s (seen under macsim, three make tests
	# side by side), still before them; the doctor says which, and either is
	# right
	if [ "${lines[0]}" = "execlag doctor: does a new program pay on its first launch here, and what to do" ]; then
		assert_equal "${lines[1]}" "probe: its 8 new programs were not made within 2 s: stopped, nothing kept, nothing launched."
	else
		assert_equal "${lines[0]}" "checker: unknown — its health (ps, Calculator's assessment bounded at 3 s, the log's last minute) was not read within 2 s"
		assert_equal "${lines[1]}" "execlag doctor: does a new program pay on its first launch here, and what to do"
		assert_equal "${lines[2]}" "probe: stopped before its programs were made, nothing kept, nothing launched."
	fi
	# the probe's cleanup, which the doctor does not wait for: mkfresh gives
	# an interrupted compiler 1 s, then SIGTERM, 1 s, SIGKILL (within 10 s)
	# (wait_gone: pgrep once, then /proc, no process a look)
	wait_gone "sleep 291.5$$\$" 100
	run -1 pgrep -f "sleep 291.5$$\$"
	assert_empty "$TMPDIR"
}

@test "make doctor whose new program never starts: killed at 3 s, its evidence, the copy hangs too, exit 4" {
	fake_cc "exec sleep 293.5$$"
	# the probe's own 12 s bound is not what this tests: a busy machine's
	# compiles must not reach it
	run --separate-stderr env CC="$D/bin/cc" EXECLAG_DOCTOR_PROBE_S=600 sh "$ROOT/scripts/doctor"
	assert_equal "$status" 4
	assert_line --regexp '^evidence: first launch 0, process [0-9]+, before the kill: state S[^,]*, CPU time 0\.[0-9][0-9] s, waiting in .*; killed\.$'
	assert_line "copy: the same bytes copied to a new path hung too (its own bound, 1 s): the checker answers nothing at all, not only for that file."
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: hang — 1 of 1 first launch did not end within 3 s"
	run -1 pgrep -f "sleep 293.5$$\$"
	assert_empty "$TMPDIR"
}

# A Mac's hang as the doctor reads it: the conditions of the fake Mac STATE,
# the simulated probe's samples with a hung launch's evidence as ps shows one
# (S, 0:00.00, as rjwalters/loom#4046 saw), the services file of its wait and
# the window's log (the documented GK process assessment line naming it).
mac_hang_run() {
	local state=$1 sim
	shift
	RUN="$D/run-$state"
	mkdir -p "$RUN/raw"
	[ -d "$SIM_PROBE" ] || fail "the simulated probe failed: $(tail -n 3 "$BATS_FILE_TMPDIR/sim.out")"
	local sims=("$SIM_PROBE"/*/raw/exe-t1-all.samples.tsv) l text=
	sim=${sims[0]}
	[ -f "$sim" ] || fail "the simulated probe left no samples"
	# (grep -v '^meta	launcher	' | sed 's/^hang	repeat	0	0	sim	unknown	-	killed$/…/', in the shell)
	file_lines "$sim"
	for l in "${flines[@]}"; do
		[[ "$l" == "meta	launcher	"* ]] && continue
		[ "$l" != "hang	repeat	0	0	sim	unknown	-	killed" ] || l="hang	repeat	0	4242	S	0.00	-	killed"
		text+=$l$'\n'
	done
	printf '%s' "$text" >"$RUN/raw/exe-t1-all.samples.tsv"
	printf 'execlag-services\t1\nsample\tbefore\t2026-05-01T10:00:00Z\nservice\tbefore\tsyspolicyd\t100.00\t1\t728=100.00\nservice\tbefore\tXprotectService\t5.00\t1\t900=5.00\nsample\tafter\t2026-05-01T10:00:02Z\nservice\tafter\tsyspolicyd\t101.50\t1\t728=101.50\nservice\tafter\tXprotectService\t5.00\t1\t900=5.00\n' \
		>"$RUN/raw/exe-t1-all.hang.services.tsv"
	# (sed -n '/"GK process assessment: /{s/exe-t1-all-0000/exe-t1-all-0000/p;q;}':
	# the first line naming the assessment, if it names exe-t1-all-0000)
	file_lines "$FAKES/states/m1-watch/log.out"
	text=
	for l in "${flines[@]}"; do
		[[ "$l" == *'"GK process assessment: '* ]] || continue
		[[ "$l" != *exe-t1-all-0000* ]] || text=$l$'\n'
		break
	done
	printf '%s' "$text" >"$RUN/raw/exe-t1-all.log.ndjson"
	{
		env -i PATH="$FAKES/bin:$PATH" HOME=/Users/alice FAKE_STATE="$FAKES/states/$state" \
			EXECLAG_DEVTOOLS="$FAKES/bin/devtools" sh "$ROOT/scripts/probe/sysinfo" </dev/null
		echo "run.id=doctor-$state"
		echo "run.profile=doctor"
		echo "launcher=spawn"
		echo "gate.active=0"
		printf '%s\n' "$@"
	} >"$RUN/conditions.txt"
	"$BIN/analyze" --run "$RUN" --quiet || fail "analyze failed on $RUN"
	run_sep "$BIN/advise" --run "$RUN" --doctor
}

@test "a Mac whose new program hangs: evidence, services, copy, the log line naming it, the public fixes" {
	mac_hang_run m1-online hang.copy=started hang.copy_ms=3.1 hang.copy_s=1
	assert_equal "$status" 4
	assert_line "evidence: repeat launch 0, process 4242, before the kill: state S, CPU time 0.00 s, waiting in (no wait channel shown); killed."
	assert_line "services: CPU from half the bound to the kill: syspolicyd 1.50 s, XprotectService 0.00 s, amfid 0.00 s, trustd 0.00 s, mdworker_shared 0.00 s (a busy syspolicyd beside processes at 0 CPU is what rjwalters/loom#4046 saw)."
	assert_line "copy: the same bytes copied to a new path started at once (3.1 ms): the checker holds a verdict on that file, not on its bytes, as in openai/codex#23802, where cp made a hung program run."
	assert_line --regexp '^log: /usr/libexec/syspolicyd: GK process assessment: .*/exe-t1-all-0000 <-- '
	assert_line "log: no kernel line beginning \"ASP: Security policy would not\" (the beginning entireio/cli#1065 quotes; no whole line of a hang is published)"
	assert_line --regexp '^cause: a new program did not start: 1 of 1 repeat launch did not end within 3 s, as when syspolicyd is busy or wedged \(openai/codex#17447, entireio/cli#1065\)'
	assert_line --regexp '^fix: copy the program to a new path .*no admin, no reboot.*openai/codex#23802.*tldraw-offline#79'
	assert_line --regexp '^fix: stop the load .*rjwalters/loom#4046.*no admin, no reboot'
	assert_line --regexp "^fix: sudo killall syspolicyd \(needs an administrator's password.*golang/go#37885"
	assert_line --regexp '^fix: restart the Mac \(a reboot\).*openai/codex#28071'
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: hang — 1 of 1 repeat launch did not end within 3 s"
	validate_or_skip "$RUN/run.json"
}

@test "a Mac's copy hangs too, a hung process did not die: said so; a hang naming no killed sample refused" {
	# (was: "a Mac whose copy hangs too, and a hung process that did not die: said so")
	mac_hang_run m1-online hang.copy=hung hang.copy_s=1
	assert_line "copy: the same bytes copied to a new path hung too (its own bound, 1 s): the checker answers nothing at all, not only for that file."
	sed -i.bak 's/	killed$/	unkillable/' "$RUN/raw/exe-t1-all.samples.tsv"
	"$BIN/analyze" --run "$RUN" --quiet
	run_both "$BIN/advise" --run "$RUN" --doctor
	assert_equal "$status" 4
	assert_line --partial "it did not die from SIGKILL within 2 s (stuck in the kernel): left behind, the kit went on without it."
	run_both -0 jq -r '.cases[0].configs[0].hang.launches[0] | [.pid, .outcome] | join(" ")' "$RUN/run.json"
	assert_output "4242 unkillable"
	# (was: "a samples file whose hang names no killed sample is refused, one line")
	# the same run, its samples as mac_hang_run made them (sed's .bak),
	# the hang's line naming the first pass, where no launch was killed
	mv "$RUN/raw/exe-t1-all.samples.tsv.bak" "$RUN/raw/exe-t1-all.samples.tsv"
	sed -i.bak 's/^hang	repeat	0	/hang	first	0	/' "$RUN/raw/exe-t1-all.samples.tsv"
	run_sep "$BIN/analyze" --run "$RUN" --quiet
	assert_equal "$status" 2
	assert_equal "$stderr" "analyze: $RUN/raw/exe-t1-all.samples.tsv: hang first 0 names no killed sample of its own"
}

@test "make check, compare and aggregate carry the hang" {
	# the two runs at once (each its own work folder; the simulator is seeded)
	mkdir -p "$TMPDIR/hung" "$TMPDIR/fine"
	TMPDIR="$TMPDIR/hung" sh "$ROOT/scripts/repro" --launcher "$WEDGE" --cases exe,script --threads 1 \
		--tag hung >/dev/null 2>&1 3>&- &
	local p1=$!
	TMPDIR="$TMPDIR/fine" sh "$ROOT/scripts/repro" --launcher "sim:latency=150 workers=1 key=inode seed=7" \
		--cases exe,script --threads 1 --tag fine >/dev/null 2>&1 3>&-
	wait "$p1" || true
	local hung fine
	local hungs=("$RESULTS"/*-hung/) fines=("$RESULTS"/*-fine/)
	hung=${hungs[0]} fine=${fines[0]}
	run sh "$ROOT/scripts/check" --run "$hung"
	assert_line --index 1 "hang: script exe — a launch did not end within its bound (killed; the case stopped): no penalty to read there; the report's Hangs section has the evidence, make doctor what to do"
	assert_line "    exe: hang — 1 of 1 repeat launch did not end within 30 s (killed, its case stopped: no penalty to read; make doctor says what to do)"
	run_both -0 "$BIN/compare" "$hung" "$fine"
	assert_line "  exe T=1 all: hang → slowdown (- → 150.18 ms)"
	run_both -0 "$BIN/aggregate" --dir "$RESULTS" --out "$D/agg" --quiet
	grep_ere "$D/agg.csv" ',hang,n/a,'
	assert_equal "${#lines[@]}" 1
	local agg=
	IFS= read -r -d '' agg <"$D/agg.md" || :
	[[ "$agg" == *'- ✖ | - ✖'* ]] || fail "agg.md: $agg"
}
