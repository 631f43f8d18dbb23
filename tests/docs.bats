#!/usr/bin/env bats
# The documents point at what is there: the README's Layout names every
# program and script, the workshop guide's sources are in docs/evidence.md,
# and every docs/ file or relative link they name exists.  And every test
# name fits 100 characters, the detail in comments.

load test_helper/common-setup

setup() { _common_setup; }

# layout: the README's Layout block
layout() { sed -n '/^## Layout/,/^## /p' "$ROOT/README.md"; }

# unnamed TEXT NAME...: the NAMEs that TEXT does not hold as a word (as
# grep -w: no letter, digit or _ either side), one a line; one awk for all
unnamed() {
	local text=$1
	shift
	printf '%s\n' "$@" | UNNAMED_TEXT=$text awk '
		{
			rest = ENVIRON["UNNAMED_TEXT"]; found = 0
			while ((i = index(rest, $0)) > 0) {
				before = i > 1 ? substr(rest, i - 1, 1) : ""
				after = substr(rest, i + length($0), 1)
				if (before !~ /[A-Za-z0-9_]/ && after !~ /[A-Za-z0-9_]/) { found = 1; break }
				rest = substr(rest, i + 1)
			}
			if (!found) print
		}'
}

@test "README Layout names every program the Makefile builds and every script" {
	local l s names=()
	l=$(layout)
	[ -n "$l" ] || fail "README.md has no Layout section"
	# the programs as make builds them (make print-progs), not as the Makefile is written
	for s in $(make -s --no-print-directory -C "$ROOT" print-progs); do
		names+=("${s#micro/bin/}")
	done
	[ "${#names[@]}" -ge 10 ] || fail "make print-progs named only: ${names[*]}"
	for s in "$ROOT"/scripts/* "$ROOT"/scripts/*/*; do
		[ -f "$s" ] && names+=("${s##*/}")
	done
	run -0 unnamed "$l" "${names[@]}"
	[ -z "$output" ] || fail "README.md Layout does not name: $(echo $output)"
	# the check itself can fail: a name that is not there, or only inside
	# a longer word, is missing
	run -0 unnamed "$l" no-such-program nalyz
	assert_output "no-such-program
nalyz"
}

@test "every source the workshop guide lists is in docs/evidence.md, which the guide cites" {
	local u missing= n=0 ev= ws= src readme= urls=()
	# docs/workshop.md and README.md read once by the shell (were greps)
	IFS= read -r -d '' ws <"$ROOT/docs/workshop.md" || true
	IFS= read -r -d '' readme <"$ROOT/README.md" || true
	[[ $ws == *'(evidence.md)'* ]] || fail "docs/workshop.md does not cite (evidence.md)"
	# docs/evidence.md read once by the shell: a URL (no newline) is in a
	# line of it (grep -qF) where it is in the text
	IFS= read -r -d '' ev <"$ROOT/docs/evidence.md" || true
	# the guide's URLs from its Sources on (were sed -n '/^## Sources/,$p' |
	# grep -o 'https\{0,1\}://[^ )>]*' | sed 's/[.,;]$//': the same list)
	kit_untraced source_urls
	for u in "${urls[@]}"; do
		n=$((n + 1))
		[[ $ev == *"$u"* ]] || missing="$missing $u"
	done
	[ "$n" -ge 10 ] || fail "only $n source URLs found in the guide's Sources"
	[ -z "$missing" ] || fail "not in docs/evidence.md:$missing"
	[[ $ws != *'design notes'* ]] || fail "'design notes' named in docs/workshop.md"
	[[ $readme != *'design notes'* ]] || fail "'design notes' named in README.md"
}

# source_urls: urls, the URLs of ws (the guide's text) from its line
# "## Sources" on, each leftmost and longest (grep -o's), one [.,;] at its
# end dropped
source_urls() {
	local re u
	src=""
	case $ws in
	"## Sources"*) src=$ws ;;
	*$'\n''## Sources'*) src="## Sources${ws#*$'\n''## Sources'}" ;;
	esac
	re=$'(https?://[^ )>\n]*)'
	urls=()
	while [[ $src =~ $re ]]; do
		u=${BASH_REMATCH[1]}
		src=${src#*"$u"}
		urls+=("${u%[.,;]}")
	done
}

