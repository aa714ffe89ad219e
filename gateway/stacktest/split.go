package stacktest

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tmsproject/tms/gateway/stack"
)

// All names the one process of a Binary stack (Process, Restart).
const All = "all"

// split is the processes of a Split or Binary stack and how each was
// started, to start it again.
type split struct {
	tb    testing.TB
	bin   string
	env   []string
	procs map[string]*exec.Cmd
	args  map[string][]string
	wait  map[string]func()
}

// startProcesses builds the tms binary and starts the stack's processes:
// one running everything (Binary), or each service and then the gateway
// (Split), every one told where the others listen.
func (s *Stack) startProcesses(opts Options) {
	httpAddr := FreeAddr(s.tb)
	env := []string{"TMS_DATA_DIR=" + opts.DataDir, "TMS_ADMIN_TOKEN=" + AdminToken, "TMS_ALLOW_LOCAL_REPOS=true"}
	if opts.DatabaseURL != "" {
		env = append(env, "TMS_DATABASE_URL="+opts.DatabaseURL)
	}
	s.API = "http://" + httpAddr + "/api/"
	waitAPI := func() { WaitHTTP(s.tb, s.API) }
	if opts.Mode == Binary {
		s.split = &split{tb: s.tb, bin: Build(s.tb), env: append(env, opts.Env...), procs: map[string]*exec.Cmd{},
			args: map[string][]string{}, wait: map[string]func(){}}
		s.split.start(All, []string{"--http-addr=" + httpAddr}, waitAPI)
		return
	}
	s.Addrs = map[string]string{}
	env = append(env, "TMS_SERVICE_TOKEN="+ServiceToken)
	for _, name := range stack.Backends {
		s.Addrs[name] = FreeAddr(s.tb)
		env = append(env, "TMS_"+strings.ToUpper(name)+"_ADDR="+s.Addrs[name])
	}
	s.split = &split{tb: s.tb, bin: Build(s.tb), env: append(env, opts.Env...), procs: map[string]*exec.Cmd{},
		args: map[string][]string{}, wait: map[string]func(){}}
	for _, name := range append(slices.Clone(stack.Backends), stack.Gateway) {
		args := []string{"--services=" + name, "--data-dir=" + filepath.Join(opts.DataDir, name)}
		wait := func() { WaitTCP(s.tb, s.Addrs[name]) }
		if name == stack.Gateway {
			args, wait = append(args, "--http-addr="+httpAddr), waitAPI
		}
		s.split.start(name, args, wait)
	}
}

// start runs process name with args and waits until it serves.
func (sp *split) start(name string, args []string, wait func()) {
	sp.args[name], sp.wait[name] = args, wait
	sp.procs[name] = StartProcess(sp.tb, "", sp.bin, sp.env, args...)
	wait()
}

// Restart starts a process of a Split or Binary stack again (after it was
// killed) with the arguments it had, and waits until it serves.
func (s *Stack) Restart(name string) {
	s.tb.Helper()
	s.split.start(name, s.split.args[name], s.split.wait[name])
}

// stop ends the processes, the gateway first.
func (sp *split) stop() {
	names := append([]string{All, stack.Gateway}, stack.Backends...)
	slices.Reverse(names[2:])
	for _, name := range names {
		if p := sp.procs[name]; p != nil {
			terminate(p)
		}
	}
}
