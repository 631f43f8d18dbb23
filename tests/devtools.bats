#!/usr/bin/env bats
# micro/bin/devtools: the Developer Tools authorisation read from
# ExecutionPolicy through the Objective-C runtime (docs/macos.md §13). No Mac
# here: --runtime asks a stand-in runtime (tests/fixtures/devtools/), loaded
# with dlopen like the real one, which records every call.

load test_helper/common-setup
load test_helper/quickrun

setup_file() {
	local root="$BATS_TEST_DIRNAME/.." src="$BATS_TEST_DIRNAME/fixtures/devtools"
	make -C "$root" -s micro/bin/devtools >/dev/null
	cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -o "$BATS_FILE_TMPDIR/libfakeobjc.so" \
		"$src/fake_objc.c" -ldl
	cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -o "$BATS_FILE_TMPDIR/fakeep.so" \
		"$src/fake_execution_policy.c"
	cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -o "$BATS_FILE_TMPDIR/fakeresp.so" \
		"$src/fake_responsibility.c"
}

setup() {
	_common_setup
	DEVTOOLS="$BIN/devtools"
	TRACE="$BATS_TEST_TMPDIR/trace"
	export EXECLAG_OBJC_LIB="$BATS_FILE_TMPDIR/libfakeobjc.so"
	export EXECLAG_EP_FRAMEWORK="$BATS_FILE_TMPDIR/fakeep.so"
	export FAKE_OBJC_TRACE="$TRACE"
	unset FAKE_OBJC_STATUS FAKE_OBJC_NO_CLASS FAKE_OBJC_NEW_NIL
	unset FAKE_RESPONSIBLE FAKE_PIDPATH
	export EXECLAG_LIBSYSTEM="$BATS_FILE_TMPDIR/fakeresp.so"
	export FAKE_RESP_TRACE="$BATS_TEST_TMPDIR/resp-trace"
}

# responsible [ENV=VALUE...]: devtools --responsible --runtime --why
# against the stand-in libSystem.
responsible() {
	# emptied by the shell (an rm is a process): a call writes a line
	: >"$FAKE_RESP_TRACE"
	run_sep env "$@" "$DEVTOOLS" --responsible --runtime --why
}

# ask [ENV=VALUE...]: run devtools --runtime --why against the stand-in.
ask() {
	: >"$TRACE"
	run_sep env "$@" "$DEVTOOLS" --runtime --why
}

# trace: traced, what the stand-in recorded ("" when nothing), as
# $(cat "$TRACE") gives it; slurp FILE: slurped, FILE's text the same way.
# Read by the shell: no process.
trace() {
	traced=''
	[ ! -e "$TRACE" ] || slurp "$TRACE"
	[ ! -e "$TRACE" ] || traced=$slurped
}
slurp() {
	slurped=''
	IFS= read -r -d '' slurped <"$1" || :
	while [ "${slurped%$'\n'}" != "$slurped" ]; do slurped=${slurped%$'\n'}; done
}

# ---- the answer ------------------------------------------------------------------

@test "the answer: statuses 0..3 are the four words; any other is unknown, named by --why, else the word" {
	# (was: "statuses 0..3 are not-determined, restricted, denied, authorized")
	local s words=(not-determined restricted denied authorized)
	for s in 0 1 2 3; do
		ask FAKE_OBJC_STATUS=$s
		assert_success
		assert_equal "$s: $output" "$s: ${words[$s]}"
		assert_equal "$stderr" ""
	done
	# (was: "any other status is unknown, and --why names it")
	local s
	for s in 4 -1 42; do
		ask FAKE_OBJC_STATUS=$s
		assert_success
		assert_output unknown
		assert_equal "$stderr" "devtools: authorizationStatus returned $s, not one of 0..3"
	done
	# (was: "without --why an unknown answer prints only the word")
	run_sep env FAKE_OBJC_STATUS=9 "$DEVTOOLS" --runtime
	assert_success
	assert_output unknown
	assert_equal "$stderr" ""
}

# ---- the calls -------------------------------------------------------------------

