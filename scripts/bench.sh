#!/usr/bin/env bash
# Runs the stack's Go benchmarks (gateway/bench) and rewrites BENCHMARKS.md
# with the medians, the targets and the machine. Each group runs in its
# own process so that its peak RSS is its own. About 8 minutes on 2 cores.
# BENCH_COUNT sets the runs per benchmark (default 5).
#
#   scripts/bench.sh                 # every group, 5 runs each
#   BENCH_COUNT=3 scripts/bench.sh   # quicker
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
count=${BENCH_COUNT:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CGO_ENABLED=0

echo "== building the benchmark binary"
(cd "$root/gateway" && go test -c -o "$work/bench.test" ./bench)
(cd "$root/gateway" && go build -o "$work/benchsum" ./bench/cmd/benchsum)

# group NAME REGEX COUNT BENCHTIME: one process per group.
group() {
	local name=$1 regex=$2 n=$3 benchtime=$4
	local cmd="cd gateway && go test -run '^\$' -bench '$regex' -count $n -benchtime $benchtime -timeout 30m -v ./bench"
	echo "== $name: $regex, $n runs of $benchtime"
	echo "# command: $cmd" >"$work/$name.out"
	local start=$SECONDS
	if ! (cd "$root/gateway/bench" && "$work/bench.test" -test.run '^$' -test.bench "$regex" \
		-test.count "$n" -test.benchtime "$benchtime" -test.timeout 30m -test.v \
		>>"$work/$name.out" 2>"$work/$name.err"); then
		echo "   $name failed (see the report); stderr tail:"
		tail -n 5 "$work/$name.err" | sed 's/^/   /'
	fi
	grep -E '^(Benchmark.*ns/op|\s*--- (SKIP|FAIL))' "$work/$name.out" | sed 's/^/   /' || true
	echo "   $name took $((SECONDS - start)) s"
}

group import-bleachbit '^BenchmarkImportBleachbit$' "$count" 1x
group import-250k '^BenchmarkImportGenerated250k$' "$count" 1x
group import-json '^BenchmarkImportJSON40k$' "$count" 1x
# One op is one request; each process imports its fixtures once, 1k first,
# so the 1k rows' peak RSS does not include the 250k fixture.
group list '^BenchmarkUnitsListPage$' "$count" 100x
group patch '^BenchmarkUnitPatch$' "$count" 100x
# Each run makes 10k edits first (untimed, about 25 s).
group commit '^BenchmarkCommit10kEdits$' "$count" 1x
group upload '^BenchmarkUpload5k$' "$count" 1x
group upload-add '^BenchmarkUploadAdd5k$' "$count" 1x
# Eight clients at once: units pages with a PATCH every fourth request.
group concurrent '^BenchmarkConcurrentMix$' "$count" 2000x

"$work/benchsum" "$work"/{import-bleachbit,import-250k,import-json,list,patch,commit,upload,upload-add,concurrent}.out >"$root/BENCHMARKS.md.tmp"

# Side by side with ../shared/perf/baseline over HTTP, and the import of
# 1M units, each through the built `tms serve` (gateway/bench/cmd/floor).
echo "== floor: the service beside the baseline"
(cd "$root" && make -s build)
(cd "$root/gateway" && go build -o "$work/floor" ./bench/cmd/floor)
baseline="$root/../shared/perf/baseline"
if [ -d "$baseline" ]; then
	(cd "$root" && "$work/floor" -tms bin/tms -baseline "$baseline" -out "$work/floor.md")
	# The same with wrk, as users measure, at 8 and at 64 connections
	# (Debian's wrk package; skipped without it).
	if command -v wrk >/dev/null 2>&1; then
		# Each scenario also gets one extra, uncounted round under the
		# CPU profiler; the report shows the top of each profile.
		for conns in 8 64; do
			mkdir -p "$work/prof$conns"
			(cd "$root" && "$work/floor" -tms bin/tms -baseline "$baseline" -wrk "$(command -v wrk)" -clients "$conns" \
				-pprof 127.0.0.1:19190 -pprof-dir "$work/prof$conns" -out "$work/floor-wrk$conns.md")
			cat "$work/floor-wrk$conns.md" >>"$work/floor.md"
		done
	else
		echo "   wrk is missing (apt-get install wrk): no wrk rows"
	fi
else
	echo "   $baseline is missing: no side-by-side rows"
	printf '## Side by side with the floor\n\nNot run: ../shared/perf/baseline was missing.\n\n' >"$work/floor.md"
fi
# The import of 250k units (41667 strings in 5 languages plus the source),
# the size the memory goal names, through `tms serve` alone.
(cd "$root" && "$work/floor" -tms bin/tms -import-only -strings 41667 -languages 5 -out "$work/import250k.md")
# The 1M-unit import, then a few searches over all of its units (on
# SQLite once the search index covers them), on SQLite and on a throwaway
# PostgreSQL.
(cd "$root" && "$work/floor" -tms bin/tms -import-only -search -strings 166667 -languages 5 -out "$work/import1m.md")
(cd "$root" && "$work/floor" -tms bin/tms -postgres -import-only -search -strings 166667 -languages 5 -out "$work/import1m-pg.md")
# The 294k-unit import with the quality checks on and off (project
# check_flags ignore-all-checks), 3 rounds each way, alternating.
(cd "$root" && "$work/floor" -tms bin/tms -checks -rounds 3 -strings 42000 -languages 6 -out "$work/checks.md")
# A whole-file upload of 233k strings (method translate) into a component
# of one language, imported first.
(cd "$root" && "$work/floor" -tms bin/tms -import-only -upload -strings 233000 -languages 1 -out "$work/upload233k.md")
# Edits through 1 gateway and through 2, over 2 replicas of every service
# (tms run-scale on a throwaway PostgreSQL).
(cd "$root" && "$work/floor" -tms bin/tms -scale -strings 4200 -languages 1 -out "$work/scale.md")
# The translation memory: a TMX import of 1M segments and lookups of 100
# strings against it, on SQLite and on a throwaway PostgreSQL.
printf '## Translation memory\n\n' >"$work/memory.md"
(cd "$root" && "$work/floor" -tms bin/tms -import-only -memory 1000000 -strings 100 -languages 1 >>"$work/memory.md")
(cd "$root" && "$work/floor" -tms bin/tms -postgres -import-only -memory 1000000 -strings 100 -languages 1 >>"$work/memory.md")
# Webhook delivery by one notification replica to a slow receiver.
"$root/scripts/bench-webhooks.sh" >"$work/webhooks.md"
# Peak memory of `tms serve` reading a 512 MiB upload (PO, JSON).
"$root/scripts/bench-upload-memory.sh" >"$work/uploadmemory.md"
{ echo; cat "$work/floor.md" "$work/import250k.md" "$work/import1m.md" "$work/import1m-pg.md" "$work/checks.md" "$work/upload233k.md" "$work/scale.md" "$work/memory.md" "$work/webhooks.md" "$work/uploadmemory.md"; } >>"$root/BENCHMARKS.md.tmp"
mv "$root/BENCHMARKS.md.tmp" "$root/BENCHMARKS.md"
echo "== wrote BENCHMARKS.md"
