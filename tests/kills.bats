#!/usr/bin/env bats
# A killed launch is a finding (issue 42, item 2): a first launch the
# system ends before the program ran -- SIGKILL the kit did not send, or
# EPERM at exec -- is kept in samples.tsv (a `killed` line), counted per
# configuration and case ("killed 2 of 8 first launches"), never a time nor
# a failure, and it never ends the run; the kit's own hang kill and a
# --payload kill stay apart.  On the simulator (kill=R: exactly floor(N R)
# of N held checks) and on fixtures.

load test_helper/common-setup
load test_helper/quickrun
# count_of: grep -c by the shell
load test_helper/shellread

setup_file() {
	_common_setup
	make -C "$ROOT" -s micro/bin/mkfresh micro/bin/launch micro/bin/analyze >/dev/null
	# one simulated run: exe pays and a quarter of its checks are refused;
	# a hard link pays nothing, so nothing of it is refused
	local F="$BATS_FILE_TMPDIR"
	mkdir -p "$F/tmp" "$F/results"
	TMPDIR="$F/tmp" RESULTS="$F/results" LAUNCHER='sim:latency=20 kill=0.25 seed=1' \
		sh "$ROOT/scripts/repro" --cases exe,exe-hardlink --threads 1 --count 8 \
		>"$F/repro.out" 2>&1 || { cat "$F/repro.out" >&3; return 1; }
	ls -d "$F"/results/*/ >"$F/run"
}

setup() {
	_common_setup
	# (read by the shell: a cat a test)
	read -r RUN <"$BATS_FILE_TMPDIR/run"
}

@test "samples.tsv, run.json, report.md, the terminal keep each killed launch: killed 2 of 8, not failures" {
	# (was: "samples.tsv keeps each killed launch: a killed line naming its SIGKILL sample, meta kills kept")
	local s="$RUN/raw/exe-t1-all.samples.tsv"
	# (grep -c's counts by the shell: count_of)
	count_of n "$s" $'meta\tkills\tkept'
	assert_equal "$n" 1
	# the 4th and 8th held checks: artifacts 3 and 7, their first launches
	assert_equal "$(grep '^killed	' "$s")" $'killed\tfirst\t3\tSIGKILL\nkilled\tfirst\t7\tSIGKILL'
	assert_equal "$(awk -F'\t' '$1 == "sample" && $7 == 9 { printf "%s %s ", $2, $4 }' "$s")" "first 3 first 7 "
	count_of n "$RUN/raw/exe-hardlink-t1-all.samples.tsv" $'killed\t*'
	assert_equal "$n" 0
	# (was: "run.json: kills per case and configuration, out of the first launches made; not failures")
	# (both values by one jq, a line each)
	assert_equal "$(jq -c '[.cases[] | {name, kills}], (.cases[0].configs[0] | [.kills, .failures.first, .failures.samples, .first.n_ok])' "$RUN/run.json")" \
		'[{"name":"exe","kills":{"killed":2,"of":8}},{"name":"exe-hardlink","kills":{"killed":0,"of":8}}]
[{"killed":2,"of":8},0,[],6]'
	why=$(schema_skip_reason)
	[ -n "$why" ] || validate_run_json "$RUN/run.json"
	# (was: "report.md and the terminal say it: killed 2 of 8 first launches; nothing where none was")
	run_both grep -A4 '^## Killed launches$' "$RUN/report.md"
	assert_success
	assert_line "- exe: killed 2 of 8 first launches"
	refute_line --partial "exe-hardlink"
	count_of n "$BATS_FILE_TMPDIR/repro.out" '*killed 2 of 8 first launches (the system ended them before the program ran; not counted as times)*'
	assert_equal "$n" 1
	run_both grep -c "exe-hardlink: killed" "$BATS_FILE_TMPDIR/repro.out"
	assert_output 0
}

@test "thousands grouped: killed 5 of 3,840 first launches" {
	local d="$BATS_TEST_TMPDIR/r"
	mkdir -p "$d/raw"
	cp "$RUN/conditions.txt" "$d/"
	# one awk, not a printf a line in the test's shell (3,840 commands,
	# each through bats' debug trap)
	D="$d" awk 'BEGIN {
		d = ENVIRON["D"]
		printf "execlag-manifest\t1\ncase\texe\nkind\texe\nn\t3840\nworkdir\t%s\n", d
		for (i = 0; i < 3840; i++) printf "artifact\t%s\t%s/a%s\t%s/a%s\n", i, d, i, d, i
	}' >"$d/m"
	# 5 of 3,840: mr-boxington's rate (jdx/mr-boxington PR #134)
	run_both -0 "$BIN/launch" --manifest "$d/m" --out "$d/raw/exe-t1-all.samples.tsv" --quiet \
		--launcher 'sim:latency=5 kill=0.0013021 seed=1'
	run_both -0 "$BIN/analyze" --run "$d"
	assert_output --partial "exe: killed 5 of 3,840 first launches"
}

@test "the reader refuses a killed line naming no sample that ended so, in one line" {
	local s="$BATS_TEST_TMPDIR/s.tsv" d="$BATS_TEST_TMPDIR/r"
	mkdir -p "$d/raw"
	cp "$RUN/conditions.txt" "$d/"
	sed 's/^killed	first	3	SIGKILL$/killed	first	2	SIGKILL/' "$RUN/raw/exe-t1-all.samples.tsv" >"$d/raw/exe-t1-all.samples.tsv"
	run_sep -2 "$BIN/analyze" --run "$d"
	assert_equal "$stderr" "analyze: $d/raw/exe-t1-all.samples.tsv: killed first 2 names no sample of its own that ended so"
	sed 's/^killed	first	3	SIGKILL$/killed	first	3	EPERM/' "$RUN/raw/exe-t1-all.samples.tsv" >"$d/raw/exe-t1-all.samples.tsv"
	run_sep -2 "$BIN/analyze" --run "$d"
	assert_equal "$stderr" "analyze: $d/raw/exe-t1-all.samples.tsv: killed first 3 names no sample of its own that ended so"
	sed 's/^killed	first	3	SIGKILL$/killed	first	3	SIGTERM/' "$RUN/raw/exe-t1-all.samples.tsv" >"$d/raw/exe-t1-all.samples.tsv"
	run_sep -2 "$BIN/analyze" --run "$d"
	[[ $stderr == "analyze: $d/raw/exe-t1-all.samples.tsv:"*": bad killed HOW 'SIGTERM' (want SIGKILL or EPERM)" ]] || fail "$stderr"
	# a file from before kills were kept: nothing said of them, the kills
	# two failed launches as before
	grep -v -e '^killed	' -e '^meta	kills	' "$RUN/raw/exe-t1-all.samples.tsv" >"$d/raw/exe-t1-all.samples.tsv"
	run_both -0 "$BIN/analyze" --run "$d" --quiet
	assert_equal "$(jq -c '.cases[0] | [.kills, .configs[0].kills, .configs[0].failures.first]' "$d/run.json")" '[null,null,2]'
}

@test "the kit's own kills are not the system's: a --payload kill, a hang killed at its bound" {
	local w="$BATS_TEST_TMPDIR/w"
	mkdir -p "$w"
	# programs that kill themselves (SIGKILL): the manifest says so
	run_both -0 "$BIN/mkfresh" --kind exe --count 2 --dir "$w" --prefix p --manifest "$w/m" --payload kill --simulated
	assert_equal "$(grep '^payload	' "$w/m")" $'payload\tkill'
	run_both -0 "$BIN/launch" --manifest "$w/m" --out "$w/s" --quiet
	# (one awk counts: no wc and tr)
	assert_equal "$(awk -F'\t' '$1 == "sample" && $7 == 9 { n++ } END { print n + 0 }' "$w/s")" 4
	count_of n "$w/s" $'killed\t*'
	assert_equal "$n" 0
	# a launch the wedged checker never answers: the kit's hang kill
	run_both -0 "$BIN/launch" --manifest "$w/m" --out "$w/h" --quiet --hang-s 1 \
		--launcher 'sim:latency=5 wedge=1 seed=1'
	count_of n "$w/h" $'hang\t*'
	assert_equal "$n" 1
	count_of n "$w/h" $'killed\t*'
	assert_equal "$n" 0
}

# ---- what the system said: the kill lines of a log, without root ----

# The public lines (tests/fixtures/remedies/, byte for byte as the sources
# give them; its README names each): what analyze --kill-lines reads of
# each, LINE FAMILY PID FILE changed|same|-, keyed on the message whatever
# the layout (Console, log show, syslog, a crash report).
@test "the kill lines of every public fixture, three layouts and crash reports'; --of PATH, ndjson too" {
	# (was: "the kill lines of every public fixture, in their three layouts and the crash reports'")
	local R="$FIXTURES/remedies"
	kl() { run_both -0 "$BIN/analyze" --kill-lines "$R/$1"; }
	kl kill-page-console-go63997.txt
	assert_output $'1\tpage-denied\t4159\t-\t-\n2\tpage-rejected\t4159\t/Users/nils/Work/go/bin/gopls\tsame\n3\tpage-rejected\t4159\t/Users/nils/Work/go/bin/gopls\tsame'
	kl kill-page-changed-asepsis13.txt
	assert_output $'2\tpage-denied\t46270\t-\t-\n3\tpage-rejected\t46270\t/System/Library/PrivateFrameworks/DesktopServicesPriv.framework/Versions/A/DesktopServicesPriv\tchanged'
	kl kill-page-logshow-nixpkgs162795.txt
	assert_output $'1\tpage-denied\t23225\t-\t-'
	kl kill-inplace-wild2375.txt
	assert_output $'1\tcrash-report\t-\t-\t-\n2\tpage-rejected\t-\t-\tchanged'
	kl kill-hardlink-asp-cargo10060.txt
	assert_output $'1\tpolicy\t33133\t/Users/eric/Proj/rust/toml-rs/scratch/a/target/debug/a-337f91948997ff1e\t-'
	kl kill-loadsig-browserwing.txt
	assert_output $'1\tload-signature\t63530\tbrowserwing\t-\n2\tpolicy\t-\t-\t-'
	kl kill-crash-ips-openms7689.txt
	assert_output $'1\tcrash-report\t-\t-\t-\n2\tcrash-report\t-\t-\t-'
	kl kill-crash-text-sioyek806.txt
	assert_output $'1\tcrash-report\t-\t-\t-\n5\tcrash-report\t-\t-\t-'
	# nothing at all where the source found nothing (mr-boxington, testscript),
	# and AMFI's lines before a kill are not the kill
	for f in kill-hardlink-silent-mrboxington134.txt kill-hardlink-testscript-gointernal220.txt amfi-logshow-nixpkgs162795.txt; do
		kl "$f"
		assert_output ""
	done
	# (was: "--kill-lines --of PATH: the program's lines and its pid's; a run's ndjson excerpt too")
	local j="$BATS_TEST_TMPDIR/x.log.ndjson"
	# cs_invalid_page names the pid only: it is the program's by the pid
	run_both -0 "$BIN/analyze" --kill-lines "$R/kill-page-console-go63997.txt" --of /Users/nils/Work/go/bin/gopls
	# (each line's first field, each followed by a space: cut -f1 | tr, by the shell)
	local l f1=""
	for l in "${lines[@]}"; do f1+="${l%%$'\t'*} "; done
	assert_equal "$f1" "1 2 3 "
	run_both -0 "$BIN/analyze" --kill-lines "$R/kill-page-console-go63997.txt" --of /Users/nils/Work/go/bin/go
	assert_output ""
	# a line that gives a name, not a path
	run_both -0 "$BIN/analyze" --kill-lines "$R/kill-loadsig-browserwing.txt" --of /tmp/w/browserwing
	assert_output $'1\tload-signature\t63530\tbrowserwing\t-'
	# the kit's own excerpt form: each message an eventMessage (made here
	# from the Console lines' messages: no source has these lines in ndjson)
	cut -f4 "$R/kill-page-console-go63997.txt" | jq -R -c '{eventMessage: ., processImagePath: "/kernel"}' >"$j"
	run_both -0 "$BIN/analyze" --kill-lines "$j" --of /Users/nils/Work/go/bin/gopls
	assert_equal "$(printf '%s\n' "$output" | cut -f2-5 | sort -u | tr '\n' '|')" \
		$'page-denied\t4159\t-\t-|page-rejected\t4159\t/Users/nils/Work/go/bin/gopls\tsame|'
	run_sep -2 "$BIN/analyze" --of /x
	assert_equal "$stderr" "analyze: --of goes with --kill-lines (try --help)"
}

@test "report.md says what the config's log excerpt said of its killed programs, by their paths" {
	local d="$BATS_TEST_TMPDIR/r" m obj3 obj7 R="$FIXTURES/remedies"
	cp -R "$RUN" "$d"
	m="$d/raw/exe-t1-all.manifest"
	# (artifacts 3's and 7's objects, by the shell's read: no awk)
	local a b c
	while IFS=$'\t' read -r a b c _; do
		[ "$a" != artifact ] || [ "$b" != 3 ] || obj3=$c
		[ "$a" != artifact ] || [ "$b" != 7 ] || obj7=$c
	done <"$m"
	# the kernel's lines as the kit's excerpt keeps them (eventMessage): the
	# asepsis kill (cs_mtime != mtime) made to name artifact 3 and pid 501,
	# the go kill (==) artifact 7; a line of another program is not theirs
	# (made here from the public lines: no source has them in ndjson)
	{
		sed -n '2,3p' "$R/kill-page-changed-asepsis13.txt" | sed 's/^.*kernel\[0\]: //' |
			sed -e "s|/System/Library/PrivateFrameworks/DesktopServicesPriv.framework/Versions/A/DesktopServicesPriv|$obj3|" -e 's/46270/501/g'
		sed -n '2p' "$R/kill-page-console-go63997.txt" | cut -f4 | sed "s|/Users/nils/Work/go/bin/gopls|$obj7|"
		sed 's/^.*kernel: //' "$R/kill-page-logshow-nixpkgs162795.txt"
	} | jq -R -c '{eventMessage: ., processImagePath: "/kernel"}' >"$d/raw/exe-t1-all.log.ndjson"
	run_both -0 "$BIN/analyze" --run "$d" --quiet
	assert_equal "$(grep '^- exe: ' "$d/report.md")" \
		"- exe: killed 2 of 8 first launches; the log: 3 kernel lines of them (1: a page rejected because the file changed after its signature was loaded, cs_mtime != mtime)"
	assert_equal "$(jq -c '.cases[0].configs[0].kills' "$d/run.json")" '{"killed":2,"of":8,"log":{"lines":3,"changed":1}}'
	why=$(schema_skip_reason)
	[ -n "$why" ] || validate_run_json "$d/run.json"
	# an excerpt with nothing of them: said so (as mr-boxington found)
	: >"$d/raw/exe-t1-all.log.ndjson"
	run_both -0 "$BIN/analyze" --run "$d" --quiet
	assert_equal "$(grep '^- exe: ' "$d/report.md")" "- exe: killed 2 of 8 first launches; nothing in the log of them"
}
