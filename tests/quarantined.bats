#!/usr/bin/env bats
# The quarantined case: macOS only, and only when named. Off macOS it is
# refused with one line and exit 2, by repro and by mkfresh alike.

load test_helper/common-setup

setup() {
	_common_setup
	_run_folders_setup
	mkdir -p "$D/w"
}

# (two tests of the refusal off macOS, one test)
@test "off macOS, repro --cases and mkfresh --kind quarantined are refused: one line, exit 2, nothing made" {
	# (was: "off macOS, repro --cases quarantined is refused: one line, exit 2, nothing made")
	local os
	os=$(uname -s)
	[ "$os" != Darwin ] || skip "macOS runs this case"
	make -C "$ROOT" -s build >/dev/null
	run --separate-stderr sh "$ROOT/scripts/repro" --cases quarantined
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "$stderr" "execlag: case 'quarantined' does not run on $os (platforms: darwin)"
	# (what find -mindepth 1 would list: nothing, hidden files neither; by globs)
	assert_empty "$D/tmp" "$D/results"
	# the same through make, as a user would type it
	run --separate-stderr make -s -C "$ROOT" repro CASES=exe,quarantined
	assert_equal "$status" 2
	[[ "$stderr" == *"case 'quarantined' does not run on"* ]] || fail "stderr: $stderr"
	# (was: "off macOS, mkfresh --kind quarantined is refused: one line, exit 2, no manifest")
	run --separate-stderr "$BIN/mkfresh" --kind quarantined --count 2 --dir "$D/w" \
		--prefix q --manifest "$D/m"
	assert_equal "$status" 2
	assert_equal "$stderr" "mkfresh: quarantined is a macOS-only case"
	[ ! -e "$D/m" ] || fail "$D/m was made"
	assert_empty "$D/w"
}

@test "the case file: kind quarantined, darwin only, not run unless named" {
	# (read by the case files' one reader, scripts/lib/cases)
	. "$ROOT/scripts/lib/cases"
	case_val "$ROOT/cases" quarantined kind
	assert_equal "$_cv" quarantined
	case_val "$ROOT/cases" quarantined platforms
	assert_equal "$_cv" darwin
	case_val "$ROOT/cases" quarantined default
	assert_equal "$_cv" no
	# repro leaves default=no cases out of its default selection: a kit
	# whose cases are script and a copy of it marked default=no, on any
	# platform, runs script alone (simulated) and names the copy when asked
	local k="$D/kit"
	mkdir -p "$k/cases"
	cp -R "$ROOT/scripts" "$k/"
	ln -s "$ROOT/micro" "$k/micro"
	cp "$ROOT/cases/script.case" "$ROOT/cases/kinds" "$k/cases/"
	sed 's/^name=script$/name=zz/; $a\
default=no' "$ROOT/cases/script.case" >"$k/cases/zz.case"
	run -0 sh "$k/scripts/repro" --launcher 'sim:latency=0 seed=7' --threads 1 --count 6
	run -0 jq -r '[.cases[].name] | join(",")' "$(echo "$RESULTS"/*/run.json)"
	assert_output script
	run -0 sh "$k/scripts/repro" --launcher 'sim:latency=0 seed=7' --threads 1 --count 6 --cases zz
	run "$BIN/mkfresh" --help
	assert_output --partial "quarantined (macOS only)"
}

@test "com.apple.quarantine's value is FLAGS;HEXTIME;AGENT;UUID (docs/macos.md §6); off macOS none is set" {
	# the value mkfresh sets on macOS, made by the code it calls
	# (micro/plat/quarantine.c); off macOS quarantine_set sets nothing
	make -C "$ROOT" -s micro/bin/unit-quarantine >/dev/null
	run -0 "$BIN/unit-quarantine"
	assert_line "ok 1 - the value at 1796406122 (2026-12-04)"
	refute_output --partial "not ok"
	# the ENOTSUP check runs off macOS only
	if [ "$(uname -s)" = Darwin ]; then assert_line "1..5"; else assert_line "1..6"; fi
}
