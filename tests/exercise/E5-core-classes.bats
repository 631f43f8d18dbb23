#!/usr/bin/env bats
# Exercise 5 (docs/workshop.md): P vs E cores — the fresh penalty of exe
# launched from each core class.  No public source measured launch latency
# by core type (docs/workshop.md, exercise 5), so the expectation is P1's, in each
# class; the numbers side by side are the exercise.
load ../pattern/lib

setup() { pattern_setup; }

# class_field CLASS FILTER: FILTER on exe's config of CLASS at its lowest T;
# numbers with two decimals, n/a for null.
class_field() {
	jq -r --arg k "$1" "$JQ_F2
		[.cases[] | select(.name == \"exe\") | .configs[] | select(.class == \$k)] | min_by(.threads) | $2 | f2" "$J"
}

has_word() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }

@test "E5 core classes: the fresh penalty of exe in P and in E" {
	local measured avail k got want
	measured=$(jq -r '[.cases[].configs[].class] | unique | join(" ")' "$J")
	avail=$(cond core_classes)
	if ! has_word P "$measured" || ! has_word E "$measured"; then
		if has_word P "$avail" && has_word E "$avail"; then
			skip "not applicable: this run measured class '$measured' only; this machine has $avail: make repro-full, or make repro CLASSES=P,E"
		fi
		skip "not applicable: this machine has one core class ($avail), so there is no P/E split to compare"
	fi
	require_cases exe
	require_expectation
	want=$(penalty_expected)
	say "E5 core classes — $(context_text); expected: $want in both classes (no source measured a difference)"
	bad=0
	for k in P E; do
		got=$(class_field "$k" .verdict)
		say "  exe in $k at T=$(class_field "$k" '.threads | tostring'): penalty $(class_field "$k" .penalty_ms.median) ms, first $(class_field "$k" .first.median_ms) ms, repeat $(class_field "$k" .repeat.median_ms) ms, $got"
		[ "$got" = "$want" ] || bad=1
	done
	[ "$bad" = 0 ]
}
