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

# run_name_v RUN.JSON: RUN_NAME, the name of its folder (basename of its
# dirname), without a process
run_name_v() {
	dirname_v "$1"
	RUN_NAME=${DIRNAME##*/}
	[ -n "$RUN_NAME" ] || RUN_NAME=/
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

# facts_v RUN.JSON: what other_run compares of a run, by one runfield
# (platform_of, exempt_of, settings_of and network_of ask one or two each,
# and the exercise asks them of every run in the folder): F_PLATFORM,
# F_EXEMPT, F_SETTINGS and F_NETWORK, as those print them, and F_EXE, 1
# where the run has an exe case.  False where runfield refuses the file or
# a value is not one line (each is asked as before then).  A path that finds
# nothing prints FACT_NONE, which becomes each function's own --or text.
FACT_NONE=$'\x1f'
facts_v() {
	local out l v=() i
	out=$(field "$1" --or "$FACT_NONE" conditions/os conditions/gate.active conditions/gate.exempt \
		conditions/devtools conditions/network conditions/run.cases conditions/run.threads \
		conditions/run.classes conditions/run.profile conditions/run.count conditions/gate.latency_ms \
		conditions/gate.workers conditions/gate.key conditions/gate.on cases/exe/name 2>/dev/null) || return 1
	while IFS= read -r l; do v+=("$l"); done <<<"$out"
	[ "${#v[@]}" = 15 ] || return 1
	F_EXE=1
	[ "${v[14]}" != "$FACT_NONE" ] || F_EXE=0
	F_NETWORK=${v[4]}
	[ "$F_NETWORK" != "$FACT_NONE" ] || F_NETWORK=unknown
	[ "${v[0]}" != "$FACT_NONE" ] || v[0]=null
	[ "${v[1]}" != "$FACT_NONE" ] || v[1]=0
	F_PLATFORM="${v[0]} gate=${v[1]}"
	# the exemption's and the settings' --or: -
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
		[ "${v[i]}" != "$FACT_NONE" ] || v[i]=-
	done
	case "${v[1]} ${v[2]} ${v[3]} " in
	"1 1 "*) F_EXEMPT=exempt ;;
	"1 "*) F_EXEMPT="not exempt" ;;
	*" authorized ") F_EXEMPT=exempt ;;
	*) F_EXEMPT="not exempt" ;;
	esac
	F_SETTINGS="${v[5]} ${v[6]} ${v[7]} ${v[8]} ${v[9]} ${v[10]} ${v[11]} ${v[12]} ${v[13]} ${v[4]}"
}

# The newest other run.json in this run's results folder, on the same
# platform and with an exe case, for which FILTER (a shell function of one
# run.json) differs from this run's; of those, the newest whose other
# settings are this run's, where there is one.
# (FILTER exempt_of or network_of, each run's facts_v where it can)
other_run() {
	local f mine plat settings fallback= s F_PLATFORM F_EXEMPT F_SETTINGS F_NETWORK F_EXE
	if facts_v "$J"; then
		plat=$F_PLATFORM settings=$F_SETTINGS
		case $1 in exempt_of) mine=$F_EXEMPT ;; *) mine=$F_NETWORK ;; esac
	else
		mine=$("$1" "$J")
		plat=$(platform_of "$J")
		settings=$(settings_of "$J")
	fi
	while IFS= read -r f; do
		[ -n "$f" ] || continue
		[ "$f" -ef "$J" ] && continue
		if facts_v "$f"; then
			[ "$F_PLATFORM" = "$plat" ] || continue
			[ "$F_EXE" = 1 ] || continue
			case $1 in exempt_of) s=$F_EXEMPT ;; *) s=$F_NETWORK ;; esac
			[ "$s" != "$mine" ] || continue
			s=$F_SETTINGS
		else
			[ "$(platform_of "$f")" = "$plat" ] || continue
			field "$f" cases/exe/name >/dev/null 2>&1 || continue
			[ "$("$1" "$f")" != "$mine" ] || continue
			s=$(settings_of "$f")
		fi
		if [ "$s" = "$settings" ]; then
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

