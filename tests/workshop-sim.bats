#!/usr/bin/env bats
# The workshop without root (issue 24, item 8): every exercise the guide
# gives a simulated form (docs/workshop.md, the lines marked "# no root")
# runs as written, says "simulated", and make check judges it by the
# settings it was given: every pattern that applies holds.  The simulator
# is seeded, so this is the same on every machine.

load test_helper/common-setup

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s build >/dev/null
}

setup() {
	_common_setup
	_run_folders_setup
}

# the guide's simulated commands, one a line
guide_lines() {
	sed -n 's/^\(make repro LAUNCHER=.*[^ ]\) *# no root$/\1/p' "$ROOT/docs/workshop.md"
}

@test "the guide gives every gated exercise a simulated form, with no sudo" {
	run -0 guide_lines
	[ "${#lines[@]}" -ge 4 ]
	refute_output --partial sudo
	refute_output --partial GATE=
	# each gated exercise has its simulated twin, with the same settings
	local n_gate n_sim
	n_gate=$(grep -c "^sudo make repro GATE=" "$ROOT/docs/workshop.md")
	n_sim=$(guide_lines | wc -l | tr -d ' ')
	[ "$n_sim" -ge $((n_gate - 2)) ] || fail "$n_gate gated commands, $n_sim simulated"
}

@test "each simulated exercise runs as written, says simulated, and make check finds its patterns" {
	local line run
	guide_lines >"$D/lines"
	while IFS= read -r line; do
		rm -rf "$RESULTS" && mkdir -p "$RESULTS"
		# the guide's words, as a user types them (make's own variables)
		(cd "$ROOT" && sh -c "$line") >"$D/out" 2>&1 3>&- || fail "'$line' failed: $(tail -n 5 "$D/out")"
		grep -q "SIMULATED run" "$D/out" || fail "'$line' did not say it was simulated"
		run=$(ls -d "$RESULTS"/*/)
		grep -q '^launcher=sim:' "$run/conditions.txt" || fail "'$line': no launcher=sim in its conditions"
		grep -q '^gate.active=0$' "$run/conditions.txt"
		run sh "$ROOT/scripts/check" --run "$run"
		[ "$status" -eq 0 ] || fail "make check of '$line': $output"
		assert_output --partial simulated
		refute_output --partial "DOES NOT HOLD"
	done <"$D/lines"
}
