#!/usr/bin/env bats
# The Mac user's paths as the docs give them (issue 36): every command line
# of the sh blocks in README.md, docs/workshop.md and docs/feedback.md, in
# that order, run as written on a stand-in Mac: the macOS fakes
# (tests/fakes, an M1 on Wi-Fi whose terminal is not a Developer Tool) and
# the seeded simulator in place of the checker (LAUNCHER in the
# environment, as `make` exports it; a line's own LAUNCHER= wins).  Where
# the text asks the reader to change a setting, the fakes change as that
# change would, and the simulator with them: Wi-Fi off (route answers "not
# in table") for the run that follows and on again after it; the Developer
# Tools switch (devtools answers "authorized", the simulator's exempt=1)
# from then on.  Each line runs with the Mac's shells where
# ../shared/macsim/run can give them (root, Linux); elsewhere with this
# machine's sh, and a line timed with the shell's time keyword (zsh and a
# Mac's sh have one; dash has none) is listed as not run, saying so.
#
# What is substituted, and said: the environment gives CASES=exe,script
# THREADS=1 COUNT=6 (a line's own settings win) so that a run takes
# seconds; /tmp/ in a line is this test's own folder (the machine's /tmp is
# shared); the lines run in a copy of the kit (its own results/ and
# workshop/).  Lines that cannot run here are listed with the reason:
# Linux's lines (sudo, the gate, "# Linux", "# no root" and the guide's
# Linux passages), placeholders (<run>), the reader's own project (cargo),
# the kit's own test suite, a macOS command the kit has no fake for.
# Every line and its fate is printed (# lines on fd 3).

load test_helper/common-setup

# doc_lines FILE: "LINE<TAB>BLOCK<TAB>COMMAND" for every line of FILE's sh
# blocks (BLOCK: the block's number; one block runs in one shell, as one
# pasted into a new terminal), "LINE<TAB>-<TAB>@offline", "@online",
# "@exempt" where the prose asks for the change, and "@linux COMMAND" for
# a line of a Linux passage.
doc_lines() {
	awk '
		/^\*\*Linux/ || /^### Linux/ || /^### No root/ || /^\(On Linux/ { linux = 1 }
		/^\*\*The kit/ || /^\*\*Going offline/ || /^\*\*The exemption/ || /^\*\*Look for/ || /^##/ {
			if ($0 !~ /^\*\*Linux/ && $0 !~ /^### (Linux|No root)/) linux = 0
		}
		/^```/ { sh = !inblock && $0 == "```sh"; inblock = !inblock; b++; next }
		!inblock && /Turn Wi-Fi off/ { printf "%d\t-\t@offline\n", NR }
		!inblock && /Turn Wi-Fi back on/ { printf "%d\t-\t@online\n", NR }
		!inblock && /Developer Tools, switch$/ { printf "%d\t-\t@exempt\n", NR }
		inblock && sh && $0 !~ /^[[:space:]]*$/ { printf "%d\t%d\t%s%s\n", NR, b, linux ? "@linux " : "", $0 }
	' "$1"
}

# why_not COMMAND FILE: why, why a line cannot run here ("" when it can)
# (a variable, not $(why_not ...): a fork of the test's shell a line).
why_not() {
	why=""
	case $2:$1 in
	README.md:*"make aggregate DIR=workshop"*) why="needs the workshop/ folder the organiser gathers: docs/workshop.md's hand-in makes it, and runs this line there"; return ;;
	esac
	case $1 in
	@linux*) why="a Linux attendee's line (the guide's Linux passage)" ;;
	*"# no root"*) why="Linux without root: the simulator's path" ;;
	*"# Linux"* | sudo\ * | *GATE=* | *micro/bin/gate*) why="Linux: the calibration gate (root, fanotify)" ;;
	*"<"*">"*) why="a placeholder (<...>) the reader fills in" ;;
	*cargo\ test*) why="needs the reader's own project (cargo, ~/src/app)" ;;
	"make test"*) why="the kit's own suite, a contributor's line (this test is part of it)" ;;
	xcode-select*) why="a macOS command the kit does not read: no fake" ;;
	time\ *) [ "$TIME_KEYWORD" = 1 ] ||
		why="times with the shell's time keyword, which the Mac's shells have (zsh; sh, bash 3.2) and this machine's sh has not (dash has none): ../shared/macsim/run gives the Mac's" ;;
	*CLASSES=P,E*) why="P and E cores: launch binds to this machine's own core classes, which no fake changes (the guide: exercise 5 has no simulated form)" ;;
	*) ;;
	esac
}

