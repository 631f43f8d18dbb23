#!/usr/bin/env bats
# Exercise 6 (docs/workshop.md): the exemption (a terminal authorised as a
# Developer Tool; the gate's exempt=1) and going offline, judged by
# comparing this run with another run of the same results folder, made on
# the same platform with the switch in the other position.
load ../pattern/lib

setup() { pattern_setup; }

# lines_v TEXT: LINES, TEXT's lines each ended by a blank (as tr '\n' ' '
# makes them); TEXT is a command's output with "." after it, so that $( )
# keeps its last newlines
lines_v() {
	LINES=${1%.}
	while :; do
		case $LINES in
		*$'\n'*) LINES=${LINES%%$'\n'*}" "${LINES#*$'\n'} ;;
		*) break ;;
		esac
	done
}

# exempt_of RUN.JSON: "exempt" or "not exempt"
exempt_of() {
	local v LINES
	lines_v "$(field "$1" --or - conditions/gate.active conditions/gate.exempt conditions/devtools; echo .)"
	v=$LINES
	case $v in
	"1 1 "*) echo exempt ;;
	"1 "*) echo "not exempt" ;;
	*" authorized ") echo exempt ;;
	*) echo "not exempt" ;;
	esac
}

# platform_of RUN.JSON: the OS and whether the gate was on
platform_of() { echo "$(field "$1" --or null conditions/os) gate=$(field "$1" --or 0 conditions/gate.active)"; }

network_of() { field "$1" --or unknown conditions/network; }

# settings_of RUN.JSON: what an attendee sets for a run, apart from the
# exemption: cases, threads, classes, profile, count, the gate, network
# (paste -s -d ' ' as it was: the lines joined by blanks, no blank after
# the last)
settings_of() {
	local LINES
	lines_v "$(field "$1" --or - conditions/run.cases conditions/run.threads conditions/run.classes \
		conditions/run.profile conditions/run.count conditions/gate.latency_ms conditions/gate.workers \
		conditions/gate.key conditions/gate.on conditions/network; echo .)"
	printf '%s\n' "${LINES% }"
}

# The newest other run.json in this run's results folder, on the same
# platform and with an exe case, for which FILTER (a shell function of one
# run.json) differs from this run's; of those, the newest whose other
# settings are this run's, where there is one.
other_run() {
	local f mine plat settings fallback=
	mine=$("$1" "$J")
	plat=$(platform_of "$J")
	settings=$(settings_of "$J")
	while IFS= read -r f; do
		[ -n "$f" ] || continue
		[ "$f" -ef "$J" ] && continue
		[ "$(platform_of "$f")" = "$plat" ] || continue
		field "$f" cases/exe/name >/dev/null 2>&1 || continue
		[ "$("$1" "$f")" != "$mine" ] || continue
		if [ "$(settings_of "$f")" = "$settings" ]; then
			printf '%s\n' "$f"
			return 0
		fi
		[ -n "$fallback" ] || fallback=$f
	done < <(ls -d "$(dirname "$(dirname "$J")")"/*/run.json 2>/dev/null | sort -r)
	[ -n "$fallback" ] || return 1
	printf '%s\n' "$fallback"
}

# pen RUN.JSON CASE: "19.92 ms, slowdown"
pen() {
	echo "$(field "$1" --f2 "cases/$2/penalty_ms/median") ms, $(field "$1" "cases/$2/verdict")"
}

@test "E6 exemption compared: the penalty of the run without the exemption is gone in the run with it" {
	local other plain exempt c bad=0
	if [ -n "${CHECK_A:-}" ] && [ -n "${CHECK_B:-}" ]; then
		# the pair the attendee named (make check EXERCISE=6 A=… B=…)
		J=$CHECK_B other=$CHECK_A
		field "$J" cases/exe/name >/dev/null 2>&1 ||
			skip "not applicable: B ($(basename "$(dirname "$J")")) has no 'exe' case"
		field "$other" cases/exe/name >/dev/null 2>&1 ||
			skip "not applicable: A ($(basename "$(dirname "$other")")) has no 'exe' case"
		[ "$(platform_of "$J")" = "$(platform_of "$other")" ] ||
			skip "not applicable: A is $(platform_of "$other") and B $(platform_of "$J"): the exercise compares two runs on the same platform"
		[ "$(exempt_of "$J")" != "$(exempt_of "$other")" ] ||
			skip "not applicable: A and B are both $(exempt_of "$J"): the exercise compares a run without the exemption with one with it"
	else
		require_cases exe
		if ! other=$(other_run exempt_of); then
			if other=$(other_run network_of); then
				skip "not applicable: this run and $(basename "$(dirname "$other")") differ in network ($(network_of "$J") vs $(network_of "$other")), exe $(pen "$J" exe) vs $(pen "$other" exe); no source gives an expectation for going offline on current macOS (docs/workshop.md, exercise 6)"
			fi
			skip "not applicable: no other run in $(dirname "$(dirname "$J")") with the exemption in the other position: make one, or name the pair: A=<run> B=<run> (docs/workshop.md, exercise 6)"
		fi
	fi
	if [ "$(exempt_of "$J")" = exempt ]; then exempt=$J plain=$other; else exempt=$other plain=$J; fi
	J=$plain
	CONTEXT=$(run_context)
	case $CONTEXT in
	gate|macos) ;;
	*) skip "not applicable: the run without the exemption expects no penalty ($(context_text))" ;;
	esac
	say "E6 exemption — $(context_text); expected: exe slowdown without the exemption, none with it"
	say "  without: $(basename "$(dirname "$plain")"), with: $(basename "$(dirname "$exempt")")"
	[ "$(settings_of "$plain")" = "$(settings_of "$exempt")" ] ||
		say "  the two runs differ in more than the exemption: $(settings_of "$plain") vs $(settings_of "$exempt") (cases, threads, classes, profile, count, gate, network)"
	for c in $(field "$plain" 'cases/*/name'); do
		field "$exempt" "cases/$c/name" >/dev/null || continue
		say "  $c: $(pen "$plain" "$c") without → $(pen "$exempt" "$c") with"
	done
	[ "$(field "$plain" cases/exe/verdict)" = slowdown ] || bad=1
	[ "$(field "$exempt" cases/exe/verdict)" = none ] || bad=1
	[ "$bad" = 0 ]
}
