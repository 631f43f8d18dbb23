#!/usr/bin/env bats
# Exercise 5 (docs/workshop.md): P vs E cores — the fresh penalty of exe
# launched from each core class.  No public source measured launch latency
# by core type (docs/workshop.md, exercise 5), so the expectation is P1's, in each
# class; the numbers side by side are the exercise.
load ../pattern/lib

setup() { pattern_setup; }

# lowest_t CLASS: the fewest threads exe was measured at in CLASS
lowest_t() {
	f "cases/exe/configs/class=$1/threads" | awk 'NR == 1 || $1 < m { m = $1 } END { print m }'
}

# class_field CLASS FIELD: FIELD (a path) of exe's config of CLASS at its
# lowest T; numbers with two decimals, n/a for null.
class_field() {
	f --f2 "cases/exe/configs/class=$1,threads=$(lowest_t "$1")/$2"
}

has_word() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }

# class_v CLASS: what the test says of exe in CLASS, by two runfields
# (class_field and lowest_t ask one, an awk and two subshells each, five
# times a class): LOWEST_T, as lowest_t prints it, and CLASS_V, the four
# values of exe's config of CLASS at LOWEST_T (verdict, penalty median,
# first and repeat medians), as class_field prints each; false where
# runfield refuses, a value is missing or not one line, or a thread count
# is not a plain whole number (the test asks as before then)
class_v() {
	local t out l m="" p
	CLASS_V=()
	t=$("$BIN/runfield" --run "$J" "cases/exe/configs/class=$1/threads" 2>/dev/null) || return 1
	[ -n "$t" ] || return 1
	while IFS= read -r l; do
		case $l in '' | *[!0-9]* | 0?* | ?????????*) return 1 ;; esac
		[ -n "$m" ] && [ "$l" -ge "$m" ] || m=$l
	done <<<"$t"
	LOWEST_T=$m
	p="cases/exe/configs/class=$1,threads=$m"
	out=$("$BIN/runfield" --run "$J" --f2 "$p/verdict" "$p/penalty_ms/median" "$p/first/median_ms" \
		"$p/repeat/median_ms" 2>/dev/null) || return 1
	while IFS= read -r l; do CLASS_V+=("$l"); done <<<"$out"
	[ "${#CLASS_V[@]}" = 4 ]
}

@test "E5 core classes: the fresh penalty of exe in P and in E" {
	local measured avail k got want COND LOWEST_T CLASS_V nl
	# (the classes read by the shell: sorted, by sort -u and tr, only for
	# the words of a skip)
	measured=$("$BIN/runfield" --run "$J" 'cases/*/configs/*/class' 2>/dev/null) || :
	nl=$'\n'
	measured=${measured//$nl/ }
	cond_v core_classes; avail=$COND
	if ! has_word P "$measured" || ! has_word E "$measured"; then
		measured=$(f 'cases/*/configs/*/class' | sort -u | tr '\n' ' ')
		measured=${measured% }
		if has_word P "$avail" && has_word E "$avail"; then
			skip "not applicable: this run measured class '$measured' only; this machine has $avail: make repro-full, or make repro CLASSES=P,E"
		fi
		skip "not applicable: this machine has one core class ($avail), so there is no P/E split to compare"
	fi
	require_cases exe
	require_expectation
	# shellcheck disable=SC2153 # WANT is require_expectation's
	want=$WANT
	say "E5 core classes — $CONTEXT_TEXT; expected: $want in both classes (no source measured a difference)"
	bad=0
	for k in P E; do
		if class_v "$k"; then
			got=${CLASS_V[0]}
			say "  exe in $k at T=$LOWEST_T: penalty ${CLASS_V[1]} ms, first ${CLASS_V[2]} ms, repeat ${CLASS_V[3]} ms, $got"
			[ "$got" = "$want" ] || bad=1
			continue
		fi
		got=$(class_field "$k" verdict)
		say "  exe in $k at T=$(lowest_t "$k"): penalty $(class_field "$k" penalty_ms/median) ms, first $(class_field "$k" first/median_ms) ms, repeat $(class_field "$k" repeat/median_ms) ms, $got"
		[ "$got" = "$want" ] || bad=1
	done
	[ "$bad" = 0 ]
}
