#!/usr/bin/env bash
# Decode-speed benchmark: anim vs the C reference decoders and vs peers.
#
# For every file of the set (Tools/bench/set, see make-set.sh):
#   in process, median ms per pass over every frame (RUNS passes):
#     anim bench FILE --runs RUNS --json      vs   bin/{gif,png,webp}dec FILE RUNS
#   whole process, wall time to decode every frame (hyperfine, PROC_RUNS runs,
#   after one untimed check run that also verifies the frame count):
#     anim bench FILE --runs 1
#     Pillow       python3 -c '... for f in ImageSequence.Iterator(im): f.convert("RGBA") ...'
#     ffmpeg       ffmpeg -v error -i FILE -fps_mode passthrough -pix_fmt rgba -f null -
#     ImageMagick  /usr/bin/convert FILE -coalesce -depth 8 rgba:/dev/null  (APNG: APNG:FILE)
# A tool that exits non-zero, or decodes a different number of frames than the
# C decoder, gets "fails" (the reason is listed under the table).
#
# Output: Markdown table on stdout (progress on stderr), JSON in
# Tools/bench/out/results.json, raw measurements in Tools/bench/out/raw/.
#
# Usage: Tools/bench/run.sh [PATTERN...]     e.g.  run.sh 'sticker.*' big.gif
# Env:   ANIM=path to the anim binary   (default .build/release/anim)
#        ANIM_ARGS="--decode-ahead 0"  extra arguments for anim bench (e.g. to
#        compare single-threaded with the single-threaded C decoders)
#        RUNS=5 (in-process passes)  PROC_RUNS=3 (hyperfine runs)
#        ROUNDS=1: alternate C and anim in-process measurements ROUNDS times
#        (medianMs = median of the rounds' medians); helps on a noisy machine
#        PEERS="pillow ffmpeg magick"  TIMEOUT=900 (s per command)  OUT=dir
set -uo pipefail
export LC_ALL=C

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
SET="${SET:-$HERE/set}"
BIN="${BIN:-$HERE/bin}"
OUT="${OUT:-$HERE/out}"
RAW="$OUT/raw"
ANIM="${ANIM:-$ROOT/.build/release/anim}"
ANIM_ARGS="${ANIM_ARGS:-}"
RUNS="${RUNS:-5}"
ROUNDS="${ROUNDS:-1}"
PROC_RUNS="${PROC_RUNS:-3}"
PEERS="${PEERS:-pillow ffmpeg magick}"
TIMEOUT="${TIMEOUT:-900}"
MAGICK="${MAGICK:-/usr/bin/convert}"   # the real ImageMagick, not /usr/local/bin/convert

log() { printf '%s\n' "$*" >&2; }
die() { log "run.sh: $*"; exit 1; }

[[ -d "$SET" ]] || die "no benchmark set in $SET; run Tools/bench/make-set.sh first"
for p in gifdec pngdec webpdec; do
  [[ -x "$BIN/$p" ]] || die "missing $BIN/$p; run Tools/bench/build-c.sh first"
done
command -v hyperfine >/dev/null || die "hyperfine not found (apt-get install -y hyperfine)"
command -v python3 >/dev/null || die "python3 not found"

if [[ -x "$ANIM" ]]; then
  have_anim=1
  log "run.sh: anim = $ANIM"
else
  have_anim=0
  log "run.sh: anim binary not found at $ANIM"
  log "run.sh: (build it with 'swift build -c release' or set ANIM=...); measuring only the C decoders and peers"
fi

# ---------------------------------------------------------------- file list
shopt -s nullglob
files=()
for s in sticker screen video big; do
  for ext in gif png lossless.webp lossy.webp; do
    [[ -f "$SET/$s.$ext" ]] && files+=("$s.$ext")
  done
