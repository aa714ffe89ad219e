package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: check OVERLAY_DIR...")
		os.Exit(2)
	}
	failed := false
	for _, dir := range os.Args[1:] {
		d, err := Load(dir)
		if err == nil {
			err = Check(d)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", dir, err)
			failed = true
			continue
		}
		fmt.Printf("%s: %d objects ok\n", dir, len(d.Objects))
	}
	if failed {
		os.Exit(1)
	}
}
