#!/usr/bin/env bats
# The workshop without root (issue 24, item 8): every exercise the guide
# gives a simulated form (docs/workshop.md, the lines marked "# no root")
# runs as written, says "simulated", and make check judges it by the
# settings it was given: every pattern that applies holds.  The simulator
# is seeded, so this is the same on every machine.

# bats file_tags=heavy
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

# run_lines FILE: output and lines as `run cat FILE` sets them, by the shell
run_lines() {
	output=""
	IFS= read -r -d '' output <"$1" || :
	while [ "${output%$'\n'}" != "$output" ]; do output=${output%$'\n'}; done
	lines=()
	[ -z "$output" ] || IFS=$'\n' read -d '' -r -a lines <<<"$output" || :
}

@test "the guide's simulated form of every gated exercise: runs as written, says simulated, patterns hold" {
	# (was: "the guide gives every gated exercise a simulated form, with no sudo")
	# (the guide's lines once, into a file, read by the shell; the gated
	# commands counted by the shell too: no grep, wc or tr)
	guide_lines >"$D/lines" || fail "guide_lines failed"
	run_lines "$D/lines"
	[ "${#lines[@]}" -ge 4 ]
	refute_output --partial sudo
	refute_output --partial GATE=
	# each gated exercise has its simulated twin, with the same settings
	local n_gate=0 n_sim=${#lines[@]} l
	while IFS= read -r l || [ -n "$l" ]; do
		[[ "$l" != "sudo make repro GATE="* ]] || n_gate=$((n_gate + 1))
	done <"$ROOT/docs/workshop.md"
	[ "$n_sim" -ge $((n_gate - 2)) ] || fail "$n_gate gated commands, $n_sim simulated"
	# (was: "each simulated exercise runs as written, says simulated, and make check finds its patterns")
	local line run i n rc pids="" text
	# the exercises at once, each with its own results and work folders
	# (they share nothing but the built kit and the compiled templates), and
	# make check of each run as it ends: the simulator is seeded, so each
	# run is the one it would be alone.  The first runs alone, so that the
	# others find the templates it compiled (EXECLAG_TEMPLATES, the
	# suite's): started together each compiled every one again.
	i=0
	while IFS= read -r line; do
		i=$((i + 1))
		mkdir -p "$D/$i/results" "$D/$i/tmp"
		# the guide's words, as a user types them (make's own variables)
		(
			rc=0
			cd "$ROOT" && RESULTS="$D/$i/results" TMPDIR="$D/$i/tmp" sh -c "$line" >"$D/$i/out" 2>&1 3>&- || rc=$?
			echo "$rc" >"$D/$i/rc"
			# make check of the run it made (read below)
			if [ "$rc" = 0 ]; then
				rc=0
				set -- "$D/$i/results"/*/
				RESULTS="$D/$i/results" TMPDIR="$D/$i/tmp" sh "$ROOT/scripts/check" --run "$1" >"$D/$i/check" 2>&1 3>&- || rc=$?
				echo "$rc" >"$D/$i/check.rc"
			fi
		) &
		if [ "$i" = 1 ]; then wait "$!"; else pids="$pids $!"; fi
	done <"$D/lines"
	n=$i
	for i in $pids; do wait "$i"; done
	i=0
	while IFS= read -r line; do
		i=$((i + 1))
		# (the files read by the shell, not by a cat each)
		rc="" && { read -r rc <"$D/$i/rc"; } 2>/dev/null || :
		[ "$rc" = 0 ] || fail "'$line' failed: $(tail -n 5 "$D/$i/out")"
		# (the files read and matched by the shell, not by a grep each)
		text=""
		IFS= read -r -d '' text <"$D/$i/out" || :
		[[ "$text" == *"SIMULATED run"* ]] || fail "'$line' did not say it was simulated"
		set -- "$D/$i/results"/*/
		run=$1
		[ -d "$run" ] || fail "'$line': no run folder"
		text=""
		IFS= read -r -d '' text <"$run/conditions.txt" || :
		[[ $'\n'"$text" == *$'\n'launcher=sim:* ]] || fail "'$line': no launcher=sim in its conditions"
		[[ $'\n'"$text"$'\n' == *$'\n'gate.active=0$'\n'* ]] || fail "'$line': no gate.active=0 in its conditions"
		output=""
		IFS= read -r -d '' output <"$D/$i/check" || :
		while [ "${output%$'\n'}" != "$output" ]; do output=${output%$'\n'}; done
		read -r rc <"$D/$i/check.rc"
		[ "$rc" = 0 ] || fail "make check of '$line': $output"
		assert_output --partial simulated
		refute_output --partial "DOES NOT HOLD"
	done <"$D/lines"
	[ "$i" -eq "$n" ]
	[ "$n" -ge 4 ]
}
