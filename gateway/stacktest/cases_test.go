package stacktest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/pkg/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const header = `msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
`

// fixture is what prepare made: the ids of units by project and source,
// and the outsider's token.
type fixture struct {
	ids   map[string]int64 // "open/Hello" -> id; "none" is no unit's
	olga  string
	token map[string]string // caller -> token ("" anonymous)
}

// step is one case: a caller does something; want is what it gets, the
// same over every transport.
type step struct {
	name string
	as   string // admin, olga or anonymous
	do   func(ctx context.Context, a api, fx fixture) (any, error)
	want string
}

// steps run in order on one stack: the edits change what later steps see.
var steps = []step{
	{"projects", "admin", listProjects, "[open secret]"},
	{"projects", "olga", listProjects, "[open]"},
	{"projects", "anonymous", listProjects, "[open]"},
	{"private translation", "admin", translationOf("secret"), "{4 1 1}"},
	{"private translation", "olga", translationOf("secret"), "NotFound"},
	{"public translation", "anonymous", translationOf("open"), "{4 1 1}"},
	{"search", "anonymous", search("open", "state:translated"), "1 [{[Hello] [Hallo] 20}]"},
	{"search in a private project", "olga", search("secret", ""), "NotFound"},
	{"search by source", "olga", search("open", `source:"file" OR target:Hallo`), "2 [{[Hello] [Hallo] 20} {[%d file %d files] [%d Datei %d Dateien] 10}]"},
	{"malformed search", "admin", search("open", "nosuchfield:x"), "InvalidArgument"},
	{"private unit", "olga", unitOf("secret/Hello"), "NotFound"},
	{"missing unit", "admin", unitOf("none"), "NotFound"},
	{"public unit", "olga", unitOf("open/Hello"), "{[Hello] [Hallo] 20}"},
	{"edit", "anonymous", editOf("open/Bye", "Tschau", 20), "Unauthenticated"},
	{"edit", "olga", editOf("open/Bye", "Tschüss", 20), "{[] [Tschüss] 20}"},
	{"edit to read-only", "admin", editOf("open/Thanks", "Danke", 100), "InvalidArgument"},
	{"edit a missing unit", "admin", editOf("none", "x", 20), "NotFound"},
	{"edit a private unit", "olga", editOf("secret/Bye", "Tschüss", 20), "NotFound"},
	{"edit a private unit", "admin", editOf("secret/Bye", "Auf Wiedersehen", 20), "{[] [Auf Wiedersehen] 20}"},
	{"edited translation", "admin", translationOf("secret"), "{4 2 1}"},
	{"edited unit", "olga", unitOf("open/Bye"), "{[Bye] [Tschüss] 20}"},
	{"search after edits", "admin", search("secret", "state:<translated"), "2 [{[Thanks] [] 0} {[%d file %d files] [%d Datei %d Dateien] 10}]"},
	{"changes", "admin", changesOf("secret"), "1"},
	{"changes", "olga", changesOf("open"), "1"},
	{"private changes", "olga", changesOf("secret"), "NotFound"},
}

func listProjects(ctx context.Context, a api, _ fixture) (any, error) { return a.projects(ctx) }

func translationOf(project string) func(context.Context, api, fixture) (any, error) {
	return func(ctx context.Context, a api, _ fixture) (any, error) { return a.translation(ctx, project) }
}

func search(project, q string) func(context.Context, api, fixture) (any, error) {
	return func(ctx context.Context, a api, _ fixture) (any, error) {
		n, units, err := a.units(ctx, project, q)
		return fmt.Sprint(n, " ", units), err
	}
}

func unitOf(key string) func(context.Context, api, fixture) (any, error) {
	return func(ctx context.Context, a api, fx fixture) (any, error) { return a.unit(ctx, fx.ids[key]) }
}

func editOf(key, target string, state int32) func(context.Context, api, fixture) (any, error) {
	return func(ctx context.Context, a api, fx fixture) (any, error) {
		return a.edit(ctx, fx.ids[key], target, state)
	}
}

// changesOf counts the project's "Translation added" records (action 5).
func changesOf(project string) func(context.Context, api, fixture) (any, error) {
	return func(ctx context.Context, a api, _ fixture) (any, error) { return a.changes(ctx, project) }
}

