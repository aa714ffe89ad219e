package summary

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// ThisMachine describes the machine from /proc (Linux) and the Go
// runtime; what cannot be read is "unknown".
func ThisMachine(now time.Time) Machine {
	m := Machine{CPUs: runtime.NumCPU(), CPUModel: "unknown", MemTotal: "unknown",
		GoVersion: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH, Date: now.UTC().Format(time.RFC3339)}
	if v := procField("/proc/cpuinfo", "model name"); v != "" {
		m.CPUModel = v
	}
	if v := procField("/proc/meminfo", "MemTotal"); v != "" {
		m.MemTotal = memText(v)
	}
	return m
}

// procField is the value of the first "key: value" line with key.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }() // read only
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// memText turns meminfo's "24576000 kB" into "23.4 GiB".
func memText(v string) string {
	f := strings.Fields(v)
	kb, err := strconv.ParseFloat(f[0], 64)
	if err != nil || len(f) != 2 || f[1] != "kB" {
		return v
	}
	return fmt.Sprintf("%.1f GiB", kb/(1<<20))
}
