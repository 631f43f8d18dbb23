#!/usr/bin/env bats
# The documents point at what is there: the README's Layout names every
# program and script, the workshop guide's sources are in docs/evidence.md,
# and every docs/ file or relative link they name exists.  And every test
# name fits 100 characters, the detail in comments.

load test_helper/common-setup

setup() { _common_setup; }

# layout: the README's Layout block
layout() { sed -n '/^## Layout/,/^## /p' "$ROOT/README.md"; }

@test "README Layout names every program the Makefile builds and every script" {
	local l p s missing=
	l=$(layout)
	[ -n "$l" ] || fail "README.md has no Layout section"
	# the programs as make builds them (make print-progs), not as the Makefile is written
	for p in $(make -s --no-print-directory -C "$ROOT" print-progs | tr ' ' '\n' | sed 's|^micro/bin/||'); do
		printf '%s\n' "$l" | grep -qw -- "$p" || missing="$missing $p"
	done
	for s in "$ROOT"/scripts/* "$ROOT"/scripts/*/*; do
		[ -f "$s" ] || continue
		s=$(basename "$s")
		printf '%s\n' "$l" | grep -qw -- "$s" || missing="$missing scripts/$s"
	done
	[ -z "$missing" ] || fail "README.md Layout does not name:$missing"
	# the check itself can fail: a name that is not there is missing
	! printf '%s\n' "$l" | grep -qw -- no-such-program
}

@test "every source the workshop guide lists is in docs/evidence.md, which the guide cites" {
	local u missing= n=0
	grep -q '(evidence.md)' "$ROOT/docs/workshop.md"
	for u in $(sed -n '/^## Sources/,$p' "$ROOT/docs/workshop.md" | grep -o 'https\{0,1\}://[^ )>]*' | sed 's/[.,;]$//'); do
		n=$((n + 1))
		grep -qF -- "$u" "$ROOT/docs/evidence.md" || missing="$missing $u"
	done
	[ "$n" -ge 10 ] || fail "only $n source URLs found in the guide's Sources"
	[ -z "$missing" ] || fail "not in docs/evidence.md:$missing"
	! grep -n 'design notes' "$ROOT/docs/workshop.md" "$ROOT/README.md"
}

@test "every docs/ file and relative link that the README and the guide name exists" {
	local f p missing=
	for f in README.md docs/workshop.md docs/method.md; do
		for p in $(grep -o 'docs/[A-Za-z0-9_.-]*\.\(md\|json\)' "$ROOT/$f" | sort -u); do
			[ -f "$ROOT/$p" ] || missing="$missing $f:$p"
		done
		for p in $(grep -o '](\([A-Za-z0-9_./-]*\))' "$ROOT/$f" | sed 's/^](//; s/)$//' | sort -u); do
			[ -e "$(dirname "$ROOT/$f")/$p" ] || missing="$missing $f:$p"
		done
	done
	[ -z "$missing" ] || fail "named but not there:$missing"
}

# doc_paths FILE...: every repository path the files name, backticked or
# plain, one a line: a word that starts micro/, scripts/, tests/, docs/,
# cases/ or data/ (not part of a longer path or a URL), up to its last
# letter, digit, _ or *
doc_paths() {
	grep -ohE '(^|[^A-Za-z0-9_./~$-])(micro|scripts|tests|docs|cases|data)/[A-Za-z0-9_./*,-]*[A-Za-z0-9_*]' "$@" |
		sed 's|^[^mstdc]||' | sort -u
}

