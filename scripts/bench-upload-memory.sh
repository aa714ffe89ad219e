#!/usr/bin/env bash
# Runs TestUploadMemoryBound (gateway/e2e) and prints its BENCHMARKS.md
# section: the peak resident memory of `tms serve` while it reads a
# 512 MiB PO file and a 512 MiB JSON file uploaded with method=suggest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmd="cd gateway && go test -count=1 -run '^TestUploadMemoryBound\$' -v ./e2e"
out=$(cd "$root/gateway" && CGO_ENABLED=0 go test -count=1 -run '^TestUploadMemoryBound$' -v ./e2e)
echo "## Upload memory"
echo
echo "\`tms serve\` (SQLite) with TMS_UPLOAD_MAX_SUGGESTIONS=1000; a plain user uploads a generated 512 MiB file with method=suggest: strings the translation lacks, then a new text for each of its 2000 strings, so the server reads the whole file and refuses it past the limit (400, nothing applied). Peak is the process's VmHWM during the upload (reset before it), idle its VmRSS before. Goal: under 300 MB above idle."
echo
echo "| File | Idle | Peak | Above idle | Met? |"
echo "|---|---|---|---|---|"
echo "$out" | awk '/idle [0-9]+ MiB, peak [0-9]+ MiB/ {
	for (i = 1; i <= NF; i++) { if ($i == "idle") idle = $(i+1); if ($i == "peak") peak = $(i+1); if ($i ~ /^de\.(po|json):$/) f = $i }
	sub(":", "", f); above = peak - idle; met = (above * 1.048576 < 300) ? "yes" : "**no**"
	printf "| %s (512 MiB) | %d MiB | %d MiB | %d MiB | %s |\n", f, idle, peak, above, met }'
echo
echo '```sh'
echo "$cmd"
echo '```'
echo
