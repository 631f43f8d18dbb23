#!/usr/bin/env bats
# bin/execlag, the kit from the user's own folder: one command for every
# user entry point, each with --help; the command measured is run in the
# current folder with its words as given; make install puts a kit that
# runs from any folder under PREFIX and make uninstall takes it away; a
# leading ~/ in a path the kit takes (DIR, RESULTS, RUN, A, B, OUT, PREFIX)
# is the home folder, as zsh passes it (the literal ~).  Deterministic: the
# probes run on the simulator, the runs are fixtures or simulated.

load test_helper/common-setup
load test_helper/quickrun

SIM='sim:latency=150 workers=1 key=inode seed=7'
COMMANDS="doctor measure repro remedies feedback compare check runs aggregate"

setup() {
	_common_setup
	_run_folders_setup
	X="$ROOT/bin/execlag"
	export HOME="$D/home"
	mkdir -p "$HOME"
	unset XDG_DATA_HOME EXECLAG_RESULTS
}

@test "execlag help lists every entry point, each with --help; none or an unknown command: one line, exit 2" {
	run_both -0 "$X" help
	local c
	for c in $COMMANDS; do
		assert_line --regexp "^  $c +"
	done
	assert_line "Results: $ROOT/results (--results DIR or EXECLAG_RESULTS for another)."
	run_both -0 "$X" --help
	assert_line --regexp '^  measure +'
	for c in $COMMANDS; do
		kit_untraced run_both -0 "$X" "$c" --help
		[[ "${lines[0]}" == "usage: execlag $c"* ]] || fail "$c --help: ${lines[0]}"
		[[ "$output" != *"scripts/$c"* ]] || fail "$c --help names scripts/$c"
	done
	run_both -0 "$X" version
	. "$ROOT/scripts/lib/version"
	kit_version_v "$ROOT"
	assert_output "execlag $_v ($ROOT)"
	# (was: "execlag: no command, or an unknown one, is one line (or the usage) and exit 2")
	run_sep "$X" frobnicate
	assert_equal "$status" 2
	assert_equal "$stderr" "execlag: unknown command 'frobnicate' (execlag help lists them)"
	run_sep "$X"
	assert_equal "$status" 2
	[[ "${stderr_lines[0]}" == "usage: execlag COMMAND"* ]]
}

@test "execlag measure runs the command here, its words as given; make's DIR and TAG do not move it" {
	mkdir -p "$D/proj" "$D/elsewhere"
	cd "$D/proj"
	DIR="$D/elsewhere" TAG=zz EXECLAG_RESULTS="$RESULTS" run_sep "$X" measure --probe 0 -- \
		sh -c 'pwd; printf "%s|" "$@"' _ 'two words' '$HOME' '*' '-n' "it's"
	assert_success
	assert_equal "${lines[0]}" "$PWD"
	assert_equal "${lines[1]}" "two words|\$HOME|*|-n|it's|"
	local m f
	for f in "$RESULTS"/*/measure.json; do m=$f; done
	# (one jq for the three: a jq start is 50 ms of CPU here)
	run_both -0 jq -r '.dir, .conditions."measure.tag", (.command | length)' "$m"
	assert_output "$PWD"$'\nnone\n9'
	# without --: the first word that is not an option starts the command
	rm -rf "${RESULTS:?}"/*
	EXECLAG_RESULTS="$RESULTS" run_sep "$X" measure --probe 0 pwd
	assert_success
	assert_output "$PWD"
	# --results first is taken, ~/ and all
	run_sep "$X" measure --results '~/res' --probe 0 true
	assert_success
	m=0
	for f in "$HOME/res"/*/measure.json; do [ ! -f "$f" ] || m=$((m + 1)); done
	assert_equal "$m" 1
}

