# Shared by the pattern tests: which run to read, what its conditions lead
# us to expect, and how to report the numbers behind each outcome.  run.json
# is read with the kit's own reader, micro/bin/runfield (make check needs
# no jq).
#
# RUN names a run folder (or its run.json); without it the newest run in
# results/ is read.  Each pattern prints one "# P<n> …" line with the
# numbers on fd 3, which `make check` shows.

load ../kit

pattern_setup() {
	kit_setup
	set_run || skip "no run to check: make repro first, or set RUN=results/<run>"
	keep_run
	set_context
	context_text_v
}

# A pattern's test body starts few processes too: each $( ) is a fork of
# bats' large shell, tens of milliseconds on a loaded machine (most of a
# check's time was those, not bats).  So the answers a pattern needs have
# forms that set a variable instead of printing, read from what was kept:
#   CONTEXT_TEXT            context_text of this run, set by pattern_setup
#   require_expectation     also sets WANT, what penalty_expected prints
#   expected_v CASE         EXPECTED, what expected CASE prints
#   checker_v NAME          CHECKER, what checker NAME prints
#   verdict_v CASE          VERDICT, what verdict CASE prints
#   numbers_v CASE          NUMBERS, what numbers CASE prints
#   expect_case_verdict CASE   expect_verdict CASE with its case file's
#                              expectation
# The printing forms stay, for any other run (E6) and any new pattern.

# A pattern test starts few processes (make check runs a dozen of them, and
# a process costs 10-20 ms on a loaded machine): the run's conditions that
# decide its context and the names of its cases are read once, by one
# runfield, into KEPT_* (for the run in KEPT_J); cond, has_case, launcher
# and sim_setting answer from them for that run, and read the run.json
# again for any other (E6 reads a second run).  sim:NAME is a setting of a
# simulated run's launcher, as runfield reads it (launcher_setting).
KEPT_CONDS="launcher os os_version gate.active gate.exempt gate.latency_ms gate.workers gate.key gate.on devtools sip core_classes sim:latency sim:workers sim:key sim:exempt sim:on"

keep_run() {
	local out line n=0 names="" c paths=()
	KEPT_J="" KEPT_VALUES=() KEPT_CASES=""
	for c in $KEPT_CONDS; do
		case $c in
		sim:*) paths+=("$c") ;;
		*) paths+=("conditions/$c") ;;
		esac
	done
	# (what runfield answers, once a check: its tests read it again from
	# kept_read's file)
	if kept_read run; then
		out=$KEPT_READ
	else
		out=$("$BIN/runfield" --run "$J" --or unknown "${paths[@]}" 'cases/*/name' 2>/dev/null) || out=""
		kept_write run "$out"
	fi
	if [ -n "$out" ]; then
		# shellcheck disable=SC2086 # KEPT_CONDS is a list of words
		set -- $KEPT_CONDS
		while IFS= read -r line; do
			n=$((n + 1))
			if [ "$n" -le $# ]; then KEPT_VALUES+=("$line"); else names="$names $line"; fi
		done <<<"$out"
		if [ "${#KEPT_VALUES[@]}" = $# ]; then
			KEPT_J=$J KEPT_CASES="$names "
		else
			KEPT_VALUES=()
		fi
	fi
	keep_launcher
}

# kept_read NAME, kept_write NAME TEXT: TEXT that a test of this check
# read of the run $J with runfield, kept in a file of the check's own
# folder (BATS_RUN_TMPDIR: checks/tap.bash makes one a check; bats one a
# run) for its later tests, each a shell of its own, which read it with
# the shell's read instead of a runfield each (a process costs 10-20 ms on
# a loaded machine).  kept_read is false, KEPT_READ empty, where nothing is
# kept for $J (the file holds J's path first, the TEXT after it); a file
# is written whole and renamed into place (tests side by side see a whole
# one or none).  Without the folder nothing is kept.
kept_read() {
	local f=${BATS_RUN_TMPDIR:-}/.execlag-kept-$1 all="" nl=$'\n'
	KEPT_READ=""
	[ -n "${BATS_RUN_TMPDIR:-}" ] && [ -f "$f" ] || return 1
	IFS= read -r -d '' all <"$f" || :
	case $all in
	"$J$nl"*) KEPT_READ=${all#"$J$nl"} ;;
	*) return 1 ;;
	esac
}
kept_write() {
	local f=${BATS_RUN_TMPDIR:-}/.execlag-kept-$1 t
	[ -n "${BATS_RUN_TMPDIR:-}" ] && [ -d "$BATS_RUN_TMPDIR" ] || return 0
	# (no BASHPID: bash 3.2, a Mac's, has none)
	t=$f.$$.$RANDOM
	{ printf '%s\n%s' "$J" "$2" >"$t" && mv -f "$t" "$f"; } 2>/dev/null || rm -f "$t" 2>/dev/null || :
}

