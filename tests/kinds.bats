#!/usr/bin/env bats
# The kinds of artifact are one table (issue 35, item 3): cases/kinds, a row
# a kind (docs/formats.md, "Kinds").  Every reader knows every row: mkfresh
# makes it (and refuses it only where its platforms say), the simulator
# models its launch, scripts/repro runs its case and pads it with SIZE
# exactly where the row says compiled, feedback.txt says what its artifacts
# are, and the build refuses a case of a kind the table has not.  These
# tests read the table as scripts/repro does and ask each program.

load test_helper/common-setup
load test_helper/quickrun

# kinds_table: KINDS (names, in the table's order), and COMPILED, PAYLOAD,
# PLATFORMS, MEANING (bash arrays, by name's index), from cases/kinds, as
# its one reader reads it (scripts/lib/cases).  Without bats' DEBUG trap
# (kit_untraced): the reader's loop is some 600 commands a test.
kinds_table() {
	kit_untraced kinds_table_untraced
}
kinds_table_untraced() {
	local k c p pl m
	. "$ROOT/scripts/lib/cases"
	kinds_read "$ROOT/cases"
	here
	KINDS=() COMPILED=() PAYLOAD=() PLATFORMS=() MEANING=()
	while read -r k c p pl m; do
		[ -n "$k" ] || continue
		KINDS+=("$k") COMPILED+=("$c") PAYLOAD+=("$p") PLATFORMS+=("$pl") MEANING+=("$m")
	done <<<"$_kinds"
	[ "${#KINDS[@]}" -gt 0 ]
}

# HERE: this platform in the table's words (kinds_table sets it): from
# KINDS_UNAME, setup_file's uname -s (exported), not a uname a test
here() {
	[ -n "${KINDS_UNAME:-}" ] || KINDS_UNAME=$(uname -s)
	case $KINDS_UNAME in Darwin) HERE=darwin ;; Linux) HERE=linux ;; *) HERE=other ;; esac
}

# made_here I: whether the I-th kind is made on this platform
made_here() {
	case ",${PLATFORMS[$1]}," in ,any, | *",$HERE,"*) return 0 ;; esac
	return 1
}

# mkrun ARGS...: mkfresh ARGS, called without bats' run (a fork of its
# bash): ST its exit status, ERRN the lines it wrote on stderr, ERR1 the
# first
mkrun() {
	local e="$BATS_TEST_TMPDIR/mkrun.err" l
	ST=0
	"$BIN/mkfresh" "$@" >/dev/null 2>"$e" || ST=$?
	ERRN=0 ERR1=""
	while IFS= read -r l || [ -n "$l" ]; do
		ERRN=$((ERRN + 1))
		[ "$ERRN" != 1 ] || ERR1=$l
	done <"$e"
}

# made_or_na I ARGS...: mkfresh makes the I-th kind with ARGS, or says in
# one line and exit 5 that it cannot be made on this machine (exe-clone
# where the file system has no clones), its manifest not written; sets NA
# (1: n/a)
made_or_na() {
	local ki=$1
	shift
	NA=0
	mkrun --kind "${KINDS[$ki]}" "$@"
	if [ "$ST" = 5 ]; then
		assert_equal "$ERRN" 1
		[[ $ERR1 == "mkfresh: n/a: ${KINDS[$ki]} cannot be made here: "?*": "?* ]] || fail "${KINDS[$ki]}: $ERR1"
		NA=1
		return 0
	fi
	assert_equal "$ST" 0
}