@test "make install PREFIX=~/.local (literal ~): a kit that runs from any folder; uninstall removes it" {
	local p="$HOME/.local" out
	run_sep make -s --no-print-directory -C "$ROOT" install PREFIX='~/.local'
	assert_success
	[ -x "$p/bin/execlag" ]
	for f in scripts/repro scripts/measure scripts/probe/sysinfo cases/exe.case checks/kit.bash data/agents.tsv \
		docs/measure.md VERSION micro/bin/launch micro/bin/measure micro/bin/advise; do
		[ -e "$p/libexec/execlag/$f" ] || fail "not installed: $f"
	done
	# from another folder, with nothing of the checkout on PATH or in the environment
	mkdir -p "$D/work"
	cd "$D/work"
	run_both -0 "$p/bin/execlag" help
	assert_line "Results: $HOME/.local/share/execlag/results (--results DIR or EXECLAG_RESULTS for another)."
	assert_line "The kit: $p/libexec/execlag (installed)"
	run_sep "$p/bin/execlag" doctor --launcher "$SIM"
	assert_equal "$status" 1
	# the last line is the one verdict line (the lines grep '^verdict: penalty ' finds, by the shell)
	local l v=""
	for l in "${lines[@]}"; do [[ "$l" != "verdict: penalty "* ]] || v+=${v:+$'\n'}$l; done
	assert_equal "${lines[${#lines[@]} - 1]}" "$v"
	run_sep "$p/bin/execlag" measure --launcher "$SIM" --tag one -- sh -c 'echo ran here: "$(pwd)"'
	assert_success
	assert_output "ran here: $D/work"
	out=$HOME/.local/share/execlag/results
	local f m=""
	for f in "$out"/*-one/measure.json; do [ ! -f "$f" ] || m=$f; done
	[ -f "$m" ] || fail "no measure in $out: $(ls -R "$out")"
	run_both -0 "$p/bin/execlag" runs
	assert_line --partial "$out/"
	run_sep "$p/bin/execlag" measure --probe 0 --tag two true
	run_both -0 "$p/bin/execlag" compare one two
	assert_line --regexp '^N +'
	# a kit installed elsewhere reads the same results
	run_both -0 "$p/bin/execlag" version
	# the installed kit's version is the checkout's (scripts/lib/version reads both)
	. "$ROOT/scripts/lib/version"
	kit_version_v "$ROOT"
	assert_output "execlag $_v ($p/libexec/execlag)"
	# through a symbolic link on PATH too
	mkdir -p "$D/bin"
	ln -s "$p/bin/execlag" "$D/bin/execlag"
	PATH="$D/bin:$PATH" run_both -0 execlag version
	run_sep make -s --no-print-directory -C "$ROOT" uninstall PREFIX='~/.local'
	assert_success
	[ ! -e "$p/bin/execlag" ]
	[ ! -e "$p/libexec/execlag" ]
	# the results are the user's: they stay
	[ -d "$out" ]
}

@test "a leading ~/ in DIR, RESULTS, RUN, A, B and OUT is the home folder (the literal ~ zsh passes)" {
	mkdir -p "$HOME/proj"
	run_sep make -s --no-print-directory -C "$ROOT" measure CMD=pwd DIR='~/proj' PROBE=0 RESULTS='~/res' TAG=one
	assert_success
	assert_output "$HOME/proj"
	run_sep make -s --no-print-directory -C "$ROOT" measure CMD=true DIR='~/proj' PROBE=0 RESULTS='~/res' TAG=two
	assert_success
	local one two run
	local f
	for f in "$HOME/res"/*-one; do one=$f; done
	for f in "$HOME/res"/*-two; do two=$f; done
	run_both -0 make -s --no-print-directory -C "$ROOT" compare A="~/res/${one##*/}" B="~/res/${two##*/}"
	assert_line --regexp '^A: .*-one +pwd$'
	# a run: make runs, check, feedback and aggregate find it by ~/
	run_both -0 sh "$ROOT/scripts/repro" --cases exe --threads 1 --count 6 --launcher "$SIM" --results "$HOME/res" --tag r
	for f in "$HOME/res"/*-r; do run=$f; done
	run_both -0 make -s --no-print-directory -C "$ROOT" runs RESULTS='~/res'
	assert_line --partial "$run"
	# (one exercise's check, 5's: RUN is found as for the whole check;
	# tests/check.bats runs the seven pattern files)
	run_both -0 make -s --no-print-directory -C "$ROOT" check RUN="~/res/${run##*/}" EXERCISE=5
	assert_equal "${lines[0]%% — *}" "execlag check: $run (exercise 5, docs/workshop.md)"
	run_sep make -s --no-print-directory -C "$ROOT" feedback RUN="~/res/${run##*/}"
	# found, and refused as what it is: simulated
	[[ "$stderr" == *"$run is a simulated run"* ]] || fail "$stderr"
	run_sep make -s --no-print-directory -C "$ROOT" feedback MEASURE="~/res/${two##*/}"
	[[ "$stderr" != *"no such measure folder"* ]] || fail "$stderr"
	run_sep make -s --no-print-directory -C "$ROOT" aggregate DIR='~/res' OUT='~/agg'
	assert_success
	[ -f "$HOME/agg.md" ]
	[ -f "$HOME/agg.csv" ]
	# ~user and a ~ inside a path are left alone
	run_sep make -s --no-print-directory -C "$ROOT" measure CMD=true DIR='~nobody/proj' PROBE=0 RESULTS='~/res'
	assert_equal "$status" 2
	[[ "$stderr" == *"DIR '~nobody/proj' is not a folder"* ]]
}
