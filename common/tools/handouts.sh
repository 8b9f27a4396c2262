#!/bin/sh
# handouts.sh - what `make handouts` runs: check each handout against the template
# (common/tools/handout-check.sh), then render it with pandoc to one self-contained HTML page,
# OUTDIR/NN-name.html: the stylesheet (handouts/handout.css) and any image the handout shows are
# embedded, math is MathML (no script, no network), and code quoted with
# ```{include=...} blocks is read from the real files (common/tools/handout-quote.lua).
# usage: common/tools/handouts.sh OUTDIR HANDOUT.md...   (PANDOC=/path/to/pandoc to choose one)
# Exit 0 when every page is written, 1 when a handout fails the check or its render, 2 when pandoc
# is missing or for a usage error.
set -u
here=$(dirname "$0")
pandoc=${PANDOC:-pandoc}
# One page: `handouts.sh --one OUTDIR EMBED HANDOUT.md` (the pages are rendered side by side, below).
if [ "${1:-}" = --one ]; then
    out=$2 embed=$3 md=$4
    page=$out/$(basename "$md" .md).html
    # Images are looked up next to the handout first, then from the repository root.
    if "$pandoc" "$md" --from markdown --to html5 --standalone "$embed" --mathml --toc --toc-depth=2 --fail-if-warnings \
        --css "$here/../../handouts/handout.css" --lua-filter "$here/handout-quote.lua" \
        --resource-path "$(dirname "$md"):." --metadata lang=en -o "$page.tmp"; then
        mv "$page.tmp" "$page" && echo "  $page"
    else
        rm -f "$page.tmp"
        echo "make handouts: $md did not render (see above)" >&2
        exit 1
    fi
    exit 0
fi
[ $# -ge 2 ] || { echo "usage: $0 OUTDIR HANDOUT.md..." >&2; exit 2; }
out=$1
shift
sh "$here/handout-check.sh" "$@" || { echo "make handouts: the handouts above do not follow the template" >&2; exit 1; }
if ! command -v "$pandoc" >/dev/null 2>&1; then
    echo "make handouts needs pandoc, which is not installed (Debian package: pandoc)." >&2
    echo "install it with:  sudo apt-get install -y pandoc" >&2
    exit 2
fi
# pandoc 3 calls --self-contained --embed-resources; 2.x (Debian 12 has 2.17) knows only the old name.
if "$pandoc" --help 2>/dev/null | grep -q -e '--embed-resources'; then embed=--embed-resources
else embed=--self-contained; fi
mkdir -p "$out" || exit 2
# a page per core at a time (each pandoc is one thread); xargs exits non-zero if any page failed
printf '%s\n' "$@" | tr '\n' '\0' | xargs -0 -P "$(nproc 2>/dev/null || echo 1)" -n 1 sh "$0" --one "$out" "$embed" || exit 1
