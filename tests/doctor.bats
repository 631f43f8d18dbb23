#!/usr/bin/env bats
# make doctor (scripts/doctor, micro/bin/advise, micro/report/advice_doctor.c): the probe
# on the simulator with fixed seeds, and the plain lines for each state of a
# Mac from the fakes (tests/fakes/states) with the simulator's samples.
# Nothing here depends on this machine's timing.

load test_helper/common-setup
load test_helper/shellread
load test_helper/quickrun

SIM150='sim:latency=150 workers=1 key=inode seed=7'
SIM0='sim:latency=0 workers=1 key=inode seed=7'
SIM1='sim:latency=1 workers=1 key=inode seed=7'

setup_file() {
	local root="$BATS_TEST_DIRNAME/.." l
	make -C "$root" -s micro/bin/mkfresh micro/bin/launch micro/bin/analyze micro/bin/advise \
		micro/bin/devtools >/dev/null
	# the probe's samples at three latencies as a Mac's probe takes them
	# (the fakes say Darwin: each program compiled, the extension to 32),
	# for the Mac states below
	for l in 0 1 150; do
		env PATH="$root/tests/fakes/bin:$PATH" FAKE_STATE="$root/tests/fakes/states/sip-custom" \
			sh "$root/scripts/repro" --profile doctor --results "$BATS_FILE_TMPDIR/sim$l" \
			--launcher "sim:latency=$l workers=1 key=inode seed=7" >/dev/null 2>&1 ||
			return 1
	done
	# and as this machine's takes them (on Linux: the extension to 128)
	sh "$root/scripts/repro" --profile doctor --results "$BATS_FILE_TMPDIR/here150" \
		--launcher "sim:latency=150 workers=1 key=inode seed=7" >/dev/null 2>&1 || return 1
	# the three latencies' samples without their launcher line, once for
	# the file (mac_run, linux_run: not a grep a run)
	awk -v dir="$BATS_FILE_TMPDIR" 'FNR == 1 { n++; out = dir "/sim" (n == 1 ? 0 : n == 2 ? 1 : 150) ".samples" }
		!/^meta	launcher	/ { print >out }' "$BATS_FILE_TMPDIR"/sim0/*/raw/exe-t1-all.samples.tsv \
		"$BATS_FILE_TMPDIR"/sim1/*/raw/exe-t1-all.samples.tsv \
		"$BATS_FILE_TMPDIR"/sim150/*/raw/exe-t1-all.samples.tsv || return 1
	# this system's name, for the tests that differ by it (not a uname a test)
	export DOCTOR_SYSTEM
	DOCTOR_SYSTEM=$(uname -s)
	# the doctor at 150 ms once, for the tests that only read its answer
	# (its lines, a second run's sameness, what it left): its TMPDIR of
	# its own, and the results/ folder's count before and after
	local d="$BATS_FILE_TMPDIR/doctor150"
	mkdir -p "$d/tmp"
	count_names "$root/results" >"$d/results-before"
	TMPDIR="$d/tmp" EXECLAG_TEMPLATES="${EXECLAG_TEMPLATES:-$BATS_RUN_TMPDIR/templates}" sh "$root/scripts/doctor" --launcher "$SIM150" >"$d/out" 2>"$d/err" &&
		echo 0 >"$d/status" || echo "$?" >"$d/status"
	count_names "$root/results" >"$d/results-after"
}

# doctor150: the file's doctor at 150 ms (setup_file) as this test's run
# --separate-stderr: status, output, lines, stderr
doctor150() {
	local d="$BATS_FILE_TMPDIR/doctor150"
	read -r status <"$d/status"
	output=$(<"$d/out")
	stderr=$(<"$d/err")
	IFS=$'\n' read -r -d '' -a lines <<<"$output" || true
}

setup() {
	_common_setup
	FAKES="$ROOT/tests/fakes"
	DOCTOR="$ROOT/scripts/doctor"
	export TMPDIR="$BATS_TEST_TMPDIR"
}

# mac_run STATE LATENCY [ENV=VALUE...]: mac_advise on setup_file's samples
# at LATENCY ms, the fake Mac STATE in an environment of ENV alone
# ($output, $stderr, $status; RUN is the folder).
mac_run() {
	local state=$1 lat=$2
	shift 2
	RUN="$BATS_TEST_TMPDIR/run-$state-$lat"
	mac_advise "$BATS_FILE_TMPDIR/sim$lat.samples" "$state" "doctor-$state" "$@"
}

# ---- the probe on the simulator -------------------------------------------------------

