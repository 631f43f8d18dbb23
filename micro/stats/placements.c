/* placements.c - the placements table (placements.h), in the order the
 * remedies table shows them: the new file first, then what keeps the
 * inode's verdict, then what makes a new inode, then what changes a
 * launched file.  Sources as docs/remedies.md gives them ("What the tools
 * do"); "no source measured it" where it says [NF]. */
#include "placements.h"

#include <string.h>

const struct placement placements[] = {
	{ "exe", "a new file (the baseline)", 1, 0,
	  "go test: a new pkg.test each uncached run (golang/go#77349); Homebrew: a new keg "
	  "per version (Homebrew keg.rb); cargo test: each relinked test binary "
	  "(cargo compilation_files.rs)" },
	{ "exe-hardlink", "a hard link to a launched file, made long before", 0, 0,
	  "uv --link-mode hardlink (astral-sh/uv#18577); buildbuddy's "
	  "executor.use_hardlinks_macos (buildbuddy PR #13098); cargo off macOS "
	  "(cargo-util paths.rs)" },
	{ "exe-freshlink", "a hard link made just before its launch", 0, 0,
	  "cargo on macOS before 2021 (rust-lang/cargo#10060, PR #10196); go testscript "
	  "before 2023 (rogpeppe/go-internal#200); mr-boxington's shim (jdx/mr-boxington "
	  "PR #134: killed 5 of 3,840)" },
	{ "exe-copy", "a copy of a launched file", 0, 0,
	  "uv --link-mode copy (uv link.rs); cargo build's uplift on macOS where it cannot "
	  "clone (fs::copy, rust-lang/cargo PR #10196); go testscript's full copy "
	  "(go-internal PR #220, closed)" },
	{ "exe-clone", "a clone (clonefile, FICLONE)", 0, 0,
	  "cargo build on macOS, no-op builds too (rust-lang/cargo#17467); uv's default "
	  "link mode (astral-sh/uv#18577); Bazel: buildbuddy's executor and bazel-lib's "
	  "copies (buildbuddy PR #13098, bazel-lib PR #893); go testscript since 2023 "
	  "(go-internal PR #222)" },
	{ "exe-rewrite", "a new file renamed over a launched one", 0, 0,
	  "Homebrew's re-signing fallback (Homebrew keg.rb); wild's proposed "
	  "UnlinkAndReplace (wild-linker/wild#2375); EasyCLIProxyAPI's updater "
	  "(EasyCLIProxyAPI PR #233)" },
	{ "exe-overwrite", "new bytes written over a launched file", 0, 1,
	  "wild's UpdateInPlaceWithFallback (wild-linker/wild#2375); updates copied in "
	  "place (voidzero-dev/vite-plus#2263, EasyCLIProxyAPI PR #233)" },
	{ "exe-samebytes", "the same bytes written over a launched file", 0, 0,
	  "a build that rewrites an unchanged output: no source measured it (not a no-op "
	  "cargo build on macOS, which clones: rust-lang/cargo#17467)" },
	{ "exe-touch", "a launched file touched (its mtime only)", 0, 0,
	  "a rebuild that only touches its output: no source measured it" },
	{ "exe-assessed", "a new file assessed before its launch", 0, 0,
	  "updaters' gktool scan (Sparkle, Chromium); spctl -a -t exec first "
	  "(getopenscreen/openscreen PR #600: 2,137 against 2,127 ms)" },
};
const size_t n_placements = sizeof placements / sizeof placements[0];

const struct placement *placement_find(const char *name)
{
	size_t i;

	for (i = 0; i < n_placements; i++)
		if (strcmp(placements[i].name, name) == 0)
			return &placements[i];
	return NULL;
}
