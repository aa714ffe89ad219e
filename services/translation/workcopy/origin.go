package workcopy

import "errors"

// OriginURL is the address the working copy was cloned from.
func (r *Repo) OriginURL() (string, error) {
	rem, err := r.repo.Remote("origin")
	if err != nil {
		return "", err
	}
	if urls := rem.Config().URLs; len(urls) > 0 {
		return urls[0], nil
	}
	return "", errors.New("origin has no address")
}