@test "150 ms doctor: exit 1, penalty last, nothing left; its probe: exe, T=1, 8, the looks, no hyperfine" {
	# (was: "a simulated 150 ms checker: exit 1, penalty and interval last; nothing left in TMPDIR or results/")
	# (was: "a simulated 150 ms checker: exit 1, the penalty and its interval in the last line")
	doctor150
	assert_equal "$status" 1
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: penalty 150.0 ms [149.3, 150.4]"
	assert_line "probe: 8 new programs (exe), each launched twice, one at a time: first 150.84 ms, repeat 0.86 ms (medians); a first launch costs 150.0 ms [149.3, 150.4] more"
	assert_line --partial "SIMULATED: sim:latency=150 workers=1 key=inode"
	assert_line --regexp '^cause: a simulated run'
	assert_equal "$stderr" ""
	# (was: "doctor leaves nothing behind in TMPDIR or results/")
	# the file's doctor (setup_file): its own TMPDIR, results/ counted
	# before and after it
	local d="$BATS_FILE_TMPDIR/doctor150"
	doctor150
	assert_equal "$status" 1
	# (find "$d/tmp" -maxdepth 1 -name 'execlag*', in the shell)
	local left=("$d/tmp"/execlag*) before after
	[ -e "${left[0]}" ] || [ -L "${left[0]}" ] || left=()
	assert_equal "${left[*]}" ""
	read -r after <"$d/results-after"
	read -r before <"$d/results-before"
	assert_equal "$after" "$before"
	# (was: "the probe: exe, T=1, 8 artifacts, looks 8, 12, 16, then 32 (Mac) or to 128 (Linux), no hyperfine")
	local run_dir looks=8,12,16+32 t=$'\t'
	[ "$DOCTOR_SYSTEM" != Linux ] || looks=8,12,16+32,48,64,80,96,112,128
	# a Mac's (the fakes) at 32, this machine's at its own
	# (the files read by the shell: grep_ere, md_section, file_lines)
	local mac=("$BATS_FILE_TMPDIR"/sim150/*/raw/exe-t1-all.samples.tsv) dirs=("$BATS_FILE_TMPDIR"/here150/*/)
	grep_ere "${mac[0]}" "^meta${t}looks${t}"
	assert_equal "$status" 0
	assert_output "meta	looks	8,12,16+32"
	run_dir=${dirs[0]}
	# (sed -n 's/^run\.\(profile\|cases\|threads\|count\|sequential\)=//p')
	grep_ere "$run_dir/conditions.txt" '^run\.(profile|cases|threads|count|sequential)='
	assert_equal "$status" 0
	local l vals=
	for l in "${lines[@]}"; do vals+=${l#*=}$'\n'; done
	assert_equal "${vals%$'\n'}" "doctor
exe
1
16
1"
	grep_ere "$run_dir/raw/exe-t1-all.samples.tsv" "^meta${t}(n|planned|looks|stopped)${t}"
	assert_equal "$status" 0
	assert_equal "$output" "meta	n	8
meta	planned	16
meta	looks	$looks
meta	stopped	slowdown"
	# (ls "$run_dir/raw")
	local names= f
	for f in "$run_dir"raw/*; do names+=${f##*/}$'\n'; done
	assert_equal "${names%$'\n'}" "exe-t1-all.manifest
exe-t1-all.samples.tsv"
	grep_ere "$run_dir/raw/exe-t1-all.manifest" "^artifact${t}"
	assert_equal "${#lines[@]}" 8
	grep_ere "$run_dir/conditions.txt" '^hyperfine\.status='
	assert_equal "$status" 0
	assert_output hyperfine.status=skipped
}

# (but the watchers line: it is this machine's now, the fanotify listeners
# other programs hold, which a test beside this one may start or stop)
# The second run is make doctor's, LAUNCHER in its environment beside make
# repro's settings, which the probe ignores: the same bytes; make turns the
# doctor's 1 into its own 2.  (And a simulated checker at 0 ms: exit 0, none
# with the penalty and its interval, the doctor's own answer, which make
# passes on.)
@test "same seed, same bytes: make doctor LAUNCHER from the env, repro's settings ignored; make's 2" {
	# (was: "same seed, same answer byte for byte; LAUNCHER from the environment, make repro's settings ignored")
	# the first: the file's (setup_file, --launcher), the second made here
	doctor150
	assert_equal "$status" 1
	assert_line --regexp '^watchers: '
	local first
	without_watchers
	first=$kept
	# (was: "make doctor LAUNCHER=…: the same answer; make turns any status but 0 into its 2")
	# the second run, through make (the doctor's exit 1 is make's "Error 1")
	run_sep env LAUNCHER="$SIM150" CASES=script THREADS=2 COUNT=30 PROFILE=full \
		make -s -C "$ROOT" doctor
	assert_equal "$status" 2
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: penalty 150.0 ms [149.3, 150.4]"
	[[ "$stderr" == *"doctor] Error 1"* ]] || fail "stderr: $stderr"
	assert_line "verdict: penalty 150.0 ms [149.3, 150.4]"
	assert_line --partial "probe: 8 new programs (exe)"
	# (the same seed's second run, as before)
	assert_line --regexp '^watchers: '
	without_watchers
	assert_equal "$kept" "$first"
	run_sep make -s -C "$ROOT" doctor LAUNCHER="$SIM0"
	assert_equal "$status" 0
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: none — -0.00 ms [-0.61, 0.39]"
}