setup_file() {
	_common_setup
	export DP="$BATS_FILE_TMPDIR/dp"
	local K="$DP/kit" S="$DP/state"
	mkdir -p "$K" "$DP/tmp" "$DP/home" "$DP/out"
	make -s -C "$ROOT" build >/dev/null
	# a copy of the kit: its own results/ and workshop/ (times kept: no rebuild)
	(cd "$ROOT" && tar -cf - --exclude=./.git --exclude=./.cache --exclude=./results --exclude=./workshop .) |
		(cd "$K" && tar -xpf -)
	[ ! -d "$ROOT/.cache/jansson" ] || { mkdir -p "$K/.cache" && cp -Rp "$ROOT/.cache/jansson" "$K/.cache/"; }
	# an M1 on Wi-Fi whose terminal is not a Developer Tool
	cp -R "$ROOT/tests/fakes/states/m1-online" "$S"
	printf 'denied\n' >"$S/devtools.out"
	local macsim=""
	if [ -x "$ROOT/../shared/macsim/run" ] && [ "$(id -u)" = 0 ] &&
		! make --version 2>/dev/null | head -n 1 | grep -q ' 3\.81$'; then
		macsim="$ROOT/../shared/macsim/run"
	fi
	# the block's shell: has it the time keyword of the Mac's shells?
	TIME_KEYWORD=0
	$macsim sh -c 'time (:)' >/dev/null 2>&1 && TIME_KEYWORD=1
	export TIME_KEYWORD
	local lat="sim:latency=150 workers=1 key=inode seed=7" f line blk cmd why cur="" script="" lines="" nsteps=0 pending=0
	: >"$DP/steps.tsv"
	: >"$DP/status"
	: >"$DP/driver"
	export S macsim
	# (without bats' DEBUG trap: some 3,000 commands of this shell)
	kit_untraced plan_driver
	# every block, and the settings changed between them, in order, in one
	# shell under the Mac's shells (one ../shared/macsim/run, not one a
	# block); then each line's status in its row (the last status it
	# wrote, "-" for none)
	# (ROOT, S and DP exported: the driver names them)
	$macsim sh "$DP/driver" || :
	awk -F '\t' -v OFS='\t' -v sf="$DP/status" '
		BEGIN { while ((getline l < sf) > 0) { split(l, a, " "); st[a[1]] = a[2] } }
		$3 == "ran" { $4 = ($2 in st ? st[$2] : "-") } { print }' "$DP/steps.tsv" >"$DP/steps.new"
	mv "$DP/steps.new" "$DP/steps.tsv"
}

# plan_driver: setup_file's plan, file by file, line by line (its
# variables are setup_file's): the driver's blocks and settings, and
# steps.tsv's rows
plan_driver() {
	local f line blk cmd
	for f in README.md docs/workshop.md docs/feedback.md; do
		while IFS=$'\t' read -r line blk cmd; do
			[ "$blk" = "$cur" ] || run_block
			cur=$blk
			# (a setting is a line of the driver, run between the blocks)
			# shellcheck disable=SC2016 # the driver expands them
			case $cmd in
			@offline)
				printf '%s\n' 'rm -f "$S/route.out"
cp "$ROOT/tests/fakes/states/intel-offline/route.err" "$ROOT/tests/fakes/states/intel-offline/route.rc" "$ROOT/tests/fakes/states/intel-offline/scutil.out" "$S/"' >>"$DP/driver"
				printf '%s\t%s:%s\tset\t-\tWi-Fi off: route answers "not in table", scutil --nwi reaches nothing (the intel-offline fakes)\n' - "$f" "$line" >>"$DP/steps.tsv"
				nsteps=$((nsteps + 1))
				continue ;;
			@online)
				printf '%s\n' 'rm -f "$S/route.err" "$S/route.rc"
