#!/usr/bin/env bats
# The plain lines (micro/report/advice_brief.c, advise --brief): what make repro ends
# with and report.md begins with — what a new program costs here, whether
# the checks queue, the cause, the one thing to do — for each state, on the
# fixture runs of tests/fixtures/brief (the simulator's samples with fixed
# seeds, a fake machine's conditions).  Nothing here depends on timing.

load test_helper/common-setup

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s micro/bin/analyze micro/bin/advise micro/bin/mkfresh \
		micro/bin/launch >/dev/null
}

setup() {
	_common_setup
	D="$BATS_TEST_TMPDIR"
}

# brief NAME: the fixture run NAME analyzed in $D/NAME ($RUN), then
# advise --brief on it ($output, $lines).
brief() {
	RUN="$D/$1"
	# (a process only where an earlier call left it)
	[ ! -e "$RUN" ] || rm -rf "$RUN"
	cp -R "$FIXTURES/brief/$1" "$RUN"
	"$BIN/analyze" --run "$RUN" --quiet || fail "analyze failed on $1"
	run --separate-stderr "$BIN/advise" --run "$RUN" --brief
	assert_success
	assert_equal "$stderr" ""
	[ "${#lines[@]}" -le 4 ] || fail "more than four lines: $output"
}

# report_top: the plain lines at the top of $RUN/report.md, without "- "
report_top() {
	awk 'NR == 1 { next } /^$/ { if (n) exit; next } /^- / { print substr($0, 3); n++; next } { exit }' \
		"$RUN/report.md"
}

# report_same: report.md begins with the lines of $output, right after its
# title, which names the run (each fixture's test; what was a test of its
# own, looping over the four, each analyzed and advised again there)
report_same() {
	local title
	assert_equal "$(report_top)" "$output"
	IFS= read -r title <"$RUN/report.md"
	assert_equal "$title" "# execlag report — 20260410T090000Z-${RUN##*/}"
}

@test "a Mac paying 150 ms, Terminal not a Developer Tool: the cost, the queue, the cause, the steps" {
	brief mac-penalty
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 "cost: a new program waits about 150 ms [150, 151] on its first launch here (exe: first launch 151 ms, second 0.90 ms; in brackets the 95% interval)."
	assert_line --index 1 "queue: yes, the checks run one at a time: with 2 programs started together a first launch waited 225 ms [149, 300] (the median), against 150 ms [150, 151] alone (serialised); a suite of 14,000 new programs (the suite case's size) would spend at least 35 minutes in them at 2 jobs."
	assert_line --index 2 "cause: SIP is enabled and Terminal is not a Developer Tool (Developer Tools: denied), so macOS assesses each new program on its first launch (cargo PR #15908); network online."
	assert_line --index 3 "do: open System Settings › Privacy & Security › Developer Tools, turn on Terminal (add it with + if it is not listed; \`spctl developer-mode enable-terminal\` lists it), quit Terminal and open it again, then in the new window make repro TAG=after and make compare A=20260410T090000Z-mac-penalty B=after."
	# (was, for this fixture: "report.md begins with the same lines, right after its title")
	report_same
}

@test "a Mac whose app is a Developer Tool, no penalty: nothing to do, and what the control looks like" {
	brief mac-none-authorised
	assert_equal "${#lines[@]}" 3
	assert_line --index 0 "cost: nothing measurable here: a new program's first launch costs 0.05 ms [-0.25, 0.33] more than its second (exe), all of it under the 1 ms floor, the least the kit calls a cost."
	assert_line --index 1 "cause: SIP is enabled, iTerm (the app macOS holds responsible for the kit) is a Developer Tool, so macOS does not check the programs it starts (the nextest and cargo docs); network online."
	assert_line --index 2 "do: nothing. The control: from an app that is not a Developer Tool (or over ssh) a new program pays (120–180 ms on an M2: cargo PR #15908); make repro TAG=control there, then make compare A=20260410T090000Z-mac-none-authorised B=control shows the difference."
	# (was, for this fixture: "report.md begins with the same lines, right after its title")
	report_same
}

@test "Linux, nothing watching exec: none, this run is the control" {
	brief linux-none
	assert_equal "${#lines[@]}" 3
	assert_line --index 0 "cost: nothing measurable here: a new program's first launch costs 0.05 ms [-0.25, 0.33] more than its second (exe), all of it under the 1 ms floor, the least the kit calls a cost."
	assert_line --index 1 "cause: Linux has no first-launch assessment, and nothing here watches exec (fanotify listeners: none; known agents: none): this run is the control; network online."
	assert_line --index 2 "do: nothing: this is what the control looks like, none in every case; on a Mac whose terminal is not a Developer Tool the same run shows a penalty (120–180 ms for an empty Rust binary on an M2: cargo PR #15908)."
	# (was, for this fixture: "report.md begins with the same lines, right after its title")
	report_same
}

