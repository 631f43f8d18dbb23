#!/usr/bin/env bats
# make feedback / scripts/feedback: a redacted archive and a feedback.txt
# with the run's own numbers. The fixture run (tests/fixtures/feedback)
# carries a known user, full name, host and computer name, home path,
# serial and hardware UUID in conditions.txt, report.md, run.json, a log
# excerpt and a file name; the fakes (tests/fakes/states/mac-identity) say
# the same values are this machine's.  The programs it runs, alone:
# tests/redact.bats, tests/fbtext.bats; the identity fakes: tests/fakes.bats.

load test_helper/common-setup
load test_helper/gen-stream
load test_helper/quickrun

FAKES_REL=tests/fakes

# The values the mac-identity state and HOME stand for.
SECRETS=(jappleseed "John Appleseed" Johns-MacBook-Pro "John’s MacBook Pro"
	/Users/jappleseed C02XK0AAJGH5 0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9)

# make_run DIR FIXTURE: a finished run (analyze on a copy of the fixture).
make_run() {
	mkdir -p "${1%/*}"
	cp -R "$ROOT/tests/fixtures/feedback/$2" "$1"
	"$ROOT/micro/bin/analyze" --run "$1" --quiet
}

# with_fakes STATE CMD...: run CMD with the fakes of STATE first on PATH,
# HOME=/Users/jappleseed and a private TMPDIR.
with_fakes() {
	local state=$1
	shift
	env PATH="$ROOT/$FAKES_REL/bin:$PATH" FAKE_STATE="$STATE_DIR/$state" \
		HOME=/Users/jappleseed USER=jappleseed LOGNAME=jappleseed TMPDIR="$TMPDIR" "$@"
}

setup_file() {
	local root="$BATS_TEST_DIRNAME/.."
	interrupt_tests_alone
	make -C "$root" -s build >/dev/null
	export STATE_DIR="$root/$FAKES_REL/states"
	export MAIN="$BATS_FILE_TMPDIR/results/20260301T101500Z-f33dba"
	export MAIN_TMP="$BATS_FILE_TMPDIR/tmp"
	# the tests' own TMPDIRs (setup) too, in one mkdir
	mkdir -p "$MAIN_TMP" "$BATS_FILE_TMPDIR/t/"{1..60}
	ROOT=$root TMPDIR=$MAIN_TMP make_run "$MAIN" mac-run
	ROOT=$root TMPDIR=$MAIN_TMP with_fakes mac-identity \
		make -s --no-print-directory -C "$root" feedback RUN="$MAIN" \
		>"$BATS_FILE_TMPDIR/make.out" 2>"$BATS_FILE_TMPDIR/make.err"
	echo $? >"$BATS_FILE_TMPDIR/make.rc"
	export MAIN_DATE
	MAIN_DATE=$(date -u +%Y-%m-%d)
	# the glued run's feedback as zzqxuser (glued_run below), unpacked: the
	# tests of the user name and of the host names read the same one
	local g="$BATS_FILE_TMPDIR/glued"
	mkdir -p "$g/tmp"
	ROOT=$root BIN=$root/micro/bin glued_run "$g/zz-run" "$g/zz" zzqxuser
	env PATH="$root/$FAKES_REL/bin:$PATH" FAKE_STATE="$g/zz" HOME=/Users/jappleseed USER=zzqxuser LOGNAME=zzqxuser \
		TMPDIR="$g/tmp" sh "$root/scripts/feedback" --run "$g/zz-run" >"$g/out" 2>&1 &&
		echo 0 >"$g/rc" || echo $? >"$g/rc"
	mkdir -p "$g/x"
	tar -xzf "$g/zz-run/feedback/"*.tar.gz -C "$g/x" 2>>"$g/out" && echo 0 >"$g/tar.rc" || echo $? >"$g/tar.rc"
}

# glued_feedback: the file's feedback of the glued run (setup_file): its
# run in d, what it unpacked to in x; it must have succeeded
glued_feedback() {
	local g="$BATS_FILE_TMPDIR/glued"
	d="$g/zz-run" x="$g/x"
	local rc tarrc
	read -r rc <"$g/rc"
	read -r tarrc <"$g/tar.rc"
	[ "$rc" = 0 ] || fail "feedback of the glued run failed: $(cat "$g/out")"
	[ "$tarrc" = 0 ] || fail "cannot unpack the glued run's archive: $(cat "$g/out")"
}

setup() {
	_common_setup
	# bats-assert's output checks and this file's readers without bats'
	# DEBUG trap (a command of theirs a line of feedback.txt; kit_setup
	# has done assert_line and refute_line)
	kit_untraced kit_untrace "$BATS_TEST_TMPDIR/.untrace" assert_output refute_output \
		read_out text_range grep_h assert_empty_dir refute_secrets wait_for stop_feedback
	# (made for every test at once by setup_file: a mkdir a test saved)
	export TMPDIR="$BATS_FILE_TMPDIR/t/$BATS_TEST_NUMBER"
	[ -d "$TMPDIR" ] || mkdir -p "$TMPDIR"
	ARCHIVE="$MAIN/feedback/execlag-$MAIN_DATE.tar.gz"
	TEXT="$MAIN/feedback/feedback.txt"
}

# read_out FILE: output and lines as `run -0 cat FILE` sets them, by the
# shell's read (a run and a cat are two processes)
read_out() {
	[ -f "$1" ] && [ -r "$1" ] || fail "cannot read $1"
	status=0 output=""
	IFS= read -r -d '' output <"$1" || true
	while [ "${output%$'\n'}" != "$output" ]; do output=${output%$'\n'}; done
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
}

# text_range FIRST LAST: output and lines as `run -0 sed -n '/FIRST/,/LAST/p'
# "$TEXT"` sets them (FIRST and LAST extended regular expressions, as bash's
# [[ =~ ]] takes them), by the shell's read: a range from each line FIRST
# matches to the next line LAST matches, both kept
text_range() {
	local l in=0 out=""
	while IFS= read -r l || [ -n "$l" ]; do
		if [ $in = 1 ]; then
			out=$out$l$'\n'
			[[ $l =~ $2 ]] && in=0
		elif [[ $l =~ $1 ]]; then
			out=$out$l$'\n'
			in=1
		fi
	done <"$TEXT"
	status=0 output=$out
	while [ "${output%$'\n'}" != "$output" ]; do output=${output%$'\n'}; done
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
}

# grep_h ERE FILE...: output and lines as `run -0 grep -h -E ERE FILE...`
# sets them (the lines that match, file by file), by the shell's read (as
# bash's [[ =~ ]] takes ERE); a failure where no line matches, as -0 fails
grep_h() {
	local re=$1 f l out=""
	shift
	for f in "$@"; do
		[ -r "$f" ] || fail "cannot read $f"
		while IFS= read -r l || [ -n "$l" ]; do
			[[ $l =~ $re ]] && out=$out$l$'\n'
		done <"$f"
	done
	[ -n "$out" ] || fail "no line matches /$re/ in $*"
	status=0 output=${out%$'\n'}
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
}

# assert_empty_dir DIR: DIR holds nothing, hidden files neither (as
# `find DIR -mindepth 1` prints nothing; by globs, not a process)
assert_empty_dir() {
	local f
	for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		if [ -e "$f" ] || [ -L "$f" ]; then
			fail "$1 is not empty: $(find "$1" -mindepth 1)"
		fi
	done
}

# unpack ARCHIVE DIR: the archive's files under DIR.
unpack() {
	mkdir -p "$2"
	tar -xzf "$1" -C "$2" || fail "cannot unpack $1"
}

# refute_secrets DIR-or-FILE: no secret in any file's contents or name
# (any case).  One grep and one find for all of them (a process each is
# what costs here); only when one is found, a look at each names it.
refute_secrets() {
	local s hits pats=()
	for s in "${SECRETS[@]}"; do pats+=(-e "$s"); done
	if grep -r -q -F -i "${pats[@]}" -- "$1" || find "$1" | grep -q -F -i "${pats[@]}"; then
		for s in "${SECRETS[@]}"; do
			hits=$(grep -r -l -F -i -- "$s" "$1" || true)
			[ -z "$hits" ] || fail "'$s' is still in: $hits"
			hits=$(find "$1" | grep -F -i -- "$s" || true)
			[ -z "$hits" ] || fail "'$s' is still in a file name: $hits"
		done
		fail "an identifying value is still in $1"
	fi
}

# start_feedback DIR [ENV...]: scripts/feedback on DIR in the background
# with the mac-identity fakes (and ENV), its own process group (set -m: job
# control, so it does not start with SIGINT ignored); FB_PID is its id.
start_feedback() {
	local d=$1
	shift
	set -m
	env PATH="$ROOT/$FAKES_REL/bin:$PATH" FAKE_STATE="$STATE_DIR/mac-identity" HOME=/Users/jappleseed \
		USER=jappleseed LOGNAME=jappleseed TMPDIR="$TMPDIR" "$@" sh "$ROOT/scripts/feedback" --run "$d" \
		>"$BATS_TEST_TMPDIR/fb.out" 2>"$BATS_TEST_TMPDIR/fb.err" &
	FB_PID=$!
	set +m
}