cp "$ROOT/tests/fakes/states/m1-online/route.out" "$ROOT/tests/fakes/states/m1-online/scutil.out" "$S/"' >>"$DP/driver"
				printf '%s\t%s:%s\tset\t-\tWi-Fi on again\n' - "$f" "$line" >>"$DP/steps.tsv"
				nsteps=$((nsteps + 1))
				continue ;;
			@exempt)
				printf '%s\n' 'printf '"'"'authorized\n'"'"' >"$S/devtools.out"' >>"$DP/driver"
				lat="sim:latency=150 workers=1 key=inode exempt=1 seed=7"
				printf '%s\t%s:%s\tset\t-\tDeveloper Tools on: devtools answers authorized, the simulator exempt=1\n' - "$f" "$line" >>"$DP/steps.tsv"
				nsteps=$((nsteps + 1))
				continue ;;
			esac
			why_not "$cmd" "$f"
			if [ -n "$why" ]; then
				printf '%s\t%s:%s\tnot run\t-\t%s — %s\n' - "$f" "$line" "${cmd#@linux }" "$why" >>"$DP/steps.tsv"
				nsteps=$((nsteps + 1))
				continue
			fi
			# (by the shell: a sed and two forks a line)
			cmd=${cmd//\/tmp\//$DP/tmp/}
			script="$script$cmd
printf '%s %s\\n' '$f:$line' \"\$?\" >>'$DP/status'
"
			lines="$lines$line	$f	$cmd
"
			pending=$((pending + 1))
		done <<EOF
$(doc_lines "$ROOT/$f")
EOF
		run_block
	done
}

# run_block: the pending lines of one block (script, lines), to be run in
# one shell, as a reader pastes a block (the driver runs it, after the
# settings before it); each line's status goes to status; one row a line
# to steps.tsv, its status filled in when the driver has run; nsteps
# counts the rows.
run_block() {
	[ -n "$script" ] || return 0
	local n=$((nsteps + 1))
	printf '%s' "$script" >"$DP/out/$n.sh"
	# (the LAUNCHER settings hold no quote)
	printf '%s\n' "(cd \"\$DP/kit\" && env -u RESULTS -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH=\"\$ROOT/tests/fakes/bin:\$PATH\" \\
	FAKE_STATE=\"\$S\" HOME=\"\$DP/home\" EXECLAG_DEVTOOLS=\"\$ROOT/tests/fakes/bin/devtools\" \\
	TMPDIR=\"\$DP/tmp\" LAUNCHER='$lat' CASES=exe THREADS=1 COUNT=6 \\
	sh \"\$DP/out/$n.sh\" >\"\$DP/out/$n.log\" 2>&1 </dev/null) || :" >>"$DP/driver"
	printf '%s' "$lines" | awk -v n="$n" '
		{ l = $0; i = index(l, "\t"); line = substr(l, 1, i - 1); l = substr(l, i + 1)
		  i = index(l, "\t"); printf "%s\t%s:%s\tran\t?\t%s\n", n, substr(l, 1, i - 1), line, substr(l, i + 1) }' >>"$DP/steps.tsv"
	nsteps=$((nsteps + pending))
	script="" lines="" pending=0
}

setup() {
	_common_setup
}

# report_steps: steps.tsv's rows on fd 3, each line's fate; ran and not,
# the counts of lines that ran and could not; bad, the rows of lines that
# ran and ended otherwise than the docs lead one to expect (not 0, nor
# make doctor's or make feedback's 2), one a line; doctors, the blocks of
# the make doctor lines that ran
report_steps() {
	local n where what st text
	ran=0 not=0 bad="" doctors=""
	while IFS=$'\t' read -r n where what st text; do
		case $what in
		ran)
			echo "# ran      $where (exit $st): $text" >&3
			ran=$((ran + 1))
			case $st:$text in
			0:* | "2:make doctor"* | "2:make feedback"*) ;;
			*) bad="$bad${bad:+$'\n'}$n	$where	$what	$st	$text" ;;
			esac
			case $text in "make doctor"*) doctors="$doctors $n" ;; esac
			;;
		set) echo "# set      $where: $text" >&3 ;;
		*)
			echo "# not run  $where: $text" >&3
			[ "$what" != "not run" ] || not=$((not + 1))
			;;
		esac
	done <"$DP/steps.tsv"
}

