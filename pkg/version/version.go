// Package version names this service and its build, the same way wherever
// it is shown: `tms version`, the PO header's X-Generator, logs.
package version

import (
	"runtime/debug"
	"strings"
	"sync"
)

// Product is the name the service gives itself in files it writes.
const Product = "TMS"

// Version is set at link time (-ldflags "-X github.com/tmsproject/tms/pkg/version.Version=v1.2.3");
// when empty, String derives it from the build's VCS stamp.
var Version string

var derived = sync.OnceValue(func() string {
	if Version != "" {
		return Version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := "dev-" + rev
	if modified == "true" {
		v += "-dirty"
	}
	return v
})

// String is the version of this build: the link-time Version, else
// "dev-<commit>" from the VCS stamp, else "dev".
func String() string { return derived() }

// Generator is the value of the X-Generator header of files this service
// writes: "TMS <version>".
func Generator() string { return Product + " " + strings.TrimSpace(String()) }
