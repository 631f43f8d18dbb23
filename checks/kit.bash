# kit.bash - loaded by make check's patterns and exercises (through
# pattern/lib.bash) and by the kit's own tests (tests/test_helper): bats'
# assertions, and where the kit is.
#   kit_setup   loads bats-support and bats-assert; sets and exports ROOT
#               (the folder holding the Makefile, found upwards from the
#               test file's own) and BIN (ROOT/micro/bin)
bats_require_minimum_version 1.5.0

# Every test runs kit_setup, so it starts no process: a process costs 10 to
# 20 ms on a loaded 2-core machine, and bats_load_library's way through
# bats-support and bats-assert (load.bash: source "$(dirname …)/src/…", a
# process a file) cost about half a second a test, a quarter of make test.
#
# bats runs a DEBUG trap before every command of a test (the stack trace of
# a failure), a millisecond or more each: loading the libraries line by
# line cost 100 ms and more a test (a pattern's share of make check).  The
# trap is off while they load, and set again as it was.
kit_setup() {
	local kit_debug_trap="" kit_trap_file
	# the trap as it is: where the run has a folder of its own, written there
	# by trap -p and read back, not taken by $( ) (a fork of bats' large shell,
	# every test of make test)
	if [ -n "${BATS_RUN_TMPDIR:-}" ] && [ -d "$BATS_RUN_TMPDIR" ]; then
		kit_trap_file="$BATS_RUN_TMPDIR/.kit-trap.$$"
		trap -p DEBUG >"$kit_trap_file"
		IFS= read -r -d '' kit_debug_trap <"$kit_trap_file" || :
	else
		kit_debug_trap=$(trap -p DEBUG)
		kit_trap_file=""
	fi
	trap - DEBUG
	kit_load_library bats-support
	kit_load_library bats-assert
	# bats-assert's assert_line and refute_line walk every line of the
	# output, several commands a line: without the trap, a third of the
	# time (kit_untraced)
	[ -z "$kit_trap_file" ] || kit_untrace "$kit_trap_file" assert_line refute_line
	ROOT="$BATS_TEST_DIRNAME"
	while [ ! -f "$ROOT/Makefile" ] && [ "$ROOT" != / ]; do
		ROOT="${ROOT%/*}"
		ROOT="${ROOT:-/}"
	done
	BIN="$ROOT/micro/bin"
	export ROOT BIN
	KIT_DEBUG_TRAP=$kit_debug_trap
	[ -z "$kit_debug_trap" ] || eval "$kit_debug_trap"
}

# kit_untrace FILE FUNC...: each FUNC, a function defined by then, runs
# from then on under kit_untraced: its body becomes _kit_FUNC's, and FUNC
# calls kit_untraced _kit_FUNC.  FILE is scratch (declare -f's text goes
# through it: a $( ) is a fork of bats' large shell).
kit_untrace() {
	local file=$1 f def
	shift
	for f in "$@"; do
		declare -F "$f" >/dev/null || continue
		declare -F "_kit_$f" >/dev/null && continue
		declare -f "$f" >"$file" || return 1
		def=""
		IFS= read -r -d '' def <"$file" || :
		# (its first line is "FUNC () ")
		eval "_kit_$f${def#"$f"}"
		eval "$f() { kit_untraced _kit_$f \"\$@\"; }"
	done
}

# kit_untraced CMD [ARG...]: CMD (a test helper's function, usually) run
# without bats' DEBUG trap, which is set again after it as kit_setup found
# it; CMD's status is kit_untraced's, and under set -e a failure inside
# fails the test as CMD alone would.  The trap runs before every command
# of a test and of the functions it calls (it keeps a stack trace for a
# failure's report): a helper's loop of 2,000 passes took 775 ms with it
# and 30 ms without, here.  A failure inside is reported at the line of
# the test that called kit_untraced (the last line the trap saw).  Where
# kit_setup did not run in this shell, or inside another kit_untraced
# (the trap is off already, and stays off until the outer one ends), CMD
# runs as it is.
kit_untraced() {
	if [ -z "${KIT_DEBUG_TRAP:-}" ] || [ -n "${kit_untraced_in:-}" ]; then
		"$@"
		return
	fi
	local kit_untraced_in=1
	trap - DEBUG
	"$@"
	set -- "$?"
	eval "$KIT_DEBUG_TRAP"
	return "$1"
}

# kit_load_library NAME: what bats_load_library NAME does, without a
# process.  A library's load.bash found in BATS_LIB_PATH (as bats looks:
# the first folder holding NAME/load.bash) whose every line but blanks and
# comments reads  source "$(dirname "${BASH_SOURCE[0]}")/FILE"  (bats-support
# and bats-assert, every release) has those FILEs sourced here, in its
# order; any other library is left to bats_load_library.
kit_load_library() {
	local name=$1 dir="" d line rel files=() f
	local IFS=:
	for d in $BATS_LIB_PATH; do
		if [ -f "$d/$name" ]; then
			break
		elif [ -f "$d/$name/load.bash" ]; then
			dir=$d/$name
			break
		fi
	done
	IFS=$' \t\n'
	if [ -n "$dir" ]; then
		while IFS= read -r line || [ -n "$line" ]; do
			case $line in
			'' | '#'*) continue ;;
			'source "$(dirname "${BASH_SOURCE[0]}")/'*'"')
				rel=${line#'source "$(dirname "${BASH_SOURCE[0]}")/'}
				rel=${rel%'"'}
				case $rel in
				*'"'* | *'$'* | *'`'* | *'\\'*) dir="" ;;
				*) files+=("$dir/$rel") ;;
				esac ;;
			*) dir="" ;;
			esac
			[ -n "$dir" ] || break
		done <"$dir/load.bash"
	fi
	if [ -z "$dir" ] || [ "${#files[@]}" = 0 ]; then
		bats_load_library "$name"
		return
	fi
	for f in "${files[@]}"; do
		# shellcheck disable=SC1090 # the library's own files
		source "$f" || {
			printf 'Error while sourcing library file %s\n' "$f" >&2
			exit 1
		}
	done
}