# (the loops' index is ki: bats' run sets a global i, in its version check)
setup_file() {
	_common_setup
	make -C "$ROOT" -s micro/bin/mkfresh micro/bin/launch micro/bin/analyze micro/bin/fbtext >/dev/null
	# one simulated run of every kind made here, every compiled one padded
	# (SIZE=1k), its case named after it: made once, the tests read it
	local F="$BATS_FILE_TMPDIR" ki list=""
	KINDS_UNAME=$(uname -s)
	export KINDS_UNAME
	kinds_table
	for ki in "${!KINDS[@]}"; do
		made_here "$ki" && list="$list,${KINDS[$ki]}"
	done
	mkdir -p "$F/tmp" "$F/results"
	TMPDIR="$F/tmp" RESULTS="$F/results" LAUNCHER='sim:latency=0 seed=1' \
		sh "$ROOT/scripts/repro" --cases "${list#,}" --threads 1 --count 8 --sizes 1k \
		>"$F/repro.out" 2>&1 || { cat "$F/repro.out" >&3; return 1; }
	ls -d "$F"/results/*/ >"$F/run"
}

setup() {
	_common_setup
	_run_folders_setup
	kinds_table
	# the run's folder as $(cat) gives it (trailing newlines cut), read by
	# the shell: no process a test
	RUN=''
	IFS= read -r -d '' RUN <"$BATS_FILE_TMPDIR/run" || :
	while [ "${RUN%$'\n'}" != "$RUN" ]; do RUN=${RUN%$'\n'}; done
}

@test "the kinds table; mkfresh names each kind, makes it where it may; --size, --payload for their kinds" {
	# (was: "the kinds table: a row a kind, its name, yes or no twice, platforms and a meaning")
	local ki
	for ki in "${!KINDS[@]}"; do
		[[ ${KINDS[$ki]} =~ ^[a-z0-9][a-z0-9-]*$ ]] || fail "row $ki: name '${KINDS[$ki]}'"
		case ${COMPILED[$ki]}:${PAYLOAD[$ki]} in yes:yes | yes:no | no:yes | no:no) ;; *) fail "${KINDS[$ki]}: ${COMPILED[$ki]} ${PAYLOAD[$ki]}" ;; esac
		[ -n "${MEANING[$ki]}" ] || fail "${KINDS[$ki]}: no meaning"
	done
	# (was: "every kind is one mkfresh names in --help, in the table's order, and makes where its platforms say")
	local ki W="$BATS_TEST_TMPDIR" out made=() want="" nl=$'\n'
	run_both -0 "$BIN/mkfresh" --help
	# the kinds: lines, to the first option (sed -n '/^kinds: /,/^  --/p' |
	# sed '$d', the words less "kinds: ", " (macOS only)" and the commas, in
	# the shell)
	local l on=0 words=()
	for l in "${lines[@]}"; do
		if [ "$on" = 0 ]; then
			[[ $l == "kinds: "* ]] || continue
			on=1 l=${l#kinds: }
		elif [[ $l == "  --"* ]]; then
			break
		fi
		l=${l/ (macOS only)/}
		# shellcheck disable=SC2206 # split into words on purpose, as echo $out
		words+=(${l//,/})
	done
	assert_equal "${words[*]}" "${KINDS[*]}"
	# a folder a kind, the same prefix in each: the compiled kinds share
	# their templates (EXECLAG_TEMPLATES), compiled once, not once a kind
	local dirs=()
	for ki in "${!KINDS[@]}"; do dirs+=("$W/d$ki"); done
	mkdir "${dirs[@]}"
	for ki in "${!KINDS[@]}"; do
		if made_here "$ki"; then
			made_or_na "$ki" --count 1 --dir "$W/d$ki" --prefix p --manifest "$W/m$ki" --simulated
			if [ "$NA" = 1 ]; then
				[ ! -e "$W/m$ki" ] || fail "${KINDS[$ki]}: n/a, and a manifest was written"
				continue
			fi
			made+=("$W/m$ki")
			want="$want${KINDS[$ki]}"$'\n'
		else
			mkrun --kind "${KINDS[$ki]}" --count 1 --dir "$W/d$ki" --prefix p --manifest "$W/m$ki"
			assert_equal "$ST" 2
			assert_equal "$ERRN" 1
			[[ $ERR1 == "mkfresh: ${KINDS[$ki]} is a "* ]] || fail "${KINDS[$ki]}: $ERR1"
			[ ! -e "$W/m$ki" ] || fail "${KINDS[$ki]}: a manifest was written"
		fi
	done
	# each manifest made says its kind (one awk for them all, in order)
	assert_equal "$(awk -F '\t' '$1 == "kind" { print $2 }' "${made[@]}")" "${want%"$nl"}"
	# (was: "mkfresh takes --size for the compiled kinds alone, --payload kill for the payload kinds alone")
	local ki W="$BATS_TEST_TMPDIR" compiled="" payload="" padded=() want="" nl=$'\n'
	for ki in "${!KINDS[@]}"; do
		[ "${COMPILED[$ki]}" = no ] || compiled="$compiled, ${KINDS[$ki]}"
		[ "${PAYLOAD[$ki]}" = no ] || payload="$payload, ${KINDS[$ki]}"
	done
	compiled=${compiled#, } payload=${payload#, }
	# "a, b and c"
	# (sed 's/\(.*\), /\1 and /': the last ", ", in the shell)
	[[ $payload != *", "* ]] || payload="${payload%, *} and ${payload##*, }"
	# two folders a kind, the same prefix in each: the compiled kinds share
	# their templates (EXECLAG_TEMPLATES), compiled once, not once a kind
	local dirs=()
	for ki in "${!KINDS[@]}"; do dirs+=("$W/ds$ki" "$W/dk$ki"); done
	mkdir "${dirs[@]}"
	for ki in "${!KINDS[@]}"; do
		made_here "$ki" || continue
		if [ "${COMPILED[$ki]}" = yes ]; then
			made_or_na "$ki" --count 1 --dir "$W/ds$ki" --prefix s --manifest "$W/s$ki" --simulated --size 1k
			[ "$NA" = 1 ] || { padded+=("$W/s$ki") && want="${want}1024"$'\n'; }
		else
			mkrun --kind "${KINDS[$ki]}" --count 1 --dir "$W/ds$ki" --prefix s --manifest "$W/s$ki" --size 1k
			assert_equal "$ST $ERRN $ERR1" "2 1 mkfresh: --size is only for the compiled kinds ($compiled)"
		fi
		if [ "${PAYLOAD[$ki]}" = yes ]; then
			mkrun --kind "${KINDS[$ki]}" --count 1 --dir "$W/dk$ki" --prefix k --manifest "$W/k$ki" --simulated --payload kill
			assert_equal "$ST" 0
		else
			mkrun --kind "${KINDS[$ki]}" --count 1 --dir "$W/dk$ki" --prefix k --manifest "$W/k$ki" --payload kill
			assert_equal "$ST $ERRN $ERR1" "2 1 mkfresh: --payload kill is only for $payload"
		fi
	done
	# each padded manifest says the padding (one awk for them all)
	assert_equal "$(awk -F '\t' '$1 == "pad" { print $2 }' "${padded[@]}")" "${want%"$nl"}"
}

@test "the simulator models every kind's launch, of none other; feedback.txt says every kind's artifacts" {
	# (was: "the simulator models the launch of every kind, made here or not; of none other")
	local ki W="$BATS_TEST_TMPDIR" want=""
	for ki in "${!KINDS[@]}"; do
		printf 'execlag-manifest\t1\ncase\tc%s\nkind\t%s\nn\t2\nworkdir\t%s\nartifact\t0\t%s/a\t%s/a\nartifact\t1\t%s/b\t%s/b\n' \
			"$ki" "${KINDS[$ki]}" "$W" "$W" "$W" "$W" "$W" >"$W/m$ki"
		"$BIN/launch" --manifest "$W/m$ki" --out "$W/s$ki" --launcher 'sim:latency=5 seed=1' --quiet
		want="${want}2 "
	done
	# each samples file: two first launches (one awk for them all)
	assert_equal "$(awk 'FNR == 1 && NR > 1 { printf "%d ", n; n = 0 } /^sample\tfirst\t/ { n++ } END { printf "%d ", n }' "$W"/s[0-9]*)" "$want"
	sed 's/^kind	.*/kind	no-such-kind/' "$W/m0" >"$W/bad"
	run_sep -2 "$BIN/launch" --manifest "$W/bad" --out "$W/sbad" --launcher 'sim:latency=5 seed=1' --quiet
	assert_equal "$stderr" "launch: the simulator has no model of the kind 'no-such-kind'"
	# (was: "feedback.txt says what every kind's artifacts are, by its row")
	local ki
	# a case of every kind, made here or not: copies of a measured run's
	# first case (fbtext refuses a simulated run), renamed
	mkdir -p "$BATS_TEST_TMPDIR/r"
	jq -n --slurpfile r "$FIXTURES/compare/online/run.json" --args \
		'$r[0] | .cases = [$ARGS.positional[] as $k | ($r[0].cases[0] | .name = ("c-" + $k) | .kind = $k)]' \
		"${KINDS[@]}" >"$BATS_TEST_TMPDIR/r/run.json"
	run_both -0 "$BIN/fbtext" --run "$BATS_TEST_TMPDIR/r"
	for ki in "${!KINDS[@]}"; do
		assert_output --partial "- c-${KINDS[$ki]} (${MEANING[$ki]}), T="
	done
	refute_output --partial "a case of the kit"
}

