package delivery_test

import (
	"context"
	"io"
	"log/slog"
	"mime"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/pgtest"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/notification/delivery"
	"github.com/tmsproject/tms/services/notification/delivery/smtptest"
	"github.com/tmsproject/tms/services/notification/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// changeLog is a change log held in memory, in id order.
type changeLog struct {
	mu      sync.Mutex
	changes []*changelogv1.Change
}

func (l *changeLog) add(cs ...*changelogv1.Change) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.changes = append(l.changes, cs...)
}

func (l *changeLog) ListChanges(context.Context, *changelogv1.ListChangesRequest, ...grpc.CallOption) (*changelogv1.ListChangesResponse, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := &changelogv1.ListChangesResponse{Total: int64(len(l.changes))}
	if n := len(l.changes); n > 0 {
		out.Changes = []*changelogv1.Change{l.changes[n-1]}
	}
	return out, nil
}

func (l *changeLog) ListChangesAfter(_ context.Context, in *changelogv1.ListChangesAfterRequest, _ ...grpc.CallOption) (*changelogv1.ListChangesAfterResponse, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := &changelogv1.ListChangesAfterResponse{}
	for _, c := range l.changes {
		if c.GetId() > in.GetAfterId() {
			out.Changes = append(out.Changes, c)
		}
	}
	return out, nil
}

// projects is a catalog listing a public and a private project.
type projects struct{}

func (projects) ListProjects(context.Context, *catalogv1.ListProjectsRequest, ...grpc.CallOption) (*catalogv1.ListProjectsResponse, error) {
	return &catalogv1.ListProjectsResponse{Total: 2, Projects: []*catalogv1.Project{
		{Slug: "p", AccessControl: 0}, {Slug: "secret", AccessControl: 100}}}, nil
}

func change(id int64, action typev1.ChangeAction, project, user, target string) *changelogv1.Change {
	return &changelogv1.Change{Id: id, Action: action, ProjectSlug: project, ComponentSlug: "app", LanguageCode: "de",
		User: user, Target: target}
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }

