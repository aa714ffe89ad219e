// Package nettest holds network stand-ins for tests.
package nettest

import (
	"net"
	"testing"
)

// Silent is a loopback listener that accepts connections and never
// answers: a git remote or a web server that hangs, so that a test can
// keep the work that calls it running. It closes, with the connections it
// holds, when the test ends (or when the test closes it).
func Silent(t testing.TB) net.Listener {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var held []net.Conn
		defer func() {
			for _, c := range held {
				_ = c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	t.Cleanup(func() { _ = l.Close(); <-done })
	return l
}