# missing_paths PATH...: those of the PATHs the repository does not hold.
# Allowed without a file: what make builds (micro/bin/NAME, where
# micro/prog/NAME.c is its source; micro/bin/*, micro/bin/.flags and the
# generated micro/bin/gen/), what
# runs write (results/, .cache/: not extracted), and other projects' files
# cited as sources (rustc's tests/ui, marspot's RFC-007, Homebrew's
# docs/Installation.md).  A pattern with * must match a file.  Called with
# globbing off, so that micro/bin/* reaches it as written.
missing_paths() {
	local p
	set +f # the caller passes the paths unglobbed (set -f); a pattern is matched here
	for p in "$@"; do
		case $p in
		micro/bin/\* | micro/bin/.flags | micro/bin/gen/*) continue ;;
		micro/bin/*) [ -f "$ROOT/micro/prog/${p#micro/bin/}.c" ] && continue ;;
		tests/ui | docs/rfc-007-clean-exec-chain.md | docs/Installation.md) continue ;;
		*\**) for f in "$ROOT"/$p; do [ -e "$f" ] && continue 2; done ;;
		*) [ -e "$ROOT/$p" ] && continue ;;
		esac
		printf '%s\n' "$p"
	done
}

@test "every repository path that README.md and docs/*.md name is in the repository" {
	local paths missing
	paths=$(cd "$ROOT" && doc_paths README.md docs/*.md)
	[ "$(printf '%s\n' "$paths" | wc -l)" -ge 50 ] || fail "found only these paths: the scan is broken: $paths"
	# shellcheck disable=SC2086
	missing=$(set -f; missing_paths $paths)
	[ -z "$missing" ] || fail "named in README.md or docs/ but not in the repository: $(echo $missing)"
	# the check itself can fail: a path that is not there is found and missing
	# and a URL's path is another project's, not one to look for here
	printf 'see `micro/prog/no-such.c`, scripts/no-such, micro/bin/no-such.\nhttps://example.org/docs/no-such.md\n' >"$BATS_TEST_TMPDIR/x.md"
	paths=$(doc_paths "$BATS_TEST_TMPDIR/x.md")
	# shellcheck disable=SC2086
	[ "$(missing_paths $paths | wc -l)" -eq 3 ] || fail "the self-check found: $paths"
	[ -z "$(missing_paths micro/bin/analyze 'cases/*.case' docs/method.md)" ]
}

@test "the kit cites its own docs/macos.md, not a file outside it, and each section it names there exists" {
	local refs n missing=
	# the shared notes the kit was built from are not in the repository
	run grep -rln --exclude-dir=.git --exclude-dir=.cache --exclude-dir=results --exclude=docs.bats 'macos-facts' "$ROOT"
	[ -z "$output" ] || fail "cites macos-facts, which is not in the repository: $output"
	refs=$(grep -rhoE --exclude-dir=.git --exclude-dir=.cache 'docs/macos\.md §[0-9]+' "$ROOT" | sed 's/.*§//' | sort -un)
	[ -n "$refs" ] || fail "no reference to docs/macos.md found"
	for n in $refs; do
		grep -q "^## $n\. " "$ROOT/docs/macos.md" || missing="$missing §$n"
	done
	[ -z "$missing" ] || fail "docs/macos.md has no section$missing"
}

# utf8_locale: a UTF-8 locale this machine has (C.UTF-8 on Linux, en_US.UTF-8
# on a Mac), found by this bash counting "…" as one character in it
utf8_locale() {
	local l
	for l in C.UTF-8 C.utf8 en_US.UTF-8 en_US.utf8 UTF-8; do
		if [ "$(exec 2>/dev/null; LC_ALL=$l; x="…"; printf %s "${#x}")" = 1 ]; then
			printf '%s\n' "$l"
			return 0
		fi
	done
	return 1
}

@test "every test name is at most 100 characters" {
	local loc f line name i n=0 long=
	# characters, not bytes: names hold …, → and ×; as written in the file
	loc=$(utf8_locale) || skip "no UTF-8 locale to count characters in"
	LC_ALL=$loc
	for f in "$ROOT"/tests/*.bats "$ROOT"/tests/live/*.bats "$ROOT"/tests/cross/*.bats "$ROOT"/checks/pattern/*.bats "$ROOT"/checks/exercise/*.bats; do
		[ -f "$f" ] || continue
		# grep finds the lines (the shell's matching of every line of every
		# file in a UTF-8 locale took a minute on a loaded machine)
		while IFS= read -r line; do
			i=${line%%:*}
			line=${line#*:}
			case $line in '@test "'*'" {') ;; *) continue ;; esac
			name=${line#'@test "'}
			name=${name%'" {'}
			n=$((n + 1))
			[ "${#name}" -le 100 ] || long="$long
  ${f#"$ROOT"/}:$i: ${#name} characters: $name"
		done < <(grep -n '^@test "' "$f")
	done
	[ "$n" -gt 100 ] || fail "found only $n test names: the scan is broken"
	[ -z "$long" ] || fail "test names over 100 characters (the detail belongs in a comment in the test):$long"
}
