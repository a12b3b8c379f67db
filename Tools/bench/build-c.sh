#!/usr/bin/env bash
# Builds the C reference decoders (Tools/bench/c/*.c) into Tools/bench/bin/
# (git-ignored) with gcc -O2, flags from pkg-config:
#   gifdec   giflib 5.2, record by record   (-lgif; giflib has no .pc file)
#   pngdec   APNG via libpng simplified API + zlib
#   webpdec  libwebp WebPAnimDecoder
# Usage: Tools/bench/build-c.sh           (env: CC, CFLAGS, e.g. CFLAGS="-O1 -g -fsanitize=address,undefined")
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SRC="$HERE/c"
BIN="${BIN:-$HERE/bin}"
CC="${CC:-gcc}"
CFLAGS="${CFLAGS:--O2}"
mkdir -p "$BIN"
command -v pkg-config >/dev/null || { echo "build-c: pkg-config missing (apt-get install -y pkg-config)" >&2; exit 1; }
for pc in libpng zlib libwebp libwebpdemux; do
  pkg-config --exists "$pc" || { echo "build-c: pkg-config cannot find $pc (apt-get install -y libpng-dev zlib1g-dev libwebp-dev)" >&2; exit 1; }
done
[[ -f /usr/include/gif_lib.h ]] || { echo "build-c: gif_lib.h missing (apt-get install -y libgif-dev)" >&2; exit 1; }

W="-std=c11 -Wall -Wextra -Wno-unused-parameter"
build() {  # name libs...
  local name=$1; shift
  # shellcheck disable=SC2086,SC2046
  $CC $CFLAGS $W -o "$BIN/$name" "$SRC/$name.c" "$@"
  echo "build-c: $BIN/$name"
}
# shellcheck disable=SC2046
build gifdec  -lgif
# shellcheck disable=SC2046
build pngdec  $(pkg-config --cflags --libs libpng zlib)
# shellcheck disable=SC2046
build webpdec $(pkg-config --cflags --libs libwebpdemux libwebp)