@test "every docs/ file, relative link and repository path that README.md and docs/ name exists" {
	local f p dir missing= seen
	for f in README.md docs/workshop.md docs/method.md; do
		# the folder of $ROOT/$f (dirname, by the shell)
		dir=$ROOT/$f dir=${dir%/*}
		# (each name once, as sort -u gave them, by the shell: seen; the
		# order only that of a failure's list)
		seen=" "
		for p in $(grep -o 'docs/[A-Za-z0-9_.-]*\.\(md\|json\)' "$ROOT/$f"); do
			[[ $seen != *" $p "* ]] || continue
			seen="$seen$p "
			[ -f "$ROOT/$p" ] || missing="$missing $f:$p"
		done
		# (the link's path, was sed 's/^](//; s/)$//': by the shell)
		seen=" "
		for p in $(grep -o '](\([A-Za-z0-9_./-]*\))' "$ROOT/$f"); do
			p=${p#']('} p=${p%')'}
			[[ $seen != *" $p "* ]] || continue
			seen="$seen$p "
			[ -e "$dir/$p" ] || missing="$missing $f:$p"
		done
	done
	[ -z "$missing" ] || fail "named but not there:$missing"
	# (was: "every repository path that README.md and docs/*.md name is in the repository")
	local paths
	paths=$(cd "$ROOT" && doc_paths README.md docs/*.md)
	# (its lines, was printf | wc -l: counted by the shell)
	local nl=${paths//[!$'\n']/}
	[ "$(( ${#nl} + 1 ))" -ge 50 ] || fail "found only these paths: the scan is broken: $paths"
	# shellcheck disable=SC2086
	missing=$(set -f; missing_paths $paths)
	[ -z "$missing" ] || fail "named in README.md or docs/ but not in the repository: $(echo $missing)"
	# the check itself can fail: a path that is not there is found and missing
	# and a URL's path is another project's, not one to look for here
	printf 'see `micro/prog/no-such.c`, scripts/no-such, micro/bin/no-such.\nhttps://example.org/docs/no-such.md\n' >"$BATS_TEST_TMPDIR/x.md"
	paths=$(doc_paths "$BATS_TEST_TMPDIR/x.md")
	# shellcheck disable=SC2086
	missing=$(missing_paths $paths)
	# (its lines, was | wc -l: counted by the shell; missing_paths prints
	# one a line, none empty)
	nl=${missing//[!$'\n']/}
	[ -n "$missing" ] || fail "the self-check found: $paths"
	[ "$(( ${#nl} + 1 ))" -eq 3 ] || fail "the self-check found: $paths"
	[ -z "$(missing_paths micro/bin/analyze 'cases/*.case' docs/method.md)" ]
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

@test "the kit cites its own docs/macos.md, not a file outside it, and each section it names there exists" {
	local refs n missing=
	# the shared notes the kit was built from are not in the repository
	run grep -rln --exclude-dir=.git --exclude-dir=.cache --exclude-dir=results --exclude=docs.bats 'macos-facts' "$ROOT"
	[ -z "$output" ] || fail "cites macos-facts, which is not in the repository: $output"
	refs=$(grep -rhoE --exclude-dir=.git --exclude-dir=.cache 'docs/macos\.md §[0-9]+' "$ROOT" | sed 's/.*§//' | sort -un)
	[ -n "$refs" ] || fail "no reference to docs/macos.md found"
	# (docs/macos.md read once by the shell: a section is a line that
	# starts "## N. ", was a grep -q a number)
	local text=""
	IFS= read -r -d '' text <"$ROOT/docs/macos.md" || :
	[ -n "$text" ] || fail "docs/macos.md is empty or not there"
	text=$'\n'$text
	for n in $refs; do
		[[ $text == *$'\n'"## $n. "* ]] || missing="$missing §$n"
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
	local loc f files=() long= n line name
	# characters, not bytes: names hold …, → and ×; as written in the file
	loc=$(utf8_locale) || skip "no UTF-8 locale to count characters in"
	for f in "$ROOT"/tests/*.bats "$ROOT"/tests/live/*.bats "$ROOT"/tests/cross/*.bats "$ROOT"/tests/maint/*.bats "$ROOT"/checks/pattern/*.bats "$ROOT"/checks/exercise/*.bats; do
		[ -f "$f" ] && files+=("$f")
	done
	# one awk reads them all: the count of names, then each name longer
	# than 100 as FILE<tab>LINE<tab>NAME, whose characters this shell then
	# counts (an awk that counts bytes, mawk, gives more names, never
	# fewer; in the C locale the Mac's awk refuses the files' UTF-8)
	run -0 env LC_ALL="$loc" awk '
		/^@test "/ && substr($0, length($0) - 2) == "\" {" {
			n++
			name = substr($0, 8, length($0) - 10)
			if (length(name) > 100) print FILENAME "\t" FNR "\t" name
		}
		END { print n + 0 }' "${files[@]}"
	n=${lines[${#lines[@]} - 1]}
	[ "$n" -gt 100 ] || fail "found only $n test names: the scan is broken"
	LC_ALL=$loc
	for line in "${lines[@]:0:${#lines[@]}-1}"; do
		f=${line%%	*} line=${line#*	}
		name=${line#*	}
		[ "${#name}" -le 100 ] || long="$long
  ${f#"$ROOT"/}:${line%%	*}: ${#name} characters: $name"
	done
	[ -z "$long" ] || fail "test names over 100 characters (the detail belongs in a comment in the test):$long"
}
