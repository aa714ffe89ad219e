package checks

import "github.com/tmsproject/tms/pkg/flags"

// The flags of strings are parsed and merged by pkg/flags, which the
// catalog shares to resolve a component's effective check flags; the
// checks read them under these names.
type (
	// Flag is one flag (flags.Flag).
	Flag = flags.Flag
	// Value is one parameter of a flag (flags.Value).
	Value = flags.Value
	// Flags are merged flags (flags.Flags).
	Flags = flags.Flags
)

// ParseFlags reads a flags text (flags.Parse).
func ParseFlags(text string) ([]Flag, error) { return flags.Parse(text) }
