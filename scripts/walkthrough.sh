#!/usr/bin/env bash
# Runs the README's Getting started walkthrough as a newcomer pastes it:
# `make run` with the variables the README gives, in a fresh data
# directory, then every shell block from "In a second terminal" to the
# next section, and checks that the translation reached the repository.
# It uses what the README uses: port 8080, /tmp/hello and /tmp/hello.git.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
server=""
cleanup() {
  if [ -n "$server" ]; then
    kill -- "-$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# The blocks as written, in order: fenced sh blocks of the walkthrough.
awk '/^In a second terminal/{on=1} on && /^## /{exit} on' README.md |
  awk '/^```sh$/{b=1; next} /^```$/{b=0; print ""; next} b' >"$work/walk.sh"
[ -s "$work/walk.sh" ] || { echo "walkthrough: no shell blocks found in README.md" >&2; exit 1; }

# The first terminal: the README's command, from a copy of the checkout
# so that ./data starts empty and the developer's own is left alone.
mkdir -p "$work/tree" && (cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$work/tree")
[ -d "$root/.bin" ] && cp -r "$root/.bin" "$work/tree/"
run=$(sed -n 's/^\(TMS_ALLOW_LOCAL_REPOS=.*make run\)$/\1/p' README.md | head -1)
[ -n "$run" ] || { echo "walkthrough: no make run command in README.md" >&2; exit 1; }
set -m
(cd "$work/tree" && exec bash -c "$run") >"$work/run.log" 2>&1 &
server=$!
set +m
for _ in $(seq 1 300); do
  grep -q "gateway listening" "$work/run.log" && break
  kill -0 "$server" 2>/dev/null || { cat "$work/run.log" >&2; exit 1; }
  sleep 1
done
grep -q "gateway listening" "$work/run.log" || { tail -20 "$work/run.log" >&2; exit 1; }

# The second terminal.
rm -rf /tmp/hello /tmp/hello.git
(cd "$work" && bash -e walk.sh) >"$work/walk.out" 2>&1 || {
  cat "$work/walk.out" >&2
  echo "walkthrough: a command failed" >&2
  exit 1
}
if ! grep -q '^msgstr "Hallo"$' /tmp/hello/po/de.po; then
  cat /tmp/hello/po/de.po >&2
  echo "walkthrough: the translation did not reach the repository" >&2
  exit 1
fi
grep -q '"check":"end_space"' "$work/walk.out" || { echo "walkthrough: no failing check shown" >&2; exit 1; }
rm -rf /tmp/hello /tmp/hello.git
echo "walkthrough: ok"