# nap: wait a tenth of a second, by bash's read -t on a FIFO nobody writes
# (bash 4 takes a fraction; a sleep is a process, and the loops below wait
# some tens of times a test), else by sleep 0.1 (bash 3.2, a Mac's).
nap() {
	if [ "${BASH_VERSINFO[0]}" -ge 4 ]; then
		if [ -z "${NAP_OPEN:-}" ]; then
			mkfifo "$BATS_TEST_TMPDIR/.nap"
			exec 7<>"$BATS_TEST_TMPDIR/.nap"
			NAP_OPEN=1
		fi
		read -r -t 0.1 -u 7 _ || :
	else
		sleep 0.1
	fi
}

# stop_feedback SIGNAL: send SIGNAL to feedback and wait for it to end,
# at most 60 s (a bound for "at once", not a timing: a redaction left to
# finish takes minutes); FB_RC is its status. Nothing of its group may be
# left running.
stop_feedback() {
	local i=0
	kill "-$1" "$FB_PID"
	while kill -0 "$FB_PID" 2>/dev/null && [ $i -lt 600 ]; do
		nap
		i=$((i + 1))
	done
	if kill -0 "$FB_PID" 2>/dev/null; then
		kill -KILL -- "-$FB_PID" 2>/dev/null
		fail "feedback did not end within 60 s of SIG$1"
	fi
	FB_RC=0
	wait "$FB_PID" || FB_RC=$?
	# what feedback stopped may take a moment to go: its group must be
	# gone within 10 s (a bound, not a timing)
	i=0
	while kill -0 -- "-$FB_PID" 2>/dev/null && [ $i -lt 100 ]; do
		nap
		i=$((i + 1))
	done
	if kill -0 -- "-$FB_PID" 2>/dev/null; then
		kill -KILL -- "-$FB_PID" 2>/dev/null
		fail "a process of feedback is still running after SIG$1"
	fi
}

# wait_for PATTERN: wait (at most 60 s) until a file matching the glob
# PATTERN exists.
wait_for() {
	local i=0 f
	while [ $i -lt 600 ]; do
		for f in $1; do
			[ -e "$f" ] && return 0
		done
		nap
		i=$((i + 1))
	done
	kill -KILL -- "-$FB_PID" 2>/dev/null
	fail "no $1 within 60 s"
}

