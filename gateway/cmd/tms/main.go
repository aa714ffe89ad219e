// Command tms runs and administers the translation management service.
//
//	tms serve     run every service and the gateway (or some of them)
//	tms migrate   bring the databases up to date, then exit
//	tms run-split every service in its own process on a throwaway PostgreSQL
//	tms run-scale 2 replicas of every service and of the gateway, likewise
//	tms users     create, list, token, deactivate accounts
//	tms version   print the version
//	tms help      describe a command
//
// Configuration comes from the TMS_* environment variables (`tms serve
// --help` lists them with their defaults); flags override them. Exit
// status: 0 success, 1 failure, 2 a command line that cannot be run.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/tmsproject/tms/pkg/version"
)

// command is one word of the command line.
type command struct {
	name    string
	summary string
	// run executes the command with the words after its name; it prints
	// its own help for -h/--help and answers an exit status.
	run func(args []string, stdout, stderr io.Writer) int
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

func commands() []command {
	return []command{
		{"serve", "run every service and the gateway, or the --services given", serve},
		{"migrate", "bring the service databases up to date and exit", migrate},
		{"run-split", "run every service as its own process on a throwaway PostgreSQL (development)", runSplit},
		{"run-scale", "run 2 replicas of every service and of the gateway on a throwaway PostgreSQL (development, fault tests)", runScale},
		{"users", "manage accounts: create, list, token, deactivate", users},
		{"version", "print the version", printVersion},
		{"help", "describe tms or one of its commands", help},
	}
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help":
		usage(stdout)
		return exitOK
	case "-v", "--version":
		return printVersion(nil, stdout, stderr)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "tms: unknown command %q\n\n", args[0])
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "tms %s: a translation management service speaking Weblate's REST API\n\nUsage: tms <command> [arguments]\n\nCommands:\n", version.String())
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun `tms help <command>` or `tms <command> --help` for a command's flags.")
}

// help describes tms, or the named command by running it with --help.
func help(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return exitOK
	}
	if args[0] == "help" {
		fmt.Fprintln(stdout, "Usage: tms help [command]\n\nDescribes tms, or the command named.")
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run([]string{"--help"}, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "tms help: unknown command %q\n", args[0])
	return exitUsage
}

func printVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "--help" {
			fmt.Fprintln(stdout, "Usage: tms version\n\nPrints the version of this build.")
			return exitOK
		}
		fmt.Fprintf(stderr, "tms version: unexpected argument %q\n", args[0])
		return exitUsage
	}
	fmt.Fprintf(stdout, "tms %s\n", version.String())
	return exitOK
}
