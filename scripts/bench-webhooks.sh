#!/usr/bin/env bash
# Runs BenchmarkWebhookDelivery (services/notification/delivery) three
# times and prints its BENCHMARKS.md section: one notification replica
# following a change log that grows by 50 changes a second for 10 s, each
# posted to a receiver that takes 150 ms.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cmd="cd services/notification && go test -run '^\$' -bench '^BenchmarkWebhookDelivery\$' -benchtime 1x -count 3 ./delivery"
out=$(cd "$root/services/notification" && CGO_ENABLED=0 go test -run '^$' -bench '^BenchmarkWebhookDelivery$' -benchtime 1x -count 3 ./delivery)
echo "## Webhook delivery"
echo
echo "One notification replica (its production poll interval, 1 s) follows a change log that grows by 50 changes a second for 10 s; each change is posted to a receiver that takes 150 ms per POST (SQLite). Lag is from a change's timestamp to its arrival. Goal: keep up with 50 events/s, median lag under 2 s."
echo
echo "| Run | Delivered events/s (500 events) | Median lag | Max lag | Met? |"
echo "|---|---|---|---|---|"
echo "$out" | awk '/^BenchmarkWebhookDelivery/ {
	for (i = 1; i <= NF; i++) { if ($i == "events/s") r = $(i-1); if ($i == "median-lag-s") m = $(i-1); if ($i == "max-lag-s") x = $(i-1) }
	n++; met = (m < 2 && r >= 45) ? "yes" : "**no**"
	printf "| %d | %.1f | %.2f s | %.2f s | %s |\n", n, r, m, x, met }'
echo
echo "Delivered events/s counts from the first change to the last arrival, so the final poll interval is in it: 50/s offered, all delivered."
echo
echo '```sh'
echo "$cmd"
echo '```'