# without_watchers: $output's lines but those beginning "watchers: ", in
# $kept (grep -v '^watchers: ', in the shell)
without_watchers() {
	local l
	kept=''
	for l in "${lines[@]}"; do
		[[ "$l" == "watchers: "* ]] || kept+=$l$'\n'
	done
	kept=${kept%$'\n'}
}

# 1 ms is the floor itself: no number of pairs can tell.  On Linux the
# probe goes on to 128 (its programs from a template), elsewhere to 32
# (each compiled; the Mac states below read a Mac's probe).
@test "a simulated 1 ms checker: 128 launches on Linux, 32 elsewhere (16 cannot tell), unclear: exit 3" {
	run_sep sh "$DOCTOR" --launcher "$SIM1"
	assert_equal "$status" 3
	if [ "$DOCTOR_SYSTEM" = Linux ]; then
		assert_line --partial "probe: 128 new programs (exe)"
		assert_equal "${lines[${#lines[@]} - 1]}" "verdict: unclear — 1.01 ms [0.95, 1.09]: run make repro"
	else
		assert_line --partial "probe: 32 new programs (exe)"
		assert_equal "${lines[${#lines[@]} - 1]}" "verdict: unclear — 1.03 ms [0.93, 1.17]: run make repro"
	fi
}

@test "make doctor's LAUNCHER and GATE are data: nothing in them runs" {
	run_sep make -s -C "$ROOT" doctor LAUNCHER="sim:\$(shell touch $BATS_TEST_TMPDIR/ran) latency=1"
	assert_equal "$status" 2
	[ ! -e "$BATS_TEST_TMPDIR/ran" ] || fail "the value ran"
	run_sep make -s -C "$ROOT" doctor GATE="latency=\`touch $BATS_TEST_TMPDIR/ran2\`"
	[ ! -e "$BATS_TEST_TMPDIR/ran2" ] || fail "the value ran"
}

# ---- bad usage ---------------------------------------------------------------------------------

@test "bad usage is one line on stderr and exit 2; --help says the exit statuses and make's 2" {
	# (was: "bad usage is one line on stderr and exit 2")
	run_sep sh "$DOCTOR" --frobnicate
	assert_equal "$status" 2
	assert_equal "${#stderr_lines[@]}" 1
	assert_equal "$output" ""
	run_sep sh "$DOCTOR" --launcher
	assert_equal "$status" 2
	assert_equal "${#stderr_lines[@]}" 1
	run_sep sh "$DOCTOR" --launcher 'sim:latency=abc'
	assert_equal "$status" 2
	assert_equal "${#stderr_lines[@]}" 1
	[[ "$stderr" == "execlag: LAUNCHER: "* ]] || fail "stderr: $stderr"
	run_sep sh "$DOCTOR" --gate 'latency=20' --launcher "$SIM150"
	assert_equal "$status" 2
	assert_equal "$stderr" "execlag: GATE and LAUNCHER=sim exclude each other: the simulator launches nothing for a gate to hold"
	run_sep sh "$DOCTOR" --gate 'latency=fast'
	assert_equal "$status" 2
	assert_equal "${#stderr_lines[@]}" 1
	# (was: "--help says what it does, the exit statuses, and that make turns them into 2")
	run_both -0 sh "$DOCTOR" --help
	assert_line --index 0 "usage: scripts/doctor [--gate SPEC] [--launcher SPEC]"
	assert_output --partial "Exit: 0 no penalty, 1 a penalty, 3 unclear (run make repro), 4 a new
program did not start (hang) or the checker did not answer (hung), 5 the
checker is exhausted (out of file descriptors), 6 the checker storms (its
log far above the baseline), 2 bad usage, 130 interrupted."
}

