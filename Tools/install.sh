#!/usr/bin/env bash
# Builds anim and installs it with its manual page and shell completions.
#
#   Tools/install.sh [PREFIX]              build, then install under PREFIX (default /usr/local)
#   Tools/install.sh --uninstall [PREFIX]  remove the files an install puts under PREFIX
#   ANIM_BINARY=FILE Tools/install.sh ...  install FILE instead of building (the tests do)
#
# Installed: PREFIX/bin/anim, PREFIX/share/man/man1/anim.1, and completions
# for bash (PREFIX/share/bash-completion/completions/anim), zsh
# (PREFIX/share/zsh/site-functions/_anim) and fish
# (PREFIX/share/fish/vendor_completions.d/anim.fish). The manual page and the
# completions are printed by the binary itself (anim help --man, anim
# completions SHELL), so they describe exactly the options it has.
#
# The binary is built in release with the Swift runtime linked statically:
# it runs without the toolchain, needing only the C libraries Tools/setup.sh
# installs. It is built in .build/install, not .build/release: switching a
# build directory between a static and a dynamic runtime recompiles
# everything, so each keeps its own and stays incremental.
set -eu

usage() { echo "usage: Tools/install.sh [--uninstall] [PREFIX]   (PREFIX defaults to /usr/local)" >&2; }
say() { echo "install: $*" >&2; }
fail() { say "$*"; exit 1; }

uninstall=no
prefix=""
for arg in "$@"; do
    case "$arg" in
        --uninstall) uninstall=yes ;;
        -h | --help) usage 2>&1; exit 0 ;;
        -*) say "unknown option $arg"; usage; exit 2 ;;
        *)
            [ -z "$prefix" ] || { say "one PREFIX only, not '$prefix' and '$arg'"; usage; exit 2; }
            prefix="$arg"
            ;;
    esac
done
prefix="${prefix:-/usr/local}"
prefix="${prefix%/}"
[ -n "$prefix" ] || fail "PREFIX cannot be /"

# Where each file goes, relative to PREFIX: the uninstall removes this list.
bin=bin/anim
man=share/man/man1/anim.1
bash_completion=share/bash-completion/completions/anim
zsh_completion=share/zsh/site-functions/_anim
fish_completion=share/fish/vendor_completions.d/anim.fish
files=("$bin" "$man" "$bash_completion" "$zsh_completion" "$fish_completion")

# Fails early, before a build, when PREFIX cannot be written.
writable_dir=$prefix
while [ ! -e "$writable_dir" ]; do writable_dir=$(dirname "$writable_dir"); done
[ -w "$writable_dir" ] || fail "cannot write to $writable_dir (run as root, or choose a PREFIX you own, e.g. ~/.local)"

if [ "$uninstall" = yes ]; then
    removed=0
    for f in "${files[@]}"; do
        if [ -e "$prefix/$f" ] || [ -L "$prefix/$f" ]; then
            rm -f "$prefix/$f"
            say "removed $prefix/$f"
            removed=$((removed + 1))
        fi
    done
    say "$removed of ${#files[@]} files removed from $prefix"
    exit 0
fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ -n "${ANIM_BINARY:-}" ]; then
    built="$ANIM_BINARY"
    [ -x "$built" ] || fail "ANIM_BINARY=$built is not an executable file"
else
    command -v swift >/dev/null ||
        fail "swift is not on PATH: install the Swift toolchain (6.0 or later, https://www.swift.org/install/), or set ANIM_BINARY to an anim already built"
    say "building anim in release with the Swift runtime linked statically (.build/install)"
    swift build --package-path "$ROOT" --scratch-path "$ROOT/.build/install" -c release --static-swift-stdlib \
        --product anim >&2
    built="$ROOT/.build/install/release/anim"
fi

# The Swift runtime must be inside the binary: a libswift*.so it loads
# would tie it to the toolchain's folder. A binary given by ANIM_BINARY (a
# debug build, in the tests) may load it; that is said, not refused.
swift_libraries=$(ldd "$built" 2>/dev/null | grep -o 'libswift[^ ]*' | LC_ALL=C sort -u | tr '\n' ' ' || true)
if [ -n "$swift_libraries" ]; then
    [ -n "${ANIM_BINARY:-}" ] || fail "the built $built loads the Swift runtime ($swift_libraries): not a static build"
    say "note: $built loads ${swift_libraries% }: it runs only where the Swift toolchain is"
fi

# The manual page and completions are made before anything is installed,
# so a binary that cannot make them leaves PREFIX as it was.
work=$(mktemp -d "${TMPDIR:-/tmp}/anim-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$built" help --man >"$work/anim.1" || fail "$built help --man failed"
for shell in bash zsh fish; do
    "$built" completions "$shell" >"$work/$shell" || fail "$built completions $shell failed"
done

# Stripped (as distributions install binaries): about half the size; a
# crash's backtrace then names no Swift functions.
strip_flag=()
command -v strip >/dev/null && strip_flag=(-s)
install -d -m 0755 "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions" \
    "$prefix/share/zsh/site-functions" "$prefix/share/fish/vendor_completions.d"
install -m 0755 "${strip_flag[@]}" "$built" "$prefix/$bin"
install -m 0644 "$work/anim.1" "$prefix/$man"
install -m 0644 "$work/bash" "$prefix/$bash_completion"
install -m 0644 "$work/zsh" "$prefix/$zsh_completion"
install -m 0644 "$work/fish" "$prefix/$fish_completion"
for f in "${files[@]}"; do say "installed $prefix/$f"; done

# The installed binary runs with nothing of the caller's environment.
version=$(env -i PATH=/usr/bin:/bin "$prefix/$bin" --version | head -n 1) || fail "$prefix/$bin --version failed"
say "$version installed in $prefix (uninstall: Tools/install.sh --uninstall $prefix)"
