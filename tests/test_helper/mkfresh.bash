# mkfresh.bash - `load test_helper/mkfresh`: what the tests of mkfresh's
# artifacts share (tests/mkfresh.bats, tests/placements.bats): the work
# folder W and the manifest M, and what reads them.

# mkfresh_setup: each test's setup; W made
mkfresh_setup() {
	mkfresh_setup_unmade
	mkdir -p "$W"
}

# mkfresh_setup_unmade: the same, W named but not made (tests/mkfresh.bats:
# a test makes it with the folders of its own, or reads the file's runs
# only: a mkdir a test fewer)
mkfresh_setup_unmade() {
	_common_setup
	# the suite's shared templates (test_helper) are not these files': their
	# compile counts are of one maker alone
	unset EXECLAG_TEMPLATES
	W="$BATS_TEST_TMPDIR/work"
	M="$BATS_TEST_TMPDIR/out.manifest"
}

inode() { ls -i "$1" | awk '{ print $1 }'; }

objects() { awk -F'\t' '$1 == "artifact" { print $3 }' "$M"; }

# mk KIND N [more options]: make N artifacts with prefix "p" into $W.
# It must succeed, saying nothing on stderr (no `run`: a fork of bats' bash).
mk() {
	local kind=$1 n=$2 e="$BATS_TEST_TMPDIR/mk.err"
	shift 2
	"$BIN/mkfresh" --kind "$kind" --count "$n" \
		--dir "$W" --prefix p --manifest "$M" "$@" 2>"$e" || fail "mkfresh failed: $(cat "$e")"
	[ ! -s "$e" ] || fail "mkfresh said on stderr: $(cat "$e")"
}

# chk CHECK...: tests/test_helper/mkfresh-check's CHECKs of $M and $W, in
# one sh (its failures on stdout, shown with the failed test)
chk() { sh "$ROOT/tests/test_helper/mkfresh-check" "$M" "$W" "$@"; }

sha() { # sha FILE...: one hash a line
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$@" | awk '{ print $1 }'
	else
		shasum -a 256 "$@" | awk '{ print $1 }'
	fi
}

# A compiler whose "binaries" are scripts that log "INODE PATH" of
# themselves to $EXECLAG_TEST_LOG when run: it shows which file (which
# inode) mkfresh launched, without any debug hook in mkfresh.  With
# EXECLAG_TEST_STAMPS (a folder) each also leaves there, under its own
# name, a file with its modification time at its launch (touch -r).
# (Each a process as few as it can: the compiler's printf and its chmod,
# the program's one ls, split by set: no awk, no cat.)
make_logging_cc() {
	FAKECC="$BATS_TEST_TMPDIR/logging-cc"
	local text
	# (read and printf, the shell's own: no cat)
	IFS= read -r -d '' text <<'CC' || :
#!/bin/sh
out=
while [ $# -gt 0 ]; do
	if [ "$1" = -o ]; then out=$2; shift; fi
	shift
done
printf '%s\n' '#!/bin/sh' 'p=$0' 'set -- $(ls -i "$p")' 'echo "$1 $p" >>"$EXECLAG_TEST_LOG"' \
	'[ -z "${EXECLAG_TEST_STAMPS:-}" ] || touch -r "$p" "$EXECLAG_TEST_STAMPS/${p##*/}"' 'exit 0' >"$out"
chmod 755 "$out"
CC
	printf '%s' "$text" >"$FAKECC"
	chmod 755 "$FAKECC"
	export EXECLAG_TEST_LOG="$BATS_TEST_TMPDIR/launched.log"
	: >"$EXECLAG_TEST_LOG"
}

# (tests/mkfresh.bats: the same values as inode, objects and grep -c ., by
# the shell's own read where it can: a fork in a test body is 6-12 ms)
# inode_of VAR FILE: FILE's inode number into VAR (one ls)
inode_of() {
	local _l
	_l=$(ls -i "$2")
	_l=${_l#"${_l%%[! ]*}"}
	printf -v "$1" '%s' "${_l%% *}"
}

# objs_read: OBJS, the manifest's objects in order (objects' lines)
objs_read() {
	local _a _b _c
	OBJS=()
	while IFS=$'\t' read -r _a _b _c _; do
		[ "$_a" != artifact ] || OBJS+=("$_c")
	done <"$M"
}

# lines_of VAR FILE: how many lines of FILE hold a character (grep -c .)
lines_of() {
	local _l _k=0
	while IFS= read -r _l || [ -n "$_l" ]; do
		[ -z "$_l" ] || _k=$((_k + 1))
	done <"$2"
	printf -v "$1" '%s' "$_k"
}

# field_of VAR N FILE: field N (blank-separated) of each line of FILE, one
# a line (awk '{ print $N }')
field_of() {
	local _f=() _out=""
	while read -r -a _f || [ "${#_f[@]}" -gt 0 ]; do
		_out+="${_f[$2 - 1]:-}"$'\n'
		_f=()
	done <"$3"
	printf -v "$1" '%s' "${_out%$'\n'}"
}

# slurp VAR FILE: FILE's text, trailing newlines dropped ($(cat FILE))
slurp() {
	local _v=""
	IFS= read -r -d '' _v <"$2" || :
	while [[ $_v == *$'\n' ]]; do _v=${_v%$'\n'}; done
	printf -v "$1" '%s' "$_v"
}

# phys VAR DIR: DIR resolved ($(cd DIR && pwd -P)), without a subshell
phys() {
	local _o=$PWD
	cd -P "$2" || return 1
	printf -v "$1" '%s' "$PWD"
	cd "$_o" || return 1
}
