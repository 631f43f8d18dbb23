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

@test "E5 core classes: the fresh penalty of exe in P and in E" {
	local measured avail k got want
	measured=$(f 'cases/*/configs/*/class' | sort -u | tr '\n' ' ')
	measured=${measured% }
	avail=$(cond core_classes)
	if ! has_word P "$measured" || ! has_word E "$measured"; then
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
		got=$(class_field "$k" verdict)
		say "  exe in $k at T=$(lowest_t "$k"): penalty $(class_field "$k" penalty_ms/median) ms, first $(class_field "$k" first/median_ms) ms, repeat $(class_field "$k" repeat/median_ms) ms, $got"
		[ "$got" = "$want" ] || bad=1
	done
	[ "$bad" = 0 ]
}
