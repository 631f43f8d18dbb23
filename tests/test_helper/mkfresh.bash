# mkfresh.bash - `load test_helper/mkfresh`: what the tests of mkfresh's
# artifacts share (tests/mkfresh.bats, tests/placements.bats): the work
# folder W and the manifest M, and what reads them.

# mkfresh_setup: each test's setup
mkfresh_setup() {
	_common_setup
	# the suite's shared templates (test_helper) are not these files': their
	# compile counts are of one maker alone
	unset EXECLAG_TEMPLATES
	W="$BATS_TEST_TMPDIR/work"
	M="$BATS_TEST_TMPDIR/out.manifest"
	mkdir -p "$W"
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
make_logging_cc() {
	FAKECC="$BATS_TEST_TMPDIR/logging-cc"
	cat >"$FAKECC" <<'CC'
#!/bin/sh
out=
while [ $# -gt 0 ]; do
	if [ "$1" = -o ]; then out=$2; shift; fi
	shift
done
cat >"$out" <<'PROG'
#!/bin/sh
echo "$(ls -i "$0" | awk '{ print $1 }') $0" >>"$EXECLAG_TEST_LOG"
[ -z "${EXECLAG_TEST_STAMPS:-}" ] || touch -r "$0" "$EXECLAG_TEST_STAMPS/${0##*/}"
exit 0
PROG
chmod 755 "$out"
CC
	chmod 755 "$FAKECC"
	export EXECLAG_TEST_LOG="$BATS_TEST_TMPDIR/launched.log"
	: >"$EXECLAG_TEST_LOG"
}
