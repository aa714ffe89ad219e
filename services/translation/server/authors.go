package server

import (
	"context"
	"sync"
	"time"

	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// nameTTL bounds how long a user's full name is reused: a renamed user
// shows the new name in statistics this long after the fact at most.
const nameTTL = 30 * time.Second

// fullNames remembers the full names of user names for a short while:
// statistics name their last author by full name (the reference's
// get_author_name), and one list shows the same few authors many times.
type fullNames struct {
	mu    sync.Mutex
	names map[string]fullName
}

type fullName struct {
	name    string
	expires time.Time
}

// lookup returns the full name of username, or username itself when the
// user directory has none (or cannot be reached).
func (f *fullNames) lookup(ctx context.Context, users Users, username string) string {
	now := time.Now()
	f.mu.Lock()
	e, ok := f.names[username]
	f.mu.Unlock()
	if ok && now.Before(e.expires) {
		return e.name
	}
	name := username
	resp, err := users.GetUser(ctx, &notificationv1.GetUserRequest{Username: username})
	if err == nil && resp.GetUser().GetFullName() != "" {
		name = resp.GetUser().GetFullName()
	}
	if err != nil && ctx.Err() == nil {
		return name // not remembered: the directory may answer next time
	}
	f.mu.Lock()
	if f.names == nil || len(f.names) > 10000 {
		f.names = map[string]fullName{}
	}
	f.names[username] = fullName{name: name, expires: now.Add(nameTTL)}
	f.mu.Unlock()
	return name
}

// nameAuthors replaces the last_author user names of stats by full names.
func (s *Server) nameAuthors(ctx context.Context, stats ...*translationv1.Statistics) {
	if s.cfg.Users == nil {
		return
	}
	for _, st := range stats {
		if st.GetLastAuthor() != "" {
			st.LastAuthor = s.names.lookup(ctx, s.cfg.Users, st.GetLastAuthor())
		}
	}
}
