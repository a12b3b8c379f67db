#!/usr/bin/env bash
# Installs what anim needs to build and test on Debian, if it is missing:
# the C libraries (giflib, libpng 1.6, libwebp with demux and mux,
# libdeflate, zopfli, Little CMS) and pkg-config; for the tests tmux (the
# preview tests read its pane), fzf (a real previewer call), Pillow,
# ffmpeg and libwebp's tools (other decoders read what anim writes), and
# man-db, bash-completion, zsh and fish (InstallTests render the installed
# manual page and load the installed completions as the shells do).
# Run as root (or with sudo). Does nothing when all is present.
set -euo pipefail
packages=(libgif-dev libpng-dev libwebp-dev libdeflate-dev libzopfli-dev liblcms2-dev pkg-config zlib1g-dev git python3 tmux fzf
    python3-pil ffmpeg webp man-db bash-completion zsh fish)
if [ "${1:-}" = "--bench" ]; then
    # Peers and tools for Tools/bench (not needed to build or test).
    packages+=(webp gifsicle apngasm imagemagick ffmpeg hyperfine python3-pil python3-numpy timg chafa liblcms2-utils mpv
        kitty-terminfo)  # ncplayer reads TERM=xterm-kitty in kitty mode
    # ncplayer has no Debian package: Tools/bench/graphics/build-ncplayer.sh builds it.
fi
if [ "${1:-}" = "--terminals" ]; then
    # Real terminals under a virtual display, for Tools/terminals/check.py.
    packages+=(xvfb kitty xterm xdotool imagemagick python3-pil fonts-dejavu-core tmux screen mlterm rxvt-unicode
        konsole xfce4-terminal alacritty)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi
if ! command -v swift >/dev/null; then
    echo "setup: the Swift toolchain (6.0 or later) is not on PATH" >&2
    exit 1
fi