@test "advise: bad usage, an unreadable run.json: one line, exit 2; without --doctor only the plain lines" {
	# (was: "advise: bad usage and a run.json it cannot read are one line and exit 2")
	run_sep "$BIN/advise"
	assert_equal "$status" 2
	assert_equal "$stderr" "advise: --run DIR is required (try --help)"
	run_sep "$BIN/advise" --run "$BATS_TEST_TMPDIR/nowhere"
	assert_equal "$status" 2
	assert_equal "${#stderr_lines[@]}" 1
	mac_run sip-custom 150
	run_sep "$BIN/advise" --run "$RUN" --case nope
	assert_equal "$status" 2
	assert_equal "$stderr" "advise: $RUN/run.json has no case 'nope'"
	# (was: "advise without --doctor: only the plain lines, exit 0 (what make repro can end with)")
	# the same run (mac_run sip-custom 150)
	run_sep "$BIN/advise" --run "$RUN"
	assert_success
	assert_line --index 0 --regexp '^cause: SIP is enabled and Terminal is not a Developer Tool'
	refute_line --regexp '^verdict:'
	refute_line --regexp '^SIP:'
}

# ---- the plain lines on a Mac, per state ------------------------------------------------------

@test "Mac: SIP on, Terminal not a Developer Tool; over ssh; in tmux; from a launchd job: cause and steps" {
	# (was: "Mac, SIP on, Terminal not a Developer Tool, 150 ms: the cause, the steps, what they will not fix")
	mac_run sip-custom 150 TERM_PROGRAM=Apple_Terminal
	assert_equal "$status" 1
	assert_line "SIP: enabled"
	assert_line "responsible app: Terminal — Developer Tools: denied"
	assert_line "XProtect: 5272, launch scans n/a"
	assert_line "started: Terminal (ssh: no, tmux/screen: none, launchd job: no)"
	assert_line "network: online (interface en0)"
	assert_line "cause: SIP is enabled and Terminal is not a Developer Tool (Developer Tools: denied), so macOS assesses each new program on its first launch (cargo PR #15908)."
	assert_line "do: open System Settings › Privacy & Security › Developer Tools (or run: open \"x-apple.systempreferences:com.apple.preference.security?Privacy_DevTools\"), turn on Terminal (add it with + if it is not listed), then quit Terminal and open it again, and run make doctor in the new window."
	assert_line "do: for Terminal, \`spctl developer-mode enable-terminal\` makes it appear in that list (it may ask for an administrator's password); you still turn it on there."
	assert_line "will not fix: programs started over ssh (sshd-keygen-wrapper is responsible for them, cargo PR #15908) or by a launchd job (no terminal is, marspot RFC-007), nor a tmux session re-attached from another terminal (tmux#4803)."
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: penalty 150.0 ms [149.3, 150.4]"
	assert_equal "$stderr" ""
	# (was: "Mac over ssh: sshd-keygen-wrapper is responsible; run it in a terminal on the Mac")
	mac_run m1-ssh 150 SSH_CONNECTION="192.0.2.10 51234 192.0.2.20 22"
	assert_equal "$status" 1
	assert_line "responsible app: sshd-keygen-wrapper — Developer Tools: not-determined"
	assert_line "started: ssh (ssh: yes, tmux/screen: none, launchd job: no)"
	assert_line "cause: the kit ran over ssh, so macOS holds sshd-keygen-wrapper responsible for the programs it starts (cargo PR #15908), and no terminal's Developer Tools grant reaches them."
	assert_line "do: run the command in a terminal on the Mac itself whose app is a Developer Tool; to make it one:"
	assert_line --partial "turn on your terminal (add it with +"
	# (was: "Mac in tmux with an authorised app: re-attached sessions pay again (tmux#4803)")
	mac_run m1-sequoia 150 TMUX=/private/tmp/tmux-501/default,4242,0 TERM_PROGRAM=tmux
	assert_equal "$status" 1
	assert_line "cause: iTerm is a Developer Tool, but the kit ran inside tmux, where a session re-attached from a reopened terminal pays again (tmux#4803)."
	assert_line "do: start a new tmux session from a window of iTerm and use it there, or run outside tmux; then make doctor again."
	# (was: "Mac from a launchd job: no terminal is responsible")
	mac_run sip-custom 150 XPC_SERVICE_NAME=com.example.nightly
	assert_equal "$status" 1
	assert_line "started: launchd (ssh: no, tmux/screen: none, launchd job: yes)"
	assert_line --regexp '^cause: the kit ran from a launchd job'
}

