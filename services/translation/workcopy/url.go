package workcopy

import (
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/netguard"
)

// ValidateURL checks a component repository address (netguard.RemoteProblem):
// an InvalidArgument on "repo" when it may not be used.
func ValidateURL(raw string, allowLocal bool) error { return ValidateRemote("repo", raw, allowLocal) }

// ValidateRemote checks the address of a git remote (repo, push), the
// refusal named after field.
func ValidateRemote(field, raw string, allowLocal bool) error {
	if code, problem := netguard.RemoteProblem(raw, allowLocal); problem != "" {
		return errs.Invalid(field, code, problem)
	}
	return nil
}