# kept_cond NAME: true when NAME is a kept condition of this run, its
# value then in KEPT_V
kept_cond() {
	[ -n "${KEPT_J-}" ] && [ "$KEPT_J" = "$J" ] || return 1
	local i=0 c
	for c in $KEPT_CONDS; do
		if [ "$c" = "$1" ]; then
			KEPT_V=${KEPT_VALUES[$i]}
			return 0
		fi
		i=$((i + 1))
	done
	return 1
}

# cond_v NAME: the condition NAME of this run in COND, without a subshell
# where it was kept
cond_v() {
	if kept_cond "$1"; then COND=$KEPT_V; else COND=$(cond "$1"); fi
}

# keep_launcher: the launcher condition of the run $J, read once (a test
# asks for the simulator's settings a dozen times) into LAUNCHER_OF_J, for
# the run in LAUNCHER_J; launcher reads it again for any other run.
keep_launcher() {
	local COND
	cond_v launcher
	LAUNCHER_OF_J=$COND
	LAUNCHER_J=$J
}

launcher() {
	if [ "${LAUNCHER_J-}" = "$J" ]; then
		printf '%s\n' "$LAUNCHER_OF_J"
	else
		cond launcher
	fi
}

# set_run: J, the run.json of RUN, else of the newest run in RESULTS
# (default results/) that is not a measure's probe, as make check takes it
# (scripts/lib/findrun, the kit's one run finder); false when there is
# none.  resolve_run prints it
set_run() {
	local r=${RUN:-}
	if [ -z "$r" ]; then
		. "$ROOT/scripts/lib/home"
		. "$ROOT/scripts/lib/conditions"
		. "$ROOT/scripts/lib/findrun"
		home_to "${RESULTS:-$ROOT/results}"
		run_newest "$home_v"
		r=$run_found
		[ -n "$r" ] || return 1
	fi
	[ -d "$r" ] && r="${r%/}/run.json"
	[ -f "$r" ] || return 1
	J=$r
}

resolve_run() {
	local J
	set_run || return 1
	printf '%s\n' "$J"
}

# dirname_v PATH: DIRNAME, what dirname PATH prints (for a path to a file)
dirname_v() {
	DIRNAME=${1%/*}
	case $1 in */*) ;; *) DIRNAME=. ;; esac
	while :; do
		case $DIRNAME in
		?*/) DIRNAME=${DIRNAME%/} ;;
		*) break ;;
		esac
	done
	DIRNAME=${DIRNAME:-/}
}

# field FILE ARGS...: runfield on FILE (a run.json); f FIELD...: on this run
field() { local f=$1; shift; "$BIN/runfield" --run "$f" "$@"; }
f() { field "$J" "$@"; }

cond() {
	if kept_cond "$1"; then
		printf '%s\n' "$KEPT_V"
	else
		f --or unknown "conditions/$1"
	fi
}