@test "Mac: an authorised app that still pays; macOS 12's System Preferences; unclear: why, and make repro" {
	# (was: "Mac, an authorised app that still pays (Alacritty on macOS 26): a report, not a setting")
	mac_run m5-three-levels 150 TERM=alacritty
	# m5-three-levels: not-determined; as a Developer Tool:
	set_key "$RUN/conditions.txt" devtools authorized
	"$BIN/analyze" --run "$RUN" --quiet
	run_both "$BIN/advise" --run "$RUN" --doctor
	assert_equal "$status" 1
	assert_line "cause: Alacritty is a Developer Tool, yet a new program pays here, as reported for Alacritty on macOS 26.1 and 26.2 (alacritty#8785)."
	assert_line --regexp '^do: run make repro, then make feedback'
	assert_line "XProtect: 5324, launch scans disabled"
	# (was: "Mac, macOS 12: System Preferences › Security & Privacy, and an unreadable state said so")
	mac_run intel-offline 150
	assert_equal "$status" 1
	assert_line "network: offline (interface none)"
	assert_line --partial "cause: SIP is enabled and the Developer Tools state of"
	assert_line --regexp '^do: open System Preferences › Security & Privacy › Privacy › Developer Tools'
	# (was: "Mac, unclear: the reason, and make repro")
	mac_run sip-custom 1
	assert_equal "$status" 3
	assert_line "cause: the probe's 32 launches could not tell: interval [0.93, 1.17] ms includes the 1 ms floor (a 97.96% interval: look 1 of 1 of the extension, after an interval across the floor at 16)."
	assert_line "do: run make repro (about 1¼ minutes on a Mac at 150 ms, the simulator's figure): more launches and every case, with a report."
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: unclear — 1.03 ms [0.93, 1.17]: run make repro"
}

@test "report.md: how the kit was started, with sources; Mac, iTerm a Developer Tool, no penalty: exit 0" {
	# (was: "report.md says how the kit was started and what it means, with the sources")
	mac_run m1-ssh 150 SSH_CONNECTION="192.0.2.10 51234 192.0.2.20 22" TMUX=/tmp/tmux-501/default,1,0
	md_section "$RUN/report.md" "## How the kit was started"
	assert_line --regexp '^- Started over ssh: .*\(cargo PR #15908\).*\(marspot RFC-007\)\.$'
	assert_line --regexp '^- Inside tmux: .*\(tmux#4803\)'
	assert_line --regexp '^- The responsible app, sshd-keygen-wrapper, is not a Developer Tool \(Developer Tools: not-determined\)'
	mac_run m1-sequoia 0 XPC_SERVICE_NAME=0 TERM_PROGRAM=iTerm.app
	# (was: "Mac, iTerm a Developer Tool, no penalty: nothing to fix, exit 0",
	# whose run, mac_run m1-sequoia 0 TERM_PROGRAM=iTerm.app, is this one:
	# sysinfo's lines are the same byte for byte with XPC_SERVICE_NAME=0)
	assert_equal "$status" 0
	assert_line "responsible app: iTerm — Developer Tools: authorized"
	assert_line "XProtect: 5322, launch scans enabled"
	assert_line "cause: nothing to fix: a new program does not pay here now (iTerm is a Developer Tool)."
	assert_line "do: nothing."
	refute_line --partial "will not fix"
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: none — -0.00 ms [-0.61, 0.39]"
	# (its report.md, as before)
	md_section "$RUN/report.md" "## How the kit was started"
	assert_line "- Started from iTerm2: not over ssh, in tmux or screen, or by a launchd job."
	assert_line --regexp '^- The responsible app, iTerm, is a Developer Tool'
}

# ---- Linux ----------------------------------------------------------------------------------------

# linux_run STATE LATENCY: as mac_run, with a Linux state's conditions.
linux_run() {
	local state=$1 lat=$2
	RUN="$BATS_TEST_TMPDIR/run-$state-$lat"
	rm -rf "$RUN"
	mkdir -p "$RUN/raw"
	# the simulator's samples as a Mac's own: without their launcher line,
	# which would have analyze call the run simulated (as it is)
	local text=
	IFS= read -r -d '' text <"$BATS_FILE_TMPDIR/sim$lat.samples" || :
	printf '%s' "$text" >"$RUN/raw/exe-t1-all.samples.tsv"
	{
		env -i PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/$state" \
			EXECLAG_SYSROOT="$FAKES/states/$state/root" sh "$ROOT/scripts/probe/sysinfo" </dev/null
		echo "run.id=doctor-$state"
		echo "launcher=spawn"
		echo "gate.active=0"
	} >"$RUN/conditions.txt"
	"$BIN/analyze" --run "$RUN" --quiet || fail "analyze failed on $RUN"
	run_sep "$BIN/advise" --run "$RUN" --doctor
}

