package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// wrkResult is what one wrk run measured.
type wrkResult struct {
	rps    float64       // requests per second, all answers
	errors int64         // answers not 2xx or 3xx, and socket errors
	p99    time.Duration // 99th percentile latency
}

// wrkRequests is how many distinct requests a round's script cycles
// through: more than a round sends at this machine's rates, so edits of
// one round never repeat (a repeated edit would be a no-op).
const wrkRequests = 40000

// wrkLoad runs wrk (-t2, clients connections, for d) with a Lua script
// that sends the requests build makes, in order, from every connection.
func wrkLoad(c config, build func(int64) *http.Request) (wrkResult, error) {
	dir, err := os.MkdirTemp("", "floor-wrk-")
	if err != nil {
		return wrkResult{}, err
	}
	defer func() { _ = os.RemoveAll(dir) }() // a temporary directory
	script := filepath.Join(dir, "requests.lua")
	first := build(0)
	n := int64(1)
	if first.Method != http.MethodGet {
		n = wrkRequests
	}
	if err = writeScript(script, build, n); err != nil {
		return wrkResult{}, err
	}
	base := first.URL.Scheme + "://" + first.URL.Host
	cmd := exec.Command(c.wrk, "-t2", fmt.Sprintf("-c%d", c.clients), fmt.Sprintf("-d%ds", int(c.duration.Seconds())),
		"--latency", "-s", script, base) //nolint:gosec // G204: the benchmark's own wrk binary and arguments
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err = cmd.Run(); err != nil {
		return wrkResult{}, fmt.Errorf("wrk: %w: %s", err, out.String())
	}
	res, err := parseWrk(out.String())
	if err == nil && res.errors > 0 {
		fmt.Fprintf(os.Stderr, "floor: wrk reported errors against %s:\n%s", base, out.String())
	}
	return res, err
}

// writeScript writes a wrk script sending n requests of build in turn:
// their method, path and body one a line in a file beside it (a Lua
// table literal of 40,000 requests exceeds Lua's constants), the headers
// of the first for all.
func writeScript(path string, build func(int64) *http.Request, n int64) error {
	var data bytes.Buffer
	var headers []string
	for i := range n {
		r := build(i)
		var body []byte
		if r.Body != nil {
			var err error
			if body, err = io.ReadAll(r.Body); err != nil {
				return err
			}
		}
		if bytes.ContainsAny(body, "\t\n") {
			return fmt.Errorf("wrk: a request body with a tab or newline: %q", body)
		}
		fmt.Fprintf(&data, "%s\t%s\t%s\n", r.Method, r.URL.RequestURI(), body)
		if i == 0 {
			// wrk.format adds no Host when called as the script loads.
			headers = append(headers, fmt.Sprintf("[\"Host\"]=%s", luaString(r.URL.Host)))
			for k, vs := range r.Header {
				headers = append(headers, fmt.Sprintf("[%s]=%s", luaString(k), luaString(strings.Join(vs, ", "))))
			}
		}
	}
	lines := path + ".tsv"
	if err := os.WriteFile(lines, data.Bytes(), 0o600); err != nil {
		return err
	}
	// Each wrk thread has its own Lua state: the threads start at
	// different places so that two do not send the same edit.
	script := fmt.Sprintf(`local headers = {%s}
local reqs = {}
for line in io.lines(%s) do
  local method, p, body = line:match("^([^\t]*)\t([^\t]*)\t(.*)$")
  if body == "" then body = nil end
  reqs[#reqs + 1] = wrk.format(method, p, headers, body)
end
local i = 0
function setup(thread) thread:set("offset", math.random(%d)) end
function init(args) i = offset or 0 end
function request()
  i = i %% #reqs + 1
  return reqs[i]
end
`, strings.Join(headers, ","), luaString(lines), n)
	return os.WriteFile(path, []byte(script), 0o600)
}

// luaString quotes s as a Lua string literal.
func luaString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range []byte(s) {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteByte(r)
		case r < 0x20 || r >= 0x7f:
			fmt.Fprintf(&b, "\\%03d", r)
		default:
			b.WriteByte(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

var (
	wrkRate     = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkNon2xx   = regexp.MustCompile(`Non-2xx or 3xx responses:\s+(\d+)`)
	wrkSocket   = regexp.MustCompile(`Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)`)
	wrkLatency9 = regexp.MustCompile(`(?m)^\s+99%\s+([0-9.]+)(us|ms|s)\s*$`)
)

// parseWrk reads wrk's report.
func parseWrk(out string) (wrkResult, error) {
	var r wrkResult
	m := wrkRate.FindStringSubmatch(out)
	if m == nil {
		return r, fmt.Errorf("wrk: no Requests/sec in %q", out)
	}
	r.rps, _ = strconv.ParseFloat(m[1], 64)
	if m = wrkNon2xx.FindStringSubmatch(out); m != nil {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		r.errors += n
	}
	if m = wrkSocket.FindStringSubmatch(out); m != nil {
		for _, s := range m[1:] {
			n, _ := strconv.ParseInt(s, 10, 64)
			r.errors += n
		}
	}
	if m = wrkLatency9.FindStringSubmatch(out); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[m[2]]
		r.p99 = time.Duration(v * float64(unit))
	}
	return r, nil
}
