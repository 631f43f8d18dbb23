#!/usr/bin/env bash
# tap.bash - make check's runner of its pattern and exercise tests (checks/pattern,
# checks/exercise): bash checks/tap.bash FILE.bats...  prints what bats --tap
# prints of them for scripts/check's reader (the plan, each test's "ok",
# "ok ... # skip WHY" or "not ok" line after what it said on fd 3, a failed
# test's output as "# " lines), in ONE bash: bats spends about half a
# second of processes on each file and a tenth of one on each test (a check
# was 3 to 4 s of CPU, most of it bats' own), this a fork a file and a
# fork a test.  The files stay bats files: `bats checks/pattern` runs them
# as they are.
#
# What of bats a file may use here (all that the kit's tests use):
# @test "NAME" { ... } (quotes stripped, as bats strips them), setup, load
# (relative to the test file's folder, NAME.bash or NAME), skip [WHY] (in
# the test's own shell: a skip inside $( ) ends that subshell only, as in
# bats), bats_require_minimum_version, bats_load_library, fd 3,
# BATS_TEST_FILENAME, BATS_TEST_DIRNAME, BATS_TEST_DESCRIPTION,
# BATS_TEST_NUMBER, BATS_SUITE_TEST_NUMBER, BATS_TEST_TMPDIR (made for each
# test), BATS_RUN_TMPDIR; the libraries loaded through BATS_LIB_PATH
# (bats-support, bats-assert).  Each test runs as bats runs it: in a shell
# of its own (a subshell of its file's), under set -eET, setup first; it
# fails when it returns or exits non-zero, or exits before its end.  No
# teardown, no `run`.
# shellcheck disable=SC2317,SC2030,SC2031 # functions the tests call; each file's own shell

