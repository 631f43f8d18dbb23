#!/usr/bin/env bats
# Exercise 7 (docs/workshop.md): the Feedback report — `make feedback` made
# a bundle for this run, and nothing in it names this machine or its user.
load ../pattern/lib

setup() { pattern_setup; }

feedback_available() {
	[ -f "$ROOT/scripts/feedback" ] && grep -q '^feedback:' "$ROOT/Makefile"
}

# The strings a bundle must not contain: the home folder, the user name (as
# a word; "root" is left to the home folder, being a common word) and the
# host name (when longer than 2 characters).
private_strings() {
	local user host
	[ "${#HOME}" -gt 1 ] && printf '%s\n' "$HOME"
	user=$(id -un 2>/dev/null)
	[ -n "$user" ] && [ "$user" != root ] && printf '%s\n' "$user"
	host=$(uname -n 2>/dev/null)
	host=${host%%.*}
	[ "${#host}" -gt 2 ] && [ "$host" != localhost ] && printf '%s\n' "$host"
	return 0
}

@test "E7 feedback bundle: made for this run and redacted" {
	case $CONTEXT in
	sim*) skip "not applicable: a simulated run launched nothing and is never sent to Apple: make feedback refuses it" ;;
	esac
	feedback_available || skip "not applicable: make feedback is not yet available in this kit"
	local dir bundle s leaks=""
	dir=$(dirname "$J")
	bundle=$(ls -t "$dir"/feedback/*.tar.gz 2>/dev/null | head -n 1)
	say "E7 feedback bundle — run $(basename "$dir"); expected: feedback/*.tar.gz and feedback.txt, naming neither user nor host"
	if [ -z "$bundle" ] || [ ! -f "$dir/feedback/feedback.txt" ]; then
		say "  no feedback bundle and feedback.txt in $dir/feedback: run make feedback"
		return 1
	fi
	mkdir "$BATS_TEST_TMPDIR/unpacked"
	tar -xzf "$bundle" -C "$BATS_TEST_TMPDIR/unpacked" || { say "  $bundle: not a readable .tar.gz"; return 1; }
	cp "$dir/feedback/feedback.txt" "$BATS_TEST_TMPDIR/unpacked/"
	while IFS= read -r s; do
		[ -n "$s" ] || continue
		if grep -rqwF -- "$s" "$BATS_TEST_TMPDIR/unpacked"; then leaks="$leaks '$s'"; fi
	done < <(private_strings)
	# files, as make feedback lists them: not the folders' own entries
	say "  $(basename "$bundle"): $(tar -tzf "$bundle" | grep -vc '/$') files${leaks:+, names$leaks}"
	[ -z "$leaks" ]
}