@test "inconclusive: the reason, what the conditions lead one to expect, and how to measure again" {
	brief mac-inconclusive
	assert_equal "${#lines[@]}" 3
	assert_line --index 0 "cost: unclear: a new program's first launch here costs 1.20 ms [0.75, 1.56] more than its second (exe): interval [0.75, 1.56] ms includes the 1 ms floor."
	assert_line --index 1 "cause: SIP is enabled, Terminal (the app macOS holds responsible for the kit) is not a Developer Tool (Developer Tools: denied); public reports see a new program pay 120–180 ms in this state (cargo PR #15908); network online."
	assert_line --index 2 "do: measure again with more launches on an otherwise idle machine: make repro CASES=exe COUNT=60, then make compare A=20260410T090000Z-mac-inconclusive B=<the new run>."
	# (was, for this fixture: "report.md begins with the same lines, right after its title")
	report_same
}

@test "the lines follow the conditions: over ssh, offline, a VPN, SIP off, the gate" {
	brief mac-penalty
	sed -i 's/^ssh=.*/ssh=yes/' "$RUN/conditions.txt"
	"$BIN/analyze" --run "$RUN" --quiet
	run -0 "$BIN/advise" --run "$RUN" --brief
	assert_line --regexp '^cause: the kit ran over ssh, so macOS holds sshd-keygen-wrapper responsible'
	assert_line --regexp '^do: run it in a terminal on the Mac itself, not over ssh, whose app is a Developer Tool \(open System Settings'
	brief mac-penalty
	sed -i 's/^network=.*/network=offline/; s/^vpn=.*/vpn=no/' "$RUN/conditions.txt"
	"$BIN/analyze" --run "$RUN" --quiet
	run -0 "$BIN/advise" --run "$RUN" --brief
	assert_line --regexp '; network offline \(offline, a \.NET app.s first start fell from 7\.65 s to 2\.06 s but kept a cost: dotnet#53031\)\.$'
	brief mac-penalty
	sed -i 's/^vpn=.*/vpn=yes/' "$RUN/conditions.txt"
	"$BIN/analyze" --run "$RUN" --quiet
	run -0 "$BIN/advise" --run "$RUN" --brief
	assert_line --regexp '; network online, over a VPN \('
	brief mac-none-authorised
	sed -i 's/^sip=.*/sip=disabled/; s/^devtools=.*/devtools=denied/' "$RUN/conditions.txt"
	"$BIN/analyze" --run "$RUN" --quiet
	run -0 "$BIN/advise" --run "$RUN" --brief
	assert_line --regexp '^cause: SIP is disabled, .* is not a Developer Tool \(Developer Tools: denied\), and SIP off largely disables the com\.apple\.syspolicy subsystem \(Oakley\)'
	brief linux-none
	printf 'gate.active=1\ngate.latency_ms=150\ngate.workers=1\ngate.key=inode\n' >>"$RUN/conditions.txt"
	"$BIN/analyze" --run "$RUN" --quiet
	run -0 "$BIN/advise" --run "$RUN" --brief
	assert_line --regexp '^cost \(under the calibration gate\): '
	assert_line "cause: the calibration gate (latency 150 ms, workers 1, key inode) held the launches in the work folder: a test of the kit against a known truth, not of this OS."
}

@test "make repro ends with the plain lines, and a simulated run says simulated in them" {
	local id
	run -0 sh "$ROOT/scripts/repro" --cases exe --threads 1 --count 8 --results "$D/results" \
		--launcher 'sim:latency=150 workers=1 key=inode seed=7'
	RUN=$(echo "$D/results"/*/)
	RUN=${RUN%/}
	# (repro's lines, blank ones too, by the shell's read: what tail and
	# head read of a file of them)
	local rl=() l
	while IFS= read -r l; do rl+=("$l"); done <<<"$output"
	run -0 "$BIN/advise" --run "$RUN" --brief
	local n=${#lines[@]} m=${#rl[@]} last
	printf -v last '%s\n' "${rl[@]:m-n}"
	assert_equal "${last%$'\n'}" "$output"
	# a blank line, then the lines, after the results line
	assert_equal "${rl[m-n-2]}" "execlag: results in $D/results/${RUN##*/}/ (report.md, run.json)"
	assert_equal "${rl[m-n-1]}" ""
	assert_equal "$(report_top)" "$output"
	assert_line --index 0 --regexp '^cost \(simulated, nothing was launched: the model.s numbers\): a new program waits about 150 ms \['
	assert_line --regexp '^cause: a simulated run \(launcher sim:latency=150 '
	assert_line "do: nothing about this machine; make repro without LAUNCHER measures it."
}

@test "advise --brief goes alone: with --doctor or --case it is bad usage, one line, exit 2" {
	brief linux-none
	run --separate-stderr "$BIN/advise" --run "$RUN" --brief --doctor
	assert_equal "$status" 2
	assert_equal "$stderr" "advise: --brief goes alone: it speaks of exe, else the run's first case (try --help)"
	run --separate-stderr "$BIN/advise" --run "$RUN" --brief --case exe
	assert_equal "$status" 2
	assert_equal "${#stderr_lines[@]}" 1
}

@test "README.md's examples are the lines the fixtures give, word for word" {
	local name
	for name in mac-penalty linux-none; do
		brief "$name"
		local l
		for l in "${lines[@]}"; do
			grep -qxF -- "$l" "$ROOT/README.md" || fail "README.md lacks $name's line: $l"
		done
	done
}