@test "Linux: under ClamAV the watchers, where to exclude, root first; nothing watching: nothing to fix" {
	# (was: "Linux under ClamAV on access: the watchers, where to exclude; without root, run it as root first")
	# (was: "Linux under ClamAV on access: the watchers as make repro names them, and where to exclude")
	linux_run linux-clamav 150
	assert_equal "$status" 1
	assert_line "watchers: fanotify listeners: clamonacc (1); known agents: ClamAV daemon (clamd); ClamAV on-access scanning (clamonacc)"
	assert_line "cause: something holds a new program on its first launch here (fanotify listeners: clamonacc (1); known agents: ClamAV daemon (clamd); ClamAV on-access scanning (clamonacc))."
	assert_line "do: exclude the build folder in that scanner or agent (docs/linux-scanners.md says how for each)."
	assert_line --regexp '^system: Linux \(Debian GNU/Linux 12 \(bookworm\)\)'
	# (was: "Linux without root: the listeners are not read, so the first thing is to run it as root")
	# the same run, its listeners not read
	set_key "$RUN/conditions.txt" fanotify_listeners "not read (needs root)"
	"$BIN/analyze" --run "$RUN" --quiet
	run_both "$BIN/advise" --run "$RUN" --doctor
	assert_equal "$status" 1
	assert_line "do: run make doctor as root, which names the fanotify listeners; then exclude the build folder in that scanner (docs/linux-scanners.md)."
	# (was: "Linux control with nothing watching: none, nothing to fix")
	linux_run linux-hybrid 0
	assert_equal "$status" 0
	assert_line "cause: nothing to fix: a new program does not pay here (fanotify listeners: none; known agents: none)."
	md_section "$RUN/report.md" "## How the kit was started"
	assert_line --regexp '^- Started via: no terminal\. Only macOS holds an app responsible'
}

# ---- the checker's health, read before any launch (issue 43) ----------------------------
# The fakes' health states (tests/fakes/mkstates, each from its public
# source) read by scripts/probe/health, their checker.* lines in the
# conditions as make repro writes them (HEALTH=1, mac-advise), under the
# simulated 150 ms probe: the first line, the exit status, the relief.

# sick STATE STATUS: the doctor on STATE's health (HEALTH=1), exit STATUS,
# and none of the Developer Tools advice (the checker is sick)
sick() {
	HEALTH=1 mac_run "$1" 150 TERM_PROGRAM=Apple_Terminal
	assert_equal "$status" "$2"
	refute_line --partial "Developer Tools ›"
	refute_line --partial "will not fix"
	refute_line --partial "spctl developer-mode"
}

@test "checker well, exhausted (exit 5), storm (6), busy, hung (4): its first line, the relief in order" {
	# (was: "checker well (m1-online): the first line with its figures, the Developer Tools advice as before")
	HEALTH=1 mac_run m1-online 150 TERM_PROGRAM=Apple_Terminal
	assert_equal "$status" 1
	assert_line --index 0 "checker: well — Calculator's assessment answered at once: accepted; syspolicyd 0.0% CPU, 136 MB resident, up 3.2 days; trustd 0.0% CPU; its log's last 60 s: 0.0 lines a second not the kit's (the baseline 1.0)"
	assert_line --index 1 "execlag doctor: does a new program pay on its first launch here, and what to do"
	assert_line --partial "do: open System Settings › Privacy & Security › Developer Tools"
	refute_line --regexp '^relief: '
	assert_equal "$stderr" ""
	# (was: "checker exhausted (openai/codex#29796): exit 5, the services then a reboot")
	# no Developer Tools advice; the services, then a reboot, each marked
	sick health-exhausted 5
	assert_line --index 0 "checker: exhausted — Calculator's assessment answered \"Too many open files\"; syspolicyd 59.0% CPU, 1012 MB resident, up 25 min; trustd 2.1% CPU; its log's last 60 s: 346.0 lines a second not the kit's (the baseline 1.0), 20760 lines of error 24"
	assert_line "cause: the checker is sick, not slow: syspolicyd is out of file descriptors (exhausted) and refuses every program, new or not (openai/codex#29796, openai/codex#27662, openai/codex#25243); the Developer Tools setting cannot help with that."
	assert_line --regexp '^do: the relief below, in order, .*the kit runs none of it.*run make doctor again after the relief; make compare shows before and after'
	assert_line "relief: 1. restart the checker's services: sudo killall syspolicyd trustd (launchd starts them again at once) — needs an administrator's password (openai/codex#25882, #25243)."
	assert_line --regexp '^relief: 2\. restart the Mac — a reboot \(openai/codex#34768 '
	refute_line --partial "(here: "
	# (was: "checker storm (openai/codex#25882): exit 6, the driver named and quit first")
	# the driver named and quit first, then the services, then a reboot
	local codex=/Applications/Codex.app/Contents/MacOS/Codex
	sick health-storm 6
	assert_line --index 0 "checker: storm — Calculator's assessment answered at once: accepted; syspolicyd 20.0% CPU, 200 MB resident, up 1 min; trustd 1.0% CPU; its log's last 60 s: 440.0 lines a second not the kit's (the baseline 1.0); named most: $codex (660 lines)"
	assert_line --partial "most of them naming $codex, the likely driver (openai/codex#25882, openai/codex#27662)"
	assert_line --regexp "^relief: 1\. quit the program driving the checker.* \(here: $codex\) — no administrator's password, no reboot \(openai/codex#25243 "
	assert_line --regexp "^relief: 2\. restart the checker's services: sudo killall syspolicyd trustd .* — needs an administrator's password "
	assert_line --regexp '^relief: 3\. restart the Mac — a reboot '
	# (was: "checker busy (openai/codex#25243): the probe's own exit status, the relief")
	# the load, then syspolicyd; no Developer Tools advice
	sick health-busy 1
	assert_line --index 0 --regexp '^checker: busy — .*; syspolicyd 143\.0% CPU, 2662 MB resident, up 14 min;'
	assert_line --regexp '^cause: the checker is busy for the whole machine \(syspolicyd at 143\.0% CPU, 2662 MB resident\)'
	assert_line --regexp '^relief: 1\. stop the load that makes the checks'
	assert_line --regexp '^relief: 2\. sudo killall syspolicyd .* — needs an administrator.s password'
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: penalty 150.0 ms [149.3, 150.4]"
	# (was: "checker hung (an assessment that never answers): exit 4, as a hang")
	# sudo killall syspolicyd, then a reboot
	sick health-wedged 4
	assert_line --index 0 --regexp "^checker: hung — Calculator's assessment did not answer within 1 s; .* up 42\.1 days;"
	assert_line --regexp '^relief: 1\. sudo killall syspolicyd '
	assert_line --regexp '^relief: 2\. restart the Mac — a reboot '
}

