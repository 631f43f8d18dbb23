#!/usr/bin/env bats
# A simulated run (launcher sim:...) can never pass for evidence: report.md,
# the terminal table, the plots, make check, make compare, make aggregate
# and make runs say "simulated" where they name it, and make feedback
# refuses it with one line and exit 2, making nothing.  The fixture
# (tests/fixtures/simulated/mac-sim, README.md) is a simulated run with a
# Mac's conditions: the run most likely to be taken for a real one.

load test_helper/common-setup
load test_helper/quickrun
load test_helper/shellread

ID=20260302T090000Z-5a1a00
MESSAGE_TAIL="it launched nothing and is not evidence; it is never sent to Apple"

setup_file() {
	local root="$BATS_TEST_DIRNAME/.."
	make -C "$root" -s build >/dev/null
	export SIM="$BATS_FILE_TMPDIR/results/$ID"
	mkdir -p "$BATS_FILE_TMPDIR/results"
	cp -R "$root/tests/fixtures/simulated/mac-sim" "$SIM"
	"$root/micro/bin/analyze" --run "$SIM" >"$BATS_FILE_TMPDIR/table.out"
	# (the launcher line read by the shell: no sed)
	local l
	L=""
	while IFS= read -r l; do [[ "$l" != launcher=* ]] || L+=${L:+$'\n'}${l#launcher=}; done \
		<"$root/tests/fixtures/simulated/mac-sim/conditions.txt"
	export L
}

setup() {
	_common_setup
	D="$BATS_TEST_TMPDIR"
	export TMPDIR="$D/tmp"
	mkdir -p "$TMPDIR"
}

# without_line FILE PREFIX: FILE without its lines starting with PREFIX
# (grep -v "^PREFIX" into FILE, by the shell)
without_line() { kit_untraced _without_line "$@"; }
_without_line() {
	local l text=''
	file_lines "$1"
	for l in "${flines[@]}"; do
		[[ "$l" == "$2"* ]] || text+=$l$'\n'
	done
	printf '%s' "$text" >"$1"
}

@test "report.md, the terminal table, run.json's launcher and both plots say simulated" {
	# report.md (title, plain lines, why before the verdicts), the terminal table (after the table, its last line), run.json's launcher and both plots say simulated
	# -- report.md names the run simulated in its title, in its plain lines, and says why before the verdicts
	# (report.md's first 11 lines as run sed -n 1,11p has them: the shell's)
	head_run "$SIM/report.md" 11
	assert_line --index 0 "# execlag report — $ID (simulated)"
	assert_line --index 1 --regexp '^- cost \(simulated, nothing was launched: the model.s numbers\): '
	assert_line --index 3 "- cause: a simulated run (launcher $L): the model's settings made these numbers, not this machine."
	assert_line --index 4 "- do: nothing about this machine; make repro without LAUNCHER measures it."
	assert_line --index 5 "**Simulated run — not evidence.** Nothing was launched: every time in this report was drawn from the kit's seeded model of a first-launch checker (launcher $L), not measured on this machine or any OS. It is a test of the kit, not of an OS, and never for filing: make feedback refuses it."
	assert_line --index 6 --partial "simulated on the machine described under Conditions"
	# (the line numbers grep -n | cut gives, and grep -F's match: the shell's)
	line_numbers "$SIM/report.md" '^\*\*Simulated run'
	banner=$found
	line_numbers "$SIM/report.md" '^## Verdicts'
	verdicts=$found
	[ "$banner" -lt "$verdicts" ]
	has_text "$SIM/report.md" "| launcher | $L |" || fail "no line '| launcher | $L |' in report.md"
	# -- the terminal table says simulated right after the table and on its last line
	# (the line after the first blank one, and the last: the shell's, no grep, sed or tail)
	local out="$BATS_FILE_TMPDIR/table.out" blank
	line_numbers "$out" '^$'
	blank=${found%%$'\n'*}
	file_lines "$out"
	assert_equal "${flines[blank]-}" \
		"(simulated: launcher $L; nothing was launched: a test of the kit, not evidence)"
	assert_equal "${flines[${#flines[@]} - 1]}" \
		"simulated run: nothing was launched; the numbers above are the model's, not evidence of this machine or any OS"
	# -- run.json's conditions carry the launcher, and both plots say the run is simulated
	assert_equal "$(jq -r '.conditions.launcher' "$SIM/run.json")" "$L"
	local p
	for p in plot-launch.svg plot-scaling.svg; do
		has_text "$SIM/$p" "Simulated run: nothing was launched, the times are a seeded model&apos;s: a test of the kit, not evidence." ||
			fail "$p does not say simulated"
	done
}
@test "samples naming the simulator make a run simulated, whatever conditions.txt says; a real run never is" {
	# samples that name the simulator make a run simulated where conditions.txt does not; a real run (no launcher key, or spawn) never is
	# -- samples that name the simulator make the run simulated where conditions.txt does not
	local r
	for r in none spawn; do
		cp -R "$FIXTURES/simulated/mac-sim" "$D/$r"
		without_line "$D/$r/conditions.txt" launcher=
		[ "$r" = none ] || echo "launcher=spawn" >>"$D/$r/conditions.txt"
		run_both -0 "$BIN/analyze" --run "$D/$r"
		assert_line "(simulated: launcher $L; nothing was launched: a test of the kit, not evidence)"
		assert_equal "$(jq -r '.conditions.launcher' "$D/$r/run.json")" "$L"
		# (its first line, as head -n 1: read by the shell)
		first=""
		IFS= read -r first <"$D/$r/report.md" || :
		assert_equal "$first" "# execlag report — $ID (simulated)"
	done
	# -- a real run is never called simulated: no launcher key, or launcher=spawn
	local r
	for r in old spawn; do
		cp -R "$FIXTURES/analyze/key-inode" "$D/real-$r"
		[ "$r" = old ] || echo "launcher=spawn" >>"$D/real-$r/conditions.txt"
		run_both -0 "$BIN/analyze" --run "$D/real-$r"
		refute_output --partial simulat
		# (grep -c -i simulat FILE...'s output, by the shell)
		count_ci_run simulat "$D/real-$r/report.md" "$D/real-$r/plot-launch.svg" "$D/real-$r/plot-scaling.svg"
		assert_output "$D/real-$r/report.md:0
$D/real-$r/plot-launch.svg:0
$D/real-$r/plot-scaling.svg:0"
	done
}
@test "make feedback and fbtext refuse a simulated run (or its conditions.txt says so): one line, exit 2" {
	# (was: "make feedback refuses a simulated run: one line on stderr, exit 2, nothing made")
	local before="$D/before" after="$D/after"
	(cd "$SIM" && find . | sort) >"$before"
	run_sep sh "$ROOT/scripts/feedback" --run "$SIM"
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	assert_equal "$stderr" "feedback: $SIM is a simulated run (launcher $L): $MESSAGE_TAIL"
	# the newest run of a results folder, as make feedback without RUN finds it
	run_sep sh "$ROOT/scripts/feedback" --results "${SIM%/*}"
	assert_equal "$status" 2
	assert_equal "$stderr" "feedback: $SIM is a simulated run (launcher $L): $MESSAGE_TAIL"
	run_sep make -s --no-print-directory -C "$ROOT" feedback RUN="$SIM"
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "${stderr_lines[0]}" "feedback: $SIM is a simulated run (launcher $L): $MESSAGE_TAIL"
	(cd "$SIM" && find . | sort) >"$after"
	diff -u "$before" "$after"
	[ ! -e "$SIM/feedback" ]
	assert_empty "$TMPDIR"
	# (was: "fbtext refuses a simulated run and its services; feedback one its conditions.txt calls simulated")
	# fbtext refuses a simulated run, its services table too; feedback refuses a run whose conditions.txt says simulated where its run.json does not
	# -- fbtext refuses a simulated run, its services table too, printing nothing
	local args
	for args in "" --services-table "--bundle x.tar.gz --contents run.json"; do
		# shellcheck disable=SC2086
		run_sep "$BIN/fbtext" --run "$SIM" $args
		assert_equal "$status" 2
		assert_equal "$output" ""
		assert_equal "$stderr" "fbtext: $SIM is a simulated run (launcher $L): $MESSAGE_TAIL"
	done
	# -- feedback refuses a run whose conditions.txt says simulated even where its run.json does not
	cp -R "$SIM" "$D/run"
	jq '.conditions.launcher = "spawn"' "$SIM/run.json" >"$D/run/run.json"
	run_sep sh "$ROOT/scripts/feedback" --run "$D/run"
	assert_equal "$status" 2
	assert_equal "$stderr" "feedback: $D/run is a simulated run (launcher $L): $MESSAGE_TAIL"
	[ ! -e "$D/run/feedback" ]
	assert_empty "$TMPDIR"
}
@test "make compare names a simulated A or B in its header and its line, and re-runs it with its LAUNCHER" {
	local real="$FIXTURES/compare/online"
	run_sep make -s --no-print-directory -C "$ROOT" compare A="$SIM" B="$real"
	assert_success
	assert_line --index 0 "execlag compare — SIMULATED: A (nothing was launched; the times are the kit's model's: a test of the kit, not evidence)"
	assert_line --index 1 "A  $ID  macOS 14.4.1 (23E224), model MacBookPro18,1, network online, simulated: launcher $L"
	assert_line --index 2 "B  20260301T101500Z-a1b2c3  macOS 14.4.1 (23E224), model MacBookPro18,1, network online"
	assert_output --partial "; launcher $L → spawn"
	assert_line "- Simulator (A: simulated, B: real launches): make repro LAUNCHER='sim:…' runs the"
	assert_output --partial " THREADS=1 COUNT=6 LAUNCHER='$L'
and compare: make compare A=$ID B=<the new run>"
	run_both -0 "$BIN/compare" -- "$real" "$SIM"
	assert_line --index 0 "execlag compare — SIMULATED: B (nothing was launched; the times are the kit's model's: a test of the kit, not evidence)"
	assert_line --index 2 "B  $ID  macOS 14.4.1 (23E224), model MacBookPro18,1, network online, simulated: launcher $L"
	assert_output --partial "; launcher spawn → $L"
	run_both -0 "$BIN/compare" -- "$SIM" "$SIM"
	assert_line --index 0 "execlag compare — SIMULATED: A and B (nothing was launched; the times are the kit's model's: a test of the kit, not evidence)"
	assert_output --partial "Conditions that differ: none ("
	assert_output --partial " agents, emulation, launcher and gate.* are the same)"
}

@test "make aggregate labels a simulated row: title, condition, gate column, CSV, a note, the plot's legend" {
	local runs="$D/runs" out="$D/agg"
	mkdir -p "$runs/a-gate" "$runs/b-sim"
	cp "$FIXTURES/aggregate/linux-gate/run.json" "$runs/a-gate/"
	cp "$SIM/run.json" "$runs/b-sim/"
	run_sep make -s --no-print-directory -C "$ROOT" aggregate DIR="$runs" OUT="$out"
	assert_success
	assert_line --index 0 "# execlag aggregate — 2 runs (1 simulated)"
	assert_line --regexp '^\| 1 \| AMD EPYC, Debian GNU/Linux 12 \(bookworm\) \| Linux, gate \| '
	assert_line --regexp '^\| 2 \| Apple M1 Pro, macOS 14\.4\.1 \| simulated \| 50\.35 ▲ \| '
	assert_line "Simulated: #2 — this run was made by the kit's simulator: nothing was launched, the times are a seeded model's; a test of the kit, not evidence of any machine."
	assert_line --regexp "^\| 2 \| $ID \| Apple M1 Pro \| MacBookPro18,1 \| macOS 14\.4\.1 \| 10 \(8P\+2E\) \| SIP enabled, assessments enabled, Developer Tools denied, online \| simulated: 50 ms, 1 worker, key inode \| "
	# (grep -c -F's count, and grep -q's matches: the shell's)
	count_fixed ",online,\"simulated: 50 ms, 1 worker, key inode\"," "$out.csv"
	assert_equal "$found" 1
	has_text "$out.svg" '>simulated</text>' || fail "the plot's legend has no 'simulated'"
	has_text "$out.svg" 'fill="#56B4E9"' || fail "the plot has no simulated point"
}

@test "make runs marks a simulated run after its OS and gives its model where the gate's would be" {
	run_sep make -s --no-print-directory -C "$ROOT" runs RESULTS="${SIM%/*}"
	assert_success
	assert_line --index 0 --regexp '^tag +started +os +gate +cases +threads +folder$'
	assert_line --index 1 --regexp "^- +2026-03-02 09:00Z Darwin \(simulated\) sim 50 ms, 1 worker, inode +exe,[^ ]+ +1 +$SIM\$"
}

@test "make check says simulated on its first and last lines and judges the run by the model's settings" {
	run_both -0 sh "$ROOT/scripts/check" --run "$SIM"
	assert_line --index 0 "execlag check: $SIM — simulated run (launcher $L): nothing was launched; a test of the kit, not evidence"
	assert_equal "${lines[${#lines[@]} - 1]}" "3 hold, 0 do not hold, 4 not applicable (simulated run: not evidence)"
	assert_line "    P1 fresh penalty — simulated run (nothing launched, not evidence): model latency 50 ms, workers 1, key inode; expected: slowdown"
	assert_line --regexp "^    P3 cache key — simulated run \(nothing launched, not evidence\): model latency 50 ms, workers 1, key inode; expected: inode, inferred: inode "
	run_both -0 sh "$ROOT/scripts/check" --run "$SIM" --exercise 7
	assert_line --index 0 "execlag check: $SIM (exercise 7, docs/workshop.md) — simulated run (launcher $L): nothing was launched; a test of the kit, not evidence"
	assert_line --regexp "^E7 feedback bundle +not applicable — a simulated run launched nothing and is never sent to Apple: make feedback refuses it$"
	assert_equal "${lines[${#lines[@]} - 1]}" "0 hold, 0 do not hold, 1 not applicable (simulated run: not evidence)"
}