// TestDelivery follows a change log through instant mail, a daily digest,
// a refused delivery that is retried, and a restart that sends nothing
// twice, on both engines.
func TestDelivery(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		st := store.New(gdb)
		if err := st.EnsureBuiltins(ctx); err != nil { // the teams accounts join, as at service start
			t.Fatal(err)
		}
		users := map[string]struct {
			email string
			subs  []store.Subscription
		}{
			"alice": {"alice@example.org", []store.Subscription{{Notification: weblate.NotifyTranslatedString, Scope: weblate.ScopeAll, Frequency: weblate.FrequencyInstant}}},
			"bob": {"bob@example.org", []store.Subscription{{Notification: weblate.NotifyTranslatedString, Scope: weblate.ScopeProject, ProjectSlug: "p", Frequency: weblate.FrequencyDaily},
				{Notification: weblate.NotifyTranslatedString, Scope: weblate.ScopeAll, Frequency: weblate.FrequencyInstant}}},
			"carol": {"carol@example.org", []store.Subscription{{Notification: weblate.NotifyNewSuggestion, Scope: weblate.ScopeAll, Frequency: weblate.FrequencyInstant}}},
			"dave":  {"", []store.Subscription{{Notification: weblate.NotifyTranslatedString, Scope: weblate.ScopeAll, Frequency: weblate.FrequencyInstant}}},
			"root":  {"root@example.org", []store.Subscription{{Notification: weblate.NotifyTranslatedString, Scope: weblate.ScopeAll, Frequency: weblate.FrequencyInstant}}},
			// erin administers secret (its Administration team): her
			// "administered projects" subscription takes in its changes only.
			"erin": {"erin@example.org", []store.Subscription{{Notification: weblate.NotifyTranslatedString, Scope: weblate.ScopeAdmin, Frequency: weblate.FrequencyInstant}}},
			// frank translates no language: new suggestions do not reach
			// him (the reference filters them by the user's languages).
			"frank": {"frank@example.org", []store.Subscription{{Notification: weblate.NotifyNewSuggestion, Scope: weblate.ScopeAll, Frequency: weblate.FrequencyInstant}}},
			// gina watches p and secret; she may see p only.
			"gina": {"gina@example.org", []store.Subscription{{Notification: weblate.NotifyTranslatedString, Scope: weblate.ScopeWatched, Frequency: weblate.FrequencyInstant}}},
		}
		for name, u := range users {
			if _, err := st.CreateUser(ctx, store.User{Username: name, Email: u.email, FullName: strings.ToUpper(name),
				IsActive: true, IsSuperuser: name == "root", DateJoined: time.Now()}, u.subs); err != nil {
				t.Fatal(err)
			}
		}
		for name, profile := range map[string]string{"carol": `{"languages": ["de"]}`, "gina": `{"watched": ["p", "secret"], "auto_watch": false}`} {
			if _, err := st.UpdateUser(ctx, name, func(u *store.User) error { u.Profile = profile; return nil }); err != nil {
				t.Fatal(err)
			}
		}
		erin, err := st.UserByName(ctx, "erin")
		if err != nil {
			t.Fatal(err)
		}
		if err = st.SetupProjectTeams(ctx, "secret", &erin.ID); err != nil {
			t.Fatal(err)
		}
		log := &changeLog{}
		log.add(change(1, typev1.ChangeAction_CHANGE_ACTION_CHANGE, "p", "alice", "before delivery started"))
		sink := smtptest.New(t)
		sink.Allow(t)
		mailer, err := delivery.NewSMTP("smtp://"+sink.Addr, "TMS <tms@example.org>")
		if err != nil {
			t.Fatal(err)
		}
		clk := &clock{now: time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)}
		newDeliverer := func() *delivery.Deliverer {
			return &delivery.Deliverer{Store: st, ChangeLog: log, Projects: policy.NewProjects(projects{}), Mailer: mailer,
				SiteURL: "https://tms.example", Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: clk.Now}
		}
		d := newDeliverer()
		step := func() {
			t.Helper()
			if err := d.Step(ctx); err != nil {
				t.Fatal(err)
			}
		}
		step() // starts at the end of the log: nothing about the past
		log.add(change(2, typev1.ChangeAction_CHANGE_ACTION_NEW, "p", "bob", "Hallo"), change(3, typev1.ChangeAction_CHANGE_ACTION_CHANGE, "p", "alice", "Welt"),
			change(4, typev1.ChangeAction_CHANGE_ACTION_NEW, "secret", "admin", "Geheim"), change(5, typev1.ChangeAction_CHANGE_ACTION_SUGGESTION, "p", "alice", "Vorschlag"), change(6, typev1.ChangeAction_CHANGE_ACTION_LOCK, "p", "root", ""))
		step()
		got := map[string][]string{}
		for _, m := range sink.Received() {
			subject, _ := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
			got[m.Header.Get("To")] = append(got[m.Header.Get("To")], subject)
		}
		want := map[string]int{
			`"ALICE" <alice@example.org>`: 1, // change 2 (3 is her own; 4 is in a project she may not see)
			`"CAROL" <carol@example.org>`: 1, // the suggestion
			`"ROOT" <root@example.org>`:   3, // 2, 3 and, as a superuser, 4
			`"ERIN" <erin@example.org>`:   1, // 4, in the project she administers
			`"FRANK" <frank@example.org>`: 0,
			`"GINA" <gina@example.org>`:   2, // 2 and 3, in the watched project she may see
		}
		for to, n := range want {
			if len(got[to]) != n {
				t.Errorf("%s got %d mails %q, want %d", to, len(got[to]), got[to], n)
			}
		}
		if len(got) != len(want)-1 { // but frank
			t.Errorf("mails went to %v", got)
		}
		// Contributors watch the project from then on (auto_watch, on by
		// default); a lock is no contribution.
		for name, want := range map[string]bool{"alice": true, "bob": true, "root": false} {
			u, err := st.UserByName(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(u.Profile, `"watched":["p"]`); got != want {
				t.Errorf("%s watches p: %v, want %v (settings %q)", name, got, want, u.Profile)
			}
		}
		if s := got[`"ALICE" <alice@example.org>`]; len(s) == 1 && s[0] != "[TMS] New translation in p/app — de" {
			t.Errorf("subject %q", s[0])
		}
		for _, raw := range sink.Raw() {
			if strings.Contains(raw, "Geheim") && !strings.Contains(raw, "root@example.org") && !strings.Contains(raw, "erin@example.org") {
				t.Errorf("the private project's text reached a user who may not see it:\n%s", raw)
			}
		}

		// Bob's project subscription (daily) wins over his instant one:
		// one digest after midnight, with 3 (2 is his own).
		sink.SetRefuse(true)
		clk.set(time.Date(2026, 11, 25, 0, 1, 0, 0, time.UTC))
		before := len(sink.Received())
		step()
		if len(sink.Received()) != before {
			t.Fatal("a refused mail was counted as received")
		}
		sink.SetRefuse(false)
		step() // not yet: the retry waits a minute
		if len(sink.Received()) != before {
			t.Error("retried before its time")
		}
		clk.set(time.Date(2026, 11, 25, 0, 3, 0, 0, time.UTC))
		step()
		mails := sink.Received()
		if len(mails) != before+1 {
			t.Fatalf("digest: %d mails, want %d", len(mails), before+1)
		}
		digest := mails[len(mails)-1]
		if subject, _ := new(mime.WordDecoder).DecodeHeader(digest.Header.Get("Subject")); digest.Header.Get("To") != `"BOB" <bob@example.org>` ||
			subject != "[TMS] Daily digest: 1 notifications" {
			t.Errorf("digest to %s: %q", digest.Header.Get("To"), subject)
		}

		// A restart sends nothing twice.
		d = newDeliverer()
		step()
		if n := len(sink.Received()); n != len(mails) {
			t.Errorf("after a restart %d mails, want %d", n, len(mails))
		}

		// A record committed late (id 8 appears after 9 was read) is still
		// delivered, and 9 is not delivered twice.
		log.add(change(7, typev1.ChangeAction_CHANGE_ACTION_SUGGESTION, "p", "root", "seven"), change(9, typev1.ChangeAction_CHANGE_ACTION_SUGGESTION, "p", "root", "nine"))
		step()
		log.add(change(8, typev1.ChangeAction_CHANGE_ACTION_SUGGESTION, "p", "root", "eight"))
		step()
		var carol []string
		for _, raw := range sink.Raw() {
			if strings.Contains(raw, "carol@example.org") {
				for _, w := range []string{"seven", "eight", "nine"} {
					if strings.Contains(raw, w) {
						carol = append(carol, w)
					}
				}
			}
		}
		if strings.Join(carol, ",") != "seven,nine,eight" {
			t.Errorf("carol's suggestion mails: %v, want seven, nine, eight once each", carol)
		}
	}, store.Migrations)
}