@test "advise --health's lines; the simulator's exhausted and storm: settings, bad values, simulated record" {
	# (was: "advise --health: the state and its figures as conditions lines")
	# a file that is no record is one line, exit 2
	run_both -0 env PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/health-storm" EXECLAG_LOG="$FAKES/bin/log" \
		sh "$ROOT/scripts/probe/health" --out "$BATS_TEST_TMPDIR/h.tsv" --bound 20
	run_sep "$BIN/advise" --health "$BATS_TEST_TMPDIR/h.tsv"
	assert_success
	assert_line --index 0 "checker.state=storm"
	assert_line "checker.record=machine"
	assert_line "checker.why=rate"
	assert_line "checker.rate=440.0"
	assert_line "checker.driver=/Applications/Codex.app/Contents/MacOS/Codex"
	echo "not a record" >"$BATS_TEST_TMPDIR/x"
	run_sep "$BIN/advise" --health "$BATS_TEST_TMPDIR/x"
	assert_failure 2
	assert_equal "$stderr" "advise: $BATS_TEST_TMPDIR/x is not a health record (its first line is not 'execlag-health<TAB>1')"
	run_sep "$BIN/advise" --health "$BATS_TEST_TMPDIR/x" --doctor
	assert_failure 2
	assert_equal "$stderr" "advise: --health goes alone (try --help)"
	# (was: "the simulator's exhausted and storm are settings: described where set, one line on a bad value")
	run_both -0 "$BIN/launch" --launcher 'sim:exhausted=1 storm=300' --describe
	assert_output --regexp ' exhausted=1 storm=300$'
	run_both -0 "$BIN/launch" --launcher 'sim:exhausted=0 storm=0' --describe
	refute_output --partial exhausted
	refute_output --partial storm
	run_sep "$BIN/launch" --launcher 'sim:exhausted=yes' --describe
	assert_failure 2
	assert_equal "$stderr" "launch: sim exhausted 'yes' is not 0 or 1"
	run_sep "$BIN/launch" --launcher 'sim:storm=1.5' --describe
	assert_failure 2
	assert_equal "$stderr" "launch: sim storm '1.5' is not a whole number of lines a second from 0 to 100000"
	run_sep "$BIN/launch" --launcher spawn --health "$BATS_TEST_TMPDIR/h"
	assert_failure 2
	assert_equal "$stderr" "launch: --health needs a sim:SETTINGS launcher: a real checker's health is scripts/probe/health's to read"
	# (was: "the simulated record says it is simulated: exhausted refuses the assessment, storm names its driver")
	run_both -0 "$BIN/launch" --launcher 'sim:seed=7 exhausted=1 storm=300' --health "$BATS_TEST_TMPDIR/h.tsv"
	file_lines "$BATS_TEST_TMPDIR/h.tsv"
	lines=("${flines[@]}")
	assert_line --index 0 "execlag-health	1"
	assert_line --regexp '^simulated	sim:latency=0 .* seed=7 .* exhausted=1 storm=300$'
	assert_line "assess	too-many-open-files"
	assert_line "assess_line	/System/Applications/Calculator.app: Too many open files"
	assert_line "log.syspolicyd_lines	18000"
	assert_line "log.top_program	/Applications/Simulated Driver.app/Contents/MacOS/Simulated Driver"
	run_both -0 "$BIN/advise" --health "$BATS_TEST_TMPDIR/h.tsv"
	assert_line --index 0 "checker.state=exhausted"
	assert_line "checker.record=simulated"
	assert_line "checker.why=assess-emfile,rate"
}