@test "the calls in order; a class not registered or +new nil: unknown, no other message, the pool popped" {
	# (was: "the calls: pool pushed, class looked up, +new, -authorizationStatus, -release, pool popped")
	ask FAKE_OBJC_STATUS=3
	assert_output authorized
	trace
	assert_equal "$traced" "pool push
getClass EPDeveloperTool in pool
msgSend class EPDeveloperTool new in pool
msgSend instance authorizationStatus in pool
msgSend instance release in pool
pool pop (the pushed token)"
	# (was: "a class that is not registered is unknown: no message sent, the pool still popped")
	ask FAKE_OBJC_NO_CLASS=1
	assert_success
	assert_output unknown
	assert_equal "$stderr" "devtools: the class EPDeveloperTool is not registered"
	trace
	assert_equal "$traced" "pool push
getClass EPDeveloperTool in pool -> nil
pool pop (the pushed token)"
	# (was: "+new returning nil is unknown: no other message, the pool still popped")
	ask FAKE_OBJC_NEW_NIL=1
	assert_output unknown
	assert_equal "$stderr" "devtools: +[EPDeveloperTool new] returned nil"
	trace
	assert_equal "$traced" "pool push
getClass EPDeveloperTool in pool
msgSend class EPDeveloperTool new in pool
pool pop (the pushed token)"
}

@test "message types: objc_msgSend is called only through the exact type of each message" {
	# the typedefs are exactly id (*)(Class, SEL) and long (*)(id, SEL)
	cat >"$BATS_TEST_TMPDIR/types.c" <<'EOF'
#include "devtoolsauth.h"
_Static_assert(_Generic((devtools_msg_new)0, id (*)(Class, SEL): 1, default: 0),
	       "+new is id (*)(Class, SEL)");
_Static_assert(_Generic((devtools_msg_status)0, long (*)(id, SEL): 1, default: 0),
	       "-authorizationStatus is long (*)(id, SEL)");
_Static_assert(_Generic((devtools_msg_release)0, void (*)(id, SEL): 1, default: 0),
	       "-release is void (*)(id, SEL)");
_Static_assert(sizeof(long) == sizeof(void *), "NSInteger is long on LP64");
int main(void) { return 0; }
EOF
	run_both cc -std=c11 -Wall -Wextra -Werror -I"$ROOT/micro/plat" -o "$BATS_TEST_TMPDIR/types" \
		"$BATS_TEST_TMPDIR/types.c"
	assert_success
	# that every call goes through one of them, and the libraries' flags,
	# are make lint's source rules (scripts/tool/lint)
}

@test "a missing framework, runtime or symbol is unknown; the stand-in framework registers the class" {
	# (was: "a missing framework is unknown, and the runtime is never asked")
	ask EXECLAG_EP_FRAMEWORK=/System/Library/Frameworks/ExecutionPolicy.framework/Nope
	assert_success
	assert_output unknown
	[[ "$stderr" == "devtools: cannot load ExecutionPolicy: "*Nope* ]] || fail "stderr: $stderr"
	trace
	assert_equal "$traced" ""
	# (was: "a missing Objective-C runtime is unknown")
	ask EXECLAG_OBJC_LIB=/usr/lib/libobjc.A.dylib.missing
	assert_success
	assert_output unknown
	[[ "$stderr" == "devtools: cannot load the Objective-C runtime: "* ]] || fail "stderr: $stderr"
	# (was: "a library without the runtime's symbols is unknown, naming the first one missing")
	ask EXECLAG_OBJC_LIB="$EXECLAG_EP_FRAMEWORK"
	assert_success
	assert_output unknown
	assert_equal "$stderr" "devtools: $EXECLAG_EP_FRAMEWORK: no symbol objc_getClass"
	# (was: "the stand-in framework is what registers the class (loaded before the lookup)")
	# the stand-in runtime only knows EPDeveloperTool once the framework is
	# loaded; the authorized answer above therefore shows it was loaded first
	ask FAKE_OBJC_STATUS=2
	assert_output denied
	run_both nm -D "$EXECLAG_OBJC_LIB"
	assert_output --partial "T objc_msgSend"
	assert_output --partial "T objc_autoreleasePoolPush"
}

# ---- the program ---------------------------------------------------------------------

@test "--help and a bad option (one line, exit 2); off macOS the answer is n/a and --why says why" {
	# (was: "--help prints the usage and the words; a bad option is one line and exit 2")
	run_both -0 "$DEVTOOLS" --help
	assert_line --index 0 "usage: devtools [--why] [--runtime] [--responsible]"
	assert_output --partial "not-determined, restricted, denied, authorized, unknown"
	run_sep "$DEVTOOLS" --status
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "$stderr" "devtools: unknown option '--status' (try --help)"
	# (was: "off macOS the answer is n/a, and --why says it is not macOS")
	[[ $OSTYPE != darwin* ]] || skip "this is macOS"
	run_sep "$DEVTOOLS" --why
	assert_success
	assert_output n/a
	assert_equal "$stderr" "devtools: not macOS: no Developer Tools authorisation"
	trace
	assert_equal "$traced" ""
}

# ---- the responsible app -----------------------------------------------------------

