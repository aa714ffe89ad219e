package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/tmsproject/tms/gateway/bench"
	"github.com/tmsproject/tms/gateway/bench/origin"
)

// scaleRates are the edit rates through one gateway and through two, both
// over two replicas of every service (`tms run-scale`).
type scaleRates struct {
	one, two   float64
	errors     int64
	importTime string
}

// runScale starts `tms run-scale` (2 gateways, 2 replicas of every
// service, one PostgreSQL), imports the generated component through the
// first gateway, and measures unit edits of distinct units: all through
// gateway 1, then spread over both, c.rounds times each, alternating.
func runScale(c config, scratch string, w io.Writer) error {
	g := bench.Generate(c.strings, uint64(c.strings))
	repo, err := origin.Create(filepath.Join(scratch, "origin"), g.Files("floor", languages[:c.languages], 70))
	if err != nil {
		return err
	}
	port, err := consecutivePorts()
	if err != nil {
		return err
	}
	cmd := exec.Command(c.tms, "run-scale", "--data-dir="+filepath.Join(scratch, "scale"))
	cmd.Env = append(os.Environ(), "TMS_ADMIN_TOKEN="+adminToken, "TMS_ALLOW_LOCAL_REPOS=true",
		"TMS_API_RATELIMIT_ANON=1000000/second", "TMS_API_RATELIMIT_USER=1000000/second",
		"TMS_HTTP_ADDR=127.0.0.1:"+strconv.Itoa(port), "TMS_DATABASE_URL=")
	gw1, err := startProcess(cmd, filepath.Join(scratch, "run-scale.log"), fmt.Sprintf("http://127.0.0.1:%d", port), "/healthz")
	if err != nil {
		return err
	}
	defer gw1.stop()
	gw2 := &server{cmd: &exec.Cmd{}, base: fmt.Sprintf("http://127.0.0.1:%d", port+1)}
	if err = waitHealthy(gw2); err != nil {
		return err
	}
	imp, err := importComponent(gw1, repo, "")
	if err != nil {
		return err
	}
	units, err := sampleUnits(gw1, c.strings)
	if err != nil {
		return err
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c.clients, MaxConnsPerHost: c.clients}}
	var one, two []float64
	res := scaleRates{importTime: imp.elapsed.Round(100 * 1e6).String()}
	for round := range int64(c.rounds) {
		for _, side := range []struct {
			gateways []*server
			into     *[]float64
		}{{[]*server{gw1}, &one}, {[]*server{gw1, gw2}, &two}} {
			rps, errs := load(client, c.clients, c.duration, func(i int64) *http.Request {
				return editRequest(side.gateways[i%int64(len(side.gateways))], units, "Scale", round, i)
			})
			*side.into = append(*side.into, rps)
			res.errors += errs
		}
	}
	res.one, res.two = median(one), median(two)
	fmt.Printf("edits through 1 gateway %8.0f req/s, through 2 gateways %8.0f req/s (errors %d)\n", res.one, res.two, res.errors)
	return writeScale(w, c, res)
}

// editRequest is the i-th PATCH of a round: a distinct unit of the
// measured translation, a text no earlier round wrote.
func editRequest(s *server, units []sampled, label string, round, i int64) *http.Request {
	u := units[i%int64(len(units))]
	target := make([]string, u.forms)
	for k := range target {
		target[k] = fmt.Sprintf("%s edit %d/%d/%d", label, round, i, k)
	}
	body, _ := json.Marshal(map[string]any{"target": target, "state": 20})
	r, _ := http.NewRequest("PATCH", fmt.Sprintf("%s/api/units/%d/", s.base, u.id), bytes.NewReader(body))
	r.Header.Set("Authorization", "Token "+adminToken)
	r.Header.Set("Content-Type", "application/json")
	return r
}

// waitHealthy waits up to a minute for a gateway another process started.
func waitHealthy(s *server) error {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); <-tick.C {
		if _, err := call(s, "GET", "/healthz", nil, 200); err == nil {
			return nil
		}
	}
	return fmt.Errorf("%s did not answer within a minute", s.base)
}

// consecutivePorts finds a free loopback port whose successor is free.
func consecutivePorts() (int, error) {
	for range 50 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		p := l.Addr().(*net.TCPAddr).Port
		next, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p+1))
		_ = l.Close()
		if err == nil {
			_ = next.Close()
			return p, nil
		}
	}
	return 0, fmt.Errorf("no two consecutive free ports")
}

func writeScale(w io.Writer, c config, r scaleRates) error {
	var b strings.Builder
	b.WriteString("## Edits at scale\n\n")
	fmt.Fprintf(&b, "`floor -scale` starts `tms run-scale`: one PostgreSQL, 2 gateways and 2 replicas of every service, each its own process, all on this machine's %d CPUs. It imports %d strings (translation languages: %d) through gateway 1 (%s), then drives unit PATCHes of distinct units with %d concurrent clients, %d rounds of %s each way, alternating: all through gateway 1, then spread over both gateways. The median round is shown.\n\n",
		runtime.NumCPU(), c.strings, c.languages, r.importTime, c.clients, c.rounds, c.duration)
	b.WriteString("| Edits through | req/s | Ratio to 1 gateway |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| 1 gateway, 2 replicas of each service | %.0f | 1.00 |\n", r.one)
	fmt.Fprintf(&b, "| 2 gateways, 2 replicas of each service | %.0f | %.2f |\n\n", r.two, r.two/r.one)
	fmt.Fprintf(&b, "Answers other than 200: %d. Both gateways share this machine's CPUs with the eight services and PostgreSQL: the ratio shows what a second gateway adds here, not on separate nodes.\n\n", r.errors)
	fmt.Fprintf(&b, "```sh\nmake build && (cd gateway && go build -o ../bin/floor ./bench/cmd/floor)\nbin/floor -tms bin/tms -scale -strings %d -languages %d\n```\n\n", c.strings, c.languages)
	_, err := io.WriteString(w, b.String())
	return err
}