_tap_pat='^[[:blank:]]*@test[[:blank:]]+(.*[^[:blank:]])[[:blank:]]+\{(.*)$'
_tap_srcs=()  # each file, its tests made functions _tap_test_K
_tap_ntests=() # each file's number of tests
_tap_names=() # each test's name, by its number in the run (from 1)
_tap_total=0
for _tap_f in "$@"; do
	[ -f "$_tap_f" ] || { printf 'tap: %s does not exist\n' "$_tap_f" >&2; exit 1; }
	_tap_src="" _tap_k=0
	while IFS= read -r _tap_line || [ -n "$_tap_line" ]; do
		_tap_line=${_tap_line//$'\r'/}
		if [[ $_tap_line =~ $_tap_pat ]]; then
			_tap_name=${BASH_REMATCH[1]#[\'\"]}
			_tap_name=${_tap_name%[\'\"]}
			_tap_k=$((_tap_k + 1))
			_tap_total=$((_tap_total + 1))
			_tap_names[_tap_total]=$_tap_name
			_tap_src="${_tap_src}_tap_test_$_tap_k() { _tap_begin \"$_tap_name\"; ${BASH_REMATCH[2]}"$'\n'
		else
			_tap_src="$_tap_src$_tap_line"$'\n'
		fi
	done <"$_tap_f"
	_tap_srcs+=("$_tap_src")
	_tap_ntests+=("$_tap_k")
done

printf '1..%d\n' "$_tap_total"
[ "$_tap_total" -gt 0 ] || exit 0
_tap_tmp=$(mktemp -d "${TMPDIR:-/tmp}/execlag-check.XXXXXX") || exit 1
# every test's BATS_TEST_TMPDIR, by one mkdir
_tap_i=0 _tap_dirs=()
while [ "$_tap_i" -lt "$_tap_total" ]; do
	_tap_i=$((_tap_i + 1))
	_tap_dirs+=("$_tap_tmp/$_tap_i")
done
mkdir "${_tap_dirs[@]}" || exit 1
exec 3>&1
BATS_RUN_TMPDIR=$_tap_tmp
BATS_TMPDIR=${TMPDIR:-/tmp}
export BATS_RUN_TMPDIR BATS_TMPDIR

# what bats' test functions are, for these files
load() {
	local slug=$1
	case $slug in /*) ;; *) slug=$BATS_TEST_DIRNAME/$slug ;; esac
	if [ -f "$slug.bash" ]; then slug=$slug.bash
	elif [ ! -f "$slug" ]; then
		printf "bats_load_safe: Could not find '%s'[.bash]\n" "$slug" >&2
		exit 1
	fi
	# shellcheck disable=SC1090 # the test's own helpers
	source "$slug" || exit 1
}
bats_require_minimum_version() { :; }
bats_load_library() {
	local d
	local IFS=:
	for d in $BATS_LIB_PATH; do
		if [ -f "$d/$1/load.bash" ]; then
			# shellcheck disable=SC1090
			source "$d/$1/load.bash" || exit 1
			return 0
		elif [ -f "$d/$1.bash" ]; then
			# shellcheck disable=SC1090
			source "$d/$1.bash" || exit 1
			return 0
		fi
	done
	printf "Could not find library '%s' relative to test file or in BATS_LIB_PATH\n" "$1" >&2
	exit 1
}
# skip [WHY]: ends the test as skipped; in a subshell of it ($( )) only
# that subshell, as bats' skip does
skip() {
	[ "$BASH_SUBSHELL" != "$_tap_depth" ] || printf '%s' "${1:-1}" >"$_tap_tmp/$BATS_SUITE_TEST_NUMBER.skip"
	exit 0
}
_tap_begin() {
	BATS_TEST_DESCRIPTION=$1
	export BATS_TEST_DESCRIPTION
	setup
}

_tap_n=0 # the tests run so far
_tap_rc=0 # 1 once one failed
_tap_fi=0
for _tap_f in "$@"; do
	(
		case $_tap_f in
		/*) BATS_TEST_FILENAME=$_tap_f ;;
		*) BATS_TEST_FILENAME=$PWD/$_tap_f ;;
		esac
		BATS_TEST_DIRNAME=${BATS_TEST_FILENAME%/*}
		export BATS_TEST_FILENAME BATS_TEST_DIRNAME
		setup() { :; }
		eval "${_tap_srcs[_tap_fi]}"
		_tap_k=0 _tap_failed=0
		while [ "$_tap_k" -lt "${_tap_ntests[_tap_fi]}" ]; do
			_tap_k=$((_tap_k + 1))
			_tap_n=$((_tap_n + 1))
			(
				BATS_TEST_NUMBER=$_tap_k
				BATS_SUITE_TEST_NUMBER=$_tap_n
				BATS_TEST_TMPDIR=$_tap_tmp/$_tap_n
				export BATS_TEST_NUMBER BATS_SUITE_TEST_NUMBER BATS_TEST_TMPDIR
				_tap_depth=$BASH_SUBSHELL
				set -eET
				"_tap_test_$_tap_k"
				# (a test that exits, status 0 or not, did not complete: it fails, as in bats)
				: >"$_tap_tmp/$_tap_n.done"
			) >"$_tap_tmp/$_tap_n.out" 2>&1 4>&1
			_tap_st=$?
			_tap_name=${_tap_names[_tap_n]}
			if [ -f "$_tap_tmp/$_tap_n.skip" ]; then
				IFS= read -r -d '' _tap_why <"$_tap_tmp/$_tap_n.skip"
				if [ "$_tap_why" = 1 ]; then
					printf 'ok %d %s # skip\n' "$_tap_n" "$_tap_name"
				else
					printf 'ok %d %s # skip %s\n' "$_tap_n" "$_tap_name" "$_tap_why"
				fi
			elif [ -f "$_tap_tmp/$_tap_n.done" ]; then
				printf 'ok %d %s\n' "$_tap_n" "$_tap_name"
			else
				_tap_failed=$((_tap_failed + 1))
				printf 'not ok %d %s\n' "$_tap_n" "$_tap_name"
				printf '# (in test file %s, status %d)\n' "$_tap_f" "$_tap_st"
				while IFS= read -r _tap_line || [ -n "$_tap_line" ]; do
					printf '# %s\n' "$_tap_line"
				done <"$_tap_tmp/$_tap_n.out"
			fi
		done
		[ "$_tap_failed" = 0 ]
	)
	# (not "( ... ) || ...": set -e would be off in every test of the file)
	# shellcheck disable=SC2181
	[ $? = 0 ] || _tap_rc=1
	_tap_n=$((_tap_n + _tap_ntests[_tap_fi]))
	_tap_fi=$((_tap_fi + 1))
done
rm -rf "$_tap_tmp"
exit "$_tap_rc"