# The run's context decides the expected outcome of every pattern:
#   control       plain Linux: no assessment, so no penalty anywhere
#   gate          Linux with the calibration gate holding new objects
#   gate-exempt   the gate, with the kit's launcher exempted
#   gate-weak     the gate, set below what the kit can resolve (< 2 ms)
#   macos         macOS, SIP enabled, terminal not a Developer Tool
#   macos-exempt  macOS, terminal authorised as a Developer Tool
#   macos-other   macOS in a state no public source gives an expectation for
#   other         anything else
#   sim, sim-exempt, sim-weak   as gate, gate-exempt and gate-weak, for a
#                 simulated run (launcher sim:...): the kit's model of a
#                 checker, with its own settings; nothing was launched
# set_context: CONTEXT, this run's context (run_context prints it)
set_context() {
	local os gate exempt latency dev sip COND l
	if [ "${LAUNCHER_J-}" = "$J" ]; then l=$LAUNCHER_OF_J; else l=$(cond launcher); fi
	case $l in
	sim | sim:*)
		sim_v exempt; exempt=$COND
		sim_v latency; latency=$COND
		if [ "$exempt" = 1 ]; then CONTEXT="sim-exempt"
		elif below_2 "$latency"; then CONTEXT="sim-weak"
		else CONTEXT=sim
		fi
		return ;;
	esac
	cond_v os; os=$COND
	cond_v gate.active; gate=$COND
	if [ "$gate" = 1 ]; then
		cond_v gate.exempt; exempt=$COND
		cond_v gate.latency_ms; latency=$COND
		if [ "$exempt" = 1 ]; then CONTEXT="gate-exempt"
		elif below_2 "$latency"; then CONTEXT="gate-weak"
		else CONTEXT=gate
		fi
		return
	fi
	case $os in
	Linux) CONTEXT=control ;;
	Darwin)
		cond_v devtools; dev=$COND
		cond_v sip; sip=$COND
		if [ "$dev" = authorized ]; then CONTEXT="macos-exempt"
		elif [ "$sip" = enabled ]; then CONTEXT=macos
		else CONTEXT="macos-other"
		fi ;;
	*) CONTEXT=other ;;
	esac
}

# below_2 LATENCY: true when LATENCY (ms) is below 2 as awk reads a number
# (l + 0 < 2); a plain decimal, the kit's way of writing it, is compared
# here, anything else by awk
below_2() {
	local i=${1%%.*}
	case $1 in
	'' | *[!0-9.]* | *.*.* | .*) ;;
	*)
		case $i in ?????????*) ;; *)
			while [ "${i#0}" != "$i" ]; do i=${i#0}; done
			[ "${i:-0}" -lt 2 ]
			return ;;
		esac ;;
	esac
	awk -v l="$1" 'BEGIN { exit !(l + 0 < 2) }'
}

run_context() {
	local CONTEXT
	set_context
	printf '%s\n' "$CONTEXT"
}

# sim_setting NAME: the value of NAME= in a simulated run's launcher
# ("sim:latency=20 workers=1 key=inode ..."), or "unknown": kept, or asked
# of runfield (the settings' one reader)
sim_setting() {
	if kept_cond "sim:$1"; then
		printf '%s\n' "$KEPT_V"
	else
		"$BIN/runfield" --run "$J" --or unknown "sim:$1"
	fi
}

# sim_v NAME: sim_setting NAME in COND, without a subshell where it was kept
sim_v() {
	if kept_cond "sim:$1"; then COND=$KEPT_V; else COND=$(sim_setting "$1"); fi
}

# checker NAME: what held the launches, set as NAME (workers, key): the
# calibration gate's gate.NAME, or in a simulated run the model's NAME=
checker() {
	case $CONTEXT in
	sim*) sim_setting "$1" ;;
	*) cond "gate.$1" ;;
	esac
}

checker_v() {
	local COND
	case $CONTEXT in
	sim*) sim_v "$1" ;;
	*) cond_v "gate.$1" ;;
	esac
	# shellcheck disable=SC2034 # CHECKER is for the pattern files
	CHECKER=$COND
}