# pens_v PLAIN EXEMPT CASE...: PEN_P and PEN_E, each CASE's pen in PLAIN
# and in EXEMPT ("" where EXEMPT has no CASE), by one runfield a run (pen
# is two a case); false where runfield refuses or a value is not one line
# (pen is asked then)
pens_v() {
	local p=$1 e=$2 c out l v=() w=() paths_p=() paths_e=() i=0 m
	shift 2
	for c in "$@"; do
		paths_p+=("cases/$c/penalty_ms/median" "cases/$c/verdict")
		paths_e+=("cases/$c/name" "cases/$c/penalty_ms/median" "cases/$c/verdict")
	done
	PEN_P=() PEN_E=()
	[ $# -gt 0 ] || return 0
	out=$(field "$p" --f2 --or "$FACT_NONE" "${paths_p[@]}" 2>/dev/null) || return 1
	while IFS= read -r l; do v+=("$l"); done <<<"$out"
	out=$(field "$e" --f2 --or "$FACT_NONE" "${paths_e[@]}" 2>/dev/null) || return 1
	while IFS= read -r l; do w+=("$l"); done <<<"$out"
	[ "${#v[@]}" = $(($# * 2)) ] && [ "${#w[@]}" = $(($# * 3)) ] || return 1
	# --f2 prints n/a for a median that is not there, pen's verdict nothing
	for ((i = 0; i < $#; i++)); do
		m=${v[2 * i]} l=${v[2 * i + 1]}
		[ "$m" != "$FACT_NONE" ] || m=n/a
		[ "$l" != "$FACT_NONE" ] || l=""
		PEN_P+=("$m ms, $l")
		if [ "${w[3 * i]}" = "$FACT_NONE" ]; then
			PEN_E+=("")
			continue
		fi
		m=${w[3 * i + 1]} l=${w[3 * i + 2]}
		[ "$m" != "$FACT_NONE" ] || m=n/a
		[ "$l" != "$FACT_NONE" ] || l=""
		PEN_E+=("$m ms, $l")
	done
}

@test "E6 exemption compared: the penalty of the run without the exemption is gone in the run with it" {
	local other plain exempt c bad=0 e s i cases F_PLATFORM F_EXEMPT F_SETTINGS F_NETWORK F_EXE PEN_P PEN_E RUN_NAME
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
	if facts_v "$J"; then e=$F_EXEMPT; else e=$(exempt_of "$J"); fi
	if [ "$e" = exempt ]; then exempt=$J plain=$other; else exempt=$other plain=$J; fi
	J=$plain
	CONTEXT=$(run_context)
	case $CONTEXT in
	gate|macos) ;;
	*) skip "not applicable: the run without the exemption expects no penalty ($(context_text))" ;;
	esac
	say "E6 exemption — $(context_text); expected: exe slowdown without the exemption, none with it"
	run_name_v "$plain"; e=$RUN_NAME
	run_name_v "$exempt"
	say "  without: $e, with: $RUN_NAME"
	if facts_v "$plain"; then s=$F_SETTINGS; else s=$(settings_of "$plain"); fi
	if facts_v "$exempt"; then e=$F_SETTINGS; else e=$(settings_of "$exempt"); fi
	[ "$s" = "$e" ] ||
		say "  the two runs differ in more than the exemption: $s vs $e (cases, threads, classes, profile, count, gate, network)"
	cases=()
	for c in $(field "$plain" 'cases/*/name'); do cases+=("$c"); done
	if pens_v "$plain" "$exempt" ${cases[@]+"${cases[@]}"}; then
		for ((i = 0; i < ${#cases[@]}; i++)); do
			[ -n "${PEN_E[i]}" ] || continue
			say "  ${cases[i]}: ${PEN_P[i]} without → ${PEN_E[i]} with"
		done
	else
		for c in ${cases[@]+"${cases[@]}"}; do
			field "$exempt" "cases/$c/name" >/dev/null || continue
			say "  $c: $(pen "$plain" "$c") without → $(pen "$exempt" "$c") with"
		done
	fi
	[ "$(field "$plain" cases/exe/verdict)" = slowdown ] || bad=1
	[ "$(field "$exempt" cases/exe/verdict)" = none ] || bad=1
	[ "$bad" = 0 ]
}
