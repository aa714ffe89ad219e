package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tmsproject/tms/gateway/bench/summary"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchsum:", err)
		os.Exit(1)
	}
}

func run(files []string, out io.Writer) error {
	var readers []io.Reader
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer func() { _ = f.Close() }() // read only
		readers = append(readers, f)
	}
	if len(readers) == 0 {
		readers = append(readers, os.Stdin)
	}
	rep, err := summary.Parse(io.MultiReader(readers...))
	if err != nil {
		return err
	}
	return summary.Render(out, rep, summary.ThisMachine(time.Now()))
}