# context_text_v: CONTEXT_TEXT, the context in words (context_text prints it)
context_text_v() {
	local COND a b c
	case $CONTEXT in
	sim)
		sim_v latency; a=$COND
		sim_v workers; b=$COND
		sim_v key; c=$COND
		CONTEXT_TEXT="simulated run (nothing launched, not evidence): model latency $a ms, workers $b, key $c"
		sim_v on
		[ "$COND" != open ] || CONTEXT_TEXT="$CONTEXT_TEXT, on every open" ;;
	sim-exempt) CONTEXT_TEXT="simulated run (nothing launched, not evidence): the model's launcher exempt" ;;
	sim-weak)
		sim_v latency
		CONTEXT_TEXT="simulated run (nothing launched, not evidence): model latency $COND ms, below the 1 ms floor's reach" ;;
	control)
		cond_v os
		CONTEXT_TEXT="plain $COND: no assessment, no penalty expected" ;;
	gate)
		cond_v gate.latency_ms; a=$COND
		cond_v gate.workers; b=$COND
		cond_v gate.key; c=$COND
		CONTEXT_TEXT="calibration gate: latency $a ms, workers $b, key $c"
		cond_v gate.on
		[ "$COND" != open ] || CONTEXT_TEXT="$CONTEXT_TEXT, on every open" ;;
	gate-exempt) CONTEXT_TEXT="calibration gate with the launcher exempt" ;;
	gate-weak)
		cond_v gate.latency_ms
		CONTEXT_TEXT="calibration gate at $COND ms, below the 1 ms floor's reach" ;;
	macos-exempt)
		cond_v os_version
		CONTEXT_TEXT="macOS $COND, terminal authorised as a Developer Tool" ;;
	macos | macos-other)
		cond_v os_version; a=$COND
		cond_v sip; b=$COND
		cond_v devtools; c=$COND
		CONTEXT_TEXT="macOS $a, SIP $b, Developer Tools $c" ;;
	*) CONTEXT_TEXT="an unknown platform" ;;
	esac
}

context_text() {
	local CONTEXT_TEXT
	context_text_v
	printf '%s\n' "$CONTEXT_TEXT"
}

has_case() {
	if [ -n "${KEPT_J-}" ] && [ "$KEPT_J" = "$J" ]; then
		case $KEPT_CASES in *" $1 "*) return 0 ;; esac
		return 1
	fi
	f "cases/$1/name" >/dev/null
}

require_cases() {
	local c
	for c in "$@"; do
		has_case "$c" || skip "not applicable: the run has no '$c' case"
	done
}

verdict() { "$BIN/runfield" --run "$J" "cases/$1/verdict"; }

# numbers_of FILE CASE: "exe: penalty 20.31 ms [19.80, 20.92], 12.40x,
# slowdown", numbers in the kit's one format (two decimals, what rounds to
# zero without a sign: micro/lib/util.c fmt2; n/a for null); numbers CASE: of
# this run
numbers_of() {
	local v
	# (one value a line: the shell splits them into words)
	v=$("$BIN/runfield" --run "$1" --f2 "cases/$2/penalty_ms/median" "cases/$2/penalty_ms/ci_low" \
		"cases/$2/penalty_ms/ci_high" "cases/$2/ratio" "cases/$2/verdict")
	# shellcheck disable=SC2086 # v: words
	set -- "$2" $v
	printf '%s: penalty %s ms [%s, %s], %sx, %s\n' "$@"
}
numbers() { numbers_of "$J" "$1"; }

# keep_case CASE: the five values numbers_of reads of CASE in this run
# (penalty median, interval, ratio, verdict), read by one runfield and kept
# for CASE in this run: verdict_v and numbers_v answer from them
keep_case() {
	[ "${KC_J-}" = "$J" ] && [ "${KC_CASE-}" = "$1" ] && return 0
	kept_case "$1" ||
		KC_OUT=$("$BIN/runfield" --run "$J" --f2 "cases/$1/penalty_ms/median" "cases/$1/penalty_ms/ci_low" \
			"cases/$1/penalty_ms/ci_high" "cases/$1/ratio" "cases/$1/verdict") || :
	KC_J=$J KC_CASE=$1
}