@test "--responsible: the path libSystem names, self, unknown with the reason; n/a off macOS, nothing asked" {
	# (was: "--responsible: the path of the process libSystem names as responsible for this one")
	responsible
	assert_success
	assert_output /System/Applications/Utilities/Terminal.app/Contents/MacOS/Terminal
	assert_equal "$stderr" ""
	# asked about itself, then the path of the answer (here its parent)
	slurp "$FAKE_RESP_TRACE"
	assert_equal "$slurped" "responsible-for self
pidpath parent"
	responsible FAKE_PIDPATH=/usr/libexec/sshd-keygen-wrapper
	assert_output /usr/libexec/sshd-keygen-wrapper
	# (was: "--responsible: a process that is its own responsible one is self; no path asked")
	responsible FAKE_RESPONSIBLE=self
	assert_success
	assert_output self
	slurp "$FAKE_RESP_TRACE"
	assert_equal "$slurped" "responsible-for self"
	# (was: "--responsible: no pid, no path, or a path that is not one, is unknown with the reason")
	responsible FAKE_RESPONSIBLE=-1
	assert_output unknown
	assert_equal "$stderr" "devtools: responsibility_get_pid_responsible_for_pid returned -1"
	responsible FAKE_PIDPATH=fail
	assert_output unknown
	[[ "$stderr" == "devtools: proc_pidpath gave no path for pid "* ]] || fail "stderr: $stderr"
	responsible FAKE_PIDPATH=relative/path
	assert_output unknown
	[[ "$stderr" == "devtools: proc_pidpath gave an unusable path for pid "* ]] || fail "stderr: $stderr"
	# (was: "--responsible: a libSystem without the symbols, or none, is unknown naming what is missing")
	responsible EXECLAG_LIBSYSTEM="$EXECLAG_EP_FRAMEWORK"
	assert_success
	assert_output unknown
	assert_equal "$stderr" "devtools: no symbol responsibility_get_pid_responsible_for_pid"
	responsible EXECLAG_LIBSYSTEM=/usr/lib/libSystem.B.dylib.missing
	assert_output unknown
	[[ "$stderr" == "devtools: cannot open /usr/lib/libSystem.B.dylib.missing: "* ]] || fail "stderr: $stderr"
	# this Linux's own symbols have no such function
	responsible EXECLAG_LIBSYSTEM=
	assert_output unknown
	assert_equal "$stderr" "devtools: no symbol responsibility_get_pid_responsible_for_pid"
	# (was: "--responsible off macOS is n/a and asks nothing")
	: >"$FAKE_RESP_TRACE"
	run_sep "$DEVTOOLS" --responsible --why
	assert_success
	assert_output n/a
	assert_equal "$stderr" "devtools: not macOS: no responsible process"
	# (each call appends a line: an empty trace is none)
	[ ! -s "$FAKE_RESP_TRACE" ] || fail "asked: $(cat "$FAKE_RESP_TRACE")"
}

@test "the fake devtools replays a state byte for byte; sysinfo on a fake Mac reports the runtime's answer" {
	# (was: "the fake devtools of the sysinfo states replays a state byte for byte")
	run_sep env FAKE_STATE="$ROOT/tests/fakes/states/weird2" "$ROOT/tests/fakes/bin/devtools"
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$stderr" "devtools: cannot write to stdout: Broken pipe"
	run_both -0 env FAKE_STATE="$ROOT/tests/fakes/states/sip-custom" "$ROOT/tests/fakes/bin/devtools"
	slurp "$ROOT/tests/fakes/states/sip-custom/devtools.out"
	assert_equal "$output" "$slurped"
	assert_output denied
	run_both -127 env FAKE_STATE="$ROOT/tests/fakes/states/m1-online" "$ROOT/tests/fakes/bin/devtools"
	# (was: "sysinfo on a fake Mac reports what the reader gets from the runtime")
	local wrapper="$BATS_TEST_TMPDIR/devtools"
	printf '#!/bin/sh\nexec "%s" --runtime\n' "$DEVTOOLS" >"$wrapper"
	chmod +x "$wrapper"
	run_both -0 env PATH="$ROOT/tests/fakes/bin:$PATH" FAKE_STATE="$ROOT/tests/fakes/states/m1-online" \
		EXECLAG_DEVTOOLS="$wrapper" FAKE_OBJC_STATUS=2 sh "$ROOT/scripts/probe/sysinfo"
	assert_line devtools=denied
	run_both -0 env PATH="$ROOT/tests/fakes/bin:$PATH" FAKE_STATE="$ROOT/tests/fakes/states/m1-online" \
		EXECLAG_DEVTOOLS="$wrapper" EXECLAG_EP_FRAMEWORK=/nonexistent sh "$ROOT/scripts/probe/sysinfo"
	assert_line devtools=unknown
}

