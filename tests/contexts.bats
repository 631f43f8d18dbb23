#!/usr/bin/env bats
# The contexts in which a Developer Tools grant does not take (docs/evidence.md
# §8 and §14): a tmux server started elsewhere or re-attached (tmux#4803),
# tmux or zellij granted themselves (nextest-rs/nextest#63), ssh (cargo PR
# #15908), VS Code's terminal (its responsible process: no source), Alacritty
# granted and still paying (alacritty#8785).  Each from a fake Mac state
# (tests/fakes/states) and the simulated probe's samples at 150 ms: the
# doctor's cause: line names the context and its do: step fits it.

load test_helper/common-setup
load test_helper/mac-advise
load test_helper/quickrun

setup_file() {
	local root="$BATS_TEST_DIRNAME/.."
	make -C "$root" -s micro/bin/mkfresh micro/bin/launch micro/bin/analyze micro/bin/advise \
		micro/bin/devtools >/dev/null
	sh "$root/scripts/repro" --profile doctor --results "$BATS_FILE_TMPDIR/sim" \
		--launcher "sim:latency=150 workers=1 key=inode seed=7" >/dev/null 2>&1
	# its samples without their launcher line, once for the file (as
	# mac_advise takes them)
	grep -v '^meta	launcher	' "$BATS_FILE_TMPDIR"/sim/*/raw/exe-t1-all.samples.tsv \
		>"$BATS_FILE_TMPDIR/sim.samples"
}

setup() {
	_common_setup
	FAKES="$ROOT/tests/fakes"
	export TMPDIR="$BATS_TEST_TMPDIR"
}

# mac_run STATE [DEVTOOLS=WORD] [ENV=VALUE...]: mac_advise on setup_file's
# samples at 150 ms, the fake Mac STATE ($output, $stderr, $status; RUN).
mac_run() {
	local state=$1
	shift
	RUN="$BATS_TEST_TMPDIR/run-$state"
	mac_advise "$BATS_FILE_TMPDIR/sim.samples" "$state" "contexts-$state" "$@"
}

@test "tmux: granted itself, still paying; its server started elsewhere; in a terminal not a Developer Tool" {
	# (was: "tmux granted itself and still paying: the grant follows signature and path, redo it (nextest#63)")
	mac_run m1-tmux TMUX=/private/tmp/tmux-501/default,4242,0 TERM_PROGRAM=tmux
	assert_equal "$status" 1
	assert_line "cause: tmux itself is the responsible program and a Developer Tool, yet a new program pays: a grant follows the program's signature and path, so an update of an ad-hoc signed tmux build loses it (nextest-rs/nextest#63)."
	assert_line "do: in Developer Tools remove tmux and add it again with + (the program at /opt/homebrew/bin/tmux), after each update of an ad-hoc signed build (nextest-rs/nextest#63); then quit every tmux session and start a new one; then make doctor again."
	run_both -0 "$BIN/advise" --run "$RUN" --brief
	assert_line --regexp '^do: in Developer Tools remove the multiplexer and add it again with \+ .*nextest-rs/nextest#63'
	# (was: "a tmux server started elsewhere or re-attached: restart it from a granted terminal, or grant tmux")
	mac_run m1-tmux DEVTOOLS=not-determined TMUX=/private/tmp/tmux-501/default,4242,0 TERM_PROGRAM=tmux
	assert_equal "$status" 1
	assert_line "cause: tmux itself is the responsible program (its server is no child of a granted terminal: started elsewhere, or re-attached, tmux#4803) and it is not a Developer Tool (Developer Tools: not-determined)."
	assert_line "do: either end the tmux server and start it again from a terminal that is a Developer Tool (tmux#4803), or add tmux itself to Developer Tools with + (nextest-rs/nextest#63; again after each update of an ad-hoc signed build); then make doctor again."
	run_both -0 grep -A3 '^## How the kit was started' "$RUN/report.md"
	run_both -0 grep -F "The responsible program is tmux itself: its server is no child of a terminal (started elsewhere, or re-attached: tmux#4803), so only a grant of tmux reaches what the kit starts (nextest-rs/nextest#63)." "$RUN/report.md"
	# (was: "tmux in a terminal that is not a Developer Tool: grant it, then restart the tmux server from it")
	mac_run sip-custom TMUX=/private/tmp/tmux-501/default,4242,0 TERM_PROGRAM=Apple_Terminal
	assert_equal "$status" 1
	assert_line --regexp "^cause: SIP is .* is not a Developer Tool \(Developer Tools: denied\), so macOS assesses each new program on its first launch \(cargo PR #15908\); the kit ran inside tmux, whose server keeps the app it was started from \(tmux#4803\)\.$"
	assert_line "do: then end the tmux server (tmux kill-server) and start it from the new window: a server started before keeps the app it was started from (tmux#4803)."
}

@test "ssh: sshd-keygen-wrapper responsible (cargo PR #15908); VS Code's terminal: the process read named" {
	# (was: "ssh: sshd-keygen-wrapper is responsible, no terminal's grant applies (cargo PR #15908)")
	mac_run m1-ssh SSH_CONNECTION="192.0.2.10 51234 192.0.2.20 22"
	assert_equal "$status" 1
	assert_line --regexp '^cause: the kit ran over ssh, so macOS holds sshd-keygen-wrapper responsible .*cargo PR #15908'
	assert_line --regexp '^do: run the command in a terminal on the Mac itself'
	# (was: "VS Code's terminal: its responsible process unknown to the sources, the one read named")
	mac_run sip-custom TERM_PROGRAM=vscode
	assert_equal "$status" 1
	assert_line --regexp "^cause: SIP is .* and the kit ran in VS Code's terminal, whose responsible process no public source names; the one read here, .*, is not a Developer Tool"
	assert_line "do: if VS Code's terminal still pays after that, run the command from Terminal, whose grant is documented: which process macOS holds responsible in VS Code's terminal is not."
	run_both -0 grep -F "In VS Code's terminal: which process macOS holds responsible there no public source names" "$RUN/report.md"
}

@test "Alacritty granted and still paying: a report (alacritty#8785); zellij read from ZELLIJ (nextest#63)" {
	# (was: "Alacritty granted and still paying: a report, not a setting (alacritty#8785)")
	mac_run m5-three-levels DEVTOOLS=authorized TERM=alacritty
	assert_equal "$status" 1
	assert_line "cause: Alacritty is a Developer Tool, yet a new program pays here, as reported for Alacritty on macOS 26.1 and 26.2 (alacritty#8785)."
	assert_line --regexp '^do: run make repro, then make feedback'
	# (was: "zellij: read from ZELLIJ, said in how the kit was started (nextest#63)")
	mac_run m1-sequoia ZELLIJ=0 TERM_PROGRAM=iTerm.app
	run_both -0 grep '^multiplexer=' "$RUN/conditions.txt"
	assert_output multiplexer=zellij
	run_both -0 grep -F "Inside zellij: no public report measured a session of zellij; nextest-rs/nextest#63 grants tmux or zellij themselves" "$RUN/report.md"
}