# kept_case CASE: KC_OUT, the five values keep_case reads of CASE, from the
# five of every case of the kept run (keep_run's KEPT_CASES) read by one
# runfield, once a check (kept_read): true when CASE is one of them and
# that runfield answered them all, five lines a case (--f2: a line a path,
# n/a where it finds none), exit 0; else false, for keep_case to ask.
kept_case() {
	local c all="" i=0 n=0 line paths=() vals=()
	[ -n "${KEPT_J-}" ] && [ "$KEPT_J" = "$J" ] || return 1
	case $KEPT_CASES in *" $1 "*) ;; *) return 1 ;; esac
	# (the names split into words: none may be a glob)
	case $KEPT_CASES in *[][*?]*) return 1 ;; esac
	if [ "${KC_ALL_J-}" != "$J" ]; then
		KC_ALL_J=$J KC_ALL=""
		if kept_read cases; then
			KC_ALL=$KEPT_READ
		else
			for c in $KEPT_CASES; do
				paths+=("cases/$c/penalty_ms/median" "cases/$c/penalty_ms/ci_low" \
					"cases/$c/penalty_ms/ci_high" "cases/$c/ratio" "cases/$c/verdict")
				n=$((n + 5))
			done
			all=$("$BIN/runfield" --run "$J" --f2 "${paths[@]}" 2>/dev/null) || all=""
			# (five lines a case, or nothing kept)
			[ -z "$all" ] || IFS=$'\n' read -d '' -r -a vals <<<"$all" || :
			[ "${#vals[@]}" = "$n" ] || all=""
			KC_ALL=$all
			kept_write cases "$all"
		fi
	fi
	[ -n "$KC_ALL" ] || return 1
	for c in $KEPT_CASES; do
		[ "$c" != "$1" ] || break
		i=$((i + 5))
	done
	IFS=$'\n' read -d '' -r -a vals <<<"$KC_ALL" || :
	KC_OUT="${vals[i]}"$'\n'"${vals[i + 1]}"$'\n'"${vals[i + 2]}"$'\n'"${vals[i + 3]}"$'\n'"${vals[i + 4]}"
}

numbers_v() {
	local v
	keep_case "$1"
	v=$KC_OUT
	# shellcheck disable=SC2086 # v: words, as numbers_of splits them
	set -- "$1" $v
	printf -v NUMBERS '%s: penalty %s ms [%s, %s], %sx, %s\n' "$@"
	# as $( ) gives it: without the newlines at its end
	while [ "${NUMBERS%$'\n'}" != "$NUMBERS" ]; do NUMBERS=${NUMBERS%$'\n'}; done
}

# verdict_v: the fifth of the five values where it is one of the verdicts
# (with --f2 each path prints one line, n/a where it finds none, and a
# verdict's word is printed as it is); anything else is asked as verdict
# asks it
verdict_v() {
	local l5
	keep_case "$1"
	case $KC_OUT in
	*$'\n'*$'\n'*$'\n'*$'\n'*$'\n'*) l5="" ;;
	*$'\n'*$'\n'*$'\n'*$'\n'*) l5=${KC_OUT##*$'\n'} ;;
	*) l5="" ;;
	esac
	case $l5 in
	slowdown | none | inconclusive | hang) VERDICT=$l5 ;;
	*) VERDICT=$(verdict "$1") ;;
	esac
}

say() { echo "# $*" >&3; }

# note_inconclusive CASE: a case left inconclusive where none was expected
# contradicts nothing; `make check` says "holds, with N inconclusive cases".
note_inconclusive() {
	local NUMBERS
	numbers_v "$1"
	say "  $NUMBERS — inconclusive: run again on a quieter machine to settle it"
	echo "# ~inconclusive $1" >&3
}