# (the tests that read the one run of setup_file, its output and its archive, one test)
@test "make feedback's run: the values in the fixture; the archive, feedback.txt, none of the values left" {
	# (was: "the fixture run holds every identifying value; make feedback leaves no temporary files behind")
	# (was: "the fixture run really holds the user, host, home path, serial and UUID everywhere")
	local s missing all
	# one awk over the four files: each FILE VALUE pair it lacks (any case)
	# (the values through the environment: BWK awk takes no newline in -v)
	printf -v all '%s\n' "${SECRETS[@]}"
	missing=$(cd "$MAIN" && FB_ALL="${all%$'\n'}" awk '
		BEGIN { n = split(tolower(ENVIRON["FB_ALL"]), v, "\n"); m = split("/users/jappleseed johns-macbook-pro c02xk0aajgh5", w, " ") }
		FNR == 1 { files[++nf] = FILENAME }
		{ l = tolower($0)
		  for (i = 1; i <= m; i++) if (index(l, w[i])) seen[FILENAME, w[i]] = 1
		  if (FILENAME == "conditions.txt") for (i = 1; i <= n; i++) if (index(l, v[i])) seen[FILENAME, v[i]] = 1 }
		END {
			for (f = 1; f <= nf; f++) for (i = 1; i <= m; i++)
				if (!((files[f], w[i]) in seen)) print files[f] " lacks " w[i] ": the redaction would do no work"
			for (i = 1; i <= n; i++) if (!(("conditions.txt", v[i]) in seen)) print "conditions.txt lacks " v[i]
		}' conditions.txt report.md run.json raw/exe-t1-all.log.ndjson)
	[ -z "$missing" ] || fail "$missing"
	[ -f "$MAIN/raw/jappleseed-notes.services.txt" ]
	# (was: "nothing is left behind: no temporary files in TMPDIR or the run folder")
	assert_empty_dir "$MAIN_TMP"
	run_both find "$MAIN" -name '.*'
	assert_output ""
	# (was: "make feedback writes its archive and feedback.txt; its files, as make check EXERCISE=7 counts them")
	# (was: "make feedback writes its archive and feedback.txt in the run's feedback folder; the archive's files")
	# make feedback writes execlag-<UTC date>.tar.gz and feedback.txt into the run's feedback folder; the archive holds run.json, report.md, conditions.txt, the plots, the log excerpt, the services file
	# make feedback writes execlag-<UTC date>.tar.gz and feedback.txt into the run's feedback folder
	local rc
	read -r rc <"$BATS_FILE_TMPDIR/make.rc"
	assert_equal "$rc" 0
	read_out "$BATS_FILE_TMPDIR/make.err"
	assert_equal "$output" ""
	[ -s "$ARCHIVE" ] || fail "no $ARCHIVE"
	[ -s "$TEXT" ] || fail "no $TEXT"
	# (what ls -A lists, by a glob: hidden files too)
	local names=("$MAIN/feedback"/* "$MAIN/feedback"/.[!.]* "$MAIN/feedback"/..?*) keep=() nm
	for nm in "${names[@]}"; do [ -e "$nm" ] || [ -L "$nm" ] && keep+=("${nm##*/}"); done
	printf -v output '%s\n' "${keep[@]}"
	output=${output%$'\n'}
	assert_output "execlag-$MAIN_DATE.tar.gz
feedback.txt"
	read_out "$BATS_FILE_TMPDIR/make.out"
	assert_line "feedback: wrote $MAIN/feedback/execlag-$MAIN_DATE.tar.gz and $MAIN/feedback/feedback.txt"
	assert_line "feedback: replaced by placeholders: user name, full name, host name, computer name, home folder, serial number, hardware UUID, machine id"
	assert_equal "${lines[${#lines[@]}-1]}" "feedback: paste feedback.txt into Feedback Assistant and attach the archive and a sysdiagnose"
	# the archive holds run.json, report.md, conditions.txt, the plots, the log excerpt, the services file
	local want=(run.json report.md conditions.txt raw/exe-t1-all.log.ndjson "raw/<user>-notes.services.txt") f svg
	for svg in "$MAIN"/*.svg; do
		[ -e "$svg" ] && want+=("${svg##*/}")
	done
	run_both -0 tar -tzf "$ARCHIVE"
	for f in "${want[@]}"; do
		assert_line "execlag-$MAIN_DATE/$f"
	done
	refute_line --partial feedback.txt
	refute_line --partial samples.tsv
	# (was: "make check EXERCISE=7 counts the archive's files as make feedback lists them (folders are not files)")
	local listed="" l
	# the names it listed, by the shell: a ", " between each two
	while IFS= read -r l; do
		case $l in
		"feedback: archive holds: "*)
			l=${l#feedback: archive holds: }
			l=${l//, /$'\001'}
			l=${l//[!$'\001']/}
			listed=$((${#l} + 1))
			;;
		esac
	done <"$BATS_FILE_TMPDIR/make.out"
	[ "$listed" -ge 5 ]
	run_both env RUN="$MAIN" sh "$ROOT/scripts/check" --exercise 7
	assert_output --partial "execlag-$MAIN_DATE.tar.gz: $listed files"
	# (was: "no identifying value left in the archive or feedback.txt, in any case; placeholders stand for them")
	# no identifying value is left in the archive (contents, file names, tar headers) or in feedback.txt; placeholders stand where the values were, in any case they were written
	# no identifying value is left in the archive: contents, file names or tar headers
	unpack "$ARCHIVE" "$BATS_TEST_TMPDIR/x"
	refute_secrets "$BATS_TEST_TMPDIR/x"
	# (one gzip and one grep for all of them; only when one is found, a
	# look at each names it)
	local s pats=()
	for s in "${SECRETS[@]}"; do pats+=(-e "$s"); done
	if gzip -dc "$ARCHIVE" | grep -a -q -F -i "${pats[@]}"; then
		for s in "${SECRETS[@]}"; do
			if gzip -dc "$ARCHIVE" | grep -a -q -F -i -- "$s"; then
				fail "'$s' is in the raw tar stream"
			fi
		done
		fail "an identifying value is in the raw tar stream"
	fi
	# no identifying value is left in feedback.txt
	refute_secrets "$TEXT"
	# placeholders stand where the values were, in any case they were written
	local d="$BATS_TEST_TMPDIR/x/execlag-$MAIN_DATE"
	read_out "$d/conditions.txt"
	assert_line "terminal=<home>/Applications/iTerm.app"
	assert_line "note.workdir=<home>/src/execlag/work.noindex"
	assert_line "note.machine=<host> (<computer-name>), serial <serial>, UUID <uuid>"
	assert_line "note.owner=<full-name> (<user>)"
	run_both -0 grep -c -F '"eventMessage":"Entering OSX path for <home>/src/execlag/work.noindex/exe-t1-all-0000 on <host> (<serial>)"' "$d/raw/exe-t1-all.log.ndjson"
	read_out "$d/raw/<user>-notes.services.txt"
	assert_line "owner	<full-name>"
	assert_line "machine	<computer-name>"
	# everything else is untouched
	run_both -0 diff <(grep -v -i -e jappleseed -e macbook -e c02xk "$MAIN/run.json") \
		<(grep -v -F -e '<' "$d/run.json" | grep -v -i -e jappleseed -e macbook)
}

# (eleven tests that read the one feedback.txt, one test)
@test "feedback.txt: numbers, title, conditions; Feedback Assistant's parts, sources, reproducer, the kit" {
	# (was: "feedback.txt: each configuration's numbers, a title naming the largest penalty, conditions, queues")
	# feedback.txt carries every configuration's medians, penalty, interval, ratio and verdict; its title and description name the largest penalty with its interval; it carries the conditions and the serialisation of each case
	# feedback.txt carries every configuration's medians, penalty, interval, ratio and verdict
	local rows="" row n=0 all j l name p lo hi first rep dev="" sers="" xp="" ra=""
	# (all this test reads of run.json from one jq, a line each, its kind
	# first: the rows, the largest penalty (the first case with it: sort_by
	# is stable), devtools, each case's serialisation, XProtect's version,
	# the responsible app)
	all=$(jq -r '(.cases[] | .name as $c | .configs[]
		| ["row", $c, .threads, .class, .first.median_ms, .repeat.median_ms,
		   .penalty_ms.median, .penalty_ms.ci_low, .penalty_ms.ci_high, .ratio, .verdict]
		| @tsv),
		([.cases[] | select(.verdict == "slowdown")]
		| sort_by(-.penalty_ms.median) | .[0]
		| ["top", .name, .penalty_ms.median, .penalty_ms.ci_low, .penalty_ms.ci_high,
		   .first_median_ms, .repeat_median_ms] | @tsv),
		"dev\t\(.conditions.devtools)",
		(.cases[] | ["ser", .name, .serialisation] | @tsv),
		"xp\t" + (.conditions.xprotect_version // "" | tostring),
		"ra\t" + (.conditions.responsible_app // "" | tostring)' "$MAIN/run.json") || fail "jq cannot read run.json"
	while IFS=$'\t' read -r j l; do
		case $j in
		row) rows=$rows$l$'\n' ;;
		top) read -r name p lo hi first rep <<<"$l" ;;
		dev) dev=$l ;;
		ser) sers=$sers$l$'\n' ;;
		xp) xp=$l ;;
		ra) ra=$l ;;
		esac
	done <<<"$all"
	rows=${rows%$'\n'}
	# one awk for all rows: each row's pattern, matched against every line
	# (awk formats like C's printf: a double; bash's printf rounds a long double)
	row=$(FB_ROWS="$rows" awk 'BEGIN {
			m = split(ENVIRON["FB_ROWS"], R, "\n")
			for (i = 1; i <= m; i++) {
				split(R[i], x, "\t")
				re[i] = sprintf("^  %s +%s +%s +%.2f +%.2f +%.2f \\[%.2f, %.2f\\] +%.2f +%s$", x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10])
			}
		}
		{ for (i = 1; i <= m; i++) if ($0 ~ re[i]) hit[i] = 1 }
		END { for (i = 1; i <= m; i++) if (!(i in hit)) print "no row /" re[i] "/ in feedback.txt"; print m }' "$TEXT")
	n=${row##*$'\n'}
	[ "$row" = "$n" ] || fail "${row%$'\n'*}"
	assert_equal "$n" 4
	# feedback.txt's title and description name the largest penalty with its interval
	local title penalty
	# (the two lines it should hold from one awk)
	{ IFS= read -r title; IFS= read -r penalty; } < <(awk -v p="$p" -v n="$name" -v f="$first" -v r="$rep" -v lo="$lo" -v hi="$hi" 'BEGIN {
		printf "First launch of a newly created program waits %.2f ms longer than its second launch (%s; %.2f vs %.2f ms) on macOS 14.1.1 (23B2082), MacBookAir10,1\n", p, n, f, r
		printf "  penalty %.2f [%.2f, %.2f] ms (median of first - second for the same file, 95%% interval)\n", p, lo, hi }')
	# (the line after TITLE, as sed -n '/^TITLE$/{n;p;}' prints it)
	text_range '^TITLE$' '.*'
	assert_equal "${lines[0]}" "TITLE"
	output=${output#TITLE}
	output=${output#$'\n'}
	assert_output "$title"
	read_out "$TEXT"
	assert_line "$penalty"
	# feedback.txt carries the conditions and the serialisation of each case
	read_out "$TEXT"
	assert_line "  OS: macOS 14.1.1 (23B2082), kernel 23.1.0, arm64"
	assert_line "  Model: MacBookAir10,1; CPU: Apple M1, 8 logical cores (performance 4, efficiency 4)"
	assert_line "  SIP (csrutil status): enabled"
	assert_line "  Gatekeeper assessments (spctl --status): enabled"
	assert_line "  Developer Tools authorisation of the terminal: $dev"
	assert_line "  Network: online (interface en0, VPN no)"
	local c ser
	[ -z "$sers" ] || while IFS=$'\t' read -r c ser; do
		assert_line --regexp "^- $c \\(.*Serialisation: $ser — "
	done <<<"${sers%$'\n'}"
	# (was: "feedback.txt: Feedback Assistant's parts in order, the workaround, the sysdiagnose first, the area")
	# feedback.txt has every part Feedback Assistant needs, in order; the workaround is the Developer Tools list (spctl only makes Terminal appear there); the sysdiagnose is started before the reproducer; the area is advised honestly
	# feedback.txt has every part Feedback Assistant needs, in order
	# (the lines grep -E '^[A-Z][A-Z ]+( \(public reports\))?$' prints, by the shell)
	local heads="" i
	while IFS= read -r i || [ -n "$i" ]; do
		[[ $i =~ ^[A-Z][A-Z\ ]+(\ \(public\ reports\))?$ ]] && heads=$heads$i$'\n'
	done <"$TEXT"
	output=${heads%$'\n'}
	assert_output "TITLE
AREA
TYPE
DESCRIPTION
STEPS TO REPRODUCE
EXPECTED RESULTS
ACTUAL RESULTS
WORKAROUND
ATTACHMENTS
SOURCES (public reports)"
	read_out "$TEXT"
	assert_line "Incorrect/Unexpected Behavior"
	assert_line "   make repro CASES=exe,exe-hardlink,exe-copy,exe-rewrite THREADS=1 COUNT=6"
	assert_line "   rm -f /tmp/test.sh; echo \$'#!/bin/sh\\necho Hello' > /tmp/test.sh && chmod a+x /tmp/test.sh; time /tmp/test.sh && time /tmp/test.sh"
	assert_line "   rm -f /tmp/test.sh; printf '#!/bin/sh\\necho Hello\\n' > /tmp/test.sh && chmod a+x /tmp/test.sh; time /tmp/test.sh && time /tmp/test.sh"
	assert_output --partial "(\`\$'…'\` is their syntax)"
	assert_line "- execlag-$MAIN_DATE.tar.gz, made by \`make feedback\`: run.json, report.md, conditions.txt, $(cd "$MAIN" && for f in *.svg; do [ -e "$f" ] && printf '%s, ' "$f"; done)raw/exe-t1-all.log.ndjson, raw/<user>-notes.services.txt."
	assert_output --partial "first start a sysdiagnose"
	assert_output --partial "Control-Option-Command-Shift-Period, or run \`sudo sysdiagnose"
	refute_output --partial "NOT FOR FILING"
	# the workaround is the Developer Tools list; spctl only makes Terminal appear there
	text_range '^WORKAROUND$' '^ATTACHMENTS$'
	assert_output --partial "System Settings › Privacy & Security › Developer
Tools"
	assert_output --partial "quit and reopen the terminal"
	assert_output --partial "\`spctl developer-mode enable-terminal\` only
makes Terminal appear in that list"
	# the sysdiagnose is started before the reproducer it should capture, not after
	local s r
	# (the two line numbers from one awk: the first of each)
	read -r s r < <(awk '!s && /first start a sysdiagnose/ { s = NR } !r && /^   rm -f \/tmp\/test\.sh/ { r = NR }
		END { print s + 0, r + 0 }' "$TEXT")
	[ "$s" != 0 ] || s=""
	[ "$r" != 0 ] || r=""
	[ -n "$s" ] && [ -n "$r" ] && [ "$s" -lt "$r" ] || fail "sysdiagnose line $s, reproducer line $r"
	text_range 'Right after reproducing' '^'
	assert_equal "$output" ""
	# the area to pick is advised honestly: no public source names it
	text_range '^AREA$' '^TYPE$'
	assert_line --index 1 --regexp '^macOS, then the area closest to Security or Gatekeeper'
	assert_output --partial "(no public source names the area for this problem; this is the nearest
fit)"
	# (was: "every source in feedback.txt is one the evidence notes list")
	local evidence="$ROOT/../shared/evidence.md" out n
	if [ ! -f "$evidence" ]; then
		echo "# shared/evidence.md is not beside the kit: the sources are not checked" >&3
	else
	# one awk: each source not in the notes (a line of them holds it), and
	# how many sources
	# (the sources as grep -o -E 'https?://[^ ,)]+' finds them: each match on a line, in turn)
	out=$(awk 'FNR == NR { ev = ev $0 "\n"; next }
		{ l = $0
		  while (match(l, /https?:\/\/[^ ,)]+/)) {
			u = substr(l, RSTART, RLENGTH); l = substr(l, RSTART + RLENGTH)
			n++; if (!index(ev, u)) print "not in evidence.md: " u
		  } }
		END { print n + 0 }' "$evidence" "$TEXT")
	n=${out##*$'\n'}
	[ "$out" = "$n" ] || fail "${out%$'\n'*}"
	[ "$n" -ge 5 ] || fail "only $n sources"
	fi
	# (was: "the reproducer in feedback.txt runs as written, in bash and zsh's form and in sh's, again and again")
	if [ -e /tmp/test.sh ]; then
		echo "# /tmp/test.sh is there already, not this test's: it is left alone, the reproducer not run" >&3
	else
	local zshform="" shform="" sh l
	# its two lines, the three spaces before each dropped (by the shell's read)
	while IFS= read -r l; do
		case $l in
		"   rm -f /tmp/test.sh; echo "*) zshform=${l#   } ;;
		"   rm -f /tmp/test.sh; printf "*) shform=${l#   } ;;
		esac
	done <"$TEXT"
	[ -n "$zshform" ] && [ -n "$shform" ] || fail "no reproducer lines in feedback.txt"
	# twice each: the rm -f at its start makes the next try a new file
	for sh in bash "$ROOT/../shared/macsim/bin/bash"; do
		command -v "$sh" >/dev/null || continue
		for i in 1 2; do
			run_sep "$sh" -c "$zshform"
			assert_success
			assert_output "Hello
Hello"
			[[ "$stderr" == *real* ]] || fail "$sh: no time: $stderr"
		done
	done
	for sh in sh bash; do
		for i in 1 2; do
			run_sep "$sh" -c "$shform"
			assert_success
			assert_output "Hello
Hello"
			[ -n "$stderr" ] || fail "$sh: time said nothing"
		done
	done
	read_out /tmp/test.sh
	assert_output "#!/bin/sh
echo Hello"
	rm -f /tmp/test.sh
	fi
	# (was: "feedback.txt names the kit (version, commit), the responsible app, how it started, XProtect")
	# feedback.txt says which kit made it (version and commit, no home page the README does not name); its conditions: the responsible app, how the kit was started, the XProtect version
	# feedback.txt says which kit made it: version and commit, and no home page the README does not name
	read_out "$TEXT"
	local c
	if c=$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null); then
		assert_line --regexp "^1\. With the execlag kit \(execlag 0\.1\.0, commit $c(, with local changes)?(, git remote [^ ]*|, from a local clone)?\), from its folder, the settings of this run:$"
	else
		assert_line "1. With a copy of execlag 0.1.0 (not a git checkout), from its folder, the settings of this run:"
	fi
	if ! grep -q '^Home page: <' "$ROOT/README.md"; then
		run_both -0 sed -n '/^1\. With /p' "$TEXT"
		refute_output --partial "home page"
	fi
	# (what fbtext says given a remote and a home page: tests/fbtext.bats)
	# feedback.txt's conditions: the responsible app, how the kit was started, the XProtect version
	text_range '^Conditions of this run:' '^  Run: '
	assert_line --regexp '^  Responsible app \(its Developer Tools grant applies to what the kit starts\): [^ ].* \(.*\)$'
	assert_line --regexp '^  Started via: [^ ].* \(ssh [a-z]+, multiplexer [^,]+, launchd job [^)]+\)$'
	assert_line --regexp '^  XProtect: version [^ ]+ \(from [^)]+\); launch scans [a-z/]+, background scans [a-z/]+$'
	# and they are the run's own conditions, not fixed words
	# (both from the jq at this test's start)
	[ -z "$xp" ] || grep -q "^  XProtect: version $xp " "$TEXT"
	[ -z "$ra" ] || grep -qF "  Responsible app (its Developer Tools grant applies to what the kit starts): $ra (" "$TEXT"
}

@test "a Linux run is called a Linux control run, not evidence of macOS behaviour, and is redacted too" {
	local run_dir="$BATS_TEST_TMPDIR/results/r" st="$STATE_DIR/linux-identity" s
	# a Linux run as the kit leaves one (tests/fixtures/brief: made by
	# make.sh from sysinfo's conditions on a Linux machine), not one made
	# here: a make repro costs a second and says nothing more of feedback
	mkdir -p "$BATS_TEST_TMPDIR/results"
	cp -R "$ROOT/tests/fixtures/brief/linux-none" "$run_dir"
	printf '%s\n' "note.who=jdoe (Jane Doe) on build-box-17.example.org, /home/jdoe" \
		"note.hw=PF3XK9ZQ 4C4C4544-0042-3510-8051-B7C04F4B4E31 5f2c9a1e0b7d4c3a8e6f1d2b3c4a5e6f" >>"$run_dir/conditions.txt"
	"$BIN/analyze" --run "$run_dir" --quiet
	run_both -0 env PATH="$ROOT/$FAKES_REL/bin:$PATH" FAKE_STATE="$st" EXECLAG_SYSROOT="$st/root" \
		HOME=/home/jdoe USER=jdoe LOGNAME=jdoe sh "$ROOT/scripts/feedback" --run "$run_dir"
	# the last line does not send a Linux run to Apple
	assert_equal "${lines[${#lines[@]}-1]}" "feedback: a Linux run: not for Apple's Feedback Assistant; where feedback.txt names an on-access scanner, its vendor is who to send it to"
	read_out "$run_dir/feedback/feedback.txt"
	assert_line "NOT FOR FILING WITH APPLE: this run was made on $(jq -r '.conditions.os_name' "$run_dir/run.json"),"
	assert_line "the kit's Linux control run. Linux has no first-launch assessment; these"
	assert_line "numbers are not evidence of macOS behaviour. Run \`make repro\` and"
	assert_line --regexp '^\[NOT FOR FILING: Linux control run\] '
	unpack "$run_dir/feedback/"*.tar.gz "$BATS_TEST_TMPDIR/x"
	# (one grep for all of them: the files that hold any)
	run_both grep -r -l -F -i -e jdoe -e "Jane Doe" -e build-box-17 -e PF3XK9ZQ -e 4c4c4544-0042-3510-8051-b7c04f4b4e31 \
		-e 5f2c9a1e0b7d4c3a8e6f1d2b3c4a5e6f "$BATS_TEST_TMPDIR/x" "$run_dir/feedback/feedback.txt"
	assert_output ""
	grep_h '^note' "$BATS_TEST_TMPDIR"/x/*/conditions.txt
	assert_output "note.who=<user> (<full-name>) on <host>, <home>
note.hw=<serial> <uuid> <machine-id>"
}

# (two tests of a run.json of the main run changed by jq, one test)
@test "a calibration-gate run is called a calibration run; a macOS run without a slowdown: nothing to file" {
	# (was: "a calibration-gate run is called a calibration run")
	local d="$BATS_TEST_TMPDIR/gate"
	mkdir -p "$d"
	jq '.conditions.os = "Linux" | .conditions["gate.active"] = "1" | .conditions["gate.latency_ms"] = "20"
		| .conditions["gate.workers"] = "1" | .conditions["gate.key"] = "inode" | .conditions["gate.exempt"] = "0"' \
		"$MAIN/run.json" >"$d/run.json"
	run_both -0 with_fakes mac-identity sh "$ROOT/scripts/feedback" --run "$d"
	# the last line does not send a calibration run to Apple
	assert_equal "${lines[${#lines[@]}-1]}" "feedback: a calibration run (the kit's own gate held the launches): not for filing; feedback.txt shows what a filing would hold"
	refute_output --partial 'Feedback Assistant'
	read_out "$d/feedback/feedback.txt"
	assert_output --partial "NOT FOR FILING WITH APPLE: this is a calibration run"
	assert_output --partial "It tests the kit, not an OS, and is not evidence of
macOS behaviour."
	assert_line --regexp '^\[NOT FOR FILING: calibration run\] '
	assert_line --partial "GATE='latency=20 workers=1 key=inode exempt=0'"
	# neither macOS nor Linux: not for Apple either
	jq '.conditions.os = "FreeBSD" | .conditions["gate.active"] = "0"' "$MAIN/run.json" >"$d/run.json"
	run_both -0 with_fakes mac-identity sh "$ROOT/scripts/feedback" --run "$d"
	assert_equal "${lines[${#lines[@]}-1]}" "feedback: not a macOS run: not for Apple's Feedback Assistant"
	# (was: "a macOS run without a slowdown says there is nothing to file")
	d="$BATS_TEST_TMPDIR/none"
	mkdir -p "$d"
	jq '.cases |= map(.verdict = "none")' "$MAIN/run.json" >"$d/run.json"
	run_both -0 with_fakes mac-identity sh "$ROOT/scripts/feedback" --run "$d"
	read_out "$d/feedback/feedback.txt"
	assert_output --partial "there is nothing to
file from it"
	assert_line "No first-launch slowdown measured by execlag on macOS 14.1.1 (23B2082), MacBookAir10,1"
}

# (two tests of a run.json with newer kits' blocks, one run: services and
# the log's events (feedback.txt and services.tsv), the suite and other
# fields (named, not dumped))
@test "newer kits' services reach feedback.txt and services.tsv; other blocks named, no dump, kept" {
	# (was: "services and other fields of newer kits reach feedback.txt and a services.tsv in the archive")
	local d="$BATS_TEST_TMPDIR/services" n
	mkdir -p "$d"
	# (the unified log's assessment events too, which run.json carries
	# beside them (micro/report/report_json.c): one run for all; and the
	# suite and exe's fields of the other test)
	jq '(.cases[] | select(.name == "exe")) += {services: {XprotectService: {cpu_s: 3.03, instances: 2}, syspolicyd: {cpu_s: 0.31},
		deltas: [{name: "amfid", cpu_s_delta: 0.5}]}, log_events: {"GK performScan": 6}, assessments: {"performScan": 7, amfid: 3}}
		| .suite = {runs: [range(0; 30) | {passes: {fresh: {wall_ms: 1000, compile_ms: 10}, warm: {wall_ms: 900}}}]}
		| (.cases[] | select(.name == "exe")) += {every_launch: {cost_ms: {median: 0.1}}, extra_reason: "x"}' \
		"$MAIN/run.json" >"$d/run.json"
	run_both -0 with_fakes mac-identity sh "$ROOT/scripts/feedback" --run "$d"
	read_out "$d/feedback/feedback.txt"
	assert_line "  exe: services.XprotectService: cpu_s = 3.03, instances = 2"
	assert_line "  exe: services.syspolicyd: cpu_s = 0.31"
	assert_line "  exe: services.deltas.amfid: cpu_s_delta = 0.5"
	assert_line "  exe: log_events: GK performScan = 6"
	# what run.json says of the log (micro/report/report_json.c): the unified log's assessment events, pasted too
	assert_line "  exe: assessments: performScan = 7, amfid = 3"
	# (was: "feedback.txt names the suite's and other blocks' fields, no dump; the archive's run.json keeps them")
	# it stays short
	refute_output --partial "suite.runs"
	refute_output --partial "wall_ms"
	refute_output --partial "every_launch.cost_ms"
	assert_line "Also in run.json, in the attached archive, not repeated here:"
	assert_line --regexp '^  per case: .*every_launch.*extra_reason'
	assert_line --regexp '^  for the run: .*suite'
	n=${#lines[@]}
	[ "$n" -le 120 ] || fail "feedback.txt has $n lines"
	run_both -0 tar -xzOf "$d/feedback/"*.tar.gz "execlag-$MAIN_DATE/services.tsv"
	assert_output "case	field	value
exe	services.XprotectService.cpu_s	3.03
exe	services.XprotectService.instances	2
exe	services.syspolicyd.cpu_s	0.31
exe	services.deltas.amfid.cpu_s_delta	0.5"
	run_both -0 tar -xzOf "$d/feedback/"*.tar.gz "execlag-$MAIN_DATE/run.json"
	assert_equal "$(printf '%s\n' "$output" | jq '.suite.runs | length')" 30
}

# feedback_as NAME NOTE: make feedback on a copy of the main run, in
# $BATS_TEST_TMPDIR/NAME-run, as a Mac user NAME (home /Users/NAME) whose
# conditions.txt also holds the line NOTE
feedback_as() {
	local st="$BATS_TEST_TMPDIR/$1" d="$BATS_TEST_TMPDIR/$1-run"
	cp -R "$STATE_DIR/mac-identity" "$st"
	echo "$1" >"$st/id-un.out"
	mkdir -p "$d"
	cp "$MAIN/run.json" "$d/"
	{ cat "$MAIN/conditions.txt"; echo "$2"; } >"$d/conditions.txt"
	run_sep env PATH="$ROOT/$FAKES_REL/bin:$PATH" FAKE_STATE="$st" HOME="/Users/$1" USER="$1" LOGNAME="$1" \
		sh "$ROOT/scripts/feedback" --run "$d"
}

# (three tests of a user name of its own, one test: feedback_as above)
@test "short user names: 2 characters are not redacted, warned; 'mac' replaced inside words; 'user' is <u>" {
	# (was: "a value of 2 characters or fewer is not redacted, with a warning; the rest still is")
	local st="$BATS_TEST_TMPDIR/short" d="$BATS_TEST_TMPDIR/short-run"
	cp -R "$STATE_DIR/mac-identity" "$st"
	echo jo >"$st/id-un.out"
	mkdir -p "$d"
	cp "$MAIN/run.json" "$MAIN/conditions.txt" "$d/"
	run_sep env PATH="$ROOT/$FAKES_REL/bin:$PATH" FAKE_STATE="$st" HOME=/Users/jappleseed \
		USER=jo LOGNAME=jo sh "$ROOT/scripts/feedback" --run "$d"
	assert_success
	assert_equal "$stderr" "feedback: warning: the user name 'jo' has 2 characters or fewer; it is not redacted (check the archive by hand)"
	run_both -0 tar -xzOf "$d/feedback/"*.tar.gz "execlag-$MAIN_DATE/conditions.txt"
	assert_line "note.owner=<full-name> (JAppleseed)"
	assert_line "note.workdir=<home>/src/execlag/work.noindex"
	# (was: "a short user name is replaced wherever it occurs, also inside words, and is said so")
	d="$BATS_TEST_TMPDIR/mac-run"
	feedback_as mac "note.login=user mac (MAC) on Johns-MacBook-Pro, mac_backup, /Users/mac/x"
	assert_success
	# (and, where this machine has a machine id, <machine-id> is written <m>)
	assert_equal "${stderr_lines[0]}" "feedback: warning: the user name 'mac' is short: it is replaced wherever it occurs, also inside other words (check that the text still reads)"
	run_both -0 tar -xzOf "$d/feedback/"*.tar.gz "execlag-$MAIN_DATE/conditions.txt"
	assert_line "note.login=user <user> (<user>) on <host>, <user>_backup, <home>/x"
	assert_line "os_name=<user>OS"
	run_both grep -r -i -l mac "$d/feedback/feedback.txt"
	assert_output ""
	# (was: "a placeholder never holds a value: user 'user' is written <u>")
	d="$BATS_TEST_TMPDIR/user-run"
	local x="$BATS_TEST_TMPDIR/x"
	feedback_as user "note.login=user on /Users/user"
	assert_success
	assert_line --index 0 --partial "feedback: wrote "
	[[ "$stderr" == *"feedback: warning: the user name is part of the placeholder <user>; it is written <u> instead"* ]] || fail "$stderr"
	unpack "$d/feedback/"*.tar.gz "$x"
	run_both grep -r -i -l user "$x" "$d/feedback/feedback.txt"
	assert_output ""
	grep_h '^note.login' "$x"/*/conditions.txt
	assert_output "note.login=<u> on <home>"
}

# glued_run DIR STATE USER: a run whose conditions (and so run.json,
# report.md and the terminal line of feedback.txt) hold USER, the host and
# the home folder glued to _, digits, - and ., inside longer words and in
# other cases; STATE: a copy of mac-identity with USER as the user name and
# zzqxbox.example.org as the host name, with no LocalHostName (as on Linux:
# the short name zzqxbox comes only from the host name).
glued_run() {
	local d=$1 st=$2 u=$3 U
	U=$(tr '[:lower:]' '[:upper:]' <<<"$u")
	cp -R "$STATE_DIR/mac-identity" "$st"
	echo "$u" >"$st/id-un.out"
	echo zzqxbox.example.org >"$st/hostname.out"
	echo zzqxbox.example.org >"$st/uname_n"
	rm "$st/scutil-get-LocalHostName.out"
	cp -R "$ROOT/tests/fixtures/feedback/mac-run" "$d"
	{
		grep -v '^terminal=' "$ROOT/tests/fixtures/feedback/mac-run/conditions.txt"
		echo "terminal=/tmp/rt/${u}_tools/Terminal.app"
		echo "note.user=/tmp/rt/${u}_tools/cc ${u}2 ${u}-x ${u}.y my${u}box ${U}_UP x$u"
		echo "note.host=zzqxbox_2 zzqxbox7 xzzqxbox ZZQXBOX-old zzqxbox.lan ZzqxBox.Example.Org"
		echo "note.home=/Users/jappleseed_old /USERS/JAPPLESEED2/x x/Users/jappleseed"
	} >"$d/conditions.txt"
	"$BIN/analyze" --run "$d" --quiet
}

# (two tests that read the one feedback of the glued run, one test)
@test "user name, host names and home folder are replaced wherever they occur: glued, in a word, any case" {
	# (was: "the user name is replaced wherever it occurs: glued to _, a digit, - or ., in a word, in any case")
	local d x
	# glued_run as zzqxuser, its feedback unpacked (setup_file)
	glued_feedback
	grep -q -F zzqxuser_tools "$d/run.json" "$d/report.md" || fail "the run does not hold the glued name: the test would prove nothing"
	run_both grep -r -i -l zzqxuser "$x" "$d/feedback/feedback.txt"
	assert_output ""
	grep_h '^note.user' "$x"/*/conditions.txt
	assert_output "note.user=/tmp/rt/<user>_tools/cc <user>2 <user>-x <user>.y my<user>box <user>_UP x<user>"
	run_both -0 grep -c -F '<user>_tools' "$x"/*/run.json "$x"/*/report.md
	refute_line --regexp ':0$'
	read_out "$d/feedback/feedback.txt"
	assert_line "  Terminal: /tmp/rt/<user>_tools/Terminal.app"
	# (was: "host names and the home folder are replaced wherever they occur, in any case")
	run_both grep -r -i -l -e zzqxbox -e /users/jappleseed "$x" "$d/feedback/feedback.txt"
	assert_output ""
	grep_h '^note.host|^note.home' "$x"/*/conditions.txt
	assert_output "note.host=<host>_2 <host>7 x<host> <host>-old <host>.lan <host>
note.home=<home>_old <home>2/x x<home>"
}

@test "the leak search finds a value the redaction missed, as a substring in any case; nothing is written" {
	local st="$BATS_FILE_TMPDIR/glued/zz" d="$BATS_TEST_TMPDIR/zz-run" b="$BATS_TEST_TMPDIR/bin" p
	# the glued run of setup_file (glued_run as zzqxuser), copied without
	# the feedback made of it there; its state as it is (only read)
	cp -R "$BATS_FILE_TMPDIR/glued/zz-run" "$d"
	rm -r "$d/feedback"
	# a redactor that misses the user name glued to _ (put back in capitals);
	# fbtext, the other program feedback runs, as it is
	mkdir -p "$b"
	ln -s "$BIN/fbtext" "$b/"
	# (stdin to stdout, or each file IN into OUT: the redactor's two forms)
	printf '#!/bin/sh
if [ $# -eq 0 ]; then "%s/redact" | sed "s/<user>_tools/ZZQXUSER_tools/g"; exit; fi
while [ $# -ge 2 ]; do "%s/redact" <"$1" | sed "s/<user>_tools/ZZQXUSER_tools/g" >"$2" || exit 1; shift 2; done
' "$BIN" "$BIN" >"$b/redact"
	chmod +x "$b/redact"
	run_sep env PATH="$ROOT/$FAKES_REL/bin:$PATH" FAKE_STATE="$st" HOME=/Users/jappleseed \
		USER=zzqxuser LOGNAME=zzqxuser EXECLAG_BIN="$b" sh "$ROOT/scripts/feedback" --run "$d"
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$stderr" "feedback: redaction failed, an identifying value is still in: execlag-$MAIN_DATE/conditions.txt execlag-$MAIN_DATE/report.md execlag-$MAIN_DATE/run.json feedback.txt (nothing was written)"
	[ ! -e "$d/feedback" ] || fail "$(find "$d/feedback")"
	assert_empty_dir "$TMPDIR"
}

@test "a value is found also as run.json, report.md and the plots escape it" {
	local st="$BATS_TEST_TMPDIR/esc" d="$BATS_TEST_TMPDIR/esc-run"
	cp -R "$STATE_DIR/mac-identity" "$st"
	printf '%s\n' 'Jo "JJ" Appleseed'"'"'s Mac|Book & Co' >"$st/scutil-get-ComputerName.out"
	cp -R "$ROOT/tests/fixtures/feedback/mac-run" "$d"
	printf '%s\n' 'note.computer=Jo "JJ" Appleseed'"'"'s Mac|Book & Co' >>"$d/conditions.txt"
	"$BIN/analyze" --run "$d" --quiet
	grep -q -F 'Jo \"JJ\" Appleseed' "$d/run.json" || fail "run.json does not escape the quotes: the test would prove nothing"
	grep -q -F 'Mac\|Book' "$d/report.md" || fail "report.md does not escape the bar: the test would prove nothing"
	run_both -0 env PATH="$ROOT/$FAKES_REL/bin:$PATH" FAKE_STATE="$st" HOME=/Users/jappleseed sh "$ROOT/scripts/feedback" --run "$d"
	unpack "$d/feedback/"*.tar.gz "$BATS_TEST_TMPDIR/x"
	run_both grep -r -i -l JJ "$BATS_TEST_TMPDIR/x"
	assert_output ""
	grep_h '<computer-name>' "$BATS_TEST_TMPDIR"/x/*/run.json "$BATS_TEST_TMPDIR"/x/*/report.md
	assert_line '    "note.computer": "<computer-name>"'
	assert_line '| note.computer | <computer-name> |'
}

# (two tests of a run of run.json alone, one run)
@test "without --run the newest run in the results folder is used; its tar headers carry no owner's name" {
	# (was: "without --run the newest run in the results folder is used")
	local r="$BATS_TEST_TMPDIR/results" me
	mkdir -p "$r/20260101T000000Z-aaaaaa" "$r/20260302T000000Z-bbbbbb" "$r/20260303T000000Z-cccccc" "$r/.20260304T000000Z-dddddd.partial"
	cp "$MAIN/run.json" "$r/20260101T000000Z-aaaaaa/"
	cp "$MAIN/run.json" "$r/20260302T000000Z-bbbbbb/"
	# the newest folder has no run.json: unfinished, skipped; so is the partial one
	run_both -0 with_fakes mac-identity sh "$ROOT/scripts/feedback" --results "$r"
	[ -f "$r/20260302T000000Z-bbbbbb/feedback/feedback.txt" ]
	[ ! -e "$r/20260101T000000Z-aaaaaa/feedback" ]
	[ ! -e "$r/20260303T000000Z-cccccc/feedback" ]
	# (was: "tar headers do not carry the owner's name")
	# this machine's user, not the identity the fakes give (so redacted
	# by nothing): the archive (run.json alone) must not name it
	me=$(id -un)
	if [ ${#me} -gt 2 ]; then
		if gzip -dc "$r/20260302T000000Z-bbbbbb/feedback/"*.tar.gz | grep -a -q -F -- "$me"; then
			fail "the tar stream names '$me'"
		fi
	else
		echo "# user name '$me' is too short to search for: the tar headers are not checked" >&3
	fi
}

@test "bad input: one clear line on stderr, exit 2, nothing written" {
	local r="$BATS_TEST_TMPDIR/bad"
	mkdir -p "$r/empty" "$r/corrupt" "$r/v2" "$r/none"
	printf '{"schema": "execlag-run", "schema_version": 1, "cases": [' >"$r/corrupt/run.json"
	jq '.schema_version = 2' "$MAIN/run.json" >"$r/v2/run.json"
	local args v2=""
	for args in "--run $r/missing" "--run $r/empty" "--run $r/corrupt" "--run $r/v2" "--results $r/none" "--frobnicate" "--run"; do
		# shellcheck disable=SC2086
		run_sep with_fakes mac-identity sh "$ROOT/scripts/feedback" $args
		assert_equal "$status" 2
		assert_equal "$output" ""
		assert_equal "${#stderr_lines[@]}" 1
		[[ "$stderr" == feedback:* ]] || fail "$args: $stderr"
		# (the v2 run's words, from this run of it: no second run)
		[ "$args" != "--run $r/v2" ] || v2=$stderr
	done
	assert_equal "$(find "$r" -name feedback)" ""
	assert_empty_dir "$TMPDIR"
	assert_equal "$v2" "feedback: $r/v2/run.json: schema_version 2 is not the version this kit reads (1); use the kit that wrote it"
}

@test "an interrupted feedback leaves no temporary files and no half-written output" {
	local d="$BATS_TEST_TMPDIR/int" shim="$BATS_TEST_TMPDIR/shim"
	mkdir -p "$d" "$shim"
	cp "$MAIN/run.json" "$d/"
	# gzip interrupts its caller, as a Ctrl-C during packing would
	printf '#!/bin/sh\nkill -TERM "$PPID"\nsleep 0.2\nexit 1\n' >"$shim/gzip"
	chmod +x "$shim/gzip"
	run_both env PATH="$shim:$ROOT/$FAKES_REL/bin:$PATH" FAKE_STATE="$STATE_DIR/mac-identity" \
		HOME=/Users/jappleseed sh "$ROOT/scripts/feedback" --run "$d"
	assert_equal "$status" 143
	assert_empty_dir "$TMPDIR"
	run_both find "$d" -mindepth 1 -name '*.tar.gz' -o -name 'feedback.txt' -o -name '.tmp*'
	assert_output ""
}

@test "a log of a megabyte on one line, with binary bytes, reaches the archive redacted byte for byte" {
	local T=$'\t' d="$BATS_TEST_TMPDIR/big" want="$BATS_TEST_TMPDIR/want"
	mkdir -p "$d/raw"
	cp "$MAIN/run.json" "$d/"
	gen_stream "$d/raw/big.log.ndjson" "$want" 1000000 "<user>${T}jappleseed
<home>${T}/Users/jappleseed
<host>${T}Johns-MacBook-Pro.local
<host>${T}Johns-MacBook-Pro
<full-name>${T}John Appleseed
<serial>${T}C02XK0AAJGH5
<uuid>${T}0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9"
	run_both -0 with_fakes mac-identity sh "$ROOT/scripts/feedback" --run "$d"
	tar -xzOf "$d/feedback/"*.tar.gz "execlag-$MAIN_DATE/raw/big.log.ndjson" >"$BATS_TEST_TMPDIR/got"
	cmp "$want" "$BATS_TEST_TMPDIR/got"
}

@test "SIGTERM while a big run is redacted ends feedback at once, with status 143, leaving nothing" {
	local d="$BATS_TEST_TMPDIR/big" one="$BATS_TEST_TMPDIR/one" i
	mkdir -p "$d/raw"
	cp "$MAIN/run.json" "$d/"
	gen_stream "$one" "$BATS_TEST_TMPDIR/want" 1000000 "$(printf '<user>\tjappleseed\n<host>\tJohns-MacBook-Pro')"
	# 32 MB, lines of megabytes: 32 copies in one cat (what doubling it five times made)
	local copies=()
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32; do copies+=("$one"); done
	cat "${copies[@]}" >"$d/raw/big.log.ndjson"
	start_feedback "$d"
	wait_for "$TMPDIR/execlag-feedback.*/stage/*/raw/big.log.ndjson"
	stop_feedback TERM
	assert_equal "$FB_RC" 143
	assert_empty_dir "$TMPDIR"
	[ ! -e "$d/feedback" ] || fail "$(find "$d/feedback")"
}

@test "a signal while the redactor runs: exit 128+N at once, no temporary folder, no process left" {
	# SIGINT, SIGTERM or SIGHUP: exit 130, 143, 129
	local d="$BATS_TEST_TMPDIR/slow" b="$BATS_TEST_TMPDIR/bin" p sig sigs want
	mkdir -p "$d" "$b"
	cp "$MAIN/run.json" "$MAIN/conditions.txt" "$d/"
	# a redactor that takes as long as one on a very big run would
	# (fbtext, the other program feedback runs, as it is)
	ln -s "$BIN/fbtext" "$b/"
	# (its mark named for the signal: no rm between them)
	printf '#!/bin/sh
: >"%s/redacting.$FB_SIG"
exec sleep 300
' "$BATS_TEST_TMPDIR" >"$b/redact"
	chmod +x "$b/redact"
	# each signal only where this shell was not started with it ignored
	# (SIGINT: a background job of a shell without job control; SIGHUP:
	# nohup): it cannot be undone there (need_sigint), and feedback would
	# never see it.  One sh says which it can catch: a trap set on an
	# ignored signal is no trap, and the signal sent to itself does nothing
	local can
	can=$(sh -c 'for s in INT TERM HUP; do trap "printf \"%s \" $s" "$s"; kill -s "$s" $$; done')
	sigs=""
	for sig in INT:130 TERM:143 HUP:129; do
		case " $can" in
		*" ${sig%:*} "*) sigs="$sigs $sig" ;;
		*) echo "# SIG${sig%:*} is ignored in the environment this test runs in: not sent" >&3 ;;
		esac
	done
	[ -n "$sigs" ] || skip "SIGINT, SIGTERM and SIGHUP are all ignored here"
	for sig in $sigs; do
		want=${sig#*:}
		sig=${sig%:*}
		start_feedback "$d" EXECLAG_BIN="$b" FB_SIG="$sig"
		wait_for "$BATS_TEST_TMPDIR/redacting.$sig"
		stop_feedback "$sig"
		assert_equal "$FB_RC" "$want"
		assert_empty_dir "$TMPDIR"
		[ ! -e "$d/feedback" ] || fail "SIG$sig: $(find "$d/feedback")"
	done
}

# (two tests of a run of run.json and conditions.txt alone, one run)
@test "a broken pipe on stdout leaves no temporary folder, the output complete; no work file holds a value" {
	# (was: "a broken pipe on stdout (make feedback | head -1) leaves no temporary folder; the output is complete")
	# (was: "no file of the work folder holds the identifying values: the list of them is never written")
	local d="$BATS_TEST_TMPDIR/pipe" shim="$BATS_TEST_TMPDIR/shim"
	mkdir -p "$d" "$shim"
	cp "$MAIN/run.json" "$MAIN/conditions.txt" "$d/"
	# gzip runs when all else is done: it looks through TMPDIR first
	printf '#!/bin/sh
grep -r -l -a -i -e C02XK0AAJGH5 -e jappleseed -e johns-macbook "$TMPDIR" >>"%s/seen"
exec "%s" "$@"
' \
		"$BATS_TEST_TMPDIR" "$(command -v gzip)" >"$shim/gzip"
	chmod +x "$shim/gzip"
	: >"$BATS_TEST_TMPDIR/seen"
	# the reader is gone before feedback writes its first line: every
	# line meets a broken pipe (head -1 leaves only the later ones to it)
	run_sep with_fakes mac-identity env PATH="$shim:$ROOT/$FAKES_REL/bin:$PATH" \
		bash -c 'sh "$1" --run "$2" | true; echo "${PIPESTATUS[0]}"' _ "$ROOT/scripts/feedback" "$d"
	assert_output 141
	assert_equal "$stderr" ""
	assert_empty_dir "$TMPDIR"
	run_both ls -A "$d/feedback"
	assert_output "execlag-$MAIN_DATE.tar.gz
feedback.txt"
	# no file of the work folder holds the identifying values: the list of them is never written
	read_out "$BATS_TEST_TMPDIR/seen"
	assert_output ""
	[ -s "$d/feedback/feedback.txt" ]
}

# ---- ready to paste (issue 28): the reproducer, the kit, the area, the cost, the logs ----

# kit_from REMOTE: feedback.txt's step 1 from a copy of the kit that is a git
# checkout whose origin is REMOTE, or has none (the Mac user's identity
# faked).  The copy (what feedback reads of the kit: itself, its lib, the
# README) and the run (its run.json: step 1 is all that is read here) are
# made once a test; each call sets the origin and runs feedback again.
kit_from() {
	local k="$BATS_TEST_TMPDIR/kit" d="$BATS_TEST_TMPDIR/results/20260301T101500Z-f33dba"
	if [ ! -d "$k/.git" ]; then
		mkdir -p "$k/scripts" "$d"
		cp -R "$ROOT/scripts/feedback" "$ROOT/scripts/lib" "$k/scripts/"
		cp "$ROOT/README.md" "$k/"
		[ ! -d "$ROOT/data" ] || cp -R "$ROOT/data" "$k/"
		cp "$MAIN/run.json" "$d/"
		git -C "$k" init -q
		git -C "$k" -c user.name=t -c user.email=t@example.org add -A
		git -C "$k" -c user.name=t -c user.email=t@example.org commit -qm kit
	fi
	# (the origin as git remote add sets it, by one git config: its URL is
	# what makes it a remote to git remote and get-url)
	if [ -n "$1" ]; then
		git -C "$k" config remote.origin.url "$1"
	else
		git -C "$k" config --unset remote.origin.url 2>/dev/null || true
	fi
	# (each run writes its feedback.txt over the last one's: a failed run fails here)
	EXECLAG_BIN="$BIN" with_fakes mac-identity sh "$k/scripts/feedback" --run "$d" >/dev/null 2>&1 ||
		fail "feedback failed"
	# step 1's line, by the shell's read
	local l
	while IFS= read -r l; do
		case $l in "1. With "*) printf '%s\n' "$l" ;; esac
	done <"$d/feedback/feedback.txt"
}

@test "feedback.txt names the kit's git remote without credentials; a local path is only 'a local clone'" {
	local c
	run_both -0 kit_from "https://jappleseed:s3cret@example.org/x/execlag.git"
	c=$(git -C "$BATS_TEST_TMPDIR/kit" rev-parse --short=12 HEAD)
	assert_output "1. With the execlag kit (execlag 0.1.0, commit $c, git remote https://example.org/x/execlag.git), from its folder, the settings of this run:"
	run_both -0 kit_from "git@github.com:someone/execlag.git"
	assert_output --partial ", git remote github.com:someone/execlag.git)"
	run_both -0 kit_from "/Users/jappleseed/src/execlag"
	assert_output --partial ", from a local clone)"
	refute_output --partial "jappleseed"
	run_both -0 kit_from ""
	assert_output "1. With the execlag kit (execlag 0.1.0, commit $c), from its folder, the settings of this run:"
}

@test "one sentence on what a build of the suite's size would cost; ACTUAL leads with the headline case" {
	# the cost from the run's suite projection
	local d="$BATS_TEST_TMPDIR/results/20260410T090000Z-mac-penalty" p
	make_run "$d" ../brief/mac-penalty
	run_both -0 with_fakes mac-identity sh "$ROOT/scripts/feedback" --run "$d"
	p=$(jq -r '[.suite.runs[] | select(.projection_min != null)] | max_by(.jobs) | "\(.projection_min | round) \(.jobs)"' "$d/run.json")
	read_out "$d/feedback/feedback.txt"
	assert_line "At this run's cost, a build or test suite that makes and runs 14,000 new programs would spend at least ${p% *} minutes waiting on first-launch checks at ${p#* } parallel jobs (the kit's suite case, measured in this run)."
	# (the line after ACTUAL RESULTS, as sed -n '/^ACTUAL RESULTS$/{n;p;}' prints it)
	TEXT="$d/feedback/feedback.txt" text_range '^ACTUAL RESULTS$' '.*'
	assert_equal "${lines[0]}" "ACTUAL RESULTS"
	output=${output#ACTUAL RESULTS}
	output=${output#$'\n'}
	assert_output --regexp '^exe \(a new executable built with cc, unique bytes each, run as \./x\), T=1: first launch [0-9.]+ ms, second [0-9.]+ ms \(medians\); the first waits [0-9.]+ \[[0-9.]+, [0-9.]+\] ms longer \(95% interval\): slowdown\.$'
	# a run without the suite case says how to get the projection
	read_out "$TEXT"
	assert_output --partial "(This run did not measure the kit's suite case, which projects the cost to a
suite of 14,000 programs: make repro CASES=suite.)"
}

@test "the archive's log excerpts hold 1 MiB in all: cut evenly, first and last lines kept, and said so" {
	local d="$BATS_TEST_TMPDIR/logs" u="$BATS_TEST_TMPDIR/unpacked" f total=0 size name in=0 got want lasts
	mkdir -p "$d/raw"
	cp "$MAIN/run.json" "$MAIN/conditions.txt" "$d/"
	# three excerpts: 100 kB, 900 kB and 900 kB of numbered JSON lines (one awk)
	awk -v a="$d/raw/a.log.ndjson" -v b="$d/raw/b.log.ndjson" -v c="$d/raw/c.log.ndjson" 'BEGIN {
		for (i = 1; i <= 9000; i++) {
			l = sprintf("{\"n\":%d,\"eventMessage\":\"GK performScan %080d\"}", i, i)
			if (i <= 1000) print l > a
			print l > b; print l > c
		} }'
	run_both -0 with_fakes mac-identity sh "$ROOT/scripts/feedback" --run "$d"
	unpack "$d/feedback/"*.tar.gz "$u"
	u="$u/execlag-$MAIN_DATE/raw"
	# the sizes of the three in the archive, and of the run's (one wc)
	while read -r size name; do
		case $name in
		"$u"/*) total=$((total + size)) ;;
		"$d"/*) in=$((in + size)) ;;
		esac
	done < <(wc -c "$u/a.log.ndjson" "$u/b.log.ndjson" "$u/c.log.ndjson" "$d/raw/"*.log.ndjson)
	[ "$total" -gt 0 ] && [ "$in" -gt 0 ] || fail "no sizes"
	[ "$total" -le $((1048576 + 1024)) ] || fail "the excerpts hold $total bytes"
	# the small one whole; the big ones their first and last lines, and the note between
	cmp "$d/raw/a.log.ndjson" "$u/a.log.ndjson"
	# (the last lines of all four from one awk: b's and c's in the archive and in the run)
	IFS=$'\n' read -r -d '' -a lasts < <(awk 'FNR == 1 && NR > 1 { print last } { last = $0 } END { print last }' \
		"$u/b.log.ndjson" "$d/raw/b.log.ndjson" "$u/c.log.ndjson" "$d/raw/c.log.ndjson") || true
	assert_equal "${#lasts[@]}" 4
	for f in b c; do
		IFS= read -r got <"$u/$f.log.ndjson"
		IFS= read -r want <"$d/raw/$f.log.ndjson"
		assert_equal "$got" "$want"
		assert_equal "${lasts[0]}" "${lasts[1]}"
		lasts=("${lasts[@]:2}")
	done
	run_both -0 grep -c 'make feedback cut this log excerpt to its share of the 1 MiB the archive keeps for logs: its first and last lines, about [0-9]* of its [0-9]* bytes; the full log is in the sysdiagnose' "$u/b.log.ndjson" "$u/c.log.ndjson"
	assert_output "$u/b.log.ndjson:1
$u/c.log.ndjson:1"
	jq -e . "$u/b.log.ndjson" "$u/c.log.ndjson" >/dev/null || fail "b or c is no longer JSON lines"
	read_out "$d/feedback/feedback.txt"
	assert_output --partial "  Its log excerpts (raw/*.log.ndjson) hold at most 1 MiB in all: the run's came to
  $in bytes, so each was cut to an even share, $total bytes kept, its first and last
  lines with a line saying so between them. The full logs are in the sysdiagnose."
}

# The checker's health before the run (issue 43): a storm whose driver is
# an app in the user's home, quoted log lines naming it and the host; the
# record read by scripts/probe/health on the health-storm fakes, the
# identity put in, its checker.* lines in the run's conditions.
# the state, the figures, the log lines quoted, the driver's path redacted
@test "a run's health record goes in, its driver's path and quoted lines redacted" {
	local r="$BATS_TEST_TMPDIR/results/20260301T101500Z-c4ec4e" d rec=$BATS_TEST_TMPDIR/h.tsv
	make_run "$r" mac-run
	# (--bound 60, the log's 180: bounds only, for fakes that answer at once;
	# --bound 1 left the log 3 s, and on a loaded machine it was killed:
	# the state read "well (unknown)", not storm)
	env PATH="$ROOT/$FAKES_REL/bin:$PATH" FAKE_STATE="$STATE_DIR/health-storm" EXECLAG_LOG="$ROOT/$FAKES_REL/bin/log" \
		sh "$ROOT/scripts/probe/health" --out "$rec" --bound 60
	sed -e 's|/Applications/Codex.app|/Users/jappleseed/Applications/Codex.app|g' \
		-e 's|^quote	\(.*\)$|quote	\1 on Johns-MacBook-Pro|' "$rec" >"$r/health.tsv"
	"$BIN/advise" --health "$r/health.tsv" >>"$r/conditions.txt"
	"$BIN/analyze" --run "$r" --quiet
	run_both -0 with_fakes mac-identity sh "$ROOT/scripts/feedback" --run "$r"
	assert_line --partial "health.tsv"
	read_out "$r/feedback/feedback.txt"
	assert_line "The first-launch checker before any launch (read without root; health.tsv in the archive):"
	assert_line --regexp '^  State: storm \(rate; '
	assert_line --regexp '^  syspolicyd.s log, the last 60 s: 26400 lines, 440\.0 a second not the kit.s; error 24: 0 lines; the program named most: <home>/Applications/Codex\.app/Contents/MacOS/Codex \(660 lines\)$'
	assert_line --regexp '^    > .*ASP: Security policy would not allow process: 30001, <home>/Applications/Codex\.app/Contents/MacOS/Codex on <host>$'
	refute_secrets "$r/feedback/feedback.txt"
	unpack "$r/feedback/"*.tar.gz "$BATS_TEST_TMPDIR/x"
	d=$(find "$BATS_TEST_TMPDIR/x" -name health.tsv)
	[ -n "$d" ] || fail "no health.tsv in the archive"
	grep_h '^log.top_program	' "$d"
	assert_output "log.top_program	<home>/Applications/Codex.app/Contents/MacOS/Codex"
	refute_secrets "$BATS_TEST_TMPDIR/x"
}
