# goodgood/cmark.sh - C: cmark (CommonMark to HTML), its CLI built with
# CMake (pkgs/cmark.sh), converting the package's own README.md and changelog.
PKG=cmark
LANG_=C
build() { cmark_build "$@" && cp README.md changelog.txt "$2/"; }
run() { cat "$1/README.md" "$1/changelog.txt" | "$1/cmark" --to html; }