// transports open an api for a caller's token on a stack.
var transports = []struct {
	name string
	open func(t *testing.T, s *Stack, token string) api
}{
	{"REST", func(_ *testing.T, s *Stack, token string) api { return overREST{api: s.API, token: token} }},
	{"gRPC", func(t *testing.T, s *Stack, token string) api {
		g, err := newOverGRPC(t.Context(), s, token)
		if err != nil {
			t.Fatalf("authenticate: %v", err)
		}
		return g
	}},
}

// TestCasesOverRESTAndGRPC runs the steps over REST and over gRPC, each on
// a fresh stack prepared alike, in process and split into processes: a
// gRPC caller sees, edits and is refused what a REST caller is.
func TestCasesOverRESTAndGRPC(t *testing.T) {
	for _, mode := range []struct {
		name string
		opts Options
	}{{"in-process", Options{}}, {"split", Options{Mode: Split}}} {
		t.Run(mode.name, func(t *testing.T) {
			if mode.opts.Mode == Split && testing.Short() {
				t.Skip("builds and runs the binary")
			}
			for _, tr := range transports {
				t.Run(tr.name, func(t *testing.T) {
					s := Start(t, mode.opts)
					fx := prepare(t, s)
					for _, st := range steps {
						got, err := st.do(t.Context(), tr.open(t, s, fx.token[st.as]), fx)
						if err != nil {
							got = err.Error()
						}
						if fmt.Sprint(got) != st.want {
							t.Errorf("%s as %s: %v, want %s", st.name, st.as, got, st.want)
						}
					}
				})
			}
		})
	}
}

// prepare makes, over REST as the admin, a public project "open" and a
// private one "secret", each with a component "app" holding German
// strings, and an account "olga" in no team of either.
func prepare(t *testing.T, s *Stack) fixture {
	t.Helper()
	de := header + "\nmsgid \"Hello\"\nmsgstr \"Hallo\"\n\nmsgid \"Bye\"\nmsgstr \"\"\n\nmsgid \"Thanks\"\nmsgstr \"\"\n\n" +
		"#, fuzzy\nmsgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"%d Datei\"\nmsgstr[1] \"%d Dateien\"\n"
	repo, err := origin.Create(t.TempDir(), map[string][]byte{"po/de.po": []byte(de)})
	if err != nil {
		t.Fatal(err)
	}
	admin := func(method, path string, body any, want int) map[string]any {
		t.Helper()
		code, out := rest(t, s.API, method, path, body)
		if code != want {
			t.Fatalf("%s %s: %d %v", method, path, code, out)
		}
		return out
	}
	fx := fixture{ids: map[string]int64{"none": 1 << 40}}
	for _, p := range []string{"open", "secret"} {
		admin("POST", "projects/", map[string]any{"name": p, "slug": p, "web": "https://x.example/"}, 201)
		admin("POST", "projects/"+p+"/components/", map[string]any{"name": "App", "slug": "app",
			"repo": "file://" + repo, "branch": origin.Branch, "filemask": "po/*.po", "file_format": "po"}, 201)
		Eventually(t, 60*time.Second, func() bool {
			code, tr := rest(t, s.API, "GET", "translations/"+p+"/app/de/", nil)
			return code == 200 && tr["total"] == 4.0
		})
		for _, u := range admin("GET", "translations/"+p+"/app/de/units/", nil, 200)["results"].([]any) {
			u := u.(map[string]any)
			fx.ids[p+"/"+u["source"].([]any)[0].(string)] = int64(u["id"].(float64))
		}
	}
	admin("PATCH", "projects/secret/", map[string]any{"access_control": 100}, 200)
	admin("POST", "users/", map[string]any{"username": "olga", "full_name": "Olga", "email": "olga@x.example"}, 201)
	fx.olga = admin("POST", "users/olga/token/", map[string]any{}, 200)["token"].(string)
	fx.token = map[string]string{"admin": AdminToken, "olga": fx.olga, "anonymous": ""}
	return fx
}

// rest sends a JSON request with the admin's token.
func rest(t *testing.T, api, method, path string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequestWithContext(t.Context(), method, api+path, rd)
	req.Header.Set("Authorization", "Token "+AdminToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}
