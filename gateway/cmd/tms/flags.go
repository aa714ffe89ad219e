package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// flagSet is a command's flags with the help printed for -h/--help.
type flagSet struct {
	*flag.FlagSet
	synopsis string // usage line and description
	extra    func(io.Writer)
	stdout   io.Writer
}

func newFlags(name, synopsis string, stdout, stderr io.Writer) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet("tms "+name, flag.ContinueOnError), synopsis: synopsis, stdout: stdout}
	fs.SetOutput(stderr)
	fs.Usage = func() {} // parse prints the help itself, to stdout for --help
	return fs
}

// parse reads args; done reports that the command ends here with code
// (after --help: 0; on a bad flag: 2).
func (fs *flagSet) parse(args []string) (code int, done bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.printHelp(fs.stdout)
		return exitOK, true
	case err != nil:
		fmt.Fprintf(fs.Output(), "Run `%s --help` for usage.\n", fs.Name())
		return exitUsage, true
	}
	return exitOK, false
}

func (fs *flagSet) printHelp(w io.Writer) {
	fmt.Fprintln(w, strings.TrimSpace(fs.synopsis))
	var hasFlags bool
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	if fs.extra != nil {
		fs.extra(w)
	}
}