# ---- the sick checker on the simulator (exhausted=1, storm=R) ------------------------------

@test "make doctor LAUNCHER='sim:… exhausted=1' (Error 5), 'storm=300' (exit 6): relief, the driver named" {
	# (was: "make doctor LAUNCHER='sim:… exhausted=1': exit 5, every launch refused, the relief, make's Error 5")
	# one run, through make: the doctor's lines pass through it as they
	# are, its exit status is make's "Error 5", and make's line is the
	# only one on stderr (the doctor's own is empty)
	run_sep make -s -C "$ROOT" doctor LAUNCHER="$SIM150 exhausted=1"
	assert_equal "$status" 2
	[[ "$stderr" == *"doctor] Error 5" ]] || fail "stderr: $stderr"
	assert_equal "${#stderr_lines[@]}" 1
	assert_line --index 0 "checker: exhausted — SIMULATED (the model's record, not this machine's): Calculator's assessment answered \"Too many open files\"; its log's last 60 s: 0.0 lines a second not the kit's (the baseline 1.0)"
	assert_line --regexp '^probe: new programs \(exe\), each to be launched twice, one at a time: none ran \(too few successful pairs \(0\)'
	assert_line --regexp '^cause: the checker is sick, not slow: syspolicyd is out of file descriptors \(exhausted\).*\(the simulator.s record, not this machine.s\)\.$'
	assert_line "relief: none needed here: the simulator's checker is sick on purpose; on a Mac the reports' relief is:"
	assert_line --regexp "^relief: 1\. restart the checker's services: sudo killall syspolicyd trustd"
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: unclear — ? ms [?, ?]: the checker first (the relief above), then make doctor again"
	refute_line --partial "Developer Tools ›"
	# (was: "make doctor LAUNCHER='sim:… storm=300': exit 6, the driver named, the penalty still measured")
	local drv='/Applications/Simulated Driver.app/Contents/MacOS/Simulated Driver'
	run_sep sh "$DOCTOR" --launcher "$SIM150 storm=300"
	assert_equal "$status" 6
	assert_line --index 0 "checker: storm — SIMULATED (the model's record, not this machine's): Calculator's assessment answered at once: accepted; its log's last 60 s: 300.0 lines a second not the kit's (the baseline 1.0); named most: $drv (18000 lines)"
	assert_line --regexp "^relief: 1\. quit the program driving the checker.*\(here: $drv\) — no administrator's password, no reboot"
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: penalty 150.0 ms [149.3, 150.4]"
	run_sep sh "$DOCTOR" --launcher "$SIM150 storm=50"
	assert_equal "$status" 1
	assert_line --index 0 --regexp '^checker: well — .* 50\.0 lines a second not the kit.s'
}

# a health check whose log show never ends (a fake log that sleeps): the
# doctor's watchdog stops the probe while the record is still being read,
# says so first, and what it started ends within the log's own bound (9 s)
@test "make doctor whose health check does not end: stopped at its bound, checker unknown, exit 3" {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\nexec sleep %s\n' "295.5$$" >"$BATS_TEST_TMPDIR/bin/log"
	chmod +x "$BATS_TEST_TMPDIR/bin/log"
	run_sep env PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/m1-online" \
		EXECLAG_LOG="$BATS_TEST_TMPDIR/bin/log" EXECLAG_DOCTOR_PROBE_S=6 sh "$DOCTOR"
	assert_equal "$status" 3
	assert_line --index 0 "checker: unknown — its health (ps, Calculator's assessment bounded at 3 s, the log's last minute) was not read within 6 s"
	assert_line "probe: stopped before its programs were made, nothing kept, nothing launched."
	assert_equal "${lines[${#lines[@]} - 1]}" "verdict: unclear — the probe did not finish within 6 s"
	# waited for up to 15 s (wait_gone: pgrep once, then /proc, no
	# process a look)
	wait_gone "sleep 295.5$$\$" 150
	run_both -1 pgrep -f "sleep 295.5$$\$"
}