done
for f in "$SET"/*.gif "$SET"/*.png "$SET"/*.webp; do   # anything else in the set
  b=$(basename "$f")
  [[ " ${files[*]} " == *" $b "* ]] || files+=("$b")
done
if (( $# )); then
  sel=()
  for b in "${files[@]}"; do
    for pat in "$@"; do
      # shellcheck disable=SC2053
      if [[ $b == $pat ]]; then sel+=("$b"); break; fi
    done
  done
  files=("${sel[@]}")
fi
(( ${#files[@]} )) || die "no files to measure"

rm -rf "$RAW"
mkdir -p "$RAW"
printf '%s\n' "${files[@]}" >"$RAW/files.txt"
printf 'anim=%s\nanim_args=%s\nhave_anim=%s\nrounds=%s\nruns=%s\nproc_runs=%s\npeers=%s\nmagick=%s\n' \
  "$ANIM" "$ANIM_ARGS" "$have_anim" "$ROUNDS" "$RUNS" "$PROC_RUNS" "$PEERS" "$MAGICK" >"$RAW/settings.txt"

# single-quote for hyperfine's (POSIX shell-words) command parser
q() { local s=${1//\'/\'\\\'\'}; printf "'%s'" "$s"; }

PIL_CODE='import sys
from PIL import Image, ImageSequence
n = 0
for f in ImageSequence.Iterator(Image.open(sys.argv[1])):
    f.convert("RGBA"); n += 1
print(n)'

# time CMD with hyperfine; the JSON is removed if any run failed
hf() {  # hf BASE TOOL CMD
  local base=$1 tool=$2 cmd=$3
  if ! timeout "$TIMEOUT" hyperfine -N --runs "$PROC_RUNS" --style none \
        --export-json "$RAW/$base.$tool.hf.json" "$cmd" >/dev/null 2>"$RAW/$base.$tool.hf.err"; then
    rm -f "$RAW/$base.$tool.hf.json"
  fi
}

# one untimed run that checks the exit status and counts the decoded frames:
# writes BASE.TOOL.pre.{rc,out,err}; .out holds the frame count
precheck() {  # precheck BASE TOOL FILE W H
  local base=$1 tool=$2 file=$3 w=$4 h=$5 pre="$RAW/$1.$2.pre" t0=$EPOCHREALTIME
  case $tool in
    pillow)
      timeout "$TIMEOUT" python3 -c "$PIL_CODE" "$file" >"$pre.out" 2>"$pre.err"
      echo $? >"$pre.rc" ;;
    ffmpeg)
      # framecrc prints one line per decoded frame
      { timeout "$TIMEOUT" ffmpeg -nostdin -v error -i "$file" -fps_mode passthrough -pix_fmt rgba -f framecrc - 2>"$pre.err"
        echo $? >"$pre.rc"; } | grep -c -v '^#' >"$pre.out" ;;
    magick)
      local src=$file
      [[ $file == *.png ]] && src="APNG:$file"
      { timeout "$TIMEOUT" "$MAGICK" "$src" -coalesce -depth 8 rgba:- 2>"$pre.err"; echo $? >"$pre.rc"; } \
        | wc -c | awk -v px=$((w * h * 4)) '{ print (px > 0 ? int($1 / px) : 0) }' >"$pre.out" ;;
  esac
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", b - a }' >"$pre.time"
}

n=${#files[@]}
i=0
for b in "${files[@]}"; do
  i=$((i + 1))
  f="$SET/$b"
  case $b in
    *.gif) prog=gifdec ;;
    *.png) prog=pngdec ;;
    *.webp) prog=webpdec ;;
  esac
  t0=$SECONDS
  log "[$i/$n] $b"

  # in process: C reference and anim, alternating for ROUNDS rounds
  anim_ok=$have_anim
  for ((r = 1; r <= ROUNDS; r++)); do
    cj="$RAW/$b.c.r$r.json"
    timeout "$TIMEOUT" "$BIN/$prog" "$f" "$RUNS" >"$cj" 2>"$RAW/$b.c.r$r.err" || rm -f "$cj"
    if [[ -f "$cj" ]]; then
      log "    C $prog: $(cat "$cj")"
    else
      log "    C $prog: fails ($(head -c 200 "$RAW/$b.c.r$r.err"))"
    fi
    if (( have_anim )); then
      aj="$RAW/$b.anim.r$r"
      # shellcheck disable=SC2086
      timeout "$TIMEOUT" "$ANIM" bench "$f" --runs "$RUNS" --json $ANIM_ARGS >"$aj.json" 2>"$aj.err"
      arc=$?
      echo $arc >"$aj.rc"
      (( arc == 0 )) || anim_ok=0
      log "    anim bench: $(tr -d '\n' <"$aj.json" | head -c 300)"
    fi
  done
  read -r frames w h < <(python3 -c 'import json,sys
try: d=json.load(open(sys.argv[1])); print(d["frames"], d["width"], d["height"])
except Exception: print(0, 0, 0)' "$RAW/$b.c.r1.json")

  # anim, whole process
  if (( anim_ok )); then
    hf "$b" anim "$(q "$ANIM") bench $(q "$f") --runs 1 $ANIM_ARGS"
  fi

  # peers, whole process
  for tool in $PEERS; do
    precheck "$b" "$tool" "$f" "$w" "$h"
    rc=$(cat "$RAW/$b.$tool.pre.rc" 2>/dev/null || echo 1)
    got=$(cat "$RAW/$b.$tool.pre.out" 2>/dev/null || echo 0)
    got=${got:-0}
    if [[ $rc != 0 ]] || (( got == 0 )) || (( frames > 0 && got != frames )); then
      log "    $tool: fails (exit $rc, $got/$frames frames) $(head -c 160 "$RAW/$b.$tool.pre.err" | tr '\n' ' ')"
      continue
    fi
    case $tool in
      pillow) cmd="python3 -c $(q "$PIL_CODE") $(q "$f")" ;;
      ffmpeg) cmd="ffmpeg -nostdin -v error -i $(q "$f") -fps_mode passthrough -pix_fmt rgba -f null -" ;;
      magick) src=$f; [[ $f == *.png ]] && src="APNG:$f"
              cmd="$(q "$MAGICK") $(q "$src") -coalesce -depth 8 rgba:/dev/null" ;;
      *) log "    unknown peer $tool"; continue ;;
    esac
    hf "$b" "$tool" "$cmd"
    if [[ -f "$RAW/$b.$tool.hf.json" ]]; then
      log "    $tool: $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print("%.3f s (median of %d)" % (r["median"], len(r["times"])))' "$RAW/$b.$tool.hf.json")"
    else
      log "    $tool: fails during timing: $(head -c 160 "$RAW/$b.$tool.hf.err" | tr '\n' ' ')"
    fi
  done
  log "    ($((SECONDS - t0)) s)"
done

python3 "$HERE/report.py" --set "$SET" --raw "$RAW" --json "$OUT/results.json"
