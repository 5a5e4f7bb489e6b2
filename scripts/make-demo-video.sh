#!/usr/bin/env bash
# Rebuilds the demo funnel's self-hosted video and poster (committed under apps/server/assets/demo).
# Needs ffmpeg (Debian: apt-get install ffmpeg). 12 s, 640x360, H.264 baseline + AAC, faststart.
set -euo pipefail
out="$(dirname "$0")/../apps/server/assets/demo"
mkdir -p "$out"
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i "testsrc2=size=640x360:rate=24:duration=12" \
  -f lavfi -i "sine=frequency=440:sample_rate=44100:duration=12" \
  -vf "drawtext=text='Embudo demo %{eif\:t\:d}s':fontcolor=white:fontsize=36:x=(w-tw)/2:y=h-60:box=1:boxcolor=black@0.5" \
  -c:v libx264 -profile:v baseline -pix_fmt yuv420p -crf 34 -preset veryslow \
  -c:a aac -b:a 32k -ac 1 -movflags +faststart "$out/vsl.mp4"
ffmpeg -hide_banner -loglevel error -y -ss 1 -i "$out/vsl.mp4" -frames:v 1 -q:v 6 "$out/poster.jpg"
ls -la "$out"
