#!/usr/bin/env bash
# Generates the decode-speed benchmark set in Tools/bench/set/ (git-ignored).
#
# Six shapes x four encodings = 24 files:
#   sticker  240x240,   48 frames, soft alpha (rotating glowing star, transparent bg)
#   screen   800x600,  120 frames, mostly static synthetic desktop recording
#   video    640x360,  150 frames, full motion (testsrc2 x moving gradients + noise)
#   big     1920x1080,  60 frames, full motion (ffmpeg mandelbrot zoom)
#   blend   1920x1080,  40 frames, large sub-rectangles blended over the canvas
#   blend-sd  640x360, 100 frames, the same at SD size (gen_frames.py blend)
# each as
#   NAME.gif            ffmpeg palettegen/paletteuse (ffmpeg's gif encoder crops
#                       frames to the changed rectangle and uses transparency)
#   NAME.png            APNG: apngasm 2.91 -z0 (zlib); for "big" and "blend" ffmpeg -f apng,
#                       because apngasm needs ~6 minutes for it even with -z0
#   NAME.lossless.webp  img2webp -lossless (default effort)
#   NAME.lossy.webp     img2webp -lossy -q 75
# All at 25 fps (40 ms delays), looping forever.  Deterministic: frames come from
# fixed-seed generators (gen_frames.py, ffmpeg lavfi sources with fixed seeds).
#
# Work is skipped for outputs that already exist (delete a file, or the whole
# set/ directory, to regenerate it).  Rendered PNG frames are kept in
# set/frames/ so that re-encoding is cheap.  Encodes run JOBS at a time
# (default: nproc).  Takes ~3-4 minutes on 2 cores, dominated by the
# lossless WebP and the APNGs of "video" and "big".
#
# Usage: Tools/bench/make-set.sh        (env: JOBS=N, SET=dir)
set -euo pipefail
export LC_ALL=C

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SET="${SET:-$HERE/set}"
FRAMES="$SET/frames"
LOGS="$SET/logs"
JOBS="${JOBS:-$(nproc)}"
FPS=25
MS=40

for tool in python3 ffmpeg apngasm img2webp; do
  command -v "$tool" >/dev/null || { echo "make-set: missing tool: $tool" >&2; exit 1; }
done
python3 -c 'import numpy, PIL' 2>/dev/null || { echo "make-set: python3 needs numpy and Pillow" >&2; exit 1; }

mkdir -p "$SET" "$FRAMES" "$LOGS"
start_all=$SECONDS

# ---------------------------------------------------------------- job runner
failed=()
declare -A jobname=()
run_bg() {  # run_bg NAME CMD... : run in the background, at most JOBS at once
  local name=$1; shift
  while (( $(jobs -rp | wc -l) >= JOBS )); do reap_one; done
  ( "$@" >"$LOGS/$name.log" 2>&1 ) &
  jobname[$!]=$name
}
reap_one() {
  local pid rc=0
  wait -n -p pid || rc=$?
  [[ -n "${pid:-}" ]] || return 0
  if (( rc != 0 )); then
    failed+=("${jobname[$pid]}")
    echo "make-set: FAILED ${jobname[$pid]} (log: $LOGS/${jobname[$pid]}.log)" >&2
  fi
  unset "jobname[$pid]"
}
reap_all() { while (( ${#jobname[@]} > 0 )); do reap_one; done; }

# ---------------------------------------------------------------- frames
expect_frames() {  # shape -> frame count
  case $1 in sticker) echo 48;; screen) echo 120;; video) echo 150;; big) echo 60;; blend) echo 40;; blend-sd) echo 100;; esac
}

render() {  # render SHAPE : writes $FRAMES/SHAPE/f001.png..., then a .complete marker
  local shape=$1 dir="$FRAMES/$1" n
  n=$(expect_frames "$shape")
  rm -rf "$dir"; mkdir -p "$dir"
  case $shape in
    sticker|screen|blend|blend-sd)
      python3 "$HERE/gen_frames.py" "$shape" "$dir" ;;
    video)
      ffmpeg -nostdin -v error -filter_complex \
        "gradients=s=640x360:r=$FPS:c0=0x203060:c1=0xd08030:c2=0x30a070:c3=0x902040:n=4:speed=0.03:seed=7[g];
         testsrc2=s=640x360:r=${FPS}[t];
         [t][g]blend=all_mode=overlay,noise=alls=12:allf=t+u:all_seed=4242,format=rgb24" \
        -frames:v "$n" -start_number 1 "$dir/f%03d.png" ;;
    big)
      ffmpeg -nostdin -v error -f lavfi -i "mandelbrot=s=1920x1080:r=$FPS" \
        -vf format=rgb24 -frames:v "$n" -start_number 1 "$dir/f%03d.png" ;;
  esac
  local got
  got=$(find "$dir" -name 'f*.png' | wc -l)
  [[ $got -eq $n ]] || { echo "render $shape: expected $n frames, got $got" >&2; return 1; }
  touch "$dir/.complete"
}