@test "every kind is the kit's case of its name; repro runs those made here, SIZE pads the compiled" {
	local ki c manifests nas ran rest nl=$'\n' nhere=0
	manifests=$(cd "$RUN/raw" && ls *.manifest | grep -v '\.ref\.manifest$' | tr '\n' ' ')
	# the n/a lines of the conditions, and each case run with its kind
	# ("NAME KIND" a line): one grep, one jq, matched below in the shell
	nas=$nl$(grep '^na\.' "$RUN/conditions.txt" || :)$nl
	ran=$nl$(jq -r '.cases[] | "\(.name) \(.kind)"' "$RUN/run.json")$nl
	for ki in "${!KINDS[@]}"; do
		c=${KINDS[$ki]}
		[ -f "$ROOT/cases/$c.case" ] || fail "$c: no cases/$c.case"
		case_val "$ROOT/cases" "$c" kind
		assert_equal "$_cv" "$c"
		if ! made_here "$ki"; then
			run_sep -2 sh "$ROOT/scripts/repro" --cases "$c"
			[[ $stderr == "execlag: case '$c' does not run on "* ]] || fail "$c: $stderr"
			continue
		fi
		nhere=$((nhere + 1))
		if [[ $nas == *"${nl}na.${c//-/_}=$c: $c cannot be made here: "* ]]; then
			# n/a on this machine: said in the conditions, and no result
			[[ $ran != *"$nl$c "* ]] || fail "$c: n/a, and a result"
			# and in report.md, under its own heading
			grep -q "^- $c: $c cannot be made here: " "$RUN/report.md" || fail "$c: n/a, not in report.md"
			grep -q '^## Not applicable here$' "$RUN/report.md" || fail "no 'Not applicable here' in report.md"
			NAS=$((${NAS:-0} + 1))
			continue
		fi
		# one case of the name, of its kind
		[[ $ran == *"$nl$c $c$nl"* ]] || fail "$c: no case $c of kind $c in run.json"
		rest=${ran#*"$nl$c "}
		[[ $rest != *"$nl$c "* ]] || fail "$c: two cases $c in run.json"
		if [ "${COMPILED[$ki]}" = yes ]; then
			[[ " $manifests" == *" $c-t1-all-s1k.manifest "* ]] || fail "$c: not padded: $manifests"
		else
			[[ " $manifests" == *" $c-t1-all.manifest "* ]] || fail "$c: padded: $manifests"
		fi
	done
	# and no other case ran
	assert_equal "$(jq -r '.cases | length' "$RUN/run.json")" "$((nhere - ${NAS:-0}))"
}

@test "the build refuses a kinds row it cannot read and a case whose kind is no row" {
	local c="$BATS_TEST_TMPDIR/cases"
	bad() { # bad WHAT [--kinds]: casegen on $c fails with one line naming WHAT
		run_sep sh "$ROOT/scripts/tool/casegen" ${2:+"$2"} "$c"
		assert_equal "$status" 2
		assert_equal "${#stderr_lines[@]}" 1
		[[ "$stderr" == *"$1"* ]] || fail "stderr: $stderr"
		assert_output ""
	}
	cp -R "$ROOT/cases" "$c"
	run_both -0 sh "$ROOT/scripts/tool/casegen" --kinds "$c"
	# a row per kind, in the table's order
	# (sed -n 's/^	KIND([A-Z_]*, "\([^"]*\)".*/\1/p', in the shell)
	local l names="" re=$'^\tKIND\\([A-Z_]*, "([^"]*)"'
	for l in "${lines[@]}"; do
		if [[ $l =~ $re ]]; then names+="${BASH_REMATCH[1]} "; fi
	done
	assert_equal "$names" "${KINDS[*]} "
	sed 's/^kind=exe$/kind=exe-teleport/' "$ROOT/cases/exe.case" >"$c/exe.case"
	bad "exe.case: kind=exe-teleport is no kind of $c/kinds, nor suite"
	cp "$ROOT/cases/exe.case" "$c/exe.case"
	printf 'exe   yes yes any   a second exe\n' >>"$c/kinds"
	bad "the kind exe twice" --kinds
	cp "$ROOT/cases/kinds" "$c/kinds"
	printf 'exe-twin  maybe yes any  an exe\n' >>"$c/kinds"
	bad "compiled is yes or no: maybe" --kinds
	cp "$ROOT/cases/kinds" "$c/kinds"
	printf 'exe-twin  yes yes mac  an exe\n' >>"$c/kinds"
	bad "platforms is any, or darwin, linux, other joined by commas: mac" --kinds
	cp "$ROOT/cases/kinds" "$c/kinds"
	printf 'exe-twin  yes yes any\n' >>"$c/kinds"
	bad "not KIND COMPILED PAYLOAD PLATFORMS MEANING" --kinds
	# a row's text is a C string's, whatever it holds
	cp "$ROOT/cases/kinds" "$c/kinds"
	printf 'exe-twin  yes yes any  say "hi" \\ or ??=\n' >>"$c/kinds"
	run_both -0 sh "$ROOT/scripts/tool/casegen" --kinds "$c"
	assert_line '	KIND(EXE_TWIN, "exe-twin", 1, 1, "any", "say \"hi\" \\ or \?\?=") \'
}
