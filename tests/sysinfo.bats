#!/usr/bin/env bats
# scripts/probe/sysinfo: the conditions it prints, on macOS through the fakes in
# tests/fakes (one state folder per machine state, written by
# tests/fakes/mkstates) and on the Linux machine running the tests.

# bats file_tags=heavy
load test_helper/common-setup
load test_helper/quickrun

# The runs several tests read, made once in setup_file (a run on the fakes
# is some twenty processes): every state check_state reads under each
# shell, and a few more; the tests read them with kept.
KEPT_STATES='m1-online m5-three-levels m1pro-vpn intel-offline intel-vm catalina-old
	sip-custom sip-disabled-assess-off rsr net-conflict net-v6only weird weird2 missing
	m1-sequoia m1-ssh linux-hybrid linux-offline linux-v6only asahi-m1 asahi-m2pro
	asahi-m1max arm64-server linux-clamav'

setup_file() {
	local st sh c trap="$BATS_FILE_TMPDIR/tripwire"
	ROOT=${BATS_TEST_DIRNAME%/*}
	FAKES="$ROOT/tests/fakes"
	SYSINFO="$ROOT/scripts/probe/sysinfo"
	mkdir -p "$BATS_FILE_TMPDIR/kept" "$trap"
	# programs sysinfo must never run, first on PATH in every run kept
	# here: each says on a file of its own when it is run
	for c in hostname whoami system_profiler ioreg logname users; do
		printf '#!/bin/sh\necho "%s $*" >>"%s/called"\n' "$c" "$trap" >"$trap/$c"
	done
	# the six made executable in one chmod
	chmod +x "$trap"/*
	# where sh is dash (Debian), sh's run is dash's: check_state runs it once
	SH_IS_DASH=0
	if command -v dash >/dev/null && [ "$(command -v sh)" -ef "$(command -v dash)" ]; then
		SH_IS_DASH=1
	fi
	export SH_IS_DASH
	for st in $KEPT_STATES; do
		for sh in sh dash "bash --posix"; do
			[ "$sh" != dash ] || [ "$SH_IS_DASH" = 0 ] || continue
			keep "$st.${sh// /_}" fake_sysinfo "$st" "$sh" --workdir /tmp/x.noindex
		done
	done
	# the states made for ps and log show: under sh (their files for every
	# command sysinfo runs are m1-online's, whose run each shell makes)
	for st in m1-watch ps-odd log-empty log-refused; do
		keep "$st.sh" fake_sysinfo "$st" sh --workdir /tmp/x.noindex
	done
	# without --workdir
	keep m1-online.nowork fake_sysinfo m1-online sh
	# this machine's
	keep here env PATH="$trap:$PATH" sh "$SYSINFO" --workdir "$BATS_FILE_TMPDIR/w.noindex"
	keep home env PATH="$trap:$PATH" EXECLAG_VERSION=1.2.3 HOME=/Users/alice TERM_PROGRAM=/Users/alice/Apps/Term sh "$SYSINFO"
}

setup() {
	_common_setup
	FAKES="$ROOT/tests/fakes"
	SYSINFO="$ROOT/scripts/probe/sysinfo"
}

# fake_sysinfo STATE SHELL [ARGS...]: sysinfo under SHELL with the fakes of
# STATE first on PATH (one process: a subshell that execs SHELL), after
# the tripwire of setup_file (programs sysinfo must never run).
fake_sysinfo() {
	local state=$1 shell=$2
	shift 2
	(
		PATH="$BATS_FILE_TMPDIR/tripwire:$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/$state"
		EXECLAG_SYSROOT="$FAKES/states/$state/root" EXECLAG_DEVTOOLS="$FAKES/bin/devtools"
		export PATH FAKE_STATE EXECLAG_SYSROOT EXECLAG_DEVTOOLS
		# shellcheck disable=SC2086 # SHELL may be "bash --posix"
		exec $shell "$SYSINFO" "$@"
	)
}

# keep NAME CMD...: run CMD, its stdout, stderr and exit status kept as
# NAME for kept (without bats' run: no subshell of its own, no mktemp).
keep() {
	local f="$BATS_FILE_TMPDIR/kept/$1" rc=0
	shift
	"$@" >"$f.out" 2>"$f.err" || rc=$?
	printf '%s\n' "$rc" >"$f.rc"
}

# kept NAME: the run keep made, as `run --separate-stderr` leaves one:
# status, output, lines, stderr, stderr_lines (trailing newlines cut, as
# $( ) does).  Without a process.
kept() {
	local f="$BATS_FILE_TMPDIR/kept/$1" nl=$'\n'
	[ -f "$f.rc" ] || fail "no run kept as $1 (setup_file)"
	read -r status <"$f.rc"
	IFS= read -r -d '' output <"$f.out" || :
	IFS= read -r -d '' stderr <"$f.err" || :
	output=${output%"${output##*[!$nl]}"}
	stderr=${stderr%"${stderr##*[!$nl]}"}
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || :
	IFS=$'\n' read -d '' -r -a stderr_lines <<<"$stderr" || :
}

# direct CMD...: as `run --separate-stderr CMD`, without its subshell and
# mktemp (two processes a call)
direct() {
	keep direct.$$ "$@"
	kept direct.$$
}

# value_of KEY [TEXT]: the value of KEY in TEXT (default $output); the last
# line wins, like docs/formats.md says. Status 1 when KEY is absent.
value_of() {
	value_in "$@"
	local rc=$?
	printf '%s\n' "$val"
	return "$rc"
}

# assert_value KEY WANT: KEY's value in $output (empty when absent) is WANT.
assert_value() {
	value_in "$1" || :
	assert_equal "$val" "$2"
}

# values KEY...: vals, the values of KEYs in $output, one space apart.
values() {
	local k
	value_in "$1" || :
	vals=$val
	shift
	for k; do
		value_in "$k" || :
		vals="$vals $val"
	done
}

# value_in KEY [TEXT]: value_of into $val, without a process or a loop over
# the lines (check_state reads some twenty keys a state; bats traps every
# command a test runs): the text after the last "KEY=" that starts a line,
# up to that line's end.
value_in() {
	local nl=$'\n' t
	t=$nl${2-$output}
	case $t in
	*"$nl$1="*) ;;
	*) val=''; return 1 ;;
	esac
	val=${t##*"$nl$1="}
	val=${val%%"$nl"*}
	return 0
}

# sysinfo_with STATE SHELL [ARGS...]: run sysinfo under SHELL with the fakes
# of STATE first on PATH (stdout in $output, stderr in $stderr).
sysinfo_with() {
	direct fake_sysinfo "$@"
}

# sysinfo_in DIR STATE: "sh sysinfo" in DIR (a copy of scripts/probe) with
# the fakes of STATE, as sysinfo_with runs it (in a subshell of its own:
# the test's folder stays).
sysinfo_in() {
	(cd "$1" && exec env PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/$2" \
		EXECLAG_SYSROOT="$FAKES/states/$2/root" EXECLAG_DEVTOOLS="$FAKES/bin/devtools" sh sysinfo)
}

# check_state STATE KEY=VALUE...: under sh, dash and bash --posix (macOS
# /bin/sh) sysinfo exits 0, prints the same well-formed lines and nothing
# on stderr, and every KEY has VALUE.  Where sh is dash, dash is run once.
# The runs are setup_file's (KEPT_STATES); with ONLY_SH=1, sh's alone.
# Its loops run without bats' DEBUG trap (kit_untraced): some twenty keys
# a state, a command each, some forty calls.
check_state() {
	kit_untraced check_state_untraced "$@"
}
check_state_untraced() {
	local state=$1 shell shells=(sh dash "bash --posix") first='' kv k want got bad=''
	shift
	[ "${SH_IS_DASH:-0}" = 0 ] || shells=(sh "bash --posix")
	[ "${ONLY_SH:-0}" = 0 ] || shells=(sh)
	for shell in "${shells[@]}"; do
		kept "$state.${shell// /_}"
		[ "$status" -eq 0 ] || fail "$state under $shell: exit $status"
		[ -z "$stderr" ] || fail "$state under $shell: stderr: $stderr"
		if [ -z "$first" ]; then
			first=$output
		elif [ "$output" != "$first" ]; then
			fail "$state: $shell prints something else than sh:
$(diff <(printf '%s\n' "$first") <(printf '%s\n' "$output"))"
		fi
	done
	assert_well_formed
	for kv in "$@"; do
		k=${kv%%=*} want=${kv#*=}
		value_in "$k" && got=$val || got='<absent>'
		[ "$got" = "$want" ] || bad="$bad
  $k: want '$want', got '$got'"
	done
	[ -z "$bad" ] || fail "$state:$bad
output:
$output"
}

# assert_well_formed: every line of $output is key=value with a conditions key.
# (grep -Ev '^[a-z0-9_.]+=' in the C locale, in the shell without bats'
# DEBUG trap: a grep and a $( ) a call otherwise, some forty calls)
assert_well_formed() {
	kit_untraced assert_well_formed_untraced
}
assert_well_formed_untraced() {
	local rest=$output$'\n' l k bad=''
	while [ -n "$rest" ]; do
		l=${rest%%$'\n'*}
		rest=${rest#*$'\n'}
		k=${l%%=*}
		if [ "$k" = "$l" ] || [ -z "$k" ] ||
			[[ $k == *[!abcdefghijklmnopqrstuvwxyz0123456789_.]* ]]; then
			bad="$bad$l"$'\n'
		fi
	done
	while [ "${bad%$'\n'}" != "$bad" ]; do bad=${bad%$'\n'}; done
	[ -z "$bad" ] || fail "lines that are not key=value: $bad"
}

# expected_keys N: want_keys (its loops without bats' DEBUG trap)
expected_keys() {
	kit_untraced expected_keys_untraced "$@"
}
# expected_keys_untraced N: want_keys, the keys in order, one a line, for a macOS
# state with N perflevels (no process: a $( ) is one).
expected_keys_untraced() {
	local i=0 k
	want_keys=''
	for k in kit_version os os_name os_version os_build kernel arch model \
		cpu ncpu core_classes perflevels; do
		want_keys="$want_keys$k"$'\n'
	done
	while [ "$i" -lt "$1" ]; do
		want_keys="${want_keys}perflevel$i.name"$'\n'"perflevel$i.cpus"$'\n'
		i=$((i + 1))
	done
	for k in cores_p cores_e sip sip_custom assessments devtools network \
		network_interface vpn terminal clock_source spotlight_volume \
		workdir_indexed work_fs fanotify_listeners agents started_via ssh \
		multiplexer launchd_job tty terminal_app bundle_id responsible_app \
		responsible_path xprotect_version xprotect_version_from \
		xprotect_launch_scans xprotect_background_scans; do
		want_keys="$want_keys$k"$'\n'
	done
	want_keys=${want_keys%$'\n'}
}

# keys_in: got_keys, the key of each line of $output (what precedes its
# first "="), one a line, as `cut -d= -f1` prints them.
keys_in() {
	kit_untraced keys_in_untraced
}
keys_in_untraced() {
	local l
	got_keys=''
	for l in "${lines[@]}"; do
		got_keys="$got_keys${l%%=*}"$'\n'
	done
	got_keys=${got_keys%$'\n'}
}

# started_with STATE ENV...: sysinfo on STATE's fakes in an environment
# holding only PATH, HOME and ENV (none of the session's own variables).
started_with() {
	local state=$1
	shift
	direct env -i PATH="$FAKES/bin:$PATH" HOME=/Users/alice \
		FAKE_STATE="$FAKES/states/$state" EXECLAG_DEVTOOLS="$FAKES/bin/devtools" "$@" \
		sh "$SYSINFO" </dev/null
	assert_success
	assert_equal "$stderr" ""
}

# ------------------------------------------------------------ fixtures

@test "fixtures: the stored states are mkstates', each records df; fakes replay a state, else run the real" {
	# (was: "the stored fake states are exactly what tests/fakes/mkstates writes")
	run_both sh "$FAKES/mkstates" "$BATS_TEST_TMPDIR/states"
	assert_success
	run_both diff -r "$FAKES/states" "$BATS_TEST_TMPDIR/states"
	assert_success
	# (was: "every state records df (else the fake would run the real one)")
	local st missing='' f
	for st in "$FAKES"/states/*/; do
		# a file named df.* (a glob: no ls and grep a state)
		for f in "$st"df.*; do
			[ -e "$f" ] && continue 2
		done
		missing="$missing ${st%/}"
	done
	assert_equal "$missing" ""
	# (was: "the fakes: df and mount real without a state, sysctl, route offline, a missing command, uname")
	# the fakes: df and mount real without a state, sysctl new and old, route offline, a missing command, uname
	# fake df and mount run the real commands when no state is given
	run_both -0 env -u FAKE_STATE PATH="$FAKES/bin:$PATH" df -P /
	assert_line --index 0 --partial Filesystem
	run_both -0 env -u FAKE_STATE PATH="$FAKES/bin:$PATH" mount
	refute_output ""
	# fake sysctl: known names print values, unknown ones warn per name and count in the exit status
	run_sep env FAKE_STATE="$FAKES/states/m1-online" "$FAKES/bin/sysctl" -n hw.ncpu hw.nope hw.model hw.nada
	assert_equal "$status" 2
	assert_equal "$output" "8
MacBookAir10,1"
	assert_equal "$stderr" "sysctl: unknown oid 'hw.nope'
sysctl: unknown oid 'hw.nada'"
	run_sep env FAKE_STATE="$FAKES/states/m1-online" "$FAKES/bin/sysctl" hw.ncpu
	assert_equal "$output" "hw.ncpu: 8"
	run_sep env FAKE_STATE="$FAKES/states/m1-online" "$FAKES/bin/sysctl" -in hw.nope hw.ncpu
	assert_equal "$status" 0
	assert_equal "$output" 8
	assert_equal "$stderr" ""
	# fake sysctl in an old-sysctl state stops at the first unknown name with exit 1
	run_sep env FAKE_STATE="$FAKES/states/m5-three-levels" "$FAKES/bin/sysctl" -n hw.nope hw.ncpu
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$stderr" "sysctl: unknown oid 'hw.nope'"
	# fake route offline: empty stdout, the message on stderr, exit 1
	run_sep env FAKE_STATE="$FAKES/states/intel-offline" "$FAKES/bin/route" -n get default
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$stderr" "route: writing to routing socket: not in table"
	# fakes: a command without fixture files is missing (exit 127); uname -n is refused
	run_both -127 env FAKE_STATE="$FAKES/states/missing" "$FAKES/bin/csrutil" status
	run_both env FAKE_STATE="$FAKES/states/m1-online" "$FAKES/bin/uname" -n
	assert_equal "$status" 64
	run_both env FAKE_STATE="$FAKES/states/m1-online" "$FAKES/bin/uname" -m -s
	assert_output "Darwin arm64"
	# (was: "fake defaults and xprotect replay their states; other questions are not recorded")
	local st="$FAKES/states/m1-online"
	run_sep env FAKE_STATE="$st" "$FAKES/bin/defaults" read \
		/var/protected/xprotect/XProtect.bundle/Contents/Info.plist CFBundleShortVersionString
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$stderr" "2024-09-25 10:15:02.114 defaults[4410:51327] 
The domain/default pair of (/var/protected/xprotect/XProtect.bundle/Contents/Info.plist, CFBundleShortVersionString) does not exist"
	run_both -0 env FAKE_STATE="$st" "$FAKES/bin/defaults" read \
		/Library/Apple/System/Library/CoreServices/XProtect.bundle/Contents/Info.plist CFBundleShortVersionString
	assert_output 5272
	run_both -127 env FAKE_STATE="$st" "$FAKES/bin/xprotect" status
	run_both -0 env FAKE_STATE="$FAKES/states/m5-three-levels" "$FAKES/bin/xprotect" status
	assert_output "XProtect launch scans: disabled
XProtect background scans: enabled"
	run_both -64 env FAKE_STATE="$FAKES/states/m5-three-levels" "$FAKES/bin/xprotect" version
	run_both -64 env FAKE_STATE="$st" "$FAKES/bin/defaults" read com.apple.Terminal
}

@test "macOS: M1, M5 (key order, levels by name), M1 Pro on a VPN, Intel offline, an Intel VM" {
	# (was: "M1, macOS 14.1.1, SIP on, assessments on, online on en0")
	check_state m1-online os=Darwin os_name=macOS os_version=14.1.1 os_build=23B2082 \
		kernel=23.1.0 arch=arm64 model=MacBookAir10,1 cpu="Apple M1" ncpu=8 \
		perflevels=2 perflevel0.name=Performance perflevel0.cpus=4 \
		perflevel1.name=Efficiency perflevel1.cpus=4 cores_p=4 cores_e=4 \
		"core_classes=all P E" sip=enabled sip_custom=no assessments=enabled \
		devtools=unknown network=online network_interface=en0 vpn=no \
		clock_source=mach_absolute_time spotlight_volume=enabled \
		"workdir_indexed=no (.noindex)" work_fs=apfs
	# (was: "M5: the documented key order, two lines per perflevel; levels read by name, not position")
	# (was: "macOS keys come in the documented order, two lines per perflevel")
	check_state m5-three-levels
	keys_in
	expected_keys 3
	assert_equal "$got_keys" "$want_keys"
	# (was: "M5 with Super/Performance/Efficiency: levels are read by name, not position")
	check_state m5-three-levels os_version=26.1 os_build=25B78 model=Mac17,2 cpu="Apple M5" \
		ncpu=12 perflevels=3 perflevel0.name=Super perflevel0.cpus=2 \
		perflevel1.name=Performance perflevel1.cpus=6 \
		perflevel2.name=Efficiency perflevel2.cpus=4 \
		cores_p=8 cores_e=4 "core_classes=all P E" \
		spotlight_volume=disabled-search network=online network_interface=en0 vpn=no \
		devtools=not-determined
	# (was: "M1 Pro on a VPN: the default route on utun4 means vpn=yes")
	check_state m1pro-vpn model=MacBookPro18,1 cpu="Apple M1 Pro" ncpu=10 \
		perflevels=2 cores_p=8 cores_e=2 "core_classes=all P E" \
		network=online network_interface=utun4 vpn=yes \
		os_version=14.4.1 os_build=23E224 spotlight_volume=disabled \
		sip=enabled sip_custom=no assessments=enabled devtools=authorized
	# (was: "Intel without perflevel oids, offline: one core class, network offline")
	check_state intel-offline os_version=12.2 os_build=21D49 arch=x86_64 \
		model=MacBookPro16,1 "cpu=Intel(R) Core(TM) i9-9980HK CPU @ 2.40GHz" ncpu=16 \
		perflevels=0 cores_p=n/a cores_e=n/a core_classes=all \
		network=offline network_interface=none vpn=no \
		spotlight_volume=no-index sip=enabled sip_custom=no assessments=enabled work_fs=hfs \
		devtools=unknown
	refute_line --regexp '^perflevel[0-9]'
	# (was: "Intel VM with one Standard level, the other offline messages, SIP unknown (custom)")
	check_state intel-vm perflevels=1 perflevel0.name=Standard perflevel0.cpus=4 \
		cores_p=4 cores_e=0 core_classes=all \
		network=offline network_interface=none vpn=no \
		sip=unknown sip_custom=yes assessments=enabled \
		spotlight_volume=unknown work_fs=unknown os_version=13.6.1 os_build=22G313
}

@test "macOS: Catalina's sw_vers, SIP custom or disabled, assessments off, RSR, network edges, odd output" {
	# (was: "Catalina's single-tab sw_vers is read too")
	check_state catalina-old "os_name=Mac OS X" os_version=10.15.7 os_build=19H2 \
		perflevels=0 core_classes=all network=online network_interface=en0 \
		spotlight_volume=enabled
	# (was: "SIP with a custom configuration: enabled, sip_custom=yes")
	check_state sip-custom sip=enabled sip_custom=yes assessments=enabled \
		spotlight_volume=read-only devtools=denied
	# (was: "SIP disabled and assessments disabled (spctl exits 1: the text decides)")
	check_state sip-disabled-assess-off sip=disabled sip_custom=no assessments=disabled \
		spotlight_volume=unknown network=online
	# (was: "a Rapid Security Response is appended to os_version")
	check_state rsr "os_version=13.4.1 (a)" os_build=22F770820b os_name=macOS \
		devtools=restricted
	# (was: "network: a route scutil calls unreachable is not online; IPv6 reachable without IPv4 is")
	# network: a default route scutil calls unreachable is not online; IPv6 reachable without an IPv4 route is
	# a default route that scutil calls unreachable is not 'online'
	check_state net-conflict network=unknown network_interface=en0 vpn=no
	# no IPv4 default route but IPv6 reachable is online, not offline
	check_state net-v6only network=online network_interface=en0 vpn=no
	# (was: "unexpected output everywhere, more of it, every macOS command missing: unknown values, no crash")
	# unexpected output everywhere: unknown values, no crash
	check_state weird os=Darwin os_name=unknown os_version=unknown os_build=unknown \
		model=unknown cpu=unknown ncpu=unknown \
		perflevels=2 perflevel0.name=Performance perflevel0.cpus=unknown \
		perflevel1.name=unknown perflevel1.cpus=unknown \
		cores_p=unknown cores_e=unknown core_classes=all \
		sip=unknown sip_custom=unknown assessments=unknown devtools=unknown \
		network=unknown network_interface=unknown vpn=unknown \
		spotlight_volume=unknown work_fs=unknown
	# more unexpected output: bad level count, spctl on stderr, other route errors
	check_state weird2 sip=enabled sip_custom=no perflevels=unknown devtools=unknown \
		cores_p=unknown cores_e=unknown core_classes=all assessments=unknown \
		network=unknown network_interface=unknown vpn=unknown \
		spotlight_volume=unknown work_fs=unknown
	# every macOS command missing: unknown values, no crash
	check_state missing os=Darwin kernel=unknown arch=unknown os_version=unknown \
		perflevels=unknown cores_p=unknown sip=unknown assessments=unknown \
		network=unknown vpn=unknown spotlight_volume=unknown work_fs=unknown
	value_in ncpu || :
	[[ "$val" =~ ^([0-9]+|unknown)$ ]] || fail "ncpu=$val"
}

@test "devtools: the program's word, else unknown; micro/bin/devtools by default; the parts from beside it" {
	# (was: "devtools is the word the devtools program prints; anything else is unknown")
	local st want
	for st in m1pro-vpn:authorized sip-custom:denied m5-three-levels:not-determined \
		rsr:restricted intel-offline:unknown weird:unknown weird2:unknown m1-online:unknown; do
		want=${st#*:}
		# the run check_state keeps for the state (the work folder is not
		# what devtools reads)
		kept "${st%%:*}.sh"
		value_in devtools || :
		assert_equal "${st%%:*}: $val" "${st%%:*}: $want"
	done
	direct env PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/m1pro-vpn" \
		EXECLAG_DEVTOOLS=/nonexistent/devtools sh "$SYSINFO"
	assert_success
	assert_line devtools=unknown
	# (was: "on a fake Mac without EXECLAG_DEVTOOLS, sysinfo runs micro/bin/devtools (here: n/a, so unknown)")
	[ -x "$ROOT/micro/bin/devtools" ] || make -C "$ROOT" -s micro/bin/devtools
	run_both -0 "$ROOT/micro/bin/devtools"
	assert_output n/a
	# a stand-in at the default place that says authorized is believed
	mkdir -p "$BATS_TEST_TMPDIR/kit/scripts/probe" "$BATS_TEST_TMPDIR/kit/micro/bin"
	cp "$SYSINFO" "$SYSINFO-darwin" "$SYSINFO-linux" "$BATS_TEST_TMPDIR/kit/scripts/probe/"
	printf '#!/bin/sh\necho authorized\n' >"$BATS_TEST_TMPDIR/kit/micro/bin/devtools"
	chmod +x "$BATS_TEST_TMPDIR/kit/micro/bin/devtools"
	run_both -0 env -u EXECLAG_DEVTOOLS PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/m1-online" \
		sh "$BATS_TEST_TMPDIR/kit/scripts/probe/sysinfo"
	assert_line devtools=authorized
	run_both -0 env -u EXECLAG_DEVTOOLS PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/m1-online" \
		sh "$SYSINFO"
	assert_line devtools=unknown
	# (was: "sysinfo sources its system's part from beside it; a missing part is one line on stderr, exit 1")
	local kit="$BATS_TEST_TMPDIR/kit2/scripts/probe" want
	mkdir -p "$kit"
	cp "$SYSINFO" "$SYSINFO-darwin" "$kit/"
	# a copy run from its own folder, as "sh sysinfo", finds its part too, and
	# prints what the kit's own sysinfo does (its run without --workdir, kept)
	kept m1-online.nowork
	want=$output
	direct sysinfo_in "$kit" m1-online
	assert_success
	assert_equal "$output" "$want"
	assert_equal "$stderr" ""
	# Linux needs sysinfo-linux, which this copy lacks
	run_sep env PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/linux-offline" \
		EXECLAG_SYSROOT="$FAKES/states/linux-offline/root" sh "$kit/sysinfo"
	assert_equal "$status" 1
	assert_equal "$output" ""
	assert_equal "$stderr" "sysinfo: $kit/sysinfo-linux is missing"
}

@test "the ps and log show states read as the M1; workdir_indexed; the responsible app and XProtect" {
	# (was: "the states made for ps and log show read as the M1 they start from")
	local st m1
	kept m1-online.sh
	m1=$output
	# under sh alone (setup_file): their files for every command sysinfo
	# runs are m1-online's, whose runs check_state compares across the
	# shells; so each prints m1-online's lines byte for byte
	for st in m1-watch ps-odd log-empty log-refused; do
		ONLY_SH=1 check_state "$st" os=Darwin model=MacBookAir10,1 cpu="Apple M1" perflevels=2 \
			cores_p=4 cores_e=4 sip=enabled sip_custom=no assessments=enabled \
			devtools=unknown network=online network_interface=en0 vpn=no
		assert_equal "$output" "$m1"
	done
	# (was: "workdir_indexed: .noindex anywhere in the path, yes elsewhere, unknown without --workdir")
	sysinfo_with m1-online sh --workdir /tmp/a.noindex/run-1/
	assert_value workdir_indexed "no (.noindex)"
	sysinfo_with m1-online sh --workdir=/tmp/plain
	assert_value workdir_indexed "yes"
	kept m1-online.nowork
	assert_value workdir_indexed "unknown"
	assert_value work_fs "unknown"
	# (was: "the responsible app and XProtect, on the same states' runs")
	# (was: "the responsible app: the outermost NAME.app, sshd-keygen-wrapper by its file, else unknown")
	# the responsible app: the outermost NAME.app of the reader's path, sshd-keygen-wrapper by its file, else unknown
	# the responsible app: the outermost NAME.app of the path the reader prints
	check_state m1-online responsible_app=Terminal \
		responsible_path=/System/Applications/Utilities/Terminal.app/Contents/MacOS/Terminal
	check_state m1-sequoia responsible_app=iTerm devtools=authorized \
		responsible_path=/Applications/iTerm.app/Contents/MacOS/iTerm2
	check_state m5-three-levels responsible_app=Alacritty
	# over ssh the responsible program is sshd-keygen-wrapper, named by its file
	check_state m1-ssh responsible_app=sshd-keygen-wrapper \
		responsible_path=/usr/libexec/sshd-keygen-wrapper devtools=not-determined
	# a responsible path the reader cannot give, or garbage, is unknown
	check_state weird responsible_app=unknown responsible_path=unknown
	check_state missing responsible_app=unknown responsible_path=unknown
	check_state intel-vm responsible_app=unknown responsible_path=unknown
	# (was: "XProtect: macOS 14's bundle, 15's primary copy and scans, the fallback, 26.1's scans off, unknown")
	# XProtect: macOS 14's CoreServices bundle, 15's primary copy first and the scans, the fallback, 26.1's launch scans off, other words unknown
	# XProtect on macOS 14: the CoreServices bundle's version, no xprotect command
	check_state m1-online xprotect_version=5272 \
		xprotect_version_from=/Library/Apple/System/Library/CoreServices/XProtect.bundle \
		xprotect_launch_scans=n/a xprotect_background_scans=n/a
	# XProtect on macOS 15: the primary copy in /var/protected first, both scans from xprotect status
	check_state m1-sequoia xprotect_version=5322 \
		xprotect_version_from=/var/protected/xprotect/XProtect.bundle \
		xprotect_launch_scans=enabled xprotect_background_scans=enabled
	# XProtect: a primary copy that does not answer falls back to CoreServices
	check_state m1-ssh xprotect_version=5322 \
		xprotect_version_from=/Library/Apple/System/Library/CoreServices/XProtect.bundle
	# XProtect on macOS 26.1 with launch scans off, as usnistgov/macos_security#594 saw it
	check_state m5-three-levels xprotect_version=5324 xprotect_launch_scans=disabled \
		xprotect_background_scans=enabled
	# XProtect: an answer in other words is unknown, never guessed
	check_state weird xprotect_version=unknown xprotect_version_from=none \
		xprotect_launch_scans=unknown xprotect_background_scans=enabled
	check_state missing xprotect_version=unknown xprotect_launch_scans=n/a
}

@test "how it was started: Terminal, ssh, tmux, screen, launchd, none; terminal is TERM_PROGRAM, else TERM" {
	# (was: "started from Terminal: the app from TERM_PROGRAM, no ssh, multiplexer or launchd job")
	started_with m1-online TERM_PROGRAM=Apple_Terminal XPC_SERVICE_NAME=0 \
		__CFBundleIdentifier=com.apple.Terminal TERM=xterm-256color
	assert_line started_via=Terminal
	assert_line ssh=no
	assert_line multiplexer=none
	assert_line launchd_job=no
	assert_line terminal_app=Terminal
	assert_line bundle_id=com.apple.Terminal
	assert_line tty=no
	# (was: "terminal is TERM_PROGRAM, else TERM, else unknown", on this
	# machine: the same lines of sysinfo, on this run and two below)
	# TERM_PROGRAM over TERM
	assert_line terminal=Apple_Terminal
	# (was: "over ssh (SSH_CONNECTION, SSH_CLIENT or SSH_TTY) inside tmux: both named, outermost first")
	started_with m1-ssh SSH_CONNECTION="192.0.2.10 51234 192.0.2.20 22" TMUX=/private/tmp/tmux-501/default,4242,0 \
		TERM_PROGRAM=tmux
	assert_line started_via=ssh,tmux
	assert_line ssh=yes
	assert_line multiplexer=tmux
	assert_line terminal_app=unknown
	started_with m1-ssh SSH_TTY=/dev/ttys003
	assert_line started_via=ssh
	started_with m1-ssh SSH_CLIENT="192.0.2.10 51234 22"
	assert_line ssh=yes
	# (was: "inside tmux the bundle id is what the server started with: the app named from it")
	started_with m1-online TMUX=/private/tmp/tmux-501/default,4242,0 TERM_PROGRAM=tmux \
		__CFBundleIdentifier=com.googlecode.iterm2
	assert_line started_via=tmux,iTerm2
	assert_line terminal_app=iTerm2
	# (was: "GNU screen (STY), and both multiplexers at once")
	started_with m1-online STY=4242.ttys003.host
	assert_line multiplexer=screen
	assert_line started_via=screen
	started_with m1-online STY=4242.ttys003.host TMUX=/tmp/tmux-501/default,1,0
	assert_line multiplexer=tmux,screen
	# (was: "a launchd job: XPC_SERVICE_NAME holds a label; an app's (application.…) is not a job")
	started_with m1-online XPC_SERVICE_NAME=com.example.nightly-build
	assert_line launchd_job=yes
	assert_line started_via=launchd
	started_with m1-online XPC_SERVICE_NAME=application.com.microsoft.VSCode.59852660.59852666 \
		__CFBundleIdentifier=com.microsoft.VSCode TERM_PROGRAM=vscode
	assert_line launchd_job=no
	assert_line started_via="VS Code"
	# (was: "nothing to go by and no terminal on stdin: started_via says no terminal")
	started_with m1-online
	assert_line started_via="no terminal"
	assert_line launchd_job=no
	assert_line bundle_id=none
	# (terminal: unknown with neither TERM_PROGRAM nor TERM, as the test on
	# this machine had it)
	assert_line terminal=unknown
}

@test "terminal apps by their marks (kitty, Alacritty, Ghostty, WezTerm, Warp), else bundle id; Linux: n/a" {
	# (was: "terminals that set no TERM_PROGRAM: kitty, Alacritty, Ghostty by their own marks")
	started_with m1-online KITTY_WINDOW_ID=1 TERM=xterm-kitty
	assert_line terminal_app=kitty
	started_with m1-online TERM=alacritty
	assert_line terminal_app=Alacritty
	# (terminal: TERM without TERM_PROGRAM, as the test on this machine had it)
	assert_line terminal=alacritty
	started_with m1-online __CFBundleIdentifier=org.alacritty
	assert_line terminal_app=Alacritty
	started_with m1-online TERM=xterm-ghostty
	assert_line terminal_app=Ghostty
	started_with m1-online TERM_PROGRAM=WezTerm
	assert_line terminal_app=WezTerm
	started_with m1-online TERM_PROGRAM=WarpTerminal
	assert_line terminal_app=Warp
	# (was: "an app without a known name is its bundle id; a bundle id with odd characters is unknown")
	started_with m1-online __CFBundleIdentifier=com.jetbrains.intellij.ce
	assert_line terminal_app=com.jetbrains.intellij.ce
	started_with m1-online '__CFBundleIdentifier=com.example app'
	assert_line bundle_id=unknown
	assert_line terminal_app=unknown
	# (was: "on Linux: ssh and multiplexers are read, the macOS-only keys are n/a")
	run_sep env -i PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/linux-hybrid" \
		EXECLAG_SYSROOT="$FAKES/states/linux-hybrid/root" SSH_CONNECTION="192.0.2.1 1 192.0.2.2 22" \
		XPC_SERVICE_NAME=com.example.job __CFBundleIdentifier=com.apple.Terminal sh "$SYSINFO" </dev/null
	assert_success
	assert_line ssh=yes
	assert_line started_via=ssh
	assert_line launchd_job=n/a
	assert_line bundle_id=n/a
	assert_line responsible_app=n/a
	assert_line xprotect_version=n/a
	assert_line xprotect_launch_scans=n/a
}

@test "Linux: hybrid CPU on WireGuard, offline on a down link, IPv6 alone online, ClamAV's listener, agents" {
	# (was: "Linux hybrid CPU on WireGuard: P/E counts from cpu_core/cpu_atom, vpn=yes")
	check_state linux-hybrid os=Linux "os_name=Ubuntu 24.04.1 LTS" os_version=24.04 \
		os_build=n/a kernel=6.8.0-45-generic "model=XPS 15 9520" \
		"cpu=12th Gen Intel(R) Core(TM) i7-12700H" \
		perflevels=n/a cores_p=12 cores_e=7 "core_classes=all P E" \
		sip=n/a sip_custom=n/a assessments=n/a devtools=n/a \
		network=online network_interface=wg0 vpn=yes clock_source=tsc \
		spotlight_volume=n/a workdir_indexed=n/a work_fs=btrfs
	# (was: "Linux: a default route on a down link is offline; an IPv6 default route alone is online")
	# Linux: a default route on a down link is offline (Serial never printed); only an IPv6 default route is online on the up link
	# Linux board whose default route is on a down link is offline; Serial never printed
	check_state linux-offline "os_name=Debian GNU/Linux 12 (\"bookworm\")" os_version=12 \
		arch=aarch64 model=unknown cpu=BCM2835 core_classes=all cores_p=n/a cores_e=n/a \
		network=offline network_interface=none vpn=no clock_source=arch_sys_counter \
		work_fs=ext4
	refute_output --partial 10000000abcdef01
	# Linux with only an IPv6 default route is online on the up link
	check_state linux-v6only "os_name=Fedora Linux 40 (Workstation Edition)" os_version=40 \
		network=online network_interface=enp1s0 vpn=no cpu=unknown clock_source=unknown \
		work_fs=xfs
	# (was: "Linux under ClamAV on access: the fanotify listener by name and count, the known agents named")
	check_state linux-clamav os=Linux "fanotify_listeners=clamonacc (1)" \
		"agents=ClamAV daemon (clamd); ClamAV on-access scanning (clamonacc)"
	# the plain Linux states have neither
	check_state linux-hybrid fanotify_listeners=none agents=none
	# macOS: Endpoint Security clients are not read
	check_state m1-online fanotify_listeners=n/a "agents=not read (Endpoint Security clients)"
}

@test "Linux on ARM: Asahi M1, M2 Pro and M1 Max; a uniform server; three capacities, each a level" {
	# (was: "Asahi on an M1: the chip from the device tree, 4 P + 4 E from cpu_capacity, a level per capacity")
	check_state asahi-m1 os=Linux arch=aarch64 "cpu=Apple M1" "model=Apple Mac mini (M1, 2020)" \
		"core_classes=all P E" cores_p=4 cores_e=4 perflevels=2 \
		"perflevel0.name=capacity 1024" perflevel0.cpus=4 \
		"perflevel1.name=capacity 493" perflevel1.cpus=4
	# (was: "Asahi on an M2 Pro (4 E + 8 P) and an M1 Max (2 E + 8 P)")
	check_state asahi-m2pro "cpu=Apple M2 Pro" "model=Apple MacBook Pro (14-inch, M2 Pro, 2023)" \
		"core_classes=all P E" cores_p=8 cores_e=4 perflevels=2 perflevel1.cpus=4
	check_state asahi-m1max "cpu=Apple M1 Max" "model=Apple MacBook Pro (14-inch, M1 Max, 2021)" \
		"core_classes=all P E" cores_p=8 cores_e=2 perflevels=2 "perflevel1.name=capacity 485"
	# (was: "a uniform arm64 server (one cpu_capacity): no core classes, no levels, no chip")
	check_state arm64-server arch=aarch64 cpu=unknown model=unknown core_classes=all \
		cores_p=n/a cores_e=n/a perflevels=n/a
	refute_output --partial perflevel0
	# (was: "three capacities (prime, big, little): P is the highest alone, E the other two, each a level")
	local st="$BATS_TEST_TMPDIR/st" i c dirs=()
	cp -R "$FAKES/states/arm64-server" "$st"
	rm -rf "$st/root/sys/devices/system/cpu"
	# the eight folders in one mkdir, the files by the shell
	for i in 0 1 2 3 4 5 6 7; do dirs+=("$st/root/sys/devices/system/cpu/cpu$i"); done
	mkdir -p "${dirs[@]}"
	i=0
	for c in 1024 870 870 870 340 340 340 340; do
		echo "$c" >"$st/root/sys/devices/system/cpu/cpu$i/cpu_capacity"
		i=$((i + 1))
	done
	run_sep env PATH="$FAKES/bin:$PATH" FAKE_STATE="$st" EXECLAG_SYSROOT="$st/root" \
		sh "$SYSINFO" --workdir /tmp/x
	assert_success
	values cores_p cores_e perflevels
	assert_equal "$vals" "1 7 3"
	values perflevel1.name perflevel1.cpus
	assert_equal "$vals" "capacity 870 3"
	values perflevel2.name perflevel2.cpus
	assert_equal "$vals" "capacity 340 4"
}

@test "this machine, as root, with the calibration gate running: the gate is a fanotify listener" {
	# (bash's OSTYPE and EUID: no uname, no id)
	[[ $OSTYPE == linux* ]] || skip "fanotify is Linux's"
	[ "$EUID" = 0 ] || skip "other processes' fdinfo needs root"
	[ -x "$BIN/gate" ] || skip "no micro/bin/gate"
	mkdir -p "$BATS_TEST_TMPDIR/watched"
	"$BIN/gate" --dir "$BATS_TEST_TMPDIR/watched" --latency-ms 1 --workers 1 --key inode --ready-file "$BATS_TEST_TMPDIR/ready" \
		>"$BATS_TEST_TMPDIR/gate.out" 2>&1 &
	gpid=$!
	i=0
	while [ ! -e "$BATS_TEST_TMPDIR/ready" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "$BATS_TEST_TMPDIR/ready" ] || { kill "$gpid"; skip "the gate did not start (no fanotify here?): $(cat "$BATS_TEST_TMPDIR/gate.out")"; }
	run_sep sh "$SYSINFO"
	kill "$gpid"
	wait "$gpid" || true
	assert_success
	value_in fanotify_listeners || :
	[[ "$val" == *"gate ("[1-9]*")"* ]] || fail "fanotify_listeners=$val"
	value_in agents || :
	[[ "$val" == *"execlag calibration gate"* ]] || fail "agents=$val"
}

@test "this machine: kit_version, \$HOME as ~, no hostname run, usage; no host/user name; Linux: all keys" {
	# (was: "kit_version comes from EXECLAG_VERSION; a value holding $HOME shows ~ instead")
	# the file's run with EXECLAG_VERSION=1.2.3, HOME=/Users/alice and
	# TERM_PROGRAM under it (setup_file)
	kept home
	assert_success
	assert_line --index 0 kit_version=1.2.3
	assert_line "terminal=~/Apps/Term"
	refute_output --partial /Users/alice
	# (was: "sysinfo never runs hostname, whoami, system_profiler, ioreg")
	# every run setup_file keeps had these six first on PATH (tripwire):
	# the fake Macs' and Linuxes' under each shell, and this machine's
	# (was: a run on m1-online's fakes and one on this machine, each its own)
	local trap="$BATS_FILE_TMPDIR/tripwire"
	[ -x "$trap/ioreg" ] || fail "no tripwire in $trap"
	kept m1-online.sh
	assert_success
	kept here
	assert_success
	[ ! -e "$trap/called" ] || fail "called: $(cat "$trap/called")"
	# (was: "--help prints usage and exits 0; an unknown option is one line on stderr and exit 2")
	# --help prints usage and exits 0
	run_both -0 sh "$SYSINFO" --help
	assert_line --index 0 --partial "usage: sysinfo"
	# an unknown option is one line on stderr and exit 2
	run_sep sh "$SYSINFO" --frobnicate
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	run_sep sh "$SYSINFO" --workdir
	assert_equal "$status" 2
	assert_equal "${#stderr_lines[@]}" 1
	# (was: "on this machine: no line holds the host or user name or $HOME; on Linux: os=Linux, ncpu, all keys")
	# (was: "on this machine: no line holds the host name, \$HOME or the user name")
	# the file's run on this machine (setup_file), as the part below reads it
	kept here
	assert_success
	local host user
	host=$(hostname 2>/dev/null || uname -n)
	user=$(id -un)
	# whole words: a host called "vm" is not leaked by "kvm-clock"
	[ -z "$host" ] || refute_output --regexp "(^|[^A-Za-z0-9_-])${host//./\\.}([^A-Za-z0-9_-]|$)"
	[ -z "$user" ] || refute_output --regexp "(^|[^A-Za-z0-9_-])${user}([^A-Za-z0-9_-]|$)"
	[ "${#HOME}" -le 1 ] || refute_output --partial "$HOME"
	# (was: "on this Linux machine: os=Linux, ncpu from getconf, all keys, well formed")
	[[ $OSTYPE == linux* ]] || skip "not Linux (the checks above done)"
	kept here
	assert_success
	assert_equal "$stderr" ""
	assert_well_formed
	assert_value os Linux
	assert_value ncpu "$(getconf _NPROCESSORS_ONLN)"
	assert_value os_build n/a
	assert_value sip n/a
	assert_value spotlight_volume n/a
	assert_value workdir_indexed n/a
	assert_value devtools n/a
	assert_value perflevels n/a
	keys_in
	expected_keys 0
	assert_equal "$got_keys" "$want_keys"
}