SHAPES=(big blend video blend-sd screen sticker)   # slowest first
t0=$SECONDS
for s in "${SHAPES[@]}"; do
  [[ -f "$FRAMES/$s/.complete" ]] && continue
  echo "make-set: rendering $s frames"
  run_bg "frames-$s" render "$s"
done
reap_all
if (( ${#failed[@]} )); then echo "make-set: frame rendering failed: ${failed[*]}" >&2; exit 1; fi
echo "make-set: frames ready ($((SECONDS - t0)) s)"

# ---------------------------------------------------------------- encoders
# Each writes to a temporary name and renames on success, so an interrupted
# run never leaves a truncated file that a later run would reuse.
enc_gif() {  # shape out
  local shape=$1 out=$2 pal use
  case $shape in
    sticker) pal="palettegen=reserve_transparent=1"; use="paletteuse=alpha_threshold=128" ;;
    screen)  pal="palettegen";                       use="paletteuse=dither=bayer:bayer_scale=3:diff_mode=rectangle" ;;
    blend*)  pal="palettegen";                       use="paletteuse=dither=none:diff_mode=rectangle" ;;
    *)       pal="palettegen";                       use="paletteuse" ;;
  esac
  ffmpeg -nostdin -v error -framerate $FPS -start_number 1 -i "$FRAMES/$shape/f%03d.png" \
    -filter_complex "[0:v]split[a][b];[a]${pal}[p];[b][p]${use}" \
    -loop 0 -f gif -y "$out.tmp"
  mv "$out.tmp" "$out"
}
enc_apng() {
  local shape=$1 out=$2
  if [[ $shape == big || $shape == blend ]]; then
    ffmpeg -nostdin -v error -framerate $FPS -start_number 1 -i "$FRAMES/$shape/f%03d.png" \
      -plays 0 -f apng -y "$out.tmp"
  else
    # delay 1/25 s; -z0 = zlib (the 7zip default -z1 is ~4x slower for ~7% smaller files)
    apngasm "$out.tmp" "$FRAMES/$shape"/f*.png 1 $FPS -z0
  fi
  mv "$out.tmp" "$out"
}
enc_webp_ll() {
  local shape=$1 out=$2
  img2webp -loop 0 -lossless -d $MS "$FRAMES/$shape"/f*.png -o "$out.tmp"
  mv "$out.tmp" "$out"
}
enc_webp_lossy() {
  local shape=$1 out=$2
  img2webp -loop 0 -lossy -q 75 -d $MS "$FRAMES/$shape"/f*.png -o "$out.tmp"
  mv "$out.tmp" "$out"
}

# Ordered roughly longest first so that the two cores stay busy.
ENCODES=(
  "big lossless.webp enc_webp_ll"
  "blend lossless.webp enc_webp_ll"
  "blend png enc_apng"
  "blend-sd png enc_apng"
  "video png enc_apng"
  "big png enc_apng"
  "video lossless.webp enc_webp_ll"
  "big gif enc_gif"
  "big lossy.webp enc_webp_lossy"
  "screen png enc_apng"
  "screen lossless.webp enc_webp_ll"
  "video gif enc_gif"
  "video lossy.webp enc_webp_lossy"
  "sticker png enc_apng"
  "screen gif enc_gif"
  "screen lossy.webp enc_webp_lossy"
  "sticker lossless.webp enc_webp_ll"
  "sticker gif enc_gif"
  "sticker lossy.webp enc_webp_lossy"
  "blend gif enc_gif"
  "blend lossy.webp enc_webp_lossy"
  "blend-sd lossless.webp enc_webp_ll"
  "blend-sd gif enc_gif"
  "blend-sd lossy.webp enc_webp_lossy"
)
t0=$SECONDS
for e in "${ENCODES[@]}"; do
  read -r shape ext fn <<<"$e"
  out="$SET/$shape.$ext"
  [[ -s "$out" ]] && continue
  echo "make-set: encoding $shape.$ext"
  run_bg "$shape.$ext" "$fn" "$shape" "$out"
done
reap_all
echo "make-set: encodes done ($((SECONDS - t0)) s)"

# ---------------------------------------------------------------- summary
echo
printf '%-24s %12s %8s\n' file bytes MB
total=0
for s in sticker screen video big blend blend-sd; do
  for ext in gif png lossless.webp lossy.webp; do
    f="$SET/$s.$ext"
    if [[ -s "$f" ]]; then
      b=$(stat -c %s "$f"); total=$((total + b))
      printf '%-24s %12d %8.2f\n' "$s.$ext" "$b" "$(awk -v b="$b" 'BEGIN{print b/1048576}')"
    else
      printf '%-24s %12s\n' "$s.$ext" missing
    fi
  done
done
printf '%-24s %12d %8.2f\n' total "$total" "$(awk -v b="$total" 'BEGIN{print b/1048576}')"
echo "make-set: done in $((SECONDS - start_all)) s"
if (( ${#failed[@]} )); then echo "make-set: failed: ${failed[*]}" >&2; exit 1; fi