# expect_verdict CASE WANT: WANT is slowdown or none.  Inconclusive where
# none is expected is noted, not a failure; where a slowdown is expected it
# is one (the penalty was not shown).
expect_verdict() {
	local got VERDICT NUMBERS
	verdict_v "$1"
	got=$VERDICT
	if [ "$got" = hang ]; then
		# a launch did not end within its bound: no penalty to read
		say "  $1: hang — $(f "cases/$1/reason") (killed, its case stopped: no penalty to read; make doctor says what to do)"
		return 1
	fi
	if [ "$got" = inconclusive ] && [ "$2" = none ]; then
		note_inconclusive "$1"
		return 0
	fi
	numbers_v "$1"
	if [ "$got" != "$2" ]; then
		say "  $NUMBERS — expected $2"
		return 1
	fi
	say "  $NUMBERS"
}

# expect_case_verdict CASE: expect_verdict CASE with the verdict its case
# file expects here (expected_v)
expect_case_verdict() {
	local EXPECTED
	expected_v "$1" || return
	expect_verdict "$1" "$EXPECTED"
}

# Skip where the context gives no expected first-launch outcome.  Call it
# before `want=$(penalty_expected)`: a skip inside $(...) runs in a subshell
# and cannot end the test.
# shellcheck disable=SC2034 # WANT is for the pattern files
require_expectation() {
	case $CONTEXT in
	gate|macos|sim) WANT=slowdown ;;
	control|gate-exempt|macos-exempt|sim-exempt) WANT=none ;;
	*) skip "not applicable: no expectation for $(context_text)" ;;
	esac
}

# case_key CASE KEY: KEY's value in the kit's own cases/CASE.case (its last
# line wins), empty where there is none or no such case file; read by the
# case files' one reader (scripts/lib/cases), which refuses a file that is
# not one: "execlag: FILE: WHY", status 2
case_key() {
	[ -f "$ROOT/cases/$1.case" ] || return 0
	# shellcheck source=../../scripts/lib/cases
	. "$ROOT/scripts/lib/cases"
	case_val "$ROOT/cases" "$1" "$2" && printf '%s\n' "$_cv"
}

# expected CASE: the verdict this context expects of CASE, from its case file
# (docs/formats.md, "Case files"): expect_linux on plain Linux, elsewhere
# expect_macos, which the gate and the simulator model: penalty is a
# slowdown where new programs are checked (none with the launcher exempt),
# none is none.  Anything else (small, or no case file) has no verdict to
# expect: "unknown".  Call require_expectation first.
expected() {
	local e
	case $CONTEXT in
	control) e=$(case_key "$1" expect_linux) || return ;;
	*) e=$(case_key "$1" expect_macos) || return ;;
	esac
	case $e in
	penalty) penalty_expected ;;
	none) echo none ;;
	*) echo unknown ;;
	esac
}

# expected_v CASE: EXPECTED, what expected CASE prints, without a
# subshell: the case file is read in this shell (a file its reader refuses
# ends the test, status 2, in the reader's words; make check has read every
# case file before, and stopped there)
expected_v() {
	local e=""
	if [ -f "$ROOT/cases/$1.case" ]; then
		# shellcheck source=../../scripts/lib/cases
		command -v case_val >/dev/null || . "$ROOT/scripts/lib/cases"
		case $CONTEXT in
		control) case_val "$ROOT/cases" "$1" expect_linux ;;
		*) case_val "$ROOT/cases" "$1" expect_macos ;;
		esac
		# shellcheck disable=SC2154 # _cv is case_val's (scripts/lib/cases)
		e=$_cv
	fi
	case $e in
	penalty)
		case $CONTEXT in
		gate|macos|sim) EXPECTED=slowdown ;;
		control|gate-exempt|macos-exempt|sim-exempt) EXPECTED=none ;;
		*) skip "not applicable: no expectation for $(context_text)" ;;
		esac ;;
	none) EXPECTED=none ;;
	*) EXPECTED=unknown ;;
	esac
}

# Expected first-launch outcome of an assessed case in this context.
penalty_expected() {
	case $CONTEXT in
	gate|macos|sim) echo slowdown ;;
	control|gate-exempt|macos-exempt|sim-exempt) echo none ;;
	*) skip "not applicable: no expectation for $(context_text)" ;;
	esac
}