# status_of TEXT: the exit status of the first line run that holds TEXT.
status_of() {
	awk -F '\t' -v t="$1" '$3 == "ran" && index($5, t) { print $4; exit }' "$DP/steps.tsv"
}
log_of() {
	awk -F '\t' -v t="$1" '$3 == "ran" && index($5, t) { print $1; exit }' "$DP/steps.tsv"
}

@test "every command line a Mac user meets in the docs, in order: which ran, which could not and why" {
	local n ran not bad doctors
	# the report (bats shows fd 3), and what the checks below read of it
	# (one pass of the shell, without bats' DEBUG trap: no awk, no wc)
	kit_untraced report_steps
	echo "# $ran lines ran, $not could not" >&3
	# the first screen, the workshop's Mac lines and the feedback doc are all in it
	[ "$ran" -ge 25 ] || fail "only $ran lines ran"
	grep -q "README.md:[0-9]*	ran	[0-9]*	make doctor" "$DP/steps.tsv"
	grep -q "docs/workshop.md:[0-9]*	ran	[0-9]*	make repro TAG=ex6off" "$DP/steps.tsv"
	grep -q "docs/feedback.md:[0-9]*	ran	[0-9]*	make feedback" "$DP/steps.tsv"
	# every line that ran ended as the docs lead one to expect: 0, or the
	# doctor's documented verdict exit (1: a penalty, which make reports as
	# its own 2, the log ending in the verdict line), or feedback's refusal
	# of a simulated run (2)
	for n in $doctors; do
		grep -q '^verdict: penalty' "$DP/out/$n.log" || fail "make doctor (block $n) gave no penalty verdict"
	done
	[ -z "$bad" ] || fail "lines that failed: $bad (logs in $DP/out)"
}

@test "the workshop's Mac path: the settings it asks for reach the runs, and each compare has its A and B" {
	local K="$DP/kit"
	# the offline run was made offline, the exemption's run with it, ex2 without
	grep -q '^network=offline' "$K"/results/*-ex6off/conditions.txt
	grep -q '^devtools=authorized' "$K"/results/*-ex6/conditions.txt
	grep -q '^devtools=denied' "$K"/results/*-ex2/conditions.txt
	assert_equal "$(status_of 'make compare A=ex2 B=ex6off')" 0
	assert_equal "$(status_of 'make compare A=ex2 B=ex6')" 0
	# the hand-in and the leader's table
	[ -f "$K/workshop/seat07/run.json" ]
	assert_equal "$(status_of 'make aggregate DIR=workshop')" 0
	# exercise 4's by-hand block stands alone (no $d from exercise 3); its
	# time lines need a shell with the time keyword, else they are listed
	# as not run, saying why
	if [ "$TIME_KEYWORD" = 1 ]; then
		assert_equal "$(status_of 'time (for i in 1 2 3 4 5 6 7 8; do "$d/p$i" & done; wait)')" 0
	else
		assert_equal "$(status_of 'for i in 1 2 3 4 5 6 7 8; do cp "$d/x" "$d/s$i"')" 0
		grep -q "not run	-	time (for i in 1 2 3 4 5 6 7 8; do \"\$d/p\$i\" & done; wait).* — times with the shell's time keyword" "$DP/steps.tsv" ||
			fail "the time lines are not listed as not run, with the reason"
	fi
}

@test "make feedback on the simulated runs refuses them, saying so (a simulated run is never filed)" {
	local n
	n=$(log_of 'make feedback RUN=ex2')
	[ -n "$n" ] || fail "make feedback RUN=ex2 did not run"
	grep -qi 'simulat' "$DP/out/$n.log"
}
